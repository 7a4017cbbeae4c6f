/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tsc.h - timestamps for one timed region, and cycles -> ns.
 *
 *	t0 = tsc_start();		mfence; lfence; rdtsc
 *	region();
 *	t1 = tsc_end(fence, &aux);	[fence]; rdtscp; lfence
 *
 * tsc_start(): mfence drains the stores of the untimed setup, so that
 * they are not paid inside the window; lfence keeps rdtsc from running
 * before earlier instructions complete. Never cpuid: under a hypervisor
 * it is a VM exit of microseconds (measured ~7 us on xeon-vm).
 *
 * tsc_end(): rdtscp waits for earlier instructions to execute, but not
 * for their stores to leave the store buffer, so a region of fewer than
 * ~100 stores would hide in the buffer. The end fence (--end-fence)
 * decides how much of that drain the window holds:
 *   sfence (default): the region's stores are ordered before any later
 *     store; costs nothing measurable on the empty region (timer_ratio
 *     stays ~1), and is what the reference figures in docs/design.md
 *     ("Facts measured on xeon-vm") used;
 *   mfence: the SDM's recipe for "RDTSCP only after all previous stores
 *     are globally visible": the strict bound, at ~43 more cycles;
 *   none: the bare stamps.
 * Measured on epyc-vm (AMD EPYC under KVM, bench run -n 4096
 * --possible-cpus 480): empty region ~58 cycles with none or sfence,
 * ~101 with mfence. Old path, 480 cold units: 14.2 / 15.7 / 14.9 us mean
 * (none / sfence / mfence), all within run-to-run noise, because 480
 * missing stores overflow the store buffer long before the stamp. New
 * path (a few dozen cold stores): ~180 ns with none or sfence, ~277 ns
 * with mfence: for short regions the fence choice matters, so it is
 * recorded in the metadata (end_fence).
 * lfence after rdtscp keeps later work out of the window. rdtscp also
 * returns TSC_AUX, which Linux sets to (node << 12) | cpu: a free
 * migration check.
 *
 * Frequency: CPUID 0x15 (crystal * ratio) where it is complete, else
 * calibrated against CLOCK_MONOTONIC_RAW until two estimates agree
 * within 0.1%. Conversion is ns = (cycles * mult + 2^31) >> 32, integer
 * only, rounded to the nearest ns.
 *
 * Without an invariant TSC (or with KSB_NO_TSC=1 in the environment)
 * the caller falls back to clock_gettime(CLOCK_MONOTONIC_RAW) and says so;
 * KSB_FORCE_TSC=1 uses a TSC that does not claim to be invariant (a
 * hypervisor that hides the bit, or qemu TCG), calibrated as usual.
 * All functions are thread-safe; tsc_init() runs once, before threads.
 */
#ifndef KSB_TSC_H
#define KSB_TSC_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "lib/subcmd/spawn.h"

enum tsc_fence {
	TSC_FENCE_SFENCE,	/* order the region's stores before the stamp */
	TSC_FENCE_MFENCE,	/* drain every store and load */
	TSC_FENCE_NONE,		/* stores may still be buffered at the stamp */
};

/* "sfence", "mfence", "none": enum tsc_fence order, NULL-terminated */
extern const char *const tsc_fence_names[];

/*
 * How a region is stamped (--stamps):
 *   fenced (default): tsc_start() and tsc_end() above;
 *   kstats: a bare rdtsc at both ends (tsc_rdtsc()), as lr-cstats'
 *     kstats.c does in its default ctr_mode: nothing fenced, nothing
 *     subtracted; the region's last stores may still be buffered and its
 *     first loads may start before the stamp. Migrations are then
 *     checked with sched_getcpu(), outside the window.
 */
enum tsc_stamps {
	TSC_STAMPS_FENCED,	/* mfence; lfence; rdtsc .. [fence]; rdtscp; lfence */
	TSC_STAMPS_KSTATS,	/* rdtsc .. rdtsc */
};

/* "fenced", "kstats": enum tsc_stamps order, NULL-terminated */
extern const char *const tsc_stamps_names[];

struct tsc_info {
	bool usable;		/* invariant TSC present and not disabled */
	bool invariant;		/* CPUID 0x80000007 EDX bit 8 */
	uint64_t hz;		/* TSC ticks per second (0 when !usable) */
	const char *hz_source;	/* "cpuid-0x15", "calibrated", "none" */
	uint64_t mult;		/* ns = (cycles * mult) >> 32 */
	char clocksource[32];	/* the kernel's current clocksource */
	char why[96];		/* why the TSC is not usable, when it is not */
};

/**
 * tsc_start - the start stamp of a timed region.
 */
static inline uint64_t tsc_start(void)
{
	uint32_t lo, hi;

	asm volatile("mfence\n\tlfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

/**
 * tsc_end - the end stamp; *@aux gets TSC_AUX ((node << 12) | cpu).
 */
static inline uint64_t tsc_end(enum tsc_fence fence, uint32_t *aux)
{
	uint32_t lo, hi;

	if (fence == TSC_FENCE_SFENCE)
		asm volatile("sfence" : : : "memory");
	else if (fence == TSC_FENCE_MFENCE)
		asm volatile("mfence" : : : "memory");
	asm volatile("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(*aux) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

/**
 * tsc_rdtsc - a bare rdtsc, kstats' stamp: no fence on either side.
 */
static inline uint64_t tsc_rdtsc(void)
{
	uint32_t lo, hi;

	asm volatile("rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

/**
 * tsc_clock_ns - the fallback clock, CLOCK_MONOTONIC_RAW in ns.
 */
static inline uint64_t tsc_clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/**
 * tsc_mono_s - CLOCK_MONOTONIC in seconds: the clock of the windows and
 * timeouts around a measurement (lib/measure/contend.h's window), never
 * of a sample; lib/subcmd/spawn.h's spawn_now(), the process runner's.
 */
static inline double tsc_mono_s(void)
{
	return spawn_now();
}

/**
 * tsc_to_ns - @cycles in ns with the integer mult of @t, rounded.
 */
static inline uint64_t tsc_to_ns(const struct tsc_info *t, uint64_t cycles)
{
	return (uint64_t)(((unsigned __int128)cycles * t->mult + (1u << 31)) >> 32);
}

/**
 * tsc_mult - the mult for @hz: ((10^9 << 32) + hz / 2) / hz.
 * Relative error below 2^-32 / (10^9 / hz).
 */
uint64_t tsc_mult(uint64_t hz);

/**
 * tsc_init - probe the TSC and find its frequency. Honours KSB_NO_TSC=1.
 * Always returns 0; @t->usable says whether to use it and @t->why why not.
 */
int tsc_init(struct tsc_info *t);

#endif /* KSB_TSC_H */
