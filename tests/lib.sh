# shellcheck shell=bash
# tests/lib.sh - what the test drivers (tests/kernel/kernelcheck.sh,
# bisectcheck.sh, auditcheck.sh, tests/vm/vmcheck.sh, tests/perf/busycheck.sh)
# share: their messages on stderr, prefixed with the driver's name, the
# exit of an environment that refused (3, as bench's EXIT_ENV), and
# Debian's kernel images. Source it after setting lib_prog:
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

# ---- reading bench's CSV reports by column name, never by position ----

# csv_col FILE COLUMN [NAME=VALUE...]: COLUMN of the first row of the
# CSV report FILE (bench scale -f csv, compare -f csv: a header line, then
# rows) whose columns NAME hold VALUE; nothing when no row matches.
# Lines before the header that start with "#" are skipped.
csv_col() {
	local file=$1 col=$2
	shift 2
	awk -F, -v col="$col" -v want="$*" '
		/^#/ && !hdr { next }
		!hdr {
			for (i = 1; i <= NF; i++)
				ix[$i] = i
			if (!(col in ix)) { print "csv_col: no column " col > "/dev/stderr"; exit 2 }
			n = split(want, w, " ")
			hdr = 1
			next
		}
		{
			for (k = 1; k <= n; k++) {
				split(w[k], kv, "=")
				if (!(kv[1] in ix) || $(ix[kv[1]]) != kv[2])
					next
			}
			print $(ix[col])
			exit
		}' "$file"
}

# csv_rows FILE COLUMN...: the named COLUMNs of every row of FILE, a
# kstats-bench result (format 2 and up) or any CSV report, comma-joined,
# one row a line. The header is the first line that holds every COLUMN
# (what a VM's capture printed before the file, and "#" metadata, come
# before it); "#" and SUMMARY lines after it are skipped. Exit 2 naming
# the columns when no line holds them all.
csv_rows() {
	local file=$1
	shift
	awk -F, -v cols="$*" '
		BEGIN { n = split(cols, c, " ") }
		!hdr {
			split("", ix)
			for (i = 1; i <= NF; i++)
				ix[$i] = i
			hdr = 1
			for (k = 1; k <= n; k++)
				if (!(c[k] in ix))
					hdr = 0
			next
		}
		/^#/ || /^SUMMARY / { next }
		{
			line = $(ix[c[1]])
			for (k = 2; k <= n; k++)
				line = line "," $(ix[c[k]])
			print line
		}
		END {
			if (!hdr) {
				print "csv_rows: " FILENAME ": no header with " cols > "/dev/stderr"
				exit 2
			}
		}' "$file"
}

# csv_meta FILE KEY: the value of the metadata line "# KEY: " of FILE
# (nothing when it has none)
csv_meta() {
	sed -n "s/^# $2: //p" "$1"
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
