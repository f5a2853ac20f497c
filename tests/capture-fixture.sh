#!/bin/sh
# capture-fixture.sh TESSERA DIR [EGL_CONTEXT]: the captures the tests of
# `tessera run X.trace` replay (tests 095 and 159), made at test time so
# that no binary capture is committed (ctest fixture glmark2_capture):
#   DIR/glmark2.trace  glmark2-es2's build, texture and shading scenes, one
#                      frame each, 160x120, and DIR/ref/frame-NNNN.png,
#                      llvmpipe's images of them (tessera capture --reference)
#   DIR/es2.trace, es3.trace, gl.trace, glx.trace
#                      tests/helpers/egl-context's one frame with an OpenGL ES
#                      2.0, an OpenGL ES 3.0, a desktop OpenGL (EGL) context,
#                      and a desktop OpenGL (GLX) call (when EGL_CONTEXT is given)
# glmark2 moves its scenes by the wall clock (a scene's frame k is drawn at
# the time it took to get there), so only the first frame of each scene is the
# same from one capture to the next: one frame a scene, three scenes.
# Exit 77 (ctest's SKIP_RETURN_CODE) when xvfb-run, xauth, apitrace, eglretrace
# or glmark2-es2 is missing (scripts/setup.sh installs them).
set -eu
tessera=$1 dir=$2 helper=${3:-}
rm -rf "$dir"  # no capture of an earlier run replayed when this one skips
for t in xvfb-run xauth apitrace eglretrace glmark2-es2; do
	if ! command -v "$t" >/dev/null 2>&1; then
		echo "skipped: needs $t (Debian packages xvfb, xauth, apitrace, glmark2-es2-x11)"
		exit 77
	fi
done
mkdir -p "$dir"
"$tessera" capture --out "$dir/glmark2.trace" --reference "$dir/ref" --screen 320x240 --quiet \
	-- glmark2-es2 -b build:nframes=1 -b texture:nframes=1 -b shading:nframes=1 --size 160x120
if [ -n "$helper" ]; then
	# all four or none (test 159 checks them when es3.trace is there)
	for api in es2 es3 gl glx; do
		which=egl
		[ $api = glx ] && which=gl
		if ! EGL_PLATFORM=surfaceless apitrace trace --api $which -o "$dir/$api.trace" \
			"$helper" $api >/dev/null 2>&1 || [ ! -s "$dir/$api.trace" ]; then
			echo "no $api.trace: $helper $api failed under apitrace (Mesa's EGL, libGL.so.1)"
			rm -f "$dir/es2.trace" "$dir/es3.trace" "$dir/gl.trace" "$dir/glx.trace"
			break
		fi
	done
fi
echo "captures in $dir"
