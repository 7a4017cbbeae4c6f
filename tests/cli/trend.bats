#!/usr/bin/env bats
# bench trend: change points over a history of runs (lib/trend.h), and
# the independent reference its unit test is checked against.

load common

setup() {
	common_setup
}

@test "the Python reference still writes the fixture test_trend checks the C against" {
	run python3 tests/trend_ref.py --check "$F/trend-ref.txt"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(grep -c '^case ' "$F/trend-ref.txt")" -eq 6 ]
	[ "$(grep -c '^cp ' "$F/trend-ref.txt")" -eq 4 ]
}
