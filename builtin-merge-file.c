// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-merge-file.c - bench merge's files: each CSV of the shards
 * merged, its runs numbered as the plan numbers them and its metadata
 * folded (builtin-merge.c says how), the consoles joined, and all of it
 * written once every merge has added up.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "builtin-merge.h"
#include "lib/results/busy.h"
#include "lib/results/csv.h"
#include "lib/results/fileset.h"
#include "lib/subcmd/iopath.h"
#include "lib/subcmd/outfile.h"
#include "lib/results/results.h"
#include "lib/subcmd/samples.h"
#include "lib/results/strata.h"
#include "lib/host/testbed.h"

/* the per-boot "RUN:VALUE" lists of bench vm's files (lib/kernel/vmboot.h, busy.h) */
static const char *const merge_lists[] = {
	"vm_boots", "vm_boot_seconds", "vm_boot_tries", "vm_qemu_cpu_seconds", BUSY_KEY_PSI_US,
	BUSY_KEY_PSI_PCT, "vm_unquiet_boots", "vm_disturbed_tries", NULL
};

/* the provenance keys, one range list each */
enum { MP_SHARD, MP_RUNNER, MP_CLASS, MP_TESTBED, MP_N };
static const char *const merge_prov_keys[MP_N] = {
	"vm_run_shard", "vm_run_runner", "vm_run_class", "vm_run_testbed",
};

/* "1-2:VALUE 3:OTHER": consecutive runs of one value as one range */
struct merge_ranges {
	char buf[META_VAL];		/* the ranges so far */
	size_t used;			/* bytes of buf */
	unsigned int lo, hi;		/* the open range; lo 0: none */
	char val[META_VAL];		/* its value */
};

/* one merged CSV, before it is written */
struct merge_file {
	const char *name;		/* NAME[-CMD][-pN].csv or NAME.console */
	struct results *set;		/* the merge; NULL for a console */
	struct merge_ranges prov[MP_N];	/* its runs' provenance */
	struct meta lists;		/* merge_lists[], renumbered */
	char runs[META_VAL];		/* vm_plan_runs, in order */
	char lacks[META_VAL];		/* the plan runs it lacks, "2 5"; "" none */
	unsigned int nr_runs, asked;	/* runs merged; runs_asked summed */
	struct fileset fs;		/* the shards' copies by the loader's rules */
	char first[PATH_MAX];		/* the first copy's path, which fs names */
};

int merge_load(const char *path, struct results **r)
{
	return bench_load_file(NULL, path, 0, r);
}

void merge_shard_free(struct merge_shard *s)
{
	unsigned int f;

	for (f = 0; f < s->nr; f++) {
		free(s->name[f]);
		if (s->set)
			results_free(s->set[f]);
	}
	free(s->name);
	free(s->set);
	s->name = NULL;
	s->set = NULL;
	s->nr = 0;
}

static void merge_range_flush(struct merge_ranges *r)
{
	const char *sp = r->used ? " " : "";

	if (!r->lo || r->used >= sizeof(r->buf))
		return;
	if (r->lo == r->hi)
		r->used += (size_t)snprintf(r->buf + r->used, sizeof(r->buf) - r->used, "%s%u:%s",
					    sp, r->lo, r->val);
	else
		r->used += (size_t)snprintf(r->buf + r->used, sizeof(r->buf) - r->used,
					    "%s%u-%u:%s", sp, r->lo, r->hi, r->val);
	r->lo = 0;
}

static void merge_range_add(struct merge_ranges *r, unsigned int run, const char *val)
{
	if (r->lo && run == r->hi + 1 && !strcmp(val, r->val)) {
		r->hi = run;
		return;
	}
	merge_range_flush(r);
	r->lo = r->hi = run;
	snprintf(r->val, sizeof(r->val), "%s", val);
}

/* what the runner's testbed was, as 12 hex digits: its vm_host_ keys and class */
static void merge_testbed(const struct meta *m, char *buf, size_t len)
{
	char *text = NULL, key[META_KEY + 8], hex[SHA256_HEX];
	const char *v;
	size_t n = 0;
	unsigned int i;
	FILE *f = open_memstream(&text, &n);

	if (!f) {
		snprintf(buf, len, "unknown");
		return;
	}
	for (i = 0; testbed_keys[i]; i++) {
		snprintf(key, sizeof(key), "%s%s", TB_VM_HOST, testbed_keys[i]);
		v = meta_get(m, key);
		fprintf(f, "%s=%s\n", key, v ? v : "");
	}
	strata_class(m, hex, sizeof(hex));
	fprintf(f, "class=%s\n", hex);
	fclose(f);
	sha256_buf(text, n, hex);
	free(text);
	snprintf(buf, len, "%.12s", hex);
}

/*
 * vm_plan_runs "3 4" into @map[0..], as many as @set's runs, each once and
 * in order, in 1..@runs (the plan's -B; 0: not said); 0 or EXIT_USAGE
 */
static int merge_map(const struct results *set, const char *path, unsigned int runs,
		     unsigned int *map, unsigned int *nr)
{
	const char *v = meta_get(&set->meta, "vm_plan_runs");
	unsigned int want = results_max_run(set), n = 0, max = runs ?: RESULTS_MAX_RUNS;
	uint64_t r;

	while (v && n < RESULTS_MAX_RUNS &&
	       !samples_take(&v, n ? map[n - 1] + 1 : 1, max, &r)) {
		map[n++] = (unsigned int)r;
		if (*v == ' ')
			v++;
	}
	if (!v || *v || n != want || !n) {
		pr_err("%s: vm_plan_runs '%s' does not name the plan run of each of its %u runs (each once, in order, in 1..%u)",
		       path, meta_get(&set->meta, "vm_plan_runs") ?: "", want, max);
		return EXIT_USAGE;
	}
	*nr = n;
	return 0;
}

/* @m's @key list "J:VALUE ..." into @mf's, J made @map[J - 1] */
static void merge_list_add(struct merge_file *mf, const struct meta *m, const char *key,
			   const unsigned int *map, unsigned int nr)
{
	const char *p = meta_get(m, key);
	uint64_t j;
	size_t n;

	while (p && !samples_take(&p, 0, UINT_MAX, &j) && *p++ == ':') {
		n = strcspn(p, " ");
		if (j && j <= nr)
			busy_list_add(&mf->lists, key, map[j - 1], "%.*s", (int)n, p);
		p += n + (p[n] == ' ');
	}
}

/* @set's runs renumbered by @map; a run that the merge has already: EXIT_USAGE */
static int merge_renumber(struct results *set, const struct results *dst, const char *path,
			  const unsigned int *map)
{
	unsigned int i;

	for (i = 0; i < set->n; i++) {
		if (!set->s[i].run)
			continue;
		set->s[i].run = map[set->s[i].run - 1];
		if (dst && results_find(dst, set->s[i].workload, set->s[i].variant,
					set->s[i].run, set->s[i].cpu)) {
			pr_err("%s: plan run %u is in another shard's file too",
			       path, set->s[i].run);
			return EXIT_USAGE;
		}
	}
	return 0;
}

/* "a/b" pairs of @key summed: @dst's plus @one's */
static void merge_sum_pair(struct meta *dst, const struct meta *one, const char *key)
{
	unsigned long long a = 0, b = 0, x = 0, y = 0;
	const char *d = meta_get(dst, key), *o = meta_get(one, key);
	int n = o ? sscanf(o, "%llu/%llu", &x, &y) : 0;

	if (n < 1 || !d || sscanf(d, "%llu/%llu", &a, &b) != n)
		return;
	if (n == 1)
		meta_put(dst, key, "%llu", a + x);
	else
		meta_put(dst, key, "%llu/%llu", a + x, b + y);
}

/* the provenance of @nr runs of @s's file @m, numbered @map */
static void merge_prov(struct merge_file *mf, const struct merge_shard *s, const struct meta *m,
		       const unsigned int *map, unsigned int nr)
{
	char val[MP_N][STRATA_CLASS];
	const char *host = meta_get(m, "vm_host_name");
	unsigned int j, k;
	size_t used;

	snprintf(val[MP_SHARD], sizeof(val[0]), "%u/%u", s->i, s->n);
	snprintf(val[MP_RUNNER], sizeof(val[0]), "%s", host ? host : "unknown");
	strata_class(m, val[MP_CLASS], sizeof(val[0]));
	merge_testbed(m, val[MP_TESTBED], sizeof(val[0]));
	for (j = 0; j < nr; j++) {
		for (k = 0; k < MP_N; k++)
			merge_range_add(&mf->prov[k], map[j], val[k]);
		used = strlen(mf->runs);
		snprintf(mf->runs + used, sizeof(mf->runs) - used, "%s%u", used ? " " : "", map[j]);
	}
}

/* @set's merge over the runs is their sum (no run's rows cut off): 0 or EXIT_USAGE */
static int merge_whole_file(const struct results *set, const char *path)
{
	char why[512];

	if (!results_check_runs(set, why, sizeof(why)))
		return 0;
	pr_err("%s: %s", path, why);
	return EXIT_USAGE;
}

/* shard @s's file @set (@path) into @mf; 0 or an exit code */
static int merge_add(struct merge_file *mf, const struct merge_shard *s, struct results *set,
		     const char *path)
{
	unsigned int *map = calloc(RESULTS_MAX_RUNS, sizeof(*map)), nr = 0, k;
	uint64_t asked = 0;
	int ret = meta_get_u64(&set->meta, "runs_asked", &asked);
	char why[256];

	/* a shard's runs asked: what its runs_asked says, else its runs */
	if (ret && ret != -ENOENT) {
		meta_check("runs_asked", meta_get(&set->meta, "runs_asked"), why, sizeof(why));
		pr_err("%s: %s", path, why);
		free(map);
		return EXIT_USAGE;
	}

	/* the fileset keeps its first path: a copy that outlives the caller's */
	if (!mf->fs.n)
		path = strcpy(mf->first, path);
	ret = bench_check_file(&mf->fs, path, 0, set) ?: merge_whole_file(set, path);
	if (!ret)
		ret = map ? merge_map(set, path, s->shape.runs, map, &nr) : bench_nomem();
	ret = ret ?: merge_renumber(set, mf->set, path, map);
	if (!ret && !mf->set) {
		mf->set = results_create(set->frac_bits);
		if (mf->set)
			mf->set->meta = set->meta;
	} else if (!ret) {
		merge_sum_pair(&mf->set->meta, &set->meta, "samples_taken");
		merge_sum_pair(&mf->set->meta, &set->meta, "disturbed");
	}
	if (!ret && !mf->set)
		ret = bench_nomem();
	/* the fileset's rule held the buckets alike: only memory can fail */
	if (!ret && results_add(mf->set, set))
		ret = bench_nomem();
	if (!ret) {
		for (k = 0; merge_lists[k]; k++)
			merge_list_add(mf, &set->meta, merge_lists[k], map, nr);
		merge_prov(mf, s, &set->meta, map, nr);
		mf->nr_runs += nr;
		mf->asked += asked ? (unsigned int)asked : nr;
	}
	free(map);
	return ret;
}

/* the shards' vm_shard_boots "5-8 of 12" joined: "1-8 of 12", "1-4 9-12 of 12" */
static void merge_boots(struct meta *m, struct merge_shard *const *by, unsigned int n)
{
	unsigned int k, t = 0, lo = 0, hi = 0;
	char buf[META_VAL] = "";
	size_t used = 0;

	for (k = 0; k < n; k++) {
		const struct merge_shape *sh = by[k] ? &by[k]->shape : NULL;

		if (!sh || !sh->boots)
			continue;
		t = sh->boots;
		if (lo && sh->first == hi + 1) {
			hi = sh->last;
			continue;
		}
		if (lo && used < sizeof(buf))
			used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%u-%u ", lo, hi);
		lo = sh->first;
		hi = sh->last;
	}
	if (lo && used < sizeof(buf))
		snprintf(buf + used, sizeof(buf) - used, "%u-%u of %u", lo, hi, t);
	meta_put(m, "vm_shard_boots", "%s", buf);
}

/* the merged file's metadata, once every shard is in and the plan proved whole or not */
static void merge_meta(struct merge_file *mf, const char *cmdline, struct merge_shard *const *by,
		       unsigned int n, const char *missing, bool whole)
{
	struct meta *m = &mf->set->meta;
	char shards[META_VAL] = "";
	size_t used = 0;
	unsigned int k;

	for (k = 0; merge_lists[k]; k++)
		if (meta_get(&mf->lists, merge_lists[k]))
			meta_put(m, merge_lists[k], "%s", meta_get(&mf->lists, merge_lists[k]));
	for (k = 0; k < n && used < sizeof(shards); k++)
		if (by[k])
			used += (size_t)snprintf(shards + used, sizeof(shards) - used, "%s%u/%u",
						 used ? " " : "", k + 1, n);
	meta_put(m, "runs", "%u", mf->nr_runs);
	meta_put(m, "runs_asked", "%u", mf->asked);
	meta_put(m, "partial", "%s", mf->fs.partial || !whole ? "yes" : "no");
	meta_put(m, "vm_shard", "%s", shards);
	meta_put(m, "vm_plan_runs", "%s", mf->runs);
	merge_boots(m, by, n);
	if (missing[0])
		meta_put(m, "vm_shards_missing", "%s", missing);
	if (mf->lacks[0])
		meta_put(m, "vm_plan_runs_missing", "%s", mf->lacks);
	for (k = 0; k < MP_N; k++) {
		merge_range_flush(&mf->prov[k]);
		meta_put(m, merge_prov_keys[k], "%s", mf->prov[k].buf);
	}
	meta_put(m, "vm_merge_command", "%s", cmdline);
}

/* the union of the shards' file names, sorted, into *@out (@n of them) */
static int merge_names(struct merge_shard *const *by, unsigned int ns, struct merge_file **out,
		       unsigned int *n)
{
	struct merge_file *mf = NULL, *nm;
	unsigned int k, f, i;

	*n = 0;
	for (k = 0; k < ns; k++)
		for (f = 0; by[k] && f < by[k]->nr; f++) {
			for (i = 0; i < *n && strcmp(mf[i].name, by[k]->name[f]); i++)
				;
			if (i < *n)
				continue;
			nm = realloc(mf, (*n + 1) * sizeof(*mf));
			if (!nm) {
				free(mf);
				return bench_nomem();
			}
			mf = nm;
			memset(&mf[*n], 0, sizeof(*mf));
			mf[(*n)++].name = by[k]->name[f];
		}
	*out = mf;
	return 0;
}

/* the index of @name in @s, or -1 */
static int merge_find(const struct merge_shard *s, const char *name)
{
	unsigned int f;

	for (f = 0; f < s->nr; f++)
		if (!strcmp(s->name[f], name))
			return (int)f;
	return -1;
}

/* every CSV merged, in memory, no metadata yet: 0 or an exit code */
static int merge_all(struct merge_file *mf, unsigned int nf, struct merge_shard *const *by,
		     unsigned int n)
{
	char path[PATH_MAX];
	unsigned int i, k;
	int ret = 0, f;

	for (i = 0; i < nf && !ret; i++) {
		if (!strstr(mf[i].name, ".csv"))
			continue;
		for (k = 0; k < n && !ret; k++) {
			f = by[k] ? merge_find(by[k], mf[i].name) : -1;
			if (f < 0)
				continue;
			snprintf(path, sizeof(path), "%s/%s", by[k]->dir, mf[i].name);
			ret = merge_add(&mf[i], by[k], by[k]->set[f], path);
		}
	}
	return ret;
}

/* the plan's shape, as the shards say it (they agree); NULL: they say none */
static const struct merge_shape *merge_plan_shape(struct merge_shard *const *by, unsigned int n)
{
	unsigned int k;

	for (k = 0; k < n; k++)
		if (by[k])
			return by[k]->shape.files ? &by[k]->shape : NULL;
	return NULL;
}

/* is plan run @r in @set? */
static bool merge_has_run(const struct results *set, unsigned int r)
{
	unsigned int i;

	for (i = 0; i < set->n; i++)
		if (set->s[i].run == r)
			return true;
	return false;
}

/* the plan runs 1..@runs @mf lacks into mf->lacks, "2 5"; the first, 0: none */
static unsigned int merge_lacks(struct merge_file *mf, unsigned int runs)
{
	unsigned int r, first = 0;
	size_t used = 0;

	for (r = 1; r <= runs; r++) {
		if (merge_has_run(mf->set, r))
			continue;
		first = first ?: r;
		if (used < sizeof(mf->lacks))
			used += (size_t)snprintf(mf->lacks + used, sizeof(mf->lacks) - used, "%s%u",
						 used ? " " : "", r);
	}
	return first;
}

/* plan run @r of file @mf is in no shard's copy: EXIT_USAGE, naming where it should be */
static int merge_say_lack(const struct merge_file *mf, struct merge_shard *const *by,
			  unsigned int n, const struct merge_shape *sh, unsigned int r)
{
	unsigned int cells = sh->boots / sh->runs, k, nb = 0;
	const struct merge_shard *s = NULL;
	int f;

	/* the shards whose boots reach round r: plan boots (r - 1) * cells + 1 .. r * cells */
	for (k = 0; k < n; k++)
		if (by[k] && by[k]->shape.first <= r * cells &&
		    by[k]->shape.last > (r - 1) * cells && !nb++)
			s = by[k];
	f = s ? merge_find(s, mf->name) : -1;
	if (nb == 1 && f < 0)
		pr_err("%s/%s is missing: shard %u/%u boots plan run %u of %s's %u (--partial merges without it)",
		       s->dir, mf->name, s->i, s->n, r, mf->name, sh->runs);
	else if (nb == 1)
		pr_err("%s/%s lacks plan run %u of %u: its vm_plan_runs are '%s' (--partial merges without it)",
		       s->dir, mf->name, r, sh->runs, meta_get(&s->set[f]->meta, "vm_plan_runs"));
	else
		pr_err("%s: plan run %u of %u is in none of the shards' copies (--partial merges without it)",
		       mf->name, r, sh->runs);
	return EXIT_USAGE;
}

/*
 * the plan whole: every CSV file it writes, each with every run; 0, with
 * *@whole false where it is not and @partial allows it; else EXIT_USAGE
 * said, naming the file and what it lacks
 */
static int merge_whole(struct merge_file *mf, unsigned int nf, struct merge_shard *const *by,
		       unsigned int n, bool partial, bool *whole)
{
	const struct merge_shape *sh = merge_plan_shape(by, n);
	unsigned int i, csv = 0, r;

	if (!sh) {
		*whole = false;
		for (i = 0; i < nf && !mf[i].set; i++)
			;
		if (partial || i == nf)
			return 0;
		pr_err("%s: no vm_plan_files and vm_plan_file_runs: an older bench vm's shard proves no plan whole (--partial merges it, partial)",
		       mf[i].first);
		return EXIT_USAGE;
	}
	for (i = 0; i < nf; i++) {
		if (!mf[i].set)
			continue;
		csv++;
		r = merge_lacks(&mf[i], sh->runs);
		*whole &= !r;
		if (r && !partial)
			return merge_say_lack(&mf[i], by, n, sh, r);
	}
	if (csv > sh->files || (csv < sh->files && !partial)) {
		pr_err("the shards hold %u CSV files of a plan of %u (vm_plan_files)%s", csv, sh->files,
		       csv > sh->files ? ": a copy under another name?" :
		       ": one is in none of them (--partial merges without it)");
		return EXIT_USAGE;
	}
	*whole &= csv == sh->files;
	return 0;
}

/* the consoles of @name, in shard order, onto @out */
static int merge_console(FILE *out, struct merge_shard *const *by, unsigned int n,
			 const char *name)
{
	char path[PATH_MAX], buf[65536];
	unsigned int k;
	size_t got;
	FILE *f;

	for (k = 0; k < n; k++) {
		if (!by[k] || merge_find(by[k], name) < 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", by[k]->dir, name);
		f = fopen(path, "r");
		if (!f)
			return -errno;
		while ((got = fread(buf, 1, sizeof(buf), f)))
			fwrite(buf, 1, got, out);
		fclose(f);
	}
	return 0;
}

/* no output names an input (lib/subcmd/iopath.h): 0 or EXIT_USAGE */
static int merge_iopath(const char *out, const struct merge_file *mf, unsigned int nf,
			struct merge_shard *const *by, unsigned int n)
{
	const char **in = NULL;
	struct iopath *o = calloc(nf ?: 1, sizeof(*o));
	char why[2 * PATH_MAX + 128];
	unsigned int k, f, nin = 0;
	int ret = 0;

	for (k = 0; k < n; k++)
		nin += by[k] ? by[k]->nr : 0;
	in = calloc(nin ?: 1, sizeof(*in));
	for (k = 0, nin = 0; in && o && k < n; k++)
		for (f = 0; by[k] && f < by[k]->nr && !ret; f++)
			if (asprintf((char **)&in[nin++], "%s/%s", by[k]->dir, by[k]->name[f]) < 0)
				ret = -ENOMEM;
	for (f = 0; in && o && f < nf && !ret; f++)
		if (asprintf((char **)&o[f].path, "%s/%s", out, mf[f].name) < 0)
			ret = -ENOMEM;
		else
			o[f].opt = "-o";
	if (!in || !o || ret)
		ret = bench_nomem();
	else if (iopath_check(in, nin, o, nf, why, sizeof(why))) {
		pr_err("%s", why);
		ret = EXIT_USAGE;
	}
	for (k = 0; in && k < nin; k++)
		free((char *)in[k]);
	for (f = 0; o && f < nf; f++)
		free((char *)o[f].path);
	free(in);
	free(o);
	return ret;
}

/* @mf[i] into DIR/NAME, atomically: 0 or EXIT_ENV said */
static int merge_put(const char *out, const struct merge_file *mf, struct merge_shard *const *by,
		     unsigned int n)
{
	char path[PATH_MAX];
	struct outfile o;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", out, mf->name);
	ret = outfile_open(&o, path);
	if (!ret)
		ret = mf->set ? csv_write(o.f, mf->set) : merge_console(o.f, by, n, mf->name);
	if (!ret)
		ret = outfile_commit(&o);
	else
		outfile_abort(&o);
	return ret ? bench_refused("writing %s: %s", path, strerror(-ret)) : 0;
}

/*
 * every file of @mf into @out, SIGINT, SIGTERM and SIGHUP held while one
 * is written (its temp file goes with it) and taken between two: 0, the
 * signal's 128 + sig (the files before it whole, @out removed when this
 * made it and wrote nothing into it), or EXIT_ENV said
 */
static int merge_put_all(const char *out, const struct merge_file *mf, unsigned int nf,
			 struct merge_shard *const *by, unsigned int n)
{
	const struct timespec now = { 0, 0 };
	unsigned int i, done = 0;
	sigset_t stop, old;
	bool made;
	int ret = 0, sig = 0;

	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	sigprocmask(SIG_BLOCK, &stop, &old);
	made = !mkdir(out, 0755);
	if (!made && errno != EEXIST)
		ret = bench_refused("-o %s: %s", out, strerror(errno));
	for (i = 0; !ret && i <= nf; i++) {
		sig = sigtimedwait(&stop, NULL, &now);
		if (sig > 0)
			break;
		if (i < nf && !(ret = merge_put(out, &mf[i], by, n)))
			done++;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (ret || sig <= 0)
		return ret;
	if (made && !done)
		rmdir(out);
	pr_err("stopped by %s: %u of %u files written into %s, each whole",
	       sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP", done, nf, out);
	return 128 + sig;
}

int merge_write(const char *out, const char *cmdline, struct merge_shard *const *by,
		unsigned int n, const char *missing, bool partial)
{
	struct merge_file *mf = NULL;
	unsigned int nf = 0, i, runs = 0, files = 0, present = 0;
	int ret = merge_names(by, n, &mf, &nf);
	const struct merge_shard *first = NULL;
	bool whole = !missing[0];

	ret = ret ?: merge_all(mf, nf, by, n) ?: merge_whole(mf, nf, by, n, partial, &whole);
	for (i = 0; !ret && i < nf; i++)
		if (mf[i].set)
			merge_meta(&mf[i], cmdline, by, n, missing, whole);
	ret = ret ?: merge_iopath(out, mf, nf, by, n) ?: merge_put_all(out, mf, nf, by, n);
	for (i = 0; i < nf; i++) {
		runs += mf[i].nr_runs;
		files += mf[i].set != NULL;
	}
	for (i = 0; i < n; i++) {
		first = first ?: by[i];
		present += by[i] != NULL;
	}
	if (!ret)
		printf("MERGE plan=%.12s shards=%u/%u files=%u runs=%u partial=%s\n", first->plan,
		       present, n, files, runs, whole ? "no" : "yes");
	for (i = 0; mf && i < nf; i++)
		results_free(mf[i].set);
	free(mf);
	return ret;
}
