// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_csv.c - libFuzzer target for the CSV reader behind `bench show`
 * and `bench compare`: any input is either rejected with a message or
 * yields series whose tables print, and which compare with each other.
 */
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
	struct cmp_result r;
	unsigned long line;
	char why[256] = "";
	unsigned int i;

	if (f && out && !csv_read(f, &cf, &line, why, sizeof(why))) {
		for (i = 0; i < cf.n; i++) {
			if (!kstats_hist_total(cf.s[i].h))
				abort();
			kstats_hist_print_table(cf.s[i].h, out);
			cmp_hist(cf.s[0].h, cf.s[i].h, CMP_MEAN, 0.1, 0.01, &r);
		}
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
