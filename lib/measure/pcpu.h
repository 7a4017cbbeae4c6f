/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pcpu.h - an emulated kernel per-CPU allocator (mm/percpu.c, simplified).
 *
 * One unit per possible CPU, @unit_size bytes apart, in lazily reserved
 * mappings (MAP_NORESERVE: only the pages touched are committed). Two
 * layouts, as the kernel's two kinds of chunk:
 *
 * embedded (pcpu_create_embedded(), the default of bench run): the
 *   first chunk of x86-64 distro kernels, pcpu_embed_first_chunk().
 *   CPUs are grouped by node (pcpu_build_alloc_info(): CPUs in number
 *   order, each group rounded up to whole 2 MiB atoms of units), each
 *   group one contiguous region bound to its node and backed by 2 MiB
 *   pages where the system grants them: hugetlbfs when enough pages are
 *   reserved, else transparent huge pages (madvise). Units are
 *   @unit_size apart inside a group, so the same offset in every unit
 *   shares its cache set in L1, L2 and (where the hash allows) the LLC,
 *   as in the kernel's linear map. Boot logs of NR_CPUS=8192 kernels read
 *   "u262144 alloc=1*2097152": 256 KiB units, 8 per 2 MiB atom.
 *   Huge pages commit 2 MiB per atom touched: 8192 units of 256 KiB are
 *   2 GiB. Above PCPU_HUGE_MAX bytes of units the layout stays embedded
 *   but on 4 KiB pages, and pcpu_describe() says so.
 * vmalloc (pcpu_create()): the kernel's later chunks, 4 KiB pages
 *   anywhere in physical memory, units contiguous in virtual memory;
 *   the copies share only their page offset (L1 sets alone). Each unit is
 *   mbind()ed to its CPU's node before anything touches it.
 *
 *	void *p = pcpu_alloc(pc, sizeof(struct irqstat), 4);
 *	*(u32 *)pcpu_ptr(pc, p, cpu) += 1;	   per_cpu_ptr(p, cpu)
 *	pcpu_free(pc, p, sizeof(struct irqstat));
 *
 * pcpu_alloc() zeroes the object in every possible CPU's unit, as
 * pcpu_alloc() does with __GFP_ZERO. pcpu_ptr() adds the unit's offset
 * from a table, as per_cpu_ptr() adds __per_cpu_offset[cpu].
 *
 * KSB_PCPU_FORCE_NODE=N in the environment binds every unit to node N,
 * a deliberate fault that pcpu_check_nodes() must catch (make vmcheck).
 *
 * Concurrency: pcpu_alloc() and pcpu_free() take the allocator's mutex
 * (pcpu_alloc_mutex); pcpu_ptr() and pcpu_check_nodes() only read what
 * pcpu_create() set up, and may run on any thread.
 */
#ifndef KSB_PCPU_H
#define KSB_PCPU_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PCPU_MIN_UNIT	4096u		/* smallest --pcpu-unit */
#define PCPU_GRAIN	4u		/* allocation granule, PCPU_MIN_ALLOC_SIZE */
#define PCPU_ATOM	(2u << 20)	/* embedded: allocation atom, one huge page */
#define PCPU_HUGE_MAX	(UINT64_C(2) << 30) /* embedded: most bytes on huge pages */
#define PCPU_LINE	64u		/* cache line, for pcpu_pack() */

enum pcpu_layout {
	PCPU_EMBEDDED,			/* node groups, contiguous, huge pages */
	PCPU_VMALLOC,			/* 4 KiB pages, one mapping */
};

/* "embedded", "vmalloc": enum pcpu_layout order, NULL-terminated */
extern const char *const pcpu_layout_names[];

enum pcpu_backing {
	PCPU_PAGES_4K,			/* 4 KiB pages (THP refused or not asked) */
	PCPU_PAGES_THP,			/* madvise(MADV_HUGEPAGE) */
	PCPU_PAGES_HUGETLB,		/* MAP_HUGETLB from the reserved pool */
};

/* one node's group of units (embedded), or the whole mapping (vmalloc) */
struct pcpu_group {
	int node;			/* node of its CPUs, -1 when unbound */
	unsigned int nr_cpus;		/* CPUs in the group */
	unsigned int nr_units;		/* units, nr_cpus rounded up to whole atoms */
	unsigned int first;		/* group's first unit in pcpu_plan() order */
	char *base;			/* the region, PCPU_ATOM aligned */
	size_t len;			/* its length: nr_units * unit_size, bytes */
};

struct pcpu {
	char *base;			/* lowest unit; unit c at base + offset[c] */
	size_t unit_size;		/* bytes between units, power of two */
	unsigned int nr_units;		/* possible CPUs */
	unsigned long *offset;		/* [nr_units] __per_cpu_offset, bytes */
	uint64_t *map;			/* one bit per PCPU_GRAIN bytes in use */
	size_t map_bits;		/* unit_size / PCPU_GRAIN */
	void *mapping;			/* vmalloc: the whole reservation, for munmap */
	size_t mapping_len;		/* its length, bytes */
	enum pcpu_layout layout;	/* embedded or vmalloc */
	enum pcpu_backing backing;	/* what the units were asked to be backed by */
	bool hugepages;			/* vmalloc: --hugepages asked for THP */
	bool huge_capped;		/* embedded: over PCPU_HUGE_MAX, so 4 KiB */
	struct pcpu_group *group;	/* [nr_groups] embedded: one per node */
	unsigned int nr_groups;		/* 1 for vmalloc */
	pthread_mutex_t lock;		/* serializes alloc and free */
};

/**
 * pcpu_create - the vmalloc layout: reserve @nr_units units of
 * @unit_size bytes (a power of two, at least PCPU_MIN_UNIT) in one
 * mapping, unit c bound to node @node[c] (NULL or
 * @numa false: no binding). @hugepages asks for transparent huge pages;
 * otherwise they are refused, so that one touched byte commits 4 KiB,
 * not 2 MiB. Returns NULL with errno EINVAL, ENOMEM (address space, as
 * under ulimit -v) or the mbind() error.
 */
struct pcpu *pcpu_create(unsigned int nr_units, size_t unit_size,
			 const int *node, bool numa, bool hugepages);

/**
 * pcpu_plan - the embedded layout's arithmetic, no memory touched: group
 * the @nr_units CPUs by @node[cpu] (all in one group when @node is NULL),
 * groups in order of their lowest CPU, CPUs in number order inside one,
 * each group rounded up to whole PCPU_ATOM allocations of @unit_size
 * units (one unit per atom when units are larger). Fills @group (room
 * for @nr_units entries; base and len left NULL and nr_units * unit_size)
 * and @unit_of[cpu], the CPU's unit index counting every group's units
 * in order. Returns the number of groups.
 */
unsigned int pcpu_plan(unsigned int nr_units, size_t unit_size, const int *node,
		       struct pcpu_group *group, unsigned int *unit_of);

/**
 * pcpu_create_embedded - the embedded layout (above): one region per
 * node group (groups by @node[cpu]; one group when @node is NULL), each
 * bound to its node unless @numa is false,
 * backed by hugetlbfs pages when the pool holds enough, else THP where
 * granted; @no_thp (KSB_PCPU_NO_THP=1 in bench run) refuses THP, as a
 * system with THP off would. Returns NULL with errno as pcpu_create().
 */
struct pcpu *pcpu_create_embedded(unsigned int nr_units, size_t unit_size,
				  const int *node, bool numa, bool no_thp);

/**
 * pcpu_describe - the layout and what backs it, for the metadata, e.g.
 * "embedded (2M pages: THP)", "embedded (4K pages: THP refused)",
 * "embedded (2M pages: hugetlbfs)", "vmalloc (4K pages)". THP is judged
 * from /proc/self/smaps (AnonHugePages of the regions), so call it after
 * the units were touched. Returns @buf.
 */
char *pcpu_describe(const struct pcpu *pc, char *buf, size_t len);

/**
 * pcpu_pack - @nr_lines live cache lines of per-CPU counters, each with
 * one @hole-byte gap (@hole 4 or 8) at offset PCPU_LINE / 2 - @hole, so
 * that the next allocations of at most @hole bytes land, first fit, in a
 * line shared with other live objects, as alloc_percpu() packs small
 * objects. The word at (hole ^ 32) is a live counter of the same line
 * (pcpu_neighbour()). The lines stay allocated until pcpu_destroy().
 * Returns the number of lines packed (fewer when the unit fills up).
 */
unsigned int pcpu_pack(struct pcpu *pc, unsigned int nr_lines, size_t hole);

/**
 * pcpu_neighbour - a live counter sharing @ptr's line, when packed.
 */
static inline void *pcpu_neighbour(void *ptr)
{
	return (void *)((uintptr_t)ptr ^ (PCPU_LINE / 2));
}

/**
 * pcpu_destroy - unmap everything; NULL is a no-op.
 */
void pcpu_destroy(struct pcpu *pc);

/**
 * pcpu_alloc - @size bytes aligned to @align (a power of two) in every
 * unit, zeroed in every unit. Returns the per-CPU pointer, or NULL
 * (errno ENOMEM when the unit is full, EINVAL for a bad size or align).
 */
void *pcpu_alloc(struct pcpu *pc, size_t size, size_t align);

/**
 * pcpu_free - give back what pcpu_alloc(@size) returned; NULL is a no-op.
 */
void pcpu_free(struct pcpu *pc, void *ptr, size_t size);

/**
 * pcpu_ptr - CPU @cpu's copy of per-CPU object @ptr.
 */
static inline void *pcpu_ptr(const struct pcpu *pc, void *ptr, unsigned int cpu)
{
	return (char *)ptr + pc->offset[cpu];
}

/**
 * pcpu_check_nodes - ask move_pages() which node holds each unit's page
 * of @ptr (touched, so allocated) and compare with @node[cpu].
 * Returns the number of units on another node (*@bad is the first such
 * CPU, *@got its node), or -errno (-ENOSYS without NUMA).
 */
int pcpu_check_nodes(const struct pcpu *pc, void *ptr, const int *node,
		     int *bad, int *got);

#endif /* KSB_PCPU_H */
