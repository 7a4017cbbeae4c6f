// SPDX-License-Identifier: GPL-2.0
/*
 * test_plugin.c - the QEMU plugin's parts that need no QEMU: the cache
 * model (plugin/csim.h: exact hits and misses on synthetic sequences,
 * LRU within a set, sizes and ways, emptying, accesses across lines,
 * the two levels) and the symbols (plugin/symtab.h: System.map and
 * kallsyms parsed, every address in one bucket, a window's functions
 * adding up to its total), and the model's settings as the plugin and
 * bench vm take them (plugin/pconf.h). The marker's bytes
 * (kmod/ksb_mark.h) are checked as the plugin decodes them.
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
#include "plugin/csim.h"
#include "plugin/pconf.h"
#include "plugin/symtab.h"

#define LINE	64

static struct csim *cache(uint64_t size, unsigned int ways)
{
	struct csim_geom g = { .size = size, .ways = ways, .line = LINE };
	struct csim *c = csim_create(&g);

	assert_non_null(c);
	return c;
}

/* the address of line @k of set @set in a cache of @sets sets */
static uint64_t at(uint64_t sets, uint64_t set, uint64_t k)
{
	return (k * sets + set) * LINE;
}

static void test_geometry_checked(void **state)
{
	struct csim_geom bad[] = {
		{ .size = 4096, .ways = 4, .line = 48 },	/* not a power of two */
		{ .size = 4096, .ways = 4, .line = 4 },		/* too small */
		{ .size = 4096, .ways = 0, .line = 64 },
		{ .size = 65 * 64, .ways = 65, .line = 64 },	/* > CSIM_MAX_WAYS */
		{ .size = 4096 + 64, .ways = 4, .line = 64 },	/* not whole sets */
		{ .size = 0, .ways = 4, .line = 64 },
	};
	struct csim_geom llc = { .size = UINT64_C(115200) << 10, .ways = 15, .line = 64 };
	char why[128];
	struct csim *c;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(csim_check(&bad[i], why, sizeof(why)), -EINVAL);
		assert_true(strlen(why) > 0);
		errno = 0;
		assert_null(csim_create(&bad[i]));
		assert_int_equal(errno, EINVAL);
	}
	/* the plugin's default LLC: 122880 sets, not a power of two */
	c = csim_create(&llc);
	assert_non_null(c);
	assert_int_equal(csim_sets(c), 122880);
	csim_free(c);
	csim_free(NULL);
}

/* 4 sets of 2 ways, by hand: A B A, another set, C B A B A in set 0 */
static void test_exact_sequence(void **state)
{
	struct csim *c = cache(4 * 2 * LINE, 2);
	uint64_t a = at(4, 0, 0), b = at(4, 0, 1), x = at(4, 0, 2), other = at(4, 1, 0);

	(void)state;
	assert_false(csim_lookup(c, a));	/* [A] */
	assert_false(csim_lookup(c, b));	/* [B A] */
	assert_true(csim_lookup(c, a + 63));	/* same line: [A B] */
	assert_false(csim_lookup(c, other));	/* another set: no eviction here */
	assert_false(csim_lookup(c, x));	/* evicts B, the LRU: [C A] */
	assert_false(csim_lookup(c, b));	/* evicts A: [B C] */
	assert_false(csim_lookup(c, a));	/* evicts C: [A B] */
	assert_true(csim_lookup(c, b));
	assert_true(csim_lookup(c, a));
	assert_true(csim_lookup(c, other));	/* set 1 untouched */
	csim_free(c);
}

/* 4 ways: after A B C D, touching A makes B the one evicted by E */
static void test_lru_within_set(void **state)
{
	struct csim *c = cache(8 * 4 * LINE, 4);
	unsigned int k;

	(void)state;
	for (k = 0; k < 4; k++)
		assert_false(csim_lookup(c, at(8, 3, k)));
	assert_true(csim_lookup(c, at(8, 3, 0)));
	assert_false(csim_lookup(c, at(8, 3, 4)));	/* evicts line 1 */
	assert_true(csim_lookup(c, at(8, 3, 0)));
	assert_true(csim_lookup(c, at(8, 3, 2)));
	assert_true(csim_lookup(c, at(8, 3, 3)));
	assert_true(csim_lookup(c, at(8, 3, 4)));
	assert_false(csim_lookup(c, at(8, 3, 1)));	/* it was the one */
	csim_free(c);
}

/* the per-CPU lines of the patch: one offset in units 4 KiB apart */
static void test_sizes_and_ways(void **state)
{
	struct csim *l1 = cache(48 << 10, 12);	/* 64 sets: a 4 KiB way */
	uint64_t addr, misses = 0;
	unsigned int pass, k;

	(void)state;
	assert_int_equal(csim_sets(l1), 64);
	/* 12 lines of one set fit, in any order once loaded */
	for (k = 0; k < 12; k++)
		assert_false(csim_lookup(l1, 0x100000 + k * 4096 + 8));
	for (k = 12; k-- > 0;)
		assert_true(csim_lookup(l1, 0x100000 + k * 4096 + 8));
	/* a 13th evicts the least recent (line 11, touched first above) */
	assert_false(csim_lookup(l1, 0x100000 + 12 * 4096 + 8));
	assert_false(csim_lookup(l1, 0x100000 + 11 * 4096 + 8));
	/* 48 KiB streamed twice: 768 misses, then all hits */
	csim_flush(l1);
	for (pass = 0; pass < 2; pass++)
		for (addr = 0; addr < 48 << 10; addr += LINE)
			misses += !csim_lookup(l1, 0x200000 + addr);
	assert_int_equal(misses, 768);
	/* one line more than fits: LRU misses every line of the second pass */
	csim_flush(l1);
	misses = 0;
	for (pass = 0; pass < 2; pass++)
		for (addr = 0; addr < (48 << 10) + 4096; addr += LINE)
			misses += !csim_lookup(l1, 0x200000 + addr);
	assert_int_equal(misses, 2 * 832);
	csim_free(l1);
}

/* emptied caches miss everything; generations wrap without a trace */
static void test_flush(void **state)
{
	struct csim *c = cache(16 * 4 * LINE, 4);
	unsigned int i, k;

	(void)state;
	for (k = 0; k < 4; k++)
		csim_lookup(c, at(16, 5, k));
	csim_flush(c);
	/* as empty: 4 misses that evict nothing, then 4 hits */
	for (k = 0; k < 4; k++)
		assert_false(csim_lookup(c, at(16, 5, k + 10)));
	for (k = 0; k < 4; k++)
		assert_true(csim_lookup(c, at(16, 5, k + 10)));
	for (k = 0; k < 4; k++)
		assert_false(csim_lookup(c, at(16, 5, k)));
	/* past every generation the tags hold: the same, 40000 times over */
	for (i = 0; i < 40000; i++) {
		csim_flush(c);
		assert_false(csim_lookup(c, at(16, 7, i & 3)));
		assert_true(csim_lookup(c, at(16, 7, i & 3)));
	}
	csim_free(c);
}

/* two levels: counts of loads, stores, L1d and LLC misses */
static void test_hierarchy(void **state)
{
	struct csim *l1 = cache(4 * 2 * LINE, 2), *llc = cache(64 * 8 * LINE, 8);
	struct csim_counts n = { 0 };
	unsigned int k;

	(void)state;
	csim_access(l1, llc, 0x1000, 8, false, &n);	/* miss, miss */
	csim_access(l1, llc, 0x1004, 4, true, &n);	/* hit */
	csim_access(l1, llc, 0x103c, 8, false, &n);	/* crosses: hit + miss, miss */
	assert_int_equal(n.loads, 2);
	assert_int_equal(n.stores, 1);
	assert_int_equal(n.l1_misses, 2);
	assert_int_equal(n.llc_misses, 2);
	/* 3 lines of one L1d set, 2 ways: the first is evicted from the L1d only */
	memset(&n, 0, sizeof(n));
	for (k = 0; k < 3; k++)
		csim_access(l1, llc, 0x10000 + at(4, 2, k), 4, true, &n);
	csim_access(l1, llc, 0x10000 + at(4, 2, 0), 4, false, &n);
	assert_int_equal(n.l1_misses, 4);
	assert_int_equal(n.llc_misses, 3);
	/* no last level: its misses are the L1d's */
	memset(&n, 0, sizeof(n));
	csim_access(l1, NULL, 0x90000, 1, false, &n);
	assert_int_equal(n.l1_misses, 1);
	assert_int_equal(n.llc_misses, 1);
	csim_free(l1);
	csim_free(llc);
}

/* ---- symbols ---- */

/* unsorted, with data symbols, aliases, a module and junk */
static const char map[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81002000 t desc_set_defaults\n"
	"ffffffff81001000 T alloc_desc\n"
	"ffffffff81001000 T alloc_desc_alias\n"
	"ffffffff81800000 D some_data\n"
	"not a symbol line\n"
	"ffffffff81003000 W weak_fn\n"
	"ffffffffa0000000 t ksb_worker\t[kstats_bench]\n"
	"ffffffff81004000 T _etext\n";

static struct symtab *symbols(void)
{
	FILE *f = fmemopen((void *)map, sizeof(map) - 1, "r");
	struct symtab *t = symtab_create();
	char why[200];

	assert_non_null(f);
	assert_non_null(t);
	assert_int_equal(symtab_load(t, f, why, sizeof(why)), 0);
	fclose(f);
	return t;
}

static const char *name_at(const struct symtab *t, uint64_t vaddr)
{
	return symtab_name(t, symtab_bucket(t, vaddr));
}

static void test_symbols_buckets(void **state)
{
	struct symtab *t = symbols();

	(void)state;
	/* _stext alloc_desc desc_set_defaults weak_fn _etext ksb_worker */
	assert_int_equal(symtab_nr(t), SYMTAB_FIRST + 6);
	assert_int_equal(symtab_bucket(t, 0x401000), SYMTAB_USER);
	assert_string_equal(name_at(t, 0x7fffffffe000), "[user]");
	assert_string_equal(name_at(t, 0xffffffff80000000), "[kernel]");
	assert_string_equal(name_at(t, 0xffffffff81000000), "_stext");
	assert_string_equal(name_at(t, 0xffffffff81000fff), "_stext");
	assert_string_equal(name_at(t, 0xffffffff81001000), "alloc_desc");	/* first read */
	assert_string_equal(name_at(t, 0xffffffff81002abc), "desc_set_defaults");
	assert_string_equal(name_at(t, 0xffffffff81003000), "weak_fn");
	assert_string_equal(name_at(t, 0xffffffff81004000 + SYMTAB_FUNC_MAX - 1), "_etext");
	assert_string_equal(name_at(t, 0xffffffff81004000 + SYMTAB_FUNC_MAX), "[kernel]");
	assert_string_equal(name_at(t, 0xffffffffa0000010), "ksb_worker");
	symtab_free(t);
	symtab_free(NULL);
}

static void test_symbols_refused(void **state)
{
	static const char data[] = "ffffffff81800000 D some_data\nhello\n";
	FILE *f = fmemopen((void *)data, sizeof(data) - 1, "r");
	struct symtab *t = symtab_create();
	char why[200] = "";

	(void)state;
	assert_int_equal(symtab_load(t, f, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "no text symbol"));
	/* an empty table still has its two buckets */
	assert_int_equal(symtab_nr(t), SYMTAB_FIRST);
	assert_int_equal(symtab_bucket(t, 0xffffffff81000000), SYMTAB_KERNEL);
	fclose(f);
	symtab_free(t);
}

/* random windows: the buckets add up to each total, most first, then reset */
static void test_shares_add_up(void **state)
{
	struct symtab *t = symbols();
	struct symtab_counts *c = symtab_counts_create(t);
	uint64_t sum[SYMTAB_VALUES], want[SYMTAB_VALUES];
	const unsigned int *order;
	unsigned int w, i, k, n, nr = symtab_nr(t);

	(void)state;
	assert_non_null(c);
	srand(51);
	for (w = 0; w < 200; w++) {
		memset(want, 0, sizeof(want));
		for (i = 0; i < 1000; i++) {
			uint64_t add = (uint64_t)(rand() % 512);
			unsigned int val = (unsigned int)rand() % SYMTAB_VALUES;

			symtab_counts_add(c, (unsigned int)rand() % nr, val, add);
			want[val] += add;
		}
		n = symtab_counts_sorted(c, &order);
		assert_true(n <= nr);
		memset(sum, 0, sizeof(sum));
		for (i = 0; i < n; i++) {
			if (i)
				assert_true(symtab_counts_get(c, order[i - 1], 0) >=
					    symtab_counts_get(c, order[i], 0));
			for (k = 0; k < SYMTAB_VALUES; k++)
				sum[k] += symtab_counts_get(c, order[i], k);
		}
		for (k = 0; k < SYMTAB_VALUES; k++) {
			assert_int_equal(sum[k], want[k]);
			assert_int_equal(symtab_counts_total(c, k), want[k]);
		}
		symtab_counts_reset(c);
		assert_int_equal(symtab_counts_sorted(c, &order), 0);
		for (i = 0; i < nr; i++)
			for (k = 0; k < SYMTAB_VALUES; k++)
				assert_int_equal(symtab_counts_get(c, i, k), 0);
		for (k = 0; k < SYMTAB_VALUES; k++)
			assert_int_equal(symtab_counts_total(c, k), 0);
	}
	/* ties: the lower bucket first; a bucket counted in another value only is listed */
	symtab_counts_add(c, 5, 0, 7);
	symtab_counts_add(c, 3, 0, 7);
	symtab_counts_add(c, 4, 0, 0);	/* nothing: not listed */
	symtab_counts_add(c, 6, 2, 1);
	assert_int_equal(symtab_counts_sorted(c, &order), 3);
	assert_int_equal(order[0], 3);
	assert_int_equal(order[1], 5);
	assert_int_equal(order[2], 6);
	symtab_counts_free(c);
	symtab_counts_free(NULL);
	symtab_free(t);
}

/* ---- the marker's bytes, as the plugin decodes them ---- */

static char page[4096] __attribute__((aligned(4096)));

static __attribute__((noinline)) void marked(unsigned int arg)
{
	KSB_MARK(page, KSB_MARK_END, KSB_MARK_KMOD, arg);
}

/* the instruction in this file's own code: its bytes, and it runs */
/* the model's keys, as the plugin and bench vm --plugin-opt take them */
static void test_settings(void **state)
{
	struct pconf c, d;
	char why[200], m[200];
	uint64_t v;

	(void)state;
	pconf_defaults(&c);
	assert_true(c.cache);
	assert_true(c.cold);
	assert_int_equal(c.l1d.size, 49152);
	assert_int_equal(c.llc.size, 117964800);
	assert_int_equal(pconf_check(&c, why, sizeof(why)), 0);
	pconf_model(&c, m, sizeof(m));
	assert_string_equal(m, "l1d 49152 B 12 ways, llc 117964800 B 15 ways, 64 B lines, cold window");
	assert_int_equal(pconf_size("2M", &v), 0);
	assert_int_equal(v, 2 << 20);
	assert_int_equal(pconf_size("1G", &v), 0);
	assert_int_equal(v, 1 << 30);
	assert_int_equal(pconf_size("-1", &v), -EINVAL);
	assert_int_equal(pconf_size("1T", &v), -EINVAL);
	assert_int_equal(pconf_size("", &v), -EINVAL);
	assert_int_equal(pconf_size("99999999999999999999G", &v), -EINVAL);
	assert_int_equal(pconf_size("17179869184G", &v), -EINVAL);
	assert_int_equal(pconf_set(&c, "l1d_size", "32K", why, sizeof(why)), 0);
	assert_int_equal(pconf_set(&c, "l1d_ways", "8", why, sizeof(why)), 0);
	assert_int_equal(pconf_set(&c, "cold", "none", why, sizeof(why)), 0);
	assert_false(c.cold);
	assert_int_equal(pconf_set(&c, "line", "128", why, sizeof(why)), 0);
	assert_int_equal(c.llc.line, 128);
	pconf_model(&c, m, sizeof(m));
	assert_string_equal(m, "l1d 32768 B 8 ways, llc 117964800 B 15 ways, 128 B lines, cold none");
	/* a key that is no model key, and bad values: nothing changed */
	d = c;
	assert_int_equal(pconf_set(&c, "out", "x", why, sizeof(why)), -ENOENT);
	assert_int_equal(pconf_set(&c, "cache", "maybe", why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "cache=maybe: on or off");
	assert_int_equal(pconf_set(&c, "llc_ways", "0", why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "llc_ways=0: a whole number above 0");
	assert_int_equal(pconf_set(&c, "llc_size", "big", why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "llc_size=big: a size in bytes, or with K, M or G");
	assert_memory_equal(&c, &d, sizeof(c));
	/* a geometry that is no whole number of sets, named by its level */
	assert_int_equal(pconf_set(&c, "llc_size", "1000", why, sizeof(why)), 0);
	assert_int_equal(pconf_check(&c, why, sizeof(why)), -EINVAL);
	assert_memory_equal(why, "the LLC (llc_size, llc_ways, line): ", 36);
	assert_int_equal(pconf_set(&c, "cache", "off", why, sizeof(why)), 0);
	pconf_model(&c, m, sizeof(m));
	assert_string_equal(m, "off");
}

static void test_marker_bytes(void **state)
{
	static const uint8_t head[4] = { 0x3e, 0x0f, 0xb6, 0x80 };
	const uint8_t *code = (const uint8_t *)(uintptr_t)marked;
	uint32_t disp = 0;
	unsigned int i;

	(void)state;
	for (i = 0; i < 256 && memcmp(code + i, head, sizeof(head)); i++)
		;
	assert_true(i < 256);
	memcpy(&disp, code + i + 4, sizeof(disp));
	assert_int_equal(disp, KSB_MARK_DISP(KSB_MARK_END, KSB_MARK_KMOD));
	assert_int_equal(disp & 0xffff0fffu, KSB_MARK_MAGIC);
	assert_int_equal(disp >> 12 & 15, KSB_MARK_END | KSB_MARK_KMOD);
	assert_true(disp < 0x80000000u);	/* a positive displacement */
	assert_int_equal(KSB_MARK_ARG(1023, KSB_MARK_REF), 4094);
	/* it runs: a load of page[arg], which stays 0 */
	marked(KSB_MARK_ARG(7, 1));
	marked(KSB_MARK_ARG_MAX);
	assert_int_equal(page[29], 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_geometry_checked),
		cmocka_unit_test(test_exact_sequence),
		cmocka_unit_test(test_lru_within_set),
		cmocka_unit_test(test_sizes_and_ways),
		cmocka_unit_test(test_flush),
		cmocka_unit_test(test_hierarchy),
		cmocka_unit_test(test_symbols_buckets),
		cmocka_unit_test(test_symbols_refused),
		cmocka_unit_test(test_shares_add_up),
		cmocka_unit_test(test_settings),
		cmocka_unit_test(test_marker_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
