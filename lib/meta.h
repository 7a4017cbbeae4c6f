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

#define META_MAX	64	/* pairs */
#define META_KEY	32	/* bytes of a key, NUL included */
#define META_VAL	1024	/* bytes of a value, NUL included */

struct meta {
	unsigned int n;			/* pairs in use */
	struct {
		char key[META_KEY];	/* [a-z0-9_]+ */
		char val[META_VAL];	/* one line */
	} kv[META_MAX];			/* in the order they were set */
};

/*
 * meta_set - add @key: value (printf-style) at the end, even when @key
 * is there already. Returns 0, or -ENOSPC when the table is full (the
 * pair is dropped).
 */
int meta_set(struct meta *m, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * meta_put - set @key's value (printf-style) where it is, or add it at
 * the end. Returns 0 or -ENOSPC.
 */
int meta_put(struct meta *m, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* meta_get - the value of @key (its first pair), or NULL. */
const char *meta_get(const struct meta *m, const char *key);

#endif /* KSB_META_H */
