#!/usr/bin/env python3
"""Every value list of a synopsis in the docs, such as `[-m serial|parallel]`
after `bench run`, is the list the binary takes (bench --list-values CMD OPT),
in its order. Prints one line per mismatch and exits 1; 0 when all agree."""
import re
import subprocess
import sys

SYN = re.compile(r'\bbench ([a-z]+) \[')
OPT = re.compile(r'\[(-{1,2}[a-z][a-z-]*) ([a-z0-9-]+(?:\|[a-z0-9-]+)+)\]')


def values(bench, cmd, opt):
	p = subprocess.run([bench, '--list-values', cmd, opt], capture_output=True, text=True)
	return p.stdout.split() if p.returncode == 0 else None


def main(bench, files):
	bad = seen = 0
	for path in files:
		cmd = None
		for n, line in enumerate(open(path, encoding='utf-8'), 1):
			m = SYN.search(line)
			if m:
				cmd = m.group(1)
			elif not re.match(r'\s+\[', line):
				cmd = None
			if not cmd:
				continue
			for opt, vals in OPT.findall(line):
				seen += 1
				want = values(bench, cmd, opt)
				if want != vals.split('|'):
					print(f'{path}:{n}: bench {cmd} {opt} {vals}: the binary takes '
					      f'{"|".join(want) if want else "no such list"}')
					bad += 1
	print(f"{seen} value lists checked")
	return 1 if bad or not seen else 0


if __name__ == '__main__':
	sys.exit(main(sys.argv[1], sys.argv[2:]))
