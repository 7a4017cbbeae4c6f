// SPDX-License-Identifier: GPL-2.0
/*
 * fileset.c - the one loader of results files, a rule per check
 * (fileset.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/results/counted.h"
#include "lib/results/csv.h"
#include "lib/results/fileset.h"
#include "lib/results/json.h"
#include "lib/results/meta.h"
#include "lib/results/results.h"

const char *fileset_unit(const struct results *r)
{
	const char *u = meta_get(&r->meta, "unit");

	return u ? u : "ns";
}

const char *fileset_plugin(const struct results *r)
{
	const char *fig = meta_get(&r->meta, "plugin_figure"), *p = meta_get(&r->meta, "plugin");

	if (fig && !strcmp(fig, "funcs"))
		return NULL;
	return p && *p ? p : "none";
}

/* the plugin rule: @path's @p is @fs's first such file's; 0, or -EINVAL with its line */
static int fileset_plugin_rule(struct fileset *fs, const char *path, const char *p, char *why,
			       size_t len)
{
	char cut[FILESET_PLUGIN];

	if (!p)
		return 0;
	snprintf(cut, sizeof(cut), "%s", p);
	if (!fs->plugin_first) {
		fs->plugin_first = path;
		memcpy(fs->plugin, cut, sizeof(cut));
		return 0;
	}
	if (!strcmp(cut, fs->plugin))
		return 0;
	snprintf(why, len, "%s was counted by %s%s, %s by %s%s: the plugin's figures (bench vm --plugin) and the guest's own, or the plugin's under two settings, cannot be judged together",
		 fs->plugin_first, strcmp(fs->plugin, "none") ? "the plugin: " : "",
		 strcmp(fs->plugin, "none") ? fs->plugin : "the guest (no plugin)", path,
		 strcmp(cut, "none") ? "the plugin: " : "",
		 strcmp(cut, "none") ? cut : "the guest (no plugin)");
	return -EINVAL;
}

/* the unit rule: @path's unit @u is @fs's first file's; 0, or -EINVAL with its line */
static int fileset_unit_rule(const struct fileset *fs, const char *path, const char *u,
			     char *why, size_t len)
{
	if (!strcmp(u, fs->unit))
		return 0;
	if (counted_unit(u) != counted_unit(fs->unit))
		snprintf(why, len, "%s is in %s, %s in %s: a count of %s (bench vm --clock counted) and a time (--clock timed, or no VM) cannot be judged together; the files must measure in one unit",
			 fs->first, fs->unit, path, u,
			 counted_noun(counted_unit(u) ? u : fs->unit));
	else
		snprintf(why, len, "%s is in %s, %s in %s: the files must measure in one unit",
			 fs->first, fs->unit, path, u);
	return -EINVAL;
}

/* the possible_cpus rule: where @path says one, a count 1..NR_CPUS_MAX */
static int fileset_possible_rule(const char *path, const struct results *r, char *why, size_t len)
{
	const char *v = meta_get(&r->meta, "possible_cpus");
	char line[256];

	if (!v || !meta_check("possible_cpus", v, line, sizeof(line)))
		return 0;
	snprintf(why, len, "%s: %s", path, line);
	return -EINVAL;
}

/*
 * the frac_bits rule: @path's layout @fb is the first file's of its kind
 * (the funcs files apart: one sample a boot, never an entry's buckets);
 * 0, or -EINVAL with its line
 */
static int fileset_frac_rule(struct fileset *fs, const char *path, unsigned int fb, bool funcs,
			     char *why, size_t len)
{
	const char **first = funcs ? &fs->fn_first : &fs->frac_first;
	unsigned int *want = funcs ? &fs->fn_frac_bits : &fs->frac_bits;

	if (!*first) {
		*first = path;
		*want = fb;
		return 0;
	}
	if (fb == *want)
		return 0;
	snprintf(why, len, "%s has frac_bits %u, %s has %u: buckets differ", *first, *want, path,
		 fb);
	return -EINVAL;
}

int fileset_check(struct fileset *fs, const char *path, unsigned int group,
		  const struct results *r, char *why, size_t len)
{
	const char *u = fileset_unit(r), *p = fileset_plugin(r);
	struct fileset was = *fs;

	if (fileset_possible_rule(path, r, why, len))
		return -EINVAL;
	if (!fs->n) {
		fs->first = path;
		snprintf(fs->unit, sizeof(fs->unit), "%s", u);
	} else if (fileset_unit_rule(fs, path, u, why, len)) {
		return -EINVAL;
	}
	/* before the buckets: the plugin's files and the guest's differ in both */
	if (fileset_plugin_rule(fs, path, p, why, len) ||
	    fileset_frac_rule(fs, path, r->frac_bits, !p, why, len)) {
		*fs = was;
		return -EINVAL;
	}
	fs->n++;
	fs->partial += results_partial(r);
	busy_count(r, &fs->busy[group < FILESET_GROUPS ? group : 0]);
	return 0;
}

int fileset_check_unit(const struct fileset *a, const struct fileset *b, char *why, size_t len)
{
	return a->n && b->n ? fileset_unit_rule(a, b->first, b->unit, why, len) : 0;
}

/* the CSV @path into *@r: 0, or -errno with "PATH[:LINE]: why" */
static int fileset_csv(const char *path, struct results **r, char *why, size_t len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	struct csv_error err = { 0 };
	int ret;

	*r = NULL;
	if (!f) {
		ret = -errno;
		snprintf(why, len, "%s: %s", path, strerror(-ret));
		return ret;
	}
	ret = csv_read(f, r, &err);
	if (f != stdin)
		fclose(f);
	if (!ret)
		return 0;
	if (ret != -EINVAL)
		snprintf(err.why, sizeof(err.why), "%s", strerror(-ret));
	if (err.line)
		snprintf(why, len, "%s:%lu: %s", path, err.line, err.why);
	else
		snprintf(why, len, "%s: %s", path, err.why);
	return ret;
}

int fileset_read(struct fileset *fs, const char *path, unsigned int group, struct results **r,
		 char *why, size_t len)
{
	int ret = fileset_csv(path, r, why, len);

	if (!ret && fs)
		ret = fileset_check(fs, path, group, *r, why, len);
	if (ret && *r) {
		results_free(*r);
		*r = NULL;
	}
	return ret;
}

bool fileset_busy_recorded(const struct busy_count *bc, unsigned int n)
{
	unsigned int k;

	for (k = 0; k < n; k++)
		if (bc[k].files)
			return true;
	return false;
}

void fileset_busy_lines(FILE *f, const struct busy_count *bc, const char *const *name,
			unsigned int n, const char *what, const char *lead)
{
	char line[160];
	unsigned int k;

	if (!fileset_busy_recorded(bc, n))
		return;
	for (k = 0; k < n; k++) {
		busy_line(&bc[k], what, line, sizeof(line));
		fprintf(f, "%s%s: %s\n", lead, name[k], line);
	}
}

void fileset_busy_json(struct json *j, const struct busy_count *bc, const char *const *name,
		       unsigned int n)
{
	unsigned int k;

	if (!fileset_busy_recorded(bc, n))
		return;
	json_object_begin(j, "runs_disturbed");
	for (k = 0; k < n; k++) {
		json_object_begin(j, name[k]);
		json_u64(j, "runs", bc[k].runs);
		json_u64(j, "disturbed", bc[k].disturbed);
		json_object_end(j);
	}
	json_object_end(j);
}
