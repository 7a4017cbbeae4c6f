// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-doctor.c - bench doctor: check this host for what makes
 * timings noisy before measuring, one line per check: ok or warn, what
 * it found, and the command that fixes it. It changes nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "lib/host/testbed.h"
#include "lib/measure/topo.h"

/* what every check reads */
struct doctor {
	struct testbed tb;		/* the host, or KSB_TESTBED_ROOT */
	bool worker[NR_CPUS_MAX];	/* the CPUs bench run would time on */
	char workers[TB_LIST];		/* the same, as a cpulist */
	char suggest[TB_LIST];		/* workers to isolate: CPU 0 left to the system */
	bool root;			/* euid 0: perf limits do not apply */
	bool quiet;			/* -q: warnings only */
	const char *cpus;		/* -c, or the run's --cpus; NULL: the allowed CPUs */
	char run_cpus[TB_LIST];		/* the --cpus of the run's options, "" if none */
};

/* one check's verdict */
struct doctor_line {
	bool warn;			/* else ok */
	char found[1024];		/* what it found, and why that matters */
	char fix[1280];			/* warn: the command that fixes it */
};

#define DOCTOR_SET(buf, ...)	snprintf((buf), sizeof(buf), __VA_ARGS__)

/* ---- the checks ---- */

static void doctor_governor(const struct doctor *d, struct doctor_line *l)
{
	char gov[256];

	testbed_value(&d->tb, "cpufreq_governor", gov, sizeof(gov));
	if (!d->tb.nr_gov) {
		DOCTOR_SET(l->found, "%s%s", gov, d->tb.nr_cpus ?
			   ": the firmware or the hypervisor sets the frequency" : "");
		return;
	}
	l->warn = strcmp(gov, "performance") != 0;
	DOCTOR_SET(l->found, "%s%s%s", gov, *d->tb.driver ? " by " : "", d->tb.driver);
	DOCTOR_SET(l->fix, "echo performance | sudo tee /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor");
}

static void doctor_turbo(const struct doctor *d, struct doctor_line *l)
{
	const struct testbed *tb = &d->tb;
	bool pstate = !strcmp(tb->turbo_ctl, "intel_pstate/no_turbo");

	if (tb->turbo == TB_UNKNOWN) {
		DOCTOR_SET(l->found, "no boost control exposed");
		return;
	}
	l->warn = tb->turbo;
	DOCTOR_SET(l->found, "%s (%s: %s)%s", tb->turbo ? "on" : "off", tb->turbo_ctl,
		   tb->turbo_raw, tb->turbo ? ": the clock follows temperature and load" : "");
	DOCTOR_SET(l->fix, "echo %d | sudo tee /sys/devices/system/cpu/%s", pstate,
		   strcmp(tb->turbo_ctl, "cpufreq/policy0/boost") ? tb->turbo_ctl :
		   "cpufreq/policy*/boost");
}

static void doctor_smt(const struct doctor *d, struct doctor_line *l)
{
	const struct testbed *tb = &d->tb;

	if (!*tb->smt) {
		DOCTOR_SET(l->found, "unknown (no smt/control)");
		return;
	}
	l->warn = !strcmp(tb->smt, "on") && tb->smt_active != 0;
	DOCTOR_SET(l->found, "%s%s", tb->smt,
		   !strcmp(tb->smt, "on") && !tb->smt_active ? ", no sibling online" :
		   l->warn ? ": siblings share the core's caches and ports" : "");
	DOCTOR_SET(l->fix, "echo off | sudo tee /sys/devices/system/cpu/smt/control");
}

/* are the worker CPUs all in the cpulist @list? */
static bool doctor_covers(const struct doctor *d, const char *list)
{
	static bool set[NR_CPUS_MAX];
	unsigned int cpu;

	memset(set, 0, sizeof(set));
	if (*list && topo_parse_cpulist(list, set, NR_CPUS_MAX) < 0)
		return false;
	for (cpu = 0; cpu < NR_CPUS_MAX; cpu++)
		if (d->worker[cpu] && !set[cpu])
			return false;
	return true;
}

static void doctor_isolcpus(const struct doctor *d, struct doctor_line *l)
{
	const struct testbed *tb = &d->tb;

	if (!tb->isolated_read) {
		DOCTOR_SET(l->found, "unknown (no cpu/isolated)");
		return;
	}
	l->warn = !doctor_covers(d, tb->isolated);
	DOCTOR_SET(l->found, "worker CPUs %s, isolated: %s%s", d->workers,
		   *tb->isolated ? tb->isolated : "none",
		   l->warn ? ": the scheduler puts other tasks on them" : "");
	DOCTOR_SET(l->fix, "boot with isolcpus=%s nohz_full=%s rcu_nocbs=%s, then bench run --cpus %s",
		   d->suggest, d->suggest, d->suggest, d->suggest);
}

static void doctor_nohz(const struct doctor *d, struct doctor_line *l)
{
	const struct testbed *tb = &d->tb;

	if (tb->nohz_full_file == TB_UNKNOWN) {
		DOCTOR_SET(l->found, "unknown (cpu/nohz_full unreadable)");
		return;
	}
	l->warn = !tb->nohz_full_file || !doctor_covers(d, tb->nohz_full);
	if (!tb->nohz_full_file) {
		DOCTOR_SET(l->found, "not built in: the tick interrupts the workers");
		DOCTOR_SET(l->fix, "a kernel with CONFIG_NO_HZ_FULL=y, booted with nohz_full=%s",
			   d->suggest);
		return;
	}
	DOCTOR_SET(l->found, "worker CPUs %s, nohz_full: %s%s", d->workers,
		   *tb->nohz_full ? tb->nohz_full : "none",
		   l->warn ? ": the tick interrupts them" : "");
	DOCTOR_SET(l->fix, "boot with nohz_full=%s rcu_nocbs=%s", d->suggest, d->suggest);
}

static void doctor_irqbalance(const struct doctor *d, struct doctor_line *l)
{
	if (d->tb.irqbalance == TB_UNKNOWN) {
		DOCTOR_SET(l->found, "unknown (no /proc)");
		return;
	}
	l->warn = d->tb.irqbalance;
	DOCTOR_SET(l->found, "%s", l->warn ? "running: it moves interrupts onto the workers" :
		   "not running");
	DOCTOR_SET(l->fix, "sudo systemctl stop irqbalance");
}

static void doctor_thp(const struct doctor *d, struct doctor_line *l)
{
	const char *thp = d->tb.thp;

	l->warn = !*thp || !strcmp(thp, "never");
	DOCTOR_SET(l->found, "%s%s", *thp ? thp : "not built in",
		   l->warn ? ": the embedded per-CPU layout gets 4 KiB pages" :
		   ": the embedded per-CPU layout asks for 2 MiB pages (madvise)");
	if (*thp)
		DOCTOR_SET(l->fix, "echo madvise | sudo tee /sys/kernel/mm/transparent_hugepage/enabled");
	else
		DOCTOR_SET(l->fix, "a kernel with CONFIG_TRANSPARENT_HUGEPAGE=y, or 2 MiB pages reserved (see hugetlb)");
}

static void doctor_hugetlb(const struct doctor *d, struct doctor_line *l)
{
	const struct testbed *tb = &d->tb;

	if (tb->huge_kb != 2048) {
		DOCTOR_SET(l->found, tb->huge_kb ? "%lu kB huge pages, not 2 MiB: the embedded layout uses THP" :
			   "unknown (no Hugepagesize in /proc/meminfo)", tb->huge_kb);
		return;
	}
	l->warn = !tb->huge_free;
	if (!tb->huge_total)
		DOCTOR_SET(l->found, "no 2 MiB pages reserved: the embedded layout depends on THP granting them at fault time");
	else
		DOCTOR_SET(l->found, "%lu of %lu 2 MiB pages free: %s", tb->huge_free, tb->huge_total,
			   l->warn ? "the embedded layout depends on THP granting them at fault time" :
			   "the embedded layout maps them when they suffice");
	/* 480 possible CPUs x 256 KiB units = 60 pages, and one a node */
	DOCTOR_SET(l->fix, "echo 64 | sudo tee /proc/sys/vm/nr_hugepages (enough for --possible-cpus 480)");
}

static void doctor_numa(const struct doctor *d, struct doctor_line *l)
{
	const struct testbed *tb = &d->tb;

	if (tb->numa_balancing == TB_UNKNOWN) {
		DOCTOR_SET(l->found, "not built in");
		return;
	}
	l->warn = tb->numa_balancing && tb->nr_nodes > 1;
	DOCTOR_SET(l->found, "%d%s", tb->numa_balancing,
		   l->warn ? ": pages and tasks migrate between nodes during a run" :
		   tb->nr_nodes > 1 || !tb->numa_balancing ? "" : " (one node: nothing to migrate)");
	DOCTOR_SET(l->fix, "echo 0 | sudo tee /proc/sys/kernel/numa_balancing");
}

static void doctor_hypervisor(const struct doctor *d, struct doctor_line *l)
{
	char virt[160];

	testbed_value(&d->tb, "virtualization", virt, sizeof(virt));
	l->warn = d->tb.hypervisor;
	DOCTOR_SET(l->found, "%s%s", l->warn ? virt : "none: bare metal",
		   l->warn ? ": steal time, vCPU placement and the host's load move timings" : "");
	DOCTOR_SET(l->fix, "run on bare metal, or pin each vCPU to its own host core (virsh vcpupin) and isolate those on the host");
}

static void doctor_paranoid(const struct doctor *d, struct doctor_line *l)
{
	int p = d->tb.perf_paranoid;

	if (p == TB_NO_PARANOID) {
		DOCTOR_SET(l->found, "unknown (no perf events)");
		return;
	}
	l->warn = p >= 2 && !d->root;
	DOCTOR_SET(l->found, "%d%s", p, d->root ? " (root: not limited)" :
		   l->warn ? ": perf record of a bench run as this user sees no kernel code" : "");
	DOCTOR_SET(l->fix, "echo 1 | sudo tee /proc/sys/kernel/perf_event_paranoid");
}

static const struct doctor_check {
	const char *name;		/* the line's second word */
	void (*check)(const struct doctor *d, struct doctor_line *l);
} doctor_checks[] = {
	{ "governor", doctor_governor },
	{ "turbo", doctor_turbo },
	{ "smt", doctor_smt },
	{ "isolcpus", doctor_isolcpus },
	{ "nohz_full", doctor_nohz },
	{ "irqbalance", doctor_irqbalance },
	{ "thp", doctor_thp },
	{ "hugetlb", doctor_hugetlb },
	{ "numa_balancing", doctor_numa },
	{ "hypervisor", doctor_hypervisor },
	{ "perf_event_paranoid", doctor_paranoid },
	{ NULL, NULL },
};

#define for_each_check(c) for ((c) = doctor_checks; (c)->name; (c)++)

/* ---- options, workers ---- */

static const char doctor_head[] =
	"Usage: bench doctor [OPTIONS] [-- RUN-OPTIONS...]\n"
	"Check this host for what makes timings noisy, one line per check: ok or\n"
	"warn, what it found, and the command that fixes it. It changes nothing.\n"
	"RUN-OPTIONS are those of a bench run to check the host for: its worker\n"
	"CPUs are the ones it would use (its --cpus), the options checked as bench\n"
	"run checks them.\n";

static const char doctor_tail[] =
	"Checks: governor, turbo, smt, isolcpus and nohz_full (of the worker CPUs),\n"
	"irqbalance, thp and hugetlb (the embedded per-CPU layout), numa_balancing,\n"
	"hypervisor, perf_event_paranoid. The last line: DOCTOR checks=N ok=N warn=N.\n"
	"Exit: 0 done (warnings included), 2 bad usage (RUN-OPTIONS included),\n"
	"3 writing the report failed.\n";

/*
 * RUN-OPTIONS, argv[@first..@argc): checked by bench run's own parser,
 * its --cpus the workers. 0, or -1 after a message.
 */
static int doctor_run_options(struct doctor *d, int argc, char **argv, int first)
{
	char *run[OPT_MAX * 2 + 2], why[512];
	int i, n = 0;

	if (d->cpus) {
		bench_err("-c and RUN-OPTIONS: give the run's --cpus among its options");
		return -1;
	}
	if (argc - first >= (int)(sizeof(run) / sizeof(run[0])) - 1) {
		bench_err("RUN-OPTIONS: more than %zu words", sizeof(run) / sizeof(run[0]) - 2);
		return -1;
	}
	run[n++] = "run";
	for (i = first; i < argc; i++)
		run[n++] = argv[i];
	run[n] = NULL;
	if (bench_check_value(n, run, "--cpus", d->run_cpus, sizeof(d->run_cpus), why,
			      sizeof(why))) {
		bench_err("RUN-OPTIONS: %s", why);
		return -1;
	}
	d->cpus = *d->run_cpus ? d->run_cpus : NULL;
	return 0;
}

/* Returns 0 to run, 1 after --help, -1 after a usage error. */
static int doctor_parse(int argc, char **argv, struct doctor *d)
{
	const struct opt opts[] = {
		OPT_STRING('c', "cpus", &d->cpus, "LIST",
			   "the worker CPUs bench run will use, numactl syntax\n"
			   "(default: every allowed CPU, or RUN-OPTIONS' --cpus)"),
		OPT_FLAG('q', "quiet", &d->quiet, "print the warnings only (./run.sh does)"),
		OPT_END()
	};
	const struct opt *tab[] = { opts, NULL };
	struct opt_parser p = { .tab = tab };
	int ret = bench_options(&p, doctor_head, doctor_tail, argc, argv);

	if (ret || optind >= argc)
		return ret;
	return doctor_run_options(d, argc, argv, optind);
}

/* d->worker from -c or the affinity mask; the CPUs to suggest isolating */
static int doctor_workers(struct doctor *d)
{
	static bool rest[NR_CPUS_MAX];
	char allowed[TB_LIST];
	const char *list = d->cpus;

	if (!list) {
		topo_allowed_list(allowed, sizeof(allowed));
		list = allowed;
	}
	if (topo_parse_cpulist(list, d->worker, NR_CPUS_MAX) <= 0) {
		bench_err("--cpus: '%s' is not a CPU list (e.g. 2-7,10)", list);
		return -1;
	}
	topo_format_cpulist(d->worker, NR_CPUS_MAX, d->workers, sizeof(d->workers));
	/* housekeeping needs a CPU: leave CPU 0 out when that leaves any */
	memcpy(rest, d->worker, sizeof(rest));
	rest[0] = false;
	topo_format_cpulist(rest, NR_CPUS_MAX, d->suggest, sizeof(d->suggest));
	if (!*d->suggest)
		snprintf(d->suggest, sizeof(d->suggest), "%s", d->workers);
	return 0;
}

/* ---- bench doctor ---- */

int cmd_doctor(int argc, char **argv)
{
	static struct doctor d;
	const struct doctor_check *c;
	struct doctor_line l;
	unsigned int n = 0, warn = 0;
	int ret;

	memset(&d, 0, sizeof(d));
	ret = doctor_parse(argc, argv, &d);
	if (ret)
		return ret > 0 ? bench_finish_stdout() : EXIT_USAGE;
	if (doctor_workers(&d))
		return EXIT_USAGE;
	ret = bench_testbed(&d.tb);
	if (ret)
		return ret;
	d.root = geteuid() == 0;
	for_each_check(c) {
		memset(&l, 0, sizeof(l));
		c->check(&d, &l);
		n++;
		warn += l.warn;
		if (d.quiet && !l.warn)
			continue;
		printf("%-4s %-19s %s", l.warn ? "warn" : "ok", c->name, l.found);
		if (l.warn)
			printf("; fix: %s", l.fix);
		putchar('\n');
	}
	if (!d.quiet)
		printf("DOCTOR checks=%u ok=%u warn=%u\n", n, n - warn, warn);
	return bench_finish_stdout();
}
