/* SPDX-License-Identifier: GPL-2.0 */
/*
 * testbed.h - what a result ran on beyond the CPU model and the kernel:
 * the host settings that move timings, read from /proc and /sys; who
 * wrote the result (the build of bench, the user's labels; when it was
 * taken is meta_timestamp()'s, lib/results/meta.h); and
 * which of these differ between the files bench compare is given.
 *
 *	struct testbed tb;
 *
 *	testbed_read(&tb, NULL);	once, before measuring: file reads only
 *	...measure...
 *	testbed_meta(&tb, &meta, NULL);	"# cpufreq_governor: performance", ...
 *
 * The keys it writes, in this order (testbed_keys[]), each one line:
 *
 *	cpufreq_governor  "performance" when every CPU has it, else each
 *	                  governor with its CPUs, most first: "powersave x14,
 *	                  performance x2"; "none (no cpufreq)"
 *	cpufreq_driver    scaling_driver of the first CPU that has one
 *	turbo             on or off, and the file that says so:
 *	                  "on (intel_pstate/no_turbo: 0)", "off (cpufreq/boost:
 *	                  0)"; "unknown (no boost control)"
 *	smt               smt/control, and whether siblings run: "on (active)",
 *	                  "off", "notsupported"
 *	thp               transparent_hugepage/enabled and its defrag:
 *	                  "madvise (defrag madvise)"
 *	vulnerabilities   the files of cpu/vulnerabilities counted, the
 *	                  vulnerable ones named: "mitigated 3, vulnerable 1
 *	                  (mds), not affected 15"
 *	cmdline           /proc/cmdline
 *	microcode         /proc/cpuinfo's microcode of the first CPU, "(mixed)"
 *	                  when another CPU has a different one
 *	isolcpus          /sys/devices/system/cpu/isolated, "none"
 *	nohz_full         /sys/devices/system/cpu/nohz_full, "none"; "none (not
 *	                  built in)" without CONFIG_NO_HZ_FULL
 *	irqbalance        "running" or "not running" (a /proc/PID/comm)
 *	virtualization    "none", or the hypervisor: CPUID's signature on the
 *	                  running host ("KVM"), /sys/hypervisor/type, and DMI's
 *	                  vendor and product: "KVM (QEMU Standard PC)"
 *	numa_balancing    /proc/sys/kernel/numa_balancing, "not built in"
 *
 * A file that cannot be read gives "unknown". Every path is read under
 * @root, so that tests can fake a host with a tree of fixture files
 * (tests/fixtures/hosts/); CPUID is asked only when @root is the real
 * "/". The reads take about a millisecond and a /proc walk for
 * irqbalance: keep them out of the timed region (bench run reads once,
 * before its first run; --runs children inherit the result).
 *
 * Pure functions of their arguments and the files: any thread, no state.
 */
#ifndef KSB_TESTBED_H
#define KSB_TESTBED_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/results/meta.h"

#define TB_MAX_GOVERNORS	8	/* governors told apart (Linux has 6); the rest "other" */
#define TB_LIST			256	/* a cpulist, a list of names */
#define TB_UNKNOWN		(-1)	/* an int field that could not be read */
#define TB_NO_PARANOID		(-2)	/* perf_paranoid unreadable (-1 is a value) */

struct tb_gov {
	char name[32];			/* scaling_governor */
	unsigned int cpus;		/* CPUs that have it */
};

struct testbed {
	/* cpufreq */
	unsigned int nr_cpus;		/* cpuN directories seen */
	struct tb_gov gov[TB_MAX_GOVERNORS];	/* most CPUs first, then by name */
	unsigned int nr_gov;		/* entries of gov[] in use */
	unsigned int gov_other;		/* CPUs with a governor beyond gov[] */
	char driver[32];		/* scaling_driver, "" none */
	int turbo;			/* 1 on, 0 off, TB_UNKNOWN */
	char turbo_ctl[48];		/* what said so: "intel_pstate/no_turbo" */
	char turbo_raw[2];		/* and its content: "0" or "1" */

	/* cores, memory, the kernel */
	char smt[24];			/* smt/control; "" unknown */
	int smt_active;			/* smt/active: 1, 0, TB_UNKNOWN */
	char thp[16];			/* the [choice] of THP's enabled, "" unknown */
	char thp_defrag[24];		/* the [choice] of THP's defrag */
	int vuln_dir;			/* 1: cpu/vulnerabilities was read */
	unsigned int vuln_mitigated;	/* "Mitigation: ..." files */
	unsigned int vuln_vulnerable;	/* "Vulnerable..." files */
	unsigned int vuln_unaffected;	/* "Not affected" files */
	unsigned int vuln_other;	/* anything else ("Unknown: ...") */
	char vulnerable[TB_LIST];	/* the vulnerable ones, space-separated */
	char cmdline[1024];		/* /proc/cmdline, "" unknown */
	char microcode[24];		/* first CPU's, "" unknown */
	bool microcode_mixed;		/* another CPU has another */
	char isolated[TB_LIST];		/* cpulist, "" none */
	int isolated_read;		/* 1: the file was read */
	char nohz_full[TB_LIST];	/* cpulist, "" none */
	int nohz_full_file;		/* 1 read, 0 absent (not built in), TB_UNKNOWN */
	int irqbalance;			/* 1 running, 0 not, TB_UNKNOWN (no /proc) */

	/* virtualization */
	bool hypervisor;		/* cpuinfo's hypervisor flag, /sys/hypervisor */
	char hv_name[24];		/* CPUID 0x40000000 or /sys/hypervisor/type */
	char dmi[96];			/* DMI sys_vendor and product_name */

	/* what bench doctor reads besides */
	int numa_balancing;		/* /proc/sys/kernel/numa_balancing, TB_UNKNOWN */
	int perf_paranoid;		/* perf_event_paranoid, -1..4; TB_NO_PARANOID */
	unsigned long huge_total;	/* HugePages_Total, of huge_kb each */
	unsigned long huge_free;	/* HugePages_Free */
	unsigned long huge_kb;		/* Hugepagesize, KiB; 0 unknown */
	unsigned int nr_nodes;		/* /sys/devices/system/node/nodeN; 0 unknown */
};

/* the metadata keys of testbed_meta(), in order, NULL-terminated */
extern const char *const testbed_keys[];

/**
 * testbed_read - read the host under @root (NULL or "" for "/") into
 * @tb. Returns 0, or -ENOTDIR when @root is not a directory (@tb then
 * holds every field unknown).
 */
int testbed_read(struct testbed *tb, const char *root);

/**
 * testbed_value - the metadata value of @key (one of testbed_keys[])
 * into @buf (@len bytes, cut there). Returns 0 or -ENOENT for another key.
 */
int testbed_value(const struct testbed *tb, const char *key, char *buf, size_t len);

/* bench vm's prefix for its host's testbed: "vm_host_cpufreq_governor" */
#define TB_VM_HOST	"vm_host_"

/**
 * testbed_meta - every key of testbed_keys[] with its value into @m,
 * each named @prefix KEY (@prefix NULL: KEY), replacing a pair of that
 * name where there is one (meta_put()).
 */
void testbed_meta(const struct testbed *tb, struct meta *m, const char *prefix);

/* ---- who wrote a result: the build, the user's labels ---- */

#define TB_MAX_LABELS	16
#define TB_LABEL_KEY	25	/* "label_" + KEY fits a metadata key */

struct tb_labels {
	unsigned int n;			/* pairs in use */
	struct {
		char key[TB_LABEL_KEY + 1];	/* [a-z0-9_]+ */
		char val[256];			/* printable, one line */
	} kv[TB_MAX_LABELS];		/* in the order given */
};

/**
 * testbed_label - add "KEY=VALUE" (--label) to @l: KEY 1..25 of a-z,
 * 0-9 and _, VALUE up to 255 printable bytes (may be empty). Returns 0,
 * or -EINVAL with one line in @why (@len bytes): malformed, a KEY given
 * twice, more than TB_MAX_LABELS.
 */
int testbed_label(struct tb_labels *l, const char *arg, char *why, size_t len);

/**
 * testbed_origin - who wrote the result: bench_release @release,
 * bench_git @git (git describe at build time) and label_KEY per label
 * of @l (NULL: none), into @m. Where @m has a bench_release or
 * bench_git already (a guest's result that bench vm folds in) it is
 * kept: the build that measured; the labels replace any there.
 */
void testbed_origin(struct meta *m, const char *release, const char *git,
		    const struct tb_labels *l);

/* ---- what differs between the files of a compare ---- */

enum tb_kind {
	TB_KIND_TESTBED,		/* the host: --strict refuses a difference */
	TB_KIND_CONFIG,			/* the run's configuration: so does it */
	TB_KIND_BUILD,			/* bench's build: told, never refused */
};

/* "testbed", "config", "build" */
extern const char *const tb_kind_names[];

#define TB_MAX_DIFFS	64

struct tb_diff {
	char key[META_KEY];		/* the metadata key */
	enum tb_kind kind;		/* what it describes */
	const char *val[2];		/* BEFORE's and AFTER's, of their first file */
	bool between;			/* a value of one side is not on the other */
	bool within[2];			/* the files of BEFORE, of AFTER disagree */
	unsigned int odd[2];		/* within: the first file (index) that does */
	const char *odd_val[2];		/* and its value */
};

/**
 * testbed_diff - the keys of testbed_keys[] and of bench vm's host
 * (TB_VM_HOST KEY), the host keys bench run writes besides (host,
 * kernel, cpu_model, ...), the run configuration (workload,
 * workload_options, samples_per_variant, possible_cpus, cache, unit,
 * frac_bits, ...) and the build (bench_release, bench_git) that differ
 * between the metadata of the @n[0] BEFORE files @m[0] and the @n[1]
 * AFTER files @m[1], or among the files of one side, into @d (at most
 * @max). A key is compared only where every file records it
 * (files written before it existed say nothing). Returns the number of
 * entries filled, in the order of the key table; their values point
 * into @m.
 */
unsigned int testbed_diff(const struct meta *const *const m[2], const unsigned int n[2],
			  struct tb_diff *d, unsigned int max);

#endif /* KSB_TESTBED_H */
