// SPDX-License-Identifier: GPL-2.0
/*
 * empty.c - an empty timed region: the cost of the stamps themselves,
 * per CPU. Old and new are the same nothing, so their ratio is the
 * harness's own noise floor.
 */
#include "lib/measure/workload.h"

static int empty_setup(const struct wl_env *env, void **priv)
{
	(void)env;
	*priv = NULL;
	return 0;
}

static int empty_prepare(void *priv, enum wl_variant v, void **obj)
{
	(void)priv;
	(void)v;
	*obj = NULL;
	return 0;
}

static void empty_sample(void *priv)
{
	(void)priv;
}

static void empty_finish(void *priv, enum wl_variant v)
{
	(void)priv;
	(void)v;
}

static void empty_teardown(void *priv)
{
	(void)priv;
}

const struct workload wl_empty = {
	.name = "empty",
	.summary = "an empty timed region: the timer overhead on each CPU",
	.label = { "old", "new" },
	.variant = { "nothing", "nothing" },
	.setup = empty_setup,
	.prepare = empty_prepare,
	.sample = { empty_sample, empty_sample },
	.finish = empty_finish,
	.teardown = empty_teardown,
};
