// SPDX-License-Identifier: GPL-2.0
/*
 * test_ksb_hist.c - the kernel module's histogram (kmod/ksb_hist.h)
 * agrees with kstats_hist: the same slot for every value and frac_bits,
 * the same AVG (including sums past 2^64), the same PERCENTILE, and the
 * same table byte for byte after the same samples, merged or not.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kmod/ksb_hist.h"
#include "kstats_hist.h"

static struct ksb_hist *ksb_new(unsigned int fb)
{
	struct ksb_hist *h = calloc(1, ksb_hist_size(fb));

	assert_non_null(h);
	ksb_hist_init(h, fb);
	return h;
}

/* the module's table, as its debugfs file prints it */
static char *ksb_table(const struct ksb_hist *h)
{
	char row[KSB_HIST_ROW_MAX], *buf;
	uint64_t cum = 0;
	size_t len;
	unsigned int i;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fputs(KSB_HIST_HEADER, f);
	for (i = 0; i < h->nr_slots; i++) {
		if (!h->slot[i].count)
			continue;
		cum += h->slot[i].count;
		ksb_hist_row(row, h, i, cum);
		fputs(row, f);
	}
	fclose(f);
	return buf;
}

static char *kstats_table(const struct kstats_hist *h)
{
	size_t len;
	char *buf;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(kstats_hist_print_table(h, f), 0);
	fclose(f);
	return buf;
}

/* the kernel-side and the userspace histogram print the same table */
static void assert_same_table(const struct ksb_hist *k, const struct kstats_hist *h)
{
	char *a = ksb_table(k), *b = kstats_table(h);

	assert_string_equal(a, b);
	free(a);
	free(b);
}

/* xorshift64*, lognormal-ish: values over many octaves */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * UINT64_C(2685821657736338717);
}

static void test_slot_every_octave(void **state)
{
	unsigned int fb, b;
	uint64_t v, s = 1;

	(void)state;
	for (fb = 0; fb <= KSB_HIST_FRAC_BITS_MAX; fb++) {
		assert_int_equal(ksb_hist_nr_slots(fb), (64 - fb + 1) << fb);
		for (v = 0; v < 5000; v++)
			assert_int_equal(ksb_hist_slot(v, fb), kstats_hist_slot(v, fb));
		for (b = 0; b < 64; b++) {
			v = UINT64_C(1) << b;
			assert_int_equal(ksb_hist_slot(v, fb), kstats_hist_slot(v, fb));
			assert_int_equal(ksb_hist_slot(v - 1, fb), kstats_hist_slot(v - 1, fb));
			assert_int_equal(ksb_hist_slot(v + 1, fb), kstats_hist_slot(v + 1, fb));
			v = rnd(&s) >> (63 - b);
			assert_int_equal(ksb_hist_slot(v, fb), kstats_hist_slot(v, fb));
		}
		assert_int_equal(ksb_hist_slot(UINT64_MAX, fb), kstats_hist_slot(UINT64_MAX, fb));
	}
}

static void test_div128(void **state)
{
	uint64_t s = 7, hi, lo, d;
	int i;

	(void)state;
	for (i = 0; i < 100000; i++) {
		d = rnd(&s) >> (rnd(&s) % 64);
		if (!d)
			d = 1;
		hi = rnd(&s) % d;
		lo = rnd(&s);
		assert_true(ksb_div128(hi, lo, d) ==
			    (uint64_t)((((unsigned __int128)hi << 64) | lo) / d));
	}
}

/* a slot whose sum passes 2^64: AVG from the 128-bit sum, as kstats_hist */
static void test_avg_past_2_64(void **state)
{
	struct ksb_hist *k = ksb_new(2);
	struct kstats_hist *h = kstats_hist_create(2);
	uint64_t v = UINT64_MAX - 12345;
	int i;

	(void)state;
	for (i = 0; i < 5; i++) {
		ksb_hist_record(k, v - (uint64_t)i);
		kstats_hist_record(h, v - (uint64_t)i);
	}
	assert_same_table(k, h);
	free(k);
	kstats_hist_free(h);
}

/* per-CPU histograms merged in both, every frac_bits: the same table */
static void test_table_byte_for_byte(void **state)
{
	uint64_t s = 42, v;
	unsigned int fb, cpu;
	int i;

	(void)state;
	for (fb = 0; fb <= KSB_HIST_FRAC_BITS_MAX; fb++) {
		struct ksb_hist *km = ksb_new(fb);
		struct kstats_hist *hm = kstats_hist_create(fb);

		assert_non_null(hm);
		for (cpu = 0; cpu < 4; cpu++) {
			struct ksb_hist *k = ksb_new(fb);
			struct kstats_hist *h = kstats_hist_create(fb);

			for (i = 0; i < 3000; i++) {
				/* around 2^(10..17) ns, as the patch's samples */
				v = (rnd(&s) >> (47 + rnd(&s) % 8)) + 500;
				ksb_hist_record(k, v);
				kstats_hist_record(h, v);
			}
			assert_same_table(k, h);
			ksb_hist_merge(km, k);
			assert_int_equal(kstats_hist_merge(hm, h), 0);
			assert_true(k->min == kstats_hist_min(h) && k->max == kstats_hist_max(h));
			free(k);
			kstats_hist_free(h);
		}
		assert_true(km->total == kstats_hist_total(hm));
		assert_same_table(km, hm);
		free(km);
		kstats_hist_free(hm);
	}
}

/* the patch's own rows, rebuilt as their AVG times their count */
static void test_patch_rows(void **state)
{
	struct ksb_hist *k = ksb_new(2);
	char *a;
	uint64_t i;

	(void)state;
	for (i = 0; i < 963; i++)
		ksb_hist_record(k, 4742);
	for (i = 0; i < 2214; i++)
		ksb_hist_record(k, 11493);
	for (i = 0; i < 2; i++)
		ksb_hist_record(k, 37253);
	a = ksb_table(k);
	assert_string_equal(a, KSB_HIST_HEADER
			    " 44         963         4742   0.302925\n"
			    " 49        2214        11493   0.999370\n"
			    " 56           2        37253   1.000000\n");
	free(a);
	free(k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slot_every_octave),
		cmocka_unit_test(test_div128),
		cmocka_unit_test(test_avg_past_2_64),
		cmocka_unit_test(test_table_byte_for_byte),
		cmocka_unit_test(test_patch_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
