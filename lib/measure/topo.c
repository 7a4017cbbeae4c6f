// SPDX-License-Identifier: GPL-2.0
/*
 * topo.c - CPU and NUMA topology (see topo.h).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <numa.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/measure/topo.h"

#define TOPO_SYS_CPU	"/sys/devices/system/cpu/"

/*
 * libnuma reports through these two, which it lets the application
 * replace: library code does not print, and every libnuma failure we
 * care about comes back to us as a return value as well.
 */
void numa_warn(int num, char *fmt, ...)
{
	(void)num;
	(void)fmt;
}

void numa_error(char *where)
{
	(void)where;
}

/* ---- cpulist parsing ---- */

static int topo_parse_num(const char **s, unsigned int *v)
{
	unsigned long x = 0;
	const char *p = *s;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		x = x * 10 + (unsigned long)(*p - '0');
		if (x > 1u << 30)
			return -ERANGE;
	}
	*s = p;
	*v = (unsigned int)x;
	return 0;
}

int topo_parse_cpulist(const char *s, bool *set, unsigned int max)
{
	unsigned int a, b, n = 0;
	int ret;

	memset(set, 0, max * sizeof(*set));
	while (*s && *s != '\n') {
		ret = topo_parse_num(&s, &a);
		if (ret)
			return ret;
		b = a;
		if (*s == '-') {
			s++;
			ret = topo_parse_num(&s, &b);
			if (ret)
				return ret;
			if (b < a)
				return -EINVAL;
		}
		if (b >= max)
			return -ERANGE;
		for (; a <= b; a++) {
			n += !set[a];
			set[a] = true;
		}
		if (*s == ',' && s[1] && s[1] != '\n')
			s++;
		else if (*s && *s != '\n')
			return -EINVAL;
	}
	return n ? (int)n : -EINVAL;
}

/* Highest CPU + 1 of a sysfs cpulist file, or -errno. */
static int topo_read_sys(const char *name, bool *set)
{
	char buf[4096];
	FILE *f = fopen(name, "r");
	int ret;

	if (!f)
		return -ENOENT;
	ret = fgets(buf, sizeof(buf), f) ? 0 : -ENOENT;
	fclose(f);
	if (ret)
		return ret;
	ret = topo_parse_cpulist(buf, set, NR_CPUS_MAX);
	if (ret < 0)
		return ret;
	for (ret = NR_CPUS_MAX; ret > 0 && !set[ret - 1]; ret--)
		;
	return ret;
}

/* ---- nodes ---- */

/*
 * The node of a CPU libnuma does not list (taken offline): the
 * cpuN/nodeM link sysfs keeps for every present CPU. -1 when absent
 * (a possible CPU that is not present has no directory at all).
 */
static int topo_sys_node(unsigned int cpu)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int node = -1;

	snprintf(path, sizeof(path), TOPO_SYS_CPU "cpu%u", cpu);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((d = readdir(dir)) && node < 0)
		if (!strncmp(d->d_name, "node", 4) && d->d_name[4] >= '0' && d->d_name[4] <= '9')
			node = atoi(d->d_name + 4);
	closedir(dir);
	return node;
}

static int topo_nodes(struct topo *t)
{
	unsigned int cpu, i = 0;
	int n;

	/* KSB_NO_NUMA=1 takes the no-NUMA path on a NUMA machine, for tests */
	t->numa = numa_available() >= 0 && !getenv("KSB_NO_NUMA");
	t->nr_nodes = t->numa ? (unsigned int)numa_num_configured_nodes() : 1;
	if (!t->nr_nodes)
		t->nr_nodes = 1;
	for (cpu = 0; cpu < t->nr_possible; cpu++) {
		n = -1;
		if (t->numa && cpu < t->nr_real_possible)
			n = numa_node_of_cpu((int)cpu);
		if (t->numa && n < 0 && cpu < t->nr_real_possible)
			n = topo_sys_node(cpu);
		/* emulated (or unknown) CPUs: round-robin over the nodes */
		t->node[cpu] = n >= 0 ? n : (int)(i++ % t->nr_nodes);
	}
	return 0;
}

/* ---- workers ---- */

/*
 * The first CPU in cpulist @s that is not below @max (after
 * topo_parse_cpulist() said -ERANGE), capped at INT_MAX.
 */
static int topo_first_above(const char *s, unsigned int max)
{
	unsigned long v;
	char *end;

	for (; *s; s = end) {
		if (*s < '0' || *s > '9') {
			end = (char *)s + 1;
			continue;
		}
		errno = 0;
		v = strtoul(s, &end, 10);
		if (errno || v > INT_MAX)
			return INT_MAX;
		if (v >= max)
			return (int)v;
	}
	return INT_MAX;
}

static int topo_workers(struct topo *t, const char *cpus, const bool *allowed,
			int *bad_cpu)
{
	bool *want = calloc(NR_CPUS_MAX, sizeof(*want));
	struct bitmask *bm = NULL;
	unsigned int cpu;
	int ret = 0;

	if (!want)
		return -ENOMEM;
	ret = cpus ? topo_parse_cpulist(cpus, want, NR_CPUS_MAX) : 0;
	if (ret == -ERANGE) {
		/* a plain list, with a CPU no kernel has */
		*bad_cpu = topo_first_above(cpus, NR_CPUS_MAX);
		ret = -E2BIG;
		goto out_free_want;
	} else if (ret == -EINVAL) {
		/*
		 * A plain list parses above, so that an error can name the
		 * CPU; the rest of numactl's syntax ("all", "!", "+") goes
		 * to libnuma's parser, which ignores the cpuset (we check).
		 */
		bm = numa_parse_cpustring_all(cpus);
		if (!bm)
			goto out_free_want;
		for (cpu = 0; cpu < bm->size && cpu < NR_CPUS_MAX; cpu++)
			want[cpu] = numa_bitmask_isbitset(bm, cpu);
		numa_bitmask_free(bm);
	} else if (!cpus) {
		memcpy(want, allowed, NR_CPUS_MAX * sizeof(*want));
	}
	ret = 0;
	for (cpu = 0; cpu < NR_CPUS_MAX; cpu++) {
		if (!want[cpu])
			continue;
		if (!allowed[cpu] || cpu >= t->nr_possible) {
			*bad_cpu = (int)cpu;
			ret = allowed[cpu] ? -ERANGE : -EPERM;
			goto out_free_want;
		}
		t->worker_cpu[t->nr_workers++] = cpu;
	}
	if (!t->nr_workers)
		ret = -EINVAL;
out_free_want:
	free(want);
	return ret;
}

static int topo_allowed(bool *allowed, unsigned int *n)
{
	cpu_set_t *set = CPU_ALLOC(NR_CPUS_MAX);
	size_t sz = CPU_ALLOC_SIZE(NR_CPUS_MAX);
	unsigned int cpu;

	if (!set)
		return -ENOMEM;
	if (sched_getaffinity(0, sz, set)) {
		CPU_FREE(set);
		return -errno;
	}
	*n = 0;
	for (cpu = 0; cpu < NR_CPUS_MAX; cpu++) {
		allowed[cpu] = CPU_ISSET_S(cpu, sz, set);
		*n += allowed[cpu];
	}
	CPU_FREE(set);
	return 0;
}

void topo_format_cpulist(const bool *set, unsigned int max, char *buf, unsigned int len)
{
	unsigned int cpu, end, used = 0;

	buf[0] = 0;
	for (cpu = 0; cpu < max && used < len; cpu = end) {
		end = cpu + 1;
		if (!set[cpu])
			continue;
		while (end < max && set[end])
			end++;
		used += (unsigned int)snprintf(buf + used, len - used,
					       end - cpu > 1 ? "%s%u-%u" : "%s%u",
					       used ? "," : "", cpu, end - 1);
	}
}

void topo_allowed_list(char *buf, unsigned int len)
{
	bool allowed[NR_CPUS_MAX];
	unsigned int n;

	buf[0] = 0;
	if (!topo_allowed(allowed, &n))
		topo_format_cpulist(allowed, NR_CPUS_MAX, buf, len);
}

const char *topo_why(int err, const char *cpus, unsigned int nr_possible,
		     int bad_cpu, char *buf, size_t len)
{
	char allowed[256];

	topo_allowed_list(allowed, sizeof(allowed));
	switch (err) {
	case -EINVAL:
		snprintf(buf, len, "'%s' is not a CPU list this process may use (allowed: %s)",
			 cpus, allowed);
		return "cpus";
	case -EPERM:
		snprintf(buf, len, "CPU %d is not one this process may use (allowed: %s)",
			 bad_cpu, allowed);
		return "cpus";
	case -E2BIG:
		snprintf(buf, len, "CPU %s%d is above the limit of %d CPUs (NR_CPUS: 0-%d)",
			 bad_cpu == INT_MAX ? ">= " : "", bad_cpu, NR_CPUS_MAX,
			 NR_CPUS_MAX - 1);
		return "cpus";
	case -ERANGE:
		snprintf(buf, len, "%u is too few: worker CPU %d needs at least %d",
			 nr_possible, bad_cpu, bad_cpu + 1);
		return "possible-cpus";
	default:
		snprintf(buf, len, "reading the CPU topology: %s", strerror(-err));
		return NULL;
	}
}

int topo_init(struct topo *t, const char *cpus, unsigned int nr_possible,
	      int *bad_cpu)
{
	bool *set = calloc(2 * NR_CPUS_MAX, sizeof(*set));
	bool *allowed = set + NR_CPUS_MAX;
	int ret;

	memset(t, 0, sizeof(*t));
	if (!set)
		return -ENOMEM;
	ret = topo_read_sys(TOPO_SYS_CPU "possible", set);
	if (ret < 0)
		goto out_free_set;
	t->nr_real_possible = (unsigned int)ret;
	t->nr_possible = nr_possible ? nr_possible : t->nr_real_possible;
	ret = topo_read_sys(TOPO_SYS_CPU "online", set);
	if (ret < 0)
		goto out_free_set;
	for (ret = 0; ret < NR_CPUS_MAX; ret++)
		t->nr_online += set[ret];
	ret = topo_allowed(allowed, &t->nr_allowed);
	if (ret)
		goto out_free_set;
	t->node = calloc(t->nr_possible, sizeof(*t->node));
	t->worker_cpu = calloc(NR_CPUS_MAX, sizeof(*t->worker_cpu));
	ret = -ENOMEM;
	if (!t->node || !t->worker_cpu)
		goto out_free_set;
	topo_nodes(t);
	ret = topo_workers(t, cpus, allowed, bad_cpu);
out_free_set:
	free(set);
	if (ret)
		topo_fini(t);
	return ret;
}

void topo_fini(struct topo *t)
{
	free(t->node);
	free(t->worker_cpu);
	t->node = NULL;
	t->worker_cpu = NULL;
}
