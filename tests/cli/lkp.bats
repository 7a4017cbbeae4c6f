#!/usr/bin/env bats
# needs: python3 jq
# bench compare -f lkp: 0-day's two-column table, read back by a table
# reader (tests/cli/lkp_table.py: the header, the columns at 0-day's
# widths) and checked against compare's own csv (the verdict, the
# Hodges-Lehmann change, its interval, p, n) and its -f runs (each
# side's mean and relative stddev over the runs).

load common

setup() {
	common_setup
	G=$F/gate
	REG=("$G"/r480_{1..6}.csv -- "$G"/r528_{1..6}.csv)
	AA=("$G"/r480_{1..6}.csv -- "$G"/r480_{7..12}.csv)
}

# read_back ARGS...: bench compare -f lkp ARGS read back, against -f csv and
# -f runs of the same ARGS; $T/table.json holds what was read
read_back() {
	./bench compare -f lkp "$@" >"$T/lkp.txt" 2>/dev/null || [ $? -eq 1 ]
	./bench compare -f csv "$@" >"$T/cmp.csv" 2>/dev/null || [ $? -eq 1 ]
	./bench compare -f runs "$@" >"$T/runs.csv" 2>/dev/null || [ $? -eq 1 ]
	/usr/bin/python3 tests/cli/lkp_table.py <"$T/lkp.txt" >"$T/table.json"
	/usr/bin/python3 - "$T/table.json" "$T/cmp.csv" "$T/runs.csv" <<'PY'
import csv, json, math, sys
t = json.load(open(sys.argv[1]))
cmp = list(csv.DictReader(open(sys.argv[2])))
runs = list(csv.DictReader(open(sys.argv[3])))
stat = cmp[0]["stat"]
assert len(t["rows"]) == len(cmp), (t, cmp)

def pct(v):
    return "%+.1f%%" % float(v)

def side(wl, var, s):
    x = [float(r[stat]) for r in runs if (r["workload"], r["variant"], r["side"]) == (wl, var, s)]
    m = sum(x) / len(x)
    sd = math.sqrt(sum((v - m) ** 2 for v in x) / (len(x) - 1)) / m * 100
    return m, (round(sd) if round(sd) >= 2 else None)

def shown(v):
    return float("%.4g" % v) if v >= 1e8 else round(v) if v >= 1000 else round(v, 2)

for row, c in zip(t["rows"], cmp):
    assert row["metric"] == "%s.%s.%s" % (c["workload"], c["variant"], stat), row
    verdict = {"significant below threshold": "significant, below threshold"}.get(c["verdict"], c["verdict"])
    p = float(c["p"])
    want = "%s %s [%s, %s] %s n=%s+%s" % (verdict, pct(c["change_pct"]), pct(c["ci_lo_pct"]),
                                          pct(c["ci_hi_pct"]),
                                          "p=%.3f" % p if p >= 0.0005 else "p<0.001",
                                          c["n_before"], c["n_after"])
    assert row["beside"] == want, (row["beside"], want)
    mb, sb = side(c["workload"], c["variant"], "before")
    ma, sa = side(c["workload"], c["variant"], "after")
    assert (row["base"], row["base_stddev"]) == (shown(mb), sb), (row, mb, sb)
    assert (row["new"], row["new_stddev"]) == (shown(ma), sa), (row, ma, sa)
    assert row["change"] == round((ma / mb - 1) * 100, 1), (row, ma / mb)
PY
}

@test "-f lkp: the regression's table, each row's figures and verdict those of csv and runs" {
	run --separate-stderr ./bench compare -f lkp "${REG[@]}"
	[ "$status" -eq 1 ]
	read_back "${REG[@]}"
	run jq -c '[.commits, [.rows[] | [.metric, .base_stddev, .change, .new_stddev]]]' "$T/table.json"
	[ "$output" = '[["before","after"],[["irqdesc-alloc.old.tm10",3,16,3],["irqdesc-alloc.new.tm10",2,55.9,2]]]' ]
	# the header, byte for byte as 0-day's (trailing spaces included)
	run head -4 "$T/lkp.txt"
	[ "${lines[0]}" = "before           after                       " ]
	[ "${lines[1]}" = "---------------- --------------------------- " ]
	[ "${lines[2]}" = "         %stddev     %change         %stddev" ]
	[ "${lines[3]}" = '             \          |                \  ' ]
	[ "$(sed -n 5p "$T/lkp.txt")" = "     13193 ±  3%     +16.0%      15306 ±  3%  irqdesc-alloc.old.tm10  regression +16.4% [+11.7%, +20.2%] p=0.001 n=6+6" ]
}

@test "-f lkp: an A/A pair is '~' beside every row, exit 0; a quiet side shows no ±" {
	run --separate-stderr ./bench compare -f lkp "${AA[@]}"
	[ "$status" -eq 0 ]
	read_back "${AA[@]}"
	read_back -s p99 "${AA[@]}"
	run jq -c '[.rows[] | [.metric, .base_stddev, .new_stddev, (.beside | split(" ")[0])]]' "$T/table.json"
	[ "$output" = '[["irqdesc-alloc.old.p99",6,null,"~"],["irqdesc-alloc.new.p99",2,3,"~"]]' ]
	[ "$(sed -n 5p "$T/lkp.txt")" = "     20836 ±  6%      -1.6%      20498        irqdesc-alloc.old.p99  ~ +0.4% [-10.0%, +0.7%] p=0.155 n=6+6" ]
}

@test "-f lkp: the columns are headed by the sides' --label commit, cut as 0-day cuts them" {
	b=1111111111111111111111111111111111111111
	a=2222222222222222222222222222222222222222
	for i in 1 2 3 4 5 6; do
		sed "/^# partial:/a # label_commit: $b" "$G/r480_$i.csv" >"$T/b$i.csv"
		sed "/^# partial:/a # label_commit: $a" "$G/r528_$i.csv" >"$T/a$i.csv"
	done
	read_back "$T"/b{1..6}.csv -- "$T"/a{1..6}.csv
	[ "$(head -1 "$T/lkp.txt")" = "${b:0:16} ${a:0:27} " ]
	[ "$(jq -c .commits "$T/table.json")" = "[\"${b:0:16}\",\"${a:0:27}\"]" ]
}

@test "lkp_table.py refuses what is not 0-day's table" {
	./bench compare -f lkp "${REG[@]}" >"$T/lkp.txt" 2>/dev/null || [ $? -eq 1 ]
	# the table as it is reads back; each fault below is refused
	/usr/bin/python3 tests/cli/lkp_table.py <"$T/lkp.txt" >/dev/null
	sed '3s/%change/%chg/' "$T/lkp.txt" >"$T/bad.txt"
	run /usr/bin/python3 tests/cli/lkp_table.py <"$T/bad.txt"
	[ "$status" -eq 1 ]
	sed '5s/ ±  3%/ ± 3%/' "$T/lkp.txt" >"$T/bad.txt"
	run /usr/bin/python3 tests/cli/lkp_table.py <"$T/bad.txt"
	[ "$status" -eq 1 ]
}
