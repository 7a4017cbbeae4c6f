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
# AUDITCHECK_BOOTS (3) boots per count, one bench vm sweep per kernel
# (AUDITCHECK_VM_ARGS: more of bench vm's options):
# every boot runs the whole battery (tests/kernel/auditboot.sh: bench
# audit -n AUDITCHECK_SAMPLES, 32), in an order rotated from boot to
# boot, then attributes proc-stat in the same boot: the candidates are
# the functions of the 6.12 tree that loop over possible CPUs
# (tests/kernel/pcpu-candidates.sh counts them all), those of the
# directory that implements /proc/stat (fs/proc: show_softirqs,
# show_stat, uptime_proc_show) timed by fentry under the read. Checks, per
# Debian kernel, from bench scale's
# ranked report (Benjamini-Hochberg at q 0.05 over the battery):
#
#   - no control grows (syscall-null, proc-version, statfs, file-nr:
#     the null syscall among them) after the correction
#   - /proc/stat's read grows, and the function that carries it is
#     show_stat, with a share of at least AUDITCHECK_SHARE (0.5) of the
#     read's slope and at most 1.25: show_stat is inside the read (this
#     is also the probe's agreement with the entry's own timing that
#     scalecheck's __irq_alloc_descs check stood for)
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
boots=${AUDITCHECK_BOOTS:-3}
counts_61=${AUDITCHECK_61:-64,255,480}
counts_612=${AUDITCHECK_612:-16,128,255}
counts_plant=${AUDITCHECK_PLANT:-64,128,255}
pkg_612=${AUDITCHECK_612_PKG:-linux-image-6.12.117+deb12-amd64-unsigned}
samples=${AUDITCHECK_SAMPLES:-32}
share=${AUDITCHECK_SHARE:-0.5}
kernels=${AUDITCHECK_KERNELS:-d61 d612 plant}
# more bench vm options, e.g. --reboot-disturbed 0 on a loaded host
read -r -a vm_args <<<"${AUDITCHECK_VM_ARGS:-}"
plant=$top/tests/kernel/audit-patches/test-only-plant-proc-version-percpu.patch
bench=$top/bench
fails=()
summary=()
times=()
t_start=$SECONDS

lib_prog=auditcheck
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
fail() {
	echo "FAIL: $*"
	fails+=("$*")
}
ok() {
	echo "ok: $*"
	summary+=("$*")
}

# ---- the candidates ----

# candidates: the 6.12 tree's functions that loop over possible CPUs
# (all, counted), and those of the directory whose file registers
# /proc/stat (fs/proc): the candidates auditboot.sh times under the read
candidates() {
	local f
	[ -d "$tree" ] || die "no kernel tree at $tree: make kernelcheck unpacks and builds it (KSB_KERNELCHECK_DIR)"
	"$top/tests/kernel/pcpu-candidates.sh" "$tree" >"$ac/candidates.txt" 2>"$ac/candidates.log"
	say "$(cat "$ac/candidates.log")"
	f=$(grep -l 'proc_create.*"stat"' "$tree"/fs/proc/*.c) || die "no file of $tree/fs/proc registers /proc/stat"
	"$top/tests/kernel/pcpu-candidates.sh" "$(dirname "$f")" >"$ac/cand-proc-stat.txt" 2>/dev/null
	say "proc-stat's candidates, the loops of $(dirname "${f#"$tree"/}"): $(tr '\n' ' ' <"$ac/cand-proc-stat.txt")"
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

# sweep NAME IMAGE COUNTS [ENTRY LINE FUNC...]: one bench vm sweep, every
# boot the battery and ENTRY's candidates timed (auditboot.sh)
sweep() {
	local name=$1 img=$2 counts=$3 t0=$SECONDS
	shift 3
	say "auditing $name ($(basename "$img")) over $counts possible CPUs, $boots boots each"
	"$bench" vm -q -B "$boots" -p "$counts" -c 2 ${vm_args[@]+"${vm_args[@]}"} -o "$ac/out" "$name=$img" \
		-- sh "$top/tests/kernel/auditboot.sh" "$samples" "$@" \
		>"$ac/out/vm-$name.txt" ||
		die "bench vm $name over $counts exited $? (see $ac/out/$name.console)"
	local nb
	nb=$(find "$ac/out/$name-"p*-sh -name audit.csv | wc -l)
	times+=("$name: $nb boots over $counts in $((SECONDS - t0)) s, $(((SECONDS - t0) / (nb ? nb : 1))) s a boot")
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
}

# row NAME ENTRY COLUMN: the entry's fit row's COLUMN (10 slope, 16
# verdict, 20 function, 21 share, 6 control) in $ac/out/NAME.csv
row() { awk -F, -v e="$2" -v c="$3" '$2 == "fit" && $4 == e { print $c; exit }' "$ac/out/$1.csv"; }

# check NAME: the controls flat, /proc/stat grows, show_stat carries it
check() {
	local name=$1 grown s f
	grown=$(awk -F, '$2 == "fit" && $6 == "yes" && $16 != "flat" { printf "%s%s %s", n++ ? ", " : "", $4, $16 }' "$ac/out/$name.csv")
	if [ -z "$grown" ] && [ -n "$(row "$name" syscall-null 16)" ]; then
		ok "$name: every control flat, syscall-null $(row "$name" syscall-null 10) ns/CPU"
	else
		fail "$name: controls not flat: ${grown:-no syscall-null}"
	fi
	if [ "$(row "$name" proc-stat 16)" = grows ]; then
		ok "$name: /proc/stat grows, $(row "$name" proc-stat 10) ns/CPU"
	else
		fail "$name: /proc/stat is $(row "$name" proc-stat 16) ($(row "$name" proc-stat 10) ns/CPU), expected grows"
	fi
	f=$(row "$name" proc-stat 20)
	s=$(row "$name" proc-stat 21)
	if [ "$f" = show_stat ] && awk -v s="$s" -v m="$share" 'BEGIN { exit !(s >= m && s <= 1.25) }'; then
		ok "$name: show_stat carries $(awk -v s="$s" 'BEGIN { printf "%.0f%%", 100 * s }') of it (of $(wc -l <"$ac/cand-proc-stat.txt") candidates timed, of $(wc -l <"$ac/candidates.txt") in the tree)"
	else
		fail "$name: /proc/stat carried by '${f:-nothing}' ${s:+($s)}, expected show_stat within $share..1.25"
	fi
}

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
	rm -rf "$ac/out"
	mkdir -p "$ac/out"
	candidates
	for k in $kernels; do
		case $k in
		d61)
			# shellcheck disable=SC2046 # one word per function
			sweep d61 "$(image_61)" "$counts_61" proc-stat "file-read --path /proc/stat" \
				$(cat "$ac/cand-proc-stat.txt")
			;;
		d612)
			# shellcheck disable=SC2046
			sweep d612 "$(image_612 "$sc/6.12" "$pkg_612")" "$counts_612" proc-stat \
				"file-read --path /proc/stat" $(cat "$ac/cand-proc-stat.txt")
			;;
		plant)
			build_plant
			sweep base "$ac/img/base/bzImage" "$counts_plant"
			sweep plant "$ac/img/plant/bzImage" "$counts_plant"
			;;
		*) die "AUDITCHECK_KERNELS: '$k' is none of d61 d612 plant" ;;
		esac
	done
	for k in $kernels; do
		case $k in
		plant) check_plant ;;
		*)
			report "$k"
			check "$k"
			;;
		esac
	done
	echo "boots: ${times[*]}"
	local IFS=';'
	if [ ${#fails[@]} = 0 ]; then
		echo "AUDITCHECK passed: ${summary[*]}; $((SECONDS - t_start)) s"
		exit 0
	fi
	echo "AUDITCHECK FAILED: ${fails[*]}; $((SECONDS - t_start)) s"
	exit 1
}

main "$@"
