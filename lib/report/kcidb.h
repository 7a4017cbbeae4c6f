/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kcidb.h - KernelCI's KCIDB report (kcidb-io schema v5.3), built with
 * lib/results/json.h's writer: what `-f kcidb` prints, for a results set
 * (lib/report/format.c: one DONE test per series and statistic) and for bench
 * compare's gate (lib/report/cmpfmt.c: one PASS or FAIL test per series).
 *
 *	struct kcidb k;
 *	const char *seg[] = { "kstats_bench", "irqdesc-alloc", "old", "p50" };
 *
 *	kcidb_begin(&k, stdout, "kstats_bench", &r->meta);
 *	kcidb_test_begin(&k, seg, 4, "DONE");
 *	kcidb_number(&k, 8191.0, "ns");		{ 8.191e-06, "s", "metric" }
 *	kcidb_misc_begin(&k, &r->meta);		"misc": { "testbed": {...},
 *	kcidb_double(&k, "samples", 8192, 0);	  "samples": 8192
 *	kcidb_test_end(&k);			}
 *	return kcidb_end(&k);			0, -EIO or -EINVAL
 *
 * The document: version {5, 3}; one checkout, from the labels the run
 * was given (--label commit=SHA, tree=NAME, branch=NAME, repo=URL; the
 * kernel release where there is no commit); one build of it, the kernel
 * release and architecture of the metadata ("vm_release",
 * "kernel_release", else the first word of "kernel"; --label config=NAME
 * its config_name); then "tests". IDs are ORIGIN:..., a test's
 * ORIGIN:BUILD:TIMESTAMP:PATH, so that the same test of another run is
 * another test. No member is ever null: a figure that is not finite
 * and a value that is absent are left out.
 */
#ifndef KSB_KCIDB_H
#define KSB_KCIDB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "lib/results/json.h"

struct cmpfmt;
struct meta;
struct opt;

#define KCIDB_ORIGIN		"kstats_bench"	/* the default --origin */
#define KCIDB_ORIGIN_MAX	64		/* bytes of an origin, NUL included */
#define KCIDB_ID_MAX		512		/* bytes of an ID */
#define KCIDB_META_ORIGIN	"kcidb_origin"	/* --origin, for lib/report/format.c's writer */

struct kcidb {
	struct json j;			/* the document */
	char origin[KCIDB_ORIGIN_MAX];	/* [a-z0-9_]+ */
	char build_id[KCIDB_ID_MAX];	/* the one build's ID */
	char stamp[64];			/* the run's timestamp, or "untimed" */
	const char *start;		/* the run's timestamp for start_time, or NULL */
	bool in_misc;			/* kcidb_misc_begin() opened "misc" */
};

/**
 * kcidb_origin_valid - true when @s is a KCIDB origin: [a-z0-9_]+, short.
 */
bool kcidb_origin_valid(const char *s);

/**
 * kcidb_opt_origin - OPT_CALL's parser of --origin NAME: @arg into the
 * const char * at o->value; 0, or -EINVAL with why in @why when @arg is
 * not [a-z0-9_]+ (KCIDB's origin pattern: "kstats_bench", not
 * "kstats-bench").
 */
int kcidb_opt_origin(const struct opt *o, const char *arg, char *why, size_t len);

#define KCIDB_ORIGIN_HELP \
	"-f kcidb: the CI system's name in KCIDB, [a-z0-9_]+\n" \
	"(default " KCIDB_ORIGIN ")"

/**
 * OPT_ORIGIN - the --origin NAME row of every command that writes -f
 * kcidb (an OPT_CALL, lib/subcmd/options.h; OPT_ALSO's neighbour): @fn
 * parses it, kcidb_opt_origin() into the const char * @v for a command
 * that reads files, or a measuring command's own that keeps it in the
 * file (bench_opt_origin()); @more ends its help: "" or ", kept in the
 * file".
 */
#define OPT_ORIGIN(v, fn, more) \
	OPT_CALL(0, "origin", (v), (fn), "NAME", KCIDB_ORIGIN_HELP more)

/**
 * kcidb_segment - @s as one segment of a test path: every byte outside
 * [a-zA-Z0-9_-] becomes '_', an empty @s "_". Into @buf, returned.
 */
char *kcidb_segment(char *buf, size_t len, const char *s);

/**
 * kcidb_begin - start the document on @f: version, the checkout and the
 * build that @m (a run's metadata) describes, and open "tests". @origin
 * must pass kcidb_origin_valid() (KCIDB_ORIGIN is used when it does not).
 */
void kcidb_begin(struct kcidb *k, FILE *f, const char *origin, const struct meta *m);

/**
 * kcidb_test_begin - open one test of the build: id, build_id, origin,
 * path (the @n segments, each through kcidb_segment(), joined by '.'),
 * @status ("DONE", "PASS", "FAIL", ...), start_time and the host as its
 * environment's comment. kcidb_test_end() closes it.
 */
void kcidb_test_begin(struct kcidb *k, const char *const *seg, unsigned int n,
		      const char *status, const struct meta *m);
void kcidb_test_end(struct kcidb *k);

/**
 * kcidb_number - the test's "number": @v in @unit; "ns" becomes seconds
 * (unit "s"), any other unit stays; prefix "metric". Nothing when @v is
 * not finite.
 */
void kcidb_number(struct kcidb *k, double v, const char *unit);

/**
 * kcidb_misc_begin - open the test's "misc" with "testbed": the host,
 * kernel, CPU, clock and bench build keys of @m, its testbed keys
 * (testbed_keys[]) and its labels, each as a string. The caller adds its
 * own members (kcidb_double(), kcidb_string(), json_*() on &k->j);
 * kcidb_test_end() closes it.
 */
void kcidb_misc_begin(struct kcidb *k, const struct meta *m);

/**
 * kcidb_double - member @key = @v (@dec decimals); left out when not finite.
 */
void kcidb_double(struct kcidb *k, const char *key, double v, int dec);

/**
 * kcidb_string - member @key = @s; left out when @s is NULL.
 */
void kcidb_string(struct kcidb *k, const char *key, const char *s);

/**
 * kcidb_end - close "tests" and the document, and flush its stream. 0;
 * -EINVAL when a call broke the nesting; -EIO when a write failed.
 */
int kcidb_end(struct kcidb *k);

/**
 * kcidb_write_compare - bench compare -f kcidb: the checkout and build of
 * AFTER's first file (c->meta[1]), and per series one test
 * kstats_bench.gate.WORKLOAD.VARIANT.STAT, FAIL for a regression, else
 * PASS, its number AFTER's figure, its misc the change, its interval,
 * p, n, the verdict, the gate's settings, the testbed and what differs.
 * 0, -EIO or -EINVAL (cmpfmt_writers[]'s contract).
 */
int kcidb_write_compare(FILE *f, const struct cmpfmt *c);

#endif /* KSB_KCIDB_H */
