/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench.h - what the subcommands of bench share: exit codes, messages
 * and option parsing. Only bench*.c and builtin-*.c print to stdout or
 * decide the exit code; the library (kstats_hist.c, lib/, workloads/)
 * returns 0 or -errno.
 */
#ifndef KSB_BENCH_H
#define KSB_BENCH_H

#include <stddef.h>
#include <stdint.h>

/* exit codes, for every command */
enum {
	EXIT_DONE = 0,		/* done */
	EXIT_REGRESSION = 1,	/* compare found a significant regression */
	EXIT_USAGE = 2,		/* bad usage or input: one line names it */
	EXIT_ENV = 3,		/* the environment refused */
};				/* 130/143: interrupted, partial results kept */

/* "bench" or "bench CMD": the prefix of every message */
extern const char *bench_prog;

/* bench_err - "bench CMD: <fmt> (see 'bench CMD --help')" on stderr. */
void bench_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * bench_cmdline - @argv joined by spaces into @buf (@len bytes, cut
 * there), for the "command" metadata.
 */
void bench_cmdline(char *buf, size_t len, int argc, char **argv);

/*
 * bench_parse_u64 - a decimal option value in [min, max]. On error prints
 * one line naming the option and the range, and returns -1; else 0.
 */
int bench_parse_u64(const char *arg, uint64_t min, uint64_t max,
		    const char *name, uint64_t *out);

/*
 * bench_parse_double - a real number in (lo, hi) (hi 0: unbounded); -1
 * after a message that states @range, else 0.
 */
int bench_parse_double(const char *arg, double lo, double hi, const char *name,
		       const char *range, double *out);

/*
 * bench_parse_enum - index of @arg in the NULL-terminated @names, or -1
 * after a message listing the valid names.
 */
int bench_parse_enum(const char *arg, const char *const *names,
		     const char *name);

/*
 * bench_getopt_fail - one line for what getopt_long (opterr = 0, a
 * leading ':' in the optstring) rejected: @c is '?' or ':'.
 */
void bench_getopt_fail(int c, char **argv);

/*
 * bench_finish_stdout - flush stdout: EXIT_DONE, or EXIT_ENV after a
 * message on a failed write. A closed pipe (bench run | head) is done.
 */
int bench_finish_stdout(void);

/* the subcommands, each returning its exit code */
int cmd_run(int argc, char **argv);		/* builtin-run.c */
int cmd_list(int argc, char **argv);		/* builtin-run.c */
int cmd_calibrate(int argc, char **argv);	/* builtin-run.c */
int cmd_compare(int argc, char **argv);		/* builtin-compare.c */
int cmd_show(int argc, char **argv);		/* builtin-compare.c */
int cmd_hist(int argc, char **argv);		/* builtin-hist.c */
int cmd_kernel(int argc, char **argv);		/* builtin-kernel.c */

#endif /* KSB_BENCH_H */
