// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-vm-shard.c - bench vm's plan and its shards: the order the
 * boots go in (round after round, each round every (kernel, count) once
 * in vm_sweep_slot()'s order), the key that names the plan, and the
 * part of it one --shard I/N boots (lib/kernel/vm.h's vm_shard_range():
 * whole rounds where the shards go round).
 *
 * A shard's files are an unsharded run's with fewer runs, numbered 1..
 * as its boots went, and say which runs of the plan they are:
 *
 *	vm_plan: SHA-256 of what defines the plan (bv_plan_text(bv))
 *	vm_shard: 2/3
 *	vm_shard_boots: 5-8 of 12	the plan's boots this shard ran
 *	vm_plan_runs: 3 4		the plan run of each of the file's runs
 *
 * bench merge (builtin-merge.c) joins the shards' files by them. Every
 * file, sharded or not, also says what ran it: vm_accel, vm_host_cpu_model
 * and vm_host_name, the runner class of lib/report/strata.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "bench.h"
#include "lib/report/host.h"
#include "builtin-vm.h"

/* --shard I/N: I in 1..N, N in 1..BV_MAX_SHARDS */
int bv_opt_shard(const struct opt *o, const char *arg, char *why, size_t len)
{
	struct bv_global *bv = o->value;
	unsigned int i, n;
	int used = 0;

	if (sscanf(arg, "%u/%u%n", &i, &n, &used) != 2 || arg[used] || *arg == '+' ||
	    !n || n > BV_MAX_SHARDS || !i || i > n) {
		snprintf(why, len, "--shard: '%s' is not I/N with N in 1..%d and I in 1..N (e.g. 2/3)",
			 arg, BV_MAX_SHARDS);
		return -EINVAL;
	}
	bv->shard_i = i;
	bv->shard_n = n;
	return 0;
}

/* the plan's boots: rounds of every cell once */
static unsigned int bv_plan_total(struct bv_global *bv)
{
	return (unsigned int)bv->boots * bv->nr_k * bv->nr_p;
}

/* after the options: the shard's boots [plan_first, plan_end); 0 or -1 said */
int bv_shard_check(struct bv_global *bv)
{
	unsigned int i, n = bv->shard_n ? bv->shard_n : 1, total = bv_plan_total(bv);
	unsigned int slots = bv->nr_k * bv->nr_p;

	if (bv->shard_n)
		for (i = 0; i < bv->nr_c; i++)
			if (bv_is_sh(bv, i)) {
				bench_err("--shard: an sh command's files are per boot, not merged: run it unsharded");
				return -1;
			}
	if (vm_shard_range((unsigned int)bv->boots, slots, bv->shard_i ?: 1, n, &bv->plan_first,
			   &bv->plan_end)) {
		bench_err("--shard %u/%u: the plan has %u boots (-B %lu x %u kernels x %u counts): N is 1..%u",
			  bv->shard_i, n, total, (unsigned long)bv->boots, bv->nr_k, bv->nr_p,
			  total);
		return -1;
	}
	return 0;
}

/* plan boot @p: its cell, its round into *@round */
static struct bv_cell *bv_plan_cell(struct bv_global *bv, unsigned int p, unsigned int *round)
{
	unsigned int slots = bv->nr_k * bv->nr_p, ki, pi;

	*round = p / slots;
	vm_sweep_slot(bv->nr_k, bv->nr_p, *round, p % slots, &ki, &pi);
	return &bv->cell[ki * bv->nr_p + pi];
}

unsigned int bv_plan_boots(struct bv_global *bv, const struct bv_cell *c)
{
	unsigned int p, r, n = 0;

	for (p = bv->plan_first; p < bv->plan_end; p++)
		n += bv_plan_cell(bv, p, &r) == c;
	return n;
}

/*
 * What defines the plan, one line each: the same text on every runner
 * for the same command, whatever its paths, labels, timeouts or output.
 * The kernels by name and image digest, so build a kernel once and hand
 * the image to every shard: two builds of one tree may differ in bytes.
 */
static void bv_plan_text(struct bv_global *bv, FILE *f)
{
	unsigned int i, j;

	fprintf(f, "kstats-bench vm plan 1\nboots %lu\ncpus %lu\nnodes %lu\nmemory %lu\naccel %s\nappend %s\ncounts",
		(unsigned long)bv->boots, (unsigned long)bv->cpus, (unsigned long)bv->nodes,
		bv->memory, vm_accels[bv->accel], bv->append ? bv->append : "");
	for (i = 0; i < bv->nr_p; i++)
		fprintf(f, " %u", bv->possible[i]);
	for (i = 0; i < bv->nr_k; i++)
		fprintf(f, "\nkernel %s %s", bv->k[i].name, bv->k[i].sha256);
	for (i = 0; i < bv->nr_c; i++) {
		fprintf(f, "\ncommand");
		for (j = 0; j < bv->c[i].argc; j++)
			fprintf(f, " %s", bv->c[i].argv[j]);
	}
	for (i = 0; i < bv->nr_file; i++)
		fprintf(f, "\nfile %s", bv->file[i].dst);
	fputc('\n', f);
}

/* the plan's key into bv->plan_key, once the kernels' digests are known */
int bv_plan_key(struct bv_global *bv)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return bench_refused("%s", strerror(errno));
	bv_plan_text(bv, f);
	if (fclose(f)) {
		free(text);
		return bench_refused("%s", strerror(ENOMEM));
	}
	sha256_buf(text, len, bv->plan_key);
	free(text);
	return 0;
}

/* the plan runs of @c's first @n boots in this shard, "3 4" */
static void bv_plan_runs(struct bv_global *bv, const struct bv_cell *c, unsigned int n, char *buf,
			 size_t len)
{
	unsigned int p, r, j = 0;
	size_t used = 0;

	buf[0] = 0;
	for (p = bv->plan_first; p < bv->plan_end && j < n && used < len; p++)
		if (bv_plan_cell(bv, p, &r) == c)
			used += (size_t)snprintf(buf + used, len - used, "%s%u", j++ ? " " : "",
						 r + 1);
}

void bv_shard_meta(struct bv_global *bv, const struct bv_cell *c, struct meta *m)
{
	struct utsname u;
	char model[256], runs[META_VAL];

	host_cpu_model(model, sizeof(model));
	meta_put(m, "vm_accel", "%s", vm_accels[bv->accel]);
	meta_put(m, "vm_host_cpu_model", "%s", model);
	meta_put(m, "vm_host_name", "%s", uname(&u) ? "unknown" : u.nodename);
	meta_put(m, "vm_plan", "%s", bv->plan_key);
	if (!bv->shard_n)
		return;
	bv_plan_runs(bv, c, c->nr_boots, runs, sizeof(runs));
	meta_put(m, "vm_shard", "%u/%u", bv->shard_i, bv->shard_n);
	meta_put(m, "vm_shard_boots", "%u-%u of %u", bv->plan_first + 1, bv->plan_end,
		 bv_plan_total(bv));
	meta_put(m, "vm_plan_runs", "%s", runs);
}

/*
 * the shard's boots in the plan's order (all of them unsharded): round
 * b boots each cell once, in the order of vm_sweep_slot() (kernels and
 * counts rotated round by round, so that none is always early or late);
 * a cell's boots are its runs 1.., in the order they went
 */
int bv_measure(struct bv_global *bv)
{
	unsigned int p, r, b;
	struct bv_cell *c;
	int ret = 0;

	for (p = bv->plan_first; p < bv->plan_end && !ret; p++) {
		c = bv_plan_cell(bv, p, &r);
		b = c->nr_boots;
		ret = bv_stopped(bv) ? 128 + bv->signo : bv_boot(bv, c, b);
		if (!ret && !bv->quiet)
			pr_err("%s boot %u/%u: %.1f s, %u possible CPUs, %u online%s",
			       c->label, b + 1, bv_plan_boots(bv, c),
			       c->boot[b].seconds, c->boot[b].possible, c->boot[b].online,
			       c->boot[b].tries > 1 ? " (booted again)" : "");
	}
	return ret;
}

/* --dry-run --shard I/N: the plan's key and the shard's boots, in order */
void bv_dry_plan(struct bv_global *bv)
{
	unsigned int p, r;
	struct bv_cell *c;

	if (!bv->shard_n)
		return;
	printf("# plan %s: shard %u/%u, boots %u-%u of %u\n", bv->plan_key, bv->shard_i,
	       bv->shard_n, bv->plan_first + 1, bv->plan_end, bv_plan_total(bv));
	for (p = bv->plan_first; p < bv->plan_end; p++) {
		c = bv_plan_cell(bv, p, &r);
		printf("# boot %u: round %u, %s\n", p + 1, r + 1, c->label);
	}
}
