// SPDX-License-Identifier: GPL-2.0
/*
 * testbed.c - the host's timing-relevant settings from /proc and /sys,
 * read into struct testbed (see testbed.h). What they become in the
 * metadata is tbmeta.c's, who wrote a result tblabel.c's, what differs
 * between files tbdiff.c's.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "lib/results/meta.h"
#include "lib/subcmd/readfile.h"
#include "lib/host/testbed.h"

/* ---- reading files under the root ---- */

#define TB_CPUINFO_LINE	65536	/* bytes of a /proc/cpuinfo line read at most */

/* @root and the path @fmt... joined into @buf */
static void __attribute__((format(printf, 4, 0)))
tb_vpath(char *buf, size_t len, const char *root, const char *fmt, va_list ap)
{
	int k = snprintf(buf, len, "%s", root);

	if (k >= 0 && (size_t)k < len)
		vsnprintf(buf + k, len - (size_t)k, fmt, ap);
}

static void tb_path(char *buf, size_t len, const char *root, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void tb_path(char *buf, size_t len, const char *root, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tb_vpath(buf, len, root, fmt, ap);
	va_end(ap);
}

/* the directory @dir under @root, or NULL */
static DIR *tb_opendir(const char *root, const char *dir)
{
	char path[512];

	tb_path(path, sizeof(path), root, "%s", dir);
	return opendir(path);
}

static int tb_read(const char *root, char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* the file @fmt... under @root into @buf, trailing whitespace cut: 0 or -errno */
static int tb_read(const char *root, char *buf, size_t len, const char *fmt, ...)
{
	char path[512];
	va_list ap;
	size_t n;
	FILE *f;
	int ret = 0;

	va_start(ap, fmt);
	tb_vpath(path, sizeof(path), root, fmt, ap);
	va_end(ap);
	buf[0] = 0;
	f = fopen(path, "r");
	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	if (ferror(f))
		ret = -EIO;
	fclose(f);
	buf[n] = 0;
	while (n && isspace((unsigned char)buf[n - 1]))
		buf[--n] = 0;
	return ret;
}

/* the file as an int: 0, or -errno / -EINVAL when it holds none */
static int tb_read_int(const char *root, const char *path, int *v)
{
	char buf[32], *end;
	long x;
	int ret = tb_read(root, buf, sizeof(buf), "%s", path);

	if (ret)
		return ret;
	x = strtol(buf, &end, 10);
	if (end == buf || *end)
		return -EINVAL;
	*v = (int)x;
	return 0;
}

/* the "[choice]" of a sysfs selection ("always [madvise] never") */
static void tb_choice(const char *s, char *out, size_t len)
{
	const char *a = strchr(s, '['), *b = a ? strchr(a, ']') : NULL;

	if (a && b)
		snprintf(out, len, "%.*s", (int)(b - a - 1), a + 1);
	else
		snprintf(out, len, "%s", s);
}

/* ---- cpufreq, turbo, SMT ---- */

static void tb_gov_add(struct testbed *tb, const char *name)
{
	unsigned int i;

	for (i = 0; i < tb->nr_gov; i++)
		if (!strcmp(tb->gov[i].name, name)) {
			tb->gov[i].cpus++;
			return;
		}
	if (i == TB_MAX_GOVERNORS) {
		tb->gov_other++;
		return;
	}
	snprintf(tb->gov[i].name, sizeof(tb->gov[i].name), "%.31s", name);
	tb->gov[i].cpus = 1;
	tb->nr_gov++;
}

/* most CPUs first, then by name: the summary must not depend on readdir */
static void tb_gov_sort(struct testbed *tb)
{
	unsigned int i, j;

	for (i = 1; i < tb->nr_gov; i++)
		for (j = i; j > 0; j--) {
			struct tb_gov t = tb->gov[j];

			if (t.cpus < tb->gov[j - 1].cpus ||
			    (t.cpus == tb->gov[j - 1].cpus &&
			     strcmp(t.name, tb->gov[j - 1].name) > 0))
				break;
			tb->gov[j] = tb->gov[j - 1];
			tb->gov[j - 1] = t;
		}
}

/* every cpuN: counted, its governor; the driver of the lowest one */
static void tb_cpus(struct testbed *tb, const char *root)
{
	unsigned int cpu, low = ~0u;
	DIR *d = tb_opendir(root, "/sys/devices/system/cpu");
	struct dirent *de;
	char buf[64], c;

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (sscanf(de->d_name, "cpu%u%c", &cpu, &c) != 1)
			continue;
		tb->nr_cpus++;
		if (tb_read(root, buf, sizeof(buf),
			    "/sys/devices/system/cpu/cpu%u/cpufreq/scaling_governor", cpu))
			continue;
		tb_gov_add(tb, buf);
		if (cpu < low)
			low = cpu;
	}
	closedir(d);
	tb_gov_sort(tb);
	if (low != ~0u)
		tb_read(root, tb->driver, sizeof(tb->driver),
			"/sys/devices/system/cpu/cpu%u/cpufreq/scaling_driver", low);
}

/* the first boost control there is: intel_pstate's, acpi-cpufreq's, a policy's */
static void tb_turbo(struct testbed *tb, const char *root)
{
	static const struct {
		const char *file;	/* under /sys/devices/system/cpu */
		bool off_when_1;	/* no_turbo: 1 is off */
	} ctl[] = {
		{ "intel_pstate/no_turbo", true },
		{ "cpufreq/boost", false },
		{ "cpufreq/policy0/boost", false },
	};
	unsigned int i;
	char buf[16];

	tb->turbo = TB_UNKNOWN;
	for (i = 0; i < sizeof(ctl) / sizeof(ctl[0]); i++) {
		if (tb_read(root, buf, sizeof(buf), "/sys/devices/system/cpu/%s", ctl[i].file) ||
		    (strcmp(buf, "0") && strcmp(buf, "1")))
			continue;
		tb->turbo = (buf[0] == '1') != ctl[i].off_when_1;
		snprintf(tb->turbo_ctl, sizeof(tb->turbo_ctl), "%s", ctl[i].file);
		tb->turbo_raw[0] = buf[0];
		return;
	}
}

static void tb_smt_thp(struct testbed *tb, const char *root)
{
	char buf[128];

	tb_read(root, tb->smt, sizeof(tb->smt), "/sys/devices/system/cpu/smt/control");
	if (tb_read_int(root, "/sys/devices/system/cpu/smt/active", &tb->smt_active))
		tb->smt_active = TB_UNKNOWN;
	if (!tb_read(root, buf, sizeof(buf), "/sys/kernel/mm/transparent_hugepage/enabled"))
		tb_choice(buf, tb->thp, sizeof(tb->thp));
	if (!tb_read(root, buf, sizeof(buf), "/sys/kernel/mm/transparent_hugepage/defrag"))
		tb_choice(buf, tb->thp_defrag, sizeof(tb->thp_defrag));
}

/* ---- vulnerabilities ---- */

#define TB_MAX_VULNS	64

static int tb_cmp_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

static void tb_vuln_one(struct testbed *tb, const char *root, const char *name)
{
	char buf[256], *s;
	size_t used = strlen(tb->vulnerable);

	if (tb_read(root, buf, sizeof(buf), "/sys/devices/system/cpu/vulnerabilities/%s", name))
		return;
	/* itlb_multihit says "KVM: Mitigation: ..." */
	s = strncmp(buf, "KVM: ", 5) ? buf : buf + 5;
	if (!strncmp(s, "Not affected", 12)) {
		tb->vuln_unaffected++;
	} else if (!strncmp(s, "Mitigation", 10)) {
		tb->vuln_mitigated++;
	} else if (!strncmp(s, "Vulnerable", 10)) {
		tb->vuln_vulnerable++;
		snprintf(tb->vulnerable + used, sizeof(tb->vulnerable) - used, "%s%s",
			 used ? " " : "", name);
	} else {
		tb->vuln_other++;
	}
}

static void tb_vulns(struct testbed *tb, const char *root)
{
	DIR *d = tb_opendir(root, "/sys/devices/system/cpu/vulnerabilities");
	char name[TB_MAX_VULNS][64];
	unsigned int i, n = 0;
	struct dirent *de;

	if (!d)
		return;
	tb->vuln_dir = 1;
	while ((de = readdir(d)) && n < TB_MAX_VULNS)
		if (de->d_name[0] != '.')
			snprintf(name[n++], sizeof(name[0]), "%.63s", de->d_name);
	closedir(d);
	qsort(name, n, sizeof(name[0]), tb_cmp_name);
	for (i = 0; i < n; i++)
		tb_vuln_one(tb, root, name[i]);
}

/* ---- /proc: cpuinfo, cmdline, irqbalance, meminfo ---- */

/* a /proc/cpuinfo line's value after "key<tabs>: " when it is @key */
static const char *tb_cpuinfo_val(const char *line, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(line, key, n) || (line[n] != '\t' && line[n] != ' ' && line[n] != ':'))
		return NULL;
	line = strchr(line + n, ':');
	return line ? line + 1 + strspn(line + 1, " \t") : NULL;
}

/* microcode of every CPU, and the first CPU's hypervisor flag */
static void tb_cpuinfo(struct testbed *tb, const char *root)
{
	struct readfile_lines lr;
	bool flags_seen = false;
	char path[512];
	const char *v;
	FILE *f;

	tb_path(path, sizeof(path), root, "/proc/cpuinfo");
	f = fopen(path, "r");
	if (!f)
		return;
	readfile_lines_init(&lr, f, TB_CPUINFO_LINE);
	while (readfile_lines_next(&lr) > 0) {
		if ((v = tb_cpuinfo_val(lr.line, "microcode"))) {
			if (!tb->microcode[0])
				snprintf(tb->microcode, sizeof(tb->microcode), "%s", v);
			else if (strcmp(tb->microcode, v))
				tb->microcode_mixed = true;
		} else if (!flags_seen && (v = tb_cpuinfo_val(lr.line, "flags"))) {
			flags_seen = true;
			v = strstr(v, "hypervisor");
			if (v && (v[-1] == ' ' || v[-1] == ':') && (v[10] == ' ' || !v[10]))
				tb->hypervisor = true;
		}
	}
	readfile_lines_free(&lr);
	fclose(f);
}

static bool tb_all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

static void tb_irqbalance(struct testbed *tb, const char *root)
{
	DIR *d = tb_opendir(root, "/proc");
	struct dirent *de;
	char comm[32];

	tb->irqbalance = d ? 0 : TB_UNKNOWN;
	while (d && (de = readdir(d)))
		if (tb_all_digits(de->d_name) &&
		    !tb_read(root, comm, sizeof(comm), "/proc/%s/comm", de->d_name) &&
		    !strcmp(comm, "irqbalance")) {
			tb->irqbalance = 1;
			break;
		}
	if (d)
		closedir(d);
}

static void tb_meminfo(struct testbed *tb, const char *root)
{
	char path[512], line[256];
	FILE *f;

	tb_path(path, sizeof(path), root, "/proc/meminfo");
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		sscanf(line, "HugePages_Total: %lu", &tb->huge_total);
		sscanf(line, "HugePages_Free: %lu", &tb->huge_free);
		sscanf(line, "Hugepagesize: %lu kB", &tb->huge_kb);
	}
	if (f)
		fclose(f);
}

/* ---- virtualization, NUMA ---- */

/* CPUID's hypervisor leaf, on the running machine only */
static void tb_cpuid_hv(struct testbed *tb)
{
#if defined(__x86_64__) || defined(__i386__)
	static const char *const known[][2] = {
		{ "KVMKVMKVM", "KVM" }, { "Microsoft Hv", "Hyper-V" },
		{ "VMwareVMware", "VMware" }, { "XenVMMXenVMM", "Xen" },
		{ "TCGTCGTCGTCG", "QEMU TCG" }, { "VBoxVBoxVBox", "VirtualBox" },
		{ "ACRNACRNACRN", "ACRN" }, { "bhyve bhyve ", "bhyve" },
		{ " lrpepyh  vr", "Parallels" },
	};
	unsigned int a, b, c, d, i, sig[3];
	char s[13];

	__cpuid(1, a, b, c, d);
	if (!(c & (1u << 31)))
		return;
	tb->hypervisor = true;
	__cpuid(0x40000000, a, sig[0], sig[1], sig[2]);
	memcpy(s, sig, 12);
	s[12] = 0;
	for (i = 0; i < 12; i++)
		if (!isprint((unsigned char)s[i]))
			s[i] = s[i] ? '?' : 0;
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(s, known[i][0]))
			break;
	snprintf(tb->hv_name, sizeof(tb->hv_name), "%s",
		 i < sizeof(known) / sizeof(known[0]) ? known[i][1] : s);
#else
	(void)tb;
#endif
}

static void tb_virt(struct testbed *tb, const char *root)
{
	char vendor[48], product[48];

	if (!*root)
		tb_cpuid_hv(tb);
	if (!tb->hv_name[0] && !tb_read(root, tb->hv_name, sizeof(tb->hv_name),
					 "/sys/hypervisor/type") && tb->hv_name[0])
		tb->hypervisor = true;
	if (!tb->hypervisor)
		return;
	tb_read(root, vendor, sizeof(vendor), "/sys/class/dmi/id/sys_vendor");
	tb_read(root, product, sizeof(product), "/sys/class/dmi/id/product_name");
	snprintf(tb->dmi, sizeof(tb->dmi), "%s%s%s", vendor, *vendor && *product ? " " : "",
		 product);
}

static void tb_nodes(struct testbed *tb, const char *root)
{
	DIR *d = tb_opendir(root, "/sys/devices/system/node");
	struct dirent *de;
	unsigned int n;
	char c;

	while (d && (de = readdir(d)))
		if (sscanf(de->d_name, "node%u%c", &n, &c) == 1)
			tb->nr_nodes++;
	if (d)
		closedir(d);
}

static void tb_kernel(struct testbed *tb, const char *root)
{
	int ret;

	tb_read(root, tb->cmdline, sizeof(tb->cmdline), "/proc/cmdline");
	tb->isolated_read = !tb_read(root, tb->isolated, sizeof(tb->isolated),
				     "/sys/devices/system/cpu/isolated");
	ret = tb_read(root, tb->nohz_full, sizeof(tb->nohz_full),
		      "/sys/devices/system/cpu/nohz_full");
	tb->nohz_full_file = !ret ? 1 : ret == -ENOENT ? 0 : TB_UNKNOWN;
	/* CONFIG_NO_HZ_FULL with no nohz_full= prints "(null)" */
	if (!strcmp(tb->nohz_full, "(null)"))
		tb->nohz_full[0] = 0;
	if (tb_read_int(root, "/proc/sys/kernel/numa_balancing", &tb->numa_balancing))
		tb->numa_balancing = TB_UNKNOWN;
	if (tb_read_int(root, "/proc/sys/kernel/perf_event_paranoid", &tb->perf_paranoid))
		tb->perf_paranoid = TB_NO_PARANOID;
}

int testbed_read(struct testbed *tb, const char *root)
{
	char r[256];
	struct stat st;
	size_t n;

	memset(tb, 0, sizeof(*tb));
	tb->turbo = tb->smt_active = tb->irqbalance = TB_UNKNOWN;
	tb->numa_balancing = tb->nohz_full_file = TB_UNKNOWN;
	tb->perf_paranoid = TB_NO_PARANOID;
	snprintf(r, sizeof(r), "%s", root ? root : "");
	n = strlen(r);
	while (n && r[n - 1] == '/')	/* "/" and "" are the real root */
		r[--n] = 0;
	if (n && (stat(r, &st) || !S_ISDIR(st.st_mode)))
		return -ENOTDIR;
	tb_cpus(tb, r);
	tb_turbo(tb, r);
	tb_smt_thp(tb, r);
	tb_vulns(tb, r);
	tb_cpuinfo(tb, r);
	tb_kernel(tb, r);
	tb_irqbalance(tb, r);
	tb_meminfo(tb, r);
	tb_virt(tb, r);
	tb_nodes(tb, r);
	return 0;
}
