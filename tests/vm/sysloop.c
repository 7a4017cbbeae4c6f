// SPDX-License-Identifier: GPL-2.0
/*
 * sysloop.c - make one system call N times, for the vmcheck VM's
 * `bench trace` checks: a known number of calls of a known kernel
 * function, and the cost of one call with and without a probe on it.
 *
 *	sysloop NR N [ARG]	syscall(NR, ARG) N times (ARG default 0),
 *				then one line on stdout:
 *		"sysloop nr NR calls N ns_per_call X mean_ns Y"
 *
 * X is the median of the calls' CLOCK_MONOTONIC times (two vDSO reads
 * around each call), Y their mean: what one call costs the caller, the
 * probe's whole overhead included when one is attached. The median,
 * because a TCG vCPU descheduled by its host for milliseconds swings a
 * mean. Exit 0, 1 when the memory for N times is refused, 2 on bad
 * arguments.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	unsigned long i, n;
	uint64_t *t, t0;
	double sum = 0;
	char *end;
	long nr, arg = 0;

	if (argc != 3 && argc != 4)
		goto usage;
	nr = strtol(argv[1], &end, 10);
	if (*end || nr < 0)
		goto usage;
	n = strtoul(argv[2], &end, 10);
	if (*end || !n)
		goto usage;
	if (argc == 4) {
		arg = strtol(argv[3], &end, 10);
		if (*end)
			goto usage;
	}
	t = malloc(n * sizeof(*t));
	if (!t) {
		perror("sysloop");
		return 1;
	}
	for (i = 0; i < n; i++) {
		t0 = now_ns();
		syscall(nr, arg);
		t[i] = now_ns() - t0;
		sum += (double)t[i];
	}
	qsort(t, n, sizeof(*t), cmp_u64);
	printf("sysloop nr %ld calls %lu ns_per_call %lu mean_ns %.0f\n", nr, n,
	       (unsigned long)t[n / 2], sum / (double)n);
	free(t);
	return 0;

usage:
	fprintf(stderr, "usage: sysloop NR N [ARG] (N > 0 calls of system call NR)\n");
	return 2;
}
