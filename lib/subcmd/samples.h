/* SPDX-License-Identifier: GPL-2.0 */
/*
 * samples.h - read lists of integer samples (one per line) into a histogram.
 *
 * Format: one non-negative decimal integer (0..2^64-1) per line; spaces,
 * tabs and a trailing CR around it are allowed; blank lines are ignored.
 * Anything else is an error that names the line. Used by `bench hist`.
 * Not thread-safe on one FILE; no state of its own.
 */
#ifndef KSB_SAMPLES_H
#define KSB_SAMPLES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct kstats_hist;

/* bytes of a line at most (spaces around a number included): longer is an error */
#define SAMPLES_MAX_LINE	4096

/**
 * samples_parse_line - parse one line of @len bytes (no newline needed).
 * Returns 0 with *@v set, 1 for a blank line, or:
 *   -EINVAL  not a decimal integer	-ERANGE  above 2^64-1
 *   -EDOM    negative			-EILSEQ  a NUL byte (binary data)
 */
int samples_parse_line(const char *s, size_t len, uint64_t *v);

/**
 * samples_read - record every sample of @f into @h.
 * *@line is the number of lines read: on an error, the line at fault.
 * *@n is the number of samples recorded.
 * Returns 0, a samples_parse_line() error, -E2BIG for a line longer than
 * SAMPLES_MAX_LINE (not read further: /dev/zero is refused at once),
 * -ENOMEM, or -errno of a read error.
 */
int samples_read(FILE *f, struct kstats_hist *h, unsigned long *line,
		 uint64_t *n);

/**
 * samples_take - the decimal digits at *@p (at least one: no sign, no
 * space, no other base) as a number in [@min, @max] into *@v, *@p moved
 * past them: what a field of a list ("3 4", "1/3", "5-8 of 12") is read
 * by, never wrapped. Returns 0, or -EINVAL (*@p and *@v as they were).
 */
int samples_take(const char **p, uint64_t min, uint64_t max, uint64_t *v);

/**
 * samples_strerror - what a samples_* error means, for a message.
 */
const char *samples_strerror(int err);

#endif /* KSB_SAMPLES_H */
