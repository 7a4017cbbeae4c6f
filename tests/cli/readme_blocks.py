#!/usr/bin/env python3
# readme_blocks.py - the README's examples that make check runs.
#
#   readme_blocks.py extract README.md DIR
#       writes, for every ```console block marked by an HTML comment
#       <!-- check [shape] [exit=N] --> on the line before its fence,
#       DIR/N.sh (its "$ " lines, the commands), DIR/N.want (the other
#       lines, the example output), DIR/N.exit and DIR/N.mode; prints the
#       number of blocks. A ```console block without a marker is an error:
#       an example either runs in make check or is a ```sh block.
#   readme_blocks.py match MODE WANT GOT
#       the lines of WANT appear in GOT in order (other lines of GOT may
#       come between: an example shows some of its output). "..." in WANT
#       stands for lines left out. MODE check: each line exactly; shape:
#       each line with its numbers as N and its blanks as one space, for
#       outputs whose figures differ from run to run.
#   readme_blocks.py deps README.md
#       prints the install lines of the block marked <!-- deps -->, as
#       "FAMILY ROLE PACKAGE..." lines, the first line of a family "run",
#       the second "test".
import os
import re
import sys

MARK = re.compile(r"^<!-- check((?: (?:shape|exit=\d+))*) -->$")


def extract(readme, out):
    lines = open(readme, encoding="utf-8").read().split("\n")
    n = 0
    for i, line in enumerate(lines):
        if not line.startswith("```console"):
            continue
        m = MARK.match(lines[i - 1]) if i else None
        if not m:
            sys.exit("%s:%d: a console block without <!-- check -->" % (readme, i + 1))
        opts = m.group(1).split()
        mode = "shape" if "shape" in opts else "check"
        code = next((o[5:] for o in opts if o.startswith("exit=")), "0")
        body = []
        for b in lines[i + 1:]:
            if b.startswith("```"):
                break
            body.append(b)
        cmds = [b[2:] for b in body if b.startswith("$ ")]
        want = [b for b in body if not b.startswith("$ ")]
        if not cmds:
            sys.exit("%s:%d: a checked block without a $ command" % (readme, i + 1))
        n += 1
        base = os.path.join(out, str(n))
        for ext, text in ((".sh", cmds), (".want", want), (".exit", [code]), (".mode", [mode])):
            with open(base + ext, "w") as f:
                f.write("\n".join(text) + "\n")
        with open(base + ".line", "w") as f:
            f.write("%d\n" % (i + 1))
    print(n)


def shape(line):
    line = re.sub(r"[+-]?\d+(\.\d+)?", "N", line)
    return re.sub(r"\s+", " ", line).strip()


def match(mode, want, got):
    norm = shape if mode == "shape" else (lambda s: s.rstrip())
    want = [norm(w) for w in open(want).read().split("\n") if w.strip() and w.strip() != "..."]
    got = [norm(g) for g in open(got).read().split("\n")]
    j = 0
    for w in want:
        while j < len(got) and got[j] != w:
            j += 1
        if j == len(got):
            print("not in the output (in order): " + w)
            return 1
        j += 1
    return 0


def deps(readme):
    text = open(readme, encoding="utf-8").read()
    m = re.search(r"^<!-- deps -->\n```sh\n(.*?)^```$", text, re.S | re.M)
    if not m:
        sys.exit(readme + ": no block marked <!-- deps -->")
    seen = {}
    for line in m.group(1).splitlines():
        w = line.split()
        if not w or w[0] == "#":
            continue
        cmd = " ".join(w[:2])
        fam = {"apt-get install": "apt", "dnf install": "dnf",
               "zypper install": "zypper", "pacman -S": "pacman"}.get(cmd)
        if not fam:
            sys.exit(readme + ": not an install line: " + line)
        role = "run" if fam not in seen else "test"
        seen[fam] = 1
        print(fam, role, " ".join(w[2:]))


if __name__ == "__main__":
    a = sys.argv[1:]
    if a[:1] == ["extract"] and len(a) == 3:
        extract(a[1], a[2])
    elif a[:1] == ["match"] and len(a) == 4:
        sys.exit(match(*a[1:]))
    elif a[:1] == ["deps"] and len(a) == 2:
        deps(a[1])
    else:
        sys.exit("usage: readme_blocks.py extract README DIR | match MODE WANT GOT | deps README")
