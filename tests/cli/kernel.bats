#!/usr/bin/env bats
# needs: -
# bench kernel on this machine: only what needs no module load. Loading
# kstats_bench happens inside the vmcheck VM, never on the test host.

load common

setup() {
	common_setup
}

teardown() {
	[ -z "${PUB:-}" ] || rm -rf "$PUB"
}

@test "kernel: --help names both workloads and the exit codes" {
	run --separate-stderr ./bench kernel --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"kernel-set-defaults"* ]]
	[[ "$output" == *"kernel-irq-alloc"* ]]
	[[ "$output" == *"Exit: 0 done, 2 bad usage, 3 the environment refused"* ]]
}

@test "kernel: listed by bench --help" {
	run ./bench --help
	[[ "$output" == *"kernel "*"inside the running kernel"* ]]
}

@test "kernel: as a non-root user, exit 3 with one line naming root" {
	command -v setpriv || skip "no setpriv"
	as_nobody kernel -n 16
	[ "$status" -eq 3 ]
	[ -z "$output" ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == "bench kernel: needs root to load the module kstats_bench (running as uid 65534)" ]]
}

@test "kernel: bad workload" { bad "--workload: 'x' is not one of kernel-set-defaults, kernel-irq-alloc" kernel -w x; }
@test "kernel: zero samples" { bad "--samples: '0' is not an integer in 1..4294967296" kernel -n 0; }
@test "kernel: samples past 2^32" { bad "--samples: '4294967297'" kernel -n 4294967297; }
@test "kernel: a CPU list with letters" { bad "--cpus: 'a-b' is not a CPU list" kernel -c a-b; }
@test "kernel: an empty CPU list" { bad "--cpus: '' is not a CPU list" kernel -c ''; }
@test "kernel: frac bits past 12" { bad "--frac-bits: '13' is not an integer in 0..12" kernel -b 13; }
@test "kernel: unknown format" { bad "--format: 'xml' is not one of table, kstats, csv, bars" kernel -f xml; }
@test "kernel: an option without its value" { bad "option '-n' needs a value" kernel -n; }
@test "kernel: unknown option" { bad "unknown option '--bogus'" kernel --bogus; }
@test "kernel: a stray argument" { bad "unexpected argument 'extra'" kernel extra; }

@test "kernel: every format of bench run, json and kcidb included" {
	bad "--format: 'xml' is not one of" kernel -f xml
	# the whole list, exactly bench run's
	[ "$stderr" = "bench kernel: --format: 'xml' is not one of table, kstats, csv, bars, json, kcidb (see 'bench kernel --help')" ]
	run --separate-stderr ./bench run -f xml
	[ "${stderr//bench run/bench kernel}" = "$(./bench kernel -f xml 2>&1)" ]
}

@test "kernel: options are checked before the environment (-c 99999 as non-root: exit 2)" {
	command -v setpriv || skip "no setpriv"
	as_nobody kernel -c 99999
	[ "$status" -eq 2 ]
	[[ "$stderr" == "bench kernel: --cpus: '99999' names CPUs this machine does not have (possible: "* ]]
}
