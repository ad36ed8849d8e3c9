#!/usr/bin/env python3
"""Writes series-noise-reference.json: reference values for perfab's series noise figures (SeriesNoise).

Run from this folder:  python3 make_series_noise_reference.py
Deterministic for a given numpy (the generator is seeded). Each case holds a key's ratios in run
order, a window and:
- deviations: for each reading from the second on, |ratio / m - 1|, with m the numpy median of the
  (up to `window`) readings before it;
- percentiles: numpy.percentile of those deviations at 50, 75, 90, 95 and 99 (method "linear",
  numpy's default: interpolation between the order statistics, R's type 7), null when there are none;
- at: numpy.percentile of the ratios themselves at a few awkward points (0, 1/3, 100), the
  interpolation alone.
"""
import json

import numpy as np

rng = np.random.default_rng(20261202)
PERCENTILES = [50, 75, 90, 95, 99]
AT = [0, 100 / 3, 50, 99.9, 100]


def deviations(ratios, window):
    out = []
    for j in range(1, len(ratios)):
        m = float(np.median(ratios[max(0, j - window):j]))
        out.append(abs(ratios[j] / m - 1))
    return out


def case(name, ratios, window):
    ratios = [float(r) for r in ratios]
    d = deviations(ratios, window)
    return {"name": name, "window": window, "ratios": ratios, "deviations": d,
            "percentiles": [float(np.percentile(d, p)) for p in PERCENTILES] if d else None,
            "at": [[p, float(np.percentile(ratios, p))] for p in AT]}


cases = [
    case("one reading", [1.0], 5),
    case("two readings", [1.0, 1.1], 5),
    case("ties", [1.0, 1.0, 1.0, 1.2, 1.0, 1.0, 0.8], 5),
    case("window of one", [1.0, 1.05, 0.97, 1.3, 1.29, 1.31], 1),
    case("even window", list(1 + 0.02 * rng.standard_normal(12)), 4),
    case("a step", [0.97] * 8 + [1.72] * 6, 5),
    case("hosted runner tail", list(np.exp(0.05 * rng.standard_normal(40) + 0.4 * (rng.random(40) < 0.08))), 5),
    case("nanosecond kernel", list(2.18 * np.exp(0.3 * rng.standard_t(2, 60))), 5),
    case("long window", list(1 + 0.1 * rng.random(30)), 10),
]

with open("series-noise-reference.json", "w") as f:
    json.dump({"numpy": np.__version__, "percentiles": PERCENTILES, "cases": cases}, f, indent=1)
    f.write("\n")
