// SPDX-License-Identifier: GPL-2.0
/*
 * test_engine.c - the engine with a workload of one variant
 * (wl->nr_variants 1, lib/measure/workload.h): every sample is variant 0, the
 * other has no histogram, the run is complete at -n samples, and the
 * report holds one series and lone figures where a pair would be; a
 * two-variant workload still gets both, ABBA, -n each; --runs folds a
 * lone samples_taken as one figure.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "kstats_hist.h"
#include "lib/measure/engine.h"
#include "lib/results/meta.h"
#include "lib/measure/runset.h"
#include "lib/results/results.h"
#include "lib/measure/topo.h"
#include "lib/measure/tsc.h"

#define SAMPLES	50

/* calls per variant, over the one worker (CPU 0): no race */
static unsigned int prepared[WL_NR_VARIANTS], sampled[WL_NR_VARIANTS];

static int count_setup(const struct wl_env *env, void **priv)
{
	assert_null(env->pcpu);
	*priv = NULL;
	return 0;
}

static int count_prepare(void *priv, enum wl_variant v, void **obj)
{
	(void)priv;
	prepared[v]++;
	*obj = NULL;
	return 0;
}

static void count_old(void *priv)
{
	(void)priv;
	sampled[WL_OLD]++;
}

/* a workload of one variant must never get here */
static void count_new(void *priv)
{
	(void)priv;
	sampled[WL_NEW]++;
}

static void count_finish(void *priv, enum wl_variant v)
{
	(void)priv;
	(void)v;
}

static void count_teardown(void *priv)
{
	(void)priv;
}

static struct workload count_wl = {
	.name = "count",
	.summary = "counts its calls",
	.label = { "one", "two" },
	.variant = { "the first", "the second" },
	.setup = count_setup,
	.prepare = count_prepare,
	.sample = { count_old, count_new },
	.finish = count_finish,
	.teardown = count_teardown,
};

static struct topo topo;
static struct tsc_info tsc;

static int group_setup(void **state)
{
	int bad = -1;

	(void)state;
	tsc_init(&tsc);
	return topo_init(&topo, "0", 0, &bad);
}

static int group_teardown(void **state)
{
	(void)state;
	topo_fini(&topo);
	return 0;
}

/* a run of @nv variants (1, or 0 for both), serial or @parallel */
static struct engine *run(unsigned int nv, bool parallel)
{
	struct engine_cfg cfg = {
		.wl = &count_wl, .topo = &topo, .tsc = &tsc, .samples = SAMPLES,
		.frac_bits = 2, .parallel = parallel, .cache = WL_CACHE_KERNEL,
	};
	struct engine *e;

	memset(prepared, 0, sizeof(prepared));
	memset(sampled, 0, sizeof(sampled));
	count_wl.nr_variants = nv;
	e = engine_create(&cfg);
	assert_non_null(e);
	assert_int_equal(engine_start(e), 0);
	while (engine_running(e))
		usleep(1000);
	assert_int_equal(engine_join(e), 0);
	return e;
}

static void one_variant(bool parallel)
{
	struct engine *e = run(1, parallel);
	struct engine_worker_results w;

	assert_int_equal(wl_nr_variants(&count_wl), 1);
	assert_int_equal(sampled[WL_OLD], SAMPLES);
	assert_int_equal(prepared[WL_OLD], SAMPLES);
	assert_int_equal(sampled[WL_NEW], 0);
	assert_int_equal(prepared[WL_NEW], 0);
	assert_false(engine_partial(e));
	assert_int_equal(engine_progress(e), SAMPLES);
	engine_worker_results(e, 0, &w);
	assert_non_null(w.hist[WL_OLD]);
	assert_int_equal(kstats_hist_total(w.hist[WL_OLD]), SAMPLES);
	assert_null(w.hist[WL_NEW]);
	engine_destroy(e);
}

static void test_one_variant_serial(void **state)
{
	(void)state;
	one_variant(false);
}

static void test_one_variant_parallel(void **state)
{
	(void)state;
	one_variant(true);
}

/* the report: one series merged and per CPU, lone figures, no variant_two */
static void test_one_variant_report(void **state)
{
	struct engine *e = run(1, false);
	struct runset r = { .e = e, .unit = "ns" };
	struct results *res = results_create(2);
	unsigned int i;

	(void)state;
	for (i = 0; i < WL_NR_VARIANTS; i++) {
		r.merged[i] = kstats_hist_create(2);
		assert_int_equal(engine_merge(e, i, r.merged[i]), 0);
	}
	assert_int_equal(kstats_hist_total(r.merged[WL_NEW]), 0);
	assert_int_equal(runset_results(res, &r), 0);
	runset_meta(&res->meta, &r, "bench run -w count", "yes", "none", 4096, false);
	assert_int_equal(res->n, 2);		/* merged, CPU 0 */
	for (i = 0; i < res->n; i++)
		assert_string_equal(res->s[i].variant, "one");
	assert_int_equal(kstats_hist_total(res->s[0].h), SAMPLES);
	assert_string_equal(meta_get(&res->meta, "samples_taken"), "50");
	assert_string_equal(meta_get(&res->meta, "variant_one"), "the first");
	assert_null(meta_get(&res->meta, "variant_two"));
	assert_null(strchr(meta_get(&res->meta, "disturbed"), '/'));
	assert_null(strchr(meta_get(&res->meta, "disturbed_per_cpu"), '/'));
	for (i = 0; i < WL_NR_VARIANTS; i++)
		kstats_hist_free(r.merged[i]);
	results_free(res);
	engine_destroy(e);
}

/* two variants, as every irqdesc workload: both, -n each, ABBA */
static void test_two_variants(void **state)
{
	struct engine *e = run(0, false);
	struct engine_worker_results w;

	(void)state;
	assert_int_equal(wl_nr_variants(&count_wl), WL_NR_VARIANTS);
	assert_int_equal(sampled[WL_OLD], SAMPLES);
	assert_int_equal(sampled[WL_NEW], SAMPLES);
	assert_false(engine_partial(e));
	assert_int_equal(engine_progress(e), 2 * SAMPLES);
	engine_worker_results(e, 0, &w);
	assert_int_equal(kstats_hist_total(w.hist[WL_NEW]), SAMPLES);
	engine_destroy(e);
}

/* one run's set: a series and "samples_taken: @taken" */
static struct results *one_run(const char *taken)
{
	struct results_label l = {
		.workload = "count", .variant = "one", .run = RESULTS_RUN_ALL,
		.cpu = RESULTS_CPU_ALL, .node = -1,
	};
	struct results *r = results_create(2);
	struct kstats_hist *h = kstats_hist_create(2);

	kstats_hist_record(h, 100);
	assert_int_equal(results_add_hist(r, &l, h), 0);
	meta_set(&r->meta, "samples_taken", "%s", taken);
	meta_set(&r->meta, "disturbed", "%s", "3");
	kstats_hist_free(h);
	return r;
}

/* --runs: lone figures sum as one figure, pairs still as pairs */
static void test_runs_fold_lone_figures(void **state)
{
	struct results *all = results_create(2), *one;
	unsigned int i;

	(void)state;
	for (i = 1; i <= 3; i++) {
		one = one_run("50");
		assert_int_equal(results_add_run(all, one, i, 0), 0);
		results_free(one);
	}
	assert_string_equal(meta_get(&all->meta, "samples_taken"), "150");
	assert_string_equal(meta_get(&all->meta, "disturbed"), "9");
	results_free(all);
	all = results_create(2);
	for (i = 1; i <= 2; i++) {
		one = one_run("50/40");
		assert_int_equal(results_add_run(all, one, i, 0), 0);
		results_free(one);
	}
	assert_string_equal(meta_get(&all->meta, "samples_taken"), "100/80");
	results_free(all);
}

/*
 * Under ASan: a cancelled thread's exit unwinds past the alternate signal
 * stack ASan set up, and its sigaltstack() interceptor then reports a
 * stack-buffer-overflow of its own; without that stack the run is clean.
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "use_sigaltstack=0";
}

/* ---- a sample that never returns: the stop's grace, then cancelled ---- */

static int block_fd[2] = { -1, -1 };	/* a pipe nobody writes */
static unsigned int block_after;	/* samples before the one that blocks */

static void block_old(void *priv)
{
	char c;

	(void)priv;
	if (block_after && block_after--)
		return;
	while (read(block_fd[0], &c, 1) != 0)
		;	/* cancelled in read(): a file that never reaches EOF */
}

/* stopped with one worker inside read(): the run ends, what it took kept */
static void test_stop_cancels_a_blocked_sample(void **state)
{
	struct workload wl = count_wl;
	struct engine_cfg cfg = {
		.wl = &wl, .topo = &topo, .tsc = &tsc, .samples = SAMPLES,
		.frac_bits = 2, .cache = WL_CACHE_KERNEL,
	};
	struct engine *e;
	unsigned int ticks = 0;

	(void)state;
	assert_int_equal(pipe(block_fd), 0);
	wl.nr_variants = 1;
	wl.sample[0] = block_old;
	block_after = 10;
	e = engine_create(&cfg);
	assert_non_null(e);
	assert_int_equal(engine_start(e), 0);
	while (engine_progress(e) < 10)
		usleep(1000);
	engine_stop(e);
	/* a bound on a hang (100 s), not a measurement: the grace is 0.5 s */
	while (engine_running(e) && ticks++ < 100000)
		usleep(1000);
	assert_false(engine_running(e));
	assert_int_equal(engine_join(e), 0);
	assert_int_equal(engine_progress(e), 10);
	assert_true(engine_partial(e));
	engine_destroy(e);
	close(block_fd[0]);
	close(block_fd[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_variant_serial),
		cmocka_unit_test(test_stop_cancels_a_blocked_sample),
		cmocka_unit_test(test_one_variant_parallel),
		cmocka_unit_test(test_one_variant_report),
		cmocka_unit_test(test_two_variants),
		cmocka_unit_test(test_runs_fold_lone_figures),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
