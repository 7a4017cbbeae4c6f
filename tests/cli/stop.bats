#!/usr/bin/env bats
# needs: python3
# A sample that could block cannot stall a run (bench-run(1), "Limits"):
# --path refuses FIFOs, sockets and files that would block before anything
# is created, and SIGINT ends a run of every workload with what it
# measured kept and no temp file left. The timeouts bound a hang; they
# are not measurements. Part of the bad-input battery.

load common

setup() {
	common_setup
}

teardown() {
	[ -z "${PUB:-}" ] || rm -rf "$PUB"
}

@test "file-read --path FIFO: refused at once, no temp file, no output" {
	mkfifo "$T/fifo"
	run --separate-stderr timeout -s KILL 20 ./bench run -w file-read --path "$T/fifo" -o "$T/o.csv"
	echo "status $status stderr: $stderr"
	[ "$status" -eq 2 ]
	[ "$stderr" = "bench run: --path: $T/fifo: not a regular file (a sample must reach EOF) (see 'bench run --help')" ]
	[ ! -e "$T/o.csv" ]
	[ -z "$(find "$T" -name '.kstats-bench.*')" ]
}
@test "file-read --path socket: refused like /dev/zero" {
	python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$T/sock"
	bad "--path: $T/sock: not a regular file (a sample must reach EOF)" run -w file-read --path "$T/sock"
	bad "--path: /dev/zero: not a regular file" run -w file-read --path /dev/zero
}
@test "file-read --path /proc/kmsg: a read would block, refused" {
	[ -r /proc/kmsg ] && dd if=/proc/kmsg iflag=nonblock count=0 2>/dev/null || skip "/proc/kmsg is not readable here"
	run --separate-stderr timeout -s KILL 20 ./bench run -w file-read --path /proc/kmsg
	echo "status $status stderr: $stderr"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--path: /proc/kmsg: a read would block"* ]]
}

# stop_run WORKLOAD ARGS...: start a long run, SIGINT after its first
# progress line: 130, a CSV of what it measured (partial: yes), no temp
stop_run() {
	local pid rc=0
	local probe=0
	./bench run -w "$1" -n 2 >/dev/null 2>"$T/probe" || probe=$?
	[ "$probe" -ne 3 ] || skip "$1 does not run here: $(cat "$T/probe")"
	# job control: a background job without it starts with SIGINT ignored
	set -m
	KSB_PROGRESS=1 ./bench run -w "$@" -n 100000000 -o "$T/o.csv" >"$T/out" 2>"$T/err" &
	pid=$!
	set +m
	if ! wait_for '^bench run: [1-9][0-9]*/' "$T/err"; then
		kill -KILL "$pid"
		wait "$pid" || true
		cat "$T/err"
		return 1
	fi
	kill -INT "$pid"
	# bounded: a run that ignores SIGINT is killed after 30 s, and fails
	timeout 30 tail --pid="$pid" -f /dev/null || kill -KILL "$pid"
	wait "$pid" || rc=$?
	cat "$T/err"
	[ "$rc" -eq 130 ]
	[ "$(csv_meta "$T/o.csv" partial)" = yes ]
	[ -z "$(find "$T" -name '.kstats-bench.*')" ]
}

@test "SIGINT ends irqdesc-alloc, what it measured kept" { stop_run irqdesc-alloc; }
@test "SIGINT ends irqdesc-free" { stop_run irqdesc-free; }
@test "SIGINT ends irqdesc-sparse" { stop_run irqdesc-sparse; }
@test "SIGINT ends empty" { stop_run empty; }
@test "SIGINT ends syscall-null" { stop_run syscall-null; }
@test "SIGINT ends file-read" { stop_run file-read; }
@test "SIGINT ends fork-exit" { stop_run fork-exit; }
@test "SIGINT ends cgroup-mkdir" { stop_run cgroup-mkdir; }
@test "SIGINT ends bpf-pcpu-lookup" { stop_run bpf-pcpu-lookup; }
@test "SIGINT ends bpf-prog-info" { stop_run bpf-prog-info; }
@test "SIGINT ends statfs" { stop_run statfs; }
@test "SIGINT ends netns" { stop_run netns; }
@test "SIGINT ends mount-tmpfs" { stop_run mount-tmpfs; }
@test "SIGINT ends mntns" { stop_run mntns; }
@test "SIGINT ends io-uring" { stop_run io-uring; }
@test "SIGINT ends aio" { stop_run aio; }
@test "SIGINT ends fork-exec" { stop_run fork-exec; }
@test "every workload has its SIGINT test here" {
	local w
	for w in $(./bench list | awk '/^$/ { exit } /^[a-z]/ { print $1 }'); do
		grep -q "^@test \"SIGINT ends ${w}[\" ,]" "$BATS_TEST_FILENAME" || { echo "no test for $w"; false; }
	done
}

# ---- refusals of the environment name the fix (exit 3) ----

@test "cgroup-mkdir on a cgroup v1 host, no --cgroup-parent: exit 3, what to mount" {
	[ "$(stat -f -c %T /sys/fs/cgroup)" != cgroup2fs ] || skip "/sys/fs/cgroup is cgroup2 here"
	run --separate-stderr ./bench run -w cgroup-mkdir -n 2
	[ "$status" -eq 3 ]
	[ -z "$output" ]
	[ "$stderr" = "bench run: /sys/fs/cgroup is not cgroup2 (a cgroup v1 host): mount one (mount -t cgroup2 none DIR) and give --cgroup-parent DIR" ]
}
@test "cgroup-mkdir --cgroup-parent not cgroup2: bad input, exit 2" {
	bad "--cgroup-parent: $T: not a cgroup2 directory" run -w cgroup-mkdir --cgroup-parent "$T"
}
@test "bpf-pcpu-lookup without privilege: exit 3 naming root and CAP_BPF" {
	as_nobody run -w bpf-pcpu-lookup -n 2
	[ "$status" -eq 3 ]
	[ -z "$output" ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"creating a BPF map: Operation not permitted: run as root, or with CAP_BPF (CAP_SYS_ADMIN before Linux 5.8)" ]]
}
