// SPDX-License-Identifier: GPL-2.0
/*
 * pcpu.c - the emulated per-CPU allocator (see pcpu.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <numa.h>
#include <numaif.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "pcpu.h"

#define PCPU_ALIGN	(2u << 20)	/* units start on a huge-page boundary */

/* ---- the allocation map ---- */

static bool pcpu_bit(const struct pcpu *pc, size_t i)
{
	return pc->map[i / 64] & (UINT64_C(1) << (i % 64));
}

static void pcpu_set(struct pcpu *pc, size_t i, size_t n, bool on)
{
	for (; n; n--, i++) {
		if (on)
			pc->map[i / 64] |= UINT64_C(1) << (i % 64);
		else
			pc->map[i / 64] &= ~(UINT64_C(1) << (i % 64));
	}
}

/* first fit: the lowest @step-aligned run of @n clear bits, or -1 */
static long pcpu_find(const struct pcpu *pc, size_t n, size_t step)
{
	size_t i, j;

	for (i = 0; i + n <= pc->map_bits; i += step) {
		for (j = 0; j < n && !pcpu_bit(pc, i + j); j++)
			;
		if (j == n)
			return (long)i;
	}
	return -1;
}

/* ---- reserve, bind, release ---- */

static int pcpu_bind(struct pcpu *pc, const int *node)
{
	struct bitmask *bm = numa_allocate_nodemask();
	/* a deliberate fault for `make vmcheck VMCHECK_FAULT=node0` */
	const char *force = getenv("KSB_PCPU_FORCE_NODE");
	unsigned int cpu;
	int ret = 0;

	if (!bm)
		return -ENOMEM;
	for (cpu = 0; cpu < pc->nr_units && !ret; cpu++) {
		numa_bitmask_clearall(bm);
		numa_bitmask_setbit(bm, force ? (unsigned int)atoi(force) :
						(unsigned int)node[cpu]);
		if (mbind(pc->base + pc->offset[cpu], pc->unit_size, MPOL_BIND,
			  bm->maskp, bm->size + 1, 0))
			ret = -errno;
	}
	numa_bitmask_free(bm);
	return ret;
}

static int pcpu_reserve(struct pcpu *pc, bool hugepages)
{
	size_t len = (size_t)pc->nr_units * pc->unit_size;
	uintptr_t start;

	pc->mapping_len = len + PCPU_ALIGN;
	pc->mapping = mmap(NULL, pc->mapping_len, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (pc->mapping == MAP_FAILED) {
		pc->mapping = NULL;
		return -ENOMEM;
	}
	start = ((uintptr_t)pc->mapping + PCPU_ALIGN - 1) & ~(uintptr_t)(PCPU_ALIGN - 1);
	pc->base = (char *)start;
	/* best effort: THP may be compiled out; the run reports what it asked */
	madvise(pc->base, len, hugepages ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	return 0;
}

struct pcpu *pcpu_create(unsigned int nr_units, size_t unit_size,
			 const int *node, bool numa, bool hugepages)
{
	struct pcpu *pc;
	unsigned int cpu;
	int ret = -EINVAL;

	if (!nr_units || unit_size < PCPU_MIN_UNIT || (unit_size & (unit_size - 1)))
		goto out_err;
	ret = -ENOMEM;
	pc = calloc(1, sizeof(*pc));
	if (!pc)
		goto out_err;
	pc->nr_units = nr_units;
	pc->unit_size = unit_size;
	pc->map_bits = unit_size / PCPU_GRAIN;
	pc->offset = calloc(nr_units, sizeof(*pc->offset));
	pc->map = calloc((pc->map_bits + 63) / 64, sizeof(*pc->map));
	if (!pc->offset || !pc->map)
		goto out_free_pc;
	for (cpu = 0; cpu < nr_units; cpu++)
		pc->offset[cpu] = (unsigned long)cpu * unit_size;
	ret = pcpu_reserve(pc, hugepages);
	if (ret)
		goto out_free_pc;
	ret = node && numa ? pcpu_bind(pc, node) : 0;
	if (ret)
		goto out_unmap;
	pthread_mutex_init(&pc->lock, NULL);
	return pc;

out_unmap:
	munmap(pc->mapping, pc->mapping_len);
out_free_pc:
	free(pc->offset);
	free(pc->map);
	free(pc);
out_err:
	errno = -ret;
	return NULL;
}

void pcpu_destroy(struct pcpu *pc)
{
	if (!pc)
		return;
	munmap(pc->mapping, pc->mapping_len);
	pthread_mutex_destroy(&pc->lock);
	free(pc->offset);
	free(pc->map);
	free(pc);
}

/* ---- alloc, free, query ---- */

void *pcpu_alloc(struct pcpu *pc, size_t size, size_t align)
{
	size_t n = (size + PCPU_GRAIN - 1) / PCPU_GRAIN;
	unsigned int cpu;
	long i;

	if (!size || size > pc->unit_size || !align || (align & (align - 1))) {
		errno = EINVAL;
		return NULL;
	}
	pthread_mutex_lock(&pc->lock);
	i = pcpu_find(pc, n, align > PCPU_GRAIN ? align / PCPU_GRAIN : 1);
	if (i >= 0)
		pcpu_set(pc, (size_t)i, n, true);
	pthread_mutex_unlock(&pc->lock);
	if (i < 0) {
		errno = ENOMEM;
		return NULL;
	}
	/* as pcpu_alloc(): the new object reads zero on every possible CPU */
	for (cpu = 0; cpu < pc->nr_units; cpu++)
		memset(pc->base + pc->offset[cpu] + i * PCPU_GRAIN, 0, size);
	return pc->base + i * PCPU_GRAIN;
}

void pcpu_free(struct pcpu *pc, void *ptr, size_t size)
{
	size_t i;

	if (!ptr)
		return;
	i = (size_t)((char *)ptr - pc->base) / PCPU_GRAIN;
	pthread_mutex_lock(&pc->lock);
	pcpu_set(pc, i, (size + PCPU_GRAIN - 1) / PCPU_GRAIN, false);
	pthread_mutex_unlock(&pc->lock);
}

int pcpu_check_nodes(const struct pcpu *pc, void *ptr, const int *node,
		     int *bad, int *got)
{
	void **pages = calloc(pc->nr_units, sizeof(*pages));
	int *status = calloc(pc->nr_units, sizeof(*status));
	unsigned int cpu;
	int ret = -ENOMEM;

	if (!pages || !status)
		goto out_free;
	ret = -ENOSYS;
	if (numa_available() < 0)
		goto out_free;
	for (cpu = 0; cpu < pc->nr_units; cpu++)
		pages[cpu] = (void *)((uintptr_t)pcpu_ptr(pc, ptr, cpu) & ~(uintptr_t)4095);
	if (move_pages(0, pc->nr_units, pages, NULL, status, 0)) {
		ret = -errno;
		goto out_free;
	}
	for (ret = 0, cpu = 0; cpu < pc->nr_units; cpu++) {
		if (status[cpu] == node[cpu])
			continue;
		if (!ret++) {
			*bad = (int)cpu;
			*got = status[cpu];
		}
	}
out_free:
	free(pages);
	free(status);
	return ret;
}
