# shellcheck shell=bash
# tests/lib.sh - what the test drivers (tests/kernel/kernelcheck.sh,
# bisectcheck.sh, tests/vm/vmcheck.sh) share: their messages on stderr,
# prefixed with the driver's name, and the exit of an environment that
# refused (3, as bench's EXIT_ENV). Source it after setting lib_prog:
#
#	lib_prog=kernelcheck
#	. "$top/tests/lib.sh"
#	say "building"		kernelcheck: building
#	die "no tarball"	kernelcheck: no tarball, exit 3

# say MESSAGE...: one line on stderr
say() {
	printf '%s: %s\n' "${lib_prog:?tests/lib.sh: set lib_prog first}" "$*" >&2
}

# die MESSAGE...: say it, exit 3
die() {
	say "$*"
	exit 3
}
