#!/bin/sh
# shellcheck shell=dash
# plans.sh PLAN FAULT - vmcheck's guest, run by bench vm's /init as
# `bench vm ... -- sh tests/vm/plans.sh PLAN FAULT` (busybox sh, with
# proc, sysfs, devtmpfs, a tmpfs /tmp and debugfs mounted). PLAN is one
# of numa, maxcpus, taskset, many, trace; each output is a file in
# $KSB_OUT, which bench vm brings back as DIR/PLAN-sh/boot1/FILE, and the
# exit code of each command run through out/trace_out a line
# "NAME RC" of $KSB_OUT/PLAN.rc. /bench is bench vm's static bench (what
# users boot), /kmod/kstats_bench.ko the module (--module), /sysloop
# (tests/vm/sysloop.c, --file) makes one system call N times.
plan=$1
fault=${2:-none}
o=${KSB_OUT:?plans.sh runs under bench vm -- sh}
# a deliberate fault for `make vmcheck VMCHECK_FAULT=node0`: every
# per-CPU unit bound to node 0, whatever its CPU's node
[ "$fault" = node0 ] && export KSB_PCPU_FORCE_NODE=0
# and for VMCHECK_FAULT=nomodules: module loading refused, as on a
# hardened host (kernel.modules_disabled), so `bench kernel` exits 3
[ "$fault" = nomodules ] && echo 1 >/proc/sys/kernel/modules_disabled

# out NAME CMD...: run CMD, its stdout and stderr to the file NAME
out() {
	name=$1
	shift
	"$@" >"$o/$name" 2>&1
	echo "$name $?" >>"$o/$plan.rc"
}

# the module by hand: bad parameters, a run, its own table against what
# bench kernel made of it, unloading mid-run, loading again
kmod_checks() {
	d=/sys/kernel/debug/kstats_bench
	if [ -e /sys/module/kstats_bench ]; then echo "after bench kernel: loaded"; else echo "after bench kernel: unloaded"; fi
	insmod /kmod/kstats_bench.ko && echo "insmod: ok"
	for p in samples=0 samples=4294967297 frac_bits=13 cpus=0-4095 cpus= workload=nope bogus=1 samples; do
		if echo "$p" >$d/control 2>/dev/null; then echo "control $p: accepted"; else echo "control $p: rejected"; fi
	done
	# an already loaded module is used and left loaded
	/bench kernel -q -w kernel-irq-alloc -n 256 -o /tmp/irq.csv >/dev/null
	echo "bench kernel with the module loaded: rc=$?"
	cp $d/table /tmp/modtable.txt
	# a long run, then rmmod while it runs: stopped at the next sample
	echo "samples=100000000" >$d/control
	sleep 1
	grep -q '^state running' $d/results && echo "long run: running"
	rmmod kstats_bench && echo "rmmod mid-run: ok"
	if [ -e /sys/module/kstats_bench ]; then echo "after rmmod: loaded"; else echo "after rmmod: unloaded"; fi
	insmod /kmod/kstats_bench.ko && echo "insmod again: ok"
	echo "samples=64" >$d/control
	for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		grep -q '^state running' $d/results || break
		sleep 1
	done
	grep -q '^state done' $d/results && echo "run after reload: done"
	rmmod kstats_bench && echo "rmmod again: ok"
	# what the kernel said since the first bench kernel (not at boot)
	dmesg | tail -n +"$(($(cat /tmp/dmesg0) + 1))" | grep -E 'BUG|WARNING|Oops|leak' | sed 's/^/dmesg: /'
}

# one `bench trace` run: its stdout and stderr, and its exit code
trace_out() {
	name=$1
	shift
	out "$name" /bench trace "$@"
}

# bench trace with COMMAND under signals and a duration: the exit codes
trace_signals() {
	/bench trace -q -o /tmp/sigint.csv __do_sys_getppid >/dev/null 2>&1 &
	pid=$!
	sleep 3
	kill -INT $pid
	wait $pid
	echo "sigint, no command: rc=$?"
	# (SIGTERM: a job started with & ignores SIGINT, and so would sleep)
	/bench trace -q -o /tmp/sigcmd.csv __do_sys_getppid -- sleep 30 >/dev/null 2>&1 &
	pid=$!
	sleep 3
	kill -TERM $pid
	wait $pid
	echo "sigterm, command: rc=$?"
	/bench trace -q -d 1 --label side=vm -o /tmp/duration.csv __do_sys_getppid >/dev/null 2>&1
	echo "duration 1: rc=$?"
	/bench trace -q -d 1 -o /tmp/durcmd.csv __do_sys_getppid -- sleep 30 >/dev/null 2>&1
	echo "duration 1, command: rc=$?"
}

# the empty function bpf_lsm_task_getsid (the BPF LSM's hook stub,
# "return 0"), once per getsid(1): untraced, then by each probe, in rounds
trace_overhead() {
	for r in 1 2 3 4 5; do
		out "overhead-$r-none.txt" /sysloop 124 20000 1
		for p in fentry kprobe; do
			trace_out "overhead-$r-$p.txt" -q -p $p -o /tmp/oh.csv bpf_lsm_task_getsid -- /sysloop 124 20000 1
			out "overhead-$r-$p.csv" cat /tmp/oh.csv
		done
	done
}

echo "plan=$plan cpus=$(cat /sys/devices/system/cpu/online) possible=$(cat /sys/devices/system/cpu/possible)"
case $plan in
numa)
	out calibrate.txt /bench calibrate
	# TCG hides invariant TSC: the TSC itself, trusted on request
	out calibrate-tsc.txt env KSB_FORCE_TSC=1 /bench calibrate
	out kernel.csv /bench run -q -n 512 -f csv
	out remote.csv /bench run -q -n 512 --cache remote -f csv
	# in the kernel itself: 16 possible CPUs
	dmesg | wc -l >/tmp/dmesg0
	out ksd16.csv /bench kernel -q -n 2048 -f csv
	out irq16.csv /bench kernel -q -w kernel-irq-alloc -n 512 -f csv
	out kmod.txt kmod_checks
	out irq.csv cat /tmp/irq.csv
	out modtable.txt cat /tmp/modtable.txt
	;;
many)
	# possible_cpus= on the command line: many more possible than present
	out ksdmany.csv /bench kernel -q -n 2048 -f csv
	out irqmany.csv /bench kernel -q -w kernel-irq-alloc -n 512 -f csv
	# the emulation at the same possible count, on 4 workers: serial
	# hand-offs among 16 TCG vCPUs on a busy host take most of a minute
	out emulmany.csv /bench run -q -n 256 -c 0-3 -f csv
	;;
maxcpus)
	out maxcpus.csv /bench run -q -n 256 -f csv
	;;
trace)
	# __irq_alloc_descs() under the module's kernel-irq-alloc: untraced,
	# then by each probe; -b 8 so that medians resolve 0.4%
	out irqbase.csv /bench kernel -q -b 8 -w kernel-irq-alloc -n 512 -f csv
	for p in fentry kprobe; do
		trace_out irq-$p.txt -b 8 -p $p -o /tmp/irq-$p.csv __irq_alloc_descs -- \
			sh -c "/bench kernel -q -b 8 -w kernel-irq-alloc -n 512 -o /tmp/irqmod-$p.csv >/dev/null"
		out irq-$p.csv cat /tmp/irq-$p.csv
		out irqmod-$p.csv cat /tmp/irqmod-$p.csv
	done
	# the table as the patch's, for the log
	trace_out irqshow.txt -q __irq_alloc_descs -- sh -c "/bench kernel -q -w kernel-irq-alloc -n 512 >/dev/null"
	# the section from its entry to irq_free_descs()'s, on one CPU
	trace_out section.txt -q -o /tmp/section.csv --end irq_free_descs __irq_alloc_descs -- \
		/bench kernel -q -w kernel-irq-alloc -n 256 -o /tmp/sectionmod.csv
	out section.csv cat /tmp/section.csv
	# a syscall's function under a loop of that syscall (getppid), both
	# probes, five runs each for bench compare; the static binary once
	for r in 1 2 3 4 5; do
		for p in fentry kprobe; do
			trace_out getppid-$p-$r.txt -q -p $p -o /tmp/g.csv __do_sys_getppid -- /sysloop 110 5000
			out getppid-$p-$r.csv cat /tmp/g.csv
		done
	done
	# (/bench is the static binary now: the check that bench-static traces stays)
	/bench trace -q -o /tmp/static.csv __do_sys_getppid -- /sysloop 110 1000 >/dev/null 2>&1
	out static.csv cat /tmp/static.csv
	# probe choice: no BTF for the x64 wrapper, so kprobe under auto
	trace_out auto.txt -q -o /tmp/auto.csv __x64_sys_getppid -- /sysloop 110 1000
	out auto.csv cat /tmp/auto.csv
	# refusals: exit 3, one line naming the cause
	mkdir -p /etc
	echo "nobody:x:65534:65534:nobody:/:/bin/sh" >/etc/passwd
	out refuse-user.txt su -s /bin/sh nobody -c "/bench trace -d 1 __do_sys_getppid"
	trace_out refuse-btf.txt -p fentry -d 1 __x64_sys_getppid
	trace_out refuse-inlined.txt -d 1 desc_set_defaults
	trace_out refuse-kprobe.txt -p kprobe -d 1 do_syscall_64
	trace_out refuse-fentry.txt -p fentry -d 1 do_syscall_64
	out refuse-userns.txt unshare -r /bench trace -d 1 __do_sys_getppid
	out signals.txt trace_signals
	for d in sigint sigcmd duration durcmd; do out $d.csv cat /tmp/$d.csv; done
	trace_overhead
	;;
taskset)
	out taskset.csv taskset -c 2,5,11 /bench run -q -n 256 -f csv
	# a CPU taken offline before the run gets no worker
	echo 0 >/sys/devices/system/cpu/cpu5/online
	out offline.csv /bench run -q -n 256 -f csv
	# one taken offline during the run: its worker is migrated, counted
	# (parallel, so that the displaced worker needs nobody's turn)
	/bench run -q -m parallel -n 100000000 -o /tmp/hotplug.csv >/dev/null 2>&1 &
	pid=$!
	sleep 2
	echo 0 >/sys/devices/system/cpu/cpu7/online
	sleep 3
	kill -INT $pid
	wait $pid
	rc=$?
	echo $rc >"$o/hotplug.rc"
	out hotplug.csv cat /tmp/hotplug.csv
	;;
*)
	echo "plans.sh: no plan '$plan'" >&2
	exit 2
	;;
esac
