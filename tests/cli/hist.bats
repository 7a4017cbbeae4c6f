#!/usr/bin/env bats
# needs: -
# bench hist and the top-level command line: outputs and every exit code.

load common

setup() {
	common_setup
}


@test "hist reproduces the patch table byte for byte" {
	./bench hist "$F/patch_samples.txt" >"$T/table.txt"
	cmp "$T/table.txt" "$F/patch_table.txt"
}

@test "hist reads stdin with - and with no file" {
	./bench hist - <"$F/patch_samples.txt" >"$T/dash.txt"
	cmp "$T/dash.txt" "$F/patch_table.txt"
	./bench hist <"$F/patch_samples.txt" >"$T/stdin.txt"
	cmp "$T/stdin.txt" "$F/patch_table.txt"
}

@test "hist ignores blank lines, spaces and CRLF" {
	sed 's/$/\r/; 0~100s/^/  \n/' "$F/patch_samples.txt" >"$T/crlf.txt"
	./bench hist "$T/crlf.txt" >"$T/table.txt"
	cmp "$T/table.txt" "$F/patch_table.txt"
}

@test "hist --format kstats prints kstats lines with the merged CPU count" {
	run ./bench hist --format kstats "$F/patch_samples.txt"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "slot 40   CPUS 1    count        3  avg     2432  p 0.000366  n        3" ]
	[ "${lines[16]}" = "slot 56   CPUS 1    count        2  avg    37253  p 1.000000  n     8192" ]
}

@test "hist --format csv follows the schema" {
	run ./bench hist -f csv "$F/patch_samples.txt"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "# kstats-bench-csv 3" ]
	[[ "$output" == *"# frac_bits: 2"* ]]
	grep -qx 'workload,variant,run,cpu,node,bucket,lo_ns,hi_ns,samples,avg_ns,percentile,sum_ns,min_ns,max_ns' <<<"$output"
	grep -qx 'hist,input,all,all,-1,49,10240,12288,2214,11493,0.729125,25445502,2432,37253' <<<"$output"
	[ "$(grep -c '^hist,' <<<"$output")" -eq 17 ]
}

@test "hist --format bars labels buckets with their bounds" {
	run ./bench hist -f bars "$F/patch_samples.txt"
	[ "$status" -eq 0 ]
	[[ "${lines[9]}" == "[10K, 12K)               2214 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|" ]]
	[[ "${lines[0]}" == "[2K, 2.5K) "* ]]
}

@test "hist --frac-bits 0 and 12 take the whole 64-bit range" {
	printf '0\n18446744073709551615\n' >"$T/edge.txt"
	run ./bench hist -b 0 "$T/edge.txt"
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "  0           1            0   0.500000" ]
	# %13lu is the patch's width: a 20-digit AVG runs into SAMPLES, as in kstats
	[ "${lines[2]}" = " 64           118446744073709551615   1.000000" ]
	run ./bench hist --frac-bits 12 "$T/edge.txt"
	[ "$status" -eq 0 ]
	[[ "${lines[2]}" == "217087"* ]]
}

@test "--help and --version go to stdout and exit 0" {
	run ./bench --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"hist "* ]]
	run ./bench hist --help
	[ "$status" -eq 0 ]
	[[ "$output" == "Usage: bench hist"* ]]
	run ./bench --version
	[ "$status" -eq 0 ]
	[[ "$output" == "bench (kstats-bench) "* ]]
}

@test "no command: usage on stderr, exit 2" {
	run --separate-stderr ./bench
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"Usage: bench"* ]]
}

@test "unknown command exits 2" { bad "'nosuch' is not a command" nosuch; }
@test "unknown top-level option exits 2" { bad "'--bogus' is not a command" --bogus; }
@test "unknown hist option exits 2" { bad "unknown option '--bogus'" hist --bogus; }
@test "--frac-bits without a value exits 2" { bad "'--frac-bits' needs a value" hist --frac-bits; }
@test "--frac-bits 13 exits 2 and states the range" { bad "--frac-bits: '13' is not an integer in 0..12" hist -b 13 "$F/patch_samples.txt"; }
@test "--frac-bits -1 exits 2" { bad "--frac-bits: '-1'" hist -b -1; }
@test "--frac-bits abc exits 2" { bad "--frac-bits: 'abc'" hist --frac-bits abc; }
@test "--format unknown lists the valid names" { bad "--format: 'yaml' is not one of table, kstats, csv, bars, json" hist -f yaml; }
@test "two input files exit 2" { bad "one input file at most" hist "$F/patch_samples.txt" "$F/patch_samples.txt"; }
@test "missing file exits 2 naming it" { bad "/nonexistent: No such file or directory" hist /nonexistent; }
@test "a directory exits 2 naming it" { bad "$F:1: Is a directory" hist "$F"; }

@test "unreadable file exits 2" {
	[ "$(id -u)" -ne 0 ] || skip "root reads mode-000 files"
	echo 1 >"$T/secret" && chmod 000 "$T/secret"
	bad "Permission denied" hist "$T/secret"
}

@test "malformed number names file and line" {
	printf '1\n2\n\n12abc\n' >"$T/m.txt"
	bad "$T/m.txt:4: not a non-negative decimal integer" hist "$T/m.txt"
}

@test "negative value names file and line" {
	printf '5\n-3\n' >"$T/n.txt"
	bad "$T/n.txt:2: negative value" hist "$T/n.txt"
}

@test "value above 2^64-1 names file and line" {
	printf '18446744073709551616\n' >"$T/big.txt"
	bad "$T/big.txt:1: value above 2^64-1" hist "$T/big.txt"
}

@test "binary data names the line" {
	printf '1\n2\n\0\001\n' >"$T/bin.txt"
	bad "$T/bin.txt:3: binary data" hist "$T/bin.txt"
}

@test "bad line on stdin is reported as <stdin>" {
	bad "<stdin>:1: not a non-negative decimal integer" hist - <<<"1.5"
}
