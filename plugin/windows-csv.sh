#!/usr/bin/env bash
# windows-csv.sh OUTDIR WIN.CSV... - the plugin's windows as bench's
# results CSVs, so that bench scale fits them and bench compare gates
# them as any other figure: a stopgap of phase 1, until bench vm reads
# the plugin's files itself (phase 2 of the plugin).
#
# WIN.CSV is one boot's out= file, named NAME-pP-B.win.csv (as
# plugin/qemu-wrap.sh names them). For each, OUTDIR/NAME-UNIT-pP-bB.csv,
# one file per unit (bench's files hold one):
#   insns     series VARIANT: the window's instructions
#   misses    VARIANT.l1d, VARIANT.llc: lines that missed the L1d, the LLC
#   accesses  VARIANT.loads, VARIANT.stores
# the workload the window's (kind, tag): the module's kernel-set-defaults
# or kernel-irq-alloc, run (bench run's engine), or audit-N (entry N of
# the battery, 1-based); VARIANT its variant: old/new, alloc/free, or
# reference. Each series is the histogram of its windows' values
# (bench hist -b 12: exact to 8191, then within 1/4096), with the
# metadata bench scale needs: possible_cpus, vm_name, unit.
# BENCH: the bench to use (default: the one beside this tree).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bench=${BENCH:-$here/../bench}
[ $# -ge 2 ] || { echo "usage: windows-csv.sh OUTDIR WIN.CSV..." >&2; exit 2; }
out=$1
shift
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# series UNIT: "WORKLOAD VARIANT COLUMN" per series of that unit
series() {
	case $1 in
	insns) echo ". insns 6" ;;
	misses) echo ".l1d l1d 9"; echo ".llc llc 10" ;;
	accesses) echo ".loads loads 7"; echo ".stores stores 8" ;;
	esac
}

# one file: bench hist of each (workload, variant) series, relabelled
one() {
	local win=$1 unit=$2 name=$3 p=$4 b=$5 dst suffix col first=1
	dst=$out/$name-$unit-p$p-b$b.csv
	: >"$tmp/rows"
	while read -r suffix _ col; do
		[ "$suffix" = . ] && suffix=
		awk -F, -v col="$col" -v suf="$suffix" -v tmpd="$tmp" '
			/^#/ || $1 == "seq" { next }
			{
				if ($3 == "kmod")
					wl = $4 == 0 ? "kernel-set-defaults" : $4 == 1 ? "kernel-irq-alloc" : "kmod-" $4
				else
					wl = $4 == 0 ? "run" : "audit-" $4
				if ($5 == 2)
					v = "reference"
				else if (wl == "kernel-irq-alloc")
					v = $5 == 0 ? "alloc" : "free"
				else
					v = $5 == 0 ? "old" : "new"
				print wl "," v suf > (tmpd "/" wl "," v suf ".key")
				print $col > (tmpd "/" wl "," v suf ".val")
			}' "$win"
		for k in "$tmp"/*.key; do
			[ -e "$k" ] || continue
			label=$(head -1 "$k")
			"$bench" hist -b 12 -f csv "${k%.key}.val" >"$tmp/h.csv"
			if [ "$first" = 1 ]; then
				grep '^#' "$tmp/h.csv" | grep -v '^# \(command\|source\|unit\|samples\):' >"$tmp/head"
				first=0
			fi
			sed -n "s/^hist,input,/$label,/p" "$tmp/h.csv" >>"$tmp/rows"
			rm -f "$k" "${k%.key}.val"
		done
	done < <(series "$unit")
	[ -s "$tmp/rows" ] || return 0
	{
		cat "$tmp/head"
		echo "# command: plugin/windows-csv.sh $win"
		echo "# source: plugin"
		echo "# unit: $unit"
		echo "# possible_cpus: $p"
		echo "# vm_name: $name"
		echo "workload,variant,run,cpu,node,bucket,lo_ns,hi_ns,samples,avg_ns,percentile,sum_ns,min_ns,max_ns"
		cat "$tmp/rows"
	} >"$dst"
}

for win in "$@"; do
	base=$(basename "$win" .win.csv)
	b=${base##*-}
	rest=${base%-*}
	p=${rest##*-p}
	name=${rest%-p*}
	for unit in insns misses accesses; do
		one "$win" "$unit" "$name" "$p" "$b"
	done
done
