#!/bin/sh
# shellcheck shell=dash
# scaleguest.sh NULLS [IRQS] - scalecheck's guest script, run by bench
# vm's /init as `bench vm [--module KO] ... -- sh tests/kernel/scaleguest.sh
# NULLS [IRQS]` after the boot's /proc/stat read and its trace, so that
# one boot serves every series of a kernel (a boot costs 15-35 s counted;
# the work in it, a second):
#
#   null.csv      getppid(), the flat control, NULLS samples (bench run
#                 -w syscall-null: in the script, since bench vm takes one
#                 run command a boot, its files named by the command)
#
# and with IRQS, the module (bench vm --module) IRQS allocations:
#
#   untraced.csv  kernel-irq-alloc, untraced
#   traced.csv    __irq_alloc_descs() traced by fentry, while
#   module.csv    the module's own figures of those very calls: they hold
#                 the probe's whole addition, the traced ones its window
#
# Each file comes back as DIR/NAME-pP-sh/bootB/FILE.
nulls=${1:?scaleguest.sh NULLS [IRQS]}
irqs=${2:-}
o=${KSB_OUT:?scaleguest.sh runs under bench vm -- sh}
ko=/kmod/kstats_bench.ko
/bench run -q -w syscall-null -n "$nulls" -o "$o/null.csv" >/dev/null || exit
[ -n "$irqs" ] || exit 0
/bench kernel -q --module $ko -w kernel-irq-alloc -n "$irqs" -o "$o/untraced.csv" >/dev/null || exit
/bench trace -q -p fentry -o "$o/traced.csv" __irq_alloc_descs -- \
	/bench kernel -q --module $ko -w kernel-irq-alloc -n "$irqs" -o "$o/module.csv" >/dev/null
