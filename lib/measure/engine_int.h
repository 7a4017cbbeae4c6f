/* SPDX-License-Identifier: GPL-2.0 */
/*
 * engine_int.h - the engine's own structures, shared by engine.c (the
 * run) and engine_results.c (reading a finished one). No other file
 * includes it: struct engine is opaque everywhere else (engine.h).
 */
#ifndef KSB_ENGINE_INT_H
#define KSB_ENGINE_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "lib/measure/disturb.h"
#include "lib/measure/engine.h"

struct engine_worker {
	unsigned int idx;		/* position among the workers */
	unsigned int cpu;		/* pinned CPU */
	int node;			/* its node */
	struct engine *e;		/* back pointer */
	pthread_t thread;		/* the worker thread */
	bool started;			/* thread created */
	struct kstats_hist *hist[WL_NR_VARIANTS]; /* samples, unit of the run */
	uint64_t done[WL_NR_VARIANTS];	/* samples taken per variant */
	/*
	 * samples so far, both variants: stored by this worker alone, read
	 * by engine_progress(). Per worker, so that no line is shared by
	 * every worker on every sample (--mode parallel on a big host).
	 */
	atomic_uint_fast64_t progress;
	uint64_t migrations;		/* samples that ended on another CPU */
	uint64_t disturbed[WL_NR_VARIANTS]; /* samples interrupted or preempted */
	struct kstats_hist *ref_hist;	/* reference samples (ref.h), unit of the run */
	void *ref_lines;		/* this worker's lines of the reference area */
	struct disturb_irq irq;		/* our CPU's interrupts (disturb.h) */
	uint64_t overhead_min;		/* empty region: min, cycles (ns without TSC) */
	uint64_t overhead_median;	/* empty region: median, same unit */
	bool aux_ok;			/* TSC_AUX names our CPU: check per sample */
	uint64_t dirty_seen;		/* remote: last request served */
	uint64_t nb_turn;		/* kernel: turn whose neighbour we dirtied */
	int err;			/* -errno if the worker failed */
	const char *err_what;		/* what failed */
	atomic_bool gone;		/* worker_main() returned */
};

/* the run: struct engine stays opaque to every other file */
struct engine {
	struct engine_cfg cfg;		/* copied at create */
	unsigned int nr_workers;	/* threads */
	struct engine_worker *w;	/* [nr_workers] */
	pthread_mutex_t gate_lock;	/* protects ready and gate */
	pthread_cond_t gate_cond;	/* signals ready and gate changes */
	unsigned int ready;		/* workers waiting at the gate */
	int gate;			/* 0 closed, 1 go, -1 abort */
	pthread_barrier_t start;	/* every worker set up, then go */
	atomic_bool failed;		/* a worker failed: everyone leaves */
	atomic_bool stop;		/* engine_stop() was called */
	/* each shared word on its own line: waiters spin on them */
	_Alignas(64) atomic_uint_fast64_t turn;	/* serial: next global sample */
	atomic_uint finished;		/* workers done sampling */
	_Alignas(64) atomic_uint_fast64_t dirty_gen; /* remote: request number */
	void *_Atomic dirty_obj;	/* remote: per-CPU object to dirty */
	atomic_uint dirty_acks;		/* remote: workers that did */
	void *_Atomic last_obj;		/* kernel: the last sample's object */
	bool neighbours;		/* kernel, serial: dirty neighbours */
	unsigned int packed_lines;	/* lines pcpu_pack() filled */
	unsigned int packed_bytes;	/* their holes' size, wl->obj_size() */
	struct ref *ref;		/* the reference area, NULL without cfg.reference */
	/* the watchdog, engine_running()'s: the main thread's alone */
	uint64_t moved, moved_ns, stop_ns; /* progress last seen, when; stop seen */
	bool stuck;			/* no sample ended in ENGINE_STUCK_NS */
};

#endif /* KSB_ENGINE_INT_H */
