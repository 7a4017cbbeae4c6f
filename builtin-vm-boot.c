// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-vm-boot.c - bench vm's checks before anything boots (through
 * lib/kernel/vmprep.h), the guests' initramfs, and the sweep's boots
 * (lib/kernel/vmsweep.h) as bench vm says them: qemu waited for with
 * bench_wait() (SIGINT/SIGTERM, the progress line), each boot, retry and
 * disturbed boot a line on stderr, an sh command's files kept
 * (builtin-vm-out.c); and the teardown a second signal needs. It calls
 * nothing of builtin-vm.c, which calls it. The options and the driver
 * are builtin-vm.c's.
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
#include "lib/kernel/kmod.h"
#include "lib/subcmd/spawn.h"

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

/* does any command need the module? */
static bool bv_needs_module(struct bv_global *bv)
{
	unsigned int i;

	for (i = 0; i < bv->sw.nr_c; i++)
		if (!strcmp(bv->sw.c[i].argv[0], "kernel"))
			return true;
	return false;
}

/* an sh script may load it: it gets the module where one is given or built */
static bool bv_offers_module(struct bv_global *bv, const struct bv_kernel *x)
{
	unsigned int i;

	for (i = 0; i < bv->sw.nr_c; i++)
		if (vmsweep_is_sh(&bv->sw, i))
			return x->tree || bv->module || bv->kbuild;
	return false;
}

/* a module file built for @k's release */
static int bv_check_ko(struct vmsweep_kernel *k, const char *ko, const char *opt)
{
	char why[2 * PATH_MAX];
	int ret = vmprep_ko(ko, opt, k->name, k->release, why, sizeof(why));

	if (!ret)
		snprintf(k->ko, sizeof(k->ko), "%s", ko);
	return bv_said(ret, why);
}

/* the module built against @tree in the work directory, for @k */
static int bv_build_kmod(struct bv_global *bv, struct vmsweep_kernel *k, const char *tree,
			 const char *opt)
{
	char rel[KIMAGE_RELEASE_MAX], src[PATH_MAX], dir[PATH_MAX], ko[PATH_MAX + 32];
	char why[3 * PATH_MAX];
	int ret;

	if (kimage_tree_release(tree, rel, sizeof(rel))) {
		bench_err("%s%s is not a configured kernel tree (no include/config/kernel.release: make olddefconfig prepare)",
			  opt, tree);
		return EXIT_USAGE;
	}
	if (kmod_src_dir(src, sizeof(src)))
		return bench_refused("%s", KMOD_NO_SRC);
	snprintf(dir, sizeof(dir), "%.3000s/kmod-%.63s", bv->work, k->name);
	if (!bv->quiet)
		pr_err("%s: building kstats_bench.ko against %s",
		       k->name, tree);
	ret = kmod_build(tree, dir, STDERR_FILENO);
	if (ret) {
		kmod_build_why(why, sizeof(why), ret, tree, dir);
		return bench_refused("%s: %s", k->name, why);
	}
	snprintf(ko, sizeof(ko), "%s/kstats_bench.ko", dir);
	return bv_check_ko(k, ko, opt);
}

/* kernel @i's module, when a command needs one: given, built, or the first one's */
static int bv_check_module(struct bv_global *bv, unsigned int i)
{
	struct vmsweep_kernel *k = &bv->sw.k[i];
	struct bv_kernel *x = &bv->k[i];

	if (bv->dry_run && (x->tree || (bv->kbuild && !bv->module)))
		x->ko_tree = x->tree ? x->tree : bv->kbuild;	/* built at a boot */
	else if (x->tree)
		return bv_build_kmod(bv, k, x->tree, "");
	else if (bv->module)
		return bv_check_ko(k, bv->module, "--module ");
	else if (bv->kbuild && i > 0 && bv->sw.k[0].ko[0] && !bv->k[0].tree)
		return bv_check_ko(k, bv->sw.k[0].ko, "--kbuild ");	/* built once */
	else if (bv->kbuild)
		return bv_build_kmod(bv, k, bv->kbuild, "--kbuild ");
	else {
		bench_err("%s: bench kernel needs the module: give the kernel's build tree, --kbuild DIR or --module KO",
			  k->name);
		return EXIT_USAGE;
	}
	return 0;
}

/* every kernel: its image, its module when a command needs one */
int bv_check_kernels(struct bv_global *bv)
{
	char why[2 * PATH_MAX];
	struct vmsweep_kernel *k;
	unsigned int i;
	int ret = 0;

	for (i = 0; !ret && i < bv->sw.nr_k; i++) {
		k = &bv->sw.k[i];
		ret = bv_said(vmprep_image(k->name, bv->k[i].tree, k->image, k->release,
					   sizeof(k->release), why, sizeof(why)), why);
		if (!ret && (ret = sha256_file(k->image, k->sha256)))
			ret = bench_refused("%s: %s: %s", k->name, k->image, strerror(-ret));
		if (!ret && (bv_needs_module(bv) || bv_offers_module(bv, &bv->k[i])))
			ret = bv_check_module(bv, i);
	}
	return ret;
}

/* ---- the guest ---- */

/* the sweep's cells, every machine checked; /dev/kvm where it is asked for */
int bv_check_config(struct bv_global *bv)
{
	char why[256];
	int ret = vmsweep_cells(&bv->sw, why, sizeof(why));

	if (ret == -EINVAL) {
		bench_err("%s", why);
		return EXIT_USAGE;
	}
	if (ret)
		return bench_refused("%s", strerror(-ret));
	if (bv->sw.accel == VM_KVM && access("/dev/kvm", R_OK | W_OK))
		return bench_refused("--accel kvm: /dev/kvm: %s", strerror(errno));
	return 0;
}

/* kernel @i's initramfs: busybox, bench, the module, /init for the commands */
int bv_initramfs(struct bv_global *bv, unsigned int i)
{
	struct vmsweep_kernel *k = &bv->sw.k[i];
	char *const *cmds[VM_MAX_CMDS], path[PATH_MAX];
	unsigned int j;
	int ret;

	for (j = 0; j < bv->sw.nr_c; j++)
		cmds[j] = bv->sw.c[j].argv;
	/* through a copy: GCC's -Wrestrict sees k->name inside *bv */
	snprintf(path, sizeof(path), "%.3000s/%.63s.cpio", bv->work, k->name);
	snprintf(k->initrd, sizeof(k->initrd), "%s", path);
	ret = vm_initramfs(k->initrd, cmds, bv->sw.nr_c, bv->busybox, bv->bench_path,
			   k->ko[0] ? k->ko : NULL, bv->sw.extra, bv->sw.nr_file);
	if (ret)
		return bench_refused("%s: writing its initramfs %s: %s", k->name, k->initrd,
				  strerror(-ret));
	return 0;
}

/* remove the work directory and what it holds (kmod-NAME/ too), no rm forked */
void bv_cleanup(struct bv_global *bv)
{
	if (bv->work[0])
		spawn_remove_tree(bv->work);
}

/* ---- the boots, as the sweep calls back ---- */

/* one boot being waited for, for bench_wait()'s callbacks */
struct bv_wait {
	struct bv_global *bv;		/* the command's state */
	struct spawn *s;		/* qemu */
	const char *label;		/* what it boots: a cell's label */
	unsigned int b;			/* which boot, 0.. */
	unsigned long of;		/* of how many */
	bool stopped;			/* a SIGINT/SIGTERM killed it */
};

static int bv_qemu_poll(void *priv)
{
	struct bv_wait *w = priv;

	return spawn_poll(w->s, (unsigned long)w->bv->sw.timeout * 1000);
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
	bv_abort(w->bv);
	bv_cleanup(w->bv);
}

static void bv_qemu_progress(void *priv)
{
	const struct bv_wait *w = priv;

	fprintf(stderr, "%s boot %u/%lu: %.0f s ", w->label, w->b + 1, w->of,
		spawn_now() - w->s->t0);
}

/*
 * qemu booting @label's boot @b of @of, at most --timeout seconds; the
 * first SIGINT or SIGTERM kills it and is kept in bv->signo. 0, 1 when
 * stopped, -errno.
 */
static int bv_wait_qemu(struct bv_global *bv, struct spawn *s, const char *label,
			unsigned int b, unsigned long of)
{
	struct bv_wait w = { .bv = bv, .s = s, .label = label, .b = b, .of = of };
	struct bench_wait bw = {
		.poll = bv_qemu_poll, .stop = bv_qemu_stop, .leave = bv_qemu_leave,
		.progress = bv_qemu_progress, .priv = &w, .tick_ms = 200, .wake = SIGCHLD,
		.quiet = bv->quiet, .signo = &bv->signo,
	};
	int ret = bench_wait(&bw);

	return ret ? ret : w.stopped;
}

/* the sweep's wait: a cell's boot */
static int bv_wait(void *priv, struct spawn *s, const struct vmsweep_cell *c, unsigned int b)
{
	struct bv_global *bv = priv;

	return bv_wait_qemu(bv, s, c->label, b, (unsigned long)bv->sw.boots);
}

/* a try that hung or crashed, said */
static void bv_retry(void *priv, const struct vmsweep_cell *c, unsigned int b, const char *why,
		     bool again)
{
	(void)priv;
	pr_err("%s boot %u %s%s", c->label, b + 1, why, again ? "; booting it again" : "");
}

/* a boot the rule calls disturbed (lib/results/busy.h), said */
static void bv_disturbed(void *priv, const struct vmsweep_cell *c, unsigned int b,
			 const char *why, bool again)
{
	(void)priv;
	pr_err("%s boot %u %s; %s", c->label, b + 1, why,
	       again ? "booting it again" :
	       "no quiet boot within --reboot-disturbed: kept, marked in vm_unquiet_boots");
}

static void bv_booted(void *priv, const struct vmsweep_cell *c, unsigned int b)
{
	const struct bv_global *bv = priv;
	unsigned int n = (unsigned int)(c - bv->sw.cell);

	if (!bv->quiet)
		pr_err("%s boot %u/%u: %.1f s, %u possible CPUs, %u online%s",
		       c->label, b + 1, vmsweep_cell_boots(&bv->sw, n), c->boot[b].seconds,
		       c->boot[b].possible, c->boot[b].online,
		       c->boot[b].tries > 1 ? " (booted again)" : "");
}

static int bv_files(void *priv, const struct vmsweep_cell *c, unsigned int b, unsigned int i,
		    const struct vm_guest *g, char *why, size_t len)
{
	return bv_keep_files(priv, c, b, i, g, why, len);
}

/* ---- --plugin-syms auto: a kernel's symbols, one boot ---- */

/* the symbols' boot being waited for */
struct bv_syms_wait {
	struct bv_global *bv;		/* the command's state */
	char label[VMPREP_NAME_MAX + 16]; /* "NAME symbols" */
};

static int bv_syms_wait(struct spawn *s, void *priv)
{
	struct bv_syms_wait *sw = priv;

	return bv_wait_qemu(sw->bv, s, sw->label, 0, 1);
}

/* kernel @i's symbols' boot in @work, its script's file kept; 0 or an exit code */
static int bv_syms_run(struct bv_global *bv, unsigned int i, const char *work,
		       const char *initrd)
{
	struct vmsweep_kernel *k = &bv->sw.k[i];
	struct bv_syms_wait sw = { .bv = bv };
	struct vm_config vm = bv->sw.cell[i * bv->sw.nr_p].vm;
	struct vmboot b;
	enum vmboot_end end;
	unsigned int j;
	int ret;

	snprintf(sw.label, sizeof(sw.label), "%s symbols", k->name);
	vm.possible = vm.cpus;
	vm.nodes = 1;
	vm.plugin = NULL;
	b = (struct vmboot){
		.vm = &vm, .image = k->image, .initrd = initrd, .work = work, .nr_cmds = 1,
		.timeout_ms = (unsigned long)bv->sw.timeout * 1000,
		.retries = (unsigned int)bv->sw.retries, .console = k->console,
		.name = sw.label, .boot = 1, .wait = bv_syms_wait, .priv = &sw,
	};
	end = vmboot_run(&b);
	if (end == VMBOOT_STOPPED)
		return 128 + bv->signo;
	if (end != VMBOOT_DONE)
		return bench_refused("%s: --plugin-syms auto: its boot failed: %s", k->name,
				     b.why[0] ? b.why : "see its console");
	for (j = 0; j < b.guest.nr_files && strcmp(b.guest.file[j].name, "kallsyms"); j++)
		;
	if (b.guest.rc[0] || j == b.guest.nr_files)
		ret = bench_refused("%s: --plugin-syms auto: reading /proc/kallsyms exited %d: %s",
				    k->name, b.guest.rc[0],
				    b.guest.err[0][0] ? b.guest.err[0] : "(no message)");
	else
		ret = bvp_syms_keep(bv, i, b.guest.file[j].f);
	vm_guest_free(&b.guest);
	return ret;
}

int bv_boot_syms(struct bv_global *bv, unsigned int i)
{
	struct vmsweep_kernel *k = &bv->sw.k[i];
	char script[PATH_MAX], work[PATH_MAX], initrd[PATH_MAX + 16];
	char *cmd[] = { (char *)"sh", script, NULL };
	char *const *cmds[1] = { cmd };
	int ret;

	if (!bv->k[i].syms_boot)
		return 0;
	if (!bv->quiet)
		pr_err("%s: reading its functions for --plugin-syms auto: one boot with nokaslr, kept as %s",
		       k->name, bv->k[i].syms);
	snprintf(work, sizeof(work), "%.3000s/syms-%.63s", bv->work, k->name);
	snprintf(initrd, sizeof(initrd), "%s/syms.cpio", work);
	ret = bvp_syms_script(bv, script, sizeof(script));
	if (!ret && mkdir(work, 0755) && errno != EEXIST)
		ret = -errno;
	ret = ret ?: vm_initramfs(initrd, cmds, 1, bv->busybox, bv->bench_path,
				  k->ko[0] ? k->ko : NULL, NULL, 0);
	if (ret)
		return bench_refused("%s: --plugin-syms auto: its boot's files in %s: %s", k->name,
				     work, strerror(-ret));
	return bv_syms_run(bv, i, work, initrd);
}

int bv_measure(struct bv_global *bv)
{
	const struct vmsweep_ops ops = {
		.wait = bv_wait, .retry = bv_retry, .disturbed = bv_disturbed,
		.booted = bv_booted, .files = bv_files, .plugin = bvw_absorb, .priv = bv,
		.signo = &bv->signo,
	};
	char why[2 * PATH_MAX];
	int ret;

	bv->sw.work = bv->work;
	ret = vmsweep_run(&bv->sw, &ops, why, sizeof(why));
	if (ret == -EINTR)
		return 128 + bv->signo;
	if (ret == -EINVAL) {
		pr_err("%s", why);
		return EXIT_USAGE;
	}
	return ret ? bench_refused("%s", why) : 0;
}
