#!/usr/bin/env bash
# kallsyms.sh IMAGE OUT [KO] - the text symbols of kernel IMAGE as the
# plugin's syms= reads them: one boot under bench vm with KASLR off
# (nokaslr: the addresses are the image's own, and those of every boot
# with nokaslr), /proc/kallsyms read as root inside, its functions kept
# (types t, T, w, W). With KO, that module is loaded first, so that its
# functions are there too, at the address the first module loaded gets
# in every boot of the same kernel. Needs an image with CONFIG_KALLSYMS;
# tests/kernel/image-symbols.sh is the same boot for what pcpu-graph.sh
# needs (data symbols as well).
#
# One boot at 2 possible CPUs, one vCPU: about 20 s under TCG. BENCH
# (default: the bench beside this tree) boots it. Exit 0, 2 bad usage,
# 3 the boot or the read failed.
set -euo pipefail
prog=kallsyms.sh
here=$(cd "$(dirname "$0")" && pwd)
bench=${BENCH:-$here/../bench}
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
	echo "$prog: usage: $prog IMAGE OUT [KO]" >&2
	exit 2
fi
img=$1 out=$2 ko=${3:-}
[ -f "$img" ] || { echo "$prog: $img: no such image" >&2; exit 2; }
[ -z "$ko" ] || [ -f "$ko" ] || { echo "$prog: $ko: no such module" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

files=()
cat >"$tmp/kallsyms.sh" <<'EOF'
[ ! -f /ksb-syms.ko ] || insmod /ksb-syms.ko || exit 1
awk '$2 ~ /^[tTwW]$/' /proc/kallsyms >"$KSB_OUT/kallsyms"
EOF
[ -z "$ko" ] || files=(--file "$ko=ksb-syms.ko")
if ! "$bench" vm -q -B 1 -c 1 -p 2 --reboot-disturbed 0 --append nokaslr "${files[@]}" \
	-o "$tmp/out" "k=$img" -- sh "$tmp/kallsyms.sh" >"$tmp/vm.log" 2>&1; then
	echo "$prog: booting $img failed: $(tail -2 "$tmp/vm.log")" >&2
	exit 3
fi
f=$tmp/out/k-sh/boot1/kallsyms
if ! [ -s "$f" ] || grep -q '^0000000000000000 ' "$f"; then
	echo "$prog: $img's kallsyms is empty or hides the addresses (no CONFIG_KALLSYMS, kptr_restrict, or the module did not load)" >&2
	exit 3
fi
cp "$f" "$out.tmp" && mv "$out.tmp" "$out"
echo "$prog: $(wc -l <"$out") functions of $img into $out" >&2
