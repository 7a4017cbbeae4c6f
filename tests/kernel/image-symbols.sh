#!/usr/bin/env bash
# image-symbols.sh IMAGE OUT - the symbols pcpu-graph.sh needs to read
# IMAGE's code, from the image itself: one boot under bench vm with KASLR
# off (nokaslr: the addresses are the vmlinux's own), its /proc/kallsyms
# read as root inside, into OUT in kallsyms' format and address order.
# What comes back is what the code needs: every function's address, and
# __cpu_possible_mask and __num_possible_cpus with the symbol after each
# (where each one ends). Debian's images ship no System.map
# (theirs is a stub, the real one is in the -dbg package); a kernel with
# CONFIG_KALLSYMS_ALL has the data symbols in kallsyms.
#
# One boot at 2 possible CPUs, one vCPU: about 20 s under TCG. BENCH
# (default: the bench beside this tree) boots it; KSB_VM_ARGS adds bench
# vm options. Exit 0, 2 bad usage, 3 the boot or the read failed.
set -euo pipefail
prog=image-symbols.sh
here=$(cd "$(dirname "$0")" && pwd)
bench=${BENCH:-$here/../../bench}
[ $# -eq 2 ] || { echo "$prog: usage: $prog IMAGE OUT" >&2; exit 2; }
img=$1 out=$2
[ -f "$img" ] || { echo "$prog: $img: no such image" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
read -r -a vm_args <<<"${KSB_VM_ARGS:-}"

# the guest's script: kallsyms is text, which bench vm's channel carries
cat >"$tmp/kallsyms.sh" <<'EOF'
awk 'after { print; after = 0 }
	$2 ~ /^[tTwW]$/ { print; next }
	$3 == "__cpu_possible_mask" || $3 == "__num_possible_cpus" { print; after = 1 }' \
	/proc/kallsyms >"$KSB_OUT/kallsyms"
EOF
if ! "$bench" vm -q -B 1 -c 1 -p 2 --reboot-disturbed 0 --append nokaslr \
	${vm_args[@]+"${vm_args[@]}"} -o "$tmp/out" "k=$img" -- sh "$tmp/kallsyms.sh" >"$tmp/vm.log" 2>&1; then
	echo "$prog: booting $img failed: $(tail -2 "$tmp/vm.log")" >&2
	exit 3
fi
f=$tmp/out/k-sh/boot1/kallsyms
if ! grep -q ' __cpu_possible_mask$' "$f" 2>/dev/null; then
	echo "$prog: $img's kallsyms has no __cpu_possible_mask (no CONFIG_KALLSYMS_ALL, or not read as root)" >&2
	exit 3
fi
if grep -q '^0000000000000000 ' "$f"; then
	echo "$prog: $img's kallsyms hides the addresses (kptr_restrict)" >&2
	exit 3
fi
cp "$f" "$out.tmp" && mv "$out.tmp" "$out"
echo "$prog: $(grep -c ' [tTwW] ' "$out") functions of $img into $out" >&2
