#!/usr/bin/env python3
"""Writes paired-reference.json: reference values for perfab's paired test, computed with numpy and
scipy by another route than perfab's closed forms.

Run from this folder:  python3 make_paired_reference.py
The output is deterministic for a given numpy/scipy (the generator is seeded). Each case holds the
pairs (base, head, and whether the base ran first), whether the slot term is used, and:
- t, df and two-sided p of the head's mean against the base's: scipy.stats.ttest_rel without the
  slot term; with it, the intercept of the least-squares fit (numpy.linalg.lstsq) of head - base on
  [1, s] (s = +1 where the base ran first, -1 where the head did), its standard error from the fit's
  residuals (n - 2 degrees of freedom) and scipy.stats.t.sf;
- the percent change of the intercepts' ratio (the means' without the slot term);
- Fieller's 95% interval with the pairs' covariance, found as the two roots (scipy.optimize.brentq)
  of f(R) = intercept(head - R base)^2 - t(0.975, df)^2 var(intercept(head - R base)), each
  intercept and its variance from a least-squares fit at that R; null when f has no two roots.
And, in "ranked", the rank form on the pairs' log ratios d: W+ (the sum of the ranks of the positive
d) and the two-sided p of scipy.stats.wilcoxon (exact up to 50 pairs without ties, else the normal
approximation with a continuity correction); Hodges and Lehmann's estimate, the median of the
Walsh averages, as a percent change; and its 95% interval, the k-th smallest and largest Walsh
averages, k the largest rank with P(T+ <= k - 1) <= 0.025: T+'s distribution by enumerating every
sign of the ranks up to 16 pairs, its normal approximation beyond.
"""
import itertools
import json

import numpy as np
from scipy import optimize, stats

rng = np.random.default_rng(20261206)


def intercept(y, s, slot):
    x = np.column_stack([np.ones(len(y)), s]) if slot else np.ones((len(y), 1))
    coef, _, _, _ = np.linalg.lstsq(x, y, rcond=None)
    resid = y - x @ coef
    df = len(y) - x.shape[1]
    var = resid @ resid / df
    cov = var * np.linalg.inv(x.T @ x)
    return coef[0], cov[0, 0], df


def case(name, base, head, first, slot):
    base, head = np.array(base, float), np.array(head, float)
    s = np.where(first, 1.0, -1.0)
    mb, _, _ = intercept(base, s, slot)
    mh, _, _ = intercept(head, s, slot)
    d, vd, df = intercept(head - base, s, slot)
    t = d / np.sqrt(vd)
    p = 2 * stats.t.sf(abs(t), df)
    if not slot:
        ref = stats.ttest_rel(head, base)
        assert abs(ref.statistic - t) < 1e-9 * max(1, abs(t)) and abs(ref.pvalue - p) < 1e-12
    tq = stats.t.ppf(0.975, df)

    def f(r):
        m, v, _ = intercept(head - r * base, s, slot)
        return m * m - tq * tq * v

    est = mh / mb
    low = high = None
    if f(est) < 0:
        try:
            lo = est
            while f(lo) < 0 and lo > -1e6:
                lo = est - 2 * (est - lo) - 1e-3
            hi = est
            while f(hi) < 0 and hi < 1e6:
                hi = est + 2 * (hi - est) + 1e-3
            if f(lo) > 0 and f(hi) > 0:
                low = (optimize.brentq(f, lo, est, xtol=1e-15, rtol=1e-15) - 1) * 100
                high = (optimize.brentq(f, est, hi, xtol=1e-15, rtol=1e-15) - 1) * 100
        except ValueError:
            pass
    return {"name": name, "base": base.tolist(), "head": head.tolist(), "baseFirst": [bool(x) for x in first],
            "slot": slot, "t": float(t), "df": float(df), "p": float(p), "pctChange": float((est - 1) * 100),
            "ciLow": low, "ciHigh": high}


def abba(n):
    return [i % 2 == 0 for i in range(n)]


cases = []
for n in (3, 5, 10, 20):
    for slot in (False, True):
        if slot and n < 3:
            continue
        # A drifting machine: both trials of a pair share its level.
        level = 100 * np.cumprod(1 + rng.normal(0, 0.03, n))
        base = level * (1 + rng.normal(0, 0.01, n))
        head = level * 1.05 * (1 + rng.normal(0, 0.01, n))
        first = abba(n)
        if slot:  # the second trial of a pair 2% faster
            base = np.where(first, base, base * 0.98)
            head = np.where(first, head * 0.98, head)
        cases.append(case(f"drift-{n}-{'slot' if slot else 'plain'}", base, head, first, slot))
        # Independent noise, no change.
        cases.append(case(f"independent-{n}-{'slot' if slot else 'plain'}", 100 + rng.normal(0, 3, n),
                          100 + rng.normal(0, 3, n), abba(n), slot))
# An unbalanced order (an odd number of pairs, one more of one kind), and a base too noisy to bound.
cases.append(case("unbalanced-7-slot", 50 + rng.normal(0, 1, 7), 52 + rng.normal(0, 1, 7),
                  [True, False, True, False, True, False, True], True))
cases.append(case("unbounded-3-plain", [1.0, 40.0, -30.0], [2.0, 35.0, -20.0], abba(3), False))



def lower_rank(n):
    if n > 50:
        mean = n * (n + 1) / 4
        sd = np.sqrt(n * (n + 1) * (2 * n + 1) / 24)
        return max(0, int(np.floor(mean - stats.norm.ppf(0.975) * sd)))
    sums = np.array([sum(r for r, keep in zip(range(1, n + 1), signs) if keep)
                     for signs in itertools.product([False, True], repeat=n)])
    k = 0
    while np.mean(sums <= k) <= 0.025:  # P(T+ <= k) for the next k
        k += 1
    return k


def ranked_case(name, base, head):
    base, head = np.array(base, float), np.array(head, float)
    d = np.log(head / base)
    n = len(d)
    ranks = stats.rankdata(np.abs(d))
    w_plus = float(ranks[d > 0].sum())
    method = "exact" if n <= 50 and len(set(np.abs(d))) == n else "approx"
    p = stats.wilcoxon(d, method=method, correction=True).pvalue
    walsh = np.sort([(d[i] + d[j]) / 2 for i in range(n) for j in range(i, n)])
    k = lower_rank(n)
    low = high = None
    if k >= 1:
        low, high = (np.exp(walsh[k - 1]) - 1) * 100, (np.exp(walsh[len(walsh) - k]) - 1) * 100
    return {"name": name, "base": base.tolist(), "head": head.tolist(), "statistic": w_plus, "p": float(p),
            "pctChange": float((np.exp(np.median(walsh)) - 1) * 100), "ciLow": low, "ciHigh": high}


ranked = []
for n in (4, 6, 8, 12, 16):
    level = 100 * np.cumprod(1 + rng.normal(0, 0.03, n))
    ranked.append(ranked_case(f"drift-{n}", level * (1 + rng.normal(0, 0.01, n)),
                              level * 1.05 * (1 + rng.normal(0, 0.01, n))))
    ranked.append(ranked_case(f"independent-{n}", 100 + rng.normal(0, 3, n), 100 + rng.normal(0, 3, n)))
# Two pairs straddling a slow mode: the ranks shrug them off.
base = 100 + rng.normal(0, 0.5, 12)
head = base * 1.05
head[3] *= 1.6
base[7] *= 1.6
ranked.append(ranked_case("straddled-12", base, head))
ranked.append(ranked_case("approx-60", 100 + rng.normal(0, 3, 60), 103 + rng.normal(0, 3, 60)))

with open("paired-reference.json", "w") as out:
    json.dump({"cases": cases, "ranked": ranked}, out, indent=1)
    out.write("\n")
print(len(cases), "cases")
