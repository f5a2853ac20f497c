#!/bin/sh
# layout.sh [SRC] - the folder graph of the library, derived from the
# #include "folder/file.h" lines of SRC/*/*.c and SRC/*/*.h (SRC: src/ beside
# this script), checked for cycles (README, "Code map"; docs/tbr-pipeline.md),
# and the GPU's folders checked to include neither scene/ nor frontend/.
#
# Prints the folders from the bottom in layers, each folder in the first
# layer above every folder it includes:
#   core, stats -> command, memory, ... -> experiment
# and exits 0. On a cycle, prints the layers it could place, then the
# include edges among the folders on the cycle, and exits 1.
# Test "layout" (tests/CMakeLists.txt) runs it.
set -eu

src=${1:-$(dirname "$0")/../src}
[ -d "$src" ] || { echo "layout.sh: no folder '$src'" >&2; exit 2; }

# "from to" for every include of another folder of src/; "from" alone
# for every folder, so that a folder that includes nothing is placed too.
# One grep and one sed over all the files (a process per file took seconds)
{
	for f in "$src"/*/*.c "$src"/*/*.h; do
		[ -f "$f" ] || continue
		d=${f%/*}
		echo "${d##*/}"
	done
	grep -H '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[A-Za-z0-9_]*/' \
		"$src"/*/*.c "$src"/*/*.h 2>/dev/null |
	sed -n 's|^.*/\([^/]*\)/[^/:]*:[[:space:]]*#[[:space:]]*include[[:space:]]*"\([A-Za-z0-9_]*\)/.*|\1 \2|p' |
	while read -r from to; do
		if [ "$to" != "$from" ] && [ -d "$src/$to" ]; then
			echo "$from $to"
		fi
	done
} | sort -u | awk '
NF == 1 { node[$1] = 1; next }
{ node[$1] = 1; node[$2] = 1; dep[$1, ++ndeps[$1]] = $2; edges[++nedges] = $1 " -> " $2 }
END {
	left = 0
	for (n in node) left++
	order = ""
	while (left > 0) {
		layer = ""
		# a folder goes in this layer when everything it includes is placed
		for (n in node) {
			if (n in placed) continue
			ready = 1
			for (i = 1; i <= ndeps[n]; i++)
				if (!(dep[n, i] in placed) || placed[dep[n, i]] == "new") { ready = 0; break }
			if (ready) { placed[n] = "new"; layer = layer " " n }
		}
		if (layer == "") break
		nl = split(layer, names, " ")
		# sorted, for a stable output
		for (i = 1; i <= nl; i++)
			for (j = i + 1; j <= nl; j++)
				if (names[j] < names[i]) { t = names[i]; names[i] = names[j]; names[j] = t }
		text = ""
		for (i = 1; i <= nl; i++) {
			placed[names[i]] = "old"
			text = text (i > 1 ? ", " : "") names[i]
			left--
		}
		order = order (order == "" ? "" : " -> ") text
	}
	print order
	if (left > 0) {
		# drop, from the top, the folders left that no folder left includes:
		# what remains is on a cycle (or between two)
		do {
			dropped = 0
			for (n in node) {
				if (n in placed) continue
				used = 0
				for (e = 1; e <= nedges && !used; e++) {
					split(edges[e], p, " -> ")
					used = p[2] == n && !(p[1] in placed)
				}
				if (!used) { placed[n] = "above"; dropped = 1 }
			}
		} while (dropped)
		print "layout.sh: the include graph of src/ has a cycle; the include edges among " \
		      "the folders on it:" > "/dev/stderr"
		for (e = 1; e <= nedges; e++) {
			split(edges[e], p, " -> ")
			if (!(p[1] in placed) && !(p[2] in placed))
				print "  " edges[e] > "/dev/stderr"
		}
		exit 1
	}
}'

# The command list is the GPU's whole interface (command/command.h,
# command/resources.h): no folder of the modelled GPU includes the
# workload format (scene/) or a frontend (frontend/).
bad=$(for gpu in geometry raster texture tiling memory timing pipeline; do
	grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"\(scene\|frontend\)/' \
		"$src/$gpu"/*.c "$src/$gpu"/*.h 2>/dev/null || true
done)
if [ -n "$bad" ]; then
	echo "layout.sh: a folder of the modelled GPU includes the workload format or a frontend" \
	     "(the command list is its whole interface):" >&2
	echo "$bad" >&2
	exit 1
fi
