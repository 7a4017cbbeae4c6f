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
	# the whole list, from the binary's table, json and kcidb among it
	list=$(./bench --list-values kernel -f)
	[[ " $list " == *" json "* && " $list " == *" kcidb "* ]]
	[ "$stderr" = "bench kernel: --format: 'xml' is not one of ${list// /, } (see 'bench kernel --help')" ]
	run --separate-stderr ./bench run -f xml
	[ "${stderr//bench run/bench kernel}" = "$(./bench kernel -f xml 2>&1)" ]
}

@test "kernel: options are checked before the environment (-c 99999 as non-root: exit 2)" {
	command -v setpriv || skip "no setpriv"
	as_nobody kernel -c 99999
	[ "$status" -eq 2 ]
	[[ "$stderr" == "bench kernel: --cpus: '99999' names CPUs this machine does not have (possible: "* ]]
}

# fake_tree DIR: a configured kernel tree whose modules target builds a
# kstats_bench.ko of the M= directory's sources, as kbuild would
fake_tree() {
	mkdir -p "$1/include/config"
	echo 6.12.0-fake >"$1/include/config/kernel.release"
	cat >"$1/Makefile" <<'EOM'
modules:
	@test -f $(M)/ksb_core.c && echo "$(M)" >$(M)/kstats_bench.ko
EOM
}

@test "kernel --build TREE -o DIR: the module alone, its sources copied, no root" {
	fake_tree "$T/tree"
	run --separate-stderr ./bench kernel -q --build "$T/tree" -o "$T/m"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[ -z "$stderr" ]
	for f in kmod/Kbuild kmod/Makefile kmod/ksb*.[ch]; do
		cmp "$f" "$T/m/${f#kmod/}"
	done
	# M= is absolute however -o was given: kbuild runs in TREE
	[ "$(cat "$T/m/kstats_bench.ko")" = "$T/m" ]
	(cd "$T" && "$BATS_TEST_DIRNAME/../../bench" kernel --build tree -o rel 2>"$T/err")
	[ "$(cat "$T/rel/kstats_bench.ko")" = "$T/rel" ]
	[ "$(cat "$T/err")" = "bench kernel: building kstats_bench.ko for 6.12.0-fake against tree into rel" ]
	# it needs no root: as nobody, the tree is checked, not the uid
	command -v setpriv || skip "no setpriv"
	as_nobody kernel --build /nonexistent -o /nonexistent/m
	[ "$status" -eq 2 ]
	[[ "$stderr" == "bench kernel: --build /nonexistent: not a configured kernel tree"* ]]
}

@test "kernel --build: no -o, an unconfigured tree, an existing -o: exit 2; a failed make: exit 3" {
	fake_tree "$T/tree"
	bad "--build $T/tree: no -o DIR to build into" kernel --build "$T/tree"
	mkdir "$T/bare"
	bad "--build $T/bare: not a configured kernel tree (no include/config/kernel.release" \
		kernel --build "$T/bare" -o "$T/m"
	mkdir "$T/m"
	bad "-o $T/m: exists; --build makes a new directory" kernel --build "$T/tree" -o "$T/m"
	cat >"$T/tree/Makefile" <<'EOM'
modules:
	@touch $(M)/half.o; echo no compiler >&2; exit 1
EOM
	run --separate-stderr ./bench kernel -q --build "$T/tree" -o "$T/n"
	[ "$status" -eq 3 ]
	[ "${stderr_lines[0]}" = "no compiler" ]
	[ "${stderr_lines[${#stderr_lines[@]} - 1]}" = "bench kernel: building the module against $T/tree failed (make -C $T/tree M=$T/n modules)" ]
	# no directory left, the sources and what make left in it gone: the
	# same command runs again, and is refused for the build, not for -o
	[ ! -e "$T/n" ]
	run --separate-stderr ./bench kernel -q --build "$T/tree" -o "$T/n"
	[ "$status" -eq 3 ]
	[[ "$stderr" != *"exists"* ]]
	[ ! -e "$T/n" ]
}

@test "kernel: scripts build the module through bench kernel --build, never make M= themselves" {
	run grep -nE '(make|MAKE).*[^A-Z_]M=' run.sh tests/perf/*.sh tests/kernel/*.sh tests/vm/*.sh
	echo "$output"
	[ "$status" -eq 1 ]
	# bench bisect builds GOOD's module by the one build, in C
	grep -q 'kmod_build(' builtin-bisect.c
}
