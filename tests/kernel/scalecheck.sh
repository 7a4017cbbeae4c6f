#!/usr/bin/env bash
# scalecheck.sh - distribution kernels as subjects: what grows with
# possible CPUs in Debian 12's own 6.1 and 6.12, on a 2-core runner.
#
#   6.1   linux-image-amd64's image, from /boot (as make vmcheck boots it),
#         swept over SCALECHECK_61 (64,255,480) possible CPUs: 6.1 adds
#         the CPUs above the firmware's 255 from possible_cpus=
#   6.12  SCALECHECK_612_PKG (linux-image-6.12.117+deb12-amd64-unsigned),
#         fetched with apt-get download and unpacked with dpkg-deb under
#         build/scalecheck, never installed (vmcheck boots the newest
#         /boot/vmlinuz), swept over SCALECHECK_612 (16,128,255): plain
#         6.12 stops at the firmware's 255, so the sweep starts low to
#         span what it can (the slope's interval narrows with the span)
#
# Each kernel is swept twice, SCALECHECK_BOOTS (2) boots per count,
# interleaved by bench vm, on the counted clock (a figure is the guest's
# instructions, exact, whatever else the runner does), the two kernels'
# sweeps side by side, one a core:
#
#   run -w file-read      open, read to EOF, close of /proc/stat, and in
#   trace show_stat       the same boots show_stat() by fentry while
#                         /bench run -w file-read reads /proc/stat: the
#                         kernel's side of the same read
#   sh scaleguest.sh      then getppid(), the flat control (bench run -w
#                         syscall-null), and in 6.1 the module
#                         (kmod/kstats_bench.ko, which make scalecheck
#                         builds for it): its kernel-irq-alloc, untraced,
#                         then with __irq_alloc_descs() traced by fentry
#                         (tests/kernel/scaleguest.sh)
#
# one boot serving every series: a counted boot costs 15-35 s, the work
# in it a second or two;
# and bench scale fits each over the counts (Theil-Sen, tm10 per boot).
# Checks, per kernel: the /proc/stat read grows; the null syscall is
# flat (bench scale's --flat for counted files, 1 instruction per
# possible CPU, against the read's ~370); show_stat's time grows, with a
# slope of at least
# SCALECHECK_SHARE (0.5) of the read's and at most the read's upper
# bound plus the rest of the read's: show_stat is inside the read, and
# its loops are what the read pays per possible CPU. In 6.1, the traced
# __irq_alloc_descs() follows the module's own figures of the same calls:
# the two lines diverge over the counts by at most what the probe adds
# to a call (SCALECHECK_IRQ_ADDS_NS, 20000 instructions); their slopes and the
# untraced one are printed, not checked (check_irq). Ends with one line,
# SCALECHECK passed|FAILED: ...; exit 0 passed, 1 failed, 3 when a
# kernel cannot be had or booted.
#
# KSB_SCALECHECK_DIR (default build/scalecheck) holds the unpacked image
# and the results; a second run downloads nothing. SCALECHECK_KERNELS
# ("d61 d612") picks the kernels.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
sc=${KSB_SCALECHECK_DIR:-$top/build/scalecheck}
boots=${SCALECHECK_BOOTS:-2}
counts_61=${SCALECHECK_61:-64,255,480}
counts_612=${SCALECHECK_612:-16,128,255}
pkg_612=${SCALECHECK_612_PKG:-linux-image-6.12.117+deb12-amd64-unsigned}
share=${SCALECHECK_SHARE:-0.5}
reads=${SCALECHECK_READS:-256}
irqs=${SCALECHECK_IRQS:-512}
irq_adds=${SCALECHECK_IRQ_ADDS_NS:-20000}
kernels=${SCALECHECK_KERNELS:-d61 d612}
bench=$top/bench
times=()

lib_prog=scalecheck
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"

# ---- the kernels ----

# ---- the sweeps ----

# sweep NAME IMAGE COUNTS [MODULE]: bench vm once over COUNTS, into
# $sc/out: the read and its trace (NAME-run-pN.csv, NAME-trace-pN.csv),
# then scaleguest.sh (NAME-pN-sh/bootB/: null.csv, and with MODULE the
# irq files) in the same boots
sweep() {
	local name=$1 img=$2 counts=$3 ko=${4:-} t0=$SECONDS
	say "sweeping $name ($(basename "$img")) over $counts possible CPUs, $boots boots each, counted${ko:+, with the module}"
	"$bench" vm -q -B "$boots" -p "$counts" ${ko:+--module "$ko"} -o "$sc/out" "$name=$img" \
		-- run -w file-read -n "$reads" \
		-- trace show_stat -- /bench run -w file-read -n "$reads" -q \
		-- sh "$top/tests/kernel/scaleguest.sh" 1024 ${ko:+"$irqs"} \
		>"$sc/out/vm-$name.txt" ||
		die "bench vm $name over $counts exited $? (see $sc/out/$name.console)"
	# a file: the kernels' sweeps go side by side, in subshells
	echo "$name: $counts x $boots boots $((SECONDS - t0)) s" >>"$sc/out/times"
}

sweep_d61() {
	local ko=$top/kmod/kstats_bench.ko
	[ -f "$ko" ] || die "no $ko: make scalecheck builds it for $(basename "$(image_61)")"
	sweep d61 "$(image_61)" "$counts_61" "$ko"
}

sweep_d612() { sweep d612 "$(image_612 "$sc/6.12" "$pkg_612")" "$counts_612"; }

# files NAME WORKLOAD: kernel NAME's files of WORKLOAD (file-read or
# show_stat for the trace), one per count, picked by their workload
# metadata line; nulls NAME: its null syscall's, one per boot
files() { grep -lx "# workload: $2" "$sc/out/$1"-*.csv 2>/dev/null; }
nulls() { ls "$sc/out/$1"-p*-sh/boot*/null.csv; }

# fit LABEL FILE...: bench scale -f csv of the files into $sc/out/LABEL.csv,
# its table on stdout
fit() {
	local label=$1 rc=0
	shift
	"$bench" scale -s tm10 --also csv="$sc/out/$label.csv" "$@" \
		>"$sc/out/$label.txt" || rc=$?
	sed 's/^/  /' "$sc/out/$label.txt"
	[ "$rc" = 0 ] || fail "$label: bench scale exited $rc"
}

# field LABEL VARIANT COLUMN: COLUMN (slope, slope_lo, slope_hi, verdict)
# of VARIANT's first fit row in $sc/out/LABEL.csv (nothing when bench
# scale wrote none)
field() { [ ! -e "$sc/out/$1.csv" ] || csv_col "$sc/out/$1.csv" "$3" kind=fit variant="$2"; }

# slope_of LABEL VARIANT: "812.4 [790.1, 830.0] ns/CPU grows"
slope_of() {
	[ -e "$sc/out/$1.csv" ] || return 0
	csv_rows "$sc/out/$1.csv" slope slope_lo slope_hi verdict kind=fit variant="$2" |
		awk -F, 'NR == 1 { printf "%.2f [%.2f, %.2f] insn/CPU %s", $1, $2, $3, $4 }'
}

# verdict_is LABEL VARIANT WANT WHAT: the fit's verdict is WANT
verdict_is() {
	local what
	what="$4: $(slope_of "$1" "$2")"
	if [ "$(field "$1" "$2" verdict)" = "$3" ]; then
		ok "$what"
	else
		fail "$what, expected $3"
	fi
}

# like_read NAME: show_stat's slope within [share x read's, read's hi +
# (1 - share) x read's]: most of what the read pays per possible CPU is
# show_stat's loops, and show_stat is inside the read
like_read() {
	local name=$1 t r rhi
	t=$(field "$name-trace" time slope)
	r=$(field "$name-read" read slope)
	rhi=$(field "$name-read" read slope_hi)
	if awk -v t="$t" -v r="$r" -v hi="$rhi" -v s="$share" \
		'BEGIN { exit !(r > 0 && t >= s * r && t <= hi + (1 - s) * r) }'; then
		ok "$name: show_stat grows like the read: $t of $r insn/CPU"
	else
		fail "$name: show_stat's slope $t insn/CPU is not within $share..1 (+margin) of the read's $r"
	fi
}

# like_module NAME: the traced line follows the module's. The probe adds
# a fixed time to each call, whatever the possible CPUs: the module's
# own figure of a traced call holds the probe's whole addition, the
# traced figure only its window. So over the swept counts the two lines
# may differ by the addition and no more: |b_module - b_traced| times
# the span (MIN..MAX possible CPUs) within SCALECHECK_IRQ_ADDS_NS, 20000,
# what vmcheck states fentry adds to this cold call (TRACE_ADDS_FENTRY);
# the 95% interval of the slope difference (MOVER) is printed with it
like_module() {
	local name=$1 t m line
	if [ ! -e "$sc/out/$name-irqtrace.csv" ] || [ ! -e "$sc/out/$name-irqmod.csv" ]; then
		fail "$name: no fit of __irq_alloc_descs to compare"
		return
	fi
	t=$(csv_rows "$sc/out/$name-irqtrace.csv" slope slope_lo slope_hi intercept x_min x_max \
		kind=fit variant=time | sed -n '1s/,/ /gp')
	m=$(csv_rows "$sc/out/$name-irqmod.csv" slope slope_lo slope_hi intercept \
		kind=fit variant=alloc | sed -n '1s/,/ /gp')
	line=$(awk -v t="$t" -v m="$m" -v adds="$irq_adds" 'BEGIN {
		split(t, T, " "); split(m, M, " ")
		d = M[1] - T[1]
		lo = d - sqrt((M[1] - M[2]) ^ 2 + (T[3] - T[1]) ^ 2)
		hi = d + sqrt((M[3] - M[1]) ^ 2 + (T[1] - T[2]) ^ 2)
		span = T[6] - T[5]
		ok = T[6] > T[5] && (d < 0 ? -d : d) * span <= adds
		printf "%d module %.2f, traced %.2f insn/CPU: difference %+.2f [%+.2f, %+.2f] insn/CPU, %+.0f insn over %d..%d (limit %d); intercepts %.0f and %.0f insn (the module %+.0f)",
			ok, M[1], T[1], d, lo, hi, d * span, T[5], T[6], adds, M[4], T[4], M[4] - T[4] }')
	if [ "${line%% *}" = 1 ]; then
		ok "$name: __irq_alloc_descs by fentry follows the module's alloc: ${line#* }"
	else
		fail "$name: __irq_alloc_descs by fentry strays from the module's alloc by more than the probe adds: ${line#* }"
	fi
}

# slope_info LABEL VARIANT WHAT: the fit, printed and summed up, no check
slope_info() {
	local what
	what="$3: $(slope_of "$1" "$2")"
	summary+=("$what")
	info "$what"
}

# check_irq NAME: the module's fits, untraced and traced, the probe's,
# and their agreement. Only the agreement is checked: on 6.1 a whole
# boot's level moves by up to 40% between boots at one count (255: 148
# and 245 us), so 9 boots put each slope's interval across zero in some
# runs (untraced 310 [-82, 770] in one, 912 [434, 1079] in another),
# while the same calls, timed by the module and by the probe, share
# their boot's level and their difference stays within a few us. That
# this path grows is make kernelcheck's and make vmcheck's to show.
check_irq() {
	local name=$1 d=$sc/out
	echo "== $name: the module's kernel-irq-alloc, and __irq_alloc_descs traced by fentry under it"
	fit "$name-irqbase" "$d/$name"-p*-sh/boot*/untraced.csv
	fit "$name-irqmod" "$d/$name"-p*-sh/boot*/module.csv
	fit "$name-irqtrace" "$d/$name"-p*-sh/boot*/traced.csv
	slope_info "$name-irqbase" alloc "$name: the module's irq_alloc_descs(), untraced"
	slope_info "$name-irqmod" alloc "$name: the module's irq_alloc_descs(), traced"
	slope_info "$name-irqtrace" time "$name: __irq_alloc_descs by fentry"
	like_module "$name"
}

# check_kernel NAME: the three fits of kernel NAME and their checks
check_kernel() {
	local name=$1
	echo "== $name: bench scale, each boot's tm10 against its possible CPUs"
	# shellcheck disable=SC2046 # one word per file
	fit "$name-read" $(files "$name" file-read)
	# shellcheck disable=SC2046
	fit "$name-null" $(nulls "$name")
	# shellcheck disable=SC2046
	fit "$name-trace" $(files "$name" show_stat)
	verdict_is "$name-read" read grows "$name: /proc/stat read"
	verdict_is "$name-null" syscall flat "$name: null syscall"
	verdict_is "$name-trace" time grows "$name: show_stat traced"
	like_read "$name"
}

main() {
	local k
	if [ ! -x "$bench" ] || [ ! -x "$top/bench-static" ]; then
		die "build bench and bench-static first (make all static)"
	fi
	rm -rf "$sc/out"
	mkdir -p "$sc/out"
	for k in $kernels; do
		case $k in
		d61 | d612) ;;
		*) die "SCALECHECK_KERNELS: '$k' is neither d61 nor d612" ;;
		esac
	done
	# counted boots side by side: a neighbour cannot move a count
	if [[ " $kernels " == *" d61 "* ]] && [[ " $kernels " == *" d612 "* ]]; then
		together sweep_d61 -- sweep_d612 || exit
	elif [[ " $kernels " == *" d61 "* ]]; then
		sweep_d61
	else
		sweep_d612
	fi
	for k in $kernels; do
		check_kernel "$k"
		[ "$k" = d61 ] && check_irq d61
	done
	[ ! -f "$sc/out/times" ] || mapfile -t times <"$sc/out/times"
	echo "boots: ${times[*]}"
	conclude
}

main "$@"
