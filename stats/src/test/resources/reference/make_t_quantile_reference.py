#!/usr/bin/env python3
"""Writes t-quantile-reference.json: Student t quantiles for perfab's fast quantile, from scipy.

Run from this folder:  python3 make_t_quantile_reference.py
Each case is a probability, degrees of freedom (fractional ones included, as Welch's test gives)
and scipy.stats.t.ppf of them.
"""
import json

import scipy
from scipy import stats

cases = []
for df in [1, 1.2, 1.5, 2, 2.3, 2.5, 2.9, 3, 3.5, 4.7, 8, 19.3, 38, 120, 10000, 1e9]:
    for p in [1e-10, 1e-6, 0.01, 0.2, 0.5, 0.8, 0.975, 0.995, 0.999999, 1 - 1e-10]:
        cases.append({"df": df, "p": p, "quantile": float(stats.t.ppf(p, df))})

with open("t-quantile-reference.json", "w") as f:
    json.dump({"generator": f"scipy {scipy.__version__}", "cases": cases}, f, indent=1)
print(len(cases), "cases")
