#!/usr/bin/env bats
# needs: -
# One file named twice (lib/subcmd/iopath.h): an output over one of the
# command's inputs, two outputs that are one file, an input given twice.
# Files compare by device and inode, so symlinks, hard links and ./ count.
# Every refusal is exit 2, one line, nothing on stdout, every file as it
# was and none created. Part of the bad-input battery.

load common

setup() {
	common_setup
	cp "$F"/scale/again-p*.csv "$T/"
	IN=("$T"/again-p*.csv)
	A=$F/gate/r480_1.csv
	sha256sum "$T"/*.csv >"$T/sums"
}

# unchanged: every copied input as it was
unchanged() {
	sha256sum -c --quiet "$T/sums"
}

@test "scale -o an input (./ and a symlink): refused, the input kept" {
	bad "-o $T/./again-p64.csv would replace the input $T/again-p64.csv" \
		scale -o "$T/./again-p64.csv" "${IN[@]}"
	ln -s again-p128.csv "$T/link"
	bad "would replace the input $T/again-p128.csv" scale -o "$T/link" "${IN[@]}"
	rm "$T/link"
	unchanged
}
@test "scale --also onto a hard link of an input: refused" {
	ln "$T/again-p256.csv" "$T/hard.json"
	bad "--also $T/hard.json would replace the input $T/again-p256.csv" \
		scale --also "json=$T/hard.json" "${IN[@]}"
	rm "$T/hard.json"
	unchanged
}
@test "scale: two --also naming one new file: refused, none created" {
	bad "--also $T/r and --also $T/./r name one file" \
		scale --also "json=$T/r" --also "csv=$T/./r" "${IN[@]}"
	[ ! -e "$T/r" ]
	unchanged
}
@test "scale: -o and --also naming one file through a dangling symlink: refused" {
	ln -s new.txt "$T/d"
	bad "-o $T/new.txt and --also $T/d name one file" \
		scale -o "$T/new.txt" --also "json=$T/d" "${IN[@]}"
	[ ! -e "$T/new.txt" ]
	unchanged
}
@test "compare --also an input of the AFTER side: refused" {
	cp "$A" "$T/b.csv"
	sha256sum "$T/b.csv" >>"$T/sums"
	bad "--also $T/b.csv would replace the input $T/b.csv" \
		compare --also "json=$T/b.csv" "$A" "$T/b.csv"
	sha256sum -c --quiet "$T/sums"
}
@test "compare: two --also naming one file: refused" {
	bad "name one file" compare --also "json=$T/x" --also "csv=$T/x" "$A" "$A"
	[ ! -e "$T/x" ]
}
@test "trend --also over a control's file: refused" {
	bad "--also $T/again-p480.csv would replace the input $T/again-p480.csv" \
		trend --slope -c "$T" --also "json=$T/again-p480.csv" "$F/scale"
	sha256sum -c --quiet "$T/sums"
}
@test "trend: two --also naming one file: refused" {
	bad "name one file" trend --also "json=$T/x" --also "csv=$T/x" "$T"
	[ ! -e "$T/x" ]
}
@test "kernel -o over its --module: refused before anything else" {
	cp "$A" "$T/m.ko"
	bad "-o $T/./m.ko would replace the input $T/m.ko" kernel --module "$T/m.ko" -o "$T/./m.ko"
	cmp "$A" "$T/m.ko"
}
@test "run -w file-read -o over its --path (a symlink): refused before it runs" {
	ln -s again-p64.csv "$T/link"
	bad "-o $T/link would replace the input $T/again-p64.csv" \
		run -q -n 4 -w file-read --path "$T/again-p64.csv" -o "$T/link"
	rm "$T/link"
	unchanged
	[ -z "$(find "$T" -name '.kstats-bench.*')" ]
}
@test "audit -o or --also over its battery (./ and a symlink): refused, the battery kept" {
	printf 'syscall-null --control\n' >"$T/b.bat"
	cp "$T/b.bat" "$T/keep.bat"
	bad "-o $T/./b.bat would replace the input $T/b.bat" \
		audit -q --no-builtin -n 4 -b "$T/b.bat" -o "$T/./b.bat"
	ln -s b.bat "$T/link"
	bad "--also $T/link would replace the input $T/b.bat" \
		audit -q --no-builtin -n 4 -b "$T/b.bat" --also "csv=$T/link"
	cmp "$T/keep.bat" "$T/b.bat"
	[ -z "$(find "$T" -name '.kstats-bench.*')" ]
}
@test "compare: one file twice on one side (a symlink): refused" {
	ln -s "$PWD/$A" "$T/l.csv"
	bad "$A and $T/l.csv are one file: its runs would count twice" \
		compare "$A" "$T/l.csv" -- "$A"
}
@test "compare: one file on both sides is an A/A test, not a duplicate" {
	run ./bench compare "$F/runs6-480.csv" "$F/runs6-480.csv"
	[ "$status" -eq 0 ]
}
@test "scale: one file twice in a group: refused" {
	bad "$T/again-p64.csv and $T/./again-p64.csv are one file" \
		scale "$T/again-p64.csv" "$T/again-p128.csv" "$T/./again-p64.csv"
}
@test "trend: one file twice in the history: refused" {
	bad "are one file: its runs would count twice" trend "$T" "$T/again-p64.csv"
}
@test "csv: a metadata key twice with two values is refused, naming both" {
	sed '2a # possible_cpus: 999' "$T/again-p64.csv" >"$T/two.csv"
	bad "two.csv:6: possible_cpus given twice" scale "$T/two.csv" "$T/again-p128.csv"
	[[ "$stderr" == *"'64' after '999'"* ]]
}
@test "csv: a metadata key twice with one value is read once" {
	sed '2a # possible_cpus: 64' "$T/again-p64.csv" >"$T/two.csv"
	[ "$(csv_meta "$T/again-p64.csv" possible_cpus)" = 64 ]
	run ./bench show "$T/two.csv"
	[ "$status" -eq 0 ]
}

# ---- --also on the commands that write a results set ----

@test "run -o and --also naming one file: refused before measuring, none created" {
	bad "name one file" run -q -n 16 -o "$T/x.csv" --also "json=$T/./x.csv"
	[ ! -e "$T/x.csv" ]
	bad "is not a format" run -q -n 16 --also "xml=$T/x"
	bad "FMT takes no :PART here" show --also "table:old=$T/x" "$A"
	[ ! -e "$T/x" ]
}
@test "show --also over its input: refused, the input kept" {
	bad "--also $T/./again-p64.csv would replace the input $T/again-p64.csv" \
		show --also "csv=$T/./again-p64.csv" "$T/again-p64.csv"
	unchanged
}
@test "hist --also over its input: refused" {
	seq 1 100 >"$T/s.txt"
	bad "would replace the input $T/s.txt" hist --also "csv=$T/s.txt" "$T/s.txt"
	[ "$(wc -l <"$T/s.txt")" -eq 100 ]
}
@test "run --also: each file whole, FMT:VARIANT the table show -v prints" {
	run ./bench run -q -n 64 -o "$T/r.csv" --also "table:old=$T/old.txt" \
		--also "table:new=$T/new.txt" --also "json=$T/r.json" --also "csv=$T/r2.csv"
	[ "$status" -eq 0 ]
	./bench show -v old "$T/r.csv" >"$T/s-old.txt"
	cmp "$T/s-old.txt" "$T/old.txt"
	./bench show -v new "$T/r.csv" >"$T/s-new.txt"
	cmp "$T/s-new.txt" "$T/new.txt"
	cmp "$T/r.csv" "$T/r2.csv"
	./bench show -f json "$T/r.csv" >"$T/s.json"
	cmp "$T/s.json" "$T/r.json"
	# show writes the same reports again from the file
	./bench show --also "kstats=$T/k1" "$T/r.csv" >/dev/null
	./bench show -f kstats "$T/r.csv" >"$T/k2"
	cmp "$T/k1" "$T/k2"
	# a variant the results lack: exit 2 after measuring, -o and --also as they were
	cp "$T/r.csv" "$T/keep.csv"
	bad "the results have no variant nope" run -q -n 16 -o "$T/r.csv" --also "table:nope=$T/n.txt"
	cmp "$T/keep.csv" "$T/r.csv"
	[ ! -e "$T/n.txt" ]
}
