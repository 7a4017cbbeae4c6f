#!/usr/bin/env bash
# bisect-step.sh - one step of a kernel performance bisect: build the
# kernel tree it runs in, boot it with `bench vm` beside the good
# revision's kernel, gate it against those boots with `bench compare`,
# and answer as `git bisect run` wants. `./run.sh bisect` drives it; by
# hand, in the kernel tree:
#
#   git checkout GOOD && /path/to/bisect-step.sh --baseline ../good
#   git bisect start BAD GOOD
#   export KSB_BISECT_GOOD=../good KSB_BISECT_VM='-p 480'
#   KSB_BISECT_CMD='kernel -w kernel-irq-alloc -n 512' git bisect run /path/to/bisect-step.sh
#
# --baseline DIR builds the tree as checked out and keeps its bzImage and
# the module built against it in DIR. Each step then, in the tree (git
# bisect run's working directory):
#   make olddefconfig && make bzImage modules   (the tree's own .config)
#   bench vm $KSB_BISECT_VM good-REV=DIR/bzImage REV=.  -- $KSB_BISECT_CMD
#   bench compare $KSB_BISECT_COMPARE good-REV.csv -- REV.csv
# under $KSB_BISECT_OUT (default: the current directory's bisect-out/),
# REV the short commit. The good kernel boots in every step, interleaved
# with the step's (good1 REV1 good2 REV2 ...), rather than once at the
# start: a gate across time sees the machine's drift between the two
# (measured here under load: a baseline booted once read 16% faster than
# the same kernel's boots at a later step, by its reference loop).
#
# Exit (git bisect run's codes): 0 good (no regression; a change that is
# significant but below the threshold cannot decide and is taken as good,
# and said so), 1 bad (a regression above the threshold), 125 skip (the
# kernel did not build or boot, or its counted figures did not repeat:
# no verdict either way), 128 abort (bench vm or bench compare
# refused their input: a mistake of ours, not the commit's).
#
# Environment (./run.sh bisect sets the options from its own and its
# defaults; this step has none of its own, each command's are its own;
# each list is words as the shell quotes them, printf %q's output):
#   KSB_BISECT_GOOD     the --baseline directory (not needed with --baseline)
#   KSB_BISECT_OUT      where the files go (bisect-out/)
#   KSB_BISECT_VM       bench vm options (none: bench vm's defaults)
#   KSB_BISECT_CMD      the bench command in the guests (needed but with --baseline)
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
jobs=${KSB_BISECT_JOBS:-$(nproc)}
# The kernel's build is its own: a make above us (make bisectcheck) would
# hand it its jobserver and level, and make's messages would change.
unset MAKEFLAGS MFLAGS MAKELEVEL

say() { printf 'bisect-step: %s\n' "$*" >&2; }

# words VAR: the words of $VAR as the shell quotes them ('a b', a\ b and
# "a b" are one word: printf %q's output), split without running
# anything in them (xargs's quoting), each NUL-terminated
words() {
	xargs -r printf '%s\0' <<<"${!1:-}"
}
for v in KSB_BISECT_VM KSB_BISECT_CMD KSB_BISECT_COMPARE; do
	xargs -r true <<<"${!v:-}" 2>/dev/null || { say "$v: unbalanced quotes: ${!v}"; exit 128; }
done
mapfile -d '' -t vm_opts < <(words KSB_BISECT_VM)
mapfile -d '' -t cmd < <(words KSB_BISECT_CMD)
mapfile -d '' -t cmp_opts < <(words KSB_BISECT_COMPARE)

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

# --baseline DIR: the good kernel's bzImage and module, kept
baseline() {
	local dir=$1 rev=$2
	build "$rev" || return 3
	rm -rf "$dir" && mkdir -p "$dir" || return 3
	cp arch/x86/boot/bzImage "$dir/bzImage" || return 3
	# the one build of the module, bench's (lib/kernel/kmod.h, kmod_build())
	if ! "$bench" kernel -q --build "$PWD" -o "$dir/kmod" >"$out/$rev.kmod.log" 2>&1; then
		say "$rev: the module does not build against it ($(tail -1 "$out/$rev.kmod.log"))"
		return 3
	fi
	mv "$dir/kmod/kstats_bench.ko" "$dir/kstats_bench.ko"
	git rev-parse HEAD >"$dir/commit"
	say "$rev: kept as the good kernel in $dir"
}

# boot the good kernel and this one, interleaved: good-$rev.csv, $rev.csv
boot() {
	local rev=$1 t0=$SECONDS rc=0
	"$bench" vm -q ${vm_opts[@]+"${vm_opts[@]}"} -o "$out" --module "$KSB_BISECT_GOOD/kstats_bench.ko" \
		"good-$rev=$KSB_BISECT_GOOD/bzImage" "$rev=$PWD" -- "${cmd[@]}" \
		>"$out/$rev.vm.txt" 2>"$out/$rev.vm.err" || rc=$?
	if [ "$rc" != 0 ]; then
		say "$rev: bench vm exited $rc ($(tail -1 "$out/$rev.vm.err"))"
		[ "$rc" = 2 ] && return 128	# our options, not the commit
		return 125
	fi
	say "$rev: booted beside the good kernel in $((SECONDS - t0)) s"
}

# first_row CSV VERDICT: "WORKLOAD.VARIANT.STAT CHANGE% VERDICT" of the
# first row of bench compare's CSV with that verdict, its columns by name
first_row() {
	awk -F, -v v="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["verdict"] == v {
			printf "%s.%s.%s %+.1f%% %s\n", $c["workload"], $c["variant"], $c["stat"],
				$c["change_pct"], v
			exit
		}' "$1"
}

# the verdict of bench compare good-$rev -- $rev, as git bisect run's code:
# one compare, its table in REV.compare.txt, its rows in REV.compare.csv
# (read here by column) and 0-day's table in REV.compare.lkp (run.sh's
# report)
judge() {
	local rev=$1 rc=0 f=$out/$1.compare.txt csv=$out/$1.compare.csv row
	"$bench" compare --also csv="$csv" --also lkp="$out/$rev.compare.lkp" \
		${cmp_opts[@]+"${cmp_opts[@]}"} "$out/good-$rev.csv" -- "$out/$rev.csv" >"$f" 2>&1 || rc=$?
	case $rc in
	1)
		row=$(first_row "$csv" regression)
		if [ -z "$row" ]; then
			# counted figures that do not repeat: no verdict either way
			say "$rev: skipped: $(first_row "$csv" 'not repeatable') (a side spread past compare's --spread)"
			return 125
		fi
		say "$rev: bad: $row"
		return 1 ;;
	0)
		row=$(first_row "$csv" 'significant below threshold')
		if [ -n "$row" ]; then
			say "$rev: good, undecided: $row (below the threshold: taken as good)"
		else
			say "$rev: good"
		fi
		return 0 ;;
	esac
	say "$rev: bench compare exited $rc: $(tail -1 "$f")"
	return 128
}

main() {
	local rev
	case ${1:-} in
	-h | --help) usage 0 ;;
	--baseline) [ -n "${2:-}" ] || usage 2 ;;
	"") ;;
	*) usage 2 ;;
	esac
	mkdir -p "$out" || exit 128
	rev=$(git rev-parse --short HEAD) || exit 128
	if [ "${1:-}" = --baseline ]; then
		baseline "$2" "$rev"
		exit $?
	fi
	if [ ! -f "${KSB_BISECT_GOOD:-}/bzImage" ]; then
		say "KSB_BISECT_GOOD: no bzImage in '${KSB_BISECT_GOOD:-}' (bisect-step.sh --baseline DIR makes it)"
		exit 128
	fi
	if [ ${#cmd[@]} = 0 ]; then
		say "KSB_BISECT_CMD: no bench command for the guests (./run.sh bisect sets it)"
		exit 128
	fi
	build "$rev" || exit $?
	boot "$rev" || exit $?
	judge "$rev"
	exit $?
}

main "$@"
