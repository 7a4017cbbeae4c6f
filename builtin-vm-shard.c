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
 *	vm_plan: SHA-256 of what defines the plan (bv_plan_text())
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
	unsigned int i, n;
	int used = 0;

	(void)o;
	if (sscanf(arg, "%u/%u%n", &i, &n, &used) != 2 || arg[used] || *arg == '+' ||
	    !n || n > BV_MAX_SHARDS || !i || i > n) {
		snprintf(why, len, "--shard: '%s' is not I/N with N in 1..%d and I in 1..N (e.g. 2/3)",
			 arg, BV_MAX_SHARDS);
		return -EINVAL;
	}
	vmg.shard_i = i;
	vmg.shard_n = n;
	return 0;
}

/* the plan's boots: rounds of every cell once */
static unsigned int bv_plan_total(void)
{
	return (unsigned int)vmg.boots * vmg.nr_k * vmg.nr_p;
}

/* after the options: the shard's boots [plan_first, plan_end); 0 or -1 said */
int bv_shard_check(void)
{
	unsigned int i, n = vmg.shard_n ? vmg.shard_n : 1, total = bv_plan_total();
	unsigned int slots = vmg.nr_k * vmg.nr_p;

	if (vmg.shard_n)
		for (i = 0; i < vmg.nr_c; i++)
			if (bv_is_sh(i)) {
				bench_err("--shard: an sh command's files are per boot, not merged: run it unsharded");
				return -1;
			}
	if (vm_shard_range((unsigned int)vmg.boots, slots, vmg.shard_i ?: 1, n, &vmg.plan_first,
			   &vmg.plan_end)) {
		bench_err("--shard %u/%u: the plan has %u boots (-B %lu x %u kernels x %u counts): N is 1..%u",
			  vmg.shard_i, n, total, (unsigned long)vmg.boots, vmg.nr_k, vmg.nr_p,
			  total);
		return -1;
	}
	return 0;
}

/* plan boot @p: its cell, its round into *@round */
static struct bv_cell *bv_plan_cell(unsigned int p, unsigned int *round)
{
	unsigned int slots = vmg.nr_k * vmg.nr_p, ki, pi;

	*round = p / slots;
	vm_sweep_slot(vmg.nr_k, vmg.nr_p, *round, p % slots, &ki, &pi);
	return &vmg.cell[ki * vmg.nr_p + pi];
}

unsigned int bv_plan_boots(const struct bv_cell *c)
{
	unsigned int p, r, n = 0;

	for (p = vmg.plan_first; p < vmg.plan_end; p++)
		n += bv_plan_cell(p, &r) == c;
	return n;
}

/*
 * What defines the plan, one line each: the same text on every runner
 * for the same command, whatever its paths, labels, timeouts or output.
 * The kernels by name and image digest, so build a kernel once and hand
 * the image to every shard: two builds of one tree may differ in bytes.
 */
static void bv_plan_text(FILE *f)
{
	unsigned int i, j;

	fprintf(f, "kstats-bench vm plan 1\nboots %lu\ncpus %lu\nnodes %lu\nmemory %lu\naccel %s\nappend %s\ncounts",
		(unsigned long)vmg.boots, (unsigned long)vmg.cpus, (unsigned long)vmg.nodes,
		vmg.memory, vm_accels[vmg.accel], vmg.append ? vmg.append : "");
	for (i = 0; i < vmg.nr_p; i++)
		fprintf(f, " %u", vmg.possible[i]);
	for (i = 0; i < vmg.nr_k; i++)
		fprintf(f, "\nkernel %s %s", vmg.k[i].name, vmg.k[i].sha256);
	for (i = 0; i < vmg.nr_c; i++) {
		fprintf(f, "\ncommand");
		for (j = 0; j < vmg.c[i].argc; j++)
			fprintf(f, " %s", vmg.c[i].argv[j]);
	}
	for (i = 0; i < vmg.nr_file; i++)
		fprintf(f, "\nfile %s", vmg.file[i].dst);
	fputc('\n', f);
}

/* the plan's key into vmg.plan_key, once the kernels' digests are known */
int bv_plan_key(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return bench_refused("%s", strerror(errno));
	bv_plan_text(f);
	if (fclose(f)) {
		free(text);
		return bench_refused("%s", strerror(ENOMEM));
	}
	sha256_buf(text, len, vmg.plan_key);
	free(text);
	return 0;
}

/* the plan runs of @c's first @n boots in this shard, "3 4" */
static void bv_plan_runs(const struct bv_cell *c, unsigned int n, char *buf, size_t len)
{
	unsigned int p, r, j = 0;
	size_t used = 0;

	buf[0] = 0;
	for (p = vmg.plan_first; p < vmg.plan_end && j < n && used < len; p++)
		if (bv_plan_cell(p, &r) == c)
			used += (size_t)snprintf(buf + used, len - used, "%s%u", j++ ? " " : "",
						 r + 1);
}

void bv_shard_meta(const struct bv_cell *c, struct meta *m)
{
	struct utsname u;
	char model[256], runs[META_VAL];

	host_cpu_model(model, sizeof(model));
	meta_put(m, "vm_accel", "%s", vm_accels[vmg.accel]);
	meta_put(m, "vm_host_cpu_model", "%s", model);
	meta_put(m, "vm_host_name", "%s", uname(&u) ? "unknown" : u.nodename);
	meta_put(m, "vm_plan", "%s", vmg.plan_key);
	if (!vmg.shard_n)
		return;
	bv_plan_runs(c, c->nr_boots, runs, sizeof(runs));
	meta_put(m, "vm_shard", "%u/%u", vmg.shard_i, vmg.shard_n);
	meta_put(m, "vm_shard_boots", "%u-%u of %u", vmg.plan_first + 1, vmg.plan_end,
		 bv_plan_total());
	meta_put(m, "vm_plan_runs", "%s", runs);
}

/*
 * the shard's boots in the plan's order (all of them unsharded): round
 * b boots each cell once, in the order of vm_sweep_slot() (kernels and
 * counts rotated round by round, so that none is always early or late);
 * a cell's boots are its runs 1.., in the order they went
 */
int bv_measure(void)
{
	unsigned int p, r, b;
	struct bv_cell *c;
	int ret = 0;

	for (p = vmg.plan_first; p < vmg.plan_end && !ret; p++) {
		c = bv_plan_cell(p, &r);
		b = c->nr_boots;
		ret = bv_stopped() ? 128 + vmg.signo : bv_boot(c, b);
		if (!ret && !vmg.quiet)
			pr_err("%s boot %u/%u: %.1f s, %u possible CPUs, %u online%s",
			       c->label, b + 1, bv_plan_boots(c),
			       c->boot[b].seconds, c->boot[b].possible, c->boot[b].online,
			       c->boot[b].tries > 1 ? " (booted again)" : "");
	}
	return ret;
}

/* --dry-run --shard I/N: the plan's key and the shard's boots, in order */
void bv_dry_plan(void)
{
	unsigned int p, r;
	struct bv_cell *c;

	if (!vmg.shard_n)
		return;
	printf("# plan %s: shard %u/%u, boots %u-%u of %u\n", vmg.plan_key, vmg.shard_i,
	       vmg.shard_n, vmg.plan_first + 1, vmg.plan_end, bv_plan_total());
	for (p = vmg.plan_first; p < vmg.plan_end; p++) {
		c = bv_plan_cell(p, &r);
		printf("# boot %u: round %u, %s\n", p + 1, r + 1, c->label);
	}
}
