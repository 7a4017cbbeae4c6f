#!/usr/bin/env python3
# meta_keys.py TABLE FILE... - the metadata keys that the C files FILE...
# name as a string literal, where the table TABLE (lib/results/metakeys.c)
# has no row for them: the key argument of every call of meta_get(),
# meta_put(), meta_set(), meta_get_u64(), meta_get_num(), meta_get_bool()
# (the second) and meta_check() (the first), a call over several lines
# read whole. A key matches its own row or a family's ("label_" for
# label_commit). Prints FILE:LINE: KEY for each; exit 1 if any, 2 when the
# table holds no rows.
import re
import sys

ROW = re.compile(r'^\s*KEY_[A-Z0-9]+\("([a-z0-9_]+)"', re.M)
CALL = re.compile(r"\bmeta_(get|put|set|get_u64|get_num|get_bool|check)\s*\(")
LITERAL = re.compile(r'\s*"([^"\\]*)"\s*$')


def table(path):
    keys = ROW.findall(open(path, encoding="utf-8").read())
    return set(k for k in keys if not k.endswith("_")), [k for k in keys if k.endswith("_")]


def arguments(text, start):
    """the top-level arguments of the call whose '(' is at start"""
    depth, args, cur, i, quote = 0, [], "", start + 1, None
    while i < len(text):
        c = text[i]
        if quote:
            cur += c
            if c == "\\":
                cur += text[i + 1]
                i += 1
            elif c == quote:
                quote = None
        elif c in "\"'":
            quote = c
            cur += c
        elif c in "([{":
            depth += 1
            cur += c
        elif c in ")]}":
            if depth == 0:
                args.append(cur)
                return args
            depth -= 1
            cur += c
        elif c == "," and depth == 0:
            args.append(cur)
            cur = ""
        else:
            cur += c
        i += 1
    return args


def main(argv):
    if len(argv) < 1:
        return 2
    keys, families = table(argv[0])
    if not keys:
        print("%s: no KEY_...(\"name\", ...) rows" % argv[0])
        return 2
    bad = 0
    for path in argv[1:]:
        text = open(path, encoding="utf-8").read()
        for m in CALL.finditer(text):
            if text[:m.start()].rstrip().endswith(("int", "*", "char")):
                continue        # a declaration, not a call
            args = arguments(text, m.end() - 1)
            at = 0 if m.group(1) == "check" else 1
            if len(args) <= at:
                continue
            lit = LITERAL.match(args[at])
            if not lit:
                continue        # a variable, a macro: the table's rule is for names written out
            key = lit.group(1)
            if key in keys or any(key.startswith(f) and key != f for f in families):
                continue
            print("%s:%d: %s" % (path, text.count("\n", 0, m.start()) + 1, key))
            bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
