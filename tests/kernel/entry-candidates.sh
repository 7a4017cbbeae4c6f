#!/usr/bin/env bash
# entry-candidates.sh TREE [DEPTH] | IMAGE KALLSYMS [DEPTH] - each audit
# entry's candidates: the functions that loop over possible CPUs that the
# entry's path reaches in the kernel's call graph (both from
# pcpu-graph.sh: a source TREE read by name, or the IMAGE's own code),
# for bench scale's attribution. One line an entry that has any,
# tab-separated:
#
#	NAME	WORKLOAD-LINE	FUNC FUNC...
#
# (the WORKLOAD-LINE as bench list shows it, less --control and the
# entry's -n: auditboot.sh gives its own), in the battery's order.
#
# The path: the functions that bench list's "path:" line of the entry
# names (show_stat(), nr_iowait()). Reached: those functions, what they
# call, and so on, DEPTH (3) calls deep. A call made through a pointer
# (pernet ops, seq_file's show) is followed by neither graph; a macro
# (alloc_percpu() over pcpu_alloc()) or an inlined function only by the
# image's. From an image with BTF, only the functions fentry can time
# are kept. The counts go to stderr: the graph's line, then the entries'.
set -euo pipefail
prog=entry-candidates.sh
here=$(cd "$(dirname "$0")" && pwd)
bench=${BENCH:-$here/../../bench}
usage() { echo "$prog: $*; usage: $prog TREE [DEPTH] | IMAGE KALLSYMS [DEPTH]" >&2; exit 2; }
[ $# -ge 1 ] || usage "no TREE or IMAGE"
if [ -d "$1" ]; then
	graph=("$1")
	depth=${2:-3}
elif [ -f "$1" ] && [ $# -ge 2 ]; then
	graph=("$1" "$2")
	depth=${3:-3}
else
	usage "$1: not a directory, nor an image with its KALLSYMS"
fi
case $depth in '' | *[!0-9]* | 0) usage "DEPTH '$depth': 1.." ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# its count first on stderr, then ours
"$here/pcpu-graph.sh" "${graph[@]}" >"$tmp/graph"
# the loops: with BTF, those fentry can time
awk -F'\t' '$1 == "B" { b[$2] = 1; nb++ } $1 == "L" { l[$2] = 1 }
	END { for (f in l) if (!nb || (f in b)) print f }' "$tmp/graph" >"$tmp/loopers"
awk -F'\t' '$1 == "C" { print $2 "\t" $3 }' "$tmp/graph" >"$tmp/calls"

# the entries: NAME, the workload line, the path's functions
"$bench" list | awk '
	/^bench audit.s entries/ { on = 1; next }
	on && /^[a-z]/ {
		name = $1; line = $0; sub(/^[^ ]+ +/, "", line)
		gsub(/ --control/, "", line); gsub(/ -n [0-9]+/, "", line)
	}
	on && /^ +path:/ {
		s = $0; f = ""
		while (match(s, /[a-z_0-9]+\(\)/)) {
			f = f " " substr(s, RSTART, RLENGTH - 2); s = substr(s, RSTART + RLENGTH)
		}
		print name "\t" line "\t" f
	}' >"$tmp/entries"

awk -F'\t' -v D="$depth" '
	FILENAME == ARGV[1] { L[$1] = 1; next }
	FILENAME == ARGV[2] { E[$1] = E[$1] " " $2; next }
	{
		delete seen; delete cur
		n = split($3, f, " ")
		for (i = 1; i <= n; i++) { cur[f[i]] = 1; seen[f[i]] = 1 }
		for (d = 1; d < D; d++) {
			delete nxt
			for (x in cur) {
				m = split(E[x], c, " ")
				for (j = 1; j <= m; j++)
					if (!(c[j] in seen)) { seen[c[j]] = 1; nxt[c[j]] = 1 }
			}
			delete cur
			for (x in nxt) cur[x] = 1
		}
		k = 0
		for (x in seen) if (x in L) {
			# in name order: the same tree gives the same line
			for (i = ++k; i > 1 && got[i - 1] > x; i--) got[i] = got[i - 1]
			got[i] = x
		}
		out = ""
		for (i = 1; i <= k; i++) out = out (i > 1 ? " " : "") got[i]
		entries++
		if (k) { print $1 "\t" $2 "\t" out; with++; total += k }
	}
	END { printf "%d candidates for %d of %d entries, %d calls deep\n", total, with, entries, D > "/dev/stderr" }
' "$tmp/loopers" "$tmp/calls" "$tmp/entries"
