// SPDX-License-Identifier: GPL-2.0
/*
 * test_csv.c - the results model and its CSV: format 3 read back holds
 * the writer's histograms exactly (counts, 128-bit sums, min, max);
 * formats 1 and 2 are still read; every check of a format 3 row can
 * fail; runs added to a set keep their labels, their merge and their
 * metadata; the module's results text parsed (lib/kernel/kmod.h); the
 * bounded line reader under every text input (lib/subcmd/readfile.h).
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
#include "lib/results/csv.h"
#include "lib/kernel/kmod.h"
#include "lib/results/meta.h"
#include "lib/subcmd/readfile.h"
#include "lib/results/results.h"

static const struct results_label merged = {
	.workload = "w", .variant = "old", .run = RESULTS_RUN_ALL,
	.cpu = RESULTS_CPU_ALL, .node = -1,
};

/* the file @s read; 0 or the reader's return, its message in @err */
static int read_str(const char *s, struct results **r, struct csv_error *err)
{
	FILE *f = fmemopen((void *)s, strlen(s), "r");
	int ret;

	assert_non_null(f);
	ret = csv_read(f, r, err);
	fclose(f);
	return ret;
}

static struct results *read_ok(const char *s)
{
	struct csv_error err;
	struct results *r = NULL;

	if (read_str(s, &r, &err))
		fail_msg("line %lu: %s", err.line, err.why);
	return r;
}

/* @r written as CSV, into a string to free() */
static char *write_str(const struct results *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(csv_write(f, r), 0);
	fclose(f);
	return buf;
}

/* every slot's count and sum, min and max of @a and @b agree */
static void assert_same_hist(const struct kstats_hist *a, const struct kstats_hist *b)
{
	uint64_t ah, al, bh, bl;
	unsigned int i;

	assert_int_equal(kstats_hist_nr_slots(a), kstats_hist_nr_slots(b));
	for (i = 0; i < kstats_hist_nr_slots(a); i++) {
		assert_int_equal(kstats_hist_slot_count(a, i), kstats_hist_slot_count(b, i));
		kstats_hist_slot_sum(a, i, &ah, &al);
		kstats_hist_slot_sum(b, i, &bh, &bl);
		assert_int_equal(ah, bh);
		assert_int_equal(al, bl);
	}
	assert_int_equal(kstats_hist_min(a), kstats_hist_min(b));
	assert_int_equal(kstats_hist_max(a), kstats_hist_max(b));
	assert_true(kstats_hist_mean(a) == kstats_hist_mean(b));
}

/* ---- format 3: exact ---- */

/*
 * Samples that format 2 lost: bucket 60 holds 77777 and 77800, whose AVG is
 * 77789; format 2 gave back max 77789 and mean 26485.5, format 3 gives
 * the samples' 77800 and 158912 / 6.
 */
static void test_exact_round_trip(void **state)
{
	static const uint64_t v[] = { 5, 1030, 1100, 1200, 77777, 77800 };
	struct results *r = results_create(2), *back;
	struct kstats_hist *h = kstats_hist_create(2);
	unsigned int i;
	char *text;

	(void)state;
	assert_non_null(r);
	assert_non_null(h);
	for (i = 0; i < 6; i++)
		kstats_hist_record(h, v[i]);
	/* a sum past 2^64 in the last slot: 3 samples of 2^64 - 1 */
	for (i = 0; i < 3; i++)
		kstats_hist_record(h, UINT64_MAX);
	meta_set(&r->meta, "frac_bits", "2");
	assert_int_equal(results_add_hist(r, &merged, h), 0);
	text = write_str(r);
	assert_non_null(strstr(text, "w,old,all,all,-1,60,65536,81920,2,77789,0.666666,155577,5,18446744073709551615\n"));
	assert_non_null(strstr(text, ",3,18446744073709551615,1.000000,55340232221128654845,5,"));
	back = read_ok(text);
	assert_int_equal(back->n, 1);
	assert_same_hist(back->s[0].h, h);
	assert_int_equal(kstats_hist_max(back->s[0].h), UINT64_MAX);
	assert_string_equal(meta_get(&back->meta, "frac_bits"), "2");
	free(text);
	results_free(back);
	results_free(r);
	kstats_hist_free(h);
}

#define HEAD3	"# kstats-bench-csv 3\n# frac_bits: 2\n" CSV_COLUMNS "\n"
#define ROW_A	"w,old,all,all,-1,36,1024,1280,3,1110,0.600000,3330,1030,1200\n"
#define ROW_B	"w,old,all,all,-1,37,1280,1536,2,1300,1.000000,2600,1030,1400\n"

/* each check of a format 3 row: the message names it, and the line */
static void test_exact_checks(void **state)
{
	static const struct {
		const char *file;	/* after HEAD3 */
		unsigned long line;	/* where it fails */
		const char *why;	/* what the message says */
	} bad[] = {
		{ "w,old,all,all,-1,36,1024,1280,3,1111,1.000000,3330,1030,1200\n", 4,
		  "avg_ns 1111 is not the rounded sum_ns / samples" },
		{ "w,old,all,all,-1,36,1024,1280,3,1279,1.000000,3838,1030,1200\n", 4,
		  "sum_ns is not that of 3 samples of bucket 36" },
		{ ROW_A "w,old,all,all,-1,37,1280,1536,2,1300,1.000000,2600,1031,1400\n", 5,
		  "differ from the series' earlier rows" },
		{ "w,old,all,all,-1,36,1024,1280,3,1110,0.600000,3330,1030,1400\n"
		  "w,old,all,all,-1,37,1280,1536,2,1300,1.000000,2600,1030,1400\n", 0, "" },
		{ "w,old,all,all,-1,36,1024,1280,3,1110,1.000000,3330,999,1200\n", 4,
		  "are not in the first and last buckets" },
		{ "w,old,all,all,-1,36,1024,1280,3,1110,1.000000,3330,1200,1030\n", 4,
		  "min_ns 1200 is above max_ns 1030" },
		{ "w,old,all,all,-1,36,1024,1280,3,1110,1.000000,340282366920938463463374607431768211456,1,2\n",
		  4, "is not a non-negative integer below 2^128" },
		{ "w,old,all,all,-1,36,1024,1280,3,1110,1.000000,3330,1030\n", 4,
		  "13 columns, expected 14" },
	};
	struct results *r = NULL;
	struct csv_error err;
	char file[512];
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(file, sizeof(file), "%s%s", HEAD3, bad[i].file);
		if (!bad[i].why[0]) {
			/* the good one, for contrast: max in the last bucket */
			r = read_ok(file);
			assert_int_equal(kstats_hist_max(r->s[0].h), 1400);
			assert_int_equal(kstats_hist_min(r->s[0].h), 1030);
			results_free(r);
			continue;
		}
		assert_int_equal(read_str(file, &r, &err), -EINVAL);
		assert_null(r);
		if (!strstr(err.why, bad[i].why) || err.line != bad[i].line)
			fail_msg("case %u: line %lu: %s", i, err.line, err.why);
	}
}

/* ---- formats 1 and 2: still read, as AVG x samples per bucket ---- */

static const char csv2[] =
	"# kstats-bench-csv 2\n# frac_bits: 2\n# runs: 2\n" CSV_COLUMNS_2 "\n"
	"w,old,all,all,-1,49,10240,12288,3,11000,1.000000\n"
	"w,old,1,all,-1,49,10240,12288,1,11000,1.000000\n"
	"w,old,1,0,0,49,10240,12288,1,11000,1.000000\n"
	"w,old,2,all,-1,49,10240,12288,2,11000,1.000000\n";

static const char csv1[] =
	"# kstats-bench-csv 1\n# frac_bits: 2\n" CSV_COLUMNS_1 "\n"
	"w,old,all,-1,49,10240,12288,3,11000,1.000000\n"
	"w,old,0,0,49,10240,12288,3,11000,1.000000\n";

static void test_csv_runs(void **state)
{
	struct results *r;

	(void)state;
	r = read_ok(csv2);
	assert_int_equal(results_nr_runs(r, "w", "old"), 2);
	assert_int_equal(kstats_hist_total(results_run_hist(r, "w", "old", 0)), 1);
	assert_int_equal(kstats_hist_total(results_run_hist(r, "w", "old", 1)), 2);
	assert_null(results_run_hist(r, "w", "old", 2));
	assert_non_null(results_find(r, "w", "old", 1, 0));
	assert_int_equal(results_nr_runs(r, "w", "new"), 0);
	assert_int_equal(kstats_hist_max(results_run_hist(r, "w", "old", 1)), 11000);
	results_free(r);
	/* format 1: its rows are one run, "all" */
	r = read_ok(csv1);
	assert_int_equal(results_nr_runs(r, "w", "old"), 1);
	assert_int_equal(kstats_hist_total(results_run_hist(r, "w", "old", 0)), 3);
	assert_null(results_run_hist(r, "w", "old", 1));
	assert_non_null(results_find(r, "w", "old", RESULTS_RUN_ALL, 0));
	results_free(r);
}

/* a file of format 2 written again is format 3, each bucket's AVG kept */
static void test_format_2_to_3(void **state)
{
	struct results *r = read_ok(csv2), *back;
	char *text = write_str(r);

	(void)state;
	assert_int_equal(strncmp(text, "# kstats-bench-csv 3\n", 21), 0);
	assert_non_null(strstr(text, "w,old,all,all,-1,49,10240,12288,3,11000,1.000000,33000,11000,11000\n"));
	back = read_ok(text);
	assert_int_equal(back->n, r->n);
	assert_same_hist(back->s[0].h, r->s[0].h);
	free(text);
	results_free(back);
	results_free(r);
}

/* ---- runs added to a set ---- */

/* one run of @n samples of @v, with the metadata a run writes */
static struct results *one_run(uint64_t v, unsigned int n, const char *partial)
{
	struct results *r = results_create(2);
	struct results_label l = merged;
	struct kstats_hist *h = kstats_hist_create(2);
	unsigned int i;

	assert_non_null(r);
	assert_non_null(h);
	for (i = 0; i < n; i++)
		kstats_hist_record(h, v);
	meta_set(&r->meta, "samples_taken", "%u/%u", n, n);
	meta_set(&r->meta, "disturbed", "1/2");
	meta_set(&r->meta, "runs", "1");
	meta_set(&r->meta, "partial", "%s", partial);
	assert_int_equal(results_add_hist(r, &l, h), 0);
	l.cpu = 3;
	l.node = 0;
	assert_int_equal(results_add_hist(r, &l, h), 0);
	kstats_hist_free(h);
	return r;
}

static void test_add_run(void **state)
{
	struct results *all = results_create(2), *a = one_run(100, 4, "no");
	struct results *b = one_run(900, 2, "yes");
	unsigned int *order, i;
	char why[256];
	static const unsigned int want_run[] = { 0, 0, 1, 1, 2 };

	(void)state;
	assert_false(results_partial(a));
	assert_true(results_partial(b));
	assert_int_equal(results_add_run(all, a, 1, 0), 0);
	assert_int_equal(results_add_run(all, b, 2, RESULTS_MERGED_CPUS_ONLY), 0);
	/* the same run twice, run 0, a set of several runs: refused */
	assert_int_equal(results_add_run(all, b, 2, 0), -EINVAL);
	assert_int_equal(results_add_run(all, b, 0, 0), -EINVAL);
	assert_int_equal(results_add_run(b, all, 3, 0), -EINVAL);
	/* all: merged and cpu 3, merged over both runs; run 1's cpu 3; run 2 merged only */
	assert_int_equal(all->n, 5);
	assert_int_equal(kstats_hist_total(results_find(all, "w", "old", 0, -1)->h), 6);
	assert_int_equal(kstats_hist_max(results_find(all, "w", "old", 0, 3)->h), 900);
	assert_non_null(results_find(all, "w", "old", 1, 3));
	assert_null(results_find(all, "w", "old", 2, 3));
	assert_int_equal(results_nr_runs(all, "w", "old"), 2);
	assert_string_equal(meta_get(&all->meta, "samples_taken"), "6/6");
	assert_string_equal(meta_get(&all->meta, "disturbed"), "2/4");
	assert_string_equal(meta_get(&all->meta, "runs"), "2");
	assert_string_equal(meta_get(&all->meta, "partial"), "yes");
	assert_string_equal(meta_get(&all->meta, "partial_run"), "2");
	assert_true(results_partial(all));
	/* the writers' order: "all" first, then run 1, then run 2 */
	order = results_order(all);
	assert_non_null(order);
	for (i = 0; i < all->n; i++)
		assert_int_equal(all->s[order[i]].run, want_run[i]);
	free(order);
	/* the merge rebuilt from the runs alone equals the one kept */
	kstats_hist_reset(results_find(all, "w", "old", 0, -1)->h);
	assert_int_equal(results_merge_runs(all), 0);
	assert_int_equal(kstats_hist_total(results_find(all, "w", "old", 0, -1)->h), 6);
	/* every merge over the runs is their sum; cpu 3 of run 2 is in the merge alone */
	assert_int_equal(results_check_runs(all, why, sizeof(why)), 0);
	kstats_hist_record(results_find(all, "w", "old", 1, -1)->h, 7);
	assert_int_equal(results_check_runs(all, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "w old cpu all: its runs hold 7 samples, their merge 6: rows are missing (a file cut short?)");
	results_free(b);
	results_free(a);
	results_free(all);
	results_free(NULL);
}

/* results_set_run: a one-run set relabelled; several runs refused */
static void test_set_run(void **state)
{
	struct results *a = one_run(100, 4, "no"), *r = read_ok(csv2);

	(void)state;
	assert_int_equal(results_set_run(a, 7), 0);
	assert_non_null(results_find(a, "w", "old", 7, 3));
	assert_int_equal(results_set_run(r, 1), -EINVAL);
	assert_int_equal(results_set_run(a, RESULTS_MAX_RUNS + 1), -EINVAL);
	results_free(r);
	results_free(a);
}

/* ---- the module's results (a fixture in its own format) ---- */

static const char kmod_text[] =
	"kstats_bench 2\nstate done\npossible_cpus 16\nnr_cpu_ids 16\nonline_cpus 16\n"
	"clock ktime_get_ns\nworkload kernel-set-defaults\n"
	"irqs off (local_irq_save around each sample)\nvariants old new\n"
	"variant_old with the loop\nvariant_new without it\n"
	"reference 512 cold 4-byte stores\n"
	"samples 4\nfrac_bits 2\ncpus 1\ntaken 8\n"
	"hist old -1 -1 4 2430 37253\n40 3 0 7297\n56 1 0 37253\n"
	"hist old 0 0 4 2430 37253\n40 3 0 7297\n56 1 0 37253\n"
	"hist new -1 -1 4 195 210\n26 4 0 801\n"
	"hist new 0 0 4 195 210\n26 4 0 801\n"
	"hist reference -1 -1 2 9000 9100\n48 2 0 18100\n"
	"hist reference 0 0 2 9000 9100\n48 2 0 18100\nend\n";

static void test_kmod_parse(void **state)
{
	struct meta hdr = { 0 };
	struct kmod_error err;
	struct results *r;
	char text[sizeof(kmod_text)];
	const struct results_series *s;

	(void)state;
	memcpy(text, kmod_text, sizeof(text));
	assert_int_equal(kmod_parse(text, 2, &hdr, &r, &err), 0);
	assert_string_equal(meta_get(&hdr, "workload"), "kernel-set-defaults");
	assert_string_equal(meta_get(&hdr, "variant_old"), "with the loop");
	assert_string_equal(meta_get(&hdr, "reference"), "512 cold 4-byte stores");
	assert_int_equal(r->n, 6);
	s = results_find(r, "kernel-set-defaults", "new", RESULTS_RUN_ALL, RESULTS_CPU_ALL);
	assert_non_null(s);
	/* n, min and max as the module said them; each slot's exact sum */
	assert_int_equal(kstats_hist_total(s->h), 4);
	assert_int_equal(kstats_hist_min(s->h), 195);
	assert_int_equal(kstats_hist_max(s->h), 210);
	assert_int_equal(kstats_hist_slot_avg(s->h, 26), 200);	/* (801 + 2) / 4 */
	s = results_find(r, "kernel-set-defaults", "old", RESULTS_RUN_ALL, RESULTS_CPU_ALL);
	assert_int_equal(kstats_hist_slot_avg(s->h, 40), 2432);	/* 7297 / 3 rounded */
	/* the mean of the exact sums, not of the slots' rounded AVGs */
	assert_true(kstats_hist_mean(s->h) == (7297.0 + 37253.0) / 4);
	assert_non_null(results_find(r, "kernel-set-defaults", "reference", RESULTS_RUN_ALL,
				     RESULTS_CPU_ALL));
	assert_int_equal(results_find(r, "kernel-set-defaults", "old", 0, 0)->node, 0);
	results_free(r);
}

static void test_kmod_parse_bad(void **state)
{
	static const struct {
		const char *from, *to;	/* a line of kmod_text, and what replaces it */
		unsigned long line;	/* where it then fails */
		const char *why;
	} bad[] = {
		{ "kstats_bench 2", "kstats_bench 1", 1, "not 'kstats_bench 2'" },
		{ "hist new -1 -1 4 195 210", "hist new -1 -1 5 195 210", 25,
		  "n is not the sum of its slots' counts" },
		/* 4 samples of [192, 224) cannot sum to 1200 */
		{ "26 4 0 801\nhist reference", "26 4 0 1200\nhist reference", 26,
		  "a slot line that does not fit" },
		/* a version 1 slot line, COUNT AVG */
		{ "48 2 0 18100\nend", "48 2 9050\nend", 30, "a slot line that does not fit" },
		{ "hist old -1 -1 4 2430 37253", "hist old -1 -1 4 2430 99999", 20,
		  "min and max not in the first and last slot" },
		{ "hist old 0 0 4", "hist old 0 x 4", 20, "a hist line that does not fit" },
	};
	struct meta hdr;
	struct kmod_error err;
	struct results *r;
	char text[sizeof(kmod_text) + 16], *at;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&hdr, 0, sizeof(hdr));
		at = strstr(kmod_text, bad[i].from);
		assert_non_null(at);
		snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - kmod_text), kmod_text,
			 bad[i].to, at + strlen(bad[i].from));
		assert_int_equal(kmod_parse(text, 2, &hdr, &r, &err), -EINVAL);
		assert_null(r);
		if (!strstr(err.why, bad[i].why) || err.line != bad[i].line)
			fail_msg("case %u: line %lu: %s", i, err.line, err.why);
	}
}

/* ---- kstats_hist's exact slots ---- */

static void test_add_slot(void **state)
{
	struct kstats_hist *h = kstats_hist_create(2);

	(void)state;
	assert_non_null(h);
	/* slot 36 is [1024, 1280): 3 samples sum 3072..3837 */
	assert_int_equal(kstats_hist_add_slot(h, 36, 3, 0, 3071), -EINVAL);
	assert_int_equal(kstats_hist_add_slot(h, 36, 3, 0, 3838), -EINVAL);
	assert_int_equal(kstats_hist_add_slot(h, 36, 0, 0, 0), -EINVAL);
	assert_int_equal(kstats_hist_add_slot(h, 9999, 1, 0, 1), -EINVAL);
	assert_int_equal(kstats_hist_add_slot(h, 36, 3, 0, 3330), 0);
	/* 2^64 - 1 more samples of 1024: a valid sum, a count past 2^64 */
	assert_int_equal(kstats_hist_add_slot(h, 36, UINT64_MAX, 1023,
					      UINT64_C(0xfffffffffffffc00)), -EOVERFLOW);
	assert_int_equal(kstats_hist_slot_avg(h, 36), 1110);
	assert_int_equal(kstats_hist_set_range(h, 1030, 1300), -EINVAL);
	assert_int_equal(kstats_hist_set_range(h, 1030, 1200), 0);
	assert_int_equal(kstats_hist_min(h), 1030);
	assert_int_equal(kstats_hist_max(h), 1200);
	kstats_hist_free(h);
}

/* the timestamp key: written in UTC, read back, impossible dates refused */
/* @s's lines through a reader of lines of at most @max bytes, joined by '|' */
static int read_lines(const char *s, size_t n, size_t max, char *out, size_t len,
		      unsigned long *no)
{
	FILE *f = fmemopen((void *)s, n, "r");
	struct readfile_lines lr;
	size_t used = 0;
	int ret;

	assert_non_null(f);
	out[0] = 0;
	readfile_lines_init(&lr, f, max);
	while ((ret = readfile_lines_next(&lr)) > 0) {
		assert_int_equal(lr.line[lr.len], 0);
		if (used < len)
			used += (size_t)snprintf(out + used, len - used, "%s%zu:%s",
						 used ? "|" : "", lr.len, lr.line);
	}
	*no = lr.no;
	/* done: every later call is the end */
	assert_int_equal(readfile_lines_next(&lr), 0);
	readfile_lines_free(&lr);
	readfile_lines_free(&lr);
	fclose(f);
	return ret;
}

static void test_readfile_lines(void **state)
{
	static const char nul[] = "ab\0c\nd";
	char out[256], *big;
	unsigned long no;

	(void)state;
	assert_int_equal(read_lines("a\n\nbcd\ne", 8, 3, out, sizeof(out), &no), 0);
	assert_string_equal(out, "1:a|0:|3:bcd|1:e");
	assert_int_equal(no, 4);
	assert_int_equal(read_lines("a\nb\n", 4, 3, out, sizeof(out), &no), 0);
	assert_string_equal(out, "1:a|1:b");
	assert_int_equal(no, 2);
	assert_int_equal(read_lines("", 0, 3, out, sizeof(out), &no), 0);
	assert_string_equal(out, "");
	assert_int_equal(no, 0);
	/* a NUL inside is kept and counted */
	assert_int_equal(read_lines(nul, sizeof(nul) - 1, 8, out, sizeof(out), &no), 0);
	assert_string_equal(out, "4:ab|1:d");
	/* one byte over, with its newline or at the end: line 2 at fault */
	assert_int_equal(read_lines("ab\nabcd\nx\n", 10, 3, out, sizeof(out), &no), -E2BIG);
	assert_string_equal(out, "2:ab");
	assert_int_equal(no, 2);
	assert_int_equal(read_lines("abcd", 4, 3, out, sizeof(out), &no), -E2BIG);
	assert_int_equal(no, 1);
	/* lines across the reader's chunks, and a long run of zeros without a newline */
	big = malloc(300000);
	assert_non_null(big);
	memset(big, 'x', 300000);
	big[99999] = big[199999] = '\n';
	assert_int_equal(read_lines(big, 300000, 100000, out, 32, &no), 0);
	assert_int_equal(no, 3);
	memset(big, 0, 300000);
	assert_int_equal(read_lines(big, 300000, 4096, out, sizeof(out), &no), -E2BIG);
	assert_int_equal(no, 1);
	free(big);
}

static void test_meta_timestamp(void **state)
{
	static const char *const bad[] = {
		"2025-02-30T00:00:00Z", "2025-01-01T24:00:00Z", "2025-01-01 02:00:00",
		"2025-01-01T02:00:00", "2025-01-01T02:00:00Z junk", "",
	};
	static struct meta m;
	unsigned int i;
	time_t t;

	(void)state;
	memset(&m, 0, sizeof(m));
	assert_int_equal(meta_time(&m, &t), -ENOENT);
	assert_int_equal(meta_timestamp(&m, 1738288800), 0);
	assert_string_equal(meta_get(&m, "timestamp"), "2025-01-31T02:00:00Z");
	assert_int_equal(meta_time(&m, &t), 0);
	assert_true(t == 1738288800);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(m.kv[0].val, sizeof(m.kv[0].val), "%s", bad[i]);
		assert_int_equal(meta_time(&m, &t), -EINVAL);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_round_trip),
		cmocka_unit_test(test_exact_checks),
		cmocka_unit_test(test_csv_runs),
		cmocka_unit_test(test_meta_timestamp),
		cmocka_unit_test(test_format_2_to_3),
		cmocka_unit_test(test_add_run),
		cmocka_unit_test(test_set_run),
		cmocka_unit_test(test_kmod_parse),
		cmocka_unit_test(test_kmod_parse_bad),
		cmocka_unit_test(test_add_slot),
		cmocka_unit_test(test_readfile_lines),
	};

	return cmocka_run_group_tests_name("csv", tests, NULL, NULL);
}
