#!/usr/bin/env bash
# bisect-step.sh - one step of a kernel performance bisect: build the
# kernel tree it runs in, boot it with `bench vm`, gate it against the good
# revision's boots with `bench compare`, and answer as `git bisect run`
# wants. `./run.sh bisect` drives it; by hand:
#
#   ./bisect-step.sh --baseline good.csv        # at the good revision, once
#   git bisect start BAD GOOD
#   KSB_BISECT_GOOD=$PWD/good.csv git bisect run /path/to/bisect-step.sh
#
# Each step, in the tree (git bisect run's working directory):
#   make olddefconfig && make bzImage modules  (the tree's own .config)
#   bench vm $KSB_BISECT_VM REV=. -- $KSB_BISECT_CMD   REV.csv, REV.console
#   bench compare $KSB_BISECT_COMPARE GOOD -- REV.csv  REV.compare.txt
# all under $KSB_BISECT_OUT (default: the current directory's
# bisect-out/), REV the short commit.
#
# Exit (git bisect run's codes): 0 good (no regression; a change that is
# significant but below the threshold cannot decide and is taken as good,
# and said so), 1 bad (a regression above the threshold), 125 skip (the
# kernel did not build or boot), 128 abort (bench compare refused the
# files: a mistake of ours, not the commit's).
#
# Environment:
#   KSB_BISECT_GOOD     the good revision's CSV (not needed with --baseline)
#   KSB_BISECT_OUT      where the files go (bisect-out/)
#   KSB_BISECT_VM       bench vm options (-B 6 -p 480 -c 2)
#   KSB_BISECT_CMD      the bench command in the guests (kernel -w kernel-irq-alloc -n 512)
#   KSB_BISECT_COMPARE  bench compare options (none: its defaults)
#   KSB_BENCH           the bench to run (default: the one beside this script)
#   KSB_BISECT_JOBS     make -j (default: nproc)
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
bench=${KSB_BENCH:-}
if [ -z "$bench" ]; then
	bench=$here/bench
	[ -x "$bench" ] || bench=$here/kstats-bench
fi
out=${KSB_BISECT_OUT:-$PWD/bisect-out}
read -r -a vm_opts <<<"${KSB_BISECT_VM:--B 6 -p 480 -c 2}"
read -r -a cmd <<<"${KSB_BISECT_CMD:-kernel -w kernel-irq-alloc -n 512}"
read -r -a cmp_opts <<<"${KSB_BISECT_COMPARE:-}"
jobs=${KSB_BISECT_JOBS:-$(nproc)}

say() { printf 'bisect-step: %s\n' "$*" >&2; }

usage() {
	sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'
	exit "${1:-0}"
}

# build the tree as it is checked out; 0, or 125 after saying why
build() {
	local rev=$1 t0=$SECONDS
	if ! { make -s olddefconfig && make -s -j"$jobs" bzImage modules; } >"$out/$rev.build.log" 2>&1; then
		say "$rev: the kernel does not build ($(tail -1 "$out/$rev.build.log")): skipped"
		return 125
	fi
	say "$rev: built in $((SECONDS - t0)) s"
}

# boot it: $out/$rev.csv; 0, or 125 after saying why
boot() {
	local rev=$1 t0=$SECONDS rc=0
	"$bench" vm -q "${vm_opts[@]}" -o "$out" "$rev=$PWD" -- "${cmd[@]}" >"$out/$rev.vm.txt" 2>"$out/$rev.vm.err" || rc=$?
	if [ "$rc" != 0 ]; then
		say "$rev: bench vm exited $rc ($(tail -1 "$out/$rev.vm.err")): skipped"
		[ "$rc" = 2 ] && return 128	# our options, not the commit
		return 125
	fi
	say "$rev: booted in $((SECONDS - t0)) s"
}

main() {
	local rev rc=0 baseline=
	case ${1:-} in
	-h | --help) usage 0 ;;
	--baseline) baseline=${2:-}; [ -n "$baseline" ] || usage 2 ;;
	"") ;;
	*) usage 2 ;;
	esac
	mkdir -p "$out" || exit 128
	rev=$(git rev-parse --short HEAD) || exit 128
	if [ -n "$baseline" ]; then
		build "$rev" || exit 3
		boot "$rev" || exit 3
		cp "$out/$rev.csv" "$baseline" || exit 3
		exit 0
	fi
	[ -f "${KSB_BISECT_GOOD:-}" ] || { say "KSB_BISECT_GOOD: not a file (the good revision's CSV)"; exit 128; }
	build "$rev" || exit $?
	boot "$rev" || exit $?
	"$bench" compare "${cmp_opts[@]}" "$KSB_BISECT_GOOD" -- "$out/$rev.csv" >"$out/$rev.compare.txt" 2>&1 || rc=$?
	case $rc in
	1)
		say "$rev: bad: $(grep -m1 ' regression$' "$out/$rev.compare.txt")"
		exit 1 ;;
	0)
		if grep -q 'significant, below threshold$' "$out/$rev.compare.txt"; then
			say "$rev: good, undecided: $(grep -m1 'significant, below threshold$' "$out/$rev.compare.txt") (below the threshold: taken as good)"
		else
			say "$rev: good"
		fi
		exit 0 ;;
	*)
		say "$rev: bench compare exited $rc: $(tail -1 "$out/$rev.compare.txt")"
		exit 128 ;;
	esac
}

main "$@"
