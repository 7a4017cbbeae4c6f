#!/usr/bin/env bats
# needs: python3 jq man jsonschema gfm
# bench compare's reports for CI systems, read back by real parsers:
# markdown through GitHub's renderer (cmark-gfm) and an HTML parser,
# JUnit XML through python3's xml.etree, BMF and github-action-benchmark
# against JSON Schemas of what those tools read (tests/fixtures/schemas/),
# and the ::error annotations under GITHUB_ACTIONS=true.

load common

setup() {
	common_setup
	G=$F/gate
	S=$F/schemas
	# two regressions (r480 -> r528), and an A/A pair without any
	REG=("$G"/r480_{1..6}.csv -- "$G"/r528_{1..6}.csv)
	AA=("$G"/r480_{1..6}.csv -- "$G"/r480_{7..12}.csv)
}

# report FMT ARGS...: bench compare -f FMT into $T/out.FMT; $status, $stderr
report() {
	local fmt=$1
	shift
	run --separate-stderr ./bench compare -f "$fmt" "$@"
	printf '%s\n' "$output" >"$T/out.$fmt"
	echo "status $status stderr: $stderr"
}

@test "-f markdown: cmark-gfm renders one table, a row per series, under a bold headline" {
	report markdown "${REG[@]}"
	[ "$status" -eq 1 ]
	[ -z "$stderr" ]
	python3 tests/cli/gfm_tables.py <"$T/out.markdown" >"$T/page.json"
	run jq -c '[(.tables | length), .tables[0].align, .tables[0].rows[0], (.tables[0].rows | length)]' "$T/page.json"
	[ "$output" = '[2,["left","right","right","right","right","right","left"],["series","before","after","change [95% CI]","p","runs","verdict"],3]' ]
	# the second table: the fixtures were taken with 480 and 528 possible CPUs
	run jq -c '.tables[1].rows' "$T/page.json"
	[ "$output" = '[["key","kind","what differs"],["possible_cpus","config","480 -> 528"]]' ]
	run jq -c '.tables[0].rows[1:]' "$T/page.json"
	[ "$output" = '[["irqdesc-alloc old","13.15us ±4%","15.33us ±5%","+16.4% [+11.7%, +20.2%]","0.001","6+6","**regression**"],["irqdesc-alloc new","252.2ns ±3%","394.4ns ±4%","+56.1% [+50.5%, +60.2%]","0.001","6+6","**regression**"]]' ]
	run jq -r '.paragraphs[0].strong[0], (.paragraphs | length), .paragraphs[1].text' "$T/page.json"
	[ "$output" = "kstats-bench compare: 2 regressions
2
The sides differ in 1 key of the metadata (bench compare --strict refuses testbed and config differences):" ]
	# each row says what the table line says
	./bench compare "${REG[@]}" >"$T/table" 2>/dev/null || [ $? -eq 1 ]
	[ "$(grep -c ' regression$' "$T/table")" -eq 2 ]
	for i in 1 2; do
		line=$(sed -n "${i}p" "$T/table")
		row=$(jq -r ".tables[0].rows[$i] | .[0] + \" \" + .[1] + \" -> \" + .[2] + \" \" + .[3] + \" \" + .[5]" "$T/page.json")
		read -r wl var _ b bs _ a as ch lo hi _ n _ <<<"$line"
		[ "$row" = "$wl $var $b ${bs/+-/±} -> $a ${as/+-/±} $ch $lo $hi ${n#n=}" ]
	done
}

@test "-f markdown: no regression, the verdicts a reader sees, exit 0" {
	report markdown "${AA[@]}"
	[ "$status" -eq 0 ]
	python3 tests/cli/gfm_tables.py <"$T/out.markdown" >"$T/page.json"
	run jq -r '.paragraphs[0].strong[0], (.tables[0].rows[1:] | map(.[6]) | join(","))' "$T/page.json"
	[ "$output" = "kstats-bench compare: no regression
~,~" ]
}

@test "-f junit: one testsuite, a testcase per series, a failure per regression with the table's line" {
	report junit "${REG[@]}"
	[ "$status" -eq 1 ]
	./bench compare "${REG[@]}" >"$T/table" 2>/dev/null || [ $? -eq 1 ]
	[ "$(grep -c ' regression$' "$T/table")" -eq 2 ]
	python3 - "$T/out.junit" >"$T/cases" <<'EOF'
import sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "testsuites", root.tag
suites = root.findall("testsuite")
assert len(suites) == 1
s = suites[0]
print(root.get("tests"), root.get("failures"), s.get("name"), s.get("tests"), s.get("failures"),
      s.get("errors"), len(s.findall("testcase")))
print(" ".join("%s=%s" % (p.get("name"), p.get("value")) for p in s.find("properties")))
for tc in s.findall("testcase"):
    f = tc.find("failure")
    print(tc.get("classname"), "|", tc.get("name"), "|", f.get("type") if f is not None else "pass",
          "|", f.get("message") if f is not None else "", "|", tc.find("system-out").text)
EOF
	cat "$T/cases"
	[ "$(sed -n 1p "$T/cases")" = "2 2 kstats-bench compare 2 2 0 2" ]
	[ "$(sed -n 2p "$T/cases")" = "stat=tm10 alpha=0.05 threshold_pct=5 reference=raw unit=ns config.possible_cpus=480 -> 528" ]
	for i in 1 2; do
		line=$(sed -n "${i}p" "$T/table")
		var=$(awk '{ print $2 }' <<<"$line")
		[ "$(sed -n "$((i + 2))p" "$T/cases")" = "kstats-bench.irqdesc-alloc | $var tm10 | regression | $line | $line" ]
	done
	# no regression: testcases without a failure
	report junit "${AA[@]}"
	[ "$status" -eq 0 ]
	python3 -c 'import sys, xml.etree.ElementTree as ET
s = ET.parse(sys.argv[1]).getroot().find("testsuite")
assert s.get("failures") == "0" and len(s.findall("testcase")) == 2
assert not s.findall("testcase/failure")' "$T/out.junit"
}

@test "-f bmf: valid against Bencher's format; AFTER's median with its spread" {
	report bmf "${REG[@]}"
	[ "$status" -eq 1 ]
	python3 tests/cli/json_schema.py "$S/bmf.schema.json" "$T/out.bmf"
	./bench compare -f json "${REG[@]}" >"$T/c.json" 2>/dev/null || [ $? -eq 1 ]
	run jq -c 'keys_unsorted' "$T/out.bmf"
	[ "$output" = '["irqdesc-alloc/old","irqdesc-alloc/new"]' ]
	for v in old new; do
		[ "$(jq ".[\"irqdesc-alloc/$v\"].latency.value" "$T/out.bmf")" = \
			"$(jq ".comparisons[] | select(.variant == \"$v\") | .after.median" "$T/c.json")" ]
		jq -e ".[\"irqdesc-alloc/$v\"].latency | .lower_value < .value and .value < .upper_value" "$T/out.bmf"
	done
	# the schema has teeth: a metric without its value is refused
	jq 'del(.["irqdesc-alloc/old"].latency.value)' "$T/out.bmf" >"$T/broken.json"
	run python3 tests/cli/json_schema.py "$S/bmf.schema.json" "$T/broken.json"
	[ "$status" -eq 1 ]
	[[ "$output" == *"irqdesc-alloc/old/latency: 'value' is a required property"* ]]
}

@test "-f github-action-benchmark: valid customSmallerIsBetter, one entry per series" {
	report github-action-benchmark "${REG[@]}"
	[ "$status" -eq 1 ]
	python3 tests/cli/json_schema.py "$S/github-action-benchmark.schema.json" "$T/out.github-action-benchmark"
	run jq -c '[.[] | [.name, .unit, .range]]' "$T/out.github-action-benchmark"
	[ "$output" = '[["irqdesc-alloc old tm10","ns","± 4.9%"],["irqdesc-alloc new tm10","ns","± 4.2%"]]' ]
	run jq -r '.[0].extra' "$T/out.github-action-benchmark"
	[ "$output" = "before 13.15us ±4%, change +16.4% [+11.7%, +20.2%], p=0.001, n=6+6: regression" ]
	jq 'map(del(.unit))' "$T/out.github-action-benchmark" >"$T/broken.json"
	run python3 tests/cli/json_schema.py "$S/github-action-benchmark.schema.json" "$T/broken.json"
	[ "$status" -eq 1 ]
	# cycles: the unit follows the files
	sed 's/^# unit: ns$/# unit: cycles/' "$F/runs6-480.csv" >"$T/b.csv"
	sed 's/^# unit: ns$/# unit: cycles/' "$F/runs6-576.csv" >"$T/a.csv"
	run --separate-stderr ./bench compare -f github-action-benchmark "$T/b.csv" "$T/a.csv"
	[ "$(jq -r '.[0].unit' <<<"$output")" = cycles ]
	# no testbed section in this format: the difference is a warning
	[ "$stderr" = "bench compare: warning: the files' testbed or configuration differ: possible_cpus (--strict refuses this)" ]
	run --separate-stderr ./bench compare -f bmf "$T/b.csv" "$T/a.csv"
	[ "$(jq -r '.[] | keys[0]' <<<"$output" | sort -u)" = cycles ]
}

@test "GITHUB_ACTIONS=true: an ::error annotation per regression on stderr, the report unchanged" {
	./bench compare -f markdown "${REG[@]}" >"$T/plain" 2>/dev/null || [ $? -eq 1 ]
	[ -s "$T/plain" ]
	GITHUB_ACTIONS=true run --separate-stderr ./bench compare -f markdown "${REG[@]}"
	[ "$status" -eq 1 ]
	[ "$output" = "$(cat "$T/plain")" ]
	[ "${#stderr_lines[@]}" -eq 3 ]
	[ "${stderr_lines[0]}" = "::error title=kstats-bench regression::irqdesc-alloc old tm10  13.15us +-4%25 -> 15.33us +-5%25  +16.4%25 [+11.7%25, +20.2%25]  p=0.001 n=6+6  regression" ]
	[[ "${stderr_lines[1]}" == "::error title=kstats-bench regression::irqdesc-alloc new tm10 "* ]]
	# and a warning for what differs between the files
	[ "${stderr_lines[2]}" = "::warning title=kstats-bench config differs::possible_cpus: 480 -> 528" ]
	# the table too; none without a regression, none outside Actions
	GITHUB_ACTIONS=true run --separate-stderr ./bench compare "${REG[@]}"
	[ "${#stderr_lines[@]}" -eq 3 ]
	GITHUB_ACTIONS=true run --separate-stderr ./bench compare "${AA[@]}"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	GITHUB_ACTIONS=false run --separate-stderr ./bench compare "${REG[@]}"
	[ -z "$stderr" ]
}

@test "the CI formats are in compare's --help, man page and completion; bad input stays exit 2" {
	MANWIDTH=200 man -l docs/kstats-bench-compare.1 >"$T/man.txt" 2>/dev/null
	run ./bench compare --help
	for f in markdown junit bmf github-action-benchmark kcidb lkp; do
		[[ "$output" == *"$f"* ]]
		grep -qE "^ +$f( |\$)" "$T/man.txt" || { echo "man: $f"; false; }
	done
	# the completion offers what the binary lists, this build's bench as kstats-bench
	mkdir -p "$T/bin"
	ln -sf "$PWD/bench" "$T/bin/kstats-bench"
	PATH=$T/bin:$PATH bash -c 'source docs/kstats-bench.bash-completion
		COMP_WORDS=(kstats-bench compare -f ""); COMP_CWORD=3; _kstats_bench
		printf "%s\n" "${COMPREPLY[@]}"' | LC_ALL=C sort | tr '\n' ' ' >"$T/comp"
	[ "$(cat "$T/comp")" = "bmf cdf csv github-action-benchmark json junit kcidb lkp markdown runs table " ]
	bad "--format: 'xml' is not one of table, csv, runs, json, markdown, junit, bmf, github-action-benchmark" compare -f xml "$F/runs6-480.csv" "$F/runs6-576.csv"
	run --separate-stderr ./bench compare -f junit "$F/aa-before.csv" "$F/aa-after.csv"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
}
