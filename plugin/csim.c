// SPDX-License-Identifier: GPL-2.0
/*
 * csim.c - set-associative caches with true LRU, and the L1d + LLC
 * hierarchy of the plugin (csim.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin/csim.h"

/*
 * A tag is a line number (a physical address, 52 bits at most on x86,
 * over a line of 8 bytes or more: 49 bits) with the cache's generation
 * above it. csim_flush() starts a generation, in O(1): a plugin that
 * empties the caches at every window's start would otherwise clear
 * megabytes of tags each time. A line of an older generation never
 * matches, and sits behind every line of the current one (each use
 * moves a line to the front), so a miss shifts it out exactly where an
 * emptied cache would have had a free slot: hits and misses are those
 * of an emptied cache. Tags of every generation but the last fit; once
 * they run out, one real clear.
 */
#define CSIM_LINE_BITS	49
#define CSIM_GEN_MAX	((UINT64_C(1) << (64 - CSIM_LINE_BITS)) - 2)
#define CSIM_EMPTY	UINT64_MAX	/* generation all ones: never current */
#define CSIM_ADDR_MASK	((UINT64_C(1) << (CSIM_LINE_BITS + 3)) - 1)

struct csim {
	struct csim_geom g;		/* its shape */
	uint64_t sets;			/* size / (ways * line) */
	unsigned int shift;		/* log2(line) */
	uint64_t gen;			/* the current generation, shifted in place */
	uint64_t *tag;			/* [sets][ways] gen | line, MRU first */
};

/* every tag CSIM_EMPTY (every byte 0xff), generation 0 */
static void csim_clear(struct csim *c)
{
	memset(c->tag, 0xff, c->sets * c->g.ways * sizeof(*c->tag));
	c->gen = 0;
}

int csim_check(const struct csim_geom *g, char *why, size_t len)
{
	uint64_t sets;

	if (g->line < 8 || (g->line & (g->line - 1)))
		snprintf(why, len, "a line of %u bytes: a power of two of 8 or more", g->line);
	else if (!g->ways || g->ways > CSIM_MAX_WAYS)
		snprintf(why, len, "%u ways: 1..%d", g->ways, CSIM_MAX_WAYS);
	else if (!g->size || g->size % ((uint64_t)g->ways * g->line))
		snprintf(why, len, "%llu bytes is not a whole number of sets of %u ways of %u-byte lines",
			 (unsigned long long)g->size, g->ways, g->line);
	else if ((sets = g->size / g->ways / g->line) > (UINT64_C(1) << 32))
		snprintf(why, len, "%llu sets: at most 2^32", (unsigned long long)sets);
	else
		return 0;
	return -EINVAL;
}

struct csim *csim_create(const struct csim_geom *g)
{
	char why[128];
	struct csim *c;

	if (csim_check(g, why, sizeof(why))) {
		errno = EINVAL;
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->g = *g;
	c->sets = g->size / g->ways / g->line;
	c->shift = (unsigned int)__builtin_ctz(g->line);
	c->tag = malloc(c->sets * g->ways * sizeof(*c->tag));
	if (!c->tag) {
		free(c);
		return NULL;
	}
	csim_clear(c);
	return c;
}

void csim_free(struct csim *c)
{
	if (!c)
		return;
	free(c->tag);
	free(c);
}

uint64_t csim_sets(const struct csim *c)
{
	return c->sets;
}

void csim_flush(struct csim *c)
{
	if (c->gen >> CSIM_LINE_BITS == CSIM_GEN_MAX)
		csim_clear(c);
	else
		c->gen += UINT64_C(1) << CSIM_LINE_BITS;
}

/*
 * The set is kept in recency order, most recent first: the line moves
 * (or comes in) at the front and the lines before its old place shift
 * down by one. A miss in a full set shifts all but the last, the least
 * recent, which falls off; in a set with room it shifts down to the
 * first empty slot. With at most CSIM_MAX_WAYS tags a set this is
 * cheaper than age counters' search for the oldest.
 */
static bool csim_line(struct csim *c, uint64_t line)
{
	uint64_t *set = c->tag + (line % c->sets) * c->g.ways, tag = c->gen | line;
	unsigned int i, last = c->g.ways - 1;
	bool hit;

	for (i = 0; i < last; i++)
		if (set[i] == tag || set[i] == CSIM_EMPTY)
			break;
	hit = set[i] == tag;
	memmove(set + 1, set, i * sizeof(*set));
	set[0] = tag;
	return hit;
}

bool csim_lookup(struct csim *c, uint64_t addr)
{
	return csim_line(c, (addr & CSIM_ADDR_MASK) >> c->shift);
}

void csim_access(struct csim *l1, struct csim *llc, uint64_t addr, unsigned int size,
		 bool store, struct csim_counts *n)
{
	uint64_t line = (addr & CSIM_ADDR_MASK) >> l1->shift;
	uint64_t last = ((addr & CSIM_ADDR_MASK) + size - 1) >> l1->shift;

	if (store)
		n->stores++;
	else
		n->loads++;
	for (; line <= last; line++) {
		if (csim_line(l1, line))
			continue;
		n->l1_misses++;
		if (!llc || !csim_line(llc, line << l1->shift >> llc->shift))
			n->llc_misses++;
	}
}
