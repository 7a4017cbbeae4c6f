/* SPDX-License-Identifier: GPL-2.0 */
/*
 * battery.h - bench audit's list of entries: the built-in battery, a
 * battery file's lines, the order of one boot, and each entry's option
 * values. The header is the manual; builtin-audit.c runs the list.
 *
 * AN ENTRY
 *
 * An entry is one line in bench run's own workload syntax, a workload
 * of the running kernel (wl->real_kernel) and its options, parsed with
 * the option tables bench run parses (every workload's, so that an
 * option of another workload is named as such), plus the audit's own:
 *
 *	file-read --path /proc/net/dev
 *	proc-net-snmp = file-read --path /proc/net/snmp -n 512
 *	statfs --statfs-path /tmp --control
 *
 * "NAME =" names the entry; without it the name is the workload's, then
 * each workload option's value given, '.'-separated, every byte outside
 * [a-z0-9] made '-' (file-read.proc-net-dev). Names are [a-z0-9_.-], at
 * most BATTERY_NAME_MAX bytes, none twice. -n N is the entry's samples
 * (bench audit -n overrides every entry's); --control marks an entry
 * known not to grow with possible CPUs. '#' starts a comment; blank
 * lines are skipped. A bad line is -EINVAL with "FILE:LINE: why".
 *
 * THE FILE AN AUDIT WRITES (the contract with the readers)
 *
 * One results CSV (lib/results/csv.h, format 3) per audit, per boot
 * inside bench vm (whose file for the kernel and count then holds the
 * boots as runs 1..B, as for any command). Every entry that ran is one
 * series: workload = the entry's name, variant = its workload's label
 * (read, fork, syscall, ...), merged over the CPUs (cpu all) and one per
 * worker CPU. bench scale and bench compare fit each (entry, variant)
 * as any series. A skipped entry has no series.
 *
 * Metadata: bench run's testbed and timing keys (host, kernel, clock,
 * possible_cpus, online_cpus, used_cpus, mode, cache, unit, frac_bits,
 * stamps, timer overhead of the first entry that ran), with
 *	workload: audit
 *	samples_per_variant: bench audit's -n (an entry's own -n aside)
 *	samples_taken, disturbed, migrations: summed over the entries
 *	partial: yes when any entry stopped early (a signal)
 * and the audit's own keys:
 *	audit_battery: builtin | FILE | builtin + FILE (--battery FILE adds
 *	               FILE's entries after the built-in ones; --no-builtin
 *	               leaves those out)
 *	audit_entries: N, the battery's entries
 *	audit_boot: B, 1.., this boot's index (--boot B, else ksb_boot=B on
 *	            the kernel command line, which bench vm appends to each
 *	            boot's; else 1)
 *	audit_boot_from: option | kernel command line | none
 *	audit_order: NAME NAME ..., every entry, ran or skipped, in the order
 *	             this boot ran them: the battery's order rotated left by
 *	             (B - 1) mod N; boot 1 runs the battery's order
 *	audit_controls: NAME NAME ... | none, the entries marked --control
 *	audit_skipped: NAME NAME ... | none, the entries skipped
 *	audit_skip_why: NAME: REASON; NAME: REASON | none, one reason each,
 *	                no ';' inside a REASON (cut at the value's 1023
 *	                bytes: audit_skipped is the complete list)
 *	audit_disturbed: NAME=N ..., each ran entry's disturbed samples
 *	                 (cut likewise)
 *	audit_seconds: S, the whole battery's wall time
 *	audit_entry_seconds: NAME=S ..., each entry's (check, setup,
 *	                     samples, teardown), this boot's order
 * bench vm's merge keeps the first boot's metadata: boot b's order is
 * audit_order rotated left by (b - audit_boot) mod N.
 *
 * RETURNS AND THREADS
 *
 * Actions return 0 or -errno, with one line in @why for -EINVAL. Not
 * thread-safe: the option values are the workloads' globals, and
 * battery_apply() sets them for one entry at a time.
 */
#ifndef KSB_BATTERY_H
#define KSB_BATTERY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/measure/workload.h"

#define BATTERY_MAX		32	/* entries of a battery, built-in ones included */
#define BATTERY_NAME_MAX	30	/* bytes of an entry's name: 32 fit audit_order */
#define BATTERY_MAX_WORDS	32	/* words of one line */
#define BATTERY_SAVE_MAX	16	/* option values an entry sets */

/* one option value an entry gives: restored before it runs */
struct battery_val {
	void *where;			/* the option's value */
	unsigned char val[8];		/* its bytes: bool, u64, double, int or pointer */
	size_t len;			/* how many */
};

struct battery_entry {
	char name[BATTERY_NAME_MAX + 1];	/* the series' workload label */
	const struct workload *wl;	/* what it times */
	char line[512];			/* the line as given, for messages */
	char *words;			/* its words' storage: option strings point here */
	uint64_t samples;		/* its own -n, 0: the audit's */
	bool control;			/* --control, or a built-in control */
	const char *path;		/* built-in: the kernel path it is there for */
	const char *report;		/* built-in: the report, or NULL */
	struct battery_val save[BATTERY_SAVE_MAX];	/* its option values */
	unsigned int nr_save;		/* used */
	char where[96];			/* "builtin", or FILE:LINE */
};

struct battery {
	struct battery_entry e[BATTERY_MAX];	/* in the battery's order */
	unsigned int n;			/* used */
};

/* a built-in entry: its line and what it is there for */
struct battery_builtin {
	const char *line;		/* "NAME = WORKLOAD [OPTIONS]" */
	const char *path;		/* the kernel path, one line */
	const char *report;		/* the report that found it, or NULL */
};

/* the built-in battery, NULL-line-terminated, in its order */
extern const struct battery_builtin battery_builtins[];

/*
 * battery_add_builtin - every built-in entry into @b. Returns 0, or
 * -EINVAL with @why (a bug: a built-in line that does not parse).
 */
int battery_add_builtin(struct battery *b, char *why, size_t len);

/*
 * battery_add_line - the entry of @line (one line, no newline) into @b,
 * @where ("FILE:LINE") naming it in messages. A comment or blank line
 * adds nothing. Returns 0, -EINVAL with "@where: why" in @why (unknown
 * workload or option, a workload of no running kernel, a value out of
 * range, a bad or duplicate name, too many entries), -ENOMEM.
 */
int battery_add_line(struct battery *b, const char *line, const char *where,
		     char *why, size_t len);

/*
 * battery_read_file - every line of @path into @b, in order. Returns 0,
 * -EINVAL with "PATH:LINE: why" in @why, or another -errno with "PATH:
 * strerror" (unreadable: bad input too, for the caller).
 */
int battery_read_file(struct battery *b, const char *path, char *why,
		      size_t len);

/*
 * battery_order - the order boot @boot (1..) runs @n entries in: the
 * battery's rotated left by (@boot - 1) mod @n, into @idx[0..n-1].
 */
void battery_order(unsigned int n, unsigned int boot, unsigned int *idx);

/*
 * battery_apply - set every workload option to its default, then to
 * entry @e's values: what @e's workload reads when it runs.
 */
void battery_apply(const struct battery_entry *e);

/* battery_free - the entries' storage; @b stays valid, empty. */
void battery_free(struct battery *b);

#endif /* KSB_BATTERY_H */
