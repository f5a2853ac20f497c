#!/bin/sh
# python-select.sh SOURCE_DIR - test of scripts/python.sh, the choice of the
# python3 for `make figures` and the figures test: fake python3 scripts
# (which "have" matplotlib and pandas when a marker file exists) stand for
# Debian's /usr/bin/python3 and for a pyenv or virtualenv python3 first on
# PATH; a fake install command creates the marker. Test "python-select"
# (tests/CMakeLists.txt).
set -eu
src=${1:?usage: python-select.sh SOURCE_DIR}
sel="$src/scripts/python.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tsr-python-select.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0
check() { # WHAT WANT GOT
	if [ "$2" = "$3" ]; then echo "ok: $1"
	else echo "FAIL: $1: expected '$2', got '$3'"; fails=$((fails + 1)); fi
}
# fake NAME MARKER: a python3 that imports the modules once MARKER exists
fake() {
	mkdir -p "$tmp/$1"
	printf '#!/bin/sh\n[ -e "%s" ] && exit 0\necho "ModuleNotFoundError: No module named matplotlib" >&2\nexit 1\n' \
		"$2" > "$tmp/$1/python3"
	chmod +x "$tmp/$1/python3"
}
fake venv "$tmp/venv-has-modules"     # a PATH python3 without the modules
fake debian "$tmp/debian-has-modules" # Debian's, without them until installed
sys="$tmp/debian/python3"
path="$tmp/venv:$PATH"
install="touch '$tmp/debian-has-modules'; echo installed"

# 1. a fresh machine: no python3 has the modules; python.sh installs them
# and then chooses Debian's, not the PATH python3 (the first run works)
got=$(PATH=$path TSR_SYSTEM_PYTHON=$sys TSR_PYTHON_SETUP=$install bash "$sel" 2>"$tmp/err") || got="exit $?"
check "first run: installs, then Debian's python3" "$sys" "$got"
check "first run: the install ran (its output on stderr)" installed "$(cat "$tmp/err")"

# 2. installed: Debian's is chosen, the PATH python3 passed over, nothing installed
got=$(PATH=$path TSR_SYSTEM_PYTHON=$sys TSR_PYTHON_SETUP="echo installed-again" bash "$sel" 2>"$tmp/err") || got="exit $?"
check "installed: Debian's python3 before the PATH one" "$sys" "$got"
check "installed: no install" "" "$(cat "$tmp/err")"

# 3. only the PATH python3 has the modules: it is chosen
rm "$tmp/debian-has-modules"; touch "$tmp/venv-has-modules"
got=$(PATH=$path TSR_SYSTEM_PYTHON=$sys bash "$sel" --no-install 2>/dev/null) || got="exit $?"
check "only the PATH python3 has them: chosen" "$tmp/venv/python3" "$got"

# 4. none has them, --no-install (CMake's look): exit 1 and a message, no install
rm "$tmp/venv-has-modules"
got=$(PATH=$path TSR_SYSTEM_PYTHON=$sys TSR_PYTHON_SETUP="echo installed" bash "$sel" --no-install 2>"$tmp/err") || got="exit $?"
check "none, --no-install: fails" "exit 1" "$got"
grep -q "no python3 with matplotlib" "$tmp/err" && msg=yes || msg=no
check "none, --no-install: says why" yes "$msg"
grep -q installed "$tmp/err" && ran=yes || ran=no
check "none, --no-install: no install" no "$ran"

# 5. the real /usr/bin/python3, when it has Debian's modules, is chosen over
# the fake PATH python3 without them (whether it has them: found, not
# imported, which took a second here; python.sh imports them)
if /usr/bin/python3 -c 'import importlib.util as u, sys
sys.exit(any(u.find_spec(m) is None for m in ("matplotlib", "pandas", "numpy")))' \
	>/dev/null 2>&1; then
	got=$(PATH=$path bash "$sel" --no-install 2>/dev/null) || got="exit $?"
	check "this machine: /usr/bin/python3 over a PATH python3 without the modules" \
		/usr/bin/python3 "$got"
else
	echo "note: /usr/bin/python3 lacks matplotlib/pandas/numpy here: case 5 not run"
fi
[ $fails -eq 0 ] || { echo "python-select: $fails failed"; exit 1; }
echo "python-select: all passed"
