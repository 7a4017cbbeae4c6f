/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pcpu.h - an emulated kernel per-CPU allocator (mm/percpu.c, simplified).
 *
 * One unit per possible CPU, @unit_size bytes apart, in one lazily
 * reserved mapping (MAP_NORESERVE: 8192 units of 1 MiB cost 8 GiB of
 * address space and only the pages touched: one per unit and object).
 * Each unit is mbind()ed to its CPU's node before anything touches it.
 * Like the kernel's embedded first chunk the units are contiguous, so
 * the same offset in every unit maps to the same cache sets.
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

struct pcpu {
	char *base;			/* unit 0; unit c at base + offset[c] */
	size_t unit_size;		/* bytes between units, power of two */
	unsigned int nr_units;		/* possible CPUs */
	unsigned long *offset;		/* [nr_units] __per_cpu_offset, bytes */
	uint64_t *map;			/* one bit per PCPU_GRAIN bytes in use */
	size_t map_bits;		/* unit_size / PCPU_GRAIN */
	void *mapping;			/* the whole reservation, for munmap */
	size_t mapping_len;		/* its length, bytes */
	pthread_mutex_t lock;		/* serializes alloc and free */
};

/*
 * pcpu_create - reserve @nr_units units of @unit_size bytes (a power of
 * two, at least PCPU_MIN_UNIT), unit c bound to node @node[c] (NULL or
 * @numa false: no binding). @hugepages asks for transparent huge pages;
 * otherwise they are refused, so that one touched byte commits 4 KiB,
 * not 2 MiB. Returns NULL with errno EINVAL, ENOMEM (address space, as
 * under ulimit -v) or the mbind() error.
 */
struct pcpu *pcpu_create(unsigned int nr_units, size_t unit_size,
			 const int *node, bool numa, bool hugepages);

/* pcpu_destroy - unmap everything; NULL is a no-op. */
void pcpu_destroy(struct pcpu *pc);

/*
 * pcpu_alloc - @size bytes aligned to @align (a power of two) in every
 * unit, zeroed in every unit. Returns the per-CPU pointer, or NULL
 * (errno ENOMEM when the unit is full, EINVAL for a bad size or align).
 */
void *pcpu_alloc(struct pcpu *pc, size_t size, size_t align);

/* pcpu_free - give back what pcpu_alloc(@size) returned; NULL is a no-op. */
void pcpu_free(struct pcpu *pc, void *ptr, size_t size);

/* pcpu_ptr - CPU @cpu's copy of per-CPU object @ptr. */
static inline void *pcpu_ptr(const struct pcpu *pc, void *ptr, unsigned int cpu)
{
	return (char *)ptr + pc->offset[cpu];
}

/*
 * pcpu_check_nodes - ask move_pages() which node holds each unit's page
 * of @ptr (touched, so allocated) and compare with @node[cpu].
 * Returns the number of units on another node (*@bad is the first such
 * CPU, *@got its node), or -errno (-ENOSYS without NUMA).
 */
int pcpu_check_nodes(const struct pcpu *pc, void *ptr, const int *node,
		     int *bad, int *got);

#endif /* KSB_PCPU_H */
