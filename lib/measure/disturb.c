// SPDX-License-Identifier: GPL-2.0
/*
 * disturb.c - a CPU's interrupts from /proc/interrupts and a thread's
 * context switches, the engine's test of a disturbed sample (see
 * disturb.h).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "lib/measure/disturb.h"

void disturb_irq_init(struct disturb_irq *d)
{
	memset(d, 0, sizeof(*d));
	d->fd = -1;
}

uint64_t disturb_irq_count(struct disturb_irq *d)
{
	ssize_t n;
	uint64_t sum = 0;
	char *p, *end;
	int col;

	if (d->fd < 0)
		return 0;
	n = pread(d->fd, d->buf, d->len - 1, 0);
	if (n <= 0)
		return 0;
	d->buf[n] = 0;
	p = strchr(d->buf, '\n');		/* skip the CPU header */
	while (p && *++p) {
		p = strchr(p, ':');
		if (!p)
			break;
		p++;
		for (col = 0; col <= d->col; col++) {
			unsigned long long v = strtoull(p, &end, 10);

			if (end == p)
				break;
			if (col == d->col)
				sum += v;
			p = end;
		}
		p = strchr(p, '\n');
	}
	return sum;
}

uint64_t disturb_csw(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		return 0;
	return (uint64_t)ru.ru_nvcsw + (uint64_t)ru.ru_nivcsw;
}

static uint64_t disturb_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* the whole file into d->buf, growing it; false when it cannot be read */
static bool disturb_irq_slurp(struct disturb_irq *d)
{
	char *buf;
	ssize_t n;

	d->len = 1 << 16;
	for (;;) {
		buf = realloc(d->buf, d->len);
		if (!buf)
			return false;
		d->buf = buf;
		n = pread(d->fd, d->buf, d->len - 1, 0);
		if (n <= 0)
			return false;
		if ((size_t)n < d->len - 1)
			break;
		d->len *= 2;
	}
	d->buf[n] = 0;
	return true;
}

/* @cpu's column in the header line "CPU0 CPU1 ...", or -1 */
static int disturb_irq_column(const char *buf, unsigned int cpu)
{
	const char *p = buf, *eol = strchr(buf, '\n');
	char name[32];
	size_t n;
	int col = 0;

	n = (size_t)snprintf(name, sizeof(name), "CPU%u", cpu);
	while ((p = strstr(p, "CPU")) && p < eol) {
		if (!strncmp(p, name, n) && (p[n] == ' ' || p[n] == '\n'))
			return col;
		col++;
		p += 3;
	}
	return -1;
}

bool disturb_irq_open(struct disturb_irq *d, unsigned int cpu, uint64_t max_ns)
{
	uint64_t t0;

	disturb_irq_init(d);
	d->fd = open("/proc/interrupts", O_RDONLY | O_CLOEXEC);
	if (d->fd < 0 || !disturb_irq_slurp(d))
		goto out_off;
	d->col = disturb_irq_column(d->buf, cpu);
	if (d->col < 0)
		goto out_off;
	t0 = disturb_now_ns();
	disturb_irq_count(d);
	d->read_ns = disturb_now_ns() - t0;
	if (d->read_ns <= max_ns)
		return true;
out_off:
	disturb_irq_close(d);
	return false;
}

void disturb_irq_close(struct disturb_irq *d)
{
	uint64_t read_ns = d->read_ns;

	if (d->fd >= 0)
		close(d->fd);
	free(d->buf);
	disturb_irq_init(d);
	d->read_ns = read_ns;
}
