#!/usr/bin/env bats
# needs: -
# bench doctor on the fixture hosts of tests/fixtures/hosts/ (a tuned
# bare-metal host, a noisy cloud guest, an acpi-cpufreq host under Xen)
# through KSB_TESTBED_ROOT, on this machine, and in ./run.sh.

load common

setup() {
	common_setup
	H=tests/fixtures/hosts
}

# doctor HOST ARGS...: bench doctor as on the fixture host HOST
doctor() {
	local host=$1
	shift
	KSB_TESTBED_ROOT=$H/$host run --separate-stderr ./bench doctor "$@"
	echo "status $status"
	echo "$output"
	echo "stderr: $stderr"
}

# the perf_event_paranoid line's end: root is never limited
paranoid() {
	if [ "$(id -u)" -eq 0 ]; then echo "$1 (root: not limited)"; else echo "$2"; fi
}

@test "doctor: a tuned host passes every check, one line each, and the DOCTOR line" {
	doctor tuned -c 2-3
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$output" = "ok   governor            performance by intel_pstate
ok   turbo               off (intel_pstate/no_turbo: 1)
ok   smt                 off
ok   isolcpus            worker CPUs 2-3, isolated: 2-3
ok   nohz_full           worker CPUs 2-3, nohz_full: 2-3
ok   irqbalance          not running
ok   thp                 madvise: the embedded per-CPU layout asks for 2 MiB pages (madvise)
ok   hugetlb             64 of 64 2 MiB pages free: the embedded layout maps them when they suffice
ok   numa_balancing      0
ok   hypervisor          none: bare metal
ok   perf_event_paranoid $(paranoid 1 1)
DOCTOR checks=11 ok=11 warn=0" ]
	# -q: nothing to say
	doctor tuned -q -c 2-3
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "doctor: the tuned host's workers outside isolcpus and nohz_full are warned about" {
	doctor tuned --cpus 0-3
	[ "$status" -eq 0 ]
	[ "${lines[3]}" = "warn isolcpus            worker CPUs 0-3, isolated: 2-3: the scheduler puts other tasks on them; fix: boot with isolcpus=1-3 nohz_full=1-3 rcu_nocbs=1-3, then bench run --cpus 1-3" ]
	[ "${lines[4]}" = "warn nohz_full           worker CPUs 0-3, nohz_full: 2-3: the tick interrupts them; fix: boot with nohz_full=1-3 rcu_nocbs=1-3" ]
	[ "${lines[11]}" = "DOCTOR checks=11 ok=9 warn=2" ]
	# CPU 0 alone is suggested as it is: there is nothing else
	doctor tuned -c 0
	[[ "${lines[3]}" == *"fix: boot with isolcpus=0 nohz_full=0 rcu_nocbs=0, then bench run --cpus 0" ]]
}

@test "doctor: a noisy guest warns on ten checks, each with the command that fixes it" {
	doctor noisy -c 2-3
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "${#lines[@]}" -eq 12 ]
	[ "${lines[0]}" = "warn governor            powersave x3, performance x1 by intel_pstate; fix: echo performance | sudo tee /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor" ]
	[ "${lines[1]}" = "warn turbo               on (intel_pstate/no_turbo: 0): the clock follows temperature and load; fix: echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo" ]
	[ "${lines[2]}" = "warn smt                 on: siblings share the core's caches and ports; fix: echo off | sudo tee /sys/devices/system/cpu/smt/control" ]
	[ "${lines[3]}" = "warn isolcpus            worker CPUs 2-3, isolated: none: the scheduler puts other tasks on them; fix: boot with isolcpus=2-3 nohz_full=2-3 rcu_nocbs=2-3, then bench run --cpus 2-3" ]
	[ "${lines[4]}" = "warn nohz_full           worker CPUs 2-3, nohz_full: none: the tick interrupts them; fix: boot with nohz_full=2-3 rcu_nocbs=2-3" ]
	[ "${lines[5]}" = "warn irqbalance          running: it moves interrupts onto the workers; fix: sudo systemctl stop irqbalance" ]
	[ "${lines[6]}" = "warn thp                 never: the embedded per-CPU layout gets 4 KiB pages; fix: echo madvise | sudo tee /sys/kernel/mm/transparent_hugepage/enabled" ]
	[ "${lines[7]}" = "warn hugetlb             no 2 MiB pages reserved: the embedded layout depends on THP granting them at fault time; fix: echo 64 | sudo tee /proc/sys/vm/nr_hugepages (enough for --possible-cpus 480)" ]
	[ "${lines[8]}" = "warn numa_balancing      1: pages and tasks migrate between nodes during a run; fix: echo 0 | sudo tee /proc/sys/kernel/numa_balancing" ]
	[ "${lines[9]}" = "warn hypervisor          a hypervisor (QEMU Standard PC (Q35 + ICH9, 2009)): steal time, vCPU placement and the host's load move timings; fix: run on bare metal, or pin each vCPU to its own host core (virsh vcpupin) and isolate those on the host" ]
	if [ "$(id -u)" -eq 0 ]; then
		[ "${lines[10]}" = "ok   perf_event_paranoid 3 (root: not limited)" ]
		[ "${lines[11]}" = "DOCTOR checks=11 ok=1 warn=10" ]
	else
		[ "${lines[10]}" = "warn perf_event_paranoid 3: perf record of a bench run as this user sees no kernel code; fix: echo 1 | sudo tee /proc/sys/kernel/perf_event_paranoid" ]
		[ "${lines[11]}" = "DOCTOR checks=11 ok=0 warn=11" ]
	fi
	# -q: the same warnings, nothing else
	KSB_TESTBED_ROOT=$H/noisy ./bench doctor -c 2-3 >"$T/all"
	KSB_TESTBED_ROOT=$H/noisy ./bench doctor -q -c 2-3 >"$T/q"
	grep '^warn ' "$T/all" | cmp - "$T/q"
}

@test "doctor: boost by cpufreq, Xen, and what a host does not expose" {
	doctor amd-xen -c 1
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "warn turbo               on (cpufreq/boost: 1): the clock follows temperature and load; fix: echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost" ]
	[ "${lines[2]}" = "ok   smt                 unknown (no smt/control)" ]
	[ "${lines[4]}" = "warn nohz_full           not built in: the tick interrupts the workers; fix: a kernel with CONFIG_NO_HZ_FULL=y, booted with nohz_full=1" ]
	[ "${lines[6]}" = "warn thp                 not built in: the embedded per-CPU layout gets 4 KiB pages; fix: a kernel with CONFIG_TRANSPARENT_HUGEPAGE=y, or 2 MiB pages reserved (see hugetlb)" ]
	[[ "${lines[9]}" == "warn hypervisor          xen: "* ]]
	[ "${lines[10]}" = "ok   perf_event_paranoid unknown (no perf events)" ]
	# an empty tree: every check ok or unknown, nothing read from this host
	mkdir "$T/empty"
	KSB_TESTBED_ROOT=$T/empty run ./bench doctor -c 1
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "ok   governor            unknown" ]
	[ "${lines[9]}" = "ok   hypervisor          none: bare metal" ]
}

@test "doctor changes nothing in the tree it reads" {
	cp -r "$H/noisy" "$T/host"
	before=$(cd "$T/host" && find . -type f -exec sha256sum {} + | LC_ALL=C sort; find . | wc -l)
	KSB_TESTBED_ROOT=$T/host ./bench doctor >/dev/null
	after=$(cd "$T/host" && find . -type f -exec sha256sum {} + | LC_ALL=C sort; find . | wc -l)
	[ "$before" = "$after" ]
}

@test "doctor on this machine: eleven checks, each ok or warn, exit 0" {
	run --separate-stderr ./bench doctor
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "${#lines[@]}" -eq 12 ]
	for i in $(seq 0 10); do
		[[ "${lines[$i]}" =~ ^(ok\ \ \ [a-z_]+\ +[^\;]+|warn\ [a-z_]+\ +.+\;\ fix:\ .+)$ ]]
	done
	n=$(grep -c '^warn ' <<<"$output" || true)
	[ "${lines[11]}" = "DOCTOR checks=11 ok=$((11 - n)) warn=$n" ]
	# the worker CPUs default to the allowed ones
	./bench doctor >"$T/default"
	./bench doctor -c "$(awk '/^Cpus_allowed_list:/ { print $2 }' /proc/self/status)" >"$T/allowed"
	cmp "$T/default" "$T/allowed"
}

@test "doctor: bad usage exits 2 with one line" {
	bad "--cpus: 'x' is not a CPU list" doctor -c x
	bad "--cpus: '3-1' is not a CPU list" doctor --cpus 3-1
	bad "unexpected argument 'extra'" doctor extra
	bad "unknown option '--fix'" doctor --fix
	KSB_TESTBED_ROOT=$T/none run --separate-stderr ./bench doctor
	[ "$status" -eq 2 ]
	[ "$stderr" = "bench doctor: KSB_TESTBED_ROOT: $T/none: not a directory" ]
	run ./bench doctor --help
	[ "$status" -eq 0 ]
	[[ "$output" == "Usage: bench doctor [OPTIONS] [-- RUN-OPTIONS...]"* ]]
	[[ "$output" == *"DOCTOR checks=N ok=N warn=N"* ]]
}

@test "doctor -- RUN-OPTIONS: the workers of that bench run, its options read by bench run's own parser" {
	KSB_TESTBED_ROOT=$H/noisy ./bench doctor -c 1 >"$T/c1"
	grep -q '^warn isolcpus            worker CPUs 1, ' "$T/c1"
	# a short option bundled, a long one with =, among others of the run's
	for o in "-qc1 -n 64" "--cpus=1 -C cold" "--cpu 1" "-w syscall-null -c 1 --runs 6" "-c 1 -o $T/never.csv"; do
		# shellcheck disable=SC2086 # the run's words
		KSB_TESTBED_ROOT=$H/noisy run ./bench doctor -- $o
		[ "$status" -eq 0 ]
		[ "$output" = "$(cat "$T/c1")" ] || { echo "-- $o: not the workers of -c 1"; false; }
	done
	[ ! -e "$T/never.csv" ]
	# none given: the allowed CPUs, as without RUN-OPTIONS
	[ "$(./bench doctor -- -n 64)" = "$(./bench doctor)" ]
	bad "RUN-OPTIONS: --possible-cpus: '0' is not an integer in 1..8192" doctor -- --possible-cpus 0
	bad "RUN-OPTIONS: unknown option '--frob'" doctor -q -- --frob
	bad "-c and RUN-OPTIONS: give the run's --cpus among its options" doctor -c 1 -- -n 4
}

@test "run.sh: an option bench run refuses is said once, by bench run, exit 2" {
	KSB_RESULTS=$T/r KSB_NO_DEPS=1 run --separate-stderr ./run.sh -q --cpus 1 --possible-cpus 0
	[ "$status" -eq 2 ]
	[ "$stderr" = "bench run: --possible-cpus: '0' is not an integer in 1..8192 (see 'bench run --help')" ]
	[ -z "$(find "$T/r" -mindepth 1 2>/dev/null)" ]
}

@test "run.sh prints doctor's warnings for its worker CPUs before it measures" {
	KSB_TESTBED_ROOT=$H/noisy KSB_RESULTS=$T/r KSB_NO_DEPS=1 \
		run ./run.sh -q -n 16 --cpus 1
	[ "$status" -eq 0 ]
	first_warn=$(grep -n '^run.sh: doctor: warn ' <<<"$output" | head -1 | cut -d: -f1)
	first_table=$(grep -n '^== old: ' <<<"$output" | cut -d: -f1)
	[ -n "$first_warn" ] && [ "$first_warn" -lt "$first_table" ]
	[[ "$output" == *"run.sh: doctor: warn governor            powersave x3, performance x1 by intel_pstate; fix: "* ]]
	[[ "$output" == *"run.sh: doctor: warn isolcpus            worker CPUs 1, isolated: none"* ]]
	[[ "$output" != *"DOCTOR checks"* ]]
	# the tuned host isolates CPUs 2-3: CPU 1 (--cpus=1) is warned about, nothing else
	KSB_TESTBED_ROOT=$H/tuned KSB_RESULTS=$T/r2 KSB_NO_DEPS=1 \
		run --separate-stderr ./run.sh -q -n 16 --cpus=1
	[ "$status" -eq 0 ]
	[ "$(grep -c '^run.sh: doctor: ' <<<"$stderr")" -eq 2 ]
	[[ "${stderr_lines[0]}" == "run.sh: doctor: warn isolcpus            worker CPUs 1, isolated: 2-3:"* ]]
	[[ "${stderr_lines[1]}" == "run.sh: doctor: warn nohz_full           worker CPUs 1, nohz_full: 2-3:"* ]]
}
