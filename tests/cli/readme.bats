#!/usr/bin/env bats
# needs: python3
# README.md's examples cannot rot: every ```console block, marked
# <!-- check --> or <!-- check shape -->, runs here against the built
# bench, in a scratch directory, and prints what the README shows
# (tests/cli/readme_blocks.py says how it matches). Also: the install
# lines are tests/deps.sh's own lists, every relative link of the
# markdown resolves, and the README stays short.

load common

setup() {
	common_setup
}

# a scratch directory where ./bench, ./run.sh and tests/ are this
# checkout's, and results/ is the scratch directory's own
scratch() {
	W=$T/w
	mkdir -p "$W"
	ln -s "$PWD/bench" "$W/bench"
	ln -s "$PWD/tests" "$W/tests"
	printf '#!/bin/sh\nKSB_NO_DEPS=1 KSB_RESULTS=%s/results exec %s/run.sh "$@"\n' \
		"$W" "$PWD" >"$W/run.sh"
	chmod +x "$W/run.sh"
}

@test "README: every checked block runs, exits as marked and prints what it shows" {
	scratch
	mkdir "$T/b"
	n=$(python3 tests/cli/readme_blocks.py extract README.md "$T/b")
	[ "$n" -ge 6 ]
	for ((i = 1; i <= n; i++)); do
		line=$(cat "$T/b/$i.line")
		rc=0
		(cd "$W" && bash -o pipefail "$T/b/$i.sh") >"$T/b/$i.got" 2>"$T/b/$i.err" || rc=$?
		[ "$rc" -eq "$(cat "$T/b/$i.exit")" ] ||
			{ echo "README.md:$line: exit $rc, not $(cat "$T/b/$i.exit")"; cat "$T/b/$i.err"; false; }
		python3 tests/cli/readme_blocks.py match "$(cat "$T/b/$i.mode")" "$T/b/$i.want" "$T/b/$i.got" ||
			{ echo "README.md:$line: the output differs from the example:"; cat "$T/b/$i.got"; false; }
	done
	# the run script wrote its directory in the scratch one, with its plots
	[ -s "$(echo "$W"/results/*/heatmap.png)" ]
}

@test "README: the matcher has teeth (an order, a line, a shape, an unmarked block)" {
	printf 'a 1\nb 2\n' >"$T/want"
	printf 'a 1\nx\nb 2\n' >"$T/got"
	python3 tests/cli/readme_blocks.py match check "$T/want" "$T/got"
	printf 'b 2\na 1\n' >"$T/got"
	run python3 tests/cli/readme_blocks.py match check "$T/want" "$T/got"
	[ "$status" -eq 1 ]
	[ "$output" = "not in the output (in order): b 2" ]
	printf 'a   17\n...\nb 2.5\n' >"$T/got"
	python3 tests/cli/readme_blocks.py match shape "$T/want" "$T/got"
	run python3 tests/cli/readme_blocks.py match check "$T/want" "$T/got"
	[ "$status" -eq 1 ]
	# shellcheck disable=SC2016 # a literal $ command
	printf 'text\n\n```console\n$ true\n```\n' >"$T/R.md"
	mkdir "$T/b"
	run python3 tests/cli/readme_blocks.py extract "$T/R.md" "$T/b"
	[ "$status" -eq 1 ]
	[ "$output" = "$T/R.md:3: a console block without <!-- check -->" ]
}

@test "README: the install lines are tests/deps.sh's packages, per distribution" {
	python3 tests/cli/readme_blocks.py deps README.md >"$T/readme"
	[ "$(wc -l <"$T/readme")" -eq 8 ]
	while read -r fam role pkgs; do
		case $fam in
		apt) id=debian ;;
		dnf) id=fedora ;;
		zypper) id=opensuse-leap ;;
		pacman) id=arch ;;
		esac
		echo "ID=$id" >"$T/os-release"
		# KSB_PYTHON: deps.sh's own `command -v ... | head -n 1` dies of
		# SIGPIPE under pipefail about once in 60 calls, printing nothing
		want=$(KSB_PYTHON=/usr/bin/python3 KSB_OS_RELEASE=$T/os-release tests/deps.sh -l "$role" </dev/null |
			sed -E 's/libclang-rt-[0-9]+-dev/libclang-rt-N-dev/')
		[ "$pkgs" = "$want" ] || { echo "README.md's $fam $role line: $pkgs"; echo "tests/deps.sh -l $role: $want"; false; }
	done <"$T/readme"
}

@test "README and docs/: every relative link and #anchor resolves" {
	run python3 tests/cli/md_links.py README.md docs/*.md
	echo "$output"
	[ "$status" -eq 0 ]
	# the checker has teeth
	printf '[a](docs/nope.md) [b](README.md#no-such-heading)\n' >"$T/x.md"
	cp "$T/x.md" ./.ksb-links-test.md
	run python3 tests/cli/md_links.py ./.ksb-links-test.md
	rm -f ./.ksb-links-test.md
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 2 ]
}

@test "every citation of a README or docs section names a heading it has; machines by name" {
	run python3 tests/cli/citations.py
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# the checker has teeth: a heading that is gone, across two comment lines
	printf '/*\n * see README, "Install"; docs/reference''.md, "No\n * such section".\n */\n' >"$T/x.c"
	printf '\t"see README'"'"'s \\"Gone\\", and (README.md, \\"Install\\").\\n"\n' >>"$T/x.c"
	run python3 tests/cli/citations.py "$T/x.c"
	[ "$status" -eq 1 ]
	[ "$output" = "$T/x.c: docs/reference.md has no section \"No such section\"
$T/x.c: README.md has no section \"Gone\"" ]
	# a cited document that is not there is as dangling as a heading
	printf '# see docs/gone''.md, "Install" and (nowhere''.md, "Setup")\n' >"$T/y.sh"
	run python3 tests/cli/citations.py "$T/y.sh"
	[ "$status" -eq 1 ]
	[ "$output" = "$T/y.sh: docs/gone.md is missing (cited for \"Install\")
$T/y.sh: nowhere.md is missing (cited for \"Setup\")" ]
	# the machines are defined once (docs/measurements.md, "Machines") and named
	grep -q '^## Machines$' docs/measurements.md
	run git grep -n 'development VM' -- . ':!tests/cli/readme.bats'
	echo "$output"
	[ "$status" -eq 1 ]
	# in the documents, no unnamed machine: "this VM", "a 2-core host",
	# "the 2-CPU development host" say nothing of which one it was
	run git grep -niE '\bthis (VM|machine)\b|\b[0-9]{1,2}-(CPU|core) (development )?(host|VM|machine)\b|\bdevelopment (VM|host|machine)\b' \
		-- README.md 'docs/*.md'
	echo "$output"
	[ "$status" -eq 1 ]
}

@test "README stays a README: at most 320 lines" {
	[ "$(wc -l <README.md)" -le 320 ]
}
