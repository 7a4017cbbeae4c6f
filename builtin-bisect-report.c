// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-bisect-report.c - the report of bench bisect: the model of
 * lib/report/bisectfmt.h filled from git (the commits), the step's files
 * (GOOD's and the commit's CSV, its compare's report, CSV and 0-day
 * table) and the bisect's options, then bisect.txt written whole and
 * printed by the writer.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "builtin-bisect.h"
#include "lib/kernel/bisect.h"
#include "lib/report/bisectfmt.h"
#include "lib/results/counted.h"
#include "lib/results/csv.h"
#include "lib/results/results.h"
#include "lib/subcmd/outfile.h"

/* a commit as the report names it */
struct bisect_commit {
	char sha[64];
	char abbrev[64];
	char subject[512];
};

static int bisect_commit_of(struct bisect_global *g, const char *rev, struct bisect_commit *c)
{
	return bisect_git(g->tree, c->sha, sizeof(c->sha), "rev-parse", rev, NULL) ?:
	       bisect_git(g->tree, c->abbrev, sizeof(c->abbrev), "rev-parse", "--short=10", rev,
			  NULL) ?:
	       bisect_git(g->tree, c->subject, sizeof(c->subject), "log", "-1", "--format=%s", rev,
			  NULL);
}

/* a step's file DIR/@prefix@rev.csv, read; NULL when it cannot be */
static struct results *bisect_load(struct bisect_global *g, const char *prefix, const char *rev)
{
	struct results *r = NULL;
	struct csv_error err;
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s%s.csv", g->dir, prefix, rev);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	if (csv_read(f, &r, &err))
		r = NULL;
	fclose(f);
	return r;
}

/* @r's value of @key, or NULL (no file, no key) */
static const char *bisect_meta(const struct results *r, const char *key)
{
	return r ? meta_get(&r->meta, key) : NULL;
}

/*
 * the subject's "TREE:BRANCH": the labels tree= and branch= (bench vm
 * --label, through --vm), else the repository (its origin remote's
 * name, else the tree's directory) and the branch it was on (else HEAD)
 */
static void bisect_repo(struct bisect_global *g, const struct results *r, char *buf, size_t len)
{
	const char *name = bisect_meta(r, "label_tree"), *branch = bisect_meta(r, "label_branch");
	char url[PATH_MAX], ref[300], *base;
	size_t n;

	if (!name) {
		if (bisect_git(g->tree, url, sizeof(url), "remote", "get-url", "origin", NULL) ||
		    !*url)
			snprintf(url, sizeof(url), "%s", g->tree);
		base = strrchr(url, '/');
		base = base && base[1] ? base + 1 : url;
		n = strlen(base);
		if (n > 4 && !strcmp(base + n - 4, ".git"))
			base[n - 4] = 0;
		name = base;
	}
	if (!branch) {
		snprintf(ref, sizeof(ref), "refs/heads/%s", g->orig);
		branch = bisect_git(g->tree, NULL, 0, "rev-parse", "-q", "--verify", ref, NULL) ?
			 "HEAD" : g->orig;
	}
	snprintf(buf, len, "%s:%s", name, branch);
}

/* what the report says was run: bench vm's and bench compare's options, the command */
static void bisect_lines(struct bisect_global *g, char *vm, size_t vlen, char *cmp, size_t clen,
			 char *cmd, size_t len)
{
	char boots[24], possible[24], cpus[24];
	char *words[] = { "-B", boots, "-p", possible, "-c", cpus };
	char *t[] = { "-t", (char *)g->threshold };
	int n = 0;

	snprintf(boots, sizeof(boots), "%lu", (unsigned long)g->boots);
	snprintf(possible, sizeof(possible), "%lu", (unsigned long)g->possible);
	snprintf(cpus, sizeof(cpus), "%lu", (unsigned long)g->cpus);
	spawn_sh_line(vm, vlen, g->cpus ? 6 : 4, words);
	/* --vm's words as the user quoted them */
	if (g->vm)
		n = (int)strlen(vm);
	if (g->vm && *g->vm)
		snprintf(vm + n, vlen - (size_t)n, " %s", g->vm);
	spawn_sh_line(cmp, clen, g->threshold ? 2 : 0, t);
	for (n = 0; g->cmd[n]; n++)
		;
	spawn_sh_line(cmd, len, n, g->cmd);
}

/* bisect.txt written whole, then printed: EXIT_DONE or EXIT_ENV */
static int bisect_write(struct bisect_global *g, const struct bisectfmt *b)
{
	const struct report_writer *w = report_find(bisectfmt_writers, "text");
	char path[PATH_MAX];
	struct outfile o;
	int ret;

	snprintf(path, sizeof(path), "%s/bisect.txt", g->dir);
	ret = outfile_open(&o, path);
	if (!ret) {
		ret = w->write(o.f, b);
		if (ret)
			outfile_abort(&o);
		else
			ret = outfile_commit(&o);
	}
	if (ret)
		return bench_refused("%s: %s", path, strerror(-ret));
	ret = w->write(stdout, b);
	return ret ? bench_stdout_failed(ret) : bench_finish_stdout();
}

/* the numbers of the step's bench vm, as GOOD's file records them; 0: none */
static uint64_t bisect_u64(const struct results *r, const char *key)
{
	uint64_t v = 0;

	return r && !meta_get_u64(&r->meta, key, &v) ? v : 0;
}

int bisect_report(struct bisect_global *g, double t0)
{
	static struct bisect_commit good, first;
	static char sha[64], rev[64], repo[PATH_MAX + 320], thr[32], vm[2048], cmp[512], cmd[2048];
	struct bisectfmt b = { .tree = g->tree, .dir = g->dir, .rev = rev, .repo = repo,
			       .vm_options = vm, .compare_options = cmp, .command = cmd };
	struct results *r, *gr;
	struct bisectfmt_row row;
	char path[PATH_MAX], *lkp = NULL;
	int ret;

	snprintf(path, sizeof(path), "%s/bisect.log", g->dir);
	if (bisect_log_first(path, sha, sizeof(sha), &b.steps))
		return bench_refused("git bisect found no first bad commit (see %s/bisect-run.txt)",
				     g->dir);
	if (bisect_commit_of(g, sha, &first) || bisect_commit_of(g, g->good, &good) ||
	    bisect_git(g->tree, rev, sizeof(rev), "rev-parse", "--short", sha, NULL))
		return bench_refused("%s: git cannot name %s", g->tree, sha);
	b.first = (struct bisectfmt_commit){ first.sha, first.abbrev, first.subject };
	b.good = (struct bisectfmt_commit){ good.sha, good.abbrev, good.subject };
	r = bisect_load(g, "", rev);
	gr = bisect_load(g, "good-", rev);
	bisect_repo(g, r, repo, sizeof(repo));
	bisect_lines(g, vm, sizeof(vm), cmp, sizeof(cmp), cmd, sizeof(cmd));
	b.host = bisect_meta(r, "host") ?: "";
	b.cpu_model = bisect_meta(r, "cpu_model");
	/* what the step's bench vm ran: --vm's options may override -B, -p and -c */
	b.boots = bisect_u64(gr, "runs");
	b.possible_cpus = bisect_u64(gr, "possible_cpus");
	b.cpus = bisect_u64(gr, "online_cpus");
	/* counted files: no p judged them, and their change reads to 0.01% */
	b.exact = counted_unit(bisect_meta(gr, "unit"));
	snprintf(path, sizeof(path), "%s/%s.compare.txt", g->dir, rev);
	b.threshold = bisect_threshold(path, thr, sizeof(thr)) ? NULL : thr;
	snprintf(path, sizeof(path), "%s/%s.compare.csv", g->dir, rev);
	b.row = bisect_row_find(path, "regression", &row) ? NULL : &row;
	snprintf(path, sizeof(path), "%s/%s.compare.lkp", g->dir, rev);
	bisect_read(path, 1 << 20, &lkp);
	b.lkp = lkp;
	b.seconds = (long)(spawn_now() - t0);
	ret = bisect_write(g, &b);
	free(lkp);
	results_free(gr);
	results_free(r);
	return ret;
}
