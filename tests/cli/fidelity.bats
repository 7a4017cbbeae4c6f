#!/usr/bin/env bats
# needs: -
# Emulation fidelity options of bench run: the per-CPU layout, kstats'
# stamps, disturbed samples and the neighbours packed beside counters.

load common

setup() {
	common_setup
}

@test "defaults: embedded layout, 256K units, fenced stamps, disturbed counted" {
	run ./bench run -q -n 256 -p 64 -o "$T/r.csv"
	[ "$status" -eq 0 ]
	[[ "$(csv_meta "$T/r.csv" pcpu_layout)" == "embedded ("* ]]
	[ "$(csv_meta "$T/r.csv" pcpu_unit)" = 262144 ]
	[ "$(csv_meta "$T/r.csv" pcpu_groups)" -ge 1 ]
	[ "$(csv_meta "$T/r.csv" stamps)" = fenced ]
	[[ "$(csv_meta "$T/r.csv" disturbed)" =~ ^[0-9]+/[0-9]+$ ]]
	[ "$(csv_meta "$T/r.csv" drop_disturbed)" = no ]
	[[ "$(csv_meta "$T/r.csv" disturbed_by)" == "context switches (getrusage)"* ]]
	# kept: every sample is in the histogram
	[ "$(csv_meta "$T/r.csv" samples_taken)" = 256/256 ]
	[[ "$output" =~ " samples=256/256 disturbed="[0-9]+/[0-9]+" cpus=" ]]
}

@test "THP refused: the layout stays embedded and says so" {
	run env KSB_PCPU_NO_THP=1 ./bench run -q -n 64 -p 64 -f csv
	[ "$status" -eq 0 ]
	grep -qx '# pcpu_layout: embedded (4K pages: THP refused)' <<<"$output"
}

@test "--pcpu-layout vmalloc is the 4K-page layout; --pcpu-unit still overrides" {
	run ./bench run -q -n 64 -p 64 --pcpu-layout vmalloc --pcpu-unit 1M -f csv
	[ "$status" -eq 0 ]
	grep -qx '# pcpu_layout: vmalloc (4K pages)' <<<"$output"
	grep -qx '# pcpu_unit: 1048576' <<<"$output"
	run ./bench run -q -n 64 -p 64 --pcpu-unit 64K -f csv
	[ "$status" -eq 0 ]
	grep -qx '# pcpu_unit: 65536' <<<"$output"
	grep -q '^# pcpu_layout: embedded (' <<<"$output"
}

@test "over the huge-page cap, embedded on 4K pages, said in the metadata" {
	run ./bench run -q -n 16 -p 4096 --pcpu-unit 1M -f csv
	[ "$status" -eq 0 ]
	grep -qx '# pcpu_layout: embedded (4K pages: 4096 MiB of units is over the 2048 MiB huge-page cap)' <<<"$output"
}

@test "--stamps kstats is recorded and takes every sample, on every path" {
	for w in irqdesc-alloc irqdesc-free empty; do
		run ./bench run -q -n 128 -p 64 -w "$w" --stamps kstats -f csv
		[ "$status" -eq 0 ]
		grep -qx '# stamps: kstats' <<<"$output"
		grep -qx '# samples_taken: 128/128' <<<"$output"
	done
}

@test "--drop-disturbed: the histogram holds exactly the undisturbed samples" {
	run ./bench run -q -n 512 -p 64 --drop-disturbed -f csv
	[ "$status" -eq 0 ]
	grep -qx '# drop_disturbed: yes' <<<"$output"
	d=$(./bench show --meta disturbed - <<<"$output")
	want="$((512 - ${d%/*}))/$((512 - ${d#*/}))"
	grep -qx "# samples_taken: $want" <<<"$output"
	grep -qx '# partial: no' <<<"$output"
}

@test "neighbours: packed lines recorded; dirtied only in kernel cache, serial" {
	run ./bench run -q -n 64 -p 64 -f csv
	[ "$status" -eq 0 ]
	n=$(./bench show --meta pcpu_neighbours - <<<"$output")
	[ "${n%% lines*}" -gt 0 ]
	workers=$(./bench show --meta used_cpus - <<<"$output")
	if [ "$workers" -gt 1 ]; then
		grep -q '^# pcpu_neighbours: .*other workers dirty their own copy' <<<"$output"
	fi
	run ./bench run -q -n 64 -p 64 -C cold -f csv
	[ "$status" -eq 0 ]
	[ "$(grep -c '^# pcpu_neighbours: .*dirty' <<<"$output")" -eq 0 ]
}

@test "--pcpu-layout and --stamps list the valid names" {
	bad "--pcpu-layout: 'paged' is not one of embedded, vmalloc" run --pcpu-layout paged
	bad "--stamps: 'rdtsc' is not one of fenced, kstats" run --stamps rdtsc
}
