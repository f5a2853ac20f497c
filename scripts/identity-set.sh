#!/bin/bash
# identity-set.sh BINARY OUT [quick] - the runs whose outputs a refactor must
# keep bit for bit: 9 workloads x 3 frames on tcor-table1 with every frame's
# PNG, heavy-3d in timing mode, glmark-scene on gspc-8mb (IMR; functional and
# timing), on re-table1-re-te and on dtexl-table2, then (unless quick) the
# experiments tcor, re, dtexl and gspc (--frames 2, their tables as CSV).
# Run it with the binary before and after a change, then `diff -r` the two
# OUT folders: only the experiment manifests' command and commit may differ.
# Workloads and configs are given as paths relative to the repository, so
# stats.json's paths are the same for binaries built anywhere.
set -euo pipefail
B=$(realpath "$1"); O=$(realpath -m "$2")
cd "$(dirname "$0")/.."
rm -rf "$O"; mkdir -p "$O"
for w in glmark-scene heavy-3d ui-2d sprites-2d shadow-map-3d gltf-truck camera-pan postfx-bloom city-racing-3d; do
	"$B" run workloads/$w.json --config configs/tcor-table1.json --frames 3 --out "$O/run-$w" \
		--dump-frames all --quiet
done
"$B" run workloads/heavy-3d.json --config configs/tcor-table1.json --frames 2 --out "$O/timing-tbr" \
	--set timing.enabled=true --quiet
for t in false true; do
	"$B" run workloads/glmark-scene.json --config configs/gspc-8mb.json --frames 2 \
		--out "$O/imr-timing-$t" --set timing.enabled=$t --quiet 2>/dev/null
done
"$B" run workloads/glmark-scene.json --config configs/re-table1-re-te.json --frames 3 --out "$O/re" --quiet 2>/dev/null
"$B" run workloads/glmark-scene.json --config configs/dtexl-table2.json --frames 2 --out "$O/dtexl" --quiet
[ "${3:-}" = quick ] && exit 0
for x in tcor re dtexl gspc; do
	"$B" experiment $x --frames 2 -j 2 --csv-dir "$O/xp-$x" > "$O/xp-$x.txt" 2>&1
done
