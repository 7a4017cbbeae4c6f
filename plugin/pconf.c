// SPDX-License-Identifier: GPL-2.0
/*
 * pconf.c - the plugin's model settings, for the plugin and bench vm
 * (pconf.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin/pconf.h"

void pconf_defaults(struct pconf *c)
{
	*c = (struct pconf){
		.cache = true,
		.cold = true,
		.l1d = { .size = 48 << 10, .ways = 12, .line = 64 },
		.llc = { .size = UINT64_C(115200) << 10, .ways = 15, .line = 64 },
	};
}

int pconf_size(const char *s, uint64_t *v)
{
	unsigned int shift = 0;
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -EINVAL;
	switch (*end) {
	case 'K': shift = 10; end++; break;
	case 'M': shift = 20; end++; break;
	case 'G': shift = 30; end++; break;
	}
	if (*end || (shift && *v > UINT64_MAX >> shift))
		return -EINVAL;
	*v <<= shift;
	return 0;
}

/* a count 1..UINT32_MAX (ways, a line) into *@v; 0 or -EINVAL */
static int pconf_uint(const char *s, unsigned int *v)
{
	uint64_t x;

	if (pconf_size(s, &x) || !x || x > UINT32_MAX)
		return -EINVAL;
	*v = (unsigned int)x;
	return 0;
}

/* on|off into *@b; 0 or -EINVAL */
static int pconf_bool(const char *s, bool *b, const char *yes, const char *no)
{
	if (!strcmp(s, yes))
		*b = true;
	else if (!strcmp(s, no))
		*b = false;
	else
		return -EINVAL;
	return 0;
}

/* @key's value into @c; -ENOENT: no model key */
static int pconf_apply(struct pconf *c, const char *key, const char *val)
{
	if (!strcmp(key, "cache"))
		return pconf_bool(val, &c->cache, "on", "off");
	if (!strcmp(key, "cold"))
		return pconf_bool(val, &c->cold, "window", "none");
	if (!strcmp(key, "l1d_size"))
		return pconf_size(val, &c->l1d.size);
	if (!strcmp(key, "l1d_ways"))
		return pconf_uint(val, &c->l1d.ways);
	if (!strcmp(key, "llc_size"))
		return pconf_size(val, &c->llc.size);
	if (!strcmp(key, "llc_ways"))
		return pconf_uint(val, &c->llc.ways);
	if (!strcmp(key, "line"))
		return pconf_uint(val, &c->l1d.line) ?: pconf_uint(val, &c->llc.line);
	return -ENOENT;
}

int pconf_set(struct pconf *c, const char *key, const char *val, char *why, size_t len)
{
	struct pconf was = *c;
	int ret = pconf_apply(c, key, val);

	if (ret)
		*c = was;
	if (ret == -EINVAL)
		snprintf(why, len, "%s=%s: %s", key, val,
			 !strcmp(key, "cache") ? "on or off" :
			 !strcmp(key, "cold") ? "window or none" :
			 strstr(key, "size") ? "a size in bytes, or with K, M or G" :
			 "a whole number above 0");
	return ret;
}

int pconf_check(const struct pconf *c, char *why, size_t len)
{
	char w[160];

	if (csim_check(&c->l1d, w, sizeof(w))) {
		snprintf(why, len, "the L1d (l1d_size, l1d_ways, line): %s", w);
		return -EINVAL;
	}
	if (csim_check(&c->llc, w, sizeof(w))) {
		snprintf(why, len, "the LLC (llc_size, llc_ways, line): %s", w);
		return -EINVAL;
	}
	return 0;
}

void pconf_model(const struct pconf *c, char *buf, size_t len)
{
	if (!c->cache) {
		snprintf(buf, len, "off");
		return;
	}
	snprintf(buf, len, "l1d %llu B %u ways, llc %llu B %u ways, %u B lines, cold %s",
		 (unsigned long long)c->l1d.size, c->l1d.ways, (unsigned long long)c->llc.size,
		 c->llc.ways, c->l1d.line, c->cold ? "window" : "none");
}
