// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-vm-plugin.c - bench vm --plugin: the project's QEMU plugin
 * (plugin/ksbplugin.c, docs/plugin.md) in every boot, on the counted
 * clock. Its options and the rules between them; where the plugin is;
 * each kernel's symbols (a file given, or its kallsyms read in one
 * nokaslr boot and kept by the image's digest), each kernel's -plugin
 * argument, the plan's settings (its key, its files of a cell).
 * builtin-vm-windows.c names each boot's windows and writes the plugin's
 * figures beside each command's CSV. It calls nothing of the other
 * bench vm files.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "builtin-vm.h"
#include "lib/subcmd/readfile.h"
#include "lib/subcmd/spawn.h"

const char *const bvp_modes[] = { "insns", "cache", NULL };

#define BVP_MODE_CACHE	1		/* bvp_modes[]'s "cache" */
#define BVP_LLC_LAT	100		/* cycles an L1d miss that hits the LLC costs */
#define BVP_MEM_LAT	350		/* cycles an LLC miss costs */
#define BVP_SO		"build/plugin/ksbplugin.so"	/* beside bench, as make plugin builds it */
#define BVP_HEADER	"build/plugin/include/qemu-plugin.h"

/* ---- options ---- */

void bvp_defaults(struct bv_plugin *p)
{
	memset(p, 0, sizeof(*p));
	p->mode = -1;
	pconf_defaults(&p->conf);
	p->lat = (struct vmplug_lat){ .llc = BVP_LLC_LAT, .mem = BVP_MEM_LAT };
}

/* llc_lat=, mem_lat=: cycles, a finite number >= 0; 0, -ENOENT, -EINVAL */
static int bvp_lat(struct bv_plugin *p, const char *key, const char *val)
{
	double *v = !strcmp(key, "llc_lat") ? &p->lat.llc : !strcmp(key, "mem_lat") ? &p->lat.mem :
		    NULL;
	char *end;

	if (!v)
		return -ENOENT;
	errno = 0;
	*v = strtod(val, &end);
	if (errno || end == val || *end || !isfinite(*v) || *v < 0)
		return -EINVAL;
	p->lat_given = true;
	return 0;
}

/* a model key, kept in ",KEY=VALUE" for the plugin's argument */
static int bvp_model_key(struct bv_plugin *p, const char *key, const char *val, char *why,
			 size_t len)
{
	size_t used = strlen(p->opts);
	int ret = pconf_set(&p->conf, key, val, why, len);

	if (ret == -EINVAL)
		return ret;
	if (ret == -ENOENT) {
		snprintf(why, len, "--plugin-opt %s: not a key (l1d_size, l1d_ways, llc_size, llc_ways, line, cold, llc_lat, mem_lat)",
			 key);
		return -EINVAL;
	}
	if ((size_t)snprintf(p->opts + used, sizeof(p->opts) - used, ",%s=%s", key, val) >=
	    sizeof(p->opts) - used) {
		p->opts[used] = 0;
		snprintf(why, len, "--plugin-opt: more than %zu bytes of options", sizeof(p->opts));
		return -EINVAL;
	}
	p->model_given = true;
	return 0;
}

int bvp_opt(const struct opt *o, const char *arg, char *why, size_t len)
{
	struct bv_plugin *p = o->value;
	const char *eq = strchr(arg, '=');
	char key[32];
	int ret;

	p->given = true;
	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(key)) {
		snprintf(why, len, "--plugin-opt '%s': not KEY=VALUE", arg);
		return -EINVAL;
	}
	snprintf(key, sizeof(key), "%.*s", (int)(eq - arg), arg);
	if (!strcmp(key, "cache") || !strcmp(key, "out") || !strcmp(key, "funcs") ||
	    !strcmp(key, "syms")) {
		snprintf(why, len, "--plugin-opt %s: bench vm sets it (%s)", key,
			 !strcmp(key, "cache") ? "--plugin insns or --plugin cache" :
			 !strcmp(key, "syms") ? "--plugin-syms" : "beside each boot's results");
		return -EINVAL;
	}
	ret = bvp_lat(p, key, eq + 1);
	if (ret == -EINVAL)
		snprintf(why, len, "--plugin-opt %s: '%s' is not a number of cycles >= 0", key,
			 eq + 1);
	if (ret != -ENOENT)
		return ret;
	ret = bvp_model_key(p, key, eq + 1, why, len);
	if (ret && strncmp(why, "--plugin-opt", 12)) {
		char w[256];

		snprintf(w, sizeof(w), "%s", why);
		snprintf(why, len, "--plugin-opt %s", w);
	}
	return ret;
}

int bvp_opt_syms(const struct opt *o, const char *arg, char *why, size_t len)
{
	struct bv_plugin *p = o->value;
	const char *eq = strchr(arg, '=');

	p->given = true;
	if (!strcmp(arg, "auto") || !strcmp(arg, "none")) {
		p->syms = !strcmp(arg, "auto") ? BVP_SYMS_AUTO : BVP_SYMS_NONE;
		return 0;
	}
	if (p->nr_sf == VMSWEEP_MAX_KERNELS + 1) {
		snprintf(why, len, "--plugin-syms: at most %d files", VMSWEEP_MAX_KERNELS + 1);
		return -EINVAL;
	}
	if (eq && (eq == arg || eq - arg > VMPREP_NAME_MAX)) {
		snprintf(why, len, "--plugin-syms '%s': NAME=FILE takes a NAME of 1-%d bytes",
			 arg, VMPREP_NAME_MAX);
		return -EINVAL;
	}
	snprintf(p->sf[p->nr_sf].name, sizeof(p->sf[0].name), "%.*s",
		 eq ? (int)(eq - arg) : 0, arg);
	p->sf[p->nr_sf++].file = eq ? eq + 1 : arg;
	return 0;
}

/* ---- the rules between them, once the kernels are known ---- */

/*
 * each --plugin-syms NAME=FILE to kernel NAME, then a FILE without a
 * name to every other kernel; 0, or EXIT_USAGE said
 */
static int bvp_match_syms(struct bv_global *bv)
{
	struct bv_plugin *p = &bv->plug;
	unsigned int i, k;

	for (i = 0; i < p->nr_sf; i++) {
		if (!p->sf[i].name[0])
			continue;
		for (k = 0; k < bv->sw.nr_k && strcmp(p->sf[i].name, bv->sw.k[k].name); k++)
			;
		if (k == bv->sw.nr_k) {
			bench_err("--plugin-syms %s=%s: no kernel is called %s (NAME=KERNEL names one)",
				  p->sf[i].name, p->sf[i].file, p->sf[i].name);
			return EXIT_USAGE;
		}
		bv->k[k].syms_given = p->sf[i].file;
	}
	for (i = 0; i < p->nr_sf; i++)
		for (k = 0; !p->sf[i].name[0] && k < bv->sw.nr_k; k++)
			if (!bv->k[k].syms_given)
				bv->k[k].syms_given = p->sf[i].file;
	return 0;
}

/* does kernel @i boot with symbols? */
static bool bvp_has_syms(const struct bv_global *bv, unsigned int i)
{
	return bv->k[i].syms_given || bv->plug.syms == BVP_SYMS_AUTO;
}

/*
 * with symbols, every boot's kernel without KASLR, so that a function
 * is at its address in the symbols: nokaslr after --append's words
 */
static int bvp_nokaslr(struct bv_global *bv)
{
	const char *a = bv->sw.append;
	unsigned int i;

	for (i = 0; i < bv->sw.nr_k && !bvp_has_syms(bv, i); i++)
		;
	if (i == bv->sw.nr_k || (a && strstr(a, "nokaslr")))
		return 0;
	if ((size_t)snprintf(bv->plug.append, sizeof(bv->plug.append), "%s%snokaslr", a ? a : "",
			     a ? " " : "") >= sizeof(bv->plug.append)) {
		bench_err("--append: no room for nokaslr, which --plugin's symbols need");
		return EXIT_USAGE;
	}
	bv->sw.append = bv->plug.append;
	return 0;
}

int bvp_resolve(struct bv_global *bv)
{
	struct bv_plugin *p = &bv->plug;
	char why[256];
	unsigned int i;

	if (p->mode < 0) {
		if (p->given)
			bench_err("--plugin-opt and --plugin-syms set up --plugin: give --plugin insns or --plugin cache");
		return p->given ? EXIT_USAGE : 0;
	}
	if (bv->sw.clock != VM_COUNTED) {
		bench_err("--plugin under --clock timed: the plugin counts exactly only where the guest's clock counts its instructions, and a timed file cannot hold its counts (--clock counted, qemu TCG)");
		return EXIT_USAGE;
	}
	p->conf.cache = p->mode == BVP_MODE_CACHE;
	if (!p->conf.cache && (p->model_given || p->lat_given)) {
		bench_err("--plugin-opt: the cache model's keys under --plugin insns, which runs no cache model (--plugin cache)");
		return EXIT_USAGE;
	}
	if (pconf_check(&p->conf, why, sizeof(why))) {
		bench_err("--plugin-opt: %s", why);
		return EXIT_USAGE;
	}
	for (i = 0; i < bv->sw.nr_k; i++)
		bv->sw.k[i].plugin = bv->k[i].plugin_arg;
	return bvp_match_syms(bv) ?: bvp_nokaslr(bv);
}

/* ---- the setup, before anything boots ---- */

/* $KSB_PLUGIN, else BVP_SO beside bench; 0, or EXIT_ENV naming the fix */
static int bvp_find(struct bv_plugin *p)
{
	const char *env = getenv("KSB_PLUGIN");
	char dir[PATH_MAX], hdr[PATH_MAX + 64];

	if (env && *env)
		snprintf(p->so, sizeof(p->so), "%s", env);
	else if (spawn_exe_dir(dir, sizeof(dir)))
		snprintf(p->so, sizeof(p->so), "%s", BVP_SO);
	else
		snprintf(p->so, sizeof(p->so), "%.3000s/" BVP_SO, dir);
	if (!access(p->so, R_OK))
		return 0;
	snprintf(hdr, sizeof(hdr), "%.3000s/" BVP_HEADER, dir);
	return bench_refused("--plugin: no plugin at %s (%s): build it with make plugin, which first fetches qemu-plugin.h of the installed qemu from Debian's source package%s",
			     p->so, strerror(errno),
			     env && *env ? "; or set KSB_PLUGIN to a built ksbplugin.so" :
			     access(hdr, R_OK) ? " (make plugin-deps: none here yet)" : "");
}

/* where auto keeps the symbols: $XDG_CACHE_HOME or ~/.cache, kstats-bench/kallsyms */
static void bvp_cache_dir(struct bv_global *bv)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (xdg && *xdg)
		snprintf(bv->plug.cache, sizeof(bv->plug.cache), "%.3000s/kstats-bench/kallsyms", xdg);
	else if (home && *home)
		snprintf(bv->plug.cache, sizeof(bv->plug.cache), "%.3000s/.cache/kstats-bench/kallsyms",
			 home);
	else	/* kept for this run alone */
		snprintf(bv->plug.cache, sizeof(bv->plug.cache), "%.3000s/kallsyms", bv->work);
}

/* @path and its parents made; 0 or -errno */
static int bvp_mkdirs(const char *path)
{
	char buf[PATH_MAX], *p;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = strchr(buf + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = 0;
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return mkdir(buf, 0755) && errno != EEXIST ? -errno : 0;
}

/* the text symbols of the file @path (nm's format: types t T w W): how many; -errno */
static int bvp_count_funcs(const char *path, unsigned int *n)
{
	struct readfile_lines lr;
	FILE *f = fopen(path, "re");
	char type;
	int ret;

	*n = 0;
	if (!f)
		return -errno;
	readfile_lines_init(&lr, f, 4096);
	while ((ret = readfile_lines_next(&lr)) > 0)
		if (sscanf(lr.line, "%*[0-9a-fA-F] %c ", &type) == 1 && strchr("tTwW", type))
			(*n)++;
	readfile_lines_free(&lr);
	fclose(f);
	return ret;
}

/* a symbols file in place for kernel @i: its digest and functions; 0 or an exit code */
static int bvp_syms_file(struct bv_kernel *x, const char *name)
{
	int ret = sha256_file(x->syms, x->syms_sha) ?: bvp_count_funcs(x->syms, &x->nr_funcs);

	if (ret)
		return bench_refused("%s: --plugin-syms %s: %s", name, x->syms, strerror(-ret));
	if (!x->nr_funcs) {
		bench_err("%s: --plugin-syms %s: no text symbol in it (System.map, nm or kallsyms: ADDRESS TYPE NAME)",
			  name, x->syms);
		return EXIT_USAGE;
	}
	return 0;
}

/*
 * kernel @i's symbols: a file given, else auto's, kept by the digests of
 * its image and its module (a module loaded first moves nothing else:
 * its functions are where the first module loaded goes); not there yet,
 * one boot reads them (syms_boot)
 */
static int bvp_kernel_syms(struct bv_global *bv, unsigned int i)
{
	const struct vmsweep_kernel *k = &bv->sw.k[i];
	struct bv_kernel *x = &bv->k[i];
	char ko[SHA256_HEX] = "none", text[2 * SHA256_HEX + 8], key[SHA256_HEX];
	int ret;

	if (x->syms_given) {
		snprintf(x->syms, sizeof(x->syms), "%s", x->syms_given);
		return bvp_syms_file(x, k->name);
	}
	if (bv->plug.syms == BVP_SYMS_NONE)
		return 0;
	if (k->ko[0] && (ret = sha256_file(k->ko, ko)))
		return bench_refused("%s: %s: %s", k->name, k->ko, strerror(-ret));
	snprintf(text, sizeof(text), "%s %s", k->sha256, ko);
	sha256_buf(text, strlen(text), key);
	snprintf(x->syms, sizeof(x->syms), "%.3000s/%s.syms", bv->plug.cache, key);
	x->syms_boot = access(x->syms, R_OK) != 0;
	return x->syms_boot ? 0 : bvp_syms_file(x, k->name);
}

/* kernel @i's -plugin argument: the plugin, the model's mode and keys, its symbols */
static void bvp_kernel_arg(struct bv_global *bv, unsigned int i)
{
	struct bv_kernel *x = &bv->k[i];
	char arg[sizeof(x->plugin_arg)];

	/* through a copy: GCC's -Wrestrict sees x->syms inside *bv */
	snprintf(arg, sizeof(arg), "%s,cache=%s%s%s%s", bv->plug.so,
		 bv->plug.conf.cache ? "on" : "off", bv->plug.opts, x->syms[0] ? ",syms=" : "",
		 x->syms);
	memcpy(x->plugin_arg, arg, sizeof(arg));
}

bool bvp_marks(const struct vmsweep *sw, unsigned int i)
{
	const char *c = sw->c[i].argv[0];

	return !strcmp(c, "kernel") || !strcmp(c, "run") || !strcmp(c, "audit");
}

/* is figure @f written under the settings of @p? */
static bool bvp_figure(const struct bv_plugin *p, enum vmplug_figure f)
{
	return p->conf.cache || f == VMPLUG_INSNS || f == VMPLUG_FUNCS;
}

/* the plan: the settings in its key, the plugin's files of a cell */
static void bvp_plan(struct bv_global *bv)
{
	struct bv_plugin *p = &bv->plug;
	unsigned int i, f, files = 0;

	for (i = 0; i < bv->sw.nr_c; i++)
		for (f = 0; bvp_marks(&bv->sw, i) && f < VMPLUG_NR_FIGURES; f++)
			files += bvp_figure(p, f);
	snprintf(p->key, sizeof(p->key), "%s%s llc_lat=%g mem_lat=%g syms=%s", bvp_modes[p->mode],
		 p->opts, p->lat.llc, p->lat.mem,
		 p->nr_sf ? "given" : p->syms == BVP_SYMS_NONE ? "none" : "auto");
	bv->sw.plugin_key = p->key;
	bv->sw.plugin_files = files;
}

/* every cell's runs of the plugin's figures, asked as its commands' */
static int bvp_cells(struct bv_global *bv)
{
	unsigned int n, i, f;

	bv->plug.cell = calloc(bv->sw.nr_cells, sizeof(*bv->plug.cell));
	if (!bv->plug.cell)
		return bench_nomem();
	for (n = 0; n < bv->sw.nr_cells; n++) {
		struct bv_plugged *pc = &bv->plug.cell[n];

		pc->windows = calloc(bv->sw.boots, sizeof(*pc->windows));
		pc->dropped = calloc(bv->sw.boots, sizeof(*pc->dropped));
		if (!pc->windows || !pc->dropped)
			return bench_nomem();
		for (i = 0; i < bv->sw.nr_c; i++)
			for (f = 0; f < VMPLUG_NR_FIGURES; f++)
				pc->fig[i][f].asked = bv->sw.cell[n].runs[i].asked;
	}
	return 0;
}

int bvp_setup(struct bv_global *bv)
{
	unsigned int i;
	int ret;

	if (bv->plug.mode < 0)
		return 0;
	ret = bvp_find(&bv->plug);
	if (ret)
		return ret;
	bvp_cache_dir(bv);
	for (i = 0; i < bv->sw.nr_k && !ret; i++) {
		ret = bvp_kernel_syms(bv, i);
		bvp_kernel_arg(bv, i);
	}
	if (ret)
		return ret;
	bvp_plan(bv);
	return bvp_cells(bv);
}

/* ---- auto's symbols: one boot reads them ---- */

/* the script that boot runs (bench vm -- sh): the kernel's text symbols, the module's too */
static const char bvp_script[] =
	"# bench vm --plugin-syms auto: this kernel's functions, KASLR off (nokaslr).\n"
	"# The module first, where the initramfs has it: its functions are where\n"
	"# the first module loaded goes. KSB_KALLSYMS: tests read a fixture instead.\n"
	"[ ! -f /kmod/kstats_bench.ko ] || insmod /kmod/kstats_bench.ko || exit 1\n"
	"awk '$2 ~ /^[tTwW]$/' \"${KSB_KALLSYMS:-/proc/kallsyms}\" >\"$KSB_OUT/kallsyms\"\n";

int bvp_syms_script(const struct bv_global *bv, char *path, size_t len)
{
	FILE *f;
	int ret = 0;

	snprintf(path, len, "%.3000s/kallsyms.sh", bv->work);
	f = fopen(path, "we");
	if (!f)
		return -errno;
	if (fputs(bvp_script, f) < 0)
		ret = -EIO;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

/* @f's lines into the new file @path; 0, -EINVAL (none, or addresses hidden), -errno */
static int bvp_syms_copy(FILE *f, const char *path)
{
	FILE *o = fopen(path, "we");
	char line[4096];
	unsigned int n = 0;
	int ret = 0;

	if (!o)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (!n++ && !strncmp(line, "0000000000000000 ", 17))
			ret = -EINVAL;
		fputs(line, o);
	}
	if (!ret && !n)
		ret = -EINVAL;
	if (!ret && (ferror(f) || ferror(o)))
		ret = -EIO;
	if (fclose(o) && !ret)
		ret = -errno;
	return ret;
}

int bvp_syms_keep(struct bv_global *bv, unsigned int i, FILE *f)
{
	struct bv_kernel *x = &bv->k[i];
	const char *name = bv->sw.k[i].name;
	char tmp[PATH_MAX + 32];
	int ret;

	ret = bvp_mkdirs(bv->plug.cache);
	if (ret)
		return bench_refused("%s: --plugin-syms auto: %s: %s", name, bv->plug.cache,
				     strerror(-ret));
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", x->syms, (int)getpid());
	rewind(f);
	ret = bvp_syms_copy(f, tmp);
	if (!ret && rename(tmp, x->syms))
		ret = -errno;
	if (ret)
		unlink(tmp);
	if (ret == -EINVAL)
		return bench_refused("%s: --plugin-syms auto: its /proc/kallsyms is empty or hides the addresses (no CONFIG_KALLSYMS, or kptr_restrict): give --plugin-syms %s=System.map",
				     name, name);
	if (ret)
		return bench_refused("%s: --plugin-syms auto: %s: %s", name, x->syms, strerror(-ret));
	x->syms_boot = false;
	return bvp_syms_file(x, name);
}

/* ---- --dry-run, the end ---- */

void bvp_dry_run(const struct bv_global *bv)
{
	const struct bv_kernel *x;
	char model[256];
	unsigned int i;

	if (bv->plug.mode < 0)
		return;
	pconf_model(&bv->plug.conf, model, sizeof(model));
	printf("# plugin %s: %s, cache model %s\n", bvp_modes[bv->plug.mode], bv->plug.so, model);
	for (i = 0; i < bv->sw.nr_k; i++) {
		x = &bv->k[i];
		printf("# %s: plugin symbols %s%s\n", bv->sw.k[i].name, x->syms[0] ? x->syms : "none",
		       x->syms_boot ? " (not kept yet: one nokaslr boot reads them first)" : "");
	}
}

void bvp_free(struct bv_global *bv)
{
	struct bv_plugged *pc;
	unsigned int n, i, f;

	for (n = 0; bv->plug.cell && n < bv->sw.nr_cells; n++) {
		pc = &bv->plug.cell[n];
		for (i = 0; i < VM_MAX_CMDS; i++)
			for (f = 0; f < VMPLUG_NR_FIGURES; f++)
				runs_fini(&pc->fig[i][f]);
		free(pc->windows);
		free(pc->dropped);
	}
	free(bv->plug.cell);
	bv->plug.cell = NULL;
}
