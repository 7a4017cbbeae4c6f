// SPDX-License-Identifier: GPL-2.0
/*
 * test_disturb.c - lib/measure/disturb.c on this host: a CPU we run on
 * has a column of /proc/interrupts whose count never goes back, a CPU
 * that does not exist has none and counts nothing, a closed counter
 * counts nothing, and context switches are counted.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>
#include <cmocka.h>

#include "lib/measure/disturb.h"

/* ample: a read of /proc/interrupts on a busy 2-core VM is some us */
#define READ_MAX_NS	1000000000ull

static void test_our_cpu_counts(void **state)
{
	struct disturb_irq d;
	uint64_t a, b;
	int cpu = sched_getcpu();

	(void)state;
	assert_true(cpu >= 0);
	if (access("/proc/interrupts", R_OK))
		skip();
	assert_true(disturb_irq_open(&d, (unsigned int)cpu, READ_MAX_NS));
	assert_true(disturb_irq_counts(&d));
	assert_true(d.col >= 0);
	a = disturb_irq_count(&d);
	b = disturb_irq_count(&d);
	assert_true(b >= a);
	disturb_irq_close(&d);
	assert_false(disturb_irq_counts(&d));
	assert_int_equal(disturb_irq_count(&d), 0);
	assert_null(d.buf);
}

static void test_no_such_cpu(void **state)
{
	struct disturb_irq d;

	(void)state;
	assert_false(disturb_irq_open(&d, 99999, READ_MAX_NS));
	assert_int_equal(d.fd, -1);
	assert_null(d.buf);
	assert_int_equal(disturb_irq_count(&d), 0);
	disturb_irq_close(&d);		/* twice is harmless */
}

static void test_too_slow_is_off(void **state)
{
	struct disturb_irq d;
	int cpu = sched_getcpu();

	(void)state;
	if (access("/proc/interrupts", R_OK))
		skip();
	/* no read takes 0 ns: the counter is refused, its cost kept */
	assert_false(disturb_irq_open(&d, (unsigned int)cpu, 0));
	assert_false(disturb_irq_counts(&d));
	assert_true(d.read_ns > 0);
}

static void test_csw_counts(void **state)
{
	uint64_t a = disturb_csw();

	(void)state;
	usleep(1000);			/* sleeping is a voluntary switch */
	assert_true(disturb_csw() > a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_our_cpu_counts),
		cmocka_unit_test(test_no_such_cpu),
		cmocka_unit_test(test_too_slow_is_off),
		cmocka_unit_test(test_csw_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
