#!/usr/bin/env bash
# Runs piglit's OpenGL ES 2.0 tests twice, on Mesa's llvmpipe (the system's
# libEGL/libGLESv2) and on tessera's drop-in driver (BUILD/driver first on
# LD_LIBRARY_PATH), headless (waffle's surfaceless_egl platform), and prints
# one line a test: name, llvmpipe's result, tessera's result
# (pass/fail/skip/crash/timeout) and, where tessera's differs and is not a
# pass, the first line of tessera's output that says why; then the counts.
#
# Usage: scripts/piglit-gles2.sh [BUILD]     (make piglit; BUILD default: build)
# Environment: PIGLIT_CACHE  where the .deb and the extracted tests go
#                            (default: BUILD/piglit-cache; XDG_CACHE_HOME is
#                            not used unless PIGLIT_CACHE points there)
#              PIGLIT_FILTER a grep -E pattern: only the tests whose name matches
#              PIGLIT_TIMEOUT seconds a test may take (default 60)
#              PIGLIT_LOGS   folder of each run's output (default: CACHE/logs)
#
# Debian's piglit (0~git20220119) is 34 MB to download but 2 GB installed, so
# it is not installed: `apt-get download piglit` fetches the .deb and only the
# GLES2 parts are extracted (about 5 MB): the *_gles2 programs, piglit's
# utility libraries libpiglitutil and libpiglitutil_gles2, the GLSL ES 1.00
# tests (tests/spec/glsl-es-1.00: shader_runner_gles2's .shader_test files,
# glslparsertest_gles2's .vert/.frag files and built-in-constants_gles2's
# minimum-maximums.txt) and the GLES2 EXT_shader_framebuffer_fetch shader tests.
# The programs' arguments are those of piglit's own test lists (opengl.xml,
# shader.xml and glslparser.xml of the package).
#
# Tessera's runs also get BUILD/driver/piglit first on LD_LIBRARY_PATH: its
# libGL.so.1 (driver/piglit_libgl.c) answers glXGetProcAddressARB, through
# which piglit's GLES2 utility library looks up extension functions, with
# the driver's entry points (glvnd's libGL hands out dispatch stubs that
# only a glvnd vendor, such as Mesa, fills in).
#
# Exit status: 0 when every test ran (whatever their results), 1 on a setup
# error (no package, no driver).
set -uo pipefail

BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
DRIVER=$BUILD/driver
CACHE=${PIGLIT_CACHE:-$BUILD/piglit-cache}
TIMEOUT=${PIGLIT_TIMEOUT:-60}
FILTER=${PIGLIT_FILTER:-}
LOGS=${PIGLIT_LOGS:-$CACHE/logs}

if [ ! -e "$DRIVER/libGLESv2.so.2" ] || [ ! -e "$DRIVER/libEGL.so.1" ] ||
   [ ! -e "$DRIVER/piglit/libGL.so.1" ]; then
  echo "piglit-gles2: no driver in $DRIVER (build first: make build)" >&2
  exit 1
fi

# the shared libraries piglit's GLES2 programs link (waffle, Xlib, libGL of
# libglvnd, wayland's client library, xkbcommon) and the tools used here
NEED=(libwaffle-1-0 libxkbcommon0 libgl1 libx11-6 libwayland-client0 libegl1 libegl-mesa0
      libgles2 libgl1-mesa-dri)
missing=()
for p in "${NEED[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "piglit-gles2: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" ||
    { echo "piglit-gles2: apt-get install failed" >&2; exit 1; }
fi

mkdir -p "$CACHE"
P=$CACHE/root/usr/lib/x86_64-linux-gnu/piglit
if [ ! -x "$P/bin/shader_runner_gles2" ]; then
  deb=$(ls "$CACHE"/piglit_*.deb 2>/dev/null | head -n 1)
  if [ -z "$deb" ]; then
    echo "piglit-gles2: apt-get download piglit (34 MB) into $CACHE" >&2
    # apt's download user _apt may not write here: the download then runs as
    # the caller (a warning, not an error)
    (cd "$CACHE" && apt-get download piglit) ||
      { (cd "$CACHE" && $SUDO apt-get update -qq && apt-get download piglit) ||
        { echo "piglit-gles2: apt-get download piglit failed" >&2; exit 1; }; }
    deb=$(ls "$CACHE"/piglit_*.deb | head -n 1)
  fi
  rm -rf "$CACHE/root" && mkdir -p "$CACHE/root"
  L=./usr/lib/x86_64-linux-gnu/piglit
  dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$CACHE/root" --wildcards \
    "$L/bin/*_gles2" "$L/lib/libpiglitutil.so*" "$L/lib/libpiglitutil_gles2.so*" \
    "$L/tests/spec/glsl-es-1.00/*" "$L/tests/opengl.xml.gz" "$L/tests/shader.xml.gz" \
    "$L/tests/glslparser.xml.gz" \
    "$L/generated_tests/spec/EXT_shader_framebuffer_fetch/execution/gles2/*" \
    "$L/generated_tests/spec/EXT_shader_framebuffer_fetch_non_coherent/execution/gles2/*" ||
    { echo "piglit-gles2: extracting $deb failed" >&2; exit 1; }
fi

# the test list: NAME<TAB>GROUP<TAB>COMMAND (words separated by spaces, paths
# relative to $P; piglit's runner gives built-in-constants_gles2 a path
# relative to tests/), from piglit's own lists: every test whose command is a
# *_gles2 program (opengl.xml: the standalone programs), the GLES2 shader
# tests (shader.xml: glsl-es-1.00 and EXT_shader_framebuffer_fetch*/gles2) and
# the GLSL ES 1.00 parser tests (glslparser.xml)
tests_of() { # XML GROUP NAME-PATTERN
  zcat "$P/tests/$1" | sed 's/<Test /\n<Test /g' | grep -E "$3" |
    sed -nE "s/^<Test type=\"[^\"]*\" name=\"([^\"]*)\".*name=\"command\" value=\"\[([^]]*)\]\".*/\1\t$2\t\2/p" |
    sed -E "s/&gt;/>/g; s/&lt;/</g; s/&amp;/\\&/g" |
    awk -F'\t' '{ gsub(/'"'"'/, "", $3); gsub(/, /, " ", $3); gsub(/ spec\//, " tests/spec/", $3)
                  print $1 "\t" $2 "\t" $3 }'
}
LIST=$CACHE/tests.tsv
{
  tests_of opengl.xml.gz program "command\" value=\"\['[a-z0-9_-]+_gles2'"
  tests_of shader.xml.gz shader "shader_runner_gles2'"
  tests_of glslparser.xml.gz parser "glslparsertest_gles2'.*glsl-es-1.00"
} > "$LIST"
if [ -n "$FILTER" ]; then grep -E "$FILTER" "$LIST" > "$LIST.f"; mv "$LIST.f" "$LIST"; fi
if [ ! -s "$LIST" ]; then echo "piglit-gles2: no tests" >&2; exit 1; fi

# runs one test: prints pass/fail/skip/warn/crash/timeout
run_one() { # LIBPATH LOG COMMAND...
  local lib=$1 log=$2; shift 2
  local prog=$1; shift
  # piglit's runner gives -auto -fbo to every program but glslparsertest
  # (which takes its extra words for extension names)
  local flags="-auto -fbo"
  [ "$prog" = glslparsertest_gles2 ] && flags=""
  (cd "$P" && LD_LIBRARY_PATH="$lib" PIGLIT_PLATFORM=surfaceless_egl \
     WAFFLE_PLATFORM=surfaceless_egl TESSERA_OUT= \
     timeout -k 5 "$TIMEOUT" "bin/$prog" "$@" $flags) > "$log" 2>&1 < /dev/null
  local rc=$?
  local r
  r=$(grep -aoE '^PIGLIT: \{"result": "[a-z]+"' "$log" | tail -n 1 | sed -E 's/.*"([a-z]+)"$/\1/')
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then echo timeout
  elif [ "$rc" -ge 128 ]; then echo crash
  elif [ -n "$r" ]; then echo "$r"
  else case $rc in 0) echo pass ;; 2) echo skip ;; 3) echo warn ;; *) echo crash ;; esac
  fi
}

rm -rf "$LOGS" && mkdir -p "$LOGS/llvmpipe" "$LOGS/tessera"
unset TESSERA_OUT TESSERA_FRAMES TESSERA_SET TESSERA_CONFIG
RESULTS=$CACHE/results.tsv
: > "$RESULTS"
printf '%-72s %-9s %-9s %s\n' test llvmpipe tessera "why (tessera)"
while IFS=$'\t' read -r name group cmd; do
  safe=$(printf '%s' "$name" | tr -c 'A-Za-z0-9._-' '_')
  # shellcheck disable=SC2086
  a=$(run_one "$P/lib" "$LOGS/llvmpipe/$safe.log" $cmd)
  # shellcheck disable=SC2086
  b=$(run_one "$DRIVER/piglit:$DRIVER:$P/lib" "$LOGS/tessera/$safe.log" $cmd)
  why=""
  if [ "$b" != pass ] && [ "$a" != "$b" ]; then
    # tessera's reason: the first line of its output saying why
    why=$(grep -aE -m 1 'requires|required|ERROR|Failed|expected|error|Expected' \
            "$LOGS/tessera/$safe.log" | cut -c 1-110)
  fi
  printf '%-72s %-9s %-9s %s\n' "$name" "$a" "$b" "$why"
  printf '%s\t%s\t%s\t%s\n' "$name" "$group" "$a" "$b" >> "$RESULTS"
done < "$LIST"

echo
for g in program shader parser all; do
  awk -F'\t' -v g="$g" '
    g == "all" || $2 == g { n++; if ($3 == "pass") { lp++; if ($4 == "pass") both++
                                                        if ($4 == "skip") sk++ }
                            if ($4 == "pass") tp++ }
    END { if (n) printf "%-8s %3d tests: llvmpipe passes %d, tessera passes %d; " \
                        "tessera passes %d of the %d llvmpipe passes (%.1f%%); " \
                        "%d of these tessera skips (an extension or ES 3 context it lacks): " \
                        "%d of the other %d pass (%.1f%%)\n",
                        g, n, lp, tp, both, lp, lp ? 100.0 * both / lp : 0,
                        sk, both, lp - sk, lp - sk ? 100.0 * both / (lp - sk) : 0 }' "$RESULTS"
done
echo "(program: the *_gles2 programs; shader: shader_runner_gles2 tests; parser:" \
     "glslparsertest_gles2 on glsl-es-1.00; logs in $LOGS)"
exit 0
