// SPDX-License-Identifier: GPL-2.0
/*
 * test_busy.c - the host's contention: lib/measure/contend.c parsing PSI
 * files (a fake /proc/pressure/cpu written here, and one that does not
 * exist) and timing a window over one, and lib/results/busy.c: the rule at
 * its limit, the per-run lists, the count over files and its lines.
 */
#define _GNU_SOURCE
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

#include "kstats_hist.h"
#include "lib/measure/contend.h"
#include "lib/results/busy.h"
#include "lib/results/meta.h"
#include "lib/results/results.h"

static const char psi_text[] =
	"some avg10=1.50 avg60=0.80 avg300=0.20 total=36852042\n"
	"full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n";

static void test_parse(void **state)
{
	uint64_t us = 0;

	(void)state;
	assert_int_equal(contend_psi_parse(psi_text, &us), 0);
	assert_int_equal(us, 36852042);
	/* a kernel before 5.13 has no "full" line for cpu */
	assert_int_equal(contend_psi_parse("some avg10=0.00 avg60=0.00 avg300=0.00 total=7\n",
					   &us), 0);
	assert_int_equal(us, 7);
	us = 5;
	assert_int_equal(contend_psi_parse("full avg10=0.00 total=9\n", &us), -EINVAL);
	assert_int_equal(contend_psi_parse("some avg10=0.00 total=x\n", &us), -EINVAL);
	assert_int_equal(contend_psi_parse("some avg10=0.00 total=12y\n", &us), -EINVAL);
	assert_int_equal(contend_psi_parse("some avg10=0.00\nfull total=3\n", &us), -EINVAL);
	assert_int_equal(contend_psi_parse("", &us), -EINVAL);
	assert_int_equal(us, 5);
}

static void fake_psi(const char *path, unsigned long long total)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fprintf(f, "some avg10=0.00 avg60=0.00 avg300=0.00 total=%llu\n"
		"full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", total);
	assert_int_equal(fclose(f), 0);
}

static void test_window(void **state)
{
	char path[] = "/tmp/test_busy.XXXXXX";
	struct contend c;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	fake_psi(path, 1000);
	contend_start(&c, path);
	assert_true(c.psi);
	fake_psi(path, 1000 + 250000);
	usleep(1000);
	contend_stop(&c);
	assert_true(c.psi);
	assert_int_equal(c.psi_us, 250000);
	assert_true(c.seconds > 0);
	c.seconds = 2.5;
	assert_true(contend_psi_pct(&c) == 10.0);
	c.seconds = 0.1;			/* more stall than window: capped */
	assert_true(contend_psi_pct(&c) == 100.0);

	/* a total that went back counts nothing */
	contend_start(&c, path);
	fake_psi(path, 10);
	contend_stop(&c);
	assert_true(c.psi);
	assert_int_equal(c.psi_us, 0);

	/* gone by the end: no figure */
	contend_start(&c, path);
	unlink(path);
	contend_stop(&c);
	assert_false(c.psi);
	assert_true(contend_psi_pct(&c) == 0);
}

static void test_no_psi(void **state)
{
	struct contend c;
	uint64_t us;

	(void)state;
	assert_int_equal(contend_psi_read("/nonexistent/pressure/cpu", &us), -ENOENT);
	contend_start(&c, "/nonexistent/pressure/cpu");
	contend_stop(&c);
	assert_false(c.psi);
	assert_int_equal(c.psi_us, 0);
	assert_true(c.seconds >= 0);
}

static void test_rule(void **state)
{
	(void)state;
	assert_false(busy_disturbed(0));
	assert_false(busy_disturbed(BUSY_PSI_PCT));
	assert_true(busy_disturbed(BUSY_PSI_PCT + 0.01));
	assert_true(busy_disturbed(100));
	/* a boot: PSI past its limit and qemu below its share of the wall */
	assert_true(busy_boot_disturbed(99.5, 11.5, 25.4));
	assert_false(busy_boot_disturbed(99.5, 0.7 * 25.4, 25.4));
	assert_false(busy_boot_disturbed(99.5, 26.0, 25.4));
	assert_false(busy_boot_disturbed(BUSY_PSI_PCT, 0.1, 25.4));
	/* no figure of qemu: PSI alone */
	assert_true(busy_boot_disturbed(41, 0, 0));
	assert_false(busy_boot_disturbed(39, 0, 0));
}

static void test_lists(void **state)
{
	struct meta m = { 0 };
	char buf[64];

	(void)state;
	assert_int_equal(busy_list_add(&m, "psi_cpu_some_pct", 1, "%.2f", 0.42), 0);
	assert_int_equal(busy_list_add(&m, "run_nivcsw", 1, "%u", 12), 0);
	assert_int_equal(busy_list_add(&m, "psi_cpu_some_pct", 2, "%.2f", 31.07), 0);
	assert_string_equal(meta_get(&m, "psi_cpu_some_pct"), "1:0.42 2:31.07");
	assert_string_equal(meta_get(&m, "run_nivcsw"), "1:12");
	assert_int_equal(m.n, 2);
	assert_int_equal(busy_list_get(&m, "psi_cpu_some_pct", 2, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "31.07");
	assert_int_equal(busy_list_get(&m, "psi_cpu_some_pct", 3, buf, sizeof(buf)), -ENOENT);
	assert_int_equal(busy_list_get(&m, "nokey", 1, buf, sizeof(buf)), -ENOENT);
}

static void test_list_full(void **state)
{
	struct meta m = { 0 };
	unsigned int run;
	int ret = 0;

	(void)state;
	for (run = 1; run < 1000 && !ret; run++)
		ret = busy_list_add(&m, "k", run, "%s", "12345");
	assert_int_equal(ret, -ENOSPC);
	assert_true(strlen(meta_get(&m, "k")) < META_VAL);
	/* what was there stays whole */
	assert_int_equal(meta_get(&m, "k")[strlen(meta_get(&m, "k")) - 1], '5');
}

/*
 * a set of the runs @runs (a space-separated list; "" one run, labelled
 * "all") whose metadata's psi_cpu_some_pct is @psi (NULL: none)
 */
static struct results *with_runs(const char *runs, const char *psi)
{
	struct results *r = results_create(2);
	struct kstats_hist *h = kstats_hist_create(2);
	struct results_label l = { .workload = "w", .variant = "old", .cpu = RESULTS_CPU_ALL,
				   .node = -1 };
	char *end;

	assert_non_null(r);
	assert_non_null(h);
	kstats_hist_record(h, 100);
	assert_int_equal(results_add_hist(r, &l, h), 0);
	for (; *runs; runs = end) {
		l.run = (unsigned int)strtoul(runs, &end, 10);
		assert_int_equal(results_add_hist(r, &l, h), 0);
	}
	if (psi)
		meta_set(&r->meta, "psi_cpu_some_pct", "%s", psi);
	kstats_hist_free(h);
	return r;
}

/* a counted file: its PSI kept, never ruled on */
static void test_count_counted(void **state)
{
	struct busy_count bc = { 0 };
	struct results *r = with_runs("1 2", "1:99.00 2:98.00");

	(void)state;
	meta_set(&r->meta, "unit", "insn");
	assert_int_equal(busy_count(r, &bc), -ENOENT);
	assert_int_equal(bc.files, 0);
	assert_int_equal(bc.runs, 0);
	results_free(r);
}

static void test_count(void **state)
{
	struct busy_count bc = { 0 };
	struct results *a = with_runs("1 2 3 4", "1:0.42 2:71.07 3:40.00 4:40.01");
	struct results *b = with_runs("1 2 3 4 5 6", "1:2.5 bad 3: 4:x 5:-1 6:99");
	struct results *old = with_runs("1 2", NULL);
	char line[128];

	(void)state;
	busy_line(&bc, "runs", line, sizeof(line));
	assert_string_equal(line, "runs disturbed: not recorded");
	busy_field(&bc, line, sizeof(line));
	assert_string_equal(line, "not recorded");

	assert_int_equal(busy_count(old, &bc), -ENOENT);
	assert_int_equal(bc.files, 0);
	assert_int_equal(busy_count(a, &bc), 0);
	assert_int_equal(busy_count(b, &bc), 0);
	assert_int_equal(bc.files, 2);
	assert_int_equal(bc.runs, 6);
	assert_int_equal(bc.disturbed, 3);
	busy_line(&bc, "boots", line, sizeof(line));
	assert_string_equal(line, "3 of 6 boots disturbed (psi cpu some > 40% of the window)");
	busy_field(&bc, line, sizeof(line));
	assert_string_equal(line, "3/6");
	results_free(a);
	results_free(b);
	results_free(old);
}

/* @r's runs counted alone: @runs of them, @disturbed disturbed */
static void count_is(const struct results *r, unsigned int runs, unsigned int disturbed)
{
	struct busy_count bc = { 0 };

	assert_int_equal(busy_count(r, &bc), 0);
	assert_int_equal(bc.runs, runs);
	assert_int_equal(bc.disturbed, disturbed);
}

/* each run once, by its last pair; runs the file lacks and figures not finite are none */
static void test_count_runs_once(void **state)
{
	struct busy_count bc = { 0 };
	struct results *two = with_runs("1 2", "1:90 1:95 2:50 2:10 3:99 0:99");
	struct results *odd = with_runs("1 2 3 4 5", "1:inf 2:nan 3:-inf 4:1e999 5:41");
	struct results *one = with_runs("", "1:80 2:80");
	struct results *gap = with_runs("1 3", "1:1 2:99 3:99");

	(void)state;
	count_is(two, 2, 1);
	count_is(odd, 1, 1);
	count_is(one, 1, 1);
	/* a merge of plan runs 1 and 3 (bench merge --partial): run 2 is none of its */
	count_is(gap, 2, 1);
	/* qemu's figures: a boot's that is not finite is PSI's alone */
	meta_set(&two->meta, "vm_qemu_cpu_seconds", "1:nan 2:1");
	meta_set(&two->meta, "vm_boot_seconds", "1:10 2:10");
	assert_int_equal(busy_count(two, &bc), 0);
	assert_int_equal(bc.qemu_runs, 1);
	results_free(two);
	results_free(odd);
	results_free(one);
	results_free(gap);
}

static void test_count_boots(void **state)
{
	struct busy_count bc = { 0 };
	struct results *r = with_runs("1 2 3", "1:2.00 2:99.50 3:99.00");
	struct meta *m = &r->meta;
	char line[128];

	(void)state;
	/* boot 1 quiet; 2 past PSI, qemu starved; 3 past PSI, qemu had its cpu */
	meta_set(m, "vm_qemu_cpu_seconds", "1:12.00 2:11.50 3:24.00");
	meta_set(m, "vm_boot_seconds", "1:12.0 2:25.4 3:25.0");
	assert_int_equal(busy_count(r, &bc), 0);
	assert_int_equal(bc.runs, 3);
	assert_int_equal(bc.psi_over, 2);
	assert_int_equal(bc.qemu_runs, 3);
	assert_int_equal(bc.disturbed, 1);
	busy_line(&bc, "boots", line, sizeof(line));
	assert_string_equal(line,
			    "1 of 3 boots disturbed (psi cpu some > 40% of the window, qemu < 0.7 cpu)");
	/* a boot without qemu's window is PSI's alone, and the line says PSI's rule */
	meta_put(m, "vm_boot_seconds", "1:12.0 2:25.4");
	bc = (struct busy_count){ 0 };
	assert_int_equal(busy_count(r, &bc), 0);
	assert_int_equal(bc.qemu_runs, 2);
	assert_int_equal(bc.disturbed, 2);
	busy_line(&bc, "boots", line, sizeof(line));
	assert_string_equal(line, "2 of 3 boots disturbed (psi cpu some > 40% of the window)");
	results_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_no_psi),
		cmocka_unit_test(test_rule),
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_list_full),
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_count_runs_once),
		cmocka_unit_test(test_count_counted),
		cmocka_unit_test(test_count_boots),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
