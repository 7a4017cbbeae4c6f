// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-list.c - bench list: the workloads that bench run -w can
 * time, generated from the registry (workloads/registry.h).
 */
#include <stdio.h>
#include <unistd.h>

#include "bench.h"
#include "workloads/registry.h"

int cmd_list(int argc, char **argv)
{
	static const struct opt none[] = { OPT_END() };
	const struct opt *tab[] = { none, NULL };
	struct opt_parser p = { .tab = tab, .flags = OPT_NO_OPERANDS };
	const struct workload *w;
	unsigned int i, v;
	int ret;

	ret = bench_options(&p, "Usage: bench list\nList the workloads that bench run -w can time.\n",
			    NULL, argc, argv);
	if (ret)
		return ret > 0 ? bench_finish_stdout() : EXIT_USAGE;
	/* one line per variant the workload times: one series, or old and new */
	for_each_workload(w, i) {
		printf("%-16s %s\n", w->name, w->summary);
		for (v = 0; v < wl_nr_variants(w); v++)
			printf("%-16s   %s: %s\n", "", w->label[v], w->variant[v]);
	}
	return bench_finish_stdout();
}
