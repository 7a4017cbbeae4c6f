#!/usr/bin/env bats
# needs: -
# bench trace on this machine: options, refusals, and bench show and
# compare on CSVs that bench trace wrote in the vmcheck VM (fixtures).
# Attaching BPF happens inside that VM only: this machine's kernel has no
# kprobes and refuses BPF tracing.

load common

setup() {
	common_setup
}

teardown() {
	[ -z "${PUB:-}" ] || rm -rf "$PUB"
}

@test "trace: --help names the probes, the section, the exit codes" {
	run --separate-stderr ./bench trace --help
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ "$output" == "Usage: bench trace [OPTIONS] FUNC [-- COMMAND [ARG...]]"* ]]
	[[ "$output" == *"-p, --probe KIND"*"fentry; kprobe"* ]]
	[[ "$output" == *"-e, --end F2"* ]]
	[[ "$output" == *"Exit: 0 done, 2 bad usage, 3 the environment refused (not root, no BTF for"* ]]
	[ "$(awk 'length > 80' <<<"$output")" = "" ]
}

@test "trace: listed by bench --help" {
	run ./bench --help
	[[ "$output" == *"trace "*"time any kernel function with BPF"* ]]
}

@test "trace: no function" { bad "no function to trace" trace; }
@test "trace: two functions" { bad "unexpected argument 'b' (a command goes after '--')" trace a b; }
@test "trace: '--' and no command" { bad "no command after '--'" trace f --; }
@test "trace: unknown probe" { bad "--probe: 'uprobe' is not one of auto, fentry, kprobe" trace -p uprobe f; }
@test "trace: frac bits past 12" { bad "--frac-bits: '13' is not an integer in 0..12" trace -b 13 f; }
@test "trace: a duration of 0" { bad "--duration: '0' is not a number in (0,31536000) s" trace -d 0 f; }
@test "trace: a duration that is no number" { bad "--duration: '1s' is not a number in (0,31536000) s" trace -d 1s f; }
@test "trace: a duration of a year" { bad "--duration: '31536000' is not a number" trace -d 31536000 f; }
@test "trace: unknown format" { bad "--format: 'xml' is not one of table, kstats, csv, bars, json" trace -f xml f; }
@test "trace: unknown option" { bad "unknown option '--bogus'" trace --bogus f; }
@test "trace: options end at '--': what follows is COMMAND's" {
	run --separate-stderr ./bench trace -d 0.1 ksb_no_such_function -- ls --bogus
	echo "status $status stderr: $stderr"
	[ "$status" -eq 3 ]
	[[ "$stderr" != *"--bogus"* ]]
}

@test "trace: as a non-root user, exit 3 with one line naming root" {
	command -v setpriv || skip "no setpriv"
	as_nobody trace -d 1 vfs_read
	[ "$status" -eq 3 ]
	[ -z "$output" ]
	[ "$stderr" = "bench trace: needs root to load BPF programs (running as uid 65534)" ]
}

@test "trace: -o into a directory: exit 2 before anything is attached" {
	[ "$(id -u)" -eq 0 ] || skip "not root: the root check comes first"
	bad "--output: $T: Is a directory" trace -o "$T" -d 1 vfs_read
}

# where the kernel refuses (this machine: BPF tracing refused, no
# kprobes), one line naming why, exit 3 and no output file; where it
# allows, the two tables and a SUMMARY
@test "trace: on this kernel, the two tables, or exit 3 with one line naming the cause" {
	[ "$(id -u)" -eq 0 ] || skip "not root"
	run --separate-stderr ./bench trace -q -d 0.2 -o "$T/t.csv" vfs_read
	echo "status $status stderr: $stderr"
	if [ "$status" -eq 3 ]; then
		[ -z "$output" ]
		[ "${#stderr_lines[@]}" -eq 1 ]
		[[ "$stderr" =~ ^bench\ trace:\ (the\ kernel\ refuses\ (BPF|kprobes)|no\ BTF\ for\ vfs_read|vfs_read\ cannot\ be) ]]
		[ ! -e "$T/t.csv" ]
	else
		[ "$status" -eq 0 ]
		[[ "$output" == *"# vfs_read time: vfs_read() from its entry to its return"* ]]
		[[ "$output" == *"SUMMARY source=trace workload=vfs_read"* ]]
		[ "$(csv_meta "$T/t.csv" source)" = trace ]
	fi
}

@test "trace: a function the kernel lacks: exit 3 naming /proc/kallsyms" {
	[ "$(id -u)" -eq 0 ] || skip "not root"
	run --separate-stderr ./bench trace -d 0.2 ksb_no_such_function
	echo "status $status stderr: $stderr"
	[ "$status" -eq 3 ]
	[ -z "$output" ]
	# where the kernel refuses BPF altogether, that is the cause named
	[[ "$stderr" == "bench trace: no function ksb_no_such_function in this kernel: not in /proc/kallsyms (inlined, or in a module not loaded)" ||
		"$stderr" == "bench trace: the kernel refuses BPF"* ]]
}

# ---- what bench trace wrote in the VM: show and compare read it ----

@test "trace CSV: the metadata names the source, the probe and the function" {
	local f=$F/trace/getppid-fentry-1.csv
	[ "$(csv_meta "$f" source)" = trace ]
	[ "$(csv_meta "$f" probe)" = fentry/fexit ]
	[ "$(csv_meta "$f" function)" = __do_sys_getppid ]
	[ "$(csv_meta "$F/trace/getppid-kprobe-1.csv" probe)" = kprobe/kretprobe ]
}

@test "trace CSV: bench show prints each series, merged and per CPU" {
	local f=$F/trace/getppid-fentry-1.csv cpu
	run --separate-stderr ./bench show -v time "$f"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "$(printf 'BUCKET \tSAMPLES\t AVG TIME(ns)  PERCENTILE')" ]
	[ "$(awk 'NR > 2 { n += $2 } END { print n }' <<<"$output")" -eq 5000 ]
	[[ "${lines[-1]}" == *" 1.000000" ]]
	run --separate-stderr ./bench show -v gap "$f"
	[ "$status" -eq 0 ]
	[ "$(awk 'NR > 2 { n += $2 } END { print n }' <<<"$output")" -eq 4999 ]
	cpu=$(csv_col "$f" cpu variant=time cpu!=all)
	[ -n "$cpu" ]
	run --separate-stderr ./bench show -v time -c "$cpu" "$f"
	[ "$status" -eq 0 ]
}

@test "trace CSV: bench compare of fentry's runs against kprobe's: kprobe's window slower (exit 1)" {
	run --separate-stderr ./bench compare "$F"/trace/getppid-fentry-?.csv -- "$F"/trace/getppid-kprobe-?.csv
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"__do_sys_getppid time "*" regression"* ]]
	run --separate-stderr ./bench compare "$F"/trace/getppid-fentry-?.csv -- "$F"/trace/getppid-fentry-?.csv
	[ "$status" -eq 0 ]
}
