#!/usr/bin/env bash
# Runs every libFuzzer harness of fuzz/ (docs/fuzzing.md) for
# FUZZ_SECONDS each, one at a time, over a corpus kept in
# $BUILD/corpus/<name> and seeded from the shipped files and test data.
# Usage: scripts/fuzz.sh [BUILD_DIR] [NAME...]   (BUILD_DIR: build-fuzz)
#   FUZZ_SECONDS=N   seconds per harness (default 60)
#   FUZZ_RUNS=N      instead: N inputs per harness from a fixed seed (-seed=1),
#                    a repeatable run (CI: make fuzz-ci); mesh N/10, workload N/2
#   FUZZ_JOBS=N      harnesses run N at a time (default 1; each is one
#                    process, and libFuzzer's runs do not depend on it)
# Crash inputs land in $BUILD/artifacts/, each harness's log in
# $BUILD/logs/<name>.log. Exits 1 when a harness found a crash.
set -uo pipefail

BUILD=$(realpath -m "${1:-build-fuzz}")
shift || true
SECONDS_EACH=${FUZZ_SECONDS:-60}
ROOT=$(cd "$(dirname "$0")/.." && pwd -P)
ASSIMP=/usr/share/assimp/models
GLMARK=/usr/share/glmark2

# name, -max_len; the order is the order of the runs: the longest first
# (FUZZ_RUNS, 2 at a time: gles, workload and mesh take most of it), so
# that the short ones fill in beside them
FUZZERS=(gles:4096 workload:16384 mesh:65536 image:65536 trace_bin:16384
         trace_text:8192 config:16384 set:1024)
# fuzz_mesh.c's extension table: the first byte of an input picks one
MESH_EXTS=(obj ply stl off gltf glb 3ds dae fbx x md2 ac)

seed() { # NAME FILE...: copies the files into the corpus (kept if present)
	local dir=$BUILD/corpus/$1; shift
	mkdir -p "$dir"
	for f in "$@"; do [ -f "$f" ] && cp -n "$f" "$dir/" ; done
}

seed_mesh() { # prefixes each small model file with its extension's index
	local dir=$BUILD/corpus/mesh i f
	mkdir -p "$dir"
	for i in "${!MESH_EXTS[@]}"; do
		find "$ASSIMP" "$GLMARK/models" -iname "*.${MESH_EXTS[$i]}" -size -12k \
			2>/dev/null | sort | head -4 | while read -r f; do
			local out
			out="$dir/seed-$(basename "$f")"
			[ -e "$out" ] || { printf "\\x$(printf %02x "$i")"; cat "$f"; } > "$out"
		done
	done
}

# An allocation over 2 GiB fails (NULL, or std::bad_alloc inside assimp) as
# it would on a machine without that memory, instead of ending the run:
# what is checked is that tessera reports it (TSR_ERR_NOMEM, a parse error)
export ASAN_OPTIONS=${ASAN_OPTIONS:-allocator_may_return_null=1:max_allocation_size_mb=2048}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$ROOT/fuzz/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# tessera's own memory budget (core/limits.h) at 256 MiB: a 21-byte TGA may
# declare 600 MB of texels, legitimately (RLE), and decoding it under ASan
# outlasts the 10 s timeout; the harnesses look for faults, not big inputs
export TESSERA_MEMORY_LIMIT=${TESSERA_MEMORY_LIMIT:-256M}

mkdir -p "$BUILD/artifacts" "$BUILD/logs"
seed config "$ROOT"/configs/*.json "$ROOT"/tests/data/*.json
seed set "$ROOT"/fuzz/seeds/set/*
seed workload "$ROOT"/workloads/*.json "$ROOT"/tests/data/*.json
seed_mesh
seed image $(find "$GLMARK/textures" "$ASSIMP" -iname '*.png' -size -8k 2>/dev/null |
	sort | head -12) $(find "$ASSIMP" \( -iname '*.jpg' -o -iname '*.bmp' -o -iname '*.tga' \) \
	-size -24k 2>/dev/null | sort | head -6)
seed trace_text "$ROOT"/tests/data/*.txt "$ROOT"/fuzz/seeds/trace_text/*
seed trace_bin "$ROOT"/fuzz/seeds/trace_bin/*
# GL call sequences (fuzz/seeds/gles/make_seeds.py writes them)
seed gles $(ls "$ROOT"/fuzz/seeds/gles/* | grep -v '\.py$')

want=("$@")
JOBS=${FUZZ_JOBS:-1}

# run_one NAME MAX_LEN: one harness; its line of the table into
# $BUILD/logs/NAME.result, "ok" or what it found
run_one() {
	local name=$1 max_len=$2 extra=()
	case $name in
	config|workload) extra=(-dict=fuzz/json.dict);;
	gles) extra=(-dict=fuzz/gles.dict);; # GLSL tokens for the shader sources
	esac
	# assimp (not tessera) crashes on some inputs (fuzz_mesh.c): a timed
	# mesh run imports in process for coverage and forks a child that
	# libFuzzer restarts after a crash, so the run goes on; each crash
	# still lands in artifacts/. A FUZZ_RUNS run (CI) imports through
	# tsr_model_load's child process, as tessera does, where no input may
	# crash the harness
	if [ "$name" = mesh ]; then
		if [ -n "${FUZZ_RUNS:-}" ]; then export TSR_FUZZ_MESH_ISOLATED=1
		else extra=(-fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1); fi
	fi
	local before log=$BUILD/logs/$name.log start
	before=$(ls "$BUILD/artifacts" | grep -c "^$name-")
	start=$(date +%s)
	local budget=(-max_total_time="$SECONDS_EACH")
	# a repeatable run (CI) allows 30 s an input: a seed that decodes
	# megapixel textures under ASan takes 2 s alone, and more on a busy
	# machine, which is no fault (a timed run keeps 10 s to find slow ones)
	local timeout=10
	[ -n "${FUZZ_RUNS:-}" ] && timeout=30
	[ -n "${FUZZ_RUNS:-}" ] && budget=(-runs="$FUZZ_RUNS" -seed=1)
	# FUZZ_RUNS inputs, but fewer for the two slow harnesses (CI logs, 2
	# at a time on 2 cores): mesh a tenth (each isolated import forks an
	# ASan child: 1000 inputs took 113-143 s), workload half (5000 inputs
	# took 95-151 s)
	[ -n "${FUZZ_RUNS:-}" ] && [ "$name" = mesh ] && budget=(-runs=$((FUZZ_RUNS / 10)) -seed=1)
	[ -n "${FUZZ_RUNS:-}" ] && [ "$name" = workload ] && budget=(-runs=$((FUZZ_RUNS / 2)) -seed=1)
	# a repeatable run (FUZZ_RUNS) makes the same inputs on every machine:
	# libFuzzer's CMP mutations copy compared values into inputs, and some
	# comparisons are of addresses (stack and mmap), so the harness runs
	# without address randomisation (setarch -R, where the kernel allows
	# it), in a fixed environment, with paths relative to the checkout
	local fixed=()
	if [ -n "${FUZZ_RUNS:-}" ]; then
		fixed=(env -i PATH=/usr/bin:/bin LANG=C ASAN_OPTIONS="$ASAN_OPTIONS"
		       LSAN_OPTIONS="${LSAN_OPTIONS//$ROOT\//}" UBSAN_OPTIONS="$UBSAN_OPTIONS"
		       TESSERA_MEMORY_LIMIT="$TESSERA_MEMORY_LIMIT"
		       ${TSR_FUZZ_MESH_ISOLATED:+TSR_FUZZ_MESH_ISOLATED=1})
		setarch "$(uname -m)" -R true 2>/dev/null && fixed+=(setarch "$(uname -m)" -R)
	fi
	local rb
	rb=$(realpath -m --relative-to="$ROOT" "$BUILD")
	(cd "$ROOT" && "${fixed[@]}" "$rb/fuzz/fuzz_$name" "$rb/corpus/$name" "${budget[@]}" \
		-max_len="$max_len" -timeout="$timeout" -report_slow_units="$timeout" \
		-rss_limit_mb=2048 -print_final_stats=1 -close_fd_mask=1 \
		-artifact_prefix="$rb/artifacts/$name-" "${extra[@]}") > "$log" 2>&1
	local rc=$? took last cov ft found result
	took=$(( $(date +%s) - start ))
	last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1)
	cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$last")
	ft=$(sed -n 's/.*ft: \([0-9]*\).*/\1/p' <<<"$last")
	found=$(( $(ls "$BUILD/artifacts" | grep -c "^$name-") - before ))
	if [ $rc -eq 0 ] && [ "$found" -eq 0 ]; then
		result=ok
	else
		result="$found new input(s) in $BUILD/artifacts/ (see $log)"
	fi
	printf '%-11s %8s %8s %8s  %s\n' "$name" "$took" "${cov:--}" "${ft:--}" "$result" \
		> "$BUILD/logs/$name.result"
}

names=()
for entry in "${FUZZERS[@]}"; do
	name=${entry%%:*}
	if [ ${#want[@]} -gt 0 ] && [[ ! " ${want[*]} " =~ " $name " ]]; then continue; fi
	[ -x "$BUILD/fuzz/fuzz_$name" ] || { echo "fuzz: $BUILD/fuzz/fuzz_$name missing (build with -DTSR_FUZZ=ON)" >&2; exit 2; }
	names+=("$name")
done
printf '%-11s %8s %8s %8s  %s\n' fuzzer seconds cov ft result
running=0
for entry in "${FUZZERS[@]}"; do
	name=${entry%%:*}; max_len=${entry#*:}
	[[ " ${names[*]} " =~ " $name " ]] || continue
	rm -f "$BUILD/logs/$name.result"
	if [ "$JOBS" -le 1 ]; then
		run_one "$name" "$max_len"
		cat "$BUILD/logs/$name.result"
		continue
	fi
	[ $running -ge "$JOBS" ] && { wait -n; running=$((running - 1)); }
	run_one "$name" "$max_len" &
	running=$((running + 1))
done
wait
failed=()
for name in "${names[@]}"; do
	[ "$JOBS" -le 1 ] || cat "$BUILD/logs/$name.result"
	grep -q '  ok$' "$BUILD/logs/$name.result" || failed+=("$name")
done
if [ ${#failed[@]} -gt 0 ]; then
	echo "fuzz: crashes in ${failed[*]}; inputs in $BUILD/artifacts/" >&2
	# what a CI log must carry for the input to be reproduced elsewhere
	# (the artifacts do not outlive the CI machine): each harness's report
	# and each new input, base64 (at most 64 KiB of input each)
	for name in "${failed[@]}"; do
		echo "fuzz: $name: the end of $BUILD/logs/$name.log:" >&2
		grep -v '^#[0-9]' "$BUILD/logs/$name.log" | tail -40 >&2
		for f in "$BUILD/artifacts/$name"-*; do
			[ -f "$f" ] || continue
			echo "fuzz: $f ($(wc -c < "$f") bytes), base64:" >&2
			head -c 65536 "$f" | base64 >&2
		done
	done
	exit 1
fi
