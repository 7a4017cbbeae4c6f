#!/usr/bin/env bats
# needs: shellcheck python3
# shellcheck shell=bats
# Checks on the source tree itself: the layering between the folders,
# the link rules, the line length, the documents cited, and the bats
# files (shellcheck-clean, and no test that cannot fail).

load common

setup() {
	common_setup
}

# perf's check_vtype: an option's value must have the type it stores
opt_cc() {
	printf '#include "lib/subcmd/options.h"\nconst char *const names[] = { "a", "b", NULL };\n%s\nconst struct opt o[] = { %s, OPT_END() };\n' \
		"$1" "$2" >"$T/opt.c"
	cc -std=gnu11 -I. -Wall -Werror -c -o "$T/opt.o" "$T/opt.c"
}

# opt_refused DECL ENTRY: the entry on a field of the wrong type does not compile
opt_refused() {
	run opt_cc "$1" "$2"
	[ "$status" -ne 0 ]
	[[ "$output" == *"negative width in bit-field"* ]]
}

# includes_in DIR...: every lib/ header that the .c and .h files of DIR
# include, as FOLDER/NAME.h, one a line; and <numa.h>/<urcu...> as numa, urcu
includes_in() {
	local d
	for d in "$@"; do
		grep -ho '#include [<"][^>"]*[>"]' "$d"/*.[ch] 2>/dev/null
	done | sed -n 's|#include "lib/\([a-z]*/[a-z_0-9]*\.h\)"|\1|p; s|#include <\(numa\|urcu\).*|\1|p' | sort -u
}

# none_but RE: every line of $output matches RE (an empty output does)
none_but() {
	! grep -qvE "$1" <<<"$output"
}

# the folders of lib/ by job, bottom to top (the Makefile's LIB_LAYERS):
# each includes only from itself and the folders below it; the first five
# are the reporting side
layers() { make -s --no-print-directory lib-layers; }

@test "lib/ is folders by job, each a layer, built by wildcard, and no file sits at its top" {
	local d want=kstats_hist.c f
	read -r -a l <<<"$(layers)"
	[ "${l[*]}" = "subcmd results host stats report measure kernel" ]
	while read -r d; do
		[[ " ${l[*]} " == *" $d "* ]] || { echo "lib/$d is no layer"; false; }
	done < <(find lib -mindepth 1 -maxdepth 1 -type d -printf '%f\n')
	[ -z "$(find lib -maxdepth 1 -type f)" ]
	for d in "${l[@]:0:5}"; do
		for f in lib/"$d"/*.c; do
			[ ! -e "$f" ] || want+=" $f"
		done
	done
	run make -s --no-print-directory report-srcs
	[ "$output" = "$want" ]
}

@test "each folder of lib/ includes only from itself and those below it; lib/ nothing from workloads/" {
	local i below=
	read -r -a l <<<"$(layers)"
	for ((i = 0; i < ${#l[@]}; i++)); do
		below+="${below:+|}${l[i]}"
		[ -d "lib/${l[i]}" ] || continue
		run includes_in "lib/${l[i]}"
		echo "lib/${l[i]}: $output"
		# the engine's layers take libnuma and liburcu, the reporting side nothing
		if [ "$i" -lt 5 ]; then
			none_but "^($below)/"
		else
			none_but "^($below)/|^numa$|^urcu$"
		fi
	done
	run grep -rl '#include.*workloads/' lib
	[ "$status" -eq 1 ]
	# the check sees a back arrow when there is one
	mkdir -p "$T/lib/report"
	printf '#include "lib/measure/engine.h"\n' >"$T/lib/report/x.c"
	run includes_in "$T/lib/report"
	[ "$output" = "measure/engine.h" ]
	if none_but '^(subcmd|results|host|stats|report)/'; then false; fi
}

# include_edges DIR...: "A B" per lib/ header B that a file of module A
# includes, A and B as FOLDER/NAME; a module is its .c and .h, and NAME_int.h
# is the private header of NAME
include_edges() {
	local f m t
	for f in "$@"; do
		m=${f%.[ch]}
		m=${m#*lib/}
		grep -ho '#include "lib/[a-z]*/[a-z_0-9]*\.h"' "$f" | sed 's|#include "lib/\(.*\)\.h"|\1|' |
			while read -r t; do
				[ "${t%_int}" = "${m%_int}" ] || echo "${m%_int} ${t%_int}"
			done
	done
}

@test "no include circle among the modules of lib/" {
	include_edges lib/*/*.[ch] >"$T/edges"
	run tsort "$T/edges"
	echo "$output"
	[ "$status" -eq 0 ]
	# the check sees a circle when there is one
	mkdir -p "$T/lib/report"
	printf '#include "lib/report/b.h"\n' >"$T/lib/report/a.c"
	printf '#include "lib/report/a.h"\n' >"$T/lib/report/b.c"
	include_edges "$T"/lib/report/*.c >"$T/edges"
	run tsort "$T/edges"
	[ "$status" -ne 0 ]
	[[ "$output" == *"input contains a loop"* ]]
}

# the reporting side of lib/ (its first five layers, the Makefile's
# REPORT_SRCS): the results model, its files and writers, the gate's
# statistics; bench compare and the fuzzers need nothing else
@test "the reporting side builds without libnuma, liburcu or x86 assembly" {
	local f reporting l
	reporting=$(make -s --no-print-directory report-srcs)
	for f in results meta csv format json compare outfile; do
		[[ " $reporting " =~ \ lib/[a-z]+/$f\.c\  ]]
	done
	read -r -a l <<<"$(layers)"
	l=("${l[@]:0:5}")
	run includes_in "${l[@]/#/lib/}"
	none_but '^(subcmd|results|host|stats|report)/'
	# built with no package's flags, linked with libc and libm alone
	run make -s --no-print-directory reporting
	echo "$output"
	[ "$status" -eq 0 ]
	[ -x build/report/linked ]
	[ -f /usr/aarch64-linux-gnu/include/stdio.h ] || skip "no arm64 libc headers (libc6-dev-arm64-cross)"
	for f in $reporting; do
		readelf -h "build/report-arm64/${f%.c}.o" | grep -q 'Machine:.*AArch64'
	done
	# the arm64 build can fail: the TSC's x86 assembly does not build there
	run make -s --no-print-directory build/report-arm64/lib/measure/tsc.o
	[ "$status" -ne 0 ]
	[ ! -e build/report-arm64/lib/measure/tsc.o ]
}

# kernel-doc's convention: a contract comment opens with "/**" on its own
# line (tests/cli/kdoc_open.py), so that scripts/kernel-doc reads it
@test "every function a header declares has a contract comment that opens with /**" {
	run python3 tests/cli/kdoc_open.py lib/*/*.h kstats_hist.h bench.h builtin-*.h
	echo "$output"
	[ "$status" -eq 0 ]
	# the check sees one that does not
	printf '#include <stdio.h>\n\n/*\n * f - nothing.\n */\nint f(void);\n\nint g(void);\n' >"$T/x.h"
	run python3 tests/cli/kdoc_open.py "$T/x.h"
	[ "$status" -eq 1 ]
	[ "$output" = "$T/x.h:6: f
$T/x.h:8: g (no comment)" ]
}

@test "only the commands that pick or list a workload, and the audit's battery, include the registry" {
	run grep -l '#include.*registry\.h' -- *.c lib/*/*.[ch] workloads/*.[ch]
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' builtin-calibrate.c builtin-list.c builtin-run.c workloads/battery.c workloads/registry.c)" ]
}

@test "every link rule passes LDFLAGS" {
	local targets=(bench build/tests/test_measure build/tests-san/test_measure build/bench-tsan
		build/bench-asan build/fuzz/fuzz_csv build/perf)
	run make -n -B LDFLAGS=-Wl,--ksb-ldflags-mark "${targets[@]}"
	[ "$status" -eq 0 ]
	links=$(grep -E ' -o (bench|build/[a-z-]+/?[a-z_]*)( |$)' <<<"$output" | grep -v ' -c ')
	echo "$links"
	[ "$(wc -l <<<"$links")" -eq "${#targets[@]}" ]
	[ "$(grep -c -e '--ksb-ldflags-mark' <<<"$links")" -eq "${#targets[@]}" ]
}

@test "the bats files are shellcheck-clean" {
	command -v shellcheck || skip "shellcheck not installed"
	shellcheck tests/cli/*.bats tests/cli/common.bash
}

# bench's status is lost in `./bench ... | cmd` (bats sets no pipefail):
# write to a file, or `run` and check $status
@test "no test pipes bench or run.sh into another command" {
	run grep -nE '^\s*(\./bench|\./run\.sh|build/bench-[a-z]+) [^|]*\|[^|]' tests/cli/*.bats
	echo "$output"
	[ "$status" -eq 1 ]
}

# long_lines: every C line over .clang-format's ColumnLimit (100, tabs at
# 8) that holds no string literal (user-visible strings are never split)
long_lines() {
	local f
	find . -path ./build -prune -o -name '*.[ch]' -print | sort | while read -r f; do
		expand -t8 "$f" | awk -v f="${f#./}" 'length > 100 && !/"/ { print f ":" FNR ": " length " columns" }'
	done
}

@test "C lines fit in 100 columns, unless they hold a string (docs/design.md)" {
	run long_lines
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

# every C file of the program and the module over 700 lines, "FILE: N
# lines" (tests/ aside: a unit test is as long as its cases)
long_files() {
	find . -name '*.c' -not -path './build/*' -not -path './tests/*' -print0 |
		xargs -0 wc -l | awk '$2 != "total" && $1 > 700 { sub(/^\.\//, "", $2); print $2 ": " $1 " lines" }'
}

@test "no C file of the program or the module is over 700 lines: one job a file" {
	run long_files
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "the repository cites only documents it holds (docs/design.md, not a design doc outside it)" {
	run grep -rln --exclude-dir=build --exclude-dir=results --exclude-dir=.git --exclude=source.bats 'DESIGN\.md' .
	echo "$output"
	[ "$status" -eq 1 ]
	[ -f docs/design.md ]
}

@test "options are checked by type: OPT_U64 on an unsigned int does not compile" {
	# the same entries on fields of the right types compile
	opt_cc 'uint64_t n; bool f; double d; const char *s; enum e { A, B } m;' \
		'OPT_U64(0, "n", &n, 0, 1, "N", ""), OPT_FLAG(0, "f", &f, ""), OPT_DOUBLE(0, "d", &d, 0, 1, "", "X", ""), OPT_STRING(0, "s", &s, "S", ""), OPT_ENUM(0, "m", &m, names, "M", "")'
	opt_refused 'unsigned int n;' 'OPT_U64(0, "n", &n, 0, 1, "N", "")'
	opt_refused 'int f;' 'OPT_FLAG(0, "f", &f, "")'
	opt_refused 'float d;' 'OPT_DOUBLE(0, "d", &d, 0, 1, "", "X", "")'
	opt_refused 'char *s;' 'OPT_STRING(0, "s", &s, "S", "")'
	opt_refused 'unsigned char m;' 'OPT_ENUM(0, "m", &m, names, "M", "")'
}

# a writer table of struct a with one row whose writer takes @1
writer_cc() {
	printf '#include "lib/subcmd/writer.h"\nstruct a { int x; };\nstruct b { int y; };\n%s\n%s\n' \
		"static int w(FILE *f, const $1 *m) { return fprintf(f, \"%d\", *(const int *)m) < 0; }" \
		'#define ROWS(X, M) X(M, "w", "a writer", w, 0)
REPORT_TABLE(t, struct a, ROWS);' >"$T/w.c"
	cc -std=gnu11 -I. -Wall -c -o "$T/w.o" "$T/w.c"
}

@test "a writer table is checked by its model: a writer of another struct does not compile" {
	writer_cc 'struct a'
	run writer_cc 'struct b'
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"w is not a writer of struct a"* ]]
	# and every table is built so
	run grep -rn --include='*.c' 'const struct report_writer [a-z_]*\[\] = {' lib builtin-*.c bench*.c
	echo "$output"
	[ "$status" -eq 1 ]
}

# one way to print a message: pr_err() (or bench_err, bench_refused), not
# a raw "bench CMD: ..." line; progress lines, which end with no newline
# for the next one to overwrite, are the exception
@test "messages go through pr_err, bench_err or bench_refused, never a raw fprintf" {
	run grep -n 'fprintf(stderr, "%s: [^"]*\\n"' -- *.c lib/*/*.c workloads/*.c
	echo "$output"
	[ "$status" -eq 1 ]
}

# refused_by_hand FILE...: a pr_err() statement whose next line returns
# (or sets ret to) EXIT_ENV, "FILE:LINE: text"; bench_refused() says it
# and returns EXIT_ENV in one call, bench_nomem() when memory ran out
refused_by_hand() {
	awk 'FNR == 1 { pr = 0 }
	     /^[[:space:]]*pr_err\(/ { pr = 1 }
	     pr == 2 && /^[[:space:]]*(return|ret =) EXIT_ENV;/ { print FILENAME ":" FNR ": " $0 }
	     pr == 1 && /;[[:space:]]*$/ { pr = 2; next }
	     pr == 2 { pr = 0 }' "$@"
}

@test "a refusal is bench_refused() or bench_nomem(), never pr_err() and then EXIT_ENV" {
	run refused_by_hand ./*.c lib/*/*.c workloads/*.c
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# the rule sees both forms, and a statement over two lines
	printf '\tpr_err("%%s",\n\t       why);\n\treturn EXIT_ENV;\n\tpr_err("x");\n\tret = EXIT_ENV;\n\tpr_err("y");\n\tfree(p);\n\treturn EXIT_ENV;\n' >"$T/bypass.c"
	run refused_by_hand "$T/bypass.c"
	[ "${lines[0]}" = "$T/bypass.c:3: 	return EXIT_ENV;" ]
	[ "${lines[1]}" = "$T/bypass.c:5: 	ret = EXIT_ENV;" ]
	[ "${#lines[@]}" -eq 2 ]
}

@test "every command's --also and --origin rows are OPT_ALSO and OPT_ORIGIN, never spelled out" {
	run grep -n 'OPT_CALL([^,]*, "\(also\|origin\)"' -- *.c lib/*/*.c
	echo "$output"
	[ "$status" -eq 1 ]
	# the macros are what the commands use
	[ "$(grep -l 'OPT_ALSO\(_PICK\)\?(' -- builtin-*.c | wc -l)" -ge 9 ]
	[ "$(grep -l 'OPT_ORIGIN(' -- builtin-*.c | wc -l)" -ge 9 ]
}

# the scripts and tests that read bench's CSV: run.sh, every shell
# script under tests/ and the bats files (this one aside: it holds the
# rule's examples)
csv_readers() {
	printf '%s\n' run.sh tests/cli/common.bash tests/cli/*.bats | grep -vx tests/cli/source.bats
	find tests -name '*.sh' | sort
}

@test "scripts and tests read bench's CSV by column name, never by position" {
	local files
	mapfile -t files < <(csv_readers)
	run /usr/bin/python3 tests/cli/csv_positions.py "${files[@]}"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# the rule has teeth: each way of reading a column by its place, and
	# the ways that read by name or pin the layout they assume pass
	cat >"$T/x.sh" <<'SH'
verdict() { awk -F, '$1 == w { print $NF }' "$1"; }
awk -F',' -v v=old '$2 == v {
	n += $9 }' "$f"
IFS=, read -r wl var _ _ ch <<<"$row"
grep -v '^#' "$f" | cut -d, -f1-5
grep -q '^[a-z].*,all,all,-1,' "$f"
csv_rows "$f" change_pct verdict variant=alloc |
	awk -F, '{ printf "%+.1f %s\n", $1, $2 }'
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["verdict"] }' "$f"
awk -F, '!hdr { if ($0 != "workload,variant,run") bad = 1; hdr = 1; next } { n += $3 }' "$f"
grep -q '^# vm_qemu: -smp 2,maxcpus=8,sockets=1' "$f"
awk '{ print $2 }' "$f"
SH
	run /usr/bin/python3 tests/cli/csv_positions.py "$T/x.sh"
	[ "$status" -eq 1 ]
	[ "$output" = "$(printf '%s\n' \
		"$T/x.sh:1: verdict() { awk -F, '\$1 == w { print \$NF }' \"\$1\"; }" \
		"$T/x.sh:2: awk -F',' -v v=old '\$2 == v {" \
		"$T/x.sh:4: IFS=, read -r wl var _ _ ch <<<\"\$row\"" \
		"$T/x.sh:5: grep -v '^#' \"\$f\" | cut -d, -f1-5" \
		"$T/x.sh:6: grep -q '^[a-z].*,all,all,-1,' \"\$f\"")" ]
}

# helpers_twice FILE...: each function name that two or more of FILEs
# define, "NAME: FILE FILE...", bats's own hooks aside (every file has
# its setup)
helpers_twice() {
	grep -oE '^[[:space:]]*[A-Za-z_][A-Za-z0-9_]*[[:space:]]*\(\)' -- "$@" |
		sed -E 's/^([^:]*):[[:space:]]*([A-Za-z0-9_]+).*/\2 \1/' |
		grep -vE '^(setup|teardown|setup_file|teardown_file) ' | sort -u |
		awk '$1 == name { files = files " " $2; n++; next }
			{ if (n > 1) print name ": " files; name = $1; files = $2; n = 1 }
			END { if (n > 1) print name ": " files }'
}

@test "a helper of the bats files is defined once: in its file, common.bash or tests/lib.sh" {
	run helpers_twice tests/lib.sh tests/cli/common.bash tests/cli/*.bats
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# the check has teeth: one name in two files, nested or not, is named
	# with both; a hook, or one name twice in one file, is not
	printf 'setup() {\n\tm() { :; }\n}\nm() { :; }\n' >"$T/a.bats"
	printf 'setup() { :; }\n@test "x" {\n\tm () { :; }\n}\nfresh() { :; }\n' >"$T/b.bats"
	run helpers_twice "$T/a.bats" "$T/b.bats"
	[ "$output" = "m: $T/a.bats $T/b.bats" ]
}

# the C files that name metadata keys: the program's, the table's own
# module (lib/results/meta*.c) aside
key_namers() {
	git ls-files -- '*.c' | grep -v -e '^lib/results/meta' -e '^tests/'
}

@test "a metadata key named in C outside lib/results/meta*.c is a row of the keys' table" {
	local files
	mapfile -t files < <(key_namers)
	[ "${#files[@]}" -gt 50 ]
	run python3 tests/cli/meta_keys.py lib/results/metakeys.c "${files[@]}"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# the rule has teeth: a new key, in a call over two lines, in a
	# typed getter, in meta_check(); a row's key, a family's, a variable
	# and a macro pass
	cat >"$T/x.c" <<'C'
void f(struct meta *m, const char *key)
{
	meta_put(m, "possible_cpus", "%u", 4);
	meta_set(m,
		 "brand_new_key", "%s", "x");
	meta_get(m, "label_anything");
	meta_get_u64(m, "runz", &v);
	meta_check("unitt", v, why, len);
	meta_get(m, key);
	meta_put(m, KCIDB_META_ORIGIN, "%s", "o");
}
C
	run python3 tests/cli/meta_keys.py lib/results/metakeys.c "$T/x.c"
	[ "$status" -eq 1 ]
	[ "$output" = "$(printf '%s\n' "$T/x.c:4: brand_new_key" "$T/x.c:7: runz" "$T/x.c:8: unitt")" ]
}

# metadata_read_by_sed FILE...: the lines that take a value out of a
# CSV's "# key: value" lines with sed or awk (sed -n 's/^# KEY: //p', in
# a script or through gnuplot's system()), bats' own "# needs:" aside
metadata_read_by_sed() {
	grep -nE "(sed -n ['\"]s.\^# [a-z_]+|awk [^|]*/\^# [a-z_]+:?/ *\{ *print)" -- "$@" | grep -v '\^# needs:'
}

@test "the scripts read a CSV's metadata through bench show --meta, never with sed or awk" {
	local files
	# this file aside: it holds the rule's examples
	mapfile -t files < <(git ls-files -- run.sh plots '*.sh' '*.bats' '*.bash' ci .ci |
		grep -vx tests/cli/source.bats)
	run metadata_read_by_sed "${files[@]}"
	echo "$output"
	[ -z "$output" ]
	# the rule has teeth: the reads run.sh and the plots had, and a
	# test's, are named; tests/lib.sh's csv_meta, a bats header, an edit
	# that makes a test's input and a grep that checks a line are not
	cat >"$T/x.sh" <<'SH'
possible=$(sed -n 's/^# possible_cpus: //p' "$dir/bench.csv")
wl = system(sprintf("sed -n 's/^# workload: //p' '%s' | head -1", csv))
taken=$(sed -n 's|^# samples_taken: \([0-9]*\)/.*|\1|p' "$T/p.csv")
awk -F': ' '/^# unit:/ { print $2 }' "$f"
[ "$(csv_meta "$f" possible_cpus)" = 480 ]
sed -n 's/^# needs: *//p' "$1"
sed 's/^# unit: ns$/# unit: cycles/' "$F/a.csv" >"$T/b.csv"
grep -q '^# vm_qemu: -smp 2' "$f"
SH
	run metadata_read_by_sed "$T/x.sh"
	[ "$output" = "$(printf '%s\n' "1:possible=\$(sed -n 's/^# possible_cpus: //p' \"\$dir/bench.csv\")" \
		"2:wl = system(sprintf(\"sed -n 's/^# workload: //p' '%s' | head -1\", csv))" \
		"3:taken=\$(sed -n 's|^# samples_taken: \\([0-9]*\\)/.*|\\1|p' \"\$T/p.csv\")" \
		"4:awk -F': ' '/^# unit:/ { print \$2 }' \"\$f\"")" ]
}
