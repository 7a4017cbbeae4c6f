// SPDX-License-Identifier: GPL-2.0
/*
 * test_measure.c - lib/measure's topology parsing, the emulated per-CPU
 * allocator (offsets, zeroing in every unit, node binding checked with
 * move_pages) and the TSC's cycles-to-ns conversion.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <numa.h>

#include "lib/measure/pcpu.h"
#include "lib/measure/topo.h"
#include "lib/measure/tsc.h"

/* ---- topology ---- */

static void test_cpulist_parse(void **state)
{
	bool set[64];
	unsigned int i;

	(void)state;
	assert_int_equal(topo_parse_cpulist("0-3,8,10-11\n", set, 64), 7);
	for (i = 0; i < 64; i++)
		assert_int_equal(set[i], i <= 3 || i == 8 || i == 10 || i == 11);
	assert_int_equal(topo_parse_cpulist("5", set, 64), 1);
	assert_true(set[5] && !set[4] && !set[6]);
	assert_int_equal(topo_parse_cpulist("0-63", set, 64), 64);
	assert_int_equal(topo_parse_cpulist("1,1,0-1", set, 64), 2);
	assert_int_equal(topo_parse_cpulist("0-64", set, 64), -ERANGE);
	assert_int_equal(topo_parse_cpulist("3-1", set, 64), -EINVAL);
	assert_int_equal(topo_parse_cpulist("", set, 64), -EINVAL);
	assert_int_equal(topo_parse_cpulist("a", set, 64), -EINVAL);
	assert_int_equal(topo_parse_cpulist("1,,2", set, 64), -EINVAL);
	assert_int_equal(topo_parse_cpulist("0-3,", set, 64), -EINVAL);
	assert_int_equal(topo_parse_cpulist("-3", set, 64), -EINVAL);
	assert_int_equal(topo_parse_cpulist("0 1", set, 64), -EINVAL);
}

static void test_topo_real_and_emulated(void **state)
{
	struct topo real, emu;
	unsigned int cpu;
	int bad = -1;

	(void)state;
	assert_int_equal(topo_init(&real, NULL, 0, &bad), 0);
	assert_true(real.nr_possible == real.nr_real_possible);
	assert_true(real.nr_online >= 1 && real.nr_online <= real.nr_possible);
	assert_true(real.nr_workers == real.nr_allowed);
	assert_int_equal(topo_init(&emu, NULL, 480, &bad), 0);
	assert_int_equal(emu.nr_possible, 480);
	assert_int_equal(emu.nr_workers, real.nr_workers);
	for (cpu = 0; cpu < real.nr_possible; cpu++)
		assert_int_equal(emu.node[cpu], real.node[cpu]);
	for (cpu = 0; cpu < 480; cpu++)
		assert_true(emu.node[cpu] >= 0 &&
			    (unsigned int)emu.node[cpu] < emu.nr_nodes);
	/* emulated CPUs go round-robin over the nodes */
	for (cpu = real.nr_possible + 1; cpu < 480; cpu++)
		assert_int_equal(emu.node[cpu],
				 (emu.node[cpu - 1] + 1) % (int)emu.nr_nodes);
	topo_fini(&emu);
	topo_fini(&real);
}

static void test_topo_worker_errors(void **state)
{
	char two[32];
	struct topo t;
	int bad = -1;

	(void)state;
	assert_int_equal(topo_init(&t, "0", 0, &bad), 0);
	assert_int_equal(t.nr_workers, 1);
	assert_int_equal(t.worker_cpu[0], 0);
	topo_fini(&t);
	assert_int_equal(topo_init(&t, "nonsense", 0, &bad), -EINVAL);
	/* a CPU at or above NR_CPUS is named, neither ignored nor dropped */
	bad = -1;
	assert_int_equal(topo_init(&t, "0,9000", 0, &bad), -E2BIG);
	assert_int_equal(bad, 9000);
	bad = -1;
	assert_int_equal(topo_init(&t, "0-1,8192", 0, &bad), -E2BIG);
	assert_int_equal(bad, NR_CPUS_MAX);
	assert_int_equal(topo_init(&t, "0,99999999999", 0, &bad), -E2BIG);
	assert_int_equal(bad, INT_MAX);
	assert_int_equal(topo_init(&t, NULL, 0, &bad), 0);
	if (t.nr_workers < 2) {
		topo_fini(&t);
		skip();
	}
	snprintf(two, sizeof(two), "%u,%u", t.worker_cpu[0], t.worker_cpu[1]);
	topo_fini(&t);
	/* the second worker CPU has no unit when fewer CPUs are possible */
	assert_int_equal(topo_init(&t, two, 1, &bad), -ERANGE);
	assert_int_equal(bad, (int)atoi(strchr(two, ',') + 1));
}

/* ---- per-CPU allocator ---- */

static void test_pcpu_alloc_zeroes_every_unit(void **state)
{
	enum { UNITS = 64 };
	int node[UNITS] = { 0 };
	struct pcpu *pc = pcpu_create(UNITS, 4096, node, false, false);
	unsigned int *a, *b, cpu;

	(void)state;
	assert_non_null(pc);
	a = pcpu_alloc(pc, 4, 4);
	b = pcpu_alloc(pc, 8, 8);
	assert_non_null(a);
	assert_non_null(b);
	assert_true(a != b);
	assert_int_equal((uintptr_t)b % 8, 0);
	for (cpu = 0; cpu < UNITS; cpu++) {
		unsigned int *p = pcpu_ptr(pc, a, cpu);

		/* units are unit_size apart: the same cache sets */
		assert_true((char *)p - (char *)a == (ptrdiff_t)cpu * 4096);
		assert_int_equal(*p, 0);
		*p = cpu + 1;
	}
	pcpu_free(pc, a, 4);
	a = pcpu_alloc(pc, 4, 4);	/* first fit: the same offset again */
	for (cpu = 0; cpu < UNITS; cpu++)
		assert_int_equal(*(unsigned int *)pcpu_ptr(pc, a, cpu), 0);
	pcpu_destroy(pc);
	pcpu_destroy(NULL);
}

static void test_pcpu_full_and_bad_args(void **state)
{
	int node[2] = { 0, 0 };
	struct pcpu *pc;
	unsigned int i;

	(void)state;
	errno = 0;
	assert_null(pcpu_create(2, 3000, node, false, false));
	assert_int_equal(errno, EINVAL);
	assert_null(pcpu_create(2, 2048, node, false, false));
	assert_null(pcpu_create(0, 4096, node, false, false));
	pc = pcpu_create(2, 4096, node, false, false);
	assert_non_null(pc);
	for (i = 0; i < 4096 / PCPU_GRAIN; i++)
		assert_non_null(pcpu_alloc(pc, 4, 4));
	assert_null(pcpu_alloc(pc, 4, 4));
	assert_int_equal(errno, ENOMEM);
	assert_null(pcpu_alloc(pc, 4, 3));
	assert_int_equal(errno, EINVAL);
	pcpu_destroy(pc);
}

static void test_pcpu_node_binding(void **state)
{
	enum { UNITS = 32 };
	int node[UNITS], wrong[UNITS], bad = -1, got = -1;
	struct pcpu *pc;
	unsigned int cpu;
	void *p;

	(void)state;
	if (numa_available() < 0)
		skip();
	for (cpu = 0; cpu < UNITS; cpu++) {
		node[cpu] = (int)cpu % (numa_max_node() + 1);
		wrong[cpu] = node[cpu] + 1;
	}
	pc = pcpu_create(UNITS, 1 << 20, node, true, false);
	assert_non_null(pc);
	p = pcpu_alloc(pc, 4, 4);
	assert_non_null(p);
	assert_int_equal(pcpu_check_nodes(pc, p, node, &bad, &got), 0);
	/* the check can fail: every unit is "elsewhere" from node + 1 */
	assert_int_equal(pcpu_check_nodes(pc, p, wrong, &bad, &got), UNITS);
	assert_int_equal(bad, 0);
	assert_int_equal(got, node[0]);
	pcpu_destroy(pc);
}

/* ---- cycles -> ns ---- */

static void test_tsc_conversion(void **state)
{
	static const uint64_t hz[] = { 1000000000, 2500000000, 2596110620,
				       3000000000, 1234567, 5200000000 };
	static const uint64_t cyc[] = { 0, 1, 26, 1000, 123456789,
					UINT64_C(1) << 40, UINT64_C(1) << 52 };
	struct tsc_info t;
	unsigned int i, j;

	(void)state;
	assert_true(tsc_mult(1000000000) == UINT64_C(1) << 32);
	t.mult = tsc_mult(2500000000);
	assert_true(tsc_to_ns(&t, 2500) == 1000);
	assert_true(tsc_to_ns(&t, 2500000000) == 1000000000);
	for (i = 0; i < sizeof(hz) / sizeof(hz[0]); i++) {
		t.mult = tsc_mult(hz[i]);
		for (j = 0; j < sizeof(cyc) / sizeof(cyc[0]); j++) {
			unsigned __int128 exact =
				(unsigned __int128)cyc[j] * 1000000000u / hz[i];
			uint64_t got = tsc_to_ns(&t, cyc[j]);
			uint64_t err = got > exact ? got - (uint64_t)exact :
						     (uint64_t)exact - got;

			/* within 1 ns plus 2^-31 relative */
			assert_true(err <= 1 + (uint64_t)(exact >> 31));
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpulist_parse),
		cmocka_unit_test(test_topo_real_and_emulated),
		cmocka_unit_test(test_topo_worker_errors),
		cmocka_unit_test(test_pcpu_alloc_zeroes_every_unit),
		cmocka_unit_test(test_pcpu_full_and_bad_args),
		cmocka_unit_test(test_pcpu_node_binding),
		cmocka_unit_test(test_tsc_conversion),
	};

	return cmocka_run_group_tests_name("lib", tests, NULL, NULL);
}
