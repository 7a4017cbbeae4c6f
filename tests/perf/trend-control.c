// SPDX-License-Identifier: GPL-2.0
/*
 * trend-control.c - `make perf-trend-control`: bench trend --control's
 * figures on synthetic nights (tests/synth_nights.h), to read, never
 * asserted. Each history: NIGHTS nights (default 100) of 3 runs a side,
 * the machine's level shared by both sides, a new level in [0.8, 1.2]
 * every 3 to 8 nights (or none: a quiet machine), 1% or 3% Gaussian
 * noise a run; 20 seeds per row. Per row:
 *
 *   false_per_100_nights  change points not within one night of the
 *                         subject's step, per 100 nights: on the
 *                         subject's own runs (what bench trend without a
 *                         control sees) and on the paired nightly ratio
 *   step_found            histories whose step was found within one night
 *   theta                 the control's coefficient paired (history.h):
 *                         the median of the 20, and their range
 *
 * for a +10% step on the subject at 3/5 of the history, and for none
 * (A/A: every change point is false).
 *
 *   build/perf-trend-control [NIGHTS]
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/stats/history.h"
#include "lib/stats/scale.h"
#include "lib/stats/trend.h"
#include "tests/synth_nights.h"

#define SEEDS	20

struct tally {
	unsigned int false_cp;		/* change points away from the step */
	unsigned int found;		/* histories with the step within one night */
	double theta[SEEDS];		/* paired: each history's theta */
	unsigned int nr_theta;		/* how many */
};

/* the change points of @s (paired: history_fit_detect()'s); the nights they start at into @t */
static int count(struct history_series *s, bool paired, const struct synth_cfg *c, struct tally *t)
{
	const struct trend_cfg cfg = TREND_CFG_INIT;
	struct trend_cp *cp;
	unsigned int i, n, night;
	int hit = 0;

	if (paired ? history_fit_detect(s, &cfg) : trend_detect(s->x, s->n, &cfg, &cp, &n))
		return -1;
	if (paired) {
		cp = s->cp;
		n = s->nr_cp;
		s->cp = NULL;
		t->theta[t->nr_theta++] = s->theta;
	}
	for (i = 0; i < n; i++) {
		night = s->r[cp[i].idx].file;
		if (c->step && night + 1 >= c->at && night <= c->at + 1 && !hit)
			hit = 1;
		else
			t->false_cp++;
	}
	t->found += hit;
	free(cp);
	return 0;
}

static int row(unsigned int nights, double step, double noise, double shift)
{
	struct synth_cfg c = {
		.nights = nights, .runs = 3, .shift = shift, .noise = noise,
		.at = nights * 3 / 5, .step = step,
	};
	struct tally own = { 0 }, paired = { 0 };
	char why[512];
	unsigned int seed;
	double med;

	for (seed = 1; seed <= SEEDS; seed++) {
		struct history s = { 0 }, ctl = { 0 };

		c.seed = seed;
		if (synth_nights(&s, &ctl, &c) || count(&s.s[0], false, &c, &own) ||
		    history_pair(&s, &ctl, why, sizeof(why)) || count(&s.s[0], true, &c, &paired)) {
			fprintf(stderr, "perf-trend-control: seed %u failed\n", seed);
			return 1;
		}
		history_free(&s);
		history_free(&ctl);
	}
	med = scale_median(paired.theta, SEEDS);	/* sorts them: [0] the least */
	printf("%-10s %5.0f%% %5.0f%% %6u %5u  %23.2f %23.2f  %9u/%-2u %9u/%-2u  %5.2f [%.2f, %.2f]\n",
	       step ? "+10% step" : "A/A", noise * 100, shift * 100, nights, SEEDS,
	       100.0 * own.false_cp / (SEEDS * nights), 100.0 * paired.false_cp / (SEEDS * nights),
	       own.found, step ? SEEDS : 0, paired.found, step ? SEEDS : 0,
	       med, paired.theta[0], paired.theta[SEEDS - 1]);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int nights = argc > 1 ? (unsigned int)atoi(argv[1]) : 100;

	if (nights < 20 || nights > 10000) {
		fprintf(stderr, "usage: perf-trend-control [NIGHTS, 20..10000]\n");
		return 2;
	}
	printf("shared level shifts up to +-SHIFT every 3-8 nights (0: a quiet machine), 3 runs a night a side, alpha 0.001, min change 5%%\n");
	printf("%-10s %6s %6s %6s %5s  %23s %23s  %12s %12s  %s\n", "history", "noise", "shift",
	       "nights", "seeds", "false/100 nights alone", "false/100 nights paired", "found alone",
	       "found paired", "theta median [min, max]");
	return row(nights, 0.10, 0.01, 0.2) || row(nights, 0, 0.01, 0.2) ||
	       row(nights, 0.10, 0.03, 0.2) || row(nights, 0, 0.03, 0.2) ||
	       row(nights, 0.10, 0.01, 0) || row(nights, 0, 0.01, 0);
}
