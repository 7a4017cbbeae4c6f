#!/usr/bin/env bats
# needs: shellcheck python3 jq pyyaml gfm
# The CI jobs of ci/ (GitHub Actions, GitLab CI), the gate and the nightly
# job of each: parsed by PyYAML with duplicate keys refused, checked for
# what their runners need, linked (not copied) from README.md and
# docs/ci.md, their shell shellcheck-clean, and run end to end on a clone
# of this checkout (base = head, the pinned build = head) with small runs.

load common

setup() {
	common_setup
	GH=ci/github-actions.yml
	GL=ci/gitlab-ci.yml
}

# a clone of this checkout under $T/w, its HEAD in $sha; $T/bin first in
# PATH with a make that seeds the trees it builds (below)
clone() {
	git rev-parse --git-dir >/dev/null 2>&1 || skip "not a git checkout: the jobs build git worktrees"
	mkdir -p "$T/w"
	git clone -q "$PWD" "$T/w/repo"
	sha=$(git -C "$T/w/repo" rev-parse HEAD)
	seeding_make
}

# The jobs build every tree they check out (base, head, the pinned one)
# from nothing, several times a test, and that build is make check's own,
# measured there: so when this checkout is HEAD unchanged and built, each
# tree a job builds gets a copy of its build/ first (newer than the
# tree's sources, so make relinks and goes on), and the jobs' make
# commands still run, each of them. A changed checkout builds in full.
seeding_make() {
	local real
	real=$(command -v make)
	mkdir -p "$T/bin"
	if [ -n "$(git status --porcelain --untracked-files=no)" ] || [ ! -d build/obj ]; then
		return 0
	fi
	cat >"$T/bin/make" <<-EOF
		#!/usr/bin/env bash
		dir=.
		a=("\$@")
		for ((i = 0; i < \${#a[@]}; i++)); do [ "\${a[i]}" = -C ] && dir=\${a[i + 1]}; done
		[ -e "\$dir/build" ] || [ ! -e "\$dir/kstats_hist.h" ] || cp -r "$PWD/build" "\$dir/build"
		exec "$real" "\$@"
	EOF
	chmod +x "$T/bin/make"
}

# the results a job leaves: 3 CSVs a side with their labels, the reports
# read back; $1 the job's exit status, 0 or 1 as the JUnit report says
check_results() {
	local r=$T/w/repo/results rc=$1 i
	for i in 1 2 3; do
		[ "$(csv_meta "$r/base-$i.csv" label_side)" = base ]
		[ "$(csv_meta "$r/head-$i.csv" label_commit)" = "$sha" ]
		[ "$(csv_meta "$r/head-$i.csv" runs)" = 2 ]
	done
	python3 tests/cli/gfm_tables.py <"$r/compare.md" >"$T/page.json"
	[ "$(jq '.tables[0].rows | length' "$T/page.json")" -eq 3 ]
	failures=$(python3 -c 'import sys, xml.etree.ElementTree as ET
s = ET.parse(sys.argv[1]).getroot().find("testsuite")
assert len(s.findall("testcase")) == 2
print(s.get("failures"))' "$r/compare.xml")
	if [ "$rc" -eq 0 ]; then [ "$failures" -eq 0 ]; else [ "$rc" -eq 1 ] && [ "$failures" -gt 0 ]; fi
}

@test "ci/: both jobs parse, without duplicate keys, with what their runners need" {
	run python3 tests/cli/ci_jobs.py check github "$GH"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "actions/checkout@v4" ]
	[ "${lines[5]}" = "Compare" ]
	[ "${lines[10]}" = "actions/checkout@v4" ]
	[ "${lines[14]}" = "Build the pinned baseline once, and tonight's" ]
	[ "${lines[18]}" = "Keep the history and the report" ]
	run python3 tests/cli/ci_jobs.py check gitlab "$GL"
	[ "$status" -eq 0 ]
	[ "$output" = "kstats-bench
kstats-bench-nightly" ]
	# the checker has teeth: a duplicate key, a step that runs and uses, a
	# report that is not what compare writes
	sed 's/^  checks: write.*/&\n  checks: read/' "$GH" >"$T/dup.yml"
	run python3 tests/cli/ci_jobs.py check github "$T/dup.yml"
	[ "$status" -eq 1 ]
	[[ "$output" == *"duplicate key 'checks'"* ]]
	sed 's|^        run: ../head/bench doctor|&\n        uses: actions/cache@v4|' "$GH" >"$T/both.yml"
	run python3 tests/cli/ci_jobs.py check github "$T/both.yml"
	[[ "$output" == *"step 4: exactly one of run and uses"* ]]
	sed 's|junit: results/compare.xml|junit: results/other.xml|' "$GL" >"$T/junit.yml"
	run python3 tests/cli/ci_jobs.py check gitlab "$T/junit.yml"
	[[ "$output" == *"the JUnit report is not what compare writes"* ]]
	# the nightly job: the pinned build cached under its own key, built
	# only when the cache did not bring it, both benches in one loop
	sed 's/kstats-bench-pinned-${{ runner.os }}-${{ env.KSB_PINNED }}/kstats-bench-pinned/' "$GH" >"$T/key.yml"
	run python3 tests/cli/ci_jobs.py check github "$T/key.yml"
	[ "$status" -eq 1 ]
	[[ "$output" == *"the pinned build is not cached under a key of KSB_PINNED"* ]]
	sed 's/if \[ ! -x pinned\/bench \]; then/if true; then/' "$GL" >"$T/rebuild.yml"
	run python3 tests/cli/ci_jobs.py check gitlab "$T/rebuild.yml"
	[[ "$output" == *"rebuilds the pinned bench every night"* ]]
	awk '/^  script:/ { s++ } s == 2 && /^        \.\/bench run/ { print "      done"; print "      for i in 1 2 3; do" } 1' \
		"$GL" >"$T/apart.yml"
	run python3 tests/cli/ci_jobs.py check gitlab "$T/apart.yml"
	[[ "$output" == *"does not interleave"* ]]
	sed 's/--control history\/control //' "$GH" >"$T/alone.yml"
	run python3 tests/cli/ci_jobs.py check github "$T/alone.yml"
	[[ "$output" == *"no 'bench trend --control'"* ]]
}

@test "ci/ sweeps: a matrix of shards, each an artifact, merged and gated; commands that exist" {
	GS=ci/github-actions-sweep.yml
	LS=ci/gitlab-ci-sweep.yml
	run python3 tests/cli/ci_jobs.py check github-sweep "$GS"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "kernels
shard
gate" ]
	run python3 tests/cli/ci_jobs.py check gitlab-sweep "$LS"
	[ "$status" -eq 0 ]
	[ "$output" = "kstats-bench-kernels
kstats-bench-sweep
kstats-bench-gate" ]
	# teeth: an option bench does not have
	# shellcheck disable=SC2016 # the $ are the jobs' own, a matrix that --shard does not
	# cover, a shard index that is not GitLab's, no merge
	sed 's/--accel "\$ACCEL"/--accell "$ACCEL"/' "$GS" >"$T/opt.yml"
	run python3 tests/cli/ci_jobs.py check github-sweep "$T/opt.yml"
	[ "$status" -eq 1 ]
	[[ "$output" == *" has no option --accell"* ]]
	sed 's/shard: \[1, 2, 3\]/shard: [1, 2]/' "$GS" >"$T/n.yml"
	run python3 tests/cli/ci_jobs.py check github-sweep "$T/n.yml"
	[[ "$output" == *"--shard's N is not the matrix's 2 shards"* ]]
	sed 's/accel: \[tcg, kvm\]$/accel: [tcg]/' "$GS" | awk '/accel: \[tcg\]/ && !n++ { print "        accel: [tcg, kvm]"; next } 1' >"$T/class.yml"
	run python3 tests/cli/ci_jobs.py check github-sweep "$T/class.yml"
	[[ "$output" == *"one merge and gate per runner class"* ]]
	# shellcheck disable=SC2016 # the $ are the jobs' own
	sed 's|CI_NODE_INDEX/\$CI_NODE_TOTAL|CI_NODE_INDEX/3|' "$LS" >"$T/idx.yml"
	run python3 tests/cli/ci_jobs.py check gitlab-sweep "$T/idx.yml"
	[[ "$output" == *"--shard is not \$CI_NODE_INDEX/\$CI_NODE_TOTAL"* ]]
	sed 's/bench merge -o sweep/bench mrge -o sweep/' "$LS" >"$T/merge.yml"
	run python3 tests/cli/ci_jobs.py check gitlab-sweep "$T/merge.yml"
	[[ "$output" == *"the gate job: no 'bench merge -o'"* ]]
	# linked from docs/ci.md, their shell shellcheck-clean
	for j in "$GS" "$LS"; do
		grep -qF "](../$j)" docs/ci.md || { echo "docs/ci.md does not link $j"; false; }
		head -8 "$j" | grep -q 'docs/ci.md' || { echo "$j: no docs/ci.md in its header"; false; }
	done
	python3 tests/cli/ci_jobs.py scripts github-sweep "$GS" "$T/gs"
	python3 tests/cli/ci_jobs.py scripts gitlab-sweep "$LS" "$T/ls"
	[ "$(find "$T/gs" "$T/ls" -name '*.sh' | wc -l)" -eq 6 ]
	if command -v shellcheck; then
		shellcheck -s bash "$T"/gs/*.sh "$T"/ls/*.sh
	fi
}

@test "README.md and docs/ci.md link both jobs of ci/, and no markdown copies them" {
	for j in "$GH" "$GL"; do
		grep -qF "]($j)" README.md || { echo "README.md does not link $j"; false; }
		grep -qF "](../$j)" docs/ci.md || { echo "docs/ci.md does not link $j"; false; }
		# each job's header says where its steps are explained
		head -8 "$j" | grep -q 'docs/ci.md' || { echo "$j: no docs/ci.md in its header"; false; }
	done
	# one copy only: the files themselves, which the tests here parse and run
	python3 - "$GH" "$GL" README.md docs/*.md <<'EOF'
import re, sys
jobs, docs = sys.argv[1:3], sys.argv[3:]
for doc in docs:
    for block in re.findall(r"^```ya?ml\n(.*?)^```$", open(doc).read(), re.S | re.M):
        for job in jobs:
            first = [l for l in open(job).read().splitlines() if l and not l.startswith("#")][0]
            assert first not in block, doc + " copies " + job
EOF
}

@test "every shell step of both jobs is shellcheck-clean" {
	command -v shellcheck || skip "shellcheck not installed"
	python3 tests/cli/ci_jobs.py scripts github "$GH" "$T/gh"
	python3 tests/cli/ci_jobs.py scripts gitlab "$GL" "$T/gl"
	python3 tests/cli/ci_jobs.py scripts github "$GH" "$T/ghn" nightly
	python3 tests/cli/ci_jobs.py scripts gitlab "$GL" "$T/gln" nightly
	[ "$(find "$T/gh" -name '*.sh' | wc -l)" -eq 5 ]
	[ "$(find "$T/ghn" -name '*.sh' | wc -l)" -eq 5 ]
	shellcheck -s bash "$T"/gh/*.sh "$T/gl/job.sh" "$T"/ghn/*.sh "$T/gln/job.sh"
}

@test "the GitHub Actions job runs end to end: build, doctor, interleave, compare, summary" {
	clone
	python3 tests/cli/ci_jobs.py scripts github "$GH" "$T/steps"
	mkdir -p "$T/bin"
	printf '#!/bin/sh\nexec "$@"\n' >"$T/bin/sudo"
	chmod +x "$T/bin/sudo"
	for s in "$T"/steps/*.sh; do
		(cd "$T/w/repo" && BASE_SHA=$sha HEAD_SHA=$sha BENCH_ARGS="-q --runs 2 -n 64" \
			GITHUB_STEP_SUMMARY=$T/summary GITHUB_OUTPUT=$T/output GITHUB_ACTIONS=true \
			PATH="$T/bin:$PATH" bash --noprofile --norc -eo pipefail "$s") >"$T/log" 2>&1 ||
			{ cat "$T/log"; echo "failed: $(head -1 "$s")"; false; }
	done
	cmp "$T/summary" "$T/w/repo/results/compare.md"
	rc=$(sed -n 's/^rc=//p' "$T/output")
	check_results "$rc"
}

@test "the GitLab CI job runs end to end: its script, exit 0 or 1 as the verdict says" {
	clone
	python3 tests/cli/ci_jobs.py scripts gitlab "$GL" "$T/job"
	rc=0
	(cd "$T/w/repo" && CI_MERGE_REQUEST_DIFF_BASE_SHA=$sha CI_COMMIT_SHA=$sha \
		BENCH_ARGS="-q --runs 2 -n 64" PATH="$T/bin:$PATH" bash --noprofile --norc -eo pipefail "$T/job/job.sh") \
		>"$T/log" 2>&1 || rc=$?
	cat "$T/log"
	[[ "$(cat "$T/log")" == *"DOCTOR checks=11 "* ]]
	[[ "$(cat "$T/log")" == *"COMPARE series=2 "* ]]
	check_results "$rc"
}

# the history a nightly job leaves after $1 nights: 3 rounds a night, a
# file a side each, labelled, and trend's markdown report, paired
check_history() {
	local h=$T/w/repo/history nights=$1 f
	[ "$(find "$h/control" -name '*.csv' | wc -l)" -eq $((3 * nights)) ]
	[ "$(find "$h/subject" -name '*.csv' | wc -l)" -eq $((3 * nights)) ]
	for f in "$h"/control/*.csv; do
		[ "$(csv_meta "$f" label_side)" = control ]
		[ "$(csv_meta "$f" label_commit)" = "$sha" ]
		[ "$(csv_meta "$h/subject/$(basename "$f")" label_side)" = subject ]
		# the control with twice tonight's runs (its noise half the ratio's)
		[ "$(csv_meta "$f" runs)" = 4 ]
		[ "$(csv_meta "$h/subject/$(basename "$f")" runs)" = 2 ]
	done
	grep -q "; each night against its control)" "$h/trend.md"
	# the row of the series against its control over every night's runs;
	# its verdict is the measurement's (a loaded runner may show a change)
	grep -q "^| irqdesc-alloc old tm10/control |\([^|]*|\)\{5\} $((3 * nights)) | [^|]* |$" "$h/trend.md"
}

# the GitHub nightly job's steps, run in the clone: night 2 finds the
# pinned bench (the cache's path) and does not build it again
gh_nightly() {
	local s
	for s in "$T"/nightly/*.sh; do
		(cd "$T/w/repo" && KSB_PINNED=$sha BENCH_ARGS="-q --runs 2 -n 64" GITHUB_SHA=$sha \
			GITHUB_STEP_SUMMARY=$T/summary GITHUB_ACTIONS=true \
			PATH="$T/bin:$PATH" bash --noprofile --norc -eo pipefail "$s") >"$T/log" 2>&1 ||
			{ cat "$T/log"; echo "failed: $(head -1 "$s")"; false; }
	done
}

@test "the GitHub Actions nightly job runs two nights: pinned once, interleaved, trend --control" {
	clone
	python3 tests/cli/ci_jobs.py scripts github "$GH" "$T/nightly" nightly
	mkdir -p "$T/bin"
	printf '#!/bin/sh\nexec "$@"\n' >"$T/bin/sudo"
	chmod +x "$T/bin/sudo"
	gh_nightly
	[ -x "$T/w/repo/pinned/bench" ]
	touch -d '2000-01-01' "$T/w/repo/pinned/bench"
	check_history 1
	gh_nightly
	check_history 2
	# the pinned bench came from the "cache": not built again
	[ "$(stat -c %Y "$T/w/repo/pinned/bench")" -eq "$(date -d 2000-01-01 +%s)" ]
	# the summary: both nights' reports
	[ "$(grep -c "each night against its control" "$T/summary")" -eq 2 ]
}

@test "the GitLab CI nightly job runs two nights: pinned once, interleaved, trend --control" {
	clone
	python3 tests/cli/ci_jobs.py scripts gitlab "$GL" "$T/nightly" nightly
	for night in 1 2; do
		(cd "$T/w/repo" && KSB_PINNED=$sha CI_COMMIT_SHA=$sha BENCH_ARGS="-q --runs 2 -n 64" \
			PATH="$T/bin:$PATH" bash --noprofile --norc -eo pipefail "$T/nightly/job.sh") >"$T/log" 2>&1 ||
			{ cat "$T/log"; false; }
		[[ "$(cat "$T/log")" == *"DOCTOR checks=11 "* ]]
		[[ "$(cat "$T/log")" == *"control=paired"* ]]
		check_history "$night"
		# night 2 must not build the pinned bench again
		touch -d '2000-01-01' "$T/w/repo/pinned/bench"
	done
	[ "$(stat -c %Y "$T/w/repo/pinned/bench")" -eq "$(date -d 2000-01-01 +%s)" ]
}
