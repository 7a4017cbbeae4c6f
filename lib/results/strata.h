/* SPDX-License-Identifier: GPL-2.0 */
/*
 * strata.h - runner classes: the machines whose runs one fit may pool.
 * A run's figures are the runner's as much as the kernel's: qemu TCG
 * emulates every instruction and models no caches, KVM runs them on the
 * host's cores, and two CPU models differ in both. Runs of two classes
 * are two strata; a gate or a slope over both would measure the mix.
 *
 * THE CLASS of a file (strata_class()), ACCEL/CPU, one word:
 *
 *	tcg/AMD-EPYC-7763-64-Core-Processor	bench vm under TCG on that host
 *	kvm/Intel-R-Xeon-R-Platinum-8272CL...	bench vm under KVM
 *	native/AMD-EPYC-7763-64-Core-Processor	bench run, kernel, trace
 *	counted/QEMU-TCG-CPU-version-2.5+	bench vm's counted clock
 *
 * A counted file (unit COUNTED_UNIT, lib/results/counted.h) counts the
 * instructions of the CPU qemu emulates, the same on any host: its class
 * is "counted" and the guest's cpu_model, so that runners of any host
 * CPU pool. Otherwise ACCEL is the file's vm_accel, else the accel= of its vm_qemu line (files
 * written before vm_accel), else "native" (no VM). CPU is the runner's
 * model, vm_host_cpu_model for a VM's file, cpu_model for the others,
 * "unknown" where the file has none, each run of characters other than
 * [A-Za-z0-9.+_] made one '-'. A file that bench merge joined from
 * shards keeps each run's class in its vm_run_class list ("1-2:CLASS
 * 3-4:CLASS"): its runs are checked one range at a time. A file that
 * names no CPU (written before vm_host_cpu_model) is "ACCEL/unknown",
 * which only its accelerator tells apart: a key is compared only where
 * both files record it, as lib/host/testbed.h's testbed_diff() does.
 *
 *	if (strata_check(metas, paths, n, why, sizeof(why)))
 *		...				exit 2, why names both classes
 *
 * Pure functions of their arguments: any thread.
 */
#ifndef KSB_STRATA_H
#define KSB_STRATA_H

#include <stddef.h>

#include "lib/results/meta.h"

#define STRATA_CLASS	160	/* bytes of a class, NUL included */

/**
 * strata_class - the runner class of a file of metadata @m into @buf (@len bytes).
 */
void strata_class(const struct meta *m, char *buf, size_t len);

/**
 * strata_check - are the runs of the @n files @m (named @path) all of one
 * runner class? Returns 0, or -EINVAL with one line in @why (@len bytes)
 * naming the first two classes and a file of each.
 */
int strata_check(const struct meta *const *m, const char *const *path, unsigned int n,
		 char *why, size_t len);

#endif /* KSB_STRATA_H */
