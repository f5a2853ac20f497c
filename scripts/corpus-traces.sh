# corpus-traces.sh - sourced by scripts/corpus-experiments.sh and
# scripts/corpus-heatmaps.sh (not run on its own).
# corpus_traces TESSERA WHO: the captures of captures/corpus.json recorded in
# the corpus folder (`tessera capture --corpus`), one path a line in the
# list's order; for each one not recorded a line "WHO: corpus capture NAME
# not recorded (...): passed over" on standard error.
#   CORPUS_DIR   the corpus folder (default: tessera's, $XDG_DATA_HOME/tessera/corpus)
corpus_traces() {
	local tessera=$1 who=$2 name rest
	local dir=${CORPUS_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/tessera/corpus}
	"$tessera" capture --corpus --list | while read -r name rest; do
		if [ -f "$dir/$name.trace" ]; then
			echo "$dir/$name.trace"
		else
			echo "$who: corpus capture $name not recorded ($dir/$name.trace; make" \
				"corpus): passed over" >&2
		fi
	done
}
