// SPDX-License-Identifier: GPL-2.0
/*
 * kcidb.c - KCIDB v5.3 documents: the checkout, the build and the tests
 * of a run's metadata (kcidb.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/report/cmpline.h"
#include "lib/results/fileset.h"
#include "lib/report/kcidb.h"
#include "lib/results/meta.h"
#include "lib/subcmd/options.h"
#include "lib/host/testbed.h"
#include "lib/subcmd/writer.h"

#define KCIDB_PATH_MAX	512	/* bytes of a test path */

bool kcidb_origin_valid(const char *s)
{
	size_t n = strlen(s);

	if (!n || n >= KCIDB_ORIGIN_MAX)
		return false;
	return strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_") == n;
}

int kcidb_opt_origin(const struct opt *o, const char *arg, char *why, size_t len)
{
	if (!kcidb_origin_valid(arg)) {
		snprintf(why, len, "--origin: '%s' is not a KCIDB origin: [a-z0-9_]+, at most %d bytes",
			 arg, KCIDB_ORIGIN_MAX - 1);
		return -EINVAL;
	}
	*(const char **)o->value = arg;
	return 0;
}

char *kcidb_segment(char *buf, size_t len, const char *s)
{
	static const char ok[] = "abcdefghijklmnopqrstuvwxyz"
				 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";
	size_t i;

	if (!len)
		return buf;
	for (i = 0; s[i] && i + 1 < len; i++)
		buf[i] = strchr(ok, s[i]) ? s[i] : '_';
	if (!i && len > 1)
		buf[i++] = '_';
	buf[i] = 0;
	return buf;
}

/* word @n (0 or 1) of @s, space-separated, into @buf; "" when none */
static const char *kc_word(char *buf, size_t len, const char *s, unsigned int n)
{
	size_t w;

	buf[0] = 0;
	if (!s)
		return buf;
	s += strspn(s, " ");
	if (n) {
		s += strcspn(s, " ");
		s += strspn(s, " ");
	}
	w = strcspn(s, " ");
	snprintf(buf, len, "%.*s", (int)w, s);
	return buf;
}

/* the kernel release that ran: bench vm's, bench kernel's, else uname's */
static const char *kc_release(char *buf, size_t len, const struct meta *m)
{
	const char *v = meta_get(m, "vm_release");

	if (!v)
		v = meta_get(m, "kernel_release");
	if (v) {
		snprintf(buf, len, "%s", v);
		return buf;
	}
	return kc_word(buf, len, meta_get(m, "kernel"), 0);
}

static bool kc_is_sha1(const char *s)
{
	return strlen(s) == 40 && strspn(s, "0123456789abcdef") == 40;
}

void kcidb_string(struct kcidb *k, const char *key, const char *s)
{
	if (s)
		json_string(&k->j, key, s);
}

void kcidb_double(struct kcidb *k, const char *key, double v, int dec)
{
	if (isfinite(v))
		json_double(&k->j, key, v, dec);
}

/* the one checkout: the commit and tree the run was labelled with */
static void kc_checkout(struct kcidb *k, const struct meta *m, const char *key,
			const char *release)
{
	const char *commit = meta_get(m, "label_commit"), *repo = meta_get(m, "label_repo");
	char id[KCIDB_ID_MAX], comment[320];

	snprintf(id, sizeof(id), "%s:%s", k->origin, key);
	json_array_begin(&k->j, "checkouts");
	json_object_begin(&k->j, NULL);
	json_string(&k->j, "id", id);
	json_string(&k->j, "origin", k->origin);
	kcidb_string(k, "tree_name", meta_get(m, "label_tree"));
	if (repo && (!strncmp(repo, "https://", 8) || !strncmp(repo, "git://", 6)))
		json_string(&k->j, "git_repository_url", repo);
	kcidb_string(k, "git_repository_branch", meta_get(m, "label_branch"));
	if (commit)
		json_string(&k->j, kc_is_sha1(commit) ? "git_commit_hash" : "git_commit_name",
			    commit);
	if (*release) {
		snprintf(comment, sizeof(comment), "kernel %s", release);
		json_string(&k->j, "comment", comment);
	}
	json_bool(&k->j, "valid", true);
	json_object_end(&k->j);
	json_array_end(&k->j);
}

/* the one build: the kernel release that ran, its architecture, config */
static void kc_build(struct kcidb *k, const struct meta *m, const char *key,
		     const char *release)
{
	const char *config = meta_get(m, "label_config");
	char id[KCIDB_ID_MAX], arch[64];
	int n;

	snprintf(id, sizeof(id), "%s:%s", k->origin, key);
	/* a checkout named by its release builds that release: once in the ID */
	n = snprintf(k->build_id, sizeof(k->build_id), "%s:%s%s%s%s%s", k->origin, key,
		     *release && strcmp(key, release) ? ":" : "",
		     *release && strcmp(key, release) ? release : "",
		     config ? ":" : "", config ? config : "");
	/* a config label too long for an ID stays in misc whole: cut it here */
	if (n < 0 || (size_t)n >= sizeof(k->build_id))
		k->build_id[sizeof(k->build_id) - 1] = 0;
	kc_word(arch, sizeof(arch), meta_get(m, "kernel"), 1);
	json_array_begin(&k->j, "builds");
	json_object_begin(&k->j, NULL);
	json_string(&k->j, "id", k->build_id);
	json_string(&k->j, "checkout_id", id);
	json_string(&k->j, "origin", k->origin);
	/* the schema's architecture is [a-z0-9_]*: uname -m's x86_64, aarch64 */
	if (*arch && strspn(arch, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(arch))
		json_string(&k->j, "architecture", arch);
	kcidb_string(k, "config_name", config);
	if (*release)
		json_string(&k->j, "comment", release);
	/* it built and booted: the run measured on it */
	json_string(&k->j, "status", "PASS");
	json_object_begin(&k->j, "misc");
	kcidb_string(k, "kernel", meta_get(m, "kernel"));
	kcidb_string(k, "vm_image", meta_get(m, "vm_image"));
	json_object_end(&k->j);
	json_object_end(&k->j);
	json_array_end(&k->j);
}

void kcidb_begin(struct kcidb *k, FILE *f, const char *origin, const struct meta *m)
{
	const char *commit = meta_get(m, "label_commit");
	char release[256];

	memset(k, 0, sizeof(*k));
	snprintf(k->origin, sizeof(k->origin), "%s",
		 origin && kcidb_origin_valid(origin) ? origin : KCIDB_ORIGIN);
	k->start = meta_get(m, "timestamp");
	snprintf(k->stamp, sizeof(k->stamp), "%s", k->start ? k->start : "untimed");
	kc_release(release, sizeof(release), m);
	json_init(&k->j, f);
	json_object_begin(&k->j, NULL);
	json_object_begin(&k->j, "version");
	json_u64(&k->j, "major", 5);
	json_u64(&k->j, "minor", 3);
	json_object_end(&k->j);
	commit = commit ? commit : *release ? release : "unknown";
	kc_checkout(k, m, commit, release);
	kc_build(k, m, commit, release);
	json_array_begin(&k->j, "tests");
}

void kcidb_test_begin(struct kcidb *k, const char *const *seg, unsigned int n,
		      const char *status, const struct meta *m)
{
	char path[KCIDB_PATH_MAX] = "", one[128], id[KCIDB_ID_MAX + 64 + KCIDB_PATH_MAX + 2];
	size_t used = 0;
	unsigned int i;

	for (i = 0; i < n && used < sizeof(path); i++)
		used += (size_t)snprintf(path + used, sizeof(path) - used, "%s%s", i ? "." : "",
					 kcidb_segment(one, sizeof(one), seg[i]));
	snprintf(id, sizeof(id), "%s:%s:%s", k->build_id, k->stamp, path);
	k->in_misc = false;
	json_object_begin(&k->j, NULL);
	json_string(&k->j, "id", id);
	json_string(&k->j, "build_id", k->build_id);
	json_string(&k->j, "origin", k->origin);
	json_string(&k->j, "path", path);
	json_string(&k->j, "status", status);
	kcidb_string(k, "start_time", k->start);
	if (meta_get(m, "host")) {
		json_object_begin(&k->j, "environment");
		json_string(&k->j, "comment", meta_get(m, "host"));
		json_object_end(&k->j);
	}
}

void kcidb_number(struct kcidb *k, double v, const char *unit)
{
	bool ns = !unit || !strcmp(unit, "ns");

	if (!isfinite(v))
		return;
	json_object_begin(&k->j, "number");
	/* seconds to the picosecond: a figure in ns carries one decimal */
	if (ns)
		json_double(&k->j, "value", v * 1e-9, 13);
	else
		json_double(&k->j, "value", v, 3);
	json_string(&k->j, "unit", ns ? "s" : unit);
	json_string(&k->j, "prefix", "metric");
	json_object_end(&k->j);
}

void kcidb_misc_begin(struct kcidb *k, const struct meta *m)
{
	static const char *const keys[] = {
		"host", "kernel", "cpu_model", "online_cpus", "possible_cpus", "used_cpus",
		"nodes", "clocksource", "invariant_tsc", "bench_release", "bench_git", NULL,
	};
	unsigned int i;

	json_object_begin(&k->j, "misc");
	k->in_misc = true;
	json_object_begin(&k->j, "testbed");
	for (i = 0; keys[i]; i++)
		kcidb_string(k, keys[i], meta_get(m, keys[i]));
	for (i = 0; testbed_keys[i]; i++)
		kcidb_string(k, testbed_keys[i], meta_get(m, testbed_keys[i]));
	for (i = 0; i < m->n; i++)
		if (!strncmp(m->kv[i].key, "label_", 6))
			json_string(&k->j, m->kv[i].key, m->kv[i].val);
	json_object_end(&k->j);
}

void kcidb_test_end(struct kcidb *k)
{
	if (k->in_misc)
		json_object_end(&k->j);
	k->in_misc = false;
	json_object_end(&k->j);
}

int kcidb_end(struct kcidb *k)
{
	json_array_end(&k->j);
	json_object_end(&k->j);
	return json_finish(&k->j) ?: report_status(k->j.f);
}

/* ---- bench compare's gate ---- */

/* what the sides differ in, key: "before -> after" */
static void kc_differs(struct kcidb *k, const struct cmpfmt *c)
{
	char text[1200];
	unsigned int i;

	if (!c->nr_diff)
		return;
	json_object_begin(&k->j, "differs");
	for (i = 0; i < c->nr_diff; i++) {
		cmpline_diff_text(text, sizeof(text), c, &c->diff[i]);
		json_string(&k->j, c->diff[i].key, text);
	}
	json_object_end(&k->j);
}

/* the sides, as the runs_disturbed object names them (lib/results/fileset.h) */
static const char *const kc_sides[2] = { "before", "after" };

/* one series' gate: PASS or FAIL, and why in misc */
static void kc_gate(struct kcidb *k, const struct cmpfmt *c, const struct cmp_series *s,
		    const struct meta *m)
{
	const char *seg[] = { "kstats_bench", "gate", s->workload, s->variant, c->stat };
	const struct cmp_result *r = &s->r;
	const char *before = c->meta[0] ? meta_get(c->meta[0], "label_commit") : NULL;
	char line[512];

	kcidb_test_begin(k, seg, 5, cmpline_fails(r) ? "FAIL" : "PASS", m);
	kcidb_number(k, r->after, c->unit);
	cmpline_line(line, sizeof(line), c, s);
	kcidb_string(k, "comment", line);
	kcidb_misc_begin(k, m);
	json_string(&k->j, "verdict", r->verdict == CMP_BELOW ? "significant below threshold" :
		    cmp_verdict_names[r->verdict]);
	kcidb_double(k, "change_pct", r->change.est * 100, 3);
	kcidb_double(k, "ci_lo_pct", r->change.lo * 100, 3);
	kcidb_double(k, "ci_hi_pct", r->change.hi * 100, 3);
	kcidb_double(k, "ci_confidence", r->change.conf, 4);
	kcidb_double(k, "p", r->p, 6);
	json_u64(&k->j, "n_before", s->nb);
	json_u64(&k->j, "n_after", s->na);
	kcidb_double(k, "before", r->before, 3);
	kcidb_double(k, "after", r->after, 3);
	kcidb_string(k, "unit", c->unit);
	kcidb_string(k, "stat", c->stat);
	kcidb_double(k, "alpha", c->alpha, 4);
	kcidb_double(k, "threshold_pct", c->threshold_pct, 3);
	if (cmpline_exact(c))
		kcidb_double(k, "spread_pct", c->spread_pct, 3);
	json_string(&k->j, "reference", c->scaled ? "scaled" : "raw");
	kcidb_string(k, "before_commit", before);
	kc_differs(k, c);
	if (c->busy)
		fileset_busy_json(&k->j, c->busy, kc_sides, 2);
	kcidb_test_end(k);
}

int kcidb_write_compare(FILE *f, const struct cmpfmt *c)
{
	static const struct meta none;
	const struct meta *m = c->meta[1] ? c->meta[1] : &none;
	struct kcidb k;
	unsigned int i;

	kcidb_begin(&k, f, c->origin, m);
	for (i = 0; i < c->n; i++)
		kc_gate(&k, c, &c->s[i], m);
	return kcidb_end(&k);
}
