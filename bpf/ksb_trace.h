/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksb_trace.h - what the BPF program bpf/ksb_trace.bpf.c and its loader
 * lib/kernel/trace.c share: the layout of its maps and the kstats slot math.
 *
 * The program times a kernel function (or a section between two
 * functions' entries) as kstats' `trace` does and records each time into
 * kstats slots, one array of them per CPU, in the kernel:
 *
 *	map "slots"	BPF_MAP_TYPE_PERCPU_ARRAY of struct ksb_tslot,
 *			KSB_TRACE_NR_SERIES * ksb_trace_nr_slots(fb) entries:
 *			series s, slot i at key s * nr_slots + i
 *	map "cpus"	BPF_MAP_TYPE_PERCPU_ARRAY, one struct ksb_tcpu: the
 *			CPU's section start, last end, extremes, counters
 *	map "tasks"	BPF_MAP_TYPE_LRU_HASH, a struct ksb_ttask per task
 *			inside the function: its entry stamps
 *
 * Nothing is allocated per call: the arrays are sized at load, the hash
 * is preallocated (an LRU hash always is) and an entry is reused for the
 * task's later calls.
 *
 * The slot of a value is kstats_hist_slot()'s (kstats_hist.h, BUCKET
 * LAYOUT); ksb_trace_slot() computes it without __builtin_clzll(), which
 * the BPF target lacks. tests/unit/test_trace.c checks the two agree.
 * Header-only, for clang -target bpf and the C library alike.
 */
#ifndef KSB_TRACE_H
#define KSB_TRACE_H

#include <linux/types.h>

enum ksb_trace_series {
	KSB_TRACE_TIME,		/* entry to return (or --start to --end), ns */
	KSB_TRACE_GAP,		/* a call's end to the next call's start, ns */
	KSB_TRACE_NR_SERIES,
};

/* the counters of struct ksb_tcpu */
enum ksb_trace_counter {
	KSB_TRACE_ENTRIES,	/* entries seen (section: starts) */
	KSB_TRACE_NO_ENTRY,	/* a return with no entry stamp of its task */
	KSB_TRACE_TOO_DEEP,	/* an entry nested deeper than KSB_TRACE_DEPTH */
	KSB_TRACE_NO_TASK,	/* no room for the task in "tasks" */
	KSB_TRACE_NO_START,	/* section: an --end with no --start before it */
	KSB_TRACE_NR_COUNTERS,
};

/* entry stamps kept per task: calls of the function nested this deep */
#define KSB_TRACE_DEPTH		4
/* tasks inside the function at once ("tasks" entries, LRU-evicted) */
#define KSB_TRACE_TASKS		16384

/* one kstats slot of one CPU */
struct ksb_tslot {
	__u64 count;			/* samples */
	__u64 sum;			/* their exact sum, ns (2^64 ns: 584 years) */
};

/* the state of one CPU */
struct ksb_tcpu {
	__u64 start;			/* section: the --start stamp, ns; 0: none */
	__u64 last_end;			/* the last call's end here, ns; 0: none */
	__u64 max[KSB_TRACE_NR_SERIES];	/* largest sample per series, ns */
	__u64 min_inv[KSB_TRACE_NR_SERIES]; /* ~smallest sample: 0 = none yet */
	__u64 counter[KSB_TRACE_NR_COUNTERS]; /* enum ksb_trace_counter */
};

/* the entry stamps of one task */
struct ksb_ttask {
	__u64 stamp[KSB_TRACE_DEPTH];	/* entry stamps, ns, innermost last */
	__u32 depth;			/* calls entered and not returned */
	__u32 pad;			/* explicit: the value is 40 bytes */
};

/* slots of one series for @fb sub-bucket bits: kstats_hist_nr_slots() */
static inline __u32 ksb_trace_nr_slots(__u32 fb)
{
	return (64 - fb + 1) << fb;
}

/* fls64(): the 1-based index of the top set bit, 0 for 0 */
static inline __attribute__((always_inline)) __u32 ksb_trace_fls64(__u64 v)
{
	__u32 n = 0;

	if (v >> 32) {
		n += 32;
		v >>= 32;
	}
	if (v >> 16) {
		n += 16;
		v >>= 16;
	}
	if (v >> 8) {
		n += 8;
		v >>= 8;
	}
	if (v >> 4) {
		n += 4;
		v >>= 4;
	}
	if (v >> 2) {
		n += 2;
		v >>= 2;
	}
	if (v >> 1) {
		n += 1;
		v >>= 1;
	}
	return n + (__u32)v;
}

/* the slot of @v for @fb sub-bucket bits, as kstats_record() computes it */
static inline __attribute__((always_inline)) __u32 ksb_trace_slot(__u64 v, __u32 fb)
{
	__u32 b = ksb_trace_fls64(v >> fb);

	if (!b)
		return (__u32)v;
	return (b << fb) | (__u32)((v >> (b - 1)) & ((1u << fb) - 1));
}

#endif /* KSB_TRACE_H */
