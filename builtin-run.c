// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-run.c - bench run: set up the topology, the clock and the
 * per-CPU allocator (builtin-run-setup.c), start the pinned workers, wait
 * for them (or for SIGINT/SIGTERM), report; with --runs R, each run in a
 * child process (lib/measure/runs.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "kstats_hist.h"
#include "lib/results/csv.h"
#include "lib/measure/engine.h"
#include "lib/report/format.h"
#include "lib/report/kcidb.h"
#include "lib/subcmd/outfile.h"
#include "lib/subcmd/outset.h"
#include "lib/measure/pcpu.h"
#include "lib/measure/runset.h"
#include "lib/results/results.h"
#include "lib/measure/runs.h"
#include "lib/subcmd/samples.h"
#include "lib/host/testbed.h"
#include "lib/measure/topo.h"
#include "lib/measure/tsc.h"
#include "workloads/registry.h"
#include "builtin-run.h"

/* ---- bench run ---- */

static const char *const run_modes[] = { "serial", "parallel", NULL };
static const char *const run_refs[] = { "auto", "on", "off", NULL };
static const char *const run_units[] = { "ns", "cycles", NULL };

/*
 * The one state, whose address cmd_run() passes down (perf's struct
 * record); run_opts[] names it, a table's values being addresses.
 */
static struct run_global run_global;

static void run_defaults(struct run_global *g)
{
	g->wl = &wl_irqdesc_alloc;
	g->samples = 8192;		/* as in the patch's table */
	g->runs = 1;
	g->pcpu_unit = 256u << 10;	/* u262144 of NR_CPUS=8192 distro kernels */
	g->frac_bits = KSTATS_HIST_FRAC_BITS_DEFAULT;
	g->cache = WL_CACHE_KERNEL;
	g->format = FORMAT_TABLE;
	g->also = (struct outset)OUTSET_INIT_PICK(formats);
	g->fence = TSC_FENCE_SFENCE;	/* why: docs/design.md, "Timing" */
}

/* -w NAME: into o->value, the state's wl */
static int run_workload(const struct opt *o, const char *arg, char *why, size_t len)
{
	const struct workload **wl = o->value;

	*wl = workload_find(arg);
	if (!*wl)
		snprintf(why, len, "--%s: '%s' is not a workload (see 'bench list')",
			 o->long_name, arg);
	return *wl ? 0 : -EINVAL;
}

/* SIZE with an optional K, M or G (powers of 1024), a power of two */
static int run_size(const struct opt *o, const char *arg, char *why, size_t len)
{
	static const char units[] = "KMG";
	size_t n = strlen(arg);
	unsigned int shift = 0;
	const char *u;
	uint64_t v;

	if (n > 1 && (u = strchr(units, arg[n - 1] & ~0x20)) && *u) {
		shift = 10 * (unsigned int)(u - units + 1);
		n--;
	}
	if (!samples_parse_line(arg, n, &v) && v && v <= (UINT64_C(1) << 30) >> shift) {
		v <<= shift;
		if (v >= PCPU_MIN_UNIT && !(v & (v - 1))) {
			*(uint64_t *)o->value = v;
			return 0;
		}
	}
	snprintf(why, len, "--%s: '%s' is not a power of two from 4K to 1G", o->long_name, arg);
	return -EINVAL;
}

static const char run_head[] =
	"Usage: bench run [OPTIONS]\n"
	"Time a workload's old and new paths on one pinned worker per CPU, as the\n"
	"patch did with kstats, and print the kstats table of each.\n";

static const char run_tail[] =
	"Exit: 0 done, 2 bad usage, 3 the environment refused or writing an output\n"
	"failed, 130/143 interrupted (what was measured is still written, marked\n"
	"partial: yes).\n";

static const struct opt run_opts[] = {
	OPT_GROUP("What to time:"),
	OPT_CALL('w', "workload", &run_global.wl, run_workload, "NAME",
		 "what to time (default irqdesc-alloc; see bench list)"),
	OPT_U64('n', "samples", &run_global.samples, 1, UINT64_C(1) << 32, "N",
		"samples per variant, all CPUs, 1..2^32 (default 8192)"),
	OPT_U64('R', "runs", &run_global.runs, 1, RESULTS_MAX_RUNS, "R",
		"R independent runs, each in a fresh process (fresh\n"
		"per-CPU area, descriptors, workers), 1..1000\n"
		"(default 1); the CSV keeps each run and the merge;\n"
		"bench compare needs 5 or more runs a side"),
	OPT_GROUP("CPUs and per-CPU memory:"),
	OPT_STRING('c', "cpus", &run_global.cpus, "LIST",
		   "worker CPUs, numactl syntax (default: every\n"
		   "allowed CPU)"),
	OPT_U64('p', "possible-cpus", &run_global.possible, 1, NR_CPUS_MAX, "N",
		"emulate N possible CPUs, 1.." BENCH_STR(NR_CPUS_MAX) " (default: the\n"
		"real count); refused by the workloads that time\n"
		"the running kernel (docs/workloads.md)"),
	OPT_ENUM(0, "pcpu-layout", &run_global.pcpu_layout, pcpu_layout_names, "L",
		 "embedded (default): node groups, each one contiguous\n"
		 "region on 2 MiB pages where granted, as the kernel's\n"
		 "first chunk; vmalloc: 4 KiB pages, as later chunks"),
	OPT_CALL(0, "pcpu-unit", &run_global.pcpu_unit, run_size, "SIZE",
		 "bytes between per-CPU units, a power of two >= 4K\n"
		 "(K/M/G suffixes; default 256K)"),
	OPT_FLAG(0, "hugepages", &run_global.hugepages,
		 "vmalloc layout: back the units with transparent huge\n"
		 "pages (2 MiB per unit: 8192 CPUs need 16 GiB)"),
	OPT_GROUP("Cache state and schedule:"),
	OPT_ENUM('C', "cache", &run_global.cache, runset_caches, "MODE",
		 "kernel (default): lines as the allocator's zeroing\n"
		 "left them; cold: every line the region touches\n"
		 "flushed first; remote: each worker dirties its own\n"
		 "CPU's counter first (kernel only for the workloads\n"
		 "that time the running kernel)"),
	OPT_ENUM('m', "mode", &run_global.mode, run_modes, "MODE",
		 "serial (default): one sample at a time machine-wide\n"
		 "parallel: every worker at once (not with --cache\n"
		 "remote)"),
	OPT_GROUP("Timing:"),
	OPT_ENUM('u', "unit", &run_global.unit, run_units, "UNIT", "ns (default) or cycles"),
	OPT_U64('b', "frac-bits", &run_global.frac_bits, 0, KSTATS_HIST_FRAC_BITS_MAX, "B",
		"histogram sub-bucket bits, 0..12 (default 2)"),
	OPT_ENUM(0, "end-fence", &run_global.fence, tsc_fence_names, "F",
		 "sfence (default), mfence or none before the end stamp"),
	OPT_FLAG(0, "subtract-overhead", &run_global.subtract,
		 "subtract each CPU's median empty-region cost"),
	OPT_ENUM(0, "stamps", &run_global.stamps, tsc_stamps_names, "S",
		 "fenced (default): mfence;lfence;rdtsc .. rdtscp\n"
		 "kstats: a bare rdtsc at both ends, as kstats stamps"),
	OPT_FLAG(0, "drop-disturbed", &run_global.drop_disturbed,
		 "leave interrupted or preempted samples out of the\n"
		 "histograms (their count is recorded either way)"),
	OPT_ENUM(0, "reference", &run_global.reference, run_refs, "WHEN",
		 "time a reference loop (512 cold stores) before each\n"
		 "old/new pair, written as variant 'reference', by\n"
		 "which bench compare takes the machine's drift out:\n"
		 "auto (default) with --cache cold only, on, off"),
	OPT_GROUP("Output:"),
	OPT_FORMAT('f', "format", &run_global.format, formats, "FMT", "what goes to stdout:"),
	OPT_STRING('o', "output", &run_global.output, "FILE",
		   "also write the CSV (per-CPU and merged) to FILE: a\n"
		   "regular file is replaced whole (a symlink's target,\n"
		   "mode kept), a FIFO or device written in place;\n"
		   "- is stdout, and then the report goes to stderr"),
	OPT_ALSO_PICK(&run_global.also),
	OPT_CALL(0, "label", &run_global.who, bench_opt_label, "KEY=VALUE",
		 "record label_KEY: VALUE in the metadata (a commit,\n"
		 "branch, build id; KEY of a-z, 0-9, _); repeatable"),
	OPT_ORIGIN(&run_global.who, bench_opt_origin, ", kept in the file"),
	OPT_FLAG('q', "quiet", &run_global.quiet, "no progress on stderr"),
	OPT_END()
};

/*
 * A workload of the running kernel (wl->real_kernel) pays for the
 * kernel's real possible CPUs, which no emulation in this process
 * changes, and for kernel lines that user space can neither flush nor
 * dirty: -p and --cache cold/remote would label the figures with a
 * state they were not taken in. Returns true after saying why.
 */
static bool run_refuse_emulation(struct run_global *g, char *why, size_t len)
{
	if (g->possible) {
		snprintf(why, len, "--possible-cpus: %s times the running kernel, whose possible CPUs are its own (/sys/devices/system/cpu/possible); boot it with more (bench vm -p N) instead",
			 g->wl->name);
		return true;
	}
	if (g->cache != WL_CACHE_KERNEL) {
		snprintf(why, len, "--cache %s: %s times the running kernel, whose cache lines user space cannot flush or dirty; only --cache kernel applies",
			 runset_caches[g->cache], g->wl->name);
		return true;
	}
	return false;
}

/* the options together, after @p parsed @n tables @tab: 0, or -EINVAL with @why */
static int run_check_given(struct run_global *g, const struct opt_parser *p,
			   const struct opt *const *tab, unsigned int n, char *why, size_t len)
{
	char who[256];
	unsigned int t, k;

	for (t = 1; t < n; t++) {
		if (p->given[t] && !workload_takes(g->wl, tab[t])) {
			k = workload_takers(tab[t], who, sizeof(who));
			snprintf(why, len, "--%s: only -w %s %s it, not %s", p->given[t]->long_name,
				 who, k > 1 ? "take" : "takes", g->wl->name);
			return -EINVAL;
		}
	}
	if (g->cache == WL_CACHE_REMOTE && g->wl->no_remote) {
		snprintf(why, len, "--cache remote: %s's interrupt threads already leave the counters dirty in other CPUs' caches; use kernel or cold",
			 g->wl->name);
		return -EINVAL;
	}
	if (g->cache == WL_CACHE_REMOTE && g->mode == RUN_PARALLEL) {
		snprintf(why, len, "--cache remote needs --mode serial: the other workers dirty the lines between samples");
		return -EINVAL;
	}
	return g->wl->real_kernel && run_refuse_emulation(g, why, len) ? -EINVAL : 0;
}

/* Returns 0 to run, 1 after --help, -1 after a usage error. */
static int run_parse(struct run_global *g, int argc, char **argv)
{
	const struct opt *tab[OPT_MAX_TABLES];
	struct opt_parser p = { .tab = tab, .flags = OPT_NO_OPERANDS };
	unsigned int n = workload_tables(tab, OPT_MAX_TABLES, run_opts);
	int ret = bench_options(&p, run_head, run_tail, argc, argv);

	if (ret || !run_check_given(g, &p, tab, n, p.why, sizeof(p.why)))
		return ret;
	bench_err("%s", p.why);
	return -1;
}

int cmd_run_check(int argc, char **argv, char *why, size_t len)
{
	const struct opt *tab[OPT_MAX_TABLES];
	struct opt_parser p = { .tab = tab, .flags = OPT_NO_OPERANDS };
	unsigned int n = workload_tables(tab, OPT_MAX_TABLES, run_opts);
	struct run_global *g = &run_global;

	run_defaults(g);
	return bench_check_parse(&p, argc, argv, why, len) ?:
	       run_check_given(g, &p, tab, n, why, len);
}

/* ---- bench run: measuring ---- */

/* bench_wait_engine()'s progress: the samples of every variant, all workers */
static void run_progress(void *priv, uint64_t done)
{
	const struct run_global *g = priv;
	uint64_t total = wl_nr_variants(g->wl) * g->samples;

	fprintf(stderr, "%lu/%lu samples (%lu%%)", (unsigned long)done,
		(unsigned long)total, (unsigned long)(done * 100 / total));
}

/*
 * The main thread waits for SIGINT/SIGTERM while the workers run: the
 * first one stops them at the next sample boundary, a second one leaves
 * at once.
 */
static void run_wait(struct run_global *g)
{
	const struct bench_engine_wait w = {
		.e = g->e, .out = &g->out, .also = &g->also, .progress = run_progress,
		.priv = g, .tick_ms = 200, .quiet = g->quiet, .signo = &g->signo,
	};

	bench_wait_engine(&w);
}

/*
 * --reference auto: with --cache cold only, where every sample starts
 * from flushed lines and the loop, flushed before and after, leaves them
 * so; elsewhere it evicts lines the workload keeps warm (the figures:
 * docs/design.md, "The gate's reference loop").
 */
static bool run_reference(struct run_global *g)
{
	return g->reference == RUN_REF_ON ||
	       (g->reference == RUN_REF_AUTO && g->cache == WL_CACHE_COLD);
}

static int run_measure(struct run_global *g)
{
	struct engine_cfg cfg = {
		.wl = g->wl,
		.topo = &g->topo,
		.pcpu = g->pcpu,
		.tsc = &g->tsc,
		.samples = g->samples,
		.frac_bits = (unsigned int)g->frac_bits,
		.cycles = g->unit == RUN_CYCLES && g->tsc.usable,
		.parallel = g->mode == RUN_PARALLEL,
		.subtract_overhead = g->subtract,
		.cache = g->cache,
		.fence = g->fence,
		.stamps = g->stamps,
		.drop_disturbed = g->drop_disturbed,
		.reference = run_reference(g),
	};
	int ret;

	g->e = engine_create(&cfg);
	if (!g->e)
		return bench_refused("%s", strerror(errno));
	ret = engine_start(g->e);
	if (ret)
		return bench_refused("starting %u worker threads: %s", engine_nr_workers(g->e),
				     strerror(-ret));
	run_wait(g);
	ret = engine_join(g->e);
	if (ret) {
		char why[256];

		return bench_refused("%s", engine_why(g->e, ret, why, sizeof(why)));
	}
	return 0;
}

/* ---- bench run: reporting ---- */

/* the testbed, the workload's options, who wrote it (lib/host/testbed.h) */
static void run_meta_testbed(struct run_global *g, struct meta *m)
{
	char opts[512];

	opt_values(g->wl->options, opts, sizeof(opts));
	meta_set(m, "workload_options", "%s", opts);
	testbed_meta(&g->tb, m, NULL);
	bench_meta_origin(m, &g->who);
}

static int run_report(struct run_global *g)
{
	static struct wl_stat stats[RUNSET_MAX_STATS];
	struct runset r = {
		.e = g->e,
		.unit = g->unit == RUN_CYCLES && g->tsc.usable ? "cycles" : "ns",
		.partial = engine_partial(g->e),
		.stats = stats,
	};
	struct results *res = results_create((unsigned int)g->frac_bits);
	struct kstats_hist *ref = NULL;
	unsigned int v;
	int ret, wl_err = 0;

	for (v = 0; res && v < WL_NR_VARIANTS; v++) {
		r.merged[v] = kstats_hist_create((unsigned int)g->frac_bits);
		if (!r.merged[v] || engine_merge(g->e, v, r.merged[v]))
			goto out_nomem;
	}
	if (res && engine_reference(g->e)) {
		r.ref = ref = kstats_hist_create((unsigned int)g->frac_bits);
		if (!ref || engine_merge(g->e, ENGINE_REFERENCE, ref))
			goto out_nomem;
	}
	run_check_nodes(g);
	if (g->wl->stats)
		r.nr_stats = g->wl->stats(stats, RUNSET_MAX_STATS, &wl_err);
	if (!res || runset_results(res, &r))
		goto out_nomem;
	runset_meta(&res->meta, &r, g->cmdline, g->mlock, g->pcpu_nodes,
		    (unsigned long)g->pcpu_unit, g->hugepages);
	run_meta_testbed(g, &res->meta);
	if (g->run_out && (csv_write(g->run_out, res) || fflush(g->run_out)))
		ret = bench_refused("run %u: its CSV for the parent: %s", g->run_idx,
				    strerror(errno));
	else if (g->run_out)	/* a --runs child: its CSV to the parent, no report */
		ret = EXIT_DONE;
	else
		ret = bench_report(&g->out, g->output, (unsigned int)g->format, &g->also, res);
	if (!ret && wl_err)
		ret = bench_refused("%s failed its own check (see its metadata, e.g. counters_reconciled)",
				    g->wl->name);
	goto out_free;
out_nomem:
	ret = bench_nomem();
out_free:
	kstats_hist_free(ref);
	for (v = 0; v < WL_NR_VARIANTS; v++)
		kstats_hist_free(r.merged[v]);
	results_free(res);
	return ret;
}

/* one run in this process: set up, measure, report */
static int run_once(struct run_global *g)
{
	int ret = run_setup(g);

	if (!ret)
		ret = run_measure(g);
	if (!ret && g->e)
		ret = run_report(g);
	if (!ret && g->signo)
		ret = 128 + g->signo;
	return ret;
}

/* ---- bench run --runs R: one fresh process per run (lib/measure/runs.h) ---- */

/* in the child: run @run, its CSV to @out, nothing printed */
static int runs_child(void *priv, unsigned int run, FILE *out)
{
	struct run_global *g = priv;

	memset(&g->out, 0, sizeof(g->out));	/* the parent's -o and --also, not ours */
	g->output = NULL;
	g->also.n = 0;
	g->run_idx = run;
	g->run_out = out;
	g->quiet = true;
	return run_once(g);
}

/* bench_wait() on one run's child */
static int runs_poll_child(void *priv)
{
	return runs_poll(((struct run_global *)priv)->child);
}

static void runs_stop(void *priv, int sig)
{
	runs_signal(((struct run_global *)priv)->child, sig);
}

static void runs_leave(void *priv)
{
	struct run_global *g = priv;

	runs_signal(g->child, SIGKILL);
	outfile_abort(&g->out);
	outset_abort(&g->also);
}

static void runs_progress(void *priv)
{
	struct run_global *g = priv;

	fprintf(stderr, "run %u/%lu", g->child->run, (unsigned long)g->runs);
}

/* the first SIGINT/SIGTERM is passed on to the child, a second one leaves at once */
static int runs_wait(void *priv, struct runs_child *c)
{
	struct run_global *g = priv;
	const struct bench_wait w = {
		.poll = runs_poll_child, .stop = runs_stop, .leave = runs_leave,
		.progress = runs_progress, .priv = g, .tick_ms = 200, .wake = SIGCHLD,
		.quiet = g->quiet, .signo = &g->signo,
	};

	g->child = c;
	return bench_wait(&w);
}

/* bench run --runs R: measure in children, then write and print the set */
static int runs_main(struct run_global *g)
{
	struct runs rs = { .asked = (unsigned int)g->runs };
	const struct runs_ops ops = {
		.child = runs_child, .wait = runs_wait, .priv = g, .signo = &g->signo,
	};
	struct runs_error err;
	int ret;

	/* waitpid() needs its children: an inherited SIG_IGN would reap them */
	signal(SIGCHLD, SIG_DFL);
	ret = runs_measure(&rs, &ops, &err);
	if (ret == -ECHILD && err.rc > 0) {
		ret = err.rc;	/* the child said why */
	} else if (ret) {
		ret = bench_refused("run %u: %s", err.run, err.why);
	} else if (rs.n) {
		runs_meta(&rs, g->cmdline, g->signo);
		ret = bench_report(&g->out, g->output, (unsigned int)g->format, &g->also,
				   rs.all);
	}
	if (!ret && g->signo)
		ret = 128 + g->signo;
	runs_fini(&rs);
	return ret;
}

int cmd_run(int argc, char **argv)
{
	struct run_global *g = &run_global;
	char *in;
	int ret;

	bench_block_signals(NULL);
	run_defaults(g);
	bench_cmdline(g->cmdline, sizeof(g->cmdline), argc, argv);
	ret = run_parse(g, argc, argv);
	if (ret)
		return ret > 0 ? bench_finish_stdout() : EXIT_USAGE;
	/*
	 * output paths are checked before any measuring starts; the
	 * workload's input (file-read's --path) is read: neither -o nor
	 * --also may replace it
	 */
	in = g->wl->input ? (char *)g->wl->input() : NULL;
	ret = bench_open_outputs(&in, in ? 1 : 0, &g->out, g->output, &g->also);
	if (ret)
		return ret;
	/* the host once, before any timing; --runs children inherit it */
	ret = bench_testbed(&g->tb);
	if (!ret)
		ret = g->runs > 1 ? runs_main(g) : run_once(g);
	outfile_abort(&g->out);
	outset_abort(&g->also);
	engine_destroy(g->e);
	pcpu_destroy(g->pcpu);
	topo_fini(&g->topo);
	return ret;
}
