// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-vm-out.c - what bench vm writes: one CSV per kernel, count and
 * command, whose runs are the boots (the sweep's cells,
 * lib/kernel/vmsweep.h), with their metadata; the reports on stdout and
 * --also's; every kernel's console file; an sh command's files per boot;
 * and --dry-run's listing. It calls nothing of builtin-vm.c or
 * builtin-vm-boot.c, which call it.
 *
 * Every file, sharded or not, says what ran it: vm_accel,
 * vm_host_cpu_model and vm_host_name, the runner class of
 * lib/results/strata.h; and the plan it is part of (vmsweep_plan_meta()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "bench.h"
#include "builtin-vm.h"
#include "lib/results/counted.h"
#include "lib/results/csv.h"
#include "lib/report/format.h"
#include "lib/host/host.h"
#include "lib/results/meta.h"
#include "lib/results/results.h"
#include "lib/subcmd/spawn.h"

/* what bench vm keeps beside cell @c's kernel */
static const struct bv_kernel *bv_kernel_of(const struct bv_global *bv,
					    const struct vmsweep_cell *c)
{
	return &bv->k[c->k - bv->sw.k];
}

/* the runner: its accelerator, CPU model and name (lib/results/strata.h) */
static void bv_runner_meta(const struct bv_global *bv, struct meta *m)
{
	struct utsname u;
	char model[256];

	host_cpu_model(model, sizeof(model));
	meta_put(m, "vm_accel", "%s", vm_accels[bv->sw.accel]);
	meta_put(m, "vm_clock", "%s", vm_clocks[bv->sw.clock]);
	meta_put(m, "vm_host_cpu_model", "%s", model);
	meta_put(m, "vm_host_name", "%s", uname(&u) ? "unknown" : u.nodename);
}

/* the first boot's metadata, with the VM's and every boot's */
static void bv_meta(struct bv_global *bv, struct vmsweep_cell *c, unsigned int i)
{
	const struct bv_kernel *x = bv_kernel_of(bv, c);
	struct meta *m = &c->runs[i].all->meta;
	unsigned int j;

	runs_meta(&c->runs[i], bv->cmdline, bv->signo);
	/*
	 * possible_cpus as the guest counted it (every boot is checked to
	 * be the count asked): what bench scale puts on its x axis, whatever
	 * the guest command wrote
	 */
	meta_put(m, "possible_cpus", "%u", c->boot[0].possible);
	/*
	 * Under the counted clock the guest's ns, and its TSC's cycles, are
	 * instructions (vm.h, enum vm_clock): the unit says so, so that no
	 * report reads them as time on hardware and no command mixes them
	 * with timed files (lib/results/fileset.h, the unit rule)
	 */
	if (bv->sw.clock == VM_COUNTED)
		meta_put(m, "unit", "%s", COUNTED_UNIT);
	meta_put(m, "vm_name", "%s", c->k->name);
	meta_put(m, "vm_image", "%s", c->k->image);
	meta_put(m, "vm_release", "%s", c->k->release);
	meta_put(m, "vm_image_sha256", "%s", c->k->sha256);
	meta_put(m, "vm_module", "%s", c->k->ko[0] ? c->k->ko : "none");
	if (x->tuxmake) {
		meta_put(m, "vm_tuxmake", "%s", x->tuxmake);
		meta_put(m, "vm_tuxmake_reproducer", "%s",
			 x->tuxmake_cmd[0] ? x->tuxmake_cmd : "none");
	}
	meta_put(m, "vm_guest_command", "bench %s", bv->sw.c[i].what);
	meta_put(m, "vm_qemu", "%s", c->qemu_line);
	vmboot_meta(m, c->boot, c->nr_boots);
	/*
	 * The guests' testbed keys say what they ran in; this host's
	 * settings move a TCG guest's timings as much. The guests' build
	 * stays: it measured; the start and the labels are this command's.
	 */
	testbed_meta(&bv->tb, m, TB_VM_HOST);
	bv_runner_meta(bv, m);
	vmsweep_plan_meta(&bv->sw, c, m);
	meta_timestamp(m, bv->started);
	bench_meta_origin(m, &bv->who);
	for (j = 0; j < bv->nr_klabel; j++)
		if (!strcmp(bv->klabel[j].name, c->k->name))
			testbed_origin(m, bench_release, bench_git, &bv->klabel[j].l);
}

/* command @i on @c, merged over its boots, in format @fmt, under a title (none in JSON) */
static int bv_print(struct bv_global *bv, FILE *f, int fmt, const struct vmsweep_cell *c,
		    unsigned int i)
{
	const struct runs *r = &c->runs[i];

	if (fmt != FORMAT_CSV && !(formats[fmt].flags & REPORT_JSON))
		fprintf(f, "# %s: bench %s, %u boots of %s, %u possible CPUs, %u online, qemu %s, %s clock\n",
			c->label, bv->sw.c[i].what, r->n, c->k->release, c->vm.possible,
			c->vm.cpus, vm_accels[bv->sw.accel], vm_clocks[bv->sw.clock]);
	return format_write(f, (unsigned int)fmt, r->all);
}

/* cell @n's files: DIR/NAME[-CMD][-pN].csv, opened before anything boots */
static int bv_open_cell(struct bv_global *bv, unsigned int n)
{
	const struct vmsweep_cell *c = &bv->sw.cell[n];
	struct bv_files *fl = &bv->files[n];
	char base[3200], pn[16] = "";
	unsigned int i;
	int ret;

	if (bv->sw.nr_p > 1)
		snprintf(pn, sizeof(pn), "-p%u", c->vm.possible);
	/* a copy: GCC's -Wrestrict sees k->name inside *k */
	snprintf(base, sizeof(base), "%.3000s/%.63s", bv->outdir, c->k->name);
	for (i = 0; i < bv->sw.nr_c; i++) {
		if (vmsweep_is_sh(&bv->sw, i))
			continue;	/* its files go to DIR/NAME[-pN]-sh/ */
		if (bv->sw.nr_c == 1)
			snprintf(fl->path[i], sizeof(fl->path[i]), "%s%s.csv", base, pn);
		else
			snprintf(fl->path[i], sizeof(fl->path[i]), "%s-%.16s%s.csv", base,
				 bv->sw.c[i].argv[0], pn);
		ret = outfile_open(&fl->out[i], fl->path[i]);
		if (ret) {
			bench_err("-o %s: %s: %s", bv->outdir, fl->path[i], strerror(-ret));
			return EXIT_USAGE;
		}
	}
	return 0;
}

int bv_open_outputs(struct bv_global *bv)
{
	unsigned int i;
	int ret = 0;

	if (mkdir(bv->outdir, 0755) && errno != EEXIST) {
		bench_err("-o %s: %s", bv->outdir, strerror(errno));
		return EXIT_USAGE;
	}
	bv->files = calloc(bv->sw.nr_cells, sizeof(*bv->files));
	if (!bv->files)
		return bench_nomem();
	for (i = 0; i < bv->sw.nr_cells && !ret; i++)
		ret = bv_open_cell(bv, i);
	for (i = 0; i < bv->sw.nr_k && !ret; i++) {
		struct bv_kernel *x = &bv->k[i];
		char path[sizeof(x->console_path)];

		/* through a local: gcc -O1 cannot tell name from console_path */
		snprintf(path, sizeof(path), "%.3000s/%.63s.console",
			 bv->outdir, bv->sw.k[i].name);
		memcpy(x->console_path, path, sizeof(path));
		ret = outfile_open(&x->console, x->console_path);
		if (ret) {
			bench_err("-o %s: %s: %s", bv->outdir, x->console_path, strerror(-ret));
			return EXIT_USAGE;
		}
		bv->sw.k[i].console = x->console.f;
		bv->sw.k[i].console_path = x->console_path;
	}
	return ret ?: bench_open_also(&bv->also);
}

int bv_report(struct bv_global *bv)
{
	unsigned int n, i, a;
	int ret = 0, err;

	for (n = 0; n < bv->sw.nr_cells; n++)
		for (i = 0; i < bv->sw.nr_c; i++) {
			struct vmsweep_cell *c = &bv->sw.cell[n];
			struct outfile *out = &bv->files[n].out[i];

			if (!c->runs[i].n)
				continue;
			bv_meta(bv, c, i);
			err = csv_write(out->f, c->runs[i].all) ?: outfile_commit(out);
			if (err)
				ret = bench_refused("writing %s: %s", bv->files[n].path[i],
						    strerror(-err));
			else if ((err = bvw_write(bv, n, i, bv->files[n].path[i],
						  &c->runs[i].all->meta)))
				ret = err;
			else if ((err = bv_print(bv, stdout, bv->format, c, i)))
				ret = bench_stdout_failed(err);
			for (a = 0; a < bv->also.n && !ret; a++)
				if (bv_print(bv, bv->also.a[a].o.f, bv->also.a[a].fmt, c, i))
					ret = bench_refused("--also %s: %s", bv->also.a[a].path,
							    strerror(EIO));
		}
	return ret ?: bench_commit_also(&bv->also);
}

/* every kernel's consoles, whatever happened: what a failed boot said */
int bv_keep_consoles(struct bv_global *bv)
{
	struct bv_kernel *x;
	int ret = 0, err;

	for (x = bv->k; x < bv->k + bv->sw.nr_k; x++) {
		if (!x->console.f)
			continue;
		err = outfile_commit(&x->console);
		if (err)
			ret = bench_refused("writing %s: %s", x->console_path, strerror(-err));
	}
	return ret;
}

void bv_abort(struct bv_global *bv)
{
	unsigned int n, i;

	for (n = 0; bv->files && n < bv->sw.nr_cells; n++)
		for (i = 0; i < bv->sw.nr_c; i++)
			outfile_abort(&bv->files[n].out[i]);
	for (n = 0; n < bv->sw.nr_k; n++)
		outfile_abort(&bv->k[n].console);
	outset_abort(&bv->also);
}

/* ---- an sh command's files ---- */

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

/*
 * the same under the counted clock: a kstats-bench CSV the guest wrote
 * (its first line "# kstats-bench-csv") measured instructions, whatever
 * its unit line says, so that line says so and vm_clock follows the
 * first (vm.h, enum vm_clock); any other file is copied as it is
 */
static int bv_copy_counted(FILE *f, const char *path)
{
	FILE *o = fopen(path, "we");
	bool csv = false, head = true;
	char *line = NULL;
	size_t cap = 0;
	unsigned int i;
	ssize_t n;
	int ret = 0;

	if (!o)
		return -errno;
	for (i = 0; (n = getline(&line, &cap, f)) > 0; i++) {
		if (!i)
			csv = !strncmp(line, "# kstats-bench-csv", 18);
		head = head && line[0] == '#';
		if (csv && head && !strncmp(line, "# unit: ", 8))
			fprintf(o, "# unit: %s\n", COUNTED_UNIT);
		else
			fwrite(line, 1, (size_t)n, o);
		if (csv && !i)
			fprintf(o, "# vm_clock: %s\n", vm_clocks[VM_COUNTED]);
	}
	free(line);
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
static int bv_keep_meta(const struct bv_global *bv, const struct vmsweep_cell *c,
			unsigned int b, const char *path)
{
	struct meta *m = calloc(1, sizeof(*m));
	struct outfile o;
	unsigned int k;
	int ret;

	if (!m)
		return -ENOMEM;
	meta_put(m, "vm_name", "%s", c->k->name);
	meta_put(m, "vm_clock", "%s", vm_clocks[bv->sw.clock]);
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
int bv_keep_files(struct bv_global *bv, const struct vmsweep_cell *c, unsigned int b,
		  unsigned int i, const struct vm_guest *g, char *why, size_t len)
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
		if (bv->sw.clock == VM_COUNTED)
			ret = bv_copy_counted(fl->f, path);
		else
			ret = bv_copy_out(fl->f, path);
	}
	if (!ret) {
		snprintf(path, sizeof(path), "%s/boot%u.meta", dir, b + 1);
		ret = bv_keep_meta(bv, c, b, path);
	}
	if (ret) {
		snprintf(why, len, "%s boot %u: sh %s's files: %s: %s", c->label, b + 1,
			 bv->sw.c[i].argv[1], path, strerror(-ret));
		return ret;
	}
	if (g->bad_files)
		pr_err("%s boot %u: %u files of sh %s dropped (a name not [A-Za-z0-9._+-], or more than %d)",
		       c->label, b + 1, g->bad_files, bv->sw.c[i].argv[1], VM_MAX_FILES);
	return 0;
}

/* ---- --dry-run ---- */

/* --dry-run --shard I/N: the plan's key and the shard's boots, in order */
static void bv_dry_plan(struct bv_global *bv)
{
	const struct vmsweep *sw = &bv->sw;
	unsigned int p, r, n;

	if (!sw->shard_n)
		return;
	printf("# plan %s: shard %u/%u, boots %u-%u of %u\n", sw->plan_key, sw->shard_i,
	       sw->shard_n, sw->plan_first + 1, sw->plan_end, vmsweep_plan_total(sw));
	for (p = sw->plan_first; p < sw->plan_end; p++) {
		n = vmsweep_plan_cell(sw, p, &r);
		printf("# boot %u: round %u, %s\n", p + 1, r + 1, sw->cell[n].label);
	}
}

/* what kernel @i's initramfs holds */
static void bv_dry_initramfs(struct bv_global *bv, unsigned int i)
{
	const struct vmsweep_kernel *k = &bv->sw.k[i];
	const struct bv_kernel *x = &bv->k[i];
	const struct vmsweep *sw = &bv->sw;
	unsigned int j;

	printf("# %s: %s (sha256 %s), initramfs %s:\n", k->name, k->image, k->sha256, k->initrd);
	printf("/init\t\t\t%u commands, below\n/bin/busybox\t\t%s\n/bench\t\t\t%s\n",
	       sw->nr_c, bv->busybox, bv->bench_path);
	if (k->ko[0] || x->ko_tree)
		printf("/kmod/kstats_bench.ko\t%s%s\n", x->ko_tree ? "built from kmod/ against " : "",
		       x->ko_tree ? x->ko_tree : k->ko);
	for (j = 0; j < sw->nr_c; j++)
		if (vmsweep_is_sh(sw, j))
			printf("/sh/%u.sh\t\t%s\n", j + 1, sw->c[j].argv[1]);
	for (j = 0; j < sw->nr_file; j++)
		printf("/%s\t%s%s\n", sw->file[j].dst, strlen(sw->file[j].dst) < 15 ? "\t" : "",
		       sw->file[j].src);
	if (x->tuxmake)
		printf("# %s: tuxmake %s: %s\n", k->name, x->tuxmake,
		       x->tuxmake_cmd[0] ? x->tuxmake_cmd : "(no reproducer_cmdline)");
}

/*
 * --dry-run: each boot's qemu line, each initramfs's files and the /init
 * every guest runs, on stdout; nothing boots, no file is written
 */
int bv_dry_run(struct bv_global *bv)
{
	char *const *cmds[VM_MAX_CMDS], line[4096];
	struct vmsweep *sw = &bv->sw;
	struct vmsweep_kernel *k;
	struct vmsweep_cell *c;
	struct vm_argv a;
	unsigned int i;
	int ret;

	for (k = sw->k; k < sw->k + sw->nr_k; k++)
		snprintf(k->initrd, sizeof(k->initrd), "WORK/%.63s.cpio", k->name);
	for (c = sw->cell; c < sw->cell + sw->nr_cells; c++) {
		vm_qemu_argv(&a, &c->vm, c->k->image, c->k->initrd, "WORK/console", "WORK/data");
		spawn_sh_line(line, sizeof(line), (int)a.n, a.argv);
		printf("# %s: %lu boots of %s, %u possible CPUs\n%s\n", c->label,
		       (unsigned long)sw->boots, c->k->release, c->vm.possible, line);
	}
	for (i = 0; i < sw->nr_k; i++)
		bv_dry_initramfs(bv, i);
	bvp_dry_run(bv);
	bv_dry_plan(bv);
	for (i = 0; i < sw->nr_c; i++)
		cmds[i] = sw->c[i].argv;
	printf("# /init\n");
	ret = vm_write_init(stdout, cmds, sw->nr_c);
	if (ret == -ENOSPC)
		return bench_refused("/init: a command is over 8 KiB as a shell line");
	return ret ? bench_stdout_failed(ret) : 0;
}
