#!/usr/bin/env bash
# deps.sh [-n|-l] ROLE - make sure what ROLE needs is here; install what is
# missing when root, else print the exact command and exit 3.
#
#   run    build and run: C compiler, make, pkg-config, libnuma,
#          liburcu, libbpf (with libelf and zlib), libmd and json-c headers, clang and
#          bpftool for bench trace's BPF program, gnuplot (`make deps`,
#          ./run.sh)
#   test   the tests on top: cmocka, bats, shellcheck, valgrind, python3,
#          jq, cpio, mandoc, man, clang and the libFuzzer runtime of that
#          clang, and the parsers that read compare's CI reports and the
#          CI jobs: PyYAML, python3's jsonschema, a GitHub-flavoured
#          markdown renderer (cmark-gfm, or the cmarkgfm module), and
#          scipy (bench scale's fits against scipy.stats.theilslopes),
#          and a static busybox at /bin/busybox (bench vm's tests build
#          its guests' initramfs with it) (`make test-deps`)
#   -n     only say what is missing and the command that would install it
#   -l     print the packages of ROLE on this distribution, installed or not
#
# Each capability is checked by what it provides, whatever the
# distribution: `pkg-config --exists` for a library, `command -v` for a
# tool (or /usr/sbin/NAME, where bpftool lives), a link of an empty fuzz
# target for the libFuzzer runtime, an import for a python3 module. The
# package that provides it is looked up in the table below for the
# distribution named by /etc/os-release (ID, then ID_LIKE).
#
#   deps.sh PKG...   (anything but a role) the Debian packages PKG, checked
#                    with dpkg-query: `make vmcheck` boots Debian's kernel.
#
# Exit: 0 everything present (or installed), 3 missing and not installed
# (not root, unknown distribution, no package manager), 1 the package
# manager failed, 2 bad usage.
# Environment: KSB_OS_RELEASE=FILE reads FILE instead of /etc/os-release,
# KSB_SBIN=DIR looks there instead of /usr/sbin, KSB_ROOT=DIR looks for
# the static executables (/bin/busybox) under DIR, KSB_PYTHON=PROG
# imports the python3 modules with PROG (default /usr/bin/python3, where
# the distribution's packages put them) (for tests).
set -euo pipefail

# The packages per distribution family. "a,b": two packages; @CLANG@: the
# major version of clang (Debian names the runtime after it); openSUSE's
# clang package carries the runtimes itself.
# capability  role  check             apt                  dnf                 zypper          pacman
table='
cc            run   cmd:cc            gcc,libc6-dev        gcc                 gcc             gcc
make          run   cmd:make          make                 make                make            make
pkg-config    run   cmd:pkg-config    pkg-config           pkgconf-pkg-config  pkg-config      pkgconf
numa          run   pc:numa           libnuma-dev          numactl-devel       libnuma-devel   numactl
liburcu-memb  run   pc:liburcu-memb   liburcu-dev          userspace-rcu-devel liburcu-devel   liburcu
liburcu-cds   run   pc:liburcu-cds    liburcu-dev          userspace-rcu-devel liburcu-devel   liburcu
libbpf        run   pc:libbpf         libbpf-dev           libbpf-devel        libbpf-devel    libbpf
libelf        run   pc:libelf         libelf-dev           elfutils-libelf-devel libelf-devel  libelf
zlib          run   pc:zlib           zlib1g-dev           zlib-devel          zlib-devel      zlib
libmd         run   pc:libmd          libmd-dev            libmd-devel         libmd-devel     libmd
json-c        run   pc:json-c         libjson-c-dev        json-c-devel        libjson-c-devel json-c
clang-bpf     run   cmd:clang         clang                clang               clang           clang
bpftool       run   sbin:bpftool      bpftool              bpftool             bpftool         bpf
gnuplot       run   cmd:gnuplot       gnuplot-nox          gnuplot             gnuplot         gnuplot
cmocka        test  pc:cmocka         libcmocka-dev        libcmocka-devel     libcmocka-devel cmocka
bats          test  cmd:bats          bats                 bats                bats            bats
shellcheck    test  cmd:shellcheck    shellcheck           ShellCheck          ShellCheck      shellcheck
valgrind      test  cmd:valgrind      valgrind             valgrind            valgrind        valgrind
python3       test  cmd:python3       python3              python3             python3         python
jq            test  cmd:jq            jq                   jq                  jq              jq
cpio          test  cmd:cpio          cpio                 cpio                cpio            cpio
mandoc        test  cmd:mandoc        mandoc               mandoc              mandoc          mandoc
man           test  cmd:man           man-db               man-db              man             man-db
groff         test  cmd:groff         groff-base           groff               groff           groff
clang         test  cmd:clang         clang                clang               clang           clang
libfuzzer     test  fuzzer            libclang-rt-@CLANG@-dev compiler-rt   clang           compiler-rt
pyyaml        test  py:yaml           python3-yaml         python3-pyyaml      python3-PyYAML  python-yaml
jsonschema    test  py:jsonschema     python3-jsonschema   python3-jsonschema  python3-jsonschema python-jsonschema
scipy         test  py:scipy          python3-scipy        python3-scipy       python3-scipy   python-scipy
gfm           test  gfm               cmark-gfm            python3-cmarkgfm    python3-cmarkgfm cmark-gfm
busybox       test  static:/bin/busybox busybox-static     busybox             busybox-static  busybox
'

dry=0
list=0
die() {
	echo "deps: $1" >&2
	exit "${2:-3}"
}

usage() {
	echo "usage: tests/deps.sh [-n|-l] run|test, or tests/deps.sh DEBIAN-PACKAGE..." >&2
	exit 2
}

# the value of KEY in the os-release file, unquoted
os_field() {
	local key=$1 line v
	[ -r "$os_release" ] || return 0
	while IFS= read -r line; do
		[[ "$line" == "$key="* ]] || continue
		v=${line#*=}
		v=${v#[\"\']}
		v=${v%[\"\']}
		echo "$v"
		return 0
	done <"$os_release"
	return 0
}

# the package manager family of this distribution: apt, dnf, zypper,
# pacman, or nothing
pm_family() {
	local id
	for id in $(os_field ID) $(os_field ID_LIKE); do
		case $id in
		debian | ubuntu) echo apt; return ;;
		fedora | rhel | rocky | almalinux | centos) echo dnf; return ;;
		opensuse* | sles | suse) echo zypper; return ;;
		arch) echo pacman; return ;;
		esac
	done
}

# a RHEL rebuild (not Fedora): bats and ShellCheck come from EPEL there,
# libcmocka-devel from CRB
rhel_like() {
	[ "$family" = dnf ] && [ "$(os_field ID)" != fedora ]
}

# the major version of the installed clang, else of the one apt would install
clang_major() {
	local v
	if command -v clang >/dev/null; then
		v=$(clang -dumpversion 2>/dev/null) || v=
	elif [ "$family" = apt ]; then
		v=$(apt-cache show --no-all-versions clang 2>/dev/null |
			sed -n 's/^Version: \([0-9]*:\)\{0,1\}//p' | head -n 1) || v=
	fi
	v=${v%%[!0-9]*}
	echo "$v"
}

# does clang link an empty fuzz target (the libFuzzer runtime is there)?
have_fuzzer() {
	local dir rc=0
	command -v clang >/dev/null || return 1
	dir=$(mktemp -d)
	printf '%s\n' 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n);' \
		'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n)' \
		'{ (void)d; (void)n; return 0; }' >"$dir/f.c"
	clang -fsanitize=fuzzer -o "$dir/f" "$dir/f.c" >/dev/null 2>&1 || rc=1
	rm -rf "$dir"
	return "$rc"
}

# have CHECK: is the capability there?
have() {
	case $1 in
	cmd:*) command -v "${1#cmd:}" >/dev/null ;;
	sbin:*) command -v "${1#sbin:}" >/dev/null || [ -x "${KSB_SBIN:-/usr/sbin}/${1#sbin:}" ] ;;
	pc:*) command -v pkg-config >/dev/null && pkg-config --exists "${1#pc:}" ;;
	# Debian's modules are Debian's python3's: a python3 earlier on PATH
	# (pyenv) may not see them
	py:*) "$python" -c "import ${1#py:}" 2>/dev/null ;;
	# Debian and Arch ship the renderer, Fedora and openSUSE its bindings
	gfm) command -v cmark-gfm >/dev/null ||
		{ command -v python3 >/dev/null && python3 -c 'import cmarkgfm' 2>/dev/null; } ;;
	fuzzer) have_fuzzer ;;
	# bench vm's guests run it as their shell: a dynamic one has no
	# libraries in the initramfs (ldd fails on a static executable)
	static:*) [ -x "${KSB_ROOT:-}${1#static:}" ] && ! ldd "${KSB_ROOT:-}${1#static:}" >/dev/null 2>&1 ;;
	esac
}

# install_cmd PKG...: the command line that installs PKG on this family
install_cmd() {
	case $family in
	apt) echo "apt-get install -y --no-install-recommends $*" ;;
	dnf) echo "dnf install -y $*" ;;
	zypper) echo "zypper --non-interactive install $*" ;;
	pacman) echo "pacman -S --needed --noconfirm $*" ;;
	esac
}

# Debian packages by name, for make vmcheck
deb_packages() {
	local p missing=()
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	echo "deps: missing Debian packages: ${missing[*]}" >&2
	if [ "$family" != apt ]; then
		die "these are Debian's (make vmcheck boots Debian's kernel); no apt-get here"
	fi
	if [ "$dry" = 1 ] || [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
		echo "deps: run: sudo $(install_cmd "${missing[@]}")" >&2
		[ "$dry" = 1 ] && return 0
		exit 3
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq || die "apt-get update failed" 1
	# shellcheck disable=SC2046 # the command line is words by design
	$(install_cmd "${missing[@]}") -qq >/dev/null || die "apt-get install failed" 1
	echo "deps: installed ${missing[*]}" >&2
}

case ${1:-} in
-h | --help)
	sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
	exit 0 ;;
esac
while getopts nl opt; do
	case $opt in
	n) dry=1 ;;
	l) list=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage

os_release=${KSB_OS_RELEASE:-/etc/os-release}
python=${KSB_PYTHON:-$(command -v /usr/bin/python3 || command -v python3 || true)}
python=${python:-python3}
family=$(pm_family)

case $1 in
run | test) [ $# -eq 1 ] || usage ;;
-*) usage ;;
*) deb_packages "$@"; exit 0 ;;
esac
role=$1

# resolve CAP...: fill pkgs with the packages of CAP here (each once) and
# unresolved with those whose package is named after a clang not known yet
resolve() {
	local cap r check apt dnf zypper pacman p q major
	pkgs=()
	unresolved=()
	while read -r cap r check apt dnf zypper pacman; do
		[[ -n "$cap" && " $* " == *" $cap "* ]] || continue
		case $family in
		apt) p=$apt ;;
		dnf) p=$dnf ;;
		zypper) p=$zypper ;;
		pacman) p=$pacman ;;
		esac
		if [[ "$p" == *@CLANG@* ]]; then
			major=$(clang_major)
			if [ -z "$major" ]; then
				unresolved+=("$cap")
				continue
			fi
			p=${p//@CLANG@/$major}
		fi
		for q in ${p//,/ }; do
			[[ " ${pkgs[*]} " == *" $q "* ]] || pkgs+=("$q")
		done
	done <<<"$table"
}

if [ "$list" = 1 ]; then
	[ -n "$family" ] || die "unknown distribution (ID=$(os_field ID) in $os_release)"
	all=()
	while read -r cap r _; do
		if [ "$r" = "$role" ]; then all+=("$cap"); fi
	done <<<"$table"
	resolve "${all[@]}"
	echo "${pkgs[*]}"
	exit 0
fi

# the missing capabilities of this role
missing=()
while read -r cap r check _; do
	[ "$r" = "$role" ] || continue
	have "$check" || missing+=("$cap")
done <<<"$table"
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: missing for $role: ${missing[*]}" >&2
if [ -z "$family" ]; then
	while read -r cap r check _; do
		[[ " ${missing[*]} " == *" $cap "* ]] || continue
		case $check in
		cmd:*) echo "deps:   $cap: the command ${check#cmd:}" >&2 ;;
		sbin:*) echo "deps:   $cap: the command ${check#sbin:}" >&2 ;;
		pc:*) echo "deps:   $cap: pkg-config --exists ${check#pc:}" >&2 ;;
		fuzzer) echo "deps:   $cap: the libFuzzer runtime of clang (clang -fsanitize=fuzzer)" >&2 ;;
		py:*) echo "deps:   $cap: the python3 module ${check#py:}" >&2 ;;
		gfm) echo "deps:   $cap: the command cmark-gfm, or the python3 module cmarkgfm" >&2 ;;
		static:*) echo "deps:   $cap: a static executable ${check#static:}" >&2 ;;
		esac
	done <<<"$table"
	die "unknown distribution (ID=$(os_field ID) ID_LIKE=$(os_field ID_LIKE) in $os_release): install what provides these, or set KSB_NO_DEPS=1 for ./run.sh"
fi

root=0
[ "$(id -u)" -eq 0 ] && [ "$dry" = 0 ] && root=1
pm=$(install_cmd x)
pm=${pm%% *}
command -v "$pm" >/dev/null || root=0
if [ "$root" = 1 ] && [ "$family" = apt ]; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq || die "apt-get update failed" 1
fi
resolve "${missing[@]}"
if rhel_like && [ "$role" = test ]; then
	echo "deps: on RHEL and its rebuilds, bats and ShellCheck are in EPEL and libcmocka-devel in CRB: dnf install -y epel-release && dnf config-manager --set-enabled crb" >&2
fi
[ ${#pkgs[@]} -gt 0 ] || die "cannot tell the version of clang for ${unresolved[*]}"
cmd=$(install_cmd "${pkgs[@]}")
if [ "$root" = 0 ]; then
	if [ "$dry" = 1 ]; then
		echo "deps: would run: $cmd" >&2
	else
		echo "deps: run: sudo $cmd" >&2
	fi
	[ ${#unresolved[@]} -eq 0 ] ||
		echo "deps: then run this again for ${unresolved[*]} (its package is named after the clang installed)" >&2
	[ "$dry" = 1 ] && exit 0
	exit 3
fi

# shellcheck disable=SC2086 # the command line is words by design
$cmd || die "$cmd failed" 1
echo "deps: installed ${pkgs[*]}" >&2
if [ ${#unresolved[@]} -gt 0 ]; then
	# clang is installed now: its runtime can be named
	resolve "${unresolved[@]}"
	[ ${#unresolved[@]} -eq 0 ] || die "cannot tell the clang version for ${unresolved[*]}" 1
	cmd=$(install_cmd "${pkgs[@]}")
	$cmd || die "$cmd failed" 1
	echo "deps: installed ${pkgs[*]}" >&2
fi
