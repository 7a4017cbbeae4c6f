// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-run-setup.c - bench run's setting up: the topology (--cpus,
 * --possible-cpus), the workload's own check, the clock, the emulated
 * per-CPU area and the memory lock, and afterwards where the area's
 * units went. The options and the measuring are builtin-run.c's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bench.h"
#include "builtin-run.h"

static int run_topo(struct run_global *g)
{
	const char *opt;
	char why[512];
	int bad = -1, ret;

	ret = topo_init(&g->topo, g->cpus, (unsigned int)g->possible, &bad);
	if (!ret)
		return 0;
	opt = topo_why(ret, g->cpus, (unsigned int)g->possible, bad, why, sizeof(why));
	if (!opt)
		return bench_refused("%s", why);
	bench_err("--%s: %s", opt, why);
	return EXIT_USAGE;
}

/*
 * Lock memory where that cannot backfire: with a finite RLIMIT_MEMLOCK
 * and no CAP_IPC_LOCK, MCL_FUTURE would make later mappings (thread
 * stacks) fail, so we only say what we lack. MCL_ONFAULT locks pages as
 * they are touched and never faults in the lazy per-CPU reservation.
 */
static void run_mlock(struct run_global *g)
{
	struct rlimit rl;

	if (geteuid() && !getrlimit(RLIMIT_MEMLOCK, &rl) && rl.rlim_cur != RLIM_INFINITY) {
		snprintf(g->mlock, sizeof(g->mlock), "no (RLIMIT_MEMLOCK %lu KiB; root or ulimit -l unlimited)",
			 (unsigned long)(rl.rlim_cur >> 10));
		return;
	}
	if (mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT))
		snprintf(g->mlock, sizeof(g->mlock), "no (%s)", strerror(errno));
	else
		snprintf(g->mlock, sizeof(g->mlock), "yes");
}

int run_setup(struct run_global *g)
{
	char why[256];
	int ret = run_topo(g);

	if (ret)
		return ret;
	ret = g->wl->check ? g->wl->check(g->topo.nr_possible, why, sizeof(why)) : 0;
	if (ret == -EINVAL) {
		bench_err("%s", why);
		return EXIT_USAGE;
	}
	if (ret)	/* the environment refused: why says what to do */
		return bench_refused("%s", why);
	tsc_init(&g->tsc);
	if (!g->tsc.usable && g->run_idx <= 1)
		pr_err("warning: %s; timing with clock_gettime(CLOCK_MONOTONIC_RAW) in ns",
		       g->tsc.why);
	/*
	 * The running kernel's own per-CPU memory is what a real_kernel
	 * workload pays for: no emulated area, which would only make this
	 * process larger with more possible CPUs (and fork copy it).
	 */
	if (g->wl->real_kernel)
		goto out_mlock;
	if (g->pcpu_layout == PCPU_VMALLOC)
		g->pcpu = pcpu_create(g->topo.nr_possible, g->pcpu_unit, g->topo.node,
				     g->topo.numa, g->hugepages);
	else	/* KSB_PCPU_NO_THP=1: a system that refuses THP, for tests */
		g->pcpu = pcpu_create_embedded(g->topo.nr_possible, g->pcpu_unit, g->topo.node,
					      g->topo.numa, getenv("KSB_PCPU_NO_THP") != NULL);
	if (!g->pcpu)
		return bench_refused("reserving %u per-CPU units of %lu bytes (%lu MiB of address space; ulimit -v?): %s",
				     g->topo.nr_possible, (unsigned long)g->pcpu_unit,
				     (unsigned long)(g->topo.nr_possible * g->pcpu_unit >> 20),
				     strerror(errno));
out_mlock:
	run_mlock(g);
	return 0;
}

void run_check_nodes(struct run_global *g)
{
	void *p;
	int bad = -1, got = -1, n;

	if (!g->pcpu) {
		snprintf(g->pcpu_nodes, sizeof(g->pcpu_nodes),
			 "none: %s times the running kernel's own per-CPU memory", g->wl->name);
		return;
	}
	p = pcpu_alloc(g->pcpu, 4, 4);
	n = p ? pcpu_check_nodes(g->pcpu, p, g->topo.node, &bad, &got) : -ENOMEM;
	if (n == 0)
		snprintf(g->pcpu_nodes, sizeof(g->pcpu_nodes),
			 "ok: all %u units on their CPU's node (move_pages)", g->topo.nr_possible);
	else if (n > 0)
		snprintf(g->pcpu_nodes, sizeof(g->pcpu_nodes),
			 "MISMATCH: %d of %u units elsewhere, first CPU %d on node %d, expected %d",
			 n, g->topo.nr_possible, bad, got, g->topo.node[bad]);
	else
		snprintf(g->pcpu_nodes, sizeof(g->pcpu_nodes), "unchecked (%s)", strerror(-n));
	pcpu_free(g->pcpu, p, 4);
}
