// SPDX-License-Identifier: GPL-2.0
/*
 * tsc.c - TSC probing and frequency (see tsc.h).
 */
#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/measure/tsc.h"

#define TSC_CAL_TOLERANCE_PPM	1000	/* two estimates agree within 0.1% */
#define TSC_CAL_TRIES		12

const char *const tsc_fence_names[] = { "sfence", "mfence", "none", NULL };
const char *const tsc_stamps_names[] = { "fenced", "kstats", NULL };

uint64_t tsc_mult(uint64_t hz)
{
	return (uint64_t)((((unsigned __int128)1000000000u << 32) + hz / 2) / hz);
}

static void tsc_clocksource(struct tsc_info *t)
{
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");

	strcpy(t->clocksource, "unknown");
	if (!f)
		return;
	if (fgets(t->clocksource, sizeof(t->clocksource), f))
		t->clocksource[strcspn(t->clocksource, "\n")] = 0;
	fclose(f);
}

/*
 * CPUID 0x15: TSC = crystal * EBX / EAX when all three are reported;
 * else CPUID 0x16 EAX, the base frequency in MHz, which Intel parts
 * without a reported crystal run the TSC at. 0 when neither is there.
 */
static uint64_t tsc_cpuid_hz(const char **src)
{
	unsigned int a = 0, b = 0, c = 0, d, max = __get_cpuid_max(0, NULL);

	if (max >= 0x15) {
		__cpuid(0x15, a, b, c, d);
		*src = "cpuid-0x15";
		if (a && b && c)
			return (uint64_t)c * b / a;
	}
	if (max >= 0x16) {
		__cpuid(0x16, a, b, c, d);
		*src = "cpuid-0x16";
		if (a)
			return (uint64_t)a * 1000000;
	}
	return 0;
}

/* One estimate: TSC ticks over a CLOCK_MONOTONIC_RAW interval of @ms. */
static uint64_t tsc_estimate(unsigned int ms)
{
	struct timespec req = { 0, (long)ms * 1000000 };
	uint64_t c0, c1, n0, n1;
	uint32_t aux;

	n0 = tsc_clock_ns();
	c0 = tsc_start();
	nanosleep(&req, NULL);
	n1 = tsc_clock_ns();
	c1 = tsc_end(TSC_FENCE_NONE, &aux);
	return (uint64_t)((unsigned __int128)(c1 - c0) * 1000000000u / (n1 - n0));
}

static uint64_t tsc_calibrate(void)
{
	uint64_t prev = tsc_estimate(10), cur = 0, diff;
	unsigned int i;

	for (i = 1; i < TSC_CAL_TRIES; i++) {
		cur = tsc_estimate(10u << (i < 5 ? i : 5));
		diff = cur > prev ? cur - prev : prev - cur;
		if (diff * 1000000 / cur <= TSC_CAL_TOLERANCE_PPM)
			return (cur + prev) / 2;
		prev = cur;
	}
	return cur;
}

int tsc_init(struct tsc_info *t)
{
	unsigned int a, b, c, d = 0;
	const char *off = getenv("KSB_NO_TSC");

	memset(t, 0, sizeof(*t));
	t->hz_source = "none";
	tsc_clocksource(t);
	if (__get_cpuid_max(0x80000000, NULL) >= 0x80000007)
		__cpuid(0x80000007, a, b, c, d);
	t->invariant = d & (1u << 8);
	if (off && strcmp(off, "0")) {
		snprintf(t->why, sizeof(t->why), "KSB_NO_TSC=%s in the environment", off);
		return 0;
	}
	/* some hypervisors hide the bit of a TSC they keep stable */
	if (!t->invariant && !getenv("KSB_FORCE_TSC")) {
		snprintf(t->why, sizeof(t->why), "no invariant TSC (CPUID 0x80000007 EDX bit 8; KSB_FORCE_TSC=1 trusts it anyway)");
		return 0;
	}
	t->hz = tsc_cpuid_hz(&t->hz_source);
	if (!t->hz) {
		t->hz = tsc_calibrate();
		t->hz_source = "calibrated";
	}
	t->mult = tsc_mult(t->hz);
	t->usable = true;
	return 0;
}
