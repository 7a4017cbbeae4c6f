// SPDX-License-Identifier: GPL-2.0
/*
 * vmplug.c - the plugin's files of one boot, read back and made results
 * sets of (vmplug.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kmod/ksb_mark.h"
#include "kstats_hist.h"
#include "lib/kernel/vmplug.h"
#include "lib/results/counted.h"
#include "lib/results/meta.h"
#include "lib/results/results.h"
#include "lib/subcmd/readfile.h"
#include "lib/subcmd/samples.h"

const char *const vmplug_figures[] = { "insns", "misses", "accesses", "cycles", "funcs", NULL };
const char *const vmplug_units[] = {
	COUNTED_UNIT, COUNTED_MISSES, COUNTED_ACCESSES, COUNTED_CYCLES, COUNTED_UNIT, NULL,
};

#define VMPLUG_WIN_COLS	11		/* columns of an out= row */
#define VMPLUG_FN_COLS	5		/* columns of a funcs= row */

/* ---- the windows ---- */

/* the comma-separated fields of @line into @f[@max] (@line cut); how many */
static unsigned int vmplug_split(char *line, char **f, unsigned int max)
{
	unsigned int n = 0;
	char *p = line;

	while (n < max) {
		f[n++] = p;
		p = strchr(p, ',');
		if (!p)
			break;
		*p++ = 0;
	}
	return p ? max + 1 : n;
}

/* a whole decimal field; 0, or -EINVAL */
static int vmplug_u64(const char *s, uint64_t *v)
{
	return samples_take(&s, 0, UINT64_MAX, v) || *s ? -EINVAL : 0;
}

static int vmplug_add(struct vmplug_boot *b, const struct vmplug_win *w)
{
	struct vmplug_win *nw;

	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 256;
		nw = realloc(b->w, b->cap * sizeof(*nw));
		if (!nw)
			return -ENOMEM;
		b->w = nw;
	}
	b->w[b->n++] = *w;
	return 0;
}

/* one row of the out= file; 0, -EINVAL, -ENOMEM */
static int vmplug_row(struct vmplug_boot *b, char *line)
{
	struct vmplug_win w = { .series = -1 };
	char *f[VMPLUG_WIN_COLS];
	uint64_t tag, var;
	unsigned int i;

	if (vmplug_split(line, f, VMPLUG_WIN_COLS) != VMPLUG_WIN_COLS)
		return -EINVAL;
	if (!strcmp(f[2], "run"))
		w.kind = KSB_MARK_RUN;
	else if (!strcmp(f[2], "kmod"))
		w.kind = KSB_MARK_KMOD;
	else
		return -EINVAL;
	if (vmplug_u64(f[0], &w.seq) || vmplug_u64(f[3], &tag) || vmplug_u64(f[4], &var) ||
	    tag > KSB_MARK_ARG_MAX >> 2 || var > 3)
		return -EINVAL;
	w.tag = (unsigned int)tag;
	w.variant = (unsigned int)var;
	for (i = 0; i < VMPLUG_NR_COUNTS; i++)
		if (vmplug_u64(f[5 + i], &w.n[i]))
			return -EINVAL;
	return vmplug_add(b, &w);
}

/* a "# key: value" line: what it says of the cache and the end */
static void vmplug_comment(struct vmplug_boot *b, const char *line)
{
	const char *v;

	if (!strncmp(line, "# l1d: ", 7))
		b->cache = true;
	else if (!strncmp(line, "# windows: ", 11))
		b->ended = true;
	else if (!strncmp(line, "# dropped: ", 11)) {
		v = line + 11;
		if (samples_take(&v, 0, UINT64_MAX, &b->dropped))
			b->dropped = 0;
	}
}

int vmplug_read(FILE *f, struct vmplug_boot *b, char *why, size_t len)
{
	struct readfile_lines lr;
	bool head = false;
	int ret;

	memset(b, 0, sizeof(*b));
	readfile_lines_init(&lr, f, VMPLUG_MAX_LINE);
	while ((ret = readfile_lines_next(&lr)) > 0) {
		if (lr.no == 1 && strncmp(lr.line, "# kstats-bench plugin: ", 23)) {
			ret = -EINVAL;
			snprintf(why, len, "line 1: not the plugin's windows (no \"# kstats-bench plugin\")");
			break;
		}
		if (lr.line[0] == '#') {
			vmplug_comment(b, lr.line);
			continue;
		}
		if (!head) {
			head = !strncmp(lr.line, "seq,", 4);
			continue;
		}
		ret = vmplug_row(b, lr.line);
		if (ret) {
			if (ret == -EINVAL)
				snprintf(why, len, "line %lu: not a window's row", lr.no);
			break;
		}
	}
	if (ret == -E2BIG)
		snprintf(why, len, "line %lu: over %d bytes", lr.no, VMPLUG_MAX_LINE);
	readfile_lines_free(&lr);
	return ret < 0 ? ret : 0;
}

void vmplug_free(struct vmplug_boot *b)
{
	free(b->w);
	b->w = NULL;
	b->n = b->cap = 0;
}

void vmplug_pick(const struct vmplug_boot *b, struct vmplug_series *s, unsigned int ns)
{
	unsigned int i, k;

	for (k = 0; k < ns; k++) {
		s[k].windows = 0;
		s[k].min_win = -1;
	}
	for (i = 0; i < b->n; i++) {
		const struct vmplug_win *w = &b->w[i];
		struct vmplug_series *t;

		if (w->series < 0 || (unsigned int)w->series >= ns)
			continue;
		t = &s[w->series];
		t->windows++;
		if (t->min_win < 0 || w->n[VMPLUG_C_INSNS] < b->w[t->min_win].n[VMPLUG_C_INSNS])
			t->min_win = (int)i;
	}
}

/* ---- the figures ---- */

/* a figure's histograms' layout */
static unsigned int vmplug_fb(enum vmplug_figure fig)
{
	return fig == VMPLUG_FUNCS ? VMPLUG_FN_FRAC_BITS : VMPLUG_FRAC_BITS;
}

/* a one-run set of @fig, its unit and layout in its metadata; NULL: no memory */
static struct results *vmplug_set(enum vmplug_figure fig)
{
	struct results *r = results_create(vmplug_fb(fig));

	if (!r)
		return NULL;
	meta_set(&r->meta, "unit", "%s", vmplug_units[fig]);
	meta_set(&r->meta, "frac_bits", "%u", vmplug_fb(fig));
	return r;
}

/* the estimate of cycles of window @w */
static uint64_t vmplug_cycles(const struct vmplug_win *w, const struct vmplug_lat *lat)
{
	double v = (double)w->n[VMPLUG_C_INSNS] +
		   (double)(w->n[VMPLUG_C_L1D] - w->n[VMPLUG_C_LLC]) * lat->llc +
		   (double)w->n[VMPLUG_C_LLC] * lat->mem;

	return (uint64_t)llround(v);
}

/* the value of window @w in series @k of figure @fig (see vmplug_sets()) */
static uint64_t vmplug_value(const struct vmplug_win *w, enum vmplug_figure fig,
			     unsigned int k, const struct vmplug_lat *lat)
{
	switch (fig) {
	case VMPLUG_MISSES:
		return w->n[k ? VMPLUG_C_LLC : VMPLUG_C_L1D];
	case VMPLUG_ACCESSES:
		return w->n[k ? VMPLUG_C_STORES : VMPLUG_C_LOADS];
	case VMPLUG_CYCLES:
		return vmplug_cycles(w, lat);
	default:
		return w->n[VMPLUG_C_INSNS];
	}
}

/* the suffixes of a figure's variants: misses and accesses two a series */
static const char *const vmplug_sfx[VMPLUG_NR_FIGURES][2] = {
	[VMPLUG_MISSES] = { ".l1d", ".llc" },
	[VMPLUG_ACCESSES] = { ".loads", ".stores" },
};

/* series @k's windows in @fig into @r (each of its variants, @h scratch) */
static int vmplug_series_add(const struct vmplug_boot *b, const struct vmplug_series *s,
			     int k, enum vmplug_figure fig, const struct vmplug_lat *lat,
			     struct results *r, struct kstats_hist *h)
{
	struct results_label l = { .workload = s[k].workload, .run = RESULTS_RUN_ALL,
				   .cpu = RESULTS_CPU_ALL, .node = -1 };
	unsigned int i, j, nv = vmplug_sfx[fig][0] ? 2 : 1;
	char var[40];
	int ret = 0;

	for (j = 0; j < nv && !ret; j++) {
		kstats_hist_reset(h);
		for (i = 0; i < b->n; i++)
			if (b->w[i].series == k)
				kstats_hist_record(h, vmplug_value(&b->w[i], fig, j, lat));
		snprintf(var, sizeof(var), "%s%s", s[k].variant, vmplug_sfx[fig][j] ?: "");
		l.variant = var;
		ret = results_add_hist(r, &l, h);
	}
	return ret;
}

int vmplug_sets(const struct vmplug_boot *b, const struct vmplug_series *s, unsigned int ns,
		unsigned int cmd, const struct vmplug_lat *lat, struct results **out)
{
	struct kstats_hist *h = kstats_hist_create(VMPLUG_FRAC_BITS);
	enum vmplug_figure fig;
	unsigned int k;
	int ret = h ? 0 : -ENOMEM;

	for (fig = VMPLUG_INSNS; fig < VMPLUG_FUNCS; fig++) {
		out[fig] = NULL;
		if (ret || (fig != VMPLUG_INSNS && !b->cache))
			continue;
		out[fig] = vmplug_set(fig);
		ret = out[fig] ? 0 : -ENOMEM;
		for (k = 0; k < ns && !ret; k++)
			if (s[k].cmd == cmd && s[k].windows)
				ret = vmplug_series_add(b, s, (int)k, fig, lat, out[fig], h);
	}
	kstats_hist_free(h);
	for (fig = VMPLUG_INSNS; ret && fig < VMPLUG_FUNCS; fig++) {
		results_free(out[fig]);
		out[fig] = NULL;
	}
	return ret ? -ENOMEM : 0;
}

/* ---- the functions ---- */

/* FNV-1a of @s */
static uint32_t vmplug_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

void vmplug_func_name(const char *fn, char *buf, size_t len)
{
	const char *ok = "abcdefghijklmnopqrstuvwxyz0123456789_.";
	size_t n = strlen(fn), i, cut;

	if (!strcmp(fn, "[user]")) {
		snprintf(buf, len, "user-mode");
		return;
	}
	if (!strcmp(fn, "[kernel]")) {
		snprintf(buf, len, "kernel-no-symbol");
		return;
	}
	if (n && n < VMPLUG_NAME && !fn[strspn(fn, ok)]) {
		snprintf(buf, len, "%s", fn);
		return;
	}
	cut = n < 54 ? n : 54;
	for (i = 0; i < cut && i + 1 < len; i++)
		buf[i] = fn[i] >= 'A' && fn[i] <= 'Z' ? (char)(fn[i] - 'A' + 'a') :
			 strchr(ok, fn[i]) ? fn[i] : '_';
	snprintf(buf + i, len - i, "-%08x", vmplug_hash(fn));
}

/* the series of command @cmd whose smallest window is @seq, or -1 */
static int vmplug_seq_series(const struct vmplug_boot *b, const struct vmplug_series *s,
			     unsigned int ns, unsigned int cmd, uint64_t seq)
{
	unsigned int k;

	for (k = 0; k < ns; k++)
		if (s[k].cmd == cmd && s[k].min_win >= 0 && b->w[s[k].min_win].seq == seq)
			return (int)k;
	return -1;
}

/* one funcs= row into @r when it is of a picked window; its instructions into @sum */
static int vmplug_fn_row(const struct vmplug_boot *b, const struct vmplug_series *s,
			 unsigned int ns, unsigned int cmd, char *line, struct results *r,
			 struct kstats_hist *h, uint64_t *sum)
{
	struct results_label l = { .run = RESULTS_RUN_ALL, .cpu = RESULTS_CPU_ALL, .node = -1 };
	char *f[VMPLUG_FN_COLS], name[VMPLUG_NAME];
	uint64_t seq, n;
	int k;

	if (vmplug_split(line, f, VMPLUG_FN_COLS) != VMPLUG_FN_COLS || vmplug_u64(f[0], &seq) ||
	    vmplug_u64(f[1], &n) || !*f[4])
		return -EINVAL;
	k = vmplug_seq_series(b, s, ns, cmd, seq);
	if (k < 0)
		return 0;
	sum[k] += n;
	vmplug_func_name(f[4], name, sizeof(name));
	l.workload = name;
	l.variant = s[k].fvariant;
	kstats_hist_reset(h);
	kstats_hist_record(h, n);
	return results_add_hist(r, &l, h);
}

/* every picked window's functions add up to its instructions; 0, or -EINVAL with @why */
static int vmplug_fn_check(const struct vmplug_boot *b, const struct vmplug_series *s,
			   unsigned int ns, unsigned int cmd, const uint64_t *sum, char *why,
			   size_t len)
{
	unsigned int k;

	for (k = 0; k < ns; k++) {
		const struct vmplug_win *w = s[k].min_win >= 0 ? &b->w[s[k].min_win] : NULL;

		if (s[k].cmd != cmd || !w || sum[k] == w->n[VMPLUG_C_INSNS])
			continue;
		snprintf(why, len, "window %llu (%s %s): its functions hold %llu instructions, the window %llu",
			 (unsigned long long)w->seq, s[k].workload, s[k].variant,
			 (unsigned long long)sum[k], (unsigned long long)w->n[VMPLUG_C_INSNS]);
		return -EINVAL;
	}
	return 0;
}

/* the rows of @f into @r; 0, or -errno with @why */
static int vmplug_fn_rows(FILE *f, const struct vmplug_boot *b, const struct vmplug_series *s,
			  unsigned int ns, unsigned int cmd, struct results *r, uint64_t *sum,
			  char *why, size_t len)
{
	struct kstats_hist *h = kstats_hist_create(VMPLUG_FN_FRAC_BITS);
	struct readfile_lines lr;
	bool head = false;
	int ret = h ? 0 : -ENOMEM;

	readfile_lines_init(&lr, f, VMPLUG_MAX_LINE);
	while (!ret && (ret = readfile_lines_next(&lr)) > 0) {
		ret = 0;
		if (lr.line[0] == '#' || !head) {
			head = head || !strncmp(lr.line, "seq,", 4);
			continue;
		}
		ret = vmplug_fn_row(b, s, ns, cmd, lr.line, r, h, sum);
		if (ret == -EINVAL)
			snprintf(why, len, "line %lu: not a function's row", lr.no);
	}
	if (ret == -E2BIG)
		snprintf(why, len, "line %lu: over %d bytes", lr.no, VMPLUG_MAX_LINE);
	readfile_lines_free(&lr);
	kstats_hist_free(h);
	return ret < 0 ? ret : 0;
}

int vmplug_funcs(FILE *f, const struct vmplug_boot *b, const struct vmplug_series *s,
		 unsigned int ns, unsigned int cmd, struct results **out, char *why, size_t len)
{
	uint64_t *sum = calloc(ns + 1, sizeof(*sum));
	int ret = -ENOMEM;

	*out = vmplug_set(VMPLUG_FUNCS);
	if (sum && *out)
		ret = vmplug_fn_rows(f, b, s, ns, cmd, *out, sum, why, len) ?:
		      vmplug_fn_check(b, s, ns, cmd, sum, why, len);
	free(sum);
	if (ret) {
		results_free(*out);
		*out = NULL;
	}
	return ret;
}
