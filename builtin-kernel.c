// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-kernel.c - bench kernel: the same measurement inside the
 * running kernel, by the module kmod/kstats_bench.ko. Finds (or builds)
 * the module for this kernel, loads it, starts a run through debugfs,
 * waits, reads the histograms back into kstats_hist and reports them as
 * bench run does (table, kstats, csv, bars; -o CSV), then unloads it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "kstats_hist.h"
#include "lib/csv.h"
#include "lib/outfile.h"
#include "lib/report.h"

#define KK_MODNAME	"kstats_bench"
#define KK_DEBUGFS	"/sys/kernel/debug"
#define KK_DIR		KK_DEBUGFS "/" KK_MODNAME
#define KK_DEBUGFS_MAGIC 0x64626720	/* DEBUGFS_MAGIC */
#define KK_MAX_CPUS	8192		/* per-CPU histograms read back */

static const char *const kk_workloads[] = {
	"kernel-set-defaults", "kernel-irq-alloc", NULL,
};

/* one histogram read back from the module */
struct kk_hist {
	char variant[16];		/* old/new or alloc/free */
	int cpu;			/* CPU, -1 for the merge */
	int node;			/* its node, -1 for the merge */
	struct kstats_hist *h;		/* rebuilt: AVG * count per slot, ns */
};

/* One global, as bench run's: configuration, then run state. */
static struct kk {
	/* configuration */
	int wl;				/* -w, index in kk_workloads */
	uint64_t samples;		/* -n, per variant, all CPUs */
	const char *cpus;		/* -c, a list for the kernel, NULL = online */
	uint64_t frac_bits;		/* -b */
	enum report_format format;	/* -f, json excepted */
	const char *output;		/* -o */
	const char *module;		/* --module, a .ko to load */
	bool quiet;			/* -q */
	char cmdline[1024];		/* for the metadata */

	/* run state */
	struct outfile out;		/* -o, open from the start */
	char release[65];		/* uname -r */
	char ko[PATH_MAX];		/* the module file */
	bool loaded;			/* we loaded it: we unload it */
	int signo;			/* SIGINT/SIGTERM that stopped us, or 0 */
	char *results;			/* the results file, NUL-terminated */
	char *res[32][2];		/* its "key value" header lines */
	unsigned int nr_res;		/* used */
	struct kk_hist hist[2 * (KK_MAX_CPUS + 1)]; /* as they come */
	unsigned int nr_hist;		/* used */
	char *variant[2];		/* the two variant names */
} k;

/* report_formats less json, which bench kernel does not write */
static const char *const kk_formats[] = { "table", "kstats", "csv", "bars", NULL };

/* -c LIST: the module parses it; only its characters are checked here */
static int kk_cpus(const struct opt *o, const char *arg, char *why, size_t len)
{
	*(const char **)o->value = arg;
	if (*arg && strspn(arg, "0123456789,-") == strlen(arg))
		return 0;
	snprintf(why, len, "--%s: '%s' is not a CPU list (e.g. 0-3,8)", o->long_name, arg);
	return -EINVAL;
}

static const struct opt kk_opts[] = {
	OPT_ENUM('w', "workload", &k.wl, kk_workloads, "NAME",
		 "kernel-set-defaults (default): desc_set_defaults() before\n"
		 "(old) and after (new) the patch, interrupts off, ABBA\n"
		 "kernel-irq-alloc: irq_alloc_descs() (alloc) and\n"
		 "irq_free_descs() (free), timed apart, interrupts on"),
	OPT_U64('n', "samples", &k.samples, 1, UINT64_C(1) << 32, "N",
		"samples per variant, all CPUs, 1..2^32 (default 8192)"),
	OPT_CALL('c', "cpus", &k.cpus, kk_cpus, "LIST",
		 "CPUs to run on, the kernel's list syntax (default:\n"
		 "online)"),
	OPT_U64('b', "frac-bits", &k.frac_bits, 0, KSTATS_HIST_FRAC_BITS_MAX, "B",
		"histogram sub-bucket bits, 0..12 (default 2)"),
	OPT_ENUM('f', "format", &k.format, kk_formats, "FMT", "table (default), kstats, csv, bars"),
	OPT_STRING('o', "output", &k.output, "FILE",
		   "also write the CSV (per-CPU and merged) to FILE"),
	OPT_STRING(0, "module", &k.module, "FILE", "the kstats_bench.ko to load"),
	OPT_FLAG('q', "quiet", &k.quiet, "no progress on stderr"),
	OPT_END()
};

/* Returns 0 to run, 1 after --help, -1 after a usage error. */
static int kk_parse(int argc, char **argv)
{
	const struct opt *tab[] = { kk_opts, NULL };
	struct opt_parser p = { .tab = tab };
	int ret = bench_options(&p,
		"Usage: bench kernel [OPTIONS]\n"
		"Time the same code inside the running kernel with the module kstats_bench\n"
		"(kmod/), as the patch's author did with kstats, and print the kstats table.\n"
		"Needs root, debugfs and the module: kmod/kstats_bench.ko beside bench, built\n"
		"for this kernel, or built here from kmod/ with /lib/modules/$(uname -r)/build.\n",
		"Stamps are ktime_get_ns(), as kstats takes them: ns of the clocksource.\n"
		"Exit: 0 done, 2 bad usage, 3 the environment refused (not root, no headers,\n"
		"module loading refused, no debugfs), 130/143 interrupted (partial results).\n",
		argc, argv);

	if (ret)
		return ret;
	if (optind < argc) {
		bench_err("unexpected argument '%s'", argv[optind]);
		return -1;
	}
	return 0;
}

/* ---- the environment: root, debugfs, the module ---- */

/* one line naming the cause, exit 3 */
static int kk_refused(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int kk_refused(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", bench_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_ENV;
}

static int kk_debugfs(void)
{
	struct statfs s;

	if (!statfs(KK_DEBUGFS, &s) && s.f_type == KK_DEBUGFS_MAGIC)
		return 0;
	if (!mount("debugfs", KK_DEBUGFS, "debugfs", 0, NULL))
		return 0;
	return kk_refused("no debugfs: %s is not mounted and mounting it failed: %s",
			  KK_DEBUGFS, strerror(errno));
}

/* the first line of @path into @buf (empty when unreadable) */
static void kk_read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = 0;
	if (f) {
		if (!fgets(buf, (int)len, f))
			buf[0] = 0;
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = 0;
}

/* does @ko carry "vermagic=<this release> "? */
static bool kk_ko_matches(const char *ko)
{
	char want[96], *buf;
	bool ok = false;
	struct stat st;
	FILE *f = fopen(ko, "r");

	if (!f)
		return false;
	snprintf(want, sizeof(want), "vermagic=%s ", k.release);
	if (!fstat(fileno(f), &st) && st.st_size > 0 && st.st_size < (64 << 20) &&
	    (buf = malloc((size_t)st.st_size))) {
		ok = fread(buf, 1, (size_t)st.st_size, f) == (size_t)st.st_size &&
		     memmem(buf, (size_t)st.st_size, want, strlen(want));
		free(buf);
	}
	fclose(f);
	return ok;
}

/* make -C @dir KVER=<release>, its output on stderr; 0 when it built */
static int kk_make(const char *dir)
{
	char kver[96];
	int status;
	pid_t pid;

	snprintf(kver, sizeof(kver), "KVER=%s", k.release);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		dup2(STDERR_FILENO, STDOUT_FILENO);
		execlp("make", "make", "-s", "-C", dir, kver, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	return 0;
}

/*
 * --module, else kmod/kstats_bench.ko beside bench (or in
 * ../share/kstats-bench/kmod), built there when it is not for this kernel
 */
static int kk_find_module(void)
{
	char exe[PATH_MAX], dir[PATH_MAX], build[PATH_MAX + 64];
	ssize_t n;
	char *slash;

	if (k.module) {
		snprintf(k.ko, sizeof(k.ko), "%s", k.module);
		if (access(k.ko, R_OK))
			return kk_refused("--module: %s: %s", k.ko, strerror(errno));
		return 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return kk_refused("finding bench's own directory: %s", strerror(errno));
	exe[n] = 0;
	slash = strrchr(exe, '/');
	*slash = 0;
	/* beside bench in the source tree, else where make install puts it */
	snprintf(dir, sizeof(dir), "%.*s/kmod", (int)(sizeof(dir) - 6), exe);
	if (access(dir, F_OK))
		snprintf(dir, sizeof(dir), "%.*s/../share/kstats-bench/kmod",
			 (int)(sizeof(dir) - 30), exe);
	snprintf(k.ko, sizeof(k.ko), "%.*s/" KK_MODNAME ".ko", (int)(sizeof(k.ko) - 20), dir);
	if (kk_ko_matches(k.ko))
		return 0;
	snprintf(build, sizeof(build), "/lib/modules/%s/build", k.release);
	if (access(build, F_OK))
		return kk_refused("no kernel headers for %s: %s is missing (apt-get install linux-headers-%s)",
				  k.release, build, k.release);
	if (access(dir, W_OK))
		return kk_refused("no %s built for %s, and %s cannot be built in: %s",
				  k.ko, k.release, dir, strerror(errno));
	if (!k.quiet)
		fprintf(stderr, "%s: building %s for %s\n", bench_prog, k.ko, k.release);
	if (kk_make(dir) || !kk_ko_matches(k.ko))
		return kk_refused("building the module in %s for %s failed (see above)", dir,
				  k.release);
	return 0;
}

/* why the kernel said EPERM to finit_module() */
static void kk_why_refused(char *buf, size_t len)
{
	char v[128];

	kk_read_line("/proc/sys/kernel/modules_disabled", v, sizeof(v));
	if (!strcmp(v, "1")) {
		snprintf(buf, len, "kernel.modules_disabled is 1");
		return;
	}
	kk_read_line("/sys/kernel/security/lockdown", v, sizeof(v));
	if (*v && !strstr(v, "[none]")) {
		snprintf(buf, len, "the kernel is locked down (%s; secure boot?)", v);
		return;
	}
	snprintf(buf, len, "%s", strerror(EPERM));
}

static int kk_load(void)
{
	char why[192];
	struct stat st;
	int fd, ret;

	if (!stat("/sys/module/" KK_MODNAME, &st))
		return 0;	/* someone's: used as it is, left loaded */
	ret = kk_find_module();
	if (ret)
		return ret;
	fd = open(k.ko, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return kk_refused("%s: %s", k.ko, strerror(errno));
	ret = (int)syscall(SYS_finit_module, fd, "", 0);
	close(fd);
	if (!ret) {
		k.loaded = true;
		return 0;
	}
	if (errno == EEXIST)
		return 0;
	if (errno == EPERM) {
		kk_why_refused(why, sizeof(why));
		return kk_refused("module loading refused: %s", why);
	}
	if (errno == EKEYREJECTED || errno == ENOKEY)
		return kk_refused("module loading refused: %s is not signed with a key this kernel trusts (module.sig_enforce or secure boot): %s",
				  k.ko, strerror(errno));
	return kk_refused("loading %s: %s", k.ko, strerror(errno));
}

static void kk_unload(void)
{
	if (k.loaded && syscall(SYS_delete_module, KK_MODNAME, O_NONBLOCK))
		fprintf(stderr, "%s: warning: unloading %s: %s\n", bench_prog, KK_MODNAME,
			strerror(errno));
	k.loaded = false;
}

/* ---- a run: control, wait, results ---- */

static int kk_write_control(const char *cmd)
{
	int fd = open(KK_DIR "/control", O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, cmd, strlen(cmd));
	if (n < 0)
		n = -errno;
	close(fd);
	return n < 0 ? (int)n : 0;
}

/* the whole results file into k.results; 0 or -errno */
static int kk_read_results(void)
{
	size_t cap = 1 << 16, len = 0;
	int fd = open(KK_DIR "/results", O_RDONLY | O_CLOEXEC);
	ssize_t n;
	char *p;

	if (fd < 0)
		return -errno;
	free(k.results);
	k.results = NULL;
	for (;;) {
		p = realloc(k.results, cap + 1);
		if (!p) {
			close(fd);
			return -ENOMEM;
		}
		k.results = p;
		n = read(fd, k.results + len, cap - len);
		if (n <= 0)
			break;
		len += (size_t)n;
		if (len == cap)
			cap *= 2;
	}
	close(fd);
	if (n < 0)
		return -errno;
	k.results[len] = 0;
	return 0;
}

static const char *kk_state(void)
{
	const char *s = strstr(k.results, "\nstate ");

	return s ? s + 7 : "";
}

static void kk_progress(bool last)
{
	const char *t = strstr(k.results, "\ntaken ");

	if (k.quiet || !isatty(STDERR_FILENO))
		return;
	if (last)
		fprintf(stderr, "\r%60s\r", "");
	else if (t)
		fprintf(stderr, "\r%s: %lu/%lu samples", bench_prog, strtoul(t + 7, NULL, 10),
			(unsigned long)(2 * k.samples));
}

/*
 * Start the run and wait for its end; SIGINT/SIGTERM (blocked, seen by
 * sigtimedwait) stop it with what it measured, a second one leaves.
 */
static int kk_run(void)
{
	struct timespec tick = { 0, 100 * 1000 * 1000 };
	char cmd[256];
	sigset_t set;
	int ret, sig;

	snprintf(cmd, sizeof(cmd), "workload=%s samples=%lu frac_bits=%lu%s%s\n",
		 kk_workloads[k.wl], (unsigned long)k.samples, (unsigned long)k.frac_bits,
		 k.cpus ? " cpus=" : "", k.cpus ? k.cpus : "");
	ret = kk_write_control(cmd);
	if (ret == -EINVAL && k.cpus) {
		bench_err("--cpus: the kernel refused '%s': not a list of online CPUs", k.cpus);
		return EXIT_USAGE;
	}
	if (ret == -EBUSY)
		return kk_refused("%s is busy with another run (another bench kernel?)", KK_MODNAME);
	if (ret)
		return kk_refused("starting the run (%s/control): %s", KK_DIR, strerror(-ret));
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	for (;;) {
		ret = kk_read_results();
		if (ret)
			return kk_refused("reading %s/results: %s", KK_DIR, strerror(-ret));
		if (strncmp(kk_state(), "running", 7))
			break;
		kk_progress(false);
		sig = sigtimedwait(&set, NULL, &tick);
		if (sig > 0 && k.signo) {
			outfile_abort(&k.out);
			kk_unload();
			_exit(128 + sig);
		}
		if (sig > 0) {
			k.signo = sig;
			kk_write_control("stop");
		}
	}
	kk_progress(true);
	return 0;
}

/* ---- parsing the results ---- */

static const struct kstats_hist *kk_merged(unsigned int v);

/* the value of header line @key, or "" */
static const char *kk_res(const char *key)
{
	unsigned int i;

	for (i = 0; i < k.nr_res; i++)
		if (!strcmp(k.res[i][0], key))
			return k.res[i][1];
	return "";
}

static int kk_bad_results(unsigned long line, const char *why)
{
	return kk_refused("%s/results:%lu: %s (a module of another version?)", KK_DIR, line, why);
}

static int kk_parse_results(void)
{
	struct kk_hist *cur = NULL;
	unsigned long line = 0;
	char *save = NULL, *l;
	unsigned int fb = (unsigned int)k.frac_bits;

	for (l = strtok_r(k.results, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		unsigned long long a, b, c, d, e;
		char v[16];
		int cpu, node, used = 0;

		line++;
		if (line == 1 && strcmp(l, "kstats_bench 1"))
			return kk_bad_results(line, "not 'kstats_bench 1'");
		if (line == 1 || !strcmp(l, "end"))
			continue;
		if (sscanf(l, "hist %15s %d %d %llu %llu %llu%n", v, &cpu, &node, &a, &b, &c,
			   &used) == 6 && !l[used]) {
			if (k.nr_hist == sizeof(k.hist) / sizeof(k.hist[0]))
				return kk_bad_results(line, "too many histograms");
			cur = &k.hist[k.nr_hist++];
			snprintf(cur->variant, sizeof(cur->variant), "%s", v);
			cur->cpu = cpu;
			cur->node = node;
			cur->h = kstats_hist_create(fb);
			if (!cur->h)
				return kk_refused("%s", strerror(errno));
		} else if (sscanf(l, "%llu %llu %llu%n", &d, &e, &a, &used) == 3 && !l[used]) {
			/* slot count avg: AVG * count rebuilds the slot's AVG exactly */
			if (!cur || kstats_hist_slot(a, fb) != d || !e)
				return kk_bad_results(line, "a slot line that does not fit");
			kstats_hist_record_n(cur->h, a, e);
		} else if (!cur && k.nr_res < sizeof(k.res) / sizeof(k.res[0]) && strchr(l, ' ')) {
			k.res[k.nr_res][0] = l;
			k.res[k.nr_res][1] = strchr(l, ' ') + 1;
			*strchr(l, ' ') = 0;
			k.nr_res++;
		} else {
			return kk_bad_results(line, "unexpected line");
		}
	}
	if (!strcmp(kk_res("state"), "failed"))
		return kk_refused("the module failed: %s", kk_res("error"));
	if (sscanf(kk_res("variants"), "%ms %ms", &k.variant[0], &k.variant[1]) != 2 ||
	    !kk_merged(0) || !kk_merged(1))
		return kk_bad_results(line, "no variants or no histograms");
	return 0;
}

/* the merged histogram of variant @v */
static const struct kstats_hist *kk_merged(unsigned int v)
{
	unsigned int i;

	for (i = 0; i < k.nr_hist; i++)
		if (k.hist[i].cpu < 0 && !strcmp(k.hist[i].variant, k.variant[v]))
			return k.hist[i].h;
	return NULL;
}

/* ---- reporting ---- */

/* "variant_<name>" of variant @v: the key of its description */
static const char *kk_variant_key(unsigned int v)
{
	static char key[2][32];

	snprintf(key[v], sizeof(key[v]), "variant_%s", k.variant[v]);
	return key[v];
}

static void kk_meta(struct csv_meta *m)
{
	char clocksource[64], model[128] = "unknown", line[256], *p;
	struct utsname u;
	unsigned int v;
	FILE *f;

	uname(&u);
	f = fopen("/proc/cpuinfo", "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "model name", 10) && (p = strchr(line, ':'))) {
			p += 1 + strspn(p + 1, " \t");
			p[strcspn(p, "\n")] = 0;
			snprintf(model, sizeof(model), "%s", p);
			break;
		}
	if (f)
		fclose(f);
	kk_read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		     clocksource, sizeof(clocksource));
	csv_meta_set(m, "command", "%s", k.cmdline);
	csv_meta_set(m, "source", "kernel");
	csv_meta_set(m, "host", "%s", u.nodename);
	csv_meta_set(m, "kernel", "%s %s", u.release, u.machine);
	csv_meta_set(m, "kernel_release", "%s", u.release);
	csv_meta_set(m, "cpu_model", "%s", model);
	csv_meta_set(m, "module", "%s", k.ko[0] ? k.ko : "already loaded");
	csv_meta_set(m, "clock", "%s", kk_res("clock"));
	csv_meta_set(m, "clocksource", "%s", clocksource);
	csv_meta_set(m, "irqs", "%s", kk_res("irqs"));
	csv_meta_set(m, "workload", "%s", kk_res("workload"));
	for (v = 0; v < 2; v++)
		csv_meta_set(m, kk_variant_key(v), "%s", kk_res(kk_variant_key(v)));
	csv_meta_set(m, "possible_cpus", "%s", kk_res("possible_cpus"));
	csv_meta_set(m, "nr_cpu_ids", "%s", kk_res("nr_cpu_ids"));
	csv_meta_set(m, "online_cpus", "%s", kk_res("online_cpus"));
	csv_meta_set(m, "used_cpus", "%s", kk_res("cpus"));
	csv_meta_set(m, "samples_per_variant", "%s", kk_res("samples"));
	csv_meta_set(m, "samples_taken", "%lu/%lu",
		     (unsigned long)kstats_hist_total(kk_merged(0)),
		     (unsigned long)kstats_hist_total(kk_merged(1)));
	csv_meta_set(m, "mode", "serial");
	csv_meta_set(m, "unit", "ns");
	csv_meta_set(m, "frac_bits", "%lu", (unsigned long)k.frac_bits);
	csv_meta_set(m, "state", "%s", kk_res("state"));
	csv_meta_set(m, "runs", "1");
	csv_meta_set(m, "partial", "%s", strcmp(kk_res("state"), "done") ? "yes" : "no");
}

/*
 * The one place that writes histogram rows, so that a change of
 * csv_write_hist() (a run column) is one line here.
 */
static int kk_write_hist(FILE *f, const struct kk_hist *h)
{
	return csv_write_hist(f, kk_res("workload"), h->variant, CSV_RUN_ALL, h->cpu,
			      h->node, h->h);
}

static int kk_csv(FILE *f, const struct csv_meta *m)
{
	unsigned int i;

	csv_write_header(f, m);
	for (i = 0; i < k.nr_hist; i++)
		kk_write_hist(f, &k.hist[i]);
	return ferror(f) ? -EIO : 0;
}

static void kk_summary(FILE *f)
{
	const struct kstats_hist *o = kk_merged(0), *n = kk_merged(1);
	double nm = kstats_hist_mean(n);
	unsigned int v;

	fprintf(f, "SUMMARY source=kernel workload=%s unit=ns", kk_res("workload"));
	for (v = 0; v < 2; v++) {
		const struct kstats_hist *h = kk_merged(v);

		fprintf(f, " %s_p50=%lu %s_p99=%lu %s_max=%lu %s_mean=%.1f",
			k.variant[v], (unsigned long)kstats_hist_value_at_percentile(h, 50),
			k.variant[v], (unsigned long)kstats_hist_value_at_percentile(h, 99),
			k.variant[v], (unsigned long)kstats_hist_max(h),
			k.variant[v], kstats_hist_mean(h));
	}
	fprintf(f, " ratio=%.2f samples=%lu/%lu cpus=%s possible=%s partial=%s\n",
		nm > 0 ? kstats_hist_mean(o) / nm : 0.0,
		(unsigned long)kstats_hist_total(o), (unsigned long)kstats_hist_total(n),
		kk_res("cpus"), kk_res("possible_cpus"),
		strcmp(kk_res("state"), "done") ? "yes" : "no");
}

static void kk_print(FILE *f, const struct csv_meta *m)
{
	unsigned int v, i;

	if (k.format == REPORT_CSV) {
		kk_csv(f, m);
		return;
	}
	for (v = 0; v < 2; v++) {
		const struct kstats_hist *h = kk_merged(v);

		if (k.format == REPORT_KSTATS) {
			fprintf(f, "# %s %s\n", kk_res("workload"), k.variant[v]);
			for (i = 0; i < k.nr_hist; i++)
				if (k.hist[i].cpu >= 0 && !strcmp(k.hist[i].variant, k.variant[v]))
					kstats_hist_print_kstats(k.hist[i].h, f, k.hist[i].cpu, 0);
			kstats_hist_print_kstats(h, f, -1, (unsigned int)atoi(kk_res("cpus")));
			continue;
		}
		fprintf(f, "# %s %s: %s\n# %lu samples on %s CPUs, %s possible, in-kernel, %s, irqs %s\n",
			kk_res("workload"), k.variant[v], kk_res(kk_variant_key(v)),
			(unsigned long)kstats_hist_total(h), kk_res("cpus"), kk_res("possible_cpus"),
			kk_res("clock"), strncmp(kk_res("irqs"), "off", 3) ? "on" : "off");
		if (k.format == REPORT_BARS)
			kstats_hist_print_bars(h, f);
		else
			kstats_hist_print_table(h, f);
		fputc('\n', f);
	}
	if (k.format != REPORT_KSTATS)
		kk_summary(f);
}

static int kk_report(void)
{
	static struct csv_meta meta;
	int ret;

	kk_meta(&meta);
	if (k.output) {
		/* commit returns kk_csv()'s write errors, errno and all */
		kk_csv(k.out.f, &meta);
		ret = outfile_commit(&k.out);
		if (ret == -EPIPE && k.out.how == OUTFILE_STDOUT)
			ret = 0;	/* -o - | head */
		if (ret) {
			fprintf(stderr, "%s: writing %s: %s\n", bench_prog, k.output, strerror(-ret));
			return EXIT_ENV;
		}
	}
	/* with -o - the CSV has stdout, the table goes to stderr */
	kk_print(k.output && k.out.how == OUTFILE_STDOUT ? stderr : stdout, &meta);
	return bench_finish_stdout();
}

static void kk_free(void)
{
	unsigned int i;

	for (i = 0; i < k.nr_hist; i++)
		kstats_hist_free(k.hist[i].h);
	free(k.variant[0]);
	free(k.variant[1]);
	free(k.results);
}

int cmd_kernel(int argc, char **argv)
{
	struct utsname u;
	sigset_t all;
	int ret;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	k.samples = 8192;
	k.frac_bits = KSTATS_HIST_FRAC_BITS_DEFAULT;
	k.format = REPORT_TABLE;
	bench_cmdline(k.cmdline, sizeof(k.cmdline), argc, argv);
	ret = kk_parse(argc, argv);
	if (ret)
		return ret > 0 ? bench_finish_stdout() : EXIT_USAGE;
	if (geteuid())
		return kk_refused("needs root to load the module %s (running as uid %u)",
				  KK_MODNAME, (unsigned int)geteuid());
	if (k.output && (ret = outfile_open(&k.out, k.output))) {
		bench_err("--output: %s: %s", k.output, strerror(-ret));
		return EXIT_USAGE;
	}
	uname(&u);
	snprintf(k.release, sizeof(k.release), "%s", u.release);
	ret = kk_debugfs();
	if (!ret)
		ret = kk_load();
	if (!ret)
		ret = kk_run();
	if (!ret)
		ret = kk_parse_results();
	kk_unload();
	if (!ret)
		ret = kk_report();
	if (!ret && k.signo)
		ret = 128 + k.signo;
	outfile_abort(&k.out);
	kk_free();
	return ret;
}
