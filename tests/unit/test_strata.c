// SPDX-License-Identifier: GPL-2.0
/*
 * test_strata.c - the runner class of a file (lib/results/strata.h), and
 * the rule that one fit takes one: TCG against KVM, two CPU models, a
 * merged file's runs of two classes, and files written before the keys.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "lib/results/meta.h"
#include "lib/results/strata.h"

#define EPYC "AMD EPYC 7763 64-Core Processor"
#define XEON "Intel(R) Xeon(R) Platinum 8272CL CPU @ 2.60GHz"

static void test_class(void **state)
{
	struct meta m = { 0 };
	char cls[STRATA_CLASS];

	(void)state;
	/* bench run: native, its own cpu_model */
	meta_put(&m, "cpu_model", "%s", EPYC);
	strata_class(&m, cls, sizeof(cls));
	assert_string_equal(cls, "native/AMD-EPYC-7763-64-Core-Processor");
	/* a VM's file before vm_accel: the accel= of its qemu line, no host model */
	meta_put(&m, "vm_qemu", "qemu-system-x86_64 -machine q35,accel=kvm -smp 2");
	strata_class(&m, cls, sizeof(cls));
	assert_string_equal(cls, "kvm/unknown");
	/* the runner's model over the guest's */
	meta_put(&m, "vm_host_cpu_model", "%s", XEON);
	meta_put(&m, "vm_accel", "tcg");
	strata_class(&m, cls, sizeof(cls));
	assert_string_equal(cls, "tcg/Intel-R-Xeon-R-Platinum-8272CL-CPU-2.60GHz");
	/* a count is the emulated CPU's, whatever host ran it */
	meta_put(&m, "unit", "insn");
	meta_put(&m, "cpu_model", "QEMU TCG CPU version 2.5+");
	strata_class(&m, cls, sizeof(cls));
	assert_string_equal(cls, "counted/QEMU-TCG-CPU-version-2.5+");
	meta_put(&m, "unit", "ns");
	/* a file with nothing: native, unknown */
	memset(&m, 0, sizeof(m));
	strata_class(&m, cls, sizeof(cls));
	assert_string_equal(cls, "native/unknown");
}

static void vm_meta(struct meta *m, const char *accel, const char *model)
{
	memset(m, 0, sizeof(*m));
	meta_put(m, "vm_qemu", "qemu");
	meta_put(m, "vm_accel", "%s", accel);
	meta_put(m, "vm_host_cpu_model", "%s", model);
}

static void test_check(void **state)
{
	struct meta a, b, c;
	const struct meta *m[3] = { &a, &b, &c };
	const char *path[3] = { "a.csv", "b.csv", "c.csv" };
	char why[512];

	(void)state;
	vm_meta(&a, "tcg", EPYC);
	vm_meta(&b, "tcg", EPYC);
	vm_meta(&c, "tcg", EPYC);
	assert_int_equal(strata_check(m, path, 3, why, sizeof(why)), 0);
	assert_int_equal(strata_check(m, path, 0, why, sizeof(why)), 0);
	/* TCG and KVM on one host: two classes */
	vm_meta(&c, "kvm", EPYC);
	assert_int_equal(strata_check(m, path, 3, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "a.csv ran on tcg/AMD-EPYC-7763-64-Core-Processor, c.csv on kvm/AMD-EPYC-7763-64-Core-Processor: runner classes are strata, one fit takes one (fit each apart, or --pool)");
	/* two CPU models under one accelerator */
	vm_meta(&c, "tcg", XEON);
	assert_int_equal(strata_check(m, path, 3, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "c.csv on tcg/Intel-R-Xeon"));
	/* a merged file: its runs' classes, range by range */
	vm_meta(&c, "tcg", EPYC);
	meta_put(&c, "vm_run_class", "1-2:tcg/AMD-EPYC-7763-64-Core-Processor 3:tcg/AMD-EPYC-7763-64-Core-Processor");
	assert_int_equal(strata_check(m, path, 3, why, sizeof(why)), 0);
	meta_put(&c, "vm_run_class", "1-2:tcg/AMD-EPYC-7763-64-Core-Processor 3:kvm/X");
	assert_int_equal(strata_check(m, path, 3, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "c.csv on kvm/X:"));
	/* a file that names no CPU: its accelerator alone */
	memset(&c, 0, sizeof(c));
	meta_put(&c, "vm_qemu", "qemu -machine q35,accel=tcg");
	assert_int_equal(strata_check(m, path, 3, why, sizeof(why)), 0);
	meta_put(&c, "vm_qemu", "qemu -machine q35,accel=kvm");
	assert_int_equal(strata_check(m, path, 3, why, sizeof(why)), -EINVAL);
	{
		const struct meta *u[2] = { &c, &a };

		vm_meta(&b, "kvm", XEON);
		u[1] = &b;
		assert_int_equal(strata_check(u, path, 2, why, sizeof(why)), 0);
		vm_meta(&a, "kvm", EPYC);
		assert_int_equal(strata_check((const struct meta *[]){ &c, &b, &a }, path, 3,
					      why, sizeof(why)), -EINVAL);
		assert_non_null(strstr(why, "b.csv ran on kvm/Intel"));
	}
	/* a run of bench run beside a VM's: native is a class of its own */
	memset(&c, 0, sizeof(c));
	meta_put(&c, "cpu_model", "%s", EPYC);
	assert_int_equal(strata_check(m, path, 3, why, sizeof(why)), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_class),
		cmocka_unit_test(test_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
