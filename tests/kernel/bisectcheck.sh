#!/usr/bin/env bash
# bisectcheck.sh - bench bisect (./run.sh bisect) must name the commit that planted a
# regression. Turns kernelcheck's 6.12 tree (make kernelcheck first) into
# a git history, each commit small:
#
#   stock           the unpacked linux-source-6.12, one commit
#   good            the patch (its merged form)
#   neutral 1..3    a comment, a Kconfig help text, a documentation line
#   plant           test-only-plant-irq-alloc-delay.patch
#   neutral 4..5    a comment, a documentation line
#
# and bisects good..tip: 6 commits, so at most ceil(log2(6)) = 3 steps,
# at compare's threshold for counted files (0.5%), with --no-check-bad:
# BAD's check is one more step of the same code (a build and four boots
# on the CI's longest path), and bisect.bats checks its place in the
# flow; the plant must still be judged bad in a step of its own. The boots are bench
# vm's counted clock (a figure counts the guest's instructions, exact),
# so the plant can be small: its delay is set on the command line
# (irq_plant_ns, BISECTCHECK_PLANT_NS, 383 virtual ns, one instruction
# each: about 1% of an allocation at 255 possible CPUs), and 2 boots of
# a neutral commit repeat to within 0.2%, where the timed clock needed
# 60 us (+25%), 5 boots a step and a threshold of 15% to stay out of
# TCG's speed moving from boot to boot.
# Checks the first bad commit is the plant and the steps, prints the
# bisect log and one line: BISECTCHECK passed|FAILED: ... with the wall
# time. Then takes the history away again (the tree back to stock, no
# .git), as kernelcheck left it. KSB_KERNELCHECK_DIR as for kernelcheck;
# BISECTCHECK_BOOTS (2) boots a step, BISECTCHECK_POSSIBLE (255),
# BISECTCHECK_PLANT_NS (383) the plant's delay per allocation.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/tests/kernel
kc=${KSB_KERNELCHECK_DIR:-$top/build/kernelcheck}
src=$kc/linux-source-6.12
boots=${BISECTCHECK_BOOTS:-2}
possible=${BISECTCHECK_POSSIBLE:-255}
plant_ns=${BISECTCHECK_PLANT_NS:-383}
t0=$SECONDS

lib_prog=bisectcheck
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"

# git in the tree, as a fixed author, with no user config; objects
# uncompressed (zlib was most of the 2 minutes the first commit took),
# and no background gc (it wrote into .git while unhistory removed it)
g() {
	GIT_AUTHOR_NAME=kstats-bench GIT_AUTHOR_EMAIL=bisectcheck@kstats-bench \
		GIT_COMMITTER_NAME=kstats-bench GIT_COMMITTER_EMAIL=bisectcheck@kstats-bench \
		GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 \
		git -C "$src" -c core.looseCompression=0 -c core.compression=0 -c gc.auto=0 "$@"
}

# the files the neutral commits append a line to
neutral=(kernel/irq/manage.c kernel/irq/Kconfig kernel/irq/irqdomain.c
	 Documentation/core-api/genericirq.rst)

# the patched files as kernelcheck keeps them (the tree's stock)
pristine() {
	local f
	while read -r f; do
		cmp -s "$kc/pristine/$f" "$src/$f" || cp "$kc/pristine/$f" "$src/$f"
	done < <(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$here"/patches/*.patch | sort -u)
}

# the tree back to stock with no history, as kernelcheck expects it; by
# content, not by git, so that it also mends a run cut short anywhere
unhistory() {
	local f
	rm -rf "$src/.git"
	for f in "${neutral[@]}"; do
		! grep -q 'bisectcheck: neutral' "$src/$f" || sed -i '/bisectcheck: neutral/d' "$src/$f"
	done
	pristine
	[ ! -f "$kc/gitignore.orig" ] || mv "$kc/gitignore.orig" "$src/.gitignore"
}

# commit SUBJECT: everything changed since the last commit
commit() { g add -A && g commit -q -m "$1"; }

# append FILE LINE: a neutral change, text only
append() { printf '%s\n' "$2" >>"$src/$1"; }

history() {
	unhistory
	say "committing the tree (one commit of the unpacked source)"
	# Debian's linux-source ignores everything at the top level ("/*",
	# its packaging repository's rule); the kernel's own rules stay
	cp "$src/.gitignore" "$kc/gitignore.orig"
	sed -i '/^# Debian packaging/,$d' "$src/.gitignore"
	g init -q
	g config core.fileMode false
	commit "linux-source-6.12 as unpacked"
	g apply "$here/patches/genirq-move-clear-of-kstat_irqs-to-free_desc.patch"
	commit "genirq: move clear of kstat_irqs to free_desc()"
	g tag good
	append "${neutral[0]}" "/* bisectcheck: neutral 1, a comment */"
	commit "genirq: a comment (neutral 1)"
	append "${neutral[1]}" "# bisectcheck: neutral 2, Kconfig text"
	commit "genirq: Kconfig text (neutral 2)"
	append "${neutral[3]}" ".. bisectcheck: neutral 3"
	commit "Documentation: genericirq (neutral 3)"
	g apply "$here/patches/test-only-plant-irq-alloc-delay.patch"
	commit "TEST ONLY genirq: plant a regression in __irq_alloc_descs()"
	g tag plant
	append "${neutral[2]}" "/* bisectcheck: neutral 4, a comment */"
	commit "irqdomain: a comment (neutral 4)"
	append "${neutral[3]}" ".. bisectcheck: neutral 5"
	commit "Documentation: genericirq (neutral 5)"
}

main() {
	local out rc=0 first steps want
	if [ ! -f "$src/.kernelcheck-unpacked" ] || [ ! -f "$src/.config" ]; then
		die "no kernelcheck tree in $kc (make kernelcheck first)"
	fi
	trap unhistory EXIT
	history
	want=$(g rev-parse plant)
	# a git tree's release gains a "+" (scripts/setlocalversion), which
	# would rebuild what kernelcheck built; LOCALVERSION set, if empty,
	# keeps it 6.12.117
	export LOCALVERSION=
	say "bisecting good..HEAD (6 commits), $boots boots a step at $possible possible CPUs, the plant at $plant_ns ns"
	# every kernel gets the same command line; those without the plant
	# pass the unknown irq_plant_ns= on to init, which ignores it
	out=$(KSB_NO_DEPS=1 "$top/run.sh" bisect -B "$boots" -p "$possible" --no-check-bad \
		--vm "--append irq_plant_ns=$plant_ns" "$src" good HEAD) || rc=$?
	echo "$out"
	dir=$(sed -n 's/.*results=\(.*\)$/\1/p' <<<"$out")
	[ -z "$dir" ] || { echo "== git bisect log"; cat "$dir/bisect.log"; }
	first=$(sed -n 's/^BISECT first_bad=\([0-9a-f]*\) .*/\1/p' <<<"$out")	# the full hash
	steps=$(sed -n 's/^BISECT .* steps=\([0-9]*\) .*/\1/p' <<<"$out")
	# the report: 0-day's subject for the plant, and regzbot's line
	report=no
	if [ -n "$dir" ] && [ -n "$first" ] &&
		grep -qE "^Subject: \[[^]]+:[^]]+\] \[TEST ONLY genirq\] ${first:0:10}: [a-z0-9_.-]+ \+[0-9.]+% regression$" "$dir/bisect.txt" &&
		grep -qx "#regzbot introduced: ${first:0:10}" "$dir/bisect.txt" &&
		grep -q '^         %stddev     %change         %stddev$' "$dir/bisect.txt"; then
		report=yes
	fi
	if [ "$rc" = 0 ] && [ "$first" = "$want" ] && [ "${steps:-9}" -le 3 ] && [ "$report" = yes ]; then
		echo "BISECTCHECK passed: first bad commit ${first:0:12} (the plant) in $steps steps, $boots boots a step, its report in $dir/bisect.txt, $((SECONDS - t0)) s"
		exit 0
	fi
	echo "BISECTCHECK FAILED: run.sh bisect exit $rc, first bad ${first:-none} (the plant is $want), ${steps:-?} steps (at most 3), report ${report}, $((SECONDS - t0)) s"
	exit 1
}

main "$@"
