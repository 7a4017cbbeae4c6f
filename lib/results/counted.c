// SPDX-License-Identifier: GPL-2.0
/*
 * counted.c - the rules for exact figures (counted.h).
 */
#include <math.h>
#include <string.h>

#include "lib/results/counted.h"

bool counted_unit(const char *unit)
{
	return unit && !strcmp(unit, COUNTED_UNIT);
}

double counted_spread(const double *x, unsigned int n)
{
	double lo, hi;
	unsigned int i;

	if (n < 2)
		return 0;
	lo = hi = x[0];
	for (i = 1; i < n; i++) {
		lo = fmin(lo, x[i]);
		hi = fmax(hi, x[i]);
	}
	return lo > 0 ? hi / lo - 1 : INFINITY;
}
