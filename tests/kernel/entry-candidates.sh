#!/usr/bin/env bash
# entry-candidates.sh TREE [DEPTH] - each audit entry's candidates: the
# functions that loop over possible CPUs (pcpu-candidates.sh) that the
# entry's path reaches in TREE's call graph, for bench scale's
# attribution. One line an entry that has any, tab-separated:
#
#	NAME	WORKLOAD-LINE	FUNC FUNC...
#
# (the WORKLOAD-LINE as bench list shows it, less --control and the
# entry's -n: auditboot.sh gives its own), in the battery's order.
#
# The path: the functions that bench list's "path:" line of the entry
# names (show_stat(), nr_iowait()). Reached: those functions, what their
# bodies call, and so on, DEPTH (3) calls deep, by name, through the .c
# files of fs kernel mm net lib block ipc arch/x86/kernel. A call made
# through a pointer (pernet ops, seq_file's show) or a macro is not
# followed: what it reaches is not a candidate of the entry, and an entry
# whose loops are there has none (netns's per-CPU sockets, mm_init's
# percpu_counter_init). The counts go to stderr.
set -euo pipefail
tree=${1:?entry-candidates.sh TREE [DEPTH]}
depth=${2:-3}
here=$(cd "$(dirname "$0")" && pwd)
bench=${BENCH:-$here/../../bench}
[ -d "$tree" ] || { echo "entry-candidates.sh: $tree: not a directory" >&2; exit 2; }
case $depth in '' | *[!0-9]* | 0) echo "entry-candidates.sh: DEPTH '$depth': 1.." >&2; exit 2 ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$here/pcpu-candidates.sh" "$tree" >"$tmp/loopers" 2>/dev/null
# the call graph by name: "CALLER<TAB>CALLEE", kernel style as
# pcpu-candidates.sh reads it (a definition at column 0, its braces too)
dirs=()
for d in fs kernel mm net lib block ipc arch/x86/kernel; do
	[ -d "$tree/$d" ] && dirs+=("$tree/$d")
done
# shellcheck disable=SC2016 # awk's own $
find "${dirs[@]}" -name '*.c' -print0 | xargs -0 awk '
	BEGIN { split("if for while switch return sizeof typeof __typeof__ defined", a, " ")
		for (i in a) kw[a[i]] = 1 }
	FNR == 1 { fn = ""; want = ""; inside = 0 }
	/^[A-Za-z_][A-Za-z0-9_ \*]*\(/ && !/;[ \t]*$/ {
		s = $0; sub(/\(.*/, "", s); n = split(s, w, /[ \t\*]+/); want = w[n]
	}
	/^\{/ { fn = want; inside = 1; next }
	/^\}/ { inside = 0; fn = ""; next }
	inside && fn != "" {
		s = $0
		while (match(s, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
			c = substr(s, RSTART, RLENGTH); sub(/[ \t]*\($/, "", c)
			if (!(c in kw)) print fn "\t" c
			s = substr(s, RSTART + RLENGTH)
		}
	}' | sort -u >"$tmp/calls"

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
