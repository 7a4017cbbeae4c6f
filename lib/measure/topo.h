/* SPDX-License-Identifier: GPL-2.0 */
/*
 * topo.h - CPU and NUMA topology: possible, online and allowed CPUs, the
 * node of each, the worker CPUs, and emulated possible CPUs.
 *
 * Sources: /sys/devices/system/cpu/{possible,online} (cpulist format),
 * sched_getaffinity() (so cpusets and taskset are respected), libnuma
 * for nodes. When numa_available() < 0 (or KSB_NO_NUMA is set) every
 * CPU is on node 0 and topo->numa says so. Read once at start, then read-only: any thread.
 */
#ifndef KSB_TOPO_H
#define KSB_TOPO_H

#include <stdbool.h>

#include "lib/results/meta.h"	/* NR_CPUS_MAX: CPU numbers below it */

struct topo {
	unsigned int nr_possible;	/* possible CPUs, real or emulated */
	unsigned int nr_real_possible;	/* from /sys/devices/system/cpu/possible */
	unsigned int nr_online;		/* from /sys/devices/system/cpu/online */
	unsigned int nr_allowed;	/* CPUs in our affinity mask */
	unsigned int nr_nodes;		/* NUMA nodes (1 without NUMA) */
	bool numa;			/* libnuma usable */
	int *node;			/* [nr_possible] node of each CPU */
	unsigned int nr_workers;	/* CPUs that get a worker */
	unsigned int *worker_cpu;	/* [nr_workers] their numbers, ascending */
};

/**
 * topo_parse_cpulist - parse a cpulist ("0-3,8,10-11") into @set, an
 * array of @max flags. Returns the number of CPUs in the list, or
 * -EINVAL (malformed, or a range going down) or -ERANGE (a CPU >= @max).
 */
int topo_parse_cpulist(const char *s, bool *set, unsigned int max);

/**
 * topo_init - read the machine. @cpus is a numactl-style list of worker
 * CPUs (NULL: every allowed CPU); @nr_possible emulates that many
 * possible CPUs (0: the real count); emulated CPUs beyond the real ones
 * are spread round-robin over the nodes (as are possible CPUs that are not
 * present, whose node the kernel does not export).
 * Returns 0; -EINVAL if @cpus does not parse; -EPERM if it names a CPU
 * this process may not use (*@bad_cpu is that CPU); -ERANGE if a worker
 * CPU is not below @nr_possible (*@bad_cpu); -E2BIG if @cpus names a
 * CPU not below NR_CPUS_MAX (*@bad_cpu, INT_MAX if larger still);
 * -ENOENT if sysfs is unreadable; -ENOMEM.
 */
int topo_init(struct topo *t, const char *cpus, unsigned int nr_possible,
	      int *bad_cpu);

/**
 * topo_fini - release what topo_init() allocated; safe on a zeroed topo.
 */
void topo_fini(struct topo *t);

/**
 * topo_format_cpulist - the CPUs set in @set (@max flags) as a cpulist,
 * "0-3,8", into @buf (@len bytes, cut there); "" when none is set.
 */
void topo_format_cpulist(const bool *set, unsigned int max, char *buf, unsigned int len);

/**
 * topo_allowed_list - the allowed CPUs as a cpulist, for messages.
 */
void topo_allowed_list(char *buf, unsigned int len);

/**
 * topo_why - what topo_init()'s @err means, one line into @buf: @cpus,
 * @nr_possible and @bad_cpu as given to it and set by it. Returns the
 * argument at fault, "cpus" or "possible-cpus" (bench's option names),
 * or NULL when the machine is at fault (-ENOENT, -ENOMEM).
 */
const char *topo_why(int err, const char *cpus, unsigned int nr_possible,
		     int bad_cpu, char *buf, size_t len);

#endif /* KSB_TOPO_H */
