/* SPDX-License-Identifier: GPL-2.0 */
/*
 * host.h - what every result says of the machine it was measured on:
 * host name, kernel, CPU model. Reads /proc and uname(); no state.
 */
#ifndef KSB_HOST_H
#define KSB_HOST_H

#include <stddef.h>

struct meta;

/**
 * host_cpu_model - /proc/cpuinfo's first "model name", or "unknown".
 */
void host_cpu_model(char *buf, size_t len);

/**
 * host_meta - "host", "kernel" (release and machine), "cpu_model" into @m.
 */
void host_meta(struct meta *m);

#endif /* KSB_HOST_H */
