#!/usr/bin/env bats
# needs: -
# ./run.sh bisect's refusals, which come before anything is built, and
# bisect-step.sh's; the bisect itself runs in make bisectcheck, on real
# kernels.

load common

setup() {
	common_setup
	G=$T/tree
	mkdir -p "$G"
	git -C "$G" init -q
	git -C "$G" config user.email t@t
	git -C "$G" config user.name t
	echo one >"$G/f"
	git -C "$G" add f
	git -C "$G" commit -q -m one
	git -C "$G" tag one
	echo two >"$G/f"
	git -C "$G" commit -q -am two
	git -C "$G" tag two
	git -C "$G" checkout -q -b side one
	echo side >"$G/f"
	git -C "$G" commit -q -am side
	git -C "$G" checkout -q two
	touch "$G/.config"
	export KSB_NO_DEPS=1 KSB_RESULTS=$T/results
}

# refuses WANT ARGS...: exit 2, one line on stderr containing WANT, the
# tree untouched and no results directory
refuses() {
	local want=$1 head
	shift
	head=$(git -C "$G" rev-parse HEAD)
	run --separate-stderr ./run.sh bisect "$@"
	echo "status $status stderr: $stderr"
	[ "$status" -eq 2 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == "run.sh bisect: "*"$want"* ]]
	[ "$(git -C "$G" rev-parse HEAD)" = "$head" ]
	[ ! -e "$T/results" ]
}

@test "bisect: a revision that does not exist, named" {
	refuses "'nosuch': no such revision in $G" "$G" nosuch two
	refuses "'v9.9': no such revision in $G" "$G" one v9.9
}

@test "bisect: GOOD not an ancestor of BAD, or the same commit" {
	refuses "'side' is not an ancestor of 'two'" "$G" side two
	refuses "GOOD and BAD are the same commit" "$G" two two
}

@test "bisect: a dirty tree, a bisect going, not a git tree, no .config" {
	echo dirty >"$G/f"
	refuses "$G: uncommitted changes" "$G" one two
	git -C "$G" checkout -q f
	git -C "$G" bisect start two one >/dev/null
	refuses "$G: a bisect is already going" "$G" one two
	git -C "$G" bisect reset >/dev/null 2>&1
	mkdir -p "$T/plain"
	refuses "$T/plain: not a git work tree" "$T/plain" one two
	rm "$G/.config"
	refuses "$G: no .config" "$G" one two
}

@test "bisect: usage: too few operands, an unknown option, an empty command" {
	refuses "TREE GOOD BAD expected" "$G" one
	refuses "unknown option '--frob'" --frob "$G" one two
	refuses "an empty COMMAND after '--'" "$G" one two --
}

@test "bisect --help names the step script and the exit codes" {
	run ./run.sh --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"./run.sh bisect [OPTIONS] TREE GOOD BAD [-- COMMAND...]"* ]]
	[[ "$output" == *"git bisect run bisect-step.sh"* ]]
	[[ "$output" == *"Exit 0 found, 1 BAD does not regress against GOOD, 2 bad usage"* ]]
}

@test "bisect-step.sh: --help is its header; without a good kernel it aborts the bisect (128)" {
	run ./bisect-step.sh --help
	[ "$status" -eq 0 ]
	[[ "$output" == "bisect-step.sh - one step of a kernel performance bisect"* ]]
	[[ "$output" == *"125 skip (the"* ]]
	run --separate-stderr bash -c "cd '$G' && KSB_BISECT_OUT='$T/out' KSB_BISECT_GOOD='$T/none' '$PWD/bisect-step.sh'"
	[ "$status" -eq 128 ]
	[[ "$stderr" == "bisect-step: KSB_BISECT_GOOD: no bzImage in '$T/none' (bisect-step.sh --baseline DIR makes it)" ]]
	run ./bisect-step.sh --frob
	[ "$status" -eq 2 ]
}

@test "bisect-step.sh: a kernel that does not build is skipped (125), said so" {
	mkdir -p "$T/good" "$T/out"
	: >"$T/good/bzImage"
	printf 'olddefconfig bzImage modules:\n\t@echo "no rule to make vmlinux" >&2; exit 1\n' >"$G/Makefile"
	git -C "$G" add Makefile
	git -C "$G" commit -q -m make
	run --separate-stderr bash -c "cd '$G' && KSB_BISECT_OUT='$T/out' KSB_BISECT_GOOD='$T/good' '$PWD/bisect-step.sh'"
	[ "$status" -eq 125 ]
	# make's own last line says where
	[[ "$stderr" == "bisect-step: $(git -C "$G" rev-parse --short HEAD): the kernel does not build (make: *** [Makefile:2: olddefconfig] Error 1): skipped" ]]
}
