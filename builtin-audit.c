// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-audit.c - bench audit: run a battery of the running kernel's
 * entry points in one process, each timed as bench run times a
 * workload (the same engine, workers, stamps and histograms), in an
 * order rotated by the boot's index, and write one results set whose
 * series are the entries (the file: workloads/battery.h). Made to run
 * inside every boot of a bench vm sweep (bench vm -p LIST ... -- audit),
 * where each boot's file is one run of each entry's fit.
 *
 * An entry the kernel refuses (no io_uring, BPF without privilege, no
 * cgroup2, a file it does not have) is skipped with its reason, in the
 * metadata and on stderr: the audit still exits 0 when another ran.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bench.h"
#include "kstats_hist.h"
#include "lib/measure/engine.h"
#include "lib/measure/runset.h"
#include "lib/measure/topo.h"
#include "lib/measure/tsc.h"
#include "lib/report/format.h"
#include "lib/report/kcidb.h"
#include "lib/subcmd/outfile.h"
#include "lib/subcmd/outset.h"
#include "lib/results/results.h"
#include "lib/subcmd/samples.h"
#include "lib/host/testbed.h"
#include "lib/subcmd/spawn.h"
#include "lib/kernel/vmprep.h"
#include "workloads/battery.h"

#define AUDIT_SAMPLES		256	/* an entry's samples without -n of its own */
#define AUDIT_BOOT_ENV		"ksb_boot"	/* from the kernel command line */

/* what became of one entry */
struct audit_done {
	bool ran;			/* its series are in the set */
	char why[256];			/* skipped: the reason, one line, no ';' */
	uint64_t disturbed;		/* ran: its disturbed samples */
	double seconds;			/* its check, setup, samples and teardown */
};

/*
 * bench audit's state, configuration then run state: one instance, whose
 * address cmd_audit() passes down (perf's struct record); audit_opts[]
 * names it, a table's values being addresses.
 */
static struct audit_global {
	/* configuration */
	uint64_t samples;		/* -n, 0: each entry's own */
	const char *battery;		/* --battery FILE */
	bool no_builtin;		/* --no-builtin */
	uint64_t boot;			/* --boot, 0: the kernel command line's */
	const char *cpus;		/* --cpus */
	bool dry_run;			/* --dry-run */
	int format;			/* -f */
	const char *output;		/* -o */
	struct outset also;		/* --also FMT=FILE */
	struct bench_origin who;	/* --label, --origin */
	bool quiet;			/* -q */
	char cmdline[1024];		/* for the metadata */

	/* run state */
	struct battery b;		/* the entries, in the battery's order */
	unsigned int order[BATTERY_MAX]; /* this boot's order */
	struct audit_done done[BATTERY_MAX]; /* per entry, battery order */
	const char *boot_from;		/* audit_boot_from */
	struct testbed tb;		/* the host */
	struct topo topo;		/* CPUs */
	struct tsc_info tsc;		/* clock */
	struct engine *e;		/* the entry running */
	const struct battery_entry *cur; /* its entry */
	unsigned int cur_no;		/* its place in the order, 1.. */
	struct outfile out;		/* -o */
	char mlock[96];			/* what mlockall() said */
	int signo;			/* SIGINT/SIGTERM that stopped us */
	uint64_t taken, migrations, disturbed; /* summed over the entries */
	bool partial;			/* an entry stopped early */
	bool meta_done;			/* the first entry's metadata is in */
} audit_global;

static const char audit_head[] =
	"Usage: bench audit [OPTIONS]\n"
	"Time a battery of the running kernel's entry points that may pay for\n"
	"possible CPUs (bench list shows each entry, its kernel path and its report),\n"
	"each as bench run times a workload, in one process, and write one CSV whose\n"
	"series are the entries. Run it in every boot of a sweep (bench vm -p LIST\n"
	"... -- audit): each boot runs the whole battery, in the battery's order\n"
	"rotated left by the boot's index - 1 (ksb_boot=B, which bench vm puts on\n"
	"each boot's kernel command line). An entry the kernel refuses is skipped\n"
	"with its reason.\n";

static const char audit_tail[] =
	"A battery FILE holds one entry a line: bench run's words for a workload of\n"
	"the running kernel, without -w, optionally named (NAME = ...), with a sample\n"
	"count and a control mark of its own; '#' starts a comment (the syntax:\n"
	"kstats-bench-audit(1)).\n"
	"Exit: 0 done (skipped entries included), 2 bad usage or a bad battery line\n"
	"(FILE:LINE), 3 no entry could run, 130/143 interrupted (what ran is\n"
	"written, partial: yes).\n";

static const struct opt audit_opts[] = {
	OPT_U64('n', "samples", &audit_global.samples, 1, UINT64_C(1) << 32, "N",
		"samples of every entry, its own -n included\n"
		"(default: its own, else 256)"),
	OPT_STRING('b', "battery", &audit_global.battery, "FILE",
		   "entries to run after the built-in ones"),
	OPT_FLAG(0, "no-builtin", &audit_global.no_builtin,
		 "leave the built-in entries out (needs --battery)"),
	OPT_U64(0, "boot", &audit_global.boot, 1, 1000000, "B",
		"this boot's index, 1.. (default: ksb_boot=B from\n"
		"the kernel command line, else 1)"),
	OPT_STRING('c', "cpus", &audit_global.cpus, "LIST",
		   "worker CPUs, numactl syntax (default: the first\nallowed CPU alone)"),
	OPT_FLAG(0, "dry-run", &audit_global.dry_run,
		 "print this boot's order and each entry's line and\nsamples; run nothing"),
	OPT_FORMAT('f', "format", &audit_global.format, formats, "FMT", "what goes to stdout:"),
	OPT_STRING('o', "output", &audit_global.output, "FILE",
		   "also write the CSV to FILE (replaced whole); - is\n"
		   "stdout, and then the report goes to stderr"),
	OPT_ALSO(&audit_global.also),
	OPT_CALL(0, "label", &audit_global.who, bench_opt_label, "KEY=VALUE",
		 "record label_KEY: VALUE in the metadata; repeatable"),
	OPT_ORIGIN(&audit_global.who, bench_opt_origin, ", kept in the file"),
	OPT_FLAG('q', "quiet", &audit_global.quiet, "no progress on stderr"),
	OPT_END()
};

/* the configuration's defaults, no run state: before any parse */
static void audit_defaults(struct audit_global *ag)
{
	memset(ag, 0, sizeof(*ag));
	ag->format = FORMAT_TABLE;
	ag->also = (struct outset)OUTSET_INIT(formats);
}

/* the words together: an audit with entries to run; 0 or -EINVAL with @why */
static int audit_words(const struct audit_global *ag, char *why, size_t len)
{
	if (!ag->no_builtin || ag->battery)
		return 0;
	snprintf(why, len, "--no-builtin: no entry left (give --battery FILE)");
	return -EINVAL;
}

int cmd_audit_check(int argc, char **argv, char *why, size_t len)
{
	const struct opt *tab[] = { audit_opts, NULL };
	struct opt_parser p = { .tab = tab, .flags = OPT_NO_OPERANDS };

	audit_defaults(&audit_global);
	return bench_check_parse(&p, argc, argv, why, len) ?: audit_words(&audit_global, why, len);
}

/* ---- the battery and the boot ---- */

/*
 * the built-in entries unless --no-builtin, then those of the battery
 * file @path (NULL: none) into @b; 0, or -errno with @why
 */
static int audit_load(const struct audit_global *ag, struct battery *b, const char *path,
		      char *why, size_t len)
{
	int ret = 0;

	if (!ag->no_builtin)
		ret = battery_add_builtin(b, why, len);
	if (!ret && path)
		ret = battery_read_file(b, path, why, len);
	if (!ret && !b->n) {
		snprintf(why, len, "%s: no entry in it", path);
		ret = -EINVAL;
	}
	return ret;
}

/* the built-in entries and --battery's; 0 or an exit code, said */
static int audit_battery(struct audit_global *ag)
{
	char why[640];
	int ret = audit_words(ag, why, sizeof(why));

	if (ret) {
		bench_err("%s", why);
		return EXIT_USAGE;
	}
	ret = audit_load(ag, &ag->b, ag->battery, why, sizeof(why));
	if (!ret)
		return 0;
	if (ret == -ENOMEM)
		return bench_nomem();
	bench_err("--battery: %s", why);
	return EXIT_USAGE;
}

/* --battery as a guest reads it: from the --file that puts it there; 0 or -errno, @why */
static int audit_guest_battery(const struct audit_global *ag, const struct vmprep_file *file,
			       unsigned int nr, char *why, size_t len)
{
	const struct vmprep_file *f = vmprep_guest_file(file, nr, ag->battery);
	struct battery *b;
	char msg[640];
	int ret;

	if (!f) {
		snprintf(why, len, "--battery %s: no --file puts it in the guest (--file SRC=%s)",
			 ag->battery, ag->battery);
		return -EINVAL;
	}
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	ret = audit_load(ag, b, f->src, msg, sizeof(msg));
	if (ret && ret != -ENOMEM)
		snprintf(why, len, "--battery %s: %s", ag->battery, msg);
	battery_free(b);
	free(b);
	return ret == -ENOMEM ? ret : ret ? -EINVAL : 0;
}

int cmd_audit_vm_check(int argc, char **argv, const struct vmprep_file *file, unsigned int nr,
		       char *why, size_t len)
{
	struct audit_global *ag = &audit_global;
	int ret = cmd_audit_check(argc, argv, why, len);

	if (ret)
		return ret;
	if (ag->dry_run) {
		snprintf(why, len, "--dry-run: the guests would time nothing and send no CSV (run bench audit --dry-run here)");
		return -EINVAL;
	}
	return ag->battery ? audit_guest_battery(ag, file, nr, why, len) : 0;
}

/* the boot's index: --boot, else ksb_boot= (the kernel passes it to init), else 1 */
static int audit_boot(struct audit_global *ag)
{
	const char *env = getenv(AUDIT_BOOT_ENV);
	uint64_t v;

	ag->boot_from = "option";
	if (ag->boot)
		return 0;
	ag->boot_from = "none";
	ag->boot = 1;
	if (!env)
		return 0;
	if (samples_parse_line(env, strlen(env), &v) || !v || v > 1000000) {
		bench_err("%s=%s (the kernel command line's): not a boot index 1..1000000",
			  AUDIT_BOOT_ENV, env);
		return EXIT_USAGE;
	}
	ag->boot = v;
	ag->boot_from = "kernel command line";
	return 0;
}

static uint64_t audit_samples_of(struct audit_global *ag, const struct battery_entry *e)
{
	return ag->samples ? ag->samples : e->samples ? e->samples : AUDIT_SAMPLES;
}

/* --dry-run: the order, one entry a line: place, name, samples, control, line */
static int audit_dry_run(struct audit_global *ag)
{
	const struct battery_entry *e;
	unsigned int i;

	printf("# bench audit: boot %lu (%s), %u entries\n", (unsigned long)ag->boot,
	       ag->boot_from, ag->b.n);
	for (i = 0; i < ag->b.n; i++) {
		e = &ag->b.e[ag->order[i]];
		printf("%u\t%s\t%lu\t%s\t%s\n", i + 1, e->name, (unsigned long)audit_samples_of(ag, e),
		       e->control ? "control" : "-", e->line);
	}
	return bench_finish_stdout();
}

/* ---- one entry ---- */

/* bench_wait_engine()'s progress: the entry's samples, @priv the state */
static void audit_progress(void *priv, uint64_t done)
{
	struct audit_global *ag = priv;
	uint64_t total = audit_samples_of(ag, ag->cur);

	fprintf(stderr, "entry %u/%u %s: %lu/%lu samples", ag->cur_no, ag->b.n,
		ag->cur->name, (unsigned long)done, (unsigned long)total);
}

/* @d skipped: @pre then @why, each ';' made ',' (audit_skip_why's separator) */
static void audit_skip(struct audit_done *d, const char *pre, const char *why)
{
	char *p;

	snprintf(d->why, sizeof(d->why), "%s%s", pre, why);
	for (p = d->why; (p = strchr(p, ';')); )
		*p = ',';
}

/* the entry's workload may run here: its check(), as bench run's */
static bool audit_check(struct audit_global *ag, const struct battery_entry *e,
			struct audit_done *d)
{
	char why[256];
	int ret;

	if (!e->wl->check)
		return true;
	ret = e->wl->check(ag->topo.nr_possible, why, sizeof(why));
	if (ret)
		audit_skip(d, "", why);
	return !ret;
}

/* the engine for @e, started and waited for; 0, or -errno with @d's reason */
static int audit_time(struct audit_global *ag, const struct battery_entry *e,
		      struct audit_done *d)
{
	const struct engine_cfg cfg = {
		.wl = e->wl, .topo = &ag->topo, .tsc = &ag->tsc,
		.samples = audit_samples_of(ag, e), .frac_bits = KSTATS_HIST_FRAC_BITS_DEFAULT,
		.cache = WL_CACHE_KERNEL, .fence = TSC_FENCE_SFENCE, .stamps = TSC_STAMPS_FENCED,
		/* the plugin's windows name the entry by its place in audit_order */
		.mark_tag = ag->cur_no,
	};
	/* a tick of 20 ms: most entries take a few ms, and a 200 ms tick would be most of a boot */
	struct bench_engine_wait w = {
		.out = &ag->out, .also = &ag->also, .progress = audit_progress, .priv = ag,
		.tick_ms = 20, .quiet = ag->quiet, .signo = &ag->signo,
	};
	char why[256];
	int ret;

	ag->e = engine_create(&cfg);
	if (!ag->e) {
		audit_skip(d, "", strerror(errno));
		return -errno;
	}
	ret = engine_start(ag->e);
	if (ret) {
		audit_skip(d, "starting the workers: ", strerror(-ret));
		return ret;
	}
	w.e = ag->e;
	bench_wait_engine(&w);
	ret = engine_join(ag->e);
	if (ret)
		audit_skip(d, "", engine_why(ag->e, ret, why, sizeof(why)));
	return ret;
}

/* the entry's series into @res: the merge and each worker's, named by the entry */
static int audit_add(struct audit_global *ag, struct results *res, const struct battery_entry *e,
		     struct audit_done *d)
{
	struct runset r = { .e = ag->e, .unit = "ns", .name = e->name };
	struct engine_results er;
	int ret = -ENOMEM;

	r.merged[0] = kstats_hist_create(KSTATS_HIST_FRAC_BITS_DEFAULT);
	if (r.merged[0] && !engine_merge(ag->e, WL_OLD, r.merged[0]))
		ret = runset_results(res, &r);
	if (!ret && !ag->meta_done) {
		runset_meta_list(&res->meta, ag->e, ag->cmdline, ag->mlock, r.unit);
		ag->meta_done = true;
	}
	engine_results(ag->e, &er);
	d->ran = !ret;
	d->disturbed = er.disturbed[WL_OLD];
	ag->taken += r.merged[0] ? kstats_hist_total(r.merged[0]) : 0;
	ag->migrations += er.migrations;
	ag->disturbed += er.disturbed[WL_OLD];
	ag->partial |= engine_partial(ag->e);
	kstats_hist_free(r.merged[0]);
	return ret;
}

/* every entry in this boot's order; 0, or -ENOMEM */
static int audit_measure(struct audit_global *ag, struct results *res)
{
	double t0 = spawn_now(), t;
	unsigned int i;
	int ret = 0;

	for (i = 0; i < ag->b.n && !ret && !ag->signo; i++) {
		const struct battery_entry *e = &ag->b.e[ag->order[i]];
		struct audit_done *d = &ag->done[ag->order[i]];

		ag->cur = e;
		ag->cur_no = i + 1;
		battery_apply(e);
		if (audit_check(ag, e, d) && !audit_time(ag, e, d))
			ret = audit_add(ag, res, e, d);
		if (!d->ran && !ret)	/* not progress: -q keeps it */
			pr_err("%s skipped: %s", e->name, d->why);
		engine_destroy(ag->e);
		ag->e = NULL;
		t = spawn_now();
		d->seconds = t - t0;
		t0 = t;
	}
	for (; i < ag->b.n; i++)
		audit_skip(&ag->done[ag->order[i]], "", "not run: the audit was stopped");
	return ret;
}

/* ---- the metadata ---- */

/* "@key: NAME NAME ..." of the entries @pick says, in this boot's order; none */
static void audit_names(const struct audit_global *ag, struct meta *m, const char *key,
			bool (*pick)(const struct audit_global *ag, unsigned int i))
{
	char buf[META_VAL] = "";
	size_t used = 0;
	unsigned int i;

	for (i = 0; i < ag->b.n && used < sizeof(buf); i++)
		if (!pick || pick(ag, ag->order[i]))
			used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s",
						 used ? " " : "", ag->b.e[ag->order[i]].name);
	meta_set(m, key, "%s", buf[0] ? buf : "none");
}

static bool audit_is_control(const struct audit_global *ag, unsigned int i)
{
	return ag->b.e[i].control;
}

static bool audit_is_skipped(const struct audit_global *ag, unsigned int i)
{
	return !ag->done[i].ran;
}

/* audit_seconds, and audit_entry_seconds: NAME=S ... of every entry, in this boot's order */
static void audit_times(struct audit_global *ag, struct meta *m)
{
	char buf[META_VAL] = "";
	double total = 0;
	size_t used = 0;
	unsigned int i, k;

	for (i = 0; i < ag->b.n; i++) {
		k = ag->order[i];
		total += ag->done[k].seconds;
		if (used < sizeof(buf))
			used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s=%.2f",
						 used ? " " : "", ag->b.e[k].name, ag->done[k].seconds);
	}
	meta_set(m, "audit_seconds", "%.1f", total);
	meta_set(m, "audit_entry_seconds", "%s", buf);
}

/* audit_skip_why and audit_disturbed, cut where the value is full */
static void audit_lists(struct audit_global *ag, struct meta *m)
{
	char why[META_VAL] = "", dist[META_VAL] = "";
	size_t uw = 0, ud = 0;
	unsigned int i, k;

	for (i = 0; i < ag->b.n; i++) {
		k = ag->order[i];
		if (!ag->done[k].ran && uw < sizeof(why))
			uw += (size_t)snprintf(why + uw, sizeof(why) - uw, "%s%s: %s",
					       uw ? "; " : "", ag->b.e[k].name, ag->done[k].why);
		else if (ag->done[k].ran && ud < sizeof(dist))
			ud += (size_t)snprintf(dist + ud, sizeof(dist) - ud, "%s%s=%lu",
					       ud ? " " : "", ag->b.e[k].name,
					       (unsigned long)ag->done[k].disturbed);
	}
	meta_set(m, "audit_skip_why", "%s", why[0] ? why : "none");
	meta_set(m, "audit_disturbed", "%s", dist[0] ? dist : "none");
}

/*
 * variant_LABEL, as bench run writes it, once per label of the entries
 * that ran: their variant's words when they share them, else their
 * workload's summary (file-read's entries read each their own file)
 */
static void audit_variants(struct audit_global *ag, struct meta *m)
{
	char key[META_KEY];
	unsigned int i, j;

	for (i = 0; i < ag->b.n; i++) {
		const struct workload *w = ag->b.e[i].wl;
		const char *what = w->variant[0];

		snprintf(key, sizeof(key), "variant_%s", w->label[0]);
		if (!ag->done[i].ran || meta_get(m, key))
			continue;
		for (j = i + 1; j < ag->b.n; j++)
			if (ag->done[j].ran && !strcmp(ag->b.e[j].wl->label[0], w->label[0]) &&
			    (ag->b.e[j].wl != w || ag->b.e[j].nr_save))
				what = w->summary;
		if (ag->b.e[i].nr_save && what != w->summary)
			what = w->summary;
		meta_set(m, key, "%s", what);
	}
}

static void audit_meta(struct audit_global *ag, struct meta *m)
{
	const char *file = ag->battery ? ag->battery : "";

	meta_set(m, "workload", "audit");
	audit_variants(ag, m);
	meta_set(m, "samples_per_variant", "%lu", (unsigned long)(ag->samples ?: AUDIT_SAMPLES));
	meta_set(m, "samples_taken", "%lu", (unsigned long)ag->taken);
	meta_set(m, "migrations", "%lu", (unsigned long)ag->migrations);
	meta_set(m, "disturbed", "%lu", (unsigned long)ag->disturbed);
	meta_set(m, "audit_battery", "%s%s%s", ag->no_builtin ? "" : "builtin",
		 !ag->no_builtin && *file ? " + " : "", file);
	meta_set(m, "audit_entries", "%u", ag->b.n);
	meta_set(m, "audit_boot", "%lu", (unsigned long)ag->boot);
	meta_set(m, "audit_boot_from", "%s", ag->boot_from);
	audit_names(ag, m, "audit_order", NULL);
	audit_names(ag, m, "audit_controls", audit_is_control);
	audit_names(ag, m, "audit_skipped", audit_is_skipped);
	audit_lists(ag, m);
	audit_times(ag, m);
	meta_set(m, "runs", "1");
	meta_set(m, "partial", "%s", ag->partial || ag->signo ? "yes" : "no");
	testbed_meta(&ag->tb, m, NULL);
	bench_meta_origin(m, &ag->who);
}

/* ---- bench audit ---- */

/* as bench run: lock memory where that cannot backfire (builtin-run.c's reasons) */
static void audit_mlock(struct audit_global *ag)
{
	struct rlimit rl;

	if (geteuid() && !getrlimit(RLIMIT_MEMLOCK, &rl) && rl.rlim_cur != RLIM_INFINITY)
		snprintf(ag->mlock, sizeof(ag->mlock), "no (RLIMIT_MEMLOCK %lu KiB)",
			 (unsigned long)(rl.rlim_cur >> 10));
	else if (mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT))
		snprintf(ag->mlock, sizeof(ag->mlock), "no (%s)", strerror(errno));
	else
		snprintf(ag->mlock, sizeof(ag->mlock), "yes");
}

/*
 * One worker by default, on the first CPU this process may use: what an
 * entry pays per possible CPU does not depend on the workers, and under
 * qemu TCG the serial hand-off between two vCPUs made a boot's battery
 * 2.6 times as long (docs/measurements.md, "The audit's time per boot").
 */
static const char *audit_cpus(struct audit_global *ag, char *buf, size_t len)
{
	cpu_set_t set;
	int cpu;

	if (ag->cpus || sched_getaffinity(0, sizeof(set), &set))
		return ag->cpus;
	for (cpu = 0; cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &set); cpu++)
		;
	if (cpu == CPU_SETSIZE)
		return NULL;
	snprintf(buf, len, "%d", cpu);
	return buf;
}

/* the CPUs and the clock, as bench run sets them up; 0 or an exit code */
static int audit_setup(struct audit_global *ag)
{
	char why[512], one[16];
	const char *cpus = audit_cpus(ag, one, sizeof(one));
	int bad = -1, ret = topo_init(&ag->topo, cpus, 0, &bad);
	const char *opt;

	if (ret) {
		opt = topo_why(ret, cpus, 0, bad, why, sizeof(why));
		if (!opt)
			return bench_refused("%s", why);
		bench_err("--%s: %s", opt, why);
		return EXIT_USAGE;
	}
	tsc_init(&ag->tsc);
	if (!ag->tsc.usable)
		pr_err("warning: %s; timing with clock_gettime(CLOCK_MONOTONIC_RAW) in ns",
		       ag->tsc.why);
	audit_mlock(ag);
	return 0;
}

/* -o and --also, none over the battery the audit read: 0 or an exit code */
static int audit_open_outputs(struct audit_global *ag)
{
	char *in[] = { (char *)ag->battery };

	return bench_open_outputs(in, ag->battery ? 1 : 0, &ag->out, ag->output, &ag->also);
}

/* measure, then write and print the set; an exit code */
static int audit_run(struct audit_global *ag)
{
	struct results *res = results_create(KSTATS_HIST_FRAC_BITS_DEFAULT);
	int ret;

	if (!res)
		return bench_nomem();
	ret = audit_setup(ag);
	if (!ret && audit_measure(ag, res))
		ret = bench_nomem();
	if (!ret && !ag->meta_done)
		ret = bench_refused("no entry of the battery could run here (each one's reason is above)");
	if (!ret) {
		audit_meta(ag, &res->meta);
		ret = bench_report(&ag->out, ag->output, (unsigned int)ag->format, &ag->also, res);
	}
	if (!ret && ag->signo)
		ret = 128 + ag->signo;
	results_free(res);
	return ret;
}

int cmd_audit(int argc, char **argv)
{
	const struct opt *tab[] = { audit_opts, NULL };
	struct opt_parser p = { .tab = tab, .flags = OPT_NO_OPERANDS };
	struct audit_global *ag = &audit_global;
	int ret;

	bench_block_signals(NULL);
	audit_defaults(ag);
	bench_cmdline(ag->cmdline, sizeof(ag->cmdline), argc, argv);
	ret = bench_options(&p, audit_head, audit_tail, argc, argv);
	if (ret)
		return ret > 0 ? bench_finish_stdout() : EXIT_USAGE;
	ret = audit_battery(ag) ?: audit_boot(ag);
	if (!ret)
		battery_order(ag->b.n, (unsigned int)ag->boot, ag->order);
	if (!ret && ag->dry_run)
		ret = audit_dry_run(ag);
	else if (!ret)
		ret = audit_open_outputs(ag) ?: bench_testbed(&ag->tb) ?: audit_run(ag);
	outfile_abort(&ag->out);
	outset_abort(&ag->also);
	topo_fini(&ag->topo);
	battery_free(&ag->b);
	return ret;
}
