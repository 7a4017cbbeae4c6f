/* SPDX-License-Identifier: GPL-2.0 */
/*
 * busy.h - was a run disturbed by the host's other work? The rule, in
 * one place, over the contention each run recorded in its file's
 * metadata (lib/measure/contend.h measures it), and the "run:value"
 * lists that carry it.
 *
 * THE KEYS, one "RUN:VALUE" pair per run or boot, space-separated:
 *
 *	psi_cpu_some_pct	"1:0.42 2:31.07"  PSI cpu some, % of the window
 *	psi_cpu_some_us		"1:25012 2:1903340"  the same, microseconds
 *	run_seconds		"1:5.93 2:6.12"   bench run: each run's window
 *	run_nivcsw		"1:12 2:388"      bench run: involuntary context
 *						  switches of the run's process
 *	vm_qemu_cpu_seconds	"1:5.71 2:4.02"   bench vm: qemu's user+sys time
 *	vm_boot_seconds		"1:6.1 2:5.9"     bench vm: its window (wall)
 *	vm_disturbed_tries	"2:31.07"         bench vm: boots booted again
 *						  for the rule, boot:psi %
 *	vm_unquiet_boots	"2:31.07"         bench vm: boots kept although
 *						  disturbed (no quiet try left)
 *
 * A file written before these keys, or on a host without PSI, has no
 * psi_cpu_some_pct: its runs are "not recorded", never an error. Nor are
 * a counted file's (unit COUNTED_UNIT, lib/results/counted.h): its figures
 * count instructions, which the host's load cannot move, so the rule
 * judges none of them; their PSI stays in the file, said, not ruled on.
 *
 * THE RULE (busy_disturbed(), busy_boot_disturbed()): a run is disturbed
 * when the host's PSI cpu "some" stall passed BUSY_PSI_PCT percent of its
 * window. A boot of bench vm is disturbed when that holds and qemu, over
 * the same window, ran for less than BUSY_QEMU_SHARE of it (its user +
 * sys seconds over its wall seconds): PSI says that the host's tasks
 * waited, qemu's time whether this boot was among them. A boot without
 * qemu's figure is judged by PSI alone. The involuntary context switches
 * of a run (run_nivcsw over run_seconds) are recorded, not ruled on:
 * quiet runs and slowed ones overlap in them. The limits and the figures
 * that chose them are in docs/measurements.md ("Disturbed runs: the
 * host's cpu pressure").
 *
 *	struct busy_count bc = { 0 };
 *	char line[128];
 *
 *	busy_count(set, &bc);			each file of a side
 *	busy_line(&bc, "runs", line, sizeof(line));
 *		"1 of 6 runs disturbed (psi cpu some > 40% of the window)"
 *
 * Plain data and pure functions: any thread, one writer per struct.
 */
#ifndef KSB_BUSY_H
#define KSB_BUSY_H

#include <stdbool.h>
#include <stddef.h>

struct meta;
struct results;

/* the rule's limit: PSI cpu some, percent of a run's window */
#define BUSY_PSI_PCT		40.0
/* a boot's: qemu's cpu seconds per wall second below this (with PSI past its limit) */
#define BUSY_QEMU_SHARE		0.7

#define BUSY_KEY_PSI_PCT	"psi_cpu_some_pct"
#define BUSY_KEY_PSI_US		"psi_cpu_some_us"
#define BUSY_KEY_QEMU_CPU	"vm_qemu_cpu_seconds"
#define BUSY_KEY_BOOT_S		"vm_boot_seconds"

/**
 * busy_disturbed - the rule: true when a run whose window saw @psi_pct
 * percent of PSI cpu "some" stall was disturbed (@psi_pct >
 * BUSY_PSI_PCT).
 */
bool busy_disturbed(double psi_pct);

/**
 * busy_boot_disturbed - the rule for a boot of bench vm: @psi_pct as
 * for busy_disturbed(), and qemu's @cpu_s seconds of cpu over the boot's
 * @wall_s below BUSY_QEMU_SHARE. @wall_s <= 0 (no figure of qemu): PSI
 * alone decides.
 */
bool busy_boot_disturbed(double psi_pct, double cpu_s, double wall_s);

/* runs counted over one or more files */
struct busy_count {
	unsigned int runs;		/* runs with a PSI figure */
	unsigned int disturbed;		/* of those, disturbed by the rule */
	unsigned int files;		/* files that recorded one */
	unsigned int psi_over;		/* runs past BUSY_PSI_PCT, disturbed or not */
	unsigned int qemu_runs;		/* boots judged with qemu's share too */
};

/**
 * busy_count - add the runs of the psi_cpu_some_pct list of @r's
 * metadata to @bc: each run that @r has (a numbered series, or run 1 of
 * a set of one run) once, by its last pair, as busy_list_get() reads
 * it; a pair of another run, or whose figure is not a finite number >= 0
 * (inf, nan), is not counted. Each is judged by busy_boot_disturbed()
 * where the metadata has the run's vm_qemu_cpu_seconds and
 * vm_boot_seconds (finite), by busy_disturbed() otherwise. Returns 0, or
 * -ENOENT when there is no such key, or @r counts instructions (not
 * recorded; @bc unchanged).
 */
int busy_count(const struct results *r, struct busy_count *bc);

/**
 * busy_line - @bc as one line into @buf: "N of M @what disturbed (psi
 * cpu some > 40% of the window)", "... of the window, qemu < 0.7 cpu)"
 * when every run counted was a boot with qemu's figure, or "@what
 * disturbed: not recorded" when no file recorded one. @what: "runs",
 * "boots".
 */
void busy_line(const struct busy_count *bc, const char *what, char *buf, size_t len);

/**
 * busy_field - @bc as a machine field's value into @buf: "N/M", or
 * "not recorded".
 */
void busy_field(const struct busy_count *bc, char *buf, size_t len);

/**
 * busy_list_add - append "@run:VALUE" (printf-style) to @key's list in
 * @m, a space before it when the list has pairs: the per-run lists
 * above. Returns 0, -ENOSPC (the table is full, or the list would pass
 * a value's length: nothing added).
 */
int busy_list_add(struct meta *m, const char *key, unsigned int run, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/**
 * busy_list_get - the value of @run's pair in @m's @key list into
 * @buf (the last one when @run has several). Returns 0, -ENOENT (no
 * such key, or no pair of @run).
 */
int busy_list_get(const struct meta *m, const char *key, unsigned int run, char *buf,
		  size_t len);

#endif /* KSB_BUSY_H */
