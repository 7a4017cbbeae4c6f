#!/usr/bin/env python3
# md_links.py FILE.md... - every relative link of these markdown files
# names a file of the checkout, and every #anchor a heading of that file,
# slugged as GitHub slugs them. Prints each broken link; exit 1 if any.
import os
import re
import sys


def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def anchors(path):
    seen, out = {}, set()
    fence = False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fence = not fence
        if fence or not line.startswith("#"):
            continue
        s = slug(line.lstrip("#"))
        n = seen.get(s, 0)
        seen[s] = n + 1
        out.add(s if n == 0 else "%s-%d" % (s, n))
    return out


def main(files):
    bad = 0
    for f in files:
        text = open(f, encoding="utf-8").read()
        text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            full = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
            if not os.path.exists(full):
                print("%s: %s: no such file" % (f, target))
                bad = 1
            elif anchor and full.endswith(".md") and anchor not in anchors(full):
                print("%s: %s: no such heading" % (f, target))
                bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
