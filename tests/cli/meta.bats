#!/usr/bin/env bats
# needs: -
# bench show --meta KEY FILE: a file's metadata read by the binary, its
# value checked by the keys' table (lib/results/metakeys.c), what the
# scripts read metadata by (tests/lib.sh's csv_meta, run.sh, the plots).

load common

setup() {
	common_setup
}

@test "show --meta: the value alone, of a results file, of stdin, of a report's CSV" {
	run --separate-stderr ./bench show --meta possible_cpus "$F/runs6-480.csv"
	[ "$status" -eq 0 ]
	[ "$output" = 480 ]
	[ -z "$stderr" ]
	[ "$(./bench show --meta variant_old - <"$F/runs6-480.csv")" = "desc_set_defaults() with the for_each_possible_cpu kstat_irqs clear" ]
	# the "# unit:" line that opens compare's CSV reports
	./bench compare --also cdf="$T/cdf.csv" "$F/runs6-480.csv" "$F/runs6-480.csv" >/dev/null
	[ "$(./bench show --meta unit "$T/cdf.csv")" = ns ]
	# a key the table lacks (a workload's own figure) is read as it is
	printf '# kstats-bench-csv 3\n# counters_reconciled: yes\n' >"$T/m.csv"
	[ "$(./bench show --meta counters_reconciled "$T/m.csv")" = yes ]
	# csv_meta, the tests' reader, is it
	[ "$(csv_meta "$F/runs6-480.csv" runs)" = 6 ]
}

@test "show --meta: absent, refused by the table, not a key: exit 2, one line naming file and key" {
	bad "$F/runs6-480.csv: no vm_name metadata" show --meta vm_name "$F/runs6-480.csv"
	bad "$F/scale/badpossible.csv: possible_cpus 'many' is not a count 1..8192" \
		show --meta possible_cpus "$F/scale/badpossible.csv"
	sed 's/^# runs: 6$/# runs: 1001/' "$F/runs6-480.csv" >"$T/r.csv"
	bad "$T/r.csv: runs '1001' is not a count 1..1000" show --meta runs "$T/r.csv"
	sed 's/^# partial: no$/# partial: perhaps/' "$F/runs6-480.csv" >"$T/p.csv"
	bad "$T/p.csv: partial 'perhaps' is not yes or no" show --meta partial "$T/p.csv"
	bad "--meta: 'Runs' is not a metadata key" show --meta Runs "$F/runs6-480.csv"
	bad "--meta prints one value" show --meta runs -v old "$F/runs6-480.csv"
	bad "/nonexistent.csv: No such file or directory" show --meta runs /nonexistent.csv
	# the metadata lines are read as the results reader reads them
	printf '# kstats-bench-csv 3\n# unit: ns\n# unit: cycles\n' >"$T/two.csv"
	bad "$T/two.csv:3: unit given twice" show --meta unit "$T/two.csv"
}
