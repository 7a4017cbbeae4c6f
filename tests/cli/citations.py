#!/usr/bin/env python3
# citations.py [FILE...] - every citation of a section of README.md or of
# a docs/*.md file, such as  README's "Install"  or  (docs/reference.md,
# "Output files"), names a heading that document has. Comment leaders
# and C string quotes are taken off first, so a citation may run over
# two lines of a comment or of a --help string. FILEs default to every
# file git tracks. Prints each dangling citation, of a section that is
# gone or of a document that is; exit 1 if any.
import os
import re
import subprocess
import sys

CITE = re.compile(r"""(README(?:\.md)?|(?:docs/)?[A-Za-z0-9_-]+\.md)(?:'s\s*|,\s*|\s*\(\s*)"([^"]+)\"""")
LEADER = re.compile(r'^(?:#+|\*+|//|\.\\"|;+)\s?')


def norm(s):
    return " ".join(s.replace("`", "").split()).lower()


def headings(path):
    out, fence = set(), False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fence = not fence
        elif not fence and line.startswith("#"):
            out.add(norm(line.lstrip("#")))
    return out


def flat(text):
    """the text as one line, comment leaders and C string quotes off"""
    words = []
    for line in text.splitlines():
        line = LEADER.sub("", line.strip())
        m = re.match(r'^"(.*?)(?:\\n)?",?\)?;?$', line)
        if m:
            line = m.group(1)
        words.append(line.replace('\\"', '"'))
    return " ".join(words)


def target(doc, where):
    if doc.startswith("README"):
        return "README.md"
    if "/" in doc:
        return doc
    for d in ("docs", os.path.dirname(where)):
        if os.path.exists(os.path.join(d, doc)):
            return os.path.join(d, doc)
    return doc


def check(path, cache):
    try:
        text = open(path, encoding="utf-8").read()
    except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
        return 0
    bad = 0
    for doc, section in CITE.findall(flat(text)):
        doc = target(doc, path)
        if not os.path.isfile(doc):
            print('%s: %s is missing (cited for "%s")' % (path, doc, section))
            bad = 1
            continue
        if doc not in cache:
            cache[doc] = headings(doc)
        if norm(section) not in cache[doc]:
            print('%s: %s has no section "%s"' % (path, doc, section))
            bad = 1
    return bad


def main(files):
    if not files:
        files = subprocess.run(["git", "ls-files"], capture_output=True, text=True,
                               check=True).stdout.split()
    cache, bad = {}, 0
    for f in files:
        bad |= check(f, cache)
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
