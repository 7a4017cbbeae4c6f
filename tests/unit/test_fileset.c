// SPDX-License-Identifier: GPL-2.0
/*
 * test_fileset.c - the one loader of results files (lib/results/fileset.h),
 * one test per rule: a file without a unit is in ns, and a unit other
 * than the first file's is refused naming both, within a set and between
 * two sets read apart; a frac_bits other than the first's is refused
 * naming both; the plugin's figures never beside the guest's own or the
 * plugin's under other settings, a funcs file beside any; partial: yes
 * is read, counted and never refused; each
 * group's runs' contention summed, a file without it adding nothing; a
 * file that does not parse or open named with its line; and a refusal
 * leaves the set as it was.
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
#include "lib/results/csv.h"
#include "lib/results/fileset.h"
#include "lib/results/json.h"
#include "lib/results/meta.h"
#include "lib/results/results.h"

static char dir[] = "/tmp/test_fileset.XXXXXX";

/*
 * DIR/@name: a results file of one series "w old", 10 samples of 100,
 * in @frac_bits' layout, the same again as each of @runs runs (0: a
 * file of one run), its metadata "key: value" lines @kv (NULL-ended
 * pairs; a NULL value leaves the key out). Returns the path (static).
 */
static const char *file_runs(const char *name, unsigned int frac_bits, const char *const *kv,
			     unsigned int runs)
{
	static char path[4][256];
	static unsigned int next;
	struct results_label l = { .workload = "w", .variant = "old", .run = RESULTS_RUN_ALL,
				   .cpu = RESULTS_CPU_ALL, .node = -1 };
	struct results *r = results_create(frac_bits);
	struct kstats_hist *h = kstats_hist_create(frac_bits);
	char *p = path[next++ % 4];
	FILE *f;

	assert_non_null(r);
	assert_non_null(h);
	kstats_hist_record_n(h, 100, 10);
	assert_int_equal(results_add_hist(r, &l, h), 0);
	for (l.run = 1; l.run <= runs; l.run++)
		assert_int_equal(results_add_hist(r, &l, h), 0);
	meta_put(&r->meta, "frac_bits", "%u", frac_bits);
	for (; kv && kv[0]; kv += 2)
		if (kv[1])
			meta_put(&r->meta, kv[0], "%s", kv[1]);
	snprintf(p, 256, "%s/%s", dir, name);
	f = fopen(p, "w");
	assert_non_null(f);
	assert_int_equal(csv_write(f, r), 0);
	fclose(f);
	kstats_hist_free(h);
	results_free(r);
	return p;
}

/* file_runs() of one run */
static const char *file(const char *name, unsigned int frac_bits, const char *const *kv)
{
	return file_runs(name, frac_bits, kv, 0);
}

/* fileset_read() of @path into @fs, group @g: its return, the set freed */
static int readf(struct fileset *fs, const char *path, unsigned int g, char *why, size_t len)
{
	struct results *r = NULL;
	int ret = fileset_read(fs, path, g, &r, why, len);

	if (ret)
		assert_null(r);
	results_free(r);
	return ret;
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

/* unit: none is ns; another is refused naming both files, the set as it was */
static void test_unit(void **state)
{
	static const char *const none[] = { "unit", NULL, NULL };
	static const char *const ns[] = { "unit", "ns", NULL };
	static const char *const cy[] = { "unit", "cycles", NULL };
	struct fileset fs = { 0 };
	const char *a = file("none.csv", 2, none), *b = file("ns.csv", 2, ns);
	const char *c = file("cy.csv", 2, cy);
	char why[512], want[1024];

	(void)state;
	assert_int_equal(readf(&fs, a, 0, why, sizeof(why)), 0);
	assert_string_equal(fs.unit, "ns");
	assert_ptr_equal(fs.first, a);
	assert_int_equal(readf(&fs, b, 1, why, sizeof(why)), 0);
	assert_int_equal(readf(&fs, c, 0, why, sizeof(why)), -EINVAL);
	snprintf(want, sizeof(want), "%s is in ns, %s in cycles: the files must measure in one unit",
		 a, c);
	assert_string_equal(why, want);
	assert_int_equal(fs.n, 2);
	/* the first file sets the rule: cycles first, ns (or none) refused */
	memset(&fs, 0, sizeof(fs));
	assert_int_equal(readf(&fs, c, 0, why, sizeof(why)), 0);
	assert_int_equal(readf(&fs, a, 0, why, sizeof(why)), -EINVAL);
}

/*
 * two sets read apart (trend's subject and control): the unit rule's
 * line naming each first file, their frac_bits free to differ
 */
static void test_check_unit(void **state)
{
	static const char *const cy[] = { "unit", "cycles", NULL };
	struct fileset s = { 0 }, c = { 0 };
	const char *a = file("subject.csv", 2, NULL), *b = file("control.csv", 3, NULL);
	const char *d = file("control-cy.csv", 2, cy);
	char why[512], want[1024];

	(void)state;
	assert_int_equal(fileset_check_unit(&s, &c, why, sizeof(why)), 0);
	assert_int_equal(readf(&s, a, 0, why, sizeof(why)), 0);
	assert_int_equal(fileset_check_unit(&s, &c, why, sizeof(why)), 0);
	assert_int_equal(readf(&c, b, 0, why, sizeof(why)), 0);
	assert_int_equal(fileset_check_unit(&s, &c, why, sizeof(why)), 0);
	memset(&c, 0, sizeof(c));
	assert_int_equal(readf(&c, d, 0, why, sizeof(why)), 0);
	assert_int_equal(fileset_check_unit(&s, &c, why, sizeof(why)), -EINVAL);
	snprintf(want, sizeof(want), "%s is in ns, %s in cycles: the files must measure in one unit",
		 a, d);
	assert_string_equal(why, want);
}

/* frac_bits: the first file's, or refused naming both */
static void test_frac_bits(void **state)
{
	struct fileset fs = { 0 };
	const char *a = file("fb2.csv", 2, NULL), *b = file("fb3.csv", 3, NULL);
	char why[512], want[1024];

	(void)state;
	assert_int_equal(readf(&fs, a, 0, why, sizeof(why)), 0);
	assert_int_equal(fs.frac_bits, 2);
	assert_int_equal(readf(&fs, b, 0, why, sizeof(why)), -EINVAL);
	snprintf(want, sizeof(want), "%s has frac_bits 2, %s has 3: buckets differ", a, b);
	assert_string_equal(why, want);
	assert_int_equal(fs.n, 1);
}

/*
 * plugin: the guest's own (no key) and the plugin's, or the plugin's of
 * two settings, refused naming both; a funcs file passes beside either
 */
static void test_plugin(void **state)
{
	static const char *const l1[] = { "plugin", "ksbplugin 1, l1d 49152", "plugin_figure",
					  "misses", NULL };
	static const char *const l2[] = { "plugin", "ksbplugin 1, l1d 32768", "plugin_figure",
					  "misses", NULL };
	static const char *const fn[] = { "plugin", "ksbplugin 1, insns", "plugin_figure",
					  "funcs", NULL };
	struct fileset fs = { 0 };
	const char *g = file("guest.csv", 2, NULL), *a = file("l1.csv", 2, l1);
	const char *b = file("l2.csv", 2, l2), *f = file("fn.csv", 2, fn);
	char why[1024], want[1024];

	(void)state;
	/* a funcs file first sets nothing: the guest's file after it sets the rule */
	assert_int_equal(readf(&fs, f, 0, why, sizeof(why)), 0);
	assert_null(fs.plugin_first);
	assert_int_equal(readf(&fs, g, 0, why, sizeof(why)), 0);
	assert_string_equal(fs.plugin, "none");
	assert_int_equal(readf(&fs, f, 1, why, sizeof(why)), 0);
	assert_int_equal(readf(&fs, a, 1, why, sizeof(why)), -EINVAL);
	snprintf(want, sizeof(want), "%s was counted by the guest (no plugin), %s by the plugin: ksbplugin 1, l1d 49152: the plugin's figures (bench vm --plugin) and the guest's own, or the plugin's under two settings, cannot be judged together",
		 g, a);
	assert_string_equal(why, want);
	assert_int_equal(fs.n, 3);
	/* two settings of the plugin */
	memset(&fs, 0, sizeof(fs));
	assert_int_equal(readf(&fs, a, 0, why, sizeof(why)), 0);
	assert_int_equal(readf(&fs, a, 1, why, sizeof(why)), 0);
	assert_int_equal(readf(&fs, b, 1, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "ksbplugin 1, l1d 32768"));
	assert_int_equal(readf(&fs, g, 1, why, sizeof(why)), -EINVAL);
	assert_int_equal(fs.n, 2);
	assert_ptr_equal(fs.plugin_first, a);
	/* a funcs file's buckets are its own kind's: 12 beside the guest's 2 */
	memset(&fs, 0, sizeof(fs));
	f = file("fn12.csv", 12, fn);
	g = file("guest2.csv", 2, NULL);
	assert_int_equal(readf(&fs, g, 0, why, sizeof(why)), 0);
	assert_int_equal(readf(&fs, f, 0, why, sizeof(why)), 0);
	assert_int_equal(fs.frac_bits, 2);
	assert_int_equal(fs.fn_frac_bits, 12);
	assert_int_equal(readf(&fs, file("fn3.csv", 3, fn), 0, why, sizeof(why)), -EINVAL);
	snprintf(want, sizeof(want), "%s has frac_bits 12, %s/fn3.csv has 3: buckets differ", f, dir);
	assert_string_equal(why, want);
}

/* partial: yes is read and counted, never refused */
static void test_partial(void **state)
{
	static const char *const yes[] = { "partial", "yes", NULL };
	static const char *const no[] = { "partial", "no", NULL };
	struct fileset fs = { 0 };
	struct results *r = NULL;
	char why[512];

	(void)state;
	assert_int_equal(fileset_read(&fs, file("p.csv", 2, yes), 0, &r, why, sizeof(why)), 0);
	assert_true(results_partial(r));
	results_free(r);
	assert_int_equal(fileset_read(&fs, file("q.csv", 2, no), 0, &r, why, sizeof(why)), 0);
	assert_false(results_partial(r));
	results_free(r);
	assert_int_equal(fs.n, 2);
	assert_int_equal(fs.partial, 1);
	assert_string_equal(FILESET_PARTIAL_WARNING,
		"warning: %s was interrupted (partial: yes): its last run may hold fewer samples");
}

/* what fileset_busy_lines() or, @json, fileset_busy_json() write of @bc[2] (static) */
static const char *busy_text(const struct busy_count *bc, bool json)
{
	static const char *const name[2] = { "a", "b" };
	static char out[512];
	char *buf = NULL, *p, *q;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json j;

	assert_non_null(f);
	if (json) {
		json_init(&j, f);
		json_object_begin(&j, NULL);
		fileset_busy_json(&j, bc, name, 2);
		json_object_end(&j);
		json_finish(&j);
	} else {
		fileset_busy_lines(f, bc, name, 2, "runs", "- ");
	}
	fclose(f);
	/* json: the spacing left out, so the test reads as one line */
	for (p = buf, q = out; *p && q < out + sizeof(out) - 1; p++)
		if (!json || (*p != ' ' && *p != '\n'))
			*q++ = *p;
	*q = '\0';
	free(buf);
	return out;
}

/* contention: each group's runs summed by busy.h's rule; none recorded adds nothing */
static void test_busy(void **state)
{
	static const char *const two[] = { BUSY_KEY_PSI_PCT, "1:0.4 2:55.0", NULL };
	static const char *const one[] = { BUSY_KEY_PSI_PCT, "1:41.0", NULL };
	struct fileset fs = { 0 };
	char why[512], line[128];

	(void)state;
	assert_int_equal(readf(&fs, file_runs("b1.csv", 2, two, 2), 0, why, sizeof(why)), 0);
	assert_int_equal(readf(&fs, file("b2.csv", 2, NULL), 0, why, sizeof(why)), 0);
	assert_int_equal(readf(&fs, file("b3.csv", 2, one), 1, why, sizeof(why)), 0);
	assert_int_equal(fs.busy[0].runs, 2);
	assert_int_equal(fs.busy[0].disturbed, 1);
	assert_int_equal(fs.busy[0].files, 1);
	assert_int_equal(fs.busy[1].runs, 1);
	assert_int_equal(fs.busy[1].disturbed, 1);
	busy_line(&fs.busy[0], "runs", line, sizeof(line));
	assert_string_equal(line, "1 of 2 runs disturbed (psi cpu some > 40% of the window)");
	/* what the reports print of it: lines after a lead, a json object */
	assert_true(fileset_busy_recorded(fs.busy, 2));
	assert_string_equal(busy_text(fs.busy, false),
		"- a: 1 of 2 runs disturbed (psi cpu some > 40% of the window)\n"
		"- b: 1 of 1 runs disturbed (psi cpu some > 40% of the window)\n");
	assert_string_equal(busy_text(fs.busy, true),
		"{\"runs_disturbed\":{\"a\":{\"runs\":2,\"disturbed\":1},\"b\":{\"runs\":1,\"disturbed\":1}}}");
	memset(&fs, 0, sizeof(fs));
	assert_false(fileset_busy_recorded(fs.busy, 2));
	assert_string_equal(busy_text(fs.busy, false), "");
	assert_string_equal(busy_text(fs.busy, true), "{}");
}

/* a file that does not open or parse: named, with its line */
static void test_bad_file(void **state)
{
	struct fileset fs = { 0 };
	char why[512], want[1024], path[300];
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/missing.csv", dir);
	assert_int_equal(readf(&fs, path, 0, why, sizeof(why)), -ENOENT);
	snprintf(want, sizeof(want), "%s: %s", path, strerror(ENOENT));
	assert_string_equal(why, want);
	snprintf(path, sizeof(path), "%s/bad.csv", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("# kstats-bench-csv 3\nnot,a,header\n", f);
	fclose(f);
	assert_int_equal(readf(&fs, path, 0, why, sizeof(why)), -EINVAL);
	snprintf(want, sizeof(want), "%s:", path);
	assert_memory_equal(why, want, strlen(want));
	assert_int_equal(fs.n, 0);
	assert_null(fs.first);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unit),
		cmocka_unit_test(test_check_unit),
		cmocka_unit_test(test_frac_bits),
		cmocka_unit_test(test_plugin),
		cmocka_unit_test(test_partial),
		cmocka_unit_test(test_busy),
		cmocka_unit_test(test_bad_file),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
