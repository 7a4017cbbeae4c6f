// SPDX-License-Identifier: GPL-2.0
/*
 * bench.c - kstats-bench: main(), subcommands, option parsing.
 *
 * Only this file prints to stdout or decides to exit; the library code
 * (kstats_hist.c, lib/, workloads/) returns 0 or -errno.
 *
 * Exit codes, for every command: 0 done, 1 compare found a regression,
 * 2 usage or bad input, 3 the environment refused, 130/143 interrupted.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "kstats_hist.h"
#include "lib/compare.h"
#include "lib/csv.h"
#include "lib/engine.h"
#include "lib/outfile.h"
#include "lib/pcpu.h"
#include "lib/report.h"
#include "lib/samples.h"
#include "lib/topo.h"
#include "lib/tsc.h"
#include "workloads/workload.h"

#define BENCH_VERSION	"0.1.0"

enum {
	EXIT_DONE = 0,
	EXIT_REGRESSION = 1,
	EXIT_USAGE = 2,
	EXIT_ENV = 3,
};

/* ---- subcommand registry ---- */

struct cmd {
	const char *name;	/* word after "bench" */
	const char *summary;	/* one line for `bench --help` */
	int (*fn)(int argc, char **argv);	/* returns an exit code */
};

static int cmd_run(int argc, char **argv);
static int cmd_list(int argc, char **argv);
static int cmd_calibrate(int argc, char **argv);
static int cmd_compare(int argc, char **argv);
static int cmd_show(int argc, char **argv);
static int cmd_hist(int argc, char **argv);

static const struct cmd cmds[] = {
	{ "run", "time a workload's old and new paths on pinned workers",
	  cmd_run },
	{ "list", "list the workloads", cmd_list },
	{ "calibrate", "TSC frequency, clocksource, per-CPU timer overhead",
	  cmd_calibrate },
	{ "compare", "compare a before and an after CSV: the CI regression gate",
	  cmd_compare },
	{ "show", "print one histogram of a CSV as the patch's table",
	  cmd_show },
	{ "hist", "print the kstats table of a list of integer samples",
	  cmd_hist },
	{ NULL, NULL, NULL },
};

#define for_each_cmd(c) for ((c) = cmds; (c)->name; (c)++)

/* ---- messages and option helpers ---- */

static const char *prog = "bench";	/* "bench CMD" once a command runs */

static void __attribute__((format(printf, 1, 2))) usage_err(const char *fmt,
							    ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see '%s --help')\n", prog);
}

/*
 * parse_u64 - a decimal option value in [min, max]. On error prints one
 * line naming the option and the range, and returns -1.
 */
static int parse_u64(const char *arg, uint64_t min, uint64_t max,
		     const char *name, uint64_t *out)
{
	uint64_t v;
	int ret = samples_parse_line(arg, strlen(arg), &v);

	if (ret == 0 && v >= min && v <= max) {
		*out = v;
		return 0;
	}
	usage_err("%s: '%s' is not an integer in %lu..%lu", name, arg,
		  (unsigned long)min, (unsigned long)max);
	return -1;
}

/*
 * parse_enum - index of @arg in the NULL-terminated @names, or -1 after
 * a message listing the valid names.
 */
static int parse_enum(const char *arg, const char *const *names,
		      const char *name)
{
	char list[256] = "";
	int i;

	for (i = 0; names[i]; i++)
		if (!strcmp(arg, names[i]))
			return i;
	for (i = 0; names[i]; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
			 "%s%s", i ? ", " : "", names[i]);
	usage_err("%s: '%s' is not one of %s", name, arg, list);
	return -1;
}

/*
 * getopt_fail - one line for what getopt_long (with opterr = 0 and a
 * leading ':' in the optstring) rejected: @c is '?' or ':'.
 */
static void getopt_fail(int c, char **argv)
{
	char opt[3] = { '-', (char)optopt, 0 };
	const char *name = optopt ? opt : argv[optind - 1];

	if (c == ':')
		usage_err("option '%s' needs a value", argv[optind - 1]);
	else
		usage_err("unknown option '%s'", name);
}

/* Flush stdout and report a failed write (disk full, closed pipe). */
static int finish_stdout(void)
{
	if (!fflush(stdout) && !ferror(stdout))
		return EXIT_DONE;
	/* the reader went away (bench run | head): not an error of ours */
	if (errno == EPIPE)
		return EXIT_DONE;
	fprintf(stderr, "%s: writing standard output: %s\n", prog, strerror(errno));
	return EXIT_ENV;
}

/* ---- bench run ---- */

enum { OPT_PCPU_UNIT = 256, OPT_HUGEPAGES, OPT_SNAPSHOT, OPT_END_FENCE,
       OPT_SUBTRACT };

static const char *const run_modes[] = { "serial", "parallel", NULL };
static const char *const run_units[] = { "ns", "cycles", NULL };

/* One global, oslat style: configuration, then run state. */
static struct global {
	/* configuration: defaults in run_defaults(), then the options */
	const struct workload *wl;	/* -w */
	uint64_t samples;		/* -n, per variant, all workers */
	const char *cpus;		/* --cpus, NULL = every allowed CPU */
	uint64_t possible;		/* --possible-cpus, 0 = the real count */
	uint64_t pcpu_unit;		/* --pcpu-unit, bytes */
	bool hugepages;			/* --hugepages */
	bool snapshot;			/* --irqstat-snapshot: 8-byte irqstat */
	int cache;			/* --cache, enum wl_cache */
	int mode;			/* --mode, 0 serial 1 parallel */
	int unit;			/* --unit, 0 ns 1 cycles */
	uint64_t frac_bits;		/* --frac-bits */
	int format;			/* --format, enum report_format */
	const char *output;		/* -o, CSV path */
	int fence;			/* --end-fence, enum tsc_fence */
	bool subtract;			/* --subtract-overhead */
	bool quiet;			/* -q: no progress */
	char cmdline[1024];		/* for the metadata */

	/* run state */
	struct topo topo;		/* CPUs and nodes */
	struct tsc_info tsc;		/* clock */
	struct pcpu *pcpu;		/* emulated per-CPU allocator */
	struct engine *e;		/* workers */
	struct outfile out;		/* -o, open from the start */
	char mlock[96];			/* what mlockall() said */
	char pcpu_nodes[160];		/* what move_pages() said */
	int signo;			/* SIGINT/SIGTERM that stopped us, or 0 */
} g;

static void run_defaults(void)
{
	g.wl = &wl_irqdesc_alloc;
	g.samples = 8192;		/* as in the patch's table */
	g.pcpu_unit = 1u << 20;		/* 1 MiB, as on the development kernel */
	g.frac_bits = KSTATS_HIST_FRAC_BITS_DEFAULT;
	g.cache = WL_CACHE_KERNEL;
	g.format = REPORT_TABLE;
	g.fence = TSC_FENCE_SFENCE;	/* see lib/tsc.h for the measurements */
}

static void run_usage(FILE *f)
{
	fprintf(f,
		"Usage: bench run [OPTIONS]\n"
		"Time a workload's old and new paths on one pinned worker per CPU, as the\n"
		"patch did with kstats, and print the kstats table of each.\n"
		"\n"
		"  -w, --workload NAME       what to time (default irqdesc-alloc; see bench list)\n"
		"  -n, --samples N           samples per variant, all CPUs, 1..2^32 (default 8192)\n"
		"  -c, --cpus LIST           worker CPUs, numactl syntax (default: every allowed CPU)\n"
		"  -p, --possible-cpus N     emulate N possible CPUs, 1..8192 (default: the real count)\n"
		"      --pcpu-unit SIZE      bytes between per-CPU units, a power of two >= 4K\n"
		"                            (K/M/G suffixes; default 1M)\n"
		"      --hugepages           back the units with transparent huge pages (commits\n"
		"                            2 MiB per unit: 8192 possible CPUs need 16 GiB)\n"
		"      --irqstat-snapshot    8-byte struct irqstat (CONFIG_GENERIC_IRQ_STAT_SNAPSHOT)\n"
		"  -C, --cache MODE          kernel (default): lines as the allocator's zeroing left them\n"
		"                            cold: every line the region touches flushed first\n"
		"                            remote: each worker dirties its own CPU's counter first\n"
		"  -m, --mode MODE           serial (default): one sample at a time machine-wide\n"
		"                            parallel: every worker at once (not with --cache remote)\n"
		"  -u, --unit UNIT           ns (default) or cycles\n"
		"  -b, --frac-bits B         histogram sub-bucket bits, 0..12 (default 2)\n"
		"  -f, --format FMT          table (default), kstats, csv, bars\n"
		"  -o, --output FILE         also write the CSV (per-CPU and merged) to FILE\n"
		"      --end-fence F         sfence (default), mfence or none before the end stamp\n"
		"      --subtract-overhead   subtract each CPU's median empty-region cost\n"
		"  -q, --quiet               no progress on stderr\n"
		"  -h, --help                this text\n"
		"\n"
		"Exit: 0 done, 2 bad usage, 3 the environment refused, 130/143 interrupted\n"
		"(what was measured is still written, marked partial: yes).\n");
}

/* SIZE with an optional K, M or G (powers of 1024), a power of two */
static int parse_size(const char *arg, const char *name, uint64_t *out)
{
	static const char units[] = "KMG";
	size_t len = strlen(arg);
	unsigned int shift = 0;
	const char *u;
	uint64_t v;

	if (len > 1 && (u = strchr(units, arg[len - 1] & ~0x20)) && *u) {
		shift = 10 * (unsigned int)(u - units + 1);
		len--;
	}
	if (!samples_parse_line(arg, len, &v) && v &&
	    v <= (UINT64_C(1) << 30) >> shift) {
		v <<= shift;
		if (v >= PCPU_MIN_UNIT && !(v & (v - 1))) {
			*out = v;
			return 0;
		}
	}
	usage_err("%s: '%s' is not a power of two from 4K to 1G", name, arg);
	return -1;
}

static int run_option(int c)
{
	switch (c) {
	case 'w':
		g.wl = workload_find(optarg);
		if (!g.wl) {
			usage_err("--workload: '%s' is not a workload (see 'bench list')", optarg);
			return -1;
		}
		return 0;
	case 'n':
		return parse_u64(optarg, 1, UINT64_C(1) << 32, "--samples", &g.samples);
	case 'c':
		g.cpus = optarg;
		return 0;
	case 'p':
		return parse_u64(optarg, 1, TOPO_MAX_CPUS, "--possible-cpus", &g.possible);
	case OPT_PCPU_UNIT:
		return parse_size(optarg, "--pcpu-unit", &g.pcpu_unit);
	case OPT_HUGEPAGES:
		g.hugepages = true;
		return 0;
	case OPT_SNAPSHOT:
		g.snapshot = true;
		return 0;
	case 'C':
		return (g.cache = parse_enum(optarg, report_caches, "--cache")) < 0 ? -1 : 0;
	case 'm':
		return (g.mode = parse_enum(optarg, run_modes, "--mode")) < 0 ? -1 : 0;
	case 'u':
		return (g.unit = parse_enum(optarg, run_units, "--unit")) < 0 ? -1 : 0;
	case 'b':
		return parse_u64(optarg, 0, KSTATS_HIST_FRAC_BITS_MAX, "--frac-bits", &g.frac_bits);
	case 'f':
		return (g.format = parse_enum(optarg, report_formats, "--format")) < 0 ? -1 : 0;
	case 'o':
		g.output = optarg;
		return 0;
	case OPT_END_FENCE:
		return (g.fence = parse_enum(optarg, tsc_fence_names, "--end-fence")) < 0 ? -1 : 0;
	case OPT_SUBTRACT:
		g.subtract = true;
		return 0;
	case 'q':
		g.quiet = true;
		return 0;
	}
	return -1;
}

/* Returns 0 to run, 1 after --help, -1 after a usage error. */
static int run_parse(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "workload", required_argument, NULL, 'w' },
		{ "samples", required_argument, NULL, 'n' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "possible-cpus", required_argument, NULL, 'p' },
		{ "pcpu-unit", required_argument, NULL, OPT_PCPU_UNIT },
		{ "hugepages", no_argument, NULL, OPT_HUGEPAGES },
		{ "irqstat-snapshot", no_argument, NULL, OPT_SNAPSHOT },
		{ "cache", required_argument, NULL, 'C' },
		{ "mode", required_argument, NULL, 'm' },
		{ "unit", required_argument, NULL, 'u' },
		{ "frac-bits", required_argument, NULL, 'b' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "end-fence", required_argument, NULL, OPT_END_FENCE },
		{ "subtract-overhead", no_argument, NULL, OPT_SUBTRACT },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":w:n:c:p:C:m:u:b:f:o:qh", longopts,
				NULL)) != -1) {
		if (c == 'h') {
			run_usage(stdout);
			return 1;
		}
		if (c == '?' || c == ':') {
			getopt_fail(c, argv);
			return -1;
		}
		if (run_option(c))
			return -1;
	}
	if (optind < argc) {
		usage_err("unexpected argument '%s'", argv[optind]);
		return -1;
	}
	if (g.cache == WL_CACHE_REMOTE && g.mode == 1) {
		usage_err("--cache remote needs --mode serial: the other workers dirty the lines between samples");
		return -1;
	}
	return 0;
}

static void run_cmdline(int argc, char **argv)
{
	size_t used = 0;
	int i;

	for (i = 0; i < argc && used < sizeof(g.cmdline); i++)
		used += (size_t)snprintf(g.cmdline + used, sizeof(g.cmdline) - used,
					 "%s%s", i ? " " : "", argv[i]);
}

/* ---- bench run: setting up ---- */

static int run_topo(void)
{
	char allowed[256];
	int bad = -1, ret;

	ret = topo_init(&g.topo, g.cpus, (unsigned int)g.possible, &bad);
	if (!ret)
		return 0;
	topo_allowed_list(allowed, sizeof(allowed));
	if (ret == -EINVAL)
		usage_err("--cpus: '%s' is not a CPU list this process may use (allowed: %s)",
			  g.cpus, allowed);
	else if (ret == -EPERM)
		usage_err("--cpus: CPU %d is not one this process may use (allowed: %s)",
			  bad, allowed);
	else if (ret == -ERANGE)
		usage_err("--possible-cpus: %lu is too few: worker CPU %d needs at least %d",
			  (unsigned long)g.possible, bad, bad + 1);
	else
		fprintf(stderr, "%s: reading the CPU topology: %s\n", prog, strerror(-ret));
	return ret == -ENOENT || ret == -ENOMEM ? EXIT_ENV : EXIT_USAGE;
}

/*
 * Lock memory where that cannot backfire: with a finite RLIMIT_MEMLOCK
 * and no CAP_IPC_LOCK, MCL_FUTURE would make later mappings (thread
 * stacks) fail, so we only say what we lack. MCL_ONFAULT locks pages as
 * they are touched and never faults in the lazy per-CPU reservation.
 */
static void run_mlock(void)
{
	struct rlimit rl;

	if (geteuid() && !getrlimit(RLIMIT_MEMLOCK, &rl) && rl.rlim_cur != RLIM_INFINITY) {
		snprintf(g.mlock, sizeof(g.mlock), "no (RLIMIT_MEMLOCK %lu KiB; root or ulimit -l unlimited)",
			 (unsigned long)(rl.rlim_cur >> 10));
		return;
	}
	if (mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT))
		snprintf(g.mlock, sizeof(g.mlock), "no (%s)", strerror(errno));
	else
		snprintf(g.mlock, sizeof(g.mlock), "yes");
}

static int run_setup(void)
{
	int ret = run_topo();

	if (ret)
		return ret;
	tsc_init(&g.tsc);
	if (!g.tsc.usable)
		fprintf(stderr, "%s: warning: %s; timing with clock_gettime(CLOCK_MONOTONIC_RAW) in ns\n",
			prog, g.tsc.why);
	g.pcpu = pcpu_create(g.topo.nr_possible, g.pcpu_unit, g.topo.node,
			     g.topo.numa, g.hugepages);
	if (!g.pcpu) {
		fprintf(stderr, "%s: reserving %u per-CPU units of %lu bytes (%lu MiB of address space; ulimit -v?): %s\n",
			prog, g.topo.nr_possible, (unsigned long)g.pcpu_unit,
			(unsigned long)(g.topo.nr_possible * g.pcpu_unit >> 20), strerror(errno));
		return EXIT_ENV;
	}
	run_mlock();
	return 0;
}

static void run_check_nodes(void)
{
	void *p = pcpu_alloc(g.pcpu, 4, 4);
	int bad = -1, got = -1, n;

	n = p ? pcpu_check_nodes(g.pcpu, p, g.topo.node, &bad, &got) : -ENOMEM;
	if (n == 0)
		snprintf(g.pcpu_nodes, sizeof(g.pcpu_nodes),
			 "ok: all %u units on their CPU's node (move_pages)", g.topo.nr_possible);
	else if (n > 0)
		snprintf(g.pcpu_nodes, sizeof(g.pcpu_nodes),
			 "MISMATCH: %d of %u units elsewhere, first CPU %d on node %d, expected %d",
			 n, g.topo.nr_possible, bad, got, g.topo.node[bad]);
	else
		snprintf(g.pcpu_nodes, sizeof(g.pcpu_nodes), "unchecked (%s)", strerror(-n));
	pcpu_free(g.pcpu, p, 4);
}

/* ---- bench run: measuring ---- */

static void run_progress(uint64_t done, uint64_t total, bool last)
{
	if (g.quiet || !isatty(STDERR_FILENO))
		return;
	if (last)
		fprintf(stderr, "\r%60s\r", "");
	else
		fprintf(stderr, "\r%s: %lu/%lu samples (%lu%%)", prog,
			(unsigned long)done, (unsigned long)total,
			(unsigned long)(done * 100 / total));
}

/*
 * The main thread waits for SIGINT/SIGTERM (blocked everywhere, so only
 * sigtimedwait sees them) while the workers run: the first one stops
 * them at the next sample boundary, a second one leaves at once.
 */
static void run_wait(void)
{
	struct timespec tick = { 0, 200 * 1000 * 1000 };
	sigset_t set;
	int sig;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	while (engine_running(g.e)) {
		sig = sigtimedwait(&set, NULL, &tick);
		if (sig > 0 && g.signo) {
			outfile_abort(&g.out);
			_exit(128 + sig);
		}
		if (sig > 0) {
			g.signo = sig;
			engine_stop(g.e);
		}
		run_progress(engine_progress(g.e), 2 * g.samples, false);
	}
	run_progress(0, 0, true);
}

static int run_measure(void)
{
	struct engine_cfg cfg = {
		.wl = g.wl,
		.topo = &g.topo,
		.pcpu = g.pcpu,
		.tsc = &g.tsc,
		.samples = g.samples,
		.frac_bits = (unsigned int)g.frac_bits,
		.cycles = g.unit == 1 && g.tsc.usable,
		.parallel = g.mode == 1,
		.subtract_overhead = g.subtract,
		.cache = (enum wl_cache)g.cache,
		.fence = (enum tsc_fence)g.fence,
		.irqstat_size = g.snapshot ? 8 : 4,
	};
	int ret;

	g.e = engine_create(&cfg);
	if (!g.e) {
		fprintf(stderr, "%s: %s\n", prog, strerror(errno));
		return EXIT_ENV;
	}
	ret = engine_start(g.e);
	if (ret) {
		fprintf(stderr, "%s: starting %u worker threads: %s\n", prog,
			g.e->nr_workers, strerror(-ret));
		return EXIT_ENV;
	}
	run_wait();
	ret = engine_join(g.e);
	if (ret) {
		const struct engine_worker *w = g.e->w;

		while (!w->err)
			w++;
		fprintf(stderr, "%s: worker on CPU %u: %s: %s\n", prog, w->cpu,
			w->err_what, strerror(-w->err));
		return EXIT_ENV;
	}
	return 0;
}

/* ---- bench run: reporting ---- */

static int run_report(void)
{
	static struct csv_meta meta;
	struct report_run r = {
		.e = g.e,
		.unit = g.unit == 1 && g.tsc.usable ? "cycles" : "ns",
		.partial = engine_partial(g.e),
	};
	unsigned int v;
	int ret = EXIT_ENV;

	for (v = 0; v < WL_NR_VARIANTS; v++) {
		r.merged[v] = kstats_hist_create((unsigned int)g.frac_bits);
		if (!r.merged[v] || engine_merge(g.e, v, r.merged[v]))
			goto out_free;
	}
	run_check_nodes();
	report_meta(&meta, &r, g.cmdline, g.mlock, g.pcpu_nodes,
		    (unsigned long)g.pcpu_unit, g.hugepages);
	if (g.output) {
		ret = report_csv(g.out.f, &r, &meta) ? -EIO : outfile_commit(&g.out);
		if (ret) {
			fprintf(stderr, "%s: writing %s: %s\n", prog, g.output, strerror(-ret));
			ret = EXIT_ENV;
			goto out_free;
		}
	}
	report_print(stdout, (enum report_format)g.format, &r, &meta);
	ret = finish_stdout();
out_free:
	for (v = 0; v < WL_NR_VARIANTS; v++)
		kstats_hist_free(r.merged[v]);
	return ret;
}

static int cmd_run(int argc, char **argv)
{
	sigset_t all;
	int ret;

	/*
	 * Every signal blocked from here on, in this thread and so in every
	 * worker: SIGINT/SIGTERM only reach run_wait()'s sigtimedwait, even
	 * during setup, so no exit path leaves the temp output file behind.
	 */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	run_defaults();
	run_cmdline(argc, argv);
	ret = run_parse(argc, argv);
	if (ret)
		return ret > 0 ? finish_stdout() : EXIT_USAGE;
	/* output paths are checked before any measuring starts */
	if (g.output && (ret = outfile_open(&g.out, g.output))) {
		usage_err("--output: %s: %s", g.output, strerror(-ret));
		return EXIT_USAGE;
	}
	ret = run_setup();
	if (!ret)
		ret = run_measure();
	if (!ret && g.e)
		ret = run_report();
	if (!ret && g.signo)
		ret = 128 + g.signo;
	outfile_abort(&g.out);
	engine_destroy(g.e);
	pcpu_destroy(g.pcpu);
	topo_fini(&g.topo);
	return ret;
}

/* ---- bench list ---- */

static int cmd_list(int argc, char **argv)
{
	const struct workload *w;
	unsigned int i;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("Usage: bench list\nList the workloads that bench run -w can time.\n");
		return finish_stdout();
	}
	if (argc > 1) {
		usage_err("unexpected argument '%s'", argv[1]);
		return EXIT_USAGE;
	}
	for_each_workload(w, i) {
		printf("%-16s %s\n", w->name, w->summary);
		printf("%-16s   old: %s\n%-16s   new: %s\n", "", w->variant[WL_OLD],
		       "", w->variant[WL_NEW]);
	}
	return finish_stdout();
}

/* ---- bench calibrate ---- */

static int calibrate_print(void)
{
	unsigned int i;

	printf("tsc_hz: %lu\ntsc_hz_source: %s\ninvariant_tsc: %s\nclocksource: %s\n",
	       (unsigned long)g.tsc.hz, g.tsc.hz_source,
	       g.tsc.invariant ? "yes" : "no", g.tsc.clocksource);
	printf("clock: %s\n", g.tsc.usable ? "tsc" : "clock_gettime (no usable TSC)");
	if (!g.tsc.usable) {
		printf("why: %s\n", g.tsc.why);
		return finish_stdout();
	}
	printf("end_fence: %s\n\n# empty timed region, 4096 samples per CPU\n"
	       "%-5s %-5s %12s %15s %10s\n", tsc_fence_names[g.fence], "cpu", "node",
	       "min_cycles", "median_cycles", "median_ns");
	for (i = 0; i < g.e->nr_workers; i++)
		printf("%-5u %-5d %12lu %15lu %10lu\n", g.e->w[i].cpu, g.e->w[i].node,
		       (unsigned long)g.e->w[i].overhead_min,
		       (unsigned long)g.e->w[i].overhead_median,
		       (unsigned long)tsc_to_ns(&g.tsc, g.e->w[i].overhead_median));
	return finish_stdout();
}

static int cmd_calibrate(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "cpus", required_argument, NULL, 'c' },
		{ "end-fence", required_argument, NULL, OPT_END_FENCE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, ret;

	run_defaults();
	g.wl = &wl_empty;
	g.samples = 0;
	g.quiet = true;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":c:h", longopts, NULL)) != -1) {
		if (c == 'h') {
			printf("Usage: bench calibrate [--cpus LIST] [--end-fence sfence|mfence|none]\n"
			       "Print the TSC frequency and how it was found, whether the TSC is\n"
			       "invariant, the clocksource, and the empty timed region's cost per CPU.\n");
			return finish_stdout();
		}
		if (c == '?' || c == ':') {
			getopt_fail(c, argv);
			return EXIT_USAGE;
		}
		if (run_option(c))
			return EXIT_USAGE;
	}
	if (optind < argc) {
		usage_err("unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	ret = run_setup();
	if (!ret && g.tsc.usable)
		ret = run_measure();
	if (!ret)
		ret = calibrate_print();
	engine_destroy(g.e);
	pcpu_destroy(g.pcpu);
	topo_fini(&g.topo);
	return ret;
}

/* ---- reading CSVs: bench show, bench compare ---- */

/* csv_read() with the message, naming file and line. 0 or EXIT_USAGE. */
static int load_csv(const char *path, struct csv_file *cf)
{
	unsigned long line = 0;
	char why[256] = "";
	FILE *f = fopen(path, "r");
	int ret;

	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		return EXIT_USAGE;
	}
	ret = csv_read(f, cf, &line, why, sizeof(why));
	fclose(f);
	if (!ret)
		return 0;
	if (ret != -EINVAL)
		snprintf(why, sizeof(why), "%s", strerror(-ret));
	if (line)
		fprintf(stderr, "%s: %s:%lu: %s\n", prog, path, line, why);
	else
		fprintf(stderr, "%s: %s: %s\n", prog, path, why);
	return EXIT_USAGE;
}

static const char *const show_formats[] = { "table", "kstats", "bars", NULL };

static int show_print(const struct csv_series *s, int format)
{
	if (format == 1)
		return kstats_hist_print_kstats(s->h, stdout, s->cpu, 1);
	if (format == 2)
		return kstats_hist_print_bars(s->h, stdout);
	return kstats_hist_print_table(s->h, stdout);
}

static int cmd_show(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "workload", required_argument, NULL, 'w' },
		{ "variant", required_argument, NULL, 'v' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *wl = NULL, *variant = "old", *cpu_s = "all";
	static struct csv_file cf;
	struct csv_series *s;
	int c, format = 0, ret;
	uint64_t cpu = 0;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":w:v:c:f:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'w':
			wl = optarg;
			break;
		case 'v':
			variant = optarg;
			break;
		case 'c':
			cpu_s = optarg;
			if (strcmp(optarg, "all") &&
			    parse_u64(optarg, 0, TOPO_MAX_CPUS - 1, "--cpu", &cpu))
				return EXIT_USAGE;
			break;
		case 'f':
			format = parse_enum(optarg, show_formats, "--format");
			if (format < 0)
				return EXIT_USAGE;
			break;
		case 'h':
			printf("Usage: bench show [-w WORKLOAD] [-v VARIANT] [-c CPU|all] [-f table|kstats|bars] FILE.csv\n"
			       "Print one histogram of a kstats-bench CSV: by default the merged ('all')\n"
			       "old variant of the file's first workload, as the patch's table.\n");
			return finish_stdout();
		default:
			getopt_fail(c, argv);
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 1) {
		usage_err("needs exactly one CSV file");
		return EXIT_USAGE;
	}
	ret = load_csv(argv[optind], &cf);
	if (ret)
		return ret;
	s = csv_find(&cf, wl ? wl : cf.s[0].workload, variant,
		     strcmp(cpu_s, "all") ? (int)cpu : -1);
	if (!s) {
		fprintf(stderr, "%s: %s: no rows for workload %s, variant %s, cpu %s\n",
			prog, argv[optind], wl ? wl : cf.s[0].workload, variant, cpu_s);
		ret = EXIT_USAGE;
	} else {
		show_print(s, format);
		ret = finish_stdout();
	}
	csv_file_free(&cf);
	return ret;
}

/* ---- bench compare ---- */

/*
 * Default thresholds, per metric, sit above the A/A noise measured on the
 * development VM (README, "The regression gate"): two runs of one build
 * moved the mean by up to 8.7%, p50 and p90 by one bucket (12.5-25% at
 * frac_bits 2), p99 by up to 52% (one or two buckets of a thin tail).
 * The U test alone rejects nearly every A/A pair at 8192 samples.
 */
#define COMPARE_ALPHA		0.01
static const double compare_default_pct[] = {
	[CMP_P50] = 30, [CMP_P90] = 30, [CMP_P99] = 60, [CMP_MEAN] = 15,
};

struct compare_opts {
	int metric;			/* enum cmp_metric: p50, p90, p99, mean */
	double threshold;		/* fraction, > 0 */
	double alpha;			/* in (0, 1) */
	int format;			/* 0 table, 1 csv */
};

static const char *const compare_metrics[] = { "p50", "p90", "p99", "mean", NULL };
static const enum cmp_metric compare_metric_ids[] = { CMP_P50, CMP_P90, CMP_P99, CMP_MEAN };
static const char *const compare_formats[] = { "table", "csv", NULL };

/* a real number in (lo, hi) (hi 0: unbounded) */
static int parse_double(const char *arg, double lo, double hi, const char *name,
			const char *range, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (!errno && end != arg && !*end && isfinite(v) && v > lo && (hi == 0 || v < hi)) {
		*out = v;
		return 0;
	}
	usage_err("%s: '%s' is not a number %s", name, arg, range);
	return -1;
}

static void compare_usage(void)
{
	printf("Usage: bench compare [OPTIONS] BEFORE.csv AFTER.csv\n"
	       "Compare every (workload, variant) present in both CSVs: p50, p90, p99,\n"
	       "p99.9, mean, max and samples, before, after and delta, and a verdict.\n"
	       "A regression needs both a two-sided Mann-Whitney U test on the bucketed\n"
	       "samples with p < alpha and the metric slower by more than the threshold.\n"
	       "\n"
	       "  -m, --metric M      p50, p90, p99 or mean (default mean)\n"
	       "  -t, --threshold PCT relative change that counts, > 0 (default: mean 15,\n"
	       "                      p50 30, p90 30, p99 60: above the A/A noise, see README)\n"
	       "  -a, --alpha A       significance level, in (0,1) (default %g)\n"
	       "  -f, --format FMT    table (default) or csv\n"
	       "  -h, --help          this text\n"
	       "\n"
	       "Exit: 0 no significant regression, 1 a regression, 2 bad input.\n",
	       COMPARE_ALPHA);
}

/* Returns 0 to run, 1 after --help, -1 after a usage error. */
static int compare_parse(int argc, char **argv, struct compare_opts *o)
{
	static const struct option longopts[] = {
		{ "metric", required_argument, NULL, 'm' },
		{ "threshold", required_argument, NULL, 't' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	double pct;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":m:t:a:f:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			c = parse_enum(optarg, compare_metrics, "--metric");
			if (c < 0)
				return -1;
			o->metric = compare_metric_ids[c];
			break;
		case 't':
			if (parse_double(optarg, 0, 0, "--threshold", "> 0 (percent)", &pct))
				return -1;
			o->threshold = pct / 100;
			break;
		case 'a':
			if (parse_double(optarg, 0, 1, "--alpha", "in (0,1)", &o->alpha))
				return -1;
			break;
		case 'f':
			o->format = parse_enum(optarg, compare_formats, "--format");
			if (o->format < 0)
				return -1;
			break;
		case 'h':
			compare_usage();
			return 1;
		default:
			getopt_fail(c, argv);
			return -1;
		}
	}
	if (argc - optind != 2) {
		usage_err("needs two CSV files, BEFORE and AFTER");
		return -1;
	}
	return 0;
}

/* the files must measure the same thing the same way */
static int compare_check(const char *bp, const struct csv_file *b,
			 const char *ap, const struct csv_file *a)
{
	const char *bu = csv_meta_get(&b->meta, "unit");
	const char *au = csv_meta_get(&a->meta, "unit");

	if (b->frac_bits != a->frac_bits) {
		fprintf(stderr, "%s: %s has frac_bits %u, %s has %u: buckets differ\n",
			prog, bp, b->frac_bits, ap, a->frac_bits);
		return EXIT_USAGE;
	}
	if (bu && au && strcmp(bu, au)) {
		fprintf(stderr, "%s: %s is in %s, %s in %s\n", prog, bp, bu, ap, au);
		return EXIT_USAGE;
	}
	return 0;
}

/* every merged series of BEFORE that AFTER has too */
static int compare_all(const struct compare_opts *o, const struct csv_file *b,
		       const struct csv_file *a, unsigned int *nr_reg)
{
	unsigned int i, pairs = 0, improved = 0;
	struct cmp_result r;

	if (o->format == 1)
		printf(CMP_CSV_COLUMNS "\n");
	for (i = 0; i < b->n; i++) {
		const struct csv_series *s = &b->s[i], *t;

		t = s->cpu < 0 ? csv_find(a, s->workload, s->variant, -1) : NULL;
		if (!t || cmp_hist(s->h, t->h, (enum cmp_metric)o->metric,
				   o->threshold, o->alpha, &r))
			continue;
		pairs++;
		*nr_reg += r.regression;
		improved += r.improvement;
		if (o->format == 1)
			cmp_print_csv(stdout, s->workload, s->variant, &r);
		else
			cmp_print_table(stdout, s->workload, s->variant, &r,
					(enum cmp_metric)o->metric, o->threshold, o->alpha);
	}
	if (o->format == 0 && pairs)
		printf("COMPARE pairs=%u regressions=%u improvements=%u verdict=%s\n",
		       pairs, *nr_reg, improved, *nr_reg ? "regression" : "ok");
	return pairs;
}

static int cmd_compare(int argc, char **argv)
{
	struct compare_opts o = {
		.metric = CMP_MEAN,
		.threshold = -1,
		.alpha = COMPARE_ALPHA,
	};
	static struct csv_file before, after;
	unsigned int nr_reg = 0;
	int ret;

	ret = compare_parse(argc, argv, &o);
	if (ret)
		return ret > 0 ? finish_stdout() : EXIT_USAGE;
	if (o.threshold < 0)
		o.threshold = compare_default_pct[o.metric] / 100;
	ret = load_csv(argv[optind], &before);
	if (ret)
		return ret;
	ret = load_csv(argv[optind + 1], &after);
	if (ret)
		goto out_free_before;
	ret = compare_check(argv[optind], &before, argv[optind + 1], &after);
	if (ret)
		goto out_free_after;
	if (!compare_all(&o, &before, &after, &nr_reg)) {
		fprintf(stderr, "%s: %s and %s share no (workload, variant) with rows for cpu 'all'\n",
			prog, argv[optind], argv[optind + 1]);
		ret = EXIT_USAGE;
		goto out_free_after;
	}
	ret = finish_stdout();
	if (!ret && nr_reg)
		ret = EXIT_REGRESSION;
out_free_after:
	csv_file_free(&after);
out_free_before:
	csv_file_free(&before);
	return ret;
}

/* ---- bench hist ---- */

enum hist_format { FMT_TABLE, FMT_KSTATS, FMT_CSV, FMT_BARS };

static const char *const hist_formats[] = { "table", "kstats", "csv", "bars",
					    NULL };

struct hist_opts {
	uint64_t frac_bits;		/* sub-bucket bits, 0..12 */
	int format;			/* enum hist_format */
	const char *path;		/* input file, "-" = stdin */
};

static void hist_usage(FILE *f)
{
	fprintf(f,
		"Usage: bench hist [OPTIONS] [FILE|-]\n"
		"Print the kstats histogram of a list of samples: one non-negative decimal\n"
		"integer (0..2^64-1) per line, blank lines ignored, from FILE or stdin.\n"
		"\n"
		"  -b, --frac-bits B   sub-buckets per power of two = 2^B, 0..12 (default 2)\n"
		"  -f, --format FMT    table   the patch's table (default)\n"
		"                      kstats  kstats' own 'slot ... CPUS ...' lines\n"
		"                      csv     the kstats-bench CSV schema\n"
		"                      bars    a terminal histogram, bpftrace style\n"
		"  -h, --help          this text\n"
		"\n"
		"Exit: 0 done, 2 bad usage or input (the message names file and line).\n");
}

/* Returns 0 to run, 1 after --help, -1 after a usage error. */
static int hist_parse(int argc, char **argv, struct hist_opts *o)
{
	static const struct option longopts[] = {
		{ "frac-bits", required_argument, NULL, 'b' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":b:f:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'b':
			if (parse_u64(optarg, 0, KSTATS_HIST_FRAC_BITS_MAX,
				      "--frac-bits", &o->frac_bits))
				return -1;
			break;
		case 'f':
			o->format = parse_enum(optarg, hist_formats, "--format");
			if (o->format < 0)
				return -1;
			break;
		case 'h':
			hist_usage(stdout);
			return 1;
		default:
			getopt_fail(c, argv);
			return -1;
		}
	}
	if (argc - optind > 1) {
		usage_err("one input file at most, got '%s' and '%s'",
			  argv[optind], argv[optind + 1]);
		return -1;
	}
	if (optind < argc)
		o->path = argv[optind];
	return 0;
}

static int hist_print(const struct hist_opts *o, const struct kstats_hist *h,
		      uint64_t n)
{
	switch (o->format) {
	case FMT_KSTATS:
		return kstats_hist_print_kstats(h, stdout, -1, 1);
	case FMT_CSV:
		printf("# kstats-bench-csv 1\n# command: bench hist\n"
		       "# source: %s\n# frac_bits: %u\n# unit: input\n"
		       "# samples: %lu\n# partial: no\n"
		       "workload,variant,cpu,node,bucket,lo_ns,hi_ns,samples,avg_ns,percentile\n",
		       o->path, kstats_hist_frac_bits(h), (unsigned long)n);
		return kstats_hist_print_csv(h, stdout, "hist,input,all,-1");
	case FMT_BARS:
		return kstats_hist_print_bars(h, stdout);
	default:
		return kstats_hist_print_table(h, stdout);
	}
}

static int cmd_hist(int argc, char **argv)
{
	struct hist_opts o = {
		.frac_bits = KSTATS_HIST_FRAC_BITS_DEFAULT,
		.format = FMT_TABLE,
		.path = "-",
	};
	struct kstats_hist *h;
	unsigned long line;
	uint64_t n;
	FILE *f;
	int ret;

	ret = hist_parse(argc, argv, &o);
	if (ret)
		return ret > 0 ? finish_stdout() : EXIT_USAGE;
	f = strcmp(o.path, "-") ? fopen(o.path, "r") : stdin;
	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", prog, o.path, strerror(errno));
		return EXIT_USAGE;
	}
	h = kstats_hist_create((unsigned int)o.frac_bits);
	if (!h) {
		fprintf(stderr, "%s: %s\n", prog, strerror(errno));
		ret = EXIT_ENV;
		goto out_close;
	}
	ret = samples_read(f, h, &line, &n);
	if (ret) {
		fprintf(stderr, "%s: %s:%lu: %s\n", prog,
			f == stdin ? "<stdin>" : o.path, line,
			samples_strerror(ret));
		ret = EXIT_USAGE;
		goto out_free_hist;
	}
	hist_print(&o, h, n);
	ret = finish_stdout();
out_free_hist:
	kstats_hist_free(h);
out_close:
	if (f != stdin)
		fclose(f);
	return ret;
}

/* ---- main ---- */

static void usage(FILE *f)
{
	const struct cmd *c;

	fprintf(f, "Usage: bench [--help | --version] COMMAND [OPTIONS]\n"
		   "kstats-bench: kstats latency histograms of kernel code paths.\n\n"
		   "Commands:\n");
	for_each_cmd(c)
		fprintf(f, "  %-10s %s\n", c->name, c->summary);
	fprintf(f, "\n'bench COMMAND --help' describes one command.\n"
		   "Exit: 0 done, 1 regression (compare), 2 bad usage or input,\n"
		   "3 the environment refused, 130/143 interrupted.\n");
}

int main(int argc, char **argv)
{
	static char name[64];
	const struct cmd *c;

	/* a closed stdout is an EPIPE for finish_stdout(), not a kill */
	signal(SIGPIPE, SIG_IGN);
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return finish_stdout();
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("bench (kstats-bench) %s\n", BENCH_VERSION);
		return finish_stdout();
	}
	for_each_cmd(c) {
		if (strcmp(argv[1], c->name))
			continue;
		snprintf(name, sizeof(name), "bench %s", c->name);
		prog = name;
		argv[1] = name;
		return c->fn(argc - 1, argv + 1);
	}
	usage_err("'%s' is not a command", argv[1]);
	return EXIT_USAGE;
}
