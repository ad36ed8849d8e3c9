#!/usr/bin/env python3
"""Writes ranks-reference.json: reference values for perfab's comparison by ranks (Mann-Whitney).

Run from this folder:  python3 make_ranks_reference.py
Deterministic for a given numpy/scipy (the generator is seeded). Each case holds two samples and:
- u: the Mann-Whitney U of head against base (pairs with head above base, ties a half);
- p: two-sided p from scipy.stats.mannwhitneyu, method "exact" when there are no ties and both
  sides have at most 50 values, else "asymptotic" with the continuity correction;
- hl: the Hodges-Lehmann estimate of the change in percent, exp(median(log h - log b)) - 1;
- ci95: Moses' distribution-free 95% interval of that change, from the exact null distribution of
  U, which this script counts by brute force over every split of the pooled ranks (small sizes only),
  independent of the recurrence the Java code uses.
"""
import itertools
import json
import math

import numpy as np
import scipy
from scipy import stats

rng = np.random.default_rng(20261201)


def u_stat(base, head):
    u = 0.0
    for b in base:
        for h in head:
            u += 1.0 if h > b else 0.5 if h == b else 0.0
    return u


def exact_cdf(m, n):
    """P(U <= u) for every u, by counting every choice of the head's ranks among m + n."""
    counts = [0] * (m * n + 1)
    for chosen in itertools.combinations(range(m + n), n):
        # U = pairs (base, head) with head above: sum of the head's ranks minus n(n+1)/2 (ranks from 1).
        u = sum(r + 1 for r in chosen) - n * (n + 1) // 2
        counts[u] += 1
    total = sum(counts)
    out, running = [], 0
    for c in counts:
        running += c
        out.append(running / total)
    return out


def moses(base, head):
    m, n = len(base), len(head)
    cdf = exact_cdf(m, n)
    c = -1
    while c + 1 < len(cdf) and cdf[c + 1] <= 0.025:
        c += 1
    d = sorted(math.log(h) - math.log(b) for b in base for h in head)
    if c < 0:
        return None
    return [math.expm1(d[c]) * 100.0, math.expm1(d[m * n - 1 - c]) * 100.0]


def case(name, base, head, exact_ci=True):
    ties = len(set(base) | set(head)) < len(base) + len(head)
    method = "asymptotic" if ties or len(base) > 50 or len(head) > 50 else "exact"
    res = stats.mannwhitneyu(head, base, alternative="two-sided", method=method, use_continuity=True)
    d = sorted(math.log(h) - math.log(b) for b in base for h in head)
    hl = math.expm1(float(np.median(d))) * 100.0
    out = {"name": name, "base": base, "head": head, "u": u_stat(base, head), "p": float(res.pvalue),
           "method": method, "hl": hl}
    if exact_ci:
        out["ci95"] = moses(base, head)
    return out


cases = []
for m, n in [(3, 3), (4, 4), (5, 5), (5, 7), (6, 4), (8, 8)]:
    for shift in [0.0, 0.03, 0.1, 0.5]:
        base = [round(float(v), 6) for v in 100 * (1 + rng.normal(0, 0.05, m))]
        head = [round(float(v), 6) for v in 100 * (1 + shift) * (1 + rng.normal(0, 0.05, n))]
        cases.append(case(f"m{m}-n{n}-shift{shift}", base, head))
# Separated samples: the smallest p of each size.
cases.append(case("separated-5-5", [1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0]))
cases.append(case("separated-3-3", [1.0, 2.0, 3.0], [4.0, 5.0, 6.0]))
# Ties: the normal approximation with the tie correction.
cases.append(case("ties", [1.0, 1.0, 2.0, 2.0, 3.0], [2.0, 3.0, 3.0, 4.0, 4.0], exact_ci=False))
cases.append(case("all-equal", [5.0] * 5, [5.0] * 5, exact_ci=False))
# Large sizes: the normal approximation.
big_b = [round(float(v), 6) for v in 100 * (1 + rng.normal(0, 0.05, 60))]
big_h = [round(float(v), 6) for v in 102 * (1 + rng.normal(0, 0.05, 70))]
cases.append(case("large", big_b, big_h, exact_ci=False))

with open("ranks-reference.json", "w") as f:
    json.dump({"generator": f"scipy {scipy.__version__}, numpy {np.__version__}", "cases": cases}, f, indent=1)
print(len(cases), "cases")
