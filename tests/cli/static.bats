#!/usr/bin/env bats
# needs: -
# make static: ./bench-static has no shared libraries and answers as ./bench.

load common

setup() {
	common_setup
}

@test "bench-static is statically linked" {
	run ldd ./bench-static
	[[ "$output" == *"not a dynamic executable"* ]]
	run readelf -d ./bench-static
	[[ "$output" == *"There is no dynamic section"* ]]
	run readelf -l ./bench-static
	[ "$status" -eq 0 ]
	[[ "$output" != *"Requesting program interpreter"* ]]
}

@test "bench-static reproduces the patch table, and every hist format of bench" {
	./bench-static hist "$F/patch_samples.txt" >"$T/t"
	cmp "$T/t" "$F/patch_table.txt"
	for f in kstats csv bars json; do
		./bench-static hist -f "$f" "$F/patch_samples.txt" >"$T/s"
		./bench hist -f "$f" "$F/patch_samples.txt" >"$T/d"
		cmp "$T/d" "$T/s"
	done
}

@test "bench-static has the same commands, help and exit codes" {
	[ "$(./bench-static --list-cmds)" = "$(./bench --list-cmds)" ]
	for c in "" $(./bench --list-cmds); do
		./bench-static ${c:+"$c"} --help >"$T/s"
		./bench ${c:+"$c"} --help >"$T/d"
		cmp "$T/d" "$T/s"
	done
	./bench-static list | cmp - <(./bench list)
	run ./bench-static hist -b 13
	[ "$status" -eq 2 ]
	run ./bench-static compare "$F/runs6-480.csv" "$F/runs6-576.csv"
	[ "$status" -eq 1 ]
	[ "$output" = "$(./bench compare "$F/runs6-480.csv" "$F/runs6-576.csv")" ]
}

@test "bench-static runs bench run -n 64 and writes a CSV bench reads" {
	run ./bench-static run -q -n 64 -o "$T/r.csv"
	[ "$status" -eq 0 ]
	[[ "$output" == *"SUMMARY workload=irqdesc-alloc "*" samples=64/64 "*" partial=no"* ]]
	[ "$(csv_meta "$T/r.csv" samples_per_variant)" = 64 ]
	[ "$(csv_meta "$T/r.csv" numa)" = libnuma ]
	run ./bench show -v new "$T/r.csv"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == BUCKET* ]]
	run ./bench-static run -q -n 64 -w irqdesc-sparse
	[ "$status" -eq 0 ]
	[[ "$output" == *"samples=64/64"* ]]
}
