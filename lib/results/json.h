/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json.h - a small streaming JSON writer, and the kstats-bench JSON
 * document built with it (`bench run|show|hist -f json`).
 *
 *	struct json j;
 *
 *	json_init(&j, stdout);
 *	json_object_begin(&j, NULL);
 *	json_string(&j, "format", "kstats-bench-json");
 *	json_array_begin(&j, "histograms");
 *	...
 *	json_array_end(&j);
 *	json_object_end(&j);
 *	return json_finish(&j);		0, or -EIO / -EINVAL
 *
 * Members take a key inside an object and NULL inside an array (or at
 * the top). Strings are escaped (", \, control characters as \uXXXX;
 * other bytes pass through, so UTF-8 stays UTF-8). Output is indented
 * two spaces per level. Prints only to the FILE it is given; misuse
 * (too deep, a key where none belongs) is remembered and reported by
 * json_finish(). One struct json per thread.
 *
 * THE DOCUMENT (schema version 1; the JSON section of docs/kstats-bench.1
 * describes it for users). bench hist -f json of the patch's samples:
 *
 *	{
 *	  "format": "kstats-bench-json",
 *	  "version": 1,
 *	  "metadata": { "command": "bench hist", "frac_bits": "2", ... },
 *	  "histograms": [
 *	    {
 *	      "workload": "hist", "variant": "input", "run": "all", "cpu": "all",
 *	      "node": -1, "unit": "input",
 *	      "summary": { "samples": 8192, "min": 2432, "p50": 12287,
 *	                   "p90": 14335, "p99": 20479, "p99_9": 24575,
 *	                   "max": 37253, "mean": 9988.8 },
 *	      "buckets": [ { "bucket": 49, "lo": 10240, "hi": 12288,
 *	                     "samples": 2214, "avg": 11493,
 *	                     "percentile": 0.729125 }, ... ]
 *	    }
 *	  ]
 *	}
 *
 * metadata holds the CSV's "# key: value" pairs, values as strings.
 * run and cpu are numbers or "all". [lo, hi) as in the CSV; pNN are
 * kstats_hist_value_at_percentile() (a bucket's upper bound, clamped
 * to [min, max]); mean has one decimal.
 */
#ifndef KSB_JSON_H
#define KSB_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct meta;
struct results_series;

#define JSON_MAX_DEPTH	16
#define JSON_FORMAT	"kstats-bench-json"
#define JSON_VERSION	1

struct json {
	FILE *f;			/* where everything goes */
	unsigned int depth;		/* open objects and arrays */
	bool has_items[JSON_MAX_DEPTH];	/* per level: a member was written */
	bool in_object[JSON_MAX_DEPTH];	/* per level: object (else array) */
	bool misuse;			/* a call broke the nesting rules */
};

/**
 * json_init - start a document on @f.
 */
void json_init(struct json *j, FILE *f);

/**
 * json_object_begin, json_array_begin - open a container as member @key
 * (NULL in an array or at the top); json_object_end, json_array_end
 * close the innermost one.
 */
void json_object_begin(struct json *j, const char *key);
void json_object_end(struct json *j);
void json_array_begin(struct json *j, const char *key);
void json_array_end(struct json *j);

/**
 * json_string - member @key = @s, escaped; NULL writes null.
 */
void json_string(struct json *j, const char *key, const char *s);

/* json_u64, json_int - integer members. */
void json_u64(struct json *j, const char *key, uint64_t v);
void json_int(struct json *j, const char *key, long v);

/**
 * json_double - @v with @decimals decimals (0..17); NaN and infinities,
 * which JSON cannot state, write null.
 */
void json_double(struct json *j, const char *key, double v, int decimals);

/**
 * json_bool - true or false.
 */
void json_bool(struct json *j, const char *key, bool v);

/**
 * json_finish - end the document with a newline. Returns 0; -EINVAL when
 * a call broke the nesting (or containers are left open); -EIO when a
 * write failed.
 */
int json_finish(struct json *j);

/* ---- the kstats-bench document ---- */

/**
 * json_doc_begin - open the document's object: format, version and
 * metadata (@m's pairs, in order). The caller then adds its arrays:
 * "histograms" (json_array_begin(j, "histograms"), json_write_series()
 * per series, json_array_end()); `bench compare -f json` adds
 * "comparisons" beside it. json_doc_end() closes the object and
 * returns json_finish()'s result.
 */
void json_doc_begin(struct json *j, const struct meta *m);
int json_doc_end(struct json *j);

/**
 * json_write_series - one element of "histograms": the labels of @s
 * (run and cpu a number or "all"), @unit, the summary (samples, min,
 * p50, p90, p99, p99.9, max, mean: exact, from the histogram's sums and
 * extremes) and one object per non-empty bucket. The percentile is
 * truncated to 6 decimals as in the table (1 only on the last bucket).
 */
void json_write_series(struct json *j, const struct results_series *s,
		       const char *unit);

#endif /* KSB_JSON_H */
