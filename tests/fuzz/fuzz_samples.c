// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_samples.c - libFuzzer target for the sample-list parser behind
 * `bench hist`: any input either parses, with as many samples recorded
 * as reported, or fails with a line number; and the printers run.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "kstats_hist.h"
#include "lib/subcmd/samples.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* frac_bits 0..6: 12 only makes each run's memset and bars slower */
	struct kstats_hist *h = kstats_hist_create(size ? data[0] % 7 : 2);
	FILE *f = size ? fmemopen((void *)data, size, "r") : NULL;
	FILE *out = fopen("/dev/null", "w");
	unsigned long line;
	uint64_t n;
	int ret;

	if (f && h && out) {
		ret = samples_read(f, h, &line, &n);
		if (!ret && kstats_hist_total(h) != n)
			abort();
		if (ret && !line)
			abort();
		kstats_hist_print_table(h, out);
		kstats_hist_print_bars(h, out);
		kstats_hist_print_csv(h, out, "f,old,all,-1");
	}
	if (f)
		fclose(f);
	if (out)
		fclose(out);
	kstats_hist_free(h);
	return 0;
}
