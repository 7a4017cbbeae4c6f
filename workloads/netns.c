// SPDX-License-Identifier: GPL-2.0
/*
 * netns.c - unshare(CLONE_NEWNET), then setns() back to the namespace
 * the worker started in, per sample: a network namespace made and
 * dropped. setup_net() runs every pernet init, and some of them make
 * per-CPU state for every possible CPU: the SNMP MIBs (alloc_percpu),
 * and where a kernel still has them, the per-netns per-CPU control
 * sockets of icmp and tcp (inet_ctl_sock_create() for each possible
 * CPU; Dumazet, "netns: speedup netns dismantles", 2022, found them
 * about half of cleanup_net() at 256 CPUs).
 *
 * What the window holds: the creation, and the setns() that drops the
 * last reference. The dismantle, cleanup_net(), runs later in a kworker
 * (netns_wq), outside any window; where it lands on the worker's CPU it
 * preempts a later sample, which is then counted disturbed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdlib.h>

#include "kentry.h"
#include "nsjoin.h"

static int netns_check(unsigned int nr_possible, char *why, size_t len)
{
	(void)nr_possible;
	return nsjoin_check(CLONE_NEWNET, "a network namespace", why, len);
}

static int netns_setup(const struct wl_env *env, void **priv)
{
	struct nsjoin *j = calloc(1, sizeof(*j));
	int ret;

	(void)env;
	if (!j)
		return -ENOMEM;
	ret = nsjoin_open(j, CLONE_NEWNET);
	/* one untimed cycle: a refusal fails setup, not a sample */
	if (!ret)
		ret = nsjoin_cycle(j);
	if (ret) {
		nsjoin_close(j);
		free(j);
		return ret;
	}
	*priv = j;
	return 0;
}

/* a sample that failed ends the worker's run here, with its errno */
static int netns_prepare(void *priv, enum wl_variant v, void **obj)
{
	struct nsjoin *j = priv;

	(void)v;
	*obj = NULL;
	return j->err;
}

static void netns_sample(void *priv)
{
	struct nsjoin *j = priv;

	j->err = nsjoin_cycle(j);
}

static void netns_teardown(void *priv)
{
	nsjoin_close(priv);
	free(priv);
}

const struct workload wl_netns = {
	.name = "netns",
	.summary = "unshare(CLONE_NEWNET), setns back per sample: a network namespace's life",
	.label = { "netns" },
	.variant = { "unshare(CLONE_NEWNET), setns(2) back: setup_net() and the last put" },
	.nr_variants = 1,
	.real_kernel = true,
	.setup = netns_setup,
	.prepare = netns_prepare,
	.sample = { netns_sample },
	.finish = kentry_finish_none,
	.teardown = netns_teardown,
	.check = netns_check,
};
