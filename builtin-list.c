// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-list.c - bench list: the workloads that bench run -w can
 * time, generated from the registry (workloads/registry.h), then bench
 * audit's built-in entries (workloads/battery.h): the words each runs,
 * the kernel path it is there for and the report that found it.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "workloads/battery.h"
#include "workloads/registry.h"

/* the built-in battery, in its order; 0 or EXIT_ENV (a line that does not parse: a bug) */
static int list_battery(void)
{
	static struct battery b;
	const struct battery_entry *e;
	const char *words;
	char why[640];
	unsigned int i;

	if (battery_add_builtin(&b, why, sizeof(why)))
		return bench_refused("the built-in battery: %s", why);
	printf("\nbench audit's entries, in the battery's order:\n");
	for (i = 0; i < b.n; i++) {
		e = &b.e[i];
		words = strstr(e->line, " = ");
		printf("%-16s %s\n", e->name, words ? words + 3 : e->line);
		printf("%-16s   path: %s%s\n", "", e->path, e->control ? " (a control)" : "");
		if (e->report)
			printf("%-16s   report: %s\n", "", e->report);
	}
	battery_free(&b);
	return 0;
}

int cmd_list(int argc, char **argv)
{
	static const struct opt none[] = { OPT_END() };
	const struct opt *tab[] = { none, NULL };
	struct opt_parser p = { .tab = tab, .flags = OPT_NO_OPERANDS };
	const struct workload *w;
	unsigned int i, v;
	int ret;

	ret = bench_options(&p, "Usage: bench list\nList the workloads that bench run -w can time, and bench audit's entries.\n",
			    "Exit: 0 done, 2 bad usage, 3 the built-in battery does not parse (a bug)\nor writing the list failed.\n",
			    argc, argv);
	if (ret)
		return ret > 0 ? bench_finish_stdout() : EXIT_USAGE;
	/* one line per variant the workload times: one series, or old and new */
	for_each_workload(w, i) {
		printf("%-16s %s\n", w->name, w->summary);
		for (v = 0; v < wl_nr_variants(w); v++)
			printf("%-16s   %s: %s\n", "", w->label[v], w->variant[v]);
	}
	return list_battery() ?: bench_finish_stdout();
}
