/* SPDX-License-Identifier: GPL-2.0 */
/*
 * disturb.h - was a sample disturbed? A CPU's interrupts, counted from
 * its column of /proc/interrupts, and the calling thread's context
 * switches, read before and after the timed window: a sample whose
 * counts moved was interrupted or preempted (the engine's disturbed
 * count, and what --drop-disturbed drops).
 */
#ifndef KSB_LIB_MEASURE_DISTURB_H
#define KSB_LIB_MEASURE_DISTURB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* one CPU's interrupt counter: zeroed, then disturb_irq_open() */
struct disturb_irq {
	int fd;				/* /proc/interrupts, or -1: not counted */
	int col;			/* the CPU's column in it */
	char *buf;			/* read buffer */
	size_t len;			/* its size, bytes */
	uint64_t read_ns;		/* one read's cost, at open, ns */
};

/**
 * disturb_irq_init - an interrupt counter that counts nothing (fd -1),
 * safe to pass to disturb_irq_close().
 */
void disturb_irq_init(struct disturb_irq *d);

/**
 * disturb_irq_open - find @cpu's column of /proc/interrupts (only
 * online CPUs have one) and time one read; keep the counter only when
 * that read costs at most @max_ns, cheap enough to make twice per
 * sample. Returns true when @d counts; false, with @d counting nothing
 * (fd -1), when there is no such file or column, memory ran out, or a
 * read is too slow. @d->read_ns holds the timed read either way once
 * the column was found.
 */
bool disturb_irq_open(struct disturb_irq *d, unsigned int cpu, uint64_t max_ns);

/**
 * disturb_irq_count - the CPU's interrupts so far: the sum of its column
 * over every line of /proc/interrupts. 0 when @d counts nothing or the
 * read fails.
 */
uint64_t disturb_irq_count(struct disturb_irq *d);

/**
 * disturb_irq_counts - whether @d counts (opened, and kept)
 */
static inline bool disturb_irq_counts(const struct disturb_irq *d)
{
	return d->fd >= 0;
}

/**
 * disturb_irq_close - close and free; @d counts nothing after
 */
void disturb_irq_close(struct disturb_irq *d);

/**
 * disturb_csw - the calling thread's voluntary and involuntary context
 * switches so far (getrusage(RUSAGE_THREAD)); 0 if that fails.
 */
uint64_t disturb_csw(void);

#endif /* KSB_LIB_MEASURE_DISTURB_H */
