// SPDX-License-Identifier: GPL-2.0
/*
 * tblabel.c - who wrote a result: --label KEY=VALUE, checked, and the
 * build's release and git description with the labels in the metadata
 * (the API is testbed.h's).
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lib/results/meta.h"
#include "lib/host/testbed.h"

static bool tb_label_key_ok(const char *s, size_t n)
{
	size_t i;

	if (!n || n > TB_LABEL_KEY)
		return false;
	for (i = 0; i < n; i++)
		if (!islower((unsigned char)s[i]) && !isdigit((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

static bool tb_label_val_ok(const char *s)
{
	for (; *s; s++)
		if (!isprint((unsigned char)*s) && !((unsigned char)*s & 0x80))
			return false;
	return true;
}

int testbed_label(struct tb_labels *l, const char *arg, char *why, size_t len)
{
	const char *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg) : 0;
	unsigned int i;

	if (!eq || !tb_label_key_ok(arg, n)) {
		snprintf(why, len, "--label: '%s' is not KEY=VALUE with a KEY of 1-%d of a-z, 0-9, _",
			 arg, TB_LABEL_KEY);
		return -EINVAL;
	}
	if (strlen(eq + 1) >= sizeof(l->kv[0].val) || !tb_label_val_ok(eq + 1)) {
		snprintf(why, len, "--label: the value of %.*s must be at most %zu printable bytes",
			 (int)n, arg, sizeof(l->kv[0].val) - 1);
		return -EINVAL;
	}
	for (i = 0; i < l->n; i++)
		if (strlen(l->kv[i].key) == n && !strncmp(l->kv[i].key, arg, n)) {
			snprintf(why, len, "--label: %.*s given twice", (int)n, arg);
			return -EINVAL;
		}
	if (l->n == TB_MAX_LABELS) {
		snprintf(why, len, "--label: at most %d labels", TB_MAX_LABELS);
		return -EINVAL;
	}
	snprintf(l->kv[l->n].key, sizeof(l->kv[0].key), "%.*s", (int)n, arg);
	snprintf(l->kv[l->n].val, sizeof(l->kv[0].val), "%s", eq + 1);
	l->n++;
	return 0;
}

void testbed_origin(struct meta *m, const char *release, const char *git,
		    const struct tb_labels *l)
{
	char key[META_KEY];
	unsigned int i;

	/* a guest's result keeps the build that measured it */
	if (!meta_get(m, "bench_release"))
		meta_set(m, "bench_release", "%s", release);
	if (!meta_get(m, "bench_git"))
		meta_set(m, "bench_git", "%s", git);
	for (i = 0; l && i < l->n; i++) {
		snprintf(key, sizeof(key), "label_%s", l->kv[i].key);
		meta_put(m, key, "%s", l->kv[i].val);
	}
}
