/* SPDX-License-Identifier: GPL-2.0 */
/*
 * registry.h - the list of workloads: what `bench list` prints and
 * `bench run -w NAME` picks from. Included only by the commands that pick
 * or list a workload (builtin-run.c, builtin-calibrate.c, builtin-list.c)
 * and by registry.c; the engine sees a workload only through
 * lib/measure/workload.h.
 */
#ifndef KSB_REGISTRY_H
#define KSB_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/measure/workload.h"

extern const struct workload wl_irqdesc_alloc;
extern const struct workload wl_irqdesc_free;
extern const struct workload wl_irqdesc_sparse;
extern const struct workload wl_empty;
extern const struct workload wl_syscall_null;
extern const struct workload wl_file_read;
extern const struct workload wl_fork_exit;
extern const struct workload wl_cgroup_mkdir;
extern const struct workload wl_bpf_lookup;
extern const struct workload wl_bpf_prog_info;
extern const struct workload wl_statfs;
extern const struct workload wl_netns;
extern const struct workload wl_mount_tmpfs;
extern const struct workload wl_mntns;
extern const struct workload wl_io_uring;
extern const struct workload wl_aio;
extern const struct workload wl_fork_exec;

/* the registry, NULL-terminated */
extern const struct workload *const workloads[];

#define for_each_workload(w, i) \
	for ((i) = 0; ((w) = workloads[i]); (i)++)

/* workload_find - the workload called @name, or NULL. */
const struct workload *workload_find(const char *name);

/* workload_takes - whether @w lists the option table @t in its options */
bool workload_takes(const struct workload *w, const struct opt *t);

/*
 * workload_tables - @first, then every workload's option tables, each
 * once, into @tab[0..max-1], NULL-terminated: what bench run parses, so
 * that any workload's option is known before -w is. Tables beyond
 * max - 1 are left out. Returns how many are in @tab.
 */
unsigned int workload_tables(const struct opt **tab, unsigned int max,
			     const struct opt *first);

/*
 * workload_takers - the names of the workloads that take table @t,
 * comma-separated, into @buf of @len bytes (truncated to fit). Returns
 * how many workloads take it.
 */
unsigned int workload_takers(const struct opt *t, char *buf, size_t len);

#endif /* KSB_REGISTRY_H */
