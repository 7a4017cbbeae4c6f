# common.bash - shared by the bats files (load common).

bats_require_minimum_version 1.5.0

# what the drivers share (tests/lib.sh): csv_rows, csv_col and csv_meta
# read bench's files by column and key, never by position
# shellcheck disable=SC2034  # tests/lib.sh's say reads it
lib_prog=bats
# shellcheck disable=SC1091  # source.bats checks tests/lib.sh on its own
. "$BATS_TEST_DIRNAME/../lib.sh"

# from the repository root, with the fixtures and a scratch directory
# shellcheck disable=SC2034  # F and T are for the .bats files
common_setup() {
	cd "$BATS_TEST_DIRNAME/../.." || return 1
	F=tests/fixtures
	T=$BATS_TEST_TMPDIR
	# the host's cpu pressure is not the tests': a quiet PSI file in its place
	printf 'some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n' >"$T/psi"
	export KSB_PSI_CPU=$T/psi
}

# png_ok PNG [WIDTH HEIGHT]: PNG is a valid PNG image of WIDTH x HEIGHT
# pixels (800 x 500 unless told), not blank (tests/cli/png_ok.py)
png_ok() {
	/usr/bin/python3 tests/cli/png_ok.py "$1" "${2:-800}" "${3:-500}"
}

# public_bench: PUB, a directory holding a copy of bench that an
# unprivileged user can run (the teardown removes it)
public_bench() {
	PUB=$(mktemp -d /tmp/ksb-public.XXXXXX)
	chmod 755 "$PUB"
	install -m 0755 bench "$PUB/bench"
}

# as_nobody ARGS...: `run` that copy of bench with ARGS as uid 65534
as_nobody() {
	public_bench
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups "$PUB/bench" "$@"
	echo "status $status stderr: $stderr"
}

# bad WANT ARGS...: bench exits 2 with exactly one line on stderr that
# contains WANT, and prints nothing on stdout
bad() {
	local want=$1
	shift
	run --separate-stderr ./bench "$@"
	echo "status $status stderr: $stderr"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"$want"* ]]
}

# wait_for PATTERN FILE: until a line of FILE matches the extended regex
# PATTERN (an event: a progress line of KSB_PROGRESS=1, say); 1 with a
# message after 120 s, a bound on a hang, not a measurement
wait_for() {
	local i
	for ((i = 0; i < 2400; i++)); do
		grep -qE -- "$1" "$2" 2>/dev/null && return 0
		sleep 0.05
	done
	echo "never saw /$1/ in $2" >&2
	return 1
}

# vm_setup: Q the fake qemu, IMG a stock kernel, $T/patched/bzImage a copy
# shellcheck disable=SC2034 # Q and IMG are the tests'
vm_setup() {
	common_setup
	Q=tests/cli/fake-qemu
	IMG=$T/stock/bzImage
	mkdir -p "$T/stock" "$T/patched"
	fake_bzimage "$IMG"
	cp "$IMG" "$T/patched/bzImage"
}

# fake_bzimage PATH: a file bench vm reads as a bzImage of release
# 6.12.117: the setup header's "HdrS", protocol 2.15, the version string
fake_bzimage() {
	python3 - "$1" <<-'EOF'
		import struct, sys
		img = bytearray(0x1000)
		img[0x202:0x206] = b"HdrS"
		img[0x206:0x208] = struct.pack("<H", 0x20f)
		img[0x20e:0x210] = struct.pack("<H", 0x400)
		v = b"6.12.117 (root@ci) #1 SMP\0"
		img[0x600:0x600 + len(v)] = v
		open(sys.argv[1], "wb").write(img)
	EOF
}

# gate_ref_history DIR: the gate-ref fixture's nine files (2 runs each, with the
# reference loop's rows) as nine nights: 480 possible CPUs for six, then
# 528, where the old path clears 10% more units
gate_ref_history() {
	local i=0 f
	mkdir -p "$1"
	for f in r480a_1 r480a_2 r480a_3 r480b_1 r480b_2 r480b_3 r528_1 r528_2 r528_3; do
		i=$((i + 1))
		sed "2a # timestamp: 2025-01-0${i}T02:00:00Z" "$F/gate-ref/$f.csv" >"$1/$f.csv"
	done
}
