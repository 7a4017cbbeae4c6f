// SPDX-License-Identifier: GPL-2.0
/*
 * meta.c - a result's "key: value" metadata (see meta.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/results/meta.h"
#include "lib/subcmd/samples.h"

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

/* ---- the keys' table (metakeys.c) ---- */

const struct meta_key *meta_key_find(const char *key)
{
	const struct meta_key *k, *family = NULL;
	size_t n;

	for (k = meta_keys; k->name; k++) {
		n = strlen(k->name);
		if (!strcmp(k->name, key))
			return k;
		if (n && k->name[n - 1] == '_' && !strncmp(k->name, key, n) && key[n])
			family = k;
	}
	return family;
}

/* @val as @k's decimal into *@v: 0, -EINVAL not one, -ERANGE outside the row's range */
static int meta_u64(const struct meta_key *k, const char *val, uint64_t *v)
{
	const char *p = val;

	if (samples_take(&p, 0, UINT64_MAX, v) || *p)
		return -EINVAL;
	return *v < k->min || *v > k->max ? -ERANGE : 0;
}

/* @val as a finite number: 0 or -EINVAL */
static int meta_num(const char *val, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(val, &end);
	return end == val || *end || errno || !isfinite(*v) ? -EINVAL : 0;
}

/* @val as yes or no: 0 or -EINVAL */
static int meta_bool(const char *val, bool *v)
{
	*v = !strcmp(val, "yes");
	return *v || !strcmp(val, "no") ? 0 : -EINVAL;
}

/* what a value of @k must be, for meta_check()'s line */
static void meta_want(const struct meta_key *k, char *buf, size_t len)
{
	switch (k->type) {
	case META_U64:
		if (k->max == UINT64_MAX)
			snprintf(buf, len, "an integer >= %lu", (unsigned long)k->min);
		else
			snprintf(buf, len, "%s %lu..%lu", k->min ? "a count" : "an integer",
				 (unsigned long)k->min, (unsigned long)k->max);
		break;
	case META_NUM:
		snprintf(buf, len, "a number");
		break;
	case META_BOOL:
		snprintf(buf, len, "yes or no");
		break;
	default:
		snprintf(buf, len, "YYYY-MM-DDTHH:MM:SSZ (UTC)");
		break;
	}
}

int meta_check(const char *key, const char *val, char *why, size_t len)
{
	const struct meta_key *k = meta_key_find(key);
	struct meta one = { .n = 0 };
	char want[64];
	uint64_t u;
	double d;
	time_t t;
	bool b;
	int ret = 0;

	if (!k)
		return 0;
	switch (k->type) {
	case META_STR:
		return 0;
	case META_U64:
		ret = meta_u64(k, val, &u);
		break;
	case META_NUM:
		ret = meta_num(val, &d);
		break;
	case META_BOOL:
		ret = meta_bool(val, &b);
		break;
	case META_TIME:
		meta_set(&one, key, "%s", val);
		ret = meta_time(&one, &t);
		break;
	}
	if (!ret)
		return 0;
	meta_want(k, want, sizeof(want));
	snprintf(why, len, "%s '%s' is not %s", key, val, want);
	return -EINVAL;
}

/* @key's value in @m and its row, which must be of @type: 0, -ENOENT or -EINVAL */
static int meta_typed(const struct meta *m, const char *key, enum meta_type type,
		      const struct meta_key **k, const char **val)
{
	*k = meta_key_find(key);
	if (!*k || (*k)->type != type)
		return -EINVAL;
	*val = meta_get(m, key);
	return *val ? 0 : -ENOENT;
}

int meta_get_u64(const struct meta *m, const char *key, uint64_t *v)
{
	const struct meta_key *k;
	const char *val;

	return meta_typed(m, key, META_U64, &k, &val) ?: meta_u64(k, val, v);
}

int meta_get_num(const struct meta *m, const char *key, double *v)
{
	const struct meta_key *k;
	const char *val;

	return meta_typed(m, key, META_NUM, &k, &val) ?: meta_num(val, v);
}

int meta_get_bool(const struct meta *m, const char *key, bool *v)
{
	const struct meta_key *k;
	const char *val;

	return meta_typed(m, key, META_BOOL, &k, &val) ?: meta_bool(val, v);
}
