// SPDX-License-Identifier: GPL-2.0
/*
 * kentry.c - the empty callbacks of the kernel entry point workloads
 * (see kentry.h).
 */
#include <stddef.h>
#include <stdlib.h>

#include "kentry.h"

int kentry_setup_none(const struct wl_env *env, void **priv)
{
	(void)env;
	*priv = NULL;
	return 0;
}

int kentry_prepare_none(void *priv, enum wl_variant v, void **obj)
{
	(void)priv;
	(void)v;
	*obj = NULL;
	return 0;
}

int kentry_prepare_err(void *priv, enum wl_variant v, void **obj)
{
	(void)v;
	*obj = NULL;
	return *(const int *)priv;
}

void kentry_teardown_free(void *priv)
{
	free(priv);
}

void kentry_finish_none(void *priv, enum wl_variant v)
{
	(void)priv;
	(void)v;
}

void kentry_teardown_none(void *priv)
{
	(void)priv;
}
