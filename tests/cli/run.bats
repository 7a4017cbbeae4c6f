#!/usr/bin/env bats
# needs: jq
# bench run, list and calibrate: a small real run, its CSV against the
# schema, and the exit code of every bad option.

load common

setup() {
	common_setup
}


# check_csv FILE N [VARIANTS]: every check of docs/design.md's CSV section,
# one message per fault; VARIANTS (default "old new") each hold N samples
check_csv() {
	awk -F, -v want="$2" -v vars="${3:-old new}" '
	BEGIN { nv = split(vars, var, " "); for (i = 1; i <= nv; i++) isvar[var[i]] = 1 }
	NR == 1 { if ($0 != "# kstats-bench-csv 3") { print "magic"; bad = 1 } next }
	/^# / { split(substr($0, 3), kv, ": "); meta[kv[1]] = 1; next }
	!hdr { hdr = 1
	       if ($0 != "workload,variant,run,cpu,node,bucket,lo_ns,hi_ns,samples,avg_ns,percentile,sum_ns,min_ns,max_ns") { print "header"; bad = 1 }
	       next }
	{
		if (NF != 14) { print "fields " NR; bad = 1 }
		# exact: avg the rounded sum / samples, the sum that of samples
		# values of the bucket, min and max the same on every row of a series
		if (int(($12 + int($9 / 2)) / $9) != $10) { print "avg of sum " NR; bad = 1 }
		if ($12 < $9 * $7 || $12 > $9 * ($8 - 1)) { print "sum outside bucket " NR; bad = 1 }
		key = $1 "," $2 "," $3 "," $4
		if (key in mm && mm[key] != $13 "," $14) { print "min,max " NR; bad = 1 }
		mm[key] = $13 "," $14
		if ($13 + 0 > $14 + 0) { print "min above max " NR; bad = 1 }
		if (!($2 in isvar) && $2 != "reference") { print "variant " NR; bad = 1 }
		if ($2 == "reference" && $4 != "all") { print "reference per CPU " NR; bad = 1 }
		if ($3 != "all") { print "run " NR; bad = 1 }
		if ($4 == "all") { if ($5 != -1) { print "node of all " NR; bad = 1 }
				   total[$2] += $9; last[$2] = $11 }
		else if ($4 !~ /^[0-9]+$/ || $5 !~ /^[0-9]+$/) { print "cpu/node " NR; bad = 1 }
		else cpus[$4] = 1
		if ($7 + 0 >= $8 + 0) { print "bounds " NR; bad = 1 }
		if ($10 + 0 < $7 + 0 || $10 + 0 >= $8 + 0) { print "avg outside bucket " NR; bad = 1 }
		if ($11 !~ /^[01]\.[0-9][0-9][0-9][0-9][0-9][0-9]$/) { print "percentile " NR; bad = 1 }
	}
	END {
		split("command timestamp host kernel cpu_model tsc_hz possible_cpus online_cpus used_cpus nodes frac_bits cache runs partial timer_overhead_cycles pcpu_nodes", k, " ")
		for (i in k) if (!(k[i] in meta)) { print "missing meta " k[i]; bad = 1 }
		for (i = 1; i <= nv; i++) {
			if (total[var[i]] != want) { print "totals " var[i] " " total[var[i]]; bad = 1 }
			if (last[var[i]] != "1.000000") { print "last percentile " var[i]; bad = 1 }
		}
		n = 0; for (c in cpus) n++
		print "cpus " n
		exit bad
	}' "$1"
}

@test "bench list prints every workload" {
	run ./bench list
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "irqdesc-alloc "* ]]
	[[ "$output" == *"irqdesc-free "* ]]
	[[ "$output" == *"empty "* ]]
}

@test "bench calibrate reports the TSC and per-CPU overhead" {
	run ./bench calibrate
	[ "$status" -eq 0 ]
	[[ "$output" == *"tsc_hz: "* ]]
	[[ "$output" == *"invariant_tsc: "* ]]
	[[ "$output" == *"clocksource: "* ]]
	[[ "$output" == *"median_cycles"* ]]
}

@test "a small run writes a CSV that follows the schema, with per-CPU rows" {
	run ./bench run -q --possible-cpus 64 -n 512 -o "$T/r.csv"
	[ "$status" -eq 0 ]
	[[ "$output" == *"SUMMARY workload=irqdesc-alloc unit=ns "* ]]
	[[ "$output" == *"samples=512/512"* ]]
	run check_csv "$T/r.csv" 512
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "cpus $(nproc)" ]
	[ "$(csv_meta "$T/r.csv" possible_cpus)" = 64 ]
	[ "$(csv_meta "$T/r.csv" partial)" = no ]
	[ -z "$(find "$T" -name '.kstats-bench.*')" ]
}

# the workloads, as bench list names them (one line each, then one
# indented line per variant), before the blank line and the audit's entries
workloads() { ./bench list | awk '/^$/ { exit } !/^ / { print $1 }'; }

# the variants of workload $1, as bench list names them, space-separated
variants() {
	local list

	list=$(./bench list) || return
	awk -v w="$1" '/^$/ { exit } !/^ / { cur = $1; next }
		cur == w { sub(":$", "", $1); printf "%s%s", n++ ? " " : "", $1 }' <<<"$list"
}

@test "every format and workload runs; csv on stdout equals the schema" {
	run workloads
	[ "${#lines[@]}" -ge 4 ]
	for w in "${lines[@]}"; do
		# cgroup-mkdir's default parent must be cgroup2 (workloads.bats mounts its own)
		if [ "$w" = cgroup-mkdir ] && [ "$(stat -f -c %T /sys/fs/cgroup)" != cgroup2fs ]; then
			continue
		fi
		./bench run -q -w "$w" -n 64 -f csv >"$T/$w.csv"
		check_csv "$T/$w.csv" 64 "$(variants "$w")"
	done
	run ./bench run -q -n 64 -f kstats
	[ "$status" -eq 0 ]
	grep -q '^slot .* CPUS ' <<<"$output"
	run ./bench run -q -n 64 -f bars
	[ "$status" -eq 0 ]
	grep -q '^SUMMARY ' <<<"$output"
	run ./bench run -q -n 64 -u cycles --cache cold -m parallel
	[ "$status" -eq 0 ]
	grep -q 'unit=cycles' <<<"$output"
	run ./bench run -q -n 64 --cache remote --irqstat-snapshot --pcpu-unit 64K
	[ "$status" -eq 0 ]
	grep -q 'samples=64/64' <<<"$output"
}

@test "--cpus restricts the workers" {
	./bench run -q -c 0 -n 32 -o "$T/c.csv" >/dev/null
	[ "$(csv_rows "$T/c.csv" bucket variant=old run=all cpu=0 | wc -l)" -ge 1 ]
	[ "$(csv_rows "$T/c.csv" bucket variant=old run=all cpu=1 | wc -l)" -eq 0 ]
	[ "$(csv_meta "$T/c.csv" used_cpus)" = 1 ]
}

@test "an existing output file is replaced whole" {
	echo stale >"$T/o.csv"
	./bench run -q -n 16 -o "$T/o.csv" >/dev/null
	head -1 "$T/o.csv" | grep -qx '# kstats-bench-csv 3'
	[ "$(stat -c %a "$T/o.csv")" = 644 ]
}

@test "--samples 0 exits 2" { bad "--samples: '0' is not an integer in 1..4294967296" run -n 0; }
@test "--samples -5 exits 2" { bad "--samples: '-5'" run --samples -5; }
@test "--samples 2^32+1 exits 2" { bad "--samples: '4294967297'" run -n 4294967297; }
@test "--samples 1x exits 2" { bad "--samples: '1x'" run -n 1x; }
@test "--possible-cpus 0 exits 2" { bad "--possible-cpus: '0' is not an integer in 1..8192" run -p 0; }
@test "--possible-cpus 8193 exits 2" { bad "--possible-cpus: '8193'" run --possible-cpus 8193; }
@test "--possible-cpus below a worker CPU exits 2" {
	[ "$(nproc)" -ge 2 ] || skip "needs two CPUs"
	bad "--possible-cpus: 1 is too few" run -p 1
}
@test "--pcpu-unit 3000 exits 2" { bad "--pcpu-unit: '3000' is not a power of two from 4K to 1G" run --pcpu-unit 3000; }
@test "--pcpu-unit 2K exits 2" { bad "--pcpu-unit: '2K'" run --pcpu-unit 2K; }
@test "--pcpu-unit 2G exits 2" { bad "--pcpu-unit: '2G'" run --pcpu-unit 2G; }
@test "--frac-bits 99 exits 2" { bad "--frac-bits: '99' is not an integer in 0..12" run --frac-bits 99; }
@test "--cache lists the valid names" { bad "--cache: 'warm' is not one of kernel, cold, remote" run --cache warm; }
@test "--mode lists the valid names" { bad "--mode: 'fast' is not one of serial, parallel" run -m fast; }
@test "--unit lists the valid names" { bad "--unit: 'us' is not one of ns, cycles" run -u us; }
@test "--format lists the valid names" { bad "--format: 'yaml' is not one of table, kstats, csv, bars, json" run -f yaml; }
@test "--end-fence lists the valid names" { bad "--end-fence: 'lfence' is not one of sfence, mfence, none" run --end-fence lfence; }
@test "--workload unknown exits 2" { bad "--workload: 'nope' is not a workload" run -w nope; }
@test "--cpus garbage exits 2" { bad "--cpus: 'x-y' is not a CPU list" run --cpus x-y; }
@test "--cpus outside the affinity exits 2" { bad "--cpus: CPU 4000 is not one this process may use" run --cpus 4000; }
@test "--cache remote with --mode parallel exits 2" { bad "--cache remote needs --mode serial" run --cache remote -m parallel; }
@test "-o into a missing directory exits 2 before measuring" { bad "--output: /nonexistent/dir/r.csv: No such file or directory" run -o /nonexistent/dir/r.csv; }
@test "-o onto a directory exits 2" { bad "--output: $BATS_TEST_TMPDIR: Is a directory" run -o "$BATS_TEST_TMPDIR"; }
@test "a stray argument exits 2" { bad "unexpected argument 'extra'" run extra; }
@test "list with an argument exits 2" { bad "unexpected argument 'x'" list x; }
@test "calibrate with a bad option exits 2" { bad "unknown option '--bogus'" calibrate --bogus; }

@test "make install honours PREFIX and DESTDIR" {
	make -s install DESTDIR="$T/root" PREFIX=/opt/ksb >/dev/null
	[ -x "$T/root/opt/ksb/bin/kstats-bench" ]
	run "$T/root/opt/ksb/bin/kstats-bench" --version
	[ "$status" -eq 0 ]
	[[ "$output" == "bench (kstats-bench) "* ]]
	make -s uninstall DESTDIR="$T/root" PREFIX=/opt/ksb
	[ ! -e "$T/root/opt/ksb/bin/kstats-bench" ]
}

@test "--runs: each run's window, involuntary switches and PSI stall, counted by show" {
	# the fake PSI file's total never moves: no stall
	./bench run -q --runs 2 -n 64 -o "$T/r.csv" >/dev/null
	[ "$(csv_meta "$T/r.csv" psi_cpu_some_pct)" = "1:0.00 2:0.00" ]
	[ "$(csv_meta "$T/r.csv" psi_cpu_some_us)" = "1:0 2:0" ]
	[[ "$(csv_meta "$T/r.csv" run_nivcsw)" =~ ^1:[0-9]+\ 2:[0-9]+$ ]]
	[[ "$(csv_meta "$T/r.csv" run_seconds)" =~ ^1:[0-9]+\.[0-9]{2}\ 2:[0-9]+\.[0-9]{2}$ ]]
	run ./bench show "$T/r.csv"
	[ "${lines[-1]}" = "0 of 2 runs disturbed (psi cpu some > 40% of the window)" ]
	run ./bench show -f json "$T/r.csv"
	[ "$(jq -c .runs_disturbed <<<"$output")" = '{"file":{"runs":2,"disturbed":0}}' ]
	# a host without PSI: no stall recorded, show says nothing of it
	KSB_PSI_CPU=/nonexistent/cpu ./bench run -q --runs 2 -n 64 -o "$T/n.csv" >/dev/null
	[ "$(grep -c '^# psi_cpu_some' "$T/n.csv")" -eq 0 ]
	[[ "$(csv_meta "$T/n.csv" run_nivcsw)" =~ ^1:[0-9]+\ 2:[0-9]+$ ]]
	run ./bench show "$T/n.csv"
	[[ "$output" != *"runs disturbed"* ]]
	run ./bench show -f json "$T/n.csv"
	[ "$(jq -c .runs_disturbed <<<"$output")" = null ]
}

@test "compare: how many runs of each side the host's cpu pressure disturbed" {
	./bench run -q --runs 5 -n 64 -o "$T/a.csv" >/dev/null
	./bench run -q --runs 5 -n 64 -o "$T/b.csv" >/dev/null
	sed -i 's/^# psi_cpu_some_pct: .*/# psi_cpu_some_pct: 1:0.50 2:90.00 3:40.01 4:40.00 5:0.00/' "$T/b.csv"
	run --separate-stderr ./bench compare "$T/a.csv" -- "$T/b.csv"
	[ "${lines[-2]}" = "before: 0 of 5 runs disturbed (psi cpu some > 40% of the window)" ]
	[ "${lines[-1]}" = "after: 2 of 5 runs disturbed (psi cpu some > 40% of the window)" ]
	sed -i '/^# psi_cpu_some_pct: /d' "$T/a.csv"
	run --separate-stderr ./bench compare --also table="$T/t.txt" "$T/a.csv" -- "$T/b.csv"
	[ "${lines[-2]}" = "before: runs disturbed: not recorded" ]
	[ "$(tail -1 "$T/t.txt")" = "after: 2 of 5 runs disturbed (psi cpu some > 40% of the window)" ]
	run --separate-stderr ./bench compare -f json "$T/a.csv" -- "$T/b.csv"
	[[ "$output" != *"runs disturbed"* ]]
	# every format that has a place for it carries the count: json, markdown
	[ "$(jq -c .runs_disturbed <<<"$output")" = '{"before":{"runs":0,"disturbed":0},"after":{"runs":5,"disturbed":2}}' ]
	run --separate-stderr ./bench compare -f markdown "$T/a.csv" -- "$T/b.csv"
	[ "${lines[-1]}" = "- after: 2 of 5 runs disturbed (psi cpu some > 40% of the window)" ]
	run --separate-stderr ./bench compare -f kcidb "$T/a.csv" -- "$T/b.csv"
	[ "$(jq -c '.tests[0].misc.runs_disturbed.after' <<<"$output")" = '{"runs":5,"disturbed":2}' ]
	# trend reads through the same loader: its history's count
	run --separate-stderr ./bench trend -f json "$T/a.csv" "$T/b.csv"
	[ "$(jq -c .runs_disturbed <<<"$output")" = '{"history":{"runs":5,"disturbed":2}}' ]
	run --separate-stderr ./bench trend -f markdown "$T/a.csv" "$T/b.csv"
	[ "${lines[-1]}" = "- history: 2 of 5 runs disturbed (psi cpu some > 40% of the window)" ]
	run --separate-stderr ./bench trend -f kcidb "$T/a.csv" "$T/b.csv"
	[ "$(jq -c '.tests[0].misc.runs_disturbed' <<<"$output")" = '{"history":{"runs":5,"disturbed":2}}' ]
	# files that recorded nothing: no field at all
	sed -i '/^# psi_cpu_some_pct: /d' "$T/b.csv"
	run --separate-stderr ./bench compare -f json "$T/a.csv" -- "$T/b.csv"
	[ "$(jq -c .runs_disturbed <<<"$output")" = null ]
}

@test "disturbed runs: each run of the file once, by its last figure; none of another run, none not finite" {
	./bench run -q --runs 2 -n 64 -o "$T/r.csv" >/dev/null
	# run 2 twice, a run 3 and a run 0 the file has not, a figure of nan and of inf
	sed -i 's/^# psi_cpu_some_pct: .*/# psi_cpu_some_pct: 1:50.00 2:1.00 2:60.00 3:90.00 0:99 4:nan/' "$T/r.csv"
	run ./bench show "$T/r.csv"
	[ "${lines[-1]}" = "2 of 2 runs disturbed (psi cpu some > 40% of the window)" ]
	sed -i 's/^# psi_cpu_some_pct: .*/# psi_cpu_some_pct: 1:inf 2:nan/' "$T/r.csv"
	run ./bench show "$T/r.csv"
	[ "${lines[-1]}" = "0 of 0 runs disturbed (psi cpu some > 40% of the window)" ]
	# over files: six runs are six, whatever their lists say
	./bench run -q --runs 6 -n 16 -o "$T/c.csv" >/dev/null
	sed -i 's/^# psi_cpu_some_pct: .*/# psi_cpu_some_pct: 1:99 1:99 2:99 3:0 3:99 4:0 5:0 6:0 7:99 8:99 9:nan 10:inf/' "$T/c.csv"
	run ./bench show -f json "$T/c.csv"
	[ "$(jq -c .runs_disturbed <<<"$output")" = '{"file":{"runs":6,"disturbed":3}}' ]
}

@test "--runs 3: each run's rows, their merge, runs: 3" {
	./bench run -q --runs 3 -n 64 -o "$T/r.csv" >"$T/out"
	[ "$(csv_meta "$T/r.csv" runs)" = 3 ]
	[ "$(csv_meta "$T/r.csv" runs_asked)" = 3 ]
	[ "$(csv_meta "$T/r.csv" partial)" = no ]
	[ "$(csv_meta "$T/r.csv" samples_taken)" = 192/192 ]
	for r in 1 2 3; do
		[ "$(csv_sum "$T/r.csv" samples variant=old run="$r" cpu=all)" -eq 64 ]
	done
	[ "$(csv_sum "$T/r.csv" samples variant=new run=all cpu=all)" -eq 192 ]
	# each run's per-CPU rows are kept while they are few
	[ "$(csv_rows "$T/r.csv" bucket workload=irqdesc-alloc variant=old run=2 cpu=0 | wc -l)" -ge 1 ]
	grep -q '^# per run: the 10% trimmed mean' "$T/out"
	[ "$(grep -c '^[123] ' "$T/out")" -eq 3 ]
	grep -q '^SUMMARY .* samples=192/192 .* partial=no$' "$T/out"
	# bench reads it back: run 2 alone, and the merge
	./bench show -r 2 -v new "$T/r.csv" >"$T/s"
	[ "$(awk 'NR > 2 { n += $2 } END { print n }' "$T/s")" -eq 64 ]
}

@test "--runs: SIGINT keeps the finished runs and the partial one, exit 130" {
	KSB_PROGRESS=1 ./bench run --runs 50 -p 1024 --cache cold -n 3000 -o "$T/p.csv" 2>"$T/err" &
	pid=$!
	# run 1 read back, run 2's child started: this bench's children, no one else's
	wait_for '^bench run: run 2/50$' "$T/err"
	kids=$(pgrep -P "$pid")
	[ -n "$kids" ]
	kill -INT "$pid"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq 130 ]
	[ "$(csv_meta "$T/p.csv" partial)" = yes ]
	[ "$(csv_meta "$T/p.csv" runs_asked)" = 50 ]
	runs=$(csv_meta "$T/p.csv" runs)
	[ "$runs" -ge 1 ] && [ "$runs" -lt 50 ]
	[ "$(csv_rows "$T/p.csv" bucket variant=old run="$runs" cpu=all | wc -l)" -ge 1 ]
	[ "$(find "$T" -name '.kstats-bench.*' | wc -l)" -eq 0 ]
	# no child of ours is left behind
	for k in $kids; do
		run kill -0 "$k"
		[ "$status" -ne 0 ]
	done
}

@test "--runs: a run killed from outside is exit 3 with one line naming it" {
	KSB_PROGRESS=1 ./bench run --runs 5 -p 1024 --cache cold -n 3000 -o "$T/k.csv" 2>"$T/err" &
	pid=$!
	wait_for '^bench run: run 1/5$' "$T/err"
	pkill -KILL -P "$pid"
	rc=0
	wait "$pid" || rc=$?
	cat "$T/err"
	[ "$rc" -eq 3 ]
	grep -qx 'bench run: run [1-5]: killed by signal 9 (Killed)' "$T/err"
	[ ! -e "$T/k.csv" ]
}

@test "--runs with SIGCHLD ignored by whoever started it still waits for its runs" {
	# shellcheck disable=SC2016 # perl's variables, not the shell's
	run timeout 60 perl -e '$SIG{CHLD} = "IGNORE"; exec @ARGV' ./bench run -q --runs 2 -n 64
	[ "$status" -eq 0 ]
	[[ "$output" == *"samples=128/128"* ]]
}

@test "--reference: auto times the loop with --cache cold only, merged rows; on and off force it" {
	./bench run -q -p 16 -n 256 -C cold -o "$T/r.csv" >/dev/null
	[ "$(csv_meta "$T/r.csv" reference)" = '512 cold 4-byte stores 256 KiB apart (4 KiB pages), timed before each old/new pair' ]
	# merged over CPUs only, after the variants' rows
	merged=$(csv_rows "$T/r.csv" bucket variant=reference run=all cpu=all node=-1 | wc -l)
	[ "$merged" -gt 0 ]
	[ "$(csv_rows "$T/r.csv" bucket variant=reference | wc -l)" -eq "$merged" ]
	run ./bench show -v reference "$T/r.csv"
	[ "$status" -eq 0 ]
	# cold with off, and kernel (the default cache) with auto: none
	./bench run -q -p 16 -n 256 -C cold --reference off -o "$T/n.csv" >/dev/null
	./bench run -q -p 16 -n 256 -o "$T/k.csv" >/dev/null
	run grep -c -e ',reference,' -e '^# reference:' "$T/n.csv" "$T/k.csv"
	[ "$output" = "$T/n.csv:0"$'\n'"$T/k.csv:0" ]
	# on: kernel too
	./bench run -q -p 16 -n 256 --reference on -o "$T/o.csv" >/dev/null
	[ -n "$(csv_meta "$T/o.csv" reference)" ]
}

@test "a value given to a flag names it; an ambiguous prefix says so" {
	bad "option '--hugepages' takes no value" run --hugepages=1
	bad "option '--s' is ambiguous: 4 options start so" run --s 5
}

@test "--reference lists the valid names" { bad "--reference: 'yes' is not one of auto, on, off" run --reference yes; }

@test "--runs 2 with every format; bench show of its CSV prints the same, byte for byte" {
	for f in table kstats csv bars json summary; do
		./bench run -q -R 2 -n 64 -f "$f" -o "$T/r-$f.csv" >"$T/out-$f"
		./bench show -f "$f" "$T/r-$f.csv" >"$T/show-$f"
		cmp "$T/out-$f" "$T/show-$f"
	done
	# each format is its own: kstats lines, bars, the CSV, the JSON
	grep -q '^slot .* CPUS 2 ' "$T/out-kstats"
	[ "$(grep -c '^# irqdesc-alloc ' "$T/out-kstats")" -eq 2 ]
	grep -q '^\[.*) *[0-9]* |@*' "$T/out-bars"
	grep -q '^SUMMARY .* samples=128/128 ' "$T/out-bars"
	[ "$(csv_meta "$T/out-csv" runs)" = 2 ]
	[ "$(jq -r .metadata.runs "$T/out-json")" = 2 ]
	cmp "$T/out-csv" "$T/r-csv.csv"
}

@test "--runs 3: SUMMARY's min, max and mean are exact, and bench show prints the same SUMMARY" {
	./bench run -q -R 3 -n 128 -o "$T/r.csv" >"$T/out"
	./bench show "$T/r.csv" >"$T/show"
	grep '^SUMMARY ' "$T/out" >"$T/s1"
	grep '^SUMMARY ' "$T/show" >"$T/s2"
	cmp "$T/s1" "$T/s2"
	# old_max is a sample: the largest of the runs' own max_ns, not a bucket's AVG
	max=$(csv_rows "$T/r.csv" max_ns variant=old run!=all cpu=all | sort -n | tail -1)
	grep -q " old_max=$max " "$T/s1"
}

@test "bench -f summary: the SUMMARY's figures as a table, after each run's figure (run.sh's summary.txt)" {
	run ./bench show -f summary "$F/runs6-480.csv"
	[ "$status" -eq 0 ]
	[ "$output" = "$(cat <<'EOF'
# per run: the 10% trimmed mean, the figure bench compare tests
run            old_tm10            old_samples          new_tm10            new_samples
1                6661.9                    512             181.3                    512
2                6818.9                    512             176.9                    512
3                6978.9                    512             207.5                    512
4                8691.9                    512             193.7                    512
5                6993.0                    512             191.6                    512
6                6852.4                    512             211.3                    512
# spread over the runs (max / min - 1): old 30.5% new 19.5%
kstats-bench irqdesc-alloc: 3072/3072 samples per variant on 2 CPUs, 480 possible (partial: no)
variant        p50_ns       p99_ns       max_ns      mean_ns
old              7167        20479     39327805      54602.1
new               191          895         1627        222.9
speedup (old mean / new mean): 244.99x
EOF
)" ]
	# its figures are the SUMMARY line's
	grep -q '^SUMMARY .* old_p50=7167 old_p99=20479 old_max=39327805 old_mean=54602.1 .* ratio=244.99 samples=3072/3072 ' \
		<(./bench show "$F/runs6-480.csv")
	# one run: no per-run lines; one series: no speedup, its own variant's row
	./bench run -q -n 32 -w syscall-null -f summary >"$T/s.txt"
	[ "$(wc -l <"$T/s.txt")" -eq 3 ]
	[[ "$(sed -n 1p "$T/s.txt")" == "kstats-bench syscall-null: 32 samples per variant on "* ]]
	[[ "$(sed -n 3p "$T/s.txt")" == "syscall "* ]]
}