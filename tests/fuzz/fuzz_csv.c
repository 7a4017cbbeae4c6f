// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_csv.c - libFuzzer target for the CSV reader behind `bench show`
 * and `bench compare`: any input is either rejected with a message or
 * yields series whose tables print, whose per-run figures are finite,
 * which the gate compares with each other, and which, written again as
 * format 3 and read back, are the same histograms.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kstats_hist.h"
#include "lib/stats/compare.h"
#include "lib/results/csv.h"
#include "lib/results/results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* @r written as format 3 and read back: the same counts, sums, min, max */
static void fuzz_round_trip(const struct results *r)
{
	struct results *back = NULL;
	struct csv_error err;
	uint64_t ah, al, bh, bl;
	char *buf = NULL;
	size_t len = 0;
	unsigned int i, k;
	FILE *f = open_memstream(&buf, &len);

	if (!f || csv_write(f, r) || fclose(f) || !(f = fmemopen(buf, len, "r")) ||
	    csv_read(f, &back, &err) || back->n != r->n)
		abort();
	for (i = 0; i < r->n; i++) {
		const struct kstats_hist *a = r->s[i].h, *b = back->s[i].h;

		if (kstats_hist_min(a) != kstats_hist_min(b) ||
		    kstats_hist_max(a) != kstats_hist_max(b))
			abort();
		for (k = 0; k < kstats_hist_nr_slots(a); k++) {
			kstats_hist_slot_sum(a, k, &ah, &al);
			kstats_hist_slot_sum(b, k, &bh, &bl);
			if (ah != bh || al != bl ||
			    kstats_hist_slot_count(a, k) != kstats_hist_slot_count(b, k))
				abort();
		}
	}
	fclose(f);
	free(buf);
	results_free(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = size ? fmemopen((void *)data, size, "r") : NULL;
	FILE *out = fopen("/dev/null", "w");
	double b[CMP_NR_STATS], a[CMP_NR_STATS];
	struct results *r = NULL;
	struct csv_error err = { 0 };
	struct cmp_result res;
	unsigned int i, k;

	if (f && out && !csv_read(f, &r, &err)) {
		for (i = 0; i < r->n; i++) {
			if (!kstats_hist_total(r->s[i].h))
				abort();
			kstats_hist_print_table(r->s[i].h, out);
			for (k = 0; k < CMP_NR_STATS; k++) {
				b[k] = cmp_hist_stat(r->s[0].h, (enum cmp_stat)k) + 1;
				a[k] = cmp_hist_stat(r->s[i].h, (enum cmp_stat)k) + 1;
				if (!isfinite(a[k]) || a[k] < 1)
					abort();
			}
			cmp_runs(b, CMP_NR_STATS, a, CMP_NR_STATS, 0.05, 0.05, &res);
		}
		results_nr_runs(r, r->s[0].workload, r->s[0].variant);
		fuzz_round_trip(r);
		results_free(r);
	} else if (f && out && !err.why[0]) {
		abort();	/* every rejection says why */
	}
	if (f)
		fclose(f);
	if (out)
		fclose(out);
	return 0;
}
