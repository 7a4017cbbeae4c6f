// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-calibrate.c - bench calibrate: the TSC frequency and how it
 * was found, whether it is invariant, the clocksource, and the cost of
 * an empty timed region on every CPU, as the engine's workers measure
 * it before their first sample (the empty workload, no samples).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "kstats_hist.h"
#include "lib/measure/engine.h"
#include "lib/measure/topo.h"
#include "lib/measure/tsc.h"
#include "workloads/registry.h"

/*
 * configuration, then run state: one instance, which the option table
 * points into; every function takes it by pointer (as perf's builtins
 * take their struct record *rec)
 */
static struct calibrate {
	const char *cpus;		/* --cpus, NULL = every allowed CPU */
	enum tsc_fence fence;		/* --end-fence */

	struct topo topo;		/* CPUs and nodes */
	struct tsc_info tsc;		/* clock */
	struct engine *e;		/* one worker per CPU, no samples */
} calibrate;

static const struct opt calibrate_opts[] = {
	OPT_STRING('c', "cpus", &calibrate.cpus, "LIST",
		   "CPUs to calibrate, numactl syntax (default: every\n"
		   "allowed CPU)"),
	OPT_ENUM(0, "end-fence", &calibrate.fence, tsc_fence_names, "F",
		 "sfence (default), mfence or none before the end stamp"),
	OPT_END()
};

static const char calibrate_head[] =
	"Usage: bench calibrate [OPTIONS]\n"
	"Print the TSC frequency and how it was found, whether the TSC is\n"
	"invariant, the clocksource, and the empty timed region's cost per CPU.\n";

static const char calibrate_tail[] =
	"Exit: 0 done, 2 bad usage, 3 the environment refused (a CPU this process\n"
	"may not use, a worker that could not start) or writing the output failed.\n";

static int calibrate_print(const struct calibrate *c)
{
	const bool tsc = c->tsc.usable;
	struct engine_worker_results w;
	unsigned int i;

	printf("tsc_hz: %lu\ntsc_hz_source: %s\ninvariant_tsc: %s\nclocksource: %s\n",
	       (unsigned long)c->tsc.hz, c->tsc.hz_source,
	       c->tsc.invariant ? "yes" : "no", c->tsc.clocksource);
	printf("clock: %s\n", tsc ? "tsc" : "clock_gettime (no usable TSC)");
	if (!tsc)
		printf("why: %s\n", c->tsc.why);
	printf("end_fence: %s\n\n# empty timed region, 4096 samples per CPU%s\n",
	       tsc_fence_names[c->fence], tsc ? "" : ", timed with clock_gettime");
	if (tsc)
		printf("%-5s %-5s %12s %15s %10s\n", "cpu", "node", "min_cycles",
		       "median_cycles", "median_ns");
	else
		printf("%-5s %-5s %12s %15s\n", "cpu", "node", "min_ns", "median_ns");
	for (i = 0; i < engine_nr_workers(c->e); i++) {
		engine_worker_results(c->e, i, &w);
		printf("%-5u %-5d %12lu %15lu", w.cpu, w.node, (unsigned long)w.overhead_min,
		       (unsigned long)w.overhead_median);
		if (tsc)
			printf(" %10lu", (unsigned long)tsc_to_ns(&c->tsc, w.overhead_median));
		putchar('\n');
	}
	return bench_finish_stdout();
}

/* the workers measure the empty region while they set up, then leave */
static int calibrate_measure(struct calibrate *c)
{
	const struct engine_cfg cfg = {
		.wl = &wl_empty, .topo = &c->topo, .tsc = &c->tsc,
		.frac_bits = KSTATS_HIST_FRAC_BITS_DEFAULT, .fence = c->fence,
	};
	sigset_t old;
	char why[512];
	int bad = -1, ret;
	const char *opt;

	ret = topo_init(&c->topo, c->cpus, 0, &bad);
	if (ret) {
		opt = topo_why(ret, c->cpus, 0, bad, why, sizeof(why));
		if (!opt)
			return bench_refused("%s", why);
		bench_err("--%s: %s", opt, why);
		return EXIT_USAGE;
	}
	tsc_init(&c->tsc);
	c->e = engine_create(&cfg);
	/* the workers run with every signal blocked (lib/measure/engine.h) */
	bench_block_signals(&old);
	ret = c->e ? engine_start(c->e) : -errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!ret)
		ret = engine_join(c->e);
	if (ret)
		return bench_refused("%s", c->e ? engine_why(c->e, ret, why, sizeof(why)) :
				     strerror(-ret));
	return 0;
}

int cmd_calibrate(int argc, char **argv)
{
	const struct opt *tab[] = { calibrate_opts, NULL };
	struct opt_parser p = { .tab = tab, .flags = OPT_NO_OPERANDS };
	struct calibrate *c = &calibrate;
	int ret;

	c->fence = TSC_FENCE_SFENCE;	/* as bench run's default */
	ret = bench_options(&p, calibrate_head, calibrate_tail, argc, argv);
	if (ret)
		return ret > 0 ? bench_finish_stdout() : EXIT_USAGE;
	ret = calibrate_measure(c);
	if (!ret)
		ret = calibrate_print(c);
	engine_destroy(c->e);
	topo_fini(&c->topo);
	return ret;
}
