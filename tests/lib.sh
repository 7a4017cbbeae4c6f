# shellcheck shell=bash
# tests/lib.sh - what the test drivers (tests/kernel/kernelcheck.sh,
# bisectcheck.sh, scalecheck.sh, auditcheck.sh, tests/vm/vmcheck.sh,
# tests/perf/busy-study.sh and the benchmarks beside it) share: their
# messages on stderr, prefixed with the driver's name, the exit of an
# environment that refused (3, as bench's EXIT_ENV), the ok and FAIL
# lines of their checks and the closing line, Debian's kernel images,
# and bench's CSV read by column name. Source it after setting lib_prog:
#
#	lib_prog=kernelcheck
#	. "$top/tests/lib.sh"
#	say "building"		kernelcheck: building
#	die "no tarball"	kernelcheck: no tarball, exit 3
#	ok "stock: alloc ~"	ok: stock: alloc ~
#	conclude		KERNELCHECK passed: stock: alloc ~; 812 s

# say MESSAGE...: one line on stderr
say() {
	printf '%s: %s\n' "${lib_prog:?tests/lib.sh: set lib_prog first}" "$*" >&2
}

# die MESSAGE...: say it, exit 3
die() {
	say "$*"
	exit 3
}

# ---- checks: one line each on stdout, one closing line ----

# the seconds conclude counts from, the ok lines it sums up, the FAIL lines
lib_t0=$SECONDS
summary=()
fails=()
checks=0

# ok MESSAGE...: "ok: MESSAGE", kept for the closing line
ok() {
	echo "ok: $*"
	summary+=("$*")
}

# fail MESSAGE...: "FAIL: MESSAGE", kept: the driver has failed
fail() {
	echo "FAIL: $*"
	fails+=("$*")
}

# info MESSAGE...: "info: MESSAGE", a figure shown and not checked
info() {
	echo "info: $*"
}

# check WHAT CMD...: ok WHAT when CMD succeeds, else fail WHAT; counted
# in $checks
check() {
	local what=$1
	shift
	checks=$((checks + 1))
	if "$@"; then
		ok "$what"
	else
		fail "$what"
	fi
}

# conclude: the closing line, and the exit. No FAIL: "PROG passed: the ok
# lines and what else the driver put in summary; N s", exit 0; else "PROG
# FAILED: the FAIL lines; N s", exit 1 (';' between lines). PROG is
# lib_prog in capitals, N the seconds since this file was sourced.
conclude() {
	local IFS=';' took=$((SECONDS - lib_t0))
	if [ ${#fails[@]} = 0 ]; then
		echo "${lib_prog^^} passed: ${summary[*]}; $took s"
		exit 0
	fi
	echo "${lib_prog^^} FAILED: ${fails[*]}; $took s"
	exit 1
}

# ---- Debian's kernels as subjects (make auditcheck, make busycheck) ----

# image_61: linux-image-amd64's 6.1 image in /boot, the package it depends on
image_61() {
	local dep
	dep=$(dpkg-query -W -f='${Depends}' linux-image-amd64 2>/dev/null | grep -o 'linux-image-6\.1\.[^ ,]*' | head -1) ||
		true
	[ -n "$dep" ] || die "linux-image-amd64 depends on no 6.1 image (apt-get install linux-image-amd64)"
	[ -f "/boot/vmlinuz-${dep#linux-image-}" ] || die "no /boot/vmlinuz-${dep#linux-image-} ($dep)"
	echo "/boot/vmlinuz-${dep#linux-image-}"
}

# image_612 DIR PKG: the 6.12 image PKG, downloaded with apt-get download
# and unpacked once under DIR, never installed (vmcheck boots the newest
# /boot/vmlinuz); a second call downloads nothing
image_612() {
	local dir pkg=$2 deb img
	dir=$(realpath -m "$1")
	img=$(find "$dir/boot" -maxdepth 1 -name 'vmlinuz-*' 2>/dev/null | head -1) || true
	if [ -z "$img" ]; then
		rm -rf "$dir"
		mkdir -p "$dir"
		say "downloading $pkg (apt-get download; not installed)"
		(cd "$dir" && apt-get download "$pkg" >"$dir/download.log" 2>&1) ||
			die "apt-get download $pkg failed: $(tail -2 "$dir/download.log")"
		deb=$(find "$dir" -maxdepth 1 -name '*.deb' | head -1)
		# only the image: the modules (300 MB) serve no guest here
		dpkg-deb --fsys-tarfile "$deb" | tar -C "$dir" -x --wildcards './boot/vmlinuz-*' ||
			die "dpkg-deb could not unpack $deb"
		rm -f "$deb"
		img=$(find "$dir/boot" -maxdepth 1 -name 'vmlinuz-*' | head -1)
		[ -n "$img" ] || die "$pkg holds no boot/vmlinuz-*"
	fi
	echo "$img"
}

# ---- reading bench's CSV by column name, never by position ----
#
# FILE: a kstats-bench result (format 2 and up) or a CSV report of bench
# (compare, scale, trend -f csv, their --also files). Its header is the
# first line that holds every column named (what a VM's capture printed
# before the file, and "#" metadata, come before it); "#" and SUMMARY
# lines after it are skipped. A field is read as bench quotes it ("a, b"
# for a, b; "" for "). A WHERE is NAME=VALUE (column NAME holds VALUE)
# or NAME!=VALUE; VALUE may hold spaces.

# csv_rows FILE COLUMN... [WHERE...]: the named COLUMNs of every row of
# FILE that passes every WHERE, comma-joined, one row a line. Exit 2
# naming the file and the columns when no line holds them all.
csv_rows() {
	lib_csv csv_rows 0 "$@"
}

# csv_col FILE COLUMN [WHERE...]: COLUMN of the first row that passes
# every WHERE; nothing when none does. Exit 2 as csv_rows.
csv_col() {
	lib_csv csv_col 1 "$@"
}

# csv_sum FILE COLUMN [WHERE...]: the sum of COLUMN over the rows that
# pass every WHERE (0 when none does). Exit 2 as csv_rows.
csv_sum() {
	local rows
	rows=$(lib_csv csv_sum 0 "$@") || return
	awk '{ n += $0 } END { print n + 0 }' <<<"$rows"
}

# csv_index FILE COLUMN: where COLUMN stands in FILE's header, 1 the
# first: for a script that rewrites that column. Exit 2 as csv_rows.
csv_index() {
	lib_csv csv_index 2 "$@"
}

# lib_csv WHO HOW FILE COLUMN... [WHERE...]: what WHO prints; HOW 0 every
# row, 1 the first, 2 the position of the (one) COLUMN
lib_csv() {
	local who=$1 how=$2 file=$3 a cols=() where=()
	shift 3
	for a in "$@"; do
		case $a in
		*=*) where+=("$a") ;;
		*) cols+=("$a") ;;
		esac
	done
	LIB_CSV_COLS="${cols[*]}" LIB_CSV_WHERE=$(printf '%s\n' "${where[@]}") \
		awk -v who="$who" -v how="$how" '
		# the fields of @line into @f, the quoting bench writes undone; how many
		function fields(line, f,   n, i, c, q, v) {
			if (!index(line, "\""))
				return split(line, f, ",")
			n = 1
			for (i = 1; i <= length(line); i++) {
				c = substr(line, i, 1)
				if (q && c == "\"" && substr(line, i + 1, 1) == "\"")
					v = v substr(line, ++i, 1)
				else if (c == "\"")
					q = !q
				else if (c == "," && !q) {
					f[n++] = v
					v = ""
				} else
					v = v c
			}
			f[n] = v
			return n
		}
		BEGIN {
			n = split(ENVIRON["LIB_CSV_COLS"], c, " ")
			need = ENVIRON["LIB_CSV_COLS"]
			m = 0
			k = split(ENVIRON["LIB_CSV_WHERE"], w, "\n")
			for (i = 1; i <= k; i++) {
				if (!match(w[i], /!?=/))
					continue
				m++
				wn[m] = substr(w[i], 1, RSTART - 1)
				wne[m] = RLENGTH == 2
				wv[m] = substr(w[i], RSTART + RLENGTH)
				need = need " " wn[m]
			}
		}
		!hdr {
			split("", ix)
			nf = fields($0, f)
			for (i = 1; i <= nf; i++)
				ix[f[i]] = i
			hdr = 1
			for (i = 1; i <= n; i++)
				if (!(c[i] in ix))
					hdr = 0
			for (i = 1; i <= m; i++)
				if (!(wn[i] in ix))
					hdr = 0
			if (hdr && how == 2) {
				print ix[c[1]]
				exit
			}
			next
		}
		/^#/ || /^SUMMARY / { next }
		{
			split("", f)
			fields($0, f)
			for (i = 1; i <= m; i++)
				if ((f[ix[wn[i]]] == wv[i]) == wne[i])
					next
			line = f[ix[c[1]]]
			for (i = 2; i <= n; i++)
				line = line "," f[ix[c[i]]]
			print line
			if (how == 1)
				exit
		}
		END {
			if (!hdr) {
				print who ": " FILENAME ": no header with " need > "/dev/stderr"
				exit 2
			}
		}' "$file"
}

# the bench beside tests/: what reads a file's metadata for the scripts
lib_bench=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/bench

# csv_meta FILE KEY: the value of the metadata line "# KEY: " of FILE, as
# bench show --meta reads it and its keys' table checks it (nothing when
# it has none, or one the table refuses)
csv_meta() {
	"$lib_bench" show --meta "$2" "$1" 2>/dev/null || true
}

# ---- counted boots side by side ----

# vm_sharded N OUT BENCH-VM-ARGS...: bench vm's plan cut into N shards
# (--shard I/N) booted side by side, each into OUT.sI (its report in
# OUT.sI.txt), then joined by bench merge into OUT: the files one bench
# vm -o OUT would have written. For the counted clock only, which no
# neighbour moves: qemu's single TCG thread takes one core a shard, and
# a timed plan must boot alone. Returns the first shard's failure
# (its exit code), else bench merge's.
vm_sharded() {
	local n=$1 out=$2 i pids=() dirs=()
	shift 2
	rm -rf "$out" "$out".s[0-9]*
	for ((i = 1; i <= n; i++)); do
		"${bench:?tests/lib.sh: set bench first}" vm --shard "$i/$n" -o "$out.s$i" "$@" \
			>"$out.s$i.txt" &
		pids+=("$!")
		dirs+=("$out.s$i")
	done
	wait_all "${pids[@]}" || return
	"$bench" merge -o "$out" "${dirs[@]}"
}

# wait_all PID...: waits for every one of them; returns the first
# failure's status, 0 when all succeeded
wait_all() {
	local p st rc=0
	for p in "$@"; do
		wait "$p" && continue
		st=$?
		[ "$rc" != 0 ] || rc=$st
	done
	return "$rc"
}

# together CMD... -- CMD...: the two commands side by side, the first in
# a subshell; returns the first failure's status (a die in either is
# exit 3). Counted boots only, as vm_sharded's
together() {
	local first=() pid rc=0 st
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		first+=("$1")
		shift
	done
	shift
	"${first[@]}" &
	pid=$!
	"$@" || rc=$?
	wait "$pid" && return "$rc"
	st=$?
	[ "$rc" != 0 ] || rc=$st
	return "$rc"
}

# ---- a co-tenant: what a shared runner's neighbour does ----

# cotenant_start CPU SECONDS: a busy loop pinned to CPU for at most
# SECONDS (timeout ends it whatever happens to the caller); its pid, the
# timeout's, in $cotenant_pid, once the loop itself runs (at most 5 s).
# cotenant_stop kills the loop and then its timeout by that pid: a
# SIGTERM to timeout alone can leave the loop spinning without its bound.
cotenant_start() {
	local i
	timeout "$2" taskset -c "$1" sh -c 'while :; do :; done' &
	cotenant_pid=$!
	for ((i = 0; i < 100; i++)); do
		pgrep -P "$cotenant_pid" >/dev/null && return 0
		sleep 0.05
	done
}

cotenant_stop() {
	[ -n "${cotenant_pid:-}" ] || return 0
	pkill -KILL -P "$cotenant_pid" 2>/dev/null || true
	kill -KILL "$cotenant_pid" 2>/dev/null || true
	wait "$cotenant_pid" 2>/dev/null || true
	cotenant_pid=
}

# ---- kernelcheck's planted kernels (tests/perf/kernel-plant*.sh) ----
#
# Each boots a kernel that make kernelcheck built with a planted delay
# (a command-line parameter), beside the same kernel with none, and
# judges the two with bench ($bench).

# plant_module TREE OUT: the module, built once against TREE, as
# OUT/kmod/kstats_bench.ko (all of kernelcheck's kernels share a release)
plant_module() {
	"${bench:?tests/lib.sh: set bench first}" kernel -q --build "$1" -o "$2/kmod" >/dev/null ||
		die "building the module failed"
}

# plant_boot OUT IMG POSSIBLE APPEND SIDE NAME: one boot of IMG at
# POSSIBLE CPUs with APPEND on its command line, bench kernel's
# kernel-irq-alloc as run NAME of SIDE (OUT/SIDE/NAME.csv)
plant_boot() {
	local out=$1 img=$2 possible=$3 append=$4 side=$5 name=$6
	mkdir -p "$out/$side"
	"${bench:?tests/lib.sh: set bench first}" vm -q -B 1 -p "$possible" --module "$out/kmod/kstats_bench.ko" \
		--append "$append" -o "$out/$side" "$name=$img" \
		-- kernel --module /kmod/kstats_bench.ko -w kernel-irq-alloc -n 512 >/dev/null
}

# plant_judge CSV FMT COLUMN -- CMD ARGS...: bench CMD -f csv ARGS into CSV,
# then "VALUE VERDICT" of its alloc series, COLUMN's value printed with
# FMT (the verdict last: "significant below threshold" is three words);
# nothing when bench wrote no CSV. A row of kind "diff" where the report
# has kinds (scale's slope difference).
plant_judge() {
	local csv=$1 fmt=$2 col=$3 where=(variant=alloc)
	shift 4
	"${bench:?tests/lib.sh: set bench first}" "$1" -f csv "${@:2}" >"$csv" 2>/dev/null || true
	[ -s "$csv" ] || return 0
	csv_index "$csv" kind >/dev/null 2>&1 && where+=(kind=diff)
	csv_rows "$csv" "$col" verdict "${where[@]}" |
		awk -F, -v f="$fmt" '{ printf f " %s\n", $1, $2 }'
}

# plant_range LO HI VALUE: "LO HI" widened to hold VALUE (LO and HI
# empty: none yet)
plant_range() {
	awk -v lo="$1" -v hi="$2" -v v="$3" \
		'BEGIN { print (lo == "" || v < lo) ? v : lo, (hi == "" || v > hi) ? v : hi }'
}
