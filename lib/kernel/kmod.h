/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmod.h - the protocol of the module kmod/kstats_bench.ko, as `bench
 * kernel` speaks it through debugfs (KMOD_DIR):
 *
 *	control  written: "workload=W samples=N frac_bits=B [cpus=LIST]\n"
 *	         starts a run (-EINVAL: bad parameters, -EBUSY: one runs);
 *	         "stop" ends it at the next sample
 *	results  read: "kstats_bench 2", then "key value" lines (state,
 *	         possible_cpus, nr_cpu_ids, online_cpus, clock, workload,
 *	         irqs, variants, variant_<v>, reference, samples, frac_bits,
 *	         cpus, taken, error), then per histogram (the two variants,
 *	         then "reference", the module's reference loop)
 *	             hist VARIANT CPU NODE n min max
 *	         (CPU and NODE -1 for the merge over the CPUs) and one
 *	             SLOT COUNT SUM_HI SUM_LO
 *	         line per non-empty slot (its exact sum SUM_HI * 2^64 +
 *	         SUM_LO), then "end"
 *
 *	struct results *r;
 *	struct meta hdr = { 0 };
 *	struct kmod_error err;
 *
 *	kmod_control("workload=kernel-set-defaults samples=8192 frac_bits=2\n");
 *	... wait while meta_get(&hdr, "state") is "running" ...
 *	kmod_read_results(&text);
 *	kmod_parse(text, 2, &hdr, &r, &err);
 *
 * The histograms read back are the module's exactly: n, min, max, and
 * each slot's count and sum (so its AVG and the mean too).
 * No state; the library prints nothing.
 */
#ifndef KSB_KMOD_H
#define KSB_KMOD_H

#define KMOD_NAME	"kstats_bench"
/*
 * The module's sources are Kbuild, Makefile and every ksb*.c and ksb*.h
 * of its directory (kmod/): what kmod_build() copies and make install
 * installs. KMOD_SRC_MARK marks the directory.
 */
#define KMOD_SRC_MARK	"ksb_core.c"
#define KMOD_DEBUGFS	"/sys/kernel/debug"
#define KMOD_DIR	KMOD_DEBUGFS "/" KMOD_NAME
#define KMOD_MAGIC	"kstats_bench 2"	/* the results file's first line */

#include <stddef.h>

struct meta;
struct results;

/**
 * kmod_control - write @cmd to the control file. 0 or -errno.
 */
int kmod_control(const char *cmd);

/**
 * kmod_read_results - the whole results file into *@text (malloc()ed,
 * NUL-terminated; the caller frees it, the previous one too). 0 or
 * -errno.
 */
int kmod_read_results(char **text);

/* where kmod_parse() found fault */
struct kmod_error {
	unsigned long line;		/* line of the results file */
	char why[128];			/* what is wrong */
};

/**
 * kmod_parse - the results text @text (modified: split into lines) into
 * @hdr (its "key value" lines, added) and a new set *@out of frac_bits
 * @fb: a series per hist line, labelled (the "workload" line, VARIANT,
 * run "all", CPU, NODE), each slot line checked (COUNT > 0, its sum
 * that of COUNT values of the slot for @fb), n equal to the counts'
 * sum, min and max in the first and last slot. A run still going has no
 * hist lines: *@out then holds no series.
 * Returns 0, -EINVAL with @err (not the module's format: another
 * version?), or -ENOMEM. *@out is NULL on error.
 */
int kmod_parse(char *text, unsigned int fb, struct meta *hdr, struct results **out,
	       struct kmod_error *err);

/**
 * kmod_src_dir - where the module's sources are, the one rule bench
 * kernel and bench vm follow (scripts build through bench kernel
 * --build): the first of EXE/kmod and
 * EXE/../share/kstats-bench/kmod (where make install puts them) that
 * holds KMOD_SRC_MARK, EXE being the directory bench runs from. Into
 * @dir (@len bytes). Returns 0, or -ENOENT (neither has them).
 */
int kmod_src_dir(char *dir, size_t len);

/**
 * kmod_dir - where bench kernel looks for kstats_bench.ko: kmod_src_dir(),
 * else the first of the same two that holds a built kstats_bench.ko and
 * no sources (a bench vm guest: /kmod/kstats_bench.ko beside /bench).
 * Into @dir (@len bytes). Returns 0, or -ENOENT.
 */
int kmod_dir(char *dir, size_t len);

/**
 * kmod_build - the one build of the module: kstats_bench.ko against the
 * configured kernel tree @tree (make -s -C @tree M=DIR modules), make's
 * output onto @log_fd (-1: ours). DIR is @dst, a new directory that the
 * module's sources (kmod_src_dir()) are copied into first, or, with @dst
 * NULL, the sources' own directory (bench kernel builds in place).
 * Afterwards DIR/kstats_bench.ko. bench kernel, bench kernel --build
 * (for scripts) and bench vm --kbuild build through it. Returns 0,
 * -ENOENT (no sources), -errno of copying them (-EEXIST: @dst exists),
 * or make's exit code (> 0) when it failed; a @dst it made is removed
 * again, with what the build left in it, on any failure.
 */
int kmod_build(const char *tree, const char *dst, int log_fd);

/* what kmod_src_dir()'s and kmod_dir()'s -ENOENT means, one line */
#define KMOD_NO_SRC	"no module sources (kmod/) beside bench or in ../share/kstats-bench"

/**
 * kmod_build_why - why kmod_build(@tree, @dir, ...) returned @ret (not 0),
 * one line into @why (@len bytes): KMOD_NO_SRC for -ENOENT, "copying the
 * module's sources to DIR: ERROR" for another -errno, "building the
 * module against TREE failed (make -C TREE M=DIR modules)" for make's
 * exit code.
 */
void kmod_build_why(char *why, size_t len, int ret, const char *tree, const char *dir);

#endif /* KSB_KMOD_H */
