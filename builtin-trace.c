// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-trace.c - bench trace: time any kernel function with BPF into
 * kstats histograms, as kstats' `trace` does (lib/kernel/trace.c loads
 * bpf/ksb_trace.bpf.c): attach, record until COMMAND exits, for
 * --duration, or until SIGINT; then print and write what bench run does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <numa.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "kstats_hist.h"
#include "lib/report/format.h"
#include "lib/host/host.h"
#include "lib/report/kcidb.h"
#include "lib/subcmd/outfile.h"
#include "lib/subcmd/outset.h"
#include "lib/subcmd/readfile.h"
#include "lib/results/results.h"
#include "lib/subcmd/spawn.h"
#include "lib/host/testbed.h"
#include "lib/kernel/trace.h"

#define TR_MAX_DURATION	31536000.0	/* --duration below it: a year, s */
#define TR_MAX_NAME	63		/* FUNC, the workload label: results.h's */

/* the two series, as the CSV's variants */
static const char *const tr_variants[KSB_TRACE_NR_SERIES] = { "time", "gap" };

/*
 * bench trace's state, configuration then run state: one instance, whose
 * address cmd_trace() passes down (perf's struct record); tr_opts[]
 * names it, a table's values being addresses.
 */
static struct tr_global {
	/* configuration */
	struct trace_cfg cfg;		/* function, --end, --probe, -v */
	uint64_t frac_bits;		/* -b, into cfg.frac_bits */
	const char *name;		/* FUNC: the tables' name */
	double duration;		/* -d, s; 0: until COMMAND or SIGINT */
	int format;			/* -f, an index of formats[] */
	const char *output;		/* -o */
	struct outset also;		/* --also FMT=FILE */
	struct bench_origin who;	/* --label, --origin */
	bool quiet;			/* -q */
	char **command;			/* after "--", NULL-terminated; NULL: none */
	char cmdline[1024];		/* for the metadata */

	/* run state */
	struct outfile out;		/* -o, open from the start */
	struct testbed tb;		/* the host, read before recording */
	struct trace *t;		/* attached */
	struct results *res;		/* what it recorded, to report */
	struct spawn child;		/* COMMAND by the process runner; .status once reaped */
	bool child_started;		/* COMMAND runs, or ran */
	bool child_done;		/* reaped */
	int signo;			/* SIGINT/SIGTERM that stopped us, or 0 */
	bool partial;			/* stopped before --duration or COMMAND ended */
	double start;			/* CLOCK_MONOTONIC s when recording began */
	bool stopped;			/* recording has stopped */
	double elapsed;			/* s recorded */
} tr_global;

/* ---- options ---- */

static const struct opt tr_opts[] = {
	OPT_ENUM('p', "probe", &tr_global.cfg.probe, trace_probe_names, "KIND",
		 "auto (default): fentry/fexit where the kernel's BTF\n"
		 "describes the function, else kprobe/kretprobe;\n"
		 "fentry; kprobe"),
	OPT_STRING('s', "start", &tr_global.cfg.func, "F1",
		   "the function timed, or the section's start\n"
		   "(default FUNC, which names the tables)"),
	OPT_STRING('e', "end", &tr_global.cfg.end, "F2",
		   "time the section from the entry of F1 to the\n"
		   "entry of F2 on one CPU, not F1's calls"),
	OPT_U64('b', "frac-bits", &tr_global.frac_bits, 0, KSTATS_HIST_FRAC_BITS_MAX, "B",
		"histogram sub-bucket bits, 0..12 (default 2)"),
	OPT_DOUBLE('d', "duration", &tr_global.duration, 0, TR_MAX_DURATION, "in (0,31536000) s", "SECS",
		   "record for SECS seconds (default: until COMMAND\n"
		   "exits, or until SIGINT)"),
	OPT_FORMAT('f', "format", &tr_global.format, formats, "FMT", "what goes to stdout:"),
	OPT_STRING('o', "output", &tr_global.output, "FILE",
		   "also write the CSV (per-CPU and merged) to FILE"),
	OPT_ALSO(&tr_global.also),
	OPT_CALL(0, "label", &tr_global.who, bench_opt_label, "KEY=VALUE",
		 "record label_KEY: VALUE in the metadata; repeatable"),
	OPT_ORIGIN(&tr_global.who, bench_opt_origin, ", kept in the file"),
	OPT_FLAG('q', "quiet", &tr_global.quiet, "no progress on stderr"),
	OPT_FLAG('v', "verbose", &tr_global.cfg.verbose, "libbpf's messages on stderr"),
	OPT_END()
};

/*
 * the words after the options, optind.. before @dd (the first "--" or
 * @argc): one FUNC that can name the tables, and a COMMAND after "--"
 * when there is one. 0, or -EINVAL with @why.
 */
static int tr_check_words(int argc, char **argv, int dd, char *why, size_t len)
{
	const char *name = argv[optind];

	if (optind >= dd) {
		snprintf(why, len, "no function to trace");
		return -EINVAL;
	}
	if (optind < dd - 1) {
		snprintf(why, len, "unexpected argument '%s' (a command goes after '--')",
			 argv[optind + 1]);
		return -EINVAL;
	}
	if (dd == argc - 1) {
		snprintf(why, len, "no command after '--'");
		return -EINVAL;
	}
	if (!*name || strlen(name) > TR_MAX_NAME ||
	    name[strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_.-")]) {
		snprintf(why, len, "FUNC '%s' names the tables: [a-z0-9_.-], 1 to %d characters (trace another function with --start)",
			 name, TR_MAX_NAME);
		return -EINVAL;
	}
	return 0;
}

int cmd_trace_check(int argc, char **argv, char *why, size_t len)
{
	const struct opt *tab[] = { tr_opts, NULL };
	struct opt_parser p = { .tab = tab };
	int dd;

	for (dd = 1; dd < argc && strcmp(argv[dd], "--"); dd++)
		;
	return bench_check_parse(&p, dd, argv, why, len) ?:
	       tr_check_words(argc, argv, dd, why, len);
}

/*
 * Everything before the first "--" is options and FUNC, everything after
 * it COMMAND. Returns 0 to run, 1 after --help, -1 after a usage error.
 */
static int tr_parse(struct tr_global *tr, int argc, char **argv)
{
	const struct opt *tab[] = { tr_opts, NULL };
	struct opt_parser p = { .tab = tab };
	int ret, dd;

	for (dd = 1; dd < argc && strcmp(argv[dd], "--"); dd++)
		;
	if (dd < argc - 1)
		tr->command = argv + dd + 1;
	ret = bench_options(&p,
		"Usage: bench trace [OPTIONS] FUNC [-- COMMAND [ARG...]]\n"
		"Time every call of the kernel function FUNC with BPF, from its entry to its\n"
		"return, into kstats histograms per CPU in the kernel, as kstats' trace does,\n"
		"with a second series (kstats' GAP table): the time from one call's end to the\n"
		"next call's start on the same CPU. Records until COMMAND exits, for\n"
		"--duration, or until SIGINT, then prints and writes what bench run does.\n"
		"Needs root and a kernel that allows BPF tracing (kprobes, or BTF for fentry).\n",
		"Stamps are bpf_ktime_get_ns() (CLOCK_MONOTONIC ns, as kstats' ktime_get_ns()).\n"
		"Each time includes what the probe adds inside the timed window: see\n"
		"docs/measurements.md, \"bench trace: the probe's overhead\", for the figures\n"
		"to subtract.\n"
		"Exit: 0 done, 2 bad usage, 3 the environment refused (not root, no BTF for\n"
		"fentry, no such function or not probeable, the kernel refuses BPF) or\n"
		"writing an output failed, 130/143 interrupted (partial results); SIGINT or\n"
		"SIGTERM is the end of a trace without COMMAND or --duration: 0.\n",
		dd, argv);

	if (ret)
		return ret;
	if (tr_check_words(argc, argv, dd, p.why, sizeof(p.why))) {
		bench_err("%s", p.why);
		return -1;
	}
	tr->name = argv[optind];
	tr->cfg.frac_bits = (unsigned int)tr->frac_bits;
	if (!tr->cfg.func)
		tr->cfg.func = tr->name;
	return 0;
}

/* ---- recording ---- */

/* COMMAND in a child with the signals of a fresh process (lib/subcmd/spawn.h): 0,
 * EXIT_USAGE when it cannot be run, EXIT_ENV when no process can be made */
static int tr_spawn(struct tr_global *tr)
{
	int ret;

	tr->child = (struct spawn){ .argv = tr->command, .out_fd = -1, .err_fd = -1 };
	ret = spawn_start(&tr->child);
	if (!ret) {
		tr->child_started = true;
		return 0;
	}
	if (ret == -EAGAIN || ret == -ENOMEM || ret == -EMFILE)
		return bench_refused("starting '%s': %s", tr->command[0], strerror(-ret));
	bench_err("cannot run '%s': %s", tr->command[0], strerror(-ret));
	return EXIT_USAGE;
}

/* reap COMMAND if it ended; true when it has */
static bool tr_reaped(struct tr_global *tr)
{
	if (!tr->child_started || tr->child_done)
		return tr->child_done;
	if (spawn_poll(&tr->child, 0) == 1)
		tr->child_done = true;
	return tr->child_done;
}

/* stop recording, once: what the slots hold from then on is what is reported */
static void tr_stop_recording(struct tr_global *tr)
{
	if (tr->stopped)
		return;
	trace_stop(tr->t);
	tr->elapsed = spawn_now() - tr->start;
	tr->stopped = true;
}

/* bench_wait() while recording: done when COMMAND exits, --duration passes */
static int tr_poll(void *priv)
{
	struct tr_global *tr = priv;

	if (tr_reaped(tr) || (tr->signo && !tr->child_started))
		return 1;
	return !tr->signo && tr->duration > 0 && spawn_now() - tr->start >= tr->duration;
}

/* did the terminal send @sig to our whole process group, COMMAND too? */
static bool tr_from_terminal(int sig)
{
	return sig == SIGINT && isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) == getpgrp();
}

/*
 * The first SIGINT/SIGTERM: recording stops; COMMAND gets the signal
 * unless the terminal sent it to COMMAND as well, and is waited for.
 * With neither COMMAND nor --duration it is the planned end.
 */
static void tr_stop(void *priv, int sig)
{
	struct tr_global *tr = priv;

	tr_stop_recording(tr);
	tr->partial = tr->command || tr->duration > 0;
	if (!tr_reaped(tr) && !tr_from_terminal(sig))
		spawn_kill(&tr->child, sig);
}

/* the second: COMMAND must not outlive us, nor a half-written -o */
static void tr_leave(void *priv)
{
	struct tr_global *tr = priv;

	if (!tr_reaped(tr))
		spawn_kill(&tr->child, SIGKILL);
	outfile_abort(&tr->out);
	outset_abort(&tr->also);
}

static void tr_progress(void *priv)
{
	const struct tr_global *tr = priv;

	fprintf(stderr, "%s by %s, %.1f s", tr->name,
		trace_probe_names[trace_probe_used(tr->t)], spawn_now() - tr->start);
}

/* bench_wait() on COMMAND after --duration ended first: sent SIGTERM */
static int tr_poll_child(void *priv)
{
	struct tr_global *tr = priv;

	return tr_reaped(tr);
}

/* a signal while COMMAND does not end on its SIGTERM: it is killed */
static void tr_stop_child(void *priv, int sig)
{
	struct tr_global *tr = priv;

	(void)sig;
	spawn_kill(&tr->child, SIGKILL);
}

static int tr_record(struct tr_global *tr)
{
	struct bench_wait w = {
		.poll = tr_poll, .stop = tr_stop, .leave = tr_leave, .progress = tr_progress,
		.priv = tr, .tick_ms = 100, .wake = SIGCHLD, .quiet = tr->quiet,
		.signo = &tr->signo,
	};
	int ret;

	if (!tr->quiet)
		pr_err("tracing %s%s%s by %s%s", tr->cfg.func,
		       tr->cfg.end ? " to " : "", tr->cfg.end ? tr->cfg.end : "",
		       trace_probe_names[trace_probe_used(tr->t)],
		       tr->command || tr->duration > 0 ? "" : ", Ctrl-C to stop");
	trace_start(tr->t);
	tr->start = spawn_now();
	if (tr->command && (ret = tr_spawn(tr))) {
		tr_stop_recording(tr);
		return ret;
	}
	bench_wait(&w);
	tr_stop_recording(tr);
	if (tr->child_started && !tr_reaped(tr)) {
		if (!tr->signo)
			spawn_kill(&tr->child, SIGTERM);
		w.poll = tr_poll_child;
		w.stop = tr_stop_child;
		w.progress = NULL;
		bench_wait(&w);
	}
	ret = trace_collect(tr->t);
	if (ret)
		return bench_refused("reading the BPF maps: %s", strerror(-ret));
	return 0;
}

/* ---- reporting ---- */

/* CPUs with samples of the function's series */
static unsigned int tr_used_cpus(const struct tr_global *tr)
{
	unsigned int cpu, n = 0;

	for (cpu = 0; cpu < trace_nr_cpus(tr->t); cpu++)
		n += trace_hist(tr->t, KSB_TRACE_TIME, (int)cpu) != NULL;
	return n;
}

static int tr_node(unsigned int cpu)
{
	int node = numa_available() < 0 ? 0 : numa_node_of_cpu((int)cpu);

	return node < 0 ? 0 : node;
}

/* what each series is, in words */
static void tr_describe(const struct tr_global *tr, unsigned int s, char *buf, size_t len)
{
	if (s == KSB_TRACE_GAP)
		snprintf(buf, len, "from the end of one %s to the start of the next on the same CPU",
			 tr->cfg.end ? "section" : "call");
	else if (tr->cfg.end)
		snprintf(buf, len, "from the entry of %s to the entry of %s on one CPU",
			 tr->cfg.func, tr->cfg.end);
	else
		snprintf(buf, len, "%s() from its entry to its return", tr->cfg.func);
}

/* the series, merged over CPUs then each CPU's, into the results set */
static int tr_results(struct tr_global *tr)
{
	struct results_label l = { .workload = tr->name, .run = RESULTS_RUN_ALL };
	const struct kstats_hist *h;
	unsigned int s, cpu;
	int ret = 0;

	tr->res = results_create(tr->cfg.frac_bits);
	if (!tr->res)
		return -errno;
	for (s = 0; !ret && s < KSB_TRACE_NR_SERIES; s++) {
		l.variant = tr_variants[s];
		l.cpu = RESULTS_CPU_ALL;
		l.node = -1;
		ret = results_add_hist(tr->res, &l, trace_hist(tr->t, s, -1));
		for (cpu = 0; !ret && cpu < trace_nr_cpus(tr->t); cpu++) {
			if (!(h = trace_hist(tr->t, s, (int)cpu)))
				continue;
			l.cpu = (int)cpu;
			l.node = tr_node(cpu);
			ret = results_add_hist(tr->res, &l, h);
		}
	}
	return ret;
}

static void tr_meta_command(const struct tr_global *tr, struct meta *m)
{
	char buf[1024] = "";
	size_t used = 0;
	unsigned int i;

	for (i = 0; tr->command && tr->command[i] && used < sizeof(buf); i++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s", i ? " " : "",
					 tr->command[i]);
	meta_set(m, "traced_command", "%s", tr->command ? buf : "none");
	if (!tr->child_done)
		meta_set(m, "traced_command_status", "%s", tr->command ? "not reaped" : "none");
	else if (!spawn_killed_by(tr->child.status))
		meta_set(m, "traced_command_status", "exit %d", spawn_exit_code(tr->child.status));
	else
		meta_set(m, "traced_command_status", "signal %d", spawn_killed_by(tr->child.status));
}

/* what the probe was and what it lost */
static void tr_meta_probe(const struct tr_global *tr, struct meta *m)
{
	struct trace_counts c;

	trace_counts(tr->t, &c);
	meta_set(m, "function", "%s", tr->cfg.func);
	meta_set(m, "end", "%s", tr->cfg.end ? tr->cfg.end : "return");
	meta_set(m, "probe", "%s", trace_probe_used(tr->t) == TRACE_PROBE_FENTRY ?
		 "fentry/fexit" : tr->cfg.end ? "kprobe/kprobe" : "kprobe/kretprobe");
	if (*trace_probe_why(tr->t))
		meta_set(m, "probe_why", "%s", trace_probe_why(tr->t));
	meta_set(m, "entries", "%lu", (unsigned long)c.c[KSB_TRACE_ENTRIES]);
	meta_set(m, "lost", "no_entry %lu too_deep %lu no_task %lu missed %lu",
		 (unsigned long)c.c[KSB_TRACE_NO_ENTRY], (unsigned long)c.c[KSB_TRACE_TOO_DEEP],
		 (unsigned long)c.c[KSB_TRACE_NO_TASK], (unsigned long)c.missed);
	if (tr->cfg.end)
		meta_set(m, "ends_without_start", "%lu", (unsigned long)c.c[KSB_TRACE_NO_START]);
}

static void tr_meta(const struct tr_global *tr, struct meta *m)
{
	char buf[256], key[48];
	unsigned int s;

	meta_set(m, "command", "%s", tr->cmdline);
	meta_set(m, "source", "trace");
	host_meta(m);
	readfile_line("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		      buf, sizeof(buf));
	meta_set(m, "clock", "bpf_ktime_get_ns (CLOCK_MONOTONIC, as ktime_get_ns)");
	meta_set(m, "clocksource", "%s", buf);
	meta_set(m, "workload", "%s", tr->name);
	for (s = 0; s < KSB_TRACE_NR_SERIES; s++) {
		tr_describe(tr, s, buf, sizeof(buf));
		snprintf(key, sizeof(key), "variant_%s", tr_variants[s]);
		meta_set(m, key, "%s", buf);
	}
	tr_meta_probe(tr, m);
	meta_set(m, "possible_cpus", "%u", trace_nr_cpus(tr->t));
	readfile_line("/sys/devices/system/cpu/online", buf, sizeof(buf));
	meta_set(m, "online_cpus_list", "%s", buf);
	meta_set(m, "used_cpus", "%u", tr_used_cpus(tr));
	meta_set(m, "samples_taken", "%lu/%lu",
		 (unsigned long)kstats_hist_total(trace_hist(tr->t, KSB_TRACE_TIME, -1)),
		 (unsigned long)kstats_hist_total(trace_hist(tr->t, KSB_TRACE_GAP, -1)));
	meta_set(m, "duration_s", "%.3f", tr->elapsed);
	tr_meta_command(tr, m);
	meta_set(m, "mode", "trace");
	meta_set(m, "unit", "ns");
	meta_set(m, "frac_bits", "%u", tr->cfg.frac_bits);
	meta_set(m, "runs", "1");
	meta_set(m, "partial", "%s", tr->partial ? "yes" : "no");
	testbed_meta(&tr->tb, m, NULL);
	bench_meta_origin(m, &tr->who);
}

static int tr_report(struct tr_global *tr)
{
	int ret = tr_results(tr);

	if (ret)
		return bench_refused("%s", strerror(-ret));
	tr_meta(tr, &tr->res->meta);
	return bench_report(&tr->out, tr->output, (unsigned int)tr->format, &tr->also,
			    tr->res);
}

/* ---- the command ---- */

static int tr_attach(struct tr_global *tr)
{
	char why[512];
	int ret = trace_open(&tr->t, &tr->cfg, why, sizeof(why));

	if (tr->cfg.verbose || (ret && ret != -EPERM && ret != -ENOENT && ret != -ENODATA &&
			       ret != -EINVAL && *trace_log()))
		fputs(trace_log(), stderr);
	return ret ? bench_refused("%s", why) : 0;
}

int cmd_trace(int argc, char **argv)
{
	struct tr_global *tr = &tr_global;
	int ret;

	bench_block_signals(NULL);
	tr->frac_bits = KSTATS_HIST_FRAC_BITS_DEFAULT;
	tr->format = FORMAT_TABLE;
	tr->also = (struct outset)OUTSET_INIT(formats);
	bench_cmdline(tr->cmdline, sizeof(tr->cmdline), argc, argv);
	ret = tr_parse(tr, argc, argv);
	if (ret)
		return ret > 0 ? bench_finish_stdout() : EXIT_USAGE;
	if (geteuid())
		return bench_refused("needs root to load BPF programs (running as uid %u)",
				  (unsigned int)geteuid());
	ret = bench_open_outputs(NULL, 0, &tr->out, tr->output, &tr->also);
	if (ret)
		return ret;
	/* waitpid() needs its child: an inherited SIG_IGN would reap it */
	signal(SIGCHLD, SIG_DFL);
	ret = bench_testbed(&tr->tb);
	if (!ret)
		ret = tr_attach(tr);
	if (!ret)
		ret = tr_record(tr);
	if (!ret)
		ret = tr_report(tr);
	if (!ret && tr->signo && tr->partial)
		ret = 128 + tr->signo;
	outfile_abort(&tr->out);
	outset_abort(&tr->also);
	trace_close(tr->t);
	results_free(tr->res);
	return ret;
}
