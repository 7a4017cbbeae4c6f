// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-vm-windows.c - bench vm --plugin's figures: each boot's
 * windows, as the plugin wrote them (lib/kernel/vmplug.h), named after
 * the command that marked them (kmod/ksb_mark.h: bench kernel's by the
 * module's workload, bench run's, bench audit's by the entry's place in
 * its audit_order) and added to the cell's runs, one results set per
 * command and figure; and the files those sets are written to, beside
 * each command's CSV, with what counted them and what they are:
 *
 *	NAME[-CMD][-pN]-insns.csv	insn	each window's instructions
 *	NAME[-CMD][-pN]-funcs.csv	insn	by kernel function, the smallest window's
 *	NAME[-CMD][-pN]-misses.csv	misses	the model's L1d and LLC misses (cache)
 *	NAME[-CMD][-pN]-accesses.csv	accesses	loads and stores (cache)
 *	NAME[-CMD][-pN]-cycles.csv	est-cycles	the estimate (cache)
 *
 * The settings, the symbols and the plan are builtin-vm-plugin.c's,
 * which is all this file calls of bench vm's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "builtin-vm.h"
#include "kmod/ksb_mark.h"
#include "lib/results/busy.h"
#include "lib/results/csv.h"
#include "lib/results/meta.h"
#include "lib/results/results.h"
#include "lib/subcmd/outfile.h"

#define BVW_MAX_SERIES	256		/* series of one boot's windows */

/* ---- each boot's windows ---- */

/* the series of one boot's windows, as they are named */
struct bvw_names {
	struct vmplug_series s[BVW_MAX_SERIES];
	unsigned int n;
};

/* series (@cmd, @wl, @var), found or added (@fvar its funcs variant): its index; -1 full */
static int bvw_series(struct bvw_names *nm, unsigned int cmd, const char *wl, const char *var,
		      const char *fvar)
{
	struct vmplug_series *s;
	unsigned int k;

	for (k = 0; k < nm->n; k++)
		if (nm->s[k].cmd == cmd && !strcmp(nm->s[k].workload, wl) &&
		    !strcmp(nm->s[k].variant, var))
			return (int)k;
	if (nm->n == BVW_MAX_SERIES)
		return -1;
	s = &nm->s[nm->n];
	memset(s, 0, sizeof(*s));
	s->cmd = cmd;
	snprintf(s->workload, sizeof(s->workload), "%s", wl);
	snprintf(s->variant, sizeof(s->variant), "%s", var);
	snprintf(s->fvariant, sizeof(s->fvariant), "%s", fvar);
	return (int)nm->n++;
}

/*
 * the label of variant @v of a bench run or bench kernel set: the
 * suffix of its @v-th variant_LABEL key (they write one a variant, in
 * the variants' order, ksb_mark.h), "reference" for KSB_MARK_REF; NULL
 */
static const char *bvw_variant(const struct meta *m, unsigned int v)
{
	unsigned int k, seen = 0;

	if (v == KSB_MARK_REF)
		return RESULTS_REFERENCE;
	for (k = 0; k < m->n; k++)
		if (!strncmp(m->kv[k].key, "variant_", 8) && seen++ == v)
			return m->kv[k].key + 8;
	return NULL;
}

/* word @n (1..) of the space-separated @list into @buf; false: none */
static bool bvw_word(const char *list, unsigned int n, char *buf, size_t len)
{
	const char *p = list;
	size_t w;

	while (p && *p) {
		w = strcspn(p, " ");
		if (!--n) {
			snprintf(buf, len, "%.*s", (int)w, p);
			return w && w < len;
		}
		p += w + (p[w] == ' ');
	}
	return false;
}

/* the variant of @g's series of workload @wl (an audit entry has one); NULL */
static const char *bvw_entry_variant(const struct results *g, const char *wl)
{
	unsigned int k;

	for (k = 0; k < g->n; k++)
		if (!strcmp(g->s[k].workload, wl))
			return g->s[k].variant;
	return NULL;
}

/* window @w's series among command @i's (@g: what it sent): -1 not its */
static int bvw_claim(const struct vmsweep *sw, unsigned int i, const struct results *g,
		     const struct vmplug_win *w, struct bvw_names *nm)
{
	const char *c = sw->c[i].argv[0], *wl = meta_get(&g->meta, "workload"), *var;
	char entry[VMPLUG_NAME];

	if (!strcmp(c, "audit")) {
		if (w->kind != KSB_MARK_RUN || !w->tag ||
		    !bvw_word(meta_get(&g->meta, "audit_order"), w->tag, entry, sizeof(entry)))
			return -1;
		var = w->variant == KSB_MARK_REF ? RESULTS_REFERENCE : bvw_entry_variant(g, entry);
		return var ? bvw_series(nm, i, entry, var, entry) : -1;
	}
	if (strcmp(c, "kernel") ? strcmp(c, "run") || w->kind != KSB_MARK_RUN || w->tag :
	    w->kind != KSB_MARK_KMOD)
		return -1;
	var = bvw_variant(&g->meta, w->variant);
	return wl && var ? bvw_series(nm, i, wl, var, var) : -1;
}

/* every window of @b into its command's series; the marking commands that got none */
static int bvw_name(const struct bv_global *bv, struct vmplug_boot *b,
		    struct results *const *guest, struct bvw_names *nm, unsigned int *none)
{
	unsigned int i, k, got[VM_MAX_CMDS] = { 0 };

	for (k = 0; k < b->n; k++)
		for (i = 0; i < bv->sw.nr_c && b->w[k].series < 0; i++)
			if (guest[i] && bvp_marks(&bv->sw, i)) {
				b->w[k].series = bvw_claim(&bv->sw, i, guest[i], &b->w[k], nm);
				got[i] += b->w[k].series >= 0;
			}
	for (i = 0; i < bv->sw.nr_c; i++)
		if (guest[i] && bvp_marks(&bv->sw, i) && !got[i]) {
			*none = i;
			return -ENODATA;
		}
	return 0;
}

/* command @i's figures of @c's boot @b into cell @pc's runs; 0, or -errno with @why */
static int bvw_add(struct bv_global *bv, const struct vmsweep_cell *c, unsigned int b,
		   unsigned int i, const struct vmplug_boot *vb, const struct bvw_names *nm,
		   FILE *fn, char *why, size_t len)
{
	struct bv_plugged *pc = &bv->plug.cell[c - bv->sw.cell];
	struct results *one[VMPLUG_NR_FIGURES] = { NULL };
	char msg[256] = "";
	unsigned int f;
	int ret;

	ret = vmplug_sets(vb, nm->s, nm->n, i, &bv->plug.lat, one);
	if (!ret) {
		rewind(fn);
		ret = vmplug_funcs(fn, vb, nm->s, nm->n, i, &one[VMPLUG_FUNCS], msg, sizeof(msg));
	}
	for (f = 0; !ret && f < VMPLUG_NR_FIGURES; f++)
		if (one[f])
			ret = runs_add(&pc->fig[i][f], one[f], b + 1);
	for (f = 0; f < VMPLUG_NR_FIGURES; f++)
		results_free(one[f]);
	if (ret)
		snprintf(why, len, "%s boot %u: the plugin's figures of bench %s: %s", c->label,
			 b + 1, bv->sw.c[i].argv[0], msg[0] ? msg : strerror(-ret));
	return ret;
}

/* boot @b's windows, @win and @fn read: 0, or -errno with @why */
static int bvw_boot(struct bv_global *bv, const struct vmsweep_cell *c, unsigned int b,
		    struct results *const *guest, struct vmplug_boot *vb, FILE *fn, char *why,
		    size_t len)
{
	struct bv_plugged *pc = &bv->plug.cell[c - bv->sw.cell];
	struct bvw_names *nm = calloc(1, sizeof(*nm));
	unsigned int i, none = 0;
	int ret = nm ? 0 : -ENOMEM;

	if (!nm)
		snprintf(why, len, "%s boot %u: %s", c->label, b + 1, strerror(ENOMEM));

	ret = ret ?: bvw_name(bv, vb, guest, nm, &none);
	if (ret == -ENODATA)
		snprintf(why, len, "%s boot %u: bench %s ran and the plugin saw none of its windows: its bench%s has no markers (kmod/ksb_mark.h)? --bench and --module must be this tree's",
			 c->label, b + 1, bv->sw.c[none].argv[0],
			 strcmp(bv->sw.c[none].argv[0], "kernel") ? "" : " module");
	if (!ret)
		vmplug_pick(vb, nm->s, nm->n);
	for (i = 0; !ret && i < bv->sw.nr_c; i++)
		if (guest[i] && bvp_marks(&bv->sw, i))
			ret = bvw_add(bv, c, b, i, vb, nm, fn, why, len);
	pc->windows[b] = vb->n;
	pc->dropped[b] = vb->dropped;
	free(nm);
	return ret == -ENODATA ? -EIO : ret;
}

int bvw_absorb(void *priv, const struct vmsweep_cell *c, unsigned int b,
	       struct results *const *guest, const char *win, const char *fn, char *why,
	       size_t len)
{
	struct bv_global *bv = priv;
	struct vmplug_boot vb = { 0 };
	FILE *w = fopen(win, "re"), *f = fopen(fn, "re");
	char msg[256] = "";
	int ret = w && f ? 0 : -errno;

	if (ret)
		snprintf(why, len, "%s boot %u: the plugin wrote no %s: %s (did qemu load it? see the console)",
			 c->label, b + 1, w ? fn : win, strerror(-ret));
	if (!ret && (ret = vmplug_read(w, &vb, msg, sizeof(msg))))
		snprintf(why, len, "%s boot %u: the plugin's %s: %s", c->label, b + 1, win,
			 ret == -EINVAL || ret == -E2BIG ? msg : strerror(-ret));
	if (!ret && !vb.ended) {
		snprintf(why, len, "%s boot %u: the plugin's %s ends early: qemu did not exit cleanly",
			 c->label, b + 1, win);
		ret = -EIO;
	}
	if (!ret)
		ret = bvw_boot(bv, c, b, guest, &vb, f, why, len);
	vmplug_free(&vb);
	if (w)
		fclose(w);
	if (f)
		fclose(f);
	return ret;
}

/* ---- the files ---- */

/* what counted a file of figure @f: the fileset's plugin rule compares it */
static void bvw_identity(const struct bv_plugin *p, enum vmplug_figure f, char *buf, size_t len)
{
	char model[256];

	pconf_model(&p->conf, model, sizeof(model));
	if (f == VMPLUG_INSNS || f == VMPLUG_FUNCS)
		snprintf(buf, len, "ksbplugin 1, instructions of the guest's marked windows");
	else if (f == VMPLUG_CYCLES)
		snprintf(buf, len, "ksbplugin 1, cache model %s, estimate llc_lat=%g mem_lat=%g",
			 model, p->lat.llc, p->lat.mem);
	else
		snprintf(buf, len, "ksbplugin 1, cache model %s", model);
}

/* what the figures of a file of figure @f are, one line */
static void bvw_what(const struct bv_plugin *p, enum vmplug_figure f, char *buf, size_t len)
{
	switch (f) {
	case VMPLUG_INSNS:
		snprintf(buf, len, "each marked window's instructions, counted by the plugin: the guest's own figure plus the constant of its stamps' code");
		break;
	case VMPLUG_MISSES:
		snprintf(buf, len, "each window's lines that missed the plugin's cache model: VARIANT.l1d the vCPU's L1d's, VARIANT.llc of them the LLC's; a model's count, not hardware's");
		break;
	case VMPLUG_ACCESSES:
		snprintf(buf, len, "each window's loads (VARIANT.loads) and stores (VARIANT.stores) of RAM, counted by the plugin");
		break;
	case VMPLUG_CYCLES:
		snprintf(buf, len, "an estimate, not a measurement: each window's instructions + (L1d misses that hit the LLC) x %g + LLC misses x %g cycles, one instruction a cycle, every miss paid in full and none overlapped",
			 p->lat.llc, p->lat.mem);
		break;
	default:
		snprintf(buf, len, "the instructions each kernel function ran in each boot's window of fewest instructions of each series (workload the function, variant the audit entry or the window's variant): they add up to that window's; a function not listed ran none there");
		break;
	}
}

/* kernel @x's symbols in words */
static void bvw_symbols(const struct bv_global *bv, const struct bv_kernel *x, char *buf,
			size_t len)
{
	if (!x->syms[0])
		snprintf(buf, len, "none (every kernel function is kernel-no-symbol)");
	else
		snprintf(buf, len, "%s: %s, %u functions, sha256 %s",
			 x->syms_given ? "given" : "auto (kallsyms of a nokaslr boot)", x->syms,
			 x->nr_funcs, x->syms_sha);
	(void)bv;
}

/* @n boots' @v as a "RUN:VALUE" list @key */
static void bvw_list(struct meta *m, const char *key, const uint64_t *v, unsigned int n)
{
	struct meta *l = calloc(1, sizeof(*l));
	unsigned int b;

	if (!l)
		return;
	for (b = 0; b < n; b++)
		busy_list_add(l, key, b + 1, "%llu", (unsigned long long)v[b]);
	if (meta_get(l, key))
		meta_put(m, key, "%s", meta_get(l, key));
	free(l);
}

/* the plugin's keys of figure @f of cell @n, then @guest's that are not there */
static void bvw_meta(const struct bv_global *bv, unsigned int n, enum vmplug_figure f,
		     struct meta *m, const struct meta *guest)
{
	const struct vmsweep_cell *c = &bv->sw.cell[n];
	const struct bv_plugged *pc = &bv->plug.cell[n];
	char buf[META_VAL];
	unsigned int k;

	meta_put(m, "source", "plugin");
	bvw_identity(&bv->plug, f, buf, sizeof(buf));
	meta_put(m, "plugin", "%s", buf);
	meta_put(m, "plugin_figure", "%s", vmplug_figures[f]);
	bvw_what(&bv->plug, f, buf, sizeof(buf));
	meta_put(m, "plugin_what", "%s", buf);
	pconf_model(&bv->plug.conf, buf, sizeof(buf));
	meta_put(m, "plugin_model", "%s", buf);
	bvw_symbols(bv, &bv->k[c->k - bv->sw.k], buf, sizeof(buf));
	meta_put(m, "plugin_symbols", "%s", buf);
	meta_put(m, "plugin_so", "%s", bv->plug.so);
	bvw_list(m, "plugin_windows", pc->windows, c->nr_boots);
	bvw_list(m, "plugin_dropped", pc->dropped, c->nr_boots);
	for (k = 0; k < guest->n; k++)
		if (!meta_get(m, guest->kv[k].key))
			meta_set(m, guest->kv[k].key, "%s", guest->kv[k].val);
}

/* one figure's file @path: 0, or EXIT_ENV said */
static int bvw_write_one(const char *path, const struct results *r)
{
	struct outfile o;
	int ret = outfile_open(&o, path);

	if (!ret) {
		ret = csv_write(o.f, r);
		if (ret)
			outfile_abort(&o);
		else
			ret = outfile_commit(&o);
	}
	return ret ? bench_refused("writing %s: %s", path, strerror(-ret)) : 0;
}

int bvw_write(struct bv_global *bv, unsigned int n, unsigned int i, const char *csv,
	      const struct meta *guest)
{
	struct bv_plugged *pc = bv->plug.cell ? &bv->plug.cell[n] : NULL;
	char path[PATH_MAX + 32];
	size_t base = strlen(csv) - strlen(".csv");
	unsigned int f;
	int ret = 0;

	for (f = 0; pc && f < VMPLUG_NR_FIGURES && !ret; f++) {
		struct runs *rs = &pc->fig[i][f];

		if (!rs->all)
			continue;
		runs_meta(rs, bv->cmdline, bv->signo != 0);
		bvw_meta(bv, n, f, &rs->all->meta, guest);
		snprintf(path, sizeof(path), "%.*s-%s.csv", (int)base, csv, vmplug_figures[f]);
		ret = bvw_write_one(path, rs->all);
	}
	return ret;
}

