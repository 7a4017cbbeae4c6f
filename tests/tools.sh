#!/usr/bin/env bash
# tools.sh - the checks that need tools rather than assertions, as TAP:
# a threaded engine run under ThreadSanitizer in every mode, valgrind
# memcheck on the file readers, and short libFuzzer runs.
#   FUZZ_SECONDS (default 10) sets each fuzzer's run.
set -uo pipefail

cd "$(dirname "$0")/.." || exit 2
n=0
fails=0
log=$(mktemp)
work=$(mktemp -d)
trap 'rm -rf "$log" "$work"' EXIT

# check DESCRIPTION CMD...: one TAP line; the log's tail on failure
check() {
	local desc=$1
	shift
	n=$((n + 1))
	if "$@" >"$log" 2>&1; then
		echo "ok $n - $desc"
		sed -n 's/^STAT: /# /p' "$log"
	else
		echo "not ok $n - $desc"
		tail -n 30 "$log" | sed 's/^/# /'
		fails=$((fails + 1))
	fi
}

# tsan ARGS: a run with no ThreadSanitizer report and exit 0 (the
# suppressions cover liburcu's unannotated internals only: tests/tsan.supp)
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 suppressions=$PWD/tests/tsan.supp"
tsan() {
	build/bench-tsan run -q "$@" >/dev/null
}

# asan ARGS: the same under AddressSanitizer and UBSan
asan() {
	ASAN_OPTIONS=detect_leaks=1 build/bench-asan run -q "$@" >/dev/null
}

# memcheck RC ARGS: bench exits RC and valgrind finds no error and no
# definite leak (which would exit 99); tests/valgrind.supp says what of
# libbpf's is not an error
memcheck() {
	local want=$1 rc=0
	shift
	valgrind -q --error-exitcode=99 --leak-check=full --suppressions=tests/valgrind.supp \
		--errors-for-leak-kinds=definite,indirect ./bench "$@" >/dev/null || rc=$?
	[ "$rc" -eq "$want" ]
}

# fuzz NAME: a timed libFuzzer run from the seed corpus, new inputs to a
# scratch directory (the seeds stay as committed)
fuzz() {
	local out=$work/$1.log
	mkdir -p "$work/$1"
	"build/fuzz/fuzz_$1" -max_total_time="${FUZZ_SECONDS:-10}" -print_final_stats=1 \
		-artifact_prefix="$work/" "$work/$1" "tests/fuzz/corpus-$1" >"$out" 2>&1 ||
		{ cat "$out"; return 1; }
	sed -n 's/^Done \(.*\)/STAT: fuzz_'"$1"': \1, no crash/p' "$out"
}

echo "1..21"
check "tsan: serial, kernel cache" tsan -n 512 -p 64
check "tsan: serial, cold cache, irqdesc-free" tsan -n 256 -p 64 --cache cold -w irqdesc-free
check "tsan: serial, remote cache" tsan -n 256 -p 64 --cache remote
check "tsan: parallel" tsan -n 512 -p 64 -m parallel
check "tsan: calibrate" build/bench-tsan calibrate
check "tsan: irqdesc-sparse, interrupts flat out" tsan -w irqdesc-sparse -n 1024 -p 64 --irq-rate 0
check "tsan: irqdesc-sparse, parallel" tsan -w irqdesc-sparse -n 1024 -p 64 -m parallel --irq-threads 4
check "asan: irqdesc-sparse, interrupts flat out" asan -w irqdesc-sparse -n 2048 -p 64 --irq-rate 0
check "asan: irqdesc-alloc, cold, 480 possible" asan -n 1024 -p 480 --cache cold
check "asan: --runs 3, a child process per run" asan -n 256 -p 64 --runs 3
check "valgrind: bench hist" memcheck 0 hist tests/fixtures/patch_samples.txt
check "valgrind: bench hist, bad input" memcheck 2 hist tests/fuzz/corpus-samples/negative.txt
check "valgrind: bench compare" memcheck 1 compare tests/fixtures/runs6-480.csv -- tests/fixtures/gate/r480_1.csv tests/fixtures/runs6-576.csv
check "valgrind: bench compare -f json" memcheck 1 compare -f json tests/fixtures/runs6-480.csv tests/fixtures/runs6-576.csv
GITHUB_ACTIONS=true check "valgrind: bench compare -f junit, annotations" memcheck 1 compare -f junit tests/fixtures/runs6-480.csv tests/fixtures/runs6-576.csv
check "valgrind: bench doctor" memcheck 0 doctor
check "valgrind: bench compare, too few runs" memcheck 2 compare tests/fixtures/aa-before.csv tests/fixtures/aa-after.csv
check "valgrind: bench compare, truncated CSV" memcheck 2 compare tests/fixtures/aa-before.csv tests/fuzz/corpus-csv/truncated.csv
check "valgrind: bench show" memcheck 0 show -v new tests/fixtures/16cpu-4node.csv
# bench trace here: refused (exit 3) whatever this kernel allows, as root
# (no such function, or BPF refused) and as anyone else (not root)
check "valgrind: bench trace, refused" memcheck 3 trace -d 0.1 ksb_no_such_function
check "valgrind: bench show of a trace CSV" memcheck 0 show -v gap tests/fixtures/trace/getppid-kprobe-1.csv
check "fuzz: sample parser (${FUZZ_SECONDS:-10} s)" fuzz samples
check "fuzz: CSV reader (${FUZZ_SECONDS:-10} s)" fuzz csv
[ "$fails" -eq 0 ]
