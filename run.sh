#!/usr/bin/env bash
# run.sh - kstats-bench in one command.
#
#   ./run.sh [BENCH RUN OPTIONS]          deps, build, 6 runs, tables, plots, summary
#   ./run.sh sweep [--from N] [--to N] [BENCH RUN OPTIONS]
#   ./run.sh compare [OPTIONS] BEFORE.csv... -- AFTER.csv...   the CI gate (exit 1: regression)
#   ./run.sh bisect [OPTIONS] TREE GOOD BAD [-- COMMAND...]     bench bisect: the commit that regressed
#   ./run.sh trend [OPTIONS] FILE|DIR...   change points of a nightly history (exit 1: recent regression)
#   ./run.sh scale [OPTIONS] FILE... [-- FILE...]   cost per possible CPU (exit 1: B's slope grew)
#
# Results go to results/<UTC stamp>/ (KSB_RESULTS overrides results/);
# an existing directory is never reused. KSB_NO_DEPS=1 skips `make deps`.
set -euo pipefail

top=$(cd "$(dirname "$0")" && pwd)
bench=$top/bench
share=$top			# the directory that holds plots/
results_root=${KSB_RESULTS:-$top/results}
# installed by make install as PREFIX/bin/kstats-bench-run: the binary is
# kstats-bench beside it, the plots in PREFIX/share/kstats-bench/plots,
# nothing to build, and results go under the current directory
installed=0
if [ ! -f "$top/Makefile" ] && [ -x "$top/kstats-bench" ] &&
	[ -d "$top/../share/kstats-bench/plots" ]; then
	installed=1
	bench=$top/kstats-bench
	share=$(cd "$top/../share/kstats-bench" && pwd)
	results_root=${KSB_RESULTS:-$PWD/results}
fi
# KSB_BENCH: another bench binary (a wrapper, a pinned build)
[ -z "${KSB_BENCH:-}" ] || bench=$KSB_BENCH
# absolute: plot() runs gnuplot from $share
[[ $results_root == /* ]] || results_root=$PWD/$results_root

die() {
	echo "run.sh: $*" >&2
	exit "${2:-3}"
}

usage() {
	cat <<'EOF'
Usage: ./run.sh [BENCH RUN OPTIONS]
       ./run.sh sweep [--from N] [--to N] [BENCH RUN OPTIONS]
       ./run.sh compare [OPTIONS] BEFORE.csv... -- AFTER.csv...
       ./run.sh bisect [OPTIONS] TREE GOOD BAD [-- COMMAND...]
       ./run.sh trend [OPTIONS] FILE|DIR...
       ./run.sh scale [OPTIONS] FILE... [-- FILE...]

The whole job: installs what building and running need (make deps),
builds, prints the warnings of `bench doctor` for the run's worker CPUs,
runs `bench run --runs 6` on every allowed CPU (old and new, six runs in
fresh processes), and writes results/<UTC stamp>/: bench.csv, output.txt
(its table), table-old.txt, table-new.txt (the merge over the runs),
summary.txt (the SUMMARY's figures, each run's 10% trimmed mean and
their spread), each written by bench run, and hist/cdf/heatmap plots
(PNG and SVG). Options go to `bench run` as they are (a --runs of yours
wins), e.g.
  ./run.sh --possible-cpus 480 --cache cold

sweep is `bench sweep` (see ./bench sweep --help): bench run once per
power of two of possible CPUs from --from (64) to --to (4096), one CSV per
point and sweep.csv in results/<stamp>/, and sweep.png drawn here.

compare takes what `bench compare` takes, prints its verdicts, and writes
results/<stamp>/: compare.txt, compare.csv and compare.png (the pooled
CDFs, every run's figure, the change). Exit 0, 1 regression, 2 bad input.

bisect is `bench bisect` (see ./bench bisect --help): the commit of a
kernel git TREE between GOOD and BAD that made bench compare fail, its
results in results/<stamp>/ and its report in the shape of 0-day's mails.

trend takes what `bench trend` takes, prints its change points, and
writes results/<stamp>/: trend.txt, trend.csv, trend-runs.csv and
trend.png (each series' per-run figures over time, each segment's
median, the change points with their change; with --control DIR the
subject's, the control's and their ratio). Exit 0, 1 when a series'
newest change point is a recent regression, 2 bad input.

scale takes what `bench scale` takes (A... -- B... gates B's slope), prints
the slopes, and writes results/<stamp>/: scale.txt, scale.csv,
scale-points.csv and scale.png (the runs against possible CPUs, the
Theil-Sen lines, their 95% bands). Exit 0, 1 B's slope grew, 2 bad input.

Environment: KSB_RESULTS=DIR (results root), KSB_NO_DEPS=1 (skip make deps),
KSB_BENCH=PATH (the bench binary to run).
See ./bench run --help, ./bench sweep --help, ./bench compare --help,
./bench trend --help, ./bench scale --help and ./bench bisect --help.
EOF
}

# ---- steps ----

build() {
	[ "$installed" = 0 ] || return 0
	if [ "${KSB_NO_DEPS:-0}" != 1 ]; then
		make -s -C "$top" deps || die "missing dependencies (see above; KSB_NO_DEPS=1 skips this check)"
	fi
	make -s -C "$top" >/dev/null || die "build failed"
}

# doctor [BENCH RUN OPTIONS]: what bench doctor warns about on this host
# for the run those options make (its worker CPUs), on stderr before
# measuring; never fatal. Options bench run refuses (exit 2) are for
# bench run to name, once.
doctor() {
	local out rc=0
	out=$("$bench" doctor -q -- "$@" 2>&1) || rc=$?
	[ "$rc" = 2 ] || [ -z "$out" ] || printf 'run.sh: doctor: %s\n' "${out//$'\n'/$'\n'run.sh: doctor: }" >&2
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

# plot SCRIPT FILE ARG...: gnuplot -c plots/SCRIPT.gp ARG... draws FILE
# (the terminal by its extension) under a temp name beside it, renamed
# when done: a picture is never seen half drawn. Every other file of the
# results is bench's own (-o, --also), written the same way.
plot_tmp=
trap 'rm -f "$plot_tmp"' EXIT
plot() {
	local script=$1 file=$2
	shift 2
	plot_tmp=$(dirname "$file")/.tmp.$(basename "$file")
	(cd "$share" && gnuplot -e "bench='${bench//\'/\'\'}'" -c "plots/$script.gp" "$@" "$plot_tmp") ||
		die "gnuplot failed on plots/$script.gp"
	mv -f "$plot_tmp" "$file"
	plot_tmp=
}

# meta CSV KEY: the value of CSV's metadata KEY, as bench reads and checks
# it (bench show --meta), or nothing
meta() { "$bench" show --meta "$2" "$1" 2>/dev/null || true; }

# plots CSV DIR: hist, cdf, heatmap as PNG and SVG
plots() {
	local p ext
	for p in hist cdf heatmap; do
		for ext in png svg; do
			plot "$p" "$2/$p.$ext" "$1"
		done
	done
}

# one_run DIR [BENCH RUN OPTIONS]: one bench run, which writes every file
# (the CSV, its table, each variant's, the summary), what was measured even
# when interrupted; then the plots. The run's status (0, 130/143) goes to
# run_rc: a caller's `one_run ... || rc=$?` would turn set -e off in here.
one_run() {
	local dir=$1 rc=0
	shift
	"$bench" run --runs "${KSB_RUNS:-6}" -o "$dir/bench.csv" --also table="$dir/output.txt" \
		--also summary="$dir/summary.txt" --also table:old="$dir/table-old.txt" \
		--also table:new="$dir/table-new.txt" "$@" >/dev/null || rc=$?
	case $rc in
	0 | 130 | 143) ;;
	*) rmdir "$dir" 2>/dev/null || true
	   exit "$rc" ;;
	esac
	# a run stopped before its first sample has nothing to draw
	[[ $(meta "$dir/bench.csv" samples_taken) == *[1-9]* ]] || exit "$rc"
	plots "$dir/bench.csv" "$dir"
	run_rc=$rc
}

main_job() {
	local dir possible run_rc=0
	build
	doctor "$@"
	dir=$(new_results_dir)
	one_run "$dir" "$@"
	echo "== old: $(meta "$dir/bench.csv" variant_old)"
	cat "$dir/table-old.txt"
	echo
	echo "== new: $(meta "$dir/bench.csv" variant_new)"
	cat "$dir/table-new.txt"
	echo
	cat "$dir/summary.txt"
	possible=$(meta "$dir/bench.csv" possible_cpus)
	if [ "${possible:-0}" -lt 64 ]; then
		echo "note: this machine has $possible possible CPUs, so the clearing loop is short;"
		echo "      ./run.sh --possible-cpus 480 --cache cold models the patch's 480-CPU host"
	fi
	echo "results: $dir"
	return "$run_rc"
}

# ---- compare ----

# passthrough CMD ARGS...: run.sh becomes `bench CMD --help` when asked;
# builds bench when it is not there
passthrough() {
	local cmd=$1 a
	shift
	for a in "$@"; do
		case $a in
		-h | --help) exec "$bench" "$cmd" --help ;;
		esac
	done
	[ -x "$bench" ] || build
}

# once CMD DIR ARGS...: `bench CMD ARGS` run once: its report on stdout,
# its table also in DIR/CMD.txt and its other reports where the --also
# options in ARGS put them, each written by bench; bad input (exit 2 or
# more): bench wrote nothing, DIR is removed and run.sh exits with it,
# bench having said why
once() {
	local cmd=$1 dir=$2 rc=0
	shift 2
	"$bench" "$cmd" --also table="$dir/$cmd.txt" "$@" || rc=$?
	if [ "$rc" -gt 1 ]; then
		rmdir "$dir" 2>/dev/null || true
		exit "$rc"
	fi
	return "$rc"
}

# compare [BENCH COMPARE OPTIONS] BEFORE... -- AFTER...: bench compare
# splits the sides and writes every file the plot reads, in one run
compare() {
	local dir rc=0
	passthrough compare "$@"
	dir=$(new_results_dir)
	once compare "$dir" --also csv="$dir/compare.csv" --also runs="$dir/compare-runs.csv" \
		--also cdf="$dir/compare-cdf.csv" "$@" || rc=$?
	plot compare "$dir/compare.png" "$dir/compare-cdf.csv" "$dir/compare-runs.csv" "$dir/compare.csv"
	echo "results: $dir"
	return "$rc"
}

# ---- sweep ----

# sweep [--from N] [--to N] [BENCH RUN OPTIONS]: bench sweep writes every
# file but the plot; bad input (exit 2 or more): bench said why, the
# directory goes if nothing is in it
sweep() {
	local dir rc=0
	passthrough sweep "$@"
	build
	dir=$(new_results_dir)
	"$bench" sweep -o "$dir" "$@" || rc=$?
	if [ "$rc" != 0 ]; then
		rmdir "$dir" 2>/dev/null || true
		exit "$rc"
	fi
	plot sweep "$dir/sweep.png" "$dir/sweep.csv"
	plot sweep "$dir/sweep.svg" "$dir/sweep.csv"
	echo "results: $dir"
}

# ---- trend ----

# trend [BENCH TREND OPTIONS] FILE|DIR...: one bench trend, three reports
trend() {
	local dir rc=0
	passthrough trend "$@"
	dir=$(new_results_dir)
	once trend "$dir" --also csv="$dir/trend.csv" --also runs="$dir/trend-runs.csv" "$@" || rc=$?
	plot trend "$dir/trend.png" "$dir/trend-runs.csv" "$dir/trend.csv"
	echo "results: $dir"
	return "$rc"
}

# scale [BENCH SCALE OPTIONS] FILE... [-- FILE...]: bench scale once, its
# table, csv and points (whose "# unit:" line scale.gp reads) for the plot
scale() {
	local dir rc=0
	passthrough scale "$@"
	dir=$(new_results_dir)
	once scale "$dir" --also csv="$dir/scale.csv" --also points="$dir/scale-points.csv" "$@" ||
		rc=$?
	plot scale "$dir/scale.png" "$dir/scale-points.csv" "$dir/scale.csv"
	echo "results: $dir"
	return "$rc"
}

case ${1:-} in
-h | --help) usage ;;
compare | trend | scale | sweep) "$@" ;;	# the function of that name, its words after
bisect)
	shift
	[ -x "$bench" ] || build
	KSB_BENCH=$bench KSB_RESULTS=$results_root exec "$bench" bisect "$@" ;;
*) main_job "$@" ;;
esac
