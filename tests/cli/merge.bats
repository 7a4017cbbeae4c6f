#!/usr/bin/env bats
# needs: -
# bench merge against the loader's rules (lib/results/fileset.h): the
# shards' copies of one file measure in one unit and one bucket layout,
# else exit 2 with the message every reader gives, naming the two
# files; a partial copy is read with the one warning and makes the merge
# partial. The shards are bench run's files with a plan's metadata
# added; shard.bats runs bench vm --shard itself.

load common

setup() {
	common_setup
	./bench run -q --runs 2 -n 16 -o "$T/b2.csv" >/dev/null
	./bench run -q --runs 2 -n 16 -b 3 -o "$T/b3.csv" >/dev/null
}

# fake_shard DIR I FILE [SED]: FILE as shard I/2 of one plan of one file
# of 4 runs, in DIR/A.csv, its runs 1 and 2 the plan's 2I-1 and 2I (its
# boots), then the sed script SED
fake_shard() {
	local runs="$((2 * $2 - 1)) $((2 * $2))"
	mkdir -p "$1"
	sed -e "1a # vm_plan: 0123456789abcdef0123\\n# vm_shard: $2/2\\n# vm_plan_runs: $runs\\n# vm_shard_boots: ${runs/ /-} of 4\\n# vm_plan_files: 1\\n# vm_plan_file_runs: 4" \
		-e "${4:-}" "$3" >"$1/A.csv"
}

@test "merge: the shards' copies of a file in one unit and frac_bits, or exit 2 naming both" {
	fake_shard "$T/s1" 1 "$T/b2.csv"
	fake_shard "$T/s2" 2 "$T/b2.csv"
	run --separate-stderr ./bench merge -o "$T/m" "$T/s1" "$T/s2"
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ "$output" = "MERGE plan=0123456789ab shards=2/2 files=1 runs=4 partial=no" ]
	[ "$(csv_meta "$T/m/A.csv" partial)" = no ]
	# another unit
	fake_shard "$T/c2" 2 "$T/b2.csv" 's/^# unit: ns$/# unit: cycles/'
	bad "$T/s1/A.csv is in ns, $T/c2/A.csv in cycles: the files must measure in one unit" \
		merge -o "$T/m2" "$T/s1" "$T/c2"
	# other buckets
	fake_shard "$T/f2" 2 "$T/b3.csv"
	bad "$T/s1/A.csv has frac_bits 2, $T/f2/A.csv has 3: buckets differ" \
		merge -o "$T/m2" "$T/s1" "$T/f2"
	[ ! -e "$T/m2" ]
}

@test "merge: a partial copy is read with the loader's warning and makes the merge partial" {
	fake_shard "$T/s1" 1 "$T/b2.csv"
	fake_shard "$T/s2" 2 "$T/b2.csv" 's/^# partial: no$/# partial: yes/'
	run --separate-stderr ./bench merge -o "$T/m" "$T/s1" "$T/s2"
	[ "$status" -eq 0 ]
	[ "$stderr" = "bench merge: warning: $T/s2/A.csv was interrupted (partial: yes): its last run may hold fewer samples" ]
	[ "$(csv_meta "$T/m/A.csv" partial)" = yes ]
	# MERGE's partial= is the plan's: every shard is there
	[ "$output" = "MERGE plan=0123456789ab shards=2/2 files=1 runs=4 partial=no" ]
}

@test "merge: a vm_shard or a vm_plan_runs that would wrap is no shard, exit 2" {
	fake_shard "$T/s1" 1 "$T/b2.csv"
	fake_shard "$T/s2" 2 "$T/b2.csv"
	sed -i 's|^# vm_shard: 1/2$|# vm_shard: 1/4294967298|' "$T/s1/A.csv"
	bad "$T/s1/A.csv: not a shard of a plan (no vm_plan and vm_shard I/N" \
		merge -o "$T/m" "$T/s1" "$T/s2"
	sed -i 's|^# vm_shard: .*|# vm_shard: 4294967297/2|' "$T/s1/A.csv"
	bad "$T/s1/A.csv: not a shard of a plan" merge -o "$T/m" "$T/s1" "$T/s2"
	fake_shard "$T/s1" 1 "$T/b2.csv"
	sed -i 's|^# vm_plan_runs: 1 2$|# vm_plan_runs: 4294967297 2|' "$T/s1/A.csv"
	bad "$T/s1/A.csv: vm_plan_runs '4294967297 2' does not name the plan run of each of its 2 runs" \
		merge -o "$T/m" "$T/s1" "$T/s2"
	[ ! -e "$T/m" ]
}

@test "merge: a FIFO or a directory among a shard's files is refused, named, never waited on" {
	fake_shard "$T/s1" 1 "$T/b2.csv"
	fake_shard "$T/s2" 2 "$T/b2.csv"
	mkfifo "$T/s2/B.console"
	# bounded: a merge that opened the FIFO would wait for a writer for ever
	run --separate-stderr timeout 30 ./bench merge -o "$T/m" "$T/s1" "$T/s2"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "bench merge: $T/s2/B.console: not a regular file (a FIFO)" ]
	rm "$T/s2/B.console"
	mkfifo "$T/s1/B.csv"
	run --separate-stderr timeout 30 ./bench merge -o "$T/m" "$T/s1" "$T/s2"
	[ "$status" -eq 2 ]
	[ "$stderr" = "bench merge: $T/s1/B.csv: not a regular file (a FIFO)" ]
	rm "$T/s1/B.csv"
	mkdir "$T/s1/B.csv"
	run --separate-stderr timeout 30 ./bench merge -o "$T/m" "$T/s1" "$T/s2"
	[ "$status" -eq 2 ]
	[ "$stderr" = "bench merge: $T/s1/B.csv: not a regular file (a directory)" ]
	[ ! -e "$T/m" ]
}

# signal_in_fsync SIG: $T/fsync.so, an fsync() that raises SIG first: the
# signal comes while bench writes a file, its temp file there, every time
signal_in_fsync() {
	cat >"$T/f.c" <<-EOF
		#define _GNU_SOURCE
		#include <dlfcn.h>
		#include <signal.h>
		int fsync(int fd)
		{
			int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "fsync");

			raise($1);
			return real(fd);
		}
	EOF
	cc -shared -fPIC -o "$T/fsync.so" "$T/f.c" -ldl
}

@test "merge: SIGINT or SIGTERM while a file is written: 130/143, the files before whole, no temp file" {
	fake_shard "$T/s1" 1 "$T/b2.csv"
	fake_shard "$T/s2" 2 "$T/b2.csv"
	cp "$T/s1/A.csv" "$T/s1/B.csv"
	cp "$T/s2/A.csv" "$T/s2/B.csv"
	sed -i 's/^# vm_plan_files: 1$/# vm_plan_files: 2/' "$T"/s*/*.csv
	signal_in_fsync SIGINT
	LD_PRELOAD=$T/fsync.so run --separate-stderr ./bench merge -o "$T/m" "$T/s1" "$T/s2"
	[ "$status" -eq 130 ]
	[ "$(ls -A "$T/m")" = A.csv ]
	[ -z "$output" ]
	[ "$stderr" = "bench merge: stopped by SIGINT: 1 of 2 files written into $T/m, each whole" ]
	[ "$(csv_meta "$T/m/A.csv" runs)" = 4 ]
	# into an -o that exists, SIGTERM: the same
	rm "$T/m/A.csv"
	signal_in_fsync SIGTERM
	LD_PRELOAD=$T/fsync.so run --separate-stderr ./bench merge -o "$T/m" "$T/s1" "$T/s2"
	[ "$status" -eq 143 ]
	[ "$(ls -A "$T/m")" = A.csv ]
	# without the signal: both
	run ./bench merge -o "$T/m" "$T/s1" "$T/s2"
	[ "$status" -eq 0 ]
	[ -f "$T/m/A.csv" ] && [ -f "$T/m/B.csv" ]
	[ -z "$(find "$T/m" -name '.kstats-bench.*')" ]
}
