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

# make figures: every experiment's tables (tessera experiment NAME --csv-dir)
# and the papers' figures drawn from them (scripts/figures.py)
EXPERIMENTS ?= tcor attribute-cache re workloads boustrophedonic timing gspc dtexl
XP_DIR     ?= out/experiments
FIG_DIR    ?= out/figures
XP_ARGS    ?=
# per experiment: XP_ARGS_<name> (e.g. XP_ARGS_boustrophedonic=--frames 8)
# the python3 that draws the figures: empty, scripts/python.sh chooses it
# when `make figures` runs, after installing Debian's matplotlib and pandas
# if no python3 has them (/usr/bin/python3 first: a PATH python3 of pyenv or
# a virtualenv may lack them)
PYTHON     ?=

# make corpus: the captures of captures/corpus.json with llvmpipe's images
# (tessera capture --corpus, docs/captures.md "The corpus"): CORPUS names
# entries (empty: all), CORPUS_DIR the data folder (empty: tessera's
# default, $XDG_DATA_HOME/tessera/corpus); installs the entries' Debian
# packages (root); not part of make check (minutes)
CORPUS     ?=
CORPUS_DIR ?=

.PHONY: corpus corpus-heatmaps corpus-experiments piglit all deps build demo check check-fast check-asan check-clang check-slurm fuzz fuzz-ci bench clean \
	figures figures-draw

all: build

deps:
	@bash scripts/setup.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DTSR_WERROR=ON >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

demo: build
	./$(BUILD)/tessera run $(WORKLOAD) --config $(CONFIG) --frames $(FRAMES) --out out/demo

# the tests JOBS at a time, the costliest first (tests/CMakeLists.txt)
check: build
	ctest --test-dir $(BUILD) -j $(JOBS) --output-on-failure

corpus: build
	./$(BUILD)/tessera capture --corpus $(CORPUS) $(if $(CORPUS_DIR),--data $(CORPUS_DIR))

# piglit's OpenGL ES 2.0 tests on llvmpipe and on the drop-in driver, side by
# side (scripts/piglit-gles2.sh, docs/driver.md "piglit"): downloads Debian's
# piglit .deb (34 MB) into $(BUILD)/piglit-cache, so not part of make check
piglit: build
	bash scripts/piglit-gles2.sh $(BUILD)

# the tests not labelled slow (tests/CMakeLists.txt): the quick loop while
# editing, well under 30 s after the build; make check runs them all
check-fast: build
	ctest --test-dir $(BUILD) -j $(JOBS) -LE slow --output-on-failure

# the tests under AddressSanitizer and UBSan (the library once: TSR_SANITIZE
# implies TSR_SINGLE_LIBRARY), but for those labelled long (tests/CMakeLists.txt)
check-asan: deps
	@cmake -S . -B $(BUILD)-asan -DCMAKE_BUILD_TYPE=Debug -DTSR_SANITIZE=ON -DTSR_WERROR=ON \
		-DTSR_BENCH_ALL=OFF >/dev/null
	@cmake --build $(BUILD)-asan -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ctest --test-dir $(BUILD)-asan -j $(JOBS) -LE long --output-on-failure

# everything but the benchmarks built with clang (the library once:
# TSR_SINGLE_LIBRARY), warnings as errors, and the tests not labelled slow
# (the slow ones run in make check, and those not labelled long in check-asan)
check-clang:
	@TSR_WITH_CLANG=1 bash scripts/setup.sh
	@CC=clang CXX=clang++ cmake -S . -B $(BUILD)-clang -DCMAKE_BUILD_TYPE=Release -DTSR_WERROR=ON \
		-DTSR_SINGLE_LIBRARY=ON -DTSR_BENCH_ALL=OFF >/dev/null
	@cmake --build $(BUILD)-clang -j $(JOBS)
	ctest --test-dir $(BUILD)-clang -j $(JOBS) -LE slow --output-on-failure

# a single-node Slurm cluster on localhost (Debian's slurm-wlm and munge,
# installed if missing; root): a job array, and a sweep through sbatch
# compared with the same sweep run locally; torn down afterwards
check-slurm: build
	@BUILD=$(BUILD) bash scripts/check-slurm.sh

# libFuzzer harnesses of fuzz/ (docs/fuzzing.md): FUZZ_SECONDS each, one at a time
fuzz:
	@TSR_WITH_CLANG=1 bash scripts/setup.sh
	@CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTSR_FUZZ=ON -DTSR_BENCH_ALL=OFF \
		-DTSR_BUILD_TESTS=OFF -DTSR_WERROR=ON >/dev/null
	@cmake --build build-fuzz -j $(JOBS)
	FUZZ_SECONDS=$(FUZZ_SECONDS) bash scripts/fuzz.sh build-fuzz

# CI: every harness for FUZZ_RUNS inputs each from a fixed seed over the seed
# corpus: repeatable, about a minute of fuzzing; JOBS harnesses at a time
# (each is one process; the runs do not depend on it)
fuzz-ci:
	@TSR_WITH_CLANG=1 bash scripts/setup.sh
	@CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTSR_FUZZ=ON -DTSR_BENCH_ALL=OFF \
		-DTSR_BUILD_TESTS=OFF -DTSR_WERROR=ON >/dev/null
	@cmake --build build-fuzz -j $(JOBS)
	FUZZ_RUNS=$(FUZZ_RUNS) FUZZ_JOBS=$(JOBS) bash scripts/fuzz.sh build-fuzz

# each experiment runs only when its DIR/NAME.json is older than the binary
# (or missing): rerunning after a figure-script change only redraws; remove
# $(XP_DIR) (or one NAME.json) to rerun, e.g. with other XP_ARGS. One with a
# sweep specification (experiments/NAME.json) runs through it, `tessera
# experiment NAME --sweep` in DIR/NAME-sweep (each point its own process,
# all cores; the same CSVs): an interrupted run resumes with its finished
# points, a sweep folder older than the binary is removed first. With
# XP_ARGS or XP_ARGS_<name> (which --sweep refuses) it runs in-process.
# The python3 is chosen in the recipe, after the install (a make variable
# would be expanded before it: the first run on a fresh machine failed).
figures: build
	@py="$(PYTHON)"; [ -n "$$py" ] || py=$$(bash scripts/python.sh) || exit 1; \
	echo "figures: $$py"; $(MAKE) --no-print-directory figures-draw PYTHON="$$py"

figures-draw: $(EXPERIMENTS:%=$(XP_DIR)/%.json) $(FIG_DIR)/heatmaps/stats.json corpus-heatmaps \
	corpus-experiments
	@py="$(PYTHON)"; [ -n "$$py" ] || py=$$(bash scripts/python.sh --no-install) || exit 1; \
	echo "$$py scripts/figures.py $(XP_DIR) -o $(FIG_DIR)"; \
	"$$py" scripts/figures.py $(XP_DIR) -o $(FIG_DIR)

# the heatmap gallery: every per-tile counter of glmark-scene's last frame
# (tessera run --heatmaps, docs/command-line.md), beside the figures
HEAT_WORKLOAD ?= glmark-scene
HEAT_ARGS     ?= --frames 3 --timing on --set elimination.rendering=true
HEAT_COUNTERS ?= quads_shaded,tile_cycles,l2_misses,pb_read_bytes,line_requests,tiles_skipped
$(FIG_DIR)/heatmaps/stats.json: $(BUILD)/tessera
	@echo "heatmaps of $(HEAT_WORKLOAD) into $(FIG_DIR)/heatmaps ..."
	@./$(BUILD)/tessera run $(HEAT_WORKLOAD) $(HEAT_ARGS) --dump-frames last \
	  --heatmaps $(HEAT_COUNTERS) --out $(FIG_DIR)/heatmaps --quiet

# and of the last frame of each corpus capture recorded (make corpus;
# scripts/corpus-heatmaps.sh passes over those not recorded)
CORPUS_HEAT_ARGS     ?=
CORPUS_HEAT_COUNTERS ?= quads_shaded,l2_misses,pb_read_bytes,line_requests
corpus-heatmaps:
	@bash scripts/corpus-heatmaps.sh ./$(BUILD)/tessera $(FIG_DIR)/heatmaps-corpus \
	  $(CORPUS_HEAT_COUNTERS) $(CORPUS_HEAT_ARGS)

# and the paper experiments on the corpus captures recorded (make corpus),
# past the games' menus, into $(XP_DIR)/corpus: scripts/figures.py draws
# each paper's figures of the corpus beside the built-in workloads'
# (scripts/corpus-experiments.sh passes over what is not recorded)
CORPUS_EXPERIMENTS ?= tcor re boustrophedonic dtexl gspc
corpus-experiments:
	@bash scripts/corpus-experiments.sh ./$(BUILD)/tessera $(XP_DIR)/corpus \
	  $(filter $(EXPERIMENTS),$(CORPUS_EXPERIMENTS))

$(XP_DIR)/%.json: $(BUILD)/tessera
	@mkdir -p $(XP_DIR)
	@echo "experiment $* ..."; start=$$(date +%s); sweep=$(XP_DIR)/$*-sweep; how=; \
	if [ -f experiments/$*.json ] && [ -z "$(strip $(XP_ARGS) $(XP_ARGS_$*))" ]; then \
	  if [ -e $$sweep ] && ! [ $$sweep/sweep.log -nt $(BUILD)/tessera ]; then rm -rf $$sweep; fi; \
	  how="--sweep --out $$sweep"; \
	fi; \
	./$(BUILD)/tessera experiment $* $$how --csv-dir $(XP_DIR) $(XP_ARGS) $(XP_ARGS_$*) \
	  > $(XP_DIR)/$*.log 2>&1 || { cat $(XP_DIR)/$*.log; exit 1; }; \
	echo "experiment $*: $$(( $$(date +%s) - start )) s"

# the benchmarks are not in an LTO build's default target (TSR_BENCH_ALL,
# CMakeLists.txt): built here by name
bench: build
	@cmake --build $(BUILD) -j $(JOBS) --target bench
	./$(BUILD)/bench_frames
	./$(BUILD)/bench_timing
	./$(BUILD)/bench_replay
	./$(BUILD)/bench_crc
	./$(BUILD)/bench_shader

clean:
	rm -rf $(BUILD) $(BUILD)-asan $(BUILD)-clang build-fuzz out
