// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-vm.c - bench vm: boot each kernel under test in qemu with as
 * many possible CPUs as asked, run bench commands inside every boot, and
 * write one CSV per kernel and command whose runs are the boots, ready
 * for bench compare.
 *
 * Why boots and not runs inside one boot: runs in one boot share its
 * per-CPU area, slab caches and placement, and are not independent (on
 * 6.1, six runs in one boot per kernel showed a -10% "improvement" of
 * irq_free_descs() that the patch cannot cause); boots are. Boots of the
 * kernels interleave (A1 B1 A2 B2 ...), so that a drift of the host
 * moves both sides alike, as bench run's ABBA does inside a run.
 *
 * Each boot: an initramfs written here (lib/kernel/cpio.h) with busybox, the
 * static bench, the module and an /init made for the commands; qemu
 * with the kernel's console on ttyS0 (kept for the reader, NAME.console)
 * and the results on ttyS1, each command's CSV between "@ksb" lines:
 *
 *	@ksb vm 1
 *	@ksb boot release=6.12.117 possible=0-479 online=0-1 kernel_max=511
 *	@ksb begin 1
 *	# kstats-bench-csv 3 ...		the command's -o CSV
 *	@ksb stderr 1
 *	...					its stderr
 *	@ksb end 1 rc=0
 *	@ksb done
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "lib/report/csv.h"
#include "lib/report/format.h"
#include "lib/kernel/kimage.h"
#include "lib/report/outfile.h"
#include "lib/report/results.h"
#include "lib/measure/runs.h"
#include "lib/report/testbed.h"
#include "lib/kernel/vm.h"

#define BV_MAX_KERNELS	16
#define BV_MAX_ARGS	64		/* words of one command */
#define BV_TAIL		4		/* console lines quoted for a failed boot */


/* the bench commands a guest may run: each writes a CSV with -o */
static const char *const bv_guest_cmds[] = { "kernel", "run", NULL };

/* one command, run inside every boot */
struct bv_cmd {
	char *argv[BV_MAX_ARGS + 1];	/* bench's words: "kernel", "-w", ... */
	unsigned int argc;		/* used */
	char what[256];			/* argv joined, for titles and metadata */
};

/* what one boot said */
struct bv_boot {
	unsigned int possible;		/* possible CPUs, as the guest counted them */
	unsigned int online;		/* online CPUs, as the guest counted them */
	double seconds;			/* qemu's start to its exit, wall clock */
	unsigned int tries;		/* boots it took: 1 + retries */
};

/* the boots' results of one command on one kernel */
struct bv_runs {
	struct runs set;		/* the boots as runs 1.., and their merge */
	struct outfile out;		/* NAME.csv or NAME-CMD.csv */
	char path[PATH_MAX];		/* its path */
};

/* one kernel under test */
struct bv_kernel {
	char name[64];			/* label: files, progress, metadata */
	const char *image;		/* its bzImage */
	const char *tree;		/* its build tree, NULL: given as an image */
	char image_buf[PATH_MAX];	/* tree/arch/x86/boot/bzImage */
	char release[KIMAGE_RELEASE_MAX]; /* the bzImage's */
	char ko[PATH_MAX];		/* the module it boots with, "" none */
	char initrd[PATH_MAX];		/* its initramfs, in the work directory */
	char qemu_line[2048];		/* its qemu command, for the metadata */
	struct bv_boot *boot;		/* [boots] */
	unsigned int nr_boots;		/* finished */
	struct bv_runs runs[VM_MAX_CMDS]; /* per command */
	struct outfile console;		/* NAME.console: every boot's console */
	char console_path[PATH_MAX];	/* its path */
};

/* One global, as bench run's: configuration, then run state. */
static struct bv_global {
	/* configuration */
	uint64_t boots;			/* -B, per kernel */
	uint64_t cpus;			/* -c, online vCPUs */
	uint64_t possible;		/* -p, 0 = --cpus */
	uint64_t nodes;			/* --nodes */
	uint64_t memory;		/* -m, MiB */
	enum vm_accel accel;		/* --accel */
	uint64_t timeout;		/* --timeout, s per boot */
	uint64_t retries;		/* --retries, per boot */
	const char *append;		/* --append, more kernel command line */
	const char *module;		/* --module, for kernels given as images */
	const char *kbuild;		/* --kbuild, build the module there */
	const char *outdir;		/* -o */
	const char *qemu;		/* --qemu */
	const char *busybox;		/* --busybox, static */
	const char *bench;		/* --bench, static; NULL: bench-static */
	int format;			/* -f, an index of formats[] */
	bool quiet;			/* -q */
	char cmdline[1024];		/* for the metadata */

	/* run state */
	struct testbed tb;		/* this host, read before the first boot */
	time_t started;			/* when: the files' timestamp */
	struct bv_kernel k[BV_MAX_KERNELS]; /* operands, in order */
	unsigned int nr_k;		/* used */
	struct bv_cmd c[VM_MAX_CMDS];	/* after "--", in order */
	unsigned int nr_c;		/* used */
	char bench_path[PATH_MAX];	/* the static bench the guests run */
	struct vm_config vm;		/* what qemu boots, from the options */
	char work[PATH_MAX];		/* temp directory: initramfs, logs */
	int signo;			/* SIGINT/SIGTERM that stopped us, or 0 */
} v;

/* ---- options ---- */

static const struct opt bv_opts[] = {
	OPT_U64('B', "boots", &v.boots, 1, 1000, "N",
		"boots per kernel, each one run of every command\n"
		"(default 6: bench compare needs 5 a side)"),
	OPT_U64('p', "possible-cpus", &v.possible, 1, 8192, "N",
		"possible CPUs the guests boot with (default: --cpus)"),
	OPT_U64('c', "cpus", &v.cpus, 1, VM_FW_MAX_CPUS, "N", "online vCPUs, 1..255 (default 2)"),
	OPT_U64(0, "nodes", &v.nodes, 1, 64, "N",
		"NUMA nodes, one socket each, memory split evenly\n(default 1)"),
	OPT_U64('m', "memory", &v.memory, 128, 1 << 20, "MIB", "guest memory (default 1024)"),
	OPT_ENUM(0, "accel", &v.accel, vm_accels, "tcg|kvm",
		 "qemu's accelerator (default tcg; kvm where /dev/kvm\nworks)"),
	OPT_U64(0, "timeout", &v.timeout, 10, 86400, "S",
		"seconds a boot may take before it is killed (300)"),
	OPT_U64(0, "retries", &v.retries, 0, 10, "N",
		"boots again after a hang or a crash (default 1)"),
	OPT_STRING(0, "append", &v.append, "ARGS", "more kernel command line"),
	OPT_STRING(0, "module", &v.module, "KO",
		   "kstats_bench.ko for the kernels given as images"),
	OPT_STRING(0, "kbuild", &v.kbuild, "DIR",
		   "build the module against this tree for the kernels\ngiven as images"),
	OPT_STRING('o', "output", &v.outdir, "DIR", "where the CSVs go (default .)"),
	OPT_ENUM_TABLE('f', "format", &v.format, formats, "FMT",
		       "what goes to stdout, per kernel and command:"),
	OPT_STRING(0, "qemu", &v.qemu, "PROG", "default qemu-system-x86_64"),
	OPT_STRING(0, "busybox", &v.busybox, "FILE", "a static busybox (default /bin/busybox)"),
	OPT_STRING(0, "bench", &v.bench, "FILE",
		   "the static bench the guests run (default\nbench-static beside this one)"),
	OPT_CALL(0, "label", NULL, bench_opt_label, "KEY=VALUE",
		 "record label_KEY: VALUE in every file; repeatable"),
	OPT_FLAG('q', "quiet", &v.quiet, "no progress on stderr"),
	OPT_END()
};

static const char bv_head[] =
	"Usage: bench vm [OPTIONS] [NAME=]KERNEL... -- COMMAND [ARGS] [-- COMMAND ...]\n"
	"Boot each KERNEL (a bzImage, or a configured build tree: its bzImage and\n"
	"the module built against it) under qemu with --possible-cpus, run each bench\n"
	"COMMAND (kernel or run, with its options) inside every boot, and write\n"
	"DIR/NAME.csv (DIR/NAME-COMMAND.csv for several commands), whose runs are\n"
	"the boots: bench compare A.csv -- B.csv is the gate between two kernels.\n"
	"Boots interleave: A1 B1 A2 B2 ... NAME defaults to the file's directory\n"
	"(stock/bzImage: stock) or the tree's name.\n";

static const char bv_tail[] =
	"Above 255 possible CPUs the firmware declares 255 and the kernel adds the\n"
	"rest from possible_cpus=: 6.1 does, 6.9 and later only with\n"
	"tests/kernel/patches/test-only-possible-cpus.patch. Each boot's guest count\n"
	"is checked. qemu TCG models no caches: its figures are instruction-bound\n"
	"(see README, \"Gating a kernel in CI\").\n"
	"Exit: 0 done, 2 bad usage or files, 3 qemu, a boot or the guest refused\n"
	"(named), 130/143 interrupted (finished boots kept, partial: yes).\n";

static void bv_defaults(void)
{
	memset(&v, 0, sizeof(v));
	v.boots = 6;
	v.cpus = 2;
	v.nodes = 1;
	v.memory = 1024;
	v.timeout = 300;
	v.retries = 1;
	v.outdir = ".";
	v.format = FORMAT_TABLE;
	v.qemu = "qemu-system-x86_64";
	v.busybox = "/bin/busybox";
}

/* a name for file names: [A-Za-z0-9._-], not starting with '.' */
static bool bv_name_ok(const char *s)
{
	return *s && *s != '.' && strlen(s) < sizeof(v.k[0].name) &&
	       strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") ==
	       strlen(s);
}

/* NAME=PATH, or PATH named after its directory (or itself, a tree) */
static int bv_add_kernel(char *arg)
{
	struct bv_kernel *k = &v.k[v.nr_k];
	char *eq = strchr(arg, '='), dir[PATH_MAX], *base;
	const char *path = eq ? eq + 1 : arg;
	struct stat st;

	if (v.nr_k == BV_MAX_KERNELS) {
		bench_err("at most %d kernels", BV_MAX_KERNELS);
		return -1;
	}
	if (stat(path, &st)) {
		bench_err("%s: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		k->tree = path;
		snprintf(k->image_buf, sizeof(k->image_buf), "%s/arch/x86/boot/bzImage", path);
		k->image = k->image_buf;
	} else {
		k->image = path;
	}
	snprintf(dir, sizeof(dir), "%s", k->tree ? k->tree : path);
	if (!k->tree && (base = strrchr(dir, '/')))
		*base = 0;
	else if (!k->tree)
		snprintf(dir, sizeof(dir), "%s", path);
	base = strrchr(dir, '/');
	base = base && base[1] ? base + 1 : dir;
	if (eq)
		*eq = 0;
	snprintf(k->name, sizeof(k->name), "%.63s", eq ? arg : base);
	if (!bv_name_ok(eq ? arg : k->name)) {
		bench_err("'%s': a kernel's NAME is [A-Za-z0-9._-], at most 63 (NAME=%s)",
			  eq ? arg : k->name, path);
		return -1;
	}
	for (unsigned int i = 0; i < v.nr_k; i++)
		if (!strcmp(v.k[i].name, k->name)) {
			bench_err("two kernels named '%s': name them, NAME=%s", k->name, path);
			return -1;
		}
	v.nr_k++;
	return 0;
}

/* the words from @argv[@i] up to the next "--" or the end: one command */
static int bv_add_cmd(int argc, char **argv, int i)
{
	struct bv_cmd *c = &v.c[v.nr_c];
	unsigned int j;
	size_t used = 0;

	if (v.nr_c == VM_MAX_CMDS) {
		bench_err("at most %d commands", VM_MAX_CMDS);
		return -1;
	}
	for (; i < argc && strcmp(argv[i], "--"); i++) {
		if (c->argc == BV_MAX_ARGS) {
			bench_err("a command of more than %d words", BV_MAX_ARGS);
			return -1;
		}
		c->argv[c->argc++] = argv[i];
	}
	if (!c->argc) {
		bench_err("an empty command after '--' (e.g. -- kernel -w kernel-irq-alloc)");
		return -1;
	}
	for (j = 0; bv_guest_cmds[j] && strcmp(bv_guest_cmds[j], c->argv[0]); j++)
		;
	if (!bv_guest_cmds[j]) {
		bench_err("'%s': the guests run bench kernel or bench run", c->argv[0]);
		return -1;
	}
	for (j = 0; j < v.nr_c; j++)
		if (!strcmp(v.c[j].argv[0], c->argv[0])) {
			bench_err("two '%s' commands: their files would have one name", c->argv[0]);
			return -1;
		}
	for (j = 0; j < c->argc; j++) {
		if (!strcmp(c->argv[j], "-o") || !strncmp(c->argv[j], "--output", 8) ||
		    !strncmp(c->argv[j], "-o", 2)) {
			bench_err("'%s %s': bench vm writes the command's CSV itself (-o DIR)",
				  c->argv[0], c->argv[j]);
			return -1;
		}
		used += (size_t)snprintf(c->what + used, used < sizeof(c->what) ?
					 sizeof(c->what) - used : 0, "%s%s", j ? " " : "",
					 c->argv[j]);
	}
	v.nr_c++;
	return i;
}

/* Returns 0 to run, 1 after --help, -1 after a usage error. */
static int bv_parse(int argc, char **argv)
{
	const struct opt *tab[] = { bv_opts, NULL };
	struct opt_parser p = { .tab = tab };
	int i, dash, ret;

	bv_defaults();
	bench_cmdline(v.cmdline, sizeof(v.cmdline), argc, argv);
	/* the first "--" ends bench vm's words; getopt would move it */
	for (dash = 1; dash < argc && strcmp(argv[dash], "--"); dash++)
		;
	ret = bench_options(&p, bv_head, bv_tail, dash, argv);
	if (ret)
		return ret;
	for (i = optind; i < dash; i++)
		if (bv_add_kernel(argv[i]))
			return -1;
	if (!v.nr_k || dash == argc) {
		bench_err("%s", v.nr_k ? "no command: -- kernel ... or -- run ..." :
			  "no kernel: give a bzImage or a build tree");
		return -1;
	}
	for (i = dash + 1; i <= argc; i++) {
		i = bv_add_cmd(argc, argv, i);
		if (i < 0)
			return -1;
	}
	if ((v.format == FORMAT_CSV || !strcmp(formats[v.format].name, "json")) &&
	    v.nr_k * v.nr_c > 1) {
		bench_err("-f %s: one document for %u kernels x %u commands; the files are %s/NAME*.csv (bench show -f %s FILE)",
			  formats[v.format].name, v.nr_k, v.nr_c, v.outdir, formats[v.format].name);
		return -1;
	}
	v.vm = (struct vm_config) {
		.qemu = v.qemu, .accel = v.accel, .cpus = (unsigned int)v.cpus,
		.possible = (unsigned int)(v.possible ? v.possible : v.cpus),
		.nodes = (unsigned int)v.nodes, .memory = (unsigned long)v.memory,
		.append = v.append,
	};
	return 0;
}

/* ---- checks, before anything boots ---- */

/* one line naming the cause, exit 3 */
static int bv_refused(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int bv_refused(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", bench_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_ENV;
}

/* @prog on $PATH (or a path) into @buf: 0, or -ENOENT */
static int bv_which(const char *prog, char *buf, size_t len)
{
	const char *path = getenv("PATH"), *p, *e;

	if (strchr(prog, '/')) {
		snprintf(buf, len, "%s", prog);
		return access(buf, X_OK) ? -ENOENT : 0;
	}
	for (p = path ? path : "/usr/bin:/bin"; *p; p = *e ? e + 1 : e) {
		e = strchrnul(p, ':');
		snprintf(buf, len, "%.*s/%s", (int)(e - p), p, prog);
		if (!access(buf, X_OK))
			return 0;
	}
	return -ENOENT;
}

/* the directory this bench runs from, into @dir */
static int bv_exe_dir(char *dir, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", dir, len - 1);
	char *slash;

	if (n <= 0)
		return -errno;
	dir[n] = 0;
	slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	return 0;
}

/* --bench, else bench-static (or kstats-bench-static) beside us, else us if static */
static int bv_find_bench(void)
{
	static const char *const names[] = { "bench-static", "kstats-bench-static", NULL };
	char dir[PATH_MAX];
	unsigned int i;
	int ret;

	if (v.bench) {
		snprintf(v.bench_path, sizeof(v.bench_path), "%s", v.bench);
	} else if (!bv_exe_dir(dir, sizeof(dir))) {
		for (i = 0; names[i]; i++) {
			snprintf(v.bench_path, sizeof(v.bench_path), "%.4000s/%s", dir, names[i]);
			if (!access(v.bench_path, X_OK))
				break;
		}
		if (!names[i])
			snprintf(v.bench_path, sizeof(v.bench_path), "/proc/self/exe");
	}
	ret = kimage_elf_static(v.bench_path);
	if (ret == 1)
		return 0;
	if (v.bench) {
		bench_err("--bench %s: %s", v.bench, ret < 0 ? strerror(-ret) :
			  "dynamically linked; the guests have no shared libraries (make static)");
		return EXIT_USAGE;
	}
	return bv_refused("no static bench for the guests: make static builds bench-static beside bench (or --bench FILE)");
}

static int bv_check_busybox(void)
{
	int ret = kimage_elf_static(v.busybox);

	if (ret == 1)
		return 0;
	if (ret == 0)
		return bv_refused("%s is dynamically linked: the guests need a static one (apt-get install busybox-static, or --busybox FILE)",
				  v.busybox);
	return bv_refused("%s: %s (apt-get install busybox-static, or --busybox FILE)",
			  v.busybox, strerror(-ret));
}

/* does any command need the module? */
static bool bv_needs_module(void)
{
	unsigned int i;

	for (i = 0; i < v.nr_c; i++)
		if (!strcmp(v.c[i].argv[0], "kernel"))
			return true;
	return false;
}

/* the tree's release, and the image's: what was built is what boots */
static int bv_check_image(struct bv_kernel *k)
{
	char rel[KIMAGE_RELEASE_MAX];
	int ret;

	if (k->tree && kimage_tree_release(k->tree, rel, sizeof(rel))) {
		bench_err("%s: %s is not a configured kernel tree (no include/config/kernel.release: make olddefconfig prepare)",
			  k->name, k->tree);
		return EXIT_USAGE;
	}
	ret = kimage_bzimage_release(k->image, k->release, sizeof(k->release));
	if (ret == -EINVAL) {
		bench_err("%s: %s is not a bzImage (no \"HdrS\" boot header)", k->name, k->image);
		return EXIT_USAGE;
	}
	if (ret) {
		bench_err("%s: %s: %s%s", k->name, k->image, strerror(-ret),
			  k->tree ? " (is the tree built? make bzImage)" : "");
		return EXIT_USAGE;
	}
	if (k->tree && strcmp(rel, k->release)) {
		bench_err("%s: %s is %s, its bzImage %s: rebuild it (make bzImage)",
			  k->name, k->tree, rel, k->release);
		return EXIT_USAGE;
	}
	return 0;
}

/* a module file built for @k's release */
static int bv_check_ko(struct bv_kernel *k, const char *ko, const char *opt)
{
	char rel[KIMAGE_RELEASE_MAX];
	int ret = kimage_ko_release(ko, rel, sizeof(rel));

	if (ret) {
		bench_err("%s%s: %s", opt, ko, ret == -EINVAL ? "not a kernel module (no vermagic)" :
			  strerror(-ret));
		return EXIT_USAGE;
	}
	if (strcmp(rel, k->release)) {
		bench_err("%s%s is built for %s, kernel %s is %s", opt, ko, rel, k->name, k->release);
		return EXIT_USAGE;
	}
	snprintf(k->ko, sizeof(k->ko), "%s", ko);
	return 0;
}

/*
 * fork and exec @argv with stdin from /dev/null and stdout to @out_fd
 * (stderr stays, or goes there too with @both); signals unblocked in the
 * child, in a process group of its own when @group. Returns the pid or -1.
 */
static pid_t bv_spawn(char *const *argv, int out_fd, bool both, bool group)
{
	sigset_t none;
	pid_t pid;
	int fd;

	fflush(NULL);
	pid = fork();
	if (pid)
		return pid;
	if (group)
		setpgid(0, 0);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0)
		dup2(fd, STDIN_FILENO);
	dup2(out_fd, STDOUT_FILENO);
	if (both)
		dup2(out_fd, STDERR_FILENO);
	execvp(argv[0], argv);
	fprintf(stderr, "%s: %s: %s\n", bench_prog, argv[0], strerror(errno));
	_exit(127);
}

/* the module's sources: kmod/ beside bench, or where make install put them */
static int bv_kmod_dir(char *dir, size_t len)
{
	char exe[PATH_MAX];

	if (bv_exe_dir(exe, sizeof(exe)))
		return -ENOENT;
	snprintf(dir, len, "%.*s/kmod", (int)(len - 8), exe);
	if (!access(dir, R_OK))
		return 0;
	snprintf(dir, len, "%.*s/../share/kstats-bench/kmod", (int)(len - 32), exe);
	return access(dir, R_OK) ? -ENOENT : 0;
}

/* copy the module's sources into @dst, where make builds it */
static int bv_copy_kmod(const char *src, const char *dst)
{
	static const char *const files[] = { "Kbuild", "Makefile", "kstats_bench.c",
					     "ksb_hist.h", NULL };
	char from[PATH_MAX + 32], to[PATH_MAX + 32], buf[1 << 16];
	unsigned int i;
	ssize_t n = 0;
	int in, out, ret = 0;

	if (mkdir(dst, 0755))
		return -errno;
	for (i = 0; !ret && files[i]; i++) {
		snprintf(from, sizeof(from), "%s/%s", src, files[i]);
		snprintf(to, sizeof(to), "%s/%s", dst, files[i]);
		in = open(from, O_RDONLY | O_CLOEXEC);
		out = in < 0 ? -1 : open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		while (out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
			if (write(out, buf, (size_t)n) != n)
				break;
		ret = in < 0 || out < 0 || n ? -errno : 0;
		if (in >= 0)
			close(in);
		if (out >= 0)
			close(out);
	}
	return ret;
}

/* the module built against @tree in the work directory, for @k */
static int bv_build_kmod(struct bv_kernel *k, const char *tree, const char *opt)
{
	char src[PATH_MAX], dir[PATH_MAX], mflag[PATH_MAX + 4], ko[PATH_MAX + 32];
	char *argv[] = { "make", "-s", "-C", (char *)tree, mflag, "modules", NULL };
	int status;
	pid_t pid;

	if (kimage_tree_release(tree, src, sizeof(src))) {
		bench_err("%s%s is not a configured kernel tree (no include/config/kernel.release: make olddefconfig prepare)",
			  opt, tree);
		return EXIT_USAGE;
	}
	if (bv_kmod_dir(src, sizeof(src)))
		return bv_refused("no module sources (kmod/) beside bench or in share/kstats-bench");
	snprintf(dir, sizeof(dir), "%.3000s/kmod-%.63s", v.work, k->name);
	if (bv_copy_kmod(src, dir))
		return bv_refused("copying the module's sources to %s: %s", dir, strerror(errno));
	snprintf(mflag, sizeof(mflag), "M=%s", dir);
	if (!v.quiet)
		fprintf(stderr, "%s: %s: building kstats_bench.ko against %s\n", bench_prog,
			k->name, tree);
	pid = bv_spawn(argv, STDERR_FILENO, false, false);
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return bv_refused("%s: building the module against %s failed (make -C %s M=%s modules)",
				  k->name, tree, tree, dir);
	snprintf(ko, sizeof(ko), "%s/kstats_bench.ko", dir);
	return bv_check_ko(k, ko, opt);
}

/* every kernel: its image, its module when a command needs one */
static int bv_check_kernels(void)
{
	struct bv_kernel *k;
	int ret = 0;

	for (k = v.k; !ret && k < v.k + v.nr_k; k++) {
		ret = bv_check_image(k);
		if (ret || !bv_needs_module())
			continue;
		if (k->tree)
			ret = bv_build_kmod(k, k->tree, "");
		else if (v.module)
			ret = bv_check_ko(k, v.module, "--module ");
		else if (v.kbuild && k > v.k && v.k[0].ko[0] && !v.k[0].tree)
			ret = bv_check_ko(k, v.k[0].ko, "--kbuild ");	/* built once */
		else if (v.kbuild)
			ret = bv_build_kmod(k, v.kbuild, "--kbuild ");
		else {
			bench_err("%s: bench kernel needs the module: give the kernel's build tree, --kbuild DIR or --module KO",
				  k->name);
			ret = EXIT_USAGE;
		}
	}
	return ret;
}

/* ---- the guest ---- */

static int bv_check_config(void)
{
	char why[256];

	if (vm_check_config(&v.vm, why, sizeof(why))) {
		bench_err("%s", why);
		return EXIT_USAGE;
	}
	if (v.vm.accel == VM_KVM && access("/dev/kvm", R_OK | W_OK))
		return bv_refused("--accel kvm: /dev/kvm: %s", strerror(errno));
	return 0;
}

/* @k's initramfs: busybox, bench, the module, /init for the commands */
static int bv_initramfs(struct bv_kernel *k)
{
	char *const *cmds[VM_MAX_CMDS];
	unsigned int i;
	int ret;

	for (i = 0; i < v.nr_c; i++)
		cmds[i] = v.c[i].argv;
	snprintf(k->initrd, sizeof(k->initrd), "%.3000s/%.63s.cpio", v.work, k->name);
	ret = vm_initramfs(k->initrd, cmds, v.nr_c, v.busybox, v.bench_path,
			   k->ko[0] ? k->ko : NULL);
	if (ret)
		return bv_refused("%s: writing its initramfs %s: %s", k->name, k->initrd,
				  strerror(-ret));
	return 0;
}

/* ---- booting ---- */

/* how a boot ended */
enum bv_end {
	BV_EXITED,			/* qemu exited by itself */
	BV_HUNG,			/* killed at --timeout */
	BV_STOPPED,			/* killed for SIGINT/SIGTERM */
};

static double bv_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* one qemu being waited for, for bench_wait() */
struct bv_qemu {
	pid_t pid;			/* qemu */
	const struct bv_kernel *k;	/* what it boots */
	unsigned int b;			/* which boot */
	double t0;			/* when it started, bv_now() */
	int status;			/* its wait status, once reaped */
	enum bv_end end;		/* how it ended */
};

static int bv_qemu_poll(void *priv)
{
	struct bv_qemu *q = priv;
	pid_t w = waitpid(q->pid, &q->status, WNOHANG);

	if (w == q->pid)
		return 1;
	if (w < 0)
		return -errno;
	if (bv_now() - q->t0 <= (double)v.timeout)
		return 0;
	q->end = BV_HUNG;
	kill(q->pid, SIGKILL);
	return 0;	/* reaped at the next tick */
}

/* the first SIGINT/SIGTERM: the boot is not kept, so qemu goes at once */
static void bv_qemu_stop(void *priv, int sig)
{
	struct bv_qemu *q = priv;

	(void)sig;
	q->end = BV_STOPPED;
	kill(q->pid, SIGKILL);
}

static void bv_free(void);
static void bv_cleanup(void);

/* the second: no temp file beside an output, no work directory left */
static void bv_qemu_leave(void *priv)
{
	kill(((struct bv_qemu *)priv)->pid, SIGKILL);
	bv_free();
	bv_cleanup();
}

static void bv_qemu_progress(void *priv)
{
	const struct bv_qemu *q = priv;

	fprintf(stderr, "%s: %s boot %u/%lu: %.0f s ", bench_prog, q->k->name, q->b + 1,
		(unsigned long)v.boots, bv_now() - q->t0);
}

/*
 * Wait for qemu @pid, at most --timeout seconds; the first SIGINT or
 * SIGTERM kills it and is kept in v.signo. *@secs: how long it ran.
 */
static enum bv_end bv_wait(pid_t pid, const struct bv_kernel *k, unsigned int b,
			   double *secs, int *status)
{
	struct bv_qemu q = { .pid = pid, .k = k, .b = b, .t0 = bv_now(), .end = BV_EXITED };
	struct bench_wait w = {
		.poll = bv_qemu_poll, .stop = bv_qemu_stop, .leave = bv_qemu_leave,
		.progress = bv_qemu_progress, .priv = &q, .tick_ms = 200, .wake = SIGCHLD,
		.quiet = v.quiet, .signo = &v.signo,
	};

	if (bench_wait(&w)) {
		kill(pid, SIGKILL);
		waitpid(pid, &q.status, 0);
	}
	*secs = bv_now() - q.t0;
	*status = q.status;
	return q.end;
}

/* what the guest sent on ttyS1, in the file @path */
static int bv_guest_read(struct vm_guest *g, const char *path)
{
	FILE *f = fopen(path, "re");
	int ret;

	if (!f) {
		ret = -errno;
		memset(g, 0, sizeof(*g));
		return ret == -ENOENT ? 0 : ret;
	}
	ret = vm_guest_read(g, f, v.nr_c);
	fclose(f);
	return ret;
}

/* the last @n lines of @path, joined by " | ", CRs dropped, into @buf */
static void bv_tail_of(const char *path, unsigned int n, char *buf, size_t len)
{
	char *line = NULL, *ring[BV_TAIL] = { NULL };
	unsigned int i, seen = 0;
	size_t cap = 0, used = 0;
	FILE *f = fopen(path, "re");
	ssize_t r;

	buf[0] = 0;
	if (!f)
		return;
	while ((r = getline(&line, &cap, f)) > 0) {
		line[strcspn(line, "\r\n")] = 0;
		if (!line[0])
			continue;
		free(ring[seen % n]);
		ring[seen++ % n] = strdup(line);
	}
	for (i = seen > n ? seen - n : 0; i < seen; i++)
		if (ring[i % n] && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? " | " : "",
						 ring[i % n]);
	for (i = 0; i < n; i++)
		free(ring[i]);
	free(line);
	fclose(f);
	if (!buf[0])
		snprintf(buf, len, "(nothing on the console)");
}

/* @path's bytes, CRs dropped, onto @k's console file */
static void bv_keep_console(struct bv_kernel *k, unsigned int b, unsigned int try,
			    const char *path)
{
	FILE *f = fopen(path, "re");
	int c;

	fprintf(k->console.f, "=== %s boot %u, try %u\n", k->name, b + 1, try);
	while (f && (c = getc(f)) != EOF)
		if (c != '\r')
			putc(c, k->console.f);
	if (f)
		fclose(f);
}

/* why the guest did not count --possible-cpus: the limit it met */
static int bv_possible_refused(const struct bv_kernel *k, unsigned int b,
			       const struct vm_guest *g)
{
	unsigned int fw = vm_fw_cpus(&v.vm);

	if (v.vm.possible > g->kernel_max + 1)
		return bv_refused("%s boot %u: %u possible CPUs, not %u: %s is built with NR_CPUS=%u",
				  k->name, b + 1, g->possible, v.vm.possible,
				  g->release, g->kernel_max + 1);
	if (v.vm.possible > fw && g->possible <= fw)
		return bv_refused("%s boot %u: %u possible CPUs, not %u: qemu's firmware declares at most %u, and %s added none from possible_cpus= (kernels since 6.9 do not: apply tests/kernel/patches/test-only-possible-cpus.patch to every kernel compared, boot one before 6.9, or ask -p %u)",
				  k->name, b + 1, g->possible, v.vm.possible, fw,
				  g->release, fw);
	return bv_refused("%s boot %u: the guest counted %u possible CPUs and %u online, not %u and %u",
			  k->name, b + 1, g->possible, g->online, v.vm.possible,
			  v.vm.cpus);
}

/* a command's exit code in the guest, as ours: 2 for its usage errors */
static int bv_cmd_failed(const struct bv_kernel *k, unsigned int b, unsigned int i,
			 const struct vm_guest *g)
{
	int rc = g->rc[i];

	fprintf(stderr, "%s: %s boot %u: bench %s exited %d in the guest: %s\n", bench_prog,
		k->name, b + 1, v.c[i].argv[0], rc, g->err[i][0] ? g->err[i] : "(no message)");
	return rc == EXIT_USAGE ? EXIT_USAGE : EXIT_ENV;
}

/*
 * the CSV command @i wrote in boot @b, read back as run b + 1; per-CPU
 * series of each boot kept while they stay few (lib/measure/runs.h, as bench
 * run --runs)
 */
static int bv_absorb(struct bv_kernel *k, unsigned int b, unsigned int i, struct vm_guest *g)
{
	struct csv_error err = { 0, "no CSV" };
	int ret = -EINVAL;

	if (g->csv[i])
		ret = runs_absorb(&k->runs[i].set, g->csv[i], b + 1, &err);
	if (!ret)
		return 0;
	return bv_refused("%s boot %u: bench %s's CSV from the guest: line %lu: %s", k->name,
			  b + 1, v.c[i].argv[0], err.line,
			  ret == -EINVAL ? err.why : strerror(-ret));
}

/* what a finished boot brought: the CPUs it counted, every command's CSV */
static int bv_boot_results(struct bv_kernel *k, unsigned int b, struct vm_guest *g)
{
	unsigned int i;
	int ret = 0;

	if (g->possible != v.vm.possible || g->online != v.vm.cpus)
		return bv_possible_refused(k, b, g);
	for (i = 0; i < v.nr_c && !ret; i++)
		ret = g->rc[i] ? bv_cmd_failed(k, b, i, g) : 0;
	for (i = 0; i < v.nr_c && !ret; i++)
		ret = bv_absorb(k, b, i, g);
	return ret;
}

/* the files of one boot, in the work directory */
struct bv_files {
	char console[PATH_MAX + 32];	/* ttyS0: the kernel's console */
	char data[PATH_MAX + 32];	/* ttyS1: what the guest sends */
	char qerr[PATH_MAX + 32];	/* qemu's own stderr */
};

/*
 * One try of boot @b of @k: qemu started and waited for, its console kept,
 * what the guest sent read into @g. Returns 0 when every command ran; 1
 * when it hung or crashed (said so; worth booting again); 128 + signal
 * when stopped; or an exit code after a message.
 */
static int bv_boot_try(struct bv_kernel *k, unsigned int b, const struct vm_argv *a,
		       const struct bv_files *f, struct vm_guest *g)
{
	struct bv_boot *bt = &k->boot[b];
	char tail[512];
	enum bv_end end;
	int status = 0, ret, fd;
	pid_t pid;

	unlink(f->console);
	unlink(f->data);
	fd = open(f->qerr, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	pid = fd < 0 ? -1 : bv_spawn(a->argv, fd, true, true);
	if (fd >= 0)
		close(fd);
	if (pid < 0)
		return bv_refused("%s: starting %s: %s", k->name, v.qemu, strerror(errno));
	end = bv_wait(pid, k, b, &bt->seconds, &status);
	bv_keep_console(k, b, bt->tries, f->console);
	if (end == BV_STOPPED)
		return 128 + v.signo;
	if (end == BV_EXITED && WIFEXITED(status) && WEXITSTATUS(status)) {
		bv_tail_of(f->qerr, BV_TAIL, tail, sizeof(tail));
		return bv_refused("%s boot %u: qemu exited %d: %s", k->name, b + 1,
				  WEXITSTATUS(status), tail);
	}
	ret = bv_guest_read(g, f->data);
	if (ret)
		return bv_refused("%s boot %u: reading what the guest sent: %s", k->name, b + 1,
				  strerror(-ret));
	if (end == BV_EXITED && g->done)
		return 0;
	vm_guest_free(g);
	bv_tail_of(f->console, BV_TAIL, tail, sizeof(tail));
	fprintf(stderr, "%s: %s boot %u %s (console: %s)%s\n", bench_prog, k->name, b + 1,
		end == BV_HUNG ? "hung: killed at --timeout" :
		g->started ? "stopped before its commands finished" : "never ran /init",
		tail, bt->tries <= v.retries ? "; booting it again" : "");
	return 1;
}

/*
 * Boot @k once (and again after a hang or a crash, --retries times),
 * keep its console and read its results back as run @b + 1. Returns 0,
 * 128 + signal when stopped, or an exit code after a message.
 */
static int bv_boot(struct bv_kernel *k, unsigned int b)
{
	struct bv_boot *bt = &k->boot[b];
	struct bv_files f;
	struct vm_guest g;
	struct vm_argv a;
	int ret = 1;

	snprintf(f.console, sizeof(f.console), "%s/console", v.work);
	snprintf(f.data, sizeof(f.data), "%s/data", v.work);
	snprintf(f.qerr, sizeof(f.qerr), "%s/qemu.err", v.work);
	vm_qemu_argv(&a, &v.vm, k->image, k->initrd, f.console, f.data);
	if (!k->qemu_line[0])
		vm_qemu_line(&a, k->qemu_line, sizeof(k->qemu_line));
	for (bt->tries = 1; ret == 1 && bt->tries <= v.retries + 1; bt->tries++)
		ret = bv_boot_try(k, b, &a, &f, &g);
	bt->tries--;
	if (ret == 1)
		return bv_refused("%s boot %u failed %u times (see %s)", k->name, b + 1,
				  bt->tries, k->console_path);
	if (ret)
		return ret;
	bt->possible = g.possible;
	bt->online = g.online;
	ret = bv_boot_results(k, b, &g);
	vm_guest_free(&g);
	if (!ret)
		k->nr_boots++;
	return ret;
}

/* ---- results: one CSV per kernel and command, the boots its runs ---- */

/* "1:480/2 2:480/2": per boot, "run:value" for @key */
static void bv_meta_boots(struct meta *m, const struct bv_kernel *k, const char *key)
{
	char buf[1024];
	size_t used = 0;
	unsigned int b;

	buf[0] = 0;
	for (b = 0; b < k->nr_boots && used < sizeof(buf); b++) {
		const struct bv_boot *bt = &k->boot[b];
		size_t room = sizeof(buf) - used;
		const char *sp = b ? " " : "";

		if (!strcmp(key, "vm_boots"))
			used += (size_t)snprintf(buf + used, room, "%s%u:%u/%u", sp, b + 1,
						 bt->possible, bt->online);
		else if (!strcmp(key, "vm_boot_seconds"))
			used += (size_t)snprintf(buf + used, room, "%s%u:%.1f", sp, b + 1,
						 bt->seconds);
		else
			used += (size_t)snprintf(buf + used, room, "%s%u:%u", sp, b + 1, bt->tries);
	}
	meta_put(m, key, "%s", buf);
}

/* the first boot's metadata, with the VM's and every boot's */
static void bv_meta(struct bv_kernel *k, unsigned int i)
{
	struct meta *m = &k->runs[i].set.all->meta;

	runs_meta(&k->runs[i].set, v.cmdline, v.signo);
	meta_put(m, "vm_name", "%s", k->name);
	meta_put(m, "vm_image", "%s", k->image);
	meta_put(m, "vm_release", "%s", k->release);
	meta_put(m, "vm_module", "%s", k->ko[0] ? k->ko : "none");
	meta_put(m, "vm_guest_command", "bench %s", v.c[i].what);
	meta_put(m, "vm_qemu", "%s", k->qemu_line);
	bv_meta_boots(m, k, "vm_boots");
	bv_meta_boots(m, k, "vm_boot_seconds");
	bv_meta_boots(m, k, "vm_boot_tries");
	/*
	 * The guests' testbed keys say what they ran in; this host's
	 * settings move a TCG guest's timings as much. The guests' build
	 * stays: it measured; the start and the labels are this command's.
	 */
	testbed_meta(&v.tb, m, TB_VM_HOST);
	meta_timestamp(m, v.started);
	bench_meta_origin(m);
}

/* command @i on @k, merged over its boots, in -f's format, under a title */
static int bv_print(FILE *f, const struct bv_kernel *k, unsigned int i)
{
	const struct bv_runs *r = &k->runs[i];

	if (v.format != FORMAT_CSV && strcmp(formats[v.format].name, "json"))
		fprintf(f, "# %s: bench %s, %u boots of %s, %u possible CPUs, %u online, qemu %s\n",
			k->name, v.c[i].what, r->set.n, k->release, v.vm.possible, v.vm.cpus,
			vm_accels[v.accel]);
	return format_write(f, (unsigned int)v.format, r->set.all);
}

/* ---- bench vm ---- */

/* every output file, opened before anything boots: bad paths fail first */
static int bv_open_outputs(void)
{
	char base[3100];
	struct bv_kernel *k;
	unsigned int i;
	int ret;

	if (mkdir(v.outdir, 0755) && errno != EEXIST) {
		bench_err("-o %s: %s", v.outdir, strerror(errno));
		return EXIT_USAGE;
	}
	for (k = v.k; k < v.k + v.nr_k; k++) {
		/* a copy: GCC's -Wrestrict sees k->name inside *k */
		snprintf(base, sizeof(base), "%.3000s/%.63s", v.outdir, k->name);
		for (i = 0; i < v.nr_c; i++) {
			struct bv_runs *r = &k->runs[i];

			if (v.nr_c == 1)
				snprintf(r->path, sizeof(r->path), "%s.csv", base);
			else
				snprintf(r->path, sizeof(r->path), "%s-%.16s.csv", base, v.c[i].argv[0]);
			ret = outfile_open(&r->out, r->path);
			if (ret) {
				bench_err("-o %s: %s: %s", v.outdir, r->path, strerror(-ret));
				return EXIT_USAGE;
			}
			r->set.asked = (unsigned int)v.boots;
		}
		snprintf(k->console_path, sizeof(k->console_path), "%s.console", base);
		ret = outfile_open(&k->console, k->console_path);
		if (ret) {
			bench_err("-o %s: %s: %s", v.outdir, k->console_path, strerror(-ret));
			return EXIT_USAGE;
		}
		k->boot = calloc(v.boots, sizeof(*k->boot));
		if (!k->boot)
			return bv_refused("%s", strerror(ENOMEM));
	}
	return 0;
}

/* a SIGINT/SIGTERM that came between two boots: start no other */
static bool bv_stopped(void)
{
	if (!v.signo)
		v.signo = runs_stop_pending();
	return v.signo;
}

/* boot every kernel --boots times, interleaved: A1 B1 A2 B2 ... */
static int bv_measure(void)
{
	struct bv_kernel *k;
	unsigned int b;
	int ret = 0;

	for (b = 0; b < v.boots && !ret; b++)
		for (k = v.k; k < v.k + v.nr_k && !ret; k++) {
			ret = bv_stopped() ? 128 + v.signo : bv_boot(k, b);
			if (!ret && !v.quiet)
				fprintf(stderr, "%s: %s boot %u/%lu: %.1f s, %u possible CPUs, %u online%s\n",
					bench_prog, k->name, b + 1, (unsigned long)v.boots,
					k->boot[b].seconds, k->boot[b].possible, k->boot[b].online,
					k->boot[b].tries > 1 ? " (booted again)" : "");
		}
	return ret;
}

/* every CSV with the boots that finished; the tables on stdout */
static int bv_report(void)
{
	struct bv_kernel *k;
	unsigned int i;
	int ret = 0, err;

	for (k = v.k; k < v.k + v.nr_k; k++)
		for (i = 0; i < v.nr_c; i++) {
			struct bv_runs *r = &k->runs[i];

			if (!r->set.n)
				continue;
			bv_meta(k, i);
			err = csv_write(r->out.f, r->set.all) ?: outfile_commit(&r->out);
			if (err)
				ret = bv_refused("writing %s: %s", r->path, strerror(-err));
			else if (bv_print(stdout, k, i))
				ret = bench_finish_stdout() ?: EXIT_ENV;
		}
	return ret;
}

/* every kernel's consoles, whatever happened: what a failed boot said */
static int bv_keep_consoles(void)
{
	struct bv_kernel *k;
	int ret = 0, err;

	for (k = v.k; k < v.k + v.nr_k; k++) {
		if (!k->console.f)
			continue;
		err = outfile_commit(&k->console);
		if (err)
			ret = bv_refused("writing %s: %s", k->console_path, strerror(-err));
	}
	return ret;
}

/* remove the work directory and what it holds (flat, but kmod-NAME/) */
static void bv_cleanup(void)
{
	char *argv[] = { "rm", "-rf", v.work, NULL };
	pid_t pid;

	if (!v.work[0])
		return;
	pid = bv_spawn(argv, STDERR_FILENO, false, false);
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

static void bv_free(void)
{
	struct bv_kernel *k;
	unsigned int i;

	for (k = v.k; k < v.k + v.nr_k; k++) {
		for (i = 0; i < v.nr_c; i++) {
			runs_fini(&k->runs[i].set);
			outfile_abort(&k->runs[i].out);
		}
		outfile_abort(&k->console);
		free(k->boot);
	}
}

/* the host, checks, the work directory, the initramfs of every kernel */
static int bv_setup(void)
{
	const char *tmp = getenv("TMPDIR");
	char qemu[PATH_MAX];
	struct bv_kernel *k;
	int ret;

	/* this host once, before the first boot: the files' vm_host_ keys */
	v.started = time(NULL);
	ret = bench_testbed(&v.tb);
	if (ret)
		return ret;
	if (bv_which(v.qemu, qemu, sizeof(qemu)))
		return bv_refused("%s: not found (apt-get install qemu-system-x86, or --qemu PROG)",
				  v.qemu);
	ret = bv_check_config() ?: bv_find_bench() ?: bv_check_busybox();
	if (ret)
		return ret;
	snprintf(v.work, sizeof(v.work), "%s/ksb-vm.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(v.work)) {
		ret = bv_refused("a work directory in %s: %s", tmp && *tmp ? tmp : "/tmp",
				 strerror(errno));
		v.work[0] = 0;
		return ret;
	}
	ret = bv_check_kernels() ?: bv_open_outputs();
	for (k = v.k; !ret && k < v.k + v.nr_k; k++)
		ret = bv_initramfs(k);
	return ret;
}

int cmd_vm(int argc, char **argv)
{
	sigset_t stop;
	int ret;

	ret = bv_parse(argc, argv);
	if (ret)
		return ret < 0 ? EXIT_USAGE : bench_finish_stdout();
	/* SIGINT/SIGTERM are taken in bv_wait(), between two boots at the latest */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGCHLD);
	sigprocmask(SIG_BLOCK, &stop, NULL);
	signal(SIGCHLD, SIG_DFL);
	ret = bv_setup();
	if (!ret)
		ret = bv_measure();
	if (ret == 0 || ret == 128 + SIGINT || ret == 128 + SIGTERM) {
		int err = bv_report();

		ret = err ? err : ret ? ret : bench_finish_stdout();
	}
	ret = bv_keep_consoles() ?: ret;
	bv_free();
	bv_cleanup();
	return ret;
}
