// SPDX-License-Identifier: GPL-2.0
/*
 * vm.c - the qemu command, the guest's /init and initramfs, and the
 * guest's results, for bench vm (vm.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/kernel/cpio.h"
#include "lib/subcmd/spawn.h"
#include "lib/kernel/vm.h"
#include "lib/subcmd/readfile.h"
#include "lib/subcmd/samples.h"

const char *const vm_accels[] = { "tcg", "kvm", NULL };
const char *const vm_clocks[] = { "timed", "counted", NULL };

/* ---- the qemu command ---- */

unsigned int vm_fw_cpus(const struct vm_config *c)
{
	unsigned int fw = c->possible < VM_FW_MAX_CPUS ? c->possible : VM_FW_MAX_CPUS;

	return fw - fw % c->nodes;
}

int vm_check_config(const struct vm_config *c, char *why, size_t len)
{
	unsigned int fw = vm_fw_cpus(c);

	if (c->possible < c->cpus)
		snprintf(why, len, "--possible-cpus %u is below --cpus %u", c->possible, c->cpus);
	else if (c->possible <= VM_FW_MAX_CPUS && fw != c->possible)
		snprintf(why, len, "--possible-cpus %u over %u nodes: the firmware's CPUs must split evenly into one socket per node",
			 c->possible, c->nodes);
	else if (c->cpus > fw)
		snprintf(why, len, "--cpus %u: the firmware declares %u CPUs over %u nodes",
			 c->cpus, fw, c->nodes);
	else if (c->memory / c->nodes < 64)
		snprintf(why, len, "--memory %lu over %u nodes: at least 64 MiB a node",
			 c->memory, c->nodes);
	else if (c->clock == VM_COUNTED && c->accel == VM_KVM)
		snprintf(why, len, "--clock counted needs --accel tcg: KVM runs the guest on this host's cores, whose clock qemu cannot count (--clock timed)");
	else if (c->clock == VM_COUNTED && c->cpus > 1)
		snprintf(why, len, "--cpus %u under --clock counted: qemu counts the instructions of every vCPU on one counter, so a figure would hold the other vCPUs' too (-c 1, or --clock timed)",
			 c->cpus);
	else if (c->plugin && c->clock != VM_COUNTED)
		snprintf(why, len, "--plugin under --clock timed: the plugin's counts are exact only where the guest's clock counts its instructions, and a timed file cannot hold them (--clock counted)");
	else if (c->append && strlen(c->append) > VM_APPEND_MAX)
		snprintf(why, len, "--append: more than %d bytes (the kernel takes 2048 in all)",
			 VM_APPEND_MAX);
	else
		return 0;
	return -EINVAL;
}

static void vm_arg(struct vm_argv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void vm_arg(struct vm_argv *a, const char *fmt, ...)
{
	size_t room = sizeof(a->buf) - a->used;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(a->buf + a->used, room, fmt, ap);
	va_end(ap);
	/* cannot happen: paths are PATH_MAX, --append VM_APPEND_MAX at most */
	if (n < 0 || (size_t)n >= room || a->n == VM_QEMU_ARGS)
		return;
	a->argv[a->n++] = a->buf + a->used;
	a->argv[a->n] = NULL;
	a->used += (size_t)n + 1;
}

/* a node per socket, and its memory */
static void vm_numa_args(struct vm_argv *a, const struct vm_config *c, unsigned int per)
{
	unsigned int n;

	for (n = 0; c->nodes > 1 && n < c->nodes; n++) {
		vm_arg(a, "-object");
		vm_arg(a, "memory-backend-ram,id=m%u,size=%luM", n, c->memory / c->nodes);
		vm_arg(a, "-numa");
		vm_arg(a, "node,nodeid=%u,cpus=%u-%u,memdev=m%u", n, n * per, (n + 1) * per - 1, n);
	}
}

/* the counted clock (vm.h, enum vm_clock): icount needs TCG's single thread */
static void vm_counted_args(struct vm_argv *a)
{
	vm_arg(a, "-accel");
	vm_arg(a, "tcg,thread=single");
	vm_arg(a, "-icount");
	vm_arg(a, "shift=0,sleep=off");
	vm_arg(a, "-rtc");
	vm_arg(a, "clock=vm");
}

void vm_plugin_paths(const char *data, char *win, char *fn, size_t len)
{
	snprintf(win, len, "%s.win.csv", data);
	snprintf(fn, len, "%s.fn.csv", data);
}

/* the plugin, its files beside @data */
static void vm_plugin_args(struct vm_argv *a, const char *plugin, const char *data)
{
	char win[PATH_MAX + 16], fn[PATH_MAX + 16];

	vm_plugin_paths(data, win, fn, sizeof(win));
	vm_arg(a, "-plugin");
	vm_arg(a, "%s,out=%s,funcs=%s", plugin, win, fn);
}

void vm_qemu_argv(struct vm_argv *a, const struct vm_config *c, const char *image,
		  const char *initrd, const char *console, const char *data)
{
	unsigned int fw = vm_fw_cpus(c), per = fw / c->nodes;
	const char *sp = c->append ? " " : "", *more = c->append ? c->append : "";

	memset(a, 0, sizeof(*a));
	vm_arg(a, "%s", c->qemu);
	vm_arg(a, "-machine");
	if (c->accel == VM_KVM) {
		vm_arg(a, "q35,accel=kvm");
		vm_arg(a, "-cpu");
		vm_arg(a, "host");
	} else {
		/* VMware's identity: see vm.h, "Hotplug slots" */
		vm_arg(a, c->clock == VM_COUNTED ? "q35,vmport=on" : "q35,accel=tcg,vmport=on");
		vm_arg(a, "-cpu");
		vm_arg(a, "max,-hypervisor");
		vm_arg(a, "-smbios");
		vm_arg(a, "type=1,serial=VMware-kstats-bench");
	}
	if (c->clock == VM_COUNTED)
		vm_counted_args(a);
	if (c->plugin)
		vm_plugin_args(a, c->plugin, data);
	vm_arg(a, "-smp");
	vm_arg(a, "%u,maxcpus=%u,sockets=%u,cores=%u,threads=1", c->cpus, fw, c->nodes, per);
	vm_arg(a, "-m");
	vm_arg(a, "%lu", c->memory / c->nodes * c->nodes);
	vm_numa_args(a, c, per);
	vm_arg(a, "-kernel");
	vm_arg(a, "%s", image);
	vm_arg(a, "-initrd");
	vm_arg(a, "%s", initrd);
	vm_arg(a, "-append");
	if (c->possible > fw)
		vm_arg(a, "console=ttyS0 panic=-1 possible_cpus=%u%s%s", c->possible, sp, more);
	else
		vm_arg(a, "console=ttyS0 panic=-1%s%s", sp, more);
	vm_arg(a, "-nodefaults");
	vm_arg(a, "-display");
	vm_arg(a, "none");
	vm_arg(a, "-no-reboot");
	vm_arg(a, "-serial");
	vm_arg(a, "file:%s", console);
	vm_arg(a, "-serial");
	vm_arg(a, "file:%s", data);
}

/* ---- the guest's /init and initramfs ---- */

/*
 * Mount what bench needs, say what the kernel counted, run each command
 * with its CSV to /tmp, send CSV and stderr framed on ttyS1 (raw: no CR
 * added), power off. awk 1 ends a last line that has no newline. -q -o
 * go right after the command's name: bench trace's words after its "--"
 * are its COMMAND's. debugfs, tracefs, cgroup2 and bpffs may be missing
 * from a kernel: their mounts fail quietly, and the command that needs
 * one says so.
 */
static const char vm_init_head[] =
	"#!/bin/busybox sh\n"
	"# /init of a bench vm guest: the commands' results go to ttyS1\n"
	"/bin/busybox --install -s /bin\n"
	"mount -t proc proc /proc\n"
	"mount -t sysfs sysfs /sys\n"
	"mount -t devtmpfs dev /dev\n"
	"mount -t tmpfs tmp /tmp\n"
	"# what bench kernel, trace and run's workloads use; a kernel without one boots on\n"
	"mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null\n"
	"mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null\n"
	"mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null\n"
	"mount -t bpf bpf /sys/fs/bpf 2>/dev/null\n"
	"stty -F /dev/ttyS1 raw -echo\n"
	"exec 3>/dev/ttyS1\n"
	"c=/sys/devices/system/cpu\n"
	"echo '@ksb vm 1' >&3\n"
	"echo \"@ksb boot release=$(uname -r) possible=$(cat $c/possible) online=$(cat $c/online) kernel_max=$(cat $c/kernel_max)\" >&3\n"
	"run() {\n"
	"\tn=$1\n"
	"\tcmd=$2\n"
	"\tshift 2\n"
	"\t/bench \"$cmd\" -q -o /tmp/$n.csv \"$@\" >/dev/null 2>/tmp/$n.err\n"
	"\trc=$?\n"
	"\techo \"@ksb begin $n\" >&3\n"
	"\t[ -f /tmp/$n.csv ] && awk 1 /tmp/$n.csv >&3\n"
	"\techo \"@ksb stderr $n\" >&3\n"
	"\tawk 1 /tmp/$n.err >&3\n"
	"\techo \"@ksb end $n rc=$rc\" >&3\n"
	"}\n"
	"# one file of an sh command, counted: lines that look like frames stay its own\n"
	"sendf() {\n"
	"\tawk 1 \"$3\" >/tmp/ksb.f\n"
	"\techo \"@ksb file $1 $(wc -l </tmp/ksb.f) $2\" >&3\n"
	"\tcat /tmp/ksb.f >&3\n"
	"}\n"
	"runsh() {\n"
	"\tn=$1\n"
	"\tshift\n"
	"\tmkdir -p /tmp/ksb-out.$n\n"
	"\tKSB_OUT=/tmp/ksb-out.$n sh /sh/$n.sh \"$@\" </dev/null >/tmp/$n.out 2>/tmp/$n.err\n"
	"\trc=$?\n"
	"\tcd /\n"
	"\tfor f in /tmp/ksb-out.$n/*; do\n"
	"\t\t[ -f \"$f\" ] && [ ! -L \"$f\" ] && sendf $n \"${f##*/}\" \"$f\"\n"
	"\tdone\n"
	"\tsendf $n .stdout /tmp/$n.out\n"
	"\tsendf $n .stderr /tmp/$n.err\n"
	"\techo \"@ksb stderr $n\" >&3\n"
	"\tawk 1 /tmp/$n.err >&3\n"
	"\techo \"@ksb end $n rc=$rc\" >&3\n"
	"}\n";

int vm_write_init(FILE *f, char *const *const *cmds, unsigned int n)
{
	char line[8192];
	unsigned int i;
	int ret = 0;

	fputs(vm_init_head, f);
	for (i = 0; i < n && !ret; i++) {
		bool sh = !strcmp(cmds[i][0], "sh");
		int j = sh ? 2 : 0;

		while (cmds[i][j])
			j++;
		/* sh: its SCRIPT is /sh/N.sh, its ARGS follow */
		ret = spawn_sh_line(line, sizeof(line), j - (sh ? 2 : 0), cmds[i] + (sh ? 2 : 0));
		fprintf(f, sh ? "runsh %u%s%s\n" : "run %u%s%s\n", i + 1, *line ? " " : "", line);
	}
	if (ret)
		return ret;
	fputs("echo '@ksb done' >&3\n"
	      "poweroff -f\n", f);
	return ferror(f) ? -EIO : 0;
}

/* the directories above @dst ("a/b/c": a, a/b), then @src as @dst */
static void vm_extra_file(struct cpio *c, const struct vm_extra *x)
{
	char dir[PATH_MAX];
	const char *p;

	for (p = strchr(x->dst, '/'); p; p = strchr(p + 1, '/')) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(p - x->dst), x->dst);
		cpio_dir(c, dir, 0755);
	}
	cpio_file(c, x->dst, access(x->src, X_OK) ? 0644 : 0755, x->src);
}

int vm_initramfs(const char *path, char *const *const *cmds, unsigned int n,
		 const char *busybox, const char *bench, const char *ko,
		 const struct vm_extra *x, unsigned int nx)
{
	static const char *const dirs[] = { "bin", "dev", "proc", "sys", "tmp", "kmod", "sh", NULL };
	char *init = NULL, script[32];
	size_t len = 0;
	struct cpio c;
	unsigned int i;
	FILE *f, *s;
	int ret;

	s = open_memstream(&init, &len);
	if (!s)
		return -errno;
	ret = vm_write_init(s, cmds, n);
	if (fclose(s) && !ret)
		ret = -errno;
	f = ret ? NULL : fopen(path, "we");
	if (!ret && !f)
		ret = -errno;
	if (ret)
		goto out_free_init;
	cpio_begin(&c, f);
	for (i = 0; dirs[i]; i++)
		cpio_dir(&c, dirs[i], 0755);
	cpio_node(&c, "dev/console", 0600, 5, 1);	/* init's stdio before devtmpfs */
	cpio_data(&c, "init", 0755, init, len);
	cpio_file(&c, "bin/busybox", 0755, busybox);
	cpio_file(&c, "bench", 0755, bench);
	if (ko)
		cpio_file(&c, "kmod/kstats_bench.ko", 0644, ko);
	for (i = 0; i < n; i++)
		if (!strcmp(cmds[i][0], "sh") && cmds[i][1]) {
			snprintf(script, sizeof(script), "sh/%u.sh", i + 1);
			cpio_file(&c, script, 0755, cmds[i][1]);
		}
	for (i = 0; i < nx; i++)
		vm_extra_file(&c, &x[i]);
	ret = cpio_end(&c);
	if (fclose(f) && !ret)
		ret = -errno;
out_free_init:
	free(init);
	return ret;
}

/* ---- what the guest sent ---- */

unsigned int vm_count_cpus(const char *s)
{
	unsigned long a, b;
	unsigned int n = 0;
	char *end;

	while (*s >= '0' && *s <= '9') {
		a = strtoul(s, &end, 10);
		b = *end == '-' ? strtoul(end + 1, &end, 10) : a;
		n += b >= a ? (unsigned int)(b - a + 1) : 0;
		s = *end == ',' ? end + 1 : end;
	}
	return n;
}

/* "@ksb boot release=R possible=L online=L kernel_max=N" */
static void vm_guest_boot(struct vm_guest *g, const char *line)
{
	const char *p;

	if ((p = strstr(line, "release=")))
		sscanf(p, "release=%64s", g->release);
	if ((p = strstr(line, "possible=")))
		g->possible = vm_count_cpus(p + 9);
	if ((p = strstr(line, "online=")))
		g->online = vm_count_cpus(p + 7);
	if ((p = strstr(line, "kernel_max=")))
		g->kernel_max = (unsigned int)strtoul(p + 11, NULL, 10);
}

/* where the lines after a "@ksb" line go */
struct vm_cursor {
	int cmd;			/* command index, -1: none */
	bool err;			/* its stderr, not its CSV */
	unsigned int n;			/* commands of the boot */
	unsigned long left;		/* lines of a file frame still to come */
	FILE *file;			/* where they go, NULL: dropped */
};

/* "@ksb WORD N ...": N in 1..n, else 0 */
static unsigned int vm_cmd_no(const char *line, const char *word, unsigned int n)
{
	size_t len = strlen(word);
	unsigned long k;

	if (strncmp(line, word, len) || line[len] != ' ')
		return 0;
	k = strtoul(line + len + 1, NULL, 10);
	return k >= 1 && k <= n ? (unsigned int)k : 0;
}

bool vm_file_name_ok(const char *name)
{
	size_t len = strlen(name);

	if (!strcmp(name, ".stdout") || !strcmp(name, ".stderr"))
		return true;
	if (!len || len >= VM_FILE_NAME || name[0] == '.')
		return false;
	return strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._+-") ==
	       len;
}

/* "file N LINES NAME": the next LINES lines are command N's file NAME */
static int vm_guest_file(struct vm_guest *g, const char *line, struct vm_cursor *cur)
{
	unsigned int k = vm_cmd_no(line, "file", cur->n);
	struct vm_file *fl, *more;
	char *end;

	cur->cmd = -1;
	cur->file = NULL;
	cur->left = 0;
	if (!k)
		return 0;
	line = strchr(line + 5, ' ');
	if (!line)
		return 0;
	cur->left = strtoul(line + 1, &end, 10);
	if (*end != ' ' || !vm_file_name_ok(end + 1) || g->nr_files == VM_MAX_FILES) {
		g->bad_files++;
		return 0;
	}
	more = realloc(g->file, (g->nr_files + 1) * sizeof(*g->file));
	if (!more)
		return -ENOMEM;
	g->file = more;
	fl = &g->file[g->nr_files];
	fl->cmd = k - 1;
	snprintf(fl->name, sizeof(fl->name), "%s", end + 1);
	fl->f = tmpfile();
	if (!fl->f)
		return -errno;
	g->nr_files++;
	cur->file = fl->f;
	return 0;
}

static int vm_guest_ctl(struct vm_guest *g, const char *line, struct vm_cursor *cur)
{
	const char *rc;
	unsigned int k;

	if (!strcmp(line, "vm 1")) {
		g->started = true;
	} else if (!strncmp(line, "boot ", 5)) {
		vm_guest_boot(g, line);
	} else if ((k = vm_cmd_no(line, "begin", cur->n))) {
		cur->cmd = (int)k - 1;
		cur->err = false;
	} else if ((k = vm_cmd_no(line, "stderr", cur->n))) {
		cur->cmd = (int)k - 1;
		cur->err = true;
	} else if ((k = vm_cmd_no(line, "end", cur->n))) {
		rc = strstr(line, " rc=");
		g->rc[k - 1] = rc ? atoi(rc + 4) : -1;
		cur->cmd = -1;
	} else if (!strncmp(line, "file ", 5)) {
		return vm_guest_file(g, line, cur);
	} else if (!strcmp(line, "done")) {
		g->done = true;
	}
	return 0;
}

/* one line of what the guest sent */
static int vm_guest_line(struct vm_guest *g, const char *line, struct vm_cursor *cur)
{
	FILE **csv;

	if (cur->left) {
		cur->left--;
		if (cur->file)
			fprintf(cur->file, "%s\n", line);
		return 0;
	}
	if (!strncmp(line, "@ksb ", 5))
		return vm_guest_ctl(g, line + 5, cur);
	if (cur->cmd < 0)
		return 0;
	if (cur->err) {
		if (!g->err[cur->cmd][0])
			snprintf(g->err[cur->cmd], sizeof(g->err[cur->cmd]), "%s", line);
		return 0;
	}
	csv = &g->csv[cur->cmd];
	if (!*csv && !(*csv = tmpfile()))
		return -errno;
	fprintf(*csv, "%s\n", line);
	return 0;
}

int vm_guest_read(struct vm_guest *g, FILE *f, unsigned int n)
{
	struct vm_cursor cur = { .cmd = -1, .n = n < VM_MAX_CMDS ? n : VM_MAX_CMDS };
	struct readfile_lines lr;
	unsigned int i;
	int ret;

	memset(g, 0, sizeof(*g));
	for (i = 0; i < VM_MAX_CMDS; i++)
		g->rc[i] = -1;
	readfile_lines_init(&lr, f, VM_MAX_LINE);
	while ((ret = readfile_lines_next(&lr)) > 0) {
		while (lr.len && lr.line[lr.len - 1] == '\r')
			lr.line[--lr.len] = 0;
		ret = vm_guest_line(g, lr.line, &cur);
		if (ret)
			break;
	}
	readfile_lines_free(&lr);
	for (i = 0; i < VM_MAX_CMDS; i++)
		if (g->csv[i])
			rewind(g->csv[i]);
	for (i = 0; i < g->nr_files; i++)
		rewind(g->file[i].f);
	return ret;
}

void vm_guest_free(struct vm_guest *g)
{
	unsigned int i;

	for (i = 0; i < VM_MAX_CMDS; i++) {
		if (g->csv[i])
			fclose(g->csv[i]);
		g->csv[i] = NULL;
	}
	for (i = 0; i < g->nr_files; i++)
		fclose(g->file[i].f);
	free(g->file);
	g->file = NULL;
	g->nr_files = 0;
}

/* ---- the order of a sweep's boots ---- */

void vm_sweep_slot(unsigned int nk, unsigned int np, unsigned int round, unsigned int slot,
		   unsigned int *k, unsigned int *c)
{
	*c = (slot / nk + round) % np;
	*k = (slot % nk + round) % nk;
}

/* [lo, hi) of part @i (0-based) of @total cut into @n, the extra ones last */
static void vm_cut(unsigned int total, unsigned int i, unsigned int n, unsigned int *lo,
		   unsigned int *hi)
{
	unsigned int q = total / n, extra = total % n, small = n - extra;

	*lo = i * q + (i > small ? i - small : 0);
	*hi = *lo + q + (i >= small);
}

int vm_shard_parse(const char *s, unsigned int max, unsigned int *i, unsigned int *n)
{
	uint64_t a, b;

	if (samples_take(&s, 1, max, &a) || *s++ != '/' || samples_take(&s, 1, max, &b) ||
	    *s || a > b)
		return -EINVAL;
	*i = (unsigned int)a;
	*n = (unsigned int)b;
	return 0;
}

int vm_shard_range(unsigned int rounds, unsigned int slots, unsigned int i, unsigned int n,
		   unsigned int *first, unsigned int *end)
{
	unsigned int total = rounds * slots;

	if (!n || !i || i > n || n > total)
		return -EINVAL;
	if (n <= rounds) {
		vm_cut(rounds, i - 1, n, first, end);
		*first *= slots;
		*end *= slots;
	} else {
		vm_cut(total, i - 1, n, first, end);
	}
	return 0;
}
