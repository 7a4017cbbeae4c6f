// SPDX-License-Identifier: GPL-2.0
/*
 * vmsweep.c - bench vm's sweep (vmsweep.h): the plan, its key and its
 * shards, the cells, and the boot loop over lib/kernel/vmboot.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/subcmd/spawn.h"
#include "lib/kernel/vmsweep.h"
#include "lib/results/busy.h"
#include "lib/results/csv.h"
#include "lib/results/meta.h"
#include "lib/results/results.h"

bool vmsweep_is_sh(const struct vmsweep *sw, unsigned int i)
{
	return !strcmp(sw->c[i].argv[0], "sh");
}

/* ---- the plan ---- */

unsigned int vmsweep_plan_total(const struct vmsweep *sw)
{
	return (unsigned int)sw->boots * sw->nr_k * sw->nr_p;
}

int vmsweep_plan(struct vmsweep *sw, char *why, size_t len)
{
	unsigned int i, n = sw->shard_n ? sw->shard_n : 1, total = vmsweep_plan_total(sw);

	for (i = 0; sw->shard_n && i < sw->nr_c; i++)
		if (vmsweep_is_sh(sw, i)) {
			snprintf(why, len, "--shard: an sh command's files are per boot, not merged: run it unsharded");
			return -EINVAL;
		}
	if (vm_shard_range((unsigned int)sw->boots, sw->nr_k * sw->nr_p, sw->shard_i ?: 1, n,
			   &sw->plan_first, &sw->plan_end)) {
		snprintf(why, len, "--shard %u/%u: the plan has %u boots (-B %lu x %u kernels x %u counts): N is 1..%u",
			 sw->shard_i, n, total, (unsigned long)sw->boots, sw->nr_k, sw->nr_p,
			 total);
		return -EINVAL;
	}
	return 0;
}

unsigned int vmsweep_plan_cell(const struct vmsweep *sw, unsigned int p, unsigned int *round)
{
	unsigned int slots = sw->nr_k * sw->nr_p, ki, pi;

	*round = p / slots;
	vm_sweep_slot(sw->nr_k, sw->nr_p, *round, p % slots, &ki, &pi);
	return ki * sw->nr_p + pi;
}

unsigned int vmsweep_cell_boots(const struct vmsweep *sw, unsigned int n)
{
	unsigned int p, r, boots = 0;

	for (p = sw->plan_first; p < sw->plan_end; p++)
		boots += vmsweep_plan_cell(sw, p, &r) == n;
	return boots;
}

/* "command" and @c's words as one shell line: "a b" and "a" "b" differ */
static int vmsweep_plan_command(FILE *f, const struct vm_cmd *c)
{
	size_t len = 1;
	unsigned int j;
	char *line;

	for (j = 0; j < c->argc; j++)
		len += 4 * strlen(c->argv[j]) + 3;	/* spawn_sh_append()'s worst */
	line = malloc(len);
	if (!line)
		return -ENOMEM;
	spawn_sh_line(line, len, (int)c->argc, c->argv);
	fprintf(f, "\ncommand %s", line);
	free(line);
	return 0;
}

/* what defines the plan, one line each (vmsweep.h, THE PLAN); 0 or -ENOMEM */
static int vmsweep_plan_text(const struct vmsweep *sw, FILE *f)
{
	unsigned int i;
	int ret = 0;

	fprintf(f, "kstats-bench vm plan 1\nboots %lu\ncpus %lu\nnodes %lu\nmemory %lu\naccel %s\nappend %s\ncounts",
		(unsigned long)sw->boots, (unsigned long)sw->cpus, (unsigned long)sw->nodes,
		sw->memory, vm_accels[sw->accel], sw->append ? sw->append : "");
	for (i = 0; i < sw->nr_p; i++)
		fprintf(f, " %u", sw->possible[i]);
	for (i = 0; i < sw->nr_k; i++)
		fprintf(f, "\nkernel %s %s", sw->k[i].name, sw->k[i].sha256);
	for (i = 0; i < sw->nr_c && !ret; i++)
		ret = vmsweep_plan_command(f, &sw->c[i]);
	for (i = 0; i < sw->nr_file; i++)
		fprintf(f, "\nfile %s", sw->file[i].dst);
	fprintf(f, "\nclock %s\n", vm_clocks[sw->clock]);
	if (sw->plugin_key)
		fprintf(f, "plugin %s\n", sw->plugin_key);
	return ret;
}

int vmsweep_plan_key(struct vmsweep *sw)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int ret;

	if (!f)
		return -ENOMEM;
	ret = vmsweep_plan_text(sw, f);
	if (fclose(f) || ret) {
		free(text);
		return -ENOMEM;
	}
	sha256_buf(text, len, sw->plan_key);
	free(text);
	return 0;
}

/* the plan runs of @c's first @n boots in this shard, "3 4" */
static void vmsweep_plan_runs(const struct vmsweep *sw, const struct vmsweep_cell *c,
			      unsigned int n, char *buf, size_t len)
{
	unsigned int p, r, j = 0, cn = (unsigned int)(c - sw->cell);
	size_t used = 0;

	buf[0] = 0;
	for (p = sw->plan_first; p < sw->plan_end && j < n && used < len; p++)
		if (vmsweep_plan_cell(sw, p, &r) == cn)
			used += (size_t)snprintf(buf + used, len - used, "%s%u", j++ ? " " : "",
						 r + 1);
}

void vmsweep_plan_meta(const struct vmsweep *sw, const struct vmsweep_cell *c, struct meta *m)
{
	char runs[META_VAL];

	meta_put(m, "vm_plan", "%s", sw->plan_key);
	if (!sw->shard_n)
		return;
	vmsweep_plan_runs(sw, c, c->nr_boots, runs, sizeof(runs));
	meta_put(m, "vm_shard", "%u/%u", sw->shard_i, sw->shard_n);
	meta_put(m, "vm_shard_boots", "%u-%u of %u", sw->plan_first + 1, sw->plan_end,
		 vmsweep_plan_total(sw));
	meta_put(m, "vm_plan_runs", "%s", runs);
	/* what bench merge proves the plan whole by (a shard has no sh command) */
	meta_put(m, "vm_plan_files", "%u", sw->nr_k * sw->nr_p * (sw->nr_c + sw->plugin_files));
	meta_put(m, "vm_plan_file_runs", "%lu", (unsigned long)sw->boots);
}

/* ---- the cells ---- */

int vmsweep_cells(struct vmsweep *sw, char *why, size_t len)
{
	unsigned int n, i, p;

	sw->nr_cells = sw->nr_k * sw->nr_p;
	sw->cell = calloc(sw->nr_cells, sizeof(*sw->cell));
	if (!sw->cell)
		return -ENOMEM;
	for (n = 0; n < sw->nr_cells; n++) {
		struct vmsweep_cell *c = &sw->cell[n];

		p = sw->possible[n % sw->nr_p];
		c->k = &sw->k[n / sw->nr_p];
		c->vm = (struct vm_config) {
			.qemu = sw->qemu, .accel = sw->accel, .clock = sw->clock,
			.cpus = (unsigned int)sw->cpus,
			.possible = p, .nodes = (unsigned int)sw->nodes, .memory = sw->memory,
			.append = sw->append, .plugin = c->k->plugin,
		};
		if (sw->nr_p == 1)
			snprintf(c->label, sizeof(c->label), "%s", c->k->name);
		else
			snprintf(c->label, sizeof(c->label), "%s-p%u", c->k->name, p);
		if (vm_check_config(&c->vm, why, len))
			return -EINVAL;
		c->boot = calloc(sw->boots, sizeof(*c->boot));
		if (!c->boot)
			return -ENOMEM;
		for (i = 0; i < sw->nr_c; i++)
			c->runs[i].asked = vmsweep_cell_boots(sw, n);
	}
	return 0;
}

void vmsweep_free(struct vmsweep *sw)
{
	unsigned int n, i;

	for (n = 0; sw->cell && n < sw->nr_cells; n++) {
		for (i = 0; i < sw->nr_c; i++)
			runs_fini(&sw->cell[n].runs[i]);
		free(sw->cell[n].boot);
	}
	free(sw->cell);
	sw->cell = NULL;
	sw->nr_cells = 0;
}

/* ---- a boot ---- */

/* one boot being booted: lib/kernel/vmboot.h's callbacks' argument */
struct vmsweep_at {
	const struct vmsweep_ops *ops;	/* the caller's */
	const struct vmsweep_cell *c;	/* what it boots */
	unsigned int b;			/* which boot, 0.. */
};

static int vmsweep_wait(struct spawn *s, void *priv)
{
	const struct vmsweep_at *at = priv;

	return at->ops->wait(at->ops->priv, s, at->c, at->b);
}

static void vmsweep_retry(void *priv, const char *why, bool again)
{
	const struct vmsweep_at *at = priv;

	if (at->ops->retry)
		at->ops->retry(at->ops->priv, at->c, at->b, why, again);
}

/*
 * bench audit rotates its battery by the boot's index: boot @b + 1 says
 * it on the kernel command line, ksb_boot=B, which the kernel passes to
 * /init's environment (an unknown parameter with a value), before
 * --append's words. Other commands' boots keep the line as it was.
 */
static const struct vm_config *vmsweep_boot_vm(const struct vmsweep *sw,
					       const struct vmsweep_cell *c, unsigned int b,
					       struct vm_config *vm, char *buf, size_t len)
{
	unsigned int i;

	for (i = 0; i < sw->nr_c && strcmp(sw->c[i].argv[0], "audit"); i++)
		;
	if (i == sw->nr_c)
		return &c->vm;
	*vm = c->vm;
	snprintf(buf, len, "ksb_boot=%u%s%s", b + 1, vm->append ? " " : "",
		 vm->append ? vm->append : "");
	vm->append = buf;
	return vm;
}

/* one boot of @c as @b + 1 into @vb: 0 with @vb->guest to free, -EINTR, -EIO with @why */
static int vmsweep_try(const struct vmsweep *sw, struct vmsweep_cell *c, unsigned int b,
		       struct vmboot *vb, struct vmsweep_at *at, char *why, size_t len)
{
	struct vmboot_stat *bt = &c->boot[b];
	char append[VM_APPEND_MAX + 32];
	struct vm_config vm;
	enum vmboot_end end;

	*vb = (struct vmboot) {
		.vm = vmsweep_boot_vm(sw, c, b, &vm, append, sizeof(append)),
		.image = c->k->image, .initrd = c->k->initrd, .work = sw->work,
		.nr_cmds = sw->nr_c, .timeout_ms = (unsigned long)sw->timeout * 1000,
		.retries = (unsigned int)sw->retries, .console = c->k->console,
		.name = c->label, .boot = b + 1, .wait = at->ops->wait ? vmsweep_wait : NULL,
		.retry = vmsweep_retry, .priv = at,
	};
	end = vmboot_run(vb);
	if (!c->qemu_line[0])
		snprintf(c->qemu_line, sizeof(c->qemu_line), "%s", vb->qemu_line);
	bt->tries = vb->tries;
	bt->seconds = vb->seconds;
	bt->cpu_seconds = vb->cpu_seconds;
	bt->psi = vb->busy.psi;
	bt->psi_us = vb->busy.psi_us;
	bt->psi_pct = contend_psi_pct(&vb->busy);
	if (end == VMBOOT_DONE)
		return 0;
	if (end == VMBOOT_STOPPED)
		return -EINTR;
	if (end == VMBOOT_GAVE_UP)
		snprintf(why, len, "%s boot %u failed %u times (see %s)", c->label, b + 1,
			 bt->tries, c->k->console_path ? c->k->console_path : "its console");
	else
		snprintf(why, len, "%s boot %u: %s", c->label, b + 1, vb->why);
	return -EIO;
}

/*
 * is boot @b's try disturbed (lib/results/busy.h), and another one left?
 * Said through @ops and in the console file either way; false: keep it.
 * Never under the counted clock: the host's load cannot move a count
 */
static bool vmsweep_reboot(const struct vmsweep *sw, struct vmsweep_cell *c, unsigned int b,
			   const struct vmsweep_ops *ops)
{
	struct vmboot_stat *bt = &c->boot[b];
	bool again = bt->reboots < sw->reboot_disturbed && bt->reboots < VMBOOT_REBOOTS;
	char why[256];

	if (sw->clock == VM_COUNTED || !bt->psi ||
	    !busy_boot_disturbed(bt->psi_pct, bt->cpu_seconds, bt->seconds))
		return false;
	snprintf(why, sizeof(why), "disturbed: psi cpu some %.1f%% of its %.1f s (limit %g%%), qemu %.1f s of cpu (limit %g of the %.1f s)",
		 bt->psi_pct, bt->seconds, BUSY_PSI_PCT, bt->cpu_seconds, BUSY_QEMU_SHARE,
		 bt->seconds);
	if (ops->disturbed)
		ops->disturbed(ops->priv, c, b, why, again);
	if (c->k->console)
		fprintf(c->k->console, "=== %s boot %u %s: %s\n", c->label, b + 1, why,
			again ? "booted again" : "kept (vm_unquiet_boots)");
	if (!again || *ops->signo) {
		bt->unquiet = true;
		return false;
	}
	bt->reboot_pct[bt->reboots++] = bt->psi_pct;
	return true;
}

/* command @i failed in the guest: -EINVAL for a bench command's usage error, else -EIO */
static int vmsweep_cmd_failed(const struct vmsweep *sw, const struct vmsweep_cell *c,
			      unsigned int b, unsigned int i, const struct vm_guest *g, char *why,
			      size_t len)
{
	bool sh = vmsweep_is_sh(sw, i);
	int rc = g->rc[i];

	snprintf(why, len, "%s boot %u: %s%s exited %d in the guest: %s", c->label, b + 1,
		 sh ? "" : "bench ", sh ? sw->c[i].what : sw->c[i].argv[0], rc,
		 g->err[i][0] ? g->err[i] : "(no message)");
	/* a script's code is its own, whatever it is */
	return rc == VMSWEEP_RC_USAGE && !sh ? -EINVAL : -EIO;
}

/* the CSV command @i wrote in boot @b, read into *@one */
static int vmsweep_read(const struct vmsweep *sw, const struct vmsweep_cell *c, unsigned int b,
			unsigned int i, const struct vm_guest *g, struct results **one, char *why,
			size_t len)
{
	struct csv_error err = { 0, "no CSV" };
	int ret = -EINVAL;

	if (g->csv[i])
		ret = csv_read(g->csv[i], one, &err);
	if (!ret)
		return 0;
	snprintf(why, len, "%s boot %u: bench %s's CSV from the guest: line %lu: %s", c->label,
		 b + 1, sw->c[i].argv[0], err.line, ret == -EINVAL ? err.why : strerror(-ret));
	return ret == -EINVAL ? -EBADMSG : ret;
}

/* each command's set @one as run b + 1 of its runs */
static int vmsweep_add(const struct vmsweep *sw, struct vmsweep_cell *c, unsigned int b,
		       struct results *const *one, char *why, size_t len)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < sw->nr_c && !ret; i++) {
		if (!one[i])
			continue;
		ret = runs_add(&c->runs[i], one[i], b + 1);
		if (ret == -EINVAL)
			snprintf(why, len, "%s boot %u: bench %s's CSV from the guest: run %u is used already, or its histograms differ in layout from the runs before",
				 c->label, b + 1, sw->c[i].argv[0], b + 1);
	}
	return ret == -EINVAL ? -EBADMSG : ret;
}

/*
 * every bench command's CSV of boot @b, the plugin's files beside them
 * to @ops->plugin where @c boots with it, then all of them into the runs
 */
static int vmsweep_absorb(const struct vmsweep *sw, struct vmsweep_cell *c, unsigned int b,
			  const struct vmboot *vb, const struct vmsweep_ops *ops, char *why,
			  size_t len)
{
	struct results *one[VM_MAX_CMDS] = { NULL };
	unsigned int i;
	int ret = 0;

	for (i = 0; i < sw->nr_c && !ret; i++)
		if (!vmsweep_is_sh(sw, i))
			ret = vmsweep_read(sw, c, b, i, &vb->guest, &one[i], why, len);
	if (!ret && c->vm.plugin && ops->plugin) {
		ret = ops->plugin(ops->priv, c, b, one, vb->plugin_win, vb->plugin_fn, why, len);
		if (ret == -EINVAL)
			ret = -EIO;	/* -EINVAL is the guest's usage error */
	}
	if (!ret)
		ret = vmsweep_add(sw, c, b, one, why, len);
	for (i = 0; i < sw->nr_c; i++)
		results_free(one[i]);
	return ret;
}

/* what a finished boot brought: the CPUs it counted, every command's CSV or files */
static int vmsweep_results(const struct vmsweep *sw, struct vmsweep_cell *c, unsigned int b,
			   const struct vmboot *vb, const struct vmsweep_ops *ops, char *why,
			   size_t len)
{
	const struct vm_guest *g = &vb->guest;
	char cpus[512];
	unsigned int i;
	int ret = 0;

	if (vmboot_check_cpus(&c->vm, g, cpus, sizeof(cpus))) {
		snprintf(why, len, "%s boot %u: %s", c->label, b + 1, cpus);
		return -ERANGE;
	}
	/* an sh command's files are kept even when it failed: they say why */
	for (i = 0; i < sw->nr_c && !ret; i++)
		if (vmsweep_is_sh(sw, i) && ops->files)
			ret = ops->files(ops->priv, c, b, i, g, why, len);
	if (ret)
		return ret == -EINVAL ? -EIO : ret;	/* -EINVAL is the guest's usage error */
	for (i = 0; i < sw->nr_c && !ret; i++)
		ret = g->rc[i] ? vmsweep_cmd_failed(sw, c, b, i, g, why, len) : 0;
	return ret ?: vmsweep_absorb(sw, c, b, vb, ops, why, len);
}

/*
 * boot @c once as @b + 1 (and again after a hang or a crash, vmboot's
 * tries; again when disturbed), its results read back: 0 or -errno
 */
static int vmsweep_boot(const struct vmsweep *sw, struct vmsweep_cell *c, unsigned int b,
			const struct vmsweep_ops *ops, char *why, size_t len)
{
	struct vmboot_stat *bt = &c->boot[b];
	struct vmsweep_at at = { .ops = ops, .c = c, .b = b };
	struct vmboot vb;
	int ret;

	bt->reboots = 0;
	bt->unquiet = false;
	while (!(ret = vmsweep_try(sw, c, b, &vb, &at, why, len)) && vmsweep_reboot(sw, c, b, ops))
		vm_guest_free(&vb.guest);
	if (ret)
		return ret;
	bt->possible = vb.guest.possible;
	bt->online = vb.guest.online;
	ret = vmsweep_results(sw, c, b, &vb, ops, why, len);
	vm_guest_free(&vb.guest);
	if (!ret)
		c->nr_boots++;
	return ret;
}

/* a SIGINT/SIGTERM that came between two boots: start no other */
static bool vmsweep_stopped(const struct vmsweep_ops *ops)
{
	if (!*ops->signo)
		*ops->signo = runs_stop_pending();
	return *ops->signo;
}

int vmsweep_run(struct vmsweep *sw, const struct vmsweep_ops *ops, char *why, size_t len)
{
	unsigned int p, r, b;
	struct vmsweep_cell *c;
	int ret = 0;

	why[0] = 0;
	for (p = sw->plan_first; p < sw->plan_end && !ret; p++) {
		c = &sw->cell[vmsweep_plan_cell(sw, p, &r)];
		b = c->nr_boots;
		ret = vmsweep_stopped(ops) ? -EINTR : vmsweep_boot(sw, c, b, ops, why, len);
		if (!ret && ops->booted)
			ops->booted(ops->priv, c, b);
	}
	return ret;
}
