// SPDX-License-Identifier: GPL-2.0
/*
 * kstats_hist.c - the kstats histogram: layout, merge, queries, printers.
 * See kstats_hist.h for the contract; the hot path (record) is inline there.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kstats_hist.h"

#define KSH_BAR_WIDTH	52	/* columns of '@', as bpftrace prints */

/* ---- create, free, merge ---- */

static unsigned __int128 ksh_sum(const struct ksh_slot *s)
{
	return (unsigned __int128)s->sum_hi << 64 | s->sum_lo;
}

static unsigned int ksh_nr_slots(unsigned int frac_bits)
{
	return (64 - frac_bits + 1) << frac_bits;
}

struct kstats_hist *kstats_hist_create(unsigned int frac_bits)
{
	struct kstats_hist *h;
	unsigned int i, n;
	size_t size;

	if (frac_bits > KSTATS_HIST_FRAC_BITS_MAX) {
		errno = EINVAL;
		return NULL;
	}
	n = ksh_nr_slots(frac_bits);
	/* C11 wants the size a multiple of the alignment */
	size = (sizeof(*h) + n * sizeof(h->slot[0]) + 63) & ~(size_t)63;
	h = aligned_alloc(64, size);
	if (!h)
		return NULL;
	memset(h, 0, size);
	h->frac_bits = frac_bits;
	h->nr_slots = n;
	h->min = UINT64_MAX;
	h->exact_below = UINT64_C(1) << frac_bits;
	for (i = 0; i + frac_bits < 64; i++)
		h->row[i] = &h->slot[i << frac_bits];
	return h;
}

void kstats_hist_free(struct kstats_hist *h)
{
	free(h);
}

/* @n samples summing to @sum into slot @s, as if each were @v for min and max */
static void ksh_add(struct kstats_hist *h, struct ksh_slot *s, uint64_t n,
		    unsigned __int128 sum, uint64_t v)
{
	sum += ksh_sum(s);
	s->count += n;
	s->sum_lo = (uint64_t)sum;
	s->sum_hi = (uint64_t)(sum >> 64);
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

void kstats_hist_record_n(struct kstats_hist *h, uint64_t v, uint64_t n)
{
	if (n)
		ksh_add(h, &h->slot[kstats_hist_slot(v, h->frac_bits)], n,
			(unsigned __int128)v * n, v);
}

int kstats_hist_add_slot(struct kstats_hist *h, unsigned int slot, uint64_t n,
			 uint64_t sum_hi, uint64_t sum_lo)
{
	unsigned __int128 sum = (unsigned __int128)sum_hi << 64 | sum_lo;
	uint64_t lo, last, avg;
	struct ksh_slot *s;

	if (!n || kstats_hist_slot_bounds(h->frac_bits, slot, &lo, &last) ||
	    sum < (unsigned __int128)n * lo || sum > (unsigned __int128)n * last)
		return -EINVAL;
	s = &h->slot[slot];
	if (s->count > UINT64_MAX - n)
		return -EOVERFLOW;
	avg = (uint64_t)((sum + n / 2) / n);
	ksh_add(h, s, n, sum, avg);
	return 0;
}

int kstats_hist_set_range(struct kstats_hist *h, uint64_t min, uint64_t max)
{
	unsigned int first = h->nr_slots, end = 0, i;

	for (i = 0; i < h->nr_slots; i++)
		if (h->slot[i].count) {
			if (first == h->nr_slots)
				first = i;
			end = i + 1;
		}
	if (!end || min > max || kstats_hist_slot(min, h->frac_bits) != first ||
	    kstats_hist_slot(max, h->frac_bits) != end - 1)
		return -EINVAL;
	h->min = min;
	h->max = max;
	return 0;
}

void kstats_hist_reset(struct kstats_hist *h)
{
	memset(h->slot, 0, h->nr_slots * sizeof(h->slot[0]));
	h->min = UINT64_MAX;
	h->max = 0;
}

int kstats_hist_merge(struct kstats_hist *dst, const struct kstats_hist *src)
{
	unsigned int i;

	if (dst->frac_bits != src->frac_bits)
		return -EINVAL;
	for (i = 0; i < src->nr_slots; i++) {
		struct ksh_slot *d = &dst->slot[i];
		unsigned __int128 sum = ksh_sum(d) + ksh_sum(&src->slot[i]);

		d->count += src->slot[i].count;
		d->sum_lo = (uint64_t)sum;
		d->sum_hi = (uint64_t)(sum >> 64);
	}
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	return 0;
}

/* ---- queries ---- */

unsigned int kstats_hist_frac_bits(const struct kstats_hist *h)
{
	return h->frac_bits;
}

unsigned int kstats_hist_nr_slots(const struct kstats_hist *h)
{
	return h->nr_slots;
}

uint64_t kstats_hist_total(const struct kstats_hist *h)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < h->nr_slots; i++)
		n += h->slot[i].count;
	return n;
}

uint64_t kstats_hist_slot_count(const struct kstats_hist *h, unsigned int slot)
{
	return slot < h->nr_slots ? h->slot[slot].count : 0;
}

uint64_t kstats_hist_slot_avg(const struct kstats_hist *h, unsigned int slot)
{
	const struct ksh_slot *s;

	if (slot >= h->nr_slots || !h->slot[slot].count)
		return 0;
	s = &h->slot[slot];
	return (uint64_t)((ksh_sum(s) + s->count / 2) / s->count);
}

void kstats_hist_slot_sum(const struct kstats_hist *h, unsigned int slot,
			  uint64_t *hi, uint64_t *lo)
{
	unsigned __int128 sum = slot < h->nr_slots ? ksh_sum(&h->slot[slot]) : 0;

	*hi = (uint64_t)(sum >> 64);
	*lo = (uint64_t)sum;
}

int kstats_hist_slot_bounds(unsigned int frac_bits, unsigned int slot,
			    uint64_t *lo, uint64_t *last)
{
	unsigned int shift;

	if (frac_bits > KSTATS_HIST_FRAC_BITS_MAX ||
	    slot >= ksh_nr_slots(frac_bits))
		return -EINVAL;
	if (slot < (1u << frac_bits)) {
		*lo = *last = slot;
		return 0;
	}
	shift = (slot >> frac_bits) - 1;
	*lo = ((uint64_t)(1u << frac_bits) + (slot & ((1u << frac_bits) - 1)))
	      << shift;
	*last = *lo + ((UINT64_C(1) << shift) - 1);
	return 0;
}

uint64_t kstats_hist_min(const struct kstats_hist *h)
{
	return h->max || h->min != UINT64_MAX ? h->min : 0;
}

uint64_t kstats_hist_max(const struct kstats_hist *h)
{
	return h->max;
}

double kstats_hist_mean(const struct kstats_hist *h)
{
	unsigned __int128 sum = 0;
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < h->nr_slots; i++) {
		n += h->slot[i].count;
		sum += ksh_sum(&h->slot[i]);
	}
	return n ? (double)sum / (double)n : 0.0;
}

uint64_t kstats_hist_value_at_percentile(const struct kstats_hist *h,
					 double pct)
{
	uint64_t total = kstats_hist_total(h), rank;
	struct kstats_hist_iter it;

	if (!total)
		return 0;
	pct = pct < 0 ? 0 : pct > 100 ? 100 : pct;
	rank = (uint64_t)ceil(pct * (double)total / 100.0);
	if (rank < 1)
		rank = 1;
	kstats_hist_for_each_slot(&it, h)
		if (it.cum >= rank)
			break;
	return it.last < h->min ? h->min : it.last > h->max ? h->max : it.last;
}

/* ---- printers ---- */

/* ---- the walk over the non-empty slots ---- */

void kstats_hist_iter_start(struct kstats_hist_iter *it,
			    const struct kstats_hist *h)
{
	memset(it, 0, sizeof(*it));
	it->h = h;
	it->total = kstats_hist_total(h);
}

bool kstats_hist_iter_next(struct kstats_hist_iter *it)
{
	const struct kstats_hist *h = it->h;
	unsigned int i = it->next;

	while (i < h->nr_slots && !h->slot[i].count)
		i++;
	if (i >= h->nr_slots) {
		it->next = h->nr_slots;
		return false;
	}
	it->next = i + 1;
	it->slot = i;
	it->count = h->slot[i].count;
	it->avg = kstats_hist_slot_avg(h, i);
	it->sum_hi = h->slot[i].sum_hi;
	it->sum_lo = h->slot[i].sum_lo;
	it->cum += it->count;
	kstats_hist_slot_bounds(h->frac_bits, i, &it->lo, &it->last);
	/* the kstats percentile: cum / total truncated to 6 decimals */
	it->pct_int = it->cum == it->total ? '1' : '0';
	it->pct_frac = it->cum == it->total ? 0 :
		(unsigned long)((unsigned __int128)it->cum * 1000000 / it->total);
	return true;
}

/* ---- printers ---- */

static int ksh_status(FILE *f)
{
	return ferror(f) ? -EIO : 0;
}

int kstats_hist_print_table(const struct kstats_hist *h, FILE *f)
{
	struct kstats_hist_iter it;

	fputs("BUCKET \tSAMPLES\t AVG TIME(ns)  PERCENTILE\n\n", f);
	kstats_hist_for_each_slot(&it, h)
		fprintf(f, "%3u%12lu%13lu   %c.%06lu\n", it.slot,
			(unsigned long)it.count, (unsigned long)it.avg,
			it.pct_int, it.pct_frac);
	return ksh_status(f);
}

int kstats_hist_print_kstats(const struct kstats_hist *h, FILE *f, int cpu,
			     unsigned int nr_cpus)
{
	struct kstats_hist_iter it;

	kstats_hist_for_each_slot(&it, h)
		fprintf(f, "slot %-4u %s %-4d count %8lu  avg %8lu  p %c.%06lu  n %8lu\n",
			it.slot, cpu < 0 ? "CPUS" : "CPU ",
			cpu < 0 ? (int)nr_cpus : cpu, (unsigned long)it.count,
			(unsigned long)it.avg, it.pct_int, it.pct_frac,
			(unsigned long)it.cum);
	return ksh_status(f);
}

int kstats_hist_print_csv(const struct kstats_hist *h, FILE *f,
			  const char *prefix)
{
	struct kstats_hist_iter it;

	kstats_hist_for_each_slot(&it, h) {
		fprintf(f, "%s,%u,%lu,", prefix, it.slot, (unsigned long)it.lo);
		if (it.last == UINT64_MAX)
			fputs("18446744073709551616", f);
		else
			fprintf(f, "%lu", (unsigned long)(it.last + 1));
		fprintf(f, ",%lu,%lu,%c.%06lu\n", (unsigned long)it.count,
			(unsigned long)it.avg, it.pct_int, it.pct_frac);
	}
	return ksh_status(f);
}

/*
 * Human bound: 10240 -> "10K", 2560 -> "2.5K", 1310720 -> "1.25M"; a value
 * that three decimals cannot state exactly is printed in full.
 */
static void ksh_human(char *buf, size_t len, unsigned __int128 v)
{
	static const char sfx[] = "KMGTPE";
	unsigned __int128 unit = 1024, milli;
	int i = -1;

	while (v >= unit * 1024 && i < 5) {
		unit *= 1024;
		i++;
	}
	/* v <= 2^64 (the end of the last slot), which is "16E" */
	if (v < 1024 || (milli = v * 1000 / unit) * unit != v * 1000) {
		snprintf(buf, len, "%lu", (unsigned long)v);
		return;
	}
	i++;
	if (milli % 1000 == 0)
		snprintf(buf, len, "%lu%c", (unsigned long)(milli / 1000),
			 sfx[i]);
	else if (milli % 100 == 0)
		snprintf(buf, len, "%lu.%lu%c", (unsigned long)(milli / 1000),
			 (unsigned long)(milli % 1000 / 100), sfx[i]);
	else if (milli % 10 == 0)
		snprintf(buf, len, "%lu.%02lu%c", (unsigned long)(milli / 1000),
			 (unsigned long)(milli % 1000 / 10), sfx[i]);
	else
		snprintf(buf, len, "%lu.%03lu%c", (unsigned long)(milli / 1000),
			 (unsigned long)(milli % 1000), sfx[i]);
}

static void ksh_bar_row(const struct kstats_hist *h, FILE *f, unsigned int i,
			uint64_t peak)
{
	char lo_s[32], hi_s[32], range[72];
	uint64_t lo, last, n = h->slot[i].count;
	unsigned int w = peak ? (unsigned int)((unsigned __int128)n *
					       KSH_BAR_WIDTH / peak) : 0;

	kstats_hist_slot_bounds(h->frac_bits, i, &lo, &last);
	ksh_human(lo_s, sizeof(lo_s), lo);
	ksh_human(hi_s, sizeof(hi_s), (unsigned __int128)last + 1);
	snprintf(range, sizeof(range), "[%s, %s)", lo_s, hi_s);
	fprintf(f, "%-20s %8lu |%.*s%*s|\n", range, (unsigned long)n,
		(int)w, "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@",
		(int)(KSH_BAR_WIDTH - w), "");
}

int kstats_hist_print_bars(const struct kstats_hist *h, FILE *f)
{
	unsigned int i, first = h->nr_slots, end = 0;
	struct kstats_hist_iter it;
	uint64_t peak = 0;

	kstats_hist_for_each_slot(&it, h) {
		if (first == h->nr_slots)
			first = it.slot;
		end = it.slot + 1;
		if (it.count > peak)
			peak = it.count;
	}
	for (i = first; i < end; i++)
		ksh_bar_row(h, f, i, peak);
	return ksh_status(f);
}
