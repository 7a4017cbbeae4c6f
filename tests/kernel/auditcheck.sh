#!/usr/bin/env bash
# auditcheck.sh - the audit (bench audit in every boot, bench scale's
# ranked report and gate) on real kernels, on a 2-core runner:
#
#   d61    Debian 12's 6.1 (linux-image-amd64's, from /boot), swept over
#          AUDITCHECK_61 (64,255,480) possible CPUs: 6.1 adds the CPUs
#          above the firmware's 255 from possible_cpus=
#   d612   AUDITCHECK_612_PKG (linux-image-6.12.117+deb12-amd64-unsigned),
#          unpacked under KSB_SCALECHECK_DIR/6.12 (where make busycheck
#          boots it too), never installed, swept over AUDITCHECK_612
#          (16,128,255): plain 6.12 stops at the firmware's 255
#   plant  kernelcheck's 6.12 tree (KSB_KERNELCHECK_DIR, which make
#          kernelcheck builds) as it is, and again with
#          tests/kernel/audit-patches/test-only-plant-proc-version-percpu.patch
#          (a for_each_possible_cpu() loop in /proc/version's read), both
#          swept over AUDITCHECK_PLANT (64,128,255: 6.12 stops at 255)
#
# AUDITCHECK_BOOTS (2) boots per count, one bench vm sweep per kernel on
# the counted clock (a figure is the guest's instructions, exact), two
# kernels' sweeps side by side, one a core (AUDITCHECK_VM_ARGS: more of
# bench vm's options):
# every boot runs the whole battery (tests/kernel/auditboot.sh: bench
# audit -n AUDITCHECK_SAMPLES, 32), in an order rotated from boot to
# boot, then attributes in the same boot the entries AUDITCHECK_ATTRIBUTE
# names (proc-stat; "all": every entry with a candidate): the candidates
# are the kernel's functions that loop over possible CPUs that the entry's
# path reaches (tests/kernel/entry-candidates.sh), timed by fentry while
# the entry runs. d612's come from kernelcheck's 6.12 tree, read by name
# (proc-stat: nr_context_switches, nr_iowait, show_stat); d61 comes with
# no tree, so its come from its image's code, its symbols read in one
# boot first (tests/kernel/image-symbols.sh; proc-stat: kstat_irqs_usr,
# nr_context_switches, nr_iowait, show_stat). Checks, per Debian kernel, from bench scale's
# ranked report (Benjamini-Hochberg at q 0.05 over the battery):
#
#   - every control (syscall-null, proc-version, statfs, file-nr: the
#     null syscall among them) flat after Holm's family-wise correction
#     over the battery (the same files fitted again, --multiplicity holm),
#     a slope up to bench scale's --flat for counted files (1
#     instruction per possible CPU) flat: statfs walks a cpumask, an
#     instruction per 8 CPUs, which is real and no loop over the CPUs.
#     BH lets q of its discoveries be false, and with a dozen entries
#     that really grow its level rises to about 0.03, at which a noisy
#     control (file-nr repeats to 0.2%) could read grows or shrinks by
#     chance: Holm's first level is q/21, 0.0024
#   - /proc/stat's read grows, and the function that carries it is
#     show_stat, with a share of at least AUDITCHECK_SHARE (0.5) of the
#     read's slope and at most the read's upper bound over its slope:
#     show_stat is inside the read (this is also the probe's agreement
#     with the entry's own timing that scalecheck's __irq_alloc_descs
#     check stands for)
#
# and for the plant: bench scale A -- B exits 1, and its regression
# line names proc-version; the function is the one the change added a
# possible-CPU loop to (the candidates of the planted tree less the
# stock tree's), the tiny kernel having no BPF to time it by fentry.
# Ends with AUDITCHECK passed|FAILED: ...; exit 0, 1 failed, 3 when a
# kernel cannot be had or booted.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
sc=${KSB_SCALECHECK_DIR:-$top/build/scalecheck}
kc=${KSB_KERNELCHECK_DIR:-$top/build/kernelcheck}
ac=${KSB_AUDITCHECK_DIR:-$top/build/auditcheck}
tree=${AUDITCHECK_TREE:-$kc/linux-source-6.12}
boots=${AUDITCHECK_BOOTS:-2}
counts_61=${AUDITCHECK_61:-64,255,480}
counts_612=${AUDITCHECK_612:-16,128,255}
counts_plant=${AUDITCHECK_PLANT:-64,128,255}
pkg_612=${AUDITCHECK_612_PKG:-linux-image-6.12.117+deb12-amd64-unsigned}
samples=${AUDITCHECK_SAMPLES:-32}
share=${AUDITCHECK_SHARE:-0.5}
kernels=${AUDITCHECK_KERNELS:-d61 d612 plant}
attribute=${AUDITCHECK_ATTRIBUTE:-proc-stat}
# AUDITCHECK_REFIT=1: judge the last sweep's files again, boot nothing
refit=${AUDITCHECK_REFIT:-}
# more bench vm options, e.g. --reboot-disturbed 0 on a loaded host
read -r -a vm_args <<<"${AUDITCHECK_VM_ARGS:-}"
plant=$top/tests/kernel/audit-patches/test-only-plant-proc-version-percpu.patch
bench=$top/bench
times=()

lib_prog=auditcheck
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"

# ---- the candidates ----

# candidates NAME SRC...: kernel NAME's candidates from SRC, a source
# tree or an image and its kallsyms (entry-candidates.sh: the functions
# that loop over possible CPUs that each entry's path reaches) into
# $ac/cand-NAME.tsv, and those of the entries AUDITCHECK_ATTRIBUTE names,
# which every boot of NAME times (auditboot.sh), into $ac/cand-NAME-timed.tsv
candidates() {
	local name=$1 e
	shift
	"$top/tests/kernel/entry-candidates.sh" "$@" >"$ac/cand-$name.tsv" 2>"$ac/cand-$name.log" ||
		die "entry-candidates.sh $*: $(tail -1 "$ac/cand-$name.log")"
	say "$name: $(paste -sd';' "$ac/cand-$name.log" | sed 's/;/; /')"
	if [ "$attribute" = all ]; then
		cp "$ac/cand-$name.tsv" "$ac/cand-$name-timed.tsv"
	else
		: >"$ac/cand-$name-timed.tsv"
		for e in ${attribute//,/ }; do
			grep -P "^\Q$e\E\t" "$ac/cand-$name.tsv" >>"$ac/cand-$name-timed.tsv" ||
				die "AUDITCHECK_ATTRIBUTE: '$e' is no entry with candidates in $name (see $ac/cand-$name.tsv)"
		done
	fi
	awk -F'\t' -v k="$name" '{ printf "auditcheck: %s: timed in every boot: %s: %s\n", k, $1, $3 }' \
		"$ac/cand-$name-timed.tsv"
}

# image_candidates NAME IMAGE: candidates from IMAGE's own code, its
# symbols read in one boot (image-symbols.sh): Debian's 6.1 comes with
# no tree
image_candidates() {
	local t0=$SECONDS
	BENCH=$bench "$top/tests/kernel/image-symbols.sh" "$2" "$ac/kallsyms-$1" 2>"$ac/kallsyms-$1.log" ||
		die "$(cat "$ac/kallsyms-$1.log")"
	candidates "$1" "$2" "$ac/kallsyms-$1"
	echo "$1: candidates from its image in $((SECONDS - t0)) s" >>"$ac/out/times"
}

# tree_candidates NAME: candidates from kernelcheck's 6.12 tree, by name
tree_candidates() {
	[ -d "$tree" ] || die "no kernel tree at $tree: make kernelcheck unpacks and builds it (KSB_KERNELCHECK_DIR)"
	candidates "$1" "$tree"
}

# ---- the plant ----

# build_plant: kernelcheck's tree as it is (base) and with the plant
# (plant), each image into $ac/img/NAME; the tree is restored after, and
# a tree configured since (make kernelcheck) builds them again
build_plant() {
	local t0=$SECONDS f
	[ -f "$tree/.config" ] || die "$tree is not built: make kernelcheck first"
	# a second run builds nothing: images newer than the patch and the tree's .config
	for f in "$ac/img/base/bzImage" "$ac/img/plant/bzImage" "$ac/cand-base.txt" "$ac/cand-plant.txt" ""; do
		[ -n "$f" ] || { say "reusing $ac/img/base and $ac/img/plant"; return 0; }
		if [ ! "$f" -nt "$plant" ] || [ ! "$f" -nt "$tree/.config" ]; then
			break
		fi
	done
	mkdir -p "$ac/img/base" "$ac/img/plant"
	say "building kernelcheck's tree as it is, then with $(basename "$plant")"
	make -s -C "$tree" -j"$(nproc)" bzImage >"$ac/build-base.log" 2>&1 ||
		die "building the base failed: $(tail -3 "$ac/build-base.log")"
	cp "$tree/arch/x86/boot/bzImage" "$ac/img/base/bzImage"
	patch -s -p1 -d "$tree" <"$plant" || die "$(basename "$plant") does not apply to $tree"
	trap 'patch -s -R -p1 -d "$tree" <"$plant"' EXIT
	if ! make -s -C "$tree" -j"$(nproc)" bzImage >"$ac/build-plant.log" 2>&1; then
		die "building the plant failed: $(tail -3 "$ac/build-plant.log")"
	fi
	cp "$tree/arch/x86/boot/bzImage" "$ac/img/plant/bzImage"
	# the loops the change added: what carries a growth that no probe can time
	"$top/tests/kernel/pcpu-candidates.sh" "$tree/fs/proc" 2>/dev/null >"$ac/cand-plant.txt"
	patch -s -R -p1 -d "$tree" <"$plant"
	trap - EXIT
	"$top/tests/kernel/pcpu-candidates.sh" "$tree/fs/proc" 2>/dev/null >"$ac/cand-base.txt"
	times+=("plant builds $((SECONDS - t0)) s")
}

# ---- the sweeps ----

# sweep NAME IMAGE COUNTS [CANDIDATES]: one bench vm sweep, every boot
# the battery and the candidates of CANDIDATES's entries timed
# (auditboot.sh)
sweep() {
	local name=$1 img=$2 counts=$3 t0=$SECONDS
	local guest=("$samples")
	[ -z "${4:-}" ] || guest+=(/cand.tsv)
	say "auditing $name ($(basename "$img")) over $counts possible CPUs, $boots boots each, counted"
	"$bench" vm -q -B "$boots" -p "$counts" ${vm_args[@]+"${vm_args[@]}"} -o "$ac/out" \
		${4:+--file "$4=cand.tsv"} "$name=$img" \
		-- sh "$top/tests/kernel/auditboot.sh" "${guest[@]}" \
		>"$ac/out/vm-$name.txt" ||
		die "bench vm $name over $counts exited $? (see $ac/out/$name.console)"
	local nb
	nb=$(find "$ac/out/$name-"p*-sh -name audit.csv | wc -l)
	# a file: the sweeps of two kernels go side by side, in subshells
	echo "$name: $nb boots over $counts in $((SECONDS - t0)) s, $(((SECONDS - t0) / (nb ? nb : 1))) s a boot" \
		>>"$ac/out/times"
}

# d61: its candidates from its image (a boot), then its sweep
audit_d61() {
	local img
	img=$(image_61)
	image_candidates d61 "$img"
	sweep d61 "$img" "$counts_61" "$ac/cand-d61-timed.tsv"
}

# d612: its candidates from kernelcheck's tree, then its sweep
audit_d612() {
	tree_candidates d612
	sweep d612 "$(image_612 "$sc/6.12" "$pkg_612")" "$counts_612" "$ac/cand-d612-timed.tsv"
}

# the plant: both trees built, then both swept side by side
audit_plant() {
	build_plant
	together sweep base "$ac/img/base/bzImage" "$counts_plant" -- \
		sweep plant "$ac/img/plant/bzImage" "$counts_plant" || exit
}

# files NAME: the sweep's audit and trace files
files() { find "$ac/out/$1-"p*-sh -name 'audit.csv' -o -name 'trace-*.csv' | sort; }

# report NAME: bench scale's ranked report of kernel NAME, table and csv
report() {
	local name=$1 rc=0
	echo "== $name: bench scale, the battery ranked"
	# shellcheck disable=SC2046 # one word per file
	"$bench" scale --also csv="$ac/out/$name.csv" -o "$ac/out/$name.txt" $(files "$name") || rc=$?
	sed 's/^/  /' "$ac/out/$name.txt" || true
	[ "$rc" = 0 ] || fail "$name: bench scale exited $rc"
	# the controls' check: the same fits under the family-wise rate
	# shellcheck disable=SC2046
	"$bench" scale --multiplicity holm -f csv -o "$ac/out/$name-holm.csv" $(files "$name") ||
		fail "$name: bench scale --multiplicity holm exited $?"
}

# row NAME ENTRY COLUMN: the entry's fit row's COLUMN in $ac/out/NAME.csv,
# by the column's name (docs/formats.md)
row() { csv_col "$ac/out/$1.csv" "$3" kind=fit workload="$2"; }

# check_kernel NAME: the controls flat (Holm), /proc/stat grows, show_stat
# carries it
check_kernel() {
	local name=$1 grown s f hi
	[ -e "$ac/out/$name.csv" ] || { fail "$name: bench scale wrote no report to check"; return; }
	[ -e "$ac/out/$name-holm.csv" ] || { fail "$name: bench scale --multiplicity holm wrote nothing"; return; }
	grown=$(csv_rows "$ac/out/$name-holm.csv" workload verdict p level kind=fit control=yes verdict!=flat |
		awk -F, '{ printf "%s%s %s (p %s, level %s)", n++ ? ", " : "", $1, $2, $3, $4 }')
	if [ -z "$grown" ] && [ -n "$(row "$name" syscall-null verdict)" ]; then
		ok "$name: every control flat under Holm, syscall-null $(row "$name" syscall-null slope) insn/CPU;" \
			"under BH: $(csv_rows "$ac/out/$name.csv" workload verdict kind=fit control=yes | paste -sd' ' | tr , ' ')"
	else
		fail "$name: controls not flat under Holm: ${grown:-no syscall-null}"
	fi
	if [ "$(row "$name" proc-stat verdict)" = grows ]; then
		ok "$name: /proc/stat grows, $(row "$name" proc-stat slope) insn/CPU"
	else
		fail "$name: /proc/stat is $(row "$name" proc-stat verdict) ($(row "$name" proc-stat slope) insn/CPU), expected grows"
	fi
	f=$(row "$name" proc-stat function)
	s=$(row "$name" proc-stat share)
	# at most the read's upper bound over its slope: show_stat is inside
	# the read, and a share above 1 is the two slopes' noise
	hi=$(awk -v h="$(row "$name" proc-stat slope_hi)" -v b="$(row "$name" proc-stat slope)" \
		'BEGIN { printf "%.2f", (b > 0 ? h / b : 0) }')
	if [ "$f" = show_stat ] && awk -v s="$s" -v m="$share" -v h="$hi" 'BEGIN { exit !(s >= m && s <= h) }'; then
		ok "$name: show_stat carries $(awk -v s="$s" 'BEGIN { printf "%.0f%%", 100 * s }') of it (of $(candidates_of "$name" proc-stat) candidates timed)"
	else
		fail "$name: /proc/stat carried by '${f:-nothing}' ${s:+($s)}, expected show_stat within $share..$hi"
	fi
}

# candidates_of NAME ENTRY: how many of ENTRY's candidates each boot of NAME timed
candidates_of() { awk -F'\t' -v e="$2" '$1 == e { print split($3, f, " ") }' "$ac/cand-$1-timed.tsv"; }

# check_plant: the gate on base -- plant names proc-version and its loop
check_plant() {
	local rc=0 line fn
	echo "== plant: bench scale base -- plant"
	# shellcheck disable=SC2046
	"$bench" scale -o "$ac/out/gate.txt" $(files base) -- $(files plant) || rc=$?
	sed 's/^/  /' "$ac/out/gate.txt" || true
	line=$(grep '^regression: ' "$ac/out/gate.txt" || true)
	fn=$(comm -13 "$ac/cand-base.txt" "$ac/cand-plant.txt" | tr '\n' ' ')
	if [ "$rc" = 1 ] && [ "$(grep -c '^regression: ' <<<"$line")" = 1 ] &&
		[[ "$line" == "regression: proc-version read grew "* ]]; then
		ok "plant: the gate exits 1: ${line#regression: }; the change's new loop: ${fn:-none}"
	else
		fail "plant: the gate exited $rc, regressions: ${line:-none}"
	fi
}

main() {
	local k
	if [ ! -x "$bench" ] || [ ! -x "$top/bench-static" ]; then
		die "build bench and bench-static first (make all static)"
	fi
	if [ -n "$refit" ]; then
		[ -d "$ac/out" ] || die "AUDITCHECK_REFIT: no earlier sweep in $ac/out"
		say "AUDITCHECK_REFIT: the files of $ac/out judged again, nothing booted"
	else
		rm -rf "$ac/out"
		mkdir -p "$ac/out"
	fi
	for k in $kernels; do
		case $k in
		d61 | d612 | plant) ;;
		*) die "AUDITCHECK_KERNELS: '$k' is none of d61 d612 plant" ;;
		esac
	done
	if [ -z "$refit" ]; then
		# counted boots side by side: a neighbour cannot move a count
		if [[ " $kernels " == *" d61 "* ]] && [[ " $kernels " == *" d612 "* ]]; then
			together audit_d61 -- audit_d612 || exit
		elif [[ " $kernels " == *" d61 "* ]]; then
			audit_d61
		elif [[ " $kernels " == *" d612 "* ]]; then
			audit_d612
		fi
		[[ " $kernels " != *" plant "* ]] || audit_plant
	fi
	for k in $kernels; do
		case $k in
		plant) check_plant ;;
		*)
			report "$k"
			check_kernel "$k"
			;;
		esac
	done
	[ ! -f "$ac/out/times" ] || mapfile -t -O "${#times[@]}" times <"$ac/out/times"
	echo "boots: ${times[*]}"
	conclude
}

main "$@"
