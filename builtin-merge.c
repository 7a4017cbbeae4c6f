// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-merge.c - bench merge: join the directories of `bench vm
 * --shard I/N` (one per CI job) into the files one unsharded run of the
 * plan would have written, exactly.
 *
 * A shard's CSV holds its boots as runs 1.., and says which runs of the
 * plan they are (vm_plan_runs, lib/kernel/vmsweep.c). The merge numbers
 * every run as the plan does, adds the histograms (exact: format 3
 * carries every bucket's sum), rebuilds the merge over the runs, and
 * folds the metadata: the lowest shard's, the per-boot "RUN:VALUE" lists
 * of every shard renumbered and in plan order, the runs and samples
 * summed, and each run's provenance as lists of run ranges:
 *
 *	vm_run_shard: 1-2:1/3 3-4:2/3 5-6:3/3
 *	vm_run_runner: 1-2:runner-a 3-6:runner-b	(vm_host_name)
 *	vm_run_class: 1-6:tcg/AMD-EPYC-7763		(lib/results/strata.h)
 *	vm_run_testbed: 1-2:3f09c2a4b1e0 3-6:...	(its testbed's digest)
 *
 * The consoles are joined in shard order. Every shard is checked first:
 * one plan, each shard once, none missing; then the merge is proved whole
 * by the plan's shape its files record (vm_plan_files, vm_plan_file_runs):
 * every file of the plan, each with every run once (--partial: each file
 * "partial: yes", vm_shards_missing, vm_plan_runs_missing). Nothing is
 * written before every file is read, and each file is written whole or
 * not at all (lib/subcmd/outfile.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench.h"
#include "builtin-merge.h"
#include "lib/results/csv.h"
#include "lib/subcmd/dirscan.h"
#include "lib/subcmd/iopath.h"
#include "lib/subcmd/outfile.h"
#include "lib/results/results.h"
#include "lib/subcmd/samples.h"
#include "lib/kernel/vm.h"

struct merge_opts {
	const char *output;		/* -o DIR */
	bool partial;			/* --partial: a missing shard is allowed */
	char cmdline[1024];		/* for the metadata */
};

static const char merge_head[] =
	"Usage: bench merge [OPTIONS] -o OUT SHARD_DIR...\n"
	"Join the directories bench vm wrote for the shards of one plan (its shard\n"
	"option I/N), one per shard, into the files one unsharded bench vm would have\n"
	"written in OUT: each NAME[-CMD][-pN].csv with every boot as the plan's run of\n"
	"that number, exact, and each run's shard, runner and testbed in its\n"
	"metadata; the consoles joined in shard order.\n";

static const char merge_tail[] =
	"The plan is proved whole by the shape its shards record (vm_plan_files,\n"
	"vm_plan_file_runs): every file of the plan, each with every run once.\n"
	"Exit: 0 done, 2 bad usage or input, one line naming it (shards of two plans,\n"
	"a shard given twice, a missing shard, file or run of the plan unless\n"
	"--partial, a file cut short, a directory that holds no shard, copies of one\n"
	"file in two units or bucket layouts, an OUT that is one of the shards), 3 a\n"
	"file could not be written, 130/143 interrupted (the files written before\n"
	"it whole, no temp file).\n";

static int merge_parse(int argc, char **argv, struct merge_opts *o)
{
	const struct opt opts[] = {
		OPT_STRING('o', "output", &o->output, "DIR",
			   "the directory the merged files go to (made)"),
		OPT_FLAG(0, "partial", &o->partial,
			 "merge a plan that is not whole (a missing shard,\n"
			 "file or run): every file says partial: yes, and\n"
			 "what it lacks (vm_shards_missing,\n"
			 "vm_plan_runs_missing)"),
		OPT_END()
	};
	const struct opt *tab[] = { opts, NULL };
	struct opt_parser p = { .tab = tab };
	int ret;

	bench_cmdline(o->cmdline, sizeof(o->cmdline), argc, argv);
	ret = bench_options(&p, merge_head, merge_tail, argc, argv);
	if (ret)
		return ret;
	if (!o->output || optind == argc) {
		bench_err("%s", o->output ? "no shard: give the directories of bench vm --shard" :
			  "no -o DIR: where the merged files go");
		return -1;
	}
	if (argc - optind > MERGE_MAX_SHARDS) {
		bench_err("at most %d shard directories", MERGE_MAX_SHARDS);
		return -1;
	}
	return 0;
}

/* the files a shard's directory holds for the merge: *.csv and *.console */
static bool merge_wanted(const char *name)
{
	size_t n = strlen(name);

	return (n > 4 && !strcmp(name + n - 4, ".csv")) ||
	       (n > 8 && !strcmp(name + n - 8, ".console"));
}

/* @s's file names, sorted and each a regular file, into s->name[]: 0 or an exit code said */
static int merge_list(struct merge_shard *s)
{
	struct dirscan d;
	char why[PATH_MAX + 128];
	int ret = dirscan(s->dir, merge_wanted, &d, why, sizeof(why));

	if (ret)
		return bench_input_err(ret, why);
	s->name = d.name;
	s->nr = d.n;
	return 0;
}

/* vm_shard_boots "5-8 of 12" (@v) into *@a, *@b and *@t: 0, or -EINVAL */
static int merge_boots_of(const char *v, unsigned int *a, unsigned int *b, unsigned int *t)
{
	uint64_t lo, hi, total;

	if (samples_take(&v, 1, UINT_MAX, &lo) || *v++ != '-' ||
	    samples_take(&v, lo, UINT_MAX, &hi) || strncmp(v, " of ", 4))
		return -EINVAL;
	v += 4;
	if (samples_take(&v, hi, UINT_MAX, &total) || *v)
		return -EINVAL;
	*a = (unsigned int)lo;
	*b = (unsigned int)hi;
	*t = (unsigned int)total;
	return 0;
}

/* @key of @m, a count by the keys' table, into *@v: 0, -ENOENT (no key), -EINVAL, -ERANGE */
static int merge_u(const struct meta *m, const char *key, unsigned int *v)
{
	uint64_t x = 0;
	int ret = meta_get_u64(m, key, &x);

	*v = (unsigned int)x;
	return ret;
}

/*
 * what @m says of the whole plan into @sh (files 0: its shape not said,
 * an older bench vm's shard; boots 0: no vm_shard_boots either): 0, or
 * EXIT_USAGE said when it says it in part, or what it says does not add up
 */
static int merge_shape_of(const struct meta *m, const char *path, struct merge_shape *sh)
{
	const char *b = meta_get(m, "vm_shard_boots");
	int f = merge_u(m, "vm_plan_files", &sh->files), r = merge_u(m, "vm_plan_file_runs", &sh->runs);
	int bad = b && merge_boots_of(b, &sh->first, &sh->last, &sh->boots);

	if (!b)
		sh->first = sh->last = sh->boots = 0;
	if (f == -ENOENT && r == -ENOENT && !bad) {
		sh->files = sh->runs = 0;
		return 0;
	}
	if (f || r || !b || bad || sh->last > sh->boots || sh->boots % sh->runs) {
		pr_err("%s: vm_plan_files '%s', vm_plan_file_runs '%s' and vm_shard_boots '%s' are not a plan's shape (N, -B, FIRST-LAST of -B x cells)",
		       path, meta_get(m, "vm_plan_files") ?: "", meta_get(m, "vm_plan_file_runs") ?: "",
		       b ?: "");
		return EXIT_USAGE;
	}
	return 0;
}

/* the shard a file says it is: vm_plan and vm_shard "I/N"; 0 or EXIT_USAGE */
static int merge_ident(struct merge_shard *s, const struct meta *m, const char *path)
{
	const char *plan = meta_get(m, "vm_plan"), *sh = meta_get(m, "vm_shard");
	struct merge_shape shape;
	unsigned int i, n;
	int ret;

	if (!plan || !sh || vm_shard_parse(sh, MERGE_MAX_SHARDS, &i, &n)) {
		pr_err("%s: not a shard of a plan (no vm_plan and vm_shard I/N: bench vm --shard I/N writes them)",
		       path);
		return EXIT_USAGE;
	}
	ret = merge_shape_of(m, path, &shape);
	if (ret)
		return ret;
	if (!s->n) {
		snprintf(s->plan, sizeof(s->plan), "%s", plan);
		s->i = i;
		s->n = n;
		s->shape = shape;
		return 0;
	}
	if (strcmp(s->plan, plan) || s->i != i || s->n != n) {
		pr_err("%s is shard %s of plan %.12s, the directory's other files shard %u/%u of %.12s",
		       path, sh, plan, s->i, s->n, s->plan);
		return EXIT_USAGE;
	}
	if (memcmp(&s->shape, &shape, sizeof(shape))) {
		pr_err("%s says another shape of its plan (vm_plan_files, vm_plan_file_runs, vm_shard_boots) than the directory's other files",
		       path);
		return EXIT_USAGE;
	}
	return 0;
}

/* every CSV of @s read, each of one shard, the same; 0 or an exit code */
static int merge_read_shard(struct merge_shard *s)
{
	char path[PATH_MAX];
	unsigned int f;
	int ret = merge_list(s);

	s->set = ret ? NULL : calloc(s->nr ?: 1, sizeof(*s->set));
	if (!ret && !s->set)
		return bench_nomem();
	for (f = 0; !ret && f < s->nr; f++) {
		if (!strstr(s->name[f], ".csv"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", s->dir, s->name[f]);
		ret = merge_load(path, &s->set[f]) ?: merge_ident(s, &s->set[f]->meta, path);
	}
	if (!ret && !s->n) {
		pr_err("%s: no CSV of a shard in it (bench vm --shard I/N -o DIR writes them)",
		       s->dir);
		ret = EXIT_USAGE;
	}
	return ret;
}

/* do two shards' files say one shape of their plan (their boots aside)? */
static bool merge_one_shape(const struct merge_shape *a, const struct merge_shape *b)
{
	return a->files == b->files && a->runs == b->runs && a->boots == b->boots;
}

/* one plan, each shard once, every shard there (or --partial); 0 or EXIT_USAGE */
static int merge_check(const struct merge_opts *o, struct merge_shard *sh, unsigned int n,
		       struct merge_shard **by, char *missing, size_t len)
{
	unsigned int k, i;
	size_t used = 0;

	missing[0] = 0;
	for (k = 0; k < n; k++) {
		if (strcmp(sh[k].plan, sh[0].plan) || sh[k].n != sh[0].n) {
			pr_err("%s is shard %u/%u of plan %.12s, %s shard %u/%u of plan %.12s: shards of two plans",
			       sh[k].dir, sh[k].i, sh[k].n, sh[k].plan, sh[0].dir,
			       sh[0].i, sh[0].n, sh[0].plan);
			return EXIT_USAGE;
		}
		if (!merge_one_shape(&sh[k].shape, &sh[0].shape)) {
			pr_err("%s and %s say two shapes of plan %.12s (vm_plan_files, vm_plan_file_runs, vm_shard_boots' total)",
			       sh[0].dir, sh[k].dir, sh[0].plan);
			return EXIT_USAGE;
		}
		if (by[sh[k].i - 1]) {
			pr_err("shard %u/%u is given twice: %s and %s",
			       sh[k].i, sh[k].n, by[sh[k].i - 1]->dir, sh[k].dir);
			return EXIT_USAGE;
		}
		by[sh[k].i - 1] = &sh[k];
	}
	for (i = 0; i < sh[0].n && used < len; i++)
		if (!by[i])
			used += (size_t)snprintf(missing + used, len - used, "%s%u/%u",
						 used ? " " : "", i + 1, sh[0].n);
	if (missing[0] && !o->partial) {
		pr_err("shard %s of plan %.12s is missing (--partial merges without it)",
		       missing, sh[0].plan);
		return EXIT_USAGE;
	}
	return 0;
}

/* -o names no shard's directory, and no output file an input; 0 or EXIT_USAGE */
static int merge_check_output(const struct merge_opts *o, const struct merge_shard *sh,
			      unsigned int n)
{
	struct stat so, si;
	unsigned int k;

	if (stat(o->output, &so))
		return 0;
	if (!S_ISDIR(so.st_mode)) {
		bench_err("-o %s: not a directory (-o names the directory the merged files go to)",
			  o->output);
		return EXIT_USAGE;
	}
	for (k = 0; k < n; k++)
		if (!stat(sh[k].dir, &si) && si.st_dev == so.st_dev && si.st_ino == so.st_ino) {
			pr_err("-o %s is the shard directory %s: its files would be replaced",
			       o->output, sh[k].dir);
			return EXIT_USAGE;
		}
	return 0;
}

int cmd_merge(int argc, char **argv)
{
	struct merge_opts o = { 0 };
	struct merge_shard *sh, *by[MERGE_MAX_SHARDS] = { NULL };
	char missing[1024];
	unsigned int n, k;
	int ret;

	ret = merge_parse(argc, argv, &o);
	if (ret)
		return ret < 0 ? EXIT_USAGE : bench_finish_stdout();
	n = (unsigned int)(argc - optind);
	sh = calloc(n, sizeof(*sh));
	if (!sh)
		return bench_nomem();
	for (k = 0; k < n; k++)
		sh[k].dir = argv[optind + k];
	for (k = 0, ret = 0; k < n && !ret; k++)
		ret = merge_read_shard(&sh[k]);
	ret = ret ?: merge_check(&o, sh, n, by, missing, sizeof(missing)) ?:
	      merge_check_output(&o, sh, n);
	if (!ret)
		ret = merge_write(o.output, o.cmdline, by, sh[0].n, missing, o.partial);
	for (k = 0; k < n; k++)
		merge_shard_free(&sh[k]);
	free(sh);
	return ret ?: bench_finish_stdout();
}
