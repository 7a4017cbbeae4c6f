/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fileset.h - the one loader of results files: what bench compare,
 * scale, trend and show read, and what bench merge reads and checks
 * per merged file. Each file is read once (lib/results/csv.h) and checked against
 * the set's first file, one rule per check, and what the sets say of
 * their runs is summed as they come:
 *
 *	check		the rule
 *	unit		a file without a "unit" key is in ns (CSV formats 1 and
 *			2 had no other); every file's unit is the first's, else
 *			-EINVAL: "a.csv is in ns, b.csv in cycles: the files
 *			must measure in one unit"; a count of instructions
 *			(COUNTED_UNIT, bench vm's counted clock) is never
 *			judged with a time, and the line says so
 *	plugin		a file the project's QEMU plugin counted (bench vm
 *			--plugin: its "plugin" key says by which settings, its
 *			plugin_figure what) and one of the guest's own (no
 *			such key: "none") are never judged together, nor the
 *			plugin's files of two settings (cache models, cold):
 *			every file's "plugin" is the first's, else -EINVAL:
 *			"a.csv was counted by the plugin (ksbplugin 1, ...),
 *			b.csv by none: ..."; a funcs file (plugin_figure:
 *			funcs), whose series are kernel functions and never an
 *			entry, passes and sets nothing: it is read beside the
 *			entries it attributes (bench scale --audit)
 *	frac_bits	every file's is the first's (the buckets line up),
 *			else -EINVAL: "a.csv has frac_bits 2, b.csv has 3:
 *			buckets differ"; a funcs file's is the first funcs
 *			file's (one sample a boot, never beside an entry's)
 *	possible_cpus	where a file says it, a count 1..NR_CPUS_MAX by the
 *			keys' table (lib/results/meta.h), else -EINVAL:
 *			"a.csv: possible_cpus 'many' is not a count 1..8192"
 *	partial		"partial: yes" (an interrupted run) is read, never
 *			refused: results_partial() says so, the caller warns
 *			once per file (bench_load_file() does, with
 *			FILESET_PARTIAL_WARNING), and fs->partial counts them
 *	contention	busy_count() (lib/results/busy.h) of every file into
 *			fs->busy[group]: how many runs the host disturbed, per
 *			group of files (compare's two sides, scale's A and B);
 *			a file that recorded none adds nothing
 *
 * A command with two groups that must measure alike (compare's BEFORE
 * and AFTER, scale's A and B) gives both to one fileset; one whose
 * groups are checked apart (trend's subject and control, paired by
 * lib/stats/history.h) takes one fileset each, and holds the two to
 * the unit rule with fileset_check_unit().
 *
 *	struct fileset fs = { 0 };
 *	struct results *set;
 *	char why[1024];
 *
 *	for (i = 0; i < n; i++) {
 *		ret = fileset_read(&fs, path[i], 0, &set, why, sizeof(why));
 *		if (ret)
 *			...		print why: exit 2 (-ENOMEM: 3)
 *		if (results_partial(set))
 *			...		warn: FILESET_PARTIAL_WARNING
 *		...			keep set, or results_free() it
 *	}
 *	busy_line(&fs.busy[0], "runs", line, sizeof(line));
 *
 * The fileset keeps @path pointers, not copies: they must outlive it.
 * One fileset per thread; no other state.
 */
#ifndef KSB_FILESET_H
#define KSB_FILESET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "lib/results/busy.h"

struct results;

/* groups one fileset counts apart */
#define FILESET_GROUPS	2
/* bytes of a plugin identity compared (a "plugin" value), NUL included */
#define FILESET_PLUGIN	256

/* the one warning of a partial file, printf-style over its path */
#define FILESET_PARTIAL_WARNING \
	"warning: %s was interrupted (partial: yes): its last run may hold fewer samples"

struct fileset {
	const char *first;		/* the first file's path: the rules' reference */
	char unit[16];			/* its unit, "ns" when it says none */
	const char *frac_first;		/* the first file but a funcs file: the frac_bits rule's */
	unsigned int frac_bits;		/* its histograms' layout */
	const char *fn_first;		/* the first funcs file, its own frac_bits rule's */
	unsigned int fn_frac_bits;	/* its layout */
	const char *plugin_first;	/* the first file but a funcs file: the plugin rule's */
	char plugin[FILESET_PLUGIN];	/* its "plugin", "none" when it has none */
	unsigned int n;			/* files checked */
	unsigned int partial;		/* of them with "partial: yes" */
	struct busy_count busy[FILESET_GROUPS]; /* their runs' contention, per group */
};

/**
 * fileset_unit - the unit of @r by the rule above: its "unit" key, or
 * "ns" when it has none. The one reading of a set's unit: the rules here,
 * the history's (lib/stats/history.h) and every writer of a results set
 * (lib/report/format.h) take it.
 */
const char *fileset_unit(const struct results *r);

/**
 * fileset_plugin - what counted @r by the plugin rule above: its
 * "plugin" key, "none" when it has none (the guest's own figures); NULL
 * for a funcs file, which the rule lets pass.
 */
const char *fileset_plugin(const struct results *r);

/**
 * fileset_check - check @r, read from @path, against @fs's first file by
 * the rules above (the first file checked sets them), and count it into
 * @fs, its runs' contention into group @group (< FILESET_GROUPS).
 * Returns 0, or -EINVAL with one line in @why naming both files (then
 * @fs is as it was).
 */
int fileset_check(struct fileset *fs, const char *path, unsigned int group,
		  const struct results *r, char *why, size_t len);

/**
 * fileset_check_unit - the unit rule between two filesets read apart
 * (trend's subject @a and its control @b, whose frac_bits may differ):
 * @b's first file's unit is @a's. Returns 0 (also when either read no
 * file), or -EINVAL with the rule's line in @why naming both first files.
 */
int fileset_check_unit(const struct fileset *a, const struct fileset *b, char *why, size_t len);

/**
 * fileset_read - read the results file @path ("-": stdin) into a new set
 * *@r and fileset_check() it. Returns 0; -EINVAL with "PATH:LINE: why"
 * (the file does not parse) or a rule's line in @why; another -errno
 * (the file cannot be opened: ENOENT, EACCES, EISDIR; or ENOMEM) with
 * "PATH: why". On error *@r is NULL and @fs as it was. A NULL @fs checks
 * nothing: for a command that groups its files only once they are read
 * (bench merge: a shard's files by name), and then fileset_check()s each
 * group's through one fileset.
 */
int fileset_read(struct fileset *fs, const char *path, unsigned int group, struct results **r,
		 char *why, size_t len);

/*
 * How the reports carry the contention, every format alike, for @n
 * groups @bc[] named @name[] ("before", "after"; a scale group's name),
 * and nothing at all when no group recorded a run:
 *
 * fileset_busy_recorded - a group of @bc[@n] recorded a run.
 * fileset_busy_lines - per group "NAME: N of M runs disturbed (psi cpu
 * some > 40% of the window)" (busy_line(), @what "runs" or "boots"),
 * each line after @lead ("" for a table, "- " for a markdown list).
 * fileset_busy_json - "runs_disturbed": { "NAME": { "runs": M,
 * "disturbed": N }, ... } into the open object of @j.
 */
struct json;
bool fileset_busy_recorded(const struct busy_count *bc, unsigned int n);
void fileset_busy_lines(FILE *f, const struct busy_count *bc, const char *const *name,
			unsigned int n, const char *what, const char *lead);
void fileset_busy_json(struct json *j, const struct busy_count *bc, const char *const *name,
		       unsigned int n);

#endif /* KSB_FILESET_H */
