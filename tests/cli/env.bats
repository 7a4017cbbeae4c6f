#!/usr/bin/env bats
# needs: -
# Environment faults: restricted affinity, cgroup cpusets, no NUMA, no
# TSC, address-space and thread limits, no root. Each one either works
# with what it gets and says so, or exits 3 with a clear message.

load common

setup() {
	common_setup
}

teardown() {
	[ -z "${CG:-}" ] || rmdir "$CG" 2>/dev/null || true
	[ -z "${PUB:-}" ] || rm -rf "$PUB"
}

@test "taskset -c 0: one worker, on CPU 0" {
	run --separate-stderr taskset -c 0 ./bench run -q -n 32 -f csv
	[ "$status" -eq 0 ]
	grep -qx '# allowed_cpus: 1' <<<"$output"
	grep -qx '# used_cpus: 1' <<<"$output"
	# per-CPU rows of CPU 0 alone
	[ "$(csv_rows <(echo "$output") cpu variant=old run=all cpu!=all | sort -u)" = 0 ]
}

@test "taskset -c 0 with --cpus outside it: exit 2 naming the allowed CPUs" {
	[ "$(nproc --all)" -ge 2 ] || skip "needs two CPUs"
	run --separate-stderr taskset -c 0 ./bench run --cpus 1
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"CPU 1 is not one this process may use (allowed: 0)"* ]]
}

@test "a cgroup cpuset restricts the workers like taskset" {
	[ "$(nproc --all)" -ge 2 ] || skip "needs two CPUs"
	CG=/sys/fs/cgroup/cpuset/ksb-test-$$
	mkdir "$CG" 2>/dev/null || skip "no writable cgroup v1 cpuset here"
	echo 1 >"$CG/cpuset.cpus"
	cat /sys/fs/cgroup/cpuset/cpuset.mems >"$CG/cpuset.mems"
	run --separate-stderr bash -c "echo \$\$ >'$CG/tasks' && exec ./bench run -q -n 32 -f csv"
	[ "$status" -eq 0 ]
	grep -qx '# used_cpus: 1' <<<"$output"
	[ "$(csv_rows <(echo "$output") cpu variant=old run=all cpu!=all | sort -u)" = 1 ]
}

@test "no NUMA (KSB_NO_NUMA=1): one node, and the metadata says so" {
	run --separate-stderr env KSB_NO_NUMA=1 ./bench run -q -n 16 -f csv
	[ "$status" -eq 0 ]
	grep -qx '# nodes: 1' <<<"$output"
	grep -qx '# numa: unavailable: every CPU on node 0' <<<"$output"
}

@test "no usable TSC (KSB_NO_TSC=1): clock_gettime, with a warning" {
	run --separate-stderr env KSB_NO_TSC=1 ./bench run -n 16 -f csv
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"warning: KSB_NO_TSC=1 in the environment; timing with clock_gettime"* ]]
	grep -qx '# clock: clock_gettime(CLOCK_MONOTONIC_RAW)' <<<"$output"
	grep -qx '# unit: ns' <<<"$output"
	run env KSB_NO_TSC=1 ./bench calibrate
	[ "$status" -eq 0 ]
	[[ "$output" == *"clock: clock_gettime (no usable TSC)"* ]]
}

@test "ulimit -v with --possible-cpus 8192: exit 3, the address space named" {
	run --separate-stderr bash -c 'ulimit -v 1000000 && exec ./bench run -p 8192 -n 16'
	[ "$status" -eq 3 ]
	[[ "$stderr" == *"reserving 8192 per-CPU units of 262144 bytes (2048 MiB of address space; ulimit -v?)"* ]]
}

@test "without root: it runs, and says it could not lock memory" {
	command -v setpriv || skip "no setpriv"
	public_bench
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups \
		bash -c "ulimit -l 64 && exec '$PUB/bench' run -q -n 16 -f csv"
	[ "$status" -eq 0 ]
	grep -q '^# mlock: no (RLIMIT_MEMLOCK 64 KiB' <<<"$output"
}

@test "thread creation refused (ulimit -u): exit 3 with the reason" {
	command -v setpriv || skip "no setpriv"
	[ "$(nproc)" -ge 2 ] || skip "needs two workers"
	public_bench
	# RLIMIT_NPROC is not enforced for root: run as nobody, 1 process
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups \
		bash -c "ulimit -u 1 && exec '$PUB/bench' run -n 16"
	[ "$status" -eq 3 ]
	[[ "$stderr" == *"starting 2 worker threads: Resource temporarily unavailable"* ]]
}

# the progress lines of KSB_PROGRESS=1 say when the workers sample; a
# run that does not stop is killed by timeout (137), a bound on a hang
@test "SIGINT mid-run: exit 130 at the next sample, a partial CSV that parses, no stray files" {
	KSB_PROGRESS=1 timeout --foreground -s KILL 300 ./bench run -p 2048 --pcpu-layout vmalloc --cache cold \
		-n 100000000 -o "$T/p.csv" 2>"$T/err" &
	pid=$!
	wait_for ': [1-9][0-9]*/200000000 samples' "$T/err"
	kill -INT "$pid"
	rc=0
	wait "$pid" || rc=$?
	echo "rc $rc"
	[ "$rc" -eq 130 ]
	[ "$(csv_meta "$T/p.csv" partial)" = yes ]
	taken=$(csv_meta "$T/p.csv" samples_taken)
	[ "${taken%%/*}" -gt 0 ]
	run ./bench show -v old "$T/p.csv"
	[ "$status" -eq 0 ]
	[[ "${lines[-1]}" == *" 1.000000" ]]
	# five copies: one file given twice would count twice (refused)
	local i
	for i in 1 2 3 4 5; do cp "$T/p.csv" "$T/p$i.csv"; done
	./bench compare "$T"/p[1-5].csv -- "$T"/p[1-5].csv >/dev/null
	[ -z "$(find "$T" -name '.kstats-bench.*')" ]
}

@test "SIGTERM mid-run: exit 143, partial" {
	KSB_PROGRESS=1 timeout --foreground -s KILL 300 ./bench run -p 1024 --cache cold -n 100000000 \
		-o "$T/t.csv" 2>"$T/err" &
	pid=$!
	wait_for ': [1-9][0-9]*/200000000 samples' "$T/err"
	kill -TERM "$pid"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq 143 ]
	[ "$(csv_meta "$T/t.csv" partial)" = yes ]
}

@test "a second SIGINT leaves at once, the old output file intact, no temp file" {
	echo "previous" >"$T/keep.csv"
	# a stop that takes long: every sample flushes 8192 lines; the two
	# signals once the run waits on its workers (its first progress line)
	KSB_PROGRESS=1 timeout --foreground -s KILL 300 ./bench run -p 8192 --cache cold -n 100000000 \
		-o "$T/keep.csv" 2>"$T/err" &
	pid=$!
	wait_for ': [0-9]+/200000000 samples' "$T/err"
	kill -INT "$pid"
	kill -INT "$pid" 2>/dev/null || true
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq 130 ]
	# either the partial result replaced it whole, or it is untouched
	head -1 "$T/keep.csv" | grep -qx -e previous -e '# kstats-bench-csv 3'
	[ -z "$(find "$T" -name '.kstats-bench.*')" ]
}

@test "a closed stdout (bench run | head) is not a crash" {
	run bash -c 'set -o pipefail; ./bench run -q -n 4096 -f csv | head -1'
	[ "$status" -eq 0 ]
	[ "$output" = "# kstats-bench-csv 3" ]
	run bash -c 'set -o pipefail; ./bench hist tests/fixtures/patch_samples.txt -f bars | head -1'
	[ "$status" -eq 0 ]
}
