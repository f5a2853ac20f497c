#!/bin/sh
# file-calls.sh SRC OBJDIR FOLDER... - the calls between the files of
# each folder SRC/FOLDER, from the symbols of their built objects
# (OBJDIR/src/FOLDER/NAME.c.o, their ELF symbol tables read with readelf;
# nm loaded the LTO plugin for each object of the LTO build, a fifth of a
# second each): file A depends on file B when A's object needs a
# function or a table that B's object defines. Checks that
# no two files of a folder call each other in a loop (a cycle of any
# length), prints the edges, and exits 1 on a cycle. Static and inline
# functions are not seen: a file's own helpers, and a header's inline
# functions, are no calls between files.
# Test "file-calls" (tests/CMakeLists.txt) runs it on src/pipeline and
# src/raster.
set -eu
src=$1; objdir=$2; shift 2
[ -d "$objdir" ] || { echo "file-calls.sh: no folder '$objdir'" >&2; exit 2; }
status=0
for folder in "$@"; do
	dir=$objdir/src/$folder
	[ -d "$dir" ] || { echo "file-calls.sh: no objects of '$folder' in '$dir'" >&2; exit 2; }
	for c in "$src/$folder"/*.c; do
		o=$dir/$(basename "$c").o
		[ -f "$o" ] || { echo "file-calls.sh: no object '$o' (build first)" >&2; exit 2; }
	done
	edges=$(for c in "$src/$folder"/*.c; do
		f=$(basename "$c" .c)
		o=$dir/$f.c.o
		readelf -Ws "$o" | awk -v f="$f" '$5 ~ /^(GLOBAL|WEAK)$/ && $8 != "" {
			if ($7 != "UND") print "D", f, $8; else if ($5 == "GLOBAL") print "U", f, $8 }'
	done | awk '
		$1 == "D" { def[$3] = $2; next }
		{ use[++n] = $2 " " $3 }
		END { for (i = 1; i <= n; i++) { split(use[i], u, " ");
			if ((u[2] in def) && def[u[2]] != u[1]) print u[1], def[u[2]] } }' | sort -u)
	echo "$folder:"
	echo "$edges" | sed 's/^/  /; s/ \([^ ]*\)$/ -> \1/'
	# a cycle: tsort reports one on its standard error
	if ! echo "$edges" | tsort >/dev/null 2>"$objdir/file-calls.err"; then
		echo "file-calls.sh: the files of src/$folder call each other in a loop:" >&2
		cat "$objdir/file-calls.err" >&2
		status=1
	fi
done
exit $status
