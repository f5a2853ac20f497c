#!/usr/bin/env bash
# The corpus half of `make figures`' paper figures: each paper experiment run
# on the captures of captures/corpus.json present in the corpus folder
# (`tessera capture --corpus`, docs/captures.md "The corpus"), each from the
# first frame of its session, past its menus (the FIRST of its range), the
# frames before it fast-forwarded (`tessera experiment NAME --session
# --frames N`), into
# OUT/NAME.json and its CSVs (--csv-dir), which scripts/figures.py draws
# beside the built-in workloads' (docs/experiments.md "make figures").
# Captures not recorded are passed over with a line saying so; with none, no
# experiment runs. An experiment whose OUT/NAME.json is newer than the
# binary and every capture is not run again.
# Usage: scripts/corpus-experiments.sh TESSERA OUT EXPERIMENT...
#   CORPUS_DIR   the corpus folder (default: tessera's, $XDG_DATA_HOME/tessera/corpus)
set -euo pipefail
tessera=$1 out=$2
shift 2
. "$(dirname "$0")/corpus-traces.sh"
# frames per experiment: its default count (tessera experiment --list), but
# re's (each workload's own: a capture's whole length), 12 frames here
frames_of() {
	case $1 in
	tcor) echo 4 ;; re) echo 12 ;; boustrophedonic) echo 30 ;; dtexl) echo 2 ;;
	gspc) echo 2 ;; workloads) echo 3 ;; timing) echo 4 ;; attribute-cache) echo 4 ;;
	*) echo "corpus-experiments: unknown experiment '$1'" >&2; exit 2 ;;
	esac
}
args=() newest=$tessera
while read -r trace; do
	[ "$trace" -nt "$newest" ] && newest=$trace
	args+=(--workload "$trace")
done < <(corpus_traces "$tessera" experiments)
if [ ${#args[@]} -eq 0 ]; then
	echo "experiments: no corpus capture recorded (make corpus): no corpus figure"
	exit 0
fi
mkdir -p "$out"
for x in "$@"; do
	n=$(frames_of "$x")
	if [ "$out/$x.json" -nt "$newest" ]; then
		continue
	fi
	echo "experiment $x on the corpus ($n frames from each session's start) ..."
	start=$(date +%s)
	"$tessera" experiment "$x" "${args[@]}" --session --frames "$n" \
		--csv-dir "$out" > "$out/$x.log" 2>&1 || { cat "$out/$x.log"; exit 1; }
	echo "experiment $x on the corpus: $(( $(date +%s) - start )) s"
done
