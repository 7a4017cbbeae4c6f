/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksb_hist.h - the kstats histogram of kstats_hist.h, for the kernel
 * module kstats_bench: the same slot math, the same exact per-slot sums,
 * the same rounded AVG and truncated PERCENTILE, the same table rows.
 *
 * kstats_hist.h needs the C library (stdio, stdint, aligned_alloc) and a
 * 128-bit division, which the kernel lacks, so this is a second,
 * header-only implementation that builds in the kernel and in user space
 * alike. tests/unit/test_ksb_hist.c proves the two agree: slot numbers,
 * bounds, and the printed table byte for byte, on the same samples.
 *
 * The caller allocates a struct ksb_hist of ksb_hist_size(frac_bits)
 * zeroed bytes and calls ksb_hist_init(). Not thread-safe: one histogram
 * per thread, merged once the threads have stopped.
 */
#ifndef KSB_HIST_H
#define KSB_HIST_H

#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/types.h>
#else
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#endif

#define KSB_HIST_FRAC_BITS_MAX	12	/* as KSTATS_HIST_FRAC_BITS_MAX */
#define KSB_HIST_ROW_MAX	96	/* one table row with its NUL, any values */

struct ksb_slot {
	uint64_t count;			/* number of samples */
	uint64_t sum_lo;		/* exact sum of the samples (ns): */
	uint64_t sum_hi;		/* sum_hi * 2^64 + sum_lo */
};

struct ksb_hist {
	unsigned int frac_bits;		/* sub-bucket bits, 0..12 */
	unsigned int nr_slots;		/* (64 - frac_bits + 1) << frac_bits */
	uint64_t total;			/* samples recorded */
	uint64_t min;			/* smallest sample, ~0 if none */
	uint64_t max;			/* largest sample, 0 if none */
	struct ksb_slot slot[];		/* nr_slots entries */
};

/* ksb_hist_nr_slots - slots for @frac_bits (0..12). */
static inline unsigned int ksb_hist_nr_slots(unsigned int frac_bits)
{
	return (64 - frac_bits + 1) << frac_bits;
}

/* ksb_hist_size - bytes to allocate for a histogram of @frac_bits. */
static inline size_t ksb_hist_size(unsigned int frac_bits)
{
	return sizeof(struct ksb_hist) +
	       ksb_hist_nr_slots(frac_bits) * sizeof(struct ksb_slot);
}

/* ksb_hist_init - set up a zeroed histogram of ksb_hist_size() bytes. */
static inline void ksb_hist_init(struct ksb_hist *h, unsigned int frac_bits)
{
	h->frac_bits = frac_bits;
	h->nr_slots = ksb_hist_nr_slots(frac_bits);
	h->min = ~(uint64_t)0;
}

/* ksb_hist_slot - the slot of @v: kstats_hist_slot(), the same formula. */
static inline unsigned int ksb_hist_slot(uint64_t v, unsigned int frac_bits)
{
	unsigned int s = 63 - __builtin_clzll(v | ((uint64_t)1 << frac_bits)) - frac_bits;

	return (s << frac_bits) + (unsigned int)(v >> s);
}

/* ksb_slot_add - add @n samples summing to hi:lo into @s. */
static inline void ksb_slot_add(struct ksb_slot *s, uint64_t n, uint64_t hi,
				uint64_t lo)
{
	s->count += n;
	s->sum_lo += lo;
	s->sum_hi += hi + (s->sum_lo < lo);
}

/* ksb_hist_record - add one sample @v. */
static inline void ksb_hist_record(struct ksb_hist *h, uint64_t v)
{
	ksb_slot_add(&h->slot[ksb_hist_slot(v, h->frac_bits)], 1, 0, v);
	h->total++;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

/* ksb_hist_merge - add @src into @dst, both of the same frac_bits. */
static inline void ksb_hist_merge(struct ksb_hist *dst, const struct ksb_hist *src)
{
	unsigned int i;

	for (i = 0; i < src->nr_slots; i++)
		if (src->slot[i].count)
			ksb_slot_add(&dst->slot[i], src->slot[i].count,
				     src->slot[i].sum_hi, src->slot[i].sum_lo);
	dst->total += src->total;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

/*
 * ksb_div128 - (hi * 2^64 + lo) / d for hi < d (the quotient fits in 64
 * bits): shift and subtract, as the kernel has no 128-bit division.
 */
static inline uint64_t ksb_div128(uint64_t hi, uint64_t lo, uint64_t d)
{
	uint64_t q = 0;
	int i;

	for (i = 63; i >= 0; i--) {
		uint64_t top = hi >> 63;

		hi = hi << 1 | lo >> 63;
		lo <<= 1;
		q <<= 1;
		if (top || hi >= d) {
			hi -= d;
			q |= 1;
		}
	}
	return q;
}

/* ksb_slot_avg - (sum + count / 2) / count, as kstats_hist_slot_avg(). */
static inline uint64_t ksb_slot_avg(const struct ksb_slot *s)
{
	uint64_t half = s->count / 2, lo = s->sum_lo + half;
	uint64_t hi = s->sum_hi + (lo < half);

	return s->count ? ksb_div128(hi, lo, s->count) : 0;
}

/*
 * ksb_pct - the PERCENTILE column, cum / total truncated to 6 decimals:
 * '1' and 0 on the last row, else '0' and cum * 10^6 / total.
 */
static inline void ksb_pct(uint64_t cum, uint64_t total, char *integer,
			   unsigned long *frac)
{
	unsigned __int128 p = (unsigned __int128)cum * 1000000;

	*integer = cum == total ? '1' : '0';
	*frac = cum == total ? 0 :
		(unsigned long)ksb_div128((uint64_t)(p >> 64), (uint64_t)p, total);
}

/* ksb_hist_header - the table's header, as kstats_hist_print_table(). */
#define KSB_HIST_HEADER	"BUCKET \tSAMPLES\t AVG TIME(ns)  PERCENTILE\n\n"

/*
 * ksb_hist_row - the table row of @slot into @buf (KSB_HIST_ROW_MAX
 * bytes), @cum the cumulative count up to and including it.
 */
static inline void ksb_hist_row(char *buf, const struct ksb_hist *h,
				unsigned int slot, uint64_t cum)
{
	unsigned long frac;
	char c;

	ksb_pct(cum, h->total, &c, &frac);
	snprintf(buf, KSB_HIST_ROW_MAX, "%3u%12llu%13llu   %c.%06lu\n", slot,
		 (unsigned long long)h->slot[slot].count,
		 (unsigned long long)ksb_slot_avg(&h->slot[slot]), c, frac);
}

#endif /* KSB_HIST_H */
