// SPDX-License-Identifier: GPL-2.0
/*
 * ksb_trace.bpf.c - bench trace's BPF program: kstats' `trace` in BPF.
 *
 * Times every call of one kernel function, from its entry to its return,
 * or the section from the entry of one function (--start) to the entry
 * of another (--end) on one CPU, and records each time into the CPU's
 * kstats slots (ksb_trace.h), with a second series for the gap from one
 * call's end to the next call's start on the same CPU (kstats' GAP-S).
 *
 * Stamps are bpf_ktime_get_ns(), CLOCK_MONOTONIC ns as ktime_get_ns(),
 * which kstats' trace takes. The entry handler does its lookups first
 * and stamps last; the return handler stamps first: what lies between
 * the two stamps is the function and the part of the probe that cannot
 * be moved out (docs/measurements.md, "bench trace: the probe's overhead").
 *
 * Where a call's entry stamp lives, as in kstats:
 *   a function	per task ("tasks", keyed by thread id), a stack of
 *		KSB_TRACE_DEPTH, as a kretprobe keeps one per call: the
 *		function may sleep and end on another CPU
 *   a section	per CPU, the first --start until the next --end, as
 *		kstats' kprobe pair does
 *
 * Two programs attach in each mode, picked by the loader (lib/kernel/trace.c):
 *   fentry	ksb_fentry on FUNC, then ksb_fexit (a function) or
 *		ksb_fentry_end on the --end function (a section)
 *   kprobe	ksb_kprobe, then ksb_kretprobe or ksb_kprobe_end
 * Nothing records until the loader sets "active", after both attached.
 */
#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>

#include "ksb_trace.h"

char LICENSE[] SEC("license") = "GPL";

/* set by the loader before load: constants to the verifier */
const volatile __u32 frac_bits = 2;	/* sub-bucket bits, 0..12 */
const volatile __u32 nr_slots = 252;	/* ksb_trace_nr_slots(frac_bits) */
const volatile __u32 section;		/* 1: --end given, per-CPU start */

/* set by the loader once both programs are attached, cleared at stop */
__u32 active;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);		/* KSB_TRACE_NR_SERIES * nr_slots */
	__type(key, __u32);
	__type(value, struct ksb_tslot);
} slots SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ksb_tcpu);
} cpus SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, KSB_TRACE_TASKS);
	__type(key, __u64);		/* thread id; (1 << 32) | CPU for pid 0 */
	__type(value, struct ksb_ttask);
} tasks SEC(".maps");

struct pt_regs;

/* ---- recording ---- */

static __always_inline void record(struct ksb_tcpu *c, __u32 series, __u64 v)
{
	__u32 key = ksb_trace_slot(v, frac_bits);
	struct ksb_tslot *s;

	if (key >= nr_slots)
		return;
	key += series * nr_slots;
	s = bpf_map_lookup_elem(&slots, &key);
	if (!s)
		return;
	/*
	 * Plain adds: the slots are this CPU's, and a tracing program does
	 * not run twice at once on one CPU (the trampoline's and kprobes'
	 * recursion guards skip a nested run).
	 */
	s->count++;
	s->sum += v;
	if (v > c->max[series])
		c->max[series] = v;
	if (~v > c->min_inv[series])
		c->min_inv[series] = ~v;
}

/* a call (or section) from @start to @end on this CPU, then the gap before it */
static __always_inline void record_call(struct ksb_tcpu *c, __u64 start, __u64 end)
{
	record(c, KSB_TRACE_TIME, end - start);
	if (c->last_end && c->last_end <= start)
		record(c, KSB_TRACE_GAP, start - c->last_end);
	c->last_end = end;
}

/* this CPU's state while recording, else NULL */
static __always_inline struct ksb_tcpu *this_cpu(void)
{
	__u32 zero = 0;

	if (!active)
		return NULL;
	return bpf_map_lookup_elem(&cpus, &zero);
}

/* the key of the running task: its thread id, or the CPU for the idle tasks */
static __always_inline __u64 task_key(void)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();

	return tid ? tid : (1ULL << 32) | bpf_get_smp_processor_id();
}

/* ---- the two ends ---- */

/* the entry stamps of the running task, made at its first call */
static __always_inline struct ksb_ttask *task_get(int create)
{
	struct ksb_ttask *t, fresh = {};
	__u64 key = task_key();

	t = bpf_map_lookup_elem(&tasks, &key);
	if (t || !create)
		return t;
	bpf_map_update_elem(&tasks, &key, &fresh, BPF_NOEXIST);
	return bpf_map_lookup_elem(&tasks, &key);
}

static __always_inline int on_entry(void)
{
	struct ksb_ttask *t;
	struct ksb_tcpu *c;

	c = this_cpu();
	if (!c)
		return 0;
	c->counter[KSB_TRACE_ENTRIES]++;
	if (section) {
		if (!c->start)
			c->start = bpf_ktime_get_ns();
		return 0;
	}
	t = task_get(1);
	if (!t) {
		c->counter[KSB_TRACE_NO_TASK]++;
		return 0;
	}
	if (t->depth >= KSB_TRACE_DEPTH) {
		t->depth++;
		c->counter[KSB_TRACE_TOO_DEEP]++;
		return 0;
	}
	/* the stamp last: nothing of this handler after it is timed */
	t->stamp[t->depth & (KSB_TRACE_DEPTH - 1)] = bpf_ktime_get_ns();
	t->depth++;
	return 0;
}

static __always_inline int on_return(void)
{
	/* the stamp first: nothing of this handler before it is timed */
	__u64 now = bpf_ktime_get_ns();
	struct ksb_ttask *t;
	struct ksb_tcpu *c;

	c = this_cpu();
	if (!c)
		return 0;
	t = task_get(0);
	if (!t || !t->depth) {
		c->counter[KSB_TRACE_NO_ENTRY]++;
		return 0;
	}
	t->depth--;
	if (t->depth < KSB_TRACE_DEPTH)
		record_call(c, t->stamp[t->depth & (KSB_TRACE_DEPTH - 1)], now);
	return 0;
}

static __always_inline int on_section_end(void)
{
	__u64 now = bpf_ktime_get_ns();
	struct ksb_tcpu *c;

	c = this_cpu();
	if (!c)
		return 0;
	if (!c->start) {
		c->counter[KSB_TRACE_NO_START]++;
		return 0;
	}
	record_call(c, c->start, now);
	c->start = 0;
	return 0;
}

/* ---- fentry/fexit: where the kernel's BTF describes the function ---- */

SEC("fentry")
int ksb_fentry(void *ctx)
{
	return on_entry();
}

SEC("fexit")
int ksb_fexit(void *ctx)
{
	return on_return();
}

SEC("fentry")
int ksb_fentry_end(void *ctx)
{
	return on_section_end();
}

/* ---- kprobe/kretprobe: any function kprobes may probe ---- */

SEC("kprobe")
int ksb_kprobe(struct pt_regs *ctx)
{
	return on_entry();
}

SEC("kretprobe")
int ksb_kretprobe(struct pt_regs *ctx)
{
	return on_return();
}

SEC("kprobe")
int ksb_kprobe_end(struct pt_regs *ctx)
{
	return on_section_end();
}
