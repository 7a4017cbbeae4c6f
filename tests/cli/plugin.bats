#!/usr/bin/env bats
# needs: python3 busybox
# bench vm --plugin without a VM: tests/cli/fake-qemu takes -plugin and
# writes the plugin's two files of windows made up from the possible
# CPUs (its header says which), so that what bench vm makes of them is
# checked to the count: the refusals, the files beside each CSV and
# their metadata, each figure's values, the functions, the symbols read
# once and kept, the shards joined. Real boots: make plugincheck.

load common

setup() {
	vm_setup
	: >"$T/ksbplugin.so"
	export KSB_PLUGIN=$T/ksbplugin.so XDG_CACHE_HOME=$T/cache
	export KSB_KALLSYMS=$PWD/$F/plugin/kallsyms
	KO=$F/vm/kstats_bench.ko
}

# pvm ARGS: bench vm -q of the fake qemu into $T/out
pvm() {
	run --separate-stderr ./bench vm -q --qemu "$Q" -o "$T/out" "$@"
	echo "status $status stderr: $stderr"
}

# fig FILE SERIES VARIANT COLUMN: COLUMN of the run "all" rows of a series
# (min_ns and max_ns on each, samples summed over them)
fig() {
	if [ "$4" = samples ]; then
		csv_sum "$1" samples workload="$2" variant="$3" run=all
	else
		csv_col "$1" "$4" workload="$2" variant="$3" run=all
	fi
}

@test "plugin: refused without the counted clock, without --plugin, with a bad option: exit 2" {
	bad "--plugin under --clock timed: the plugin counts exactly only where the guest's clock counts its instructions" \
		vm --qemu "$Q" --plugin cache --clock timed "$IMG" -- run -n 8
	bad "--plugin-opt and --plugin-syms set up --plugin: give --plugin insns or --plugin cache" \
		vm --qemu "$Q" --plugin-opt l1d_size=32K "$IMG" -- run -n 8
	bad "--plugin-opt llc_ways=0: a whole number above 0" \
		vm --qemu "$Q" --plugin cache --plugin-opt llc_ways=0 "$IMG" -- run -n 8
	bad "--plugin-opt l1d: not a key (l1d_size, l1d_ways, llc_size, llc_ways, line, cold, llc_lat, mem_lat)" \
		vm --qemu "$Q" --plugin cache --plugin-opt l1d=4 "$IMG" -- run -n 8
	bad "--plugin-opt syms: bench vm sets it (--plugin-syms)" \
		vm --qemu "$Q" --plugin cache --plugin-opt syms=x "$IMG" -- run -n 8
	bad "--plugin-opt mem_lat: '-1' is not a number of cycles >= 0" \
		vm --qemu "$Q" --plugin cache --plugin-opt mem_lat=-1 "$IMG" -- run -n 8
	bad "--plugin-opt: the cache model's keys under --plugin insns" \
		vm --qemu "$Q" --plugin insns --plugin-opt cold=none "$IMG" -- run -n 8
	bad "--plugin-opt: the LLC (llc_size, llc_ways, line): 1000 bytes is not a whole number of sets" \
		vm --qemu "$Q" --plugin cache --plugin-opt llc_size=1000 "$IMG" -- run -n 8
	bad "--plugin-syms other=x.map: no kernel is called other" \
		vm --qemu "$Q" --plugin insns --plugin-syms other=x.map "$IMG" -- run -n 8
	bad "--plugin: 'both' is not one of insns, cache" vm --qemu "$Q" --plugin both "$IMG" -- run -n 8
}

@test "plugin: no plugin built: exit 3 naming make plugin, before any boot" {
	KSB_PLUGIN=$T/none.so FAKE_QEMU_LOG=$T/boots pvm --plugin cache -p 4 "$IMG" -- run -n 8
	[ "$status" -eq 3 ]
	[[ "$stderr" == *"--plugin: no plugin at $T/none.so (No such file or directory): build it with make plugin, which first fetches qemu-plugin.h"* ]]
	[ ! -e "$T/boots" ]
}

@test "plugin cache: each command's figures beside its CSV, each window one sample, exact" {
	FAKE_QEMU_LOG=$T/boots pvm --plugin cache -B 2 -p 16,64 --module "$KO" "$IMG" \
		-- kernel -w kernel-irq-alloc -n 16 -- run -n 8
	[ "$status" -eq 0 ]
	for c in kernel run; do
		for f in insns funcs misses accesses cycles; do
			[ -f "$T/out/stock-$c-p16-$f.csv" ]
			[ -f "$T/out/stock-$c-p64-$f.csv" ]
		done
	done
	k=$T/out/stock-kernel-p64
	# 4 windows a boot, 2 boots: 19000 + 96 P + k
	[ "$(fig "$k-insns.csv" kernel-irq-alloc alloc samples)" = 8 ]
	[ "$(fig "$k-insns.csv" kernel-irq-alloc alloc min_ns)" = $((19000 + 96 * 64)) ]
	[ "$(fig "$k-insns.csv" kernel-irq-alloc alloc max_ns)" = $((19000 + 96 * 64 + 3)) ]
	[ "$(fig "$k-insns.csv" kernel-irq-alloc reference min_ns)" = 2600 ]
	[ "$(fig "$k-misses.csv" kernel-irq-alloc alloc.l1d min_ns)" = $((300 + 2 * 64)) ]
	[ "$(fig "$k-misses.csv" kernel-irq-alloc alloc.llc min_ns)" = $((250 + 64)) ]
	[ "$(fig "$k-accesses.csv" kernel-irq-alloc free.stores min_ns)" = 2000 ]
	# the estimate of the first window: insns + (l1d - llc) x 100 + llc x 350
	[ "$(fig "$k-cycles.csv" kernel-irq-alloc alloc min_ns)" = \
		$((19000 + 96 * 64 + (300 + 2 * 64 - 250 - 64) * 100 + (250 + 64) * 350)) ]
	# the functions of each boot's smallest window, one sample a boot
	[ "$(fig "$k-funcs.csv" alloc_desc alloc samples)" = 2 ]
	[ "$(fig "$k-funcs.csv" memset_orig alloc min_ns)" = $((35 * 64 + 8000)) ]
	[ "$(fig "$k-funcs.csv" kernel-no-symbol alloc min_ns)" = $((19000 + 96 * 64 - 36 * 64 - 3000 - 35 * 64 - 8000)) ]
	[ "$(fig "$T/out/stock-run-p16-insns.csv" irqdesc-alloc old min_ns)" = $((8000 + 20 * 16)) ]
	[ "$(fig "$T/out/stock-run-p16-funcs.csv" ksb_region old min_ns)" = $((20 * 16)) ]
	# what each file is, in its metadata
	[ "$(csv_meta "$k-misses.csv" unit)" = misses ]
	[ "$(csv_meta "$k-cycles.csv" unit)" = est-cycles ]
	[ "$(csv_meta "$k-funcs.csv" unit)" = insn ]
	[ "$(csv_meta "$k-misses.csv" source)" = plugin ]
	[ "$(csv_meta "$k-misses.csv" plugin_figure)" = misses ]
	[ "$(csv_meta "$k-misses.csv" plugin)" = "ksbplugin 1, cache model l1d 49152 B 12 ways, llc 117964800 B 15 ways, 64 B lines, cold window" ]
	[ "$(csv_meta "$k-insns.csv" plugin)" = "ksbplugin 1, instructions of the guest's marked windows" ]
	[[ "$(csv_meta "$k-misses.csv" plugin_what)" == *"a model's count, not hardware's" ]]
	[[ "$(csv_meta "$k-cycles.csv" plugin_what)" == "an estimate, not a measurement: "*" x 100 + LLC misses x 350 cycles"* ]]
	[ "$(csv_meta "$k-misses.csv" plugin_windows)" = "1:18 2:18" ]
	[ "$(csv_meta "$k-misses.csv" plugin_dropped)" = "1:0 2:0" ]
	[ "$(csv_meta "$k-misses.csv" possible_cpus)" = 64 ]
	[ "$(csv_meta "$k-misses.csv" vm_clock)" = counted ]
	[[ "$(csv_meta "$k-misses.csv" plugin_symbols)" == "auto (kallsyms of a nokaslr boot): $T/cache/kstats-bench/kallsyms/"*".syms, 8 functions, sha256 "* ]]
	# every boot without KASLR; the symbols read in one boot before the sweep
	[[ "$(csv_meta "$k.csv" vm_qemu)" == *"-plugin $T/ksbplugin.so,cache=on,syms=$T/cache/kstats-bench/kallsyms/"*".syms,out="*" -append 'console=ttyS0 panic=-1 nokaslr'"* ]]
	[ "$(wc -l <"$T/boots")" -eq 5 ]
	# every reader says what they are
	run ./bench show "$k-misses.csv"
	[[ "$output" == *"# kernel-irq-alloc alloc.l1d: irq_alloc_descs(-1, 1, 1, node)"* ]]
	[[ "$output" == *", 64 possible, counted by the plugin in the marked windows (misses), misses"* ]]
	[[ "$output" == *"# misses: lines that missed the plugin's cache model (bench vm --plugin cache), a model's count and not hardware's"* ]]
	# bench scale and compare read them as they are; never beside the guest's own
	run ./bench scale --flat 0 "$T"/out/stock-kernel-p*-misses.csv
	[ "$status" -eq 0 ]
	[[ "$output" == *"kernel-irq-alloc alloc.l1d  stock  min  +2 misses/CPU [+2, +2]"* ]]
	bad "$k.csv was counted by the guest (no plugin), $k-insns.csv by the plugin: ksbplugin 1" \
		compare "$k.csv" -- "$k-insns.csv"
	sed 's/^# plugin: ksbplugin 1, cache model l1d 49152 B 12/# plugin: ksbplugin 1, cache model l1d 32768 B 8/' \
		"$k-misses.csv" >"$T/other-misses.csv"
	bad "by the plugin: ksbplugin 1, cache model l1d 32768 B 8 ways" compare "$k-misses.csv" -- "$T/other-misses.csv"
}

@test "plugin: the symbols kept by the image's digest, given, or none" {
	run --separate-stderr ./bench vm --qemu "$Q" -o "$T/out" --plugin insns -B 1 -p 4 "$IMG" -- run -n 8
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"stock: reading its functions for --plugin-syms auto: one boot with nokaslr"* ]]
	# a second run boots once: the symbols are kept
	rm -rf "$T/out"
	FAKE_QEMU_LOG=$T/boots pvm --plugin insns -B 1 -p 4 "$IMG" -- run -n 8
	[ "$status" -eq 0 ]
	[ "$(wc -l <"$T/boots")" -eq 1 ]
	[[ "$stderr" != *"reading its functions"* ]]
	# a file given: no boot for them; none: no nokaslr either
	printf 'ffffffff81000000 T one\nffffffff81000100 t two\nffffffff81000200 D data\n' >"$T/System.map"
	rm -rf "$T/out" "$T/boots"
	FAKE_QEMU_LOG=$T/boots pvm --plugin insns --plugin-syms "stock=$T/System.map" -B 1 -p 4 "$IMG" -- run -n 8
	[ "$status" -eq 0 ]
	[ "$(wc -l <"$T/boots")" -eq 1 ]
	[[ "$(csv_meta "$T/out/stock-insns.csv" plugin_symbols)" == "given: $T/System.map, 2 functions, sha256 "* ]]
	rm -rf "$T/out"
	pvm --plugin insns --plugin-syms none -B 1 -p 4 "$IMG" -- run -n 8
	[ "$status" -eq 0 ]
	[[ "$(csv_meta "$T/out/stock.csv" vm_qemu)" != *nokaslr* ]]
	[[ "$(csv_meta "$T/out/stock.csv" vm_qemu)" != *syms=* ]]
	[ "$(csv_meta "$T/out/stock-insns.csv" plugin_symbols)" = "none (every kernel function is kernel-no-symbol)" ]
	[ ! -f "$T/out/stock-misses.csv" ]
	printf 'nothing here\n' >"$T/junk.map"
	bad "stock: --plugin-syms $T/junk.map: no text symbol in it" \
		vm --qemu "$Q" -o "$T/out2" --plugin insns --plugin-syms "$T/junk.map" "$IMG" -- run -n 8
}

@test "plugin insns -- audit: each entry's functions, named by its place in the boot's order" {
	printf 'proc-stat = file-read --path /proc/stat\nsyscall-null --control\n' >"$T/battery"
	pvm --plugin insns -B 2 -p 16,64 --file "$T/battery=battery" "$IMG" \
		-- audit --no-builtin -b /battery -n 8
	[ "$status" -eq 0 ]
	f=$T/out/stock-p64-funcs.csv
	[ "$(fig "$f" show_stat proc-stat min_ns)" = $((150 * 64 + 500)) ]
	[ "$(fig "$f" _find_next_bit proc-stat samples)" = 2 ]
	[ "$(fig "$f" do_syscall_64 syscall-null min_ns)" = 1000 ]
	[ "$(csv_meta "$f" plugin_figure)" = funcs ]
	[ ! -f "$T/out/stock-p64-misses.csv" ]
	# bench scale reads them beside the audit's own files: functions, not entries
	run --separate-stderr ./bench scale "$T/out/stock-p16.csv" "$T/out/stock-p64.csv" \
		"$T"/out/stock-p*-funcs.csv
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "# audit of stock: 2 entries, "*", 5 (function, entry) pairs counted by the plugin: "* ]]
}

@test "plugin: no window of a command that marks them, a file cut short: exit 3 naming why" {
	FAKE_QEMU=plugin-none pvm --plugin insns -B 1 -p 4 --module "$KO" "$IMG" -- kernel -n 8
	[ "$status" -eq 3 ]
	[[ "$stderr" == *"stock boot 1: bench kernel ran and the plugin saw none of its windows: its bench module has no markers (kmod/ksb_mark.h)?"* ]]
	FAKE_QEMU=plugin-cut pvm --plugin insns -B 1 -p 4 "$IMG" -- run -n 8
	[ "$status" -eq 3 ]
	[[ "$stderr" == *"stock boot 1: the plugin's "*"data.win.csv ends early: qemu did not exit cleanly"* ]]
}

@test "plugin: --dry-run shows -plugin and the symbols; shards merge whole with the plugin's files" {
	run --separate-stderr ./bench vm --dry-run --qemu "$Q" --plugin cache --plugin-opt l1d_size=32K \
		--plugin-opt l1d_ways=8 -p 4 "$IMG" -- run -n 8
	[ "$status" -eq 0 ]
	[[ "$output" == *" -plugin $T/ksbplugin.so,cache=on,l1d_size=32K,l1d_ways=8,syms=$T/cache/"*".syms,out=WORK/data.win.csv,funcs=WORK/data.fn.csv "* ]]
	[[ "$output" == *"# stock: plugin symbols $T/cache/"*".syms (not kept yet: one nokaslr boot reads them first)"* ]]
	for i in 1 2; do
		run --separate-stderr ./bench vm -q --qemu "$Q" --plugin insns --shard "$i/2" -B 2 -p 4 \
			-o "$T/s$i" "$IMG" -- run -n 8
		[ "$status" -eq 0 ]
	done
	[ "$(csv_meta "$T/s1/stock.csv" vm_plan_files)" = 3 ]
	run --separate-stderr ./bench merge -o "$T/m" "$T/s1" "$T/s2"
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ "$(csv_meta "$T/m/stock-funcs.csv" runs)" = 2 ]
	[ "$(fig "$T/m/stock-insns.csv" irqdesc-alloc old samples)" = 6 ]
	# without the plugin's files the plan is not whole
	rm "$T/s2/stock-funcs.csv"
	run --separate-stderr ./bench merge -o "$T/m2" "$T/s1" "$T/s2"
	[ "$status" -eq 2 ]
}
