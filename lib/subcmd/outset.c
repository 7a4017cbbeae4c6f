// SPDX-License-Identifier: GPL-2.0
/*
 * outset.c - --also FMT=FILE: several reports from one invocation
 * (outset.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/subcmd/outset.h"

/* the row of @s's table named @name (@n bytes), or -1 */
static int outset_find(const struct outset *s, const char *name, size_t n)
{
	int i;

	for (i = 0; s->t[i].name; i++)
		if (strlen(s->t[i].name) == n && !strncmp(s->t[i].name, name, n))
			return i;
	return -1;
}

/* FMT[:PICK] of "FMT[:PICK]=FILE", @n bytes, into file @a: 0 or -EINVAL */
static int outset_fmt(const struct opt *o, const struct outset *s, const char *arg, size_t n,
		      struct outset_file *a, char *why, size_t len)
{
	const char *colon = memchr(arg, ':', n);
	size_t fn = colon ? (size_t)(colon - arg) : n;

	a->fmt = outset_find(s, arg, fn);
	if (a->fmt < 0) {
		snprintf(why, len, "--%s: '%.*s' is not a format (see -f in --help)", o->long_name,
			 (int)fn, arg);
		return -EINVAL;
	}
	if (!colon)
		return 0;
	if (!s->pick || fn + 1 == n || n - fn - 1 >= sizeof(a->pick)) {
		snprintf(why, len, "--%s: '%.*s': %s", o->long_name, (int)n, arg,
			 s->pick ? "FMT:VARIANT needs a variant name" : "FMT takes no :PART here");
		return -EINVAL;
	}
	memcpy(a->pick, colon + 1, n - fn - 1);
	a->pick[n - fn - 1] = '\0';
	return 0;
}

int outset_opt(const struct opt *o, const char *arg, char *why, size_t len)
{
	struct outset *s = o->value;
	const char *eq = arg ? strchr(arg, '=') : NULL;
	int ret;

	if (!eq || eq == arg || !eq[1]) {
		snprintf(why, len, "--%s: '%s' is not FMT=FILE", o->long_name, arg ? arg : "");
		return -EINVAL;
	}
	if (s->n == OUTSET_MAX) {
		snprintf(why, len, "--%s: at most %d", o->long_name, OUTSET_MAX);
		return -EINVAL;
	}
	memset(&s->a[s->n], 0, sizeof(s->a[s->n]));
	ret = outset_fmt(o, s, arg, (size_t)(eq - arg), &s->a[s->n], why, len);
	if (ret)
		return ret;
	s->a[s->n].path = eq + 1;
	s->n++;
	return 0;
}

int outset_open(struct outset *s, char *why, size_t len)
{
	unsigned int i;
	int ret;

	for (i = 0; i < s->n; i++) {
		ret = outfile_open(&s->a[i].o, s->a[i].path);
		if (ret) {
			snprintf(why, len, "%s: %s", s->a[i].path, strerror(-ret));
			while (i--)
				outfile_abort(&s->a[i].o);
			return ret;
		}
	}
	return 0;
}

int outset_commit(struct outset *s, char *why, size_t len)
{
	unsigned int i;
	int ret, first = 0;

	for (i = 0; i < s->n; i++) {
		ret = outfile_commit(&s->a[i].o);
		if (ret && !first) {
			snprintf(why, len, "%s: %s", s->a[i].path, strerror(-ret));
			first = ret;
		}
	}
	return first;
}

int outset_write(struct outset *s, const void *model, char *why, size_t len)
{
	const void *m[OUTSET_MAX];
	unsigned int i;

	for (i = 0; i < s->n; i++)
		m[i] = model;
	return outset_write_each(s, m, why, len);
}

int outset_write_each(struct outset *s, const void *const *model, char *why, size_t len)
{
	unsigned int i;
	int ret;

	for (i = 0; i < s->n; i++) {
		ret = s->t[s->a[i].fmt].write(s->a[i].o.f, model[i]);
		/* stdio keeps only a flag: the errno is the outfile's */
		if (ret == -EIO && s->a[i].o.err)
			ret = -s->a[i].o.err;
		if (ret) {
			snprintf(why, len, "%s: %s", s->a[i].path, strerror(-ret));
			outset_abort(s);
			return ret;
		}
	}
	return outset_commit(s, why, len);
}

void outset_abort(struct outset *s)
{
	unsigned int i;

	for (i = 0; i < s->n; i++)
		outfile_abort(&s->a[i].o);
}
