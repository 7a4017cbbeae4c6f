#!/usr/bin/env bats
# needs: python3 busybox
# bench audit: the built-in battery in bench list, a battery file's
# lines and their refusals (FILE:LINE, exit 2), the order of a boot
# (--boot, ksb_boot= from the kernel command line), what runs and what
# is skipped with its reason, the file's metadata and series, and
# bench vm -- audit with tests/cli/fake-qemu.

load common

setup() {
	common_setup
	B=$T/battery
}

# merged FILE ENTRY: the samples of ENTRY's merge over the CPUs
merged() {
	csv_sum "$1" samples workload="$2" run=all cpu=all
}

# the cheap battery: two controls, a file that is not there, a default read
cheap() {
	cat >"$B" <<-'EOF'
		# what runs anywhere, unprivileged
		syscall-null --control
		version = file-read --path /proc/version -n 6   # its own -n
		file-read --path /nonexistent
		file-read
	EOF
}

@test "audit: --help gives the synopsis, the battery file's syntax and the exit codes" {
	run --separate-stderr ./bench audit --help
	[ "$status" -eq 0 ]
	[[ "$output" == "Usage: bench audit [OPTIONS]"* ]]
	[[ "$output" == *"the running kernel, without -w, optionally named (NAME = ...)"* ]]
	[[ "$output" == *"Exit: 0 done (skipped entries included), 2 bad usage or a bad battery line"* ]]
	run ./bench --help
	[[ "$output" == *"audit "*"time a battery of kernel entry points"* ]]
}

@test "audit: bench list shows every built-in entry, its words, path and report" {
	run ./bench list
	[ "$status" -eq 0 ]
	grep -qx "bench audit's entries, in the battery's order:" <<<"$output"
	grep -qx 'proc-stat        file-read --path /proc/stat' <<<"$output"
	grep -qx '                   path: show_stat(), nr_iowait(): for_each_possible_cpu' <<<"$output"
	grep -qx '                   report: Waiman Long, 2018' <<<"$output"
	grep -qx 'statfs           statfs --statfs-path /tmp --control' <<<"$output"
	grep -qx '                   path: shmem_statfs(): percpu_counter_sum() loops over online CPUs only (a control)' <<<"$output"
	grep -qx 'netns            netns -n 64' <<<"$output"
	# the entries, in order: what the file format names
	[ "$(sed -n "/^bench audit's entries/,\$p" <<<"$output" | awk 'NR > 1 && !/^ / { printf "%s ", $1 }')" = \
		"syscall-null proc-version statfs file-nr proc-stat proc-softirqs cpu-stat memory-stat proc-net-dev proc-net-snmp proc-net-sockstat netns mount-tmpfs mntns io-uring aio fork-exit fork-exec cgroup-mkdir bpf-pcpu-lookup bpf-prog-info " ]
}

@test "audit: boot B runs the battery rotated left by B - 1, from --boot or ksb_boot=" {
	cheap
	run --separate-stderr ./bench audit --no-builtin -b "$B" --dry-run
	[ "$status" -eq 0 ]
	[ "$output" = "# bench audit: boot 1 (none), 4 entries
1	syscall-null	256	control	syscall-null --control
2	version	6	-	version = file-read --path /proc/version -n 6   # its own -n
3	file-read.nonexistent	256	-	file-read --path /nonexistent
4	file-read	256	-	file-read" ]
	run ./bench audit --no-builtin -b "$B" --dry-run --boot 3
	[ "$(cut -f2 <<<"$output" | tail -n +2 | tr '\n' ' ')" = "file-read.nonexistent file-read syscall-null version " ]
	run ./bench audit --no-builtin -b "$B" --dry-run --boot 6 -n 9
	[ "$(head -1 <<<"$output")" = "# bench audit: boot 6 (option), 4 entries" ]
	[ "$(cut -f2,3 <<<"$output" | tail -n +2 | tr '\n' ' ')" = "version	9 file-read.nonexistent	9 file-read	9 syscall-null	9 " ]
	# the kernel passes ksb_boot=B of its command line to /init's environment
	ksb_boot=2 run ./bench audit --no-builtin -b "$B" --dry-run
	[ "$(head -2 <<<"$output")" = "# bench audit: boot 2 (kernel command line), 4 entries
1	version	6	-	version = file-read --path /proc/version -n 6   # its own -n" ]
	ksb_boot=7 run ./bench audit --no-builtin -b "$B" --dry-run --boot 4
	[ "$(sed -n 2p <<<"$output" | cut -f2)" = file-read ]
	# the built-in battery comes first, the file's entries after it
	printf 'file-read\nversion = file-read --path /proc/version\n' >"$B"
	run ./bench audit -b "$B" --dry-run --boot 22
	[ "$(head -1 <<<"$output")" = "# bench audit: boot 22 (option), 23 entries" ]
	[ "$(sed -n '2,4p' <<<"$output" | cut -f2 | tr '\n' ' ')" = "file-read version syscall-null " ]
	[ "$(sed -n 24p <<<"$output" | cut -f2)" = bpf-prog-info ]
}

@test "audit: a bad battery line is named FILE:LINE, exit 2, before anything runs" {
	badline() {
		printf 'syscall-null\n%s\n' "$2" >"$B"
		bad "--battery: $B:2: $1" audit -q --no-builtin -b "$B" -o "$T/out.csv"
		[ ! -e "$T/out.csv" ]
	}
	badline "'nosuch' is not a workload (see 'bench list')" "nosuch --path /x"
	badline "irqdesc-alloc emulates a kernel path in user space: an audit times the running kernel's" \
		"irqdesc-alloc"
	badline "--path: only file-read takes it, not statfs" "statfs --path /tmp"
	badline "--samples: '0' is not an integer in 1..4294967296" "file-read -n 0"
	badline "unexpected argument 'x'" "file-read x"
	badline "a second entry syscall-null (the first: $B:1); name one (NAME = ...)" "syscall-null"
	badline "'Big' is not a name: [a-z0-9_.-], at most 30 bytes" "Big = syscall-null"
	badline "no workload after the name" "name ="
	badline "the name file-read.sys-devices-system-cpu-possible is longer than 30 bytes: name the entry (NAME = file-read ...)" \
		"file-read --path /sys/devices/system/cpu/possible"
	badline "--help: not an entry's option" "file-read --help"
	bad "--battery: $T/none: No such file or directory" audit --no-builtin -b "$T/none"
	: >"$B"
	bad "--battery: $B: no entry in it" audit --no-builtin -b "$B"
	bad "--no-builtin: no entry left (give --battery FILE)" audit --no-builtin
	ksb_boot=x bad "ksb_boot=x (the kernel command line's): not a boot index 1..1000000" audit
}

@test "audit: each entry one series, a missing file skipped with its reason, exact metadata" {
	cheap
	run --separate-stderr ./bench audit --no-builtin -b "$B" -n 12 -q -o "$T/a.csv"
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ "$stderr" = "bench audit: file-read.nonexistent skipped: --path: /nonexistent: No such file or directory" ]
	[ "$(csv_meta "$T/a.csv" workload)" = audit ]
	[ "$(csv_meta "$T/a.csv" audit_battery)" = "$B" ]
	[ "$(csv_meta "$T/a.csv" audit_entries)" = 4 ]
	[ "$(csv_meta "$T/a.csv" audit_boot)" = 1 ]
	[ "$(csv_meta "$T/a.csv" audit_boot_from)" = none ]
	[ "$(csv_meta "$T/a.csv" audit_order)" = "syscall-null version file-read.nonexistent file-read" ]
	[ "$(csv_meta "$T/a.csv" audit_controls)" = syscall-null ]
	[ "$(csv_meta "$T/a.csv" audit_skipped)" = file-read.nonexistent ]
	[ "$(csv_meta "$T/a.csv" audit_skip_why)" = "file-read.nonexistent: --path: /nonexistent: No such file or directory" ]
	[[ "$(csv_meta "$T/a.csv" audit_disturbed)" =~ ^syscall-null=[0-9]+\ version=[0-9]+\ file-read=[0-9]+$ ]]
	[[ "$(csv_meta "$T/a.csv" audit_entry_seconds)" =~ ^syscall-null=[0-9.]+\ version=[0-9.]+\ file-read.nonexistent=[0-9.]+\ file-read=[0-9.]+$ ]]
	[ "$(csv_meta "$T/a.csv" samples_per_variant)" = 12 ]
	[ "$(csv_meta "$T/a.csv" samples_taken)" = 36 ]
	[ "$(csv_meta "$T/a.csv" partial)" = no ]
	[ "$(csv_meta "$T/a.csv" variant_syscall)" = "syscall(SYS_getppid): kernel entry and exit, no vDSO, no lock" ]
	# -n overrides the entry's own; the skipped one has no series
	[ "$(merged "$T/a.csv" syscall-null)" = 12 ]
	[ "$(merged "$T/a.csv" version)" = 12 ]
	[ "$(merged "$T/a.csv" file-read)" = 12 ]
	[ "$(merged "$T/a.csv" file-read.nonexistent)" = 0 ]
	[ "$(csv_rows "$T/a.csv" workload variant | sort -u | tr '\n' ' ')" = \
		"file-read,read syscall-null,syscall version,read " ]
	# the entry's own -n without the audit's; the later file-read reads its default again
	run --separate-stderr ./bench audit --no-builtin -b "$B" -q -o "$T/b.csv" --boot 2
	[ "$status" -eq 0 ]
	[ "$(merged "$T/b.csv" version)" = 6 ]
	[ "$(merged "$T/b.csv" syscall-null)" = 256 ]
	[ "$(merged "$T/b.csv" file-read)" = 256 ]
	[ "$(csv_meta "$T/b.csv" audit_order)" = "version file-read.nonexistent file-read syscall-null" ]
	[ "$(csv_meta "$T/b.csv" samples_per_variant)" = 256 ]
	# bench show reads it as any results file
	run ./bench show -f csv "$T/a.csv"
	[ "$status" -eq 0 ]
	cmp <(grep -v '^#' "$T/a.csv") <(grep -v '^#' <<<"$output")
}

@test "audit: no entry that can run is exit 3, no file written" {
	printf 'file-read --path /nonexistent\nx = file-read --path /nonexistent/x\n' >"$B"
	run --separate-stderr ./bench audit --no-builtin -b "$B" -q -o "$T/a.csv"
	[ "$status" -eq 3 ]
	[ "${stderr_lines[-1]}" = "bench audit: no entry of the battery could run here (each one's reason is above)" ]
	[ ! -e "$T/a.csv" ]
}

@test "audit: the built-in battery here: every entry ran or is skipped with a reason" {
	run --separate-stderr ./bench audit -n 4 -q -o "$T/a.csv"
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ "$(csv_meta "$T/a.csv" audit_battery)" = builtin ]
	[ "$(csv_meta "$T/a.csv" audit_entries)" = 21 ]
	[ "$(csv_meta "$T/a.csv" audit_controls)" = "syscall-null proc-version statfs file-nr" ]
	skipped=$(csv_meta "$T/a.csv" audit_skipped)
	why=$(csv_meta "$T/a.csv" audit_skip_why)
	for e in $(csv_meta "$T/a.csv" audit_order); do
		if [[ " $skipped " == *" $e "* ]]; then
			# its reason, on stderr and in the metadata
			[[ "$why" =~ (^|; )$e:\ [^\;]+ ]]
			grep -q "^bench audit: $e skipped: ." <<<"$stderr"
			[ "$(merged "$T/a.csv" "$e")" = 0 ]
		else
			[ "$(merged "$T/a.csv" "$e")" = 4 ]
		fi
	done
	# the controls and the null syscall run anywhere
	[ "$(merged "$T/a.csv" syscall-null)" = 4 ]
	[ "$(merged "$T/a.csv" proc-stat)" = 4 ]
	# BPF: it ran, or the reason names what the kernel refused
	if [[ " $skipped " == *" bpf-prog-info "* ]]; then
		[[ "$why" == *"bpf-prog-info: loading a BPF program: "* ]]
	fi
}

@test "audit: bench vm takes -- audit, and each boot says its index on the kernel command line" {
	vm_setup
	cheap
	run ./bench vm --qemu "$Q" --dry-run --file "$B=battery" "$IMG" -- audit --no-builtin -b /battery -n 8
	[ "$status" -eq 0 ]
	grep -qx "run 1 audit --no-builtin -b /battery -n 8" <<<"$output"
	# fake-qemu runs this host's bench, the battery the initramfs's
	run --separate-stderr ./bench vm --qemu "$Q" -q -B 2 -o "$T/vm" --file "$B=b.bat" "$IMG" \
		-- audit --no-builtin -b /b.bat -n 8
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ "$(csv_meta "$T/vm/stock.csv" vm_boots)" = "1:1/1 2:1/1" ]
	[ "$(csv_meta "$T/vm/stock.csv" audit_boot)" = 1 ]
	[ "$(csv_meta "$T/vm/stock.csv" audit_boot_from)" = "kernel command line" ]
	[[ "$(csv_meta "$T/vm/stock.csv" vm_qemu)" == *" -append 'console=ttyS0 panic=-1 ksb_boot=1' "* ]]
	[ "$(merged "$T/vm/stock.csv" version)" = 16 ]
	# a boot of another command keeps its command line
	run ./bench vm --qemu "$Q" -q -B 1 -o "$T/vm2" "$IMG" -- run -w syscall-null -n 8
	[ "$status" -eq 0 ]
	[[ "$(csv_meta "$T/vm2/stock.csv" vm_qemu)" == *" -append 'console=ttyS0 panic=-1' "* ]]
}

@test "audit: bench vm refuses before any boot a guest audit that every boot would refuse" {
	vm_setup
	cheap
	printf 'file-read --path /proc/version\nnosuch --path /x\n' >"$T/bad.bat"
	export FAKE_QEMU_LOG=$T/boots
	for dry in --dry-run ""; do
		bad "-- audit: --battery /b.bat: $T/bad.bat:2: 'nosuch' is not a workload (see 'bench list')" \
			vm --qemu "$Q" $dry -o "$T/vm" --file "$T/bad.bat=b.bat" "$IMG" -- audit -b /b.bat
		bad "-- audit: --no-builtin: no entry left (give --battery FILE)" \
			vm --qemu "$Q" $dry -o "$T/vm" "$IMG" -- audit --no-builtin
		bad "-- audit: --dry-run: the guests would time nothing and send no CSV" \
			vm --qemu "$Q" $dry -o "$T/vm" "$IMG" -- audit --dry-run
		bad "-- audit: --battery /nosuch: no --file puts it in the guest (--file SRC=/nosuch)" \
			vm --qemu "$Q" $dry -o "$T/vm" "$IMG" -- audit --battery /nosuch
		bad "-- audit: --battery $B: no --file puts it in the guest" \
			vm --qemu "$Q" $dry -o "$T/vm" --file "$B=b.bat" "$IMG" -- audit -b "$B"
		bad "-- audit: --samples: '0' is not an integer in 1..4294967296" \
			vm --qemu "$Q" $dry -o "$T/vm" "$IMG" -- audit -n 0
	done
	[ ! -e "$T/boots" ]
	[ ! -e "$T/vm" ]
	# the guest's path of a --file, however written, is that file
	for b in /b.bat b.bat ./b.bat; do
		run ./bench vm --qemu "$Q" --dry-run --file "$B=b.bat" "$IMG" -- audit --no-builtin -b "$b"
		[ "$status" -eq 0 ]
	done
}

# a kernel tree of three files: show_stat loops and calls fold(), which
# loops; nr_iowait calls nothing that loops; lonely() loops, called by none
minitree() {
	mkdir -p "$T/tree/fs/proc" "$T/tree/kernel/sched"
	cat >"$T/tree/fs/proc/stat.c" <<-'EOF'
		static int show_stat(struct seq_file *p, void *v)
		{
			int i;

			for_each_possible_cpu(i)
				sum += fold(i);
			return 0;
		}
	EOF
	cat >"$T/tree/kernel/sched/core.c" <<-'EOF'
		unsigned int nr_iowait(void)
		{
			return quiet();
		}

		static unsigned long fold(int cpu)
		{
			unsigned long n = 0;

			if (nr_cpu_ids > 1)
				n = deeper(cpu);
			return n;
		}

		static void lonely(void)
		{
			int i;

			for_each_possible_cpu(i)
				touch(i);
		}
	EOF
	# <<- took the tabs: kernel style indents a body with them
	sed -i '/^{/,/^}/{/^[{}]/!s/^./\t&/}' "$T/tree/fs/proc/stat.c" "$T/tree/kernel/sched/core.c"
}

@test "entry-candidates: the loops an entry's path reaches, DEPTH calls deep, by name" {
	minitree
	run bash -c 'tests/kernel/entry-candidates.sh "$1" 1 2>"$2"' _ "$T/tree" "$T/err"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'proc-stat\tfile-read --path /proc/stat\tshow_stat')" ]
	[ "$(cat "$T/err")" = "$(printf '3 functions loop over possible CPUs in 2 files of %s, by name\n%s' "$T/tree" "1 candidates for 1 of 21 entries, 1 calls deep")" ]
	run bash -c 'tests/kernel/entry-candidates.sh "$1" 2>"$2"' _ "$T/tree" "$T/err"
	[ "$status" -eq 0 ]
	# fold() is show_stat's callee; lonely() loops but nothing calls it
	[ "$output" = "$(printf 'proc-stat\tfile-read --path /proc/stat\tfold show_stat')" ]
	[ "$(tail -n 1 "$T/err")" = "2 candidates for 1 of 21 entries, 3 calls deep" ]
	run tests/kernel/entry-candidates.sh "$T/tree" 0
	[ "$status" -eq 2 ]
	[[ "$output" == *"DEPTH '0': 1.."* ]]
	run tests/kernel/entry-candidates.sh "$T/none"
	[ "$status" -eq 2 ]
	[[ "$output" == *"$T/none: not a directory"* ]]
}

# a kernel of machine code, as minitree in C: show_stat reads
# __cpu_possible_mask and calls fold(), which reads its second word;
# nr_iowait calls none; lonely() reads it and nobody calls it; online()
# reads the next symbol, which is not the mask. KALLSYMS is nm -n's,
# kallsyms' format and order.
miniimage() {
	cat >"$T/k.c" <<-'EOF'
		unsigned long __cpu_possible_mask[2];
		unsigned long __cpu_online_mask[2];
		__attribute__((noinline)) unsigned long fold(int c) { return __cpu_possible_mask[1] + c; }
		__attribute__((noinline)) unsigned long lonely(void) { return __cpu_possible_mask[0]; }
		__attribute__((noinline)) unsigned long online(void) { return __cpu_online_mask[0]; }
		__attribute__((noinline)) unsigned long nr_iowait(void) { return online(); }
		__attribute__((noinline)) unsigned long show_stat(void) { return fold(3) + __cpu_possible_mask[0]; }
		int main(void) { return (int)(show_stat() + nr_iowait()); }
	EOF
	cc -O1 -fno-pie -no-pie -o "$T/vmlinux" "$T/k.c"
	nm -n "$T/vmlinux" >"$T/kallsyms"
	strip "$T/vmlinux"
}

@test "pcpu-graph: an image's loops and calls from its code, stripped or compressed" {
	miniimage
	run bash -c 'tests/kernel/pcpu-candidates.sh "$1" "$2" 2>"$3"' _ "$T/vmlinux" "$T/kallsyms" "$T/err"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'fold\nlonely\nshow_stat')" ]
	[[ "$(cat "$T/err")" == "3 functions read possible CPUs in $T/vmlinux's code, 0 of them with BTF ("*" direct calls)" ]]
	run --separate-stderr tests/kernel/pcpu-graph.sh "$T/vmlinux" "$T/kallsyms"
	[ "$status" -eq 0 ]
	grep -qxP 'C\tshow_stat\tfold' <<<"$output"
	grep -qxP 'C\tnr_iowait\tonline' <<<"$output"
	# a bzImage: the ELF behind what is not one, compressed
	{ head -c 4096 /dev/urandom; gzip -c "$T/vmlinux"; } >"$T/bzImage"
	run --separate-stderr tests/kernel/pcpu-candidates.sh "$T/bzImage" "$T/kallsyms"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'fold\nlonely\nshow_stat')" ]
	run --separate-stderr tests/kernel/entry-candidates.sh "$T/bzImage" "$T/kallsyms"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'proc-stat\tfile-read --path /proc/stat\tfold show_stat')" ]
	run tests/kernel/pcpu-graph.sh "$T/vmlinux"
	[ "$status" -eq 2 ]
	[[ "$output" == *"an IMAGE needs its KALLSYMS"* ]]
	head -c 4096 /dev/urandom >"$T/junk"
	run tests/kernel/pcpu-graph.sh "$T/junk" "$T/kallsyms"
	[ "$status" -eq 3 ]
	[[ "$output" == *"$T/junk: neither a vmlinux nor a bzImage"* ]]
}
