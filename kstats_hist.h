/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstats_hist.h - kstats-style log2 histogram with exact per-slot sums.
 *
 * The header is the manual.
 *
 * WHAT IT IS
 *
 * The histogram used by Luigi Rizzo's kstats (lr-cstats) to report the
 * latency table in "genirq: move clear of kstat_irqs to free_desc()".
 * Each power-of-two range of values is split into 2^frac_bits equal
 * sub-buckets ("slots"); every slot keeps a sample count and the exact
 * sum of its samples, so the table shows the true mean of each slot.
 *
 * USAGE
 *
 *	struct kstats_hist *h = kstats_hist_create(2);
 *
 *	if (!h)
 *		return -errno;
 *	for (i = 0; i < n; i++)
 *		kstats_hist_record(h, sample_ns[i]);
 *	kstats_hist_print_table(h, stdout);
 *	kstats_hist_free(h);
 *
 * SAMPLE OUTPUT (kstats_hist_print_table, the patch's own table)
 *
 *	BUCKET 	SAMPLES	 AVG TIME(ns)  PERCENTILE
 *
 *	 44         963         4742   0.125244
 *	 49        2214        11493   0.729125
 *	 56           2        37253   1.000000
 *
 * AVG is the rounded mean of the samples in the slot, (sum + n/2) / n.
 * PERCENTILE is the cumulative count over the total, truncated (never
 * rounded) to 6 decimals; it reads 1.000000 only on the last row.
 *
 * BUCKET LAYOUT
 *
 *	b    = fls64(v >> fb)			(fls64 is 1-based, fls64(0) = 0)
 *	slot = b ? (b << fb) | ((v >> (b - 1)) & (2^fb - 1)) : v
 *
 * Slot s < 2^fb holds exactly the value s. Slot s >= 2^fb holds
 *
 *	[(2^fb + s % 2^fb) << (s / 2^fb - 1), + 1 << (s / 2^fb - 1))
 *
 * so every slot is at most 1/2^fb (25% for fb = 2) wide relative to its
 * lower bound. 64-bit values need (64 - fb + 1) << fb slots. For fb = 2:
 *
 *	slot  0..3   [0,1) [1,2) [2,3) [3,4)         one value each
 *	slot  4..7   [4,5) [5,6) [6,7) [7,8)
 *	slot  8..11  [8,10) [10,12) [12,14) [14,16)
 *	slot 12..15  [16,20) [20,24) [24,28) [28,32)
 *	...
 *	slot 48..51  [8192,10240) [10240,12288) [12288,14336) [14336,16384)
 *	...
 *	slot 251     [7 << 61, 2^64)                  the last one
 *
 * COST (measured with `make perf` on xeon-vm: docs/measurements.md, "Machines";
 * 1M lognormal values around 10 us, fb = 2, side by side)
 *
 *	kstats_hist_record()	 ~1.19 ns  (plain counts[fls64(v)]++: ~0.98 ns,
 *				  record_ratio 1.21-1.24; 1.14 on AMD EPYC
 *				  before the row table, see record())
 *	kstats_hist_merge()	 O(slots): 252 slots for fb = 2
 *	printers		 O(slots)
 *
 * CONCURRENCY
 *
 * A histogram is not thread-safe: record() is two plain adds so that it
 * can sit in a timed region. Give each thread its own histogram and merge
 * them once the threads have stopped.
 *
 *	call				may run concurrently with
 *	kstats_hist_record(h)		calls on other histograms only
 *	kstats_hist_merge(dst, src)	readers of src; nothing on dst
 *	queries, printers (h)		other readers of h
 *	kstats_hist_free(h)		nothing on h
 *
 * NAMING
 *
 * kstats_hist_* is the API. Everything named ksh_* or marked internal is
 * the implementation, visible only because record() is inline.
 */
#ifndef KSTATS_HIST_H
#define KSTATS_HIST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define KSTATS_HIST_FRAC_BITS_DEFAULT	2
#define KSTATS_HIST_FRAC_BITS_MAX	12

/*
 * internal: one slot. The sum must hold 2^64 samples of 2^64 - 1, so it
 * has a high word; record() carries into it with a never-taken branch,
 * cheaper than a 128-bit add (measured with make perf: record_ratio 1.14
 * against 1.52-1.56 with an unsigned __int128 sum).
 */
struct ksh_slot {
	uint64_t count;			/* number of samples */
	uint64_t sum_lo;		/* exact sum of the samples, unit of v: */
	uint64_t sum_hi;		/* sum_hi * 2^64 + sum_lo */
	uint64_t pad;			/* to 32 B: never straddles a line */
};

/* internal: use the functions below, never the fields */
struct kstats_hist {
	unsigned int frac_bits;		/* sub-bucket bits, 0..12 */
	unsigned int nr_slots;		/* (64 - frac_bits + 1) << frac_bits */
	uint64_t min;			/* smallest sample, UINT64_MAX if none */
	uint64_t max;			/* largest sample, 0 if none */
	uint64_t exact_below;		/* 2^frac_bits: each smaller value has a slot */
	/* [s] = &slot[s << frac_bits] for s = 0..63 - frac_bits, see record() */
	struct ksh_slot *row[64];
	/* nr_slots entries, from a cache line of their own */
	struct ksh_slot slot[] __attribute__((aligned(64)));
};

_Static_assert(sizeof(struct ksh_slot) == 32,
	       "a slot is half a cache line: record() touches one line");
_Static_assert(((64 - 0 + 1) << KSTATS_HIST_FRAC_BITS_MAX) < (1u << 31),
	       "slot numbers fit in an int for every frac_bits");

/**
 * kstats_hist_slot - the slot that holds @v for @frac_bits sub-bucket bits.
 * Pure function, callable from any thread.
 */
static inline unsigned int kstats_hist_slot(uint64_t v, unsigned int frac_bits)
{
	/*
	 * The layout above without its branch: with e the top bit of
	 * v | 2^fb and s = e - fb, slot = (s << fb) + (v >> s). For v >= 2^fb
	 * that is (b << fb) | low bits, b = s + 1; for v < 2^fb, s = 0 and
	 * slot = v. One bsr, two shifts, an add.
	 */
	unsigned int s = 63 - __builtin_clzll(v | (UINT64_C(1) << frac_bits)) - frac_bits;

	return (s << frac_bits) + (unsigned int)(v >> s);
}

/**
 * kstats_hist_record - add one sample. The hot path: no allocation, no
 * atomics, no branch but the predictable one in the slot math.
 * Not thread-safe: one histogram per thread.
 */
static inline void kstats_hist_record(struct kstats_hist *h, uint64_t v)
{
	/*
	 * kstats_hist_slot() with its shift by frac_bits looked up instead:
	 * &slot[(e << fb) + (v >> e)] is row[e] + (v >> e). The default x86-64
	 * target has no BMI2 shlx/shrx, and on Intel cores a shift by a
	 * register count is three uops, against one on AMD: one such shift
	 * less took record_ratio from 1.51 to ~1.2 on an Intel Xeon (make
	 * perf), where epyc-vm read 1.14.
	 */
	unsigned int e = 63 - __builtin_clzll(v | h->exact_below) - h->frac_bits;
	struct ksh_slot *s = h->row[e] + (v >> e);

	s->count++;
	s->sum_lo += v;
	if (__builtin_expect(s->sum_lo < v, 0))
		s->sum_hi++;
	/*
	 * Branches, not cmov: a new extreme is rare after the first few
	 * samples, and a conditional move would store h->min on every call,
	 * chaining each record to the previous one through store forwarding
	 * (measured: record_ratio 1.42 with cmov, 1.14 with branches).
	 */
	if (__builtin_expect(v < h->min, 0))
		h->min = v;
	if (__builtin_expect(v > h->max, 0))
		h->max = v;
}

/**
 * kstats_hist_record_n - add @n samples of value @v (not the hot path:
 * for rebuilding a histogram from a table, where @v is a slot's AVG,
 * which reproduces that AVG exactly). Not thread-safe.
 */
void kstats_hist_record_n(struct kstats_hist *h, uint64_t v, uint64_t n);

/**
 * kstats_hist_add_slot - add @n samples to @slot whose exact sum is
 * @sum_hi * 2^64 + @sum_lo: what a table that keeps the sums (the CSV's
 * format 3, the module's results) holds, so that the histogram rebuilt
 * from it has the writer's counts, sums, AVG and mean exactly. min and
 * max move as if the samples were the slot's rounded mean; set them
 * with kstats_hist_set_range() once every slot is in. Not the hot path.
 * Returns 0; -EINVAL when @n is 0, @slot is out of range, or the sum is
 * not that of @n values of the slot ([n * lo, n * last]); -EOVERFLOW
 * when the slot's count would pass 2^64 - 1 (@h unchanged on error).
 */
int kstats_hist_add_slot(struct kstats_hist *h, unsigned int slot, uint64_t n,
			 uint64_t sum_hi, uint64_t sum_lo);

/**
 * kstats_hist_set_range - the exact smallest and largest sample, as a
 * table that records them states them (after kstats_hist_add_slot()).
 * Returns 0, or -EINVAL (@h unchanged) when @h is empty, @min > @max,
 * @min is not in the first non-empty slot or @max not in the last.
 */
int kstats_hist_set_range(struct kstats_hist *h, uint64_t min, uint64_t max);

/**
 * kstats_hist_create - a new, empty histogram.
 * @frac_bits: 0..KSTATS_HIST_FRAC_BITS_MAX.
 * Returns the histogram, or NULL with errno EINVAL (frac_bits out of
 * range) or ENOMEM.
 */
struct kstats_hist *kstats_hist_create(unsigned int frac_bits);

/**
 * kstats_hist_free - release @h; NULL is a no-op.
 */
void kstats_hist_free(struct kstats_hist *h);

/**
 * kstats_hist_reset - forget every sample; the layout is kept.
 */
void kstats_hist_reset(struct kstats_hist *h);

/**
 * kstats_hist_merge - add every sample of @src into @dst.
 * Returns 0, or -EINVAL when their frac_bits differ (@dst unchanged).
 */
int kstats_hist_merge(struct kstats_hist *dst, const struct kstats_hist *src);

/* ---- queries: read-only, any number of readers at once ---- */

/**
 * kstats_hist_frac_bits - the layout @h was created with.
 */
unsigned int kstats_hist_frac_bits(const struct kstats_hist *h);

/**
 * kstats_hist_nr_slots - number of slots, (64 - fb + 1) << fb.
 */
unsigned int kstats_hist_nr_slots(const struct kstats_hist *h);

/**
 * kstats_hist_total - number of samples recorded.
 */
uint64_t kstats_hist_total(const struct kstats_hist *h);

/**
 * kstats_hist_slot_count - samples in @slot (0 for a slot out of range).
 */
uint64_t kstats_hist_slot_count(const struct kstats_hist *h, unsigned int slot);

/**
 * kstats_hist_slot_avg - rounded mean of the samples in @slot,
 * (sum + count / 2) / count as in kstats; 0 for an empty slot.
 */
uint64_t kstats_hist_slot_avg(const struct kstats_hist *h, unsigned int slot);

/**
 * kstats_hist_slot_sum - the exact sum of the samples in @slot, as
 * *@hi * 2^64 + *@lo; 0 for an empty slot or one out of range.
 */
void kstats_hist_slot_sum(const struct kstats_hist *h, unsigned int slot,
			  uint64_t *hi, uint64_t *lo);

/**
 * kstats_hist_slot_bounds - the values slot @slot holds: [*lo, *last],
 * both inclusive, so that the last slot (whose end is 2^64) needs no
 * wider type. Returns 0, or -EINVAL when @slot is out of range for
 * @frac_bits (0..12).
 */
int kstats_hist_slot_bounds(unsigned int frac_bits, unsigned int slot,
			    uint64_t *lo, uint64_t *last);

/* kstats_hist_min, kstats_hist_max - extreme samples; 0 when empty. */
uint64_t kstats_hist_min(const struct kstats_hist *h);
uint64_t kstats_hist_max(const struct kstats_hist *h);

/**
 * kstats_hist_mean - exact mean of all samples; 0.0 when empty.
 */
double kstats_hist_mean(const struct kstats_hist *h);

/**
 * kstats_hist_value_at_percentile - the value below which @pct percent
 * (0..100) of the samples lie, bucket-bounded: the UPPER bound (inclusive
 * last value) of the slot that holds the sample of rank
 * max(1, ceil(pct * total / 100)), clamped to [min, max]. So it never
 * under-reports, and is exact for the extremes. 0 when empty.
 */
uint64_t kstats_hist_value_at_percentile(const struct kstats_hist *h,
					 double pct);

/* ---- the non-empty slots, in order, as the printers show them ---- */

/*
 * One step of a walk over the non-empty slots of a histogram, with what
 * every printer shows of the slot. Read-only on the histogram.
 *
 *	struct kstats_hist_iter it;
 *
 *	kstats_hist_for_each_slot(&it, h)
 *		printf("%u %lu %c.%06lu\n", it.slot, it.count, it.pct_int, it.pct_frac);
 */
struct kstats_hist_iter {
	const struct kstats_hist *h;	/* the histogram walked */
	uint64_t total;			/* its samples */
	unsigned int next;		/* internal: the slot to look at next */
	unsigned int slot;		/* this slot (the table's BUCKET) */
	uint64_t count;			/* samples in it, > 0 */
	uint64_t avg;			/* their rounded mean, as kstats_hist_slot_avg() */
	uint64_t cum;			/* samples in it and in every slot before */
	uint64_t lo;			/* first value it holds */
	uint64_t last;			/* last value it holds, inclusive */
	uint64_t sum_hi;		/* exact sum of its samples: */
	uint64_t sum_lo;		/* sum_hi * 2^64 + sum_lo */
	char pct_int;			/* the percentile cum / total: '1' or '0', */
	unsigned long pct_frac;		/* then 6 decimals, truncated */
};

/**
 * kstats_hist_iter_start - a walk over @h from its first slot.
 */
void kstats_hist_iter_start(struct kstats_hist_iter *it,
			    const struct kstats_hist *h);

/**
 * kstats_hist_iter_next - move @it to the next non-empty slot and fill
 * its fields. Returns true, or false past the last one.
 */
bool kstats_hist_iter_next(struct kstats_hist_iter *it);

/**
 * kstats_hist_for_each_slot - every non-empty slot of @h, in order
 */
#define kstats_hist_for_each_slot(it, h) \
	for (kstats_hist_iter_start(it, h); kstats_hist_iter_next(it);)

/* ---- printers: only non-empty slots; return 0 or -EIO (ferror) ---- */

/**
 * kstats_hist_print_table - the patch's table, byte for byte:
 * "BUCKET \tSAMPLES\t AVG TIME(ns)  PERCENTILE\n\n", then one
 * "%3u%12lu%13lu   %c.%06lu\n" row per slot.
 */
int kstats_hist_print_table(const struct kstats_hist *h, FILE *f);

/**
 * kstats_hist_print_kstats - lines in the format of lr-cstats' ks_print(),
 * "slot %-4u CPU  %-4d count %8lu  avg %8lu  p %c.%06lu  n %8lu"
 * where n is the cumulative count. @cpu >= 0 labels a per-CPU table
 * ("CPU " and the CPU); @cpu < 0 a merged one ("CPUS" and @nr_cpus, the
 * CPUs merged, where kstats prints nr_cpu_ids). Unlike kstats, whose sum
 * drops low bits of samples of 2^19 and up (SUM_SCALE), avg is the exact
 * rounded mean of the slot.
 */
int kstats_hist_print_kstats(const struct kstats_hist *h, FILE *f, int cpu,
			     unsigned int nr_cpus);

/**
 * kstats_hist_print_csv - one CSV row per slot:
 * "<prefix>,bucket,lo,hi,samples,avg,percentile" with [lo, hi) in the
 * unit of the samples (hi of the last slot is 18446744073709551616).
 * @prefix is the caller's leading columns, without a trailing comma.
 */
int kstats_hist_print_csv(const struct kstats_hist *h, FILE *f,
			  const char *prefix);

/**
 * kstats_hist_print_bars - a quick terminal view in the bpftrace style,
 * every slot from the first to the last non-empty one:
 * "[10K, 12K)          2214 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|"
 */
int kstats_hist_print_bars(const struct kstats_hist *h, FILE *f);

#endif /* KSTATS_HIST_H */
