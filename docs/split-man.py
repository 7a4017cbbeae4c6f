#!/usr/bin/env python3
# split-man.py SINGLE.1 DOCS [--keep CMD,...] - a one-off migration, to be
# deleted once every branch is merged: cut the former single page (one .SS
# per command under COMMANDS) into docs/kstats-bench-CMD.1, one page per
# command, and the summary docs/kstats-bench.1. A branch that edited the
# single page: merge it into main first, then rerun this on main's
# docs/kstats-bench.1 to carry its edits into the per-command pages.
# --keep: commands whose page is written by hand (docs/kstats-bench-CMD.1
# exists and stays); they are listed in the summary all the same. Run it
# from the checkout root after `make bench`: the commands are ./bench --help's.
import re
import subprocess
import sys

DATE = '2026-12-02'
VER = '"kstats-bench 0.1.0" "User Commands"'
# NAME lines, under 80 bytes with their prefix; --help's wording otherwise
NAMES = {
    'run': "time a workload's old and new paths on pinned workers",
    'list': 'list the workloads',
    'calibrate': 'TSC frequency, clocksource, per-CPU timer overhead',
    'doctor': 'check this host for what makes timings noisy',
    'show': 'print a CSV again as its command printed it, or one series',
    'compare': 'compare before and after CSVs: the CI regression gate',
    'trend': 'change points over a history of results: the nightly job',
    'scale': 'the cost per possible CPU of each series over a sweep, and its gate',
    'hist': 'print the kstats table of a list of integer samples',
    'kernel': 'time the same code inside the running kernel',
    'trace': 'time any kernel function with BPF into kstats tables',
    'vm': 'boot kernels under test in qemu with many possible CPUs',
}
SEE = {
    'run': ['list', 'show', 'compare', 'doctor'], 'list': ['run'], 'calibrate': ['run'],
    'doctor': ['run'], 'show': ['run', 'compare'], 'compare': ['run', 'trend', 'show'],
    'trend': ['compare', 'run'], 'hist': ['show'], 'kernel': ['run', 'vm', 'compare'],
    'trace': ['kernel', 'vm', 'compare'], 'vm': ['kernel', 'compare', 'trace'],
}
# references to the summary's sections, made explicit in a command's page
XREFS = [
    ('Any of OUTPUT FORMATS', 'Any of OUTPUT FORMATS in\n.BR kstats-bench (1)'),
    ('those of TESTBED)', 'those of TESTBED in\nkstats-bench(1))'),
    ('(see JSON FORMAT)', '(see JSON FORMAT in kstats-bench(1))'),
    ('see\n.BR "OUTPUT FORMATS" .', 'see\n.B "OUTPUT FORMATS"\nin\n.BR kstats-bench (1).'),
    ('(see\n.BR TESTBED ;', '(see\n.B TESTBED\nin\n.BR kstats-bench (1);'),
    ('between the two (README,\n\\(lqbench trace\\(rq, states it',
     'between the two\n(docs/measurements.md,\n\\(lqbench trace: the probe\\(aqs overhead\\(rq, states it'),
]
# the single page's synopsis ran doctor's into trace's and had no kernel
BROKEN_SYN = """.B doctor
.RB [ \\-c
.IR cpus ]
.RB [ \\-q ]
.B trace
"""
FIXED_SYN = """.B doctor
.RB [ \\-c
.IR cpus ]
.RB [ \\-q ]
.YS
.SY kstats-bench
.B kernel
.RB [ \\-w
.BR kernel\\-set\\-defaults | kernel\\-irq\\-alloc ]
.RB [ \\-n
.IR samples ]
.RB [ \\-c
.IR cpus ]
.RB [ \\-b
.IR frac_bits ]
.RB [ \\-f
.IR format ]
.RB [ \\-o
.IR file.csv ]
.RB [ \\-\\-module
.IR ko ]
.RB [ \\-\\-label
.IR key = value ]
.RB [ \\-q ]
.YS
.SY kstats-bench
.B trace
"""


def bench_commands():
    """(name, --help's line) of each command of ./bench --help, in order"""
    out = subprocess.run(['./bench', '--help'], capture_output=True, text=True).stdout
    block = out.split('Commands:\n', 1)[1].split('\n\n', 1)[0]
    return [tuple(l.split(None, 1)) for l in block.splitlines()]


def idx(src, pred, start=0):
    return next(i for i in range(start, len(src)) if pred(src[i]))


def command_page(c, name, syn, body):
    t = next((k for k, l in enumerate(body) if l.startswith('.TP')), len(body))
    out = ['.\\" SPDX-License-Identifier: GPL-2.0',
           '.\\" kstats-bench-%s(1). OPTIONS follows `bench %s --help`, in its order:' % (c, c),
           '.\\" tests/cli/install.bats checks that every long option of that --help',
           '.\\" is here. Check with `mandoc -T lint docs/kstats-bench-%s.1`.' % c,
           '.TH KSTATS-BENCH-%s 1 %s %s' % (c.upper(), DATE, VER),
           '.SH NAME', 'kstats-bench-%s \\- %s' % (c, name.replace('-', '\\-')),
           '.SH SYNOPSIS']
    for b in syn:
        out += b
    out += ['.SH DESCRIPTION'] + body[:t]
    if c == 'run':
        out += ['.PP', 'This page is the command', '.BR "kstats-bench run" .',
                'The program', '.BR kstats-bench-run ,', 'the installed', '.BR run.sh ,',
                'that runs it on every CPU and plots the results, is described under',
                '.B "THE ONE COMMAND"', 'in', '.BR kstats-bench (1).']
    out += ['.SH OPTIONS'] + body[t:]
    out += ['.TP', '.BR \\-h ", " \\-\\-help', 'Print the usage and every option, and exit 0.']
    out += ['.SH EXIT STATUS',
            '0 done; 1 a regression' + (' (the gate failed)' if c in ('compare', 'trend')
                                        else ', from compare and trend only') + ';',
            '2 bad usage or input, with one line on standard error naming the option,',
            'file and line;', '3 the environment refused;',
            '130 or 143 interrupted by SIGINT or SIGTERM, after writing what was measured.',
            'The summary page', '.BR kstats-bench (1)',
            'has the details, the output formats, the environment and the files.',
            '.SH SEE ALSO', '.BR kstats-bench (1),']
    see = SEE.get(c, ['run'])
    for k, s in enumerate(see):
        out.append('.BR kstats-bench-%s (1)%s' % (s, ',' if k < len(see) - 1 else ''))
    text = '\n'.join(l for l in out) + '\n'
    text = re.sub(r'\n\n+', '\n', text)
    for a, b in XREFS:
        text = text.replace(a, b)
    return text


def main(single, docs, keep):
    text = open(single).read().replace(BROKEN_SYN, FIXED_SYN)
    src = text.split('\n')
    syn = src.index('.SH SYNOPSIS')
    desc = src.index('.SH DESCRIPTION')
    cmds = src.index('.SH COMMANDS')
    after = idx(src, lambda l: l.startswith('.SH '), cmds + 1)
    blocks, i = [], syn + 1
    while i < desc:
        if src[i].startswith('.SY'):
            j = idx(src, lambda l: l == '.YS', i)
            blocks.append(src[i:j + 1])
            i = j + 1
        else:
            i += 1
    secs, i = {}, cmds + 1
    while i < after:
        m = re.match(r'^\.SS (\S+)$', src[i])
        j = idx(src, lambda l: l.startswith('.SS ') or l.startswith('.SH '), i + 1)
        secs[m.group(1)] = src[i + 1:j]
        i = j
    commands = bench_commands()
    for c, helpline in commands:
        if c in keep:
            continue
        if c not in secs:
            sys.exit('%s: no section for %s: give its page with --keep' % (single, c))
        syn_c = [b for b in blocks if b[0] == '.SY kstats-bench' and b[1:2] == ['.B ' + c]]
        if not syn_c:
            sys.exit('%s: no synopsis for %s' % (single, c))
        with open('%s/kstats-bench-%s.1' % (docs, c), 'w') as f:
            f.write(command_page(c, NAMES.get(c, helpline), syn_c, secs[c]))
    # the summary: what the commands share, and a list of their pages
    name = src.index('.SH NAME') + 1
    src[name] = src[name].replace('kstats-bench, kstats-bench-run ', 'kstats-bench ')
    new = src[:syn + 1]
    new[1:4] = ['.\\" kstats-bench(1), the summary page: the commands, each with its own page',
                '.\\" docs/kstats-bench-CMD.1 (a new option goes there, in --help\'s order), and',
                '.\\" what they share. Check with `mandoc -T lint docs/kstats-bench.1` and `man -l`.']
    new += ['.SY kstats-bench', '.OP \\-\\-help', '.OP \\-\\-version', '.I command',
            '.RI [ options ]', '.YS']
    new += [l for b in blocks if b[0].startswith('.SY kstats-bench-run') for l in b]
    new += src[desc:cmds]
    new += ['.SH COMMANDS', 'Each command has a page of its own, with its synopsis and every option',
            'of its', '.BR \\-\\-help :']
    for c, helpline in commands:
        new += ['.TP', '.BR kstats\\-bench\\-%s (1)' % c, '.B kstats-bench %s:' % c,
                NAMES.get(c, helpline).replace('-', '\\-') + '.']
    new += src[after:]
    k = new.index('.SH SEE ALSO')
    new[k + 1:k + 1] = ['.BR kstats-bench-%s (1),' % c for c, _ in commands]
    with open('%s/kstats-bench.1' % docs, 'w') as f:
        f.write('\n'.join(new))


if __name__ == '__main__':
    a = sys.argv[1:]
    keep = []
    if '--keep' in a:
        k = a.index('--keep')
        keep = a[k + 1].split(',')
        del a[k:k + 2]
    if len(a) != 2:
        sys.exit('usage: split-man.py SINGLE.1 DOCS [--keep CMD,...]')
    main(a[0], a[1], keep)
