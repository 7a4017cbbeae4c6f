// SPDX-License-Identifier: GPL-2.0
/*
 * tbdiff.c - what differs between the files of bench compare's two
 * sides: the testbed, the configuration and the build, key by key (the
 * API is testbed.h's).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lib/results/meta.h"
#include "lib/host/testbed.h"

const char *const tb_kind_names[] = { "testbed", "config", "build", NULL };

/*
 * What compare checks, beside testbed_keys[]: the host as bench run
 * describes it, the run's configuration (what the user chose, not what
 * came of it: pcpu_layout and mlock say what was granted), the build.
 */
static const struct {
	const char *key;	/* the metadata key */
	enum tb_kind kind;	/* what it describes */
} tb_compared[] = {
	{ "host", TB_KIND_TESTBED }, { "kernel", TB_KIND_TESTBED },
	{ "cpu_model", TB_KIND_TESTBED }, { "online_cpus", TB_KIND_TESTBED },
	{ "nodes", TB_KIND_TESTBED }, { "clocksource", TB_KIND_TESTBED },
	{ "invariant_tsc", TB_KIND_TESTBED },
	{ "source", TB_KIND_CONFIG }, { "workload", TB_KIND_CONFIG },
	{ "workload_options", TB_KIND_CONFIG }, { "samples_per_variant", TB_KIND_CONFIG },
	{ "possible_cpus", TB_KIND_CONFIG }, { "used_cpus", TB_KIND_CONFIG },
	{ "mode", TB_KIND_CONFIG }, { "cache", TB_KIND_CONFIG }, { "unit", TB_KIND_CONFIG },
	{ "frac_bits", TB_KIND_CONFIG }, { "stamps", TB_KIND_CONFIG },
	{ "end_fence", TB_KIND_CONFIG }, { "irqstat_bytes", TB_KIND_CONFIG },
	{ "pcpu_unit", TB_KIND_CONFIG }, { "hugepages", TB_KIND_CONFIG },
	{ "overhead_subtracted", TB_KIND_CONFIG }, { "drop_disturbed", TB_KIND_CONFIG },
	{ "bench_release", TB_KIND_BUILD }, { "bench_git", TB_KIND_BUILD },
};

static bool tb_side_has(const struct meta *const *m, unsigned int n, const char *key,
			const char *val)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(meta_get(m[i], key), val))
			return true;
	return false;
}

/* @key over every file into @d: true when it differs anywhere */
static bool tb_diff_key(const struct meta *const *const m[2], const unsigned int n[2],
			const char *key, enum tb_kind kind, struct tb_diff *d)
{
	const char *v;
	unsigned int k, i;

	memset(d, 0, sizeof(*d));
	for (k = 0; k < 2; k++)
		for (i = 0; i < n[k]; i++)
			if (!meta_get(m[k][i], key))
				return false;	/* not recorded: nothing to say */
	if (!n[0] || !n[1])
		return false;
	snprintf(d->key, sizeof(d->key), "%s", key);
	d->kind = kind;
	d->val[0] = meta_get(m[0][0], key);
	d->val[1] = meta_get(m[1][0], key);
	for (k = 0; k < 2; k++)
		for (i = 0; i < n[k]; i++) {
			v = meta_get(m[k][i], key);
			if (!d->within[k] && strcmp(v, d->val[k])) {
				d->within[k] = true;
				d->odd[k] = i;
				d->odd_val[k] = v;
			}
			if (!tb_side_has(m[!k], n[!k], key, v))
				d->between = true;
		}
	return d->between || d->within[0] || d->within[1];
}

unsigned int testbed_diff(const struct meta *const *const m[2], const unsigned int n[2],
			  struct tb_diff *d, unsigned int max)
{
	const unsigned int nc = sizeof(tb_compared) / sizeof(tb_compared[0]);
	unsigned int i, pass, nr = 0;
	char key[META_KEY];

	/*
	 * bench run's host keys, then testbed_keys[] and bench vm's host's
	 * (TB_VM_HOST), then configuration and build
	 */
	for (pass = 0; pass < 3; pass++) {
		for (i = 0; pass == 1 && testbed_keys[i] && nr < max; i++)
			nr += tb_diff_key(m, n, testbed_keys[i], TB_KIND_TESTBED, &d[nr]);
		for (i = 0; pass == 1 && testbed_keys[i] && nr < max; i++) {
			snprintf(key, sizeof(key), TB_VM_HOST "%s", testbed_keys[i]);
			nr += tb_diff_key(m, n, key, TB_KIND_TESTBED, &d[nr]);
		}
		for (i = 0; pass != 1 && i < nc && nr < max; i++)
			if ((tb_compared[i].kind == TB_KIND_TESTBED) == !pass)
				nr += tb_diff_key(m, n, tb_compared[i].key, tb_compared[i].kind,
						  &d[nr]);
	}
	return nr;
}
