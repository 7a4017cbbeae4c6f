#!/usr/bin/env bash
# busy-study.sh [--check] [DIR] - the busy-runner study, and make busycheck.
#
# A CI runner always has a neighbour, and a neighbour only ever adds time
# to a sample. This measures what it does to each clock: the same work is
# run twice, first on the machine as it is ("idle"), then beside a
# co-tenant started here, a busy loop pinned to CPU 1 and bounded by
# timeout ("busy"):
#
#   sweep   bench vm boots Debian 12's 6.12 image (tests/lib.sh image_612)
#           BUSY_BOOTS times at each of BUSY_COUNTS possible CPUs, and in
#           each boot reads /proc/version (flat), /sys/fs/cgroup/cpu.stat
#           and /proc/stat (both grow), BUSY_READS reads of each
#           (tests/perf/busyreads.sh), counted boots split over the
#           CPUs; bench scale fits each path's slope.
#           Under bench vm's clock BUSY_CLOCK: the study's timed, a
#           study of the timed clock's statistics; --check's counted (a
#           figure counts the guest's instructions)
#   gate    BUSY_ROUNDS rounds of the userspace gate: 6 runs a side of
#           bench run -p 480 --cache cold -n 2048, A and B alike (A/A: any
#           flag is a false one), and in the study C at 528 possible CPUs
#           (the old path clears 10% more units: A/C must flag it)
#
# The study (no --check) fits every statistic of BUSY_STATS on the same
# files and prints one markdown row per statistic and path: the slope
# and its interval idle and busy, the interval's width, the verdicts, how
# far the busy fit moved from the idle one; and one row per statistic of
# the gate: A/A series flagged, and 528's step on the old path found.
# docs/measurements.md (the busy runner) keeps its table and the
# defaults it chose.
#
# --check is make busycheck, the commands' defaults only, the sweep
# counted: busy, the /proc/version slope is flat with its interval inside
# +-BUSY_FLAT (1 instruction) per possible CPU, /proc/stat and cpu.stat
# grow; busy = idle: every path's figure at every count (the median of
# its boots) within BUSY_SAME_PCT (0.5%) of its idle one, and the median
# of those shifts within BUSY_SAME_MED (0.1%) of 0: counted figures repeat
# to a few hundredths of a percent from boot to boot (a /proc/version read
# of about 2000 instructions moves by a fraction of one in its min), while
# the timed clock's neighbour moved the median by whole percents
# (docs/measurements.md, the busy runner); and the A/A gate of bench run, timed,
# flags nothing beside the co-tenant: the busy-runner rules of timed files.
# Ends with one line, BUSYCHECK passed|FAILED: ...; exit 0 passed, 1
# failed, 3 when the image or qemu cannot be had.
#
# DIR (default build/busy) keeps the files; BUSY_BOOTS (study 4, check
# 2), BUSY_ROUNDS (study 6, check 1), BUSY_COUNTS (16,128,255: plain 6.12
# stops at the firmware's 255), BUSY_READS (512); BUSY_REFIT=1 measures
# nothing and fits the files DIR already holds again.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
check=0
if [ "${1:-}" = --check ]; then
	check=1
	shift
fi
lib_prog=$([ "$check" = 1 ] && echo busycheck || echo busy-study)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"

dir=${1:-$top/build/busy}
boots=${BUSY_BOOTS:-$([ "$check" = 1 ] && echo 2 || echo 4)}
rounds=${BUSY_ROUNDS:-$([ "$check" = 1 ] && echo 1 || echo 6)}
counts=${BUSY_COUNTS:-16,128,255}
reads=${BUSY_READS:-512}
stats=${BUSY_STATS:-tm10 median p25 p10 min}
clock=${BUSY_CLOCK:-$([ "$check" = 1 ] && echo counted || echo timed)}
flat=${BUSY_FLAT:-$([ "$clock" = counted ] && echo 1 || echo 150)}
same_pct=${BUSY_SAME_PCT:-0.5}
same_med=${BUSY_SAME_MED:-0.1}
pkg_612=${SCALECHECK_612_PKG:-linux-image-6.12.117+deb12-amd64-unsigned}
bench=$top/bench
paths="version cpustat stat"
sides=$([ "$check" = 1 ] && echo "A:480 B:480" || echo "A:480 B:480 C:528")

for v in "$boots" "$rounds" "$reads"; do
	case $v in
	'' | *[!0-9]* | 0) echo "busy-study.sh: BUSY_BOOTS, BUSY_ROUNDS and BUSY_READS take a whole number above 0, got '$v'" >&2; exit 2 ;;
	esac
done
command -v qemu-system-x86_64 >/dev/null || die "no qemu-system-x86_64 (make busycheck installs it)"
[ "$(nproc)" -ge 2 ] || die "the co-tenant takes CPU 1: this machine has $(nproc) CPU"
img=$(image_612 "${KSB_SCALECHECK_DIR:-$top/build/scalecheck}/6.12" "$pkg_612")
trap cotenant_stop EXIT

# ---- the two phases ----

# sweep PHASE: the vm sweep into $dir/PHASE/sJ (d612-pN-sh/bootB/PATH.csv).
# Counted, the boots are split over the CPUs, one bench vm a CPU, each
# with its share of the boots (bench vm refuses --shard with an sh
# command): a neighbour moves no count, and one qemu left a core idle.
# Timed, one bench vm: the study is of what a neighbour does to it
sweep() {
	local t0=$SECONDS j n b pids=()
	n=1
	[ "$clock" != counted ] || n=$(nproc)
	[ "$n" -le "$boots" ] || n=$boots
	say "$1: sweeping 6.12 over $counts possible CPUs, $boots boots each, $n bench vm side by side, load $(cut -d' ' -f1 /proc/loadavg)"
	# every boot beside the co-tenant is disturbed by the rule (psi cpu
	# some > 40%): measured as it comes, not booted again, which is the
	# point of the study; idle, bench vm's default holds
	for ((j = 1; j <= n; j++)); do
		b=$((boots / n + (j <= boots % n ? 1 : 0)))
		"$bench" vm -q -B "$b" -p "$counts" --clock "$clock" -o "$dir/$1/s$j" "d612=$img" $reboot \
			-- sh "$top/tests/perf/busyreads.sh" "$reads" >"$dir/$1/vm-s$j.txt" &
		pids+=("$!")
	done
	wait_all "${pids[@]}" || die "bench vm exited $? (see $dir/$1/s*/d612.console)"
	say "$1: sweep took $((SECONDS - t0)) s"
}

# gate PHASE: BUSY_ROUNDS rounds, 3 x --runs 2 a side, sides interleaved
gate() {
	local i r s
	for ((i = 1; i <= rounds; i++)); do
		for r in 1 2 3; do
			for s in $sides; do
				"$bench" run -q --runs 2 -p "${s#*:}" --cache cold -n 2048 \
					-o "$dir/$1/gate/${s%%:*}$i-$r.csv" >/dev/null
			done
		done
	done
}

phase() {
	rm -rf "${dir:?}/$1"
	mkdir -p "$dir/$1/gate"
	reboot=
	if [ "$1" = busy ] && [ "$clock" = timed ]; then
		reboot=--reboot-disturbed=0
	fi
	if [ "$1" = busy ]; then
		cotenant_start 1 1800
	fi
	sweep "$1"
	gate "$1"
	cotenant_stop
}

# ---- the figures ----

# fit PHASE PATH STAT [FLAT]: "slope lo hi verdict" of PATH's read in PHASE
# (with --flat FLAT ns per CPU when given)
fit() {
	local out=$dir/$1/fit-$2-$3.csv
	"$bench" scale -s "$3" -f csv ${4:+--flat "$4"} "$dir/$1"/s*/d612-p*-sh/boot*/"$2.csv" >"$out" ||
		die "bench scale -s $3 of $1's $2 exited $?"
	printf '%s %s %s %s\n' "$(csv_col "$out" slope kind=fit)" "$(csv_col "$out" slope_lo kind=fit)" \
		"$(csv_col "$out" slope_hi kind=fit)" "$(csv_col "$out" verdict kind=fit)"
}

# flags PHASE STAT [SIDE [VARIANT]]: the series of A against SIDE (B)
# flagged, regression or improvement, of all (VARIANT's only, if given)
flags() {
	local i n=0 all=0 out side=${3:-B} v=${4:-} verdicts
	for ((i = 1; i <= rounds; i++)); do
		out=$dir/$1/gate/cmp$side$i-$2.csv
		"$bench" compare -s "$2" -f csv "$dir/$1/gate/A$i"-{1,2,3}.csv \
			-- "$dir/$1/gate/$side$i"-{1,2,3}.csv >"$out" 2>/dev/null || true
		[ -s "$out" ] || continue
		verdicts=$(csv_rows "$out" verdict workload=irqdesc-alloc ${v:+"variant=$v"})
		all=$((all + $(grep -c . <<<"$verdicts" || true)))
		n=$((n + $(grep -cxE 'regression|improvement' <<<"$verdicts" || true)))
	done
	echo "$n/$all"
}

# the default of bench scale and bench compare: what --stat is when not given
default_stat() { "$bench" "$1" --help | sed -n 's/.*per-run figure: \([a-z0-9]*\) .*default.*/\1/p' | head -1; }

study() {
	local s p i b
	echo "| stat | path | idle ns/CPU [95%] | busy ns/CPU [95%] | width idle / busy | verdict idle / busy | moved |"
	echo "|---|---|---|---|---|---|---|"
	for s in $stats; do
		for p in $paths; do
			read -r -a i <<<"$(fit idle "$p" "$s")"
			read -r -a b <<<"$(fit busy "$p" "$s")"
			awk -v s="$s" -v p="$p" \
				-v a="${i[0]}" -v alo="${i[1]}" -v ahi="${i[2]}" -v av="${i[3]}" \
				-v b="${b[0]}" -v blo="${b[1]}" -v bhi="${b[2]}" -v bv="${b[3]}" 'BEGIN {
				printf "| %s | %s | %+.0f [%+.0f, %+.0f] | %+.0f [%+.0f, %+.0f] | %.0f / %.0f | %s / %s | %+.0f |\n",
					s, p, a, alo, ahi, b, blo, bhi, ahi - alo, bhi - blo, av, bv, b - a }'
		done
	done
	echo
	echo "| stat | gate A/A flagged idle / busy | 528's step on old found idle / busy |"
	echo "|---|---|---|"
	for s in $stats; do
		echo "| $s | $(flags idle "$s") / $(flags busy "$s") | $(flags idle "$s" C old) / $(flags busy "$s" C old) |"
	done
}

# same PATH: busy = idle, each count's figure (its boots' median, the
# default stat) against idle's: "OK worst-shift median-shift counts"
same() {
	local p=$1 s ph
	s=$(default_stat scale)
	for ph in idle busy; do
		"$bench" scale -s "$s" -f points "$dir/$ph"/s*/d612-p*-sh/boot*/"$p.csv" >"$dir/$ph/points-$p.csv"
	done
	{ csv_rows "$dir/idle/points-$p.csv" possible_cpus "$s" | sed 's/^/1,/'
	  csv_rows "$dir/busy/points-$p.csv" possible_cpus "$s" | sed 's/^/2,/'; } |
		awk -F, -v lim="$same_pct" -v mlim="$same_med" '
		{ k = $2; v[$1, k, ++n[$1, k]] = $3; keys[k] = 1 }
		function med(f, k,   m, i, j, t, a) {
			m = n[f, k]
			for (i = 1; i <= m; i++) a[i] = v[f, k, i]
			for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
		}
		function abs(x) { return x < 0 ? -x : x }
		END {
			c = 0; worst = 0
			for (k in keys) {
				sh[++c] = 100 * (med(2, k) / med(1, k) - 1)
				if (abs(sh[c]) > abs(worst)) worst = sh[c]
			}
			for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++) if (sh[j] < sh[i]) { t = sh[i]; sh[i] = sh[j]; sh[j] = t }
			m = c % 2 ? sh[(c + 1) / 2] : (sh[c / 2] + sh[c / 2 + 1]) / 2
			printf "%d %+.3f%% %+.3f%% %d\n", abs(worst) <= lim && abs(m) <= mlim, worst, m, c
		}'
}

busycheck() {
	local s p i b f what r
	s=$(default_stat scale)
	for p in $paths; do
		read -r -a i <<<"$(fit idle "$p" "$s" | awk '{ printf "%.2f %.2f %.2f %s", $1, $2, $3, $4 }')"
		# /proc/version's verdict with --flat at the band it must stay in
		f=
		[ "$p" != version ] || f=$flat
		read -r -a b <<<"$(fit busy "$p" "$s" "$f" | awk '{ printf "%.2f %.2f %.2f %s", $1, $2, $3, $4 }')"
		what="$p ($s, $clock): idle ${i[0]} [${i[1]}, ${i[2]}] ${i[3]}, busy ${b[0]} [${b[1]}, ${b[2]}] ${b[3]} per possible CPU"
		case $p in
		version)
			if awk -v lo="${b[1]}" -v hi="${b[2]}" -v f="$flat" 'BEGIN { exit !(lo >= -f && hi <= f) }' &&
				[ "${b[3]}" = flat ]; then
				ok "$what: flat within +-$flat"
			else
				fail "$what: busy not flat within +-$flat"
			fi ;;
		*)
			if [ "${b[3]}" = grows ]; then ok "$what: grows"; else fail "$what: busy does not grow"; fi ;;
		esac
		read -r -a r <<<"$(same "$p")"
		if [ "${r[0]}" = 1 ]; then
			ok "$p: busy = idle: ${r[3]} counts, the largest shift ${r[1]} (limit $same_pct%), the median ${r[2]} (limit $same_med%)"
		else
			fail "$p: busy is not idle: ${r[3]} counts, the largest shift ${r[1]} (limit $same_pct%), the median ${r[2]} (limit $same_med%)"
		fi
	done
	s=$(default_stat compare)
	f=$(flags busy "$s")
	if [ "${f%%/*}" = 0 ]; then ok "A/A gate of bench run beside the co-tenant ($s, timed): $f series flagged"; else fail "A/A gate of bench run beside the co-tenant ($s, timed): $f series flagged"; fi
	f=$(flags idle "$s")
	info "A/A gate of bench run idle ($s, timed): $f series flagged"
}

mkdir -p "$dir"
t0=$SECONDS
if [ -z "${BUSY_REFIT:-}" ]; then
	phase idle
	phase busy
fi
if [ "$check" = 1 ]; then
	busycheck
	conclude
fi
study | tee "$dir/study.md"
say "study in $dir/study.md, $((SECONDS - t0)) s"
