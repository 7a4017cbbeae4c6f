// SPDX-License-Identifier: GPL-2.0
/*
 * outset.c - --also FMT=FILE: several reports from one invocation
 * (outset.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/report/outset.h"

/* the row of @s's table named @name (@n bytes), or -1 */
static int outset_find(const struct outset *s, const char *name, size_t n)
{
	const char *const *p = s->names;
	int i;

	for (i = 0; *p; i++, p = (const char *const *)((const char *)p + s->stride))
		if (strlen(*p) == n && !strncmp(*p, name, n))
			return i;
	return -1;
}

int outset_opt(const struct opt *o, const char *arg, char *why, size_t len)
{
	struct outset *s = o->value;
	const char *eq = arg ? strchr(arg, '=') : NULL;
	int fmt;

	if (!eq || eq == arg || !eq[1]) {
		snprintf(why, len, "--%s: '%s' is not FMT=FILE", o->long_name, arg ? arg : "");
		return -EINVAL;
	}
	fmt = outset_find(s, arg, (size_t)(eq - arg));
	if (fmt < 0) {
		snprintf(why, len, "--%s: '%.*s' is not a format (see -f in --help)", o->long_name,
			 (int)(eq - arg), arg);
		return -EINVAL;
	}
	if (s->n == OUTSET_MAX) {
		snprintf(why, len, "--%s: at most %d", o->long_name, OUTSET_MAX);
		return -EINVAL;
	}
	s->a[s->n].fmt = fmt;
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

void outset_abort(struct outset *s)
{
	unsigned int i;

	for (i = 0; i < s->n; i++)
		outfile_abort(&s->a[i].o);
}
