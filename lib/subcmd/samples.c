// SPDX-License-Identifier: GPL-2.0
/*
 * samples.c - the sample-list parser behind `bench hist`.
 * strtoull() is not used: it accepts a sign and wraps negative numbers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kstats_hist.h"
#include "lib/subcmd/readfile.h"
#include "lib/subcmd/samples.h"

/* a macro's value as a string, for a message */
#define SAMPLES_STR_(x)	#x
#define SAMPLES_STR(x)	SAMPLES_STR_(x)

static int samples_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

int samples_parse_line(const char *s, size_t len, uint64_t *v)
{
	const char *end = s + len;
	uint64_t x = 0;

	if (memchr(s, '\0', len))
		return -EILSEQ;
	while (s < end && samples_is_space(*s))
		s++;
	while (end > s && samples_is_space(end[-1]))
		end--;
	if (s == end)
		return 1;
	if (*s == '-' && end - s > 1 && s[1] >= '0' && s[1] <= '9')
		return -EDOM;
	for (; s < end; s++) {
		unsigned int d = (unsigned char)*s - '0';

		if (d > 9)
			return -EINVAL;
		if (x > (UINT64_MAX - d) / 10)
			return -ERANGE;
		x = x * 10 + d;
	}
	*v = x;
	return 0;
}

int samples_take(const char **p, uint64_t min, uint64_t max, uint64_t *v)
{
	size_t n = strspn(*p, "0123456789");
	uint64_t x;

	if (!n || samples_parse_line(*p, n, &x) || x < min || x > max)
		return -EINVAL;
	*v = x;
	*p += n;
	return 0;
}

int samples_read(FILE *f, struct kstats_hist *h, unsigned long *line,
		 uint64_t *n)
{
	struct readfile_lines lr;
	uint64_t v;
	int ret;

	*n = 0;
	readfile_lines_init(&lr, f, SAMPLES_MAX_LINE);
	while ((ret = readfile_lines_next(&lr)) > 0) {
		ret = samples_parse_line(lr.line, lr.len, &v);
		if (ret < 0)
			break;
		if (ret == 0) {
			kstats_hist_record(h, v);
			++*n;
		}
	}
	*line = lr.no;
	readfile_lines_free(&lr);
	return ret < 0 ? ret : 0;
}

const char *samples_strerror(int err)
{
	switch (err) {
	case -EINVAL:
		return "not a non-negative decimal integer";
	case -ERANGE:
		return "value above 2^64-1 (18446744073709551615)";
	case -EDOM:
		return "negative value (samples are 0..2^64-1)";
	case -EILSEQ:
		return "binary data (NUL byte), expected one integer per line";
	case -E2BIG:
		return "a line longer than " SAMPLES_STR(SAMPLES_MAX_LINE) " bytes, expected one integer per line";
	default:
		return strerror(-err);
	}
}
