#!/usr/bin/env python3
# lkp_table.py - read a 0-day LKP comparison table (bench compare -f lkp,
# the table of bisect.txt) on stdin, as a reader of 0-day's mails would:
# the header of the two commits, the dashes, "%stddev  %change  %stddev"
# and the arrows, then one row per metric. Prints one JSON object:
# {"commits": [BASE, NEW], "rows": [{"base", "base_stddev", "change",
# "new", "new_stddev", "metric", "beside"}]}, a stddev null where the row
# shows no "± N%". Exit 1 with the line on stderr when one is not so.
import json
import re
import sys

HEAD = [
    re.compile(r"^(\S.{15}) (\S.{26}) $"),
    re.compile(r"^-{16} -{27} $"),
    re.compile(r"^ {9}%stddev {5}%change {9}%stddev$"),
    re.compile(r"^ {13}\\ {10}\| {16}\\  $"),
]
NUM = r"-?[0-9.]+(?:e[+-][0-9]+)?"
ROW = re.compile(r"^(?P<base> {0,9}" + NUM + r")(?P<bsd> ±(?P<bs>[ 0-9]{3})%| {6})"
                 r"(?P<change> *[+-]" + NUM + r"%)(?P<new> *" + NUM + r")"
                 r"(?P<nsd> ±(?P<ns>[ 0-9]{3})%| {6})  (?P<metric>\S+)(?:  (?P<beside>.*))?$")


def fail(n, line, why):
    sys.stderr.write("line %d: %s: %r\n" % (n, why, line))
    sys.exit(1)


lines = sys.stdin.read().split("\n")
if lines and lines[-1] == "":
    lines.pop()
if len(lines) < 4:
    fail(len(lines), "", "no header")
for i, rx in enumerate(HEAD):
    if not rx.match(lines[i]):
        fail(i + 1, lines[i], "not the header's line %d" % (i + 1))
m = HEAD[0].match(lines[0])
out = {"commits": [m.group(1).strip(), m.group(2).strip()], "rows": []}
for n, line in enumerate(lines[4:], 5):
    r = ROW.match(line)
    if not r:
        fail(n, line, "not a row")
    if len(r.group("base")) != 10 or len(r.group("change")) != 11 or len(r.group("new")) != 11:
        fail(n, line, "a column out of its width")
    out["rows"].append({
        "base": float(r.group("base")),
        "base_stddev": int(r.group("bs")) if r.group("bs") else None,
        "change": float(r.group("change").strip()[:-1]),
        "new": float(r.group("new")),
        "new_stddev": int(r.group("ns")) if r.group("ns") else None,
        "metric": r.group("metric"),
        "beside": r.group("beside"),
    })
json.dump(out, sys.stdout)
sys.stdout.write("\n")
