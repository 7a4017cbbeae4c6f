#!/usr/bin/env bats
# needs: busybox jq
# Counted files: bench vm's counted clock (qemu -icount, unit insn), judged
# by size (lib/results/counted.h) by compare, scale and trend, and never
# with a timed file. tests/fixtures/counted/ holds real boots of
# kernelcheck's 6.12 kernels at 255 possible CPUs, 2 a side (plant-*:
# stock, stock again, and planted with irq_plant_ns=383, about 1% of
# alloc) and a sweep over 64, 128, 255 (stock, patched, percpu), as
# tests/perf/counted-study.sh wrote them.

load common

setup() {
	common_setup
	C=tests/fixtures/counted
}

@test "counted: the fixtures are counted files" {
	for f in "$C"/*.csv; do
		[ "$(csv_meta "$f" unit)" = insn ]
		[ "$(csv_meta "$f" vm_clock)" = counted ]
	done
}

@test "counted: compare catches a 1% plant at 2 boots a side, by size, exit 1" {
	run --separate-stderr ./bench compare "$C/plant-stock.csv" -- "$C/plant-planted.csv"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "kernel-irq-alloc alloc tm10  38.32k insn +-0.12% -> 38.69k insn +-0.00%  +0.96% [+0.90%, +1.02%]  exact n=2+2  regression" ]
	[ "${lines[1]}" = "kernel-irq-alloc free tm10  8.34k insn +-0.00% -> 8.34k insn +-0.00%  +0.00% [+0.00%, +0.00%]  exact n=2+2  ~" ]
	[ "${lines[-1]}" = "COMPARE series=2 regressions=1 improvements=0 not_repeatable=0 stat=tm10 exact spread=0.5% threshold=0.5% verdict=regression unit=insn" ]
	# the host's load is not ruled on: no runs-disturbed lines
	[[ "$output" != *"runs disturbed"* ]]
	run ./bench compare -f csv "$C/plant-stock.csv" -- "$C/plant-planted.csv"
	[ "$(csv_col <(echo "$output") verdict variant=alloc)" = regression ]
	[ "$(csv_col <(echo "$output") before_spread_pct variant=alloc)" = 0.12 ]
}

@test "counted: compare of stock against stock is no flag; a threshold above the change none either" {
	run ./bench compare "$C/plant-stock.csv" -- "$C/plant-again.csv"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "kernel-irq-alloc alloc tm10  38.32k insn +-0.12% -> 38.29k insn +-0.01%  -0.07% [-0.14%, -0.01%]  exact n=2+2  significant, below threshold" ]
	run ./bench compare -t 2 "$C/plant-stock.csv" -- "$C/plant-planted.csv"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == *"  significant, below threshold" ]]
}

@test "counted: a side past --spread is not repeatable, exit 1, whatever the change" {
	run ./bench compare --spread 0.1 "$C/plant-stock.csv" -- "$C/plant-again.csv"
	[ "$status" -eq 1 ]
	[[ "${lines[0]}" == *"  exact n=2+2  not repeatable" ]]
	[[ "$output" == *" not_repeatable=1 "*" spread=0.1% "*" verdict=not-repeatable unit=insn"* ]]
	run ./bench compare -f json --spread 0.1 "$C/plant-stock.csv" -- "$C/plant-again.csv"
	[ "$(jq -r .verdict <<<"$output")" = not-repeatable ]
	[ "$(jq -r '.comparisons[0].verdict' <<<"$output")" = "not repeatable" ]
	[ "$(jq -r .metadata.spread_pct <<<"$output")" = 0.1 ]
	bad "--spread: '0' is not a number > 0 (percent)" compare --spread 0 "$C/plant-stock.csv" "$C/plant-again.csv"
}

@test "counted: compare needs 2 runs a side, never a timed file beside" {
	sed '/^kernel-irq-alloc,[a-z]*,2,/d; s/^# runs: 2$/# runs: 1/' "$C/plant-stock.csv" >"$T/one.csv"
	bad "kernel-irq-alloc alloc: 1 runs before, 2 after; the gate needs at least 2 a side of counted files (bench vm -B 2)" \
		compare "$T/one.csv" "$C/plant-again.csv"
	bad "$C/plant-stock.csv is in insn, tests/fixtures/gate/r480_1.csv in ns: a count of instructions (bench vm --clock counted) and a time (--clock timed, or no VM) cannot be judged together; the files must measure in one unit" \
		compare "$C/plant-stock.csv" tests/fixtures/gate/r480_1.csv
}

@test "counted: scale gives instructions per possible CPU, the patch's -29.7, percpu's regression" {
	run --separate-stderr ./bench scale -s tm10 "$C"/stock-p*.csv -- "$C"/patched-p*.csv
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "kernel-irq-alloc alloc  stock  tm10  +96.46 insn/CPU [+95.5, +98.01]  a=13.74k insn  n=6 p=64..255 (3 counts)  grows  spread 0.14%" ]
	[ "${lines[2]}" = "kernel-irq-alloc alloc  B-A  -29.71 insn/CPU [-31.34, -28.39]  threshold 4.823 insn/CPU (5% of stock)  ok" ]
	# free does not grow: its slope within --flat, 1 instruction a CPU
	[[ "${lines[3]}" == "kernel-irq-alloc free  stock  tm10  "*"  flat  spread 0.01%" ]]
	[ "${lines[5]}" = "kernel-irq-alloc free  B-A  +0.03141 insn/CPU [-1.001, +1.095]  threshold 1 insn/CPU (--flat)  ok" ]
	[ "${lines[-1]}" = "SCALE series=2 grows=2 flat=2 shrinks=0 stat=tm10 A=stock B=patched gated=2 regressions=0 not_repeatable=0 spread=0.5% threshold=5% verdict=ok" ]
	run ./bench scale -s tm10 "$C"/stock-p*.csv -- "$C"/percpu-p*.csv
	[ "$status" -eq 1 ]
	[[ "$output" == *"kernel-irq-alloc alloc  B-A  +1156 insn/CPU ["*"regression"* ]]
	run ./bench scale -s tm10 -f csv "$C"/stock-p*.csv
	[ "$(csv_col <(echo "$output") spread_pct variant=alloc)" = 0.1384 ]
	[ "$(csv_col <(echo "$output") repeats variant=alloc)" = yes ]
	[ "$(csv_col <(echo "$output") threshold variant=free)" = 1 ]
}

@test "counted: a scale gate on a fit past --spread is not repeatable, exit 1" {
	run ./bench scale -s tm10 --spread 0.1 "$C"/stock-p*.csv -- "$C"/patched-p*.csv
	[ "$status" -eq 1 ]
	[[ "$output" == *"  grows  spread 0.14%, not repeatable"* ]]
	[[ "$output" == *"kernel-irq-alloc alloc  B-A  "*"  not repeatable"* ]]
	[[ "${lines[-1]}" == *" not_repeatable=1 spread=0.1% threshold=5% verdict=not-repeatable" ]]
}

@test "counted: trend takes no control, and says why; its spread in two decimals" {
	bad "--control: $C/plant-stock.csv counts instructions (bench vm's counted clock): no runner can move a count, so a control has nothing to take out; judge the subject alone" \
		trend --control "$C/plant-again.csv" "$C/plant-stock.csv"
	run --separate-stderr ./bench trend "$C/plant-stock.csv" "$C/plant-again.csv" "$C/plant-planted.csv"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "kernel-irq-alloc alloc tm10  no change point in 6 runs  38.32k insn +-0.96%" ]
	[[ "${lines[-1]}" == *" min_change=0.5% "* ]]
	[[ "$stderr" != *"no --control"* ]]
}

@test "counted: bench show says what the table's ns are" {
	run ./bench show "$C/plant-stock.csv"
	[ "$status" -eq 0 ]
	[[ "$output" == *"# insn: the guest's instructions, counted by qemu (bench vm --clock counted): its \"ns\" are instructions, not time"* ]]
}
