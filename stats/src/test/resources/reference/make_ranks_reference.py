#!/usr/bin/env python3
"""Writes ranks-reference.json: reference values for perfab's Mann-Whitney test (benchstat's).

Run from this folder:  python3 make_ranks_reference.py
Deterministic for a given numpy/scipy (the generator is seeded). Each case holds two samples and:
- u: the Mann-Whitney U of head against base (pairs with head above base, ties a half);
- p: two-sided p from scipy.stats.mannwhitneyu, method "exact" when there are no ties and both
  sides have at most 50 values, else "asymptotic" with the continuity correction: perfab's p;
- exact_p: scipy's method "exact" whatever the ties (its two-sided p doubles the smaller tail, at
  most 1; with ties it takes the distribution of U without ties, so perfab does not use it there);
- asymptotic_p: scipy's method "asymptotic" (tie-corrected variance, continuity correction);
- normal_p: the same without the continuity correction, the approximation an exact test replaces
  (0.0090 against the exact 0.0079 for five values a side fully separated); null where undefined.
"""
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


def case(name, base, head):
    ties = len(set(base) | set(head)) < len(base) + len(head)
    method = "asymptotic" if ties or len(base) > 50 or len(head) > 50 else "exact"
    res = stats.mannwhitneyu(head, base, alternative="two-sided", method=method, use_continuity=True)
    exact = stats.mannwhitneyu(head, base, alternative="two-sided", method="exact")
    asymptotic = stats.mannwhitneyu(head, base, alternative="two-sided", method="asymptotic", use_continuity=True)
    normal = stats.mannwhitneyu(head, base, alternative="two-sided", method="asymptotic", use_continuity=False)
    return {"name": name, "base": base, "head": head, "u": u_stat(base, head), "p": float(res.pvalue),
            "method": method, "exact_p": float(exact.pvalue), "asymptotic_p": float(asymptotic.pvalue),
            "normal_p": None if math.isnan(normal.pvalue) else float(normal.pvalue)}


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
cases.append(case("ties", [1.0, 1.0, 2.0, 2.0, 3.0], [2.0, 3.0, 3.0, 4.0, 4.0]))
cases.append(case("all-equal", [5.0] * 5, [5.0] * 5))
cases.append(case("ties-3-3", [1.0, 2.0, 2.0], [2.0, 3.0, 4.0]))
cases.append(case("one-tie-5-5", [1.0, 2.0, 3.0, 4.0, 5.0], [5.0, 6.0, 7.0, 8.0, 9.0]))
cases.append(case("ties-across-4-6", [10.0, 10.0, 11.0, 12.0], [10.0, 11.0, 11.0, 13.0, 14.0, 14.0]))
# The two tails: head below base gives the same two-sided p as above.
cases.append(case("separated-5-5-reversed", [6.0, 7.0, 8.0, 9.0, 10.0], [1.0, 2.0, 3.0, 4.0, 5.0]))
cases.append(case("exact-50-50", [float(v) for v in range(0, 100, 2)], [float(v) for v in range(1, 101, 2)]))
# Large sizes: the normal approximation.
big_b = [round(float(v), 6) for v in 100 * (1 + rng.normal(0, 0.05, 60))]
big_h = [round(float(v), 6) for v in 102 * (1 + rng.normal(0, 0.05, 70))]
cases.append(case("large", big_b, big_h))

with open("ranks-reference.json", "w") as f:
    json.dump({"generator": f"scipy {scipy.__version__}, numpy {np.__version__}", "cases": cases}, f, indent=1)
print(len(cases), "cases")
