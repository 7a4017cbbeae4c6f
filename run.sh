#!/usr/bin/env bash
# run.sh - kstats-bench in one command.
#
#   ./run.sh [BENCH RUN OPTIONS]          deps, build, run, tables, plots, summary
#   ./run.sh sweep [--from N] [--to N] [BENCH RUN OPTIONS]
#   ./run.sh compare [OPTIONS] BEFORE.csv AFTER.csv    the CI gate (exit 1: regression)
#
# Results go to results/<UTC stamp>/ (KSB_RESULTS overrides results/);
# an existing directory is never reused. KSB_NO_DEPS=1 skips `make deps`.
set -euo pipefail

top=$(cd "$(dirname "$0")" && pwd)
bench=$top/bench
results_root=${KSB_RESULTS:-$top/results}

die() {
	echo "run.sh: $*" >&2
	exit "${2:-3}"
}

usage() {
	cat <<'EOF'
Usage: ./run.sh [BENCH RUN OPTIONS]
       ./run.sh sweep [--from N] [--to N] [BENCH RUN OPTIONS]
       ./run.sh compare [OPTIONS] BEFORE.csv AFTER.csv

The whole job: installs missing Debian packages (make deps), builds,
runs `bench run` on every allowed CPU (old and new), and writes
results/<UTC stamp>/: bench.csv, table-old.txt, table-new.txt,
hist/cdf/heatmap plots (PNG and SVG), output.txt and summary.txt.
Options go to `bench run` as they are, e.g.
  ./run.sh --possible-cpus 480 --cache cold

sweep runs once per power of two of possible CPUs from --from (64) to
--to (4096), keeping one CSV per point, sweep.csv and sweep.png.

compare is `bench compare`: exit 0 no regression, 1 regression, 2 bad input.

Environment: KSB_RESULTS=DIR (results root), KSB_NO_DEPS=1 (skip make deps).
See ./bench run --help and ./bench compare --help.
EOF
}

# ---- steps ----

build() {
	if [ "${KSB_NO_DEPS:-0}" != 1 ]; then
		make -s -C "$top" deps || die "missing dependencies (see above)"
	fi
	make -s -C "$top" >/dev/null || die "build failed"
}

# a fresh results directory, never an existing one: stamp, then -2, -3...
new_results_dir() {
	local stamp dir n=1
	stamp=$(date -u +%Y%m%dT%H%M%SZ)
	mkdir -p "$results_root"
	dir=$results_root/$stamp
	while ! mkdir -m 0755 "$dir" 2>/dev/null; do
		n=$((n + 1))
		[ "$n" -le 1000 ] || die "cannot create a directory under $results_root"
		dir=$results_root/$stamp-$n
	done
	echo "$dir"
}

# plots CSV DIR: hist, cdf, heatmap as PNG and SVG
plots() {
	local csv=$1 dir=$2 p ext
	for p in hist cdf heatmap; do
		for ext in png svg; do
			(cd "$top" && gnuplot -c "plots/$p.gp" "$csv" "$dir/$p.$ext") ||
				die "gnuplot failed on plots/$p.gp"
		done
	done
}

# summary OUTPUT: p50, p99, max and mean per variant, and the speedup,
# from the SUMMARY line of `bench run`
summary() {
	awk '/^SUMMARY / {
		for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		printf "kstats-bench %s: %s samples per variant on %s CPUs, %s possible (partial: %s)\n",
			v["workload"], v["samples"], v["cpus"], v["possible"], v["partial"]
		printf "%-8s %12s %12s %12s %12s\n", "variant", "p50_" v["unit"], "p99_" v["unit"],
			"max_" v["unit"], "mean_" v["unit"]
		n = split("old new", var, " ")
		for (j = 1; j <= n; j++)
			printf "%-8s %12s %12s %12s %12s\n", var[j], v[var[j] "_p50"],
				v[var[j] "_p99"], v[var[j] "_max"], v[var[j] "_mean"]
		printf "speedup (old mean / new mean): %sx\n", v["ratio"]
	}' "$1"
}

# one_run DIR [BENCH RUN OPTIONS]: run, keep what was measured even if
# interrupted, then tables, plots and summary
one_run() {
	local dir=$1 rc=0
	shift
	"$bench" run -o "$dir/bench.csv" "$@" >"$dir/output.txt" || rc=$?
	case $rc in
	0 | 130 | 143) ;;
	*) rm -f "$dir/output.txt"
	   rmdir "$dir" 2>/dev/null || true
	   exit "$rc" ;;
	esac
	[ -f "$dir/bench.csv" ] || exit "$rc"
	"$bench" show -v old "$dir/bench.csv" >"$dir/table-old.txt"
	"$bench" show -v new "$dir/bench.csv" >"$dir/table-new.txt"
	summary "$dir/output.txt" >"$dir/summary.txt"
	plots "$dir/bench.csv" "$dir"
	chmod 0644 "$dir"/*
	return "$rc"
}

main_job() {
	local dir rc=0
	build
	dir=$(new_results_dir)
	one_run "$dir" "$@" || rc=$?
	echo "== old: $(sed -n 's/^# variant_old: //p' "$dir/bench.csv")"
	cat "$dir/table-old.txt"
	echo
	echo "== new: $(sed -n 's/^# variant_new: //p' "$dir/bench.csv")"
	cat "$dir/table-new.txt"
	echo
	cat "$dir/summary.txt"
	echo "results: $dir"
	return "$rc"
}

# ---- sweep ----

sweep() {
	local from=64 to=4096 dir p rc unit
	local -a args=()
	while [ $# -gt 0 ]; do
		case $1 in
		--from | --to)
			if [ $# -lt 2 ] || ! [[ $2 =~ ^[0-9]{1,4}$ ]] || [ "$2" -lt 1 ] || [ "$2" -gt 8192 ]; then
				die "$1 needs a number of possible CPUs, 1..8192" 2
			fi
			if [ "$1" = --from ]; then from=$2; else to=$2; fi
			shift 2 ;;
		-h | --help) usage; exit 0 ;;
		*) args+=("$1"); shift ;;
		esac
	done
	[ "$from" -le "$to" ] || die "--from $from is above --to $to" 2
	build
	dir=$(new_results_dir)
	echo "possible_cpus,old_mean,new_mean,old_p50,new_p50,old_p99,new_p99" >"$dir/sweep.csv.tmp"
	unit=
	for ((p = from; p <= to; p *= 2)); do
		echo "run.sh: sweep: $p possible CPUs" >&2
		rc=0
		"$bench" run -q -o "$dir/sweep-$p.csv" --possible-cpus "$p" "${args[@]}" >"$dir/sweep-$p.txt" || rc=$?
		[ "$rc" -eq 0 ] || { mv "$dir/sweep.csv.tmp" "$dir/sweep.csv"; exit "$rc"; }
		unit=$(sed -n 's/^SUMMARY .* unit=\([a-z]*\) .*/\1/p' "$dir/sweep-$p.txt")
		awk -v p="$p" '/^SUMMARY / {
			for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			print p "," v["old_mean"] "," v["new_mean"] "," v["old_p50"] "," v["new_p50"] "," v["old_p99"] "," v["new_p99"]
		}' "$dir/sweep-$p.txt" >>"$dir/sweep.csv.tmp"
	done
	{ echo "# unit: $unit"; cat "$dir/sweep.csv.tmp"; } >"$dir/sweep.csv"
	rm -f "$dir/sweep.csv.tmp"
	for ext in png svg; do
		(cd "$top" && gnuplot -c plots/sweep.gp "$dir/sweep.csv" "$dir/sweep.$ext") ||
			die "gnuplot failed on plots/sweep.gp"
	done
	chmod 0644 "$dir"/*
	grep -v '^#' "$dir/sweep.csv" | column -s, -t
	echo "results: $dir"
}

case ${1:-} in
-h | --help) usage ;;
compare)
	shift
	[ -x "$bench" ] || build
	exec "$bench" compare "$@" ;;
sweep)
	shift
	sweep "$@" ;;
*) main_job "$@" ;;
esac
