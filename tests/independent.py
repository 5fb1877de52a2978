"""Intervals written out for the tests, independently of ``rummysim.base.intervals``."""

import numpy as np
import scipy.stats as sps


def t_interval(v):
    """Mean of independent blocks with its Student-t 95% interval, written out."""
    v = np.asarray(v, dtype=float)
    half = sps.t.ppf(0.975, len(v) - 1) * v.std(ddof=1) / np.sqrt(len(v))
    return [v.mean(), v.mean() - half, v.mean() + half]


def ratio_interval(y, m):
    """sum(y) / sum(m) over independent blocks with the delta-method t-interval, written out; none
    (nan) where every block's y is r times its m (no spread)."""
    y, m = np.asarray(y, dtype=float), np.asarray(m, dtype=float)
    n, r = len(y), y.sum() / m.sum()
    half = sps.t.ppf(0.975, n - 1) * np.sqrt(n / (n - 1) * ((y - r * m) ** 2).sum()) / m.sum()
    return [r, r - half, r + half] if half > 0 else [r, np.nan, np.nan]


def nonnegative_ratio_interval(y, m):
    """sum(y) / sum(m) of what cannot be negative, over independent blocks: t on the log scale,
    written out: h the delta-method t half width, [r exp(-h/r), min(r exp(h/r), r + 2h)]; none
    (nan) where there is no spread."""
    r, lo, hi = ratio_interval(y, m)
    if np.isnan(lo):
        return [r, np.nan, np.nan]
    h = r - lo
    return [r, r * np.exp(-h / r), min(r * np.exp(h / r), r + 2 * h)]


def nonnegative_interval(v):
    """Mean of independent values that cannot be negative, ``nonnegative_ratio_interval`` with m = 1."""
    v = np.asarray(v, dtype=float)
    return nonnegative_ratio_interval(v, np.ones(len(v)))


def clopper_pearson(x, n):
    """The exact 95% interval for x of n (x and n may be fractional), written out: beta quantiles."""
    lo = 0.0 if x <= 0 else sps.beta.ppf(0.025, x, n - x + 1)
    hi = 1.0 if x >= n else sps.beta.ppf(0.975, x + 1, n - x)
    return lo, hi


def share_ratio_interval(y, m):
    """A share sum(y) / sum(m) over independent blocks (0 <= y <= m) with Korn and Graubard's interval,
    written out: Clopper-Pearson on the effective number of units R(1-R)/var(R) (var by the delta
    method), times (z / t(n-1))^2; on the n blocks where the variance is 0. [R, lo, hi]."""
    y, m = np.asarray(y, dtype=float), np.asarray(m, dtype=float)
    n, r = len(y), y.sum() / m.sum()
    var = n / (n - 1) * ((y - r * m) ** 2).sum() / m.sum() ** 2
    if var < 1e-24 or r in (0.0, 1.0):
        n_eff = n
    else:
        n_eff = r * (1 - r) / var * (sps.norm.ppf(0.975) / sps.t.ppf(0.975, n - 1)) ** 2
    return [r, *clopper_pearson(r * n_eff, n_eff)]


def share_interval(v):
    """The mean of block values in [0, 1] with Korn and Graubard's interval (``share_ratio_interval``
    with every block's m 1), written out."""
    return share_ratio_interval(v, np.ones(len(v)))
