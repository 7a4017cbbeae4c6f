// SPDX-License-Identifier: GPL-2.0
/*
 * counted.c - the rules for exact figures (counted.h).
 */
#include <math.h>
#include <string.h>

#include "lib/results/counted.h"

/* one counted unit: its flat slope, what it is, its noun, its suffixes by 1000s */
struct counted_kind {
	const char *unit;
	double flat;
	const char *what;
	const char *noun;
	const char *sfx[4];
};

static const struct counted_kind counted_kinds[] = {
	{ COUNTED_UNIT, COUNTED_FLAT,
	  "the guest's instructions, counted by qemu (bench vm --clock counted)", "instructions",
	  { " insn", "k insn", "M insn", "G insn" } },
	{ COUNTED_MISSES, COUNTED_FLAT_LINES,
	  "lines that missed the plugin's cache model (bench vm --plugin cache), a model's count and not hardware's",
	  "misses", { " misses", "k misses", "M misses", "G misses" } },
	{ COUNTED_ACCESSES, COUNTED_FLAT_LINES,
	  "loads and stores of RAM, counted by the plugin (bench vm --plugin cache)", "accesses",
	  { " accesses", "k accesses", "M accesses", "G accesses" } },
	{ COUNTED_CYCLES, COUNTED_FLAT,
	  "an estimate of cycles from the plugin's counts, instructions plus a latency per modelled miss (bench vm --plugin cache), not a measurement",
	  "estimated cycles", { " est-cycles", "k est-cycles", "M est-cycles", "G est-cycles" } },
};

static const struct counted_kind *counted_kind(const char *unit)
{
	unsigned int i;

	for (i = 0; unit && i < sizeof(counted_kinds) / sizeof(counted_kinds[0]); i++)
		if (!strcmp(unit, counted_kinds[i].unit))
			return &counted_kinds[i];
	return NULL;
}

bool counted_unit(const char *unit)
{
	return counted_kind(unit);
}

double counted_flat(const char *unit)
{
	const struct counted_kind *k = counted_kind(unit);

	return k ? k->flat : 0;
}

const char *counted_what(const char *unit)
{
	const struct counted_kind *k = counted_kind(unit);

	return k ? k->what : NULL;
}

const char *counted_noun(const char *unit)
{
	const struct counted_kind *k = counted_kind(unit);

	return k ? k->noun : NULL;
}

const char *counted_suffix(const char *unit, unsigned int k)
{
	const struct counted_kind *c = counted_kind(unit);

	return c && k < 4 ? c->sfx[k] : NULL;
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
