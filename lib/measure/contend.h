/* SPDX-License-Identifier: GPL-2.0 */
/*
 * contend.h - how much the host's other work held up a measured window:
 * the PSI cpu "some" stall time (the kernel's pressure stall
 * information, /proc/pressure/cpu: the microseconds in which at least one
 * runnable task waited for a CPU), read before and after the window.
 * What the window was (a run of bench run, a boot of bench vm) and what
 * it means is the caller's: lib/results/busy.h holds the rule.
 *
 *	struct contend c;
 *
 *	contend_start(&c, NULL);		NULL: $KSB_PSI_CPU or /proc/pressure/cpu
 *	... the measured window ...
 *	contend_stop(&c);
 *	if (c.psi)
 *		c.psi_us of c.seconds, contend_psi_pct(&c) percent
 *
 * A host without PSI (before 4.20, CONFIG_PSI=n, psi=0 on its command
 * line) has no such file: c.psi is false, and nothing is recorded.
 * $KSB_PSI_CPU, when set, names the file read in its place (the tests'
 * seam: a file they write the totals to).
 * Nothing here prints. One thread at a time per struct contend.
 */
#ifndef KSB_LIB_MEASURE_CONTEND_H
#define KSB_LIB_MEASURE_CONTEND_H

#include <stdbool.h>
#include <stdint.h>

#define CONTEND_PSI_CPU	"/proc/pressure/cpu"

/* one window */
struct contend {
	const char *path;		/* the PSI file read */
	bool psi;			/* both reads worked: psi_us counts */
	uint64_t psi_us;		/* cpu "some" stall over the window, us */
	double seconds;			/* the window, CLOCK_MONOTONIC s */
	uint64_t psi0;			/* "total=" at the start, us */
	double t0;			/* the start, CLOCK_MONOTONIC s */
};

/**
 * contend_psi_parse - the "total=" of the "some" line of a PSI file's
 * text @text ("some avg10=0.00 avg60=0.00 avg300=0.00 total=1234\n...")
 * into *@us. Returns 0, or -EINVAL when there is no such line or its
 * total is not a number.
 */
int contend_psi_parse(const char *text, uint64_t *us);

/**
 * contend_psi_read - the "some" total of the PSI file @path (NULL:
 * $KSB_PSI_CPU, else /proc/pressure/cpu) into *@us. Returns 0; -errno of opening or
 * reading it (-ENOENT: no PSI here; -EOPNOTSUPP, which a kernel booted
 * with psi=0 gives); -EINVAL when its text does not parse.
 */
int contend_psi_read(const char *path, uint64_t *us);

/**
 * contend_start - start a window over @path (NULL: as contend_psi_read();
 * the string must outlive @c): its clock, and the PSI total when it
 * reads. Never fails: a file that does not read leaves @c->psi false.
 */
void contend_start(struct contend *c, const char *path);

/**
 * contend_stop - end the window: @c->seconds, and @c->psi_us with
 * @c->psi true when the file read at both ends (a total that went back
 * counts nothing).
 */
void contend_stop(struct contend *c);

/**
 * contend_psi_pct - @c's stall as a percentage of its window (0..100),
 * or 0 when @c has no PSI figure or no length.
 */
double contend_psi_pct(const struct contend *c);

#endif /* KSB_LIB_MEASURE_CONTEND_H */
