// SPDX-License-Identifier: GPL-2.0
/*
 * registry.c - every workload, in the order `bench list` prints them.
 */
#include <stdio.h>
#include <string.h>

#include "registry.h"

const struct workload *const workloads[] = {
	&wl_irqdesc_alloc,
	&wl_irqdesc_free,
	&wl_irqdesc_sparse,
	&wl_empty,
	&wl_syscall_null,
	&wl_file_read,
	&wl_fork_exit,
	&wl_cgroup_mkdir,
	&wl_bpf_lookup,
	&wl_bpf_prog_info,
	&wl_statfs,
	&wl_netns,
	&wl_mount_tmpfs,
	&wl_mntns,
	&wl_io_uring,
	&wl_aio,
	&wl_fork_exec,
	NULL,
};

const struct workload *workload_find(const char *name)
{
	const struct workload *w;
	unsigned int i;

	for_each_workload(w, i)
		if (!strcmp(w->name, name))
			return w;
	return NULL;
}

bool workload_takes(const struct workload *w, const struct opt *t)
{
	const struct opt *const *o;

	for (o = w->options; o && *o; o++)
		if (*o == t)
			return true;
	return false;
}

unsigned int workload_tables(const struct opt **tab, unsigned int max,
			     const struct opt *first)
{
	const struct opt *const *o;
	const struct workload *w;
	unsigned int i, t, n = 0;

	tab[n++] = first;
	for_each_workload(w, i)
		for (o = w->options; o && *o; o++) {
			for (t = 1; t < n && tab[t] != *o; t++)
				;
			if (t == n && n < max - 1)
				tab[n++] = *o;
		}
	tab[n] = NULL;
	return n;
}

unsigned int workload_takers(const struct opt *t, char *buf, size_t len)
{
	const struct workload *w;
	unsigned int i, n = 0;
	size_t used = 0;

	buf[0] = 0;
	for_each_workload(w, i)
		if (workload_takes(w, t) && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 n++ ? ", " : "", w->name);
	return n;
}
