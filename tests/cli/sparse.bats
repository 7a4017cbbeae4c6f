#!/usr/bin/env bats
# needs: -
# irqdesc-sparse: the liburcu lifecycle end to end, its metadata, the
# reconciliation, and its options.

load common

setup() {
	common_setup
}

@test "irqdesc-sparse: RCU lookups, deferred frees, counters that reconcile, old slower" {
	run ./bench run -q -w irqdesc-sparse --possible-cpus 64 -n 4096 --drop-disturbed -o "$T/s.csv"
	[ "$status" -eq 0 ]
	[ "$(csv_meta "$T/s.csv" rcu_lookups)" -gt 0 ]
	[ "$(csv_meta "$T/s.csv" rcu_deferred_frees)" -eq 8192 ]
	[[ "$(csv_meta "$T/s.csv" grace_periods)" =~ ^[1-9][0-9]*\  ]]
	[[ "$(csv_meta "$T/s.csv" counters_reconciled)" == "yes ("* ]]
	[[ "$(csv_meta "$T/s.csv" rcu_flavor)" == memb* ]]
	# old (with the clear over 64 possible CPUs) slower than new: the
	# medians of the undisturbed samples, which one preemption cannot
	# flip as it can a mean
	awk '/^SUMMARY/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		exit !(v["old_p50"] > v["new_p50"]) }' <<<"$output"
	ldd ./bench | grep -q liburcu-memb
	ldd ./bench | grep -q liburcu-cds
}

@test "irqdesc-sparse: --irq-threads, --irq-rate and --live-irqs reach the metadata" {
	./bench run -q -w irqdesc-sparse -p 16 -n 256 --irq-threads 3 --irq-rate 2000 --live-irqs 8 -o "$T/s.csv" >/dev/null
	[ "$(csv_meta "$T/s.csv" irq_threads)" -eq 3 ]
	[ "$(csv_meta "$T/s.csv" live_irqs)" -eq 8 ]
	[[ "$(csv_meta "$T/s.csv" irq_rate_achieved)" == *"(asked 2000,"* ]]
	[[ "$(csv_meta "$T/s.csv" counters_reconciled)" == "yes ("* ]]
}

@test "irqdesc-sparse: --cache remote is refused with the reason" {
	bad "--cache remote: irqdesc-sparse's interrupt threads already leave the counters dirty" \
		run -w irqdesc-sparse --cache remote
}

@test "irqdesc-sparse: more interrupt threads than possible CPUs exits 2" {
	bad "--irq-threads: 9 is more than the 8 possible CPUs" run -w irqdesc-sparse -p 8 --irq-threads 9
}

@test "irqdesc-sparse: its options with another workload exit 2, naming who takes them" {
	bad "--irq-rate: only -w irqdesc-sparse takes it, not irqdesc-alloc" run --irq-rate 5
	bad "--live-irqs: only -w irqdesc-sparse takes it, not irqdesc-free" \
		run --live-irqs 8 -w irqdesc-free
	# a table the irqdesc-* workloads share: every one of them named
	bad "--irqstat-snapshot: only -w irqdesc-alloc, irqdesc-free, irqdesc-sparse take it, not empty" \
		run --irqstat-snapshot -w empty
}

@test "--irqstat-snapshot: the irqdesc workloads' 8-byte counters, their neighbours of that size" {
	run --separate-stderr ./bench run -q -n 64 -p 16 -w irqdesc-free --irqstat-snapshot -f csv
	[ "$status" -eq 0 ]
	grep -qx '# irqstat_bytes: 8' <<<"$output"
	grep -q '^# pcpu_neighbours: [1-9][0-9]* lines of live 8-byte counters' <<<"$output"
	run --separate-stderr ./bench run -q -n 64 -p 16 -w empty -f csv
	[ "$status" -eq 0 ]
	grep -qx '# pcpu_neighbours: none: empty has no per-CPU object' <<<"$output"
	[ "$(grep -c '^# irqstat_bytes:' <<<"$output")" -eq 0 ]
}

@test "irqdesc-sparse: the sparse options are listed under their heading in run --help" {
	run ./bench run --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"  irqdesc-sparse only:"$'\n'"      --irq-threads N"* ]]
}

@test "irqdesc-sparse: --live-irqs 0 and --irq-rate -1 exit 2" {
	bad "--live-irqs: '0' is not an integer in 1..65536" run --live-irqs 0
	bad "--irq-rate: '-1'" run --irq-rate -1
}
