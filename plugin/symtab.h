/* SPDX-License-Identifier: GPL-2.0 */
/*
 * symtab.h - which function an instruction belongs to, and a window's
 * instructions per function, for the plugin. Plain C, no QEMU: the unit
 * tests (tests/unit/test_plugin.c) link it as the plugin does.
 *
 * The functions are a kernel image's text symbols (types t, T, w, W)
 * from a file in nm's format, "ADDRESS TYPE NAME [MODULE]": the tree's
 * System.map, `nm vmlinux`, or /proc/kallsyms read as root in a guest
 * booted with nokaslr (its addresses are then the image's own). A
 * function runs from its address to the next one's, at most
 * SYMTAB_FUNC_MAX bytes. Every address falls in exactly one bucket:
 *
 *	SYMTAB_USER	"[user]"    the lower half (bit 63 clear): user space
 *	SYMTAB_KERNEL	"[kernel]"  the upper half outside every function:
 *				    a module's code without its symbols, BPF,
 *				    a kernel run without a symbol file
 *	2, 3, ...	the functions, in address order
 *
 *	struct symtab *t = symtab_create();
 *	symtab_load(t, f, why, sizeof(why));		System.map, kallsyms
 *	struct symtab_counts *c = symtab_counts_create(t);
 *
 *	symtab_counts_add(c, symtab_bucket(t, vaddr), 0, insns);
 *	symtab_counts_add(c, symtab_bucket(t, vaddr), 1, misses);
 *	n = symtab_counts_sorted(c, &order);	order[0..n) most value 0 first
 *	... symtab_name(t, order[i]), symtab_counts_get(c, order[i], 0) ...
 *	symtab_counts_reset(c);			the next window
 *
 * A bucket counts SYMTAB_VALUES values (the plugin's: instructions, L1d
 * misses, LLC misses). A window's buckets always add up to its totals:
 * every count goes to one bucket, and a total is the sum of the
 * buckets'.
 * Not thread-safe; a table is read-only once loaded and may then be
 * shared, a counts belongs to one caller (the plugin keeps one a vCPU).
 */
#ifndef KSB_SYMTAB_H
#define KSB_SYMTAB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SYMTAB_USER	0		/* user space, one bucket */
#define SYMTAB_KERNEL	1		/* kernel code outside every function */
#define SYMTAB_FIRST	2		/* the first function's bucket */
#define SYMTAB_FUNC_MAX	(256u << 10)	/* bytes a function spans at most */
#define SYMTAB_VALUES	3		/* values a bucket counts; the first sorts */

struct symtab;
struct symtab_counts;

/**
 * symtab_create - a table of no function. NULL with errno ENOMEM.
 */
struct symtab *symtab_create(void);

/**
 * symtab_free - the table; NULL is a no-op.
 */
void symtab_free(struct symtab *t);

/**
 * symtab_load - add the text symbols of @f (nm's format, one a line;
 * other types and lines that do not parse are skipped), then sort by
 * address; of names that share an address the first read is kept.
 * Returns 0; -EINVAL with one line into @why when @f holds no text
 * symbol (not a symbol file), -ENOMEM.
 */
int symtab_load(struct symtab *t, FILE *f, char *why, size_t len);

/**
 * symtab_nr - buckets of @t: SYMTAB_FIRST + its functions.
 */
unsigned int symtab_nr(const struct symtab *t);

/**
 * symtab_bucket - the bucket of the instruction at @vaddr (any address).
 */
unsigned int symtab_bucket(const struct symtab *t, uint64_t vaddr);

/**
 * symtab_name - bucket @b's name ("[user]", "[kernel]", a function).
 */
const char *symtab_name(const struct symtab *t, unsigned int b);

/* ---- a window's instructions per bucket ---- */

/**
 * symtab_counts_create - zero counts for every bucket of @t (which must
 * not be loaded again while they live). NULL with errno ENOMEM.
 */
struct symtab_counts *symtab_counts_create(const struct symtab *t);

/**
 * symtab_counts_free - the counts; NULL is a no-op.
 */
void symtab_counts_free(struct symtab_counts *c);

/**
 * symtab_counts_add - @n more of value @k (< SYMTAB_VALUES) in bucket @b
 * (< symtab_nr()).
 */
void symtab_counts_add(struct symtab_counts *c, unsigned int b, unsigned int k, uint64_t n);

/**
 * symtab_counts_get - bucket @b's value @k.
 */
uint64_t symtab_counts_get(const struct symtab_counts *c, unsigned int b, unsigned int k);

/**
 * symtab_counts_total - value @k of every bucket: their sum.
 */
uint64_t symtab_counts_total(const struct symtab_counts *c, unsigned int k);

/**
 * symtab_counts_sorted - the buckets that counted anything, the most of
 * value 0 first (ties: lower bucket first), into *@order (owned by @c,
 * valid until the next call on it). Returns how many.
 */
unsigned int symtab_counts_sorted(struct symtab_counts *c, const unsigned int **order);

/**
 * symtab_counts_reset - every bucket back to 0 (costs the buckets used).
 */
void symtab_counts_reset(struct symtab_counts *c);

#endif /* KSB_SYMTAB_H */
