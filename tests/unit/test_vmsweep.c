// SPDX-License-Identifier: GPL-2.0
/*
 * test_vmsweep.c - bench vm's sweep without a boot (lib/kernel/vmsweep.h):
 * which plan boots each shard boots and in which cells, the metadata a
 * shard's files carry, the cells, and the plan's key: what changes it
 * and what does not.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lib/kernel/vmsweep.h"
#include "lib/results/meta.h"

static char cmd_run[] = "run", cmd_n[] = "-n", cmd_64[] = "64", cmd_sh[] = "sh",
	    cmd_script[] = "s.sh", cmd_n64[] = "-n 64";

/*
 * @sw: -B @boots of @nk kernels (k0, k1, ...) at the counts @p (@np of
 * them), 2 online vCPUs, one command: run -n 64
 */
static void sweep_init(struct vmsweep *sw, unsigned int boots, unsigned int nk,
		       const unsigned int *p, unsigned int np)
{
	unsigned int i;

	memset(sw, 0, sizeof(*sw));
	sw->boots = boots;
	sw->cpus = 2;
	sw->nodes = 1;
	sw->memory = 1024;
	sw->qemu = "qemu-system-x86_64";
	for (i = 0; i < nk; i++) {
		snprintf(sw->k[i].name, sizeof(sw->k[i].name), "k%u", i);
		memset(sw->k[i].sha256, 'a' + (int)i, SHA256_HEX - 1);
	}
	sw->nr_k = nk;
	memcpy(sw->possible, p, np * sizeof(*p));
	sw->nr_p = np;
	sw->c[0].argv[0] = cmd_run;
	sw->c[0].argv[1] = cmd_n;
	sw->c[0].argv[2] = cmd_64;
	sw->c[0].argc = 3;
	sw->nr_c = 1;
}

/* shard @i of @n: 0, its plan boots [*first, *end) */
static int shard(struct vmsweep *sw, unsigned int i, unsigned int n, char *why, size_t len)
{
	sw->shard_i = i;
	sw->shard_n = n;
	return vmsweep_plan(sw, why, len);
}

/*
 * 7 boots of one kernel at one count in 3 shards: whole rounds, the
 * extra one in the last shard (2, 2, 3 boots); together the plan, once
 */
static void test_vmsweep_shards_one_cell(void **state)
{
	static const unsigned int p[] = { 2 }, want[3][2] = { { 0, 2 }, { 2, 4 }, { 4, 7 } };
	struct vmsweep *sw = malloc(sizeof(*sw));
	unsigned int i, b, r;
	char why[256];

	(void)state;
	assert_non_null(sw);
	sweep_init(sw, 7, 1, p, 1);
	assert_int_equal(vmsweep_plan_total(sw), 7);
	for (i = 0; i < 3; i++) {
		assert_int_equal(shard(sw, i + 1, 3, why, sizeof(why)), 0);
		assert_int_equal(sw->plan_first, want[i][0]);
		assert_int_equal(sw->plan_end, want[i][1]);
		assert_int_equal(vmsweep_cell_boots(sw, 0), want[i][1] - want[i][0]);
		for (b = sw->plan_first; b < sw->plan_end; b++) {
			assert_int_equal(vmsweep_plan_cell(sw, b, &r), 0);
			assert_int_equal(r, b);
		}
	}
	/* unsharded: every boot */
	assert_int_equal(shard(sw, 0, 0, why, sizeof(why)), 0);
	assert_int_equal(sw->plan_first, 0);
	assert_int_equal(sw->plan_end, 7);
	assert_int_equal(vmsweep_cell_boots(sw, 0), 7);
	free(sw);
}

/*
 * 7 rounds of two kernels in 3 shards: 2, 2 and 3 rounds of the two
 * cells, the kernels' order rotated round by round (vm_sweep_slot())
 */
static void test_vmsweep_shards_two_kernels(void **state)
{
	static const unsigned int p[] = { 4 };
	/* shard 3's plan boots 8..13: rounds 4..6, k0 k1, k1 k0, k0 k1 */
	static const unsigned int cells[] = { 0, 1, 1, 0, 0, 1 };
	struct vmsweep *sw = malloc(sizeof(*sw));
	unsigned int b, r;
	char why[256];

	(void)state;
	assert_non_null(sw);
	sweep_init(sw, 7, 2, p, 1);
	assert_int_equal(shard(sw, 1, 3, why, sizeof(why)), 0);
	assert_int_equal(sw->plan_first, 0);
	assert_int_equal(sw->plan_end, 4);
	assert_int_equal(vmsweep_cell_boots(sw, 0), 2);
	assert_int_equal(vmsweep_cell_boots(sw, 1), 2);
	assert_int_equal(shard(sw, 3, 3, why, sizeof(why)), 0);
	assert_int_equal(sw->plan_first, 8);
	assert_int_equal(sw->plan_end, 14);
	assert_int_equal(vmsweep_cell_boots(sw, 0), 3);
	assert_int_equal(vmsweep_cell_boots(sw, 1), 3);
	for (b = 8; b < 14; b++) {
		assert_int_equal(vmsweep_plan_cell(sw, b, &r), cells[b - 8]);
		assert_int_equal(r, b / 2);
	}
	free(sw);
}

/* what a shard's files say: the plan's boots it ran, each run's plan run */
static void test_vmsweep_shard_meta(void **state)
{
	static const unsigned int p[] = { 2, 4 };
	struct vmsweep *sw = malloc(sizeof(*sw));
	struct meta *m = calloc(1, sizeof(*m));
	char why[256];

	(void)state;
	assert_non_null(sw);
	assert_non_null(m);
	sweep_init(sw, 3, 1, p, 2);
	assert_int_equal(shard(sw, 2, 3, why, sizeof(why)), 0);
	assert_int_equal(vmsweep_cells(sw, why, sizeof(why)), 0);
	assert_int_equal(sw->nr_cells, 2);
	assert_string_equal(sw->cell[0].label, "k0-p2");
	assert_string_equal(sw->cell[1].label, "k0-p4");
	assert_int_equal(sw->cell[1].vm.possible, 4);
	assert_int_equal(sw->cell[1].runs[0].asked, 1);
	assert_int_equal(vmsweep_plan_key(sw), 0);
	sw->cell[1].nr_boots = 1;
	vmsweep_plan_meta(sw, &sw->cell[1], m);
	assert_string_equal(meta_get(m, "vm_plan"), sw->plan_key);
	assert_string_equal(meta_get(m, "vm_shard"), "2/3");
	assert_string_equal(meta_get(m, "vm_shard_boots"), "3-4 of 6");
	assert_string_equal(meta_get(m, "vm_plan_runs"), "2");
	assert_string_equal(meta_get(m, "vm_plan_files"), "2");
	/* the plugin's files of each cell count in the plan */
	sw->plugin_files = 4;
	vmsweep_plan_meta(sw, &sw->cell[1], m);
	assert_string_equal(meta_get(m, "vm_plan_files"), "10");
	assert_null(sw->cell[1].vm.plugin);
	/* unsharded: the plan alone */
	memset(m, 0, sizeof(*m));
	sw->shard_n = 0;
	vmsweep_plan_meta(sw, &sw->cell[1], m);
	assert_non_null(meta_get(m, "vm_plan"));
	assert_null(meta_get(m, "vm_shard"));
	vmsweep_free(sw);
	vmsweep_free(sw);
	free(m);
	free(sw);
}

static void test_vmsweep_refused(void **state)
{
	static const unsigned int p[] = { 2 };
	struct vmsweep *sw = malloc(sizeof(*sw));
	char why[256];

	(void)state;
	assert_non_null(sw);
	sweep_init(sw, 7, 1, p, 1);
	assert_int_equal(shard(sw, 8, 8, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "--shard 8/8: the plan has 7 boots (-B 7 x 1 kernels x 1 counts): N is 1..7");
	sw->c[0].argv[0] = cmd_sh;
	sw->c[0].argv[1] = cmd_script;
	sw->c[0].argv[2] = NULL;
	sw->c[0].argc = 2;
	assert_true(vmsweep_is_sh(sw, 0));
	assert_int_equal(shard(sw, 1, 2, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "--shard: an sh command's files are per boot, not merged: run it unsharded");
	assert_int_equal(shard(sw, 0, 0, why, sizeof(why)), 0);
	/* a machine vm_check_config() refuses: named, the cells freed after */
	sw->cpus = 4;
	assert_int_equal(vmsweep_cells(sw, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "--possible-cpus 2 is below --cpus 4");
	vmsweep_free(sw);
	assert_null(sw->cell);
	free(sw);
}

/* @sw's key, copied */
static void key_of(struct vmsweep *sw, char *key)
{
	assert_int_equal(vmsweep_plan_key(sw), 0);
	assert_int_equal(strlen(sw->plan_key), SHA256_HEX - 1);
	memcpy(key, sw->plan_key, SHA256_HEX);
}

/*
 * the key names what every runner of the plan boots: a kernel's digest
 * and a command's word change it, and so do its words' bounds ("-n 64"
 * is one word, not two); the shard, the timeouts and the paths on the
 * host do not
 */
static void test_vmsweep_plan_key(void **state)
{
	static const unsigned int p[] = { 2, 4 };
	struct vmsweep *sw = malloc(sizeof(*sw));
	char base[SHA256_HEX], key[SHA256_HEX];

	(void)state;
	assert_non_null(sw);
	sweep_init(sw, 6, 2, p, 2);
	key_of(sw, base);
	sw->shard_i = 2;
	sw->shard_n = 3;
	sw->timeout = 10;
	sw->retries = 3;
	sw->qemu = "/opt/qemu/bin/qemu-system-x86_64";
	sw->k[0].image = "/elsewhere/bzImage";
	key_of(sw, key);
	assert_string_equal(key, base);
	sw->k[1].sha256[0] = 'f';
	key_of(sw, key);
	assert_string_not_equal(key, base);
	sw->k[1].sha256[0] = 'b';
	key_of(sw, key);
	assert_string_equal(key, base);
	sw->c[0].argv[2] = cmd_n;
	key_of(sw, key);
	assert_string_not_equal(key, base);
	sw->c[0].argv[2] = cmd_64;
	key_of(sw, key);
	assert_string_equal(key, base);
	sw->c[0].argv[1] = cmd_n64;
	sw->c[0].argv[2] = NULL;
	sw->c[0].argc = 2;
	key_of(sw, key);
	assert_string_not_equal(key, base);
	sw->c[0].argv[1] = cmd_n;
	sw->c[0].argv[2] = cmd_64;
	sw->c[0].argc = 3;
	key_of(sw, key);
	assert_string_equal(key, base);
	sw->boots = 7;
	key_of(sw, key);
	assert_string_not_equal(key, base);
	/* the plugin's settings: a plan of their own */
	sw->boots = 6;
	sw->plugin_key = "insns syms=auto";
	key_of(sw, key);
	assert_string_not_equal(key, base);
	sw->plugin_key = NULL;
	key_of(sw, key);
	assert_string_equal(key, base);
	free(sw);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vmsweep_shards_one_cell),
		cmocka_unit_test(test_vmsweep_shards_two_kernels),
		cmocka_unit_test(test_vmsweep_shard_meta),
		cmocka_unit_test(test_vmsweep_refused),
		cmocka_unit_test(test_vmsweep_plan_key),
	};

	return cmocka_run_group_tests_name("vmsweep", tests, NULL, NULL);
}
