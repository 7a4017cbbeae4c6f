/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vmplug.h - what the project's QEMU plugin (plugin/ksbplugin.c,
 * docs/plugin.md) wrote in one boot of bench vm --plugin, read back and
 * made results sets of, one run (the boot) each, so that every reader
 * of results files (bench compare, scale, trend, show, merge) takes the
 * plugin's figures as it takes the guest's own:
 *
 *	out=  one row per window the guest marked (kmod/ksb_mark.h):
 *	      seq,vcpu,kind,tag,variant,insns,loads,stores,l1d_misses,llc_misses,io
 *	funcs= per window, one row per kernel function that ran in it:
 *	      seq,insns,l1d_misses,llc_misses,function
 *
 *	struct vmplug_boot b;
 *	vmplug_read(win, &b, why, len);		the windows
 *	each window's series named by the caller: b.w[i].series = k, or -1
 *	vmplug_pick(&b, s, ns);			each series' smallest window
 *	vmplug_sets(&b, s, ns, cmd, &lat, one);	its figures, one set a figure
 *	vmplug_funcs(fn, &b, s, ns, cmd, one[VMPLUG_FUNCS], why, len);
 *	results_add_run(file's set, one[f], boot) for each figure
 *	vmplug_free(&b);
 *
 * THE FIGURES, per series (a workload and variant of one command's
 * windows), each window one sample of the series' histogram in that
 * boot (frac_bits VMPLUG_FRAC_BITS: each bucket's sum exact, and so each
 * series' min, max and mean; a bucket a sixteenth of its power of two):
 *
 *	VMPLUG_INSNS	insn	the window's instructions: (WL, VAR)
 *	VMPLUG_MISSES	misses	lines that missed the model's L1d (WL,
 *				VAR.l1d), of them the LLC's (WL, VAR.llc)
 *	VMPLUG_ACCESSES	accesses  loads (WL, VAR.loads), stores (WL, VAR.stores)
 *	VMPLUG_CYCLES	est-cycles  an estimate, instructions + (L1d misses
 *				that hit the LLC) x llc latency + LLC misses x
 *				memory latency (struct vmplug_lat)
 *	VMPLUG_FUNCS	insn	the instructions each kernel function ran in
 *				the series' window of fewest instructions
 *				(FUNCTION, FVAR): one sample each; they add up
 *				to that window's instructions (frac_bits
 *				VMPLUG_FN_FRAC_BITS)
 *
 * The last three only where the cache model ran. FUNCTION is the
 * function's name as a series may carry it (vmplug_func_name()).
 *
 * Returns 0 or -errno, one line in @why where they say so; nothing
 * prints. Any thread, one boot a struct.
 */
#ifndef KSB_VMPLUG_H
#define KSB_VMPLUG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * the histograms' layout: a window figure's, and a function's, whose
 * series hold one sample a boot (thousands of them in an audit's boot:
 * 8 KiB each, where frac_bits 12 would take 7 MiB)
 */
#define VMPLUG_FRAC_BITS	4
#define VMPLUG_FN_FRAC_BITS	2
#define VMPLUG_MAX_LINE		4096	/* bytes of a line of the plugin's files */
#define VMPLUG_NAME		64	/* bytes of a series' workload, NUL included */

struct results;

/* a window's counts, as the out= file's columns */
enum vmplug_count {
	VMPLUG_C_INSNS,			/* instructions */
	VMPLUG_C_LOADS,			/* loads of RAM */
	VMPLUG_C_STORES,		/* stores to RAM */
	VMPLUG_C_L1D,			/* lines that missed the L1d */
	VMPLUG_C_LLC,			/* of them, lines that missed the LLC */
	VMPLUG_C_IO,			/* accesses to I/O, not modelled */
	VMPLUG_NR_COUNTS,
};

/* the figures, one results file each */
enum vmplug_figure {
	VMPLUG_INSNS,
	VMPLUG_MISSES,
	VMPLUG_ACCESSES,
	VMPLUG_CYCLES,
	VMPLUG_FUNCS,
	VMPLUG_NR_FIGURES,
};

/* "insns", "misses", "accesses", "cycles", "funcs": a file's suffix, plugin_figure */
extern const char *const vmplug_figures[];
/* each figure's unit: lib/results/counted.h's */
extern const char *const vmplug_units[];

/* one window the plugin closed */
struct vmplug_win {
	uint64_t seq;			/* its number, 1.. in the order windows opened */
	unsigned int kind;		/* KSB_MARK_RUN or KSB_MARK_KMOD */
	unsigned int tag;		/* the marker's tag */
	unsigned int variant;		/* the marker's variant: 0, 1, KSB_MARK_REF */
	uint64_t n[VMPLUG_NR_COUNTS];	/* its counts */
	int series;			/* the caller's: the series it is in, -1 none */
};

/* what one boot's out= file said */
struct vmplug_boot {
	struct vmplug_win *w;		/* [n], in the file's order */
	unsigned int n;			/* windows */
	unsigned int cap;		/* allocated */
	bool cache;			/* the cache model ran: loads, stores, misses count */
	bool ended;			/* its closing "# windows:" line: the plugin exited */
	uint64_t dropped;		/* windows opened and never closed */
};

/* a series of windows: one workload and variant of one command */
struct vmplug_series {
	char workload[VMPLUG_NAME];	/* the guest's series' workload */
	char variant[32];		/* and variant */
	char fvariant[32];		/* the funcs file's variant: the entry, or variant */
	unsigned int cmd;		/* the command whose windows they are */
	unsigned int windows;		/* out: vmplug_pick(): how many */
	int min_win;			/* out: its window of fewest instructions, -1 none */
};

/* the latencies of the estimate of cycles, in cycles */
struct vmplug_lat {
	double llc;			/* an L1d miss that hits the LLC */
	double mem;			/* an LLC miss */
};

/**
 * vmplug_read - the out= file @f into @b (zeroed first). Returns 0;
 * -EINVAL with @why naming the line (not the plugin's file, a row that
 * does not parse); -E2BIG for a line over VMPLUG_MAX_LINE; -ENOMEM; a
 * read's -errno. @b is the caller's to vmplug_free() either way.
 */
int vmplug_read(FILE *f, struct vmplug_boot *b, char *why, size_t len);

/**
 * vmplug_free - the windows of @b; safe twice.
 */
void vmplug_free(struct vmplug_boot *b);

/**
 * vmplug_pick - for each of the @ns series @s, how many of @b's windows
 * are in it (their .series) and which has the fewest instructions (the
 * first of equals): s[k].windows, s[k].min_win (an index of @b->w).
 */
void vmplug_pick(const struct vmplug_boot *b, struct vmplug_series *s, unsigned int ns);

/**
 * vmplug_sets - the figures of command @cmd's series among @s (THE
 * FIGURES), from @b's windows, as one-run sets (run "all") into
 * @out[VMPLUG_INSNS..VMPLUG_CYCLES] (the cache's three NULL where the
 * model did not run; VMPLUG_FUNCS untouched), each with its unit and
 * frac_bits in its metadata, latencies @lat for the estimate. Returns
 * 0, or -ENOMEM (then every set made is freed and NULL).
 */
int vmplug_sets(const struct vmplug_boot *b, const struct vmplug_series *s, unsigned int ns,
		unsigned int cmd, const struct vmplug_lat *lat, struct results **out);

/**
 * vmplug_funcs - command @cmd's VMPLUG_FUNCS figure: from the funcs=
 * file @f, the rows of each of its series' window of fewest
 * instructions (vmplug_pick() first), as a one-run set into *@out.
 * Returns 0; -EINVAL with @why naming the line (a row that does not
 * parse, or the functions of a window that do not add up to its
 * instructions); -E2BIG, -ENOMEM, a read's -errno. *@out is NULL on
 * error.
 */
int vmplug_funcs(FILE *f, const struct vmplug_boot *b, const struct vmplug_series *s,
		 unsigned int ns, unsigned int cmd, struct results **out, char *why, size_t len);

/**
 * vmplug_func_name - the plugin's bucket name @fn as a series'
 * workload may carry it ([a-z0-9_.-], under VMPLUG_NAME bytes), into
 * @buf: a name already so, as it is; "[user]" as "user-mode",
 * "[kernel]" as "kernel-no-symbol" (no C name has a '-'); any other
 * lowercased, each other byte '_', cut to 54 bytes, and "-" and 8 hex
 * digits of a hash of the whole name added, so that two names stay two.
 */
void vmplug_func_name(const char *fn, char *buf, size_t len);

#endif /* KSB_VMPLUG_H */
