#!/usr/bin/env bash
# vmcheck.sh - many-core, multi-node checks in a real kernel: boots
# Debian's kernel under qemu TCG five times through `bench vm` (its qemu
# line, its initramfs, its @ksb channel: the guests users boot), each
# boot running one plan of tests/vm/plans.sh as `-- sh` with sysloop
# (--file) and the module (--module) beside bench-static, and checks
# what bench reports in the files bench vm brings back.
#
#   1. 16 vCPUs on 4 NUMA nodes: calibrate, run (kernel and remote cache)
#   2. -smp 8,maxcpus=16: 16 possible CPUs, 8 workers
#   3. taskset -c 2,5,11 on the 16-CPU machine: only those get workers;
#      then CPU 5 offline (no worker), CPU 7 offlined mid-run (migrations)
#   4. in-kernel: the module kmod/kstats_bench.ko (built by make vmcheck
#      for the kernel booted here) under `bench kernel`, in boot 1 (16
#      possible CPUs) and in a fourth boot with possible_cpus=$VMCHECK_POSSIBLE
#      (default 480): every sample recorded, old slower than new, old
#      slower with many possible CPUs than with 16, the module's table
#      equal to bench's, unloading mid-run, loading again; and the
#      in-kernel table printed beside bench run's emulated one.
#
#   5. bench trace (BPF, 4 vCPUs): __irq_alloc_descs() by fentry and by
#      kprobe while the module allocates (every call counted, the traced
#      median within the module's by what the probe adds, the gap around
#      the module's free), a section to irq_free_descs(), getppid() loops
#      by both probes compared with bench compare, the static binary, the
#      auto choice, every refusal by its message, SIGINT and --duration,
#      and the overhead of each probe on an empty function
#
# VMCHECK_PLANS="trace" (any of numa maxcpus taskset many trace; default
# all) boots only those plans.
# VMCHECK_FAULT=node0 binds every per-CPU unit to node 0 inside the VM,
# VMCHECK_FAULT=nomodules sets kernel.modules_disabled there: the checks
# must then fail. VMCHECK_TRACE_FILES=DIR runs the trace checks on the
# files of an earlier trace boot (VMCHECK_KEEP's vm/trace-sh/boot1), no
# boot; VMCHECK_DEBUG=1 prints each boot's console and the plan's stdout
# and stderr; VMCHECK_TIMEOUT=S is bench vm's --timeout (600). Prints one summary line; exit 1 on any mismatch, 3 when
# the VM cannot be built or booted.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
# VMCHECK_KEEP=DIR keeps the logs and files there, whatever the outcome
trap '[ -z "${VMCHECK_KEEP:-}" ] || cp -r "$work" "$VMCHECK_KEEP"; rm -rf "$work"' EXIT

lib_prog=vmcheck
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"

# ---- booting: bench vm ----

# the kernel the VM boots: the newest in /boot
vm_kernel() {
	local kernel
	kernel=$(find /boot -maxdepth 1 -name 'vmlinuz-*' | sort -V | tail -1)
	[ -n "$kernel" ] || die "no kernel in /boot (apt-get install linux-image-amd64)"
	echo "$kernel"
}

# boot PLAN BENCH-VM-OPTIONS...: one bench vm boot (-B 1) running
# `plans.sh PLAN FAULT`; its files, DIR/PLAN-sh/boot1/*, copied to $work.
# 2 GiB as before; "quiet": a TCG serial console is slow. The timed
# clock: these plans need many online vCPUs, which the counted clock
# refuses, and this is the timed path's own check (KVM's users time)
boot() {
	local plan=$1 rc=0
	shift
	"$top/bench" vm -q -B 1 --clock timed -m 2G --timeout "${VMCHECK_TIMEOUT:-600}" --module "$ko" \
		--file "$top/build/vm/sysloop=sysloop" --append "quiet loglevel=0" -o "$work/vm" "$@" \
		"$plan=$(vm_kernel)" -- sh "$top/tests/vm/plans.sh" "$plan" "${VMCHECK_FAULT:-none}" \
		2>"$work/$plan.err" || rc=$?
	[ -z "${VMCHECK_DEBUG:-}" ] || cat "$work/vm/$plan.console" "$work/vm/$plan-sh/boot1.stdout" \
		"$work/vm/$plan-sh/boot1.stderr" 2>/dev/null
	[ "$rc" = 0 ] || die "bench vm failed ($plan, exit $rc): $(tail -3 "$work/$plan.err")" \
		"(console: $(tr -d '\r' <"$work/vm/$plan.console" 2>/dev/null | tail -5))"
	cp "$work/vm/$plan-sh/boot1/"* "$work/"
}

# ---- checks (tests/lib.sh's check: an ok or FAIL line each) ----

# every CPU in LIST has per-CPU rows of both variants, on node cpu / 4
rows_on_nodes() {
	csv_rows "$1" variant run cpu node |
		awk -F, -v list="$2" 'BEGIN { n = split(list, c, " "); for (i = 1; i <= n; i++) want[c[i]] = 1 }
		$1 ~ /^(old|new)$/ && $2 == "all" && $3 != "all" {
			seen[$1 "," $3] = 1; if ($4 != int($3 / 4)) bad = 1; if (!($3 in want)) bad = 1 }
		END { for (x in want) if (!seen["old," x] || !seen["new," x]) bad = 1; exit bad }'
}

# the move_pages() verdict in the metadata; what it said when not ok
units_on_nodes() {
	grep -qx "# pcpu_nodes: ok: all $2 units on their CPU's node (move_pages)" "$1" && return
	echo "      pcpu_nodes: $(csv_meta "$1" pcpu_nodes)"
	return 1
}

old_slower() {
	awk '/^SUMMARY / { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		exit !(v["old_mean"] > v["new_mean"]) }' "$1"
}

run_checks() {
	local csv=$1 cpus=$2 used=$3 possible=$4
	check "$(basename "$csv"): $used workers, one per CPU, none migrated" \
		test "$(csv_meta "$csv" used_cpus)" = "$used" -a "$(csv_meta "$csv" migrations)" = 0
	check "$(basename "$csv"): per-CPU rows for CPUs $cpus, each on its node" rows_on_nodes "$csv" "$cpus"
	check "$(basename "$csv"): all $possible per-CPU units on their CPU's node" \
		units_on_nodes "$csv" "$possible"
	check "$(basename "$csv"): $possible possible CPUs, the clear writes $possible units" \
		test "$(csv_meta "$csv" possible_cpus)" = "$possible"
	check "$(basename "$csv"): old slower than new" old_slower "$csv"
}

# ---- in-kernel checks ----

# median of the merged variant V of a CSV (format 2: run and cpu "all"):
# the AVG of the slot that holds it (medians, as a few TCG vCPUs
# descheduled by the host for milliseconds would swing a mean). Readers
# of csv_rows read to its end: an awk that exits early kills csv_rows
# with SIGPIPE, which pipefail makes the script's exit (141).
median_of() {
	csv_rows "$1" variant run cpu percentile avg_ns |
		awk -F, -v v="$2" '!got && $1 == v && $2 == "all" && $3 == "all" && $4 >= 0.5 { print $5; got = 1 }'
}

# is A > B (both numbers)?
greater() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 > b + 0 && b != "") }'; }

# every CPU of 0..15 has rows of both variants V1 and V2
rows_per_cpu() {
	csv_rows "$1" variant cpu |
		awk -F, -v a="$2" -v b="$3" '$1 == a || $1 == b { if ($2 != "all") seen[$1 "," $2] = 1 }
		END { for (c = 0; c < 16; c++) if (!seen[a "," c] || !seen[b "," c]) bad = 1; exit bad }'
}

# kernel_checks CSV V1 V2 N POSSIBLE: what a `bench kernel` CSV must hold
kernel_checks() {
	local csv=$1 v1=$2 v2=$3 n=$4 possible=$5 b
	b=$(basename "$csv")
	check "$b: source kernel, $possible possible CPUs as the kernel counts them" \
		test "$(csv_meta "$csv" source)" = kernel -a "$(csv_meta "$csv" possible_cpus)" = "$possible"
	# bench kernel's one line when it refused (exit 3)
	[ "$(csv_meta "$csv" source)" = kernel ] || echo "      bench kernel said: $(head -1 "$csv")"
	check "$b: every sample recorded, $n of each variant" test "$(csv_meta "$csv" samples_taken)" = "$n/$n"
	check "$b: per-CPU rows of $v1 and $v2 on all 16 CPUs" rows_per_cpu "$csv" "$v1" "$v2"
}

# the table of variant V of a CSV as captured (stderr lines before the
# magic line dropped), tabs expanded, under a title
vm_table() {
	echo "$3"
	sed -n '/^# kstats-bench-csv/,$p' "$1" >"$1.clean"
	"$top/bench" show -v "$2" "$1.clean" 2>/dev/null | expand || echo "(none: see the checks)"
}

# the in-kernel tables beside the emulated ones, for the same VM
side_by_side() {
	local title=$1 kcsv=$2 ecsv=$3 v
	echo "  $title"
	for v in old new; do
		vm_table "$kcsv" "$v" "in-kernel $v ($(csv_meta "$kcsv" clock) on $(csv_meta "$kcsv" clocksource), $(csv_meta "$kcsv" used_cpus) CPUs)" >"$work/left"
		vm_table "$ecsv" "$v" "emulated $v (bench run, $(csv_meta "$ecsv" used_cpus) CPUs)" >"$work/right"
		awk 'NR == FNR { l[FNR] = $0; n = FNR; next } { r[FNR] = $0; m = FNR }
			END { for (i = 1; i <= (n > m ? n : m); i++) printf "    %-46s |  %s\n", l[i], r[i] }' \
			"$work/left" "$work/right"
	done
}

kmod_line() { grep -qx "$2" "$1"; }

# ---- bench trace checks ----

# What a probe adds to one call of __irq_alloc_descs() under the module
# at most, in ns, cold (the module's reference loop flushes the TLB
# before each pair, so the trampoline, the program and its maps miss
# qemu's software TLB): docs/measurements.md ("bench trace: the probe's overhead") states these,
# about twice the 7-12 us (fentry) and 11-14 us (kprobe) measured; the traced
# median must lie below the module's own by no more than this.
TRACE_ADDS_FENTRY=20000
TRACE_ADDS_KPROBE=25000

# the exit code of file NAME, from the plan's "NAME RC" lines (PLAN.rc)
rc_of() { awk -v f="$2" '$1 == f { print $2 }' "$1"; }

# the upper bound of the bucket that holds the median of series VARIANT
# (merged over CPUs) in CSV: hi_ns - 1 of the first row at 0.5
p50_of() {
	csv_rows "$1" variant run cpu percentile hi_ns |
		awk -F, -v v="$2" '!got && $1 == v && $2 == "all" && $3 == "all" && $4 >= 0.5 { print $5 - 1; got = 1 }'
}

# the samples of series VARIANT in CSV, merged over CPUs
count_of() {
	csv_rows "$1" variant run cpu samples |
		awk -F, -v v="$2" '$1 == v && $2 == "all" && $3 == "all" { n += $4 } END { print n + 0 }'
}

# is A <= B <= A + D (all numbers)?
within() { awk -v a="$1" -v b="$2" -v d="$3" 'BEGIN { exit !(a != "" && b != "" && a + 0 <= b + 0 && b + 0 <= a + d) }'; }

# the rows of the patch table in FILE (bench trace's stdout), table N (1 or 2)
table_rows() {
	awk -v n="$2" '/^BUCKET/ { t++ } t == n && /^ *[0-9]+ +[0-9]/' "$1"
}

# table N of FILE is bench show -v VARIANT of CSV, and has rows
same_table() {
	local rows
	rows=$(table_rows "$1" "$2")
	[ -n "$rows" ] && diff <(echo "$rows") <("$top/bench" show -v "$3" "$4" | grep -E '^ *[0-9]+ +[0-9]')
}

# file F of the trace boot: exit 0, source trace, the probe P
trace_ran() {
	local f=$1 probe=$2
	test "$(rc_of "$work/trace.rc" "${f%.csv}.txt")" = 0 -a "$(csv_meta "$work/$f" source)" = trace -a \
		"$(csv_meta "$work/$f" probe)" = "$probe"
}

# __irq_alloc_descs() traced by probe P while the module ran its alloc loop
trace_irq_checks() {
	local p=$1 limit=$2 probe t m mod n cpus gap slack
	probe=$([ "$p" = fentry ] && echo fentry/fexit || echo kprobe/kretprobe)
	t=$work/irq-$p.csv
	mod=$work/irqmod-$p.csv
	n=$(count_of "$t" time)
	cpus=$(csv_meta "$t" used_cpus)
	check "trace irq ($p): exit 0, probe $probe, function __irq_alloc_descs" \
		trace_ran "irq-$p.csv" "$probe"
	check "trace irq ($p): every call counted, as many as the module's allocations ($n = $(count_of "$mod" alloc) = 512)" \
		test "$n" = 512 -a "$(count_of "$mod" alloc)" = 512
	check "trace irq ($p): a gap before every call but each CPU's first ($(count_of "$t" gap) = 512 - $cpus)" \
		test "$(count_of "$t" gap)" = $((512 - cpus)) -a "$cpus" = 4
	m=$(p50_of "$mod" alloc)
	# the medians are bucket bounds (frac_bits 2: a bucket spans up to a
	# quarter of its power of two, 27 us at 140 us), so one bucket's width
	# comes on top of what the probe adds: two calls 1 us apart can sit a
	# bucket apart (136703 and 163839 at CI's load)
	slack=$(awk -v t="$(p50_of "$t" time)" -v l="$limit" 'BEGIN { printf "%d", l + t / 4 }')
	check "trace irq ($p): traced median at or below the module's, by at most what $p adds and a bucket ($(p50_of "$t" time) <= $m <= $(p50_of "$t" time) + $slack ns)" \
		within "$(p50_of "$t" time)" "$m" "$slack"
	gap=$(p50_of "$t" gap)
	check "trace irq ($p): the gap holds the module's irq_free_descs() (gap median $gap >= free median $(p50_of "$mod" free) ns)" \
		within "$(p50_of "$mod" free)" "$gap" 1e18
	check "trace irq ($p): bench show of its CSV prints the two tables it printed" \
		same_table "$work/irq-$p.txt" 1 time "$t" && same_table "$work/irq-$p.txt" 2 gap "$t"
	echo "      __irq_alloc_descs medians (ns): untraced module $(p50_of "$work/irqbase.csv" alloc), module under $p $m, traced $(p50_of "$t" time)"
}

# the syscall loops: every call, both probes, five runs each, compared
trace_loop_checks() {
	local p probe r ok rc
	for p in fentry kprobe; do
		probe=$([ "$p" = fentry ] && echo fentry/fexit || echo kprobe/kretprobe)
		ok=0
		for r in 1 2 3 4 5; do
			trace_ran "getppid-$p-$r.csv" "$probe" &&
				test "$(count_of "$work/getppid-$p-$r.csv" time)" = 5000 && ok=$((ok + 1))
		done
		check "trace getppid ($p): 5 runs of 5000 getppid(), every __do_sys_getppid() call counted" test "$ok" = 5
	done
	rc=0
	"$top/bench" compare "$work"/getppid-fentry-?.csv -- "$work"/getppid-kprobe-?.csv \
		>"$work/compare.txt" 2>&1 || rc=$?
	check "trace getppid: bench compare of fentry's runs against kprobe's finds kprobe's window slower (exit 1)" \
		test "$rc" = 1
	grep -E '^(__do_sys_getppid|SUMMARY|workload)' "$work/compare.txt" | head -4 | sed 's/^/      /'
	check "trace: bench-static traces too (1000 of 1000 calls)" \
		test "$(count_of "$work/static.csv" time)" = 1000
	check "trace auto: no BTF for __x64_sys_getppid, so kprobe, saying why; 1000 of 1000 calls" \
		test "$(csv_meta "$work/auto.csv" probe)" = kprobe/kretprobe -a \
		"$(csv_meta "$work/auto.csv" probe_why)" = "no BTF for __x64_sys_getppid: the kernel's BTF does not describe it" -a \
		"$(count_of "$work/auto.csv" time)" = 1000
	check "trace section: --end irq_free_descs, 256 of 256 sections, by fentry" \
		test "$(count_of "$work/section.csv" time)" = 256 -a "$(csv_meta "$work/section.csv" end)" = irq_free_descs -a \
		"$(csv_meta "$work/section.csv" probe)" = fentry/fexit
}

# refusal NAME MESSAGE: exit 3 and that one line
refused() {
	local f=$work/$1
	test "$(rc_of "$work/trace.rc" "$1")" = 3 -a "$(wc -l <"$f")" = 1 -a "$(cat "$f")" = "bench trace: $2"
}

# what | the file | the one line after "bench trace: "
trace_refusals='
not root|refuse-user.txt|needs root to load BPF programs (running as uid 65534)
no BTF for fentry|refuse-btf.txt|no BTF for __x64_sys_getppid: the kernel'"'"'s BTF does not describe it
a function inlined away|refuse-inlined.txt|no function desc_set_defaults in this kernel: not in /proc/kallsyms (inlined, or in a module not loaded)
kprobe on the kprobe blacklist|refuse-kprobe.txt|do_syscall_64 cannot be probed: it is in the kprobe blacklist (NOKPROBE_SYMBOL, noinstr or entry code)
fentry where ftrace cannot patch (noinstr)|refuse-fentry.txt|do_syscall_64 cannot be traced by fentry: ftrace does not list it (notrace, or noinstr)
the kernel refuses BPF (root of a user namespace)|refuse-userns.txt|the kernel refuses BPF: loading a kprobe program: Operation not permitted: root of a user namespace (uid_map 0 0 1), and BPF needs CAP_BPF and CAP_PERFMON in the initial one
'

trace_refusal_checks() {
	local what file msg
	while IFS='|' read -r what file msg; do
		[ -n "$what" ] || continue
		check "trace refuses (3): $what" refused "$file" "$msg"
	done <<<"$trace_refusals"
}

trace_signal_checks() {
	local s=$work/signals.txt
	check "trace: SIGINT ends a trace without COMMAND or --duration: exit 0, not partial" \
		test "$(grep -c '^sigint, no command: rc=0$' "$s")" = 1 -a "$(csv_meta "$work/sigint.csv" partial)" = no
	check "trace: SIGTERM before COMMAND exits: exit 143, partial, passed on to COMMAND" \
		test "$(grep -c '^sigterm, command: rc=143$' "$s")" = 1 -a "$(csv_meta "$work/sigcmd.csv" partial)" = yes -a \
		"$(csv_meta "$work/sigcmd.csv" traced_command_status)" = "signal 15"
	check "trace: --duration 1: exit 0, 1 s recorded" \
		test "$(grep -c '^duration 1: rc=0$' "$s")" = 1 -a "$(csv_meta "$work/duration.csv" duration_s | cut -d. -f1)" = 1
	check "trace: --label and the testbed in its metadata (label_side vm, virtualization, bench_git)" \
		test "$(csv_meta "$work/duration.csv" label_side)" = vm -a \
		-n "$(csv_meta "$work/duration.csv" virtualization)" -a -n "$(csv_meta "$work/duration.csv" bench_git)"
	check "trace: --duration 1 before COMMAND exits: exit 0, COMMAND sent SIGTERM" \
		test "$(grep -c '^duration 1, command: rc=0$' "$s")" = 1 -a \
		"$(csv_meta "$work/durcmd.csv" traced_command_status)" = "signal 15"
}

# the median of numbers on stdin
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# the median time of one call, from a sysloop line
call_ns() { sed -n 's/.*ns_per_call \([0-9]*\).*/\1/p' "$1"; }

# the overhead rounds: each call counted; the figures, medians of rounds
trace_overhead() {
	local r p ok=0 none fen kpr wf wk rounds="1 2 3 4 5"
	for r in $rounds; do
		for p in fentry kprobe; do
			test "$(count_of "$work/overhead-$r-$p.csv" time)" = 20000 && ok=$((ok + 1))
		done
	done
	check "trace overhead: 5 rounds of 20000 getsid(1) by each probe, every bpf_lsm_task_getsid() call counted" \
		test "$ok" = 10
	none=$(for r in $rounds; do call_ns "$work/overhead-$r-none.txt"; done | median)
	fen=$(for r in $rounds; do call_ns "$work/overhead-$r-fentry.txt"; done | median)
	kpr=$(for r in $rounds; do call_ns "$work/overhead-$r-kprobe.txt"; done | median)
	wf=$(for r in $rounds; do median_of "$work/overhead-$r-fentry.csv" time; done | median)
	wk=$(for r in $rounds; do median_of "$work/overhead-$r-kprobe.csv" time; done | median)
	echo "vmcheck: bench trace overhead, the empty bpf_lsm_task_getsid() under getsid(1), medians of 5 rounds (ns, TCG):"
	echo "      untraced getsid(1) $none; by fentry $fen (adds $((fen - none)), inside the window $wf); by kprobe $kpr (adds $((kpr - none)), inside the window $wk)"
	echo "      per round (untraced fentry kprobe | window fentry kprobe):"
	for r in $rounds; do
		echo "      $r: $(call_ns "$work/overhead-$r-none.txt") $(call_ns "$work/overhead-$r-fentry.txt") $(call_ns "$work/overhead-$r-kprobe.txt") | $(median_of "$work/overhead-$r-fentry.csv" time) $(median_of "$work/overhead-$r-kprobe.csv" time)"
	done
}

plan_trace() {
	echo "vmcheck: booting 4 vCPUs for bench trace (fentry, kprobe)... (${SECONDS}s)"
	if [ -n "${VMCHECK_TRACE_FILES:-}" ]; then
		cp "$VMCHECK_TRACE_FILES"/* "$work/"	# the checks again, no boot
	else
		boot trace -c 4
	fi
	trace_irq_checks fentry "$TRACE_ADDS_FENTRY"
	trace_irq_checks kprobe "$TRACE_ADDS_KPROBE"
	trace_loop_checks
	trace_refusal_checks
	trace_signal_checks
	trace_overhead
	echo "vmcheck: __irq_alloc_descs traced by fentry while bench kernel -w kernel-irq-alloc ran (-b 2):"
	sed -n '/^# __irq_alloc_descs/,$p' "$work/irqshow.txt" | expand | sed 's/^/    /'
}

# ---- the plans: one boot each, then its checks ----

plan_numa() {
	local all16
	all16=$(seq -s ' ' 0 15)
	echo "vmcheck: booting 16 vCPUs on 4 nodes (TCG)... (${SECONDS}s)"
	boot numa -c 16 --nodes 4
	check "calibrate: clock_gettime fallback, overhead on 16 CPUs" \
		test "$(grep -cE '^[0-9]+ +[0-3] ' "$work/calibrate.txt")" -eq 16
	check "calibrate (KSB_FORCE_TSC): tsc_hz calibrated, cycles on 16 CPUs" \
		test "$(grep -cE '^[0-9]+ +[0-3] ' "$work/calibrate-tsc.txt")" -eq 16 -a \
		"$(sed -n 's/^tsc_hz_source: //p' "$work/calibrate-tsc.txt")" = calibrated
	check "kernel.csv: 4 nodes" test "$(csv_meta "$work/kernel.csv" nodes)" = 4
	run_checks "$work/kernel.csv" "$all16" 16 16
	run_checks "$work/remote.csv" "$all16" 16 16
	kernel_checks "$work/ksd16.csv" old new 2048 16
	kernel_checks "$work/irq16.csv" alloc free 512 16
	check "in-kernel, 16 possible: old slower than new (median $(median_of "$work/ksd16.csv" old) > $(median_of "$work/ksd16.csv" new) ns)" \
		greater "$(median_of "$work/ksd16.csv" old)" "$(median_of "$work/ksd16.csv" new)"
	kmod_checks
}

# the module by hand (tests/vm/plans.sh's kmod_checks), in the numa boot
kmod_checks() {
	local d
	check "kmod: bench kernel unloads the module it loaded" kmod_line "$work/kmod.txt" "after bench kernel: unloaded"
	check "kmod: insmod loads it" kmod_line "$work/kmod.txt" "insmod: ok"
	for d in samples=0 samples=4294967297 frac_bits=13 cpus=0-4095 cpus= workload=nope bogus=1 samples; do
		check "kmod: control '$d' rejected (-EINVAL)" kmod_line "$work/kmod.txt" "control $d: rejected"
	done
	check "kmod: bench kernel uses a module already loaded, and leaves it" \
		kmod_line "$work/kmod.txt" "bench kernel with the module loaded: rc=0"
	check "kmod: the module's own table equals bench show of bench kernel's CSV" \
		diff <(sed -n '/ alloc: /,/ free: /p' "$work/modtable.txt" | grep -E '^ +[0-9]') \
		<("$top/bench" show -v alloc "$work/irq.csv" | grep -E '^ +[0-9]')
	check "kmod: rmmod in the middle of a run stops it and unloads" \
		test "$(grep -cxE 'long run: running|rmmod mid-run: ok|after rmmod: unloaded' "$work/kmod.txt")" = 3
	check "kmod: loads again and runs after that" \
		test "$(grep -cxE 'insmod again: ok|run after reload: done|rmmod again: ok' "$work/kmod.txt")" = 3
	check "kmod: no BUG, WARNING or Oops in dmesg" test -z "$(grep '^dmesg: ' "$work/kmod.txt")"
}

plan_maxcpus() {
	echo "vmcheck: booting 8 of 16 possible vCPUs... (${SECONDS}s)"
	boot maxcpus -c 8 -p 16 --nodes 4
	check "maxcpus.csv: 8 online" test "$(csv_meta "$work/maxcpus.csv" online_cpus)" = 8
	run_checks "$work/maxcpus.csv" "$(seq -s ' ' 0 7)" 8 16
}

plan_taskset() {
	echo "vmcheck: booting 16 vCPUs, taskset -c 2,5,11... (${SECONDS}s)"
	boot taskset -c 16 --nodes 4
	check "taskset.csv: 3 allowed" test "$(csv_meta "$work/taskset.csv" allowed_cpus)" = 3
	run_checks "$work/taskset.csv" "2 5 11" 3 16
	check "offline.csv: CPU 5 offline, 15 online" test "$(csv_meta "$work/offline.csv" online_cpus)" = 15
	run_checks "$work/offline.csv" "0 1 2 3 4 6 7 8 9 10 11 12 13 14 15" 15 16
	check "hotplug: CPU 7 offlined mid-run, SIGINT: exit 130, partial" \
		test "$(cat "$work/hotplug.rc")" = 130 -a "$(csv_meta "$work/hotplug.csv" partial)" = yes
	check "hotplug: the displaced worker's samples counted as migrations" \
		test "$(csv_meta "$work/hotplug.csv" migrations)" -gt 0
}

# -p above 255: bench vm's firmware declares 252 (4 nodes of 63) and asks
# possible_cpus= for the rest; it checks that the guest counted them
plan_many() {
	local omany
	echo "vmcheck: booting 16 vCPUs with $possible possible (in-kernel)... (${SECONDS}s)"
	boot many -c 16 -p "$possible" --nodes 4
	kernel_checks "$work/ksdmany.csv" old new 2048 "$possible"
	kernel_checks "$work/irqmany.csv" alloc free 512 "$possible"
	check "emulmany.csv: bench run sees the same $possible possible CPUs" \
		test "$(csv_meta "$work/emulmany.csv" possible_cpus)" = "$possible"
	omany=$(median_of "$work/ksdmany.csv" old)
	check "in-kernel, $possible possible: old slower than new (median $omany > $(median_of "$work/ksdmany.csv" new) ns)" \
		greater "$omany" "$(median_of "$work/ksdmany.csv" new)"
}

# numa's and many's in-kernel runs side by side: 16 against $possible
plan_numa_many() {
	local o16 omany
	o16=$(median_of "$work/ksd16.csv" old)
	omany=$(median_of "$work/ksdmany.csv" old)
	check "in-kernel: old slower with $possible possible CPUs than with 16 (median $omany > $o16 ns)" \
		greater "$omany" "$o16"
	echo "vmcheck: kernel-set-defaults in-kernel beside emulated, same VM (TCG models no caches)"
	side_by_side "16 possible CPUs" "$work/ksd16.csv" "$work/kernel.csv"
	side_by_side "$possible possible CPUs" "$work/ksdmany.csv" "$work/emulmany.csv"
}

# is plan NAME in VMCHECK_PLANS (default: all of them)?
want() { [[ " $plans " == *" $1 "* ]]; }

main() {
	local release p
	plans=${VMCHECK_PLANS:-numa maxcpus taskset many trace}
	possible=${VMCHECK_POSSIBLE:-480}
	for p in $plans; do
		[[ " numa maxcpus taskset many trace " == *" $p "* ]] ||
			die "VMCHECK_PLANS: '$p' is not one of numa, maxcpus, taskset, many, trace"
	done
	command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing"
	[ -x "$top/bench" ] || die "build bench first"
	[ -x "$top/bench-static" ] || die "build bench-static first (make static)"
	[ -x "$top/build/vm/sysloop" ] || die "build build/vm/sysloop first (make vmcheck does)"
	release=$(basename "$(vm_kernel)")
	release=${release#vmlinuz-}
	ko=$top/kmod/kstats_bench.ko
	[ -f "$ko" ] || die "no $ko: make kmod-vm builds it for $release (bench kernel --build)"
	for p in numa maxcpus taskset many; do
		if want $p; then plan_$p; fi
	done
	if want numa && want many; then plan_numa_many; fi
	if want trace; then plan_trace; fi
	echo "vmcheck: $(wc -w <<<"$plans") boots and the checks took ${SECONDS}s"
	if [ ${#fails[@]} -eq 0 ]; then
		if [ -z "${VMCHECK_PLANS:-}" ]; then
			echo "VMCHECK passed: $checks checks; 16 CPUs on 4 nodes (calibrate, kernel, remote), 8 online of 16 possible, taskset 3 of 16 CPUs, 15 of 16 online, hotplug; in-kernel (kstats_bench on $release): both workloads, every sample, old slower than new, old slower at $possible possible CPUs than at 16, unload mid-run and reload; bench trace by fentry and kprobe: every call counted, within the module's times, sections, refusals"
		else
			echo "VMCHECK passed: $checks checks; plans: $plans (on $release)"
		fi
	else
		echo "VMCHECK FAILED: ${#fails[@]} of $checks checks; plans: $plans (on $release)"
		exit 1
	fi
}

main "$@"
