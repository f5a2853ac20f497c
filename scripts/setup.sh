#!/usr/bin/env bash
# Installs the Debian packages tessera needs (only those missing).
# Usage: scripts/setup.sh            (as root, or with sudo available)
set -euo pipefail

PACKAGES=(build-essential cmake pkg-config
          libassimp-dev libjansson-dev libstb-dev libturbojpeg0-dev libzstd-dev zlib1g-dev libpng-dev libdeflate-dev
          libcmocka-dev glmark2-data assimp-testmodels
          glslang-dev spirv-tools spirv-headers libgles-dev
          extremetuxracer-data frozen-bubble-data pingus-data neverball-data
          xvfb xauth apitrace glmark2-es2-x11 libegl-mesa0 libgl1-mesa-dri libgles2 libegl1
          mesa-utils-bin libsdl2-tests libegl-dev libx11-dev)
# libgles-dev: <GLES2/gl2.h> and <GLES2/gl2ext.h>, the GL types and enums of
# src/gles (the GL ES 2.0 context)
# glslang-dev, spirv-tools, spirv-headers: the shader compiler of src/shader
# (glslang's static libraries; SPIRV-Tools' headers and static libraries;
# the C headers of SPIR-V's opcodes); the four *-data are game data for the
# game-like workloads (docs/workloads.md, "Shipped workloads"): about 42, 24,
# 22 and 84 MiB installed; then what `tessera capture` runs
# (docs/captures.md): Xvfb, apitrace and eglretrace, Mesa's llvmpipe through
# EGL and GL ES 2.0, and GL ES 2.0 programs to capture (glmark2-es2, es2gears
# of mesa-utils-bin, SDL2's testgles2 and testsprite2 of libsdl2-tests, 4 MiB,
# in /usr/libexec/installed-tests/SDL2: docs/gles.md "Measured"); libegl-dev and libx11-dev: <EGL/egl.h> and Xlib, the
# drop-in driver's (driver/, docs/driver.md: window sizes of X11 windows)
# clang is used by 'make check-clang' (CI) to prove the build is warning-free there too
# libclang-rt-14-dev: libFuzzer and the sanitizer runtimes (`make fuzz`); clang-14
# only recommends it, and recommends are not installed here
if [ "${TSR_WITH_CLANG:-0}" = 1 ]; then PACKAGES+=(clang libclang-rt-14-dev); fi
# Python for 'make figures' (scripts/figures.py) and the python/tessera loader
# of stats.json, frames.csv, results.csv and --csv-dir folders into pandas
if [ "${TSR_WITH_PYTHON:-0}" = 1 ]; then
  PACKAGES+=(python3 python3-matplotlib python3-pandas python3-numpy)
fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all packages present"
  exit 0
fi
echo "setup: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
