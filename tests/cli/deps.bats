#!/usr/bin/env bats
# needs: -
# tests/deps.sh on distributions this machine is not: a PATH of fakes only
# (package managers that record their arguments, pkg-config and clang that
# say present or missing, id for root or not) and an os-release file given
# by KSB_OS_RELEASE. Nothing real is ever installed.

load common

setup() {
	common_setup
	B=$T/bin
	mkdir -p "$B"
	# what deps.sh itself runs, real
	for t in sed head mktemp rm grep cat; do
		ln -s "$(command -v "$t")" "$B/$t"
	done
	printf '#!/bin/bash\nexit 0\n' >"$B/.stub"
	chmod +x "$B/.stub"
	cat >"$B/id" <<'EOF'
#!/bin/bash
[ "$1" = -u ] && echo "${FAKE_UID:-0}"
EOF
	# libraries in FAKE_PC_MISSING are missing until something is installed
	cat >"$B/.pkg-config" <<'EOF'
#!/bin/bash
[ "$1" = --exists ] || exit 1
shift
[ -e "$T/installed" ] && exit 0
for l in "$@"; do
	[[ " $FAKE_PC_MISSING " == *" $l "* ]] && exit 1
done
exit 0
EOF
	# the libFuzzer runtime is there when FAKE_FUZZER=1 or once installed
	cat >"$B/.clang" <<'EOF'
#!/bin/bash
case $1 in
-dumpversion) echo "${FAKE_CLANG:-18.1.3}" ;;
-fsanitize=fuzzer) [ "${FAKE_FUZZER:-0}" = 1 ] || [ -e "$T/installed" ] ;;
*) exit 1 ;;
esac
EOF
	# python3 modules in FAKE_PY_MISSING are missing until something is installed
	cat >"$B/.python3" <<'EOF'
#!/bin/bash
[ "$1" = -c ] || exit 0
[ -e "$T/installed" ] && exit 0
m=${2#import }
[[ " $FAKE_PY_MISSING " == *" $m "* ]] && exit 1
exit 0
EOF
	cat >"$B/apt-cache" <<'EOF'
#!/bin/bash
[ "${FAKE_NO_LISTS:-0}" = 1 ] && exit 100
[ "$*" = "show --no-all-versions clang" ] && printf 'Package: clang\nVersion: 1:18.0-59~exp2\n'
EOF
	# a package manager: records its arguments; an install makes every
	# tool and library present (exit FAKE_PM_RC)
	cat >"$B/.pm" <<'EOF'
#!/bin/bash
PATH=/usr/bin:/bin
echo "${0##*/} $*" >>"$T/log"
case " $* " in
*" install "* | *" -S "*)
	touch "$T/installed"
	mkdir -p "${KSB_ROOT:?}/bin" && cp "$B/.stub" "$KSB_ROOT/bin/busybox"
	for t in cc make pkg-config clang bpftool gnuplot bats shellcheck valgrind python3 jq cpio mandoc man groff; do
		[ -e "$B/$t" ] && continue
		if [ -e "$B/.$t" ]; then ln -s ".$t" "$B/$t"; else ln -s .stub "$B/$t"; fi
	done ;;
esac
exit "${FAKE_PM_RC:-0}"
EOF
	chmod +x "$B"/* "$B"/.[a-z]*
	for pm in apt-get dnf zypper pacman; do ln -s .pm "$B/$pm"; done
	# a static busybox (no ldd on this PATH: nothing reads as dynamic)
	export KSB_ROOT=$T/root
	mkdir -p "$KSB_ROOT/bin"
	cp "$B/.stub" "$KSB_ROOT/bin/busybox"
	unset FAKE_UID FAKE_PC_MISSING FAKE_PY_MISSING FAKE_CLANG FAKE_FUZZER FAKE_PM_RC FAKE_NO_LISTS
}

# tools NAME...: these commands exist (pkg-config and clang as their fakes)
tools() {
	local t
	for t in "$@"; do
		if [ -e "$B/.$t" ]; then ln -sf ".$t" "$B/$t"; else ln -sf .stub "$B/$t"; fi
	done
}

run_tools() { tools cc make pkg-config clang bpftool gnuplot; }
# the run role's tools but clang (which the test role installs too)
run_tools_no_clang() { tools cc make pkg-config bpftool gnuplot; }
test_tools() { tools bats shellcheck valgrind python3 jq cpio mandoc man groff clang; }

# osr NAME: the os-release of NAME
osr() {
	case $1 in
	rocky9) printf '%s\n' 'NAME="Rocky Linux"' 'VERSION_ID="9.3"' 'ID="rocky"' \
		'ID_LIKE="rhel centos fedora"' ;;
	leap15) printf '%s\n' 'NAME="openSUSE Leap"' 'VERSION_ID="15.5"' 'ID="opensuse-leap"' \
		'ID_LIKE="suse opensuse"' ;;
	ubuntu2404) printf '%s\n' 'NAME="Ubuntu"' 'VERSION_ID="24.04"' 'ID=ubuntu' 'ID_LIKE=debian' ;;
	debian12) printf '%s\n' 'NAME="Debian GNU/Linux"' 'VERSION_ID="12"' 'ID=debian' ;;
	arch) printf '%s\n' 'NAME="Arch Linux"' 'ID=arch' ;;
	unknown) printf '%s\n' 'NAME="Plan 9"' 'ID=plan9' 'ID_LIKE="bell-labs"' ;;
	esac >"$T/os-release"
}

# deps ARGS...: tests/deps.sh with nothing but the fakes on PATH
deps() {
	run --separate-stderr /usr/bin/env -i PATH="$B" T="$T" B="$B" \
		KSB_OS_RELEASE="$T/os-release" KSB_SBIN="$T/sbin" KSB_ROOT="$KSB_ROOT" KSB_PYTHON=python3 FAKE_UID="${FAKE_UID:-0}" \
		FAKE_PC_MISSING="${FAKE_PC_MISSING:-}" FAKE_PY_MISSING="${FAKE_PY_MISSING:-}" \
		FAKE_CLANG="${FAKE_CLANG:-18.1.3}" \
		FAKE_FUZZER="${FAKE_FUZZER:-0}" FAKE_PM_RC="${FAKE_PM_RC:-0}" FAKE_NO_LISTS="${FAKE_NO_LISTS:-0}" \
		/bin/bash tests/deps.sh "$@"
	echo "status $status"
	echo "stderr: $stderr"
	[ ! -e "$T/log" ] || { echo "log:"; cat "$T/log"; }
}

@test "deps: Rocky 9 as root installs the missing run packages with dnf, nothing of the tests" {
	osr rocky9
	tools cc make pkg-config
	FAKE_PC_MISSING="numa liburcu-memb liburcu-cds"
	deps run
	[ "$status" -eq 0 ]
	[ "$(cat "$T/log")" = "dnf install -y numactl-devel userspace-rcu-devel clang bpftool gnuplot" ]
	[ "${stderr_lines[0]}" = "deps: missing for run: numa liburcu-memb liburcu-cds clang-bpf bpftool gnuplot" ]
	[ "${stderr_lines[1]}" = "deps: installed numactl-devel userspace-rcu-devel clang bpftool gnuplot" ]
}

@test "deps: Rocky 9 not root: exit 3, the exact dnf line and where EPEL/CRB come in" {
	osr rocky9
	run_tools_no_clang
	FAKE_UID=1000 FAKE_PC_MISSING=cmocka
	deps test
	[ "$status" -eq 3 ]
	[ ! -e "$T/log" ]
	[ -z "$output" ]
	[ "${stderr_lines[0]}" = "deps: missing for test: cmocka bats shellcheck valgrind python3 jq cpio mandoc man groff clang libfuzzer pyyaml jsonschema scipy gfm" ]
	[ "${stderr_lines[1]}" = "deps: on RHEL and its rebuilds, bats and ShellCheck are in EPEL and libcmocka-devel in CRB: dnf install -y epel-release && dnf config-manager --set-enabled crb" ]
	[ "${stderr_lines[2]}" = "deps: run: sudo dnf install -y libcmocka-devel bats ShellCheck valgrind python3 jq cpio mandoc man-db groff clang compiler-rt python3-pyyaml python3-jsonschema python3-scipy python3-cmarkgfm" ]
	[ "${#stderr_lines[@]}" -eq 3 ]
}

@test "deps: openSUSE Leap 15 as root, nothing there: zypper installs the run role" {
	osr leap15
	FAKE_PC_MISSING="numa liburcu-memb liburcu-cds"
	deps run
	[ "$status" -eq 0 ]
	[ "$(cat "$T/log")" = "zypper --non-interactive install gcc make pkg-config libnuma-devel liburcu-devel libbpf-devel libelf-devel zlib-devel libmd-devel libjson-c-devel clang bpftool gnuplot" ]
}

@test "deps: openSUSE Leap 15 not root, test role: the exact zypper line, exit 3" {
	osr leap15
	run_tools
	tools clang
	FAKE_UID=1000 FAKE_PC_MISSING=cmocka
	deps test
	[ "$status" -eq 3 ]
	[ ! -e "$T/log" ]
	[ "${stderr_lines[0]}" = "deps: missing for test: cmocka bats shellcheck valgrind python3 jq cpio mandoc man groff libfuzzer pyyaml jsonschema scipy gfm" ]
	[ "${stderr_lines[1]}" = "deps: run: sudo zypper --non-interactive install libcmocka-devel bats ShellCheck valgrind python3 jq cpio mandoc man groff clang python3-PyYAML python3-jsonschema python3-scipy python3-cmarkgfm" ]
}

@test "deps: Ubuntu 24.04 without clang: apt installs clang and the runtime of the clang apt offers (18)" {
	osr ubuntu2404
	run_tools_no_clang
	tools bats shellcheck valgrind python3 jq cpio mandoc man groff
	deps test
	[ "$status" -eq 0 ]
	[ "$(cat "$T/log")" = "apt-get update -qq
apt-get install -y --no-install-recommends clang libclang-rt-18-dev" ]
}

@test "deps: Ubuntu 24.04 with clang 19 but no fuzzer runtime: libclang-rt-19-dev, named after that clang" {
	osr ubuntu2404
	run_tools
	test_tools
	FAKE_CLANG=19.1.7
	deps test
	[ "$status" -eq 0 ]
	[ "$(cat "$T/log")" = "apt-get update -qq
apt-get install -y --no-install-recommends libclang-rt-19-dev" ]
	[ "${stderr_lines[0]}" = "deps: missing for test: libfuzzer" ]
}

@test "deps: apt cannot name clang's version yet: as root, clang first, then its runtime" {
	osr ubuntu2404
	run_tools_no_clang
	tools bats shellcheck valgrind python3 jq cpio mandoc man groff
	FAKE_NO_LISTS=1 FAKE_CLANG=18.1.3
	deps test
	[ "$status" -eq 0 ]
	[ "$(cat "$T/log")" = "apt-get update -qq
apt-get install -y --no-install-recommends clang
apt-get install -y --no-install-recommends libclang-rt-18-dev" ]
	rm "$T/log" "$T/installed" "$B/clang"
	FAKE_UID=1000
	deps test
	[ "$status" -eq 3 ]
	[ ! -e "$T/log" ]
	[ "${stderr_lines[1]}" = "deps: run: sudo apt-get install -y --no-install-recommends clang" ]
	[ "${stderr_lines[2]}" = "deps: then run this again for libfuzzer (its package is named after the clang installed)" ]
}

@test "deps: Debian 12 not root: the apt-get line with clang 14's runtime" {
	osr debian12
	run_tools
	test_tools
	FAKE_UID=1000 FAKE_CLANG=14.0.6
	deps test
	[ "$status" -eq 3 ]
	[ ! -e "$T/log" ]
	[ "${stderr_lines[1]}" = "deps: run: sudo apt-get install -y --no-install-recommends libclang-rt-14-dev" ]
}

@test "deps: Arch as root: pacman, with Arch's names (run role)" {
	osr arch
	tools cc make pkg-config
	FAKE_PC_MISSING="numa liburcu-memb"
	deps run
	[ "$status" -eq 0 ]
	[ "$(cat "$T/log")" = "pacman -S --needed --noconfirm numactl liburcu clang bpf gnuplot" ]
}

@test "deps: Arch as root: pacman, with Arch's names (test role)" {
	osr arch
	run_tools_no_clang
	FAKE_PC_MISSING=cmocka
	deps test
	[ "$status" -eq 0 ]
	[ "$(cat "$T/log")" = "pacman -S --needed --noconfirm cmocka bats shellcheck valgrind python jq cpio mandoc man-db groff clang compiler-rt python-yaml python-jsonschema python-scipy cmark-gfm" ]
}

@test "deps: Debian 12 with python3 but not its modules: the YAML, JSON Schema and GFM packages" {
	osr debian12
	run_tools
	test_tools
	FAKE_FUZZER=1 FAKE_PY_MISSING="yaml jsonschema cmarkgfm"
	deps test
	[ "$status" -eq 0 ]
	[ "${stderr_lines[0]}" = "deps: missing for test: pyyaml jsonschema gfm" ]
	[ "$(cat "$T/log")" = "apt-get update -qq
apt-get install -y --no-install-recommends python3-yaml python3-jsonschema cmark-gfm" ]
	# cmark-gfm present: the renderer is there, the modules still missing
	rm "$T/log" "$T/installed"
	tools cmark-gfm
	FAKE_UID=1000
	deps test
	[ "$status" -eq 3 ]
	[ "${stderr_lines[0]}" = "deps: missing for test: pyyaml jsonschema" ]
	# Fedora's bindings count as the renderer
	osr rocky9
	rm "$B/cmark-gfm"
	FAKE_PY_MISSING="yaml"
	deps -n test
	[ "${stderr_lines[0]}" = "deps: missing for test: pyyaml" ]
	[ "${stderr_lines[2]}" = "deps: would run: dnf install -y python3-pyyaml" ]
}

@test "deps: no busybox, or a dynamic one: the test role installs busybox-static (bench vm's guests)" {
	osr debian12
	run_tools
	test_tools
	FAKE_FUZZER=1
	rm "$KSB_ROOT/bin/busybox"
	deps test
	[ "$status" -eq 0 ]
	[ "${stderr_lines[0]}" = "deps: missing for test: busybox" ]
	[ "$(cat "$T/log")" = "apt-get update -qq
apt-get install -y --no-install-recommends busybox-static" ]
	# a dynamic busybox: ldd reads its libraries, the guests would lack them
	rm "$T/log"
	printf '#!/bin/bash\necho "libc.so.6 => /lib/libc.so.6"\n' >"$B/ldd"
	chmod +x "$B/ldd"
	FAKE_UID=1000
	deps test
	[ "$status" -eq 3 ]
	[ "${stderr_lines[0]}" = "deps: missing for test: busybox" ]
	[ "${stderr_lines[1]}" = "deps: run: sudo apt-get install -y --no-install-recommends busybox-static" ]
	[ ! -e "$T/log" ]
}

@test "deps: an unknown distribution: exit 3, the missing capabilities listed, nothing run" {
	osr unknown
	tools cc make pkg-config
	FAKE_PC_MISSING=liburcu-cds
	deps run
	[ "$status" -eq 3 ]
	[ ! -e "$T/log" ]
	[ "$stderr" = "deps: missing for run: liburcu-cds clang-bpf bpftool gnuplot
deps:   liburcu-cds: pkg-config --exists liburcu-cds
deps:   clang-bpf: the command clang
deps:   bpftool: the command bpftool
deps:   gnuplot: the command gnuplot
deps: unknown distribution (ID=plan9 ID_LIKE=bell-labs in $T/os-release): install what provides these, or set KSB_NO_DEPS=1 for ./run.sh" ]
}

@test "deps: everything present: nothing runs, nothing printed, root or not, known or not" {
	run_tools
	test_tools
	FAKE_FUZZER=1
	for d in rocky9 leap15 ubuntu2404 arch unknown; do
		osr "$d"
		for FAKE_UID in 0 1000; do
			for role in run test; do
				deps "$role"
				[ "$status" -eq 0 ]
				[ -z "$output" ]
				[ -z "$stderr" ]
			done
		done
	done
	[ ! -e "$T/log" ]
}

@test "deps: -n says what it would run and runs nothing, even as root" {
	osr rocky9
	run_tools
	FAKE_PC_MISSING=numa
	deps -n run
	[ "$status" -eq 0 ]
	[ ! -e "$T/log" ]
	[ "${stderr_lines[1]}" = "deps: would run: dnf install -y numactl-devel" ]
}

@test "deps: -l: the run role's packages hold no test tool (Ubuntu, Debian 12 on this machine)" {
	osr ubuntu2404
	deps -l run
	[ "$status" -eq 0 ]
	[ "$output" = "gcc libc6-dev make pkg-config libnuma-dev liburcu-dev libbpf-dev libelf-dev zlib1g-dev libmd-dev libjson-c-dev clang bpftool gnuplot-nox" ]
	deps -l test
	[ "$output" = "libcmocka-dev bats shellcheck valgrind python3 jq cpio mandoc man-db groff-base clang libclang-rt-18-dev python3-yaml python3-jsonschema python3-scipy cmark-gfm busybox-static" ]
	[ ! -e "$T/log" ]
	# the real make deps on this machine asks for the run role only
	[ "$(make -s -n deps)" = "tests/deps.sh run" ]
	if grep -qx 'ID=debian' /etc/os-release; then
		run tests/deps.sh -l run
		[ "$output" = "gcc libc6-dev make pkg-config libnuma-dev liburcu-dev libbpf-dev libelf-dev zlib1g-dev libmd-dev libjson-c-dev clang bpftool gnuplot-nox" ]
	fi
}

@test "deps: -l: libbpf, libelf, zlib, clang and bpftool for bench trace, by each distribution's names" {
	osr rocky9
	deps -l run
	[ "$output" = "gcc make pkgconf-pkg-config numactl-devel userspace-rcu-devel libbpf-devel elfutils-libelf-devel zlib-devel libmd-devel json-c-devel clang bpftool gnuplot" ]
	osr leap15
	deps -l run
	[ "$output" = "gcc make pkg-config libnuma-devel liburcu-devel libbpf-devel libelf-devel zlib-devel libmd-devel libjson-c-devel clang bpftool gnuplot" ]
	osr arch
	deps -l run
	[ "$output" = "gcc make pkgconf numactl liburcu libbpf libelf zlib libmd json-c clang bpf gnuplot" ]
}

@test "deps: bpftool outside PATH, in /usr/sbin (KSB_SBIN here), counts as present" {
	osr debian12
	tools cc make pkg-config clang gnuplot
	mkdir -p "$T/sbin"
	ln -s "$B/.stub" "$T/sbin/bpftool"
	deps run
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ ! -e "$T/log" ]
	rm "$T/sbin/bpftool"
	FAKE_UID=1000
	deps run
	[ "$status" -eq 3 ]
	[ "${stderr_lines[1]}" = "deps: run: sudo apt-get install -y --no-install-recommends bpftool" ]
}

@test "deps: the package manager fails: exit 1 naming the command" {
	osr rocky9
	run_tools
	FAKE_PC_MISSING=numa FAKE_PM_RC=1
	deps run
	[ "$status" -eq 1 ]
	[ "${stderr_lines[1]}" = "deps: dnf install -y numactl-devel failed" ]
}

@test "deps: --help exits 0 naming the roles; bad usage exits 2" {
	osr rocky9
	deps --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"run    build and run"* ]]
	[[ "$output" == *"test   the tests on top"* ]]
	deps
	[ "$status" -eq 2 ]
	deps -x run
	[ "$status" -eq 2 ]
	deps run test
	[ "$status" -eq 2 ]
}

@test "run.sh on Rocky 9 without libnuma headers, not root: exit 3 with the dnf line, nothing run" {
	osr rocky9
	mkdir "$T/over"
	cp "$B/.pkg-config" "$T/over/pkg-config"
	cp "$B/id" "$T/over/id"
	run --separate-stderr env PATH="$T/over:$PATH" T="$T" KSB_OS_RELEASE="$T/os-release" \
		FAKE_PC_MISSING=numa FAKE_UID=1000 KSB_RESULTS="$T/results" ./run.sh -q -n 16
	echo "status $status stderr: $stderr"
	[ "$status" -eq 3 ]
	[ "${stderr_lines[0]}" = "deps: missing for run: numa" ]
	[ "${stderr_lines[1]}" = "deps: run: sudo dnf install -y numactl-devel" ]
	[ "${stderr_lines[-1]}" = "run.sh: missing dependencies (see above; KSB_NO_DEPS=1 skips this check)" ]
	[ ! -e "$T/results" ]
}
