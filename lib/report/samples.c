// SPDX-License-Identifier: GPL-2.0
/*
 * samples.c - the sample-list parser behind `bench hist`.
 * strtoull() is not used: it accepts a sign and wraps negative numbers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kstats_hist.h"
#include "lib/report/samples.h"

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

int samples_read(FILE *f, struct kstats_hist *h, unsigned long *line,
		 uint64_t *n)
{
	size_t cap = 0;
	char *buf = NULL;
	ssize_t len;
	uint64_t v;
	int ret = 0;

	*line = 0;
	*n = 0;
	errno = 0;
	while ((len = getline(&buf, &cap, f)) >= 0) {
		++*line;
		if (len && buf[len - 1] == '\n')
			len--;
		ret = samples_parse_line(buf, (size_t)len, &v);
		if (ret < 0)
			goto out_free_buf;
		if (ret == 0) {
			kstats_hist_record(h, v);
			++*n;
		}
	}
	ret = ferror(f) ? -(errno ? errno : EIO) : 0;
	if (ret)
		++*line;
out_free_buf:
	free(buf);
	return ret;
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
	default:
		return strerror(-err);
	}
}
