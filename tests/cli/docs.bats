#!/usr/bin/env bats
# needs: python3
# shellcheck disable=SC2016 # the backquotes in single quotes are markdown's
# The lists the docs write out are the binary's: each value list of a
# synopsis (tests/cli/synopsis_values.py), README's command table, and
# reference.md's formats and --label rows. A new format, command or
# option value that the docs leave out fails here, not in a reader's
# shell.

load common

setup() {
	common_setup
}

@test "docs: every value list of a synopsis is the one bench --list-values gives" {
	run /usr/bin/python3 tests/cli/synopsis_values.py ./bench README.md docs/*.md
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" =~ ^[0-9]+\ value\ lists\ checked$ ]]
	# and it has teeth: a list one value short, an option with no list
	printf 'bench run [-m serial] [-u ns|cycles]\n' >"$T/a.md"
	printf '  [-m parallel|serial] [--bogus a|b]\n' >>"$T/a.md"
	run /usr/bin/python3 tests/cli/synopsis_values.py ./bench "$T/a.md"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "$T/a.md:2: bench run -m parallel|serial: the binary takes serial|parallel" ]
	[ "${lines[1]}" = "$T/a.md:2: bench run --bogus a|b: the binary takes no such list" ]
	[ "${lines[2]}" = "3 value lists checked" ]
}

@test "docs: README's command table is bench --list-cmds, each with its man page" {
	got=$(sed -n 's/^| `bench \([a-z]*\)` | .* | \[kstats-bench-\1(1)\](docs\/kstats-bench-\1\.1) |$/\1/p' README.md | LC_ALL=C sort)
	[ "$got" = "$(./bench --list-cmds | LC_ALL=C sort)" ]
}

@test "docs: reference.md's --format row is run's formats, its --label row the commands that take it" {
	row=$(grep '^| `-f, --format` | `table` | stdout:' docs/reference.md)
	got=$(grep -o '`[a-z]*`' <<<"${row#*stdout:}" | tr -d '`' | tr '\n' ' ')
	[ "$got" = "$(./bench --list-values run -f) " ]
	row=$(grep '^| `--label KEY=VALUE` | none | record' docs/reference.md)
	got=$(grep -o '`bench [a-z]*`' <<<"$row" | sed 's/`bench \(.*\)`/\1/' | tr '\n' ' ')
	want=
	for c in $(./bench --list-cmds); do
		[ "$c" = run ] && continue
		run ./bench --list-opts "$c"
		[ "$status" -eq 0 ]
		[[ " $output " == *" --label "* ]] && want+="$c "
	done
	[ "$got" = "$want" ]
}
