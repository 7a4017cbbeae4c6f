// SPDX-License-Identifier: GPL-2.0
/*
 * host.c - the machine's name, kernel and CPU model (see host.h).
 */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "lib/host/host.h"
#include "lib/results/meta.h"

void host_cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256], *p;

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10) || !(p = strchr(line, ':')))
			continue;
		p += 1 + strspn(p + 1, " \t");
		p[strcspn(p, "\n")] = 0;
		snprintf(buf, len, "%s", p);
		break;
	}
	fclose(f);
}

void host_meta(struct meta *m)
{
	struct utsname u;
	char model[128];

	uname(&u);
	host_cpu_model(model, sizeof(model));
	meta_set(m, "host", "%s", u.nodename);
	meta_set(m, "kernel", "%s %s", u.release, u.machine);
	meta_set(m, "cpu_model", "%s", model);
}
