/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ref.h - the run's reference: a fixed loop of cold stores, timed beside
 * the workload, that tells how fast this machine's memory system was
 * during the run, so that bench compare can take the machine's drift out
 * of a run's figure.
 *
 * Why: on a shared VM the cost of the old path (one cold store into each
 * possible CPU's unit) drifts by 10-30% over tens of seconds with the
 * host's memory traffic, and moves every sample of a run together; that
 * run-to-run spread, not the code, decides what the gate can see. A loop
 * of REF_LINES cold 4-byte stores, REF_STRIDE bytes apart, each line on a
 * 4 KiB page of its own (so that a run's physical placement averages out
 * over 512 pages), timed before each old/new pair in the same process,
 * drifts with it: per run, at 480 possible CPUs, --cache cold, on
 * xeon-vm, the old path's 10% trimmed mean and
 * the loop's correlate at 0.6-0.9, and the old path's share of the
 * loop's movement (cmp_ref_share()) came out 0.4-1.0, the new path's
 * 0-0.5. The loop depends on nothing the workload or its options change,
 * so a change in the code still shows. A loop on 2 MiB pages, or timed
 * before every 4th pair only, tracked the drift less well (measured).
 *
 *	struct ref *r = ref_create();		once per run
 *	void *lines = ref_lines(r, worker);	per worker: its own lines
 *	ref_region(lines);			once, pinned: first touch
 *	ref_flush(lines);			untimed: every line cold
 *	t0; ref_region(lines); t1		timed
 *	ref_flush(lines);			written back now, not later
 *	ref_destroy(r);
 *
 * Each worker has lines of its own in every stride, on pages of its own
 * for the first 64 workers (worker i: page i % 64 of the stride, line
 * i / 64 of it), so that its first touch, pinned, puts them on its node
 * and parallel workers share no line (up to 4096 workers).
 * Nothing here locks: ref_create/destroy once, the rest from any thread.
 */
#ifndef KSB_REF_H
#define KSB_REF_H

#define REF_LINES	512		/* stores per reference sample */
#define REF_STRIDE	(256u << 10)	/* bytes between them: 128 MiB of address space */

struct ref;

/**
 * ref_create - map the reference area (128 MiB of address space, 4 KiB
 * pages, untouched: each worker's first ref_region() commits 2 MiB).
 * Returns it, or NULL (errno).
 */
struct ref *ref_create(void);

/**
 * ref_destroy - unmap; NULL is a no-op.
 */
void ref_destroy(struct ref *r);

/**
 * ref_lines - where worker @idx stores: its own line in every stride.
 */
void *ref_lines(const struct ref *r, unsigned int idx);

/**
 * ref_flush - clflush every line of @lines, then mfence: all cold.
 */
void ref_flush(void *lines);

/**
 * ref_region - the timed region: REF_LINES 4-byte stores.
 */
void ref_region(void *lines);

/**
 * ref_describe - one line for the metadata: the loop and its pages.
 */
const char *ref_describe(const struct ref *r);

#endif /* KSB_REF_H */
