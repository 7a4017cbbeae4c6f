#!/usr/bin/env bats
# needs: python3 busybox
# bench vm --shard I/N and bench merge, with tests/cli/fake-qemu for qemu:
# the shards cover the plan once, the merge has the unsharded run's
# cells, runs and series, and each refusal; the runner classes that
# compare and scale never pool (lib/results/strata.h).

load common

setup() {
	vm_setup
	# two kernels at two counts, three rounds: 12 boots, 4 a shard
	PLAN=(-B 3 -p "4,8" "A=$IMG" "B=$T/patched/bzImage" -- run -n 16)
}

# shard OUT [OPTIONS]: bench vm of the plan into OUT, quietly
shard() {
	local out=$1
	shift
	run --separate-stderr ./bench vm -q --qemu "$Q" -o "$out" "$@" "${PLAN[@]}"
	echo "stderr: $stderr"
	[ "$status" -eq 0 ]
}

# buckets FILE RUN: the old path's merged buckets of run RUN, every column
buckets() {
	csv_rows "$1" bucket lo_ns hi_ns samples avg_ns percentile sum_ns min_ns max_ns \
		workload=irqdesc-alloc variant=old run="$2" cpu=all
}

# cut_at FILE VARIANT RUN: FILE's lines up to the first row of VARIANT's
# run RUN, the columns read by name: a file cut where those rows begin
cut_at() {
	python3 - "$@" <<-'EOF'
		import sys
		path, variant, run = sys.argv[1:]
		head = None
		for line in open(path):
		    f = line.rstrip("\n").split(",")
		    if head is None and f[:2] == ["workload", "variant"]:
		        head = f
		    elif head and not line.startswith("#") and len(f) == len(head):
		        row = dict(zip(head, f))
		        if row["variant"] == variant and row["run"] == run:
		            break
		    sys.stdout.write(line)
	EOF
}

# labels FILE: the (workload, variant, run, cpu, node) of its series
labels() {
	csv_rows "$1" workload variant run cpu node | sort -u
}

@test "shard: --shard I/N is range-checked, one line each, exit 2" {
	bad "--shard: '4/3' is not I/N with N in 1..1000 and I in 1..N (e.g. 2/3)" \
		vm --qemu "$Q" --shard 4/3 "$IMG" -- run
	bad "--shard: '0/3' is not I/N" vm --qemu "$Q" --shard 0/3 "$IMG" -- run
	bad "--shard: '1/1001' is not I/N" vm --qemu "$Q" --shard 1/1001 "$IMG" -- run
	bad "--shard: '2' is not I/N" vm --qemu "$Q" --shard 2 "$IMG" -- run
	bad "--shard: '1/2x' is not I/N" vm --qemu "$Q" --shard 1/2x "$IMG" -- run
	# numbers that would wrap, a sign on either side: never 1/1
	bad "--shard: '1/4294967297' is not I/N" vm --qemu "$Q" --shard 1/4294967297 "$IMG" -- run
	bad "--shard: '4294967297/4294967297' is not I/N" \
		vm --qemu "$Q" --shard 4294967297/4294967297 "$IMG" -- run
	bad "--shard: '1/+3' is not I/N" vm --qemu "$Q" --shard 1/+3 "$IMG" -- run
	bad "--shard: '+1/3' is not I/N" vm --qemu "$Q" --shard +1/3 "$IMG" -- run
	bad "--shard: '1/ 3' is not I/N" vm --qemu "$Q" --shard "1/ 3" "$IMG" -- run
	bad "--shard 7/7: the plan has 6 boots (-B 3 x 1 kernels x 2 counts): N is 1..6" \
		vm --qemu "$Q" -B 3 -p 4,8 --shard 7/7 "$IMG" -- run
	echo 'true' >"$T/s.sh"
	bad "--shard: an sh command's files are per boot, not merged: run it unsharded" \
		vm --qemu "$Q" --shard 1/2 "$IMG" -- sh "$T/s.sh"
	[ ! -e "$T/out" ]
}

@test "shard: --dry-run lists a shard's boots; whole rounds, the extra ones last" {
	run ./bench vm --dry-run --qemu "$Q" --shard 2/3 "${PLAN[@]}"
	[ "$status" -eq 0 ]
	grep -q '^# plan [0-9a-f]\{64\}: shard 2/3, boots 5-8 of 12$' <<<"$output"
	[ "$(grep '^# boot ' <<<"$output")" = "# boot 5: round 2, B-p8
# boot 6: round 2, A-p8
# boot 7: round 2, B-p4
# boot 8: round 2, A-p4" ]
	# 5 rounds in 3 shards: 1, 2 and 2
	for s in 1:1-4 2:5-12 3:13-20; do
		run ./bench vm --dry-run --qemu "$Q" -B 5 -p 4,8 --shard "${s%%:*}/3" "A=$IMG" \
			"B=$T/patched/bzImage" -- run
		grep -q "shard ${s%%:*}/3, boots ${s#*:} of 20$" <<<"$output"
	done
	# more shards than rounds: the boots cut, 12 in 5 shards
	run ./bench vm --dry-run --qemu "$Q" --shard 5/5 "${PLAN[@]}"
	grep -q "shard 5/5, boots 10-12 of 12$" <<<"$output"
	# unsharded: no plan lines
	run ./bench vm --dry-run --qemu "$Q" "${PLAN[@]}"
	[ "$status" -eq 0 ]
	run grep -c '^# boot ' <<<"$output"
	[ "$output" = 0 ]
}

@test "shard: three shards one after another boot the plan once, in its order" {
	FAKE_QEMU_SWEEP=$T/whole shard "$T/full"
	for i in 1 2 3; do
		FAKE_QEMU_SWEEP=$T/parts shard "$T/s$i" --shard "$i/3"
	done
	[ "$(wc -l <"$T/whole")" -eq 12 ]
	cmp "$T/whole" "$T/parts"
	# each shard's files: the plan, the shard, its boots and its runs
	f=$T/s2/A-p4.csv
	[ "$(csv_meta "$f" vm_shard)" = 2/3 ]
	[ "$(csv_meta "$f" vm_shard_boots)" = "5-8 of 12" ]
	[ "$(csv_meta "$f" vm_plan_runs)" = 2 ]
	[ "$(csv_meta "$f" runs)" = 1 ]
	[ "$(csv_meta "$f" vm_plan)" = "$(csv_meta "$T/full/A-p4.csv" vm_plan)" ]
}

@test "merge: three shards give the unsharded run's cells, runs and series" {
	shard "$T/full"
	for i in 1 2 3; do
		shard "$T/s$i" --shard "$i/3"
	done
	run --separate-stderr ./bench merge -o "$T/m" "$T/s3" "$T/s1" "$T/s2"
	[ "$status" -eq 0 ]
	plan=$(csv_meta "$T/full/A-p4.csv" vm_plan)
	[ "$output" = "MERGE plan=${plan:0:12} shards=3/3 files=4 runs=12 partial=no" ]
	[ "$(cd "$T/full" && ls)" = "$(cd "$T/m" && ls)" ]
	for c in A-p4 A-p8 B-p4 B-p8; do
		[ -n "$(labels "$T/m/$c.csv")" ]
		[ "$(labels "$T/full/$c.csv")" = "$(labels "$T/m/$c.csv")" ]
		for k in runs runs_asked vm_name possible_cpus vm_plan; do
			[ "$(csv_meta "$T/full/$c.csv" "$k")" = "$(csv_meta "$T/m/$c.csv" "$k")" ]
		done
		[ "$(csv_meta "$T/m/$c.csv" vm_boots)" = "$(csv_meta "$T/full/$c.csv" vm_boots)" ]
		[ "$(csv_meta "$T/m/$c.csv" vm_run_shard)" = "1:1/3 2:2/3 3:3/3" ]
		[ "$(csv_meta "$T/m/$c.csv" vm_run_runner)" = "1-3:$(uname -n)" ]
		grep -q '^# vm_run_class: 1-3:counted/' "$T/m/$c.csv"
		grep -q '^# vm_run_testbed: 1-3:[0-9a-f]\{12\}$' "$T/m/$c.csv"
		[ "$(csv_meta "$T/m/$c.csv" vm_shard_boots)" = "1-12 of 12" ]
		[ "$(csv_meta "$T/m/$c.csv" partial)" = no ]
	done
	# each run exact: the merged run 2 is shard 2's run 1, bucket for bucket
	[ -n "$(buckets "$T/m/A-p8.csv" 2)" ]
	[ "$(buckets "$T/m/A-p8.csv" 2)" = "$(buckets "$T/s2/A-p8.csv" 1)" ]
	# the consoles joined in shard order
	cat "$T/s1/A.console" "$T/s2/A.console" "$T/s3/A.console" | cmp - "$T/m/A.console"
	# scale reads the merge as the unsharded files: the same series (their
	# lines' labels, and SCALE's series=; the verdicts are the boots')
	labels_of() { grep -v '^SCALE' <<<"$1" | cut -d' ' -f1-3; grep -o '^SCALE series=[0-9]*' <<<"$1"; }
	run ./bench scale "$T"/m/A-p*.csv -- "$T"/m/B-p*.csv
	[ "$status" -le 1 ]
	merged=$(labels_of "$output")
	run ./bench scale "$T"/full/A-p*.csv -- "$T"/full/B-p*.csv
	[ "$(labels_of "$output")" = "$merged" ]
}

@test "merge: two plans, a shard twice, a shard missing, not a shard, -o a shard: exit 2" {
	for i in 1 2 3; do
		shard "$T/s$i" --shard "$i/3"
	done
	run --separate-stderr ./bench vm -q --qemu "$Q" -o "$T/other" --shard 2/3 -B 3 -p 4,16 \
		"A=$IMG" "B=$T/patched/bzImage" -- run -n 16
	bad "shard 1/3 is given twice: $T/s1 and $T/s1" merge -o "$T/m" "$T/s1" "$T/s1" "$T/s2" "$T/s3"
	bad "is shard 2/3 of plan" merge -o "$T/m" "$T/s1" "$T/other" "$T/s3"
	bad "shards of two plans" merge -o "$T/m" "$T/s1" "$T/other" "$T/s3"
	bad "shard 2/3 of plan" merge -o "$T/m" "$T/s1" "$T/s3"
	bad "is missing (--partial merges without it)" merge -o "$T/m" "$T/s1" "$T/s3"
	bad "-o $T/s1 is the shard directory $T/s1: its files would be replaced" \
		merge -o "$T/s1" "$T/s1" "$T/s2" "$T/s3"
	shard "$T/full"
	bad "$T/full/A-p4.csv: not a shard of a plan (no vm_plan and vm_shard I/N" \
		merge -o "$T/m" "$T/full"
	mkdir "$T/empty"
	bad "$T/empty: no CSV of a shard in it" merge -o "$T/m" "$T/empty"
	bad "no -o DIR: where the merged files go" merge "$T/s1"
	bad "no shard: give the directories of bench vm --shard" merge -o "$T/m"
	[ ! -e "$T/m" ]
	# a shard's two files of two shards
	cp "$T/s2/A-p4.csv" "$T/s1/"
	bad "is shard 1/3 of plan" merge -o "$T/m" "$T/s1" "$T/s2" "$T/s3"
	[ ! -e "$T/m" ]
}

@test "merge --partial: a shard missing, said in every file" {
	for i in 1 3; do
		shard "$T/s$i" --shard "$i/3"
	done
	run --separate-stderr ./bench merge --partial -o "$T/m" "$T/s1" "$T/s3"
	[ "$status" -eq 0 ]
	[[ "$output" == *" shards=2/3 files=4 runs=8 partial=yes" ]]
	f=$T/m/B-p8.csv
	[ "$(csv_meta "$f" partial)" = yes ]
	[ "$(csv_meta "$f" vm_shards_missing)" = 2/3 ]
	[ "$(csv_meta "$f" vm_shard)" = "1/3 3/3" ]
	[ "$(csv_meta "$f" vm_plan_runs)" = "1 3" ]
	[ "$(csv_meta "$f" vm_shard_boots)" = "1-4 9-12 of 12" ]
	[ "$(csv_meta "$f" runs)" = 2 ]
	# and the readers warn of it
	run --separate-stderr ./bench scale "$T"/m/B-p*.csv
	[[ "$stderr" == *"(partial: yes)"* ]]
}

@test "merge: a shard's CSV missing, or a file missing from every shard: exit 2 naming it" {
	for i in 1 2 3; do
		shard "$T/s$i" --shard "$i/3"
	done
	mv "$T/s2/A-p4.csv" "$T/A-p4.csv"
	bad "$T/s2/A-p4.csv is missing: shard 2/3 boots plan run 2 of A-p4.csv's 3 (--partial merges without it)" \
		merge -o "$T/m" "$T/s1" "$T/s2" "$T/s3"
	[ ! -e "$T/m" ]
	# what proves it: the plan's shape, in every shard's files
	[ "$(csv_meta "$T/A-p4.csv" vm_plan_files)" = 4 ]
	[ "$(csv_meta "$T/A-p4.csv" vm_plan_file_runs)" = 3 ]
	# --partial: merged, and every file says the plan is not whole
	run --separate-stderr ./bench merge --partial -o "$T/m" "$T/s1" "$T/s2" "$T/s3"
	[ "$status" -eq 0 ]
	[[ "$output" == *" shards=3/3 files=4 runs=11 partial=yes" ]]
	[ "$(csv_meta "$T/m/A-p4.csv" runs)" = 2 ]
	[ "$(csv_meta "$T/m/A-p4.csv" partial)" = yes ]
	[ "$(csv_meta "$T/m/A-p4.csv" vm_plan_runs_missing)" = 2 ]
	[ "$(csv_meta "$T/m/B-p8.csv" partial)" = yes ]
	[ -z "$(csv_meta "$T/m/B-p8.csv" vm_plan_runs_missing)" ]
	# one file in none of the shards
	mv "$T/A-p4.csv" "$T/s2/"
	rm "$T"/s*/B-p8.csv
	bad "the shards hold 3 CSV files of a plan of 4 (vm_plan_files): one is in none of them (--partial merges without it)" \
		merge -o "$T/m2" "$T/s1" "$T/s2" "$T/s3"
	[ ! -e "$T/m2" ]
}

@test "merge: a shard file cut short, or a vm_plan_runs that folds or invents runs: exit 2" {
	PLAN=(-B 6 -p 4 "$IMG" -- run -n 16)
	for i in 1 2 3; do
		shard "$T/s$i" --shard "$i/3"
	done
	f=$T/s2/stock.csv
	[ "$(csv_meta "$f" vm_plan_runs)" = "3 4" ]
	cp "$f" "$T/keep.csv"
	# cut where the rows of run 2's second variant begin
	cut_at "$T/keep.csv" new 2 >"$f"
	bad "$f: irqdesc-alloc new cpu all: its runs hold 16 samples, their merge 32: rows are missing (a file cut short?)" \
		merge -o "$T/m" "$T/s1" "$T/s2" "$T/s3"
	# cut where run 2's rows begin, its vm_plan_runs told so
	cut_at "$T/keep.csv" old 2 >"$T/cut.csv"
	sed 's/^# vm_plan_runs: 3 4$/# vm_plan_runs: 3/' "$T/cut.csv" >"$f"
	bad "$f: irqdesc-alloc old cpu all: its runs hold 16 samples, their merge 32" \
		merge -o "$T/m" "$T/s1" "$T/s2" "$T/s3"
	# two boots as one run, a run the plan has not
	sed 's/^# vm_plan_runs: 3 4$/# vm_plan_runs: 3 3/' "$T/keep.csv" >"$f"
	bad "$f: vm_plan_runs '3 3' does not name the plan run of each of its 2 runs (each once, in order, in 1..6)" \
		merge -o "$T/m" "$T/s1" "$T/s2" "$T/s3"
	sed 's/^# vm_plan_runs: 3 4$/# vm_plan_runs: 3 99/' "$T/keep.csv" >"$f"
	bad "$f: vm_plan_runs '3 99' does not name the plan run of each of its 2 runs" \
		merge -o "$T/m" "$T/s1" "$T/s2" "$T/s3"
	# a run moved: the one it left is missing
	sed 's/^# vm_plan_runs: 3 4$/# vm_plan_runs: 3 5/' "$T/keep.csv" >"$f"
	bad "plan run 5 is in another shard's file too" merge -o "$T/m" "$T/s1" "$T/s2" "$T/s3"
	sed 's/^# vm_plan_runs: 3 4$/# vm_plan_runs: 2 3/' "$T/keep.csv" >"$f"
	bad "plan run 2 is in another shard's file too" merge -o "$T/m" "$T/s1" "$T/s2" "$T/s3"
	[ ! -e "$T/m" ]
	cp "$T/keep.csv" "$f"
	run --separate-stderr ./bench merge -o "$T/m" "$T/s1" "$T/s2" "$T/s3"
	[ "$status" -eq 0 ]
	[[ "$output" == *" shards=3/3 files=1 runs=6 partial=no" ]]
}

@test "strata: compare and scale refuse runs of two runner classes unless --pool" {
	# timed: a time is its host's (a count is the emulated CPU's, whatever host counted it)
	run --separate-stderr ./bench vm -q --qemu "$Q" --clock timed -o "$T/out" -B 5 -p 4,8 "$IMG" -- run -n 16
	[ "$status" -eq 0 ]
	for p in 4 8; do
		sed 's/^# vm_accel: tcg$/# vm_accel: kvm/' "$T/out/stock-p$p.csv" >"$T/kvm-p$p.csv"
		sed 's/^# vm_host_cpu_model: .*/# vm_host_cpu_model: Other CPU 9000/' \
			"$T/out/stock-p$p.csv" >"$T/other-p$p.csv"
	done
	bad "$T/out/stock-p4.csv ran on tcg/" scale "$T/out/stock-p4.csv" "$T/kvm-p8.csv"
	bad ", $T/kvm-p8.csv on kvm/" scale "$T/out/stock-p4.csv" "$T/kvm-p8.csv"
	bad "runner classes are strata, one fit takes one (fit each apart, or --pool)" \
		scale "$T"/out/stock-p*.csv -- "$T"/other-p*.csv
	bad "$T/other-p4.csv on tcg/Other-CPU-9000" compare "$T/out/stock-p4.csv" "$T/other-p4.csv"
	run ./bench scale --pool "$T/out/stock-p4.csv" "$T/kvm-p8.csv"
	[ "$status" -eq 0 ]
	run ./bench compare --pool "$T/out/stock-p4.csv" "$T/kvm-p4.csv"
	[ "$status" -le 1 ]
	# one class: as before
	run ./bench scale "$T"/out/stock-p*.csv
	[ "$status" -eq 0 ]
	# counted files of two host CPUs are one class: the guest's CPU counted
	run --separate-stderr ./bench vm -q --qemu "$Q" -o "$T/c" -B 2 -p 4,8 "$IMG" -- run -n 16
	[ "$status" -eq 0 ]
	sed 's/^# vm_host_cpu_model: .*/# vm_host_cpu_model: Other CPU 9000/' "$T/c/stock-p8.csv" >"$T/c8.csv"
	run ./bench scale "$T/c/stock-p4.csv" "$T/c8.csv"
	[ "$status" -eq 0 ]
}

@test "strata: --accel kvm is a plan and a class of its own (fake-qemu)" {
	[ -r /dev/kvm ] && [ -w /dev/kvm ] || skip "no usable /dev/kvm to pass bench vm's check"
	run --separate-stderr ./bench vm -q --qemu "$Q" --accel kvm -o "$T/kvm" -B 2 -p 4 "$IMG" -- run -n 16
	[ "$status" -eq 0 ]
	run --separate-stderr ./bench vm -q --qemu "$Q" --clock timed -o "$T/tcg" -B 2 -p 4 "$IMG" -- run -n 16
	[ "$status" -eq 0 ]
	[ "$(csv_meta "$T/kvm/stock.csv" vm_accel)" = kvm ]
	grep -q '^# vm_qemu: .*accel=kvm' "$T/kvm/stock.csv"
	[ "$(csv_meta "$T/kvm/stock.csv" vm_plan)" != "$(csv_meta "$T/tcg/stock.csv" vm_plan)" ]
	bad "runner classes are strata" compare "$T/tcg/stock.csv" "$T/kvm/stock.csv"
}
