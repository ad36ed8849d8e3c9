#!/usr/bin/env python3
"""Writes welch-reference.json: reference values for perfab's stats module, computed with scipy.

Run from this folder:  python3 make_welch_reference.py
The output is deterministic for a given numpy/scipy (the generator is seeded). Every case holds
the two samples, the direction, and what scipy says: Welch's t, df and two-sided p (scipy.stats
.ttest_ind with equal_var=False), the percent change, Fieller's 95% interval of the ratio of means
with Welch df (t quantiles from scipy.stats.t.ppf; its low end no lower than -100% when no value is
negative, since no such ratio is below 0), the minimum detectable effect at 80% power,
and the verdict under alpha 0.05, min effect 3%, inconclusive 10% (small: worse and significant
under the bar; noisy: unchanged, yet a slowdown past the inconclusive threshold could go unseen, or
its own interval reaches a slowdown of the bar).

Most samples are integer-valued with means that are exact integers, so both sides of the check
compute bit-identical means and percent changes: a case whose effect sits exactly on a threshold
then has the same verdict in Java and here. A set of real-valued cases checks general data.
"""
import json
import math

import numpy as np
import scipy
from scipy import stats

ALPHA, MIN_EFFECT, INCONCLUSIVE, POWER = 0.05, 3.0, 10.0, 0.80
rng = np.random.default_rng(20261129)


def integer_sample(n, mean, cv):
    """n integers whose mean is exactly `mean` and whose spread is about cv percent."""
    if n == 1 or cv == 0:
        return [mean] * n
    values = [int(round(v)) for v in rng.normal(mean, mean * cv / 100.0, n)]
    values[-1] += mean * n - sum(values)
    return [float(v) for v in values]


def welch(base, head):
    nb, nh = len(base), len(head)
    mb, mh = float(np.mean(base)), float(np.mean(head))
    vb, vh = float(np.var(base, ddof=1)), float(np.var(head, ddof=1))
    se = math.sqrt(vb / nb + vh / nh)
    if se == 0.0:
        return (0.0 if mb == mh else math.copysign(math.inf, mh - mb)), None, (1.0 if mb == mh else 0.0), 0.0
    res = stats.ttest_ind(head, base, equal_var=False)
    a, b = vh / nh, vb / nb
    df = (a + b) ** 2 / (a * a / (nh - 1) + b * b / (nb - 1))
    return float(res.statistic), df, float(res.pvalue), se


def detectable(mde, df):
    """The smallest slowdown the rules report with 80% power: the bar plus t(0.80) standard errors,
    at least the minimum detectable effect, at most the inconclusive threshold plus the same."""
    if mde is None or math.isnan(mde):
        return math.nan
    if mde == 0.0 or df is None:
        return max(mde, MIN_EFFECT)
    power = stats.t.ppf(POWER, df)
    se = mde / (stats.t.ppf(1.0 - ALPHA / 2.0, df) + power)
    regression = max(mde, MIN_EFFECT + power * se)
    return min(regression, max(MIN_EFFECT, INCONCLUSIVE) + power * se)


def claim(direction, mde, df, ci):
    """What an unchanged row can claim not to have happened: the larger of the change found with 80%
    power and the worse end of its 95% interval (none when the interval is unbounded)."""
    power = detectable(mde, df)
    if ci is None:
        return math.inf
    worst = ci[1] if direction == "lower" else -ci[0]
    return max(power, worst)


def worse_end(direction, ci):
    """The worse end of the interval, as a slowdown in percent; infinite when it is unbounded."""
    if ci is None:
        return math.inf
    return ci[1] if direction == "lower" else -ci[0]


def classify(direction, pct, p, mde, df, ci):
    worse = pct > 0 if direction == "lower" else pct < 0
    better = pct < 0 if direction == "lower" else pct > 0
    significant = p is not None and p < ALPHA
    big = abs(pct) >= MIN_EFFECT
    if worse and significant and big:
        return "regression"
    if better and significant and big:
        return "improvement"
    if worse and abs(pct) >= INCONCLUSIVE:
        return "inconclusive"
    if worse and significant:
        return "small"
    if claim(direction, mde, df, ci) > INCONCLUSIVE or worse_end(direction, ci) >= MIN_EFFECT:
        return "noisy"
    return "unchanged"


def case(name, direction, base, head):
    t, df, p, se = welch(base, head)
    mb, mh = float(np.mean(base)), float(np.mean(head))
    nb, nh = len(base), len(head)
    pct = (mh / mb - 1.0) * 100.0
    if se == 0.0:
        ci, mde = [pct, pct], 0.0
    else:
        vb, vh = np.var(base, ddof=1) / nb, np.var(head, ddof=1) / nh
        tq = stats.t.ppf(0.975, df)
        r = mh / mb
        g = tq * tq * vb / (mb * mb)
        if g >= 1.0:
            ci = None
        else:
            half = tq / mb * math.sqrt(vh * (1.0 - g) + r * r * vb)
            ci = [((r - half) / (1.0 - g) - 1.0) * 100.0, ((r + half) / (1.0 - g) - 1.0) * 100.0]
            if min(base) >= 0.0 and min(head) >= 0.0:
                # No value is negative, so neither is the ratio of the means: the change is -100% or more.
                ci[0] = max(-100.0, ci[0])
        mde = (stats.t.ppf(1.0 - ALPHA / 2.0, df) + stats.t.ppf(POWER, df)) * se / mb * 100.0
    return {
        "name": name,
        "direction": direction,
        "base": base,
        "head": head,
        "t": t if math.isfinite(t) else str(t),
        "df": df,
        "p": p,
        "pct": pct,
        "ci95": ci,
        "mde": mde,
        "verdict": classify(direction, pct, p, mde, df, ci),
    }


cases = []
sizes = [2, 3, 5, 8, 15, 30]
cvs = [0.1, 1.0, 5.0, 30.0]
effects = [-10.1, -10.0, -3.0, -2.9, 0.0, 2.9, 3.0, 3.1, 9.9, 10.0, 10.1, 25.0]
base_mean = 10000
i = 0
for n in sizes:
    for cv in cvs:
        for effect in effects:
            direction = "lower" if i % 2 == 0 else "higher"
            n_head = n if i % 3 else max(2, int(rng.integers(2, 31)))
            head_mean = int(round(base_mean * (1 + effect / 100.0)))
            base = integer_sample(n, base_mean, cv)
            head = integer_sample(n_head, head_mean, cv * (1.5 if i % 4 == 1 else 1.0))
            cases.append(case(f"int-n{n}-cv{cv}-e{effect}-{direction}", direction, base, head))
            i += 1

# Constant sides: equal, different, and one side constant.
for n in [2, 5, 20]:
    for direction in ["lower", "higher"]:
        cases.append(case(f"const-equal-n{n}-{direction}", direction, [500.0] * n, [500.0] * n))
        cases.append(case(f"const-worse-n{n}-{direction}", direction, [500.0] * n,
                          [515.0 if direction == "lower" else 485.0] * n))
        cases.append(case(f"const-better-n{n}-{direction}", direction, [500.0] * n,
                          [485.0 if direction == "lower" else 515.0] * n))
        cases.append(case(f"const-base-only-n{n}-{direction}", direction, [500.0] * n,
                          integer_sample(n, 560, 5.0)))

# Real-valued data, sizes 2 to 30, skewed and symmetric.
for k in range(60):
    n_base = int(rng.integers(2, 31))
    n_head = int(rng.integers(2, 31))
    cv = float(rng.choice([0.1, 0.5, 2.0, 8.0, 20.0, 30.0]))
    shift = float(rng.choice([0.0, 1.0, 3.0, 5.0, 12.0, -4.0, -15.0]))
    level = float(rng.uniform(1e-6, 1e6))
    if k % 3 == 0:
        base = list(level * rng.lognormal(0.0, cv / 100.0, n_base))
        head = list(level * (1 + shift / 100.0) * rng.lognormal(0.0, cv / 100.0, n_head))
    else:
        base = list(rng.normal(level, level * cv / 100.0, n_base))
        head = list(rng.normal(level * (1 + shift / 100.0), level * cv / 100.0, n_head))
    direction = "lower" if k % 2 else "higher"
    cases.append(case(f"real-{k}-{direction}", direction, [float(v) for v in base],
                      [float(v) for v in head]))

doc = {
    "generator": "make_welch_reference.py",
    "scipy": scipy.__version__,
    "numpy": np.__version__,
    "thresholds": {"alpha": ALPHA, "minEffect": MIN_EFFECT, "inconclusive": INCONCLUSIVE},
    "power": POWER,
    "cases": cases,
}
with open("welch-reference.json", "w") as f:
    head = {k: v for k, v in doc.items() if k != "cases"}
    f.write(json.dumps(head)[:-1] + ',\n "cases": [\n')
    f.write(",\n".join("  " + json.dumps(c) for c in cases))
    f.write("\n ]}\n")
counts = {}
for c in cases:
    counts[c["verdict"]] = counts.get(c["verdict"], 0) + 1
print(f"{len(cases)} cases: {counts}")
