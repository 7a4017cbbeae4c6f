#!/usr/bin/env bats
# needs: python3 gfm
# bench scale on an audit: bench audit's sweep (tests/cli/synth_audit.py
# writes one: proc-stat grows 1500 ns per possible CPU, 81% of it in
# show_stat, twelve entries flat, io-uring skipped) ranked by the cost at
# 8192 possible CPUs, the multiplicity's adjusted level, the attribution,
# the gate on a plant (mount-tmpfs +40 ns/CPU, alloc_vfsmnt's), the
# formats and bad input; and a counted sweep with the plugin's functions
# (synth_audit.py plugin), each growing entry carried by its functions.

load common

setup() {
	common_setup
	python3 tests/cli/synth_audit.py "$T/a" stock 1 0
	python3 tests/cli/synth_audit.py "$T/b" plant 2 1
	A=("$T"/a/*.csv)
	B=("$T"/b/*.csv)
}

@test "audit: ranked by the cost at 8192, BH's level, show_stat carries the read, exit 0" {
	run --separate-stderr ./bench scale "${A[@]}"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "${lines[0]}" = "# audit of stock: 14 entries, Benjamini-Hochberg (false discovery rate) at q=0.05: adjusted level 0.003571 (intervals at 99.64%), min per boot, 3 candidate functions timed" ]
	[ "${lines[1]}" = " 1  proc-stat read  +1501ns/CPU [+1460, +1548]  at 8192: 12.31ms [11.99ms, 12.69ms]  p=0.0019  grows  show_stat 81%" ]
	[[ "${lines[2]}" == " 2  fork-exec exec  "*"  flat" ]]
	[[ "${lines[14]}" == "14  syscall-null syscall (control)  "*"  flat" ]]
	[ "${lines[15]}" = "skipped: io-uring: io_uring_setup: ENOSYS (CONFIG_IO_URING is off)" ]
	[ "${lines[16]}" = "AUDIT entries=14 grows=1 flat=13 shrinks=0 controls_grow=0 method=bh q=0.05 level=0.003571 stat=min group=stock" ]
	[ "${#lines[@]}" -eq 17 ]
}

@test "audit: BH's level is q k/m, Holm's first step q/m, none q" {
	run ./bench scale --multiplicity holm "${A[@]}"
	[ "$status" -eq 0 ]
	# Holm: 0.05/14 for the first, 0.05/13 for the rest
	[[ "${lines[0]}" == *"Holm (family-wise error) at q=0.05: adjusted level 0.003571 "* ]]
	[[ "${lines[16]}" == *" grows=1 "*" method=holm "* ]]
	run ./bench scale --multiplicity none --alpha 0.1 "${A[@]}"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == *"none (each entry alone) at q=0.1: adjusted level 0.1 (intervals at 90%)"* ]]
	run ./bench scale -f csv --multiplicity holm "${A[@]}"
	# rank 1's level q/14, rank 2's on: q/13 (Holm stops at the second)
	[ "$(csv_col <(echo "$output") level rank=1)" = "0.00357143" ]
	[ "$(csv_col <(echo "$output") level rank=2)" = "0.00384615" ]
}

@test "audit: the intervals widen with the adjusted level" {
	run ./bench scale --audit -f csv --multiplicity none "${A[@]}"
	none_lo=$(csv_col <(echo "$output") slope_lo rank=1)
	run ./bench scale --audit -f csv "${A[@]}"
	bh_lo=$(csv_col <(echo "$output") slope_lo rank=1)
	[ "$(csv_col <(echo "$output") confidence rank=1)" = "0.996428571" ]
	awk -v a="$bh_lo" -v b="$none_lo" 'BEGIN { exit !(a < b) }'
}

@test "audit: A -- B gates every entry, names the entry, the function and the growth, exit 1" {
	run --separate-stderr ./bench scale "${A[@]}" -- "${B[@]}"
	echo "$output"
	[ "$status" -eq 1 ]
	[ -z "$stderr" ]
	[ "${lines[1]}" = "# gate stock -> plant: adjusted level 0.003571, threshold 5% of A's slope" ]
	[[ "${lines[4]}" == " 3  mount-tmpfs mount  stock "*"  grows  B-A +35.44ns/CPU [+18.18, +56.81]  regression  alloc_vfsmnt 98%" ]]
	[ "$(grep -c '  regression' <<<"$output")" -eq 1 ]
	[ "${lines[17]}" = "regression: mount-tmpfs mount grew +35.44ns/CPU [+18.18, +56.81] (threshold 0.04665ns/CPU) from stock to plant, carried by: alloc_vfsmnt 98%" ]
	[[ "${lines[18]}" == "AUDIT "*" regressions=1 gate_level=0.003571 verdict=regression" ]]
	# the same kernel against a copy of itself: nothing
	mkdir "$T/c" && cp "$T"/a/*.csv "$T/c/"
	run ./bench scale "${A[@]}" -- "$T"/c/*.csv
	[ "$status" -eq 0 ]
	[[ "${lines[-1]}" == *" regressions=0 "*"verdict=ok" ]]
}

@test "audit: a function that cannot be inside the entry carries nothing" {
	# alloc_vfsmnt is timed under mount-tmpfs only; show_stat grows faster than mount-tmpfs
	run ./bench scale -f csv "${B[@]}"
	[ "$(csv_col <(echo "$output") function workload=mount-tmpfs)" = "alloc_vfsmnt" ]
	[ "$(csv_col <(echo "$output") function workload=proc-stat)" = "show_stat" ]
	[ "$(csv_rows <(echo "$output") function workload=netns)" = "" ]
	[ "$(csv_rows <(echo "$output") workload workload=netns)" = netns ]
}

@test "audit: markdown, json, kcidb; --also; -o" {
	run ./bench scale -f markdown "${A[@]}" -- "${B[@]}"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "**kstats-bench audit of plant** - 14 entries, 2 grow with possible CPUs; Benjamini-Hochberg (false discovery rate) at q=0.05, adjusted level 0.007143" ]
	[[ "$output" == *"| 3 | mount-tmpfs mount | +36.37ns/CPU [+23.31, +52.14] | "*" | grows | alloc\_vfsmnt 98% | +35.44ns/CPU [+18.18, +56.81] | **regression** |"* ]]
	python3 tests/cli/gfm_tables.py <<<"$output"
	run ./bench scale -f json "${A[@]}"
	[ "$status" -eq 0 ]
	python3 -c 'import json, sys; d = json.load(sys.stdin); e = d["entries"][0]
assert d["metadata"]["multiplicity"] == "bh" and d["grows"] == 1, d
assert e["workload"] == "proc-stat" and e["fits"][0]["function"] == "show_stat", e
assert abs(e["fits"][0]["confidence"] - 0.996428571) < 1e-9' <<<"$output"
	run ./bench scale -f kcidb "${A[@]}" -- "${B[@]}"
	[ "$status" -eq 1 ]
	python3 -c 'import json, sys; d = json.load(sys.stdin); t = d["tests"]
fail = [x["path"] for x in t if x["status"] == "FAIL"]
assert fail == ["kstats_bench.audit.mount-tmpfs.mount"], fail
assert len(t) == 14 and t[0]["misc"]["function"] == "show_stat", t[0]' <<<"$output"
	run ./bench scale -o "$T/r.txt" --also csv="$T/r.csv" "${A[@]}"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[ "$(tail -1 "$T/r.txt")" = "AUDIT entries=14 grows=1 flat=13 shrinks=0 controls_grow=0 method=bh q=0.05 level=0.003571 stat=min group=stock" ]
	[[ "$(head -1 "$T/r.csv")" == "rank,kind,group,workload,"* ]]
}

@test "audit: bad --multiplicity, --alpha, kcidb without an audit: exit 2, nothing written" {
	run --separate-stderr ./bench scale --multiplicity fdr "${A[@]}"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[[ "$stderr" == *"--multiplicity"*"bh, holm, none"* ]]
	for q in 0 0.6 x; do
		run --separate-stderr ./bench scale --alpha "$q" "${A[@]}"
		[ "$status" -eq 2 ]
		[ -z "$output" ]
		[ "$stderr" = "bench scale: --alpha: '$q' is not a number in (0, 0.5] (see 'bench scale --help')" ]
	done
	run --separate-stderr ./bench scale -f kcidb -o "$T/k.json" tests/fixtures/scale/stock-p64.csv tests/fixtures/scale/stock-p128.csv
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[[ "$stderr" == *"-f kcidb needs --audit"* ]]
	[ ! -e "$T/k.json" ]
	# only functions, no entry
	run --separate-stderr ./bench scale --audit "$T"/a/stock-trace-show_stat-p*.csv
	[ "$status" -eq 2 ]
	[ "$stderr" = "bench scale: --audit: no entries in the files, only functions (traced, or the plugin's)" ]
}

@test "audit: a function timed at one count only is left out, with a note" {
	rm "$T"/a/stock-trace-snmp_fold_field-p128.csv "$T"/a/stock-trace-snmp_fold_field-p255.csv
	run --separate-stderr ./bench scale "$T"/a/*.csv
	[ "$status" -eq 0 ]
	[ "$stderr" = "$(printf 'bench scale: note: stock: snmp_fold_field %s is at possible_cpus 16 only: left out\n' time gap)" ]
	[[ "${lines[0]}" == *", 2 candidate functions timed" ]]
	[[ "${lines[1]}" == *"  grows  show_stat 81%" ]]
}

# the plugin's sweep (synth_audit.py plugin): counted, its funcs files beside
plugin_sweep() {
	python3 tests/cli/synth_audit.py "$T/pa" stock 1 0 plugin
	python3 tests/cli/synth_audit.py "$T/pb" plant 2 1 plugin
	PA=("$T"/pa/*.csv)
	PB=("$T"/pb/*.csv)
}

@test "audit by instructions: each growing entry carried by the fewest functions holding half its growth, netns too" {
	plugin_sweep
	run --separate-stderr ./bench scale "${PA[@]}"
	echo "$output"
	[ "$status" -eq 0 ]
	# no function is a series of its own, and none is noted
	[ -z "$stderr" ]
	[[ "${lines[0]}" == *", 0 candidate functions timed, 23 (function, entry) pairs counted by the plugin: an entry is carried by the fewest functions whose instructions carry half its growth" ]]
	[[ "${lines[1]}" == " 1  netns netns  +2198 insn/CPU "*"  grows  spread "*"  memset_orig 52%" ]]
	# arch_irq_stat_cpu, absent at 16, counts 0 there: 900 of 1530 a CPU
	[[ "${lines[2]}" == " 2  proc-stat read  "*"  grows  spread "*"  show_stat 59%" ]]
	[[ "$(grep ' fork-exit ' <<<"$output")" == *"  grows  spread "*"  memset_orig 125%" ]]
	[[ "$(grep ' fork-exec ' <<<"$output")" == *"  flat  spread "*"%" ]]
	[ "$(wc -l <<<"$output")" -eq 16 ]
	run ./bench scale -f csv "${PA[@]}"
	[ "$(csv_col <(echo "$output") function workload=netns)" = memset_orig ]
	[ "$(csv_col <(echo "$output") share workload=netns)" = 0.522727 ]
	[ "$(csv_col <(echo "$output") attributed_by workload=netns)" = plugin ]
	[ "$(csv_col <(echo "$output") functions workload=netns)" = memset_orig:0.522727 ]
	[ "$(csv_col <(echo "$output") attributed_by workload=fork-exec)" = "" ]
	run ./bench scale -f json "${PA[@]}"
	python3 -c 'import json, sys; d = json.load(sys.stdin); e = d["entries"][0]["fits"][0]
assert e["attributed_by"] == "plugin" and e["function"] == "memset_orig", e
assert [f["function"] for f in e["functions"]] == ["memset_orig"] and e["functions_half"], e
assert abs(e["functions"][0]["share"] - 0.522727) < 1e-6 and abs(e["functions_slope"] - 2200) < 1, e' <<<"$output"
	run ./bench scale -f kcidb "${PA[@]}"
	python3 -c 'import json, sys; t = json.load(sys.stdin)["tests"]
m = [x["misc"] for x in t if x["path"] == "kstats_bench.audit.proc-stat.read"][0]
assert m["functions"] == "show_stat 59%" and m["attributed_by"] == "plugin", m' <<<"$output"
	run ./bench scale -f markdown "${PA[@]}"
	[[ "$output" == *"| 1 | netns netns | +2198 insn/CPU ["*" | grows | memset\_orig 52% |"* ]]
	python3 tests/cli/gfm_tables.py <<<"$output"
}

@test "audit by instructions: the gate's regression names the plant's function; without funcs, nothing" {
	plugin_sweep
	run --separate-stderr ./bench scale "${PA[@]}" -- "${PB[@]}"
	[ "$status" -eq 1 ]
	[[ "$output" == *"regression: mount-tmpfs mount grew +"*" insn/CPU ["*"] (threshold 1 insn/CPU) from stock to plant, carried by: alloc_vfsmnt 90%"* ]]
	# the entries alone: no candidate was timed, so nothing carries them
	run --separate-stderr ./bench scale "$T"/pa/stock-p*.csv
	[ "$status" -eq 0 ]
	[[ "${lines[1]}" == " 1  netns netns  "*"  grows  spread "*"%" ]]
	# a funcs file is never an entry: alone, it is no audit
	run --separate-stderr ./bench scale --audit "$T"/pa/stock-funcs-p*.csv
	[ "$status" -eq 2 ]
	[ "$stderr" = "bench scale: --audit: no entries in the files, only functions (traced, or the plugin's)" ]
}
