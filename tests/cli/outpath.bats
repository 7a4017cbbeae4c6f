#!/usr/bin/env bats
# needs: -
# Output paths (docs/reference.md, "Output files"): `bench run -o` and run.sh replace
# only regular files, follow symlinks to what they name, write FIFOs and
# devices in place, take - as stdout, keep the replaced file's mode and
# never leave a temp file. Part of the bad-input battery. Nothing here
# touches the host's /dev: the full device is a private node in $T.

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

# run.sh's file helpers by themselves (executed, run.sh runs its job),
# without its EXIT trap (bats has its own)
runsh_helpers() {
	# shellcheck disable=SC1090
	source <(sed -n -e '/^die() {/,/^}/p' -e '/^tmpfiles=()/,/^# plots CSV DIR/p' run.sh |
		grep -v '^trap ')
	declare -F to publish plot out_target >/dev/null
	# shellcheck disable=SC2034 # read by run.sh's plot(), sourced above
	share=$PWD
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
	grep -q '^irqdesc-alloc,old,' "$T/got"
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

@test "run.sh's writers: symlink kept, mode kept, FIFO and device in place, no temps" {
	runsh_helpers
	echo old >"$T/target"
	chmod 0600 "$T/target"
	ln -s target "$T/link"
	to "$T/link" echo new
	[ -L "$T/link" ]
	[ "$(cat "$T/target")" = new ]
	[ "$(stat -c %a "$T/target")" = 600 ]
	mkfifo "$T/fifo"
	timeout 60 cat "$T/fifo" >"$T/got" &
	to "$T/fifo" echo through
	[ -p "$T/fifo" ] || { kill $!; false; }
	wait $!
	[ "$(cat "$T/got")" = through ]
	echo plotted >"$T/img.tmp"
	timeout 60 cat "$T/fifo" >"$T/got" &
	publish "$T/img.tmp" "$T/fifo"
	[ -p "$T/fifo" ] || { kill $!; false; }
	wait $!
	[ "$(cat "$T/got")" = plotted ]
	[ ! -e "$T/img.tmp" ]
	if mknod "$T/full" c 1 7 2>/dev/null; then
		run to "$T/full" echo nowhere
		[ "$status" -ne 0 ]
		[ -c "$T/full" ]
	fi
	no_temps
}
