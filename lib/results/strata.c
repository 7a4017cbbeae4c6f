// SPDX-License-Identifier: GPL-2.0
/*
 * strata.c - the runner class of a result, and the rule that one fit
 * takes one class (lib/results/strata.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lib/results/counted.h"
#include "lib/results/strata.h"

/* @s as one word: runs of other than [A-Za-z0-9.+_] one '-', none at the ends */
static void strata_word(const char *s, char *buf, size_t len)
{
	size_t n = 0;
	bool dash = false;

	for (; *s && n + 2 < len; s++) {
		bool ok = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
			  (*s >= '0' && *s <= '9') || strchr(".+_", *s);

		if (!ok) {
			dash = n > 0;
			continue;
		}
		if (dash)
			buf[n++] = '-';
		dash = false;
		buf[n++] = *s;
	}
	buf[n] = 0;
}

/* the accelerator: vm_accel, the accel= of vm_qemu, or native */
static void strata_accel(const struct meta *m, char *buf, size_t len)
{
	const char *a = meta_get(m, "vm_accel"), *q = meta_get(m, "vm_qemu");
	const char *at = q ? strstr(q, "accel=") : NULL;

	if (a)
		snprintf(buf, len, "%s", a);
	else if (at)
		snprintf(buf, len, "%.*s", (int)strcspn(at + 6, ", "), at + 6);
	else
		snprintf(buf, len, "%s", q ? "tcg" : "native");
}

void strata_class(const struct meta *m, char *buf, size_t len)
{
	const char *cpu = meta_get(m, "vm_host_cpu_model");
	bool counted = counted_unit(meta_get(m, "unit"));
	char accel[32], word[STRATA_CLASS];

	strata_accel(m, accel, sizeof(accel));
	/* a count is the emulated CPU's, whatever host ran it */
	if (counted)
		snprintf(accel, sizeof(accel), "counted");
	if (counted || (!cpu && !meta_get(m, "vm_qemu")))
		cpu = meta_get(m, "cpu_model");
	strata_word(cpu && *cpu ? cpu : "unknown", word, sizeof(word));
	snprintf(buf, len, "%s/%s", accel, word[0] ? word : "unknown");
}

/* the first seen, and the file that had it */
struct strata_seen {
	char cls[STRATA_CLASS];		/* "" none yet */
	const char *path;		/* its file */
};

/* does class @a (NUL-ended) match @b (@n bytes)? "ACCEL/unknown" matches any CPU */
static bool strata_same(const char *a, const char *b, size_t n, bool *upgrade)
{
	size_t la = strcspn(a, "/"), lb = strcspn(b, "/");
	bool ua = !strcmp(a + la, "/unknown"), ub = lb + 8 == n && !strncmp(b + lb, "/unknown", 8);

	if (lb > n)
		lb = n;
	*upgrade = ua && !ub;
	if (la != lb || strncmp(a, b, la))
		return false;
	return ua || ub || (strlen(a) == n && !strncmp(a, b, n));
}

/* @cls of @path against the first: 0, or -EINVAL said */
static int strata_one(struct strata_seen *s, const char *cls, size_t n, const char *path,
		      char *why, size_t len)
{
	bool upgrade;

	if (!s->cls[0] || (strata_same(s->cls, cls, n, &upgrade) && upgrade)) {
		snprintf(s->cls, sizeof(s->cls), "%.*s", (int)n, cls);
		s->path = path;
		return 0;
	}
	if (strata_same(s->cls, cls, n, &upgrade))
		return 0;
	snprintf(why, len, "%s ran on %s, %s on %.*s: runner classes are strata, one fit takes one (fit each apart, or --pool)",
		 s->path, s->cls, path, (int)n, cls);
	return -EINVAL;
}

/* every class of a vm_run_class list "1-2:CLASS 3-4:CLASS" */
static int strata_list(struct strata_seen *s, const char *list, const char *path, char *why,
		       size_t len)
{
	const char *p = list, *colon;
	size_t n;
	int ret = 0;

	while (*p && !ret) {
		n = strcspn(p, " ");
		colon = memchr(p, ':', n);
		if (colon)
			ret = strata_one(s, colon + 1, n - (size_t)(colon + 1 - p), path, why, len);
		p += n;
		p += strspn(p, " ");
	}
	return ret;
}

int strata_check(const struct meta *const *m, const char *const *path, unsigned int n,
		 char *why, size_t len)
{
	struct strata_seen s = { .cls = "" };
	char cls[STRATA_CLASS];
	const char *list;
	unsigned int i;
	int ret = 0;

	for (i = 0; i < n && !ret; i++) {
		list = meta_get(m[i], "vm_run_class");
		if (list) {
			ret = strata_list(&s, list, path[i], why, len);
			continue;
		}
		strata_class(m[i], cls, sizeof(cls));
		ret = strata_one(&s, cls, strlen(cls), path[i], why, len);
	}
	return ret;
}
