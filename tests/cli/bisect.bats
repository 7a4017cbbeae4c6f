#!/usr/bin/env bats
# needs: busybox
# bench bisect (./run.sh bisect execs it): its refusals, which come
# before anything is built, its step (--step, what git bisect run runs),
# and a whole bisect of a fake tree whose bench vm boots nothing; the
# bisect of real kernels runs in make bisectcheck.

load common

setup() {
	common_setup
	G=$T/tree
	mkdir -p "$G"
	git -C "$G" init -q
	git -C "$G" config user.email t@t
	git -C "$G" config user.name t
	echo one >"$G/f"
	git -C "$G" add f
	git -C "$G" commit -q -m one
	git -C "$G" tag one
	echo two >"$G/f"
	git -C "$G" commit -q -am two
	git -C "$G" tag two
	git -C "$G" checkout -q -b side one
	echo side >"$G/f"
	git -C "$G" commit -q -am side
	git -C "$G" checkout -q two
	touch "$G/.config"
	export KSB_NO_DEPS=1 KSB_RESULTS=$T/results
}

# refuses WANT ARGS...: exit 2, one line on stderr containing WANT, the
# tree untouched and no results directory
refuses() {
	local want=$1 head
	shift
	head=$(git -C "$G" rev-parse HEAD)
	run --separate-stderr ./run.sh bisect "$@"
	echo "status $status stderr: $stderr"
	[ "$status" -eq 2 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == "bench bisect: "*"$want"* ]]
	[ "$(git -C "$G" rev-parse HEAD)" = "$head" ]
	[ ! -e "$T/results" ]
}

@test "bisect: a revision that does not exist, named" {
	refuses "'nosuch': no such revision in $G" "$G" nosuch two
	refuses "'v9.9': no such revision in $G" "$G" one v9.9
}

@test "bisect: GOOD not an ancestor of BAD, or the same commit" {
	refuses "'side' is not an ancestor of 'two'" "$G" side two
	refuses "GOOD and BAD are the same commit" "$G" two two
}

@test "bisect: a dirty tree, a bisect going, not a git tree, no .config" {
	echo dirty >"$G/f"
	refuses "$G: uncommitted changes" "$G" one two
	git -C "$G" checkout -q f
	git -C "$G" bisect start two one >/dev/null
	refuses "$G: a bisect is already going" "$G" one two
	git -C "$G" bisect reset >/dev/null 2>&1
	mkdir -p "$T/plain"
	refuses "$T/plain: not a git work tree" "$T/plain" one two
	rm "$G/.config"
	refuses "$G: no .config" "$G" one two
}

@test "bisect: usage: too few operands, an unknown option, an empty command" {
	refuses "TREE GOOD BAD expected" "$G" one
	refuses "unknown option '--frob'" --frob "$G" one two
	refuses "an empty COMMAND after '--'" "$G" one two --
}

@test "bisect: run.sh bisect is bench bisect; --help names the step and the exit codes" {
	run ./run.sh --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"./run.sh bisect [OPTIONS] TREE GOOD BAD [-- COMMAND...]"* ]]
	run ./run.sh bisect --help
	[ "$status" -eq 0 ]
	[ "$output" = "$(./bench bisect --help)" ]
	[[ "$output" == *"then git bisect run runs bench bisect --step at each commit"* ]]
	[[ "$output" == *"Exit: 0 found, 1 BAD does not regress against GOOD, 2 bad usage"* ]]
}

@test "bisect --step: without a good kernel, or with options it refuses, it aborts the bisect (128)" {
	run --separate-stderr bash -c "cd '$G' && '$PWD/bench' bisect --step '$T/out' -- kernel -n 8"
	[ "$status" -eq 128 ]
	[ "$stderr" = "bench bisect: $T/out/good/bzImage: No such file or directory (bench bisect keeps GOOD's kernel there)" ]
	# git bisect run takes 2 for bad: a step's usage error is an abort
	run --separate-stderr ./bench bisect --step "$T/out" --frob
	[ "$status" -eq 128 ]
	run --separate-stderr ./bench bisect --step "$T/out" -B 0
	[ "$status" -eq 128 ]
	[[ "$stderr" == "bench bisect: --boots: '0' is not an integer in 1..1000"* ]]
	[ ! -e "$T/out" ]
}

@test "bisect: the defaults, once, in --help; --vm split as the shell splits it, never run" {
	run ./bench bisect --help
	[[ "$output" == *"-B, --boots N "*"(default 2:"* ]]
	[[ "$output" == *"-p, --possible-cpus N "*"(default 480)"* ]]
	[[ "$output" == *"-c, --cpus N "*"(default bench vm's: 1 counted)"* ]]
	[[ "$output" == *"COMMAND: what the guests run (default kernel -w kernel-irq-alloc -n 512)."* ]]
	# written once: the C source, and no script, holds them
	[ "$(grep -c 'kernel-irq-alloc' builtin-bisect.c)" -eq 1 ]
	run grep -lE 'bisect_(boots|possible|cmd)=' run.sh tests/kernel/bisectcheck.sh
	[ "$status" -eq 1 ]
	# quotes that do not close are refused before anything is built
	refuses "--vm: '--label 'x': a quote that does not close" --vm "--label 'x" "$G" one two
	refuses "--threshold: '0' is not a percentage > 0" -t 0 "$G" one two
}

@test "bisect --step: a kernel that does not build is skipped (125), said so" {
	mkdir -p "$T/out/good"
	: >"$T/out/good/bzImage"
	printf 'olddefconfig bzImage modules:\n\t@echo "no rule to make vmlinux" >&2; exit 1\n' >"$G/Makefile"
	git -C "$G" add Makefile
	git -C "$G" commit -q -m make
	run --separate-stderr bash -c "cd '$G' && '$PWD/bench' bisect --step '$T/out' -- kernel -n 8"
	[ "$status" -eq 125 ]
	# make's own last line says where
	[ "$stderr" = "bench bisect: $(git -C "$G" rev-parse --short HEAD): the kernel does not build (make: *** [Makefile:2: olddefconfig] Error 1): skipped" ]
}

# fake_kit: $K, a copy of run.sh beside a fake bench (it boots nothing:
# "needs: busybox" is for the report's "bench vm" text, which
# testdeps.bats's pattern reads as a call) whose vm writes fixture CSVs
# instead of booting (good-REV: 6 runs at 480 possible CPUs; REV: the
# same, or the 576 ones where the tree's f says slow) and whose other
# commands are the real bench, each call's words logged to $T/calls
# (run.sh has bench bisect run its children through it: KSB_BENCH); and
# $S, a kernel tree of fake make targets, five commits, the fourth the
# slow one
fake_kit() {
	K=$T/kit
	S=$T/linux
	mkdir -p "$K/kmod" "$S"
	cp run.sh "$K/"
	touch "$K/kmod/"{Kbuild,Makefile,ksb_core.c,ksb_hist.h}
	cat >"$K/bench" <<EOS
#!/usr/bin/env bash
echo "\$*" >>"$T/calls"
if [ "\$1" != vm ]; then exec "$PWD/bench" "\$@"; fi
names=()
while [ \$# -gt 0 ]; do
	case \$1 in
	-o) out=\$2; shift 2 ;;
	--label) shift 2 ;;
	--) break ;;
	*=*) names+=("\${1%%=*}"); shift ;;
	*) shift ;;
	esac
done
cp "$PWD/$F/runs6-480.csv" "\$out/\${names[0]}.csv"
if grep -q slow f; then n=576; else n=480; fi
cp "$PWD/$F/runs6-\$n.csv" "\$out/\${names[1]}.csv"
# bench vm --label's lines, where the test asks for them
[ -z "\${FAKE_LABELS:-}" ] || sed -i "/^# partial:/r \$FAKE_LABELS" "\$out/\${names[0]}.csv" "\$out/\${names[1]}.csv"
EOS
	chmod +x "$K/bench"
	git -C "$S" init -q -b master
	git -C "$S" config user.email t@t
	git -C "$S" config user.name t
	cat >"$S/Makefile" <<'EOM'
olddefconfig:

bzImage:
	mkdir -p arch/x86/boot && cp f arch/x86/boot/bzImage

modules:
	[ -z "$(M)" ] || touch $(M)/kstats_bench.ko
EOM
	echo fast >"$S/f"
	git -C "$S" add Makefile f
	git -C "$S" commit -q -m "genirq: the good one"
	git -C "$S" tag good
	for c in "irqdomain: a comment" "Documentation: a line" "genirq: slow down __irq_alloc_descs()" \
		"genirq: a comment"; do
		[[ $c == *slow* ]] && echo slow >"$S/f" || echo "$c" >>"$S/g"
		git -C "$S" add -A
		git -C "$S" commit -q -m "$c"
	done
	touch "$S/.config"
	# configured, as bench kernel --build asks of a tree
	mkdir -p "$S/include/config"
	echo 6.12.0-fake >"$S/include/config/kernel.release"
}

@test "bisect: the report of a fake bisect, bisect.txt, in the shape of 0-day's mails" {
	fake_kit
	run --separate-stderr "$K/run.sh" bisect -B 6 -p 480 -c 2 -t 5 "$S" good master
	echo "status $status stderr: $stderr"
	printf '%s\n' "$output" >"$T/out.txt"
	[ "$status" -eq 0 ]
	dir=$(sed -n 's/.*results=\(.*\)$/\1/p' "$T/out.txt")
	[ -d "$dir" ]
	# what it printed is bisect.txt
	diff "$T/out.txt" "$dir/bisect.txt"
	sha=$(git -C "$S" rev-parse --short=10 master~1)
	full=$(git -C "$S" rev-parse master~1)
	short=$(git -C "$S" rev-parse --short master~1)
	g10=$(git -C "$S" rev-parse --short=10 good)
	gfull=$(git -C "$S" rev-parse good)
	[ "$(git -C "$S" rev-parse HEAD)" = "$(git -C "$S" rev-parse master)" ]
	# the table's rows, and the report around them: its lines exactly
	./bench compare -f lkp -t 5 "$dir/good-$short.csv" -- "$dir/$short.csv" >"$T/lkp" 2>/dev/null || [ $? -eq 1 ]
	tail -n +5 "$T/lkp" >"$T/rows"
	[ "$(wc -l <"$T/rows")" -eq 2 ]
	{
		echo "Subject: [linux:master] [genirq] $sha: irqdesc-alloc.old +29.6% regression"
		echo
		echo "kstats-bench noticed a +29.6% regression of irqdesc-alloc.old on:"
		echo
		echo "commit: $full (\"genirq: slow down __irq_alloc_descs()\")"
		echo
		echo "testbed: bench vm on vm (Intel(R) Xeon(R) Processor), 6 boots a kernel at 480 possible CPUs, 2 CPUs"
		echo "parameters:"
		echo
		echo "	command: bench kernel -w kernel-irq-alloc -n 512"
		echo "	boots: 6"
		echo "	possible_cpus: 480"
		echo "	cpus: 2"
		echo "	threshold: 5%"
		echo
		echo "To reproduce, in $S (the good kernel as bench bisect keeps it):"
		echo
		echo "	git checkout $full"
		echo "	make olddefconfig && make bzImage modules"
		echo "	bench vm -B 6 -p 480 -c 2 -o . --module $dir/good/kstats_bench.ko good-$short=$dir/good/bzImage $short=. -- kernel -w kernel-irq-alloc -n 512"
		echo "	bench compare -t 5 good-$short.csv -- $short.csv"
		echo
		echo "commit: "
		echo "  $g10 (\"genirq: the good one\")"
		echo "  $sha (\"genirq: slow down __irq_alloc_descs()\")"
		echo
		echo "${gfull:0:16} ${full:0:27} "
		echo "---------------- --------------------------- "
		echo "         %stddev     %change         %stddev"
		echo '             \          |                \  '
		cat "$T/rows"
		echo
		echo "#regzbot introduced: $sha"
		echo
		echo "first bad commit: $short genirq: slow down __irq_alloc_descs()"
		echo "condemned by: irqdesc-alloc.old.tm10 +29.6% regression, p=0.004329, n=6+6"
	} >"$T/want"
	head -n -1 "$dir/bisect.txt" >"$T/got"
	diff "$T/want" "$T/got"
	[[ "$(tail -1 "$dir/bisect.txt")" == "BISECT first_bad=$full steps="*" boots=6 possible=480 seconds="*" results=$dir" ]]
	# the rows are 0-day's table of the two sides, the verdict beside
	[[ "$(head -1 "$T/rows")" == *"  irqdesc-alloc.old.tm10  regression +29.6% ["* ]]
	# the step said its verdict from the compare's CSV, by column
	[[ "$stderr" == *"bench bisect: $short: bad: irqdesc-alloc.old.tm10 +29.6% regression"* ]]
	# BAD first, then each step's through git bisect run: bench vm and
	# bench compare with the options given, the defaults' command
	grep -qx "vm -q -B 6 -p 480 -c 2 -o $dir --module $dir/good/kstats_bench.ko good-$short=$dir/good/bzImage $short=$S -- kernel -w kernel-irq-alloc -n 512" "$T/calls"
	grep -qx "compare --also csv=$dir/$short.compare.csv --also lkp=$dir/$short.compare.lkp -t 5 $dir/good-$short.csv -- $dir/$short.csv" "$T/calls"
	grep -qx "bisect --step $dir -B 6 -p 480 -c 2 -t 5 -- kernel -w kernel-irq-alloc -n 512" "$T/calls"
	[ "$(grep -c '^vm ' "$T/calls")" -eq "$(grep -c '^compare ' "$T/calls")" ]
	./bench compare -f csv -t 5 "$dir/good-$short.csv" -- "$dir/$short.csv" >"$T/csv" 2>/dev/null || [ $? -eq 1 ]
	diff "$T/csv" "$dir/$short.compare.csv"
	# no tags of 0-day's
	run grep -cE '^(Reported-by|Closes):' "$dir/bisect.txt"
	[ "$output" = 0 ]
}

@test "bisect: the subject's tree and branch from the labels (--vm '--label ...')" {
	fake_kit
	# the fake vm does not read its options: the labels' lines come so
	printf '# label_tree: linux-next\n# label_branch: pending\n' >"$T/labels"
	export FAKE_LABELS=$T/labels
	run --separate-stderr "$K/run.sh" bisect --vm '--label tree=linux-next --label branch=pending' "$S" good master
	echo "status $status stderr: $stderr"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "Subject: [linux-next:pending] [genirq] $(git -C "$S" rev-parse --short=10 master~1): irqdesc-alloc.old +29.6% regression" ]
	# no -t: compare's own threshold, as its COMPARE line says, and none passed
	[[ "$output" == *$'\n\tthreshold: 5%\n'* ]]
	[[ "$output" == *$'\n\tbench compare good-'* ]]
	[ "$(grep -c -- ' -t ' "$T/calls")" -eq 0 ]
	# --vm's words reach bench vm whole, and the report as they were quoted
	grep -q '^vm -q -B 2 -p 480 --label tree=linux-next --label branch=pending -o ' "$T/calls"
	[[ "$output" == *$'\tbench vm -B 2 -p 480 --label tree=linux-next --label branch=pending -o . '* ]]
}
