#!/bin/sh
# shellcheck shell=dash
# busyreads.sh N - the guest of make busycheck and tests/perf/busy-study.sh,
# run by bench vm's /init as `bench vm ... -- sh tests/perf/busyreads.sh N`:
# N timed reads (open, read to EOF, close) of each of three kernel files,
# one bench run each, in this boot:
#
#   version.csv   /proc/version: a constant string, flat in possible CPUs
#   cpustat.csv   /sys/fs/cgroup/cpu.stat: cgroup rstat's flush walks every
#                 possible CPU
#   stat.csv      /proc/stat: show_stat sums every possible CPU's counters
#
# Each file comes back as DIR/NAME-pP-sh/bootB/FILE.
n=${1:?busyreads.sh N}
o=${KSB_OUT:?busyreads.sh runs under bench vm -- sh}
for f in version:/proc/version cpustat:/sys/fs/cgroup/cpu.stat stat:/proc/stat; do
	/bench run -q -w file-read --path "${f#*:}" -n "$n" -o "$o/${f%%:*}.csv" >/dev/null || exit
done
