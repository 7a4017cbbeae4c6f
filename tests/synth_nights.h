/* SPDX-License-Identifier: GPL-2.0 */
/*
 * synth_nights.h - synthetic nightly histories with a control, for
 * tests/unit/test_history.c and tests/perf/trend-control.c (the same
 * model as tests/cli/synth_nights.py, which writes them as CSVs).
 *
 * The machine's level moves both sides alike: piecewise constant, a new
 * level uniform in [1 - shift, 1 + shift] every 3 to 8 nights; each run
 * adds Gaussian noise of @noise (a fraction); the subject alone steps by
 * @step from night @at (0-based; at >= nights: no step). Each side has
 * @runs runs a night, one file a night, timestamps a day apart.
 * Deterministic: splitmix64 from @seed.
 */
#ifndef KSB_SYNTH_NIGHTS_H
#define KSB_SYNTH_NIGHTS_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/stats/history.h"

struct synth_cfg {
	unsigned int nights, runs;	/* nights, runs per night and side */
	double shift;			/* shared level shifts: up to +-shift */
	double noise;			/* per-run Gaussian noise, a fraction */
	unsigned int at;		/* the subject's step, first night after */
	double step;			/* its size, a fraction */
	uint64_t seed;
};

static inline double synth_u(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
}

static inline double synth_gauss(uint64_t *s)
{
	double u1 = synth_u(s), u2 = synth_u(s);

	return sqrt(-2 * log(u1 + 1e-300)) * cos(6.283185307179586 * u2);
}

/* one side's history: its files and one series (synth old) */
static inline int synth_side(struct history *h, const struct synth_cfg *c, const double *level,
			     double base, int subject, uint64_t *s)
{
	struct history_series *hs = calloc(1, sizeof(*hs));
	unsigned int i, j;
	char name[32];

	if (!hs)
		return -1;
	h->s = hs;
	h->ns = h->caps = 1;
	snprintf(hs->workload, sizeof(hs->workload), "synth");
	snprintf(hs->variant, sizeof(hs->variant), "old");
	snprintf(h->unit, sizeof(h->unit), "ns");
	hs->r = calloc((size_t)c->nights * c->runs, sizeof(*hs->r));
	if (!hs->r)
		return -1;
	for (i = 0; i < c->nights; i++) {
		snprintf(name, sizeof(name), "%s%03u.csv", subject ? "s" : "c", i + 1);
		if (history_add_file(h, NULL, name))
			return -1;
		h->f[i].t = 1735696800 + (time_t)i * 86400;
		snprintf(h->f[i].stamp, sizeof(h->f[i].stamp), "night %u", i + 1);
		for (j = 0; j < c->runs; j++) {
			double k = subject && i >= c->at ? 1 + c->step : 1;

			hs->r[hs->n++] = (struct history_run){
				.file = i, .run = j + 1,
				.x = base * level[i] * k * (1 + c->noise * synth_gauss(s)),
			};
		}
	}
	hs->cap = hs->n;
	if (history_sort(h))
		return -1;
	return history_figures(h, hs) ? -1 : 0;
}

/* the subject's and the control's histories; 0, or -1 out of memory */
static inline int synth_nights(struct history *sub, struct history *ctl, const struct synth_cfg *c)
{
	double *level = malloc(c->nights * sizeof(*level)), l = 1;
	uint64_t s = c->seed;
	unsigned int i, left = 0;
	int ret;

	if (!level)
		return -1;
	for (i = 0; i < c->nights; i++) {
		if (!left) {
			l = 1 + c->shift * (2 * synth_u(&s) - 1);
			left = 3 + (unsigned int)(synth_u(&s) * 6);
		}
		left--;
		level[i] = l;
	}
	ret = synth_side(sub, c, level, 10000, 1, &s);
	if (!ret)
		ret = synth_side(ctl, c, level, 9000, 0, &s);
	free(level);
	return ret;
}

#endif /* KSB_SYNTH_NIGHTS_H */
