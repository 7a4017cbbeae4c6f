// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-kernel.c - bench kernel: the same measurement inside the
 * running kernel, by the module kmod/kstats_bench.ko. Finds (or builds)
 * the module for this kernel, loads it, starts a run through debugfs,
 * waits, reads the histograms back into a results set (lib/kernel/kmod.h) and
 * reports it as bench run does (every format; -o CSV), then unloads it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
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
#include "lib/report/format.h"
#include "lib/host/host.h"
#include "lib/report/kcidb.h"
#include "lib/kernel/kimage.h"
#include "lib/kernel/kmod.h"
#include "lib/subcmd/outfile.h"
#include "lib/subcmd/readfile.h"
#include "lib/subcmd/spawn.h"
#include "lib/subcmd/outset.h"
#include "lib/results/results.h"
#include "lib/host/testbed.h"
#include "lib/measure/topo.h"

#define KK_MODNAME	KMOD_NAME
#define KK_DEBUGFS	KMOD_DEBUGFS
#define KK_DIR		KMOD_DIR
#define KK_DEBUGFS_MAGIC 0x64626720	/* DEBUGFS_MAGIC */

static const char *const kk_workloads[] = {
	"kernel-set-defaults", "kernel-irq-alloc", NULL,
};

/*
 * bench kernel's state, configuration then run state: one instance, whose
 * address cmd_kernel() passes down (perf's struct record); kk_opts[]
 * names it, a table's values being addresses.
 */
static struct kk_global {
	/* configuration */
	int wl;				/* -w, index in kk_workloads */
	uint64_t samples;		/* -n, per variant, all CPUs */
	const char *cpus;		/* -c, a list for the kernel, NULL = online */
	uint64_t frac_bits;		/* -b */
	int format;			/* -f, an index of formats[] */
	const char *output;		/* -o */
	struct outset also;		/* --also FMT[:VARIANT]=FILE */
	struct bench_origin who;	/* --label, --origin */
	const char *module;		/* --module, a .ko to load */
	const char *build;		/* --build TREE: only build the module into -o */
	bool quiet;			/* -q */
	char cmdline[1024];		/* for the metadata */

	/* run state */
	struct testbed tb;		/* the host, read before the run */
	struct outfile out;		/* -o, open from the start */
	char release[65];		/* uname -r */
	char ko[PATH_MAX];		/* the module file */
	bool loaded;			/* we loaded it: we unload it */
	int signo;			/* SIGINT/SIGTERM that stopped us, or 0 */
	char *results;			/* the results file, NUL-terminated */
	struct meta hdr;		/* its "key value" lines */
	struct results *res;		/* its histograms, then the metadata */
	char variant[2][32];		/* the two variant names */
} kk_global;

/*
 * -c LIST: a cpulist of this machine's possible CPUs, checked before
 * anything needs root; the kernel checks that they are online
 */
static int kk_cpus(const struct opt *o, const char *arg, char *why, size_t len)
{
	static bool want[NR_CPUS_MAX], possible[NR_CPUS_MAX];
	char line[256];
	int i;

	*(const char **)o->value = arg;
	if (!*arg || strspn(arg, "0123456789,-") != strlen(arg) ||
	    topo_parse_cpulist(arg, want, NR_CPUS_MAX) == -EINVAL) {
		snprintf(why, len, "--%s: '%s' is not a CPU list (e.g. 0-3,8)", o->long_name, arg);
		return -EINVAL;
	}
	if (o->check_only)	/* another machine's CPUs: its kernel says */
		return 0;
	readfile_line("/sys/devices/system/cpu/possible", line, sizeof(line));
	if (topo_parse_cpulist(line, possible, NR_CPUS_MAX) < 0)
		return 0;	/* not known here: the kernel says */
	/* -ERANGE: a CPU past NR_CPUS_MAX, which no machine here has */
	i = topo_parse_cpulist(arg, want, NR_CPUS_MAX) < 0 ? 0 : NR_CPUS_MAX;
	while (i < NR_CPUS_MAX && (!want[i] || possible[i]))
		i++;
	if (i == NR_CPUS_MAX && topo_parse_cpulist(arg, want, NR_CPUS_MAX) > 0)
		return 0;
	snprintf(why, len, "--%s: '%s' names CPUs this machine does not have (possible: %s)",
		 o->long_name, arg, line);
	return -EINVAL;
}

static const struct opt kk_opts[] = {
	OPT_ENUM('w', "workload", &kk_global.wl, kk_workloads, "NAME",
		 "kernel-set-defaults (default): desc_set_defaults()\n"
		 "before (old) and after (new) the patch, interrupts\n"
		 "off, ABBA\n"
		 "kernel-irq-alloc: irq_alloc_descs() (alloc) and\n"
		 "irq_free_descs() (free), timed apart, interrupts on"),
	OPT_U64('n', "samples", &kk_global.samples, 1, UINT64_C(1) << 32, "N",
		"samples per variant, all CPUs, 1..2^32 (default 8192)"),
	OPT_CALL('c', "cpus", &kk_global.cpus, kk_cpus, "LIST",
		 "CPUs to run on, the kernel's list syntax (default:\n"
		 "online)"),
	OPT_U64('b', "frac-bits", &kk_global.frac_bits, 0, KSTATS_HIST_FRAC_BITS_MAX, "B",
		"histogram sub-bucket bits, 0..12 (default 2)"),
	OPT_FORMAT('f', "format", &kk_global.format, formats, "FMT", "what goes to stdout:"),
	OPT_STRING('o', "output", &kk_global.output, "FILE",
		   "also write the CSV (per-CPU and merged) to FILE"),
	OPT_ALSO_PICK(&kk_global.also),
	OPT_STRING(0, "module", &kk_global.module, "FILE", "the kstats_bench.ko to load"),
	OPT_STRING(0, "build", &kk_global.build, "TREE",
		   "only build kstats_bench.ko against the configured\n"
		   "kernel tree TREE into the new directory -o DIR (the\n"
		   "sources beside it) and exit: no root, nothing\n"
		   "loaded; scripts build the module so"),
	OPT_CALL(0, "label", &kk_global.who, bench_opt_label, "KEY=VALUE",
		 "record label_KEY: VALUE in the metadata; repeatable"),
	OPT_ORIGIN(&kk_global.who, bench_opt_origin, ", kept in the file"),
	OPT_FLAG('q', "quiet", &kk_global.quiet, "no progress on stderr"),
	OPT_END()
};

/* Returns 0 to run, 1 after --help, -1 after a usage error. */
static int kk_parse(int argc, char **argv)
{
	const struct opt *tab[] = { kk_opts, NULL };
	struct opt_parser p = { .tab = tab, .flags = OPT_NO_OPERANDS };

	return bench_options(&p,
		"Usage: bench kernel [OPTIONS]\n"
		"Time the same code inside the running kernel with the module kstats_bench\n"
		"(kmod/), as the patch's author did with kstats, and print the kstats table.\n"
		"Needs root, debugfs and the module: kmod/kstats_bench.ko beside bench, built\n"
		"for this kernel, or built here from kmod/ with /lib/modules/$(uname -r)/build.\n",
		"Stamps are ktime_get_ns(), as kstats takes them: ns of the clocksource.\n"
		"Exit: 0 done, 2 bad usage, 3 the environment refused (not root, no headers,\n"
		"module loading refused, no debugfs) or writing an output failed, 130/143\n"
		"interrupted (partial results).\n",
		argc, argv);
}

int cmd_kernel_check(int argc, char **argv, char *why, size_t len)
{
	const struct opt *tab[] = { kk_opts, NULL };
	struct opt_parser p = { .tab = tab, .flags = OPT_NO_OPERANDS };

	return bench_check_parse(&p, argc, argv, why, len);
}

/* ---- the environment: root, debugfs, the module ---- */

static int kk_debugfs(void)
{
	struct statfs s;

	if (!statfs(KK_DEBUGFS, &s) && s.f_type == KK_DEBUGFS_MAGIC)
		return 0;
	if (!mount("debugfs", KK_DEBUGFS, "debugfs", 0, NULL))
		return 0;
	return bench_refused("no debugfs: %s is not mounted and mounting it failed: %s",
			  KK_DEBUGFS, strerror(errno));
}

/* is @ko built for @release (its vermagic, lib/kernel/kimage.h)? */
static bool kk_ko_matches(const char *ko, const char *release)
{
	char rel[KIMAGE_RELEASE_MAX];

	return !kimage_ko_release(ko, rel, sizeof(rel)) && !strcmp(rel, release);
}

/*
 * --module, else kstats_bench.ko in the module's sources (kmod_src_dir():
 * kmod/ beside bench, or ../share/kstats-bench/kmod), built there when it
 * is not for this kernel
 */
static int kk_find_module(struct kk_global *kk)
{
	char dir[PATH_MAX], build[PATH_MAX + 64];
	int ret;

	if (kk->module) {
		snprintf(kk->ko, sizeof(kk->ko), "%s", kk->module);
		if (access(kk->ko, R_OK))
			return bench_refused("--module: %s: %s", kk->ko, strerror(errno));
		return 0;
	}
	/* a bench vm guest has the module built, without its sources */
	ret = kmod_dir(dir, sizeof(dir));
	if (ret)
		return bench_refused(KMOD_NO_SRC ": %s", strerror(-ret));
	snprintf(kk->ko, sizeof(kk->ko), "%.*s/" KK_MODNAME ".ko", (int)(sizeof(kk->ko) - 20), dir);
	if (kk_ko_matches(kk->ko, kk->release))
		return 0;
	snprintf(build, sizeof(build), "/lib/modules/%s/build", kk->release);
	if (access(build, F_OK))
		return bench_refused("no kernel headers for %s: %s is missing (apt-get install linux-headers-%s)",
				  kk->release, build, kk->release);
	if (access(dir, W_OK))
		return bench_refused("no %s built for %s, and %s cannot be built in: %s",
				  kk->ko, kk->release, dir, strerror(errno));
	if (!kk->quiet)
		pr_err("building %s for %s", kk->ko, kk->release);
	/* in place: kmod_dir() is the sources' directory when it can be built in */
	if (kmod_build(build, NULL, STDERR_FILENO) || !kk_ko_matches(kk->ko, kk->release))
		return bench_refused("building the module in %s for %s failed (see above)", dir,
				  kk->release);
	return 0;
}

/* why the kernel said EPERM to finit_module() */
static void kk_why_refused(char *buf, size_t len)
{
	char v[128];

	readfile_line("/proc/sys/kernel/modules_disabled", v, sizeof(v));
	if (!strcmp(v, "1")) {
		snprintf(buf, len, "kernel.modules_disabled is 1");
		return;
	}
	readfile_line("/sys/kernel/security/lockdown", v, sizeof(v));
	if (*v && !strstr(v, "[none]")) {
		snprintf(buf, len, "the kernel is locked down (%s; secure boot?)", v);
		return;
	}
	snprintf(buf, len, "%s", strerror(EPERM));
}

static int kk_load(struct kk_global *kk)
{
	char why[192];
	struct stat st;
	int fd, ret;

	if (!stat("/sys/module/" KK_MODNAME, &st))
		return 0;	/* someone's: used as it is, left loaded */
	ret = kk_find_module(kk);
	if (ret)
		return ret;
	fd = open(kk->ko, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return bench_refused("%s: %s", kk->ko, strerror(errno));
	ret = (int)syscall(SYS_finit_module, fd, "", 0);
	close(fd);
	if (!ret) {
		kk->loaded = true;
		return 0;
	}
	if (errno == EEXIST)
		return 0;
	if (errno == EPERM) {
		kk_why_refused(why, sizeof(why));
		return bench_refused("module loading refused: %s", why);
	}
	if (errno == EKEYREJECTED || errno == ENOKEY)
		return bench_refused("module loading refused: %s is not signed with a key this kernel trusts (module.sig_enforce or secure boot): %s",
				  kk->ko, strerror(errno));
	return bench_refused("loading %s: %s", kk->ko, strerror(errno));
}

static void kk_unload(struct kk_global *kk)
{
	if (kk->loaded && syscall(SYS_delete_module, KK_MODNAME, O_NONBLOCK))
		pr_err("warning: unloading %s: %s", KK_MODNAME,
		       strerror(errno));
	kk->loaded = false;
}

/* ---- a run: control, wait, results ---- */

static const char *kk_state(const struct kk_global *kk)
{
	const char *s = strstr(kk->results, "\nstate ");

	return s ? s + 7 : "";
}

/* bench_wait() on the module's run: done when its state is not "running" */
static int kk_poll(void *priv)
{
	struct kk_global *kk = priv;
	int ret = kmod_read_results(&kk->results);

	return ret ? ret : !!strncmp(kk_state(kk), "running", 7);
}

static void kk_stop(void *priv, int sig)
{
	(void)priv;
	(void)sig;
	kmod_control("stop");
}

static void kk_leave(void *priv)
{
	struct kk_global *kk = priv;

	outfile_abort(&kk->out);
	outset_abort(&kk->also);
	kk_unload(kk);
}

static void kk_progress(void *priv)
{
	const struct kk_global *kk = priv;
	const char *t = strstr(kk->results, "\ntaken ");

	fprintf(stderr, "%lu/%lu samples", t ? strtoul(t + 7, NULL, 10) : 0,
		(unsigned long)(2 * kk->samples));
}

/*
 * Start the run and wait for its end; SIGINT/SIGTERM stop it with what
 * it measured, a second one leaves (bench_wait()).
 */
static int kk_run(struct kk_global *kk)
{
	const struct bench_wait w = {
		.poll = kk_poll, .stop = kk_stop, .leave = kk_leave, .progress = kk_progress,
		.priv = kk, .tick_ms = 100, .quiet = kk->quiet, .signo = &kk->signo,
	};
	char cmd[256];
	int ret;

	snprintf(cmd, sizeof(cmd), "workload=%s samples=%lu frac_bits=%lu%s%s\n",
		 kk_workloads[kk->wl], (unsigned long)kk->samples, (unsigned long)kk->frac_bits,
		 kk->cpus ? " cpus=" : "", kk->cpus ? kk->cpus : "");
	ret = kmod_control(cmd);
	if (ret == -EINVAL && kk->cpus) {
		bench_err("--cpus: the kernel refused '%s': not a list of online CPUs", kk->cpus);
		return EXIT_USAGE;
	}
	if (ret == -EBUSY)
		return bench_refused("%s is busy with another run (another bench kernel?)", KK_MODNAME);
	if (ret)
		return bench_refused("starting the run (%s/control): %s", KK_DIR, strerror(-ret));
	ret = bench_wait(&w);
	if (ret)
		return bench_refused("reading %s/results: %s", KK_DIR, strerror(-ret));
	return 0;
}

/* ---- the results ---- */

/* the module's "key value" line @key, or "" */
static const char *kk_res(const struct kk_global *kk, const char *key)
{
	const char *v = meta_get(&kk->hdr, key);

	return v ? v : "";
}

static int kk_parse_results(struct kk_global *kk)
{
	struct kmod_error err;
	unsigned int v;
	int ret = kmod_parse(kk->results, (unsigned int)kk->frac_bits, &kk->hdr, &kk->res, &err);

	if (ret == -ENOMEM)
		return bench_nomem();
	if (ret)
		return bench_refused("%s/results:%lu: %s (a module of another version?)", KK_DIR,
				  err.line, err.why);
	if (!strcmp(kk_res(kk, "state"), "failed"))
		return bench_refused("the module failed: %s", kk_res(kk, "error"));
	if (sscanf(kk_res(kk, "variants"), "%31s %31s", kk->variant[0], kk->variant[1]) != 2)
		return bench_refused("%s/results: no variants (a module of another version?)", KK_DIR);
	for (v = 0; v < 2; v++)
		if (!results_find(kk->res, kk_res(kk, "workload"), kk->variant[v], RESULTS_RUN_ALL,
				  RESULTS_CPU_ALL))
			return bench_refused("%s/results: no histogram of %s (a module of another version?)",
					  KK_DIR, kk->variant[v]);
	return 0;
}

/* samples of variant @v, merged */
static unsigned long kk_taken(const struct kk_global *kk, unsigned int v)
{
	return (unsigned long)kstats_hist_total(results_find(kk->res, kk_res(kk, "workload"),
							     kk->variant[v], RESULTS_RUN_ALL,
							     RESULTS_CPU_ALL)->h);
}

static void kk_meta(const struct kk_global *kk, struct meta *m)
{
	char clocksource[64], key[48];
	unsigned int v;

	readfile_line("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		     clocksource, sizeof(clocksource));
	meta_set(m, "command", "%s", kk->cmdline);
	meta_timestamp(m, time(NULL));
	meta_set(m, "source", "kernel");
	host_meta(m);
	meta_set(m, "kernel_release", "%s", kk->release);
	meta_set(m, "module", "%s", kk->ko[0] ? kk->ko : "already loaded");
	meta_set(m, "clock", "%s", kk_res(kk, "clock"));
	meta_set(m, "clocksource", "%s", clocksource);
	meta_set(m, "irqs", "%s", kk_res(kk, "irqs"));
	meta_set(m, "workload", "%s", kk_res(kk, "workload"));
	for (v = 0; v < 2; v++) {
		snprintf(key, sizeof(key), "variant_%s", kk->variant[v]);
		meta_set(m, key, "%s", kk_res(kk, key));
	}
	/* what bench compare takes the machine's drift out by */
	meta_set(m, "reference", "%s", kk_res(kk, "reference"));
	meta_set(m, "possible_cpus", "%s", kk_res(kk, "possible_cpus"));
	meta_set(m, "nr_cpu_ids", "%s", kk_res(kk, "nr_cpu_ids"));
	meta_set(m, "online_cpus", "%s", kk_res(kk, "online_cpus"));
	meta_set(m, "used_cpus", "%s", kk_res(kk, "cpus"));
	meta_set(m, "samples_per_variant", "%s", kk_res(kk, "samples"));
	meta_set(m, "samples_taken", "%lu/%lu", kk_taken(kk, 0), kk_taken(kk, 1));
	meta_set(m, "mode", "serial");
	meta_set(m, "unit", "ns");
	meta_set(m, "frac_bits", "%lu", (unsigned long)kk->frac_bits);
	meta_set(m, "state", "%s", kk_res(kk, "state"));
	meta_set(m, "runs", "1");
	meta_set(m, "partial", "%s", strcmp(kk_res(kk, "state"), "done") ? "yes" : "no");
	testbed_meta(&kk->tb, m, NULL);
	bench_meta_origin(m, &kk->who);
}

static int kk_report(struct kk_global *kk)
{
	kk_meta(kk, &kk->res->meta);
	return bench_report(&kk->out, kk->output, (unsigned int)kk->format, &kk->also,
			    kk->res);
}

static void kk_free(struct kk_global *kk)
{
	results_free(kk->res);
	free(kk->results);
}

/* --build TREE -o DIR: the module alone, as scripts need it; an exit code */
static int kk_build_only(const struct kk_global *kk)
{
	char rel[KIMAGE_RELEASE_MAX], why[3 * PATH_MAX];
	int ret;

	if (!kk->output) {
		bench_err("--build %s: no -o DIR to build into", kk->build);
		return EXIT_USAGE;
	}
	if (kimage_tree_release(kk->build, rel, sizeof(rel))) {
		bench_err("--build %s: not a configured kernel tree (no include/config/kernel.release: make olddefconfig prepare)",
			  kk->build);
		return EXIT_USAGE;
	}
	if (!access(kk->output, F_OK)) {
		bench_err("-o %s: exists; --build makes a new directory", kk->output);
		return EXIT_USAGE;
	}
	if (!kk->quiet)
		pr_err("building %s.ko for %s against %s into %s",
		       KK_MODNAME, rel, kk->build, kk->output);
	ret = kmod_build(kk->build, kk->output, STDERR_FILENO);
	if (ret) {
		kmod_build_why(why, sizeof(why), ret, kk->build, kk->output);
		return bench_refused("%s", why);
	}
	return EXIT_DONE;
}

int cmd_kernel(int argc, char **argv)
{
	struct kk_global *kk = &kk_global;
	struct utsname u;
	int ret;

	bench_block_signals(NULL);
	kk->samples = 8192;
	kk->frac_bits = KSTATS_HIST_FRAC_BITS_DEFAULT;
	kk->format = FORMAT_TABLE;
	kk->also = (struct outset)OUTSET_INIT_PICK(formats);
	bench_cmdline(kk->cmdline, sizeof(kk->cmdline), argc, argv);
	ret = kk_parse(argc, argv);
	if (ret)
		return ret > 0 ? bench_finish_stdout() : EXIT_USAGE;
	if (kk->build)
		return kk_build_only(kk);
	/* --module is read: -o and --also must not replace it, nor each other */
	ret = bench_outputs((char **)&kk->module, kk->module ? 1 : 0, kk->output, &kk->also);
	if (ret)
		return ret;
	if (geteuid())
		return bench_refused("needs root to load the module %s (running as uid %u)",
				  KK_MODNAME, (unsigned int)geteuid());
	ret = bench_open_outputs((char **)&kk->module, kk->module ? 1 : 0, &kk->out,
				 kk->output, &kk->also);
	if (ret)
		return ret;
	uname(&u);
	snprintf(kk->release, sizeof(kk->release), "%s", u.release);
	ret = bench_testbed(&kk->tb);
	if (!ret)
		ret = kk_debugfs();
	if (!ret)
		ret = kk_load(kk);
	if (!ret)
		ret = kk_run(kk);
	if (!ret)
		ret = kk_parse_results(kk);
	kk_unload(kk);
	if (!ret)
		ret = kk_report(kk);
	if (!ret && kk->signo)
		ret = 128 + kk->signo;
	outfile_abort(&kk->out);
	outset_abort(&kk->also);
	kk_free(kk);
	return ret;
}
