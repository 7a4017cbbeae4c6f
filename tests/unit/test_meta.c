// SPDX-License-Identifier: GPL-2.0
/*
 * test_meta.c - the metadata keys' table (lib/results/meta.h): its rows
 * well formed and in order, a key found by its name or its family, the
 * typed getters with the row's range (0, -ENOENT, -EINVAL, -ERANGE), and
 * meta_check()'s line naming key and value.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "lib/results/meta.h"

static void test_meta_table(void **state)
{
	const struct meta_key *k;
	size_t i, n;

	(void)state;
	for (k = meta_keys; k->name; k++) {
		n = strlen(k->name);
		assert_true(n > 0 && n < META_KEY);
		assert_int_equal(strspn(k->name, "abcdefghijklmnopqrstuvwxyz0123456789_"), n);
		assert_non_null(k->meaning);
		assert_true(k->meaning[0] != 0);
		if (k->type == META_U64)
			assert_true(k->min <= k->max);
		/* in order, each once: a key is found where a reader looks */
		if (k != meta_keys)
			assert_true(strcmp(k[-1].name, k->name) < 0);
		for (i = 0; i < n; i++)
			assert_true(k->name[i] != '_' || i == n - 1 || k->name[i + 1] != '_');
	}
	assert_true(k - meta_keys > 100);
}

static void test_meta_key_find(void **state)
{
	(void)state;
	assert_string_equal(meta_key_find("possible_cpus")->name, "possible_cpus");
	assert_int_equal(meta_key_find("possible_cpus")->max, NR_CPUS_MAX);
	/* a family: label_KEY, variant_NAME */
	assert_string_equal(meta_key_find("label_commit")->name, "label_");
	assert_string_equal(meta_key_find("variant_old")->name, "variant_");
	/* the family's name alone is no key of it */
	assert_null(meta_key_find("label"));
	assert_null(meta_key_find("no_such_key"));
}

static void test_meta_get_u64(void **state)
{
	struct meta m = { 0 };
	uint64_t v = 7;

	(void)state;
	meta_set(&m, "possible_cpus", "480");
	meta_set(&m, "runs", "0");
	meta_set(&m, "online_cpus", "2x");
	meta_set(&m, "used_cpus", "8193");
	meta_set(&m, "frac_bits", "12");
	meta_set(&m, "unit", "ns");
	assert_int_equal(meta_get_u64(&m, "possible_cpus", &v), 0);
	assert_int_equal(v, 480);
	assert_int_equal(meta_get_u64(&m, "frac_bits", &v), 0);
	assert_int_equal(v, 12);
	/* outside the row's range, not a decimal, absent */
	assert_int_equal(meta_get_u64(&m, "runs", &v), -ERANGE);
	assert_int_equal(meta_get_u64(&m, "used_cpus", &v), -ERANGE);
	assert_int_equal(meta_get_u64(&m, "online_cpus", &v), -EINVAL);
	assert_int_equal(meta_get_u64(&m, "runs_asked", &v), -ENOENT);
	/* a key of another type, or none of the table's: a bug, -EINVAL */
	assert_int_equal(meta_get_u64(&m, "unit", &v), -EINVAL);
	assert_int_equal(meta_get_u64(&m, "no_such_key", &v), -EINVAL);
}

static void test_meta_get_num_bool(void **state)
{
	struct meta m = { 0 };
	double d = 0;
	bool b = false;

	(void)state;
	meta_set(&m, "alpha", "0.05");
	meta_set(&m, "duration_s", "inf");
	meta_set(&m, "partial", "yes");
	meta_set(&m, "drop_disturbed", "maybe");
	assert_int_equal(meta_get_num(&m, "alpha", &d), 0);
	assert_true(d == 0.05);
	assert_int_equal(meta_get_num(&m, "duration_s", &d), -EINVAL);
	assert_int_equal(meta_get_bool(&m, "partial", &b), 0);
	assert_true(b);
	assert_int_equal(meta_get_bool(&m, "drop_disturbed", &b), -EINVAL);
	assert_int_equal(meta_get_bool(&m, "invariant_tsc", &b), -ENOENT);
}

static void test_meta_check(void **state)
{
	char why[128];

	(void)state;
	assert_int_equal(meta_check("possible_cpus", "255", why, sizeof(why)), 0);
	assert_int_equal(meta_check("possible_cpus", "many", why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "possible_cpus 'many' is not a count 1..8192");
	assert_int_equal(meta_check("possible_cpus", "0", why, sizeof(why)), -EINVAL);
	assert_int_equal(meta_check("frac_bits", "13", why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "frac_bits '13' is not an integer 0..12");
	assert_int_equal(meta_check("partial", "perhaps", why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "partial 'perhaps' is not yes or no");
	assert_int_equal(meta_check("timestamp", "2025-02-30T00:00:00Z", why, sizeof(why)), -EINVAL);
	assert_int_equal(meta_check("timestamp", "2025-01-31T02:00:00Z", why, sizeof(why)), 0);
	/* text, and a key the table lacks, take any line */
	assert_int_equal(meta_check("cpu_model", "", why, sizeof(why)), 0);
	assert_int_equal(meta_check("counters_reconciled", "x", why, sizeof(why)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_meta_table),
		cmocka_unit_test(test_meta_key_find),
		cmocka_unit_test(test_meta_get_u64),
		cmocka_unit_test(test_meta_get_num_bool),
		cmocka_unit_test(test_meta_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
