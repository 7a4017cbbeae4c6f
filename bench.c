// SPDX-License-Identifier: GPL-2.0
/*
 * bench.c - kstats-bench: main() and the subcommand registry. The
 * subcommands live in builtin-*.c, as perf's do; what they share, the
 * messages and the option parsing, in bench-util.c (bench.h).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "build/version.h"	/* BENCH_GIT, written by the Makefile */

#define BENCH_VERSION	"0.1.0"

const char bench_release[] = BENCH_VERSION;
const char bench_git[] = BENCH_GIT;

/* ---- subcommand registry ---- */

struct cmd {
	const char *name;	/* word after "bench" */
	const char *summary;	/* one line for `bench --help` */
	int (*fn)(int argc, char **argv);	/* returns an exit code */
	/* parse-only, for bench_check_cmd(): 0 or -EINVAL with why; NULL: none */
	int (*check)(int argc, char **argv, char *why, size_t len);
};

static const struct cmd cmds[] = {
	{ "run", "time a workload's old and new paths on pinned workers",
	  cmd_run, cmd_run_check },
	{ "list", "list the workloads and the audit's entries", cmd_list, NULL },
	{ "audit", "time a battery of kernel entry points that may pay per possible CPU",
	  cmd_audit, cmd_audit_check },
	{ "calibrate", "TSC frequency, clocksource, per-CPU timer overhead",
	  cmd_calibrate, NULL },
	{ "compare", "compare a before and an after CSV: the CI regression gate",
	  cmd_compare, NULL },
	{ "trend", "change points over a history of results: the nightly job",
	  cmd_trend, NULL },
	{ "scale", "the cost per possible CPU of each series over a sweep, and its gate",
	  cmd_scale, NULL },
	{ "show", "print a CSV again as its command printed it, or one series",
	  cmd_show, NULL },
	{ "hist", "print the kstats table of a list of integer samples",
	  cmd_hist, NULL },
	{ "kernel", "time the same code inside the running kernel (module, root)",
	  cmd_kernel, cmd_kernel_check },
	{ "trace", "time any kernel function with BPF into kstats tables (root)",
	  cmd_trace, cmd_trace_check },
	{ "vm", "boot kernels under test in qemu, many possible CPUs, run bench in each",
	  cmd_vm, NULL },
	{ "merge", "join the shards of a bench vm plan into the files of one run",
	  cmd_merge, NULL },
	{ "doctor", "check this host for what makes timings noisy; changes nothing",
	  cmd_doctor, NULL },
	{ "bisect", "the commit of a kernel tree that made bench compare fail",
	  cmd_bisect, NULL },
	{ "sweep", "bench run at each power of two of possible CPUs, and the sweep's table",
	  cmd_sweep, NULL },
	{ NULL, NULL, NULL, NULL },
};

#define for_each_cmd(c) for ((c) = cmds; (c)->name; (c)++)

int bench_check_cmd(int argc, char **argv, char *why, size_t len)
{
	const struct cmd *c;

	for_each_cmd(c)
		if (!strcmp(c->name, argv[0]))
			return c->check ? c->check(argc, argv, why, len) : 0;
	return 0;
}

int bench_check_value(int argc, char **argv, const char *word, char *val, size_t vlen,
		      char *why, size_t len)
{
	int ret;

	val[0] = 0;
	bench_check_peek(word, val, vlen);
	ret = bench_check_cmd(argc, argv, why, len);
	bench_check_peek(NULL, NULL, 0);
	return ret;
}

/* ---- main ---- */

static void usage(FILE *f)
{
	const struct cmd *c;

	fprintf(f, "Usage: bench [--help | --version | --list-cmds | --list-opts COMMAND |\n"
		   "              --list-values COMMAND OPTION | --list-arg COMMAND OPTION]\n"
		   "       bench COMMAND [OPTIONS]\n"
		   "kstats-bench: kstats latency histograms of kernel code paths.\n\n"
		   "Commands:\n");
	for_each_cmd(c)
		fprintf(f, "  %-10s %s\n", c->name, c->summary);
	fprintf(f, "\n'bench COMMAND --help' describes one command.\n"
		   "Exit: 0 done, 1 regression (compare, trend, scale) or none to bisect (bisect),\n"
		   "2 bad usage or input, 3 the environment refused or writing an output failed,\n"
		   "130/143 interrupted.\n");
}

/* the words of completion bench itself takes, and what follows each */
static const struct bench_list lists[] = {
	{ "--list-cmds", "" },
	{ "--list-opts", "COMMAND" },
	{ "--list-values", "COMMAND OPTION" },
	{ "--list-arg", "COMMAND OPTION" },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static char name[64];
	const struct cmd *c;

	/* a closed stdout is an EPIPE for bench_finish_stdout(), not a kill */
	signal(SIGPIPE, SIG_IGN);
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return bench_finish_stdout();
	}
	if (bench_list_words(lists, argc, argv))
		return EXIT_USAGE;
	if (!strcmp(argv[1], "--list-cmds") && argc == 2) {
		for_each_cmd(c)
			puts(c->name);
		return bench_finish_stdout();
	}
	/*
	 * --list-opts CMD, --list-values CMD OPT, --list-arg CMD OPT: CMD's
	 * own parser lists its table, OPT's values or OPT's argument, as
	 * CMD --list-opts, CMD --list-values OPT, CMD --list-arg OPT
	 */
	if ((!strcmp(argv[1], "--list-opts") && argc == 3) ||
	    ((!strcmp(argv[1], "--list-values") || !strcmp(argv[1], "--list-arg")) &&
	     argc == 4)) {
		argv[0] = argv[1];
		argv[1] = argv[2];
		argv[2] = argv[0];
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("bench (kstats-bench) %s (git %s)\n", bench_release, bench_git);
		return bench_finish_stdout();
	}
	for_each_cmd(c) {
		if (strcmp(argv[1], c->name))
			continue;
		snprintf(name, sizeof(name), "bench %s", c->name);
		bench_prog = name;
		argv[1] = name;
		return c->fn(argc - 1, argv + 1);
	}
	bench_err("'%s' is not a command", argv[1]);
	return EXIT_USAGE;
}
