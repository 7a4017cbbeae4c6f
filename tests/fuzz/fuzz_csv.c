// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_csv.c - libFuzzer target for the CSV reader behind `bench show`
 * and `bench compare`: any input is either rejected with a message or
 * yields series whose tables print, whose per-run figures are finite,
 * and which the gate compares with each other.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kstats_hist.h"
#include "lib/compare.h"
#include "lib/csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct csv_file cf;
	FILE *f = size ? fmemopen((void *)data, size, "r") : NULL;
	FILE *out = fopen("/dev/null", "w");
	double b[CMP_NR_STATS], a[CMP_NR_STATS];
	struct cmp_result r;
	unsigned long line;
	char why[256] = "";
	unsigned int i, k;

	if (f && out && !csv_read(f, &cf, &line, why, sizeof(why))) {
		for (i = 0; i < cf.n; i++) {
			if (!kstats_hist_total(cf.s[i].h))
				abort();
			kstats_hist_print_table(cf.s[i].h, out);
			for (k = 0; k < CMP_NR_STATS; k++) {
				b[k] = cmp_hist_stat(cf.s[0].h, (enum cmp_stat)k) + 1;
				a[k] = cmp_hist_stat(cf.s[i].h, (enum cmp_stat)k) + 1;
				if (!isfinite(a[k]) || a[k] < 1)
					abort();
			}
			cmp_runs(b, CMP_NR_STATS, a, CMP_NR_STATS, 0.05, 0.05, &r);
		}
		csv_nr_runs(&cf, cf.s[0].workload, cf.s[0].variant);
		csv_file_free(&cf);
	} else if (f && out && !why[0]) {
		abort();	/* every rejection says why */
	}
	if (f)
		fclose(f);
	if (out)
		fclose(out);
	return 0;
}
