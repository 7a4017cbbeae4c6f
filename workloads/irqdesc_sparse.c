// SPDX-License-Identifier: GPL-2.0
/*
 * irqdesc_sparse.c - the CONFIG_SPARSE_IRQ descriptor lifecycle, with
 * liburcu: RCU lookups from "interrupt" threads, frees through call_rcu.
 *
 * The measuring workers run the lifecycle the patch's saving lands in:
 *
 *	prepare:  free_desc() of this worker's oldest descriptor once it
 *		  holds its share of --live-irqs: remove from the table under
 *		  sparse_irq_lock, then call_rcu() frees it and its per-CPU
 *		  counters after a grace period; then alloc_desc(): kzalloc,
 *		  alloc_percpu (zeroed in every unit), an irq number
 *	sample:   desc_set_defaults(), old or new (timed)
 *	finish:   irq_insert_desc(): into the table, under sparse_irq_lock
 *
 * Interrupt threads (one per worker CPU, or --irq-threads), pinned to the
 * worker CPUs, loop: rcu_read_lock(), look up a random live irq,
 * increment its counter in their own CPU's unit, rcu_read_unlock(), at
 * --irq-rate lookups per second each. So the clearing loop's stores meet
 * per-CPU lines that other cores hold, and the per-CPU memory the
 * allocator hands out was last written by other CPUs.
 *
 * The table is liburcu's lock-free RCU hash table (cds_lfht), keyed by
 * irq: it is liburcu's own RCU lookup structure, so lookups, removal and
 * reclaim are the library's, as the kernel's are its maple tree's. It has
 * a fixed size (no auto-resize), so that the only synchronize_rcu() calls
 * are those of the call_rcu thread, one per batch of callbacks, which is
 * how grace periods are counted (liburcu 0.13 exposes no counter).
 *
 * Flavour: memb. Readers pay no memory barrier (membarrier does it for
 * the writer), as with qsbr, but no thread has to announce quiescent
 * states: a measuring worker spinning for its turn in serial mode can
 * never stall a grace period.
 *
 * Correctness: each freed descriptor's counters are summed in its RCU
 * callback, when no reader can touch them any more, and the live ones at
 * the end; the total must equal the increments the threads made.
 *
 * The C11 acquire/release pairs below (published, epoch) cost a plain
 * mov on x86; they state for ThreadSanitizer the orderings that
 * rcu_assign_pointer() and the grace period give, which it cannot see in
 * liburcu's assembly.
 */
#define _GNU_SOURCE
#define _LGPL_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <urcu/urcu-memb.h>
#include <urcu/rculfhash.h>

#include "lib/subcmd/options.h"
#include "lib/measure/pcpu.h"
#include "lib/measure/topo.h"
#include "irqdesc.h"

#define SPARSE_IRQ_BASE	32		/* first irq number handed out */

struct sparse_desc {
	struct irq_desc *desc;		/* the emulated descriptor */
	unsigned int irq;		/* its key */
	unsigned int slot;		/* its index in sparse.live[] */
	atomic_int published;		/* 1 once fully set up (release) */
	struct cds_lfht_node node;	/* in sparse.table */
	struct rcu_head rcu;		/* for call_rcu() */
};

struct sparse_irq_thread {
	pthread_t thread;		/* the thread */
	unsigned int cpu;		/* pinned here */
	unsigned int slot;		/* its CPU: the unit whose counters it bumps */
	uint64_t lookups;		/* lookups it made */
	uint64_t increments;		/* counters it bumped */
	atomic_ulong epoch;		/* stored at each read section's end (release) */
};

/* state shared by every worker; built by the first setup */
static struct sparse {
	pthread_mutex_t lock;		/* sparse_irq_lock: writers */
	unsigned int users;		/* workers set up, under init_lock */
	struct wl_env env;		/* the first worker's environment */
	struct cds_lfht *table;		/* live descriptors by irq */
	unsigned char *irq_used;	/* [nr_irqs] irq numbers taken, under lock */
	unsigned int nr_irqs;		/* irq number space */
	atomic_int *live;		/* [live_cap] irq per slot, -1 empty */
	unsigned int live_cap;		/* slots, the share of each worker summed */
	unsigned int next_slot;		/* first free slot range, under init_lock */
	struct sparse_irq_thread *irqt;	/* [nr_irqt] interrupt threads */
	unsigned int nr_irqt;		/* their number */
	atomic_bool stop;		/* interrupt threads: leave */
	struct timespec started;	/* when they started */
	double seconds;			/* how long they ran */
	atomic_ullong counted;		/* counter totals summed at reclaim */
	atomic_ullong deferred_frees;	/* RCU callbacks run */
	atomic_ulong gp_batches;	/* callback batches */
	unsigned long last_phase;	/* URCU_GP_CTR_PHASE seen by the last one */
	uint64_t lookups;		/* final totals, after the threads joined */
	uint64_t increments;
	int reconciled;			/* 1 yes, 0 no, -1 not yet checked */
} sparse = { .lock = PTHREAD_MUTEX_INITIALIZER, .reconciled = -1 };

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- its options: bench run parses them, the engine passes nothing ---- */

static struct sparse_opts {
	uint64_t irq_threads;		/* --irq-threads, 0: one per worker */
	uint64_t irq_rate;		/* --irq-rate, lookups/s per thread, 0: flat out */
	uint64_t live_irqs;		/* --live-irqs, descriptors live at once, at most */
} sparse_opt = {
	.irq_rate = 100000,		/* a busy device's interrupt rate */
	.live_irqs = 64,
};

static const struct opt sparse_options[] = {
	OPT_GROUP("irqdesc-sparse only:"),
	OPT_U64(0, "irq-threads", &sparse_opt.irq_threads, 1, NR_CPUS_MAX, "N",
		"interrupt threads, 1..possible CPUs (default: one\n"
		"per worker)"),
	OPT_U64(0, "irq-rate", &sparse_opt.irq_rate, 0, 100000000, "R",
		"lookups per second per thread, 0 = flat out\n"
		"(default 100000)"),
	OPT_U64(0, "live-irqs", &sparse_opt.live_irqs, 1, 65536, "N",
		"descriptors live at once, 1..65536 (default 64)"),
	OPT_END()
};

static const struct opt *const sparse_option_tables[] = {
	irqdesc_options, sparse_options, NULL,
};

static int sparse_check(unsigned int nr_possible, char *why, size_t len)
{
	/* each interrupt thread owns one possible CPU's counter */
	if (sparse_opt.irq_threads <= nr_possible)
		return 0;
	snprintf(why, len, "--irq-threads: %lu is more than the %u possible CPUs",
		 (unsigned long)sparse_opt.irq_threads, nr_possible);
	return -EINVAL;
}

/* every live descriptor's counter needs a packed neighbour line */
static unsigned int sparse_nr_live(void)
{
	return (unsigned int)sparse_opt.live_irqs;
}

/* ---- the table ---- */

static unsigned long sparse_hash(unsigned int irq)
{
	return (unsigned long)irq * 0x9e3779b97f4a7c15ul;
}

static int sparse_match(struct cds_lfht_node *node, const void *key)
{
	struct sparse_desc *sd = caa_container_of(node, struct sparse_desc, node);

	/* rcu_dereference(): see the descriptor as its writer left it */
	return atomic_load_explicit(&sd->published, memory_order_acquire) &&
	       sd->irq == *(const unsigned int *)key;
}

/* irq_to_desc(): call under rcu_read_lock() */
static struct sparse_desc *sparse_lookup(unsigned int irq)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;

	cds_lfht_lookup(sparse.table, sparse_hash(irq), sparse_match, &irq, &iter);
	node = cds_lfht_iter_get_node(&iter);
	return node ? caa_container_of(node, struct sparse_desc, node) : NULL;
}

/* every possible CPU's count: no reader may be left on @sd */
static uint64_t sparse_sum(const struct sparse_desc *sd)
{
	const struct irq_desc *d = sd->desc;
	uint64_t sum = 0;
	unsigned int cpu;

	for (cpu = 0; cpu < d->nr_possible; cpu++)
		sum += ((const struct irqstat *)pcpu_ptr(d->pcpu, d->kstat_irqs, cpu))->cnt;
	return sum;
}

/* ---- reclaim ---- */

static void sparse_release(struct sparse_desc *sd)
{
	pcpu_free(sd->desc->pcpu, sd->desc->kstat_irqs, sd->desc->irqstat_size);
	irqdesc_free(sd->desc);
	free(sd);
}

/* delayed_free_desc(): after a grace period, on the call_rcu thread */
static void sparse_free_rcu(struct rcu_head *head)
{
	struct sparse_desc *sd = caa_container_of(head, struct sparse_desc, rcu);
	unsigned long phase = CMM_LOAD_SHARED(urcu_memb_gp.ctr) & URCU_GP_CTR_PHASE;
	unsigned int i;

	/* pairs with the release in sparse_free_desc(): call_rcu's queue */
	atomic_load_explicit(&sd->published, memory_order_acquire);
	/* one synchronize_rcu() per batch flips the phase once */
	if (phase != sparse.last_phase || !atomic_load(&sparse.gp_batches))
		atomic_fetch_add(&sparse.gp_batches, 1);
	sparse.last_phase = phase;
	/* the grace period has ordered every reader's increment before us */
	for (i = 0; i < sparse.nr_irqt; i++)
		atomic_load_explicit(&sparse.irqt[i].epoch, memory_order_acquire);
	atomic_fetch_add(&sparse.counted, sparse_sum(sd));
	atomic_fetch_add(&sparse.deferred_frees, 1);
	sparse_release(sd);
}

/* free_desc(): out of the table now, freed after a grace period */
static void sparse_free_desc(struct sparse_desc *sd)
{
	pthread_mutex_lock(&sparse.lock);
	atomic_store(&sparse.live[sd->slot], -1);
	urcu_memb_read_lock();
	cds_lfht_del(sparse.table, &sd->node);
	urcu_memb_read_unlock();
	sparse.irq_used[sd->irq - SPARSE_IRQ_BASE] = 0;
	pthread_mutex_unlock(&sparse.lock);
	/* unpublished: a reader that still reaches the node skips it */
	atomic_store_explicit(&sd->published, 0, memory_order_release);
	urcu_memb_call_rcu(&sd->rcu, sparse_free_rcu);
}

/* ---- interrupt threads ---- */

/* one interrupt: a live irq, its descriptor under RCU, our CPU's counter */
static void sparse_interrupt(struct sparse_irq_thread *t, uint64_t *rnd)
{
	struct sparse_desc *sd;
	int irq;

	*rnd ^= *rnd << 13;
	*rnd ^= *rnd >> 7;
	*rnd ^= *rnd << 17;
	irq = atomic_load_explicit(&sparse.live[*rnd % sparse.live_cap],
				   memory_order_relaxed);
	if (irq < 0)
		return;
	urcu_memb_read_lock();
	sd = sparse_lookup((unsigned int)irq);
	t->lookups++;
	if (sd) {
		/*
		 * kstat_incr_irqs_this_cpu(): this_cpu_inc() is one instruction,
		 * so atomic against other threads on the same CPU; the relaxed
		 * atomic says so when several interrupt threads share a CPU.
		 */
		__atomic_fetch_add(&((struct irqstat *)pcpu_ptr(sd->desc->pcpu,
				   sd->desc->kstat_irqs, t->slot))->cnt, 1, __ATOMIC_RELAXED);
		t->increments++;
	}
	/* everything this section read or wrote happens before its end */
	atomic_store_explicit(&t->epoch, t->lookups, memory_order_release);
	urcu_memb_read_unlock();
}

static void timespec_add_ns(struct timespec *ts, uint64_t ns)
{
	ts->tv_nsec += (long)(ns % 1000000000u);
	ts->tv_sec += (time_t)(ns / 1000000000u) + ts->tv_nsec / 1000000000;
	ts->tv_nsec %= 1000000000;
}

/*
 * --irq-rate R: R / 1000 interrupts every millisecond (or one every 1/R s
 * below 1000/s), sleeping on an absolute clock between bursts; 0: no
 * sleep at all.
 */
static void *sparse_irq_main(void *arg)
{
	struct sparse_irq_thread *t = arg;
	unsigned long rate = (unsigned long)sparse_opt.irq_rate;
	uint64_t rnd = 0x9e3779b97f4a7c15ull ^ ((uint64_t)(t - sparse.irqt) << 32 | 1);
	uint64_t tick = rate >= 1000 ? 1000000 : rate ? 1000000000 / rate : 0;
	unsigned long burst = rate >= 1000 ? rate / 1000 : rate ? 1 : 64, i;
	struct timespec next;

	urcu_memb_register_thread();
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!atomic_load_explicit(&sparse.stop, memory_order_relaxed)) {
		for (i = 0; i < burst; i++)
			sparse_interrupt(t, &rnd);
		if (!tick)
			continue;
		timespec_add_ns(&next, tick);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	urcu_memb_unregister_thread();
	return NULL;
}

static int sparse_start_irq_threads(const struct wl_env *env)
{
	unsigned int i, n = sparse_opt.irq_threads ? (unsigned int)sparse_opt.irq_threads :
						       env->nr_workers;
	pthread_attr_t attr;
	cpu_set_t *set;
	size_t sz;
	int ret = 0;

	sparse.irqt = calloc(n, sizeof(*sparse.irqt));
	if (!sparse.irqt)
		return -ENOMEM;
	clock_gettime(CLOCK_MONOTONIC, &sparse.started);
	for (i = 0; i < n && !ret; i++) {
		struct sparse_irq_thread *t = &sparse.irqt[i];

		t->cpu = env->worker_cpu[i % env->nr_workers];
		t->slot = t->cpu;	/* this_cpu: the CPU it runs on */
		/* a cpu_set_t of its own size: a fixed one ends at CPU 1023 */
		set = CPU_ALLOC(t->cpu + 1);
		if (!set)
			return -ENOMEM;
		sz = CPU_ALLOC_SIZE(t->cpu + 1);
		CPU_ZERO_S(sz, set);
		CPU_SET_S(t->cpu, sz, set);
		pthread_attr_init(&attr);
		ret = -pthread_attr_setaffinity_np(&attr, sz, set);
		if (!ret)
			ret = -pthread_create(&t->thread, &attr, sparse_irq_main, t);
		pthread_attr_destroy(&attr);
		CPU_FREE(set);
		if (!ret)
			sparse.nr_irqt++;
	}
	return ret;
}

static void sparse_stop_irq_threads(void)
{
	struct timespec now;
	unsigned int i;

	atomic_store(&sparse.stop, true);
	for (i = 0; i < sparse.nr_irqt; i++) {
		pthread_join(sparse.irqt[i].thread, NULL);
		sparse.lookups += sparse.irqt[i].lookups;
		sparse.increments += sparse.irqt[i].increments;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	sparse.seconds = (double)(now.tv_sec - sparse.started.tv_sec) +
			 (double)(now.tv_nsec - sparse.started.tv_nsec) / 1e9;
}

/* ---- shared state: the first setup builds it, the last teardown ends it ---- */

/* the table, the irq numbers and the live slots, without the threads */
static int sparse_init_table(const struct wl_env *env)
{
	unsigned int i, buckets = 1, live = (unsigned int)sparse_opt.live_irqs;

	memset(&sparse.env, 0, sizeof(sparse.env));
	sparse.env = *env;
	sparse.live_cap = live > env->nr_workers ? live : env->nr_workers;
	sparse.nr_irqs = 2 * sparse.live_cap;
	sparse.next_slot = 0;
	sparse.nr_irqt = 0;
	sparse.lookups = sparse.increments = 0;
	atomic_store(&sparse.gp_batches, 0);
	sparse.reconciled = -1;
	atomic_store(&sparse.stop, false);
	atomic_store(&sparse.counted, 0);
	atomic_store(&sparse.deferred_frees, 0);
	while (buckets < sparse.nr_irqs)
		buckets <<= 1;
	/* fixed size: a resize would add synchronize_rcu() calls of its own */
	sparse.table = cds_lfht_new_flavor(buckets, buckets, buckets, 0,
					   &urcu_memb_flavor, NULL);
	sparse.irq_used = calloc(sparse.nr_irqs, 1);
	sparse.live = calloc(sparse.live_cap, sizeof(*sparse.live));
	if (!sparse.table || !sparse.irq_used || !sparse.live)
		return -ENOMEM;
	for (i = 0; i < sparse.live_cap; i++)
		atomic_init(&sparse.live[i], -1);
	return 0;
}

static int sparse_init(const struct wl_env *env)
{
	int ret = sparse_init_table(env);

	return ret ? ret : sparse_start_irq_threads(env);
}

/* every worker is gone: stop the interrupts, drain RCU, reconcile */
static void sparse_fini(void)
{
	sparse_stop_irq_threads();
	urcu_memb_barrier();	/* every call_rcu() callback has run */
	sparse.reconciled = atomic_load(&sparse.counted) == sparse.increments;
	if (sparse.table)
		cds_lfht_destroy(sparse.table, NULL);
	sparse.table = NULL;
	free(sparse.irq_used);
	free(sparse.live);
	free(sparse.irqt);
	sparse.irq_used = NULL;
	sparse.live = NULL;
	sparse.irqt = NULL;
}

/* ---- one measuring worker ---- */

struct sparse_worker {
	struct wl_env env;		/* this worker's environment */
	struct sparse_desc **ring;	/* [cap] its live descriptors, FIFO */
	unsigned int cap;		/* its share of --live-irqs */
	unsigned int head;		/* oldest in ring */
	unsigned int n;			/* live in ring */
	unsigned int slot_base;		/* its range of sparse.live[] */
	struct sparse_desc *cur;	/* allocated, not yet inserted */
};

static unsigned int sparse_share(const struct wl_env *env)
{
	unsigned int idx = 0, share, live = (unsigned int)sparse_opt.live_irqs;

	while (idx < env->nr_workers && env->worker_cpu[idx] != env->cpu)
		idx++;
	share = live / env->nr_workers + (idx < live % env->nr_workers);
	return share ? share : 1;
}

static int sparse_setup(const struct wl_env *env, void **priv)
{
	struct sparse_worker *w = calloc(1, sizeof(*w));
	int ret = 0;

	if (!w)
		return -ENOMEM;
	w->env = *env;
	w->cap = sparse_share(env);
	w->ring = calloc(w->cap, sizeof(*w->ring));
	/* registered first: sparse_fini() below destroys the table */
	urcu_memb_register_thread();
	pthread_mutex_lock(&init_lock);
	if (!w->ring)
		ret = -ENOMEM;
	else if (!sparse.users && (ret = sparse_init(env)))
		sparse_fini();	/* undo what the failed init made */
	if (!ret) {
		sparse.users++;
		w->slot_base = sparse.next_slot;
		sparse.next_slot += w->cap;
	}
	pthread_mutex_unlock(&init_lock);
	if (ret) {
		urcu_memb_unregister_thread();
		free(w->ring);
		free(w);
		return ret;
	}
	*priv = w;
	return 0;
}

/* alloc_desc(): kzalloc, alloc_percpu, an irq number */
static int sparse_alloc_desc(struct sparse_worker *w, unsigned int slot)
{
	struct sparse_desc *sd = calloc(1, sizeof(*sd));
	unsigned int i;

	if (!sd)
		return -ENOMEM;
	sd->desc = irqdesc_alloc(&w->env);
	if (sd->desc)
		sd->desc->kstat_irqs = pcpu_alloc(w->env.pcpu, sd->desc->irqstat_size,
						  sd->desc->irqstat_size);
	if (!sd->desc || !sd->desc->kstat_irqs) {
		irqdesc_free(sd->desc);
		free(sd);
		return -ENOMEM;
	}
	sd->desc->irq_common_data.node = (unsigned int)w->env.node[w->env.cpu];
	sd->slot = slot;
	pthread_mutex_lock(&sparse.lock);
	for (i = 0; sparse.irq_used[i]; i++)
		;	/* at most live_cap of 2 * live_cap are taken */
	sparse.irq_used[i] = 1;
	pthread_mutex_unlock(&sparse.lock);
	sd->irq = SPARSE_IRQ_BASE + i;
	w->cur = sd;
	return 0;
}

static int sparse_prepare(void *priv, enum wl_variant v, void **obj)
{
	struct sparse_worker *w = priv;
	int ret;

	(void)v;
	if (w->n == w->cap) {
		sparse_free_desc(w->ring[w->head]);
		w->head = (w->head + 1) % w->cap;
		w->n--;
	}
	ret = sparse_alloc_desc(w, w->slot_base + (w->head + w->n) % w->cap);
	if (ret)
		return ret;
	if (w->env.cache == WL_CACHE_COLD)
		irqdesc_flush(w->cur->desc);
	*obj = w->cur->desc->kstat_irqs;
	return 0;
}

static void sparse_old(void *priv)
{
	struct sparse_worker *w = priv;

	irqdesc_set_defaults_old(w->cur->irq, w->cur->desc);
}

static void sparse_new(void *priv)
{
	struct sparse_worker *w = priv;

	irqdesc_set_defaults_new(w->cur->irq, w->cur->desc);
}

/* irq_insert_desc(): published, then visible to the interrupt threads */
static void sparse_finish(void *priv, enum wl_variant v)
{
	struct sparse_worker *w = priv;
	struct sparse_desc *sd = w->cur;

	(void)v;
	cds_lfht_node_init(&sd->node);
	atomic_store_explicit(&sd->published, 1, memory_order_release);
	pthread_mutex_lock(&sparse.lock);
	urcu_memb_read_lock();
	cds_lfht_add(sparse.table, sparse_hash(sd->irq), &sd->node);
	urcu_memb_read_unlock();
	atomic_store(&sparse.live[sd->slot], (int)sd->irq);
	pthread_mutex_unlock(&sparse.lock);
	w->ring[(w->head + w->n) % w->cap] = sd;
	w->n++;
	w->cur = NULL;
}

static void sparse_teardown(void *priv)
{
	struct sparse_worker *w = priv;

	for (; w->n; w->n--, w->head = (w->head + 1) % w->cap)
		sparse_free_desc(w->ring[w->head]);
	if (w->cur) {
		pthread_mutex_lock(&sparse.lock);
		sparse.irq_used[w->cur->irq - SPARSE_IRQ_BASE] = 0;
		pthread_mutex_unlock(&sparse.lock);
		sparse_release(w->cur);
	}
	pthread_mutex_lock(&init_lock);
	if (!--sparse.users)
		sparse_fini();
	pthread_mutex_unlock(&init_lock);
	urcu_memb_unregister_thread();
	free(w->ring);
	free(w);
}

static void __attribute__((format(printf, 5, 6)))
sparse_stat(struct wl_stat *st, unsigned int *n, unsigned int max,
	    const char *key, const char *fmt, ...)
{
	va_list ap;

	if (*n >= max)
		return;
	st[*n].key = key;
	va_start(ap, fmt);
	vsnprintf(st[*n].val, sizeof(st[*n].val), fmt, ap);
	va_end(ap);
	++*n;
}

static unsigned int sparse_stats(struct wl_stat *st, unsigned int max, int *err)
{
	unsigned long long counted = atomic_load(&sparse.counted);
	double secs = sparse.seconds > 0 ? sparse.seconds : 1;
	unsigned int n = irqdesc_stats(st, max, err);

	sparse_stat(st, &n, max, "rcu_flavor", "memb (liburcu, membarrier readers)");
	sparse_stat(st, &n, max, "rcu_table", "cds_lfht, %u buckets, fixed", sparse.nr_irqs);
	sparse_stat(st, &n, max, "rcu_lookups", "%lu", (unsigned long)sparse.lookups);
	sparse_stat(st, &n, max, "rcu_deferred_frees", "%llu",
		    (unsigned long long)atomic_load(&sparse.deferred_frees));
	sparse_stat(st, &n, max, "grace_periods", "%lu (call_rcu batches, one synchronize_rcu each)",
		    (unsigned long)atomic_load(&sparse.gp_batches));
	sparse_stat(st, &n, max, "irq_threads", "%u", sparse.nr_irqt);
	sparse_stat(st, &n, max, "irq_rate_achieved", "%.0f lookups/s per thread (asked %lu, 0 = flat out)",
		    sparse.nr_irqt ? (double)sparse.lookups / secs / sparse.nr_irqt : 0.0,
		    (unsigned long)sparse_opt.irq_rate);
	sparse_stat(st, &n, max, "live_irqs", "%u", sparse.live_cap);
	sparse_stat(st, &n, max, "counters_reconciled", "%s (%lu increments, %llu counted at reclaim)",
		    sparse.reconciled == 1 ? "yes" : "NO", (unsigned long)sparse.increments, counted);
	*err = sparse.reconciled == 1 ? 0 : -EIO;
	return n;
}

const struct workload wl_irqdesc_sparse = {
	.name = "irqdesc-sparse",
	.summary = "the sparse-IRQ lifecycle with liburcu: RCU lookups, call_rcu frees",
	.label = IRQDESC_LABELS,
	.variant = {
		"desc_set_defaults() with the clear, interrupt threads reading under RCU",
		"desc_set_defaults() without it, the same lifecycle around it",
	},
	.setup = sparse_setup,
	.prepare = sparse_prepare,
	.sample = { sparse_old, sparse_new },
	.finish = sparse_finish,
	.teardown = sparse_teardown,
	.stats = sparse_stats,
	.options = sparse_option_tables,
	.obj_size = irqdesc_irqstat_size,
	.check = sparse_check,
	.nr_live = sparse_nr_live,
	.no_remote = true,
};
