// SPDX-License-Identifier: GPL-2.0
/*
 * pcpu.c - the emulated per-CPU allocator (see pcpu.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <numa.h>
#include <numaif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "lib/measure/pcpu.h"

#define PCPU_ALIGN	PCPU_ATOM	/* units start on a huge-page boundary */

const char *const pcpu_layout_names[] = { "embedded", "vmalloc", NULL };

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

/*
 * What both layouts share: the checks, the allocator's bitmap and the
 * offset table, the lock. NULL with errno EINVAL or ENOMEM; anything
 * built later is undone by pcpu_destroy().
 */
static struct pcpu *pcpu_new(unsigned int nr_units, size_t unit_size,
			     enum pcpu_layout layout)
{
	struct pcpu *pc;

	if (!nr_units || unit_size < PCPU_MIN_UNIT || (unit_size & (unit_size - 1))) {
		errno = EINVAL;
		return NULL;
	}
	pc = calloc(1, sizeof(*pc));
	if (!pc)
		goto out_nomem;
	pc->layout = layout;
	pc->nr_units = nr_units;
	pc->unit_size = unit_size;
	pc->map_bits = unit_size / PCPU_GRAIN;
	pc->offset = calloc(nr_units, sizeof(*pc->offset));
	pc->map = calloc((pc->map_bits + 63) / 64, sizeof(*pc->map));
	pthread_mutex_init(&pc->lock, NULL);
	if (pc->offset && pc->map)
		return pc;
	pcpu_destroy(pc);
out_nomem:
	errno = ENOMEM;
	return NULL;
}

struct pcpu *pcpu_create(unsigned int nr_units, size_t unit_size,
			 const int *node, bool numa, bool hugepages)
{
	struct pcpu *pc = pcpu_new(nr_units, unit_size, PCPU_VMALLOC);
	unsigned int cpu;
	int ret;

	if (!pc)
		return NULL;
	pc->hugepages = hugepages;
	pc->backing = hugepages ? PCPU_PAGES_THP : PCPU_PAGES_4K;
	pc->nr_groups = 1;
	for (cpu = 0; cpu < nr_units; cpu++)
		pc->offset[cpu] = (unsigned long)cpu * unit_size;
	ret = pcpu_reserve(pc, hugepages);
	if (!ret)
		ret = node && numa ? pcpu_bind(pc, node) : 0;
	if (!ret)
		return pc;
	pcpu_destroy(pc);
	errno = -ret;
	return NULL;
}

void pcpu_destroy(struct pcpu *pc)
{
	unsigned int i;

	if (!pc)
		return;
	if (pc->mapping)
		munmap(pc->mapping, pc->mapping_len);
	for (i = 0; pc->layout == PCPU_EMBEDDED && i < pc->nr_groups; i++)
		if (pc->group[i].base)
			munmap(pc->group[i].base, pc->group[i].len);
	pthread_mutex_destroy(&pc->lock);
	free(pc->group);
	free(pc->offset);
	free(pc->map);
	free(pc);
}

/* ---- the embedded layout ---- */

unsigned int pcpu_plan(unsigned int nr_units, size_t unit_size, const int *node,
		       struct pcpu_group *group, unsigned int *unit_of)
{
	unsigned int upa = unit_size < PCPU_ATOM ? (unsigned int)(PCPU_ATOM / unit_size) : 1;
	unsigned int nr = 0, cpu, i, unit = 0;

	/* pcpu_build_alloc_info(): a group per node, in order of first CPU */
	for (cpu = 0; cpu < nr_units; cpu++) {
		int n = node ? node[cpu] : -1;

		for (i = 0; i < nr && group[i].node != n; i++)
			;
		if (i == nr) {
			memset(&group[nr], 0, sizeof(group[nr]));
			group[nr++].node = n;
		}
		unit_of[cpu] = group[i].nr_cpus++;	/* index in its group, for now */
	}
	for (i = 0; i < nr; i++) {
		group[i].nr_units = (group[i].nr_cpus + upa - 1) / upa * upa;
		group[i].first = unit;
		group[i].len = (size_t)group[i].nr_units * unit_size;
		unit += group[i].nr_units;
	}
	for (cpu = 0; cpu < nr_units; cpu++) {
		int n = node ? node[cpu] : -1;

		for (i = 0; group[i].node != n; i++)
			;
		unit_of[cpu] += group[i].first;
	}
	return nr;
}

/* hugetlbfs pages free in the pool, in bytes (0 when none reserved) */
static uint64_t pcpu_hugetlb_free(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	unsigned long nfree = 0, kb = 0;
	char line[128];

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "HugePages_Free: %lu", &nfree);
		sscanf(line, "Hugepagesize: %lu kB", &kb);
	}
	fclose(f);
	return kb == PCPU_ATOM >> 10 ? (uint64_t)nfree * PCPU_ATOM : 0;
}

/* one group's region: PCPU_ATOM aligned, exactly g->len long */
static int pcpu_map_group(struct pcpu_group *g, bool hugetlb)
{
	size_t slack = PCPU_ATOM;
	char *m, *start;

	if (hugetlb) {
		m = mmap(NULL, g->len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
		if (m == MAP_FAILED)
			return -EAGAIN;		/* pool too small: THP instead */
		g->base = m;
		return 0;
	}
	m = mmap(NULL, g->len + slack, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED)
		return -ENOMEM;
	start = (char *)(((uintptr_t)m + PCPU_ATOM - 1) & ~(uintptr_t)(PCPU_ATOM - 1));
	/* keep just the aligned region: one VMA, so smaps tells its pages */
	if (start > m)
		munmap(m, (size_t)(start - m));
	if (start + g->len < m + g->len + slack)
		munmap(start + g->len, (size_t)(m + g->len + slack - (start + g->len)));
	g->base = start;
	return 0;
}

static int pcpu_bind_range(char *p, size_t len, int node)
{
	struct bitmask *bm = numa_allocate_nodemask();
	int ret = 0;

	if (!bm)
		return -ENOMEM;
	numa_bitmask_setbit(bm, (unsigned int)node);
	if (mbind(p, len, MPOL_BIND, bm->maskp, bm->size + 1, 0))
		ret = -errno;
	numa_bitmask_free(bm);
	return ret;
}

/*
 * Map, bind and back every group. hugetlbfs pages are faulted in here
 * (MADV_POPULATE_WRITE), after the binding, so that a node whose pool
 * is empty fails cleanly rather than with SIGBUS on first touch; any
 * failure there falls back to THP for every group.
 */
static int pcpu_map_groups(struct pcpu *pc, bool numa, bool no_thp)
{
	const char *force = getenv("KSB_PCPU_FORCE_NODE");
	uint64_t total = (uint64_t)pc->nr_units * pc->unit_size;
	bool hugetlb = !pc->huge_capped && pcpu_hugetlb_free() >= total + PCPU_ATOM * pc->nr_groups;
	unsigned int i;
	int ret = 0;

retry:
	for (i = 0; i < pc->nr_groups && !ret; i++) {
		struct pcpu_group *g = &pc->group[i];

		ret = pcpu_map_group(g, hugetlb);
		if (!ret && !hugetlb)
			madvise(g->base, g->len, pc->huge_capped || no_thp ?
				MADV_NOHUGEPAGE : MADV_HUGEPAGE);
		if (!ret && numa && g->node >= 0)
			ret = pcpu_bind_range(g->base, g->len, force ? atoi(force) : g->node);
#ifdef MADV_POPULATE_WRITE
		if (!ret && hugetlb && madvise(g->base, g->len, MADV_POPULATE_WRITE))
			ret = -EAGAIN;
#else
		if (hugetlb)
			ret = -EAGAIN;
#endif
	}
	if (ret == -EAGAIN) {
		for (i = 0; i < pc->nr_groups; i++) {
			if (pc->group[i].base)
				munmap(pc->group[i].base, pc->group[i].len);
			pc->group[i].base = NULL;
		}
		hugetlb = false;
		ret = 0;
		goto retry;
	}
	pc->backing = hugetlb ? PCPU_PAGES_HUGETLB :
		      pc->huge_capped || no_thp ? PCPU_PAGES_4K : PCPU_PAGES_THP;
	return ret;
}

struct pcpu *pcpu_create_embedded(unsigned int nr_units, size_t unit_size,
				  const int *node, bool numa, bool no_thp)
{
	struct pcpu *pc = pcpu_new(nr_units, unit_size, PCPU_EMBEDDED);
	unsigned int *unit_of = NULL, cpu, i;
	int ret = -ENOMEM;
	char *lo;

	if (!pc)
		return NULL;
	pc->group = calloc(nr_units, sizeof(*pc->group));
	unit_of = calloc(nr_units, sizeof(*unit_of));
	if (!pc->group || !unit_of)
		goto out_destroy;
	pc->nr_groups = pcpu_plan(nr_units, unit_size, node, pc->group, unit_of);
	pc->huge_capped = (uint64_t)nr_units * unit_size > PCPU_HUGE_MAX;
	ret = pcpu_map_groups(pc, node && numa, no_thp);
	if (ret)
		goto out_destroy;
	/* base = the lowest region, as pcpu_embed_first_chunk()'s min(ptr) */
	for (lo = pc->group[0].base, i = 1; i < pc->nr_groups; i++)
		if (pc->group[i].base < lo)
			lo = pc->group[i].base;
	pc->base = lo;
	for (cpu = 0; cpu < nr_units; cpu++) {
		for (i = pc->nr_groups - 1; pc->group[i].first > unit_of[cpu]; i--)
			;
		pc->offset[cpu] = (unsigned long)(pc->group[i].base - lo) +
				  (unsigned long)(unit_of[cpu] - pc->group[i].first) * unit_size;
	}
	free(unit_of);
	return pc;

out_destroy:
	free(unit_of);
	pcpu_destroy(pc);
	errno = -ret;
	return NULL;
}

/* AnonHugePages and Rss, kB, of the VMAs that start inside [lo, hi) */
static void pcpu_smaps(const char *lo, const char *hi, unsigned long *huge,
		       unsigned long *rss)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	unsigned long start, end, kb;
	bool in = false;
	char line[256];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &start, &end) == 2 && strchr(line, '-') &&
		    line[strspn(line, "0123456789abcdef")] == '-') {
			in = start >= (uintptr_t)lo && start < (uintptr_t)hi;
			continue;
		}
		if (!in)
			continue;
		if (sscanf(line, "AnonHugePages: %lu kB", &kb) == 1)
			*huge += kb;
		else if (sscanf(line, "Rss: %lu kB", &kb) == 1)
			*rss += kb;
	}
	fclose(f);
}

char *pcpu_describe(const struct pcpu *pc, char *buf, size_t len)
{
	unsigned long huge = 0, rss = 0;
	unsigned int i;

	if (pc->layout == PCPU_VMALLOC) {
		snprintf(buf, len, "vmalloc (%s)", pc->hugepages ? "THP asked: --hugepages" :
			 "4K pages");
		return buf;
	}
	if (pc->backing == PCPU_PAGES_HUGETLB) {
		snprintf(buf, len, "embedded (2M pages: hugetlbfs)");
		return buf;
	}
	if (pc->huge_capped) {
		snprintf(buf, len,
			 "embedded (4K pages: %lu MiB of units is over the %lu MiB huge-page cap)",
			 (unsigned long)(((uint64_t)pc->nr_units * pc->unit_size) >> 20),
			 (unsigned long)(PCPU_HUGE_MAX >> 20));
		return buf;
	}
	if (pc->backing == PCPU_PAGES_4K) {
		snprintf(buf, len, "embedded (4K pages: THP refused)");
		return buf;
	}
	for (i = 0; i < pc->nr_groups; i++)
		pcpu_smaps(pc->group[i].base, pc->group[i].base + pc->group[i].len,
			   &huge, &rss);
	if (!huge)
		snprintf(buf, len, "embedded (4K pages: THP refused)");
	else if (huge >= rss)
		snprintf(buf, len, "embedded (2M pages: THP)");
	else
		snprintf(buf, len, "embedded (THP on %lu of %lu KiB)", huge, rss);
	return buf;
}

unsigned int pcpu_pack(struct pcpu *pc, unsigned int nr_lines, size_t hole)
{
	unsigned int i;
	char *line;

	for (i = 0; i < nr_lines; i++) {
		line = pcpu_alloc(pc, PCPU_LINE, PCPU_LINE);
		if (!line)
			break;
		pcpu_free(pc, line + PCPU_LINE / 2 - hole, hole);
	}
	return i;
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
