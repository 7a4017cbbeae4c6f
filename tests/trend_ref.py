#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""trend_ref.py - an independent reference for lib/stats/trend.c, written from
the definitions in lib/stats/trend.h rather than from the C: the energy
statistic Q summed pair by pair for every split (no prefix sums; over
both ends, Y grown a run at a time), the seeded permutation test,
Otava's two passes, and the Hodges-Lehmann estimate as the median of
every ratio.

  tests/trend_ref.py > tests/fixtures/trend-ref.txt   write the fixture
  tests/trend_ref.py --check tests/fixtures/trend-ref.txt

tests/unit/test_trend.c checks the C against the fixture, and
tests/cli/trend.bats that this script still writes it. Standard
library only.
"""
import math
import random
import sys

MIN_SEG = 3
STOP = 10
MASK = (1 << 64) - 1


def energy(v):
    """Q(t) for every split t of v, by the definition (None elsewhere)."""
    n = len(v)
    d = [[abs(a - b) for b in v] for a in v]
    q = [None] * (n + 1)
    for t in range(MIN_SEG, n - MIN_SEG + 1):
        m, k = t, n - t
        cross = sum(sum(d[i][t:]) for i in range(t))
        wx = sum(sum(d[i][i + 1:t]) for i in range(t))
        wy = sum(sum(d[i][i + 1:]) for i in range(t, n))
        e = 2 * cross / (m * k) - wx / (m * (m - 1) / 2) - wy / (k * (k - 1) / 2)
        q[t] = m * k / (m + k) * e
    return q


def span(v):
    """(Q, t, k): the largest Q over every split t and every end k,
    X = v[:t] and Y = v[t:k], Y grown one run at a time"""
    n = len(v)
    d = [[abs(a - b) for b in v] for a in v]
    top = (None, 0, 0)
    for t in range(MIN_SEG, n - MIN_SEG + 1):
        wx = sum(sum(d[i][i + 1:t]) for i in range(t))
        cross = wy = 0.0
        for k in range(t + 1, n + 1):
            cross += sum(d[k - 1][:t])
            wy += sum(d[k - 1][t:k - 1])
            m, j = t, k - t
            if j < MIN_SEG:
                continue
            e = 2 * cross / (m * j) - wx / (m * (m - 1) / 2) - wy / (j * (j - 1) / 2)
            q = m * j / (m + j) * e
            if top[0] is None or q > top[0]:
                top = (q, t, k)
    return top


def best(q):
    """the first t of the largest Q"""
    t_best = 0
    for t, qt in enumerate(q):
        if qt is not None and (t_best == 0 or qt > q[t_best]):
            t_best = t
    return t_best


class SplitMix64:
    def __init__(self, seed):
        self.s = seed & MASK

    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & MASK
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)


def shuffle(v, rng):
    for i in range(len(v) - 1, 0, -1):
        j = (rng.next() * (i + 1)) >> 64
        v[i], v[j] = v[j], v[i]


def seed_of(seed, lo, hi):
    return seed ^ ((lo << 32) | hi)


def nr_perms(alpha):
    return max(199, math.ceil(2 / alpha) - 1)


def largest_end(w):
    q = energy(w)
    return q[best(q)]


def largest_span(w):
    return span(w)[0]


def perm_p(v, q_obs, alpha, seed, largest=largest_end):
    """(p, shuffles drawn): Besag-Clifford, stopping at STOP reaching q_obs"""
    rng = SplitMix64(seed)
    w = list(v)
    bar = q_obs - 1e-12 * abs(q_obs)
    reached, top = 0, nr_perms(alpha)
    for r in range(1, top + 1):
        shuffle(w, rng)
        if largest(w) >= bar:
            reached += 1
            if reached == STOP:
                return reached / r, r
    return (reached + 1) / (top + 1), top


def hl_est(b, a):
    d = sorted(y / x for x in b for y in a)
    m = len(d)
    return (d[m // 2] if m % 2 else (d[m // 2 - 1] + d[m // 2]) / 2) - 1


class Search:
    def __init__(self, x, alpha, min_change, window, seed):
        self.x, self.n = x, len(x)
        self.alpha, self.min_change = alpha, min_change
        self.window, self.seed = window, seed
        self.cand = []
        self.last = 0

    def split(self, lo, hi, alpha):
        if hi - lo < 2 * MIN_SEG:
            return
        q, t, _ = span(self.x[lo:hi])
        p, _ = perm_p(self.x[lo:hi], q, alpha, seed_of(self.seed, lo, hi), largest_span)
        if p > alpha:
            return
        self.last = max(self.last, lo + t)
        if lo + t not in self.cand:
            self.cand.append(lo + t)
        self.split(lo, lo + t, alpha)
        self.split(lo + t, hi, alpha)

    def split_pass(self):
        alpha = max(self.alpha, min(10 * self.alpha, 0.05))
        start, step = 0, self.window // 2
        while True:
            end = min(start + self.window, self.n)
            self.last = start
            self.split(start, end, alpha)
            if end == self.n:
                return
            start = max(self.last, start + step)

    def test(self, cps, i):
        idx = cps[i]["idx"]
        half = self.window // 2
        lo = cps[i - 1]["idx"] if i else 0
        hi = cps[i + 1]["idx"] if i + 1 < len(cps) else self.n
        alone = idx - lo >= MIN_SEG and hi - idx >= MIN_SEG
        if not alone:
            lo, hi = 0, self.n
        tlo, thi = max(lo, idx - half), min(hi, idx + half)
        q = energy(self.x[tlo:thi])[idx - tlo]
        c = {"idx": idx, "tlo": tlo, "thi": thi, "q": q, "p": 1.0, "perms": 0, "est": 0.0}
        if alone:
            c["p"], c["perms"] = perm_p(self.x[tlo:thi], q, self.alpha,
                                        seed_of(self.seed, tlo, thi))
            c["est"] = hl_est(self.x[tlo:idx], self.x[idx:thi])
        cps[i] = c

    def weakest(self, cps):
        w = 0
        for i in range(1, len(cps)):
            if cps[i]["p"] > cps[w]["p"] or (cps[i]["p"] == cps[w]["p"] and cps[i]["q"] < cps[w]["q"]):
                w = i
        if cps[w]["p"] > self.alpha:
            return w
        w = 0
        for i in range(len(cps)):
            if abs(cps[i]["est"]) < abs(cps[w]["est"]):
                w = i
        e = cps[w]["est"]
        return w if not (e > self.min_change or e < -self.min_change) else None

    def merge_pass(self):
        cps = [{"idx": i} for i in sorted(self.cand)]
        for i in range(len(cps)):
            self.test(cps, i)
        while cps:
            w = self.weakest(cps)
            if w is None:
                break
            del cps[w]
            if w > 0:
                self.test(cps, w - 1)
            if w < len(cps):
                self.test(cps, w)
        return cps


def detect(x, alpha, min_change, window, seed):
    s = Search(x, alpha, min_change, window, seed)
    if len(x) < 2 * MIN_SEG:
        return []
    s.split_pass()
    return s.merge_pass()


# name, n, steps [(index, factor)], noise (relative sd), alpha, min_change, window, seed
CASES = [
    ("step", 60, [(35, 1.08)], 0.02, 0.01, 0.05, 30, 7),
    ("two-steps", 90, [(30, 1.10), (60, 0.94)], 0.02, 0.01, 0.03, 40, 11),
    ("noise", 48, [], 0.03, 0.05, 0.0, 24, 3),
    ("small-change", 60, [(30, 1.02)], 0.003, 0.01, 0.05, 30, 5),
    ("spike", 40, [(20, 1.5), (21, 1 / 1.5)], 0.01, 0.05, 0.05, 40, 9),
    ("short-window", 45, [(20, 1.15)], 0.02, 0.02, 0.05, 12, 13),
    ("blip", 48, [(20, 1.12), (28, 1 / 1.12)], 0.015, 0.01, 0.05, 48, 17),
]


def series(name, n, steps, noise):
    rng = random.Random(name)
    level, x = 1000.0, []
    for i in range(n):
        for at, f in steps:
            if i == at:
                level *= f
        x.append(level * (1 + noise * rng.gauss(0, 1)))
    return x


def fixture():
    out = ["# trend-ref 1: written by tests/trend_ref.py (an independent reference for lib/stats/trend.c)",
           "# case NAME ALPHA MIN_CHANGE WINDOW SEED N; x: the runs; q: Q(t) of the whole series,",
           "# t = 3..N-3; test T P PERMS: the permutation test of its best split, seeded with",
           "# trend_seed(SEED, 0, N); span T K Q: the best split over both ends (trend_span);",
           "# cp IDX TLO THI P PERMS EST: each change point"]
    for name, n, steps, noise, alpha, min_change, window, seed in CASES:
        x = series(name, n, steps, noise)
        q = energy(x)
        t = best(q)
        p, perms = perm_p(x, q[t], alpha, seed_of(seed, 0, n))
        out.append(f"case {name} {alpha!r} {min_change!r} {window} {seed} {n}")
        out.append("x " + " ".join(repr(v) for v in x))
        out.append("q " + " ".join(repr(q[i]) for i in range(MIN_SEG, n - MIN_SEG + 1)))
        out.append(f"test {t} {p!r} {perms}")
        qs, ts, ks = span(x)
        out.append(f"span {ts} {ks} {qs!r}")
        for c in detect(x, alpha, min_change, window, seed):
            out.append(f"cp {c['idx']} {c['tlo']} {c['thi']} {c['p']!r} {c['perms']} {c['est']!r}")
        out.append("end")
    return "\n".join(out) + "\n"


def main():
    text = fixture()
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        with open(sys.argv[2]) as f:
            if f.read() != text:
                print(f"trend_ref.py: {sys.argv[2]} is not what the reference writes", file=sys.stderr)
                return 1
        return 0
    if len(sys.argv) != 1:
        print("usage: trend_ref.py [--check FIXTURE]", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
