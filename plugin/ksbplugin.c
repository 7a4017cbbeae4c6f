// SPDX-License-Identifier: GPL-2.0
/*
 * ksbplugin.c - the project's QEMU TCG plugin (qemu 7.2, plugin API 1):
 * inside every window the guest marks (kmod/ksb_mark.h), the
 * instructions by function, and the loads, stores and misses of a cache
 * model of its own (csim.h); nothing outside them.
 *
 *	qemu-system-x86_64 ... -accel tcg,thread=single \
 *	    -icount shift=0,sleep=off -rtc clock=vm -append '... nokaslr' \
 *	    -plugin build/plugin/ksbplugin.so,out=W.csv,funcs=F.csv,syms=System.map
 *
 * Options (qemu's -plugin FILE,KEY=VALUE,...):
 *	out=FILE	the windows, one CSV row each (required)
 *	funcs=FILE	each window's instructions and misses per function,
 *			one row a function that ran in it
 *	syms=FILE	the kernel's text symbols (System.map, nm, or
 *			/proc/kallsyms of a nokaslr boot); without it the
 *			kernel is one bucket, "[kernel]"
 *	cache=on|off	the cache model (default on); off: instructions only
 *	l1d_size=48K l1d_ways=12	each vCPU's L1d
 *	llc_size=115200K llc_ways=15	the last level, shared by all vCPUs
 *	line=64		bytes a line, both levels
 *	cold=window|none
 *			window (default): both levels emptied when a window
 *			opens; none: they keep what earlier windows left
 * The defaults are a Xeon Platinum 8490H's (60 cores, 120 CPUs a socket:
 * a 4-socket host has 480 CPUs): 48 KiB 12-way L1d, 112.5 MiB 15-way
 * LLC. Its 2 MiB L2 is not modelled.
 *
 * What a window counts, from the instruction after the begin marker to
 * the one before the end marker, on the vCPU that ran the begin (the
 * markers' own instructions and loads are never counted):
 *  - instructions, each in the bucket of the function it belongs to
 *    (symtab.h); a window's functions add up to its instructions;
 *  - loads and stores of RAM (an access across a line is one), the
 *    lines that missed the vCPU's L1d, and of those the lines that missed
 *    the LLC, on guest-physical addresses, each miss in the bucket of
 *    the instruction that made it; accesses to I/O are counted apart
 *    (io) and not modelled.
 * Instructions are counted a translated block at a time, when the block
 * starts: a block left in the middle (a fault, an I/O access that qemu
 * translates again) counts its whole length. Blocks that hold a marker
 * are counted an instruction at a time.
 *
 * The two files are CSV with "# key: value" metadata:
 *	seq,vcpu,kind,tag,variant,insns,loads,stores,l1d_misses,llc_misses,io
 *	seq,insns,l1d_misses,llc_misses,function
 * seq numbers the windows from 1 in the order they opened; kind is run
 * (bench's engine: run, audit) or kmod (the module), tag and variant the
 * marker's argument (ksb_mark.h). A window opened again before its end
 * (a guest killed mid-sample), or ended on another vCPU, is dropped and
 * counted in the closing "# dropped" line.
 *
 * Threads: qemu calls a vCPU's callbacks on that vCPU's thread (one for
 * all with thread=single, one each under MTTCG); a vCPU's window and L1d
 * are its own, the LLC and the files are under ksbp.lock.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

#include "kmod/ksb_mark.h"
#include "plugin/csim.h"
#include "plugin/pconf.h"
#include "plugin/symtab.h"

#define KSBP_FORMAT	1		/* the files' version */
/* what a function's bucket counts (symtab.h's values) */
#define KSBP_INSNS	0		/* instructions: the order of the rows */
#define KSBP_L1D	1		/* lines its accesses missed in the L1d */
#define KSBP_LLC	2		/* of those, lines the LLC missed too */
#define KSBP_CHUNK	(1u << 20)	/* bytes of one arena chunk */

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

/* a stretch of one translated block in one bucket */
struct ksbp_run {
	uint32_t bucket;		/* symtab bucket */
	uint32_t n;			/* instructions */
};

/* a translated block without a marker: its runs, counted at its start */
struct ksbp_tb {
	uint32_t nr;			/* runs */
	struct ksbp_run run[];		/* [nr], in the block's order */
};

/* one vCPU: its window and its L1d */
struct ksbp_vcpu {
	bool open;			/* a window is open */
	uint64_t seq;			/* its number */
	unsigned int kind;		/* KSB_MARK_RUN or KSB_MARK_KMOD */
	unsigned int arg;		/* the begin marker's argument */
	struct csim_counts n;		/* its loads, stores, misses */
	uint64_t io;			/* its accesses to I/O */
	struct symtab_counts *fc;	/* its counts per function; lazily */
	struct csim *l1;		/* L1d; lazily */
};

/* arena chunks for the blocks' runs, all freed when qemu flushes its code */
struct ksbp_chunk {
	struct ksbp_chunk *next;	/* the one filled before */
	size_t used;			/* bytes of data[] handed out */
	char data[];			/* KSBP_CHUNK - the header */
};

static struct ksbp {
	/* options */
	const char *out_path;		/* out= */
	const char *funcs_path;		/* funcs=, NULL: none */
	const char *syms_path;		/* syms=, NULL: none */
	struct pconf conf;		/* the model's keys (pconf.h) */

	/* state */
	struct symtab *syms;		/* never NULL once installed */
	struct csim *llc;		/* NULL with cache=off */
	unsigned int nr_vcpus;		/* entries of vcpu[] */
	struct ksbp_vcpu *vcpu;		/* [nr_vcpus] */
	FILE *out;			/* the windows */
	FILE *funcs;			/* the functions, or NULL */
	bool smp;			/* several vCPUs: take lock around the LLC */
	pthread_mutex_t lock;		/* llc, out, funcs, the counts below */
	atomic_uint_fast64_t seq;	/* windows opened so far */
	uint64_t closed;		/* windows written */
	uint64_t dropped;		/* windows opened and never closed */
	uint64_t stray;			/* end markers with no window open */
	uint64_t tbs;			/* blocks translated */
	uint64_t uncounted;		/* blocks left uncounted: no memory */
	uint64_t unresolved;		/* accesses without a physical address */
	struct ksbp_chunk *arena;	/* the chunk being filled, NULL: none */
	pthread_mutex_t arena_lock;	/* translations of several vCPUs */
} ksbp = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.arena_lock = PTHREAD_MUTEX_INITIALIZER,
};

static const char *const ksbp_kinds[8] = {
	[KSB_MARK_RUN] = "run", [KSB_MARK_KMOD] = "kmod",
};

/* ---- the blocks' runs: an arena, dropped with qemu's code cache ---- */

static void *ksbp_alloc(size_t len)
{
	struct ksbp_chunk *c;
	void *p;

	len = (len + 7) & ~(size_t)7;
	pthread_mutex_lock(&ksbp.arena_lock);
	c = ksbp.arena;
	if (!c || c->used + len > KSBP_CHUNK - sizeof(*c)) {
		c = malloc(KSBP_CHUNK);
		if (!c) {
			pthread_mutex_unlock(&ksbp.arena_lock);
			return NULL;
		}
		c->next = ksbp.arena;
		c->used = 0;
		ksbp.arena = c;
	}
	p = c->data + c->used;
	c->used += len;
	pthread_mutex_unlock(&ksbp.arena_lock);
	return p;
}

/* qemu flushed every translated block: nothing points into the arena */
static void ksbp_flush(qemu_plugin_id_t id)
{
	struct ksbp_chunk *c, *next;

	(void)id;
	pthread_mutex_lock(&ksbp.arena_lock);
	for (c = ksbp.arena; c; c = next) {
		next = c->next;
		free(c);
	}
	ksbp.arena = NULL;
	pthread_mutex_unlock(&ksbp.arena_lock);
}

/* ---- windows ---- */

/* the vCPU's counts and L1d, made at its first window; false: no memory */
static bool ksbp_vcpu_ready(struct ksbp_vcpu *v)
{
	if (!v->fc)
		v->fc = symtab_counts_create(ksbp.syms);
	if (ksbp.conf.cache && !v->l1)
		v->l1 = csim_create(&ksbp.conf.l1d);
	return v->fc && (!ksbp.conf.cache || v->l1);
}

static void ksbp_reset(struct ksbp_vcpu *v)
{
	v->open = false;
	memset(&v->n, 0, sizeof(v->n));
	v->io = 0;
	symtab_counts_reset(v->fc);
}

/*
 * The LLC is shared: locked unless there is one vCPU. ksbp.smp is read
 * once, so that a vCPU plugged in meanwhile cannot unbalance the pair.
 */
static void ksbp_llc_lock(bool *smp)
{
	*smp = __atomic_load_n(&ksbp.smp, __ATOMIC_RELAXED);
	if (*smp)
		pthread_mutex_lock(&ksbp.lock);
}

static void ksbp_llc_unlock(bool smp)
{
	if (smp)
		pthread_mutex_unlock(&ksbp.lock);
}

static void ksbp_begin(struct ksbp_vcpu *v, unsigned int kind, unsigned int arg)
{
	bool smp;

	if (!ksbp_vcpu_ready(v))
		return;
	if (v->open) {
		pthread_mutex_lock(&ksbp.lock);
		ksbp.dropped++;
		pthread_mutex_unlock(&ksbp.lock);
		ksbp_reset(v);
	}
	if (ksbp.conf.cache && ksbp.conf.cold) {
		csim_flush(v->l1);
		ksbp_llc_lock(&smp);
		csim_flush(ksbp.llc);
		ksbp_llc_unlock(smp);
	}
	v->seq = atomic_fetch_add(&ksbp.seq, 1) + 1;
	v->kind = kind;
	v->arg = arg;
	v->open = true;
}

/* the window's rows; under ksbp.lock */
static void ksbp_write(struct ksbp_vcpu *v, unsigned int vcpu)
{
	const unsigned int *order;
	unsigned int i, nr, b;

	fprintf(ksbp.out, "%" PRIu64 ",%u,%s,%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64
		",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
		v->seq, vcpu, ksbp_kinds[v->kind] ? ksbp_kinds[v->kind] : "?", v->arg >> 2,
		v->arg & 3, symtab_counts_total(v->fc, KSBP_INSNS), v->n.loads, v->n.stores,
		v->n.l1_misses, v->n.llc_misses, v->io);
	if (!ksbp.funcs)
		return;
	nr = symtab_counts_sorted(v->fc, &order);
	for (i = 0; i < nr; i++) {
		b = order[i];
		fprintf(ksbp.funcs, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%s\n", v->seq,
			symtab_counts_get(v->fc, b, KSBP_INSNS),
			symtab_counts_get(v->fc, b, KSBP_L1D),
			symtab_counts_get(v->fc, b, KSBP_LLC), symtab_name(ksbp.syms, b));
	}
}

static void ksbp_end(struct ksbp_vcpu *v, unsigned int vcpu, unsigned int kind,
		     unsigned int arg)
{
	pthread_mutex_lock(&ksbp.lock);
	if (!v->open) {
		ksbp.stray++;
	} else if (v->kind != kind || v->arg != arg) {
		ksbp.dropped++;
	} else {
		ksbp_write(v, vcpu);
		ksbp.closed++;
	}
	pthread_mutex_unlock(&ksbp.lock);
	if (v->open)
		ksbp_reset(v);
}

/* a marker's load ran: its code in @udata, its argument in the page offset */
static void ksbp_marker(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr,
			void *udata)
{
	unsigned int code = (unsigned int)(uintptr_t)udata, arg = vaddr & KSB_MARK_ARG_MAX;

	(void)info;
	if (vcpu >= ksbp.nr_vcpus)
		return;
	if (code & KSB_MARK_END)
		ksbp_end(&ksbp.vcpu[vcpu], vcpu, code & ~KSB_MARK_END, arg);
	else
		ksbp_begin(&ksbp.vcpu[vcpu], code, arg);
}

/* ---- counting ---- */

static void ksbp_tb_exec(unsigned int vcpu, void *udata)
{
	const struct ksbp_tb *tb = udata;
	struct ksbp_vcpu *v = &ksbp.vcpu[vcpu];
	uint32_t i;

	if (vcpu >= ksbp.nr_vcpus || !v->open)
		return;
	for (i = 0; i < tb->nr; i++)
		symtab_counts_add(v->fc, tb->run[i].bucket, KSBP_INSNS, tb->run[i].n);
}

/* one instruction of a block that holds a marker: its bucket in @udata */
static void ksbp_insn_exec(unsigned int vcpu, void *udata)
{
	struct ksbp_vcpu *v = &ksbp.vcpu[vcpu];

	if (vcpu < ksbp.nr_vcpus && v->open)
		symtab_counts_add(v->fc, (unsigned int)(uintptr_t)udata, KSBP_INSNS, 1);
}

/* an access of an instruction in bucket @udata, through the model */
static void ksbp_mem(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr,
		     void *udata)
{
	unsigned int b = (unsigned int)(uintptr_t)udata;
	struct ksbp_vcpu *v = &ksbp.vcpu[vcpu];
	struct qemu_plugin_hwaddr *hw;
	uint64_t pa, l1, llc;
	bool smp;

	if (vcpu >= ksbp.nr_vcpus || !v->open)
		return;
	hw = qemu_plugin_get_hwaddr(info, vaddr);
	if (!hw) {
		__atomic_fetch_add(&ksbp.unresolved, 1, __ATOMIC_RELAXED);
		return;
	}
	if (qemu_plugin_hwaddr_is_io(hw)) {
		v->io++;
		return;
	}
	pa = qemu_plugin_hwaddr_phys_addr(hw);
	l1 = v->n.l1_misses;
	llc = v->n.llc_misses;
	ksbp_llc_lock(&smp);
	csim_access(v->l1, ksbp.llc, pa, 1u << qemu_plugin_mem_size_shift(info),
		    qemu_plugin_mem_is_store(info), &v->n);
	ksbp_llc_unlock(smp);
	symtab_counts_add(v->fc, b, KSBP_L1D, v->n.l1_misses - l1);
	symtab_counts_add(v->fc, b, KSBP_LLC, v->n.llc_misses - llc);
}

/* ---- translation ---- */

/* the marker's code (op | kind), or -1: not a marker (ksb_mark.h) */
static int ksbp_marker_code(struct qemu_plugin_insn *insn)
{
	const uint8_t *b = qemu_plugin_insn_data(insn);
	uint32_t disp;

	if (qemu_plugin_insn_size(insn) != KSB_MARK_BYTES || b[0] != 0x3e || b[1] != 0x0f ||
	    b[2] != 0xb6 || b[3] != 0x80)
		return -1;
	disp = (uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 | (uint32_t)b[7] << 24;
	if ((disp & 0xffff0fffu) != KSB_MARK_MAGIC)
		return -1;
	return (int)(disp >> 12 & 15);
}

/*
 * @cb after every load and store of @insn. Always RW, and the callback
 * tells a load from a store: qemu 7.2 never calls an R-only callback on
 * a load (accel/tcg/plugin-gen.c, op_rw(): cb->rw & (rw + 1), where rw
 * is QEMU_PLUGIN_MEM_R = 1 for a load: it tests the W bit). A marker
 * only loads.
 */
static void ksbp_on_mem(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_mem_cb_t cb, void *udata)
{
	qemu_plugin_register_vcpu_mem_cb(insn, cb, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW,
					 udata);
}

/* a block with a marker: each instruction counted on its own */
static void ksbp_trans_marked(struct qemu_plugin_tb *tb, size_t n)
{
	struct qemu_plugin_insn *insn;
	void *b;
	size_t i;
	int code;

	for (i = 0; i < n; i++) {
		insn = qemu_plugin_tb_get_insn(tb, i);
		code = ksbp_marker_code(insn);
		if (code >= 0) {
			ksbp_on_mem(insn, ksbp_marker, (void *)(uintptr_t)code);
			continue;
		}
		b = (void *)(uintptr_t)symtab_bucket(ksbp.syms, qemu_plugin_insn_vaddr(insn));
		qemu_plugin_register_vcpu_insn_exec_cb(insn, ksbp_insn_exec, QEMU_PLUGIN_CB_NO_REGS,
						       b);
		if (ksbp.conf.cache)
			ksbp_on_mem(insn, ksbp_mem, b);
	}
}

/* a block without one: its runs of buckets, counted when it starts */
static void ksbp_trans_plain(struct qemu_plugin_tb *tb, size_t n)
{
	struct ksbp_tb *t = ksbp_alloc(sizeof(*t) + n * sizeof(t->run[0]));
	struct qemu_plugin_insn *insn;
	unsigned int b;
	size_t i;

	if (!t) {
		__atomic_fetch_add(&ksbp.uncounted, 1, __ATOMIC_RELAXED);
		return;
	}
	t->nr = 0;
	for (i = 0; i < n; i++) {
		insn = qemu_plugin_tb_get_insn(tb, i);
		b = symtab_bucket(ksbp.syms, qemu_plugin_insn_vaddr(insn));
		if (!t->nr || t->run[t->nr - 1].bucket != b)
			t->run[t->nr++] = (struct ksbp_run){ .bucket = b };
		t->run[t->nr - 1].n++;
		/* an instruction that accesses no memory gets no callback from this */
		if (ksbp.conf.cache)
			ksbp_on_mem(insn, ksbp_mem, (void *)(uintptr_t)b);
	}
	qemu_plugin_register_vcpu_tb_exec_cb(tb, ksbp_tb_exec, QEMU_PLUGIN_CB_NO_REGS, t);
}

static void ksbp_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	__atomic_fetch_add(&ksbp.tbs, 1, __ATOMIC_RELAXED);
	for (i = 0; i < n; i++)
		if (ksbp_marker_code(qemu_plugin_tb_get_insn(tb, i)) >= 0)
			break;
	if (i < n)
		ksbp_trans_marked(tb, n);
	else
		ksbp_trans_plain(tb, n);
}

/* ---- the files ---- */

static void ksbp_geom_line(const char *key, const struct csim_geom *g, const char *who)
{
	fprintf(ksbp.out, "# %s: %" PRIu64 " B, %u ways, %u B lines, %" PRIu64 " sets, %s\n",
		key, g->size, g->ways, g->line, g->size / g->ways / g->line, who);
}

static void ksbp_header(void)
{
	fprintf(ksbp.out, "# kstats-bench plugin: %d\n", KSBP_FORMAT);
	fprintf(ksbp.out, "# qemu_plugin_version: %d\n", QEMU_PLUGIN_VERSION);
	fprintf(ksbp.out, "# symbols: %s (%u functions)\n",
		ksbp.syms_path ? ksbp.syms_path : "none", symtab_nr(ksbp.syms) - SYMTAB_FIRST);
	fprintf(ksbp.out, "# insns: from the instruction after a begin marker to the one before its end marker, a translated block at a time\n");
	if (ksbp.conf.cache) {
		ksbp_geom_line("l1d", &ksbp.conf.l1d, "per vCPU, LRU");
		ksbp_geom_line("llc", &ksbp.conf.llc, "shared, LRU, non-inclusive");
		fprintf(ksbp.out, "# cold: %s\n",
			ksbp.conf.cold ? "window (both levels emptied when a window opens)"
				  : "none (the state earlier windows left)");
		fprintf(ksbp.out, "# misses: lines of RAM accesses (guest-physical) that missed, demand only, write-allocate\n");
	} else {
		fprintf(ksbp.out, "# cache: off (loads, stores and misses not counted: 0)\n");
	}
	fprintf(ksbp.out, "seq,vcpu,kind,tag,variant,insns,loads,stores,l1d_misses,llc_misses,io\n");
	if (ksbp.funcs) {
		fprintf(ksbp.funcs, "# kstats-bench plugin functions: %d\n", KSBP_FORMAT);
		fprintf(ksbp.funcs, "# symbols: %s\n", ksbp.syms_path ? ksbp.syms_path : "none");
		fprintf(ksbp.funcs, "# each window's (seq) instructions, L1d and LLC misses per function, most instructions first; they add up to the window's\n");
		fprintf(ksbp.funcs, "seq,insns,l1d_misses,llc_misses,function\n");
	}
}

static void ksbp_exit(qemu_plugin_id_t id, void *udata)
{
	unsigned int i;

	(void)id;
	(void)udata;
	pthread_mutex_lock(&ksbp.lock);
	fprintf(ksbp.out, "# windows: %" PRIu64 "\n", ksbp.closed);
	fprintf(ksbp.out, "# dropped: %" PRIu64 " (opened again before their end, or ended with another marker)\n",
		ksbp.dropped);
	fprintf(ksbp.out, "# stray_ends: %" PRIu64 "\n", ksbp.stray);
	fprintf(ksbp.out, "# translated_blocks: %" PRIu64 "\n", ksbp.tbs);
	fprintf(ksbp.out, "# uncounted_blocks: %" PRIu64 " (no memory for their runs)\n",
		ksbp.uncounted);
	fprintf(ksbp.out, "# unresolved_accesses: %" PRIu64 " (no physical address: not modelled)\n",
		ksbp.unresolved);
	fclose(ksbp.out);
	if (ksbp.funcs)
		fclose(ksbp.funcs);
	ksbp.out = ksbp.funcs = NULL;
	pthread_mutex_unlock(&ksbp.lock);
	for (i = 0; i < ksbp.nr_vcpus; i++) {
		symtab_counts_free(ksbp.vcpu[i].fc);
		csim_free(ksbp.vcpu[i].l1);
	}
}

/* ---- options ---- */

/* one KEY=VALUE: 0, -ENOENT for an unknown key, -EINVAL with @why for a bad value */
static int ksbp_opt(const char *key, const char *val, char *why, size_t len)
{
	if (!strcmp(key, "out"))
		ksbp.out_path = val;
	else if (!strcmp(key, "funcs"))
		ksbp.funcs_path = val;
	else if (!strcmp(key, "syms"))
		ksbp.syms_path = val;
	else
		return pconf_set(&ksbp.conf, key, val, why, len);
	return 0;
}

static int ksbp_parse(int argc, char **argv)
{
	char why[160];
	char *eq;
	int i, ret;

	pconf_defaults(&ksbp.conf);
	for (i = 0; i < argc; i++) {
		eq = strchr(argv[i], '=');
		if (eq)
			*eq = 0;
		ret = eq ? ksbp_opt(argv[i], eq + 1, why, sizeof(why)) : -ENOENT;
		if (ret == -EINVAL) {
			fprintf(stderr, "ksbplugin: %s\n", why);
			return -1;
		}
		if (ret) {
			fprintf(stderr, "ksbplugin: '%s%s%s': not an option (out=FILE funcs=FILE syms=FILE cache=on|off cold=window|none l1d_size= l1d_ways= llc_size= llc_ways= line=)\n",
				argv[i], eq ? "=" : "", eq ? eq + 1 : "");
			return -1;
		}
	}
	if (!ksbp.out_path) {
		fprintf(stderr, "ksbplugin: out=FILE is required\n");
		return -1;
	}
	if (pconf_check(&ksbp.conf, why, sizeof(why))) {
		fprintf(stderr, "ksbplugin: %s\n", why);
		return -1;
	}
	return 0;
}

/* ---- install ---- */

/* a vCPU beyond the first (hotplugged): the LLC is shared from now on */
static void ksbp_vcpu_init(qemu_plugin_id_t id, unsigned int vcpu)
{
	(void)id;
	if (vcpu > 0)
		__atomic_store_n(&ksbp.smp, true, __ATOMIC_RELAXED);
}

static int ksbp_symbols(void)
{
	char why[200];
	FILE *f;
	int ret;

	ksbp.syms = symtab_create();
	if (!ksbp.syms)
		return -ENOMEM;
	if (!ksbp.syms_path)
		return 0;
	f = fopen(ksbp.syms_path, "re");
	if (!f) {
		fprintf(stderr, "ksbplugin: syms=%s: %s\n", ksbp.syms_path, strerror(errno));
		return -errno;
	}
	ret = symtab_load(ksbp.syms, f, why, sizeof(why));
	fclose(f);
	if (ret)
		fprintf(stderr, "ksbplugin: syms=%s: %s\n", ksbp.syms_path,
			ret == -EINVAL ? why : strerror(-ret));
	return ret;
}

static FILE *ksbp_open(const char *path)
{
	FILE *f = fopen(path, "we");

	if (!f)
		fprintf(stderr, "ksbplugin: %s: %s\n", path, strerror(errno));
	return f;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	if (!info->system_emulation || strcmp(info->target_name, "x86_64")) {
		fprintf(stderr, "ksbplugin: qemu-system-x86_64 only (this is %s%s)\n",
			info->target_name, info->system_emulation ? "" : ", user mode");
		return -1;
	}
	if (ksbp_parse(argc, argv) || ksbp_symbols())
		goto out_free;
	ksbp.nr_vcpus = (unsigned int)info->system.max_vcpus;
	ksbp.smp = info->system.smp_vcpus > 1;
	ksbp.vcpu = calloc(ksbp.nr_vcpus, sizeof(*ksbp.vcpu));
	if (ksbp.conf.cache)
		ksbp.llc = csim_create(&ksbp.conf.llc);
	if (!ksbp.vcpu || (ksbp.conf.cache && !ksbp.llc)) {
		fprintf(stderr, "ksbplugin: %s\n", strerror(ENOMEM));
		goto out_free;
	}
	ksbp.out = ksbp_open(ksbp.out_path);
	if (!ksbp.out)
		goto out_free;
	if (ksbp.funcs_path && !(ksbp.funcs = ksbp_open(ksbp.funcs_path)))
		goto out_close;
	ksbp_header();
	qemu_plugin_register_vcpu_init_cb(id, ksbp_vcpu_init);
	qemu_plugin_register_vcpu_tb_trans_cb(id, ksbp_trans);
	qemu_plugin_register_flush_cb(id, ksbp_flush);
	qemu_plugin_register_atexit_cb(id, ksbp_exit, NULL);
	return 0;
out_close:
	fclose(ksbp.out);
out_free:
	csim_free(ksbp.llc);
	free(ksbp.vcpu);
	symtab_free(ksbp.syms);
	return -1;
}
