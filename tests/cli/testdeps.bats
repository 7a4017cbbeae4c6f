#!/usr/bin/env bats
# needs: -
# What make check calls is what make test-deps installs. Every bats file
# says what it needs beyond bash, coreutils and the run role in a
# "# needs:" line of capability names from tests/deps.sh's table ("-":
# nothing more). Two checks keep those lines true: every name is a
# capability that `make deps` or `make test-deps` installs, and a file
# that calls a test-role tool (found by the patterns below) names it.
# A tool that only vmcheck or kernelcheck installs (a real qemu, a
# kernel image) is therefore never needed by make check: on a fresh
# machine, make check runs before them (.ci/run).

load common

setup() {
	common_setup
}

# the capabilities of ROLE (run or test) in tests/deps.sh's table
caps_of() {
	sed -n "/^table='/,/^'/p" tests/deps.sh | awk -v r="$1" '$2 == r { print $1 }'
}

# the "# needs:" names of bats file FILE, one a line
needs_of() {
	sed -n 's/^# needs: *//p' "$1" | tr ' ' '\n' | grep -v '^-\{0,1\}$' || true
}

# CAP PATTERN: a call of the test-role tool CAP, as an extended regex
# over a bats file's code and the tests/cli/*.py scripts it runs. bench
# vm builds its guests' initramfs around /bin/busybox: calling it needs
# busybox.
patterns='
shellcheck (^|[^-[:alnum:]_])shellcheck([^-[:alnum:]_]|$)
valgrind (^|[^-[:alnum:]_])valgrind([^-[:alnum:]_]|$)
python3 (^|[^-[:alnum:]_/])python3([^-[:alnum:]_]|$)|\.py([^[:alnum:]]|$)|(^|[^-[:alnum:]_])png_ok( |$)
jq (^|[|( ]|\$\()jq( |$)
cpio (^|[|( ]|\$\()cpio( |$)
mandoc (^|[^-[:alnum:]_])mandoc([^-[:alnum:]_]|$)
man (^|[|(; ]|\$\()man -
groff (^|[|(; ]|\$\()groff -
clang (^|[^-[:alnum:]_])clang( |$)
pyyaml import yaml|yaml\.safe_load
jsonschema jsonschema
scipy scipy|scale_ref\.py
gfm cmark-gfm|cmarkgfm|gfm_tables\.py
busybox busybox|bench vm
'

# the pattern of CAP
pattern_of() {
	sed -n "s/^$1 //p" <<<"$patterns"
}

# calls CAP LINE: LINE calls CAP, by its pattern
calls() {
	grep -qE -- "$(pattern_of "$1")" <<<"$2"
}

# the code of FILE: no comments, no test names; then the python it runs
code_of() {
	local f=$1 py
	grep -v -e '^[[:space:]]*#' -e '^@test ' "$f"
	grep -o 'tests/cli/[a-z_]*\.py' "$f" | sort -u | while read -r py; do
		cat "$py"
	done
}

@test "testdeps: every bats file has one needs line, of capabilities that deps or test-deps install" {
	local f n known bad=
	known=" $(caps_of run | tr '\n' ' ') $(caps_of test | tr '\n' ' ') "
	for f in tests/cli/*.bats; do
		n=$(grep -c '^# needs:' "$f" || true)
		[ "$n" -eq 1 ] || bad+="$f: $n needs lines"$'\n'
		for c in $(needs_of "$f"); do
			[[ "$known" == *" $c "* ]] || bad+="$f: '$c' is no capability of tests/deps.sh's run or test role"$'\n'
		done
	done
	echo "$bad"
	[ -z "$bad" ]
}

@test "testdeps: a file that calls a test-role tool names it in its needs line" {
	local f cap re bad=
	for f in tests/cli/*.bats; do
		# deps.bats calls fakes of every tool on a PATH of its own;
		# this file names them all in its patterns
		case $f in tests/cli/deps.bats | tests/cli/testdeps.bats) continue ;; esac
		while read -r cap re; do
			[ -n "$cap" ] || continue
			code_of "$f" | grep -qE -- "$re" || continue
			needs_of "$f" | grep -qx "$cap" ||
				bad+="$f calls $cap (/$re/) but its needs line lacks it"$'\n'
		done <<<"$patterns"
	done
	echo "$bad"
	[ -z "$bad" ]
}

@test "testdeps: the patterns catch what they are for, and only that" {
	printf '%s\n' '#!/usr/bin/env bats' '# needs: -' '# jq in a comment is no call' \
		'@test "busybox in a name is none either" {' '	./bench vm -q x -- run' '}' >"$T/a.bats"
	calls busybox "$(code_of "$T/a.bats")"
	run calls jq "$(code_of "$T/a.bats")"
	[ "$status" -eq 1 ]
	# shellcheck disable=SC2016 # a line of code, not expanded
	calls jq 'x=$(jq -r .a f)'
	calls jq 'run jq . f'
	run calls jq 'the jquery'
	[ "$status" -eq 1 ]
	calls python3 'run tests/cli/png_ok.py x.png'
	# common.bash's png_ok runs tests/cli/png_ok.py
	# shellcheck disable=SC2016 # a line of code, not expanded
	calls python3 'png_ok "$T/x.png" 1000 680'
	run calls python3 '/usr/lib/python3/dist'
	[ "$status" -eq 1 ]
}

@test "testdeps: this machine has every capability of the test role (make check ran test-deps)" {
	run tests/deps.sh -n test
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "testdeps: .ci/run runs make check right after deps and test-deps, before vmcheck installs more" {
	run grep -oE '^make [a-z-]+' .ci/run
	[ "${lines[0]}" = "make deps" ]
	[ "${lines[1]}" = "make test-deps" ]
	[ "${lines[2]}" = "make check" ]
	# and make check's closing line ends the log
	[ "$(tail -n 1 .ci/run)" = "grep -E '^[0-9]+ passed, [0-9]+ failed' build/check.log | tail -n 1" ]
}
