#!/usr/bin/env bash
# pcpu-candidates.sh SRC|IMAGE - the kernel functions that loop over
# possible CPUs, one name a line, sorted: the candidates that may carry
# an audit entry's growth (bench scale --audit's attribution).
#
#   SRC    a kernel source tree (or one .c file): every function of its .c files whose body
#          names for_each_possible_cpu, num_possible_cpus, cpu_possible_mask
#          or nr_cpu_ids (kernel style: a definition opens at column 0,
#          its body's '{' and '}' too)
#   IMAGE  without a tree: the image's own functions that call the
#          possible-CPU helpers that stay out of line (cpumask_next,
#          __num_possible_cpus... are inline: a vmlinux with symbols
#          is needed, read with objdump), as a fallback
#
# The count goes to stderr: "N candidates in M files".
set -euo pipefail
src=${1:?pcpu-candidates.sh SRC}
pat='for_each_possible_cpu|num_possible_cpus|cpu_possible_mask|nr_cpu_ids'

if [ -d "$src" ] || [[ $src == *.c ]]; then
	# shellcheck disable=SC2016 # awk's own $
	grep -rlE --include='*.c' "$pat" "$src" | sort | xargs awk -v pat="$pat" '
		FNR == 1 { fn = ""; want = ""; inside = 0 }
		/^[A-Za-z_][A-Za-z0-9_ \*]*\(/ && !/;[ \t]*$/ {
			s = $0; sub(/\(.*/, "", s); n = split(s, w, /[ \t\*]+/); want = w[n]
		}
		/^\{/ { fn = want; inside = 1; next }
		/^\}/ { inside = 0; fn = ""; next }
		inside && fn != "" && $0 ~ pat { print fn; files[FILENAME] = 1 }
		END { n = 0; for (f in files) n++; print n > "/dev/stderr" }
	' 2>"${TMPDIR:-/tmp}/pcpu-files.$$" | sort -u >"${TMPDIR:-/tmp}/pcpu-funcs.$$"
	echo "$(wc -l <"${TMPDIR:-/tmp}/pcpu-funcs.$$") candidates in $(cat "${TMPDIR:-/tmp}/pcpu-files.$$") files of $src" >&2
	cat "${TMPDIR:-/tmp}/pcpu-funcs.$$"
	rm -f "${TMPDIR:-/tmp}/pcpu-funcs.$$" "${TMPDIR:-/tmp}/pcpu-files.$$"
	exit 0
fi
[ -f "$src" ] || { echo "pcpu-candidates.sh: $src: neither a source tree nor an image" >&2; exit 2; }
# a vmlinux: the functions whose code calls the out-of-line cpumask walkers
objdump -d --no-show-raw-insn "$src" | awk '
	/^[0-9a-f]+ <.*>:$/ { fn = $2; gsub(/[<>:]/, "", fn) }
	/call.*<(cpumask_next|_find_next_bit|__bitmap_weight)/ { print fn }
' | sort -u | tee >(wc -l | sed "s|$| candidates in $src (calls of the cpumask walkers)|" >&2)
