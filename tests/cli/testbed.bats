#!/usr/bin/env bats
# needs: python3 jq gfm
# The testbed in the metadata of bench run: the keys of lib/host/testbed.h from
# a fixture host (KSB_TESTBED_ROOT), the build, the timestamp, --label,
# the workload's options; CSV and JSON, one run and --runs.

load common

setup() {
	common_setup
	H=tests/fixtures/hosts
}

@test "run -o: the tuned host's testbed keys, in order, after the run's own metadata" {
	KSB_TESTBED_ROOT=$H/tuned ./bench run -q -n 64 -o "$T/r.csv" >/dev/null
	grep -E '^# (workload_options|cpufreq_governor|cpufreq_driver|turbo|smt|thp|vulnerabilities|cmdline|microcode|isolcpus|nohz_full|irqbalance|virtualization|numa_balancing|bench_release|bench_git):' "$T/r.csv" >"$T/got"
	cat >"$T/want" <<EOF
# workload_options: none
# cpufreq_governor: performance
# cpufreq_driver: intel_pstate
# turbo: off (intel_pstate/no_turbo: 1)
# smt: off
# thp: madvise (defrag madvise)
# vulnerabilities: mitigated 2, vulnerable 1 (gather_data_sampling), not affected 3
# cmdline: BOOT_IMAGE=/boot/vmlinuz-6.1.0-18-amd64 root=/dev/sda1 ro isolcpus=2-3 nohz_full=2-3 rcu_nocbs=2-3 intel_pstate=active
# microcode: 0xd0003a5
# isolcpus: 2-3
# nohz_full: 2-3
# irqbalance: not running
# virtualization: none
# numa_balancing: 0
# bench_release: $(./bench --version | sed 's/^bench (kstats-bench) \([^ ]*\) .*/\1/')
# bench_git: $(./bench --version | sed 's/.*(git \(.*\))$/\1/')
EOF
	diff "$T/want" "$T/got"
	# after partial, before the column header
	awk '/^# partial:/ { p = NR } /^# cpufreq_governor:/ { g = NR } /^workload,/ { h = NR }
		END { exit !(p < g && g < h) }' "$T/r.csv"
}

@test "run: the timestamp in UTC within the run, labels in the order given" {
	t0=$(date -u +%s)
	./bench run -q -n 64 --label commit=0123abc --label branch=feature/x \
		--label build_id= -o "$T/r.csv" >/dev/null
	t1=$(date -u +%s)
	ts=$(csv_meta "$T/r.csv" timestamp)
	[[ "$ts" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$ ]]
	t=$(date -u -d "$ts" +%s)
	[ "$t" -ge "$t0" ] && [ "$t" -le "$t1" ]
	[ "$(grep '^# label_' "$T/r.csv")" = "# label_commit: 0123abc
# label_branch: feature/x
# label_build_id: " ]
	# the build the binary says
	[ "$(csv_meta "$T/r.csv" bench_git)" != "" ]
	[[ "$(./bench --version)" == *"(git $(csv_meta "$T/r.csv" bench_git))" ]]
}

@test "run --runs 3: one testbed and one timestamp for every run" {
	KSB_TESTBED_ROOT=$H/noisy ./bench run -q --runs 3 -n 32 -w irqdesc-sparse \
		--irq-threads 1 --live-irqs 8 --label commit=c -o "$T/r.csv" >/dev/null
	[ "$(grep -c '^# timestamp: ' "$T/r.csv")" -eq 1 ]
	[ "$(csv_meta "$T/r.csv" cpufreq_governor)" = "powersave x3, performance x1" ]
	[ "$(csv_meta "$T/r.csv" virtualization)" = "a hypervisor (QEMU Standard PC (Q35 + ICH9, 2009))" ]
	[ "$(csv_meta "$T/r.csv" irqbalance)" = running ]
	[ "$(csv_meta "$T/r.csv" label_commit)" = c ]
	[ "$(csv_meta "$T/r.csv" workload_options)" = "--irq-threads 1 --irq-rate 100000 --live-irqs 8" ]
	[ "$(csv_meta "$T/r.csv" runs)" = 3 ]
	# show reads it back, every key kept: its CSV is the file, byte for byte
	./bench show -r 2 "$T/r.csv" >/dev/null
	./bench show -f csv "$T/r.csv" >"$T/back.csv"
	cmp "$T/r.csv" "$T/back.csv"
	./bench show -f json "$T/r.csv" >"$T/back.json"
	[ "$(jq -r .metadata.label_commit "$T/back.json")" = c ]
}

@test "run -f json: the testbed in the metadata object" {
	KSB_TESTBED_ROOT=$H/tuned ./bench run -q -n 64 -f json --label commit=x >"$T/r.json"
	python3 -m json.tool "$T/r.json" >/dev/null
	run jq -r '.metadata | [.cpufreq_governor, .turbo, .isolcpus, .label_commit, (.timestamp | test("Z$"))] | @tsv' "$T/r.json"
	[ "$output" = "$(printf 'performance\toff (intel_pstate/no_turbo: 1)\t2-3\tx\ttrue')" ]
}

@test "run on this host: every testbed key has a value" {
	./bench run -q -n 64 -o "$T/r.csv" >/dev/null
	for k in workload_options cpufreq_governor cpufreq_driver turbo smt thp vulnerabilities \
		cmdline microcode isolcpus nohz_full irqbalance virtualization numa_balancing \
		bench_release bench_git timestamp; do
		[ -n "$(csv_meta "$T/r.csv" "$k")" ] || { echo "no $k"; false; }
	done
	[ "$(csv_meta "$T/r.csv" cmdline)" = "$(cat /proc/cmdline)" ]
}

@test "--label and KSB_TESTBED_ROOT refusals: exit 2 before measuring, nothing written" {
	bad "--label: 'Commit=x' is not KEY=VALUE with a KEY of 1-25 of a-z, 0-9, _" run --label Commit=x
	bad "--label: 'commit' is not KEY=VALUE" run --label commit
	bad "--label: commit given twice" run --label commit=a --label commit=b
	bad "--label: the value of k must be at most 255 printable bytes" run --label "k=$(printf 'x%.0s' {1..256})"
	labels=()
	for i in {1..17}; do labels+=(--label "k$i=v"); done
	bad "--label: at most 16 labels" run "${labels[@]}"
	bad "option '--label' needs a value" run --label
	# bench kernel takes it too, checked before it needs root
	bad "--label: 'Commit=x' is not KEY=VALUE" kernel --label Commit=x
	bad "--label: 'Commit=x' is not KEY=VALUE" trace --label Commit=x f
	KSB_TESTBED_ROOT=$T/none run --separate-stderr ./bench run -q -n 64 -o "$T/r.csv"
	[ "$status" -eq 2 ]
	[ "$stderr" = "bench run: KSB_TESTBED_ROOT: $T/none: not a directory" ]
	[ -z "$output" ]
	[ ! -e "$T/r.csv" ]
}

# ---- compare: the testbed section, --strict ----
# tests/fixtures/testbed/: bench run --runs 6 -n 256 -p 480 --cache cold on
# this VM, once with KSB_TESTBED_ROOT=tests/fixtures/hosts/tuned and once
# with a copy of it whose four CPUs run powersave (see their command lines)

@test "compare of two hosts with different governors: the testbed section, exit 0" {
	P=$F/testbed/performance.csv
	S=$F/testbed/powersave.csv
	run --separate-stderr ./bench compare "$P" "$S"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$(grep -A2 '^testbed:' <<<"$output")" = "testbed: the files differ in 1 key (--strict refuses testbed and config):
  testbed cpufreq_governor: performance -> powersave
COMPARE series=2 regressions=0 improvements=1 stat=tm10 alpha=0.05 threshold=5% verdict=ok reference=scaled" ]
	# the same host on both sides: no section
	run ./bench compare "$P" "$P"
	[[ "$output" != *"testbed:"* ]]
	# files written before the testbed keys existed: nothing to compare
	run ./bench compare "$F"/gate/r480_{1..6}.csv -- "$F"/gate/r480_{7..12}.csv
	[[ "$output" != *"testbed:"* ]]
}

@test "compare --strict: different governors are exit 2, one line naming the key" {
	bad "bench compare: --strict: the files differ in testbed cpufreq_governor (performance -> powersave)" \
		compare --strict "$F/testbed/performance.csv" "$F/testbed/powersave.csv"
	for f in csv runs json markdown junit bmf github-action-benchmark; do
		bad "--strict: the files differ in testbed cpufreq_governor" \
			compare --strict -f "$f" "$F/testbed/performance.csv" "$F/testbed/powersave.csv"
	done
	# the run configuration too
	bad "bench compare: --strict: the files differ in config possible_cpus (480 -> 576)" \
		compare --strict "$F/runs6-480.csv" "$F/runs6-576.csv"
	# the same host: --strict passes, and the verdict decides
	run ./bench compare --strict "$F/testbed/performance.csv" "$F/testbed/performance.csv"
	[ "$status" -eq 0 ]
}

@test "compare: a side's own files that differ, and the build, which --strict lets through" {
	P=$F/testbed/performance.csv
	S=$F/testbed/powersave.csv
	run ./bench compare "$P" "$S" -- "$P"
	[[ "$output" == *"  testbed cpufreq_governor: performance (tests/fixtures/testbed/powersave.csv: powersave) -> performance"* ]]
	# another build of bench on one side: told, not refused
	sed 's/^# bench_git: .*/# bench_git: v9.9-1-gdeadbee/' "$P" >"$T/other-build.csv"
	run --separate-stderr ./bench compare --strict "$P" "$T/other-build.csv"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ "$output" == *"  build   bench_git: $(csv_meta "$P" bench_git) -> v9.9-1-gdeadbee"* ]]
	# the workload's options are configuration
	sed 's/^# workload_options: .*/# workload_options: --live-irqs 8/' "$P" >"$T/opts.csv"
	bad "--strict: the files differ in config workload_options (none -> --live-irqs 8)" \
		compare --strict "$P" "$T/opts.csv"
	# bench vm's host is the testbed too
	sed '/^# partial:/a # vm_host_turbo: off' "$P" >"$T/vm-a.csv"
	sed '/^# partial:/a # vm_host_turbo: on' "$P" >"$T/vm-b.csv"
	bad "bench compare: --strict: the files differ in testbed vm_host_turbo (off -> on)" \
		compare --strict "$T/vm-a.csv" "$T/vm-b.csv"
}

@test "compare: the differences in -f json, markdown and junit; a warning for csv" {
	P=$F/testbed/performance.csv
	S=$F/testbed/powersave.csv
	run --separate-stderr ./bench compare -f json "$P" "$S"
	[ -z "$stderr" ]
	[ "$(jq -c '.differences' <<<"$output")" = '[{"key":"cpufreq_governor","kind":"testbed","before":"performance","after":"powersave","between":true,"within_before":false,"within_after":false}]' ]
	run --separate-stderr ./bench compare -f markdown "$P" "$S"
	[ -z "$stderr" ]
	python3 tests/cli/gfm_tables.py <<<"$output" >"$T/page.json"
	[ "$(jq -c '.tables[1].rows' "$T/page.json")" = '[["key","kind","what differs"],["cpufreq_governor","testbed","performance -> powersave"]]' ]
	./bench compare -f junit "$P" "$S" >"$T/j.xml"
	python3 -c 'import sys, xml.etree.ElementTree as ET
p = {e.get("name"): e.get("value") for e in ET.parse(sys.argv[1]).getroot().iter("property")}
assert p["testbed.cpufreq_governor"] == "performance -> powersave", p' "$T/j.xml"
	run --separate-stderr ./bench compare -f csv "$P" "$S"
	[ "$stderr" = "bench compare: warning: the files' testbed or configuration differ: cpufreq_governor (--strict refuses this)" ]
	GITHUB_ACTIONS=true run --separate-stderr ./bench compare -f markdown "$P" "$S"
	[ "$stderr" = "::warning title=kstats-bench testbed differs::cpufreq_governor: performance -> powersave" ]
}
