/* SPDX-License-Identifier: GPL-2.0 */
/*
 * builtin-run.h - what bench run's two files share: builtin-run.c (its
 * options, the measuring, the reporting, --runs and cmd_run()) and
 * builtin-run-setup.c (the topology, the workload's check, the clock,
 * the per-CPU area and what it is placed on), which calls nothing of
 * builtin-run.c. Nothing else includes it.
 */
#ifndef KSB_BUILTIN_RUN_H
#define KSB_BUILTIN_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/measure/pcpu.h"
#include "lib/measure/topo.h"
#include "lib/measure/tsc.h"
#include "lib/measure/workload.h"
#include "lib/subcmd/outfile.h"
#include "lib/subcmd/outset.h"
#include "lib/host/testbed.h"
#include "bench.h"

struct engine;
struct runs_child;

enum run_mode {
	RUN_SERIAL,			/* one sample at a time machine-wide */
	RUN_PARALLEL,			/* every worker at once */
};

enum run_unit {
	RUN_NS,				/* nanoseconds */
	RUN_CYCLES,			/* TSC cycles */
};

/* --reference: when to time the reference loop (lib/measure/ref.h) */
enum run_ref {
	RUN_REF_AUTO,			/* with --cache cold only */
	RUN_REF_ON,			/* always */
	RUN_REF_OFF,			/* never */
};

/*
 * bench run's state: configuration, then run state. builtin-run.c holds
 * the one instance and passes its address down.
 */
struct run_global {
	/* configuration: defaults in run_defaults(), then run_opts[] */
	const struct workload *wl;	/* -w */
	uint64_t samples;		/* -n, per variant, all workers */
	uint64_t runs;			/* --runs, one fresh process each */
	const char *cpus;		/* --cpus, NULL = every allowed CPU */
	uint64_t possible;		/* --possible-cpus, 0 = the real count */
	uint64_t pcpu_unit;		/* --pcpu-unit, bytes */
	bool hugepages;			/* --hugepages */
	enum pcpu_layout pcpu_layout;	/* --pcpu-layout */
	enum tsc_stamps stamps;		/* --stamps */
	bool drop_disturbed;		/* --drop-disturbed */
	enum run_ref reference;		/* --reference */
	enum wl_cache cache;		/* --cache */
	enum run_mode mode;		/* --mode */
	enum run_unit unit;		/* --unit */
	uint64_t frac_bits;		/* --frac-bits */
	int format;			/* --format, an index of formats[] */
	const char *output;		/* -o, CSV path */
	struct outset also;		/* --also FMT[:VARIANT]=FILE */
	struct bench_origin who;	/* --label, --origin */
	enum tsc_fence fence;		/* --end-fence */
	bool subtract;			/* --subtract-overhead */
	bool quiet;			/* -q: no progress */
	char cmdline[1024];		/* for the metadata */

	/* run state */
	struct testbed tb;		/* the host, read before the first run */
	struct topo topo;		/* CPUs and nodes */
	struct tsc_info tsc;		/* clock */
	struct pcpu *pcpu;		/* emulated per-CPU allocator */
	struct engine *e;		/* workers */
	struct outfile out;		/* -o, open from the start */
	char mlock[96];			/* what mlockall() said */
	char pcpu_nodes[160];		/* what move_pages() said */
	int signo;			/* SIGINT/SIGTERM that stopped us, or 0 */
	unsigned int run_idx;		/* --runs: this child's run, 1..R; 0 parent */
	FILE *run_out;			/* --runs: the child's CSV goes here */
	struct runs_child *child;	/* --runs: the child waited for */
};

/**
 * run_setup - the topology, the workload's own check, the clock, the
 * emulated per-CPU area and memory locked, into @g. Returns 0 or an exit
 * code after a message.
 */
int run_setup(struct run_global *g);

/**
 * run_check_nodes - where the per-CPU area's units went, in words into g->pcpu_nodes
 */
void run_check_nodes(struct run_global *g);

#endif /* KSB_BUILTIN_RUN_H */
