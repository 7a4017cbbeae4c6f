/* SPDX-License-Identifier: GPL-2.0 */
/*
 * meta.h - a result's metadata: ordered "key: value" pairs, written as
 * the CSV's "# key: value" lines and the JSON document's "metadata"
 * object, and read back from both.
 *
 *	struct meta m = { 0 };
 *
 *	meta_set(&m, "cache", "%s", "cold");	added at the end
 *	meta_put(&m, "runs", "%u", 6);		replaced where it is, else added
 *	meta_get(&m, "cache");			"cold", or NULL
 *
 * Keys are [a-z0-9_]+ (shorter than META_KEY), values one line
 * (newlines become spaces; cut at META_VAL - 1 bytes). A struct meta is
 * plain data: copy it with =. One thread at a time per struct meta.
 */
#ifndef KSB_META_H
#define KSB_META_H

#include <time.h>

#define META_MAX	128	/* pairs: bench vm of a sparse run, 16 labels: 109 */
#define META_KEY	32	/* bytes of a key, NUL included */
#define META_VAL	1024	/* bytes of a value, NUL included */

struct meta {
	unsigned int n;			/* pairs in use */
	struct {
		char key[META_KEY];	/* [a-z0-9_]+ */
		char val[META_VAL];	/* one line */
	} kv[META_MAX];			/* in the order they were set */
};

/**
 * meta_set - add @key: value (printf-style) at the end, even when @key
 * is there already. Returns 0, or -ENOSPC when the table is full (the
 * pair is dropped).
 */
int meta_set(struct meta *m, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * meta_put - set @key's value (printf-style) where it is, or add it at
 * the end. Returns 0 or -ENOSPC.
 */
int meta_put(struct meta *m, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * meta_get - the value of @key (its first pair), or NULL.
 */
const char *meta_get(const struct meta *m, const char *key);

/**
 * meta_timestamp - put "timestamp: " @t, ISO 8601 in UTC to the second
 * ("2025-01-31T02:00:00Z"), where it is or at the end (bench vm gives
 * its files its own start over the guests'): when a result was taken,
 * the order of a history for bench trend. 0, -ENOSPC, or -EINVAL for a
 * @t gmtime() cannot take.
 * meta_time - the "timestamp" of @m into *@t. 0, -ENOENT (no such key),
 * -EINVAL (not YYYY-MM-DDTHH:MM:SSZ, or not a date).
 */
int meta_timestamp(struct meta *m, time_t t);
int meta_time(const struct meta *m, time_t *t);

#endif /* KSB_META_H */
