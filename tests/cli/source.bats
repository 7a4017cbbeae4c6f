#!/usr/bin/env bats
# shellcheck shell=bats
# Checks on the source tree itself: the layering between the folders.

load common

setup() {
	common_setup
}

@test "lib/ includes nothing from workloads/ (the engine owns its plug-in interface)" {
	run grep -l '#include.*workloads/' lib/*.c lib/*.h
	echo "$output"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
}

@test "only the command that picks a workload includes the registry" {
	run grep -l '#include.*registry\.h' -- *.c lib/*.[ch] workloads/*.[ch]
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' builtin-run.c workloads/registry.c)" ]
}
