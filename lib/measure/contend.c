// SPDX-License-Identifier: GPL-2.0
/*
 * contend.c - the host's PSI cpu stall over a measured window (see
 * contend.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/measure/contend.h"
#include "lib/measure/tsc.h"

int contend_psi_parse(const char *text, uint64_t *us)
{
	const char *line = text, *t, *eol;
	unsigned long long v;
	char *end;

	while (line && strncmp(line, "some ", 5)) {
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
	if (!line)
		return -EINVAL;
	eol = line + strcspn(line, "\n");
	t = strstr(line, " total=");
	if (!t || t > eol || t[7] < '0' || t[7] > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(t + 7, &end, 10);
	if (errno || (*end && *end != '\n' && *end != ' '))
		return -EINVAL;
	*us = v;
	return 0;
}

int contend_psi_read(const char *path, uint64_t *us)
{
	char buf[512];
	ssize_t n;
	int fd, ret;

	if (!path)
		path = getenv("KSB_PSI_CPU") ?: CONTEND_PSI_CPU;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	ret = n < 0 ? -errno : 0;
	close(fd);
	if (ret)
		return ret;
	buf[n] = 0;
	return contend_psi_parse(buf, us);
}

void contend_start(struct contend *c, const char *path)
{
	*c = (struct contend) { .path = path };
	c->psi = !contend_psi_read(path, &c->psi0);
	c->t0 = tsc_mono_s();
}

void contend_stop(struct contend *c)
{
	uint64_t us;

	c->seconds = tsc_mono_s() - c->t0;
	if (c->psi && !contend_psi_read(c->path, &us)) {
		c->psi_us = us > c->psi0 ? us - c->psi0 : 0;
		return;
	}
	c->psi = false;
	c->psi_us = 0;
}

double contend_psi_pct(const struct contend *c)
{
	double pct;

	if (!c->psi || c->seconds <= 0)
		return 0;
	pct = 100.0 * (double)c->psi_us / (c->seconds * 1e6);
	return pct > 100 ? 100 : pct;
}
