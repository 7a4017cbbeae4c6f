/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kentry.h - what the workloads that time an entry point of the running
 * kernel from user space share (syscall-null, file-read, fork-exit):
 * one call per sample, one variant, no emulated per-CPU object, so
 * their setup, prepare, finish and teardown are mostly nothing.
 */
#ifndef KSB_KENTRY_H
#define KSB_KENTRY_H

#include "lib/measure/workload.h"

/* kentry_setup_none - a setup that keeps no state: *@priv = NULL, 0. */
int kentry_setup_none(const struct wl_env *env, void **priv);

/* kentry_prepare_none - nothing to prepare, no per-CPU object; 0. */
int kentry_prepare_none(void *priv, enum wl_variant v, void **obj);

/*
 * kentry_prepare_err - for a workload whose state (@priv) begins with an
 * `int err`, the -errno of its last failed sample: a sample that failed
 * ends the worker's run in the prepare() after it, with its errno. No
 * per-CPU object.
 */
int kentry_prepare_err(void *priv, enum wl_variant v, void **obj);

/* kentry_teardown_free - free(@priv): the state was one allocation. */
void kentry_teardown_free(void *priv);

/* kentry_finish_none - nothing to free. */
void kentry_finish_none(void *priv, enum wl_variant v);

/* kentry_teardown_none - nothing to tear down. */
void kentry_teardown_none(void *priv);

#endif /* KSB_KENTRY_H */
