#!/usr/bin/env bash
# The corpus half of `make figures`' heatmap gallery: for each capture of
# captures/corpus.json present in the corpus folder (`tessera capture
# --corpus`, docs/captures.md "The corpus"), the per-tile heatmaps of its
# last frame (`tessera run CAPTURE --heatmaps`, docs/command-line.md) into
# OUT/NAME/. Captures not recorded are passed over with a line saying so;
# a capture whose heatmaps are newer than it and the binary is not run again.
# Usage: scripts/corpus-heatmaps.sh TESSERA OUT COUNTERS [RUN_ARGS...]
#   CORPUS_DIR   the corpus folder (default: tessera's, $XDG_DATA_HOME/tessera/corpus)
set -euo pipefail
tessera=$1 out=$2 counters=$3
shift 3
. "$(dirname "$0")/corpus-traces.sh"
mkdir -p "$out"
while read -r trace; do
	name=$(basename "$trace" .trace)
	if [ "$out/$name/stats.json" -nt "$trace" ] && [ "$out/$name/stats.json" -nt "$tessera" ]; then
		continue
	fi
	echo "heatmaps of the corpus capture $name into $out/$name ..."
	rm -rf "$out/$name"
	"$tessera" run "$trace" "$@" --dump-frames last --heatmaps "$counters" \
		--out "$out/$name" --quiet < /dev/null
done < <(corpus_traces "$tessera" heatmaps)
