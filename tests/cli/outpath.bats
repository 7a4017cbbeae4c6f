#!/usr/bin/env bats
# needs: -
# Output paths (docs/reference.md, "Output files"): `bench run -o` and
# --also replace only regular files, follow symlinks to what they name,
# write FIFOs and devices in place, take - as stdout (-o), keep the
# replaced file's mode and never leave a temp file; run.sh has bench
# write every file of its results. Part of the bad-input battery.
# Nothing here touches the host's /dev: the full device is a private
# node in $T.

load common

setup() {
	common_setup
}

# no temp file of bench (.kstats-bench.*) or run.sh (.tmp.*) anywhere in $T
no_temps() {
	local left
	left=$(find "$T" \( -name '.kstats-bench.*' -o -name '.tmp.*' \))
	[ -z "$left" ] || { echo "left behind: $left"; false; }
}

# is_csv FILE: bench's CSV, whatever its format number
is_csv() {
	head -1 "$1" | grep -q '^# kstats-bench-csv [0-9]*$'
}

@test "-o symlink: its target is replaced, the link stays" {
	echo old >"$T/target"
	ln -s target "$T/link"
	./bench run -q -n 16 -o "$T/link" >/dev/null
	[ -L "$T/link" ]
	[ "$(readlink "$T/link")" = target ]
	is_csv "$T/target"
	no_temps
}

@test "-o relative symlink is resolved from the link's directory" {
	mkdir "$T/a" "$T/b"
	echo old >"$T/b/t.csv"
	ln -s ../b/t.csv "$T/a/rel"
	./bench run -q -n 16 -o "$T/a/rel" >/dev/null
	[ -L "$T/a/rel" ]
	is_csv "$T/b/t.csv"
	[ ! -e "$T/a/t.csv" ]
	no_temps
}

@test "-o dangling symlink creates its target (0644)" {
	mkdir "$T/b"
	ln -s b/new.csv "$T/dangling"
	./bench run -q -n 16 -o "$T/dangling" >/dev/null
	[ -L "$T/dangling" ]
	is_csv "$T/b/new.csv"
	[ "$(stat -c %a "$T/b/new.csv")" = 644 ]
	no_temps
}

@test "-o keeps the replaced file's mode (0600 stays 0600)" {
	echo old >"$T/private.csv"
	chmod 0600 "$T/private.csv"
	./bench run -q -n 16 -o "$T/private.csv" >/dev/null
	is_csv "$T/private.csv"
	[ "$(stat -c %a "$T/private.csv")" = 600 ]
	no_temps
}

@test "-o FIFO is written in place for its reader" {
	mkfifo "$T/fifo"
	timeout 60 cat "$T/fifo" >"$T/got" &
	./bench run -q -n 16 -o "$T/fifo" >/dev/null
	# replaced by a file, the FIFO's reader would wait forever: fail now
	[ -p "$T/fifo" ] || { kill $!; false; }
	wait $!
	is_csv "$T/got"
	[ "$(csv_sum "$T/got" samples variant=old cpu=all)" -eq 16 ]
	no_temps
}

@test "-o FIFO with no reader waits, and SIGINT ends the wait (130)" {
	mkfifo "$T/fifo"
	run timeout --preserve-status -s INT 1 ./bench run -q -n 16 -o "$T/fifo"
	[ "$status" -eq 130 ]
	[ -p "$T/fifo" ]
	no_temps
}

@test "-o onto a full character device: exit 3, one line, the node stays" {
	mknod "$T/full" c 1 7 2>/dev/null || skip "mknod needs root (CAP_MKNOD): the full device cannot be made here"
	run --separate-stderr ./bench run -q -n 16 -o "$T/full"
	echo "status $status stderr: $stderr"
	[ "$status" -eq 3 ]
	[ "$stderr" = "bench run: writing $T/full: No space left on device" ]
	[ -c "$T/full" ]
	no_temps
}

@test "-o - puts the CSV on stdout and the report on stderr" {
	run --separate-stderr ./bench run -q -n 16 -o -
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "# kstats-bench-csv "* ]]
	[[ "$output" == *$'\nirqdesc-alloc,new,'* ]]
	[[ "$output" != *"SUMMARY "* ]]
	[[ "$stderr" == *"SUMMARY workload=irqdesc-alloc "* ]]
	[ ! -e ./- ]
	[ ! -e "$T/-" ]
}

@test "-o /proc/self/fd/N writes into that descriptor's file, no rename" {
	./bench run -q -n 16 -o /proc/self/fd/3 3>"$T/fd3" >/dev/null
	is_csv "$T/fd3"
	no_temps
}

@test "-o symlink to a directory exits 2" {
	mkdir "$T/d"
	ln -s d "$T/dlink"
	bad "--output: $T/dlink: Is a directory" run -o "$T/dlink"
}

@test "-o symlink loop exits 2" {
	ln -s l2 "$T/l1"
	ln -s l1 "$T/l2"
	bad "--output: $T/l1: Too many levels of symbolic links" run -o "$T/l1"
}

@test "run.sh: KSB_RESULTS a symlink to a results volume keeps working" {
	mkdir "$T/volume"
	ln -s volume "$T/results"
	KSB_RESULTS=$T/results KSB_NO_DEPS=1 ./run.sh -q -n 16 >/dev/null
	[ -L "$T/results" ]
	d=$(echo "$T"/volume/*)
	[ -d "$d" ]
	is_csv "$d/bench.csv"
	[ -f "$d/hist.png" ] && [ ! -L "$d/hist.png" ]
	no_temps
}

@test "--also follows -o's rules: symlink kept, mode kept, FIFO and device in place, no temps" {
	echo old >"$T/target"
	chmod 0600 "$T/target"
	ln -s target "$T/link"
	mkfifo "$T/fifo"
	timeout 60 cat "$T/fifo" >"$T/got" &
	./bench run -q -n 16 -o "$T/r.csv" --also table="$T/link" --also summary="$T/fifo" >/dev/null
	[ -p "$T/fifo" ] || { kill $!; false; }
	wait $!
	[ -L "$T/link" ]
	[ "$(readlink "$T/link")" = target ]
	[ "$(stat -c %a "$T/target")" = 600 ]
	cmp "$T/target" <(./bench show "$T/r.csv")
	cmp "$T/got" <(./bench show -f summary "$T/r.csv")
	# a new file is 0644
	./bench run -q -n 16 --also csv="$T/new.csv" >/dev/null
	[ "$(stat -c %a "$T/new.csv")" = 644 ]
	if mknod "$T/full" c 1 7 2>/dev/null; then
		run --separate-stderr ./bench run -q -n 16 --also table="$T/full"
		[ "$status" -eq 3 ]
		[ "$stderr" = "bench run: --also $T/full: No space left on device" ]
		[ -c "$T/full" ]
	fi
	bad "--also $T: Is a directory" run --also table="$T"
	no_temps
}
