#!/usr/bin/env bats
# needs: -
# The bad-input battery: every case must exit 2 with exactly one line on
# stderr that names what is wrong, and nothing may crash. CSV and sample
# files are mutated from the fixtures.

load common

setup() {
	common_setup
	GOOD=$F/aa-before.csv
}


# csv_case WANT AWK-PROGRAM: the fixture through awk, then compare it
csv_case() {
	awk "$2" "$GOOD" >"$T/bad.csv"
	bad "$1" compare "$GOOD" "$T/bad.csv"
}

# set_field WANT ROW FIELD VALUE: field FIELD of the ROWth data row
set_field() {
	awk -v row="$2" -v f="$3" -v val="$4" 'BEGIN { FS = OFS = "," }
		/^workload,/ { h = 1; print; next }
		h && ++r == row { if (val == "DROP") NF = f - 1; else $f = val }
		{ print }' "$GOOD" >"$T/bad.csv"
	bad "$1" compare "$GOOD" "$T/bad.csv"
}

@test "csv: missing magic line" { csv_case "bad.csv:1: not a kstats-bench CSV" 'NR > 1'; }
@test "csv: empty file" { : >"$T/e.csv"; bad "e.csv: no column header" compare "$GOOD" "$T/e.csv"; }
@test "csv: metadata only, truncated before the header" { csv_case "no column header (empty or truncated file)" '/^#/'; }
@test "csv: header but no rows" {
	csv_case "bad.csv: no rows" '/^#/ || !h { print; if (!/^#/) h = 1 }'
}
@test "csv: truncated in the middle of a row" {
	head -c 3000 "$GOOD" >"$T/t.csv"
	bad "t.csv:" compare "$GOOD" "$T/t.csv"
}
@test "csv: truncated after whole rows (percentiles no longer reach 1)" {
	head -n 50 "$GOOD" >"$T/t.csv"
	bad "is not the cumulative" compare "$GOOD" "$T/t.csv"
}
@test "csv: binary file" { bad "bench:1: binary data (NUL byte)" compare "$GOOD" ./bench; }
@test "csv: NUL byte in a row" {
	{ sed -n '1,/^workload,/p' "$GOOD"; printf 'irq\0desc,old,all,-1,49,10240,12288,1,11000,1.000000\n'; } >"$T/nul.csv"
	bad "binary data (NUL byte)" compare "$GOOD" "$T/nul.csv"
}
@test "csv: wrong column header" { csv_case "expected the column header" '{ sub(/^workload,/, "wl,") } 1'; }
@test "csv: a row with 9 columns" { set_field "9 columns, expected 10" 3 10 DROP; }
@test "csv: a row with 11 columns" { set_field "more than 10 columns" 2 11 x; }
@test "csv: samples above 2^64-1" { set_field "samples: '99999999999999999999'" 1 8 "99999999999999999999"; }
@test "csv: negative samples" { set_field "samples: '-5' is not a non-negative integer" 1 8 "-5"; }
@test "csv: zero samples" { set_field "samples: 0 (empty buckets are not written)" 1 8 "0"; }
@test "csv: inconsistent percentile" { set_field "is not the cumulative" 2 10 "0.500000"; }
@test "csv: malformed percentile" { set_field "percentile '0.5' is not 0.dddddd" 2 10 "0.5"; }
@test "csv: percentile above 1" { set_field "percentile '1.500000'" 2 10 "1.500000"; }
@test "csv: mixed frac_bits lines" {
	csv_case "mixed frac_bits: 3 after 2" '{ print } /^# frac_bits:/ { print "# frac_bits: 3" }'
}
@test "csv: bounds of another frac_bits" { set_field "(mixed frac_bits?)" 1 6 "12345"; }
@test "csv: frac_bits out of range" {
	csv_case "frac_bits: '13' is not 0..12" '{ sub(/^# frac_bits: 2$/, "# frac_bits: 13") } 1'
}
@test "csv: possible_cpus not a count 1..NR_CPUS_MAX, refused by every reader" {
	csv_case "bad.csv: possible_cpus '8193' is not a count 1..8192" '{ sub(/^# possible_cpus: .*/, "# possible_cpus: 8193") } 1'
	csv_case "bad.csv: possible_cpus '0' is not a count 1..8192" '{ sub(/^# possible_cpus: .*/, "# possible_cpus: 0") } 1'
	bad "bad.csv: possible_cpus '0' is not a count 1..8192" show "$T/bad.csv"
	bad "bad.csv: possible_cpus '0' is not a count 1..8192" trend "$GOOD" "$T/bad.csv"
}
@test "csv: no frac_bits line" { csv_case "no '# frac_bits: B' line before the rows" '!/^# frac_bits:/'; }
@test "csv: bucket that does not exist" { set_field "bucket 999 does not exist for frac_bits 2" 1 5 "999"; }
@test "csv: bucket not a number" { set_field "bucket: 'x'" 1 5 "x"; }
@test "csv: avg outside its bucket" { set_field "avg_ns 1 is outside bucket" 1 9 "1"; }
@test "csv: buckets out of order" {
	awk 'BEGIN { FS = OFS = "," } /^workload/ { h = 1; print; next } h && ++r == 1 { held = $0; next } { print } h && r == 2 { print held }' "$GOOD" >"$T/bad.csv"
	bad "does not ascend" compare "$GOOD" "$T/bad.csv"
}
@test "csv: cpu not a number" { set_field "cpu: 'x' is not 'all' or 0..8191" 1 3 x; }
@test "csv: cpu all on a node" { set_field "cpu 'all' must have node -1" 1 4 "0"; }
@test "csv: workload name with spaces" { set_field "workload and variant must be short" 1 1 "irq desc"; }
@test "csv: a line of 5000 bytes" {
	csv_case "line longer than 4096 bytes" '{ print } /^# host/ { s = sprintf("%5000s", ""); gsub(/ /, "x", s); print "# note: " s }'
}
@test "csv: a directory" { bad "$F: Is a directory" compare "$GOOD" "$F"; }
@test "csv: a missing file" { bad "/nonexistent.csv: No such file or directory" compare /nonexistent.csv "$GOOD"; }
@test "compare: units differ" {
	sed 's/^# unit: ns$/# unit: cycles/' "$GOOD" >"$T/cy.csv"
	bad "is in ns, $T/cy.csv in cycles" compare "$GOOD" "$T/cy.csv"
}
@test "compare: a series on one side only" {
	sed 's/^irqdesc-alloc,/other,/' "$GOOD" >"$T/o.csv"
	bad "irqdesc-alloc old is in the BEFORE files only" compare "$GOOD" "$T/o.csv"
}
@test "compare: the after side lost a variant" {
	awk -F, -v v="$(csv_index "$GOOD" variant)" '$v != "new"' "$GOOD" >"$T/o.csv"
	bad "irqdesc-alloc new is in the BEFORE files only" compare "$GOOD" "$T/o.csv"
}
@test "compare: fewer than 5 runs a side" {
	bad "irqdesc-alloc old: 1 runs before, 1 after; the gate needs at least 5 a side (bench run --runs 6)" compare "$GOOD" "$GOOD"
}
@test "compare -f lkp: a refusal after a testbed difference is one line, no warning" {
	sed 's/^# possible_cpus: .*/# possible_cpus: 7/' "$GOOD" >"$T/other.csv"
	bad "1 runs before, 1 after; the gate needs at least 5 a side" compare -f lkp "$GOOD" "$T/other.csv"
}
@test "compare: 4 runs before, 5 after" {
	local i
	for i in 1 2 3 4 5; do cp "$GOOD" "$T/$i.csv"; done
	bad ": 4 runs before, 5 after;" compare "$T"/[1-4].csv -- "$T"/[1-5].csv
}
@test "compare: one file" { bad "needs BEFORE.csv AFTER.csv, or BEFORE.csv... -- AFTER.csv..." compare "$GOOD"; }
@test "compare: three files without --" { bad "needs BEFORE.csv AFTER.csv" compare "$GOOD" "$GOOD" "$GOOD"; }
@test "compare: '--' twice" { bad "'--' twice" compare "$GOOD" -- "$GOOD" -- "$GOOD"; }
@test "compare: no AFTER files" { bad "no AFTER files" compare "$GOOD" --; }
@test "compare: no BEFORE files" { bad "no BEFORE files" compare -a 0.1 -- "$GOOD"; }
@test "compare --threshold 0" { bad "--threshold: '0' is not a number > 0" compare -t 0 "$GOOD" "$GOOD"; }
@test "compare --threshold -5" { bad "--threshold: '-5'" compare --threshold -5 "$GOOD" "$GOOD"; }
@test "compare --threshold abc" { bad "--threshold: 'abc'" compare -t abc "$GOOD" "$GOOD"; }
@test "compare --threshold inf" { bad "--threshold: 'inf'" compare -t inf "$GOOD" "$GOOD"; }
@test "compare --alpha 0" { bad "--alpha: '0' is not a number in (0,1)" compare -a 0 "$GOOD" "$GOOD"; }
@test "compare --alpha 1" { bad "--alpha: '1' is not a number in (0,1)" compare --alpha 1 "$GOOD" "$GOOD"; }
@test "compare --alpha 0.5x" { bad "--alpha: '0.5x'" compare -a 0.5x "$GOOD" "$GOOD"; }
@test "compare --stat lists the valid names" { bad "--stat: 'p95' is not one of tm10, median, mean, p90, p99" compare -s p95 "$GOOD" "$GOOD"; }
@test "compare --format lists the valid names" { bad "--format: 'xml' is not one of table, csv" compare -f xml "$GOOD" "$GOOD"; }
@test "compare: unknown option" { bad "unknown option '--gate'" compare --gate "$GOOD" "$GOOD"; }
@test "show: no such variant" { bad "no rows for workload irqdesc-alloc, variant mid, run all, cpu all" show -v mid "$GOOD"; }
@test "show: no such run" { bad "no rows for workload irqdesc-alloc, variant old, run 7, cpu all" show -r 7 "$F/runs6-480.csv"; }
@test "show: --run 0" { bad "--run: '0' is not an integer in 1..1000" show -r 0 "$GOOD"; }
@test "run: --runs 0" { bad "--runs: '0' is not an integer in 1..1000" run --runs 0; }
@test "run: --runs 1001" { bad "--runs: '1001' is not an integer in 1..1000" run -R 1001; }
@test "csv: format 2 run not a number" {
	awk 'BEGIN { FS = OFS = "," } /^workload,/ { h = 1; print; next } h && ++r == 1 { $3 = "x" } { print }' "$F/runs6-480.csv" >"$T/bad.csv"
	bad "run: 'x' is not 'all' or 1..1000" show "$T/bad.csv"
}
@test "csv: format 2 with 10 columns" {
	awk 'BEGIN { FS = OFS = "," } /^workload,/ { h = 1; print; next } h && ++r == 1 { NF = 10 } { print }' "$F/runs6-480.csv" >"$T/bad.csv"
	bad "10 columns, expected 11" show "$T/bad.csv"
}
@test "show: --cpu abc" { bad "--cpu: 'abc' is not an integer in 0..8191" show -c abc "$GOOD"; }
@test "show: no file" { bad "needs exactly one CSV file" show; }
@test "hist: a line with two numbers" { bad "<stdin>:2: not a non-negative decimal integer" hist - <<<$'1\n1 2'; }
@test "hist: a plus sign" { bad "<stdin>:1: not a non-negative decimal integer" hist <<<"+5"; }
@test "hist: hexadecimal" { bad "<stdin>:1: not a non-negative decimal integer" hist <<<"0x10"; }
@test "hist: a float" { bad "<stdin>:1: not a non-negative decimal integer" hist <<<"2.5e3"; }
@test "hist: 30 digits" { bad "<stdin>:1: value above 2^64-1" hist <<<"123456789012345678901234567890"; }
@test "run: --samples with a suffix" { bad "--samples: '8k'" run -n 8k; }
@test "run: --possible-cpus empty" { bad "--possible-cpus: ''" run --possible-cpus ""; }
@test "run: --pcpu-unit not a power of two" { bad "--pcpu-unit: '12K' is not a power of two" run --pcpu-unit 12K; }
@test "run: --cpus an empty list" { bad "--cpus: '' is not a CPU list" run --cpus ""; }
@test "run: --cpus with a CPU above NR_CPUS" { bad "--cpus: CPU 9000 is above the limit of 8192 CPUs" run --cpus 0,9000; }
@test "run: --cpus with a range, then a CPU at NR_CPUS" { bad "--cpus: CPU 8192 is above the limit of 8192 CPUs" run --cpus 0-1,8192; }
@test "run: --output with an empty name" { bad "--output: : Is a directory" run -o ""; }

# ---- unbounded input: every line-oriented reader stops at its limit ----
# (under a memory limit: a reader without one would grow until it runs out)

@test "audit: a battery of /dev/zero is a line too long, exit 2 at once" {
	ulimit -v 1048576
	bad "--battery: /dev/zero:1: a line of more than 511 bytes" audit --dry-run -b /dev/zero
	bad "--battery: /dev/zero:1: a line of more than 511 bytes" audit -q --no-builtin -b /dev/zero
	head -c 600 /dev/zero | tr '\0' x >"$T/long.bat"
	bad "--battery: $T/long.bat:1: a line of more than 511 bytes" audit --dry-run -b "$T/long.bat"
}
@test "csv: /dev/zero as a results file is a line too long, exit 2 at once" {
	ulimit -v 1048576
	bad "/dev/zero:1: line longer than 4096 bytes" show /dev/zero
	bad "/dev/zero:1: line longer than 4096 bytes" compare "$GOOD" /dev/zero
	bad "/dev/zero:1: line longer than 4096 bytes" trend /dev/zero
}
@test "hist: /dev/zero and a line of 5000 digits are a line too long, exit 2 at once" {
	ulimit -v 1048576
	bad "/dev/zero:1: a line longer than 4096 bytes, expected one integer per line" hist /dev/zero
	head -c 5000 /dev/zero | tr '\0' 1 >"$T/long"
	bad "$T/long:1: a line longer than 4096 bytes" hist "$T/long"
}

# ---- completion's words: what is missing or extra is named ----

@test "--list-values, --list-arg, --list-opts: a word missing or one too many is named" {
	bad "--list-values scale: no OPTION (--list-values COMMAND OPTION)" --list-values scale
	bad "--list-values: no COMMAND OPTION (--list-values COMMAND OPTION)" --list-values
	bad "--list-values scale --stat: 'extra' is one word too many (--list-values COMMAND OPTION)" \
		--list-values scale --stat extra
	bad "--list-arg run: no OPTION" --list-arg run
	bad "--list-opts: no COMMAND (--list-opts COMMAND)" --list-opts
	bad "--list-opts scale: 'x' is one word too many" --list-opts scale x
	bad "--list-cmds: 'x' is one word too many" --list-cmds x
	bad "bench scale: --list-values: no OPTION (--list-values OPTION)" scale --list-values
	bad "bench scale: --list-values --stat: 'x' is one word too many" scale --list-values --stat x
	bad "bench scale: --list-opts: 'x' is one word too many" scale --list-opts x
	bad "bench trend: --list-arg: no OPTION" trend --list-arg
	# the right words: as before
	[ "$(./bench --list-values scale --stat)" = "$(./bench scale --list-values --stat)" ]
	[ -n "$(./bench --list-values scale --stat)" ]
}
