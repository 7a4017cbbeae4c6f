// SPDX-License-Identifier: GPL-2.0
/*
 * test_testbed.c - the testbed keys read from fixture hosts
 * (tests/fixtures/hosts/: a tuned bare-metal host, a noisy cloud guest,
 * an acpi-cpufreq host under Xen), the running host, --label, the
 * build, and which keys testbed_diff() reports between files.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "lib/results/meta.h"
#include "lib/host/testbed.h"

#define HOSTS "tests/fixtures/hosts/"

/* every key of @tb against @want, NULL-terminated pairs */
static void assert_values(const struct testbed *tb, const char *const *want)
{
	char buf[1024];

	for (; *want; want += 2) {
		assert_int_equal(testbed_value(tb, want[0], buf, sizeof(buf)), 0);
		if (strcmp(buf, want[1]))
			fail_msg("%s: '%s', want '%s'", want[0], buf, want[1]);
	}
}

static void test_tuned_host(void **state)
{
	static const char *const want[] = {
		"cpufreq_governor", "performance",
		"cpufreq_driver", "intel_pstate",
		"turbo", "off (intel_pstate/no_turbo: 1)",
		"smt", "off",
		"thp", "madvise (defrag madvise)",
		"vulnerabilities", "mitigated 2, vulnerable 1 (gather_data_sampling), not affected 3",
		"cmdline", "BOOT_IMAGE=/boot/vmlinuz-6.1.0-18-amd64 root=/dev/sda1 ro isolcpus=2-3 nohz_full=2-3 rcu_nocbs=2-3 intel_pstate=active",
		"microcode", "0xd0003a5",
		"isolcpus", "2-3",
		"nohz_full", "2-3",
		"irqbalance", "not running",
		"virtualization", "none",
		"numa_balancing", "0",
		NULL,
	};
	struct testbed tb;

	(void)state;
	assert_int_equal(testbed_read(&tb, HOSTS "tuned"), 0);
	assert_values(&tb, want);
	assert_int_equal(tb.nr_cpus, 4);
	assert_int_equal(tb.turbo, 0);
	assert_int_equal(tb.perf_paranoid, 1);
	assert_int_equal(tb.huge_total, 64);
	assert_int_equal(tb.huge_free, 64);
	assert_int_equal(tb.huge_kb, 2048);
	assert_int_equal(tb.nr_nodes, 2);
	/* a trailing slash is the same root */
	assert_int_equal(testbed_read(&tb, HOSTS "tuned/"), 0);
	assert_values(&tb, want);
}

static void test_noisy_host(void **state)
{
	static const char *const want[] = {
		"cpufreq_governor", "powersave x3, performance x1",
		"turbo", "on (intel_pstate/no_turbo: 0)",
		"smt", "on (active)",
		"thp", "never (defrag never)",
		/* "KVM: Mitigation: ..." counts as mitigated, "Unknown: ..." as unknown */
		"vulnerabilities",
		"mitigated 1, vulnerable 4 (mds meltdown spectre_v1 spectre_v2), not affected 0, unknown 1",
		"microcode", "0xd0003a5 (mixed)",
		"isolcpus", "none",
		"nohz_full", "none",	/* CONFIG_NO_HZ_FULL, no nohz_full=: "(null)" */
		"irqbalance", "running",
		"virtualization", "a hypervisor (QEMU Standard PC (Q35 + ICH9, 2009))",
		"numa_balancing", "1",
		NULL,
	};
	struct testbed tb;

	(void)state;
	assert_int_equal(testbed_read(&tb, HOSTS "noisy"), 0);
	assert_values(&tb, want);
	assert_true(tb.hypervisor);
	assert_int_equal(tb.smt_active, 1);
	assert_int_equal(tb.perf_paranoid, 3);
	assert_int_equal(tb.huge_total, 0);
}

static void test_sparse_host(void **state)
{
	static const char *const want[] = {
		/* every governor Linux has, ties by name; cpu8 has no cpufreq */
		"cpufreq_governor",
		"schedutil x3, ondemand x2, conservative x1, performance x1, powersave x1, userspace x1, none x1",
		"cpufreq_driver", "acpi-cpufreq",
		"turbo", "on (cpufreq/boost: 1)",
		"smt", "unknown",
		"thp", "unknown",
		"vulnerabilities", "unknown",
		"cmdline", "root=/dev/xvda1 ro",
		"microcode", "unknown",
		"isolcpus", "unknown",
		"nohz_full", "none (not built in)",
		"virtualization", "xen",
		"numa_balancing", "not built in",
		NULL,
	};
	struct testbed tb;

	(void)state;
	assert_int_equal(testbed_read(&tb, HOSTS "amd-xen"), 0);
	assert_values(&tb, want);
	assert_int_equal(tb.nr_cpus, 10);
	assert_int_equal(tb.perf_paranoid, TB_NO_PARANOID);
}

static void test_empty_and_missing_root(void **state)
{
	char dir[] = "/tmp/ksb-testbed-XXXXXX", buf[64];
	struct testbed tb;
	unsigned int i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(testbed_read(&tb, dir), 0);
	for (i = 0; testbed_keys[i]; i++) {
		assert_int_equal(testbed_value(&tb, testbed_keys[i], buf, sizeof(buf)), 0);
		assert_true(strstr(buf, "unknown") || strstr(buf, "not built in") ||
			    !strcmp(buf, "none"));
	}
	rmdir(dir);
	assert_int_equal(testbed_read(&tb, dir), -ENOTDIR);
	assert_int_equal(testbed_read(&tb, HOSTS "tuned/proc/cmdline"), -ENOTDIR);
	assert_int_equal(testbed_value(&tb, "host", buf, sizeof(buf)), -ENOENT);
}

static void test_live_host(void **state)
{
	static struct meta m;
	struct testbed tb;
	unsigned int i;

	(void)state;
	assert_int_equal(testbed_read(&tb, NULL), 0);
	assert_true(tb.nr_cpus >= 1);
	assert_true(tb.cmdline[0]);
	assert_int_equal(testbed_read(&tb, "/"), 0);
	testbed_meta(&tb, &m, NULL);
	for (i = 0; testbed_keys[i]; i++) {
		assert_string_equal(m.kv[i].key, testbed_keys[i]);
		assert_true(m.kv[i].val[0]);
	}
	assert_int_equal(m.n, i);
}

static void test_labels(void **state)
{
	struct tb_labels l = { 0 };
	char why[256], arg[300];
	unsigned int i;

	(void)state;
	assert_int_equal(testbed_label(&l, "commit=0123abc", why, sizeof(why)), 0);
	assert_int_equal(testbed_label(&l, "build_id=", why, sizeof(why)), 0);
	assert_int_equal(testbed_label(&l, "branch=a=b c", why, sizeof(why)), 0);
	assert_int_equal(l.n, 3);
	assert_string_equal(l.kv[2].key, "branch");
	assert_string_equal(l.kv[2].val, "a=b c");
	assert_string_equal(l.kv[1].val, "");
	assert_int_equal(testbed_label(&l, "commit=x", why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "--label: commit given twice");
	assert_int_equal(testbed_label(&l, "Commit=x", why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "--label: 'Commit=x' is not KEY=VALUE with a KEY of 1-25 of a-z, 0-9, _");
	assert_int_equal(testbed_label(&l, "novalue", why, sizeof(why)), -EINVAL);
	assert_int_equal(testbed_label(&l, "=x", why, sizeof(why)), -EINVAL);
	assert_int_equal(testbed_label(&l, "a-b=x", why, sizeof(why)), -EINVAL);
	assert_int_equal(testbed_label(&l, "abcdefghijklmnopqrstuvwxyz=x", why, sizeof(why)), -EINVAL);
	assert_int_equal(testbed_label(&l, "abcdefghijklmnopqrstuvwxy=x", why, sizeof(why)), 0);
	assert_int_equal(testbed_label(&l, "tab=a\tb", why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "--label: the value of tab must be at most 255 printable bytes");
	memset(arg, 'x', sizeof(arg));
	memcpy(arg, "long=", 5);
	arg[5 + 256] = 0;
	assert_int_equal(testbed_label(&l, arg, why, sizeof(why)), -EINVAL);
	arg[5 + 255] = 0;
	assert_int_equal(testbed_label(&l, arg, why, sizeof(why)), 0);
	assert_int_equal(l.n, 5);
	for (i = l.n; i < TB_MAX_LABELS; i++) {
		snprintf(arg, sizeof(arg), "k%u=v", i);
		assert_int_equal(testbed_label(&l, arg, why, sizeof(why)), 0);
	}
	assert_int_equal(testbed_label(&l, "one_more=v", why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "--label: at most 16 labels");
}

static void test_origin(void **state)
{
	static struct meta m;
	struct tb_labels l = { 0 };
	char why[128];

	(void)state;
	assert_int_equal(testbed_label(&l, "commit=abc", why, sizeof(why)), 0);
	testbed_origin(&m, "0.1.0", "v0.1.0-3-g0123abc-dirty", &l);
	assert_int_equal(m.n, 3);
	assert_string_equal(meta_get(&m, "bench_release"), "0.1.0");
	assert_string_equal(meta_get(&m, "bench_git"), "v0.1.0-3-g0123abc-dirty");
	assert_string_equal(meta_get(&m, "label_commit"), "abc");
	memset(&m, 0, sizeof(m));
	testbed_origin(&m, "0.1.0", "unknown", NULL);
	assert_int_equal(m.n, 2);
	/* a guest's result folded in: its build stays, the labels are put */
	meta_set(&m, "label_commit", "guest's");
	testbed_origin(&m, "0.2.0", "v0.2.0", &l);
	assert_int_equal(m.n, 3);
	assert_string_equal(meta_get(&m, "bench_release"), "0.1.0");
	assert_string_equal(meta_get(&m, "bench_git"), "unknown");
	assert_string_equal(m.kv[2].key, "label_commit");
	assert_string_equal(m.kv[2].val, "abc");
}

/* bench vm's host beside a guest's own keys: prefixed, replaced in place */
static void test_meta_prefix(void **state)
{
	static struct meta m;
	struct testbed tb;
	char key[META_KEY];
	unsigned int i, n;

	(void)state;
	assert_int_equal(testbed_read(&tb, HOSTS "tuned"), 0);
	testbed_meta(&tb, &m, NULL);
	n = m.n;
	assert_int_equal(testbed_read(&tb, HOSTS "noisy"), 0);
	testbed_meta(&tb, &m, TB_VM_HOST);
	assert_int_equal(m.n, 2 * n);
	for (i = 0; testbed_keys[i]; i++) {
		snprintf(key, sizeof(key), TB_VM_HOST "%s", testbed_keys[i]);
		assert_string_equal(m.kv[n + i].key, key);
	}
	assert_string_equal(meta_get(&m, "cpufreq_governor"), "performance");
	assert_string_equal(meta_get(&m, "vm_host_cpufreq_governor"), "powersave x3, performance x1");
	/* again: the pairs are replaced, none added */
	testbed_meta(&tb, &m, NULL);
	assert_int_equal(m.n, 2 * n);
	assert_string_equal(m.kv[0].val, "powersave x3, performance x1");
}

/* one file's metadata: "key=value" pairs */
static void meta_of(struct meta *m, ...)
{
	const char *kv, *eq;
	va_list ap;

	memset(m, 0, sizeof(*m));
	va_start(ap, m);
	while ((kv = va_arg(ap, const char *))) {
		char key[32];

		eq = strchr(kv, '=');
		snprintf(key, sizeof(key), "%.*s", (int)(eq - kv), kv);
		meta_set(m, key, "%s", eq + 1);
	}
	va_end(ap);
}

static void test_diff(void **state)
{
	static struct meta f[5];
	const struct meta *b[] = { &f[0], &f[1] }, *a[] = { &f[2], &f[3], &f[4] };
	const struct meta *const *m[2] = { b, a };
	unsigned int n[2] = { 2, 3 };
	struct tb_diff d[TB_MAX_DIFFS];

	(void)state;
	meta_of(&f[0], "host=h", "kernel=6.1", "cpufreq_governor=performance", "samples_per_variant=4096",
		"bench_git=v1", "timestamp=1", "label_commit=a", "smt=off", NULL);
	meta_of(&f[1], "host=h", "kernel=6.1", "cpufreq_governor=performance", "samples_per_variant=4096",
		"bench_git=v1", "timestamp=2", "label_commit=a", NULL);
	meta_of(&f[2], "host=h", "kernel=6.2", "cpufreq_governor=powersave", "samples_per_variant=4096",
		"bench_git=v2", "timestamp=3", "label_commit=b", "smt=on", NULL);
	meta_of(&f[3], "host=h", "kernel=6.2", "cpufreq_governor=powersave", "samples_per_variant=8192",
		"bench_git=v2", "timestamp=4", "label_commit=b", NULL);
	meta_of(&f[4], "host=h", "kernel=6.2", "cpufreq_governor=powersave", "samples_per_variant=4096",
		"bench_git=v2", "timestamp=5", "label_commit=b", NULL);
	/* host keys, testbed_keys[], config, build; never timestamps or labels */
	assert_int_equal(testbed_diff(m, n, d, TB_MAX_DIFFS), 4);
	assert_string_equal(d[0].key, "kernel");
	assert_int_equal(d[0].kind, TB_KIND_TESTBED);
	assert_string_equal(d[0].val[0], "6.1");
	assert_string_equal(d[0].val[1], "6.2");
	assert_true(d[0].between && !d[0].within[0] && !d[0].within[1]);
	assert_string_equal(d[1].key, "cpufreq_governor");
	assert_int_equal(d[1].kind, TB_KIND_TESTBED);
	/* AFTER's second file differs from its first, and 8192 is not in BEFORE */
	assert_string_equal(d[2].key, "samples_per_variant");
	assert_int_equal(d[2].kind, TB_KIND_CONFIG);
	assert_true(d[2].between);
	assert_false(d[2].within[0]);
	assert_true(d[2].within[1]);
	assert_int_equal(d[2].odd[1], 1);
	assert_string_equal(d[2].odd_val[1], "8192");
	assert_string_equal(d[3].key, "bench_git");
	assert_int_equal(d[3].kind, TB_KIND_BUILD);
	assert_string_equal(tb_kind_names[d[3].kind], "build");
	/* smt is missing from some files: not compared */
	assert_int_equal(testbed_diff(m, n, d, 2), 2);
	/* the same files on both sides: nothing */
	m[1] = b;
	n[1] = 2;
	assert_int_equal(testbed_diff(m, n, d, TB_MAX_DIFFS), 0);
	/* BEFORE's files disagree among themselves only: within, not between */
	a[0] = &f[3];
	a[1] = &f[2];
	m[0] = a;
	n[0] = 2;
	m[1] = a;
	n[1] = 3;
	assert_int_equal(testbed_diff(m, n, d, TB_MAX_DIFFS), 1);
	assert_string_equal(d[0].key, "samples_per_variant");
	assert_true(!d[0].between && d[0].within[0] && d[0].within[1]);
	assert_int_equal(d[0].odd[0], 1);
	assert_string_equal(d[0].odd_val[0], "4096");
	n[0] = 0;
	assert_int_equal(testbed_diff(m, n, d, TB_MAX_DIFFS), 0);
	/* bench vm's host keys, after the guests' testbed keys */
	meta_set(&f[3], "vm_host_turbo", "on");
	meta_set(&f[2], "vm_host_turbo", "off");
	meta_set(&f[3], "thp", "never");
	meta_set(&f[2], "thp", "never");
	m[0] = a;
	n[0] = 1;
	m[1] = a + 1;
	n[1] = 1;
	assert_int_equal(testbed_diff(m, n, d, TB_MAX_DIFFS), 2);
	assert_string_equal(d[0].key, "vm_host_turbo");
	assert_int_equal(d[0].kind, TB_KIND_TESTBED);
	assert_string_equal(d[0].val[0], "on");
	assert_string_equal(d[0].val[1], "off");
	assert_string_equal(d[1].key, "samples_per_variant");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tuned_host),
		cmocka_unit_test(test_noisy_host),
		cmocka_unit_test(test_sparse_host),
		cmocka_unit_test(test_empty_and_missing_root),
		cmocka_unit_test(test_live_host),
		cmocka_unit_test(test_labels),
		cmocka_unit_test(test_origin),
		cmocka_unit_test(test_meta_prefix),
		cmocka_unit_test(test_diff),
	};

	return cmocka_run_group_tests_name("testbed", tests, NULL, NULL);
}
