#!/usr/bin/env bats
# needs: python3 jq jsonschema busybox
# -f kcidb: KernelCI's KCIDB v5.3, for bench compare's gate and for a
# results set (bench show here; run, kernel and vm write through the same
# writer). Every document is checked against tests/fixtures/schemas/
# kcidb.json, written from kcidb-io's v05_03.py, by Debian's
# python3-jsonschema, and for nulls, which KCIDB forbids anywhere.

load common

setup() {
	common_setup
	G=$F/gate
	SCHEMA=$F/schemas/kcidb.json
	REG=("$G"/r480_{1..6}.csv -- "$G"/r528_{1..6}.csv)
	AA=("$G"/r480_{1..6}.csv -- "$G"/r480_{7..12}.csv)
	SHA=0123456789abcdef0123456789abcdef01234567
}

# valid FILE: the schema takes it, and nothing in it is null
valid() {
	/usr/bin/python3 tests/cli/json_schema.py "$SCHEMA" "$1"
	[ "$(jq '[.. | select(. == null)] | length' "$1")" = 0 ]
}

# labelled SRC DST: SRC with the labels bench run --label commit=SHA
# --label tree=mainline --label branch=master writes
labelled() {
	sed "/^# partial:/a # label_commit: $SHA\n# label_tree: mainline\n# label_branch: master" "$1" >"$2"
}

@test "compare -f kcidb: one FAIL test per regressed series, valid KCIDB 5.3" {
	run --separate-stderr ./bench compare -f kcidb "${REG[@]}"
	[ "$status" -eq 1 ]
	[ -z "$stderr" ]
	printf '%s\n' "$output" >"$T/gate.json"
	valid "$T/gate.json"
	run jq -c '[.version, (.checkouts | length), (.builds | length), [.tests[] | [.path, .status, .origin]]]' "$T/gate.json"
	[ "$output" = '[{"major":5,"minor":3},1,1,[["kstats_bench.gate.irqdesc-alloc.old.tm10","FAIL","kstats_bench"],["kstats_bench.gate.irqdesc-alloc.new.tm10","FAIL","kstats_bench"]]]' ]
	# the build the tests ran on, the testbed and what differs
	run jq -c '[.builds[0].id, .builds[0].architecture, .tests[0].build_id, .tests[0].misc.testbed.possible_cpus, .tests[0].misc.differs]' "$T/gate.json"
	[ "$output" = '["kstats_bench:6.18.44-fc-v769","x86_64","kstats_bench:6.18.44-fc-v769","528",{"possible_cpus":"480 -> 528"}]' ]
}

@test "compare -f kcidb: misc holds compare's own figures (its csv), number AFTER's in seconds" {
	./bench compare -f csv "${REG[@]}" >"$T/gate.csv" 2>/dev/null || [ $? -eq 1 ]
	./bench compare -f kcidb "${REG[@]}" >"$T/gate.json" || [ $? -eq 1 ]
	run jq -r '.tests[] | .misc | [.verdict, (.change_pct * 100 | round / 100), (.ci_lo_pct * 100 | round / 100), (.ci_hi_pct * 100 | round / 100), .p, .n_before, .n_after] | @csv' "$T/gate.json"
	want=$(csv_rows "$T/gate.csv" verdict change_pct ci_lo_pct ci_hi_pct p n_before n_after |
		awk -F, '{ printf "\"%s\",%s,%s,%s,%s,%s,%s\n", $1, $2 + 0, $3 + 0, $4 + 0, $5 + 0, $6, $7 }')
	echo "kcidb: $output"
	echo "csv:   $want"
	[ "$(wc -l <<<"$want")" -eq 2 ]
	[ "$output" = "$want" ]
	# seconds, to the picosecond: AFTER's median of tm10 is 15332.5 ns
	# (jq would print the number its own way: the document's text)
	[ "$(grep -m1 -o '"value": [0-9.e-]*' "$T/gate.json")" = '"value": 0.0000153325307' ]
	[ "$(jq -c '.tests[0].number | [.unit, .prefix]' "$T/gate.json")" = '["s","metric"]' ]
}

@test "compare -f kcidb: an A/A pair passes every series, exit 0" {
	run --separate-stderr ./bench compare -f kcidb "${AA[@]}"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$T/aa.json"
	valid "$T/aa.json"
	run jq -r '[.tests[].status] | join(" ")' "$T/aa.json"
	[ "$output" = "PASS PASS" ]
}

@test "compare -f kcidb: the checkout from --label commit, tree and branch" {
	for i in 1 2 3 4 5 6; do labelled "$G/r528_$i.csv" "$T/l$i.csv"; done
	run --separate-stderr ./bench compare -f kcidb "$G"/r480_{1..6}.csv -- "$T"/l{1..6}.csv
	[ "$status" -eq 1 ]
	printf '%s\n' "$output" >"$T/l.json"
	valid "$T/l.json"
	run jq -c '.checkouts[0]' "$T/l.json"
	[ "$output" = "{\"id\":\"kstats_bench:$SHA\",\"origin\":\"kstats_bench\",\"tree_name\":\"mainline\",\"git_repository_branch\":\"master\",\"git_commit_hash\":\"$SHA\",\"comment\":\"kernel 6.18.44-fc-v769\",\"valid\":true}" ]
	run jq -r '.builds[0].checkout_id, .builds[0].id, .tests[0].misc.testbed.label_tree' "$T/l.json"
	[ "${lines[0]}" = "kstats_bench:$SHA" ]
	[ "${lines[1]}" = "kstats_bench:$SHA:6.18.44-fc-v769" ]
	[ "${lines[2]}" = "mainline" ]
}

@test "--origin NAME names every object; one outside [a-z0-9_]+ is exit 2" {
	./bench compare -f kcidb --origin my_ci "${REG[@]}" >"$T/o.json" || [ $? -eq 1 ]
	valid "$T/o.json"
	run jq -r '[.checkouts[], .builds[], .tests[]] | map(.origin + " " + (.id | split(":")[0])) | unique | join(",")' "$T/o.json"
	[ "$output" = "my_ci my_ci" ]
	bad "--origin: 'kstats-bench' is not a KCIDB origin: [a-z0-9_]+" compare -f kcidb --origin kstats-bench "${REG[@]}"
	bad "--origin: 'Lab' is not a KCIDB origin" show -f kcidb --origin Lab "$G/r480_1.csv"
	bad "--origin: '' is not a KCIDB origin" show --origin '' "$G/r480_1.csv"
}

@test "show -f kcidb: one DONE test per series and statistic, the figures of -f json" {
	run --separate-stderr ./bench show -f kcidb "$G/r480_1.csv"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$T/r.json"
	valid "$T/r.json"
	run jq -r '[.tests[] | .path + "=" + .status] | join(" ")' "$T/r.json"
	want=""
	for v in old new; do
		for s in min p50 p90 p99 max mean tm10; do
			want+="${want:+ }kstats_bench.irqdesc-alloc.$v.$s=DONE"
		done
	done
	[ "$output" = "$want" ]
	# the figures: -f json's summary, in seconds (ns * 1e-9)
	./bench show -f json "$G/r480_1.csv" >"$T/r-doc.json"
	run jq -r '[.histograms[] | select(.run == "all" and .cpu == "all") | .summary | .min, .p50, .p90, .p99, .max, .mean] | join(" ")' "$T/r-doc.json"
	want=$output
	run jq -r '[.tests[] | select(.path | test("tm10$") | not) | .misc.figure] | join(" ")' "$T/r.json"
	[ "$output" = "$want" ]
	run jq -r '.tests[1] | [.path, .number.unit, .number.prefix, .misc.samples, .misc.figure] | join(" ")' "$T/r.json"
	[ "$output" = "kstats_bench.irqdesc-alloc.old.p50 s metric 8192 14335" ]
	run grep -m2 -o '"value": [0-9.e-]*' "$T/r.json"
	[ "${lines[0]}" = '"value": 0.0000100050000' ]
	[ "${lines[1]}" = '"value": 0.0000143350000' ]
}

@test "show -f kcidb: a series name outside [a-zA-Z0-9_-] is sanitized in the path" {
	# a CSV's names are [a-z0-9_.-]: the dots would split the path
	sed 's/^irqdesc-alloc,old,/irq.desc-alloc,old.v2,/' "$G/r480_1.csv" >"$T/odd.csv"
	run --separate-stderr ./bench show -f kcidb --origin lab_1 "$T/odd.csv"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$T/odd.json"
	valid "$T/odd.json"
	run jq -r '.tests[0].path' "$T/odd.json"
	[ "$output" = "kstats_bench.irq_desc-alloc.old_v2.min" ]
}

@test "the schema bites: a null, a bad origin, a bad path, an unknown status are invalid" {
	./bench compare -f kcidb "${AA[@]}" >"$T/ok.json"
	for edit in '.tests[0].comment = null' '.tests[0].origin = "kstats-bench"' \
		'.tests[0].path = "a..b"' '.tests[0].status = "OK"' '.version.minor = 4' \
		'del(.tests[0].build_id)' '.builds[0].architecture = "x86-64"'; do
		jq "$edit" "$T/ok.json" >"$T/broken.json"
		run /usr/bin/python3 tests/cli/json_schema.py "$SCHEMA" "$T/broken.json"
		echo "$edit: $status $output"
		[ "$status" -eq 1 ]
	done
}

@test "run -f kcidb: the run's document; bench show of its CSV prints it again, byte for byte" {
	./bench run -q -R 2 -n 64 --label commit="$SHA" -f kcidb -o "$T/r.csv" >"$T/run.json"
	valid "$T/run.json"
	./bench show -f kcidb "$T/r.csv" >"$T/show.json"
	cmp "$T/run.json" "$T/show.json"
	# the run's start names its tests, and starts them
	stamp=$(csv_meta "$T/r.csv" timestamp)
	run jq -r '.tests[0] | [.start_time, .id] | join(" ")' "$T/run.json"
	[[ "$output" == "$stamp kstats_bench:$SHA:"*":$stamp:kstats_bench.irqdesc-alloc.old.min" ]]
}

@test "a vm gate: bench vm's two kernels (fake-qemu), compare -f kcidb, the build its release" {
	mkdir -p "$T/stock" "$T/patched"
	fake_bzimage "$T/stock/bzImage"
	cp "$T/stock/bzImage" "$T/patched/bzImage"
	./bench vm -q --qemu tests/cli/fake-qemu -o "$T/out" -B 5 -p 8 --label tree=mainline \
		"$T/stock/bzImage" "$T/patched/bzImage" -- run -n 64 >/dev/null
	run --separate-stderr ./bench compare -f kcidb --origin ci_lab "$T/out/stock.csv" -- "$T/out/patched.csv"
	[ "$status" -le 1 ]
	printf '%s\n' "$output" >"$T/vm-gate.json"
	valid "$T/vm-gate.json"
	run jq -c '[.checkouts[0].id, .checkouts[0].tree_name, .builds[0].id, .builds[0].misc.vm_image, [.tests[] | .path, .misc.n_before, .misc.n_after]]' "$T/vm-gate.json"
	[ "$output" = "[\"ci_lab:6.12.117\",\"mainline\",\"ci_lab:6.12.117\",\"$T/patched/bzImage\",[\"kstats_bench.gate.irqdesc-alloc.old.tm10\",5,5,\"kstats_bench.gate.irqdesc-alloc.new.tm10\",5,5]]" ]
	./bench show -f kcidb "$T/out/patched.csv" >"$T/vm-res.json"
	valid "$T/vm-res.json"
	[ "$(jq '.tests | length' "$T/vm-res.json")" = 14 ]
}

@test "bench vm -f kcidb, two kernels: stdout is a stream of two valid reports, no titles" {
	mkdir -p "$T/stock" "$T/patched"
	fake_bzimage "$T/stock/bzImage"
	cp "$T/stock/bzImage" "$T/patched/bzImage"
	./bench vm -q --qemu tests/cli/fake-qemu -o "$T/out" -B 2 -p 8 -f kcidb \
		--label stock:commit=1111111111111111111111111111111111111111 \
		"$T/stock/bzImage" "$T/patched/bzImage" -- run -n 64 >"$T/vm.out"
	[ "$(grep -c '^#' "$T/vm.out")" = 0 ]
	[ "$(jq -s length "$T/vm.out")" = 2 ]
	jq -c '.' "$T/vm.out" | head -1 >"$T/r1.json"
	jq -c '.' "$T/vm.out" | tail -1 >"$T/r2.json"
	valid "$T/r1.json"
	valid "$T/r2.json"
	# the stream is the kernels in order, each report the one show writes
	[ "$(jq -r '.checkouts[0].git_commit_hash' "$T/r1.json")" = 1111111111111111111111111111111111111111 ]
	./bench show -f kcidb "$T/out/patched.csv" >"$T/show2.json"
	[ "$(jq -c '.' "$T/show2.json")" = "$(cat "$T/r2.json")" ]
}

@test "--origin on run, kernel, trace and vm: checked as show's, kept in the file for bench show" {
	for cmd in run kernel trace vm; do
		bad "bench $cmd: --origin: 'ci-lab' is not a KCIDB origin: [a-z0-9_]+, at most 63 bytes" \
			$cmd --origin ci-lab
	done
	./bench run -q -n 64 --origin ci_lab -f kcidb -o "$T/r.csv" >"$T/run.json"
	valid "$T/run.json"
	[ "$(csv_meta "$T/r.csv" kcidb_origin)" = ci_lab ]
	run jq -r '[.checkouts[], .builds[], .tests[]] | map(.origin + " " + (.id | split(":")[0])) | unique | join(",")' "$T/run.json"
	[ "$output" = "ci_lab ci_lab" ]
	# the file names its CI system: show needs no --origin, and one given wins
	./bench show -f kcidb "$T/r.csv" >"$T/show.json"
	cmp "$T/show.json" "$T/run.json"
	./bench show -f kcidb --origin other "$T/r.csv" >"$T/other.json"
	[ "$(jq -r '[.tests[].origin] | unique | join(",")' "$T/other.json")" = other ]
	# bench vm puts it in every kernel's file (fake-qemu boots)
	mkdir -p "$T/stock"
	fake_bzimage "$T/stock/bzImage"
	./bench vm -q --qemu tests/cli/fake-qemu -o "$T/out" -B 2 -p 8 --origin lab_2 \
		"$T/stock/bzImage" -- run -n 64 >/dev/null
	[ "$(csv_meta "$T/out/stock.csv" kcidb_origin)" = lab_2 ]
	./bench show -f kcidb "$T/out/stock.csv" >"$T/vm.json"
	valid "$T/vm.json"
	[ "$(jq -r '[.tests[] | .id | split(":")[0]] | unique | join(",")' "$T/vm.json")" = lab_2 ]
}

@test "bench vm --label NAME:KEY=VALUE: each side's commit in its own files, the gate's checkout AFTER's" {
	mkdir -p "$T/stock" "$T/patched"
	fake_bzimage "$T/stock/bzImage"
	cp "$T/stock/bzImage" "$T/patched/bzImage"
	A=1111111111111111111111111111111111111111
	B=2222222222222222222222222222222222222222
	./bench vm -q --qemu tests/cli/fake-qemu -o "$T/out" -B 5 -p 8 --label tree=mainline \
		--label stock:commit=$A --label patched:commit=$B --label patched:tree=next \
		"$T/stock/bzImage" "$T/patched/bzImage" -- run -n 64 >/dev/null
	[ "$(csv_meta "$T/out/stock.csv" label_commit)" = $A ]
	[ "$(csv_meta "$T/out/patched.csv" label_commit)" = $B ]
	# a kernel's own label wins over the one for every kernel
	[ "$(csv_meta "$T/out/stock.csv" label_tree)" = mainline ]
	[ "$(csv_meta "$T/out/patched.csv" label_tree)" = next ]
	run --separate-stderr ./bench compare -f kcidb "$T/out/stock.csv" -- "$T/out/patched.csv"
	[ "$status" -le 1 ]
	printf '%s\n' "$output" >"$T/g.json"
	valid "$T/g.json"
	run jq -r '[.checkouts[0].git_commit_hash, .checkouts[0].tree_name, .tests[0].misc.before_commit] | join(" ")' "$T/g.json"
	[ "$output" = "$B next $A" ]
	# a NAME that is no kernel, a bad KEY after a NAME
	bad "bench vm: --label nosuch:commit=...: no kernel is called nosuch (NAME=KERNEL names one)" \
		vm --qemu tests/cli/fake-qemu -o "$T/o2" --label nosuch:commit=$A "$T/stock/bzImage" -- run -n 8
	bad "--label: 'Commit=x' is not KEY=VALUE" vm --label stock:Commit=x "$T/stock/bzImage" -- run
}

@test "trend -f kcidb: the newest night's checkout, a test per series, FAIL for the failing one" {
	gate_ref_history "$T/h"
	sed -i "/^# timestamp:/a # label_commit: $SHA\n# label_tree: mainline" "$T/h/r528_3.csv"
	run --separate-stderr ./bench trend -f kcidb --origin ci_lab "$T/h"
	[ "$status" -eq 1 ]
	printf '%s\n' "$output" >"$T/t.json"
	valid "$T/t.json"
	run jq -c '[.checkouts[0].id, .checkouts[0].git_commit_hash, .checkouts[0].tree_name, .builds[0].id]' "$T/t.json"
	[ "$output" = "[\"ci_lab:$SHA\",\"$SHA\",\"mainline\",\"ci_lab:$SHA\"]" ]
	run jq -c '[.tests[] | [.path, .status, .start_time, .number.unit, .misc.runs, (.misc.change_points | map([.index, .verdict, .recent]))]]' "$T/t.json"
	[ "$output" = '[["kstats_bench.trend.irqdesc-alloc.old.tm10","FAIL","2025-01-09T02:00:00Z","s",18,[[13,"regression",true]]],["kstats_bench.trend.irqdesc-alloc.new.tm10","PASS","2025-01-09T02:00:00Z","s",18,[]]]' ]
	[ "$(jq -r '[.tests[].id | split(":")[0]] | unique | join(",")' "$T/t.json")" = ci_lab ]
	bad "--origin: 'Lab' is not a KCIDB origin" trend -f kcidb --origin Lab "$T/h"
}
