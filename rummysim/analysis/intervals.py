"""Confidence intervals and decisions for every estimate rummysim prints.

* proportions: Wilson score interval;
* means of independent block results: Student-t interval over blocks;
  ratios of block totals from running sums: the same by linearisation;
* ratios and medians: percentile bootstrap over whole blocks;
* two-player duplicate deals: pentanomial counts ``[LL, LD, DD+WL, DW, WW]``,
  score and Elo intervals from the per-pair variance, and the SPRT;
* many candidates: Holm-adjusted p-values.

Every function that takes ``level`` uses it as the two-sided coverage.
"""

from __future__ import annotations

from statistics import NormalDist
from typing import Callable

import numpy as np


def _scipy_stats():
    """``scipy.stats``, imported on first use: it takes a second to import and ``run`` needs none of it."""
    from scipy import stats

    return stats

PAIR_BINS = ("LL", "LD", "DD+WL", "DW", "WW")
_PAIR_VALUES = np.array([0.0, 0.25, 0.5, 0.75, 1.0])  # pair score / 2, per game


def _z(level: float) -> float:
    """The standard normal quantile of a two-sided ``level`` (the standard library's: no scipy needed)."""
    return NormalDist().inv_cdf(0.5 + level / 2)


def wilson(successes, n, level: float = 0.95):
    """Wilson score interval for ``successes`` out of ``n``.

    Returns ``(lo, hi)``: two floats for scalar input, two arrays for array
    input (broadcast). Where ``n == 0`` both bounds are nan.
    """
    k = np.asarray(successes, dtype=float)
    m = np.asarray(n, dtype=float)
    if np.any(k < 0) or np.any(k > m):
        raise ValueError("need 0 <= successes <= n")
    z = _z(level)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / m
        denom = 1 + z * z / m
        centre = (p + z * z / (2 * m)) / denom
        half = z / denom * np.sqrt(p * (1 - p) / m + z * z / (4 * m * m))
    # at k = 0 (k = n) the lower (upper) bound is exactly 0 (1): no rounding left over
    lo = np.where(m > 0, np.where(k == 0, 0.0, np.clip(centre - half, 0.0, 1.0)), np.nan)
    hi = np.where(m > 0, np.where(k == m, 1.0, np.clip(centre + half, 0.0, 1.0)), np.nan)
    if lo.ndim == 0:
        return float(lo), float(hi)
    return lo, hi


def mean_ci(values, level: float = 0.95) -> tuple[float, float, float]:
    """Mean of independent block values and its Student-t interval.

    Returns ``(mean, lo, hi)``; with fewer than 2 values ``(mean, nan, nan)``
    (mean is nan for no values).
    """
    v = np.asarray(values, dtype=float).ravel()
    if v.size == 0:
        return float("nan"), float("nan"), float("nan")
    mean = float(v.mean())
    if v.size < 2:
        return mean, float("nan"), float("nan")
    half = _scipy_stats().t.ppf(0.5 + level / 2, v.size - 1) * v.std(ddof=1) / np.sqrt(v.size)
    return mean, float(mean - half), float(mean + half)


def ratio_ci(n_units: int, sum_y: float, sum_m: float, sum_yy: float, sum_ym: float, sum_mm: float,
             level: float = 0.95) -> tuple[float, float, float]:
    """Ratio of block totals ``R = sum(y) / sum(m)`` and its Student-t interval
    by linearisation (the delta method), from running sums over independent blocks.

    Each block contributes its totals ``y`` and ``m`` (e.g. a game's points and
    hands), so the sums can be accumulated chunk by chunk in constant memory.
    ``n_units`` is the number of blocks the ratio rests on: those with a nonzero
    ``m`` (``contributing_units``); a block with ``m = 0`` (and so ``y = 0``: a
    game without a rummy win adds nothing to points per rummy win) carries no
    information about R. The variance is ``n/(n-1) * sum((y - R*m)**2) / sum(m)**2``
    with n - 1 degrees of freedom, n = ``n_units``: 8 rummy wins in 8 of 20,000
    games give 7, not 19,999. With ``m = 1`` in every block this is the mean of
    ``y`` and exactly ``mean_ci``'s interval. The large-sample stand-in for
    ``block_bootstrap_ci`` of a ratio when the blocks are too many to hold.
    Returns ``(R, lo, hi)``; ``(R, nan, nan)`` with fewer than 2 units, all
    nan if ``sum_m`` is 0.
    """
    if sum_m == 0:
        return float("nan"), float("nan"), float("nan")
    r = sum_y / sum_m
    if n_units < 2:
        return float(r), float("nan"), float("nan")
    resid = max(sum_yy - 2 * r * sum_ym + r * r * sum_mm, 0.0)
    half = _scipy_stats().t.ppf(0.5 + level / 2, n_units - 1) * np.sqrt(n_units / (n_units - 1) * resid) / abs(sum_m)
    return float(r), float(r - half), float(r + half)


def contributing_units(denominators) -> int:
    """How many blocks a ratio rests on: those whose denominator (``m`` of ``ratio_ci``) is nonzero."""
    return int(np.count_nonzero(np.asarray(denominators)))


def block_bootstrap_ci(
    values,
    statistic: Callable[[np.ndarray], float],
    level: float = 0.95,
    n_boot: int = 2000,
    seed: int = 0,
) -> tuple[float, float, float]:
    """Percentile bootstrap interval resampling whole blocks.

    ``values`` holds one block per row (e.g. columns numerator, denominator
    for a ratio); ``statistic`` maps such an array to a number. Rows are drawn
    with replacement, so everything inside a block stays together.
    Returns ``(statistic(values), lo, hi)``; ``(estimate, nan, nan)`` with
    fewer than 2 blocks. The same ``seed`` gives the same interval.
    """
    v = np.asarray(values)
    estimate = float(statistic(v))
    if len(v) < 2:
        return estimate, float("nan"), float("nan")
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(v), size=(n_boot, len(v)))
    boots = np.array([statistic(v[i]) for i in idx], dtype=float)
    lo, hi = np.quantile(boots, [0.5 - level / 2, 0.5 + level / 2])
    return estimate, float(lo), float(hi)


def pentanomial(pair_scores) -> np.ndarray:
    """Counts of pair scores 0, 1/2, 1, 3/2, 2, i.e. bins ``PAIR_BINS``.

    A pair score is the candidate's total over the two games of a duplicate
    deal (win 1, stalemate 1/2, loss 0). Returns an int64 array of shape (5,).
    Raises ValueError on any other value.
    """
    doubled = 2 * np.asarray(pair_scores, dtype=float).ravel()
    idx = np.rint(doubled)
    if np.any(idx != doubled) or np.any((idx < 0) | (idx > 4)):
        raise ValueError("pair scores must be 0, 0.5, 1, 1.5 or 2")
    return np.bincount(idx.astype(np.int64), minlength=5).astype(np.int64)


def _penta_stats(counts) -> tuple[float, float, float]:
    """(pairs, mean per game, population variance of pair score / 2)."""
    c = np.asarray(counts, dtype=float)
    if c.shape != (5,) or np.any(c < 0):
        raise ValueError("counts must be 5 non-negative numbers")
    n = c.sum()
    if n == 0:
        return 0.0, float("nan"), float("nan")
    mean = float(c @ _PAIR_VALUES / n)
    var = float(c @ (_PAIR_VALUES - mean) ** 2 / n)
    return float(n), mean, var


def pentanomial_score(counts, level: float = 0.95) -> tuple[float, float, float]:
    """Mean score per game and its normal interval from pentanomial counts.

    Each pair contributes one observation, pair score / 2; the standard error
    is sqrt(per-pair variance / pairs), so the correlation of the two games
    of a deal is accounted for. Returns ``(score, lo, hi)``; nan for no pairs.
    """
    n, mean, var = _penta_stats(counts)
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    half = _z(level) * np.sqrt(var / n)
    return mean, float(mean - half), float(mean + half)


def elo(score):
    """Logistic Elo difference ``-400 * log10(1/score - 1)``.

    Scores are clipped to [0, 1]; 0 gives -inf and 1 gives +inf, nan stays
    nan. Returns a float for scalar input, else an array.
    """
    s = np.clip(np.asarray(score, dtype=float), 0.0, 1.0)
    with np.errstate(divide="ignore"):
        out = -400.0 * np.log10(1.0 / s - 1.0)
    return float(out) if out.ndim == 0 else out


def elo_ci(counts, level: float = 0.95) -> tuple[float, float, float]:
    """``(elo, lo, hi)``: Elo of the pentanomial score, and the interval
    obtained by mapping the score interval's endpoints through ``elo``."""
    return tuple(elo(x) for x in pentanomial_score(counts, level))


#: the Elo models an SPRT can be run in (``sprt_llr``'s ``model``)
ELO_MODELS = ("logistic", "normalized")
#: an SPRT looks at the data after every this many duplicate blocks (pairs), counted from the
#: start of the match, whatever the chunk size
SPRT_EVERY = 100
_NELO_SCALE = 800 / np.log(10)  # normalized Elo per unit of (score - 0.5) / sigma


def _penta_moments(c: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Vectorised ``_penta_stats`` over the last axis (counts, 5): (pairs, mean, variance)."""
    n = c.sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = (c @ _PAIR_VALUES) / n
        var = (c * (_PAIR_VALUES - mean[..., None]) ** 2).sum(axis=-1) / n
    return n, mean, var


def nelo(counts) -> float:
    """Normalized Elo of pentanomial counts, as fishtest defines it:
    ``nElo = (m - 0.5) / sigma * 800 / ln(10)`` with m the mean score per game and
    ``sigma = sqrt(2 * v)``, v the (population) variance of pair score / 2 (the per-game
    standard deviation the pairs imply). nan for no pairs or no spread."""
    n, mean, var = _penta_stats(counts)
    if n == 0 or var <= 0:
        return float("nan")
    return float((mean - 0.5) / np.sqrt(2 * var) * _NELO_SCALE)


def sprt_llr(counts, elo0: float, elo1: float, model: str = "logistic"):
    """Approximate generalized SPRT log-likelihood ratio of H1 (Elo = elo1)
    against H0 (Elo = elo0) for pentanomial counts (shape (5,), or (..., 5) for an
    array of LLRs), in logistic (default) or normalized Elo.

    Returns ``N * (s1 - s0) * (2*m - s0 - s1) / (2*v)``, where N is the number of
    pairs, m and v the mean and (population) variance of pair score / 2, and s0, s1
    the expected scores per game of the two hypotheses:

    * ``model="logistic"``: ``s_i = 1 / (1 + 10**(-elo_i / 400))``;
    * ``model="normalized"`` (normalized Elo, as fishtest's ``LLR_normalized``):
      ``s_i = 0.5 + elo_i * sigma * ln(10) / 800`` with ``sigma = sqrt(2 * v)``
      the per-game standard deviation estimated from the pairs (``nelo``), so that
      nElo = (score - 0.5) / sigma * 800 / ln(10).

    This is the Brownian (normal) approximation of the GSPRT of M. Van den Bergh,
    "A simple approximation of the GSPRT" (cantate.be/Fishtest/
    GSPRT_approximation.pdf), as in fishtest ``LLRcalc.LLR_alt2``;
    fishtest's ``LLR_logistic`` maximises the likelihood exactly instead,
    which agrees closely for small Elo differences. Equivalently: 2N games
    with per-game variance 2v. As in fishtest and OpenBench, empty bins are
    given a count of 1e-3 so that v > 0. No pairs gives 0.
    """
    if model not in ELO_MODELS:
        raise ValueError(f"unknown Elo model {model!r}: one of {', '.join(ELO_MODELS)}")
    c = np.asarray(counts, dtype=float)
    if c.shape[-1:] != (5,) or np.any(c < 0):
        raise ValueError("counts must be 5 non-negative numbers")
    empty = c.sum(axis=-1) == 0
    n, mean, var = _penta_moments(np.where(c == 0, 1e-3, c))
    if model == "logistic":
        s0, s1 = 1 / (1 + 10 ** (-elo0 / 400)), 1 / (1 + 10 ** (-elo1 / 400))
    else:
        sigma = np.sqrt(2 * var)
        s0, s1 = 0.5 + elo0 * sigma / _NELO_SCALE, 0.5 + elo1 * sigma / _NELO_SCALE
    llr = np.where(empty, 0.0, n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var))
    return float(llr) if llr.ndim == 0 else llr


def sprt_walk(step_counts, before, elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05,
              model: str = "logistic") -> tuple[np.ndarray, np.ndarray]:
    """The looks of an SPRT: the one stepping and stopping rule of ``compare.play_pair`` and of the
    error-rate simulations. ``step_counts`` (..., steps, 5) are the pentanomial counts of the blocks
    between one look and the next, ``before`` (..., 5) the counts before the first of them; the LLR
    is computed on the running (cumulative) counts at every look. Returns ``(first, decision)``:
    the index of the first look whose decision is not "continue" (-1 if none) and that decision
    (0 continue, 1 H1, -1 H0), each of shape (...)."""
    steps = np.asarray(step_counts, dtype=np.int64)
    cum = np.asarray(before, dtype=np.int64)[..., None, :] + np.cumsum(steps, axis=-2)
    llr = np.asarray(sprt_llr(cum, elo0, elo1, model))
    lower, upper = sprt_bounds(alpha, beta)
    verdict = np.where(llr >= upper, 1, np.where(llr <= lower, -1, 0))
    decided = verdict != 0
    first = np.where(decided.any(axis=-1), decided.argmax(axis=-1), -1)
    decision = np.where(first >= 0, np.take_along_axis(verdict, np.maximum(first, 0)[..., None], -1)[..., 0], 0)
    return first, decision


def pentanomial_probs(elo_value: float, draw_ratio: float = 0.0) -> np.ndarray:
    """Pentanomial probabilities ``[LL, LD, DD+WL, DW, WW]`` of a pair at logistic Elo ``elo_value``.

    The model: the two games of a pair are independent, each a win with probability w, a
    draw (stalemate) with probability d = ``draw_ratio``, a loss with l = 1 - w - d, with
    w - l set so the expected score per game is ``s = 1 / (1 + 10**(-elo / 400))``
    (w = s - d/2). ``draw_ratio=0`` is the draw-free trinomial [l^2, 0, 2wl, 0, w^2]."""
    s = 1 / (1 + 10 ** (-elo_value / 400))
    d = draw_ratio
    w, l = s - d / 2, 1 - s - d / 2
    if min(w, l) < 0:
        raise ValueError("draw_ratio too large for this Elo")
    return np.array([l * l, 2 * l * d, d * d + 2 * w * l, 2 * w * d, w * w])


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Wald's bounds ``(log(beta/(1-alpha)), log((1-beta)/alpha))``:
    accept H0 at or below the first, H1 at or above the second."""
    return float(np.log(beta / (1 - alpha))), float(np.log((1 - beta) / alpha))


def sprt_decision(llr: float, alpha: float = 0.05, beta: float = 0.05) -> str:
    """``"H1"`` if llr reached the upper bound, ``"H0"`` if it reached the
    lower bound, else ``"continue"``."""
    lower, upper = sprt_bounds(alpha, beta)
    if llr >= upper:
        return "H1"
    if llr <= lower:
        return "H0"
    return "continue"


def variance_reduction(paired_block_values, unpaired_game_values) -> float:
    """How much pairing helped: ``var(games, ddof=1) / n_games`` divided by
    ``var(blocks, ddof=1) / n_blocks``.

    The numerator is the variance of the mean if the games were independent,
    the denominator the variance of the mean over independent blocks; each
    block value must be the mean of its own games, so both estimate the same
    overall mean. Above 1 means pairing narrowed the interval (by the square
    root of this ratio). Returns inf if the paired variance is 0 (nan if both
    are), nan with fewer than 2 values on either side.
    """
    b = np.asarray(paired_block_values, dtype=float).ravel()
    g = np.asarray(unpaired_game_values, dtype=float).ravel()
    if b.size < 2 or g.size < 2:
        return float("nan")
    unpaired = g.var(ddof=1) / g.size
    paired = b.var(ddof=1) / b.size
    if paired == 0:
        return float("nan") if unpaired == 0 else float("inf")
    return float(unpaired / paired)


def two_sided_p(estimate, se, dof=None):
    """Two-sided p-value for "true value = 0" given an estimate and its
    standard error: Student-t with ``dof`` degrees of freedom, or normal when
    ``dof`` is None. Vectorised; returns a float for scalar input."""
    t = np.abs(np.asarray(estimate, dtype=float) / np.asarray(se, dtype=float))
    p = 2 * (_scipy_stats().norm.sf(t) if dof is None else _scipy_stats().t.sf(t, dof))
    return float(p) if np.ndim(p) == 0 else p


def holm_adjust(pvalues) -> np.ndarray:
    """Holm step-down adjusted p-values, in the input order.

    Sorted ascending, the i-th (0-based) of m becomes ``(m - i) * p``, then
    a running maximum makes them monotone, capped at 1. Reject where the
    adjusted value is <= the family-wise alpha.
    """
    p = np.asarray(pvalues, dtype=float).ravel()
    order = np.argsort(p)
    scaled = (len(p) - np.arange(len(p))) * p[order]
    out = np.empty_like(p)
    out[order] = np.minimum(np.maximum.accumulate(scaled), 1.0)
    return out
