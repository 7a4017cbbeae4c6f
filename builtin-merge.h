/* SPDX-License-Identifier: GPL-2.0 */
/*
 * builtin-merge.h - what bench merge's two files share: builtin-merge.c
 * (its options, the shards read and checked) and builtin-merge-file.c
 * (one merged file: the runs renumbered, the metadata folded, written).
 * Nothing else includes it.
 */
#ifndef KSB_BUILTIN_MERGE_H
#define KSB_BUILTIN_MERGE_H

#include <stdbool.h>

#include "lib/kernel/sha256.h"

struct results;

#define MERGE_MAX_SHARDS	1000	/* bench vm --shard's N at most */

/*
 * what a shard's files say of the whole plan (lib/kernel/vmsweep.h, A
 * SHARD), by which bench merge proves the shards whole
 */
struct merge_shape {
	unsigned int files;		/* vm_plan_files: the plan's CSVs; 0: not said */
	unsigned int runs;		/* vm_plan_file_runs: the runs of each (-B) */
	unsigned int first, last;	/* vm_shard_boots: the plan boots the shard booted, */
	unsigned int boots;		/* of these (-B x kernels x counts) */
};

/* one shard's directory */
struct merge_shard {
	const char *dir;		/* as given */
	char plan[SHA256_HEX];		/* its files' vm_plan */
	unsigned int i, n;		/* their vm_shard I/N; n 0: none read yet */
	struct merge_shape shape;	/* what they say of the plan */
	char **name;			/* [nr] its *.csv and *.console, sorted */
	struct results **set;		/* [nr] each CSV read, NULL for a console */
	unsigned int nr;		/* files */
};

/**
 * merge_load - the result file @path into a new set *@r, through the one
 * loader (lib/results/fileset.h), its partial warning said and no rule
 * checked yet: merge_write() checks the shards' copies of each file
 * through one fileset. The one place bench merge reads one. 0,
 * EXIT_USAGE after one line naming the file, or EXIT_ENV (no memory).
 */
int merge_load(const char *path, struct results **r);

/**
 * merge_write - every file of the shards @by[0..@n-1] (NULL: missing,
 * named in @missing) merged into the directory @out, each atomically,
 * and one MERGE line on stdout. The shards' copies of a file are held to
 * the loader's rules (lib/results/fileset.h: one unit, one frac_bits, a
 * partial one makes the merge partial), each whole (its merge over the
 * runs their sum); the merge is proved whole by the plan's shape: every
 * file of the plan, each with every run, or with @partial (--partial)
 * each file says partial: yes and which runs it lacks. 0, EXIT_USAGE (a
 * shard's file that breaks a rule or does not add up, a file or a run of
 * the plan missing without @partial, an output that names an input), or
 * EXIT_ENV, said.
 */
int merge_write(const char *out, const char *cmdline, struct merge_shard *const *by,
		unsigned int n, const char *missing, bool partial);

/**
 * merge_shard_free - @s's names and sets; safe twice.
 */
void merge_shard_free(struct merge_shard *s);

#endif /* KSB_BUILTIN_MERGE_H */
