// SPDX-License-Identifier: GPL-2.0
/*
 * test_trace.c - the slot math of bench trace's BPF program
 * (bpf/ksb_trace.h, which the program and lib/kernel/trace.c both include)
 * against kstats_hist's: the kernel files every sample in the slot that
 * kstats_hist_add_slot() is then given, for every frac_bits.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "bpf/ksb_trace.h"
#include "kstats_hist.h"

static void assert_same_slot(uint64_t v, unsigned int fb)
{
	if (ksb_trace_slot(v, fb) != kstats_hist_slot(v, fb))
		fail_msg("v %llu fb %u: BPF slot %u, kstats_hist slot %u",
			 (unsigned long long)v, fb, ksb_trace_slot(v, fb), kstats_hist_slot(v, fb));
}

/*
 * every value to 2^16; each power of two and its neighbours; and a walk
 * up every magnitude by steps of about 1/64, odd low bits and all
 */
static void test_slot_as_kstats_hist(void **state)
{
	unsigned int fb, e;
	uint64_t v;

	(void)state;
	for (fb = 0; fb <= KSTATS_HIST_FRAC_BITS_MAX; fb++) {
		for (v = 0; v <= 1 << 16; v++)
			assert_same_slot(v, fb);
		for (e = 1; e < 64; e++) {
			assert_same_slot((UINT64_C(1) << e) - 1, fb);
			assert_same_slot(UINT64_C(1) << e, fb);
			assert_same_slot((UINT64_C(1) << e) + 1, fb);
		}
		assert_same_slot(UINT64_MAX, fb);
		for (v = 1; v < UINT64_MAX - (UINT64_MAX >> 6); v += (v >> 6) | 0x2b)
			assert_same_slot(v, fb);
	}
}

/* the fls64 the slot math rests on, at every bit */
static void test_fls64(void **state)
{
	unsigned int e;

	(void)state;
	assert_int_equal(ksb_trace_fls64(0), 0);
	for (e = 0; e < 64; e++) {
		assert_int_equal(ksb_trace_fls64(UINT64_C(1) << e), e + 1);
		assert_int_equal(ksb_trace_fls64((UINT64_C(1) << e) | 1), e + 1);
		assert_int_equal(ksb_trace_fls64(UINT64_MAX >> (63 - e)), e + 1);
	}
}

/* the map holds as many slots as a kstats_hist, the last one included */
static void test_nr_slots(void **state)
{
	unsigned int fb;

	(void)state;
	for (fb = 0; fb <= KSTATS_HIST_FRAC_BITS_MAX; fb++) {
		assert_int_equal(ksb_trace_nr_slots(fb), kstats_hist_slot(UINT64_MAX, fb) + 1);
		assert_int_equal(ksb_trace_slot(UINT64_MAX, fb), ksb_trace_nr_slots(fb) - 1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fls64),
		cmocka_unit_test(test_slot_as_kstats_hist),
		cmocka_unit_test(test_nr_slots),
	};

	return cmocka_run_group_tests_name("trace", tests, NULL, NULL);
}
