#!/usr/bin/env bash
# pcpu-graph.sh TREE | IMAGE KALLSYMS - what the audit's attribution
# knows of a kernel: the functions that loop over possible CPUs, and who
# calls whom (pcpu-candidates.sh and entry-candidates.sh read it). One
# fact a line, tab-separated, sorted:
#
#	B	FUNC		FUNC has BTF: fentry can time it (IMAGE only)
#	C	CALLER	CALLEE	CALLER calls CALLEE
#	L	FUNC		FUNC loops over possible CPUs
#
#   TREE   a kernel source tree (or one .c file), read by name: L for a
#          function whose body names for_each_possible_cpu,
#          num_possible_cpus, cpu_possible_mask or nr_cpu_ids (kernel
#          style: a definition opens at column 0, its body's '{' and '}'
#          too); C for every NAME( in its body, through the .c files of
#          fs kernel mm net lib block ipc arch/x86/kernel (a call made
#          through a pointer or hidden in a macro is not seen)
#   IMAGE  the kernel itself: a bzImage (its vmlinux unpacked: xz, zstd,
#          gzip, lzma, lz4 or bzip2) or a vmlinux, stripped or not, read
#          from its machine code. KALLSYMS names the code's addresses:
#          the image's /proc/kallsyms, booted with nokaslr
#          (image-symbols.sh), or nm's output for a vmlinux with symbols.
#          L for a function whose code reads __cpu_possible_mask or
#          __num_possible_cpus (what those macros compile to; not
#          nr_cpu_ids, the bound of every cpumask walk, online ones too),
#          C for a direct call or tail call (what inlining and
#          macros hide from the source is in the code: alloc_percpu() is
#          a call of pcpu_alloc()), B from the image's .BTF (bpftool):
#          only those can be timed by fentry.
#
# The counts go to stderr, one line. Exit 2 on bad usage, 3 when a tool
# (objdump, a decompressor, bpftool) is missing.
set -euo pipefail
prog=pcpu-graph.sh
usage() { echo "$prog: $*; usage: $prog TREE | IMAGE KALLSYMS" >&2; exit 2; }
[ $# -ge 1 ] || usage "no TREE or IMAGE"
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---- from the source, by name ----

# the functions' bodies as "FUNC<TAB>LINE", kernel style
bodies() {
	# shellcheck disable=SC2016 # awk's own $
	xargs -0 awk '
		FNR == 1 { fn = ""; want = ""; inside = 0 }
		/^[A-Za-z_][A-Za-z0-9_ \*]*\(/ && !/;[ \t]*$/ {
			s = $0; sub(/\(.*/, "", s); n = split(s, w, /[ \t\*]+/); want = w[n]
		}
		/^\{/ { fn = want; inside = 1; next }
		/^\}/ { inside = 0; fn = ""; next }
		inside && fn != "" { print fn "\t" $0 }'
}

tree_graph() {
	local pat='for_each_possible_cpu|num_possible_cpus|cpu_possible_mask|nr_cpu_ids' dirs=() d files
	if [ -f "$src" ]; then
		printf '%s\0' "$src" >"$tmp/loopfiles"
		cp "$tmp/loopfiles" "$tmp/callfiles"
	else
		grep -rlZE --include='*.c' "$pat" "$src" >"$tmp/loopfiles" || true
		for d in fs kernel mm net lib block ipc arch/x86/kernel; do
			[ -d "$src/$d" ] && dirs+=("$src/$d")
		done
		# a tree without those folders (a part of one): all of it
		[ ${#dirs[@]} -gt 0 ] || dirs=("$src")
		find "${dirs[@]}" -name '*.c' -print0 >"$tmp/callfiles"
	fi
	# a body's line holds tabs of its own: it is all that follows the first
	# shellcheck disable=SC2016 # awk's own $
	bodies <"$tmp/loopfiles" | awk -v pat="$pat" '
		{ t = index($0, "\t"); if (substr($0, t + 1) ~ pat) print "L\t" substr($0, 1, t - 1) }' >"$tmp/g"
	# shellcheck disable=SC2016 # awk's own $
	bodies <"$tmp/callfiles" | awk '
		BEGIN { split("if for while switch return sizeof typeof __typeof__ defined", a, " ")
			for (i in a) kw[a[i]] = 1 }
		{
			t = index($0, "\t"); fn = substr($0, 1, t - 1); s = substr($0, t + 1)
			while (match(s, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
				c = substr(s, RSTART, RLENGTH); sub(/[ \t]*\($/, "", c)
				if (!(c in kw)) print "C\t" fn "\t" c
				s = substr(s, RSTART + RLENGTH)
			}
		}' >>"$tmp/g"
	files=$(tr -cd '\0' <"$tmp/loopfiles" | wc -c)
	sort -u "$tmp/g"
	echo "$(grep -c '^L' <(sort -u "$tmp/g")) functions loop over possible CPUs in $files files of $src, by name" >&2
}

# ---- from the image's code ----

# vmlinux IMAGE OUT: IMAGE's ELF into OUT, unpacked from a bzImage by the
# first compressed stream that gives one (as the kernel's extract-vmlinux)
vmlinux() {
	local magic tool off
	if [ "$(head -c 4 "$1" | od -An -tx1 | tr -d ' ')" = 7f454c46 ]; then
		ln -s "$(realpath "$1")" "$2"
		return
	fi
	while read -r magic tool; do
		command -v "${tool%% *}" >/dev/null || continue
		while read -r off; do
			tail -c +$((off + 1)) "$1" | $tool >"$2" 2>/dev/null || true
			[ "$(head -c 4 "$2" | od -An -tx1 | tr -d ' ')" = 7f454c46 ] && return
		done < <(LC_ALL=C grep -obUaP "$magic" "$1" | cut -d: -f1)
	done <<-'EOF'
		\x28\xb5\x2f\xfd zstd -dc
		\xfd\x37\x7a\x58\x5a\x00 xz -dc
		\x1f\x8b\x08 gzip -dc
		\x5d\x00\x00\x00 unlzma -c
		\x02\x21\x4c\x18 lz4 -dc
		\x42\x5a\x68 bzip2 -dc
	EOF
	echo "$prog: $1: neither a vmlinux nor a bzImage this host can unpack (zstd, xz, gzip, lzma, lz4, bzip2)" >&2
	exit 3
}

image_graph() {
	local syms=${2:-} nl nb
	[ -f "$src" ] || usage "$src: no such image"
	[ -n "$syms" ] || usage "an IMAGE needs its KALLSYMS (image-symbols.sh)"
	[ -f "$syms" ] || usage "$syms: no such file"
	command -v objdump >/dev/null || { echo "$prog: no objdump (binutils)" >&2; exit 3; }
	vmlinux "$src" "$tmp/vmlinux"
	# the code, address by address; the symbols: every function's start,
	# and the span of the markers (up to the next symbol: a read of
	# cpu_possible_mask's second word is a read of it)
	objdump -d --no-show-raw-insn -j .text "$tmp/vmlinux" >"$tmp/code"
	# shellcheck disable=SC2016 # awk's own $
	awk '
		# an address as 16 hex digits, compared as strings: awk keeps
		# numbers in doubles, too short for 64 bits
		function norm(a) { a = tolower(a); sub(/^0x/, "", a); while (length(a) < 16) a = "0" a; return a }
		BEGIN { split("__cpu_possible_mask __num_possible_cpus", m, " "); for (i in m) marker[m[i]] = 1 }
		FILENAME == ARGV[1] {
			a = norm($1)
			if (want != "" && a > lo[want]) { hi[want] = a; want = "" }
			if ($2 ~ /^[tTwW]$/) fn_at[a] = $3
			if ($3 in marker) { want = $3; lo[$3] = a }
			next
		}
		/^ *[0-9a-f]+:/ {
			at = $1; sub(/:$/, "", at); at = norm(at)
			if (at in fn_at) cur = fn_at[at]
			if (cur == "") next
			if ($2 ~ /^(call|jmp)$/ && $3 ~ /^(0x)?[0-9a-f]+$/) {
				t = norm($3)
				if ((t in fn_at) && fn_at[t] != cur) print "C\t" cur "\t" fn_at[t]
			}
			s = $0; sub(/^ *[0-9a-f]+:/, "", s)
			while (match(s, /0x[0-9a-f]+/)) {
				t = norm(substr(s, RSTART, RLENGTH))
				for (k in lo)
					if (t == lo[k] || (t > lo[k] && (k in hi) && t < hi[k])) print "L\t" cur
				s = substr(s, RSTART + RLENGTH)
			}
		}' "$syms" "$tmp/code" >"$tmp/g"
	if command -v bpftool >/dev/null || [ -x /usr/sbin/bpftool ]; then
		# shellcheck disable=SC2016 # awk's own $
		"$(command -v bpftool || echo /usr/sbin/bpftool)" btf dump file "$tmp/vmlinux" 2>/dev/null |
			awk '$2 == "FUNC" { gsub(/\047/, "", $3); print "B\t" $3 }' >>"$tmp/g" || true
	fi
	sort -u "$tmp/g" >"$tmp/s"
	nl=$(grep -c '^L' "$tmp/s" || true)
	nb=$(awk -F'\t' '$1 == "B" { b[$2] = 1 } $1 == "L" && ($2 in b) { n++ } END { print n + 0 }' "$tmp/s")
	cat "$tmp/s"
	echo "$nl functions read possible CPUs in $src's code, $nb of them with BTF ($(grep -c '^C' "$tmp/s" || true) direct calls)" >&2
}

if [ -d "$src" ] || [[ $src == *.c ]]; then
	[ $# -eq 1 ] || usage "a TREE takes no KALLSYMS"
	tree_graph
else
	image_graph "$@"
fi
