#!/bin/sh
# shellcheck shell=dash
# irqtrace.sh N - scalecheck's guest, run by bench vm's /init as
# `bench vm --module KO ... -- sh tests/kernel/irqtrace.sh N`: the
# module's kernel-irq-alloc, N allocations, untraced (untraced.csv), then
# again with __irq_alloc_descs() traced by fentry (traced.csv): the
# module's own figures of those very calls (module.csv) hold the probe's
# whole addition, the traced ones only its window. Each file comes back
# as DIR/NAME-pP-sh/bootB/FILE.
n=${1:?irqtrace.sh N}
o=${KSB_OUT:?irqtrace.sh runs under bench vm -- sh}
ko=/kmod/kstats_bench.ko
/bench kernel -q --module $ko -w kernel-irq-alloc -n "$n" -o "$o/untraced.csv" >/dev/null || exit
/bench trace -q -p fentry -o "$o/traced.csv" __irq_alloc_descs -- \
	/bench kernel -q --module $ko -w kernel-irq-alloc -n "$n" -o "$o/module.csv" >/dev/null
