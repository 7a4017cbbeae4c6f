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
 *
 * The keys have one owner: the table meta_keys[] (metakeys.c), a row per
 * key that bench writes or reads by its name, with its type, its range
 * and its meaning. A number is read through the table, its range with it:
 *
 *	uint64_t n;
 *
 *	meta_get_u64(&m, "possible_cpus", &n);	0, -ENOENT, -EINVAL, -ERANGE
 *	meta_check("possible_cpus", "9000", why, len);
 *		-EINVAL: "possible_cpus '9000' is not a count 1..8192"
 *
 * A key named in C outside lib/results/meta*.c is one of the table's
 * (tests/cli/source.bats checks it).
 */
#ifndef KSB_META_H
#define KSB_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/*
 * NR_CPUS_MAX - the kernel's NR_CPUS at most (its Kconfig's range): the
 * possible CPUs a file may say, a CPU's number below it. The one place
 * the limit is written.
 */
#define NR_CPUS_MAX	8192

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

/* what a key's value is */
enum meta_type {
	META_STR,		/* one line of text */
	META_U64,		/* a decimal in [min, max] */
	META_NUM,		/* a finite number */
	META_BOOL,		/* yes or no */
	META_TIME,		/* UTC to the second, as meta_timestamp() writes it */
};

/* one row of the table */
struct meta_key {
	const char *name;	/* the key; a name ending in '_' is a family (label_KEY) */
	enum meta_type type;	/* what its value is */
	uint64_t min;		/* META_U64: its range */
	uint64_t max;
	const char *meaning;	/* what it holds, one line */
};

/*
 * meta_keys - the table (metakeys.c): every key bench writes or reads by
 * name, ended by a row with a NULL name
 */
extern const struct meta_key meta_keys[];

/**
 * meta_key_find - the row of meta_keys[] for @key: its own, else the
 * family whose name @key starts with; NULL when the table has neither.
 */
const struct meta_key *meta_key_find(const char *key);

/**
 * meta_check - whether @val is a value of @key by its row: a decimal in
 * the range, a finite number, yes or no, a UTC time; any line for a
 * META_STR key or one the table lacks. Returns 0, or -EINVAL with one
 * line in @why (@len bytes) naming the key and the value, as "possible_cpus
 * '0' is not a count 1..8192".
 */
int meta_check(const char *key, const char *val, char *why, size_t len);

/**
 * meta_get_u64 - the value of @key in @m, a META_U64 key of the table,
 * into *@v. Returns 0; -ENOENT when @m has no such key; -EINVAL when the
 * value is not a decimal, or @key is no META_U64 key of the table (a
 * bug); -ERANGE when it is outside the row's range.
 * meta_get_num - the same of a META_NUM key, a finite number.
 * meta_get_bool - the same of a META_BOOL key: yes is true, no false.
 */
int meta_get_u64(const struct meta *m, const char *key, uint64_t *v);
int meta_get_num(const struct meta *m, const char *key, double *v);
int meta_get_bool(const struct meta *m, const char *key, bool *v);

#endif /* KSB_META_H */
