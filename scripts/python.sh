#!/usr/bin/env bash
# Prints the python3 to draw the figures with (`make figures`,
# scripts/figures.py; the `figures` test): the first of /usr/bin/python3
# (Debian's) and the python3 on PATH that imports matplotlib, pandas and
# numpy. A python3 first on PATH without them (pyenv, a virtualenv) is
# passed over for Debian's. When none does, installs Debian's
# python3-matplotlib, python3-pandas and python3-numpy
# (TSR_WITH_PYTHON=1 scripts/setup.sh, its output on stderr) and only then
# looks again, so that a first run on a fresh machine works.
# Usage: scripts/python.sh [--no-install]
#   --no-install           look only (CMake's configure step)
#   TSR_SYSTEM_PYTHON      Debian's python3 (default /usr/bin/python3)
#   TSR_PYTHON_SETUP       the install command (default: scripts/setup.sh
#                          with TSR_WITH_PYTHON=1; the test replaces it)
# Exits 1, with a message on stderr, when no python3 has the modules.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SYSTEM=${TSR_SYSTEM_PYTHON:-/usr/bin/python3}
install=1
case "${1:-}" in
  --no-install) install=0 ;;
  "") ;;
  *) echo "usage: scripts/python.sh [--no-install]" >&2; exit 2 ;;
esac

find_python() { # prints the first python3 with the modules
  local p
  for p in "$SYSTEM" "$(command -v python3 || true)"; do
    [ -n "$p" ] && [ -x "$p" ] || continue
    if "$p" -c 'import matplotlib, pandas, numpy' >/dev/null 2>&1; then
      echo "$p"
      return 0
    fi
  done
  return 1
}

find_python && exit 0
if [ $install = 1 ]; then
  if [ -n "${TSR_PYTHON_SETUP:-}" ]; then
    bash -c "$TSR_PYTHON_SETUP" >&2
  else
    TSR_WITH_PYTHON=1 bash "$ROOT/scripts/setup.sh" >&2
  fi
  # the choice is made after the install: a first run works
  find_python && exit 0
fi
echo "python.sh: no python3 with matplotlib, pandas and numpy ($SYSTEM," \
     "$(command -v python3 || echo 'no python3 on PATH'));" \
     "Debian's: TSR_WITH_PYTHON=1 scripts/setup.sh" >&2
exit 1
