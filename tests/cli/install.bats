#!/usr/bin/env bats
# needs: shellcheck python3 mandoc man groff busybox
# make install / uninstall into a temporary DESTDIR, the installed one
# command end to end, the man pages (the summary kstats-bench.1 and one
# page per command) and the bash completion.

load common

setup() {
	common_setup
	D=$T/dest
	P=/opt/ksb
}

# the files make install puts under $D$P, sorted
expected_files() {
	local p
	{
		echo bin/kstats-bench
		echo bin/kstats-bench-static
		echo bin/kstats-bench-run
		echo share/bash-completion/completions/kstats-bench
		for p in docs/kstats-bench*.1; do echo "share/man/man1/${p#docs/}"; done
		for p in plots/*.gp; do echo "share/kstats-bench/$p"; done
		for p in Kbuild Makefile dkms.conf ksb.h ksb_core.c ksb_hist.h ksb_mark.h ksb_results.c; do
			echo "share/kstats-bench/kmod/$p"
		done
	} | LC_ALL=C sort
}

@test "make install: exactly the files, the installed run script end to end, make uninstall" {
	make -s install PREFIX="$P" DESTDIR="$D"
	(cd "$D$P" && find . -type f | sed 's|^\./||' | LC_ALL=C sort) >"$T/got"
	expected_files | diff - "$T/got"
	[ "$(stat -c %a "$D$P/bin/kstats-bench")" = 755 ]
	[ "$(stat -c %a "$D$P/bin/kstats-bench-run")" = 755 ]
	for m in "$D$P"/share/man/man1/*.1; do [ "$(stat -c %a "$m")" = 644 ]; done
	"$D$P/bin/kstats-bench" hist "$F/patch_samples.txt" | cmp - "$F/patch_table.txt"
	# the man page names the paths of this PREFIX
	grep -q "^\.I $P/share/kstats-bench/plots/\*\.gp$" "$D$P/share/man/man1/kstats-bench.1"
	grep -q "^\.IR $P/share/kstats-bench/kmod )" "$D$P/share/man/man1/kstats-bench-kernel.1"
	[ "$(cat "$D$P"/share/man/man1/*.1 | grep -c /usr/local)" -eq 0 ]
	mandoc -T lint "$D$P"/share/man/man1/*.1

	# run from elsewhere, with no checkout around: it must use the
	# installed binary and plots, and write under the current directory
	mkdir "$T/work"
	KSB_NO_DEPS=1 run bash -c 'cd "$1" && shift && "$@"' - "$T/work" \
		"$D$P/bin/kstats-bench-run" -q -n 64 --possible-cpus 8
	echo "$output"
	[ "$status" -eq 0 ]
	dirs=("$T/work/results"/*)
	[ "${#dirs[@]}" -eq 1 ]
	d=${dirs[0]}
	[[ "$output" == *"results: $d"* ]]
	[ "$(csv_meta "$d/bench.csv" possible_cpus)" = 8 ]
	# the command as a shell line: the path quoted as the shell needs it
	q() { python3 -c 'import shlex, sys; print(shlex.quote(sys.argv[1]))' "$1"; }
	grep "^# command:" "$d/bench.csv"
	grep -qxF "# command: bench run --runs 6 -o $(q "$d/bench.csv") --also $(q "table=$d/output.txt") --also $(q "summary=$d/summary.txt") --also $(q "table:old=$d/table-old.txt") --also $(q "table:new=$d/table-new.txt") -q -n 64 --possible-cpus 8" "$d/bench.csv"
	for f in output.txt table-old.txt table-new.txt summary.txt hist.svg cdf.svg heatmap.svg; do
		[ -s "$d/$f" ] || { echo "missing $f"; false; }
	done
	for p in hist cdf heatmap; do png_ok "$d/$p.png"; done
	# nothing was built or written in the checkout
	[ ! -e results ] || [ -z "$(find results -newer "$D$P/bin/kstats-bench" -print -quit)" ]

	make -s uninstall PREFIX="$P" DESTDIR="$D"
	[ -z "$(find "$D" -type f)" ]
	[ ! -e "$D$P/share/kstats-bench" ]
}

@test "the installed script still runs from a checkout: bench and plots/ beside it" {
	KSB_RESULTS=$T/r KSB_NO_DEPS=1 ./run.sh -q -n 16 >/dev/null
	[ -s "$(echo "$T"/r/*/hist.png)" ]
}

# the commands of the registry, one man page each
commands() {
	./bench --list-cmds
}

@test "bench --list-cmds is the registry of --help; --list-opts CMD every long option of CMD --help" {
	run ./bench --list-cmds
	[ "$status" -eq 0 ]
	[ "$output" = "$(./bench --help | sed -n '/^Commands:/,/^$/s/^  \([a-z]*\) .*/\1/p')" ]
	[ "${#lines[@]}" -ge 12 ]
	for c in $(commands); do
		run ./bench --list-opts "$c"
		[ "$status" -eq 0 ]
		[ "${#lines[@]}" -eq 1 ]
		[ "$output" = "$(./bench "$c" --list-opts)" ]
		[ "$(tr ' ' '\n' <<<"$output" | sort)" = \
		  "$(./bench "$c" --help | grep -oE -- '^ +(-[A-Za-z0-9], )?--[a-z][a-z-]*' | grep -oE -- '--[a-z-]+' | sort)" ] ||
			{ echo "$c: --list-opts is not its --help's options"; false; }
	done
	[ "$(./bench --list-opts hist)" = "--frac-bits --format --also --help" ]
	run ./bench --list-opts nope
	[ "$status" -eq 2 ]
	[ "$output" = "bench: 'nope' is not a command (see 'bench --help')" ]
}

@test "man pages: a page per command, mandoc -T lint and groff -ww silent, man -l renders them" {
	command -v mandoc || skip "mandoc not installed (make deps)"
	[ "$(commands | wc -l)" -ge 11 ]
	for c in "" $(commands); do
		p=docs/kstats-bench${c:+-$c}.1
		[ -f "$p" ] || { echo "no man page $p for $c"; false; }
		run mandoc -T lint "$p"
		echo "$output"
		[ "$status" -eq 0 ]
		[ -z "$output" ]
		run groff -ww -man -z "$p"
		[ "$status" -eq 0 ]
		[ -z "$output" ]
		MANWIDTH=80 man -l "$p" >"$T/man.txt" 2>"$T/man.err"
		[ ! -s "$T/man.err" ]
		# no option rendered with a stray dash before it ("---flat")
		! grep -n -- '---' "$T/man.txt" || { echo "$p: ---"; false; }
		if [ -n "$c" ]; then
			for s in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" "SEE ALSO"; do
				grep -qx "$s" "$T/man.txt" || { echo "$p: no section $s"; false; }
			done
			grep -q "^       kstats-bench $c" "$T/man.txt" || { echo "$p: no synopsis of $c"; false; }
		fi
	done
	for s in NAME SYNOPSIS DESCRIPTION COMMANDS "THE ONE COMMAND" "OUTPUT FORMATS" \
		"CSV FORMAT" "JSON FORMAT" "EXIT STATUS" ENVIRONMENT FILES EXAMPLES; do
		grep -qx "$s" <(MANWIDTH=80 man -l docs/kstats-bench.1 2>/dev/null) || { echo "no section $s"; false; }
	done
}

# exit_codes: the exit codes a text names (0-3, 130, 143), sorted, one
# line; man page references such as "(1)" aside
exit_codes() {
	sed 's/([0-9])//g; s/\.\([0-9]\)/_\1/g' | tr -c '0-9A-Za-z%_+-' '\n' | grep -xE '0|1|2|3|130|143' |
		sort -un | tr '\n' ' '
}

# the codes of CMD's --help "Exit:" paragraph, and of its page's EXIT STATUS
help_exit() { ./bench "$1" --help | tr '\n' ' ' | sed -n 's/.*Exit: //p' | exit_codes; }
page_exit() {
	MANWIDTH=200 man -l "docs/kstats-bench-$1.1" 2>/dev/null | sed -n '/^EXIT STATUS$/,/^[A-Z]/p' | sed '1d;$d' |
		exit_codes
}

@test "each command's page says the exit codes its --help says" {
	local c bad=
	for c in $(commands); do
		./bench "$c" --help >"$T/help"
		grep -q 'Exit: ' "$T/help" || { bad+="$c: no Exit: line in --help"$'\n'; continue; }
		want=$(help_exit "$c")
		[ "$(page_exit "$c")" = "$want" ] ||
			bad+="kstats-bench-$c(1): exit $(page_exit "$c"), --help: $want"$'\n'
		! grep -q 'from compare and trend only' "docs/kstats-bench-$c.1" ||
			bad+="kstats-bench-$c(1): the summary page's list"$'\n'
	done
	echo "$bad"
	[ -z "$bad" ]
	# the check has teeth: a page that names 1 for run
	[ "$(printf 'EXIT STATUS\n0 done; 1 a regression; 2 bad usage (see kstats-bench(1)); 130 or 143\nSEE ALSO\n' |
		sed -n '/^EXIT STATUS$/,/^[A-Z]/p' | sed '1d;$d' | exit_codes)" = "0 1 2 130 143 " ]
	[ "$(help_exit run)" = "0 2 3 130 143 " ]
}

@test "bench --help and kstats-bench(1) give exit 1 to the commands whose --help does" {
	local c ones=
	for c in $(commands); do
		./bench "$c" --help >"$T/h"
		tr '\n' ' ' <"$T/h" | grep -o 'Exit: [^.]*' | grep -q '[ ,]1 ' &&
			ones="$ones${ones:+, }$c"
	done
	[ "$ones" = "compare, trend, scale, bisect" ]
	./bench --help >"$T/h"
	grep -qF "1 regression (compare, trend, scale) or none to bisect (bisect)," "$T/h" ||
		{ echo "bench --help: not 1 for $ones"; false; }
	MANWIDTH=200 man -l docs/kstats-bench.1 2>/dev/null | sed -n '/^EXIT STATUS$/,/^ENVIRONMENT$/p' >"$T/exit.txt"
	for c in ${ones//,/}; do
		grep -qw "$c" "$T/exit.txt" || { echo "kstats-bench(1): exit 1 does not name $c"; false; }
	done
}

# has_options PAGE CMD: PAGE, rendered, names every long option of
# `bench CMD --help` (as an entry of OPTIONS, or in its text where --help
# names another command's option), and its OPTIONS have no entry (a tag
# such as "-n, --samples") that --help lacks; says which differ
has_options() {
	local o tags bad=0
	MANWIDTH=200 man -l "$1" >"$T/page.txt" 2>/dev/null
	./bench "$2" --help >"$T/cmd-help.txt"
	while read -r o; do
		grep -q -- "$o" "$T/page.txt" || { echo "$1: $o undocumented"; bad=1; }
	done < <(grep -o -- '--[a-z][a-z-]*' "$T/cmd-help.txt" | sort -u)
	tags=$(sed -n '/^OPTIONS$/,/^EXIT STATUS$/p' "$T/page.txt" |
		grep -oE -- '^ {7}(-[A-Za-z0-9], )?--[a-z][a-z-]*' | grep -oE -- '--[a-z-]+' | sort -u)
	for o in $tags; do
		grep -qE -- "$o([^a-z-]|\$)" "$T/cmd-help.txt" || { echo "$1: $o is not in bench $2 --help"; bad=1; }
	done
	return $bad
}

@test "man pages: each command's page has every long option of its --help; the summary names every page" {
	MANWIDTH=200 man -l docs/kstats-bench.1 >"$T/summary.txt" 2>/dev/null
	for c in $(commands); do
		grep -q "kstats-bench-$c(1)" "$T/summary.txt" || { echo "the summary does not name kstats-bench-$c(1)"; false; }
		has_options "docs/kstats-bench-$c.1" "$c"
	done
	# the check has teeth: the page of run without --cache, and with an
	# option --help does not have
	grep -v -- 'cache' docs/kstats-bench-run.1 >"$T/run.1"
	run has_options "$T/run.1" run
	[ "$status" -eq 1 ]
	[ "$output" = "$T/run.1: --cache undocumented" ]
	sed 's/^\.BR \\-q ", " \\-\\-quiet$/.BR \\-q ", " \\-\\-quieter/' docs/kstats-bench-run.1 >"$T/run.1"
	run has_options "$T/run.1" run
	[ "$status" -eq 1 ]
	[ "$output" = "$T/run.1: --quieter is not in bench run --help" ]
}

# comp WORD...: what the completion offers for the last word, one line;
# kstats-bench is the built bench
comp() {
	mkdir -p "$T/bin"
	ln -sf "$PWD/bench" "$T/bin/kstats-bench"
	PATH=$T/bin:$PATH bash -c 'source docs/kstats-bench.bash-completion
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _kstats_bench
		printf "%s\n" "${COMPREPLY[@]}" | LC_ALL=C sort | tr "\n" " "' comp "$@"
}

@test "bash completion: commands, options, values, workloads, CSV files" {
	[ "$(comp kstats-bench "")" = "$( (./bench --list-cmds; printf '%s\n' --help --version --list-cmds --list-opts --list-values --list-arg) | LC_ALL=C sort | tr '\n' ' ')" ]
	for c in scale trend vm; do [[ "$(comp kstats-bench "")" == *" $c "* ]]; done
	[ "$(comp kstats-bench --list-opts s)" = "scale show sweep " ]
	[ "$(comp kstats-bench c)" = "calibrate compare " ]
	[ "$(comp kstats-bench doctor -)" = "--cpus --help --quiet " ]
	[ "$(comp kstats-bench run --ca)" = "--cache " ]
	[ "$(comp kstats-bench run -C "")" = "cold kernel remote " ]
	[ "$(comp kstats-bench run -m "")" = "parallel serial " ]
	[ "$(comp kstats-bench vm -m "")" = " " ]
	[ "$(comp kstats-bench vm --accel "")" = "kvm tcg " ]
	[ "$(comp kstats-bench vm -f c)" = "csv " ]
	[ "$(comp kstats-bench compare -s "")" = "mean median min p10 p25 p90 p99 tm10 " ]
	[ "$(comp kstats-bench hist -f j)" = "json " ]
	[ "$(comp kstats-bench trend -f m)" = "markdown " ]
	[ "$(comp kstats-bench scale -f p)" = "points " ]
	[ "$(comp kstats-bench scale --fl)" = "--flat " ]
	[ "$(comp kstats-bench scale --at "")" = " " ]
	[ "$(comp kstats-bench trend -w "")" = " " ]
	[ "$(comp kstats-bench show -c "")" = "all " ]
	[ "$(comp kstats-bench run -c "")" = " " ]
	[ "$(comp kstats-bench trace -p "")" = "auto fentry kprobe " ]
	[ "$(comp kstats-bench trace --probe k)" = "kprobe " ]
	[ "$(comp kstats-bench run -p "")" = " " ]
	[ "$(comp kstats-bench trace -f c)" = "csv " ]
	[ "$(comp kstats-bench compare -s m)" = "mean median min " ]
	[ "$(comp kstats-bench show tests/fixtures/aa-)" = "tests/fixtures/aa-after.csv tests/fixtures/aa-before.csv " ]
	[ "$(comp kstats-bench run -w irqdesc-s)" = "irqdesc-sparse " ]
	# the workloads, not the audit's entries that bench list prints after them
	[ "$(comp kstats-bench run -w proc-)" = " " ]
	[ "$(comp kstats-bench run -w mnt)" = "mntns " ]
	[ "$(comp kstats-bench audit --no)" = "--no-builtin " ]
	[ "$(comp kstats-bench audit -f k)" = "kcidb kstats " ]
	[ "$(comp kstats-bench audit --boot "")" = " " ]
	[ "$(comp kstats-bench audit -b tests/cli/audit.ba)" = "tests/cli/audit.bats " ]
	[ "$(comp kstats-bench trend -c tests/cli/trend.ba)" = "tests/cli/trend.bats " ]
	[ "$(comp kstats-bench kernel -w kernel-i)" = "kernel-irq-alloc " ]
	[ "$(comp kstats-bench run -b 1)" = "1 10 11 12 " ]
	[ "$(comp kstats-bench scale -f s)" = "sweep " ]
	[ "$(comp kstats-bench compare -f c)" = "cdf csv " ]
	[ "$(comp kstats-bench run -f s)" = "summary " ]
	# every command of the registry has its entry: every long option of
	# its --help is offered
	for c in $(commands); do
		offered=$(comp kstats-bench "$c" --)
		for o in $(./bench "$c" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
			[[ " $offered" == *" $o "* ]] || { echo "$c: $o not offered"; false; }
		done
	done
	bash -c 'source docs/kstats-bench.bash-completion; complete -p kstats-bench' | grep -q _kstats_bench
}

@test "bash completion: every value it offers is one its command takes, and comes from the binary" {
	local c o v n=0
	for c in $(commands); do
		for o in $(./bench --list-opts "$c"); do
			# the options with values of their own: the others offer files
			[ -n "$(./bench --list-values "$c" "$o" 2>/dev/null)" ] || continue
			for v in $(comp kstats-bench "$c" "$o" ""); do
				run ./bench "$c" "$o" "$v" --help
				[ "$status" -eq 0 ] || { echo "$c $o $v: refused: $output"; false; }
				n=$((n + 1))
			done
		done
	done
	echo "$n values offered"
	[ "$n" -gt 100 ]
	# the values are the binary's: a bench that lists others gets those offered
	# shellcheck disable=SC2016 # the fake's code
	printf '#!/bin/sh\n[ "$1" = --list-values ] && { echo "zz-$2-$3"; exit 0; }\nexec "%s/bench" "$@"\n' \
		"$PWD" >"$T/fake"
	chmod +x "$T/fake"
	mkdir -p "$T/fbin"
	ln -sf "$T/fake" "$T/fbin/kstats-bench"
	[ "$(PATH=$T/fbin:$PATH bash -c 'source docs/kstats-bench.bash-completion
		COMP_WORDS=(kstats-bench run -C ""); COMP_CWORD=3; _kstats_bench; echo "${COMPREPLY[*]}"')" = "zz-run--C" ]
	# and no list of them is written in the completion
	run grep -nE 'cold|tm10|kcidb|fentry|embedded|sfence' docs/kstats-bench.bash-completion
	[ "$status" -eq 1 ]
	# bench --list-values names what has none
	run --separate-stderr ./bench --list-values run --quiet
	[ "$status" -eq 2 ]
	[ "$stderr" = "bench run: '--quiet' is no option of bench run that takes a value (see 'bench run --help')" ]
	[ "$(./bench --list-values run -f)" = "$(./bench run --help | sed -n '/-f, --format/,/-o, --output/p' | sed -n 's/^ \{29\}\([a-z]*\) .*/\1/p' | tr '\n' ' ' | sed 's/ $//')" ]
}

@test "bash completion: what an option of no fixed set names comes from the binary's --list-arg" {
	[ "$(./bench --list-arg run -w)" = "--workload NAME" ]
	[ "$(./bench vm --list-arg -o)" = "--output DIR" ]
	[ "$(./bench --list-arg run -o)" = "--output FILE" ]
	run --separate-stderr ./bench --list-arg run --quiet
	[ "$status" -eq 2 ]
	[ "$stderr" = "bench run: '--quiet' is no option of bench run that takes a value (see 'bench run --help')" ]
	# a DIR is directories, a FILE files, -w the workloads by its long name
	mkdir -p "$T/d/sub"
	: >"$T/d/f"
	[ "$(comp kstats-bench vm -o "$T/d/")" = "$T/d/sub " ]
	[ "$(comp kstats-bench merge --output "$T/d/")" = "$T/d/sub " ]
	[ "$(comp kstats-bench run -o "$T/d/")" = "$T/d/f $T/d/sub " ]
	[ "$(comp kstats-bench vm --kbuild "$T/d/")" = "$T/d/sub " ]
	[ "$(comp kstats-bench show -w irqdesc-s)" = "irqdesc-sparse " ]
	[ "$(comp kstats-bench run --samples "")" = " " ]
	# a bench that names its options otherwise gets those honoured: no
	# option's name or alias is written in the completion
	# shellcheck disable=SC2016 # the fake's code
	printf '#!/bin/sh\n[ "$1" = --list-arg ] && { echo "--workload X"; exit 0; }\nexec "%s/bench" "$@"\n' \
		"$PWD" >"$T/fake"
	chmod +x "$T/fake"
	mkdir -p "$T/fbin"
	ln -sf "$T/fake" "$T/fbin/kstats-bench"
	[ "$(PATH=$T/fbin:$PATH bash -c 'source docs/kstats-bench.bash-completion
		COMP_WORDS=(kstats-bench run --samples irqdesc-s); COMP_CWORD=3; _kstats_bench; echo "${COMPREPLY[*]}"')" = irqdesc-sparse ]
	run grep -nE -- '-w\)|-o\)|--(output|kbuild|module|busybox|qemu|tuxmake|battery|statfs-path|cgroup-parent|control)\>' \
		docs/kstats-bench.bash-completion
	echo "$output"
	[ "$status" -eq 1 ]
}

@test "bash completion is shellcheck-clean" {
	command -v shellcheck || skip "shellcheck not installed"
	shellcheck -s bash docs/kstats-bench.bash-completion
}
