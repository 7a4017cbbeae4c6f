// SPDX-License-Identifier: GPL-2.0
/*
 * test_vmplug.c - the plugin's files of one boot made results sets
 * (lib/kernel/vmplug.h): the windows read, a row or a file that is not
 * the plugin's refused by its line, each series' smallest window, every
 * figure's series and values (misses and accesses two a series, the
 * estimate of cycles by its formula, nothing of the cache where it did
 * not run), the functions of the smallest windows and their sum checked
 * against the window, and the functions' names as series carry them.
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
#include <cmocka.h>

#include "kmod/ksb_mark.h"
#include "kstats_hist.h"
#include "lib/kernel/vmplug.h"
#include "lib/results/meta.h"
#include "lib/results/results.h"

/* two windows of kernel-irq-alloc's alloc, one of free, one of a run, one reference */
static const char win_cache[] =
	"# kstats-bench plugin: 1\n"
	"# qemu_plugin_version: 1\n"
	"# l1d: 49152 B, 12 ways, 64 B lines, 64 sets, per vCPU, LRU\n"
	"seq,vcpu,kind,tag,variant,insns,loads,stores,l1d_misses,llc_misses,io\n"
	"1,0,kmod,1,0,1000,300,200,50,20,0\n"
	"2,0,kmod,1,1,700,100,90,10,5,0\n"
	"3,0,kmod,1,0,900,280,190,40,10,1\n"
	"4,0,run,0,0,500,10,10,2,1,0\n"
	"5,0,kmod,1,2,300,60,0,6,6,0\n"
	"# windows: 5\n"
	"# dropped: 2 (opened again before their end)\n";

static const char win_nocache[] =
	"# kstats-bench plugin: 1\n"
	"# cache: off (loads, stores and misses not counted: 0)\n"
	"seq,vcpu,kind,tag,variant,insns,loads,stores,l1d_misses,llc_misses,io\n"
	"7,0,run,3,0,400,0,0,0,0,0\n";

/* window 3 (alloc's smallest) and 2 (free's) by function; 1 is not picked */
static const char funcs[] =
	"# kstats-bench plugin functions: 1\n"
	"seq,insns,l1d_misses,llc_misses,function\n"
	"1,1000,50,20,alloc_desc\n"
	"2,600,9,5,irq_free_descs\n"
	"2,100,1,0,[kernel]\n"
	"3,500,30,8,alloc_desc\n"
	"3,350,10,2,memset_orig\n"
	"3,50,0,0,ZSTD_compress\n";

static FILE *text(const char *s)
{
	FILE *f = fmemopen((void *)s, strlen(s), "r");

	assert_non_null(f);
	return f;
}

static void read_boot(const char *s, struct vmplug_boot *b)
{
	char why[256] = "";
	FILE *f = text(s);

	assert_int_equal(vmplug_read(f, b, why, sizeof(why)), 0);
	fclose(f);
}

/* series 0 alloc, 1 free (command 0), 2 the run's old (command 1); reference: none */
static void name(struct vmplug_boot *b, struct vmplug_series *s)
{
	static const char *const var[] = { "alloc", "free" };
	unsigned int i;

	memset(s, 0, 3 * sizeof(*s));
	for (i = 0; i < 2; i++) {
		snprintf(s[i].workload, sizeof(s[i].workload), "kernel-irq-alloc");
		snprintf(s[i].variant, sizeof(s[i].variant), "%s", var[i]);
		snprintf(s[i].fvariant, sizeof(s[i].fvariant), "%s", var[i]);
	}
	snprintf(s[2].workload, sizeof(s[2].workload), "irqdesc-alloc");
	snprintf(s[2].variant, sizeof(s[2].variant), "old");
	snprintf(s[2].fvariant, sizeof(s[2].fvariant), "old");
	s[2].cmd = 1;
	for (i = 0; i < b->n; i++)
		b->w[i].series = b->w[i].kind == KSB_MARK_KMOD && b->w[i].variant < 2 ?
				 (int)b->w[i].variant : b->w[i].kind == KSB_MARK_RUN ? 2 : -1;
}

/* the one-run set @r's series (@wl, @var): its samples' min and max, how many */
static uint64_t series(const struct results *r, const char *wl, const char *var, uint64_t *max)
{
	const struct results_series *s = results_find(r, wl, var, RESULTS_RUN_ALL,
						       RESULTS_CPU_ALL);

	assert_non_null(s);
	if (max)
		*max = kstats_hist_max(s->h);
	return kstats_hist_min(s->h);
}

static uint64_t count(const struct results *r, const char *wl, const char *var)
{
	const struct results_series *s = results_find(r, wl, var, RESULTS_RUN_ALL,
						       RESULTS_CPU_ALL);

	return s ? kstats_hist_total(s->h) : 0;
}

static void test_read(void **state)
{
	struct vmplug_boot b;

	(void)state;
	read_boot(win_cache, &b);
	assert_int_equal(b.n, 5);
	assert_true(b.cache);
	assert_true(b.ended);
	assert_int_equal(b.dropped, 2);
	assert_int_equal(b.w[0].kind, KSB_MARK_KMOD);
	assert_int_equal(b.w[0].tag, 1);
	assert_int_equal(b.w[3].kind, KSB_MARK_RUN);
	assert_int_equal(b.w[4].variant, KSB_MARK_REF);
	assert_int_equal(b.w[2].n[VMPLUG_C_IO], 1);
	assert_int_equal(b.w[1].n[VMPLUG_C_STORES], 90);
	vmplug_free(&b);
	vmplug_free(&b);
	read_boot(win_nocache, &b);
	assert_false(b.cache);
	assert_false(b.ended);
	assert_int_equal(b.n, 1);
	vmplug_free(&b);
}

static void test_bad(void **state)
{
	static const char *const bad[] = {
		"seq,vcpu\n1,0,kmod,1,0,1,1,1,1,1,0\n",
		"# kstats-bench plugin: 1\nseq,x\n1,0,kmod,1,0,1,1,1,1,1\n",
		"# kstats-bench plugin: 1\nseq,x\n1,0,kvm,1,0,1,1,1,1,1,0\n",
		"# kstats-bench plugin: 1\nseq,x\n1,0,kmod,1,4,1,1,1,1,1,0\n",
		"# kstats-bench plugin: 1\nseq,x\n1,0,kmod,1,0,1,1,1,1,1,0,9\n",
		"# kstats-bench plugin: 1\nseq,x\n1,0,run,1,0,-1,1,1,1,1,0\n",
	};
	static const char *const why_of[] = {
		"line 1: not the plugin's windows (no \"# kstats-bench plugin\")",
		"line 3: not a window's row", "line 3: not a window's row",
		"line 3: not a window's row", "line 3: not a window's row",
		"line 3: not a window's row",
	};
	struct vmplug_boot b;
	char why[256];
	unsigned int i;
	FILE *f;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		f = text(bad[i]);
		assert_int_equal(vmplug_read(f, &b, why, sizeof(why)), -EINVAL);
		assert_string_equal(why, why_of[i]);
		fclose(f);
		vmplug_free(&b);
	}
}

static void test_pick_and_sets(void **state)
{
	const struct vmplug_lat lat = { .llc = 10, .mem = 100 };
	struct results *one[VMPLUG_NR_FIGURES];
	struct vmplug_series s[3];
	struct vmplug_boot b;
	unsigned int fig;
	uint64_t max;

	(void)state;
	read_boot(win_cache, &b);
	name(&b, s);
	vmplug_pick(&b, s, 3);
	assert_int_equal(s[0].windows, 2);
	assert_int_equal(s[0].min_win, 2);
	assert_int_equal(s[1].min_win, 1);
	assert_int_equal(s[2].min_win, 3);
	one[VMPLUG_FUNCS] = (void *)&b;
	assert_int_equal(vmplug_sets(&b, s, 3, 0, &lat, one), 0);
	assert_ptr_equal(one[VMPLUG_FUNCS], &b);
	assert_string_equal(meta_get(&one[VMPLUG_INSNS]->meta, "unit"), "insn");
	assert_string_equal(meta_get(&one[VMPLUG_MISSES]->meta, "unit"), "misses");
	assert_string_equal(meta_get(&one[VMPLUG_ACCESSES]->meta, "unit"), "accesses");
	assert_string_equal(meta_get(&one[VMPLUG_CYCLES]->meta, "unit"), "est-cycles");
	assert_int_equal(one[VMPLUG_INSNS]->frac_bits, VMPLUG_FRAC_BITS);
	assert_int_equal(series(one[VMPLUG_INSNS], "kernel-irq-alloc", "alloc", &max), 900);
	assert_int_equal(max, 1000);
	assert_int_equal(count(one[VMPLUG_INSNS], "kernel-irq-alloc", "free"), 1);
	/* command 1's series and the reference are in none of command 0's */
	assert_int_equal(count(one[VMPLUG_INSNS], "irqdesc-alloc", "old"), 0);
	assert_int_equal(one[VMPLUG_INSNS]->n, 2);
	assert_int_equal(series(one[VMPLUG_MISSES], "kernel-irq-alloc", "alloc.l1d", &max), 40);
	assert_int_equal(max, 50);
	assert_int_equal(series(one[VMPLUG_MISSES], "kernel-irq-alloc", "alloc.llc", NULL), 10);
	assert_int_equal(series(one[VMPLUG_ACCESSES], "kernel-irq-alloc", "free.loads", NULL), 100);
	assert_int_equal(series(one[VMPLUG_ACCESSES], "kernel-irq-alloc", "free.stores", NULL), 90);
	/* 900 + (40 - 10) x 10 + 10 x 100; 1000 + 30 x 10 + 20 x 100 */
	assert_int_equal(series(one[VMPLUG_CYCLES], "kernel-irq-alloc", "alloc", &max), 2200);
	assert_int_equal(max, 3300);
	for (fig = 0; fig < VMPLUG_FUNCS; fig++)
		results_free(one[fig]);
	vmplug_free(&b);
	/* without the cache model: instructions alone */
	read_boot(win_nocache, &b);
	b.w[0].series = 2;
	vmplug_pick(&b, s, 3);
	assert_int_equal(vmplug_sets(&b, s, 3, 1, &lat, one), 0);
	assert_null(one[VMPLUG_MISSES]);
	assert_null(one[VMPLUG_ACCESSES]);
	assert_null(one[VMPLUG_CYCLES]);
	assert_int_equal(series(one[VMPLUG_INSNS], "irqdesc-alloc", "old", NULL), 400);
	results_free(one[VMPLUG_INSNS]);
	vmplug_free(&b);
}

static void test_funcs(void **state)
{
	struct vmplug_series s[3];
	struct vmplug_boot b;
	struct results *r;
	char why[256];
	FILE *f;

	(void)state;
	read_boot(win_cache, &b);
	name(&b, s);
	vmplug_pick(&b, s, 3);
	f = text(funcs);
	assert_int_equal(vmplug_funcs(f, &b, s, 3, 0, &r, why, sizeof(why)), 0);
	fclose(f);
	assert_string_equal(meta_get(&r->meta, "unit"), "insn");
	assert_int_equal(r->frac_bits, VMPLUG_FN_FRAC_BITS);
	/* window 3's, not window 1's (the larger) */
	assert_int_equal(series(r, "alloc_desc", "alloc", NULL), 500);
	assert_int_equal(count(r, "alloc_desc", "alloc"), 1);
	assert_int_equal(series(r, "memset_orig", "alloc", NULL), 350);
	assert_int_equal(series(r, "irq_free_descs", "free", NULL), 600);
	assert_int_equal(series(r, "kernel-no-symbol", "free", NULL), 100);
	assert_int_equal(r->n, 5);
	results_free(r);
	/* window 3's functions one short of its 900 instructions */
	b.w[2].n[VMPLUG_C_INSNS] = 901;
	vmplug_pick(&b, s, 3);
	f = text(funcs);
	assert_int_equal(vmplug_funcs(f, &b, s, 3, 0, &r, why, sizeof(why)), -EINVAL);
	fclose(f);
	assert_null(r);
	assert_string_equal(why, "window 3 (kernel-irq-alloc alloc): its functions hold 900 instructions, the window 901");
	vmplug_free(&b);
}

static void test_func_name(void **state)
{
	char buf[VMPLUG_NAME], big[100], other[VMPLUG_NAME];

	(void)state;
	vmplug_func_name("show_stat", buf, sizeof(buf));
	assert_string_equal(buf, "show_stat");
	vmplug_func_name("foo.isra.0", buf, sizeof(buf));
	assert_string_equal(buf, "foo.isra.0");
	vmplug_func_name("[user]", buf, sizeof(buf));
	assert_string_equal(buf, "user-mode");
	vmplug_func_name("[kernel]", buf, sizeof(buf));
	assert_string_equal(buf, "kernel-no-symbol");
	vmplug_func_name("ZSTD_compress", buf, sizeof(buf));
	assert_int_equal(strlen(buf), strlen("zstd_compress") + 9);
	assert_memory_equal(buf, "zstd_compress-", 14);
	vmplug_func_name("zstd_compress", other, sizeof(other));
	assert_string_equal(other, "zstd_compress");
	memset(big, 'a', 80);
	big[80] = 0;
	vmplug_func_name(big, buf, sizeof(buf));
	assert_int_equal(strlen(buf), 63);
	big[79] = 'b';
	vmplug_func_name(big, other, sizeof(other));
	assert_string_not_equal(buf, other);
	assert_memory_equal(buf, other, 54);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_pick_and_sets),
		cmocka_unit_test(test_funcs),
		cmocka_unit_test(test_func_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
