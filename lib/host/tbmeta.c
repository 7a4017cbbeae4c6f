// SPDX-License-Identifier: GPL-2.0
/*
 * tbmeta.c - a struct testbed's settings as metadata values: one line a key,
 * in testbed_keys[]' order (the API is testbed.h's).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lib/results/meta.h"
#include "lib/host/testbed.h"

const char *const testbed_keys[] = {
	"cpufreq_governor", "cpufreq_driver", "turbo", "smt", "thp", "vulnerabilities",
	"cmdline", "microcode", "isolcpus", "nohz_full", "irqbalance", "virtualization",
	"numa_balancing", NULL,
};

static void tb_fmt_governor(const struct testbed *tb, char *buf, size_t len)
{
	unsigned int i, with = tb->gov_other;
	size_t used = 0;

	if (!tb->nr_cpus) {
		snprintf(buf, len, "unknown");
		return;
	}
	if (!tb->nr_gov) {
		snprintf(buf, len, "none (no cpufreq)");
		return;
	}
	for (i = 0; i < tb->nr_gov; i++)
		with += tb->gov[i].cpus;
	if (tb->nr_gov == 1 && with == tb->nr_cpus) {
		snprintf(buf, len, "%s", tb->gov[0].name);
		return;
	}
	buf[0] = 0;
	for (i = 0; i < tb->nr_gov && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s x%u", i ? ", " : "",
					 tb->gov[i].name, tb->gov[i].cpus);
	if (tb->gov_other && used < len)
		used += (size_t)snprintf(buf + used, len - used, ", other x%u", tb->gov_other);
	if (with < tb->nr_cpus && used < len)
		snprintf(buf + used, len - used, ", none x%u", tb->nr_cpus - with);
}

static void tb_fmt_driver(const struct testbed *tb, char *buf, size_t len)
{
	snprintf(buf, len, "%s", tb->driver[0] ? tb->driver : tb->nr_cpus ? "none" : "unknown");
}

static void tb_fmt_turbo(const struct testbed *tb, char *buf, size_t len)
{
	if (tb->turbo == TB_UNKNOWN)
		snprintf(buf, len, "unknown (no boost control)");
	else
		snprintf(buf, len, "%s (%s: %s)", tb->turbo ? "on" : "off", tb->turbo_ctl,
			 tb->turbo_raw);
}

static void tb_fmt_smt(const struct testbed *tb, char *buf, size_t len)
{
	if (!tb->smt[0])
		snprintf(buf, len, "unknown");
	else if (!strcmp(tb->smt, "on") && tb->smt_active != TB_UNKNOWN)
		snprintf(buf, len, "on (%s)", tb->smt_active ? "active" : "no sibling online");
	else
		snprintf(buf, len, "%s", tb->smt);
}

static void tb_fmt_thp(const struct testbed *tb, char *buf, size_t len)
{
	if (!tb->thp[0])
		snprintf(buf, len, "unknown");
	else if (tb->thp_defrag[0])
		snprintf(buf, len, "%s (defrag %s)", tb->thp, tb->thp_defrag);
	else
		snprintf(buf, len, "%s", tb->thp);
}

static void tb_fmt_vulns(const struct testbed *tb, char *buf, size_t len)
{
	size_t used;

	if (!tb->vuln_dir) {
		snprintf(buf, len, "unknown");
		return;
	}
	used = (size_t)snprintf(buf, len, "mitigated %u, vulnerable %u", tb->vuln_mitigated,
				tb->vuln_vulnerable);
	if (tb->vuln_vulnerable && used < len)
		used += (size_t)snprintf(buf + used, len - used, " (%s)", tb->vulnerable);
	if (used < len)
		used += (size_t)snprintf(buf + used, len - used, ", not affected %u",
					 tb->vuln_unaffected);
	if (tb->vuln_other && used < len)
		snprintf(buf + used, len - used, ", unknown %u", tb->vuln_other);
}

static void tb_fmt_cmdline(const struct testbed *tb, char *buf, size_t len)
{
	snprintf(buf, len, "%s", tb->cmdline[0] ? tb->cmdline : "unknown");
}

static void tb_fmt_microcode(const struct testbed *tb, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", tb->microcode[0] ? tb->microcode : "unknown",
		 tb->microcode_mixed ? " (mixed)" : "");
}

static void tb_fmt_isolcpus(const struct testbed *tb, char *buf, size_t len)
{
	snprintf(buf, len, "%s", !tb->isolated_read ? "unknown" :
		 tb->isolated[0] ? tb->isolated : "none");
}

static void tb_fmt_nohz(const struct testbed *tb, char *buf, size_t len)
{
	snprintf(buf, len, "%s", tb->nohz_full_file == TB_UNKNOWN ? "unknown" :
		 !tb->nohz_full_file ? "none (not built in)" :
		 tb->nohz_full[0] ? tb->nohz_full : "none");
}

static void tb_fmt_irqbalance(const struct testbed *tb, char *buf, size_t len)
{
	snprintf(buf, len, "%s", tb->irqbalance == TB_UNKNOWN ? "unknown" :
		 tb->irqbalance ? "running" : "not running");
}

static void tb_fmt_virt(const struct testbed *tb, char *buf, size_t len)
{
	if (!tb->hypervisor)
		snprintf(buf, len, "none");
	else if (tb->dmi[0])
		snprintf(buf, len, "%s (%s)", tb->hv_name[0] ? tb->hv_name : "a hypervisor",
			 tb->dmi);
	else
		snprintf(buf, len, "%s", tb->hv_name[0] ? tb->hv_name : "a hypervisor");
}

static void tb_fmt_numa_bal(const struct testbed *tb, char *buf, size_t len)
{
	if (tb->numa_balancing == TB_UNKNOWN)
		snprintf(buf, len, "not built in");
	else
		snprintf(buf, len, "%d", tb->numa_balancing);
}

static const struct {
	const char *key;	/* as in testbed_keys[] */
	void (*fmt)(const struct testbed *tb, char *buf, size_t len);
} tb_fmts[] = {
	{ "cpufreq_governor", tb_fmt_governor }, { "cpufreq_driver", tb_fmt_driver },
	{ "turbo", tb_fmt_turbo }, { "smt", tb_fmt_smt }, { "thp", tb_fmt_thp },
	{ "vulnerabilities", tb_fmt_vulns }, { "cmdline", tb_fmt_cmdline },
	{ "microcode", tb_fmt_microcode }, { "isolcpus", tb_fmt_isolcpus },
	{ "nohz_full", tb_fmt_nohz }, { "irqbalance", tb_fmt_irqbalance },
	{ "virtualization", tb_fmt_virt }, { "numa_balancing", tb_fmt_numa_bal },
};

int testbed_value(const struct testbed *tb, const char *key, char *buf, size_t len)
{
	unsigned int i;

	for (i = 0; i < sizeof(tb_fmts) / sizeof(tb_fmts[0]); i++)
		if (!strcmp(tb_fmts[i].key, key)) {
			tb_fmts[i].fmt(tb, buf, len);
			return 0;
		}
	return -ENOENT;
}

void testbed_meta(const struct testbed *tb, struct meta *m, const char *prefix)
{
	char buf[META_VAL], key[META_KEY];
	unsigned int i;

	for (i = 0; testbed_keys[i]; i++) {
		testbed_value(tb, testbed_keys[i], buf, sizeof(buf));
		snprintf(key, sizeof(key), "%s%s", prefix ? prefix : "", testbed_keys[i]);
		meta_put(m, key, "%s", buf);
	}
}
