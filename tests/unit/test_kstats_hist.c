// SPDX-License-Identifier: GPL-2.0
/*
 * test_kstats_hist.c - the histogram against an independent reference of
 * the kstats rules (docs/design.md, "The histogram"): slot math, bounds,
 * merge, exact sums, percentiles and every printer, for every frac_bits.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kstats_hist.h"

/* ---- the reference: written from the rules, not from the code ---- */

/* slot of v: find the power of two above 2^fb that holds v by a loop */
static unsigned int ref_slot(uint64_t v, unsigned int fb)
{
	unsigned int e = 0;

	if (v < (UINT64_C(1) << fb))
		return (unsigned int)v;
	while (e + fb + 1 < 64 && v >= (UINT64_C(1) << (fb + e + 1)))
		e++;
	return ((e + 1) << fb) + (unsigned int)((v >> e) - (UINT64_C(1) << fb));
}

struct ref {
	unsigned int fb;
	unsigned int n;			/* slots */
	uint64_t *count;
	unsigned __int128 *sum;
	uint64_t total;
};

static void ref_init(struct ref *r, unsigned int fb, const uint64_t *v,
		     size_t nv)
{
	size_t i;

	r->fb = fb;
	r->n = (65 - fb) << fb;
	r->count = calloc(r->n, sizeof(*r->count));
	r->sum = calloc(r->n, sizeof(*r->sum));
	r->total = nv;
	for (i = 0; i < nv; i++) {
		r->count[ref_slot(v[i], fb)]++;
		r->sum[ref_slot(v[i], fb)] += v[i];
	}
}

static void ref_fini(struct ref *r)
{
	free(r->count);
	free(r->sum);
}

/* percentile: truncated, "1.000000" only when cum == total */
static void ref_pct(char *buf, uint64_t cum, uint64_t total)
{
	unsigned __int128 m = (unsigned __int128)cum * 1000000 / total;

	if (cum == total)
		strcpy(buf, "1.000000");
	else
		sprintf(buf, "0.%06lu", (unsigned long)m);
}

static char *ref_table(const struct ref *r)
{
	char *out, pct[16];
	uint64_t cum = 0;
	size_t len;
	FILE *f = open_memstream(&out, &len);
	unsigned int s;

	fprintf(f, "BUCKET \tSAMPLES\t AVG TIME(ns)  PERCENTILE\n\n");
	for (s = 0; s < r->n; s++) {
		if (!r->count[s])
			continue;
		cum += r->count[s];
		ref_pct(pct, cum, r->total);
		fprintf(f, "%3u%12lu%13lu   %s\n", s, (unsigned long)r->count[s],
			(unsigned long)((r->sum[s] + r->count[s] / 2) / r->count[s]),
			pct);
	}
	fclose(f);
	return out;
}

/* ---- helpers ---- */

static uint64_t rng_state = 88172645463325252ull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* values across every magnitude, plus the edges */
static uint64_t rng_value(void)
{
	uint64_t r = rng();

	switch (r % 8) {
	case 0:
		return UINT64_MAX - (r >> 60);
	case 1:
		return r % 16;
	default:
		return rng() >> (r % 64);
	}
}

typedef int (*printer_fn)(const struct kstats_hist *h, FILE *f);

static char *capture(printer_fn fn, const struct kstats_hist *h)
{
	char *out;
	size_t len;
	FILE *f = open_memstream(&out, &len);

	assert_int_equal(fn(h, f), 0);
	fclose(f);
	return out;
}

static struct kstats_hist *hist_of(unsigned int fb, const uint64_t *v,
				   size_t n)
{
	struct kstats_hist *h = kstats_hist_create(fb);
	size_t i;

	assert_non_null(h);
	for (i = 0; i < n; i++)
		kstats_hist_record(h, v[i]);
	return h;
}

/* ---- slot math ---- */

static void test_slot_every_value_to_2_16(void **state)
{
	unsigned int fb;
	uint64_t v;

	(void)state;
	for (fb = 0; fb <= KSTATS_HIST_FRAC_BITS_MAX; fb++)
		for (v = 0; v <= 65536; v++)
			assert_int_equal(kstats_hist_slot(v, fb), ref_slot(v, fb));
}

static void test_slot_powers_of_two(void **state)
{
	unsigned int fb, k;
	uint64_t p;

	(void)state;
	for (fb = 0; fb <= KSTATS_HIST_FRAC_BITS_MAX; fb++) {
		for (k = 0; k < 64; k++) {
			p = UINT64_C(1) << k;
			assert_int_equal(kstats_hist_slot(p - 1, fb), ref_slot(p - 1, fb));
			assert_int_equal(kstats_hist_slot(p, fb), ref_slot(p, fb));
			assert_int_equal(kstats_hist_slot(p + 1, fb), ref_slot(p + 1, fb));
		}
		assert_int_equal(kstats_hist_slot(UINT64_MAX, fb),
				 ((65 - fb) << fb) - 1);
	}
}

/* record() finds its slot its own way (a row table): the same slot */
static void test_record_lands_in_its_slot(void **state)
{
	struct kstats_hist *h;
	unsigned int fb, k, d, slot;
	uint64_t v;

	(void)state;
	for (fb = 0; fb <= KSTATS_HIST_FRAC_BITS_MAX; fb++) {
		h = kstats_hist_create(fb);
		assert_non_null(h);
		for (k = 0; k <= 64; k++) {
			for (d = 0; d < 3; d++) {
				v = k == 64 ? UINT64_MAX - d : (UINT64_C(1) << k) - 1 + d;
				slot = ref_slot(v, fb);
				kstats_hist_reset(h);
				kstats_hist_record(h, v);
				assert_true(kstats_hist_slot_count(h, slot) == 1);
				assert_true(kstats_hist_total(h) == 1);
			}
		}
		kstats_hist_free(h);
	}
}

static void test_nr_slots_and_create(void **state)
{
	struct kstats_hist *h;
	unsigned int fb;

	(void)state;
	for (fb = 0; fb <= KSTATS_HIST_FRAC_BITS_MAX; fb++) {
		h = kstats_hist_create(fb);
		assert_non_null(h);
		assert_int_equal(kstats_hist_nr_slots(h), (65 - fb) << fb);
		assert_int_equal(kstats_hist_frac_bits(h), fb);
		kstats_hist_free(h);
	}
	errno = 0;
	assert_null(kstats_hist_create(13));
	assert_int_equal(errno, EINVAL);
	kstats_hist_free(NULL);
}

static void test_bounds_round_trip(void **state)
{
	uint64_t lo, last, prev_last = 0;
	unsigned int fb, s, n;

	(void)state;
	for (fb = 0; fb <= KSTATS_HIST_FRAC_BITS_MAX; fb++) {
		n = (65 - fb) << fb;
		for (s = 0; s < n; s++) {
			assert_int_equal(kstats_hist_slot_bounds(fb, s, &lo, &last), 0);
			assert_true(lo <= last);
			if (s)
				assert_true(lo == prev_last + 1);
			else
				assert_true(lo == 0);
			assert_int_equal(kstats_hist_slot(lo, fb), s);
			assert_int_equal(kstats_hist_slot(last, fb), s);
			prev_last = last;
		}
		assert_true(last == UINT64_MAX);
		assert_int_equal(kstats_hist_slot_bounds(fb, n, &lo, &last), -EINVAL);
	}
	assert_int_equal(kstats_hist_slot_bounds(13, 0, &lo, &last), -EINVAL);
}

/* the worked layout in kstats_hist.h */
static void test_layout_fb2(void **state)
{
	static const struct { unsigned int s; uint64_t lo, last; } t[] = {
		{ 0, 0, 0 }, { 3, 3, 3 }, { 4, 4, 4 }, { 7, 7, 7 },
		{ 8, 8, 9 }, { 11, 14, 15 }, { 12, 16, 19 }, { 15, 28, 31 },
		{ 48, 8192, 10239 }, { 49, 10240, 12287 },
		{ 51, 14336, 16383 }, { 56, 32768, 40959 },
		{ 251, UINT64_C(7) << 61, UINT64_MAX },
	};
	uint64_t lo, last;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		assert_int_equal(kstats_hist_slot_bounds(2, t[i].s, &lo, &last), 0);
		assert_true(lo == t[i].lo);
		assert_true(last == t[i].last);
	}
}

/* ---- merge, sums, queries ---- */

static void test_merge_equals_one_table(void **state)
{
	enum { N = 20000, PARTS = 4 };
	struct kstats_hist *all, *part[PARTS], *merged;
	uint64_t *v = malloc(N * sizeof(*v));
	unsigned int fb, s, i;

	(void)state;
	for (i = 0; i < N; i++)
		v[i] = rng_value();
	for (fb = 0; fb <= KSTATS_HIST_FRAC_BITS_MAX; fb += 3) {
		all = hist_of(fb, v, N);
		merged = kstats_hist_create(fb);
		for (i = 0; i < PARTS; i++) {
			part[i] = hist_of(fb, v + i * (N / PARTS), N / PARTS);
			assert_int_equal(kstats_hist_merge(merged, part[i]), 0);
			kstats_hist_free(part[i]);
		}
		for (s = 0; s < kstats_hist_nr_slots(all); s++) {
			assert_true(kstats_hist_slot_count(all, s) ==
				    kstats_hist_slot_count(merged, s));
			assert_true(kstats_hist_slot_avg(all, s) ==
				    kstats_hist_slot_avg(merged, s));
		}
		assert_true(kstats_hist_min(all) == kstats_hist_min(merged));
		assert_true(kstats_hist_max(all) == kstats_hist_max(merged));
		assert_true(kstats_hist_total(merged) == N);
		kstats_hist_free(all);
		kstats_hist_free(merged);
	}
	all = kstats_hist_create(2);
	merged = kstats_hist_create(3);
	assert_int_equal(kstats_hist_merge(all, merged), -EINVAL);
	kstats_hist_free(all);
	kstats_hist_free(merged);
	free(v);
}

static void test_exact_sum_at_2_64(void **state)
{
	struct kstats_hist *h = kstats_hist_create(2);
	unsigned int s = kstats_hist_slot(UINT64_MAX, 2), i;

	(void)state;
	/* a 64-bit sum would wrap on the second sample */
	for (i = 0; i < 100000; i++) {
		kstats_hist_record(h, UINT64_MAX);
		kstats_hist_record(h, UINT64_MAX - 2);
	}
	assert_true(kstats_hist_slot_count(h, s) == 200000);
	assert_true(kstats_hist_slot_avg(h, s) == UINT64_MAX - 1);
	assert_true(kstats_hist_min(h) == UINT64_MAX - 2);
	assert_true(kstats_hist_max(h) == UINT64_MAX);
	kstats_hist_reset(h);
	assert_true(kstats_hist_total(h) == 0);
	for (i = 0; i < 1000; i++)
		kstats_hist_record(h, UINT64_MAX);
	assert_true(kstats_hist_slot_avg(h, s) == UINT64_MAX);
	kstats_hist_free(h);
}

static void test_queries(void **state)
{
	static const uint64_t v[] = { 5, 9, 10240, 10241, 12000, 12287, 40000 };
	struct kstats_hist *h = kstats_hist_create(2);

	(void)state;
	assert_true(kstats_hist_min(h) == 0 && kstats_hist_max(h) == 0);
	assert_true(kstats_hist_mean(h) == 0.0);
	assert_true(kstats_hist_value_at_percentile(h, 50) == 0);
	kstats_hist_free(h);
	h = hist_of(2, v, 7);
	assert_true(kstats_hist_total(h) == 7);
	assert_true(kstats_hist_min(h) == 5 && kstats_hist_max(h) == 40000);
	assert_true(kstats_hist_mean(h) == (5 + 9 + 10240 + 10241 + 12000 +
					    12287 + 40000) / 7.0);
	/* rank 4 of 7 lies in slot 49 [10240, 12287]: its upper bound */
	assert_true(kstats_hist_value_at_percentile(h, 50) == 12287);
	/* rank 1: slot 5 is [5, 5], clamped to min anyway */
	assert_true(kstats_hist_value_at_percentile(h, 0) == 5);
	/* rank 2: slot 8 is [8, 9] */
	assert_true(kstats_hist_value_at_percentile(h, 20) == 9);
	/* the top: clamped to max, not the slot's 40959 */
	assert_true(kstats_hist_value_at_percentile(h, 100) == 40000);
	assert_true(kstats_hist_value_at_percentile(h, 99) == 40000);
	kstats_hist_free(h);
}

/* the walk: non-empty slots only, in order, with every printer's fields */
static void test_iter_non_empty_slots(void **state)
{
	static const uint64_t v[] = { 5, 9, 10240, 10241, 12000, 40000, UINT64_MAX };
	static const struct {
		unsigned int slot;
		uint64_t count, avg, cum, lo, last;
		char pct_int;
		unsigned long pct_frac;
	} want[] = {
		{ 5, 1, 5, 1, 5, 5, '0', 142857 },
		{ 8, 1, 9, 2, 8, 9, '0', 285714 },
		{ 49, 3, 10827, 5, 10240, 12287, '0', 714285 },
		{ 56, 1, 40000, 6, 32768, 40959, '0', 857142 },
		{ 251, 1, UINT64_MAX, 7, UINT64_C(7) << 61, UINT64_MAX, '1', 0 },
	};
	struct kstats_hist *h = hist_of(2, v, 7);
	struct kstats_hist_iter it;
	unsigned int n = 0;

	(void)state;
	kstats_hist_for_each_slot(&it, h) {
		assert_true(n < 5);
		assert_int_equal(it.slot, want[n].slot);
		assert_true(it.count == want[n].count);
		assert_true(it.avg == want[n].avg);
		assert_true(it.cum == want[n].cum);
		assert_true(it.lo == want[n].lo && it.last == want[n].last);
		assert_int_equal(it.pct_int, want[n].pct_int);
		assert_int_equal(it.pct_frac, want[n].pct_frac);
		n++;
	}
	assert_int_equal(n, 5);
	/* a finished walk stays finished */
	assert_false(kstats_hist_iter_next(&it));
	kstats_hist_reset(h);
	kstats_hist_for_each_slot(&it, h)
		fail();
	kstats_hist_free(h);
}

/* ---- printers ---- */

static void test_percentile_truncation(void **state)
{
	static const uint64_t v[] = { 1, 2, 3 };
	struct kstats_hist *h = hist_of(2, v, 3);
	char *out = capture(kstats_hist_print_table, h);

	(void)state;
	/* 2/3 truncates to 0.666666, never rounds to 0.666667 */
	assert_string_equal(out,
		"BUCKET \tSAMPLES\t AVG TIME(ns)  PERCENTILE\n\n"
		"  1           1            1   0.333333\n"
		"  2           1            2   0.666666\n"
		"  3           1            3   1.000000\n");
	free(out);
	kstats_hist_free(h);
}

static void test_percentile_one_only_at_total(void **state)
{
	struct kstats_hist *h = kstats_hist_create(2);
	unsigned int i;
	char *out;

	(void)state;
	/* 9999999 / 10000000 would round to 1.000000; it must read 0.999999 */
	for (i = 0; i < 9999999; i++)
		kstats_hist_record(h, 100);
	kstats_hist_record(h, 1000);
	out = capture(kstats_hist_print_table, h);
	assert_string_equal(out,
		"BUCKET \tSAMPLES\t AVG TIME(ns)  PERCENTILE\n\n"
		" 22     9999999          100   0.999999\n"
		" 35           1         1000   1.000000\n");
	free(out);
	kstats_hist_free(h);
}

static void test_empty_table(void **state)
{
	struct kstats_hist *h = kstats_hist_create(2);
	char *out = capture(kstats_hist_print_table, h);

	(void)state;
	assert_string_equal(out, "BUCKET \tSAMPLES\t AVG TIME(ns)  PERCENTILE\n\n");
	free(out);
	out = capture(kstats_hist_print_bars, h);
	assert_string_equal(out, "");
	free(out);
	kstats_hist_free(h);
}

/* random lists, every frac_bits: the table equals the reference's */
static void test_table_matches_reference(void **state)
{
	enum { N = 5000 };
	uint64_t *v = malloc(N * sizeof(*v));
	struct kstats_hist *h;
	unsigned int fb, round;
	char *got, *want;
	struct ref r;
	size_t n, i;

	(void)state;
	for (round = 0; round < 4; round++) {
		n = round == 0 ? 1 : (size_t)N >> (3 - round);
		for (i = 0; i < n; i++)
			v[i] = round == 1 ? 10000 + rng() % 30000 : rng_value();
		for (fb = 0; fb <= KSTATS_HIST_FRAC_BITS_MAX; fb++) {
			h = hist_of(fb, v, n);
			ref_init(&r, fb, v, n);
			got = capture(kstats_hist_print_table, h);
			want = ref_table(&r);
			assert_string_equal(got, want);
			free(got);
			free(want);
			ref_fini(&r);
			kstats_hist_free(h);
		}
	}
	free(v);
}

static int print_kstats_cpu3(const struct kstats_hist *h, FILE *f)
{
	return kstats_hist_print_kstats(h, f, 3, 0);
}

static int print_kstats_all(const struct kstats_hist *h, FILE *f)
{
	return kstats_hist_print_kstats(h, f, -1, 480);
}

static int print_csv(const struct kstats_hist *h, FILE *f)
{
	return kstats_hist_print_csv(h, f, "w,old,all,-1");
}

static void test_kstats_csv_bars_formats(void **state)
{
	static const uint64_t v[] = { 10240, 12000, 12287, 2432, UINT64_MAX };
	struct kstats_hist *h = hist_of(2, v, 5);
	char *out;

	(void)state;
	out = capture(print_kstats_cpu3, h);
	assert_string_equal(out,
		"slot 40   CPU  3    count        1  avg     2432  p 0.200000  n        1\n"
		"slot 49   CPU  3    count        3  avg    11509  p 0.800000  n        4\n"
		"slot 251  CPU  3    count        1  avg 18446744073709551615  p 1.000000  n        5\n");
	free(out);
	out = capture(print_kstats_all, h);
	assert_non_null(strstr(out, "slot 40   CPUS 480  count        1"));
	free(out);
	out = capture(print_csv, h);
	assert_string_equal(out,
		"w,old,all,-1,40,2048,2560,1,2432,0.200000\n"
		"w,old,all,-1,49,10240,12288,3,11509,0.800000\n"
		"w,old,all,-1,251,16140901064495857664,18446744073709551616,1,18446744073709551615,1.000000\n");
	free(out);
	kstats_hist_free(h);
	h = hist_of(2, v, 3);
	out = capture(kstats_hist_print_bars, h);
	assert_string_equal(out,
		"[10K, 12K)                  3 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n");
	free(out);
	kstats_hist_free(h);
}

static void test_patch_table(void **state)
{
	FILE *f = fopen("tests/fixtures/patch_samples.txt", "r");
	struct kstats_hist *h = kstats_hist_create(2);
	char *got, want[4096];
	unsigned long v;
	size_t n;

	(void)state;
	assert_non_null(f);
	while (fscanf(f, "%lu", &v) == 1)
		kstats_hist_record(h, v);
	fclose(f);
	f = fopen("tests/fixtures/patch_table.txt", "r");
	assert_non_null(f);
	n = fread(want, 1, sizeof(want) - 1, f);
	want[n] = 0;
	fclose(f);
	got = capture(kstats_hist_print_table, h);
	assert_string_equal(got, want);
	assert_true(kstats_hist_total(h) == 8192);
	free(got);
	kstats_hist_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slot_every_value_to_2_16),
		cmocka_unit_test(test_slot_powers_of_two),
		cmocka_unit_test(test_record_lands_in_its_slot),
		cmocka_unit_test(test_nr_slots_and_create),
		cmocka_unit_test(test_bounds_round_trip),
		cmocka_unit_test(test_layout_fb2),
		cmocka_unit_test(test_merge_equals_one_table),
		cmocka_unit_test(test_exact_sum_at_2_64),
		cmocka_unit_test(test_queries),
		cmocka_unit_test(test_iter_non_empty_slots),
		cmocka_unit_test(test_percentile_truncation),
		cmocka_unit_test(test_percentile_one_only_at_total),
		cmocka_unit_test(test_empty_table),
		cmocka_unit_test(test_table_matches_reference),
		cmocka_unit_test(test_kstats_csv_bars_formats),
		cmocka_unit_test(test_patch_table),
	};

	return cmocka_run_group_tests_name("kstats_hist", tests, NULL, NULL);
}
