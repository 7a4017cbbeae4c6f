// SPDX-License-Identifier: GPL-2.0
/*
 * perf.c - `make perf`: what the hot paths cost, as ratios measured side
 * by side in one run (absolute times drift on a shared VM; ratios don't).
 *
 *   record_ns       kstats_hist_record() per value
 *   plain_log2_ns   the floor any log2 histogram pays: counts[fls64(v)]++
 *   record_ratio    record_ns / plain_log2_ns
 *   timer_ratio     median cycles of the empty region through the engine's
 *                   own sample path (default end fence) over the median of
 *                   a bare lfence;rdtsc ... rdtscp;lfence pair, same CPU
 *
 * Each figure is the best of ROUNDS passes over the same stream of
 * NR_VALUES lognormal values around 10 us; the two loops alternate so that
 * drift hits both.
 */
#define _GNU_SOURCE
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "kstats_hist.h"
#include "lib/measure/engine.h"
#include "lib/measure/topo.h"
#include "lib/measure/tsc.h"
#include "workloads/registry.h"

#define NR_VALUES	(1u << 20)
#define ROUNDS		21

static uint64_t plain_counts[65];

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static inline unsigned int fls64(uint64_t x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

static void __attribute__((noinline)) plain_loop(const uint64_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		plain_counts[fls64(v[i])]++;
}

static void __attribute__((noinline)) record_loop(struct kstats_hist *h,
						   const uint64_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		kstats_hist_record(h, v[i]);
}

/* lognormal, median 10 us, sigma 0.5: the shape of the patch's table */
static void fill(uint64_t *v, size_t n)
{
	uint64_t s = 0x9e3779b97f4a7c15ull;
	double u1, u2;
	size_t i;

	for (i = 0; i < n; i++) {
		s = s * 6364136223846793005ull + 1442695040888963407ull;
		u1 = ((s >> 11) + 1) * 0x1.0p-53;
		s = s * 6364136223846793005ull + 1442695040888963407ull;
		u2 = (s >> 11) * 0x1.0p-53;
		v[i] = (uint64_t)exp(log(10000.0) + 0.5 *
				     sqrt(-2 * log(u1)) * cos(2 * M_PI * u2));
	}
}

/* ---- timer: the engine's timed region against bare stamps ---- */

#define TIMER_SAMPLES	200000u
#define TIMER_FB	12	/* exact below 8192 cycles */

/* a bare lfence;rdtsc ... rdtscp;lfence pair, nothing between: median */
static uint64_t bare_stamps(void)
{
	struct kstats_hist *h = kstats_hist_create(TIMER_FB);
	uint64_t t0, t1, med;
	uint32_t lo, hi, aux;
	unsigned int i;

	for (i = 0; i < TIMER_SAMPLES; i++) {
		asm volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi));
		t0 = (uint64_t)hi << 32 | lo;
		asm volatile("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux));
		t1 = (uint64_t)hi << 32 | lo;
		kstats_hist_record(h, t1 - t0);
	}
	med = kstats_hist_value_at_percentile(h, 50);
	kstats_hist_free(h);
	return med;
}

/* the engine's whole sample path: bench run -w empty -u cycles: median */
static uint64_t engine_stamps(const struct topo *t, const struct tsc_info *tsc)
{
	struct engine_cfg cfg = {
		.wl = &wl_empty, .topo = t, .tsc = tsc,
		.samples = TIMER_SAMPLES / 2, .frac_bits = TIMER_FB,
		.cycles = true, .fence = TSC_FENCE_SFENCE,
	};
	struct kstats_hist *h = kstats_hist_create(TIMER_FB);
	struct engine *e = engine_create(&cfg);
	uint64_t med = 0;

	if (h && e && !engine_start(e) && !engine_join(e) &&
	    !engine_merge(e, WL_OLD, h) && !engine_merge(e, WL_NEW, h))
		med = kstats_hist_value_at_percentile(h, 50);
	engine_destroy(e);
	kstats_hist_free(h);
	return med;
}

/*
 * Five rounds alternating the two, same CPU; the median of each round,
 * the lowest round of each. The TSC of a VM may tick in steps (26
 * cycles on xeon-vm), so both medians are multiples of it.
 */
static int perf_timer(void)
{
	uint64_t bare = UINT64_MAX, eng = UINT64_MAX, b, x;
	struct tsc_info tsc;
	struct topo t;
	cpu_set_t set;
	unsigned int r;
	int bad;

	tsc_init(&tsc);
	if (!tsc.usable || topo_init(&t, NULL, 0, &bad)) {
		printf("timer: skipped (no usable TSC)\n");
		return 0;
	}
	t.nr_workers = 1;
	CPU_ZERO(&set);
	CPU_SET(t.worker_cpu[0], &set);
	sched_setaffinity(0, sizeof(set), &set);
	for (r = 0; r < 5; r++) {
		b = bare_stamps();
		x = engine_stamps(&t, &tsc);
		bare = b < bare ? b : bare;
		eng = x < eng ? x : eng;
	}
	topo_fini(&t);
	if (!eng || !bare)
		return 3;
	printf("timer_bare_cycles: %lu\n", (unsigned long)bare);
	printf("timer_engine_cycles: %lu\n", (unsigned long)eng);
	printf("timer_ratio: %.3f\n", (double)eng / (double)bare);
	return 0;
}

int main(void)
{
	uint64_t *v = malloc(NR_VALUES * sizeof(*v)), check = 0;
	struct kstats_hist *h = kstats_hist_create(2);
	double best_rec = 1e30, best_plain = 1e30, t;
	unsigned int r, i;

	if (!v || !h)
		return 3;
	fill(v, NR_VALUES);
	for (r = 0; r < ROUNDS; r++) {
		t = now_ns();
		record_loop(h, v, NR_VALUES);
		t = now_ns() - t;
		best_rec = t < best_rec ? t : best_rec;
		t = now_ns();
		plain_loop(v, NR_VALUES);
		t = now_ns() - t;
		best_plain = t < best_plain ? t : best_plain;
	}
	for (i = 0; i < 65; i++)
		check += plain_counts[i];
	if (check != kstats_hist_total(h))
		return 1;
	printf("values: %u x %u rounds, lognormal median 10000\n",
	       NR_VALUES, ROUNDS);
	printf("record_ns: %.3f\n", best_rec / NR_VALUES);
	printf("plain_log2_ns: %.3f\n", best_plain / NR_VALUES);
	printf("record_ratio: %.3f\n", best_rec / best_plain);
	kstats_hist_free(h);
	free(v);
	return perf_timer();
}
