// SPDX-License-Identifier: GPL-2.0
/*
 * ref.c - the run's reference loop of cold stores (ref.h says why).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "lib/measure/ref.h"

#define REF_ALIGN	(2u << 20)	/* a huge page */
#define REF_LEN		((size_t)REF_LINES * REF_STRIDE)
#define REF_PAGES	(REF_STRIDE / 4096)	/* workers with pages of their own */

struct ref {
	void *map;			/* the mapping, REF_LEN + REF_ALIGN bytes */
	char *base;			/* its first 2 MiB boundary */
	char what[96];			/* ref_describe() */
};

struct ref *ref_create(void)
{
	struct ref *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->map = mmap(NULL, REF_LEN + REF_ALIGN, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r->map == MAP_FAILED) {
		free(r);
		return NULL;
	}
	r->base = (char *)(((uintptr_t)r->map + REF_ALIGN - 1) & ~(uintptr_t)(REF_ALIGN - 1));
	/* 4 KiB pages: the lines land on REF_LINES pages anywhere in memory */
	madvise(r->base, REF_LEN, MADV_NOHUGEPAGE);
	snprintf(r->what, sizeof(r->what), "%u cold 4-byte stores %u KiB apart (4 KiB pages)",
		 REF_LINES, REF_STRIDE >> 10);
	return r;
}

void ref_destroy(struct ref *r)
{
	if (!r)
		return;
	munmap(r->map, REF_LEN + REF_ALIGN);
	free(r);
}

void *ref_lines(const struct ref *r, unsigned int idx)
{
	size_t off = (idx % REF_PAGES) * 4096 + (idx / REF_PAGES % 64) * 64;

	return r->base + off;
}

void ref_flush(void *lines)
{
	char *p = lines;
	unsigned int i;

	for (i = 0; i < REF_LINES; i++)
		asm volatile("clflush %0" : : "m"(p[(size_t)i * REF_STRIDE]) : "memory");
	asm volatile("mfence" : : : "memory");
}

void ref_region(void *lines)
{
	char *p = lines;
	unsigned int i;

	for (i = 0; i < REF_LINES; i++)
		*(volatile uint32_t *)(p + (size_t)i * REF_STRIDE) = 0;
}

const char *ref_describe(const struct ref *r)
{
	return r->what;
}
