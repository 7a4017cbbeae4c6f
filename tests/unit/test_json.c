// SPDX-License-Identifier: GPL-2.0
/*
 * test_json.c - the JSON writer: exact bytes for nesting and escaping,
 * misuse reported by json_finish(), and one histogram document.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kstats_hist.h"
#include "lib/results/json.h"
#include "lib/results/meta.h"
#include "lib/results/results.h"

/* a writer on a memory buffer */
struct mem {
	char *buf;			/* what was written, NUL-terminated */
	size_t len;			/* its length */
	FILE *f;			/* open_memstream on buf */
	struct json j;			/* the writer */
};

static void mem_open(struct mem *m)
{
	m->f = open_memstream(&m->buf, &m->len);
	assert_non_null(m->f);
	json_init(&m->j, m->f);
}

/* json_finish, close, return its result; m->buf holds the text */
static int mem_close(struct mem *m)
{
	int ret = json_finish(&m->j);

	fclose(m->f);
	return ret;
}

static void test_nesting_exact(void **state)
{
	struct mem m;

	(void)state;
	mem_open(&m);
	json_object_begin(&m.j, NULL);
	json_string(&m.j, "a", "x");
	json_array_begin(&m.j, "b");
	json_u64(&m.j, NULL, UINT64_MAX);
	json_int(&m.j, NULL, -3);
	json_bool(&m.j, NULL, true);
	json_string(&m.j, NULL, NULL);
	json_array_end(&m.j);
	json_object_begin(&m.j, "c");
	json_object_end(&m.j);
	json_array_begin(&m.j, "d");
	json_array_end(&m.j);
	json_double(&m.j, "e", 2.25, 1);
	json_double(&m.j, "f", NAN, 1);
	json_double(&m.j, "g", INFINITY, 3);
	json_object_end(&m.j);
	assert_int_equal(mem_close(&m), 0);
	assert_string_equal(m.buf,
			    "{\n  \"a\": \"x\",\n  \"b\": [\n    18446744073709551615,\n"
			    "    -3,\n    true,\n    null\n  ],\n  \"c\": {},\n  \"d\": [],\n"
			    "  \"e\": 2.2,\n  \"f\": null,\n  \"g\": null\n}\n");
	free(m.buf);
}

static void test_escaping(void **state)
{
	struct mem m;

	(void)state;
	mem_open(&m);
	json_array_begin(&m.j, NULL);
	json_string(&m.j, NULL, "q\"b\\n\nt\tc\001d\x7f");
	/* valid UTF-8 passes; a lone continuation byte, an overlong
	 * '/', a surrogate and a truncated sequence do not */
	json_string(&m.j, NULL, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
	json_string(&m.j, NULL, "\x80|\xc0\xaf|\xed\xa0\x80|\xe2\x82");
	json_array_end(&m.j);
	assert_int_equal(mem_close(&m), 0);
	assert_string_equal(m.buf,
			    "[\n  \"q\\\"b\\\\n\\nt\\tc\\u0001d\\u007f\",\n"
			    "  \"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\",\n"
			    "  \"\\ufffd|\\ufffd\\ufffd|\\ufffd\\ufffd\\ufffd|\\ufffd\\ufffd\"\n]\n");
	free(m.buf);
}

static void test_misuse(void **state)
{
	struct mem m;
	int i;

	(void)state;
	/* a key inside an array */
	mem_open(&m);
	json_array_begin(&m.j, NULL);
	json_u64(&m.j, "k", 1);
	json_array_end(&m.j);
	assert_int_equal(mem_close(&m), -EINVAL);
	free(m.buf);
	/* no key inside an object */
	mem_open(&m);
	json_object_begin(&m.j, NULL);
	json_u64(&m.j, NULL, 1);
	json_object_end(&m.j);
	assert_int_equal(mem_close(&m), -EINVAL);
	free(m.buf);
	/* left open, closed with the wrong kind, two top values, nothing */
	mem_open(&m);
	json_object_begin(&m.j, NULL);
	assert_int_equal(mem_close(&m), -EINVAL);
	free(m.buf);
	mem_open(&m);
	json_object_begin(&m.j, NULL);
	json_array_end(&m.j);
	assert_int_equal(mem_close(&m), -EINVAL);
	free(m.buf);
	mem_open(&m);
	json_u64(&m.j, NULL, 1);
	json_u64(&m.j, NULL, 2);
	assert_int_equal(mem_close(&m), -EINVAL);
	free(m.buf);
	mem_open(&m);
	assert_int_equal(mem_close(&m), -EINVAL);
	free(m.buf);
	/* too deep */
	mem_open(&m);
	for (i = 0; i < JSON_MAX_DEPTH + 2; i++)
		json_array_begin(&m.j, NULL);
	assert_int_equal(mem_close(&m), -EINVAL);
	free(m.buf);
}

/* three samples in two buckets, and the last slot's 2^64 end */
static void test_hist_document(void **state)
{
	static struct meta meta;
	struct results_series s = {
		.workload = "w", .variant = "old", .run = 3, .cpu = 5, .node = 1,
	};
	struct kstats_hist *h = kstats_hist_create(2);
	struct mem m;

	(void)state;
	assert_non_null(h);
	kstats_hist_record(h, 10);
	kstats_hist_record(h, 11);
	kstats_hist_record(h, UINT64_MAX);
	meta_set(&meta, "unit", "ns");
	s.h = h;
	mem_open(&m);
	json_doc_begin(&m.j, &meta);
	json_array_begin(&m.j, "histograms");
	json_write_series(&m.j, &s, "ns");
	json_array_end(&m.j);
	assert_int_equal(json_doc_end(&m.j), 0);
	fclose(m.f);
	assert_non_null(strstr(m.buf, "\"format\": \"kstats-bench-json\",\n  \"version\": 1,\n"
				       "  \"metadata\": {\n    \"unit\": \"ns\"\n  },\n"));
	assert_non_null(strstr(m.buf, "\"run\": 3,\n      \"cpu\": 5,\n      \"node\": 1,\n"));
	assert_non_null(strstr(m.buf, "\"samples\": 3,\n        \"min\": 10,\n"
				       "        \"p50\": 11,\n"));
	assert_non_null(strstr(m.buf, "\"max\": 18446744073709551615,\n"));
	assert_non_null(strstr(m.buf, "\"bucket\": 9,\n          \"lo\": 10,\n"
				       "          \"hi\": 12,\n          \"samples\": 2,\n"
				       "          \"avg\": 11,\n          \"percentile\": 0.666666\n"));
	assert_non_null(strstr(m.buf, "\"bucket\": 251,\n          \"lo\": 16140901064495857664,\n"
				       "          \"hi\": 18446744073709551616,\n"));
	assert_non_null(strstr(m.buf, "\"percentile\": 1.000000\n"));
	free(m.buf);
	kstats_hist_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nesting_exact),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_misuse),
		cmocka_unit_test(test_hist_document),
	};

	return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}
