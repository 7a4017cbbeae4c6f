#!/usr/bin/env bash
# trend-history.sh [NIGHTS [DIR]] - the figures of docs/measurements.md's
# "bench trend on real runs": three histories of NIGHTS (default 40) invocations
# of `bench run -q --runs 3 --possible-cpus P --cache cold -n 2048`, each
# file given the timestamp of its own night (02:00 UTC, one a day):
#
#   step   P = 480, then 528 from night TH_STEP (25) on (the old path
#          clears 10% more units): bench trend must find the old path's
#          change point at that night +- 1 and no other; the new path may
#          step too, at the same night +- 1 (its cpumask copies take a
#          second cache line above 512 bits), and nowhere else;
#   aa     P = 480 every night: it must find none; the control, with
#          TH_CONTROL_RUNS runs a night (6, twice the others');
#   aa2    P = 480 every night, a second A/A history.
#
# The three are interleaved, night by night, so that the machine's drift
# during the job hits all. Then the same with a control
# (docs/trend-control.md): bench trend --control aa step must find the
# step at its night +- 1 and no other, and --control aa aa2 none; the
# machine's level shifts, which the histories share, cancel out of the
# nightly ratio. The paired figures are the criterion: exit 0 when both
# hold. The histories alone are judged the same way and reported as
# alone=ok|fail: on a shared runner they fail, night for night on the
# same shifts, which is what the control is for. The files stay in DIR (default
# results/trend-history-<stamp>) for ./run.sh trend [--control DIR/aa]
# DIR/step. About 16 s a night and history on xeon-vm
# at a load average of 5 (30-45 min in all); the load average is printed
# as it goes. A rerun into the same DIR measures only the nights missing.
# Exit 0 when the paired figures hold, 1 when not.
#   make trend-history          or          tests/perf/trend-history.sh 40
set -euo pipefail
cd "$(dirname "$0")/../.."
lib_prog=trend-history
# shellcheck source=tests/lib.sh
. tests/lib.sh

nights=${1:-40}
case $nights in
'' | *[!0-9]*) echo "trend-history.sh: NIGHTS must be a number, got '$nights'" >&2; exit 2 ;;
esac
# the step's night: 25, or TH_STEP (16 in a 24-night history)
step=${TH_STEP:-25}
case $step in
'' | *[!0-9]*) echo "trend-history.sh: TH_STEP must be a night, got '$step'" >&2; exit 2 ;;
esac
if [ "$step" -lt 7 ] || [ "$nights" -lt $((step + 5)) ]; then
	echo "trend-history.sh: NIGHTS must be TH_STEP + 5 or more, TH_STEP 7 or more (got $nights and $step)" >&2
	exit 2
fi
dir=${2:-results/trend-history-$(date -u +%Y%m%dT%H%M%SZ)}
[ -x ./bench ] || make -s bench
mkdir -p "$dir/step" "$dir/aa" "$dir/aa2"
# the control's runs a night: with as many as the subject's, its night
# median is half the plain ratio's variance, with twice as many a third,
# so a control with more runs gives the pairing less noise of its own.
# With the plain ratio the criterion held in 2 of 4 repetitions at 3, in
# 3 of 4 at 6; adjusted by theta, in 4 of 4 at 6 (docs/trend-control.md)
control_runs=${TH_CONTROL_RUNS:-6}
case $control_runs in
'' | *[!0-9]* | 0) echo "trend-history.sh: TH_CONTROL_RUNS must be a number of runs, 1 or more, got '$control_runs'" >&2; exit 2 ;;
esac

load() { cut -d' ' -f1-3 /proc/loadavg; }

# night I's timestamp, one a day from 2025-01-01T02:00:00Z
stamp() { date -u -d "2025-01-01T02:00:00Z + $(($1 - 1)) days" +%Y-%m-%dT%H:%M:%SZ; }

# measure HISTORY NIGHT POSSIBLE [RUNS]: one invocation of RUNS runs (3),
# its timestamp set to its night
measure() {
	local f
	f=$1/night-$(printf %02d "$2").csv
	./bench run -q --runs "${4:-3}" --possible-cpus "$3" --cache cold -n 2048 -o "$f" >/dev/null
	sed -i "s/^# timestamp: .*/# timestamp: $(stamp "$2")/" "$f"
	grep -q "^# timestamp: $(stamp "$2")$" "$f"
}

echo "trend-history.sh: $nights nights into $dir, load $(load)" >&2
t0=$(date +%s)
for ((i = 1; i <= nights; i++)); do
	n=night-$(printf %02d "$i").csv
	if [ -f "$dir/step/$n" ] && [ -f "$dir/aa/$n" ] && [ -f "$dir/aa2/$n" ]; then
		continue	# a rerun into the same DIR keeps what it has
	fi
	measure "$dir/step" "$i" "$([ "$i" -ge "$step" ] && echo 528 || echo 480)"
	measure "$dir/aa" "$i" 480 "$control_runs"
	measure "$dir/aa2" "$i" 480
	echo "trend-history.sh: night $i of $nights, $(($(date +%s) - t0)) s, load $(load)" >&2
done

# the change points of one history [against a control], as "VARIANT:NIGHT" words
points_csv=$(mktemp)
trap 'rm -f "$points_csv"' EXIT
points() {
	./bench trend -f csv "$@" >"$points_csv" 2>/dev/null || true
	[ -s "$points_csv" ] || return 0
	csv_rows "$points_csv" variant file |
		awk -F, '{ sub(/.*night-/, "", $2); sub(/\.csv$/, "", $2); printf "%s:%d ", $1, $2 }'
}

for h in step aa aa2; do
	echo "== bench trend $dir/$h"
	./bench trend "$dir/$h" 2>/dev/null || true
done
for h in step aa2; do
	echo "== bench trend --control $dir/aa $dir/$h"
	./bench trend --control "$dir/aa" "$dir/$h" || true
done
sp=$(points "$dir/step")
ap=$(points "$dir/aa")
cs=$(points --control "$dir/aa" "$dir/step")
ca=$(points --control "$dir/aa" "$dir/aa2")
# the step's points: old's at the step +- 1, and any other there too. The
# new path may step as well: desc_set_defaults() copies the cpumasks,
# nr_cpu_ids bits each, and 528 bits take a second cache line where 480
# fit in one, a second cold miss per mask (under --cache cold)
at_step() {
	local w seen=0
	for w in $1; do
		[ "${w##*:}" -ge $((step - 1)) ] && [ "${w##*:}" -le $((step + 1)) ] || return 1
		[ "${w%%:*}" = old ] && seen=1
	done
	[ "$seen" = 1 ]
}
# verdict WORDS_STEP WORDS_AA: ok when the step history's points are all
# at the step +- 1, old's among them, and the A/A has no change point
verdict() { at_step "$1" && [ -z "$2" ] && echo ok || echo fail; }
paired=$(verdict "$cs" "$ca")
echo "TRENDHISTORY nights=$nights step_at=$step step_points=${sp:-none} aa_points=${ap:-none}" \
	"control_step_points=${cs:-none} control_aa_points=${ca:-none}" \
	"load=$(load | tr ' ' '/') alone=$(verdict "$sp" "$ap") verdict=$paired"
[ "$paired" = ok ]
