#!/bin/sh
# doc-links.sh [ROOT] - every relative link of ROOT/README.md and
# ROOT/docs/*.md resolves: the file or folder it names exists, and an
# #anchor names a heading of the Markdown file it points into (GitHub's
# slugs: lower case, punctuation dropped, spaces to '-', a repeated heading
# gets -1, -2, ...) or an <a id=...>/<a name=...> there. Links inside code
# (fenced blocks, `spans`) and to other sites (http:, https:, mailto:) are
# not checked. Also checks that README.md has at most 400 lines (it is
# the front door; reference goes to docs/). Test "doc-links"
# (tests/CMakeLists.txt) runs it. Prints one line per broken link
# (file:line: link: why) and exits 1 if there is one, else prints the
# number of links checked and exits 0.
set -eu

root=${1:-$(dirname "$0")/..}
cd "$root"
[ -f README.md ] || { echo "doc-links.sh: no README.md in '$root'" >&2; exit 2; }

readme_lines=$(wc -l < README.md)
status=0
if [ "$readme_lines" -gt 400 ]; then
	echo "README.md: $readme_lines lines, more than 400 (move reference material to docs/)"
	status=1
fi

files="README.md"
for f in docs/*.md; do
	[ -f "$f" ] && files="$files $f"
done

# shellcheck disable=SC2086
awk -v punct="[][!\"#\$%&'()*+,./:;<=>?@\\\\^\`{|}~]" '
function slug(h,    s) {
	s = tolower(h)
	gsub(punct, "", s)
	gsub(/ /, "-", s)
	return s
}
# "docs/../README.md" -> "README.md"
function normalize(p,    n, parts, out, i, k) {
	n = split(p, parts, "/")
	k = 0
	for (i = 1; i <= n; i++) {
		if (parts[i] == "" || parts[i] == ".")
			continue
		if (parts[i] == ".." && k > 0 && out[k] != "..") {
			k--
			continue
		}
		out[++k] = parts[i]
	}
	p = ""
	for (i = 1; i <= k; i++)
		p = p (i > 1 ? "/" : "") out[i]
	return p
}
function dirof(f) {
	return f ~ /\// ? substr(f, 1, match(f, /\/[^\/]*$/) - 1) : ""
}
FNR == 1 { fence = 0; file[++nfiles] = FILENAME }
# fenced code blocks: nothing inside is a heading or a link
/^[ \t]*(```|~~~)/ { fence = !fence; next }
fence { next }
{
	line = $0
	if (line ~ /^#+[ \t]/) {
		h = line
		sub(/^#+[ \t]+/, "", h)
		sub(/[ \t]+#+[ \t]*$/, "", h)
		sub(/[ \t]+$/, "", h)
		while (match(h, /\[[^]]*\]\([^)]*\)/)) {  # a link: its text
			lk = substr(h, RSTART + 1, RLENGTH - 1)
			sub(/\]\(.*$/, "", lk)
			h = substr(h, 1, RSTART - 1) lk substr(h, RSTART + RLENGTH)
		}
		s = slug(h)
		key = FILENAME SUBSEP s
		if (key in seen)
			s = s "-" seen[key]++
		else
			seen[key] = 1
		anchor[FILENAME SUBSEP s] = 1
	}
	# explicit anchors
	t = line
	while (match(t, /<a (id|name)="[^"]*"/)) {
		a = substr(t, RSTART, RLENGTH)
		sub(/^<a (id|name)="/, "", a)
		sub(/"$/, "", a)
		anchor[FILENAME SUBSEP a] = 1
		t = substr(t, RSTART + RLENGTH)
	}
	# links, outside inline code
	gsub(/`[^`]*`/, "", line)
	while (match(line, /\]\([^) \t]+\)/)) {
		target = substr(line, RSTART + 2, RLENGTH - 3)
		line = substr(line, RSTART + RLENGTH)
		n++
		lf[n] = FILENAME; ll[n] = FNR; lt[n] = target
	}
}
END {
	bad = 0
	for (i = 1; i <= n; i++) {
		t = lt[i]
		if (t ~ /^(https?|mailto|ftp):/)
			continue
		checked++
		path = t; frag = ""
		if (index(t, "#")) {
			path = substr(t, 1, index(t, "#") - 1)
			frag = substr(t, index(t, "#") + 1)
		}
		if (path == "") {
			target = lf[i]
		} else {
			d = dirof(lf[i])
			target = normalize((d != "" ? d "/" : "") path)
			if (target ~ /\047/ || system("test -e \047" target "\047") != 0) {
				printf "%s:%d: %s: no file or folder %s\n", lf[i], ll[i], t, target
				bad++
				continue
			}
		}
		if (frag != "") {
			if (target !~ /\.md$/) {
				printf "%s:%d: %s: an anchor into %s, not a Markdown file\n", lf[i], ll[i], t, target
				bad++
			} else if (!((target SUBSEP frag) in anchor)) {
				printf "%s:%d: %s: %s has no heading or anchor \"%s\"\n", lf[i], ll[i], t, target, frag
				bad++
			}
		}
	}
	if (bad)
		exit 1
	printf "%d relative links in %d files resolve\n", checked, nfiles
}
' $files || status=1
exit $status
