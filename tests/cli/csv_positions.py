#!/usr/bin/env python3
# csv_positions.py FILE... - the lines of shell scripts and bats files
# that read bench's CSV by the place of a column rather than its name:
#
#   awk -F, whose program names a field by number ($8, $NF), unless it
#     reads what csv_rows picked by name (csv_rows ... | awk -F,) or
#     pins the header it assumes in a literal ("workload,variant,...")
#   cut -d, -f
#   IFS=, read
#   grep '^a,b,...': a row matched by its first two columns or more
#     ("#" metadata lines aside)
#
# tests/lib.sh's csv_rows, csv_col, csv_sum and csv_index read columns by
# name. Prints FILE:LINE: the line for each; exit 1 if any.
import re
import sys

COMMA = r"""(,|','|",")"""
AWK = re.compile(r"\bawk\b[^'|;]*?-F\s*" + COMMA)
FIELD = re.compile(r"\$([0-9]|NF\b|\(NF)")
HEADER = re.compile(r'"[a-z_]+,[a-z_]+,')
CUT = re.compile(r"\bcut\b[^|;]*-d\s*" + COMMA + r"[^|;]*-f")
IFS = re.compile(r"\bIFS=" + COMMA + r"\s+read\b")
GREP = re.compile(r"""\bgrep\b[^|;]*?(['"])\^(?!#)[^'"]*,[^'"]*,""")


def awk_program(lines, i, end):
    """the single-quoted program that follows an awk at lines[i][end:]"""
    rest = "\n".join([lines[i][end:]] + lines[i + 1:])
    start = rest.find("'")
    if start < 0:
        return ""
    stop = rest.find("'", start + 1)
    return rest[start + 1:stop if stop >= 0 else None]


def by_position(lines, i):
    line = lines[i]
    m = AWK.search(line)
    if m:
        prev = lines[i - 1].rstrip() if i else ""
        fed = "csv_rows" in line[:m.start()] or (prev.endswith("|") and "csv_rows" in prev)
        prog = awk_program(lines, i, m.end())
        if FIELD.search(prog) and not fed and not HEADER.search(prog):
            return True
    return bool(CUT.search(line) or IFS.search(line) or GREP.search(line))


def main(paths):
    bad = 0
    for path in paths:
        lines = open(path, encoding="utf-8").read().split("\n")
        for i, line in enumerate(lines):
            if by_position(lines, i):
                print("%s:%d: %s" % (path, i + 1, line.strip()))
                bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
