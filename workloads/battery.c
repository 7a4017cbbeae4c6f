// SPDX-License-Identifier: GPL-2.0
/*
 * battery.c - bench audit's entries: the built-in battery, a battery
 * file's lines parsed with bench run's option tables, the order of a
 * boot, and each entry's option values (see battery.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/subcmd/options.h"
#include "lib/subcmd/readfile.h"
#include "battery.h"
#include "registry.h"

/*
 * The built-in battery: controls first, then the reads, then the
 * entries that make and drop an object. Each line parses as a battery
 * file's would.
 */
const struct battery_builtin battery_builtins[] = {
	{ "syscall-null = syscall-null --control",
	  "the kernel entry and exit alone", "lmbench's null syscall" },
	{ "proc-version = file-read --path /proc/version --control",
	  "version_proc_show(): one line, no per-CPU data", NULL },
	{ "statfs = statfs --statfs-path /tmp --control",
	  "shmem_statfs(): percpu_counter_sum() loops over online CPUs only", NULL },
	{ "file-nr = file-read --path /proc/sys/fs/file-nr --control",
	  "get_nr_files(): percpu_counter_sum_positive(), online CPUs only", NULL },
	{ "proc-stat = file-read --path /proc/stat",
	  "show_stat(), nr_iowait(): for_each_possible_cpu",
	  "Waiman Long, 2018" },
	{ "proc-softirqs = file-read --path /proc/softirqs",
	  "show_softirqs(): a column per possible CPU", NULL },
	{ "cpu-stat = file-read --path /sys/fs/cgroup/cpu.stat",
	  "cgroup rstat: root_cgroup_cputime(), cgroup_rstat_flush()", NULL },
	{ "memory-stat = file-read --path /sys/fs/cgroup/memory.stat",
	  "memcg statistics: memory_stat_format() after an rstat flush",
	  "a983b5ebee57 (2017): reads of up to 14 s" },
	{ "proc-net-dev = file-read --path /proc/net/dev",
	  "dev_get_stats(): per-CPU device counters (loopback's lstats)", NULL },
	{ "proc-net-snmp = file-read --path /proc/net/snmp",
	  "snmp_fold_field(): stat items x possible CPUs",
	  "Raghavendra K T, 2015: docker run 6.84 s -> 3.36 s on 160 CPUs" },
	{ "proc-net-sockstat = file-read --path /proc/net/sockstat",
	  "sock_prot_inuse_get(): for_each_possible_cpu per protocol", NULL },
	{ "netns = netns -n 64",
	  "setup_net(): per-netns per-CPU MIBs and control sockets (icmp, tcp)",
	  "Dumazet, \"netns: speedup netns dismantles\", 2022" },
	{ "mount-tmpfs = mount-tmpfs -n 64",
	  "alloc_vfsmnt() per-CPU counts, mnt_get_count() at umount",
	  "fs/namespace.c" },
	{ "mntns = mntns -n 64",
	  "copy_tree(): alloc_vfsmnt() per mount of the namespace",
	  "fs/namespace.c" },
	{ "io-uring = io-uring -n 128",
	  "percpu_ref_init(), the switch to atomic at close",
	  "lib/percpu-refcount.c" },
	{ "aio = aio -n 16",
	  "ioctx_alloc(): percpu_ref, kioctx_cpu, a ring of possible CPUs x 4",
	  "fs/aio.c" },
	{ "fork-exit = fork-exit -n 64",
	  "mm_init(): per-CPU rss counters, mm_cid",
	  "Jan Kara: +10% system time on a git workload" },
	{ "fork-exec = fork-exec -n 64",
	  "mm_init() twice: the fork's mm and the exec's",
	  "Jan Kara: +10% system time on a git workload" },
	{ "cgroup-mkdir = cgroup-mkdir -n 128",
	  "cgroup_create(): per-CPU rstat and controller state", NULL },
	{ "bpf-pcpu-lookup = bpf-pcpu-lookup",
	  "bpf_percpu_array_copy(): every possible CPU's value",
	  "kernel/bpf/arraymap.c" },
	{ "bpf-prog-info = bpf-prog-info",
	  "bpf_prog_get_stats(): for_each_possible_cpu",
	  "kernel/bpf/syscall.c" },
	{ NULL, NULL, NULL },
};

/* a line's own options, beside the workloads' */
static struct {
	uint64_t samples;		/* -n */
	bool control;			/* --control */
} bl;

static const struct opt battery_line_opts[] = {
	OPT_U64('n', "samples", &bl.samples, 1, UINT64_C(1) << 32, "N",
		"this entry's samples (bench audit -n overrides)"),
	OPT_FLAG(0, "control", &bl.control,
		 "a control: known not to grow with possible CPUs"),
	OPT_END()
};

/* every workload option's default, taken before the first line is parsed */
static struct battery_val battery_defaults[OPT_MAX];
static unsigned int battery_nr_defaults;

/* the bytes an option's value holds, 0 for one that keeps its own (OPT_T_CALL) */
static size_t battery_val_len(const struct opt *o)
{
	switch (o->type) {
	case OPT_T_FLAG:
		return sizeof(bool);
	case OPT_T_U64:
		return sizeof(uint64_t);
	case OPT_T_DOUBLE:
		return sizeof(double);
	case OPT_T_ENUM:
		return sizeof(int);
	case OPT_T_STRING:
		return sizeof(const char *);
	default:
		return 0;
	}
}

static void battery_take(struct battery_val *v, const struct opt *o)
{
	v->where = o->value;
	v->len = battery_val_len(o);
	memcpy(v->val, o->value, v->len);
}

static void battery_put(const struct battery_val *v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		memcpy(v[i].where, v[i].val, v[i].len);
}

/* the defaults of every real-kernel workload's options, once */
static void battery_take_defaults(void)
{
	const struct opt *const *t;
	const struct workload *w;
	const struct opt *o;
	unsigned int i, k;

	if (battery_nr_defaults)
		return;
	for_each_workload(w, i)
		for (t = w->options; w->real_kernel && t && *t; t++)
			for (o = *t; o->type != OPT_T_END; o++) {
				for (k = 0; k < battery_nr_defaults &&
				     battery_defaults[k].where != o->value; k++)
					;
				if (k == battery_nr_defaults && battery_val_len(o) &&
				    k < OPT_MAX)
					battery_take(&battery_defaults[battery_nr_defaults++], o);
			}
}

void battery_apply(const struct battery_entry *e)
{
	battery_put(battery_defaults, battery_nr_defaults);
	battery_put(e->save, e->nr_save);
}

/* @s with every byte outside [a-z0-9] made '-', runs of them one, appended to @name */
static void battery_mangle(char *name, size_t len, const char *s)
{
	size_t n = strlen(name);
	bool dash = true;

	if (n + 1 < len)
		name[n++] = '.';
	for (; *s && n + 1 < len; s++) {
		char c = (char)(*s >= 'A' && *s <= 'Z' ? *s - 'A' + 'a' : *s);
		bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');

		if (ok || !dash)
			name[n++] = ok ? c : '-';
		dash = !ok;
	}
	while (n && (name[n - 1] == '-' || name[n - 1] == '.'))
		n--;
	name[n] = 0;
}

/* the value @v holds as a word of a name: a string, a number, a flag's name */
static void battery_val_word(const struct battery_val *v, const struct opt *o, char *buf,
			     size_t len)
{
	if (o->type == OPT_T_STRING)
		snprintf(buf, len, "%s", *(const char *const *)v->where);
	else if (o->type == OPT_T_U64)
		snprintf(buf, len, "%lu", (unsigned long)*(const uint64_t *)v->where);
	else
		snprintf(buf, len, "%s", o->long_name);
}

/*
 * the workload's option values into @e->save, and the name from those
 * that differ from their default; -EINVAL for an option the battery
 * cannot restore (OPT_T_CALL)
 */
static int battery_save(struct battery_entry *e, char *name, size_t len, char *why,
			size_t wlen)
{
	const struct opt *const *t;
	const struct opt *o;
	char word[256];
	unsigned int k;

	for (t = e->wl->options; t && *t; t++)
		for (o = *t; o->type != OPT_T_END; o++) {
			if (o->type == OPT_T_GROUP)
				continue;
			if (!battery_val_len(o) || e->nr_save == BATTERY_SAVE_MAX) {
				snprintf(why, wlen, "--%s: not an option a battery can hold",
					 o->long_name);
				return -EINVAL;
			}
			battery_take(&e->save[e->nr_save], o);
			for (k = 0; k < battery_nr_defaults &&
			     battery_defaults[k].where != o->value; k++)
				;
			if (k < battery_nr_defaults &&
			    memcmp(battery_defaults[k].val, o->value, battery_val_len(o))) {
				battery_val_word(&e->save[e->nr_save], o, word, sizeof(word));
				battery_mangle(name, len, word);
			}
			e->nr_save++;
		}
	return 0;
}

/* @s is [a-z0-9_.-]+ of BATTERY_NAME_MAX bytes at most */
static bool battery_name_ok(const char *s)
{
	size_t n = strlen(s);

	return n && n <= BATTERY_NAME_MAX &&
	       !s[strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_.-")];
}

/* @line's words into @e->words, argv-style after a slot for argv[0]; how many */
static int battery_words(struct battery_entry *e, const char *line, char **argv)
{
	char *p, *save = NULL;
	int n = 1;

	e->words = strdup(line);
	if (!e->words)
		return -ENOMEM;
	p = strchr(e->words, '#');
	while (p && p != e->words && p[-1] != ' ' && p[-1] != '\t')
		p = strchr(p + 1, '#');
	if (p)
		*p = 0;
	argv[0] = "audit-entry";
	for (p = strtok_r(e->words, " \t\r", &save); p; p = strtok_r(NULL, " \t\r", &save)) {
		if (n == BATTERY_MAX_WORDS - 1)
			return -E2BIG;
		argv[n++] = p;
	}
	argv[n] = NULL;
	return n;
}

/* the workload @argv names, checked; -EINVAL with @why */
static int battery_workload(struct battery_entry *e, const char *arg, char *why, size_t len)
{
	e->wl = workload_find(arg);
	if (!e->wl)
		snprintf(why, len, "'%s' is not a workload (see 'bench list')", arg);
	else if (!e->wl->real_kernel)
		snprintf(why, len, "%s emulates a kernel path in user space: an audit times the running kernel's",
			 arg);
	else
		return 0;
	return -EINVAL;
}

/* "--path: only -w file-read takes it, not statfs": an option of another workload */
static int battery_not_yours(const struct battery_entry *e, const struct opt_parser *p,
			     const struct opt *const *tab, char *why, size_t len)
{
	char who[256];
	unsigned int t;

	for (t = 1; tab[t]; t++)
		if (p->given[t] && !workload_takes(e->wl, tab[t])) {
			workload_takers(tab[t], who, sizeof(who));
			snprintf(why, len, "--%s: only %s takes it, not %s", p->given[t]->long_name,
				 who, e->wl->name);
			return -EINVAL;
		}
	return 0;
}

/* argv[first..] as WORKLOAD [OPTIONS] into @e */
static int battery_parse(struct battery_entry *e, int argc, char **argv, int first,
			 char *why, size_t len)
{
	const struct opt *tab[OPT_MAX_TABLES];
	struct opt_parser p = { .tab = tab, .flags = OPT_NO_OPERANDS };
	char name[128];
	int ret;

	if (first >= argc) {
		snprintf(why, len, "no workload after the name");
		return -EINVAL;
	}
	ret = battery_workload(e, argv[first], why, len);
	if (ret)
		return ret;
	workload_tables(tab, OPT_MAX_TABLES, battery_line_opts);
	memset(&bl, 0, sizeof(bl));
	battery_put(battery_defaults, battery_nr_defaults);
	argv[first] = argv[0];
	ret = opt_parse(&p, argc - first, argv + first);
	if (ret == 1)
		snprintf(why, len, "--help: not an entry's option");
	else if (ret)
		snprintf(why, len, "%s", p.why);
	if (ret)
		return -EINVAL;
	ret = battery_not_yours(e, &p, tab, why, len);
	snprintf(name, sizeof(name), "%s", e->wl->name);
	ret = ret ?: battery_save(e, name, sizeof(name), why, len);
	battery_put(battery_defaults, battery_nr_defaults);
	if (ret)
		return ret;
	e->samples = bl.samples;
	e->control = bl.control;
	if (e->name[0])
		return 0;
	if (strlen(name) > BATTERY_NAME_MAX) {
		snprintf(why, len, "the name %s is longer than %d bytes: name the entry (NAME = %s ...)",
			 name, BATTERY_NAME_MAX, e->wl->name);
		return -EINVAL;
	}
	/* the precision: gcc's -Wformat-truncation cannot see the check above */
	snprintf(e->name, sizeof(e->name), "%.*s", BATTERY_NAME_MAX, name);
	return 0;
}

/* "NAME = ..." or not: the name checked; *@first indexes the workload */
static int battery_name(struct battery_entry *e, char **argv, int argc, int *first, char *why,
			size_t len)
{
	*first = 1;
	if (argc > 2 && !strcmp(argv[2], "=")) {
		if (!battery_name_ok(argv[1])) {
			snprintf(why, len, "'%s' is not a name: [a-z0-9_.-], at most %d bytes",
				 argv[1], BATTERY_NAME_MAX);
			return -EINVAL;
		}
		snprintf(e->name, sizeof(e->name), "%s", argv[1]);
		*first = 3;
	}
	return 0;
}

/* a second entry of @e's name in @b: -EINVAL naming the first */
static int battery_unique(const struct battery *b, const struct battery_entry *e, char *why,
			  size_t len)
{
	unsigned int i;

	for (i = 0; i < b->n; i++)
		if (!strcmp(b->e[i].name, e->name)) {
			snprintf(why, len, "a second entry %s (the first: %s); name one (NAME = ...)",
				 e->name, b->e[i].where);
			return -EINVAL;
		}
	return 0;
}

static void battery_entry_free(struct battery_entry *e)
{
	free(e->words);
	memset(e, 0, sizeof(*e));
}

int battery_add_line(struct battery *b, const char *line, const char *where, char *why,
		     size_t len)
{
	struct battery_entry *e = &b->e[b->n];
	char *argv[BATTERY_MAX_WORDS], msg[384];
	int argc, first, ret;

	battery_take_defaults();
	if (b->n == BATTERY_MAX) {
		snprintf(why, len, "%s: more than %d entries", where, BATTERY_MAX);
		return -EINVAL;
	}
	memset(e, 0, sizeof(*e));
	argc = battery_words(e, line, argv);
	if (argc == 1 || argc == -ENOMEM) {
		battery_entry_free(e);
		return argc == 1 ? 0 : -ENOMEM;
	}
	snprintf(e->line, sizeof(e->line), "%s", line);
	snprintf(e->where, sizeof(e->where), "%s", where);
	if (argc < 0)
		snprintf(msg, sizeof(msg), "more than %d words", BATTERY_MAX_WORDS - 2);
	ret = argc < 0 ? -EINVAL : battery_name(e, argv, argc, &first, msg, sizeof(msg));
	ret = ret ?: battery_parse(e, argc, argv, first, msg, sizeof(msg));
	ret = ret ?: battery_unique(b, e, msg, sizeof(msg));
	if (ret) {
		snprintf(why, len, "%s: %s", where, msg);
		battery_entry_free(e);
		return ret;
	}
	b->n++;
	return 0;
}

int battery_add_builtin(struct battery *b, char *why, size_t len)
{
	const struct battery_builtin *bi;
	int ret;

	for (bi = battery_builtins; bi->line; bi++) {
		ret = battery_add_line(b, bi->line, "builtin", why, len);
		if (ret)
			return ret;
		b->e[b->n - 1].path = bi->path;
		b->e[b->n - 1].report = bi->report;
	}
	return 0;
}

/* @lr's lines into @b, each named "PATH:LINE"; 0 or -errno with @why */
static int battery_read_lines(struct battery *b, struct readfile_lines *lr, const char *path,
			      char *why, size_t len)
{
	char where[96];
	int ret;

	while ((ret = readfile_lines_next(lr)) > 0) {
		snprintf(where, sizeof(where), "%.80s:%lu", path, lr->no);
		if (strlen(lr->line) != lr->len) {
			snprintf(why, len, "%s: a NUL byte: not a battery", where);
			return -EINVAL;
		}
		ret = battery_add_line(b, lr->line, where, why, len);
		if (ret)
			return ret;
	}
	snprintf(where, sizeof(where), "%.80s:%lu", path, lr->no);
	if (ret == -E2BIG)
		snprintf(why, len, "%s: a line of more than %zu bytes", where,
			 sizeof(b->e[0].line) - 1);
	else if (ret)
		snprintf(why, len, "%s: %s", path, strerror(-ret));
	return ret == -E2BIG ? -EINVAL : ret;
}

int battery_read_file(struct battery *b, const char *path, char *why, size_t len)
{
	FILE *f = fopen(path, "re");
	struct readfile_lines lr;
	int ret;

	if (!f) {
		ret = -errno;
		snprintf(why, len, "%s: %s", path, strerror(errno));
		return ret;
	}
	readfile_lines_init(&lr, f, sizeof(b->e[0].line) - 1);
	ret = battery_read_lines(b, &lr, path, why, len);
	readfile_lines_free(&lr);
	fclose(f);
	return ret;
}

void battery_order(unsigned int n, unsigned int boot, unsigned int *idx)
{
	unsigned int i, r = n ? (boot ? boot - 1 : 0) % n : 0;

	for (i = 0; i < n; i++)
		idx[i] = (i + r) % n;
}

void battery_free(struct battery *b)
{
	unsigned int i;

	for (i = 0; i < b->n; i++)
		battery_entry_free(&b->e[i]);
	b->n = 0;
}
