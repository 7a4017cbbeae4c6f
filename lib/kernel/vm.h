/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vm.h - the guest machine of `bench vm`: its qemu command line, its
 * /init and initramfs, and the transcript it sends back (one boot's
 * tries, timeout and reboots are lib/kernel/vmboot.h's). Nothing here
 * starts a process or prints; builtin-vm.c runs qemu and reports.
 *
 *	struct vm_config c = { .qemu = "qemu-system-x86_64", .cpus = 2,
 *			       .possible = 480, .nodes = 1, .memory = 1024 };
 *	vm_check_config(&c, why, sizeof(why));		-EINVAL: why says
 *	vm_initramfs("k.cpio", cmds, 1, "/bin/busybox", "bench-static", ko);
 *	vm_qemu_argv(&a, &c, "bzImage", "k.cpio", "console", "data");
 *	execvp(a.argv[0], a.argv);			(the caller)
 *	vm_guest_read(&g, fopen("data", "r"), 1);	g.possible == 480?
 *
 * The guest: busybox sh runs /init, which mounts proc, sysfs, devtmpfs,
 * a tmpfs, and where the kernel has them debugfs, tracefs
 * (/sys/kernel/tracing), cgroup2 (/sys/fs/cgroup) and bpffs (/sys/fs/bpf),
 * and runs each command as `/bench CMD -q -o /tmp/N.csv ARGS`. The
 * kernel's console is ttyS0 (qemu's first -serial); the results go to
 * ttyS1, set raw, in lines the host parses:
 *
 *	@ksb vm 1				/init runs
 *	@ksb boot release=6.12.117 possible=0-479 online=0-1 kernel_max=511
 *	@ksb begin 1				command 1's CSV follows
 *	# kstats-bench-csv 2 ...
 *	@ksb stderr 1				then its stderr
 *	@ksb end 1 rc=0				its exit code
 *	@ksb done				every command ran
 *
 * A `sh SCRIPT [ARGS]` command runs SCRIPT (in the initramfs as
 * /sh/N.sh) under busybox sh with $KSB_OUT an empty directory; every
 * regular file it leaves there (a name not starting with '.') comes back
 * in a counted frame, then its stdout and stderr as the files ".stdout"
 * and ".stderr", then its first stderr line and exit code as above:
 *
 *	@ksb file 1 2 kernel.csv		the next 2 lines, verbatim
 *	@ksb stderr 1
 *	@ksb end 1 rc=0
 *
 * The files are text: a last line without a newline gets one. A frame's
 * lines are taken as they come, "@ksb" lines among them.
 *
 * CPUs: qemu 7.2's firmware declares at most VM_FW_MAX_CPUS under TCG
 * (more need x2APIC, which its TCG lacks), in one socket per NUMA node
 * (a node that split a socket would draw the kernel's topology_sane()
 * warning on every boot); above that the kernel command line asks
 * possible_cpus=N, which 6.1 honours and 6.9 and later do only with
 * tests/kernel/patches/test-only-possible-cpus.patch. The guest's own
 * count is what the caller checks.
 *
 * Hotplug slots: the firmware's CPUs beyond the online ones are MADT
 * entries without the enabled bit, and since 6.3 the kernel counts them
 * as possible only under a hypervisor it recognises
 * (acpi_is_processor_usable(): qemu's firmware sets no online-capable
 * bit). Under KVM it sees KVM. TCG's CPUID leaf says "TCGTCGTCGTCG",
 * which no kernel knows, so the guest would boot with possible = online.
 * Under TCG the guest is therefore given VMware's identity, with no
 * kernel change: qemu's VMware backdoor port (vmport=on), "VMware" in the
 * DMI serial number, and no CPUID hypervisor bit, which is what
 * vmware_platform() looks for. The kernel then says "Hypervisor
 * detected: VMware" and "Allowing 2 present CPUs plus 253 hotplug CPUs";
 * it needs CONFIG_HYPERVISOR_GUEST and CONFIG_DMI. It also takes its TSC
 * for the clocksource, on every TCG boot alike.
 *
 * Stateless but for the structures the caller owns; thread-safe.
 */
#ifndef KSB_VM_H
#define KSB_VM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define VM_FW_MAX_CPUS	255		/* firmware CPUs qemu 7.2's TCG declares */
#define VM_MAX_CMDS	4		/* commands per boot */
#define VM_QEMU_ARGS	48		/* words of a qemu command */
#define VM_APPEND_MAX	1024		/* bytes of --append (the kernel takes 2048) */
#define VM_MAX_FILES	1024		/* files one boot's sh commands send back */
#define VM_FILE_NAME	128		/* bytes of such a file's name */
#define VM_MAX_LINE	(1 << 20)	/* bytes of a line a guest sends: longer is an error */

enum vm_accel {
	VM_TCG,				/* software: works everywhere, no caches */
	VM_KVM,				/* hardware: where /dev/kvm works */
};

extern const char *const vm_accels[];	/* "tcg", "kvm", NULL */

/*
 * The guest's clock. Under TCG qemu can make it a count: with -icount
 * shift=0 (single-threaded TCG) virtual time advances one nanosecond per
 * guest instruction, and the guest's TSC, its clocksource and the RTC
 * (-rtc clock=vm) follow it; sleep=off warps an idle guest to its next
 * timer at once instead of waiting for the host's clock. A guest's
 * timing is then the instructions it executed, the same on any host,
 * loaded or not: what the host's speed no longer enters cannot move.
 * KVM runs the guest on the host's cores, whose clock qemu cannot count.
 */
enum vm_clock {
	VM_TIMED,			/* the host's clock: TCG's speed, or KVM's hardware */
	VM_COUNTED,			/* TCG, -icount shift=0: 1 ns = 1 instruction */
};

extern const char *const vm_clocks[];	/* "timed", "counted", NULL */

struct vm_config {
	const char *qemu;		/* qemu-system-x86_64, or a path */
	enum vm_accel accel;		/* -machine accel= */
	enum vm_clock clock;		/* counted: TCG only */
	unsigned int cpus;		/* online vCPUs */
	unsigned int possible;		/* possible CPUs, >= cpus */
	unsigned int nodes;		/* NUMA nodes, one socket each */
	unsigned long memory;		/* MiB, split evenly over the nodes */
	const char *append;		/* more kernel command line, or NULL */
	/*
	 * the project's QEMU plugin (docs/plugin.md): qemu's -plugin
	 * FILE,KEY=VALUE,... without out= and funcs=, which vm_qemu_argv()
	 * adds (vm_plugin_paths()); NULL: none. Counted clock only.
	 */
	const char *plugin;
};

/**
 * vm_check_config - can @c boot? Returns 0, or -EINVAL with one line in
 * @why (@len bytes) naming the option: possible below cpus, possible CPUs
 * up to 255 that do not split evenly over the nodes, more online CPUs
 * than the firmware declares, under 64 MiB a node, --append too long,
 * the counted clock under KVM, or with more than one online vCPU (qemu
 * keeps one instruction counter for all vCPUs: a figure taken on one
 * would count the other's instructions too), or the plugin under the
 * timed clock (its counts are exact only where the guest's clock counts).
 */
int vm_check_config(const struct vm_config *c, char *why, size_t len);

/**
 * vm_fw_cpus - the CPUs qemu's firmware declares for @c: min(possible,
 * 255), rounded down to a multiple of the nodes.
 */
unsigned int vm_fw_cpus(const struct vm_config *c);

/* a qemu command: argv for execvp(), in one buffer */
struct vm_argv {
	char *argv[VM_QEMU_ARGS + 1];	/* NULL-terminated */
	unsigned int n;			/* used */
	char buf[16384];		/* the words themselves */
	size_t used;			/* bytes of buf used */
};

/**
 * vm_qemu_argv - the command that boots @image with @initrd once under
 * @c, its first serial port (the console) to the file @console and its
 * second (the results) to @data; -no-reboot, so that the guest's
 * poweroff, or a panic (panic=-1), ends qemu. With @c->plugin, the
 * plugin too, its files beside @data (vm_plugin_paths()).
 */
void vm_qemu_argv(struct vm_argv *a, const struct vm_config *c, const char *image,
		  const char *initrd, const char *console, const char *data);

/**
 * vm_plugin_paths - where the plugin of a boot whose results go to the
 * file @data writes: its windows (out=) @data.win.csv into @win, its
 * functions (funcs=) @data.fn.csv into @fn, @len bytes each.
 */
void vm_plugin_paths(const char *data, char *win, char *fn, size_t len);

/**
 * vm_write_init - the guest's /init for @n commands, @cmds[i] each a
 * NULL-terminated argv of bench's ("kernel", "-w", ...), or "sh", SCRIPT,
 * ARGS... (SCRIPT is in the initramfs as /sh/N.sh, N = i + 1), onto @f,
 * each argv quoted for the shell (spawn_sh_line()). Returns 0, -ENOSPC
 * when one argv is over 8 KiB as a line, or -EIO.
 */
int vm_write_init(FILE *f, char *const *const *cmds, unsigned int n);

/* one more file of the initramfs (bench vm --file SRC=DST) */
struct vm_extra {
	const char *src;		/* a file on this host */
	const char *dst;		/* its path in the guest, without the leading '/' */
};

/**
 * vm_initramfs - write the initramfs @path: /init for @cmds, the static
 * @busybox as /bin/busybox, the static @bench as /bench, the module
 * @ko (NULL: none) as /kmod/kstats_bench.ko, where `bench kernel` looks
 * beside /bench, each sh command's SCRIPT as /sh/N.sh, and the @nx files
 * @x (0755 when executable here, else 0644; their directories made).
 * Returns 0, or -errno (of reading a file or writing).
 */
int vm_initramfs(const char *path, char *const *const *cmds, unsigned int n,
		 const char *busybox, const char *bench, const char *ko,
		 const struct vm_extra *x, unsigned int nx);

/* a file an sh command sent back */
struct vm_file {
	unsigned int cmd;		/* its command, 0.. */
	char name[VM_FILE_NAME];	/* as in $KSB_OUT, or ".stdout", ".stderr" */
	FILE *f;			/* its lines (a tmpfile, rewound) */
};

/* what one boot's second serial port said */
struct vm_guest {
	bool started;			/* "@ksb vm 1": /init ran */
	bool done;			/* "@ksb done": every command ran */
	unsigned int possible;		/* CPUs in its possible list */
	unsigned int online;		/* CPUs in its online list */
	unsigned int kernel_max;	/* its NR_CPUS - 1 */
	char release[65];		/* its uname -r */
	FILE *csv[VM_MAX_CMDS];		/* each command's CSV (a tmpfile), or NULL */
	char err[VM_MAX_CMDS][256];	/* the first line of its stderr */
	int rc[VM_MAX_CMDS];		/* its exit code; -1: it did not end */
	struct vm_file *file;		/* [nr_files]: the sh commands' files, in order */
	unsigned int nr_files;		/* used */
	unsigned int bad_files;		/* frames dropped: a bad name, or past VM_MAX_FILES */
};

/**
 * vm_guest_read - parse what a guest of @n commands sent, from @f (CRs
 * dropped, unknown "@ksb" lines ignored). Returns 0, -E2BIG for a line
 * of more than VM_MAX_LINE bytes (read no further), or -errno (reading
 * @f, a temp file for a CSV). @g is filled either way; vm_guest_free()
 * releases it.
 */
int vm_guest_read(struct vm_guest *g, FILE *f, unsigned int n);

/**
 * vm_file_name_ok - may a guest's file be called @name on this host: 1 to
 * VM_FILE_NAME - 1 bytes of [A-Za-z0-9._+-], not starting with '.' (but
 * for ".stdout" and ".stderr")? true or false.
 */
bool vm_file_name_ok(const char *name);

/**
 * vm_guest_free - close @g's CSVs and files; safe twice.
 */
void vm_guest_free(struct vm_guest *g);

/**
 * vm_sweep_slot - which kernel (*@k, of @nk) and possible-CPU count (*@c,
 * of @np) boot in slot @slot (0..nk*np-1) of boot round @round: every
 * round boots each (kernel, count) pair once. The counts go in blocks of
 * @nk slots, one kernel each, and both rotate by one each round (a Latin
 * square in each): count c's block is (c - round) mod np, kernel k's slot
 * in a block (k - round) mod nk. Over np rounds each count is in every
 * block place once, over nk rounds each kernel in every slot of a block
 * once (two kernels: A B, B A, A B ..., as bench run's ABBA): no kernel
 * and no count is always early or late, and each pair of kernels boots
 * next to each other at every count, so that a drift of the host moves
 * them alike.
 */
void vm_sweep_slot(unsigned int nk, unsigned int np, unsigned int round, unsigned int slot,
		   unsigned int *k, unsigned int *c);

/**
 * vm_shard_parse - "I/N" (@s: bench vm --shard's, a file's vm_shard) into
 * *@i and *@n: two decimals of digits alone (no sign, no space), N in
 * 1..@max and I in 1..N, never wrapped. Returns 0, or -EINVAL (nothing
 * stored).
 */
int vm_shard_parse(const char *s, unsigned int max, unsigned int *i, unsigned int *n);

/**
 * vm_shard_range - the plan boots of shard @i (1..@n) of a plan of
 * @rounds rounds of @slots boots each, the plan's boots numbered 0..
 * rounds * slots - 1 in its order (round after round, slot after slot,
 * vm_sweep_slot()): [*@first, *@end). With @n up to @rounds a shard
 * takes whole rounds, consecutive ones: rounds / @n each, and the last
 * rounds % @n shards one more, so that every shard boots each (kernel,
 * count) alike. With more shards than rounds the plan's boots are cut
 * instead, (rounds * slots) / @n each and the last ones one more: a
 * shard then holds part of a round. Returns 0, or -EINVAL when @i is
 * not in 1..@n or @n is 0 or above rounds * slots (a shard would be
 * empty).
 */
int vm_shard_range(unsigned int rounds, unsigned int slots, unsigned int i, unsigned int n,
		   unsigned int *first, unsigned int *end);

/**
 * vm_count_cpus - the CPUs of a kernel list: "0-479" 480, "0,2-3" 3.
 */
unsigned int vm_count_cpus(const char *list);

#endif /* KSB_VM_H */
