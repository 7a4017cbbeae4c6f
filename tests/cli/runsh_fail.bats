#!/usr/bin/env bats
# needs: -
# shellcheck shell=bats
# run.sh when a step after the measurement fails: it stops there, with
# that step's status, instead of carrying on (set -e must hold inside
# every step, whatever calls it).

load common

setup() {
	common_setup
	# a copy of run.sh beside a stub bench, and a gnuplot that fails
	mkdir -p "$T/top"
	cp run.sh "$T/top/"
	printf 'all:\n\t@true\n' >"$T/top/Makefile"
	cat >"$T/top/bench" <<'STUB'
#!/bin/sh
case $1 in
run)
	while [ $# -gt 0 ]; do
		case $1 in
		-o) out=$2 ;;
		--also) echo "stub ${2%%=*}" >"${2#*=}" ;;
		esac
		shift
	done
	printf '# samples_taken: 1/1\nworkload,variant,run,cpu,node\nstub,old,all,all,-1\n' >"$out"
	;;
show)
	# --meta KEY FILE: what the stub's run wrote
	[ "$3" = samples_taken ] && echo 1/1
	;;
esac
STUB
	chmod +x "$T/top/bench"
	mkdir -p "$T/path"
	printf '#!/bin/sh\necho "gnuplot: stub failure" >&2\nexit 5\n' >"$T/path/gnuplot"
	chmod +x "$T/path/gnuplot"
	export KSB_RESULTS=$T/results KSB_NO_DEPS=1
}

@test "run.sh: a failing plot ends the job there, with run.sh's status" {
	PATH=$T/path:$PATH run "$T/top/run.sh" -n 16
	echo "$output"
	[ "$status" -eq 3 ]
	[[ "$output" == *"gnuplot failed on plots/hist.gp"* ]]
	[[ "$output" != *"results: "* ]]
	d=("$KSB_RESULTS"/*)
	[ -f "${d[0]}/output.txt" ]
	[ -f "${d[0]}/summary.txt" ]
	[ ! -e "${d[0]}/hist.png" ]
}
