#!/usr/bin/env bats
# needs: python3 busybox jq
# bench vm without a VM: its refusals, and everything around a boot with
# tests/cli/fake-qemu standing in for qemu (the initramfs it is given,
# the guest's transcript it writes). Real boots: make kernelcheck.

load common

setup() {
	vm_setup
}

@test "vm: --help gives the synopsis, the possible-CPU limits and the exit codes" {
	run --separate-stderr ./bench vm --help
	[ "$status" -eq 0 ]
	[[ "$output" == "Usage: bench vm [OPTIONS] [NAME=]KERNEL... -- COMMAND [ARGS] [-- COMMAND ...]"* ]]
	[[ "$output" == *"test-only-possible-cpus.patch"* ]]
	[[ "$output" == *"Exit: 0 done, 2 bad usage or files, 3 qemu, a boot or the guest refused"* ]]
	run ./bench --help
	[[ "$output" == *"vm "*"boot kernels under test in qemu"* ]]
}

@test "vm: usage errors, one line each, exit 2" {
	bad "no kernel: give a bzImage or a build tree" vm -- run
	bad "no command: -- kernel ... or -- run ..." vm "$IMG"
	bad "an empty command after '--'" vm "$IMG" --
	bad "an empty command after '--'" vm "$IMG" -- run -n 4 --
	bad "'hist': the guests run bench kernel, bench run, bench trace, bench audit or sh SCRIPT" vm "$IMG" -- hist x
	bad "'run -o': bench vm writes the command's CSV itself (-o DIR)" vm "$IMG" -- run -o x.csv
	bad "'run --output=x': bench vm writes" vm "$IMG" -- run --output=x
	bad "two 'run' commands: their files would have one name" vm "$IMG" -- run -- run
	bad "/nonexistent/bzImage: No such file or directory" vm /nonexistent/bzImage -- run
	bad "two kernels named 'stock': name them, NAME=$IMG" vm "$IMG" "$IMG" -- run
	bad "'a b': a kernel's NAME is [A-Za-z0-9._-]" vm "a b=$IMG" -- run
	bad "--boots: '0' is not an integer in 1..1000" vm -B 0 "$IMG" -- run
	bad "--cpus: '256' is not an integer in 1..255" vm -c 256 "$IMG" -- run
	bad "--accel: 'hvf' is not one of tcg, kvm" vm --accel hvf "$IMG" -- run
}

@test "vm: the configuration is checked before anything boots" {
	bad "--possible-cpus 1 is below --cpus 2" vm --qemu "$Q" --clock timed -c 2 -p 1 "$IMG" -- run
	bad "--possible-cpus 255 over 4 nodes: the firmware's CPUs must split evenly" \
		vm --qemu "$Q" -p 255 --nodes 4 -c 4 "$IMG" -- run
	bad "--memory 200 over 4 nodes: at least 64 MiB a node" \
		vm --qemu "$Q" -m 200 --nodes 4 -c 4 -p 16 "$IMG" -- run
}

@test "vm: a file that is not a bzImage, a module of another release: exit 2 naming them" {
	echo "not a kernel" >"$T/junk"
	bad "junk: $T/junk is not a bzImage (no \"HdrS\" boot header)" vm --qemu "$Q" "junk=$T/junk" -- run
	printf 'x\0vermagic=6.1.0-57-amd64 SMP \0' >"$T/old.ko"
	bad "--module $T/old.ko is built for 6.1.0-57-amd64, kernel stock is 6.12.117" \
		vm --qemu "$Q" --module "$T/old.ko" "$IMG" -- kernel
	bad "stock: bench kernel needs the module: give the kernel's build tree, --kbuild DIR or --module KO" \
		vm --qemu "$Q" "$IMG" -- kernel
	mkdir -p "$T/tree"
	bad "tree: $T/tree is not a configured kernel tree" vm --qemu "$Q" "$T/tree" -- run
}

@test "vm: no qemu, a dynamic busybox: exit 3 with the package to install" {
	run --separate-stderr ./bench vm --qemu /nonexistent/qemu "$IMG" -- run
	[ "$status" -eq 3 ]
	[[ "$stderr" == *"/nonexistent/qemu: not found (apt-get install qemu-system-x86, or --qemu PROG)"* ]]
	# --busybox FILE given, not a static busybox: bad input, as --bench FILE
	run --separate-stderr ./bench vm --qemu "$Q" --busybox /bin/sh "$IMG" -- run
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"/bin/sh is dynamically linked: the guests need a static one (apt-get install busybox-static"* ]]
	# --bench FILE that is no program at all: named as such
	bad "--bench README.md: not a 64-bit ELF program (make static builds bench-static)" \
		vm --qemu "$Q" --dry-run --bench README.md "$IMG" -- run
}

# vm ARGS...: bench vm with the fake qemu into $T/out
vm() {
	run --separate-stderr ./bench vm --qemu "$Q" -o "$T/out" "$@"
	echo "stderr: $stderr"
}

@test "vm: boots interleave, one CSV per kernel whose runs are the boots, compare reads them" {
	FAKE_QEMU_LOG=$T/boots vm -B 5 -p 8 "$IMG" "$T/patched/bzImage" -- run -n 64
	[ "$status" -eq 0 ]
	# A1 B1 A2 B2 ...
	run cat "$T/boots"
	[ "${lines[0]}" = "$IMG" ]
	[ "${lines[1]}" = "$T/patched/bzImage" ]
	[ "${lines[8]}" = "$IMG" ]
	[ "${lines[9]}" = "$T/patched/bzImage" ]
	[ "${#lines[@]}" -eq 10 ]
	[ "$(csv_meta "$T/out/stock.csv" runs)" = 5 ]
	[ "$(csv_meta "$T/out/stock.csv" vm_boots)" = "1:8/1 2:8/1 3:8/1 4:8/1 5:8/1" ]
	[ "$(csv_meta "$T/out/patched.csv" vm_release)" = 6.12.117 ]
	[ "$(csv_meta "$T/out/patched.csv" vm_image)" = "$T/patched/bzImage" ]
	[ "$(csv_meta "$T/out/stock.csv" partial)" = no ]
	# the counted clock, TCG's default: one vCPU, instructions
	[[ "$(csv_meta "$T/out/stock.csv" vm_qemu)" == "$Q -machine q35,vmport=on -cpu max,-hypervisor -smbios type=1,serial=VMware-kstats-bench -accel tcg,thread=single -icount shift=0,sleep=off -rtc clock=vm -smp 1,maxcpus=8,sockets=1,cores=8,threads=1 -m 1024 -kernel $IMG "* ]]
	[ "$(csv_meta "$T/out/stock.csv" vm_clock)" = counted ]
	[ "$(csv_meta "$T/out/stock.csv" unit)" = insn ]
	# every boot's rows, then the merge over them
	[ "$(csv_rows "$T/out/stock.csv" bucket variant=old run=5 cpu=all | wc -l)" -gt 0 ]
	run ./bench compare "$T/out/stock.csv" -- "$T/out/patched.csv"
	[ "$status" -le 1 ]
	[[ "$output" == *" exact n=5+5 "* ]]
	[ -f "$T/out/stock.console" ]
	grep -q "^=== stock boot 5, try 1$" "$T/out/stock.console"
}

@test "vm: the guests' testbed, this host's as vm_host_ keys, and bench vm's start and --label" {
	t0=$(date -u +%s)
	KSB_TESTBED_ROOT=tests/fixtures/hosts/noisy FAKE_QEMU_TESTBED=tests/fixtures/hosts/tuned \
		vm -B 2 -p 4 --label commit=0123abc "$IMG" -- run -n 32 --label side=guest
	t1=$(date -u +%s)
	[ "$status" -eq 0 ]
	f=$T/out/stock.csv
	# what the guests ran in, and this host after bench vm's own keys
	[ "$(csv_meta "$f" cpufreq_governor)" = performance ]
	[ "$(csv_meta "$f" vm_host_cpufreq_governor)" = "powersave x3, performance x1" ]
	[ "$(csv_meta "$f" vm_host_irqbalance)" = running ]
	# the testbed's 13, then the runner's class and name (lib/results/strata.h)
	[ "$(grep -c '^# vm_host_' "$f")" -eq 15 ]
	[ "$(csv_meta "$f" vm_accel)" = tcg ]
	[ "$(csv_meta "$f" vm_host_name)" = "$(uname -n)" ]
	[ -n "$(csv_meta "$f" vm_host_cpu_model)" ]
	[[ "$(csv_meta "$f" vm_plan)" =~ ^[0-9a-f]{64}$ ]]
	awk '/^# vm_boot_tries:/ { b = NR } /^# vm_host_cpufreq_governor:/ { h = NR }
		END { exit !(b && b < h) }' "$f"
	# one timestamp, bench vm's start; the guests' label and bench vm's
	[ "$(grep -c '^# timestamp: ' "$f")" -eq 1 ]
	t=$(date -u -d "$(csv_meta "$f" timestamp)" +%s)
	[ "$t" -ge "$t0" ] && [ "$t" -le "$t1" ]
	[ "$(grep '^# label_' "$f")" = "# label_side: guest
# label_commit: 0123abc" ]
	[[ "$(./bench --version)" == *"(git $(csv_meta "$f" bench_git))" ]]
	# a bad tree or label is refused before anything boots
	KSB_TESTBED_ROOT=$T/none vm -B 1 "$IMG" -- run -n 32
	[ "$status" -eq 2 ]
	[ "$stderr" = "bench vm: KSB_TESTBED_ROOT: $T/none: not a directory" ]
	vm --label Commit=x "$IMG" -- run -n 32
	[ "$status" -eq 2 ]
	[[ "$stderr" == "bench vm: --label: 'Commit=x' is not KEY=VALUE"* ]]
}

@test "vm: bench show of the file gives the merge of its boots' tables" {
	vm -B 2 -p 4 "$IMG" -- run -n 32
	[ "$status" -eq 0 ]
	run ./bench show -v old "$T/out/stock.csv"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "$(printf 'BUCKET \tSAMPLES\t AVG TIME(ns)  PERCENTILE')" ]
	[[ "${lines[-1]}" == *" 1.000000" ]]
}

@test "vm: two commands give NAME-COMMAND.csv each" {
	mkdir -p "$T/fixture"
	vm -B 1 -p 4 --module tests/fixtures/vm/kstats_bench.ko "$IMG" -- kernel -n 16 -- run -n 16
	[ "$status" -eq 0 ]
	[ -f "$T/out/stock-kernel.csv" ]
	[ -f "$T/out/stock-run.csv" ]
	[ "$(csv_meta "$T/out/stock-kernel.csv" vm_guest_command)" = "bench kernel -n 16" ]
	[ "$(csv_meta "$T/out/stock-kernel.csv" source)" = kernel ]
}

@test "vm: a guest that counts fewer possible CPUs than asked: exit 3 naming the limit" {
	FAKE_QEMU=possible=255 vm -B 1 -p 480 "$IMG" -- run -n 16
	[ "$status" -eq 3 ]
	[[ "$stderr" == *"stock boot 1: 255 possible CPUs, not 480: qemu's firmware declares at most 255, and 6.12.117 added none from possible_cpus= (kernels since 6.9 do not: apply tests/kernel/patches/test-only-possible-cpus.patch"* ]]
	[ ! -f "$T/out/stock.csv" ]
}

@test "vm: a boot that hangs is killed at --timeout, named, booted again, then given up" {
	FAKE_QEMU=hang vm -B 1 --timeout 10 --retries 1 "$IMG" -- run -n 16
	[ "$status" -eq 3 ]
	[[ "$stderr" == *"stock boot 1 hung: killed at --timeout (console: [    0.000000] Linux version fake"*"; booting it again"* ]]
	[[ "$stderr" == *"stock boot 1 failed 2 times (see $T/out/stock.console)"* ]]
	[ "$(grep -c '^=== stock boot 1, try' "$T/out/stock.console")" -eq 2 ]
}

@test "vm: a crash on the first try is booted again, and the file says so" {
	rm -f "$T/stock/bzImage.booted"
	FAKE_QEMU=crash-once vm -B 2 -p 4 "$IMG" -- run -n 16
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"stock boot 1 stopped before its commands finished"*"; booting it again"* ]]
	[ "$(csv_meta "$T/out/stock.csv" vm_boot_tries)" = "1:2 2:1" ]
	[ "$(csv_meta "$T/out/stock.csv" runs)" = 2 ]
}

@test "vm: a disturbed boot is booted again, both kept, and said" {
	FAKE_QEMU=busy=1 vm --clock timed -B 2 -p 4 "$IMG" -- run -n 16
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"stock boot 1 disturbed: psi cpu some 100.0% of its "*" s (limit 40%), qemu "*"; booting it again"* ]]
	[[ "$stderr" != *"boot 2 disturbed"* ]]
	[ "$(csv_meta "$T/out/stock.csv" vm_disturbed_tries)" = "1:100.00" ]
	[ "$(csv_meta "$T/out/stock.csv" psi_cpu_some_pct)" = "1:0.00 2:0.00" ]
	[ "$(csv_meta "$T/out/stock.csv" psi_cpu_some_us)" = "1:0 2:0" ]
	[[ "$(csv_meta "$T/out/stock.csv" vm_qemu_cpu_seconds)" =~ ^1:[0-9]+\.[0-9]{2}\ 2:[0-9]+\.[0-9]{2}$ ]]
	[ -z "$(csv_meta "$T/out/stock.csv" vm_unquiet_boots)" ]
	[ "$(csv_meta "$T/out/stock.csv" runs)" = 2 ]
	grep -qx "=== stock boot 1 disturbed: psi cpu some 100.0% of its .* booted again" "$T/out/stock.console"
	[ "$(grep -c '^=== stock boot 1, try 1' "$T/out/stock.console")" -eq 2 ]
}

@test "vm: a boot with no quiet try left is kept, marked in the file and on stderr" {
	FAKE_QEMU=busy=3 FAKE_QEMU_LOG=$T/boots vm --clock timed -B 2 -p 4 --reboot-disturbed 1 "$IMG" -- run -n 16
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"stock boot 1 disturbed: "*"; booting it again"* ]]
	[[ "$stderr" == *"stock boot 1 disturbed: "*"; no quiet boot within --reboot-disturbed: kept, marked in vm_unquiet_boots"* ]]
	[[ "$stderr" == *"stock boot 2 disturbed: "*"; booting it again"* ]]
	[ "$(csv_meta "$T/out/stock.csv" vm_disturbed_tries)" = "1:100.00 2:100.00" ]
	[ "$(csv_meta "$T/out/stock.csv" vm_unquiet_boots)" = "1:100.00" ]
	[ "$(csv_meta "$T/out/stock.csv" psi_cpu_some_pct)" = "1:100.00 2:0.00" ]
	[ "$(csv_meta "$T/out/stock.csv" runs)" = 2 ]
	# boot 1 twice, disturbed both times; boot 2 disturbed, then quiet
	[ "$(wc -l <"$T/boots")" -eq 4 ]
	run ./bench show "$T/out/stock.csv"
	[[ "$output" == *"1 of 2 boots disturbed (psi cpu some > 40% of the window, qemu < 0.7 cpu)"* ]]
}

@test "vm: --reboot-disturbed 0 keeps a disturbed boot, marked; its range is checked" {
	FAKE_QEMU=busy=1 FAKE_QEMU_LOG=$T/boots vm --clock timed -B 1 -p 4 --reboot-disturbed 0 "$IMG" -- run -n 16
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"stock boot 1 disturbed: "*"; no quiet boot within --reboot-disturbed: kept"* ]]
	[ "$(csv_meta "$T/out/stock.csv" vm_unquiet_boots)" = 1:100.00 ]
	[ "$(wc -l <"$T/boots")" -eq 1 ]
	bad "--reboot-disturbed: '6' is not an integer in 0..5" vm --reboot-disturbed 6 "$IMG" -- run
}

@test "vm: counted boots are never disturbed: the host's stall recorded, no rule, no boot again" {
	FAKE_QEMU=busy=1 FAKE_QEMU_LOG=$T/boots vm -B 2 -p 4 "$IMG" -- run -n 16
	[ "$status" -eq 0 ]
	[[ "$stderr" != *disturbed* ]]
	[ "$(wc -l <"$T/boots")" -eq 2 ]
	[ "$(csv_meta "$T/out/stock.csv" psi_cpu_some_pct)" = "1:100.00 2:0.00" ]
	[ -z "$(csv_meta "$T/out/stock.csv" vm_disturbed_tries)" ]
	[ -z "$(csv_meta "$T/out/stock.csv" vm_unquiet_boots)" ]
	run ./bench show "$T/out/stock.csv"
	[[ "$output" != *"boots disturbed"* ]]
	bad "--reboot-disturbed 1 under --clock counted: the host's load cannot disturb a count, so booting again would measure the same (--clock timed)" \
		vm --reboot-disturbed 1 "$IMG" -- run
}

@test "vm: the counted clock: refused where it cannot count, and a sh command's CSVs in insn" {
	bad "--cpus 2 under --clock counted: qemu counts the instructions of every vCPU on one counter, so a figure would hold the other vCPUs' too (-c 1, or --clock timed)" \
		vm -c 2 -p 4 "$IMG" -- run
	bad "--clock counted needs --accel tcg: KVM runs the guest on this host's cores, whose clock qemu cannot count (--clock timed)" \
		vm --accel kvm --clock counted -p 4 "$IMG" -- run
	bad "--clock: 'fast' is not one of timed, counted" vm --clock fast "$IMG" -- run
	# KVM is timed by default: its line has no -icount
	vm --dry-run --accel kvm -p 4 "$IMG" -- run -n 16
	[ "$status" -eq 0 ]
	[[ "${lines[1]}" == "$Q -machine q35,accel=kvm -cpu host -smp 2,"* ]]
	# a kstats-bench CSV an sh command leaves says what it counted
	# shellcheck disable=SC2016 # the guest's $KSB_OUT, not ours (the fake qemu's root)
	printf '"${FAKE_QEMU_ROOT:-}"/bench run -q -n 16 -o "$KSB_OUT/r.csv" >/dev/null\necho plain >"$KSB_OUT/p.txt"\n' >"$T/r.sh"
	vm -B 1 -p 4 "$IMG" -- sh "$T/r.sh"
	[ "$status" -eq 0 ]
	[ "$(csv_meta "$T/out/stock-sh/boot1/r.csv" unit)" = insn ]
	[ "$(csv_meta "$T/out/stock-sh/boot1/r.csv" vm_clock)" = counted ]
	[ "$(sed -n 2p "$T/out/stock-sh/boot1/r.csv")" = "# vm_clock: counted" ]
	[ "$(cat "$T/out/stock-sh/boot1/p.txt")" = plain ]
	[ "$(csv_meta "$T/out/stock-sh/boot1.meta" vm_clock)" = counted ]
	run ./bench show "$T/out/stock-sh/boot1/r.csv"
	[ "$status" -eq 0 ]
	[[ "$output" == *"# insn: the guest's instructions, counted by qemu (bench vm --clock counted): its \"ns\" are instructions, not time"* ]]
}

@test "vm: a host without PSI records no stall, and reboots nothing" {
	KSB_PSI_CPU=/nonexistent/cpu FAKE_QEMU=busy=1 vm -B 1 -p 4 "$IMG" -- run -n 16
	[ "$status" -eq 0 ]
	[[ "$stderr" != *disturbed* ]]
	[ "$(grep -c "psi_cpu_some" "$T/out/stock.csv")" -eq 0 ]
	[[ "$(csv_meta "$T/out/stock.csv" vm_qemu_cpu_seconds)" =~ ^1:[0-9]+\.[0-9]{2}$ ]]
}

@test "vm: the guest command's usage error is ours, exit 2, with its message" {
	FAKE_QEMU=rc=2 vm -B 1 "$IMG" -- run -n 16
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"stock boot 1: bench run exited 2 in the guest: bench run: told to fail with 2"* ]]
}

@test "vm: qemu refusing to start is exit 3 with its message" {
	FAKE_QEMU=qemu-fails vm -B 1 "$IMG" -- run -n 16
	[ "$status" -eq 3 ]
	[[ "$stderr" == *"stock boot 1: qemu exited 1: qemu-system-x86_64: -kernel $IMG: could not load kernel"* ]]
}

@test "vm: SIGINT during a boot keeps the finished boots, partial, exit 130" {
	FAKE_QEMU_LOG=$T/boots ./bench vm --qemu "$Q" -o "$T/out" -B 3 -p 4 "$IMG" -- run -n 16 \
		>"$T/stdout" 2>"$T/stderr" &
	pid=$!
	# the second boot starts only after the first finished
	for _ in $(seq 600); do
		[ "$(wc -l <"$T/boots" 2>/dev/null || echo 0)" -ge 2 ] && break
		sleep 0.1
	done
	kill -INT "$pid"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq 130 ]
	[ "$(csv_meta "$T/out/stock.csv" partial)" = yes ]
	runs=$(csv_meta "$T/out/stock.csv" runs)
	[ "$runs" -ge 1 ] && [ "$runs" -le 2 ]
	[ "$(csv_meta "$T/out/stock.csv" runs_asked)" = 3 ]
}

@test "vm: the work directory is gone afterwards" {
	TMPDIR=$T vm -B 1 "$IMG" -- run -n 16
	[ "$status" -eq 0 ]
	run find "$T" -maxdepth 1 -name 'ksb-vm.*'
	[ -z "$output" ]
}

@test "vm: --busybox FILE that is missing or not a busybox: exit 2 naming it" {
	bad "--busybox $T/none: No such file or directory" vm --qemu "$Q" --busybox "$T/none" "$IMG" -- run
	touch "$T/unreadable"
	chmod 000 "$T/unreadable"
	if [ "$(id -u)" -ne 0 ]; then
		bad "--busybox $T/unreadable: Permission denied" vm --qemu "$Q" --busybox "$T/unreadable" "$IMG" -- run
	fi
	echo "not an ELF" >"$T/text"
	bad "bench vm: $T/text is not a busybox (no BusyBox version banner in it): the guests need a static busybox (apt-get install busybox-static, or --busybox FILE)" \
		vm --qemu "$Q" -o "$T/out" --busybox "$T/text" "$IMG" -- run
	[ ! -e "$T/out" ]
	# a static ELF that is not busybox: bench-static itself
	run --separate-stderr ./bench vm --qemu "$Q" -o "$T/out" --busybox bench-static "$IMG" -- run
	[ "$status" -eq 2 ]
	[[ "$stderr" == "bench vm: bench-static is not a busybox"*"apt-get install busybox-static"* ]]
}

@test "vm: -p lists: each count 1..8192, none twice, exit 2 stating the range" {
	for p in 0 64,,1 9000 '64,' ,64 x 64,64; do
		run --separate-stderr ./bench vm --qemu "$Q" -p "$p" "$IMG" -- run
		echo "$p: $stderr"
		[ "$status" -eq 2 ]
		[ "${#stderr_lines[@]}" -eq 1 ]
		if [ "$p" = 64,64 ]; then
			[[ "$stderr" == "bench vm: --possible-cpus: '64,64' asks 64 twice"* ]]
		else
			[[ "$stderr" == "bench vm: --possible-cpus: '$p' is not a list of at most 16 counts, each in 1..8192 (e.g. 64,128,255)"* ]]
		fi
	done
	bad "--possible-cpus 1 is below --cpus 2" vm --qemu "$Q" --clock timed -c 2 -p 4,1 "$IMG" -- run
}

@test "vm: a sweep: every kernel at every count, balanced rounds, NAME[-CMD]-pN.csv" {
	FAKE_QEMU_SWEEP=$T/sweep vm -B 2 -p 4,8,16 "A=$IMG" "B=$T/patched/bzImage" -- run -n 16
	[ "$status" -eq 0 ]
	# round 1: counts in blocks of the two kernels; round 2 rotated by one of each
	run cat "$T/sweep"
	[ "$output" = "$IMG 4
$T/patched/bzImage 4
$IMG 8
$T/patched/bzImage 8
$IMG 16
$T/patched/bzImage 16
$T/patched/bzImage 8
$IMG 8
$T/patched/bzImage 16
$IMG 16
$T/patched/bzImage 4
$IMG 4" ]
	for k in A B; do
		for p in 4 8 16; do
			f=$T/out/$k-p$p.csv
			[ "$(csv_meta "$f" runs)" = 2 ]
			[ "$(csv_meta "$f" possible_cpus)" = "$p" ]
			[ "$(csv_meta "$f" vm_name)" = "$k" ]
			[ "$(csv_meta "$f" vm_boots)" = "1:$p/1 2:$p/1" ]
		done
	done
	csvs=("$T"/out/*.csv)
	[ "${#csvs[@]}" -eq 6 ]
	# progress per boot, named by file
	[[ "$stderr" == *"bench vm: A-p8 boot 2/2: "*" s, 8 possible CPUs, 1 online"* ]]
	# two commands: NAME-CMD-pN.csv
	vm -B 1 -p 4,8 --module tests/fixtures/vm/kstats_bench.ko "$IMG" -- kernel -n 16 -- run -n 16
	[ "$status" -eq 0 ]
	for f in stock-kernel-p4 stock-kernel-p8 stock-run-p4 stock-run-p8; do
		[ -f "$T/out/$f.csv" ]
	done
	[ "$(csv_meta "$T/out/stock-kernel-p8.csv" possible_cpus)" = 8 ]
	# one document on stdout cannot hold a sweep, nor can an --also file
	bad "-f csv: one document for 1 kernels x 1 commands x 2 counts" vm --qemu "$Q" -f csv -p 4,8 "$IMG" -- run
	bad "--also json: one document for 1 kernels x 1 commands x 2 counts" vm --qemu "$Q" \
		--also "json=$T/x.json" -p 4,8 "$IMG" -- run
	[ ! -e "$T/x.json" ]
	# --also: what stdout got, again, in its format
	vm -B 1 -p 4,8 --also "table=$T/t.txt" --also "kcidb=$T/k.json" "$IMG" -- run -n 16
	[ "$status" -eq 0 ]
	[ "$output" = "$(cat "$T/t.txt")" ]
	[ "$(grep -c '^# stock-p[48]: bench run -n 16, 1 boots of ' "$T/t.txt")" -eq 2 ]
	[ "$(jq -s length "$T/k.json")" -eq 2 ]
}

@test "vm: -- trace FUNC [options] -- PROG: its '--' is its own, PROG runs to the next '--'" {
	FAKE_QEMU_CMDS=$T/cmds vm -B 1 -p 4 "$IMG" -- trace -p fentry show_stat -- cat /proc/stat -- run -n 16
	[ "$status" -eq 0 ]
	run cat "$T/cmds"
	[ "${lines[0]}" = "trace|-p|fentry|show_stat|--|cat|/proc/stat|" ]
	[ "${lines[1]}" = "run|-n|16|" ]
	[ -f "$T/out/stock-trace.csv" ]
	[ -f "$T/out/stock-run.csv" ]
	[ "$(csv_meta "$T/out/stock-trace.csv" vm_guest_command)" = "bench trace -p fentry show_stat -- cat /proc/stat" ]
	[ "$(csv_meta "$T/out/stock-trace.csv" possible_cpus)" = 4 ]
	# alone, and PROG's own -o is PROG's
	vm -B 1 -p 4 "$IMG" -- trace show_stat -- /bench run -w empty -o /tmp/x.csv
	[ "$status" -eq 0 ]
	[ -f "$T/out/stock.csv" ]
	bad "'trace ... --': no program after '--'" vm --qemu "$Q" "$IMG" -- trace show_stat --
	bad "'trace -o': bench vm writes the command's CSV itself" vm --qemu "$Q" "$IMG" -- trace -o x f
	bad "two 'trace' commands" vm --qemu "$Q" "$IMG" -- trace f -- true -- trace g
}

@test "vm: -- sh SCRIPT: its \$KSB_OUT files as NAME-sh/bootB/FILE, stdout and stderr beside" {
	cat >"$T/plan.sh" <<-'EOF'
		echo "args: $# $1|$2"
		echo "to stderr" >&2
		printf 'a,b\n@ksb end 1 rc=9\nno newline' >"$KSB_OUT/data.csv"
		: >"$KSB_OUT/empty"
		cp "$FAKE_QEMU_ROOT/etc/x/hn" "$KSB_OUT/hn"
		ls -l "$FAKE_QEMU_ROOT/tool" "$FAKE_QEMU_ROOT/etc/x/hn" | cut -c1-10 >"$KSB_OUT/modes"
		echo hidden >"$KSB_OUT/.hidden"
		mkdir "$KSB_OUT/sub"
	EOF
	echo host1 >"$T/hn"
	printf '#!/bin/sh\n' >"$T/tool"
	chmod 755 "$T/tool"
	vm -B 2 --file "$T/hn=/etc/x/hn" --file "$T/tool" "$IMG" -- sh "$T/plan.sh" x "y z"
	[ "$status" -eq 0 ]
	d=$T/out/stock-sh
	[ "$(printf 'a,b\n@ksb end 1 rc=9\nno newline\n')" = "$(cat "$d/boot1/data.csv")" ]
	[ -f "$d/boot1/empty" ] && [ ! -s "$d/boot1/empty" ]
	[ "$(cat "$d/boot1/hn")" = host1 ]
	[ "$(cat "$d/boot1/modes")" = "$(printf -- '-rw-r--r--\n-rwxr-xr-x')" ]
	[ "$(cat "$d/boot1.stdout")" = "args: 2 x|y z" ]
	[ "$(cat "$d/boot1.stderr")" = "to stderr" ]
	[ "$(ls -A "$d/boot1")" = "$(printf 'data.csv\nempty\nhn\nmodes')" ]
	cmp "$d/boot1/data.csv" "$d/boot2/data.csv"
	[ "$(ls -A "$T/out")" = "$(printf 'stock-sh\nstock.console')" ]
	[ "$(ls -A "$d")" = "$(printf 'boot1\nboot1.meta\nboot1.stderr\nboot1.stdout\nboot2\nboot2.meta\nboot2.stderr\nboot2.stdout')" ]
}

@test "vm: -- sh SCRIPT: each boot's record beside its files, as a CSV's metadata" {
	# shellcheck disable=SC2016 # the guest's $KSB_OUT, not ours
	printf 'echo x >"$KSB_OUT/f"\n' >"$T/s.sh"
	FAKE_QEMU=busy=1 vm --clock timed -B 2 -p 4 "$IMG" -- sh "$T/s.sh"
	[ "$status" -eq 0 ]
	[ "$(csv_meta "$T/out/stock-sh/boot1.meta" vm_name)" = stock ]
	[ "$(csv_meta "$T/out/stock-sh/boot1.meta" vm_boots)" = "1:4/2" ]
	[ "$(csv_meta "$T/out/stock-sh/boot1.meta" vm_clock)" = timed ]
	[ "$(csv_meta "$T/out/stock-sh/boot2.meta" vm_boots)" = "2:4/2" ]
	[ "$(csv_meta "$T/out/stock-sh/boot1.meta" vm_disturbed_tries)" = "1:100.00" ]
	[ "$(csv_meta "$T/out/stock-sh/boot1.meta" psi_cpu_some_pct)" = "1:0.00" ]
	[ "$(csv_meta "$T/out/stock-sh/boot2.meta" psi_cpu_some_pct)" = "2:0.00" ]
	[[ "$(csv_meta "$T/out/stock-sh/boot2.meta" vm_qemu_cpu_seconds)" =~ ^2:[0-9]+\.[0-9]{2}$ ]]
	[[ "$(csv_meta "$T/out/stock-sh/boot2.meta" vm_boot_seconds)" =~ ^2:[0-9]+\.[0-9]$ ]]
	[ -z "$(csv_meta "$T/out/stock-sh/boot2.meta" vm_disturbed_tries)" ]
	[ "$(grep -vc '^# [a-z0-9_]*: ' "$T/out/stock-sh/boot1.meta")" -eq 0 ]
}

@test "vm: sh's non-zero exit: exit 3 naming the script and its stderr, its files kept" {
	# shellcheck disable=SC2016 # the guest's $KSB_OUT, not ours
	printf 'echo kept >"$KSB_OUT/f"\necho "it broke" >&2\nexit 2\n' >"$T/bad.sh"
	vm -B 1 "$IMG" -- sh "$T/bad.sh" a
	[ "$status" -eq 3 ]
	[[ "$stderr" == *"stock boot 1: sh $T/bad.sh a exited 2 in the guest: it broke"* ]]
	[ "$(cat "$T/out/stock-sh/boot1/f")" = kept ]
}

@test "vm: sh and --file bad input: exit 2 naming them" {
	echo x >"$T/hn"
	bad "'sh': no SCRIPT (-- sh SCRIPT [ARGS])" vm "$IMG" -- sh
	bad "sh /nonexistent.sh: No such file or directory" vm "$IMG" -- sh /nonexistent.sh
	bad "sh $T: not a regular file" vm "$IMG" -- sh "$T"
	bad "--file /nonexistent: No such file or directory" vm --file /nonexistent "$IMG" -- run
	bad "--file $T: not a regular file" vm --file "$T" "$IMG" -- run
	bad "--file $T/hn=init: /init is bench vm's own" vm --file "$T/hn=init" "$IMG" -- run
	bad "--file $T/hn=/sh/1.sh: /sh/1.sh is bench vm's own" vm --file "$T/hn=/sh/1.sh" "$IMG" -- run
	bad "--file $T/hn=a/../b: 'a/../b' is no path in the guest" vm --file "$T/hn=a/../b" "$IMG" -- run
	bad "--file $T/hn=d/: 'd/' is no path in the guest" vm --file "$T/hn=d/" "$IMG" -- run
}

@test "vm: --dry-run lists sh's SCRIPT and --file's files, /init runs the script" {
	echo x >"$T/hn"
	echo 'echo hi' >"$T/p.sh"
	vm --dry-run --file "$T/hn=etc/hn" "$IMG" -- sh "$T/p.sh" numa "a'b"
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(printf '/sh/1.sh\t\t%s' "$T/p.sh")"* ]]
	[[ "$output" == *"$(printf '/etc/hn\t\t%s' "$T/hn")"* ]]
	[[ "$output" == *"runsh 1 numa 'a'\\''b'"* ]]
}

@test "vm: --dry-run prints the qemu lines, the initramfs and /init, boots nothing, writes nothing" {
	FAKE_QEMU_LOG=$T/boots vm --dry-run -m 2G -p 4,300 "$IMG" -- run -n 16 -- trace show_stat -- cat /proc/stat
	[ "$status" -eq 0 ]
	[ ! -e "$T/boots" ]
	[ ! -e "$T/out" ]
	[ "${lines[0]}" = "# stock-p4: 2 boots of 6.12.117, 4 possible CPUs" ]
	[ "${lines[1]}" = "$Q -machine q35,vmport=on -cpu max,-hypervisor -smbios type=1,serial=VMware-kstats-bench -accel tcg,thread=single -icount shift=0,sleep=off -rtc clock=vm -smp 1,maxcpus=4,sockets=1,cores=4,threads=1 -m 2048 -kernel $IMG -initrd WORK/stock.cpio -append 'console=ttyS0 panic=-1' -nodefaults -display none -no-reboot -serial file:WORK/console -serial file:WORK/data" ]
	[[ "${lines[3]}" == *" -append 'console=ttyS0 panic=-1 possible_cpus=300' "* ]]
	[ "${lines[4]}" = "# stock: $IMG (sha256 $(sha256sum "$IMG" | cut -d' ' -f1)), initramfs WORK/stock.cpio:" ]
	[ "${lines[6]}" = "$(printf '/bin/busybox\t\t/bin/busybox')" ]
	[[ "$output" == *"run 2 trace show_stat -- cat /proc/stat"* ]]
	# a tree's module is not built by a dry run
	mkdir -p "$T/tree/include/config" "$T/tree/arch/x86/boot"
	echo 6.12.117 >"$T/tree/include/config/kernel.release"
	cp "$IMG" "$T/tree/arch/x86/boot/bzImage"
	vm --dry-run "$T/tree" -- kernel -n 16
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(printf '/kmod/kstats_bench.ko\tbuilt from kmod/ against %s' "$T/tree")"* ]]
}

@test "vm: --dry-run onto a full stdout is exit 3 with the write's error" {
	# more than stdio's buffer: the writes fail before the last flush
	run --separate-stderr bash -c '"$@" >/dev/full' _ \
		./bench vm --qemu "$Q" --dry-run -p 2,3,4,5,6,7,8,9,10,11,12,13 "$IMG" -- run
	[ "$status" -eq 3 ]
	[ "$stderr" = "bench vm: writing standard output: No space left on device" ]
}

@test "vm: -m takes 512M, 2G or MiB; a bad size is exit 2 with the range" {
	vm --dry-run -m 512M "$IMG" -- run
	[ "$status" -eq 0 ]
	[[ "$output" == *" -m 512 "* ]]
	bad "--memory: '100M' is not a size in 128M..1024G (e.g. 512M, 2G; a number is MiB)" vm -m 100M "$IMG" -- run
	bad "--memory: '2GB' is not a size in 128M..1024G" vm -m 2GB "$IMG" -- run
}

@test "vm: --tuxmake DIR boots its bzImage and records its reproducer_cmdline and sha256" {
	mkdir -p "$T/tux"
	cp "$IMG" "$T/tux/bzImage"
	cat >"$T/tux/metadata.json" <<-'EOF2'
		{"build": {"targets": ["config", "kernel"], "target_arch": "x86_64",
		 "reproducer_cmdline": ["tuxmake", "--target-arch=x86_64", "--kconfig=defconfig",
		  "--toolchain=gcc-12", "KCFLAGS=-O2 -g", "config", "kernel"]},
		 "results": {"status": "PASS"}}
	EOF2
	vm -B 1 -p 4 --tuxmake "$T/tux" --tuxmake "other=$T/tux" -- run -n 16
	[ "$status" -eq 0 ]
	f=$T/out/tux.csv
	[ "$(csv_meta "$f" vm_tuxmake)" = "$T/tux" ]
	[ "$(csv_meta "$f" vm_tuxmake_reproducer)" = "tuxmake --target-arch=x86_64 --kconfig=defconfig --toolchain=gcc-12 'KCFLAGS=-O2 -g' config kernel" ]
	[ "$(csv_meta "$f" vm_image_sha256)" = "$(sha256sum "$IMG" | cut -d' ' -f1)" ]
	[ "$(csv_meta "$T/out/other.csv" vm_image)" = "$T/tux/bzImage" ]
	# not a tuxmake directory: exit 2 naming it
	mkdir -p "$T/empty"
	bad "--tuxmake $T/empty: no bzImage in it" vm --tuxmake "$T/empty" -- run
	echo '{"build": {"reproducer_cmdline": "tuxmake"}}' >"$T/tux/metadata.json"
	bad "--tuxmake $T/tux: $T/tux/metadata.json: not tuxmake's metadata" vm --tuxmake "$T/tux" -- run
	# read by a JSON parser: the key as text, or no key at all, is no metadata
	echo '{"log": "\"reproducer_cmdline\": [\"x\"]"}' >"$T/tux/metadata.json"
	bad "--tuxmake $T/tux: $T/tux/metadata.json: not tuxmake's metadata (no build.reproducer_cmdline" \
		vm --dry-run --tuxmake "$T/tux" -- run
	printf '{"build":\n {"reproducer_cmdline": ["tuxmake"],\n' >"$T/tux/metadata.json"
	bad "--tuxmake $T/tux: $T/tux/metadata.json:3: not JSON" vm --dry-run --tuxmake "$T/tux" -- run
	printf '"reproducer_cmdline": ["tuxmake"]\n' >"$T/tux/metadata.json"
	bad "--tuxmake $T/tux: $T/tux/metadata.json:1: not JSON (text after the value)" \
		vm --dry-run --tuxmake "$T/tux" -- run
	printf '{"build": {"reproducer_cmdline": ["tuxmake"]}} x\n' >"$T/tux/metadata.json"
	bad "--tuxmake $T/tux: $T/tux/metadata.json:1: not JSON" vm --dry-run --tuxmake "$T/tux" -- run
	: >"$T/tux/metadata.json"
	bad "--tuxmake $T/tux: $T/tux/metadata.json: not JSON (empty)" vm --dry-run --tuxmake "$T/tux" -- run
}

@test "vm: a guest's command is parsed here with the guest's option tables, before any boot" {
	local m
	for m in --dry-run -q; do
		FAKE_QEMU_LOG=$T/boots bad "-- run: --workload: 'nosuch' is not a workload" \
			vm --qemu "$Q" $m "$IMG" -- run -w nosuch
		FAKE_QEMU_LOG=$T/boots bad "-- run: unknown option '--bogus'" \
			vm --qemu "$Q" $m "$IMG" -- run -w file-read --bogus
		FAKE_QEMU_LOG=$T/boots bad "-- run: --samples: '0' is not an integer in 1..4294967296" \
			vm --qemu "$Q" $m "$IMG" -- run -n 0
		FAKE_QEMU_LOG=$T/boots bad "-- run: --path: only -w file-read takes it, not irqdesc-alloc" \
			vm --qemu "$Q" $m "$IMG" -- run -w irqdesc-alloc --path /x
		FAKE_QEMU_LOG=$T/boots bad "-- kernel: --cpus: '0-3,x' is not a CPU list" \
			vm --qemu "$Q" $m "$IMG" -- kernel -c 0-3,x
		FAKE_QEMU_LOG=$T/boots bad "-- trace: no function to trace" vm --qemu "$Q" $m "$IMG" -- trace
		FAKE_QEMU_LOG=$T/boots bad "-- trace: --duration: 'x' is not a number" \
			vm --qemu "$Q" $m "$IMG" -- trace -d x show_stat
		FAKE_QEMU_LOG=$T/boots bad "-- run: --label: 'A' is not KEY=VALUE" \
			vm --qemu "$Q" $m "$IMG" -- run --label A
		[ ! -e "$T/boots" ]
	done
	# the guest's CPUs are not this host's: -c is checked by its words alone
	run --separate-stderr ./bench vm --qemu "$Q" --dry-run --origin host \
		--module tests/fixtures/vm/kstats_bench.ko "$IMG" -- kernel -c 4000 --origin guest
	[ "$status" -eq 0 ]
	[ ! -e "$T/boots" ]
}

@test "vm --dry-run checks what the real run checks before booting" {
	touch "$T/f"
	bad "-o $T/f: not a directory" vm --qemu "$Q" --dry-run -o "$T/f" "$IMG" -- run
	bad "--file bench-static=./bench: /bench is bench vm's own" \
		vm --qemu "$Q" --dry-run --file bench-static=./bench "$IMG" -- run
	bad "--file bench-static=bin/./busybox: /bin/busybox is bench vm's own" \
		vm --qemu "$Q" --dry-run --file bench-static=bin/./busybox "$IMG" -- run
	bad "--file $T/f=x//y: /x/y is given twice (--file bench-static)" \
		vm --qemu "$Q" --dry-run --file bench-static=x/y --file "$T/f=x//y" "$IMG" -- run
}
