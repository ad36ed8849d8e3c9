#!/usr/bin/env python3
"""Writes noise-floor-reference.json: reference values for perfab's noise floors (NoiseFloor), from scipy.

Run from this folder:  python3 make_noise_floor_reference.py   (about two minutes)
Deterministic for a given scipy (no random numbers). quad warns of roundoff on some medians of an
even count; those agree with perfab's own computation, by other means, to 1e-12. The model: a run with k builds per side and n
trials per side is judged by Welch's test, two-sided at alpha, on one value per build (its median)
when k > 1, on its n trials when k = 1. The file holds:

- shifts: the true change, in standard errors, that Welch's test on m normal values per side of
  equal spread finds with a given power. With equal counts Welch's statistic is noncentral t with
  2m - 2 degrees of freedom, and its own degrees of freedom depend only on U, the first side's share
  of the sum of squares, U ~ Beta((m-1)/2, (m-1)/2), independent of the rest; so the power is
  E_U[nct.sf(t.ppf(1 - alpha/2, df(U)), 2m - 2, delta)] (scipy.stats.nct, scipy.integrate.quad),
  solved for delta with scipy.optimize.brentq.
- medians: the variance of the median of n standard normal values (the mean of the middle two for
  an even n), by quad over the order statistics' densities.
- mde: the smallest change, in percent, that a run of `builds` and `trials` finds with 80% power,
  for spreads `within` and `between` (coefficients of variation, percent). The variance of one
  judged value is within^2 (k = 1) or between^2 + within^2 * the mean over builds of the variance of
  the median of its trials (k > 1, trials shared out as evenly as they go). Since the spread is
  relative, a change of y (a share) spreads the slower side 1 + y times as wide, and the test sees
  the mean variance: y = g * sqrt((1 + (1 + y)^2) / 2), g = shift(m) * sqrt(2 / m * variance) / 100;
  "inf" when g^2 >= 2, where no change, however large, is found with that power. Trials go well past
  700 per side; null where the spread between builds is needed and unknown.
- advice: the smallest run (fewest builds, from 2 when `between` is known, else 1; then fewest
  trials) whose mde is at most `effect`, up to 20 builds and 1000 trials per side; past those caps,
  `beyond` says which ("trials": more trials would do; "builds": the spread between builds alone is
  too much for 20 builds, whatever the trials). Every effect is at least 1e-6 (relative) away from
  the mde of the run advised and of the run one step smaller, so that rounding cannot move it.
"""
import json
import math
from functools import lru_cache

import scipy
from scipy import integrate, optimize, special, stats

POWER = 0.80
MAX_BUILDS, MAX_TRIALS = 20, 1000
QUAD = dict(epsabs=0, epsrel=1e-12, limit=400)


def welch_power(m, alpha, delta):
    # U = sin^2(phi / 2); with t = pi/2 - |pi/2 - phi| the density of t is cos^(m-2) t on (0, pi/2)
    # and df = 2 (m - 1) / (1 + sin^2 t).
    def integrand(t):
        df = 2 * (m - 1) / (1 + math.sin(t) ** 2)
        return math.cos(t) ** (m - 2) * stats.nct.sf(stats.t.ppf(1 - alpha / 2, df), 2 * m - 2, delta)

    top = math.pi / 2 if m <= 12 else min(math.pi / 2, 12 / math.sqrt(m - 2))
    weight = integrate.quad(lambda t: math.cos(t) ** (m - 2), 0, top, **QUAD)[0]
    return integrate.quad(integrand, 0, top, **QUAD)[0] / weight


@lru_cache(maxsize=None)
def shift(m, alpha, power):
    high = 3.0
    while welch_power(m, alpha, high) < power:
        high *= 2
    return optimize.brentq(lambda d: welch_power(m, alpha, d) - power, 0, high, xtol=1e-14, rtol=1e-14)


@lru_cache(maxsize=None)
def median_variance(n):
    if n <= 2:
        return 1.0 / n
    r = n // 2
    width = 14 / math.sqrt(r)
    if n % 2 == 1:
        # X_(r+1) of n: density beta.pdf(Phi(x), r + 1, r + 1) phi(x); even in x.
        f = lambda x: x * x * math.exp(stats.beta.logpdf(stats.norm.cdf(x), r + 1, r + 1) + stats.norm.logpdf(x))
        return 2 * integrate.quad(f, 0, width, **QUAD)[0]
    # (X_r + X_(r+1)) / 2 of n = 2r: variance (E[X_r^2] + E[X_r X_(r+1)]) / 2.
    square = integrate.quad(lambda x: x * x * math.exp(stats.beta.logpdf(stats.norm.cdf(x), r, r + 1)
                                                       + stats.norm.logpdf(x)), -width, width, **QUAD)[0]
    log_c = special.gammaln(n + 1) - 2 * special.gammaln(r)

    def inner(x):
        g = lambda y: y * math.exp(stats.norm.logpdf(y) + (r - 1) * stats.norm.logsf(y))
        return integrate.quad(g, x, max(x, 0) + width, epsabs=1e-300, epsrel=1e-12, limit=400)[0]

    def outer(x):
        return x * math.exp(log_c + (r - 1) * stats.norm.logcdf(x) + stats.norm.logpdf(x)) * inner(x)

    product = integrate.quad(outer, -width, width, epsabs=0, epsrel=1e-11, limit=400)[0]
    return (square + product) / 2


def mde(within, between, builds, trials, alpha):
    if builds == 1:
        variance, m = within * within, trials
    else:
        if math.isnan(between):
            return math.nan
        each, more = divmod(trials, builds)
        median = ((builds - more) * median_variance(each) + more * median_variance(each + 1)) / builds
        variance, m = between * between + median * within * within, builds
    return found(m, variance, alpha)


def found(m, variance, alpha):
    """The smallest change found with m values per side of `variance` on the faster side."""
    g = shift(m, alpha, POWER) * math.sqrt(2.0 / m * variance) / 100
    if g * g >= 2:
        return math.inf
    return 100 * (g * g + g * math.sqrt(4 - g * g)) / (2 - g * g)


def fewest(enough, low, high):
    """The least n in [low, high] for which enough(n) holds (it holds for all above once for one)."""
    if not enough(high):
        return None
    low -= 1
    while high - low > 1:
        mid = (low + high) // 2
        if enough(mid):
            high = mid
        else:
            low = mid
    return high


def advise(within, between, effect, alpha):
    def clear(value):
        assert abs(value / effect - 1) > 1e-6, (within, between, effect, value)
        return value <= effect

    if math.isnan(between):
        n = fewest(lambda t: clear(mde(within, between, 1, t, alpha)), 2, MAX_TRIALS)
        if n is None:
            return {"builds": 1, "trials": MAX_TRIALS, "mde": None, "beyond": "trials"}
        return {"builds": 1, "trials": n, "mde": mde(within, between, 1, n, alpha), "beyond": None}
    for k in range(2, MAX_BUILDS + 1):
        p = fewest(lambda q: clear(mde(within, between, k, q * k, alpha)), 1, MAX_TRIALS // k)
        if p is not None:
            return {"builds": k, "trials": p * k, "mde": mde(within, between, k, p * k, alpha), "beyond": None}
    layout = found(MAX_BUILDS, between * between, alpha) > effect  # endless trials: between builds alone
    return {"builds": MAX_BUILDS, "trials": MAX_TRIALS, "mde": None, "beyond": "builds" if layout else "trials"}


def number(x):
    return None if math.isnan(x) else x if math.isfinite(x) else str(x)


shifts = []
for m in [2, 3, 4, 5, 7, 10, 20, 50, 200, 707, 708, 1000]:
    for alpha in [0.001, 0.01, 0.05, 0.2]:
        for power in [0.5, 0.8, 0.95]:
            shifts.append({"m": m, "alpha": alpha, "power": power, "shift": shift(m, alpha, power)})

medians = [{"n": n, "variance": median_variance(n)}
           for n in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 25, 50, 51, 100, 333, 334, 500]]

cases = []
for alpha in [0.01, 0.05]:
    for within in [0.3, 1.0, 4.0]:
        for trials in [2, 3, 5, 12, 30, 100, 300, 707, 708, 709, 1000]:
            between = math.nan if trials % 2 else 2.0  # left out of a run of one build either way
            cases.append((within, between, 1, trials, alpha))
    for within in [0.3, 4.0]:
        for between in [0.0, 0.5, 2.0]:
            for builds in [2, 3, 5, 20]:
                for per_build in [1, 2, 3, 4, 5, 10, 50]:
                    if builds * per_build <= MAX_TRIALS:
                        cases.append((within, between, builds, builds * per_build, alpha))
            for builds, trials in [(3, 10), (2, 1000), (3, 1000), (5, 12)]:
                cases.append((within, between, builds, trials, alpha))
    cases.append((1.0, math.nan, 3, 30, alpha))
mdes = [{"within": w, "between": number(b), "builds": k, "trials": n, "alpha": a, "mde": number(mde(w, b, k, n, a))}
        for (w, b, k, n, a) in cases]

advice = []
for within, between, effect, alpha in [
        (1.0, math.nan, 3.0, 0.05), (4.0, math.nan, 3.0, 0.05), (1.0, math.nan, 0.15, 0.05),
        (1.0, math.nan, 0.145, 0.05), (1.0, math.nan, 0.13, 0.05), (1.0, math.nan, 0.12, 0.05),
        (2.0, math.nan, 0.25, 0.05), (1.0, 0.8, 3.0, 0.05), (0.5, 1.5, 3.0, 0.05), (3.0, 1.0, 5.0, 0.05),
        (5.0, 0.2, 2.0, 0.05), (1.0, 0.05, 0.3, 0.05), (0.5, 0.05, 0.15, 0.05), (1.0, 0.05, 0.12, 0.05),
        (0.1, 40.0, 1.0, 0.05), (3.0, 0.1, 30.0, 0.05), (1.0, 0.2, 1.0, 0.01), (0.0, 0.0, 1.0, 0.05)]:
    a = advise(within, between, effect, alpha)
    advice.append({"within": within, "between": number(between), "effect": effect, "alpha": alpha, **a})

doc = {
    "generator": "make_noise_floor_reference.py",
    "scipy": scipy.__version__,
    "power": POWER,
    "shifts": shifts,
    "medians": medians,
    "mde": mdes,
    "advice": advice,
}
with open("noise-floor-reference.json", "w") as f:
    f.write("{" + json.dumps({k: v for k, v in doc.items() if not isinstance(v, list)})[1:-1] + ",\n")
    parts = []
    for key in ["shifts", "medians", "mde", "advice"]:
        parts.append(' "' + key + '": [\n' + ",\n".join("  " + json.dumps(c) for c in doc[key]) + "\n ]")
    f.write(",\n".join(parts) + "}\n")
print(f"{len(shifts)} shifts, {len(medians)} medians, {len(mdes)} mde cases, {len(advice)} advice cases")
for a in advice:
    print(a)
