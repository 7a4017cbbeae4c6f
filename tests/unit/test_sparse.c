// SPDX-License-Identifier: GPL-2.0
/*
 * test_sparse.c - irqdesc-sparse: the RCU table, the reclaim path (a
 * descriptor is freed only after its readers have left) and the counter
 * reconciliation. Includes the workload's source to reach its statics.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#define _LGPL_SOURCE
#include <pthread.h>
#include <urcu/urcu-memb.h>
#include <urcu/rculfhash.h>

/*
 * cds_lfht_destroy() as the workload calls it, counting the calls from a
 * thread not registered with RCU (rculfhash.h requires registration
 * before liburcu 0.10).
 */
static int destroy_unregistered;

static int checked_lfht_destroy(struct cds_lfht *ht, pthread_attr_t **attr)
{
	destroy_unregistered += !URCU_TLS(urcu_memb_reader).registered;
	return cds_lfht_destroy(ht, attr);
}
#define cds_lfht_destroy checked_lfht_destroy

/* this copy's one global is renamed: the library's copy links too */
#define wl_irqdesc_sparse wl_irqdesc_sparse_under_test
#include "workloads/irqdesc_sparse.c"

#define UNITS	16

static struct pcpu *pc;
static int node[UNITS];
static unsigned int cpus[1];

/* the workload's own options, as bench run would have parsed them */
static struct wl_env test_env(unsigned int live, unsigned int irq_threads,
			      unsigned long rate)
{
	struct wl_env env = {
		.pcpu = pc, .node = node, .nr_possible = UNITS,
		.cpu = cpus[0], .cache = WL_CACHE_KERNEL,
		.worker_cpu = cpus, .nr_workers = 1,
	};

	sparse_opt.live_irqs = live;
	sparse_opt.irq_threads = irq_threads;
	sparse_opt.irq_rate = rate;
	return env;
}

static int group_setup(void **state)
{
	(void)state;
	cpus[0] = (unsigned int)sched_getcpu();
	/* room for the callbacks to lag: 16K counters per unit */
	pc = pcpu_create(UNITS, 65536, node, false, false);
	return pc ? 0 : -1;
}

static int group_teardown(void **state)
{
	(void)state;
	pcpu_destroy(pc);
	return 0;
}

/* one descriptor through alloc, set_defaults and insert */
static struct sparse_desc *add_one(struct sparse_worker *w)
{
	struct sparse_desc *sd;

	assert_int_equal(sparse_alloc_desc(w, w->slot_base + (w->head + w->n) % w->cap), 0);
	sd = w->cur;
	irqdesc_set_defaults_new(sd->irq, sd->desc);
	sparse_finish(w, WL_NEW);
	return sd;
}

static void test_table_lookup_insert_remove(void **state)
{
	struct wl_env env = test_env(8, 1, 1);
	struct sparse_worker w = { .env = env, .cap = 8 };
	struct sparse_desc *sd[8];
	unsigned int i;

	(void)state;
	urcu_memb_register_thread();
	w.ring = calloc(8, sizeof(*w.ring));
	assert_int_equal(sparse_init_table(&env), 0);
	for (i = 0; i < 8; i++)
		sd[i] = add_one(&w);
	urcu_memb_read_lock();
	for (i = 0; i < 8; i++) {
		assert_ptr_equal(sparse_lookup(sd[i]->irq), sd[i]);
		assert_int_equal(atomic_load(&sparse.live[sd[i]->slot]), (int)sd[i]->irq);
	}
	assert_null(sparse_lookup(SPARSE_IRQ_BASE + 1000));
	urcu_memb_read_unlock();
	/* irq numbers are distinct and recycled once freed */
	for (i = 1; i < 8; i++)
		assert_true(sd[i]->irq != sd[i - 1]->irq);
	sparse_free_desc(sd[3]);
	urcu_memb_read_lock();
	assert_null(sparse_lookup(sd[3]->irq));
	urcu_memb_read_unlock();
	for (i = 0; i < 8; i++)
		if (i != 3)
			sparse_free_desc(sd[i]);
	urcu_memb_barrier();
	assert_int_equal(atomic_load(&sparse.deferred_frees), 8);
	sparse_fini();
	free(w.ring);
	urcu_memb_unregister_thread();
}

/* ---- a reader that holds a descriptor until told to let go ---- */

static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int stage;			/* 1 holding, 2 let go */
	unsigned int irq;		/* what to look up */
	unsigned int seen;		/* irq read through the pointer at the end */
} rd = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0 };

static void rd_set(int stage)
{
	pthread_mutex_lock(&rd.lock);
	rd.stage = stage;
	pthread_cond_broadcast(&rd.cond);
	pthread_mutex_unlock(&rd.lock);
}

static void rd_wait(int stage)
{
	pthread_mutex_lock(&rd.lock);
	while (rd.stage < stage)
		pthread_cond_wait(&rd.cond, &rd.lock);
	pthread_mutex_unlock(&rd.lock);
}

static void *reader(void *arg)
{
	struct sparse_desc *sd;

	(void)arg;
	urcu_memb_register_thread();
	urcu_memb_read_lock();
	sd = sparse_lookup(rd.irq);
	rd_set(1);
	rd_wait(2);
	/* under ASan, a use after free here fails the test */
	rd.seen = sd ? sd->irq + sd->desc->depth * 0 : 0;
	urcu_memb_read_unlock();
	urcu_memb_unregister_thread();
	return NULL;
}

/*
 * Until @done() holds, yielding; a test fails rather than hang when it
 * never does (60 s, a bound on a bug, not a measurement).
 */
static void wait_until(bool (*done)(void), const char *what)
{
	time_t end = time(NULL) + 60;

	while (!done()) {
		if (time(NULL) > end)
			fail_msg("never happened: %s", what);
		sched_yield();
	}
}

/*
 * A grace period is blocked on a reader: liburcu's writer, after its
 * busy-wait, sets the futex to -1 and sleeps until a reader's unlock
 * wakes it (urcu/static/urcu-common.h). The only writer here is the
 * call_rcu thread, the only reader the test's.
 */
static bool gp_waits_on_reader(void)
{
	return uatomic_read(&urcu_memb_gp.futex) == -1;
}

static void test_reclaim_waits_for_readers(void **state)
{
	struct wl_env env = test_env(4, 1, 1);
	struct sparse_worker w = { .env = env, .cap = 4 };
	struct sparse_desc *sd;
	pthread_t t;

	(void)state;
	urcu_memb_register_thread();
	w.ring = calloc(4, sizeof(*w.ring));
	assert_int_equal(sparse_init_table(&env), 0);
	sd = add_one(&w);
	rd.irq = sd->irq;
	rd.stage = 0;
	assert_int_equal(pthread_create(&t, NULL, reader, NULL), 0);
	rd_wait(1);
	sparse_free_desc(sd);		/* out of the table, call_rcu() */
	/* the call_rcu thread took it and its grace period waits on us */
	wait_until(gp_waits_on_reader, "a grace period waiting on the reader");
	/* the reader is still inside its read-side section: not freed */
	assert_int_equal(atomic_load(&sparse.deferred_frees), 0);
	rd_set(2);
	pthread_join(t, NULL);
	urcu_memb_barrier();
	assert_int_equal(atomic_load(&sparse.deferred_frees), 1);
	assert_int_equal(rd.seen, rd.irq);
	assert_true(atomic_load(&sparse.gp_batches) >= 1);
	sparse_fini();
	free(w.ring);
	urcu_memb_unregister_thread();
}

/* each interrupt thread's epoch (its lookups) when the wait began */
static unsigned long irq_seen[8];

/* every interrupt thread made a lookup since */

static bool irqs_moved(void)
{
	unsigned int i;
	unsigned long e;

	for (i = 0; i < sparse.nr_irqt; i++) {
		e = atomic_load_explicit(&sparse.irqt[i].epoch, memory_order_acquire);
		if (e == irq_seen[i])
			return false;
	}
	return true;
}

/* the whole workload, interrupt threads flat out: nothing lost */
static void test_reconciliation(void **state)
{
	struct wl_env env = test_env(8, 2, 0);
	const struct workload *wl = &wl_irqdesc_sparse;
	struct wl_stat st[16];
	unsigned int i, t, n;
	void *priv, *obj;
	int err = 1;

	(void)state;
	assert_int_equal(wl->setup(&env, &priv), 0);
	assert_int_equal(sparse.nr_irqt, 2);
	for (i = 0; i < 2000; i++) {
		assert_int_equal(wl->prepare(priv, i & 1, &obj), 0);
		wl->sample[i & 1](priv);
		wl->finish(priv, i & 1);
		if (i % 100)
			continue;
		/* let the interrupts in: each thread looks up between two batches */
		for (t = 0; t < sparse.nr_irqt; t++)
			irq_seen[t] = atomic_load(&sparse.irqt[t].epoch);
		wait_until(irqs_moved, "a lookup by every interrupt thread");
	}
	wl->teardown(priv);
	n = wl->stats(st, 16, &err);
	assert_int_equal(err, 0);
	assert_int_equal(sparse.reconciled, 1);
	assert_true(sparse.increments > 0);
	assert_true(atomic_load(&sparse.counted) == sparse.increments);
	/* 2000 allocated, all freed through call_rcu by the end */
	assert_int_equal(atomic_load(&sparse.deferred_frees), 2000);
	for (i = 0; i < n; i++)
		if (!strcmp(st[i].key, "counters_reconciled"))
			assert_true(!strncmp(st[i].val, "yes (", 5));
}

/*
 * A setup that fails after the table exists (an interrupt thread cannot
 * start: its CPU does not exist) undoes it from a registered thread, and
 * leaves the thread unregistered.
 */
static void test_failed_setup_cleans_up_registered(void **state)
{
	struct wl_env env = test_env(8, 1, 0);
	unsigned int nowhere[1] = { CPU_SETSIZE - 1 };
	void *priv = NULL;

	(void)state;
	if (sysconf(_SC_NPROCESSORS_CONF) >= CPU_SETSIZE)
		skip();
	env.worker_cpu = nowhere;
	env.cpu = nowhere[0];
	destroy_unregistered = 0;
	assert_int_equal(URCU_TLS(urcu_memb_reader).registered, 0);
	assert_int_equal(wl_irqdesc_sparse.setup(&env, &priv), -EINVAL);
	assert_null(priv);
	assert_null(sparse.table);
	assert_int_equal(sparse.users, 0);
	assert_int_equal(destroy_unregistered, 0);
	assert_int_equal(URCU_TLS(urcu_memb_reader).registered, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_lookup_insert_remove),
		cmocka_unit_test(test_reclaim_waits_for_readers),
		cmocka_unit_test(test_reconciliation),
		cmocka_unit_test(test_failed_setup_cleans_up_registered),
	};

	return cmocka_run_group_tests_name("sparse", tests, group_setup, group_teardown);
}
