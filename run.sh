#!/usr/bin/env bash
# run.sh - kstats-bench in one command.
#
#   ./run.sh [BENCH RUN OPTIONS]          deps, build, 6 runs, tables, plots, summary
#   ./run.sh sweep [--from N] [--to N] [BENCH RUN OPTIONS]
#   ./run.sh compare [OPTIONS] BEFORE.csv... -- AFTER.csv...   the CI gate (exit 1: regression)
#   ./run.sh bisect [OPTIONS] TREE GOOD BAD [-- COMMAND...]     the commit that regressed
#   ./run.sh trend [OPTIONS] FILE|DIR...   change points of a nightly history (exit 1: recent regression)
#   ./run.sh scale [OPTIONS] FILE... [-- FILE...]   cost per possible CPU (exit 1: B's slope grew)
#
# Results go to results/<UTC stamp>/ (KSB_RESULTS overrides results/);
# an existing directory is never reused. KSB_NO_DEPS=1 skips `make deps`.
set -euo pipefail

top=$(cd "$(dirname "$0")" && pwd)
bench=$top/bench
step=$top/bisect-step.sh	# bisect's step, for git bisect run
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
	step=$top/kstats-bench-bisect-step
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

# bisect's defaults, said by its --help and its report; bisect-step.sh
# takes what run.sh passes and has none of its own (bench compare's
# threshold is compare's, passed only when -t is given)
# counted boots repeat to a few parts in 10^4: 2 a side show it (bench
# vm's counted clock, docs/measurements.md "The counted clock")
bisect_boots=2
bisect_possible=480
bisect_cpus=
bisect_cmd=(kernel -w kernel-irq-alloc -n 512)

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

sweep runs once per power of two of possible CPUs from --from (64) to
--to (4096), keeping one CSV per point, sweep.csv and sweep.png.

compare takes what `bench compare` takes, prints its verdicts, and
writes results/<stamp>/: compare.txt, compare.csv and compare.png (both
sides' pooled CDFs, and every run's figure with the change and its
interval). Exit 0 no regression, 1 regression, 2 bad input.

bisect finds the commit of the kernel git TREE between GOOD and BAD that
made bench compare fail: it builds GOOD once and keeps its kernel, then
drives `git bisect run bisect-step.sh`, which builds each step with the
tree's own .config (make olddefconfig), boots it --boots times with bench
vm beside GOOD's kernel, interleaved, and compares the two: a regression
is bad, '~' good, a change below the threshold good (said so), a build or
boot failure skipped. BAD is checked first. It writes results/<stamp>/:
good/ (GOOD's kernel), REV.csv, good-REV.csv, REV.compare.txt (.csv,
.lkp: the same compare's rows and 0-day's table) and the consoles per step, bisect.log (git bisect log) and bisect.txt, and prints
it: a regression report shaped as 0-day's mails (subject, commit, testbed,
the commands that reproduce it, the %change table, #regzbot introduced:),
then the first bad commit, the compare line that condemned it, BISECT.
EOF
	cat <<EOF
Options: -B, --boots N ($bisect_boots); -p, --possible-cpus N ($bisect_possible);
-c, --cpus N (bench vm's: 1 counted); -t, --threshold PCT (compare's); --vm 'OPTIONS'
(more bench vm options); --no-check-bad. COMMAND: the bench command in the
guests (default ${bisect_cmd[*]}).
EOF
	cat <<'EOF'
A dirty tree, revisions that do not exist, GOOD not an ancestor of BAD:
exit 2 before anything is built. SIGINT runs git bisect reset: the tree
is left as it was found.
Exit 0 found, 1 BAD does not regress against GOOD, 2 bad usage, 3 GOOD
does not build or boot.

trend takes what `bench trend` takes, prints its change points, and
writes results/<stamp>/: trend.txt, trend.csv, trend-runs.csv and
trend.png (each series' per-run figures over time, each segment's
median, the change points with their change); with --control DIR (a
pinned baseline measured beside each night), the subject's and the
control's nightly medians and their ratio, whose change points are the
subject's own. Exit 0, 1 when a series' newest change point is a recent
regression, 2 bad input.

scale takes what `bench scale` takes (a sweep: one CSV per possible-CPU
count; A... -- B... gates B's slope against A's), prints the slopes, and
writes results/<stamp>/: scale.txt, scale.csv, scale-points.csv and
scale.png (each series' per-run figures against possible CPUs per group,
the Theil-Sen lines and the band of their 95% slope interval). Exit 0,
1 when B's slope exceeds A's beyond the threshold, 2 bad input.

Environment: KSB_RESULTS=DIR (results root), KSB_NO_DEPS=1 (skip make deps),
KSB_BENCH=PATH (the bench binary to run).
See ./bench run --help, ./bench compare --help, ./bench trend --help and
./bench scale --help.
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
	(cd "$share" && gnuplot -c "plots/$script.gp" "$@" "$plot_tmp") ||
		die "gnuplot failed on plots/$script.gp"
	mv -f "$plot_tmp" "$file"
	plot_tmp=
}

# plots CSV DIR: hist, cdf, heatmap as PNG and SVG
plots() {
	local p ext
	for p in hist cdf heatmap; do
		for ext in png svg; do
			plot "$p" "$2/$p.$ext" "$1"
		done
	done
}

# one_run DIR [BENCH RUN OPTIONS]: one bench run, which writes every file:
# the CSV, its table (output.txt), each variant's table and the summary
# (the SUMMARY's figures as a table, each run's), what was measured even
# when interrupted; then the plots. The run's status (0, or 130/143 when
# interrupted) goes to run_rc, not to the return value: a caller writing
# `one_run ... || rc=$?` would turn set -e off in here.
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
	grep -q '^# samples_taken: .*[1-9]' "$dir/bench.csv" 2>/dev/null || exit "$rc"
	plots "$dir/bench.csv" "$dir"
	run_rc=$rc
}

main_job() {
	local dir possible run_rc=0
	build
	doctor "$@"
	dir=$(new_results_dir)
	one_run "$dir" "$@"
	echo "== old: $(sed -n 's/^# variant_old: //p' "$dir/bench.csv")"
	cat "$dir/table-old.txt"
	echo
	echo "== new: $(sed -n 's/^# variant_new: //p' "$dir/bench.csv")"
	cat "$dir/table-new.txt"
	echo
	cat "$dir/summary.txt"
	possible=$(sed -n 's/^# possible_cpus: //p' "$dir/bench.csv")
	if [ "${possible:-0}" -lt 64 ]; then
		echo "note: this machine has $possible possible CPUs, so the clearing loop is short;"
		echo "      ./run.sh --possible-cpus 480 --cache cold models the patch's 480-CPU host"
	fi
	echo "results: $dir"
	return "$run_rc"
}

# ---- sweep ----

sweep() {
	local from=64 to=4096 dir p
	local -a args=() csvs=()
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
	[ $((from * 2)) -le "$to" ] ||
		die "--from $from --to $to: a sweep needs two counts or more (--to at least 2 x --from)" 2
	build
	doctor "${args[@]}"
	dir=$(new_results_dir)
	for ((p = from; p <= to; p *= 2)); do
		echo "run.sh: sweep: $p possible CPUs" >&2
		"$bench" run -q -o "$dir/sweep-$p.csv" --also table="$dir/sweep-$p.txt" \
			--possible-cpus "$p" "${args[@]}" >/dev/null || exit $?
		csvs+=("$dir/sweep-$p.csv")
	done
	# one row per point, bench scale's sweep format (a single point has no slope)
	"$bench" scale -o "$dir/sweep.csv" -f sweep "${csvs[@]}" || exit $?
	plot sweep "$dir/sweep.png" "$dir/sweep.csv"
	plot sweep "$dir/sweep.svg" "$dir/sweep.csv"
	grep -v '^#' "$dir/sweep.csv" | column -s, -t
	echo "results: $dir"
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

# ---- bisect: the commit that regressed ----

# bisect_refuse MESSAGE: one line, exit 2 (nothing was touched yet)
bisect_refuse() {
	echo "run.sh bisect: $*" >&2
	exit 2
}

# the checks that come before anything is built
bisect_check() {
	local tree=$1 good=$2 bad=$3 r
	git -C "$tree" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
		bisect_refuse "$tree: not a git work tree"
	[ "$(git -C "$tree" rev-parse --show-toplevel)" = "$(cd "$tree" && pwd -P)" ] ||
		bisect_refuse "$tree: not the top of its git tree ($(git -C "$tree" rev-parse --show-toplevel))"
	[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
		bisect_refuse "$tree: uncommitted changes (git -C $tree status); commit or stash them"
	[ ! -e "$(git -C "$tree" rev-parse --absolute-git-dir)/BISECT_START" ] ||
		bisect_refuse "$tree: a bisect is already going (git -C $tree bisect reset)"
	for r in "$good" "$bad"; do
		git -C "$tree" rev-parse --verify -q "$r^{commit}" >/dev/null ||
			bisect_refuse "'$r': no such revision in $tree"
	done
	[ "$(git -C "$tree" rev-parse "$good^{commit}")" != "$(git -C "$tree" rev-parse "$bad^{commit}")" ] ||
		bisect_refuse "GOOD and BAD are the same commit"
	git -C "$tree" merge-base --is-ancestor "$good" "$bad" ||
		bisect_refuse "'$good' is not an ancestor of '$bad'"
	[ -f "$tree/.config" ] || bisect_refuse "$tree: no .config (the tree's own is built at every step)"
}

# quoted WORD...: the words shell-quoted (printf %q), one line: what
# bisect-step.sh splits back, and what a reader pastes into a shell
quoted() {
	local q
	q=$(printf '%q ' "$@")
	echo "${q% }"
}

# bisect_step_env DIR: what bisect-step.sh reads, each list shell-quoted;
# --vm's words go as the user quoted them
bisect_step_env() {
	export KSB_BISECT_OUT=$1 KSB_BENCH=$bench
	KSB_BISECT_VM="$(quoted -B "$b_boots" -p "$b_possible" ${b_cpus:+-c "$b_cpus"})${b_vm:+ $b_vm}"
	KSB_BISECT_COMPARE=${b_threshold:+$(quoted -t "$b_threshold")}
	KSB_BISECT_CMD=$(quoted "${b_cmd[@]}")
	export KSB_BISECT_VM KSB_BISECT_COMPARE KSB_BISECT_CMD
}

# csv_key CSV KEY: the value of the metadata line "# KEY: " of CSV, the
# first: what bench recorded of a run
csv_key() {
	sed -n "s/^# $2: //p" "$1" | head -1
}

# undo what the bisect did to TREE: back where it was, whatever happened
bisect_restore() {
	local tree=$1 orig=$2
	if [ -e "$(git -C "$tree" rev-parse --absolute-git-dir)/BISECT_START" ]; then
		git -C "$tree" bisect reset >/dev/null 2>&1
	fi
	git -C "$tree" checkout -q "$orig" 2>/dev/null || true
}

# bisect_label CSV KEY: the run's --label KEY=VALUE (bench vm --label,
# through --vm), or nothing
bisect_label() {
	sed -n "s/^# label_$2: //p" "$1" 2>/dev/null | head -1
}

# bisect_tree TREE ORIG CSV: "TREE:BRANCH" of a report's subject, from the
# labels tree= and branch=, else the repository (its origin remote's
# name, else its directory) and the branch it was on (else HEAD)
bisect_tree() {
	local tree=$1 orig=$2 csv=$3 name branch url
	name=$(bisect_label "$csv" tree)
	branch=$(bisect_label "$csv" branch)
	if [ -z "$name" ]; then
		url=$(git -C "$tree" remote get-url origin 2>/dev/null || true)
		name=$(basename "${url:-$tree}" .git)
	fi
	if [ -z "$branch" ]; then
		branch=$(git -C "$tree" rev-parse -q --verify "refs/heads/$orig" >/dev/null && echo "$orig" || echo HEAD)
	fi
	echo "$name:$branch"
}

# first_regression CSV: "WORKLOAD VARIANT CHANGE STAT P N_BEFORE N_AFTER"
# of the first row of bench compare's CSV whose verdict is a regression,
# its columns by name
first_regression() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["verdict"] == "regression" {
			print $c["workload"], $c["variant"], $c["change_pct"], $c["stat"], $c["p"],
				$c["n_before"], $c["n_after"]
			exit
		}' "$1"
}

# bisect_report TREE DIR GOOD FIRST SHA ORIG: the regression report, in
# the shape of 0-day's mails (docs/formats.md): subject, the commit, the
# testbed, the commands that reproduce it, the table of GOOD against the
# first bad commit, and regzbot's line. No Reported-by or Closes: those
# are 0-day's tags.
bisect_report() {
	local tree=$1 dir=$2 good=$3 first=$4 sha=$5 orig=$6 s10 g10 subject gsubj sys wl var ch
	local csv=$dir/$sha.csv cpu host lkp threshold boots possible cpus
	s10=$(git -C "$tree" rev-parse --short=10 "$first")
	g10=$(git -C "$tree" rev-parse --short=10 "$good")
	subject=$(git -C "$tree" log -1 --format=%s "$first")
	gsubj=$(git -C "$tree" log -1 --format=%s "$good")
	sys=${subject%%:*}
	[ "$sys" != "$subject" ] || sys=unknown
	# the step's one compare: 0-day's table, and the CSV whose first
	# regression (in compare's order) is the series that condemned the commit
	lkp=$(cat "$dir/$sha.compare.lkp" 2>/dev/null) || true
	read -r wl var ch _ <<<"$(first_regression "$dir/$sha.compare.csv" 2>/dev/null)" || true
	ch=$(printf '%+.1f%%' "${ch:-0}")
	# the threshold the step's compare applied, from its COMPARE line
	threshold=$(sed -n 's/^COMPARE .* threshold=\([^ ]*\) .*/\1/p' "$dir/$sha.compare.txt" 2>/dev/null)
	cpu=$(csv_key "$csv" cpu_model)
	host=$(csv_key "$csv" host)
	# what the step's bench vm ran, as the good side's file records it
	# (both sides boot in one bench vm): --vm's options may override -B,
	# -p and -c
	boots=$(csv_key "$dir/good-$sha.csv" runs)
	possible=$(csv_key "$dir/good-$sha.csv" possible_cpus)
	cpus=$(csv_key "$dir/good-$sha.csv" online_cpus)
	echo "Subject: [$(bisect_tree "$tree" "$orig" "$csv")] [$sys] $s10: $wl.$var $ch regression"
	echo
	echo "kstats-bench noticed a $ch regression of $wl.$var on:"
	echo
	echo "commit: $first (\"$subject\")"
	echo
	echo "testbed: bench vm on $host (${cpu:-unknown CPU}), $boots boots a kernel at $possible possible CPUs, $cpus CPUs"
	echo "parameters:"
	echo
	echo "	command: bench $KSB_BISECT_CMD"
	echo "	boots: $boots"
	echo "	possible_cpus: $possible"
	echo "	cpus: $cpus"
	echo "	threshold: ${threshold:-?}"
	echo
	echo "To reproduce, in $tree (the good kernel as bisect-step.sh --baseline keeps it):"
	echo
	echo "	git checkout $first"
	echo "	make olddefconfig && make bzImage modules"
	echo "	bench vm $KSB_BISECT_VM -o . --module $dir/good/kstats_bench.ko good-$sha=$dir/good/bzImage $sha=. -- $KSB_BISECT_CMD"
	echo "	bench compare ${KSB_BISECT_COMPARE:+$KSB_BISECT_COMPARE }good-$sha.csv -- $sha.csv"
	echo
	echo "commit: "
	echo "  $g10 (\"$gsubj\")"
	echo "  $s10 (\"$subject\")"
	echo
	# the sides' commits head the columns, as in 0-day's table
	printf '%-16.16s %-27.27s \n' "$(git -C "$tree" rev-parse "$good")" "$first"
	[ -z "$lkp" ] || tail -n +2 <<<"$lkp"
	echo
	echo "#regzbot introduced: $s10"
	echo
}

bisect() {
	local tree good bad orig dir rc=0 t0=$SECONDS first sha subject line steps check_bad=1 exact
	b_boots=$bisect_boots b_possible=$bisect_possible b_cpus=$bisect_cpus b_threshold='' b_vm=
	b_cmd=("${bisect_cmd[@]}")
	while [ $# -gt 0 ]; do
		case $1 in
		-h | --help) usage; exit 0 ;;
		-B | --boots) b_boots=${2:?}; shift 2 ;;
		-p | --possible-cpus) b_possible=${2:?}; shift 2 ;;
		-c | --cpus) b_cpus=${2:?}; shift 2 ;;
		-t | --threshold) b_threshold=${2:?}; shift 2 ;;
		--vm) b_vm=${2:?}; shift 2 ;;
		--no-check-bad) check_bad=0; shift ;;
		-*) bisect_refuse "unknown option '$1' (see ./run.sh --help)" ;;
		*) break ;;
		esac
	done
	[ $# -ge 3 ] || bisect_refuse "TREE GOOD BAD expected (see ./run.sh --help)"
	tree=$(cd "$1" 2>/dev/null && pwd) || bisect_refuse "$1: no such directory"
	good=$2 bad=$3
	shift 3
	if [ $# -gt 0 ]; then
		[ "$1" = -- ] && shift
		[ $# -gt 0 ] || bisect_refuse "an empty COMMAND after '--'"
		b_cmd=("$@")
	fi
	bisect_check "$tree" "$good" "$bad"
	# commits, not names: "HEAD" would follow the checkouts below
	good=$(git -C "$tree" rev-parse --short "$good^{commit}")
	bad=$(git -C "$tree" rev-parse --short "$bad^{commit}")
	[ -x "$bench" ] || build
	dir=$(new_results_dir)
	orig=$(git -C "$tree" symbolic-ref -q --short HEAD || git -C "$tree" rev-parse HEAD)
	trap 'trap - INT TERM; bisect_restore "$tree" "$orig"; echo "run.sh bisect: interrupted; $tree is back at $orig" >&2; exit 130' INT TERM
	bisect_step_env "$dir"
	echo "bisect: $good (good) .. $bad (bad) in $tree; $b_boots boots a step at $b_possible possible CPUs; results: $dir" >&2
	git -C "$tree" checkout -q "$good"
	(cd "$tree" && "$step" --baseline "$dir/good") || rc=$?
	export KSB_BISECT_GOOD=$dir/good
	if [ "$rc" = 0 ] && [ "$check_bad" = 1 ]; then
		git -C "$tree" checkout -q "$bad"
		(cd "$tree" && "$step") || rc=$?
		case $rc in
		1) rc=0 ;;
		0) echo "run.sh bisect: $bad does not regress against $good (see $dir): nothing to bisect" >&2; rc=1 ;;
		*) rc=3 ;;
		esac
	fi
	git -C "$tree" checkout -q "$orig"
	if [ "$rc" != 0 ]; then
		[ "$rc" != 3 ] || echo "run.sh bisect: $good or $bad does not build or boot (see $dir)" >&2
		trap - INT TERM
		exit "$rc"
	fi
	git -C "$tree" bisect start "$bad" "$good" >/dev/null
	# git bisect run's transcript to the file, each step's own lines to
	# stderr as they come: a step is a build and 2B boots, minutes each
	(cd "$tree" && git bisect run "$step") 2>&1 | tee "$dir/bisect-run.txt" |
		grep --line-buffered '^bisect-step: ' >&2 || true
	git -C "$tree" bisect log >"$dir/bisect.log"
	bisect_restore "$tree" "$orig"
	trap - INT TERM
	first=$(sed -n 's/^# first bad commit: \[\([0-9a-f]*\)\] .*/\1/p' "$dir/bisect.log")
	[ -n "$first" ] || die "git bisect found no first bad commit (see $dir/bisect-run.txt)"
	sha=$(git -C "$tree" rev-parse --short "$first")
	subject=$(git -C "$tree" log -1 --format=%s "$first")
	# counted files: no p judged them, and their change reads to 0.01%
	exact=$([ "$(csv_key "$dir/good-$sha.csv" unit)" != insn ] || echo 1)
	line=$(first_regression "$dir/$sha.compare.csv" 2>/dev/null |
		awk -v exact="$exact" '{
			if (exact)
				printf "%s.%s.%s %+.2f%% regression, exact, n=%s+%s\n", $1, $2, $4, $3, $6, $7
			else
				printf "%s.%s.%s %+.1f%% regression, p=%s, n=%s+%s\n", $1, $2, $4, $3, $5, $6, $7
		}')
	# one line per step: bisect start names GOOD and BAD in a line of its own
	steps=$(grep -cE '^git bisect (good|bad|skip) ' "$dir/bisect.log")
	{
		bisect_report "$tree" "$dir" "$good" "$first" "$sha" "$orig"
		echo "first bad commit: $sha $subject"
		echo "condemned by: ${line:-(its compare: $dir/$sha.compare.txt)}"
		echo "BISECT first_bad=$first steps=$steps boots=$(csv_key "$dir/good-$sha.csv" runs) possible=$(csv_key "$dir/good-$sha.csv" possible_cpus) seconds=$((SECONDS - t0)) results=$dir"
	} >"$dir/bisect.txt"
	cat "$dir/bisect.txt"
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
compare)
	shift
	compare "$@" ;;
trend)
	shift
	trend "$@" ;;
scale)
	shift
	scale "$@" ;;
sweep)
	shift
	sweep "$@" ;;
bisect)
	shift
	bisect "$@" ;;
*) main_job "$@" ;;
esac
