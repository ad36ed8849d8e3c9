#!/usr/bin/env python3
"""Writes sequential-reference.json: the last look's level of adaptive trials, computed with scipy.

Run from this folder:  python3 make_sequential_reference.py
Under no change the z statistics of looks after n_1 < n_2 < ... trials per side are jointly normal
with correlation sqrt(n_i / n_j). Every look but the last tests at the early level (alpha / 50,
or alpha / 4 shared among the early looks when that is less); the last look's level is the one at
which the chance that some |z_k| passes its boundary is alpha: found here by root finding on
scipy.stats.multivariate_normal's cdf of the box that no look leaves.
"""
import json

import numpy as np
from scipy import optimize, stats

ALPHA = 0.05


def looks(first, most):
    out = list(range(first, most, first))
    return out + [most]


def crossing(ns, bounds):
    cov = np.array([[np.sqrt(min(a, b) / max(a, b)) for b in ns] for a in ns])
    b = np.array(bounds)
    inside = stats.multivariate_normal(mean=np.zeros(len(ns)), cov=cov).cdf(b, lower_limit=-b)
    return 1.0 - inside


def last_level(first, most):
    ns = looks(first, most)
    early = min(ALPHA / 50, ALPHA / 4 / (len(ns) - 1))
    ce = stats.norm.ppf(1 - early / 2)
    f = lambda c: crossing(ns, [ce] * (len(ns) - 1) + [c]) - ALPHA
    c = optimize.brentq(f, 1.0, 4.0, xtol=1e-10)
    return early, 2 * stats.norm.sf(c)


cases = []
for first, most in [(5, 10), (5, 15), (5, 20), (10, 30), (2, 12), (3, 20)]:
    early, last = last_level(first, most)
    cases.append({"first": first, "max": most, "early": early, "last": last})
with open("sequential-reference.json", "w") as f:
    json.dump({"alpha": ALPHA, "scipy": __import__("scipy").__version__, "cases": cases}, f, indent=1)
    f.write("\n")
print(cases)
