#!/usr/bin/env bats
# needs: jq busybox
# bench run's workloads of the running kernel (syscall-null, file-read,
# fork-exit, cgroup-mkdir, bpf-pcpu-lookup): one series each, the real possible CPU
# count, file-read's --path and the metadata it records, cgroup-mkdir's
# --cgroup-parent, and what they refuse.

load common

setup() {
	common_setup
}

teardown() {
	if [ -n "${CG:-}" ]; then
		umount "$CG"
	fi
}

# CG: a cgroup2 mount of our own, or skip where the host refuses one
cgroup2() {
	mkdir "$T/cg"
	mount -t cgroup2 none "$T/cg" 2>/dev/null || skip "cannot mount cgroup2 here"
	CG=$T/cg
}

# the kernel's possible CPUs, counted from /sys/devices/system/cpu/possible
real_possible() {
	awk -F, '{ for (i = 1; i <= NF; i++) { n = split($i, r, "-");
		   c += n == 2 ? r[2] - r[1] + 1 : 1 } } END { print c }' \
		/sys/devices/system/cpu/possible
}

@test "bench list shows each with its one variant" {
	run ./bench list
	[ "$status" -eq 0 ]
	grep -qx 'syscall-null     one raw getppid system call per sample: the flat control' <<<"$output"
	grep -qx '                   syscall: syscall(SYS_getppid): kernel entry and exit, no vDSO, no lock' <<<"$output"
	grep -qx 'file-read        open, read to EOF, close --path (default /proc/stat) per sample' <<<"$output"
	grep -qx '                   read: open(/proc/stat), read(2) to EOF, close' <<<"$output"
	grep -qx 'fork-exit        fork, the child.s _exit(0), waitpid per sample: an mm.s life' <<<"$output"
	grep -qx '                   fork: fork(), _exit(0) in the child, waitpid() in the parent' <<<"$output"
	# one variant line each: the next line is the next workload
	[ "$(awk '/^$/ { exit } /^syscall-null /{ getline; getline; print $1 }' <<<"$output")" = file-read ]
}

@test "syscall-null: one series, -n samples, the real possible CPU count" {
	run ./bench run -q -w syscall-null -n 100 -o "$T/s.csv"
	[ "$status" -eq 0 ]
	# the table: one title, one SUMMARY, no old or new
	[ "$(grep -c '^# syscall-null ' <<<"$output")" -eq 1 ]
	grep -qx '# syscall-null syscall: syscall(SYS_getppid): kernel entry and exit, no vDSO, no lock' <<<"$output"
	grep -q '^SUMMARY workload=syscall-null unit=ns syscall_p50=[0-9]* .* samples=100 disturbed=[0-9]* ' <<<"$output"
	# a ratio divides old by new: one series has none
	[ "$(grep -c " ratio=" <<<"$output")" -eq 0 ]
	[ "$(grep -c 'old\|new' <<<"$output")" -eq 0 ]
	# the CSV: variant syscall only, the merge and the CPUs each hold n in all
	[ "$(csv_rows "$T/s.csv" variant | sort -u)" = syscall ]
	[ "$(csv_sum "$T/s.csv" samples workload=syscall-null cpu=all)" -eq 100 ]
	[ "$(csv_sum "$T/s.csv" samples workload=syscall-null cpu!=all)" -eq 100 ]
	[ "$(csv_meta "$T/s.csv" workload)" = syscall-null ]
	[ "$(csv_meta "$T/s.csv" variant_syscall)" = 'syscall(SYS_getppid): kernel entry and exit, no vDSO, no lock' ]
	[ "$(grep -c '^# variant_old:\|^# variant_new:' "$T/s.csv")" -eq 0 ]
	[ "$(csv_meta "$T/s.csv" samples_per_variant)" = 100 ]
	[ "$(csv_meta "$T/s.csv" samples_taken)" = 100 ]
	[[ "$(csv_meta "$T/s.csv" disturbed)" =~ ^[0-9]+$ ]]
	[[ "$(csv_meta "$T/s.csv" disturbed_per_cpu)" =~ ^[0-9]+:[0-9]+( [0-9]+:[0-9]+)*$ ]]
	[ "$(csv_meta "$T/s.csv" possible_cpus)" = "$(real_possible)" ]
	[ "$(csv_meta "$T/s.csv" real_possible_cpus)" = "$(real_possible)" ]
	[ "$(csv_meta "$T/s.csv" pcpu_nodes)" = "none: syscall-null times the running kernel's own per-CPU memory" ]
	[ "$(csv_meta "$T/s.csv" pcpu_neighbours)" = "none: syscall-null has no per-CPU object" ]
	[ "$(csv_meta "$T/s.csv" partial)" = no ]
}

@test "file-read: the bytes and read() calls of each sample, the buffer sized to the file" {
	head -c 1000 /dev/zero >"$T/k"
	run ./bench run -q -w file-read --path "$T/k" -n 50 -o "$T/f.csv"
	[ "$status" -eq 0 ]
	grep -qx "# file-read read: open($T/k), read(2) to EOF, close" <<<"$output"
	[ "$(csv_meta "$T/f.csv" read_path)" = "$T/k" ]
	[ "$(csv_meta "$T/f.csv" read_bytes)" = 1000 ]
	[ "$(csv_meta "$T/f.csv" read_bytes_min)" = 1000 ]
	[ "$(csv_meta "$T/f.csv" read_calls)" = 2 ]
	[ "$(csv_meta "$T/f.csv" read_buffer)" = 65536 ]
	[ "$(csv_meta "$T/f.csv" workload_options)" = "--path $T/k" ]
	[ "$(csv_meta "$T/f.csv" samples_taken)" = 50 ]
	[ "$(csv_sum "$T/f.csv" samples workload=file-read cpu=all)" -eq 50 ]
	# 100 KiB: a buffer of twice that, rounded up to a power of two
	head -c 102400 /dev/zero >"$T/k"
	./bench run -q -w file-read --path "$T/k" -n 10 -o "$T/f.csv" >/dev/null
	[ "$(csv_meta "$T/f.csv" read_bytes)" = 102400 ]
	[ "$(csv_meta "$T/f.csv" read_calls)" = 2 ]
	[ "$(csv_meta "$T/f.csv" read_buffer)" = 262144 ]
}

@test "file-read: /proc/stat by default, its size recorded" {
	./bench run -q -w file-read -n 20 -o "$T/f.csv" >/dev/null
	[ "$(csv_meta "$T/f.csv" read_path)" = /proc/stat ]
	[ "$(csv_meta "$T/f.csv" variant_read)" = 'open(/proc/stat), read(2) to EOF, close' ]
	lo=$(csv_meta "$T/f.csv" read_bytes_min)
	hi=$(csv_meta "$T/f.csv" read_bytes)
	[ "$lo" -gt 0 ]
	[ "$hi" -ge "$lo" ]
	[ "$(csv_meta "$T/f.csv" possible_cpus)" = "$(real_possible)" ]
}

@test "file-read: a bad --path is exit 2 naming it" {
	bad "bench run: --path: $T/nope: No such file or directory" run -q -w file-read --path "$T/nope" -n 10
	mkdir "$T/d"
	bad "bench run: --path: $T/d: Is a directory" run -q -w file-read --path "$T/d" -n 10
	bad "bench run: --path: /dev/null: not a regular file (a sample must reach EOF)" run -q -w file-read --path /dev/null -n 10
	bad "bench run: --path: only -w file-read takes it, not syscall-null" run -q -w syscall-null --path /proc/stat -n 10
}

@test "--possible-cpus and --cache cold or remote are refused, exit 2" {
	for w in syscall-null file-read fork-exit cgroup-mkdir bpf-pcpu-lookup; do
		bad "bench run: --possible-cpus: $w times the running kernel, whose possible CPUs are its own (/sys/devices/system/cpu/possible); boot it with more (bench vm -p N) instead" \
			run -q -w "$w" -p 64 -n 10
		for c in cold remote; do
			bad "bench run: --cache $c: $w times the running kernel, whose cache lines user space cannot flush or dirty; only --cache kernel applies" \
				run -q -w "$w" --cache "$c" -n 10
		done
	done
	# --cache kernel, the default, named: runs
	run ./bench run -q -w syscall-null --cache kernel -n 10
	[ "$status" -eq 0 ]
}

@test "fork-exit: -n samples, its own switches not counted as disturbed" {
	run ./bench run -q -w fork-exit -n 20 -o "$T/k.csv"
	[ "$status" -eq 0 ]
	grep -qx '# fork-exit fork: fork(), _exit(0) in the child, waitpid() in the parent' <<<"$output"
	[ "$(csv_meta "$T/k.csv" samples_taken)" = 20 ]
	[ "$(csv_sum "$T/k.csv" samples workload=fork-exit cpu=all)" -eq 20 ]
	[[ "$(csv_meta "$T/k.csv" disturbed_by)" == *"not context switches: the workload sleeps by design" ]]
}

@test "--runs 2: one series per run and the merge; show prints the same, every format" {
	for f in table kstats csv json; do
		./bench run -q -w syscall-null -R 2 -n 40 -f "$f" -o "$T/r-$f.csv" >"$T/out-$f"
		./bench show -f "$f" "$T/r-$f.csv" >"$T/show-$f"
		cmp "$T/out-$f" "$T/show-$f"
	done
	f="$T/r-csv.csv"
	[ "$(csv_meta "$f" runs)" = 2 ]
	[ "$(csv_meta "$f" samples_taken)" = 80 ]
	[[ "$(csv_meta "$f" disturbed)" =~ ^[0-9]+$ ]]
	[ "$(csv_rows "$f" variant run workload=syscall-null cpu=all | sort -u | tr '\n' ' ')" = "syscall,1 syscall,2 syscall,all " ]
	[ "$(csv_sum "$f" samples workload=syscall-null run=all cpu=all)" -eq 80 ]
	# kstats: one block; json: one variant
	[ "$(grep -c '^# syscall-null ' "$T/out-kstats")" -eq 1 ]
	grep -qx '# syscall-null syscall' "$T/out-kstats"
	[ "$(jq -r '[.histograms[].variant] | unique | join(",")' "$T/out-json")" = syscall ]
	# the per-run table names the one series
	grep -q '^run  *syscall_tm10  *syscall_samples$' "$T/out-table"
}

@test "cgroup-mkdir: -n samples under --cgroup-parent, no child left behind" {
	cgroup2
	run ./bench run -q -w cgroup-mkdir --cgroup-parent "$CG" -n 30 -o "$T/c.csv"
	[ "$status" -eq 0 ]
	grep -qx "# cgroup-mkdir mkdir: mkdir(2), rmdir(2) of a child of $CG" <<<"$output"
	[ "$(csv_meta "$T/c.csv" cgroup_parent)" = "$CG" ]
	[ "$(csv_meta "$T/c.csv" samples_taken)" = 30 ]
	[ "$(csv_sum "$T/c.csv" samples workload=cgroup-mkdir cpu=all)" -eq 30 ]
	[ -z "$(find "$CG" -mindepth 1 -type d)" ]
}

@test "cgroup-mkdir: a parent that is not cgroup2 is exit 2 naming it" {
	mkdir "$T/d"
	bad "bench run: --cgroup-parent: $T/d: not a cgroup2 directory (mount -t cgroup2 none DIR)" \
		run -q -w cgroup-mkdir --cgroup-parent "$T/d" -n 10
	bad "bench run: --cgroup-parent: $T/nope: No such file or directory" \
		run -q -w cgroup-mkdir --cgroup-parent "$T/nope" -n 10
}

@test "bpf-pcpu-lookup: -n lookups, each copying 8 bytes per possible CPU" {
	run --separate-stderr ./bench run -q -w bpf-pcpu-lookup -n 25 -o "$T/b.csv"
	if [ "$status" -eq 3 ] && [[ "$stderr" == *"Operation not permitted"* ]]; then
		skip "no CAP_BPF here: $stderr"
	fi
	[ "$status" -eq 0 ]
	grep -qx '# bpf-pcpu-lookup lookup: bpf(BPF_MAP_LOOKUP_ELEM) of a PERCPU_ARRAY element, 8 bytes per CPU' <<<"$output"
	[ "$(csv_meta "$T/b.csv" samples_taken)" = 25 ]
	[ "$(csv_meta "$T/b.csv" bpf_value_size)" = 8 ]
	[ "$(csv_meta "$T/b.csv" bpf_copy_bytes)" = "$((8 * $(real_possible)))" ]
	[ "$(csv_sum "$T/b.csv" samples workload=bpf-pcpu-lookup cpu=all)" -eq 25 ]
}

@test "the audit's workloads: one series of -n samples, or exit 3 naming what the kernel refused" {
	run ./bench list
	grep -qx 'fork-exec        fork, exec of a program that exits, waitpid per sample: two mms. lives' <<<"$output"
	grep -qx '                   exec: fork(), fexecve() of a 129-byte exit(0) in the child, waitpid()' <<<"$output"
	for w in statfs netns mount-tmpfs mntns io-uring aio fork-exec bpf-prog-info; do
		run --separate-stderr ./bench run -q -w "$w" -n 8 -o "$T/$w.csv"
		echo "$w: status $status stderr: $stderr"
		if [ "$status" -eq 3 ]; then
			# the environment refused: one line, naming it, no file
			[ "${#stderr_lines[@]}" -eq 1 ]
			[[ "$stderr" == "bench run: "?* ]]
			[ ! -e "$T/$w.csv" ]
			continue
		fi
		[ "$status" -eq 0 ]
		[ "$(csv_meta "$T/$w.csv" workload)" = "$w" ]
		[ "$(csv_sum "$T/$w.csv" samples workload="$w" run=all cpu=all)" = 8 ]
		[ "$(csv_rows "$T/$w.csv" variant | sort -u | wc -l)" -eq 1 ]
	done
}

@test "statfs: --statfs-path is checked, and is statfs's alone" {
	run ./bench run -q -w statfs -n 4 --statfs-path "$T" -o "$T/s.csv"
	[ "$status" -eq 0 ]
	[ "$(csv_meta "$T/s.csv" statfs_path)" = "$T" ]
	[ "$(csv_meta "$T/s.csv" variant_statfs)" = "statfs($T)" ]
	bad "--statfs-path: $T/none: No such file or directory" run -w statfs --statfs-path "$T/none"
	bad "--statfs-path: only -w statfs takes it, not file-read" run -w file-read --statfs-path /tmp
}
