// SPDX-License-Identifier: GPL-2.0
/*
 * ksb_results.c - what a run of the module prints, in
 * /sys/kernel/debug/kstats_bench/: results, the format `bench kernel`
 * parses (ksb_core.c's header comment spells it), and table, the
 * patch's table of the merged histograms.
 */
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/seq_file.h>

#include "ksb.h"
#include "ksb_hist.h"

const char *const ksb_wl_names[KSB_NR_WORKLOADS] = {
	"kernel-set-defaults", "kernel-irq-alloc",
};

/* the histograms of each workload: [workload][variant 0, 1, KSB_REF] */
const char *const ksb_variants[KSB_NR_WORKLOADS][KSB_NR_HISTS] = {
	{ "old", "new", "reference" }, { "alloc", "free", "reference" },
};

const char *const ksb_what[KSB_NR_WORKLOADS][2] = {
	{ "desc_set_defaults() clearing kstat_irqs of every possible CPU",
	  "desc_set_defaults() without the clearing loop" },
	{ "irq_alloc_descs(-1, 1, 1, node)", "irq_free_descs(irq, 1)" },
};

const char *const ksb_state_names[] = {
	"idle", "running", "done", "stopped", "failed",
};

static void ksb_show_hist(struct seq_file *m, const struct ksb_run *r,
			  unsigned int v, int cpu, int node, const struct ksb_hist *h)
{
	unsigned int i;

	seq_printf(m, "hist %s %d %d %llu %llu %llu\n", ksb_variants[r->wl][v],
		   cpu, node, h->total, h->total ? h->min : 0, h->max);
	for (i = 0; i < h->nr_slots; i++)
		if (h->slot[i].count)
			seq_printf(m, "%u %llu %llu %llu\n", i, h->slot[i].count,
				   h->slot[i].sum_hi, h->slot[i].sum_lo);
}

static int ksb_results_show(struct seq_file *m, void *unused)
{
	const struct ksb_run *r;
	unsigned int i, v;

	mutex_lock(&ksb_lock);
	r = ksb_cur;
	seq_puts(m, "kstats_bench 2\n");
	seq_printf(m, "state %s\n", ksb_state_names[r ? r->state : KSB_IDLE]);
	seq_printf(m, "possible_cpus %u\nnr_cpu_ids %u\nonline_cpus %u\n",
		   num_possible_cpus(), nr_cpu_ids, num_online_cpus());
	seq_puts(m, "clock ktime_get_ns\n");
	if (!r)
		goto out;
	seq_printf(m, "workload %s\nirqs %s\n", ksb_wl_names[r->wl],
		   r->wl == KSB_SET_DEFAULTS ? "off (local_irq_save around each sample)" :
		   "on (irq_alloc_descs sleeps)");
	seq_printf(m, "variants %s %s\n", ksb_variants[r->wl][0], ksb_variants[r->wl][1]);
	for (v = 0; v < 2; v++)
		seq_printf(m, "variant_%s %s\n", ksb_variants[r->wl][v], ksb_what[r->wl][v]);
	seq_printf(m, "reference %u cold 4-byte stores, a page apart, TLB flushed, interrupts off, before each pair\n",
		   KSB_REF_LINES);
	seq_printf(m, "samples %llu\nfrac_bits %u\ncpus %u\ntaken %lld\n",
		   r->samples, r->frac_bits, r->nr_cpus, (long long)atomic64_read(&r->taken));
	if (r->state == KSB_FAILED)
		seq_printf(m, "error %d cpu %u %s\n", r->err, r->err_cpu, r->err_what);
	if (r->state == KSB_RUNNING)
		goto out;
	for (v = 0; v < KSB_NR_HISTS; v++) {
		ksb_show_hist(m, r, v, -1, -1, r->merged[v]);
		for (i = 0; i < r->nr_cpus; i++)
			ksb_show_hist(m, r, v, r->c[i].cpu, r->c[i].node, r->c[i].h[v]);
	}
	seq_puts(m, "end\n");
out:
	mutex_unlock(&ksb_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ksb_results);

static int ksb_table_show(struct seq_file *m, void *unused)
{
	const struct ksb_run *r;
	char row[KSB_HIST_ROW_MAX];
	unsigned int i, v;
	u64 cum;

	mutex_lock(&ksb_lock);
	r = ksb_cur;
	if (!r || r->state == KSB_RUNNING) {
		seq_printf(m, "# %s\n", r ? "running" : "no run yet");
		goto out;
	}
	for (v = 0; v < 2; v++) {
		const struct ksb_hist *h = r->merged[v];

		seq_printf(m, "# %s %s: %s\n# %llu samples on %u CPUs, %u possible, ktime_get_ns, irqs %s\n",
			   ksb_wl_names[r->wl], ksb_variants[r->wl][v], ksb_what[r->wl][v],
			   h->total, r->nr_cpus, num_possible_cpus(),
			   r->wl == KSB_SET_DEFAULTS ? "off" : "on");
		seq_puts(m, KSB_HIST_HEADER);
		for (i = 0, cum = 0; i < h->nr_slots; i++) {
			if (!h->slot[i].count)
				continue;
			cum += h->slot[i].count;
			ksb_hist_row(row, h, i, cum);
			seq_puts(m, row);
		}
		seq_putc(m, '\n');
	}
out:
	mutex_unlock(&ksb_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ksb_table);

void ksb_results_create(struct dentry *dir)
{
	debugfs_create_file("results", 0444, dir, NULL, &ksb_results_fops);
	debugfs_create_file("table", 0444, dir, NULL, &ksb_table_fops);
}
