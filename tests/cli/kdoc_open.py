#!/usr/bin/env python3
# kdoc_open.py HEADER... - the declarations of a header whose contract
# comment does not open with "/**", as kernel-doc wants it: a function's
# prototype (or static inline definition) after a blank line must follow
# a comment that opens "/**" and names it; prototypes right below another
# share its comment. Prints HEADER:LINE: NAME for each; exit 1 if any.
import re
import sys

PROTO = re.compile(r"^(static inline |extern )?[a-z_][a-z0-9_ ]*[ *]\**([a-z_][a-z0-9_]*)\(")


def main(paths):
    bad = 0
    for path in paths:
        lines = open(path, encoding="utf-8").read().split("\n")
        depth = 0
        for i, line in enumerate(lines):
            m = PROTO.match(line)
            if m and depth == 0 and not line.startswith("static ") or (m and line.startswith("static inline ")):
                prev = lines[i - 1] if i else ""
                if prev.strip() == "*/":
                    j = i - 1
                    while j > 0 and not lines[j].startswith("/*"):
                        j -= 1
                    if lines[j] != "/**" or m.group(2) not in "\n".join(lines[j:i]):
                        print("%s:%d: %s" % (path, i + 1, m.group(2)))
                        bad = 1
                elif prev.strip() == "" or prev.startswith("#"):
                    print("%s:%d: %s (no comment)" % (path, i + 1, m.group(2)))
                    bad = 1
            depth += line.count("{") - line.count("}")
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
