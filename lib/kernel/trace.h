/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace.h - time a kernel function with BPF into kstats histograms, as
 * kstats' `trace` does: the loader of bpf/ksb_trace.bpf.c (libbpf, its
 * skeleton built into bench).
 *
 *	struct trace_cfg cfg = { .func = "__irq_alloc_descs", .frac_bits = 2 };
 *	struct trace *t;
 *	char why[256];
 *
 *	if (trace_open(&t, &cfg, why, sizeof(why)))	attached, not recording
 *		fail with why (one line naming the cause)
 *	trace_start(t);
 *	... the workload ...
 *	trace_stop(t);					detached
 *	trace_collect(t);
 *	h = trace_hist(t, KSB_TRACE_TIME, -1);		merged over CPUs
 *	trace_close(t);
 *
 * Per call the kernel does two map lookups and a few adds into the
 * CPU's own kstats slots; nothing is allocated (bpf/ksb_trace.h). The
 * kernel memory is KSB_TRACE_NR_SERIES * ((65 - fb) << fb) * 16 bytes
 * per possible CPU: 8 KiB for fb = 2, 6.6 MiB for fb = 12.
 *
 * The probe (enum trace_probe): fentry/fexit, BPF trampolines, need the
 * function in the kernel's BTF (/sys/kernel/btf/vmlinux, or the module's);
 * kprobe/kretprobe needs kprobes. TRACE_PROBE_AUTO takes fentry when BTF
 * describes the function and it attaches, kprobe otherwise.
 *
 * Not thread-safe: one trace per process (libbpf's print hook is one).
 * The library prints nothing: libbpf's messages are kept for trace_log().
 */
#ifndef KSB_TRACE_LIB_H
#define KSB_TRACE_LIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpf/ksb_trace.h"

struct kstats_hist;
struct trace;

enum trace_probe {
	TRACE_PROBE_AUTO,		/* fentry where BTF allows, else kprobe */
	TRACE_PROBE_FENTRY,		/* fentry/fexit (BPF trampolines) */
	TRACE_PROBE_KPROBE,		/* kprobe/kretprobe */
};

/* "auto", "fentry", "kprobe", NULL: the names of enum trace_probe */
extern const char *const trace_probe_names[];

struct trace_cfg {
	const char *func;		/* the function timed, or the section's start */
	const char *end;		/* the section's end, NULL: FUNC's return */
	enum trace_probe probe;		/* what to attach with */
	unsigned int frac_bits;		/* sub-bucket bits, 0..12 */
	bool verbose;			/* keep libbpf's debug messages too */
};

/* what the program counted besides the samples, summed over CPUs */
struct trace_counts {
	uint64_t c[KSB_TRACE_NR_COUNTERS]; /* enum ksb_trace_counter */
	uint64_t missed;		/* runs the kernel skipped (recursion) */
};

/**
 * trace_open - find FUNC (and the --end function) in the running kernel,
 * pick the probe, load the program and attach it, not recording yet.
 * Returns 0 with *@tp set, or -errno with @why (@len bytes) one line
 * naming the cause:
 *   -ENOENT	no such function (not in /proc/kallsyms: inlined, or a
 *		module not loaded)
 *   -ENODATA	fentry asked and no BTF describes the function
 *   -EINVAL	the function cannot be probed (notrace, the kprobe
 *		blacklist) by the probe asked, or by either under AUTO
 *   -EPERM	the kernel refuses BPF (no privilege in its user
 *		namespace, lockdown, no BPF syscall: -ENOSYS)
 *   -ENOMEM	the kernel refused the maps' memory
 *   another	libbpf's error (trace_log() has its messages)
 */
int trace_open(struct trace **tp, const struct trace_cfg *cfg, char *why,
	       size_t len);

/**
 * trace_start - record from now on. 0, or -EINVAL when detached.
 */
int trace_start(struct trace *t);

/**
 * trace_stop - stop recording and detach, so that the maps stay as they
 * are: a program already past its "active" test finishes before the
 * probes are gone. Idempotent.
 */
void trace_stop(struct trace *t);

/**
 * trace_collect - read the maps into per-CPU and merged histograms (a
 * batch lookup of the slots, then one of each CPU's state). Call after
 * trace_stop(). Returns 0, or -errno of the lookups, or -ENOMEM.
 */
int trace_collect(struct trace *t);

/**
 * trace_hist - after trace_collect(): series @s on CPU @cpu, or merged
 * over every CPU when @cpu < 0 (never NULL). A CPU without samples of
 * @s has none: NULL.
 */
const struct kstats_hist *trace_hist(const struct trace *t,
				     enum ksb_trace_series s, int cpu);

/**
 * trace_counts - after trace_collect(): the counters, summed over CPUs.
 */
void trace_counts(const struct trace *t, struct trace_counts *c);

/**
 * trace_nr_cpus - the possible CPUs, the per-CPU maps' width.
 */
unsigned int trace_nr_cpus(const struct trace *t);

/**
 * trace_probe_used - TRACE_PROBE_FENTRY or TRACE_PROBE_KPROBE.
 */
enum trace_probe trace_probe_used(const struct trace *t);

/**
 * trace_probe_why - why AUTO took kprobe ("no BTF for X", what fentry
 * said), or "" when it took fentry or the probe was asked for.
 */
const char *trace_probe_why(const struct trace *t);

/**
 * trace_log - libbpf's messages so far (warnings; debug when verbose).
 */
const char *trace_log(void);

/**
 * trace_close - detach and free everything; NULL is a no-op.
 */
void trace_close(struct trace *t);

#endif /* KSB_TRACE_LIB_H */
