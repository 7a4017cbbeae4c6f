// SPDX-License-Identifier: GPL-2.0
/*
 * registry.c - every workload, in the order `bench list` prints them.
 */
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
