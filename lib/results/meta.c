// SPDX-License-Identifier: GPL-2.0
/*
 * meta.c - a result's "key: value" metadata (see meta.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/results/meta.h"

static int meta_find(const struct meta *m, const char *key)
{
	unsigned int i;

	for (i = 0; i < m->n; i++)
		if (!strcmp(m->kv[i].key, key))
			return (int)i;
	return -1;
}

/* pair @i (m->n: a new one) = @key: the formatted value, one line */
static int __attribute__((format(printf, 4, 0)))
meta_vstore(struct meta *m, unsigned int i, const char *key,
		       const char *fmt, va_list ap)
{
	char *p;

	if (i >= META_MAX)
		return -ENOSPC;
	snprintf(m->kv[i].key, sizeof(m->kv[i].key), "%s", key);
	vsnprintf(m->kv[i].val, sizeof(m->kv[i].val), fmt, ap);
	for (p = m->kv[i].val; (p = strpbrk(p, "\r\n"));)
		*p = ' ';
	if (i == m->n)
		m->n++;
	return 0;
}

int meta_set(struct meta *m, const char *key, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = meta_vstore(m, m->n, key, fmt, ap);
	va_end(ap);
	return ret;
}

int meta_put(struct meta *m, const char *key, const char *fmt, ...)
{
	int i = meta_find(m, key);
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = meta_vstore(m, i < 0 ? m->n : (unsigned int)i, key, fmt, ap);
	va_end(ap);
	return ret;
}

const char *meta_get(const struct meta *m, const char *key)
{
	int i = meta_find(m, key);

	return i < 0 ? NULL : m->kv[i].val;
}

#define META_TIME_FMT	"%Y-%m-%dT%H:%M:%SZ"

int meta_timestamp(struct meta *m, time_t t)
{
	struct tm tm;
	char buf[32];

	if (!gmtime_r(&t, &tm) || !strftime(buf, sizeof(buf), META_TIME_FMT, &tm))
		return -EINVAL;
	return meta_put(m, "timestamp", "%s", buf);
}

int meta_time(const struct meta *m, time_t *t)
{
	const char *v = meta_get(m, "timestamp"), *end;
	struct tm tm = { 0 }, back;
	char buf[32];

	if (!v)
		return -ENOENT;
	end = strptime(v, META_TIME_FMT, &tm);
	if (!end || *end)
		return -EINVAL;
	*t = timegm(&tm);
	/* strptime takes Feb 30 and a 24th hour: the round trip does not */
	if (!gmtime_r(t, &back) || !strftime(buf, sizeof(buf), META_TIME_FMT, &back) ||
	    strcmp(buf, v))
		return -EINVAL;
	return 0;
}
