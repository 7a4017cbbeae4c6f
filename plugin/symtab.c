// SPDX-License-Identifier: GPL-2.0
/*
 * symtab.c - a kernel image's functions and a window's instructions per
 * function, for the plugin (symtab.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "plugin/symtab.h"

#define SYMTAB_NAME_MAX	128		/* a kernel symbol's name, with its NUL */

struct symtab_func {
	uint64_t addr;			/* where it starts */
	unsigned int seq;		/* the order it was read in */
	char *name;			/* its name; owned */
};

struct symtab {
	unsigned int n;			/* functions in use */
	unsigned int cap;		/* functions allocated */
	struct symtab_func *f;		/* [n], by address once loaded */
};

struct symtab_counts {
	unsigned int nr;		/* buckets */
	uint64_t *n;			/* [nr][SYMTAB_VALUES] per bucket */
	unsigned char *on;		/* [nr] the bucket is in @touched */
	unsigned int used;		/* buckets in @touched */
	unsigned int *touched;		/* [nr] the buckets counted, in no order */
	uint64_t total[SYMTAB_VALUES];	/* the sums over the buckets */
};

static const char *const symtab_special[SYMTAB_FIRST] = { "[user]", "[kernel]" };

struct symtab *symtab_create(void)
{
	return calloc(1, sizeof(struct symtab));
}

void symtab_free(struct symtab *t)
{
	unsigned int i;

	if (!t)
		return;
	for (i = 0; i < t->n; i++)
		free(t->f[i].name);
	free(t->f);
	free(t);
}

static int symtab_push(struct symtab *t, uint64_t addr, const char *name)
{
	struct symtab_func *more;

	if (t->n == t->cap) {
		more = realloc(t->f, (t->cap ? 2 * t->cap : 4096) * sizeof(*t->f));
		if (!more)
			return -ENOMEM;
		t->f = more;
		t->cap = t->cap ? 2 * t->cap : 4096;
	}
	t->f[t->n].name = strdup(name);
	if (!t->f[t->n].name)
		return -ENOMEM;
	t->f[t->n].seq = t->n;
	t->f[t->n++].addr = addr;
	return 0;
}

/* by address, then in the order read */
static int symtab_cmp(const void *a, const void *b)
{
	const struct symtab_func *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* sorted by address, one name an address: the first read */
static void symtab_sort(struct symtab *t)
{
	unsigned int i, j;

	qsort(t->f, t->n, sizeof(*t->f), symtab_cmp);
	for (i = j = 0; i < t->n; i++) {
		if (j && t->f[j - 1].addr == t->f[i].addr) {
			free(t->f[i].name);
			continue;
		}
		t->f[j++] = t->f[i];
	}
	t->n = j;
}

int symtab_load(struct symtab *t, FILE *f, char *why, size_t len)
{
	char line[512], type, name[SYMTAB_NAME_MAX];
	unsigned int before = t->n;
	uint64_t addr;

	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%" SCNx64 " %c %127s", &addr, &type, name) != 3)
			continue;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		if (symtab_push(t, addr, name))
			return -ENOMEM;
	}
	if (t->n == before) {
		snprintf(why, len, "no text symbol (\"ADDRESS t|T|w|W NAME\" lines): not a System.map, nm or kallsyms file");
		return -EINVAL;
	}
	symtab_sort(t);
	return 0;
}

unsigned int symtab_nr(const struct symtab *t)
{
	return SYMTAB_FIRST + t->n;
}

unsigned int symtab_bucket(const struct symtab *t, uint64_t vaddr)
{
	unsigned int lo = 0, hi = t->n, mid;

	if (!(vaddr >> 63))
		return SYMTAB_USER;
	/* the last function at or below vaddr: f[lo - 1] */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (t->f[mid].addr <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || vaddr - t->f[lo - 1].addr >= SYMTAB_FUNC_MAX)
		return SYMTAB_KERNEL;
	return SYMTAB_FIRST + lo - 1;
}

const char *symtab_name(const struct symtab *t, unsigned int b)
{
	if (b < SYMTAB_FIRST)
		return symtab_special[b];
	return b - SYMTAB_FIRST < t->n ? t->f[b - SYMTAB_FIRST].name : "?";
}

/* ---- a window's instructions per bucket ---- */

struct symtab_counts *symtab_counts_create(const struct symtab *t)
{
	struct symtab_counts *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->nr = symtab_nr(t);
	c->n = calloc((size_t)c->nr * SYMTAB_VALUES, sizeof(*c->n));
	c->on = calloc(c->nr, sizeof(*c->on));
	c->touched = calloc(c->nr, sizeof(*c->touched));
	if (!c->n || !c->on || !c->touched) {
		symtab_counts_free(c);
		errno = ENOMEM;
		return NULL;
	}
	return c;
}

void symtab_counts_free(struct symtab_counts *c)
{
	if (!c)
		return;
	free(c->n);
	free(c->on);
	free(c->touched);
	free(c);
}

void symtab_counts_add(struct symtab_counts *c, unsigned int b, unsigned int k, uint64_t n)
{
	if (!n)
		return;
	if (!c->on[b]) {
		c->on[b] = 1;
		c->touched[c->used++] = b;
	}
	c->n[(size_t)b * SYMTAB_VALUES + k] += n;
	c->total[k] += n;
}

uint64_t symtab_counts_get(const struct symtab_counts *c, unsigned int b, unsigned int k)
{
	return c->n[(size_t)b * SYMTAB_VALUES + k];
}

uint64_t symtab_counts_total(const struct symtab_counts *c, unsigned int k)
{
	return c->total[k];
}

/* buckets by their value 0 in @n, most first, then by number */
static int symtab_by_count(const void *a, const void *b, void *n)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;
	const uint64_t *cx = (const uint64_t *)n + (size_t)x * SYMTAB_VALUES;
	const uint64_t *cy = (const uint64_t *)n + (size_t)y * SYMTAB_VALUES;

	if (*cx != *cy)
		return *cx > *cy ? -1 : 1;
	return x < y ? -1 : x > y;
}

unsigned int symtab_counts_sorted(struct symtab_counts *c, const unsigned int **order)
{
	qsort_r(c->touched, c->used, sizeof(*c->touched), symtab_by_count, c->n);
	*order = c->touched;
	return c->used;
}

void symtab_counts_reset(struct symtab_counts *c)
{
	unsigned int i, b;

	for (i = 0; i < c->used; i++) {
		b = c->touched[i];
		c->on[b] = 0;
		memset(c->n + (size_t)b * SYMTAB_VALUES, 0, SYMTAB_VALUES * sizeof(*c->n));
	}
	c->used = 0;
	memset(c->total, 0, sizeof(c->total));
}
