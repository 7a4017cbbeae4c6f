// SPDX-License-Identifier: GPL-2.0
/*
 * engine.c - pinned workers, the sample loop and the serial schedule
 * (see engine.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kmod/ksb_mark.h"
#include "kstats_hist.h"
#include "lib/measure/disturb.h"
#include "lib/measure/engine.h"
#include "lib/measure/pcpu.h"
#include "lib/measure/ref.h"
#include "lib/measure/topo.h"

/* one pinned worker: its own thread writes it until engine_join() */
#include "lib/measure/engine_int.h"

#define ENGINE_OVERHEAD_SAMPLES	4096	/* empty regions timed per CPU */
#define ENGINE_STUCK_NS		(60 * 1000000000ull)	/* no sample ended: stop */
#define ENGINE_GRACE_NS		(500 * 1000000ull)	/* then cancel who is in one */
/* per-CPU objects live beside the measured one without nr_live() (docs/design.md) */
#define ENGINE_LIVE_DEFAULT	64

#define ENGINE_OVERHEAD_FB	12	/* exact below 8192 cycles */

static inline void cpu_relax(void)
{
	__builtin_ia32_pause();
}

static bool engine_leaving(struct engine *e)
{
	return atomic_load_explicit(&e->stop, memory_order_relaxed) ||
	       atomic_load_explicit(&e->failed, memory_order_relaxed);
}

static int worker_fail(struct engine_worker *w, int err, const char *what)
{
	w->err = err;
	w->err_what = what;
	atomic_store(&w->e->failed, true);
	return err;
}

/* ---- --cache remote: other workers dirty their own counters ---- */

static void worker_serve_dirty(struct engine_worker *w)
{
	struct engine *e = w->e;
	uint64_t g = atomic_load_explicit(&e->dirty_gen, memory_order_acquire);
	void *obj;

	if (g == w->dirty_seen)
		return;
	w->dirty_seen = g;
	obj = atomic_load_explicit(&e->dirty_obj, memory_order_relaxed);
	/* what an interrupt on our CPU does: kstat_incr_irqs_this_cpu() */
	e->cfg.wl->obj_touch(pcpu_ptr(e->cfg.pcpu, obj, w->cpu));
	atomic_fetch_add_explicit(&e->dirty_acks, 1, memory_order_release);
}

static void worker_request_dirty(struct engine_worker *w, void *obj)
{
	struct engine *e = w->e;

	atomic_store_explicit(&e->dirty_acks, 0, memory_order_relaxed);
	atomic_store_explicit(&e->dirty_obj, obj, memory_order_relaxed);
	/* our own request: nothing for us to serve */
	w->dirty_seen = atomic_fetch_add_explicit(&e->dirty_gen, 1, memory_order_release) + 1;
	e->cfg.wl->obj_touch(pcpu_ptr(e->cfg.pcpu, obj, w->cpu));
	while (atomic_load_explicit(&e->dirty_acks, memory_order_acquire) <
	       e->nr_workers - 1 && !engine_leaving(e))
		cpu_relax();
}

/*
 * --cache kernel, serial: once per sample, while it waits for its turn, a
 * worker touches its own CPU's copy of a live neighbour of the last
 * sample's counter, as an interrupt on this CPU would. Nobody waits for
 * it, so some land inside another worker's timed window, as other CPUs'
 * interrupts do. A different word of the line: no data race.
 */
static void worker_dirty_neighbour(struct engine_worker *w, uint64_t turn)
{
	struct engine *e = w->e;
	void *last;

	if (!e->neighbours || turn == w->nb_turn)
		return;
	w->nb_turn = turn;
	last = atomic_load_explicit(&e->last_obj, memory_order_relaxed);
	if (last)
		e->cfg.wl->obj_touch(pcpu_ptr(e->cfg.pcpu, pcpu_neighbour(last), w->cpu));
}

/* ---- one sample ---- */

/*
 * The page whose offsets carry the plugin's marker arguments (ksb_mark.h):
 * read, never written, by the markers around every timed window.
 */
static char engine_mark_page[4096] __attribute__((aligned(4096)));

/*
 * One timed window of @region, variant @v (ENGINE_REFERENCE: the
 * reference loop). The plugin's markers (kmod/ksb_mark.h) stand outside
 * the stamps, so that the figure holds none of their instructions: a
 * load each when no plugin reads them.
 */
static uint64_t worker_time(struct engine_worker *w, void (*region)(void *),
			    void *priv, enum wl_variant v, bool *migrated)
{
	const struct engine_cfg *c = &w->e->cfg;
	const unsigned int arg =
		KSB_MARK_ARG(c->mark_tag, v == ENGINE_REFERENCE ? KSB_MARK_REF : (unsigned int)v);
	const bool tsc = c->tsc->usable;
	uint64_t t0, d;
	uint32_t aux = 0;

	KSB_MARK(engine_mark_page, KSB_MARK_BEGIN, KSB_MARK_RUN, arg);
	if (tsc && c->stamps == TSC_STAMPS_KSTATS) {
		t0 = tsc_rdtsc();
		region(priv);
		d = tsc_rdtsc() - t0;
	} else if (tsc) {
		t0 = tsc_start();
		region(priv);
		d = tsc_end(c->fence, &aux) - t0;
	} else {
		t0 = tsc_clock_ns();
		region(priv);
		d = tsc_clock_ns() - t0;
	}
	KSB_MARK(engine_mark_page, KSB_MARK_END, KSB_MARK_RUN, arg);
	if (tsc && w->aux_ok && c->stamps == TSC_STAMPS_FENCED)
		*migrated = (aux & 0xfff) != w->cpu;
	else
		*migrated = (unsigned int)sched_getcpu() != w->cpu;
	w->migrations += *migrated;
	/* overhead_median is in the clock's own unit, cycles or ns */
	if (c->subtract_overhead)
		d = d > w->overhead_median ? d - w->overhead_median : 0;
	return !tsc || c->cycles ? d : tsc_to_ns(c->tsc, d);
}

static int worker_sample(struct engine_worker *w, void *priv, enum wl_variant v)
{
	struct engine *e = w->e;
	const struct engine_cfg *c = &e->cfg;
	uint64_t d, csw = disturb_csw(), irqs = disturb_irq_count(&w->irq);
	bool migrated, disturbed;
	void *obj = NULL;
	int ret;

	ret = c->wl->prepare(priv, v, &obj);
	if (ret)
		return worker_fail(w, ret, "preparing a sample");
	if (c->cache == WL_CACHE_REMOTE && obj && c->wl->obj_touch)
		worker_request_dirty(w, obj);
	/* the region loaded before the start stamp: the window holds the call */
	pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
	d = worker_time(w, c->wl->sample[v], priv, v, &migrated);
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	c->wl->finish(priv, v);
	if (e->neighbours && obj)
		atomic_store_explicit(&e->last_obj, obj, memory_order_relaxed);
	/* interrupted or preempted between the two reads (disturb.h) */
	disturbed = migrated || (!c->wl->sleeps && disturb_csw() != csw) ||
		    (disturb_irq_counts(&w->irq) && disturb_irq_count(&w->irq) != irqs);
	w->disturbed[v] += disturbed;
	if (!disturbed || !c->drop_disturbed)
		kstats_hist_record(w->hist[v], d);
	w->done[v]++;
	atomic_store_explicit(&w->progress, w->done[WL_OLD] + w->done[WL_NEW],
			      memory_order_relaxed);
	return 0;
}

/*
 * One reference sample (ref.h): every line cold, then timed with the
 * same stamps as the workload's. Within the worker's turn in serial
 * mode, before the pair's prepare(), which sets the cache state again.
 */
static void worker_reference(struct engine_worker *w)
{
	bool migrated;

	ref_flush(w->ref_lines);
	kstats_hist_record(w->ref_hist,
			   worker_time(w, ref_region, w->ref_lines, ENGINE_REFERENCE, &migrated));
	w->migrations -= migrated;	/* "migrations" counts the workload's samples */
	/* written back now, not during the workload's next timed window */
	ref_flush(w->ref_lines);
}

/* ---- schedules ---- */

/*
 * ABBA per round: old,new then new,old, so that drift cancels; a
 * workload of one variant (@nv 1) has rounds of one sample, all old.
 */
static enum wl_variant worker_variant(uint64_t round, unsigned int k, unsigned int nv)
{
	return nv == 1 ? WL_OLD : (enum wl_variant)(k ^ (round & 1));
}

/*
 * Serial: global sample t belongs to pair t / nv (a pair of one sample
 * for a workload of one variant), and pair p to worker p % nr_workers.
 * A worker spins (pause) until the turn is its own, serving --cache
 * remote requests meanwhile; one sample runs at a time.
 */
static void worker_serial(struct engine_worker *w, void *priv)
{
	struct engine *e = w->e;
	uint64_t n = e->cfg.samples, nw = e->nr_workers, p, t, cur;
	unsigned int k, nv = wl_nr_variants(e->cfg.wl);

	for (p = w->idx; p < n; p += nw) {
		for (k = 0; k < nv; k++) {
			t = nv * p + k;
			while ((cur = atomic_load_explicit(&e->turn, memory_order_acquire)) != t) {
				if (engine_leaving(e))
					return;
				worker_serve_dirty(w);
				worker_dirty_neighbour(w, cur);
				cpu_relax();
			}
			if (engine_leaving(e))
				return;
			if (!k && w->ref_hist)
				worker_reference(w);
			if (worker_sample(w, priv, worker_variant(p / nw, k, nv)))
				return;
			atomic_store_explicit(&e->turn, t + 1, memory_order_release);
		}
	}
	if (e->cfg.cache != WL_CACHE_REMOTE)
		return;
	while (atomic_load_explicit(&e->turn, memory_order_acquire) < nv * n &&
	       !engine_leaving(e)) {
		worker_serve_dirty(w);
		cpu_relax();
	}
}

static void worker_parallel(struct engine_worker *w, void *priv)
{
	struct engine *e = w->e;
	uint64_t n = e->cfg.samples, nw = e->nr_workers, p;
	unsigned int k, nv = wl_nr_variants(e->cfg.wl);

	for (p = w->idx; p < n; p += nw) {
		if (w->ref_hist && !engine_leaving(e))
			worker_reference(w);
		for (k = 0; k < nv; k++)
			if (engine_leaving(e) ||
			    worker_sample(w, priv, worker_variant(p / nw, k, nv)))
				return;
	}
}

/* ---- worker life ---- */

/*
 * The empty region's cost on this CPU: min and median, in cycles (in ns
 * of clock_gettime() when the TSC is not usable).
 */
static int worker_overhead(struct engine_worker *w)
{
	struct kstats_hist *h = kstats_hist_create(ENGINE_OVERHEAD_FB);
	bool tsc = w->e->cfg.tsc->usable;
	uint64_t t0, t1;
	uint32_t aux = 0;
	unsigned int i;

	if (!h)
		return -ENOMEM;
	for (i = 0; i < ENGINE_OVERHEAD_SAMPLES; i++) {
		if (tsc && w->e->cfg.stamps == TSC_STAMPS_KSTATS) {
			t0 = tsc_rdtsc();
			t1 = tsc_rdtsc();
			aux = w->cpu;
		} else {
			t0 = tsc ? tsc_start() : tsc_clock_ns();
			t1 = tsc ? tsc_end(w->e->cfg.fence, &aux) : tsc_clock_ns();
		}
		kstats_hist_record(h, t1 - t0);
	}
	w->aux_ok = (aux & 0xfff) == w->cpu;
	w->overhead_min = kstats_hist_min(h);
	w->overhead_median = kstats_hist_value_at_percentile(h, 50);
	kstats_hist_free(h);
	return 0;
}

/* Wait at the gate; false when the run is called off. */
static bool worker_gate(struct engine *e)
{
	int gate;

	pthread_mutex_lock(&e->gate_lock);
	e->ready++;
	pthread_cond_broadcast(&e->gate_cond);
	while (!e->gate)
		pthread_cond_wait(&e->gate_cond, &e->gate_lock);
	gate = e->gate;
	pthread_mutex_unlock(&e->gate_lock);
	return gate > 0;
}

/* Everything a worker allocates, it allocates here: pinned, node-local. */
static int worker_setup(struct engine_worker *w, void **priv)
{
	const struct engine_cfg *c = &w->e->cfg;
	struct wl_env env = {
		.pcpu = c->pcpu,
		.node = c->topo->node,
		.nr_possible = c->topo->nr_possible,
		.cpu = w->cpu,
		.cache = c->cache,
		.worker_cpu = c->topo->worker_cpu,
		.nr_workers = c->topo->nr_workers,
	};
	unsigned int v;
	int ret;

	if ((unsigned int)sched_getcpu() != w->cpu)
		return worker_fail(w, -EPERM, "pinning the worker");
	/* a variant the workload does not time has no histogram (NULL) */
	for (v = 0; v < wl_nr_variants(c->wl); v++) {
		w->hist[v] = kstats_hist_create(c->frac_bits);
		if (!w->hist[v])
			return worker_fail(w, -ENOMEM, "allocating histograms");
	}
	if (w->e->ref) {
		w->ref_hist = kstats_hist_create(c->frac_bits);
		if (!w->ref_hist)
			return worker_fail(w, -ENOMEM, "allocating histograms");
		w->ref_lines = ref_lines(w->e->ref, w->idx);
		ref_region(w->ref_lines);	/* first touch, pinned: on our node */
	}
	if (worker_overhead(w))
		return worker_fail(w, -ENOMEM, "measuring the timer overhead");
	/* per sample only when a read is cheap (ENGINE_IRQ_READ_MAX_NS) */
	disturb_irq_open(&w->irq, w->cpu, ENGINE_IRQ_READ_MAX_NS);
	ret = c->wl->setup(&env, priv);
	if (ret)
		return worker_fail(w, ret, "setting up the workload");
	return 0;
}

static void *worker_main(void *arg)
{
	struct engine_worker *w = arg;
	struct engine *e = w->e;
	void *priv = NULL;
	int ret;

	/* cancelled only inside a sample, by engine_running()'s watchdog */
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	ret = worker_setup(w, &priv);
	if (!worker_gate(e))
		goto out_teardown;
	/* the start barrier: nobody samples while another still sets up */
	pthread_barrier_wait(&e->start);
	if (!ret && !engine_leaving(e)) {
		if (e->cfg.parallel)
			worker_parallel(w, priv);
		else
			worker_serial(w, priv);
	}
out_teardown:
	if (!ret)
		e->cfg.wl->teardown(priv);
	atomic_fetch_add(&e->finished, 1);
	atomic_store(&w->gone, true);
	return NULL;
}

/* ---- the engine ---- */

struct engine *engine_create(const struct engine_cfg *cfg)
{
	struct engine *e;
	unsigned int i;

	if (cfg->cache == WL_CACHE_REMOTE && cfg->parallel) {
		errno = EINVAL;
		return NULL;
	}
	e = aligned_alloc(64, (sizeof(*e) + 63) & ~(size_t)63);
	if (!e)
		return NULL;
	memset(e, 0, sizeof(*e));
	e->cfg = *cfg;
	e->nr_workers = cfg->topo->nr_workers;
	e->w = calloc(e->nr_workers, sizeof(*e->w));
	if (cfg->reference && e->w)
		e->ref = ref_create();
	if (!e->w || (cfg->reference && !e->ref)) {
		free(e->w);
		free(e);
		return NULL;
	}
	for (i = 0; i < e->nr_workers; i++) {
		e->w[i].idx = i;
		e->w[i].e = e;
		e->w[i].cpu = cfg->topo->worker_cpu[i];
		e->w[i].node = cfg->topo->node[e->w[i].cpu];
		disturb_irq_init(&e->w[i].irq);
	}
	e->neighbours = cfg->cache == WL_CACHE_KERNEL && !cfg->parallel &&
			!cfg->wl->no_remote && cfg->wl->obj_touch && e->nr_workers > 1;
	for (i = 0; i < e->nr_workers; i++)
		e->w[i].nb_turn = UINT64_MAX;
	pthread_mutex_init(&e->gate_lock, NULL);
	pthread_cond_init(&e->gate_cond, NULL);
	pthread_barrier_init(&e->start, NULL, e->nr_workers);
	return e;
}

static void engine_open_gate(struct engine *e, unsigned int nr_started, int gate)
{
	pthread_mutex_lock(&e->gate_lock);
	while (e->ready < nr_started)
		pthread_cond_wait(&e->gate_cond, &e->gate_lock);
	e->gate = gate;
	pthread_cond_broadcast(&e->gate_cond);
	pthread_mutex_unlock(&e->gate_lock);
}

static int engine_spawn(struct engine_worker *w)
{
	size_t sz = CPU_ALLOC_SIZE(w->cpu + 1);
	cpu_set_t *set = CPU_ALLOC(w->cpu + 1);
	pthread_attr_t attr;
	int ret;

	if (!set)
		return -ENOMEM;
	CPU_ZERO_S(sz, set);
	CPU_SET_S(w->cpu, sz, set);
	pthread_attr_init(&attr);
	/* pinned from its first instruction: first touch is node-local */
	ret = -pthread_attr_setaffinity_np(&attr, sz, set);
	if (!ret)
		ret = -pthread_create(&w->thread, &attr, worker_main, w);
	w->started = !ret;
	pthread_attr_destroy(&attr);
	CPU_FREE(set);
	return ret;
}

int engine_start(struct engine *e)
{
	const struct engine_cfg *c = &e->cfg;
	unsigned int i, lines;
	int ret = 0;

	/* live neighbours for every object that can be live at once */
	if (c->pcpu && c->wl->obj_size) {
		lines = c->wl->nr_live ? c->wl->nr_live() : ENGINE_LIVE_DEFAULT;
		lines += e->nr_workers + 1;
		if (lines > c->pcpu->unit_size / (4 * PCPU_LINE))
			lines = (unsigned int)(c->pcpu->unit_size / (4 * PCPU_LINE));
		e->packed_bytes = c->wl->obj_size();
		e->packed_lines = pcpu_pack(c->pcpu, lines, e->packed_bytes);
	}
	/* a neighbour is a live pack word only while every worker has a hole */
	if (e->packed_lines < e->nr_workers + 1)
		e->neighbours = false;

	for (i = 0; i < e->nr_workers && !ret; i++)
		ret = engine_spawn(&e->w[i]);
	if (ret) {
		engine_open_gate(e, i - 1, -1);
		engine_join(e);
		return ret;
	}
	engine_open_gate(e, e->nr_workers, 1);
	return 0;
}

void engine_stop(struct engine *e)
{
	atomic_store(&e->stop, true);
}

/*
 * The watchdog: armed by the first sample, it stops a run in which no
 * sample ended for ENGINE_STUCK_NS; ENGINE_GRACE_NS after any stop, a
 * worker still inside a sample is cancelled where it waits (a read(), an
 * open()), so that what the others measured is kept.
 */
bool engine_running(struct engine *e)
{
	uint64_t now = tsc_clock_ns(), n = engine_progress(e);
	unsigned int i;

	if (atomic_load(&e->finished) == e->nr_workers)
		return false;
	if (n != e->moved) {
		e->moved = n;
		e->moved_ns = now;
	}
	if (e->moved_ns && now - e->moved_ns > ENGINE_STUCK_NS && !atomic_load(&e->stop)) {
		e->stuck = true;
		engine_stop(e);
	}
	if (!atomic_load(&e->stop))
		return true;
	if (!e->stop_ns)
		e->stop_ns = now;
	if (now - e->stop_ns < ENGINE_GRACE_NS)
		return true;
	for (i = 0; i < e->nr_workers; i++)
		if (e->w[i].started && !atomic_load(&e->w[i].gone))
			pthread_cancel(e->w[i].thread);
	return false;
}

uint64_t engine_progress(struct engine *e)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < e->nr_workers; i++)
		n += atomic_load_explicit(&e->w[i].progress, memory_order_relaxed);
	return n;
}

int engine_join(struct engine *e)
{
	void *rv = NULL;
	unsigned int i;
	int ret = 0;

	for (i = 0; i < e->nr_workers; i++) {
		if (!e->w[i].started)
			continue;
		pthread_join(e->w[i].thread, &rv);
		e->w[i].started = false;
		if (rv == PTHREAD_CANCELED && e->stuck)
			worker_fail(&e->w[i], -ETIME, "a sample ran past the watchdog's 60 s");
		if (!ret)
			ret = e->w[i].err;
	}
	return ret;
}

const struct engine_cfg *engine_cfg(const struct engine *e)
{
	return &e->cfg;
}

unsigned int engine_nr_workers(const struct engine *e)
{
	return e->nr_workers;
}

const char *engine_reference(const struct engine *e)
{
	return e->ref ? ref_describe(e->ref) : NULL;
}

void engine_destroy(struct engine *e)
{
	unsigned int i, v;

	if (!e)
		return;
	for (i = 0; i < e->nr_workers; i++) {
		for (v = 0; v < WL_NR_VARIANTS; v++)
			kstats_hist_free(e->w[i].hist[v]);
		kstats_hist_free(e->w[i].ref_hist);
		disturb_irq_close(&e->w[i].irq);
	}
	ref_destroy(e->ref);
	pthread_barrier_destroy(&e->start);
	pthread_cond_destroy(&e->gate_cond);
	pthread_mutex_destroy(&e->gate_lock);
	free(e->w);
	free(e);
}
