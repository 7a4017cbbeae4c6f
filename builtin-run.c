// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-run.c - bench run, bench list, bench calibrate: set up the
 * topology, the clock and the per-CPU allocator, start the pinned
 * workers, wait for them (or for SIGINT/SIGTERM), report.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "kstats_hist.h"
#include "lib/csv.h"
#include "lib/engine.h"
#include "lib/outfile.h"
#include "lib/pcpu.h"
#include "lib/report.h"
#include "lib/samples.h"
#include "lib/topo.h"
#include "lib/tsc.h"
#include "workloads/workload.h"

/* ---- bench run ---- */

enum { OPT_PCPU_UNIT = 256, OPT_HUGEPAGES, OPT_SNAPSHOT, OPT_END_FENCE,
       OPT_SUBTRACT, OPT_IRQ_THREADS, OPT_IRQ_RATE, OPT_LIVE_IRQS,
       OPT_PCPU_LAYOUT, OPT_STAMPS, OPT_DROP_DISTURBED };

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
	int pcpu_layout;		/* --pcpu-layout, enum pcpu_layout */
	int stamps;			/* --stamps, enum tsc_stamps */
	bool drop_disturbed;		/* --drop-disturbed */
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
	uint64_t irq_threads;		/* --irq-threads, 0 = one per worker */
	uint64_t irq_rate;		/* --irq-rate, lookups/s per thread */
	uint64_t live_irqs;		/* --live-irqs */
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
	g.pcpu_unit = 256u << 10;	/* u262144 of NR_CPUS=8192 distro kernels */
	g.frac_bits = KSTATS_HIST_FRAC_BITS_DEFAULT;
	g.cache = WL_CACHE_KERNEL;
	g.format = REPORT_TABLE;
	g.fence = TSC_FENCE_SFENCE;	/* see lib/tsc.h for the measurements */
	g.irq_rate = 100000;		/* a busy device's interrupt rate */
	g.live_irqs = 64;
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
		"      --pcpu-layout L       embedded (default): node groups, each one contiguous\n"
		"                            region on 2 MiB pages where granted, as the kernel's\n"
		"                            first chunk; vmalloc: 4 KiB pages, as later chunks\n"
		"      --pcpu-unit SIZE      bytes between per-CPU units, a power of two >= 4K\n"
		"                            (K/M/G suffixes; default 256K)\n"
		"      --hugepages           vmalloc layout: back the units with transparent huge\n"
		"                            pages (2 MiB per unit: 8192 possible CPUs need 16 GiB)\n"
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
		"      --stamps S            fenced (default): mfence;lfence;rdtsc .. rdtscp\n"
		"                            kstats: a bare rdtsc at both ends, as kstats stamps\n"
		"      --drop-disturbed      leave interrupted or preempted samples out of the\n"
		"                            histograms (their count is recorded either way)\n"
		"  irqdesc-sparse only:\n"
		"      --irq-threads N       interrupt threads, 1..possible CPUs (default: one per worker)\n"
		"      --irq-rate R          lookups per second per thread, 0 = flat out (default 100000)\n"
		"      --live-irqs N         descriptors live at once, 1..65536 (default 64)\n"
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
	bench_err("%s: '%s' is not a power of two from 4K to 1G", name, arg);
	return -1;
}

static int run_option(int c)
{
	switch (c) {
	case 'w':
		g.wl = workload_find(optarg);
		if (!g.wl) {
			bench_err("--workload: '%s' is not a workload (see 'bench list')", optarg);
			return -1;
		}
		return 0;
	case 'n':
		return bench_parse_u64(optarg, 1, UINT64_C(1) << 32, "--samples", &g.samples);
	case 'c':
		g.cpus = optarg;
		return 0;
	case 'p':
		return bench_parse_u64(optarg, 1, TOPO_MAX_CPUS, "--possible-cpus", &g.possible);
	case OPT_PCPU_UNIT:
		return parse_size(optarg, "--pcpu-unit", &g.pcpu_unit);
	case OPT_HUGEPAGES:
		g.hugepages = true;
		return 0;
	case OPT_PCPU_LAYOUT:
		g.pcpu_layout = bench_parse_enum(optarg, pcpu_layout_names, "--pcpu-layout");
		return g.pcpu_layout < 0 ? -1 : 0;
	case OPT_STAMPS:
		g.stamps = bench_parse_enum(optarg, tsc_stamps_names, "--stamps");
		return g.stamps < 0 ? -1 : 0;
	case OPT_DROP_DISTURBED:
		g.drop_disturbed = true;
		return 0;
	case OPT_SNAPSHOT:
		g.snapshot = true;
		return 0;
	case 'C':
		return (g.cache = bench_parse_enum(optarg, report_caches, "--cache")) < 0 ? -1 : 0;
	case 'm':
		return (g.mode = bench_parse_enum(optarg, run_modes, "--mode")) < 0 ? -1 : 0;
	case 'u':
		return (g.unit = bench_parse_enum(optarg, run_units, "--unit")) < 0 ? -1 : 0;
	case 'b':
		return bench_parse_u64(optarg, 0, KSTATS_HIST_FRAC_BITS_MAX, "--frac-bits", &g.frac_bits);
	case 'f':
		return (g.format = bench_parse_enum(optarg, report_formats, "--format")) < 0 ? -1 : 0;
	case 'o':
		g.output = optarg;
		return 0;
	case OPT_END_FENCE:
		return (g.fence = bench_parse_enum(optarg, tsc_fence_names, "--end-fence")) < 0 ? -1 : 0;
	case OPT_SUBTRACT:
		g.subtract = true;
		return 0;
	case OPT_IRQ_THREADS:
		return bench_parse_u64(optarg, 1, TOPO_MAX_CPUS, "--irq-threads", &g.irq_threads);
	case OPT_IRQ_RATE:
		return bench_parse_u64(optarg, 0, 100000000, "--irq-rate", &g.irq_rate);
	case OPT_LIVE_IRQS:
		return bench_parse_u64(optarg, 1, 65536, "--live-irqs", &g.live_irqs);
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
		{ "pcpu-layout", required_argument, NULL, OPT_PCPU_LAYOUT },
		{ "stamps", required_argument, NULL, OPT_STAMPS },
		{ "drop-disturbed", no_argument, NULL, OPT_DROP_DISTURBED },
		{ "irqstat-snapshot", no_argument, NULL, OPT_SNAPSHOT },
		{ "cache", required_argument, NULL, 'C' },
		{ "mode", required_argument, NULL, 'm' },
		{ "unit", required_argument, NULL, 'u' },
		{ "frac-bits", required_argument, NULL, 'b' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "end-fence", required_argument, NULL, OPT_END_FENCE },
		{ "subtract-overhead", no_argument, NULL, OPT_SUBTRACT },
		{ "irq-threads", required_argument, NULL, OPT_IRQ_THREADS },
		{ "irq-rate", required_argument, NULL, OPT_IRQ_RATE },
		{ "live-irqs", required_argument, NULL, OPT_LIVE_IRQS },
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
			bench_getopt_fail(c, argv);
			return -1;
		}
		if (run_option(c))
			return -1;
	}
	if (optind < argc) {
		bench_err("unexpected argument '%s'", argv[optind]);
		return -1;
	}
	if (g.cache == WL_CACHE_REMOTE && g.wl->no_remote) {
		bench_err("--cache remote: %s's interrupt threads already leave the counters dirty in other CPUs' caches; use kernel or cold",
			  g.wl->name);
		return -1;
	}
	if (g.cache == WL_CACHE_REMOTE && g.mode == 1) {
		bench_err("--cache remote needs --mode serial: the other workers dirty the lines between samples");
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
		bench_err("--cpus: '%s' is not a CPU list this process may use (allowed: %s)",
			  g.cpus, allowed);
	else if (ret == -EPERM)
		bench_err("--cpus: CPU %d is not one this process may use (allowed: %s)",
			  bad, allowed);
	else if (ret == -ERANGE)
		bench_err("--possible-cpus: %lu is too few: worker CPU %d needs at least %d",
			  (unsigned long)g.possible, bad, bad + 1);
	else
		fprintf(stderr, "%s: reading the CPU topology: %s\n", bench_prog, strerror(-ret));
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
	if (g.irq_threads > g.topo.nr_possible) {
		/* each interrupt thread owns one possible CPU's counter */
		bench_err("--irq-threads: %lu is more than the %u possible CPUs",
			  (unsigned long)g.irq_threads, g.topo.nr_possible);
		return EXIT_USAGE;
	}
	tsc_init(&g.tsc);
	if (!g.tsc.usable)
		fprintf(stderr, "%s: warning: %s; timing with clock_gettime(CLOCK_MONOTONIC_RAW) in ns\n",
			bench_prog, g.tsc.why);
	if (g.pcpu_layout == PCPU_VMALLOC)
		g.pcpu = pcpu_create(g.topo.nr_possible, g.pcpu_unit, g.topo.node,
				     g.topo.numa, g.hugepages);
	else	/* KSB_PCPU_NO_THP=1: a system that refuses THP, for tests */
		g.pcpu = pcpu_create_embedded(g.topo.nr_possible, g.pcpu_unit, g.topo.node,
					      g.topo.numa, getenv("KSB_PCPU_NO_THP") != NULL);
	if (!g.pcpu) {
		fprintf(stderr, "%s: reserving %u per-CPU units of %lu bytes (%lu MiB of address space; ulimit -v?): %s\n",
			bench_prog, g.topo.nr_possible, (unsigned long)g.pcpu_unit,
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
		fprintf(stderr, "\r%s: %lu/%lu samples (%lu%%)", bench_prog,
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
		.stamps = (enum tsc_stamps)g.stamps,
		.drop_disturbed = g.drop_disturbed,
		.irqstat_size = g.snapshot ? 8 : 4,
		.irq_threads = (unsigned int)g.irq_threads,
		.irq_rate = (unsigned long)g.irq_rate,
		.live_irqs = (unsigned int)g.live_irqs,
	};
	int ret;

	g.e = engine_create(&cfg);
	if (!g.e) {
		fprintf(stderr, "%s: %s\n", bench_prog, strerror(errno));
		return EXIT_ENV;
	}
	ret = engine_start(g.e);
	if (ret) {
		fprintf(stderr, "%s: starting %u worker threads: %s\n", bench_prog,
			g.e->nr_workers, strerror(-ret));
		return EXIT_ENV;
	}
	run_wait();
	ret = engine_join(g.e);
	if (ret) {
		const struct engine_worker *w = g.e->w;

		while (!w->err)
			w++;
		fprintf(stderr, "%s: worker on CPU %u: %s: %s\n", bench_prog, w->cpu,
			w->err_what, strerror(-w->err));
		return EXIT_ENV;
	}
	return 0;
}

/* ---- bench run: reporting ---- */

static int run_report(void)
{
	static struct csv_meta meta;
	static struct wl_stat stats[REPORT_MAX_STATS];
	struct report_run r = {
		.e = g.e,
		.unit = g.unit == 1 && g.tsc.usable ? "cycles" : "ns",
		.partial = engine_partial(g.e),
		.stats = stats,
	};
	unsigned int v;
	int ret = EXIT_ENV, wl_err = 0;

	for (v = 0; v < WL_NR_VARIANTS; v++) {
		r.merged[v] = kstats_hist_create((unsigned int)g.frac_bits);
		if (!r.merged[v] || engine_merge(g.e, v, r.merged[v]))
			goto out_free;
	}
	run_check_nodes();
	if (g.wl->stats)
		r.nr_stats = g.wl->stats(stats, REPORT_MAX_STATS, &wl_err);
	report_meta(&meta, &r, g.cmdline, g.mlock, g.pcpu_nodes,
		    (unsigned long)g.pcpu_unit, g.hugepages);
	if (g.output) {
		ret = report_csv(g.out.f, &r, &meta) ? -EIO : outfile_commit(&g.out);
		if (ret) {
			fprintf(stderr, "%s: writing %s: %s\n", bench_prog, g.output, strerror(-ret));
			ret = EXIT_ENV;
			goto out_free;
		}
	}
	report_print(stdout, (enum report_format)g.format, &r, &meta);
	ret = bench_finish_stdout();
	if (wl_err) {
		fprintf(stderr, "%s: %s failed its own check (see its metadata, e.g. counters_reconciled)\n",
			bench_prog, g.wl->name);
		ret = EXIT_ENV;
	}
out_free:
	for (v = 0; v < WL_NR_VARIANTS; v++)
		kstats_hist_free(r.merged[v]);
	return ret;
}

int cmd_run(int argc, char **argv)
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
		return ret > 0 ? bench_finish_stdout() : EXIT_USAGE;
	/* output paths are checked before any measuring starts */
	if (g.output && (ret = outfile_open(&g.out, g.output))) {
		bench_err("--output: %s: %s", g.output, strerror(-ret));
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

int cmd_list(int argc, char **argv)
{
	const struct workload *w;
	unsigned int i;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("Usage: bench list\nList the workloads that bench run -w can time.\n");
		return bench_finish_stdout();
	}
	if (argc > 1) {
		bench_err("unexpected argument '%s'", argv[1]);
		return EXIT_USAGE;
	}
	for_each_workload(w, i) {
		printf("%-16s %s\n", w->name, w->summary);
		printf("%-16s   old: %s\n%-16s   new: %s\n", "", w->variant[WL_OLD],
		       "", w->variant[WL_NEW]);
	}
	return bench_finish_stdout();
}

/* ---- bench calibrate ---- */

static int calibrate_print(void)
{
	const bool tsc = g.tsc.usable;
	unsigned int i;

	printf("tsc_hz: %lu\ntsc_hz_source: %s\ninvariant_tsc: %s\nclocksource: %s\n",
	       (unsigned long)g.tsc.hz, g.tsc.hz_source,
	       g.tsc.invariant ? "yes" : "no", g.tsc.clocksource);
	printf("clock: %s\n", tsc ? "tsc" : "clock_gettime (no usable TSC)");
	if (!tsc)
		printf("why: %s\n", g.tsc.why);
	printf("end_fence: %s\n\n# empty timed region, 4096 samples per CPU%s\n",
	       tsc_fence_names[g.fence], tsc ? "" : ", timed with clock_gettime");
	if (tsc)
		printf("%-5s %-5s %12s %15s %10s\n", "cpu", "node", "min_cycles",
		       "median_cycles", "median_ns");
	else
		printf("%-5s %-5s %12s %15s\n", "cpu", "node", "min_ns", "median_ns");
	for (i = 0; i < g.e->nr_workers; i++) {
		const struct engine_worker *w = &g.e->w[i];

		printf("%-5u %-5d %12lu %15lu", w->cpu, w->node,
		       (unsigned long)w->overhead_min, (unsigned long)w->overhead_median);
		if (tsc)
			printf(" %10lu", (unsigned long)tsc_to_ns(&g.tsc, w->overhead_median));
		putchar('\n');
	}
	return bench_finish_stdout();
}

int cmd_calibrate(int argc, char **argv)
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
			return bench_finish_stdout();
		}
		if (c == '?' || c == ':') {
			bench_getopt_fail(c, argv);
			return EXIT_USAGE;
		}
		if (run_option(c))
			return EXIT_USAGE;
	}
	if (optind < argc) {
		bench_err("unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	ret = run_setup();
	if (!ret)
		ret = run_measure();
	if (!ret)
		ret = calibrate_print();
	engine_destroy(g.e);
	pcpu_destroy(g.pcpu);
	topo_fini(&g.topo);
	return ret;
}
