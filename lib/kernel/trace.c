// SPDX-License-Identifier: GPL-2.0
/*
 * trace.c - the loader of bpf/ksb_trace.bpf.c (see trace.h): find the
 * function, pick the probe, load and attach with libbpf, read the
 * per-CPU slots back into kstats histograms.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/filter.h>

#include "kstats_hist.h"
#include "lib/subcmd/readfile.h"
#include "lib/kernel/trace.h"
#include "ksb_trace.skel.h"

const char *const trace_probe_names[] = { "auto", "fentry", "kprobe", NULL };

#define TRACE_BTF_VMLINUX	"/sys/kernel/btf/vmlinux"
#define TRACE_KALLSYMS		"/proc/kallsyms"
#define TRACE_KPROBE_PMU	"/sys/bus/event_source/devices/kprobe"
#define TRACE_BATCH_BYTES	(4u << 20)	/* values read per batch lookup */

struct trace {
	struct trace_cfg cfg;		/* as given; the names are the caller's */
	struct ksb_trace_bpf *skel;	/* loaded object, NULL when closed */
	struct bpf_link *link[2];	/* entry, then return or --end */
	enum trace_probe used;		/* FENTRY or KPROBE */
	char probe_why[256];		/* why AUTO took kprobe, or "" */
	char module[2][64];		/* the module of func and end, "" built in */
	unsigned int nr_cpus;		/* possible CPUs */
	unsigned int nr_slots;		/* slots of one series */
	struct kstats_hist **hist[KSB_TRACE_NR_SERIES]; /* [nr_cpus], NULL: none */
	struct kstats_hist *merged[KSB_TRACE_NR_SERIES]; /* over every CPU */
	struct trace_counts counts;	/* summed over CPUs */
};

/* ---- libbpf's messages, kept ---- */

static char trace_logbuf[1 << 16];	/* NUL-terminated, cut when full */
static size_t trace_loglen;		/* used */
static bool trace_verbose;		/* keep LIBBPF_DEBUG too */

static int trace_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	size_t room = sizeof(trace_logbuf) - trace_loglen;
	int n;

	if (level == LIBBPF_DEBUG && !trace_verbose)
		return 0;
	if (room <= 1)
		return 0;
	n = vsnprintf(trace_logbuf + trace_loglen, room, fmt, ap);
	if (n > 0)
		trace_loglen += (size_t)n < room ? (size_t)n : room - 1;
	return 0;
}

const char *trace_log(void)
{
	return trace_logbuf;
}

/* ---- the refusals: one line naming the cause ---- */

static int trace_why(char *why, size_t len, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int trace_why(char *why, size_t len, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return err;
}

/* why root's bpf() got EPERM: a user namespace, lockdown, or neither */
static void trace_eperm_cause(char *buf, size_t len)
{
	char map[128], lock[128];
	unsigned long in, out, n;

	readfile_line("/proc/self/uid_map", map, sizeof(map));
	if (sscanf(map, "%lu %lu %lu", &in, &out, &n) == 3 && (out || n != 4294967295UL)) {
		snprintf(buf, len, "root of a user namespace (uid_map %lu %lu %lu), and BPF needs CAP_BPF and CAP_PERFMON in the initial one",
			 in, out, n);
		return;
	}
	readfile_line("/sys/kernel/security/lockdown", lock, sizeof(lock));
	if (*lock && !strstr(lock, "[none]")) {
		snprintf(buf, len, "the kernel is locked down (%s)", lock);
		return;
	}
	snprintf(buf, len, "no user namespace or lockdown explains it: a security module, seccomp, or the kernel's policy");
}

/* can we load a program at all? r0 = 0; exit, as a kprobe program */
static int trace_kernel_allows(char *why, size_t len)
{
	const struct bpf_insn prog[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	char cause[192];
	int fd = bpf_prog_load(BPF_PROG_TYPE_KPROBE, "ksb_probe", "GPL", prog, 2, NULL);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (fd == -ENOSYS)
		return trace_why(why, len, -EPERM, "the kernel refuses BPF: it has no bpf() system call (CONFIG_BPF_SYSCALL)");
	if (fd != -EPERM && fd != -EACCES)
		return trace_why(why, len, fd, "the kernel refuses BPF: loading a kprobe program: %s",
				 strerror(-fd));
	trace_eperm_cause(cause, sizeof(cause));
	return trace_why(why, len, -EPERM, "the kernel refuses BPF: loading a kprobe program: %s: %s",
			 strerror(-fd), cause);
}

/* ---- the function: kallsyms, BTF, ftrace, the kprobe blacklist ---- */

/* what /proc/kallsyms says of one name */
struct trace_sym {
	bool found;			/* a text symbol of exactly that name */
	char module[64];		/* its module, "" when built in */
	char copy[128];			/* "NAME.<suffix>": a compiler's copy */
};

static void trace_sym_line(char *l, const char *name, struct trace_sym *s)
{
	size_t n = strlen(name);
	char *sym, *mod;

	/* "ffffffff8110a2d0 T __irq_alloc_descs" or "... t f\t[mod]" */
	if (strlen(l) < 20 || !strchr("tTwW", l[17]) || l[18] != ' ')
		return;
	sym = l + 19;
	sym[strcspn(sym, "\t\n")] = 0;
	mod = sym + strlen(sym) + 1;
	if (!strcmp(sym, name)) {
		s->found = true;
		if (*mod == '[')
			snprintf(s->module, sizeof(s->module), "%.*s",
				 (int)strcspn(mod + 1, "]"), mod + 1);
	} else if (!s->copy[0] && !strncmp(sym, name, n) && sym[n] == '.') {
		snprintf(s->copy, sizeof(s->copy), "%.*s", (int)sizeof(s->copy) - 1, sym);
	}
}

/* look @names[0..1] (NULL: none) up in kallsyms; -errno when unreadable */
static int trace_kallsyms(const char *const names[2], struct trace_sym sym[2])
{
	char line[512];
	FILE *f = fopen(TRACE_KALLSYMS, "r");
	unsigned int i;

	memset(sym, 0, 2 * sizeof(*sym));
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		for (i = 0; i < 2; i++)
			if (names[i] && !sym[i].found) {
				char copy[512];

				memcpy(copy, line, sizeof(copy));
				trace_sym_line(copy, names[i], &sym[i]);
			}
	fclose(f);
	return 0;
}

/* does the kernel's BTF (or its module's) describe function @name? */
static bool trace_has_btf(const char *name, const char *module, char *why, size_t len)
{
	struct btf *vm, *mod = NULL;
	bool ok;

	if (access(TRACE_BTF_VMLINUX, R_OK)) {
		snprintf(why, len, "no BTF for %s: the kernel has none (%s: %s; CONFIG_DEBUG_INFO_BTF)",
			 name, TRACE_BTF_VMLINUX, strerror(errno));
		return false;
	}
	vm = btf__load_vmlinux_btf();
	if (!vm) {
		snprintf(why, len, "no BTF for %s: reading %s: %s", name, TRACE_BTF_VMLINUX,
			 strerror(errno));
		return false;
	}
	if (*module && !(mod = btf__load_module_btf(module, vm))) {
		snprintf(why, len, "no BTF for %s: its module %s has none (/sys/kernel/btf/%s: %s)",
			 name, module, module, strerror(errno));
		btf__free(vm);
		return false;
	}
	ok = btf__find_by_name_kind(mod ? mod : vm, name, BTF_KIND_FUNC) > 0;
	if (!ok)
		snprintf(why, len, "no BTF for %s: the %s BTF does not describe it", name,
			 mod ? "module's" : "kernel's");
	btf__free(mod);
	btf__free(vm);
	return ok;
}

/* is @name a line of @path (its first word, or the second for the blacklist)? */
static int trace_listed(const char *path, const char *name, int word)
{
	char line[512], *w;
	FILE *f = fopen(path, "r");
	int found = 0;

	if (!f)
		return -errno;
	while (!found && fgets(line, sizeof(line), f)) {
		w = line;
		if (word)
			w = strchr(line, '\t') ? strchr(line, '\t') + 1 : line + strlen(line);
		w[strcspn(w, " \t\n")] = 0;
		found = !strcmp(w, name);
	}
	fclose(f);
	return found;
}

/* ftrace's list of what fentry can patch, in tracefs wherever it is */
static int trace_ftrace_lists(const char *name)
{
	int r = trace_listed("/sys/kernel/tracing/available_filter_functions", name, 0);

	if (r < 0)
		r = trace_listed("/sys/kernel/debug/tracing/available_filter_functions", name, 0);
	return r;
}

/* why attaching @probe to @name failed with @err */
static int trace_attach_why(enum trace_probe probe, const char *name, int err, char *why,
			    size_t len)
{
	if (probe == TRACE_PROBE_FENTRY && trace_ftrace_lists(name) == 0)
		return trace_why(why, len, -EINVAL, "%s cannot be traced by fentry: ftrace does not list it (notrace, or noinstr)",
				 name);
	if (probe == TRACE_PROBE_KPROBE && access(TRACE_KPROBE_PMU, F_OK) &&
	    access("/sys/kernel/tracing/kprobe_events", F_OK) &&
	    access("/sys/kernel/debug/tracing/kprobe_events", F_OK))
		return trace_why(why, len, -EPERM, "the kernel refuses kprobes: it has none (no %s, no kprobe_events: CONFIG_KPROBES)",
				 TRACE_KPROBE_PMU);
	if (probe == TRACE_PROBE_KPROBE &&
	    trace_listed("/sys/kernel/debug/kprobes/blacklist", name, 1) == 1)
		return trace_why(why, len, -EINVAL, "%s cannot be probed: it is in the kprobe blacklist (NOKPROBE_SYMBOL, noinstr or entry code)",
				 name);
	if (err == -EPERM || err == -EACCES)
		return trace_why(why, len, -EPERM, "the kernel refuses BPF: attaching %s to %s: %s",
				 trace_probe_names[probe], name, strerror(-err));
	return trace_why(why, len, err == -EBUSY || err == -EINVAL ? -EINVAL : err,
			 "%s cannot be probed by %s: attaching: %s", name,
			 trace_probe_names[probe], strerror(-err));
}

/* ---- load and attach ---- */

static struct bpf_program *trace_prog(struct ksb_trace_bpf *s, enum trace_probe p, int end,
				      bool section)
{
	if (p == TRACE_PROBE_FENTRY)
		return !end ? s->progs.ksb_fentry :
		       section ? s->progs.ksb_fentry_end : s->progs.ksb_fexit;
	return !end ? s->progs.ksb_kprobe :
	       section ? s->progs.ksb_kprobe_end : s->progs.ksb_kretprobe;
}

/* the skeleton opened and set up for probe @p, every unused program off */
static struct ksb_trace_bpf *trace_setup(struct trace *t, enum trace_probe p)
{
	const bool section = t->cfg.end;
	struct ksb_trace_bpf *s = ksb_trace_bpf__open();
	struct bpf_program *prog;

	if (!s)
		return NULL;
	s->rodata->frac_bits = t->cfg.frac_bits;
	s->rodata->nr_slots = t->nr_slots;
	s->rodata->section = section;
	if (bpf_map__set_max_entries(s->maps.slots, KSB_TRACE_NR_SERIES * t->nr_slots))
		goto out_destroy;
	bpf_object__for_each_program(prog, s->obj)
		bpf_program__set_autoload(prog, prog == trace_prog(s, p, 0, section) ||
					  prog == trace_prog(s, p, 1, section));
	if (p == TRACE_PROBE_FENTRY &&
	    (bpf_program__set_attach_target(trace_prog(s, p, 0, section), 0, t->cfg.func) ||
	     bpf_program__set_attach_target(trace_prog(s, p, 1, section), 0,
					    section ? t->cfg.end : t->cfg.func)))
		goto out_destroy;
	return s;

out_destroy:
	ksb_trace_bpf__destroy(s);
	return NULL;
}

static int trace_load_why(struct trace *t, enum trace_probe p, int err, char *why, size_t len)
{
	char cause[192];

	if (err == -EPERM) {
		trace_eperm_cause(cause, sizeof(cause));
		return trace_why(why, len, -EPERM, "the kernel refuses BPF: loading the %s program: %s: %s",
				 trace_probe_names[p], strerror(-err), cause);
	}
	if (err == -ENOMEM || err == -E2BIG)
		return trace_why(why, len, -ENOMEM, "the kernel refused the maps: %u KiB of kstats slots on each of %u possible CPUs for -b %u: %s",
				 KSB_TRACE_NR_SERIES * t->nr_slots * 16 / 1024, t->nr_cpus,
				 t->cfg.frac_bits, strerror(-err));
	if (p == TRACE_PROBE_FENTRY && (err == -EINVAL || err == -ENOENT || err == -ESRCH))
		return trace_why(why, len, -EINVAL, "%s%s%s cannot be traced by fentry: the kernel refused the program: %s (see -v)",
				 t->cfg.func, t->cfg.end ? " or " : "", t->cfg.end ? t->cfg.end : "",
				 strerror(-err));
	return trace_why(why, len, err, "loading the %s program: %s (see -v)", trace_probe_names[p],
			 strerror(-err));
}

static struct bpf_link *trace_attach_one(struct trace *t, enum trace_probe p, int end)
{
	struct bpf_program *prog = trace_prog(t->skel, p, end, t->cfg.end);
	const char *name = end && t->cfg.end ? t->cfg.end : t->cfg.func;

	if (p == TRACE_PROBE_FENTRY)
		return bpf_program__attach_trace(prog);
	return bpf_program__attach_kprobe(prog, end && !t->cfg.end, name);
}

/* load with probe @p and attach both ends, the return (or --end) first */
static int trace_try(struct trace *t, enum trace_probe p, char *why, size_t len)
{
	int err, end;

	t->skel = trace_setup(t, p);
	if (!t->skel)
		return trace_why(why, len, -errno, "setting up the BPF object: %s", strerror(errno));
	err = ksb_trace_bpf__load(t->skel);
	if (err) {
		err = trace_load_why(t, p, err, why, len);
		goto out_destroy;
	}
	for (end = 1; end >= 0; end--) {
		t->link[end] = trace_attach_one(t, p, end);
		if (!t->link[end]) {
			err = -errno;
			err = trace_attach_why(p, end && t->cfg.end ? t->cfg.end : t->cfg.func, err,
					       why, len);
			goto out_detach;
		}
	}
	t->used = p;
	return 0;

out_detach:
	bpf_link__destroy(t->link[1]);
	t->link[1] = NULL;
out_destroy:
	ksb_trace_bpf__destroy(t->skel);
	t->skel = NULL;
	return err;
}

/* ---- choosing the probe ---- */

/* the modules of func and end from kallsyms; -ENOENT for a name not there */
static int trace_find(struct trace *t, char *why, size_t len)
{
	const char *names[2] = { t->cfg.func, t->cfg.end };
	struct trace_sym sym[2];
	unsigned int i;

	if (trace_kallsyms(names, sym))
		return 0;	/* no /proc: attaching will tell */
	for (i = 0; i < 2; i++) {
		if (!names[i])
			continue;
		snprintf(t->module[i], sizeof(t->module[i]), "%s", sym[i].module);
		if (sym[i].found)
			continue;
		if (sym[i].copy[0])
			return trace_why(why, len, -ENOENT, "no function %s in this kernel: %s has only %s, a copy the compiler made (trace that name)",
					 names[i], TRACE_KALLSYMS, sym[i].copy);
		return trace_why(why, len, -ENOENT, "no function %s in this kernel: not in %s (inlined, or in a module not loaded)",
				 names[i], TRACE_KALLSYMS);
	}
	return 0;
}

/* does BTF describe every function attached to? */
static bool trace_btf(struct trace *t, char *why, size_t len)
{
	return trace_has_btf(t->cfg.func, t->module[0], why, len) &&
	       (!t->cfg.end || trace_has_btf(t->cfg.end, t->module[1], why, len));
}

/*
 * fentry where BTF describes the functions and the kernel attaches it;
 * otherwise, under AUTO, kprobe, with the reason kept in probe_why
 */
static int trace_choose(struct trace *t, char *why, size_t len)
{
	enum trace_probe p = t->cfg.probe;
	char fwhy[256];
	int err;

	if (p == TRACE_PROBE_KPROBE)
		return trace_try(t, p, why, len);
	if (!trace_btf(t, fwhy, sizeof(fwhy))) {
		if (p == TRACE_PROBE_FENTRY)
			return trace_why(why, len, -ENODATA, "%s", fwhy);
		snprintf(t->probe_why, sizeof(t->probe_why), "%s", fwhy);
		return trace_try(t, TRACE_PROBE_KPROBE, why, len);
	}
	err = trace_try(t, TRACE_PROBE_FENTRY, fwhy, sizeof(fwhy));
	if (!err || p == TRACE_PROBE_FENTRY || err == -EPERM || err == -ENOMEM) {
		snprintf(why, len, "%s", fwhy);
		return err;
	}
	snprintf(t->probe_why, sizeof(t->probe_why), "fentry: %.*s",
		 (int)sizeof(t->probe_why) - 9, fwhy);
	err = trace_try(t, TRACE_PROBE_KPROBE, why, len);
	if (err) {
		size_t n = strlen(why);

		snprintf(why + n, len - n, "; and fentry: %s", fwhy);
	}
	return err;
}

int trace_open(struct trace **tp, const struct trace_cfg *cfg, char *why, size_t len)
{
	struct trace *t;
	int err;

	*tp = NULL;
	trace_verbose = cfg->verbose;
	libbpf_set_print(trace_print);
	if (cfg->frac_bits > KSTATS_HIST_FRAC_BITS_MAX || !cfg->func)
		return trace_why(why, len, -EINVAL, "bad trace configuration");
	err = trace_kernel_allows(why, len);
	if (err)
		return err;
	t = calloc(1, sizeof(*t));
	if (!t)
		return trace_why(why, len, -ENOMEM, "%s", strerror(ENOMEM));
	t->cfg = *cfg;
	t->nr_slots = ksb_trace_nr_slots(cfg->frac_bits);
	err = libbpf_num_possible_cpus();
	if (err < 0) {
		err = trace_why(why, len, err, "counting the possible CPUs: %s", strerror(-err));
		goto out_free;
	}
	t->nr_cpus = (unsigned int)err;
	err = trace_find(t, why, len);
	if (!err)
		err = trace_choose(t, why, len);
	if (err)
		goto out_free;
	*tp = t;
	return 0;

out_free:
	trace_close(t);
	return err;
}

int trace_start(struct trace *t)
{
	if (!t->link[0])
		return -EINVAL;
	__atomic_store_n(&t->skel->bss->active, 1, __ATOMIC_SEQ_CST);
	return 0;
}

void trace_stop(struct trace *t)
{
	unsigned int i;

	if (!t->skel)
		return;
	__atomic_store_n(&t->skel->bss->active, 0, __ATOMIC_SEQ_CST);
	for (i = 0; i < 2; i++) {
		bpf_link__destroy(t->link[i]);
		t->link[i] = NULL;
	}
}

/* ---- reading the maps back ---- */

/* the slots of keys @keys[0..n) on every CPU into the per-CPU histograms */
static int trace_add_values(struct trace *t, const __u32 *keys, const struct ksb_tslot *v,
			    unsigned int n)
{
	unsigned int i, cpu;

	for (i = 0; i < n; i++) {
		unsigned int s = keys[i] / t->nr_slots, slot = keys[i] % t->nr_slots;

		for (cpu = 0; cpu < t->nr_cpus; cpu++) {
			const struct ksb_tslot *x = &v[(size_t)i * t->nr_cpus + cpu];
			struct kstats_hist **h = &t->hist[s][cpu];

			if (!x->count)
				continue;
			if (!*h && !(*h = kstats_hist_create(t->cfg.frac_bits)))
				return -ENOMEM;
			/* -EINVAL: the kernel's slots are not ours (a layout bug) */
			if (kstats_hist_add_slot(*h, slot, x->count, 0, x->sum))
				return -EINVAL;
		}
	}
	return 0;
}

/* keys [first, first + n) of the slots map, by batches where the kernel can */
static int trace_lookup(struct trace *t, int fd, __u32 first, __u32 n, __u32 *keys,
			struct ksb_tslot *vals, bool *batch)
{
	__u32 prev = first - 1, out, count = n, i;
	int err;

	if (*batch) {
		/* the batch starts after the key given: the previous one */
		err = bpf_map_lookup_batch(fd, first ? &prev : NULL, &out, keys, vals, &count,
					   NULL);
		if ((!err || err == -ENOENT) && count == n)
			return 0;
		if (err != -EINVAL && err != -EOPNOTSUPP && err != -524 /* ENOTSUPP */)
			return err ? err : -EIO;
		*batch = false;
	}
	for (i = 0; i < n; i++) {
		keys[i] = first + i;
		err = bpf_map_lookup_elem(fd, &keys[i], &vals[(size_t)i * t->nr_cpus]);
		if (err)
			return err;
	}
	return 0;
}

static int trace_read_slots(struct trace *t)
{
	const __u32 total = KSB_TRACE_NR_SERIES * t->nr_slots;
	__u32 chunk = TRACE_BATCH_BYTES / (t->nr_cpus * (__u32)sizeof(struct ksb_tslot)), first, n;
	int fd = bpf_map__fd(t->skel->maps.slots), err = -ENOMEM;
	struct ksb_tslot *vals;
	bool batch = true;
	__u32 *keys;

	chunk = chunk ? chunk : 1;
	keys = malloc(chunk * sizeof(*keys));
	vals = malloc((size_t)chunk * t->nr_cpus * sizeof(*vals));
	if (!keys || !vals)
		goto out_free;
	for (first = 0, err = 0; !err && first < total; first += n) {
		n = total - first < chunk ? total - first : chunk;
		err = trace_lookup(t, fd, first, n, keys, vals, &batch);
		if (!err)
			err = trace_add_values(t, keys, vals, n);
	}
out_free:
	free(vals);
	free(keys);
	return err;
}

static uint64_t trace_missed(const struct bpf_program *prog)
{
	struct bpf_prog_info info = { 0 };
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
		return 0;
	return info.recursion_misses;
}

/* each CPU's counters and extremes */
static int trace_read_cpus(struct trace *t)
{
	struct ksb_tcpu *c = calloc(t->nr_cpus, sizeof(*c));
	__u32 zero = 0;
	unsigned int cpu, i;
	int err;

	if (!c)
		return -ENOMEM;
	err = bpf_map_lookup_elem(bpf_map__fd(t->skel->maps.cpus), &zero, c);
	for (cpu = 0; !err && cpu < t->nr_cpus; cpu++) {
		for (i = 0; i < KSB_TRACE_NR_COUNTERS; i++)
			t->counts.c[i] += c[cpu].counter[i];
		for (i = 0; i < KSB_TRACE_NR_SERIES; i++) {
			struct kstats_hist *h = t->hist[i][cpu];

			if (h && kstats_hist_set_range(h, ~c[cpu].min_inv[i], c[cpu].max[i]))
				err = -EINVAL;
		}
	}
	free(c);
	return err;
}

int trace_collect(struct trace *t)
{
	unsigned int s, cpu;
	int err;

	if (t->merged[0])
		return 0;
	for (s = 0; s < KSB_TRACE_NR_SERIES; s++) {
		t->hist[s] = calloc(t->nr_cpus, sizeof(*t->hist[s]));
		t->merged[s] = kstats_hist_create(t->cfg.frac_bits);
		if (!t->hist[s] || !t->merged[s])
			return -ENOMEM;
	}
	err = trace_read_slots(t);
	if (!err)
		err = trace_read_cpus(t);
	for (s = 0; !err && s < KSB_TRACE_NR_SERIES; s++)
		for (cpu = 0; cpu < t->nr_cpus; cpu++)
			if (t->hist[s][cpu])
				kstats_hist_merge(t->merged[s], t->hist[s][cpu]);
	t->counts.missed = trace_missed(trace_prog(t->skel, t->used, 0, t->cfg.end)) +
			   trace_missed(trace_prog(t->skel, t->used, 1, t->cfg.end));
	return err;
}

const struct kstats_hist *trace_hist(const struct trace *t, enum ksb_trace_series s, int cpu)
{
	if (cpu < 0)
		return t->merged[s];
	if ((unsigned int)cpu >= t->nr_cpus || !t->hist[s])
		return NULL;
	return t->hist[s][cpu];
}

void trace_counts(const struct trace *t, struct trace_counts *c)
{
	*c = t->counts;
}

unsigned int trace_nr_cpus(const struct trace *t)
{
	return t->nr_cpus;
}

enum trace_probe trace_probe_used(const struct trace *t)
{
	return t->used;
}

const char *trace_probe_why(const struct trace *t)
{
	return t->probe_why;
}

void trace_close(struct trace *t)
{
	unsigned int s, cpu;

	if (!t)
		return;
	trace_stop(t);
	ksb_trace_bpf__destroy(t->skel);
	for (s = 0; s < KSB_TRACE_NR_SERIES; s++) {
		for (cpu = 0; t->hist[s] && cpu < t->nr_cpus; cpu++)
			kstats_hist_free(t->hist[s][cpu]);
		free(t->hist[s]);
		kstats_hist_free(t->merged[s]);
	}
	free(t);
}
