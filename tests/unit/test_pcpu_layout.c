// SPDX-License-Identifier: GPL-2.0
/*
 * test_pcpu_layout.c - the embedded per-CPU layout: node groups rounded
 * to 2 MiB atoms (pcpu_plan), unit offsets inside and across groups,
 * the huge-page cap and THP refusal as pcpu_describe() reports them, and
 * neighbours packed beside small objects (pcpu_pack).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lib/measure/pcpu.h"

#define K256	(256u << 10)

static void test_plan_groups_by_node(void **state)
{
	enum { N = 10 };
	int node[N];
	struct pcpu_group g[N];
	unsigned int unit_of[N], cpu;

	(void)state;
	for (cpu = 0; cpu < N; cpu++)
		node[cpu] = (int)cpu % 2;	/* round-robin, as emulated CPUs */
	/* 256K units: 8 per 2 MiB atom, so 5 CPUs take 8 units */
	assert_int_equal(pcpu_plan(N, K256, node, g, unit_of), 2);
	assert_int_equal(g[0].node, 0);
	assert_int_equal(g[0].nr_cpus, 5);
	assert_int_equal(g[0].nr_units, 8);
	assert_int_equal(g[0].first, 0);
	assert_true(g[0].len == 8 * (size_t)K256);
	assert_int_equal(g[1].node, 1);
	assert_int_equal(g[1].first, 8);
	/* CPUs in number order inside their group */
	assert_int_equal(unit_of[0], 0);
	assert_int_equal(unit_of[2], 1);
	assert_int_equal(unit_of[8], 4);
	assert_int_equal(unit_of[1], 8);
	assert_int_equal(unit_of[9], 12);
}

static void test_plan_atoms_and_order(void **state)
{
	int node[3] = { 1, 1, 0 };
	struct pcpu_group g[3];
	unsigned int unit_of[3];

	(void)state;
	/* groups in order of their first CPU, whatever the node number */
	assert_int_equal(pcpu_plan(3, K256, node, g, unit_of), 2);
	assert_int_equal(g[0].node, 1);
	assert_int_equal(g[1].node, 0);
	assert_int_equal(unit_of[2], 8);
	/* units above the atom: one per allocation, no rounding */
	assert_int_equal(pcpu_plan(3, 4u << 20, node, g, unit_of), 2);
	assert_int_equal(g[0].nr_units, 2);
	assert_int_equal(g[1].nr_units, 1);
	assert_int_equal(unit_of[2], 2);
	/* 4K units: 512 per atom */
	assert_int_equal(pcpu_plan(3, 4096, node, g, unit_of), 2);
	assert_int_equal(g[0].nr_units, 512);
	/* no nodes: one group */
	assert_int_equal(pcpu_plan(3, K256, NULL, g, unit_of), 1);
	assert_int_equal(g[0].nr_cpus, 3);
	assert_int_equal(unit_of[2], 2);
}

static void test_embedded_offsets(void **state)
{
	enum { N = 12 };
	int node[N];
	struct pcpu *pc;
	unsigned int cpu, other;
	char buf[160];
	unsigned int *p;

	(void)state;
	for (cpu = 0; cpu < N; cpu++)
		node[cpu] = cpu < 4 ? 0 : 1;
	/* grouped by node, not bound (numa false): runs on one-node machines */
	pc = pcpu_create_embedded(N, K256, node, false, true);
	assert_non_null(pc);
	assert_int_equal(pc->nr_groups, 2);
	for (cpu = 0; cpu < pc->nr_groups; cpu++)
		assert_int_equal((uintptr_t)pc->group[cpu].base % PCPU_ATOM, 0);
	/* inside a group, units are unit_size apart */
	assert_true(pc->offset[3] - pc->offset[0] == 3 * (unsigned long)K256);
	assert_true(pc->offset[11] - pc->offset[4] == 7 * (unsigned long)K256);
	/* every unit its own */
	for (cpu = 0; cpu < N; cpu++)
		for (other = cpu + 1; other < N; other++)
			assert_true(pc->offset[cpu] != pc->offset[other]);
	p = pcpu_alloc(pc, 4, 4);
	assert_non_null(p);
	for (cpu = 0; cpu < N; cpu++) {
		assert_int_equal(*(unsigned int *)pcpu_ptr(pc, p, cpu), 0);
		*(unsigned int *)pcpu_ptr(pc, p, cpu) = cpu + 1;
	}
	for (cpu = 0; cpu < N; cpu++)
		assert_int_equal(*(unsigned int *)pcpu_ptr(pc, p, cpu), cpu + 1);
	assert_string_equal(pcpu_describe(pc, buf, sizeof(buf)),
			    "embedded (4K pages: THP refused)");
	pcpu_free(pc, p, 4);
	pcpu_destroy(pc);
	errno = 0;
	assert_null(pcpu_create_embedded(N, 3000, node, false, false));
	assert_int_equal(errno, EINVAL);
}

static void test_embedded_huge_cap(void **state)
{
	struct pcpu *pc;
	char buf[160];

	(void)state;
	/* 8192 units of 1 MiB: 8 GiB, over the cap: 4 KiB pages, and said */
	pc = pcpu_create_embedded(8192, 1u << 20, NULL, false, false);
	if (!pc && errno == ENOMEM)
		skip();		/* address space limited (ulimit -v) */
	assert_non_null(pc);
	assert_string_equal(pcpu_describe(pc, buf, sizeof(buf)),
			    "embedded (4K pages: 8192 MiB of units is over the 2048 MiB huge-page cap)");
	pcpu_destroy(pc);
	pc = pcpu_create(4, 4096, NULL, false, false);
	assert_non_null(pc);
	assert_string_equal(pcpu_describe(pc, buf, sizeof(buf)), "vmalloc (4K pages)");
	pcpu_destroy(pc);
}

static void test_pack_neighbours(void **state)
{
	struct pcpu *pc = pcpu_create_embedded(4, 4096, NULL, false, true);
	char *a, *b, *c, *d;

	(void)state;
	assert_non_null(pc);
	assert_int_equal(pcpu_pack(pc, 3, 4), 3);
	/* first fit lands in the holes, one per line, at offset 28 */
	a = pcpu_alloc(pc, 4, 4);
	b = pcpu_alloc(pc, 4, 4);
	c = pcpu_alloc(pc, 4, 4);
	d = pcpu_alloc(pc, 4, 4);
	assert_true(a - pc->base == 28);
	assert_true(b - pc->base == 64 + 28);
	assert_true(c - pc->base == 128 + 28);
	assert_true(d - pc->base == 192);	/* past the packed lines */
	/* the neighbour shares the line and is not the object */
	assert_true((char *)pcpu_neighbour(a) - pc->base == 60);
	assert_true(((uintptr_t)pcpu_neighbour(b) & ~(uintptr_t)63) ==
		    ((uintptr_t)b & ~(uintptr_t)63));
	pcpu_destroy(pc);
	/* 8-byte holes for CONFIG_GENERIC_IRQ_STAT_SNAPSHOT */
	pc = pcpu_create_embedded(2, 4096, NULL, false, true);
	assert_non_null(pc);
	assert_int_equal(pcpu_pack(pc, 1, 8), 1);
	a = pcpu_alloc(pc, 8, 8);
	assert_true(a - pc->base == 24);
	assert_true((char *)pcpu_neighbour(a) - pc->base == 56);
	/* a full unit packs fewer lines than asked */
	assert_int_equal(pcpu_pack(pc, 1000, 8), 4096 / 64 - 1);
	pcpu_destroy(pc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_groups_by_node),
		cmocka_unit_test(test_plan_atoms_and_order),
		cmocka_unit_test(test_embedded_offsets),
		cmocka_unit_test(test_embedded_huge_cap),
		cmocka_unit_test(test_pack_neighbours),
	};

	return cmocka_run_group_tests_name("pcpu_layout", tests, NULL, NULL);
}
