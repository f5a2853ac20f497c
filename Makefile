# tessera - the two commands:
#   make demo    install missing packages, build, run the default workload
#   make check   install missing packages, build (warnings are errors), run the tests
BUILD      ?= build
JOBS       ?= 2
WORKLOAD   ?= workloads/glmark-scene.json
CONFIG     ?= configs/tcor-table1.json
FRAMES     ?= 30
FUZZ_SECONDS ?= 60
FUZZ_RUNS    ?= 5000

.PHONY: all deps build demo check check-asan check-clang check-slurm fuzz fuzz-ci bench clean

all: build

deps:
	@bash scripts/setup.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DTSR_WERROR=ON >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

demo: build
	./$(BUILD)/tessera run $(WORKLOAD) --config $(CONFIG) --frames $(FRAMES) --out out/demo

check: build
	ctest --test-dir $(BUILD) --output-on-failure

check-asan: deps
	@cmake -S . -B $(BUILD)-asan -DCMAKE_BUILD_TYPE=Debug -DTSR_SANITIZE=ON -DTSR_WERROR=ON >/dev/null
	@cmake --build $(BUILD)-asan -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ctest --test-dir $(BUILD)-asan --output-on-failure

check-clang:
	@TSR_WITH_CLANG=1 bash scripts/setup.sh
	@CC=clang cmake -S . -B $(BUILD)-clang -DCMAKE_BUILD_TYPE=Release -DTSR_WERROR=ON >/dev/null
	@cmake --build $(BUILD)-clang -j $(JOBS)
	ctest --test-dir $(BUILD)-clang --output-on-failure

# a single-node Slurm cluster on localhost (Debian's slurm-wlm and munge,
# installed if missing; root): a job array, and a sweep through sbatch
# compared with the same sweep run locally; torn down afterwards
check-slurm: build
	@BUILD=$(BUILD) bash scripts/check-slurm.sh

# libFuzzer harnesses of fuzz/ (README, "Fuzzing"): FUZZ_SECONDS each, one at a time
fuzz:
	@TSR_WITH_CLANG=1 bash scripts/setup.sh
	@CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTSR_FUZZ=ON \
		-DTSR_BUILD_TESTS=OFF -DTSR_WERROR=ON >/dev/null
	@cmake --build build-fuzz -j $(JOBS)
	FUZZ_SECONDS=$(FUZZ_SECONDS) bash scripts/fuzz.sh build-fuzz

# CI: every harness for FUZZ_RUNS inputs each from a fixed seed over the seed
# corpus: repeatable, about a minute of fuzzing
fuzz-ci:
	@TSR_WITH_CLANG=1 bash scripts/setup.sh
	@CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTSR_FUZZ=ON \
		-DTSR_BUILD_TESTS=OFF -DTSR_WERROR=ON >/dev/null
	@cmake --build build-fuzz -j $(JOBS)
	FUZZ_RUNS=$(FUZZ_RUNS) bash scripts/fuzz.sh build-fuzz

bench: build
	./$(BUILD)/bench_frames
	./$(BUILD)/bench_timing
	./$(BUILD)/bench_replay
	./$(BUILD)/bench_crc

clean:
	rm -rf $(BUILD) $(BUILD)-asan $(BUILD)-clang build-fuzz out
