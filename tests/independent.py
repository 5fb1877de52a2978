"""Intervals written out for the tests, independently of ``rummysim.analysis.intervals``."""

import numpy as np
import scipy.stats as sps


def t_interval(v):
    """Mean of independent blocks with its Student-t 95% interval, written out."""
    v = np.asarray(v, dtype=float)
    half = sps.t.ppf(0.975, len(v) - 1) * v.std(ddof=1) / np.sqrt(len(v))
    return [v.mean(), v.mean() - half, v.mean() + half]


def ratio_interval(y, m):
    """sum(y) / sum(m) over independent blocks with the delta-method t-interval, written out."""
    y, m = np.asarray(y, dtype=float), np.asarray(m, dtype=float)
    n, r = len(y), y.sum() / m.sum()
    half = sps.t.ppf(0.975, n - 1) * np.sqrt(n / (n - 1) * ((y - r * m) ** 2).sum()) / m.sum()
    return [r, r - half, r + half]
