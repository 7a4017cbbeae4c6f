/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pconf.h - the plugin's model settings, one parser for both sides: the
 * plugin takes them from qemu's -plugin FILE,KEY=VALUE,... and bench vm
 * checks its --plugin-opt KEY=VALUE by the same rules before any boot,
 * and writes the model into every file's metadata. Plain C, no QEMU.
 *
 *	struct pconf c;
 *	pconf_defaults(&c);
 *	pconf_set(&c, "l1d_size", "32K", why, len);	-ENOENT: not a model key
 *	pconf_check(&c, why, len);			the geometry whole
 *	pconf_model(&c, buf, len);			the words for the files
 *
 * The keys:
 *	cache=on|off		the cache model runs (default on)
 *	cold=window|none	window (default): both levels emptied when a
 *				window opens; none: they keep what earlier
 *				windows left
 *	l1d_size=48K l1d_ways=12	each vCPU's L1d
 *	llc_size=115200K llc_ways=15	the last level, shared
 *	line=64			bytes a line, both levels
 * A size is bytes, or a number with K, M or G (powers of 1024). The
 * defaults are a Xeon Platinum 8490H's (60 cores, 120 CPUs a socket:
 * 4 sockets are 480 CPUs), whose 2 MiB L2 is not modelled.
 *
 * Pure functions of their arguments: any thread.
 */
#ifndef KSB_PCONF_H
#define KSB_PCONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plugin/csim.h"

struct pconf {
	bool cache;			/* cache=on: the cache model runs */
	bool cold;			/* cold=window: both levels emptied at a window */
	struct csim_geom l1d;		/* l1d_size, l1d_ways, line */
	struct csim_geom llc;		/* llc_size, llc_ways, line */
};

/**
 * pconf_defaults - @c as the plugin runs without options
 */
void pconf_defaults(struct pconf *c);

/**
 * pconf_size - @s, bytes or a number with K, M or G, into *@v. Returns
 * 0, or -EINVAL (not a size, or past 2^64).
 */
int pconf_size(const char *s, uint64_t *v);

/**
 * pconf_set - the model key @key to @val in @c. Returns 0; -ENOENT for a
 * key that is no model key (@c unchanged, @why untouched); -EINVAL with
 * one line in @why for a value the key does not take.
 */
int pconf_set(struct pconf *c, const char *key, const char *val, char *why, size_t len);

/**
 * pconf_check - can the model of @c be made (csim_check() of both
 * levels)? 0, or -EINVAL with one line in @why naming the level.
 */
int pconf_check(const struct pconf *c, char *why, size_t len);

/**
 * pconf_model - the model of @c in words into @buf: "l1d 49152 B 12
 * ways, llc 117964800 B 15 ways, 64 B lines, cold window", or "off"
 * without the cache model.
 */
void pconf_model(const struct pconf *c, char *buf, size_t len);

#endif /* KSB_PCONF_H */
