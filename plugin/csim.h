/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csim.h - the plugin's cache model: set-associative caches with true
 * LRU in every set, on physical addresses, and the two-level hierarchy
 * the plugin counts misses with (a private L1d per vCPU in front of one
 * last level cache that every vCPU shares). Plain C, no QEMU: the unit
 * tests (tests/unit/test_plugin.c) link it as the plugin does.
 *
 *	struct csim_geom g = { .size = 48 << 10, .ways = 12, .line = 64 };
 *	struct csim *l1 = csim_create(&g), *llc = csim_create(&big);
 *	struct csim_counts n = { 0 };
 *
 *	csim_access(l1, llc, paddr, 8, true, &n);	a store of 8 bytes
 *	... n.stores, n.l1_misses, n.llc_misses ...
 *	csim_flush(l1);					every line invalid
 *
 * What it models and what it does not:
 *  - a set is (address / line) modulo the number of sets: a real L1d
 *    indexes so; a real LLC hashes over slices, which modulo stands in
 *    for;
 *  - a miss fills the line at every level it missed (write-allocate,
 *    loads and stores alike); the L1d and the LLC evict independently
 *    (non-inclusive, nothing invalidated in the L1d when the LLC evicts);
 *  - no write-backs, prefetchers, coherence between vCPUs' L1ds, or
 *    instruction fetches: a count of demand misses of data accesses;
 *  - an access that crosses a line boundary is one load or store and
 *    looks up each line it touches: each can miss.
 *
 * Cost: a lookup scans one set (ways tags) and moves the line found to
 * the front; about 10 ns an access on the LLC's 15 ways.
 * Not thread-safe: a cache belongs to one caller at a time (the plugin
 * takes its lock around the shared LLC).
 */
#ifndef KSB_CSIM_H
#define KSB_CSIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CSIM_MAX_WAYS	64		/* ways of a set, at most */

/* the shape of one cache */
struct csim_geom {
	uint64_t size;			/* bytes, = sets * ways * line */
	unsigned int ways;		/* lines a set holds, 1..CSIM_MAX_WAYS */
	unsigned int line;		/* bytes a line, a power of two >= 8 */
};

/* what a window's accesses did */
struct csim_counts {
	uint64_t loads;			/* load accesses */
	uint64_t stores;		/* store accesses */
	uint64_t l1_misses;		/* lines looked up in the L1d and missed */
	uint64_t llc_misses;		/* of those, lines the LLC missed too */
};

struct csim;

/**
 * csim_check - is @g a cache csim_create() makes? 0, or -EINVAL with
 * one line into @why (@len bytes) naming what is wrong.
 */
int csim_check(const struct csim_geom *g, char *why, size_t len);

/**
 * csim_create - an empty cache of geometry @g. NULL with errno EINVAL
 * (csim_check() refuses @g) or ENOMEM.
 */
struct csim *csim_create(const struct csim_geom *g);

/**
 * csim_free - the cache; NULL is a no-op.
 */
void csim_free(struct csim *c);

/**
 * csim_sets - the number of sets of @c.
 */
uint64_t csim_sets(const struct csim *c);

/**
 * csim_lookup - the line that holds physical address @addr, in @c:
 * true on a hit (the line becomes its set's most recently used), false
 * on a miss (the line is filled as the most recently used, and the
 * set's least recently used one evicted when the set is full).
 */
bool csim_lookup(struct csim *c, uint64_t addr);

/**
 * csim_flush - every line of @c invalid, as at creation.
 */
void csim_flush(struct csim *c);

/**
 * csim_access - one load or store (@store) of @size bytes (>= 1) at
 * physical address @addr through @l1 and then @llc (NULL: no last
 * level; its misses are then the L1d's): each line the access touches
 * looked up in @l1, and in @llc where @l1 missed; counted into @n.
 */
void csim_access(struct csim *l1, struct csim *llc, uint64_t addr, unsigned int size,
		 bool store, struct csim_counts *n);

#endif /* KSB_CSIM_H */
