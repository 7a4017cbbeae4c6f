// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-vm-boot.c - bench vm's checks before anything boots (through
 * lib/kernel/vmprep.h), the guests' initramfs, and one boot: the tries of
 * lib/kernel/vmboot.h, waited for with bench_wait() (SIGINT/SIGTERM, the
 * progress line), and what the guest sent read back into the cell's
 * runs; and the teardown a second signal needs (bv_free(), bv_cleanup()).
 * It calls nothing of builtin-vm.c or builtin-vm-shard.c, which call it.
 * The options and the driver are builtin-vm.c's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "builtin-vm.h"
#include "lib/report/busy.h"
#include "lib/report/csv.h"
#include "lib/report/meta.h"
#include "lib/report/outfile.h"
#include "lib/kernel/kmod.h"
#include "lib/kernel/spawn.h"

/* a lib/kernel/vmprep.h check's return as ours: 0, 2 (-EINVAL), or 3, said */
int bv_said(int ret, const char *why)
{
	if (!ret)
		return 0;
	if (ret == -EINVAL) {
		bench_err("%s", why);
		return EXIT_USAGE;
	}
	return bench_refused("%s", why);
}

/* ---- checks, before anything boots ---- */

/* the static bench and busybox the guests get */
int bv_check_guest_files(struct bv_global *bv)
{
	char why[PATH_MAX + 256];

	return bv_said(vmprep_bench(bv->bench, bv->bench_path, sizeof(bv->bench_path), why,
				    sizeof(why)), why) ?:
	       bv_said(vmprep_busybox(bv->busybox, strcmp(bv->busybox, BV_BUSYBOX), why,
				      sizeof(why)), why);
}

bool bv_is_sh(struct bv_global *bv, unsigned int i)
{
	return !strcmp(bv->c[i].argv[0], "sh");
}

/* does any command need the module? */
static bool bv_needs_module(struct bv_global *bv)
{
	unsigned int i;

	for (i = 0; i < bv->nr_c; i++)
		if (!strcmp(bv->c[i].argv[0], "kernel"))
			return true;
	return false;
}

/* an sh script may load it: it gets the module where one is given or built */
static bool bv_offers_module(struct bv_global *bv, const struct bv_kernel *k)
{
	unsigned int i;

	for (i = 0; i < bv->nr_c; i++)
		if (bv_is_sh(bv, i))
			return k->tree || bv->module || bv->kbuild;
	return false;
}

/* a module file built for @k's release */
static int bv_check_ko(struct bv_kernel *k, const char *ko, const char *opt)
{
	char why[2 * PATH_MAX];
	int ret = vmprep_ko(ko, opt, k->name, k->release, why, sizeof(why));

	if (!ret)
		snprintf(k->ko, sizeof(k->ko), "%s", ko);
	return bv_said(ret, why);
}

/* the module built against @tree in the work directory, for @k */
static int bv_build_kmod(struct bv_global *bv, struct bv_kernel *k, const char *tree,
			 const char *opt)
{
	char rel[KIMAGE_RELEASE_MAX], src[PATH_MAX], dir[PATH_MAX], ko[PATH_MAX + 32];
	int ret;

	if (kimage_tree_release(tree, rel, sizeof(rel))) {
		bench_err("%s%s is not a configured kernel tree (no include/config/kernel.release: make olddefconfig prepare)",
			  opt, tree);
		return EXIT_USAGE;
	}
	if (kmod_src_dir(src, sizeof(src)))
		return bench_refused("no module sources (kmod/) beside bench or in share/kstats-bench");
	snprintf(dir, sizeof(dir), "%.3000s/kmod-%.63s", bv->work, k->name);
	if (!bv->quiet)
		pr_err("%s: building kstats_bench.ko against %s",
		       k->name, tree);
	ret = kmod_build(tree, dir, STDERR_FILENO);
	if (ret < 0)
		return bench_refused("copying the module's sources to %s: %s", dir, strerror(-ret));
	if (ret)
		return bench_refused("%s: building the module against %s failed (make -C %s M=%s modules)",
				  k->name, tree, tree, dir);
	snprintf(ko, sizeof(ko), "%s/kstats_bench.ko", dir);
	return bv_check_ko(k, ko, opt);
}

/* every kernel: its image, its module when a command needs one */
int bv_check_kernels(struct bv_global *bv)
{
	char why[2 * PATH_MAX];
	struct bv_kernel *k;
	int ret = 0;

	for (k = bv->k; !ret && k < bv->k + bv->nr_k; k++) {
		ret = bv_said(vmprep_image(k->name, k->tree, k->image, k->release,
					   sizeof(k->release), why, sizeof(why)), why);
		if (!ret && (ret = sha256_file(k->image, k->sha256)))
			ret = bench_refused("%s: %s: %s", k->name, k->image, strerror(-ret));
		if (ret || !(bv_needs_module(bv) || bv_offers_module(bv, k)))
			continue;
		if (bv->dry_run && (k->tree || (bv->kbuild && !bv->module)))
			k->ko_tree = k->tree ? k->tree : bv->kbuild;	/* built at a boot */
		else if (k->tree)
			ret = bv_build_kmod(bv, k, k->tree, "");
		else if (bv->module)
			ret = bv_check_ko(k, bv->module, "--module ");
		else if (bv->kbuild && k > bv->k && bv->k[0].ko[0] && !bv->k[0].tree)
			ret = bv_check_ko(k, bv->k[0].ko, "--kbuild ");	/* built once */
		else if (bv->kbuild)
			ret = bv_build_kmod(bv, k, bv->kbuild, "--kbuild ");
		else {
			bench_err("%s: bench kernel needs the module: give the kernel's build tree, --kbuild DIR or --module KO",
				  k->name);
			ret = EXIT_USAGE;
		}
	}
	return ret;
}

/* ---- the guest ---- */

/* the machine of every count, checked; the cells: every kernel at every count */
int bv_check_config(struct bv_global *bv)
{
	unsigned int i, p;
	char why[256];

	bv->nr_cells = bv->nr_k * bv->nr_p;
	bv->cell = calloc(bv->nr_cells, sizeof(*bv->cell));
	if (!bv->cell)
		return bench_refused("%s", strerror(ENOMEM));
	for (i = 0; i < bv->nr_cells; i++) {
		struct bv_cell *c = &bv->cell[i];

		p = bv->possible[i % bv->nr_p];
		c->k = &bv->k[i / bv->nr_p];
		c->vm = (struct vm_config) {
			.qemu = bv->qemu, .accel = bv->accel, .cpus = (unsigned int)bv->cpus,
			.possible = p, .nodes = (unsigned int)bv->nodes,
			.memory = (unsigned long)bv->memory, .append = bv->append,
		};
		if (bv->nr_p == 1)
			snprintf(c->label, sizeof(c->label), "%s", c->k->name);
		else
			snprintf(c->label, sizeof(c->label), "%s-p%u", c->k->name, p);
		if (vm_check_config(&c->vm, why, sizeof(why))) {
			bench_err("%s", why);
			return EXIT_USAGE;
		}
	}
	if (bv->accel == VM_KVM && access("/dev/kvm", R_OK | W_OK))
		return bench_refused("--accel kvm: /dev/kvm: %s", strerror(errno));
	return 0;
}

/* @k's initramfs: busybox, bench, the module, /init for the commands */
int bv_initramfs(struct bv_global *bv, struct bv_kernel *k)
{
	char *const *cmds[VM_MAX_CMDS];
	unsigned int i;
	int ret;

	for (i = 0; i < bv->nr_c; i++)
		cmds[i] = bv->c[i].argv;
	snprintf(k->initrd, sizeof(k->initrd), "%.3000s/%.63s.cpio", bv->work, k->name);
	ret = vm_initramfs(k->initrd, cmds, bv->nr_c, bv->busybox, bv->bench_path,
			   k->ko[0] ? k->ko : NULL, bv->extra, bv->nr_file);
	if (ret)
		return bench_refused("%s: writing its initramfs %s: %s", k->name, k->initrd,
				  strerror(-ret));
	return 0;
}

/* ---- booting ---- */

/* a SIGINT/SIGTERM that came between two boots: start no other */
bool bv_stopped(struct bv_global *bv)
{
	if (!bv->signo)
		bv->signo = runs_stop_pending();
	return bv->signo;
}

/* remove the work directory and what it holds (kmod-NAME/ too), no rm forked */
void bv_cleanup(struct bv_global *bv)
{
	if (bv->work[0])
		spawn_remove_tree(bv->work);
}

/* every output's temp file removed, the cells' boots freed */
void bv_free(struct bv_global *bv)
{
	struct bv_kernel *k;
	unsigned int n, i;

	for (n = 0; bv->cell && n < bv->nr_cells; n++) {
		for (i = 0; i < bv->nr_c; i++) {
			runs_fini(&bv->cell[n].runs[i].set);
			outfile_abort(&bv->cell[n].runs[i].out);
		}
		free(bv->cell[n].boot);
		bv->cell[n].boot = NULL;
	}
	for (k = bv->k; k < bv->k + bv->nr_k; k++)
		outfile_abort(&k->console);
	outset_abort(&bv->also);
}

/* one boot being waited for, for bench_wait() and lib/vmboot's callbacks */
struct bv_wait {
	struct bv_global *bv;		/* the command's state */
	struct spawn *s;		/* qemu, once started */
	const struct bv_cell *c;	/* what it boots */
	unsigned int b;			/* which boot, 0.. */
	bool stopped;			/* a SIGINT/SIGTERM killed it */
};

static int bv_qemu_poll(void *priv)
{
	struct bv_wait *w = priv;

	return spawn_poll(w->s, (unsigned long)w->bv->timeout * 1000);
}

/* the first SIGINT/SIGTERM: the boot is not kept, so qemu goes at once */
static void bv_qemu_stop(void *priv, int sig)
{
	struct bv_wait *w = priv;

	(void)sig;
	w->stopped = true;
	spawn_kill(w->s, SIGKILL);
}

/* the second: no temp file beside an output, no work directory left */
static void bv_qemu_leave(void *priv)
{
	struct bv_wait *w = priv;

	spawn_kill(w->s, SIGKILL);
	bv_free(w->bv);
	bv_cleanup(w->bv);
}

static void bv_qemu_progress(void *priv)
{
	const struct bv_wait *w = priv;

	fprintf(stderr, "%s: %s boot %u/%lu: %.0f s ", bench_prog, w->c->label, w->b + 1,
		(unsigned long)w->bv->boots, spawn_now() - w->s->t0);
}

/*
 * lib/vmboot's wait: qemu at most --timeout seconds; the first SIGINT or
 * SIGTERM kills it and is kept in bv->signo. 0, 1 when stopped, -errno.
 */
static int bv_wait(struct spawn *s, void *priv)
{
	struct bv_wait *w = priv;
	struct bench_wait bw = {
		.poll = bv_qemu_poll, .stop = bv_qemu_stop, .leave = bv_qemu_leave,
		.progress = bv_qemu_progress, .priv = w, .tick_ms = 200, .wake = SIGCHLD,
		.quiet = w->bv->quiet, .signo = &w->bv->signo,
	};
	int ret;

	w->s = s;
	ret = bench_wait(&bw);
	return ret ? ret : w->stopped;
}

/* a try that hung or crashed, said */
static void bv_retry(void *priv, const char *why, bool again)
{
	const struct bv_wait *w = priv;

	pr_err("%s boot %u %s%s", w->c->label, w->b + 1, why,
	       again ? "; booting it again" : "");
}

/*
 * a command's exit code in the guest, as ours: 2 for bench's usage
 * errors; a script's code is its own, so 3 whatever it is
 */
static int bv_cmd_failed(struct bv_global *bv, const struct bv_cell *c, unsigned int b,
			 unsigned int i, const struct vm_guest *g)
{
	bool sh = bv_is_sh(bv, i);
	int rc = g->rc[i];

	pr_err("%s boot %u: %s%s exited %d in the guest: %s",
	       c->label, b + 1, sh ? "" : "bench ", sh ? bv->c[i].what : bv->c[i].argv[0], rc,
	       g->err[i][0] ? g->err[i] : "(no message)");
	return rc == EXIT_USAGE && !sh ? EXIT_USAGE : EXIT_ENV;
}

/*
 * the CSV command @i wrote in boot @b, read back as run b + 1; per-CPU
 * series of each boot kept while they stay few (lib/kernel/runs.h, as bench
 * run --runs)
 */
static int bv_absorb(struct bv_global *bv, struct bv_cell *c, unsigned int b, unsigned int i,
		     struct vm_guest *g)
{
	struct csv_error err = { 0, "no CSV" };
	int ret = -EINVAL;

	if (g->csv[i])
		ret = runs_absorb(&c->runs[i].set, g->csv[i], b + 1, &err);
	if (!ret)
		return 0;
	return bench_refused("%s boot %u: bench %s's CSV from the guest: line %lu: %s", c->label,
			     b + 1, bv->c[i].argv[0], err.line,
			     ret == -EINVAL ? err.why : strerror(-ret));
}

/* @f's bytes to the new file @path */
static int bv_copy_out(FILE *f, const char *path)
{
	FILE *o = fopen(path, "we");
	char buf[8192];
	size_t n;
	int ret = 0;

	if (!o)
		return -errno;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		if (fwrite(buf, 1, n, o) != n)
			break;
	if (ferror(f) || ferror(o))
		ret = -EIO;
	if (fclose(o) && !ret)
		ret = -errno;
	return ret;
}

/* @path made unless it is there */
static int bv_mkdir(const char *path)
{
	return mkdir(path, 0755) && errno != EEXIST ? -errno : 0;
}

/*
 * boot @b's record beside its sh files, @path (DIR/LABEL-sh/bootB.meta):
 * the "# key: value" lines a CSV of that boot would carry
 * (vmboot_meta_one(): its seconds, qemu's cpu, the host's PSI stall)
 */
static int bv_keep_meta(const struct bv_cell *c, unsigned int b, const char *path)
{
	struct meta *m = calloc(1, sizeof(*m));
	struct outfile o;
	unsigned int k;
	int ret;

	if (!m)
		return -ENOMEM;
	meta_put(m, "vm_name", "%s", c->k->name);
	vmboot_meta_one(m, c->boot, b);
	ret = outfile_open(&o, path);
	if (!ret) {
		for (k = 0; k < m->n; k++)
			fprintf(o.f, "# %s: %s\n", m->kv[k].key, m->kv[k].val);
		ret = outfile_commit(&o);
	}
	free(m);
	return ret;
}

/*
 * sh command @i's files of boot @b: DIR/LABEL-sh/bootB/FILE, its stdout
 * and stderr beside as bootB.stdout and bootB.stderr, the boot's record
 * as bootB.meta
 */
static int bv_keep_files(struct bv_global *bv, const struct bv_cell *c, unsigned int b,
			 unsigned int i, const struct vm_guest *g)
{
	char dir[PATH_MAX], path[PATH_MAX + VM_FILE_NAME + 16];
	unsigned int j;
	int ret;

	snprintf(dir, sizeof(dir), "%.3000s/%.80s-sh", bv->outdir, c->label);
	ret = bv_mkdir(dir);
	snprintf(path, sizeof(path), "%s/boot%u", dir, b + 1);
	ret = ret ?: bv_mkdir(path);
	for (j = 0; j < g->nr_files && !ret; j++) {
		const struct vm_file *fl = &g->file[j];

		if (fl->cmd != i)
			continue;
		if (fl->name[0] == '.')		/* .stdout, .stderr */
			snprintf(path, sizeof(path), "%s/boot%u%s", dir, b + 1, fl->name);
		else
			snprintf(path, sizeof(path), "%s/boot%u/%s", dir, b + 1, fl->name);
		ret = bv_copy_out(fl->f, path);
	}
	if (!ret) {
		snprintf(path, sizeof(path), "%s/boot%u.meta", dir, b + 1);
		ret = bv_keep_meta(c, b, path);
	}
	if (ret)
		return bench_refused("%s boot %u: sh %s's files: %s: %s", c->label, b + 1,
				     bv->c[i].argv[1], path, strerror(-ret));
	if (g->bad_files)
		pr_err("%s boot %u: %u files of sh %s dropped (a name not [A-Za-z0-9._+-], or more than %d)",
		       c->label, b + 1, g->bad_files, bv->c[i].argv[1], VM_MAX_FILES);
	return 0;
}

/* what a finished boot brought: the CPUs it counted, every command's CSV or files */
static int bv_boot_results(struct bv_global *bv, struct bv_cell *c, unsigned int b,
			   struct vm_guest *g)
{
	char why[512];
	unsigned int i;
	int ret = 0;

	if (vmboot_check_cpus(&c->vm, g, why, sizeof(why)))
		return bench_refused("%s boot %u: %s", c->label, b + 1, why);
	/* an sh command's files are kept even when it failed: they say why */
	for (i = 0; i < bv->nr_c && !ret; i++)
		ret = bv_is_sh(bv, i) ? bv_keep_files(bv, c, b, i, g) : 0;
	for (i = 0; i < bv->nr_c && !ret; i++)
		ret = g->rc[i] ? bv_cmd_failed(bv, c, b, i, g) : 0;
	for (i = 0; i < bv->nr_c && !ret; i++)
		ret = bv_is_sh(bv, i) ? 0 : bv_absorb(bv, c, b, i, g);
	return ret;
}

/* one boot of @c as @b + 1 into @vb: 0 with @vb->guest to free, else an exit code */
/*
 * bench audit rotates its battery by the boot's index: boot @b + 1 says
 * it on the kernel command line, ksb_boot=B, which the kernel passes to
 * /init's environment (an unknown parameter with a value), before
 * --append's words. Other commands' boots keep the line as it was.
 */
static const struct vm_config *bv_boot_vm(struct bv_global *bv, const struct bv_cell *c,
					  unsigned int b, struct vm_config *vm, char *buf,
					  size_t len)
{
	unsigned int i;

	for (i = 0; i < bv->nr_c && strcmp(bv->c[i].argv[0], "audit"); i++)
		;
	if (i == bv->nr_c)
		return &c->vm;
	*vm = c->vm;
	snprintf(buf, len, "ksb_boot=%u%s%s", b + 1, vm->append ? " " : "",
		 vm->append ? vm->append : "");
	vm->append = buf;
	return vm;
}

static int bv_boot_try(struct bv_global *bv, struct bv_cell *c, unsigned int b, struct vmboot *vb,
		       struct bv_wait *w)
{
	struct vmboot_stat *bt = &c->boot[b];
	char append[VM_APPEND_MAX + 32];
	struct vm_config vm;
	enum vmboot_end end;

	*vb = (struct vmboot) {
		.vm = bv_boot_vm(bv, c, b, &vm, append, sizeof(append)), .image = c->k->image,
		.initrd = c->k->initrd, .work = bv->work,
		.nr_cmds = bv->nr_c, .timeout_ms = (unsigned long)bv->timeout * 1000,
		.retries = (unsigned int)bv->retries, .console = c->k->console.f,
		.name = c->label, .boot = b + 1, .wait = bv_wait, .retry = bv_retry, .priv = w,
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
	switch (end) {
	case VMBOOT_DONE:
		return 0;
	case VMBOOT_STOPPED:
		return 128 + bv->signo;
	case VMBOOT_GAVE_UP:
		return bench_refused("%s boot %u failed %u times (see %s)", c->label, b + 1,
				     bt->tries, c->k->console_path);
	default:
		return bench_refused("%s boot %u: %s", c->label, b + 1, vb->why);
	}
}

/*
 * a boot the rule calls disturbed (lib/report/busy.h), said on stderr and
 * in the console file; @again: it is booted again, else kept, marked
 */
static void bv_disturbed(const struct bv_cell *c, unsigned int b, bool again)
{
	const struct vmboot_stat *bt = &c->boot[b];
	char why[256];

	snprintf(why, sizeof(why), "disturbed: psi cpu some %.1f%% of its %.1f s (limit %g%%), qemu %.1f s of cpu (limit %g of the %.1f s)",
		 bt->psi_pct, bt->seconds, BUSY_PSI_PCT, bt->cpu_seconds, BUSY_QEMU_SHARE,
		 bt->seconds);
	pr_err("%s boot %u %s; %s", c->label, b + 1, why,
	       again ? "booting it again" :
	       "no quiet boot within --reboot-disturbed: kept, marked in vm_unquiet_boots");
	if (c->k->console.f)
		fprintf(c->k->console.f, "=== %s boot %u %s: %s\n", c->label, b + 1, why,
			again ? "booted again" : "kept (vm_unquiet_boots)");
}

/* is boot @b's try disturbed, and another one left? (false: keep it) */
static bool bv_reboot(struct bv_global *bv, struct bv_cell *c, unsigned int b)
{
	struct vmboot_stat *bt = &c->boot[b];
	bool again = bt->reboots < bv->reboot_disturbed;

	if (!bt->psi || !busy_boot_disturbed(bt->psi_pct, bt->cpu_seconds, bt->seconds))
		return false;
	bv_disturbed(c, b, again);
	if (!again || bv->signo) {
		bt->unquiet = true;
		return false;
	}
	bt->reboot_pct[bt->reboots++] = bt->psi_pct;
	return true;
}

/*
 * Boot @c once (and again after a hang or a crash, --retries times,
 * lib/kernel/vmboot.h; again when disturbed, --reboot-disturbed times),
 * keep its console and read its results back as run @b + 1. Returns 0,
 * 128 + signal when stopped, or an exit code after a message.
 */
int bv_boot(struct bv_global *bv, struct bv_cell *c, unsigned int b)
{
	struct vmboot_stat *bt = &c->boot[b];
	struct bv_wait w = { .bv = bv, .c = c, .b = b };
	struct vmboot vb;
	int ret;

	bt->reboots = 0;
	bt->unquiet = false;
	while (!(ret = bv_boot_try(bv, c, b, &vb, &w)) && bv_reboot(bv, c, b))
		vm_guest_free(&vb.guest);
	if (ret)
		return ret;
	bt->possible = vb.guest.possible;
	bt->online = vb.guest.online;
	ret = bv_boot_results(bv, c, b, &vb.guest);
	vm_guest_free(&vb.guest);
	if (!ret)
		c->nr_boots++;
	return ret;
}
