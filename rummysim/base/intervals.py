"""Confidence intervals and decisions for every estimate rummysim prints: the one place each method lives.

* a proportion of independent trials (a run's win rate, how hands end): the exact (Clopper-Pearson)
  interval, ``proportion_ci``;
* a share over blocks (a comparison's win share, its rates, a Shanghai seat's share of the games'
  wins): a value in [0, 1] whose units are grouped in blocks that are not independent inside, but
  are of each other. ``share_ci`` (block means) and ``share_ratio_ci`` (ratios of block totals):
  Korn and Graubard's interval for clustered proportions, Clopper-Pearson on the effective number
  of units (Kish's ``n_eff = p(1-p) / var(p)``, the variance estimated over the blocks) shrunk by
  ``(z / t(n-1))**2`` for the blocks' degrees of freedom. It never leaves [0, 1], is one-sided at
  a share of 0 or 1, and holds its coverage at 5 blocks (tests/test_coverage.py);
* a mean of an unbounded quantity over independent blocks (points per hand, turns, a total):
  Student-t, ``mean_ci``; ratios of block totals by linearisation, ``ratio_ci``;
* Elo: the image of the win share's interval under ``elo`` (``elo_ci``);
* two-player duplicate deals: pentanomial counts ``[LL, LD, DD+WL, DW, WW]`` and the SPRT;
* "is A's share the fair one": ``share_test``, the test whose confidence set is the win share's
  interval (``win_share_interval``), at every number of blocks; many candidates: Holm-adjusted p-values.

No interval is given (the bounds are nan) for one unit, nor for a mean whose units are all equal
(``no_spread``): a zero-width interval would claim certainty the data do not have. Every function
that takes ``level`` uses it as the two-sided coverage.
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np


def _special():
    """``scipy.special``, imported on first use (half a second; ``run`` needs it only for its summary)."""
    from scipy import special

    return special

#: the two-sided coverage of every interval rummysim prints
LEVEL = 0.95
PAIR_BINS = ("LL", "LD", "DD+WL", "DW", "WW")
_PAIR_VALUES = np.array([0.0, 0.25, 0.5, 0.75, 1.0])  # pair score / 2, per game
#: fewer blocks a match than this: the rating list gives ratings only (its bootstrap interval is not to
#: be trusted on so few)
MIN_T_BLOCKS = 30
#: a spread of the units below this share of their scale (1 for a share) is rounding, not spread: the
#: blocks of two copies of one strategy score exactly the fair share, up to the last bit
TIE = 1e-6


def _z(level: float) -> float:
    """The standard normal quantile of a two-sided ``level`` (the standard library's: no scipy needed)."""
    return NormalDist().inv_cdf(0.5 + level / 2)


def t_quantile(level: float, dof: float) -> float:
    """Student's t quantile of a two-sided ``level`` with ``dof`` degrees of freedom."""
    return float(_special().stdtrit(dof, 0.5 + level / 2))


def no_spread(values, scale: float | None = None) -> bool:
    """Whether ``values`` are all equal up to rounding: their range is at most ``TIE`` times their
    scale (``max(1, |values|)``), e.g. the blocks of a strategy against a copy of itself."""
    v = np.asarray(values, dtype=float).ravel()
    if v.size == 0:
        return True
    scale = max(1.0, float(np.max(np.abs(v)))) if scale is None else scale
    return float(np.ptp(v)) <= TIE * scale


def proportion_ci(successes, n, level: float = LEVEL):
    """Clopper-Pearson (exact binomial) interval for ``successes`` out of ``n`` independent trials.

    Its coverage is at least ``level`` at every n and every true proportion (Wilson's score
    interval falls to 90% at 1 of 5 when the truth is 0.02). At 0 successes the interval is
    ``[0, 1 - (alpha/2)**(1/n)]``, at n of n ``[(alpha/2)**(1/n), 1]``. ``successes`` and ``n`` may be
    non-integer (``share_ratio_ci`` passes effective counts). Returns ``(lo, hi)``: two floats for
    scalar input, two arrays for array input (broadcast); nan where ``n == 0``.
    """
    k = np.asarray(successes, dtype=float)
    m = np.asarray(n, dtype=float)
    if np.any(k < 0) or np.any(k > m):
        raise ValueError("need 0 <= successes <= n")
    tail = (1 - level) / 2
    special = _special()
    with np.errstate(divide="ignore", invalid="ignore"):
        lo = np.where(k > 0, special.betaincinv(np.maximum(k, 1e-300), m - k + 1, tail), 0.0)
        hi = np.where(k < m, special.betaincinv(k + 1, np.maximum(m - k, 1e-300), 1 - tail), 1.0)
    lo = np.where(m > 0, lo, np.nan)
    hi = np.where(m > 0, hi, np.nan)
    if lo.ndim == 0:
        return float(lo), float(hi)
    return lo, hi


def _scalar_or_array(*arrays):
    """Floats for 0-d arrays, else the arrays."""
    return tuple(float(x) for x in arrays) if np.ndim(arrays[0]) == 0 else arrays


def _share_interval(share, variance, blocks, level: float):
    """Korn and Graubard's interval for a share estimated over ``blocks`` independent blocks with
    the estimated ``variance`` (of the share): Clopper-Pearson on the effective number of units
    ``n_eff = share (1 - share) / variance`` (Kish), times ``(z / t(blocks - 1))**2`` (the blocks'
    degrees of freedom). Where the variance is 0 (every block alike, e.g. a share of 0; rounding is
    0 by ``_ratio_moments``), ``n_eff`` is the number of blocks and nothing is shrunk: a block's
    share lies in [0, 1], so the chance that all of them are 0 is at most ``(1 - share)**blocks``
    whatever the units inside a block do, and Clopper-Pearson on the blocks is exact for it.
    ``(lo, hi)``, nan with fewer than 2 blocks; vectorised (floats for scalar input)."""
    share, variance, blocks = np.broadcast_arrays(*(np.asarray(x, dtype=float) for x in (share, variance, blocks)))
    usable = (blocks >= 2) & np.isfinite(share)
    s = np.clip(np.where(usable, share, 0.0), 0.0, 1.0)
    m = np.where(usable, blocks, 2.0)
    flat = ~(variance > 0) | (s == 0) | (s == 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        shrink = (_z(level) / _special().stdtrit(m - 1, 0.5 + level / 2)) ** 2
        n_eff = np.where(flat, m, s * (1 - s) / np.where(flat, 1.0, variance) * shrink)
    lo, hi = proportion_ci(s * n_eff, n_eff, level)
    return _scalar_or_array(np.where(usable, lo, np.nan), np.where(usable, hi, np.nan))


def share_ci(values, level: float = LEVEL) -> tuple[float, float, float]:
    """Mean of independent block values in [0, 1] (a duplicate deal's score, a game's win share) and
    its interval (``_share_interval``, the block variance ``var(values, ddof=1) / n``).

    Returns ``(mean, lo, hi)``; ``(mean, nan, nan)`` with fewer than 2 blocks (nan mean for none).
    """
    v = np.asarray(values, dtype=float).ravel()
    n = v.size
    return share_ratio_ci(n, float(v.sum()), float(n), float(v @ v), float(v.sum()), float(n), level)


def _ratio_moments(n_units, sum_y, sum_m, sum_yy, sum_ym, sum_mm):
    """``(R, variance of R)`` of the ratio of block totals by linearisation: ``R = sum(y) / sum(m)``,
    variance ``n/(n-1) * sum((y - R*m)**2) / sum(m)**2`` (nan for fewer than 2 units); a residual
    below rounding (``TIE`` of the scale of ``y``) is 0. Vectorised over the sums."""
    n, sy, sm, syy, sym, smm = (np.asarray(x, dtype=float) for x in (n_units, sum_y, sum_m, sum_yy, sum_ym, sum_mm))
    with np.errstate(divide="ignore", invalid="ignore"):
        r = sy / sm
        resid = syy - 2 * r * sym + r * r * smm
        # the sums carry rounding of about 1e-16 of sum_yy (and of r^2 sum_mm): below TIE of their scale, no spread
        resid = np.where(resid <= (TIE * TIE) * np.maximum(np.maximum(syy, r * r * smm), n), 0.0, resid)
        var = np.where(n >= 2, n / (n - 1) * resid / (sm * sm), np.nan)
    return r, var


def share_ratio_ci(n_units, sum_y, sum_m, sum_yy, sum_ym, sum_mm, level: float = LEVEL):
    """A share that is a ratio of block totals, ``R = sum(y) / sum(m)`` with ``0 <= y <= m`` in every
    block (wins of hands, stalemated hands of hands, rummy points of points), with the interval of
    ``_share_interval`` from the linearised variance of R over the ``n_units`` blocks with a nonzero
    ``m`` (``contributing_units``), from running sums as ``ratio_ci``. With ``m = 1`` in every block it
    is ``share_ci``. Returns ``(R, lo, hi)``; nan bounds with fewer than 2 units, all nan if
    ``sum_m`` is 0. Vectorised over the sums (floats for scalar input).
    """
    r, var = _ratio_moments(n_units, sum_y, sum_m, sum_yy, sum_ym, sum_mm)
    lo, hi = _share_interval(r, var, n_units, level)
    return _scalar_or_array(r, lo, hi)


def mean_ci(values, level: float = LEVEL) -> tuple[float, float, float]:
    """Mean of independent block values and its Student-t interval.

    Returns ``(mean, lo, hi)``; ``(mean, nan, nan)`` with fewer than 2 values or when they are all
    equal (``no_spread``: no interval, rather than one of width 0); mean is nan for no values.
    """
    v = np.asarray(values, dtype=float).ravel()
    n = v.size
    return ratio_ci(n, float(v.sum()), float(n), float(v @ v), float(v.sum()), float(n), level) if n else (
        math.nan, math.nan, math.nan)


def ratio_ci(n_units, sum_y, sum_m, sum_yy, sum_ym, sum_mm, level: float = LEVEL):
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
    ``y`` and ``mean_ci``'s interval. The large-sample stand-in for
    ``block_bootstrap_ci`` of a ratio when the blocks are too many to hold.
    Returns ``(R, lo, hi)``; ``(R, nan, nan)`` with fewer than 2 units or no spread
    (every block's ``y`` is R times its ``m``), all nan if ``sum_m`` is 0. Vectorised over the
    sums (floats for scalar input).
    """
    r, var = _ratio_moments(n_units, sum_y, sum_m, sum_yy, sum_ym, sum_mm)
    with np.errstate(invalid="ignore"):
        half = np.where(var > 0, _special().stdtrit(np.maximum(np.asarray(n_units, float) - 1, 1), 0.5 + level / 2)
                        * np.sqrt(np.where(var > 0, var, 0.0)), np.nan)
    return _scalar_or_array(r, r - half, r + half)


def nonnegative_ratio_ci(n_units, sum_y, sum_m, sum_yy, sum_ym, sum_mm, level: float = LEVEL):
    """``ratio_ci`` for a quantity that cannot be negative (points, turns, reshuffles, buys, hands per
    game): Student's t on the log scale, ``[R exp(-h / R), R exp(h / R)]`` with ``h = t se(R)`` (the
    t-interval's half width, ``se(R)`` the delta method's), the upper bound no further above R than
    ``2 h`` (on 2 or 3 units with a zero among them ``exp(h / R)`` runs to millions; the cap costs
    no coverage). It never goes below 0 (the t-interval of 3 hands' points per winning hand was
    [-78.94, 98.94]) and leans the way such a mean's error does: 91.8-98.6% at 5 units of skewed
    points, where t held 87-89%, 93-96% from 20 (``tests/test_coverage.py``). The same arguments and
    returns as ``ratio_ci`` (no interval for fewer than 2 units or no spread); a negative total (the
    values were not all non-negative after all) falls back to ``ratio_ci``. Vectorised."""
    r, var = _ratio_moments(n_units, sum_y, sum_m, sum_yy, sum_ym, sum_mm)
    _, t_lo, t_hi = ratio_ci(n_units, sum_y, sum_m, sum_yy, sum_ym, sum_mm, level)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        q = _special().stdtrit(np.maximum(np.asarray(n_units, float) - 1, 1), 0.5 + level / 2)
        half = q * np.sqrt(np.where(var > 0, var, 0.0))
        spread = np.exp(half / r)
        positive = (var > 0) & (r > 0)
        lo = np.where(positive, r / spread, np.where(r < 0, t_lo, np.nan))
        hi = np.where(positive, np.minimum(r * spread, r + 2 * half), np.where(r < 0, t_hi, np.nan))
    return _scalar_or_array(r, lo, hi)


def nonnegative_mean_ci(values, level: float = LEVEL) -> tuple[float, float, float]:
    """``mean_ci`` of values that cannot be negative: ``nonnegative_ratio_ci`` with every block's ``m`` 1."""
    v = np.asarray(values, dtype=float).ravel()
    n = v.size
    if not n:
        return math.nan, math.nan, math.nan
    return nonnegative_ratio_ci(n, float(v.sum()), float(n), float(v @ v), float(v.sum()), float(n), level)


def contributing_units(denominators) -> int:
    """How many blocks a ratio rests on: those whose denominator (``m`` of ``ratio_ci``) is nonzero."""
    return int(np.count_nonzero(np.asarray(denominators)))


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


def pair_shares(counts) -> np.ndarray:
    """The pairs of pentanomial counts as block values, pair score / 2 (float64[pairs], sorted)."""
    c = np.asarray(counts)
    if c.shape != (5,) or np.any(c < 0):
        raise ValueError("counts must be 5 non-negative numbers")
    return np.repeat(_PAIR_VALUES, c.astype(np.int64))


def pentanomial_score(counts, level: float = LEVEL) -> tuple[float, float, float]:
    """Mean score per game of pentanomial counts and its interval: ``share_ci`` over the pairs (each
    pair one block, pair score / 2), so the correlation of the two games of a deal is accounted
    for. The same as the win share of the match. Returns ``(score, lo, hi)``; nan for no pairs."""
    return share_ci(pair_shares(counts), level)


def elo(score):
    """Logistic Elo difference ``-400 * log10(1/score - 1)``.

    Scores are clipped to [0, 1]; 0 gives -inf and 1 gives +inf, nan stays
    nan. Returns a float for scalar input, else an array.
    """
    s = np.clip(np.asarray(score, dtype=float), 0.0, 1.0)
    with np.errstate(divide="ignore"):
        out = -400.0 * np.log10(1.0 / s - 1.0) + 0.0   # + 0.0: never -0.0
    return float(out) if out.ndim == 0 else out


def elo_ci(share_lo_hi: tuple[float, float, float]) -> tuple[float, float, float]:
    """``(elo, lo, hi)``: the Elo of a win share ``(share, lo, hi)`` (``share_ci``) and its interval,
    the image of the share's interval under ``elo``: the two can never disagree. A bound of the
    share at 0 or 1 (a clean sweep) maps to -inf or +inf: the Elo is then unbounded on that side."""
    return tuple(elo(x) for x in share_lo_hi)


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
    """The generalized SPRT log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0) in its
    normal (Brownian) approximation, fishtest's ``LLR_alt2``, for pentanomial counts (shape (5,), or (..., 5) for an
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
    GSPRT_approximation.pdf), as in fishtest ``LLRcalc.LLR_alt2``; it is
    not fishtest's exact ``LLR_logistic``, which maximises the pentanomial
    likelihood: the two differ by a few hundredths near the bounds (seed 1 of
    ``compare expert greedy --sprt 0 10`` stops at 600 deals at 2.946 here,
    where the exact LLR is 2.909 and would go on). Equivalently: 2N games
    with per-game variance 2v. As in fishtest and OpenBench, empty bins are
    given a count of 1e-3 so that v > 0; where every pair fell in one bin (the variance is then
    the 1e-3's alone) the logistic LLR is the exact one, ``sprt_llr_exact``. No pairs gives 0.
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
    if model == "logistic":   # every pair in one bin: the variance is the 1e-3's, the approximation nonsense
        one_bin = (np.count_nonzero(c, axis=-1) == 1) & ~empty
        if np.any(one_bin):
            llr = np.array(llr, dtype=float)
            for i in zip(*np.nonzero(one_bin)) if one_bin.ndim else [()]:
                llr[i] = sprt_llr_exact(c[i], elo0, elo1)
    return float(llr) if np.ndim(llr) == 0 else llr


def _pentanomial_mle_loglik(counts: np.ndarray, score: float) -> float:
    """The largest log-likelihood of pentanomial ``counts`` (empty bins given 1e-3, as fishtest does) over
    the distributions of pair score / 2 whose mean is ``score``: ``p_i = phat_i / (1 + l (x_i - score))``
    with ``l`` the root of ``sum phat_i (x_i - score) / (1 + l (x_i - score)) = 0`` (by bisection)."""
    c = np.where(counts == 0, 1e-3, counts).astype(float)
    phat = c / c.sum()
    d = _PAIR_VALUES - score
    lo, hi = -1 / d.max() * (1 - 1e-12), -1 / d.min() * (1 - 1e-12)   # 1 + l d > 0 for every bin
    for _ in range(200):
        mid = (lo + hi) / 2
        if np.sum(phat * d / (1 + mid * d)) > 0:
            lo = mid
        else:
            hi = mid
    lam = (lo + hi) / 2
    return float(np.sum(c * np.log(phat / (1 + lam * d))))


def sprt_llr_exact(counts, elo0: float, elo1: float) -> float:
    """The exact generalized log-likelihood ratio of logistic Elo ``elo1`` against ``elo0`` on
    pentanomial ``counts`` (fishtest's ``LLR_logistic``: the pentanomial likelihood maximised under
    each hypothesis' expected score, empty bins given 1e-3). ``sprt_llr`` uses it where every pair
    fell in one bin: there the normal approximation divides by the variance of the 1e-3's alone (100
    pairs all DD+WL between copies of one strategy gave -1656.06, where this is -2.91)."""
    c = np.asarray(counts, dtype=float)
    if c.sum() == 0:
        return 0.0
    s0, s1 = 1 / (1 + 10 ** (-elo0 / 400)), 1 / (1 + 10 ** (-elo1 / 400))
    return _pentanomial_mle_loglik(c, s1) - _pentanomial_mle_loglik(c, s0)


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
    root of this ratio). nan, a ratio that says nothing, where the blocks are all
    alike up to rounding (``no_spread``: every deal played identically, or every
    pair split) and with fewer than 2 values on either side.
    """
    b = np.asarray(paired_block_values, dtype=float).ravel()
    g = np.asarray(unpaired_game_values, dtype=float).ravel()
    if b.size < 2 or g.size < 2 or no_spread(b):
        return float("nan")
    unpaired = g.var(ddof=1) / g.size
    paired = b.var(ddof=1) / b.size
    return float(unpaired / paired)


def two_sided_p(estimate, se, dof=None):
    """Two-sided p-value for "true value = 0" given an estimate and its
    standard error: Student-t with ``dof`` degrees of freedom, or normal when
    ``dof`` is None. Vectorised; returns a float for scalar input. Doubles hold
    it down to about 1e-308; below that it is 0."""
    t = -np.abs(np.asarray(estimate, dtype=float) / np.asarray(se, dtype=float))
    special = _special()
    p = 2 * (special.ndtr(t) if dof is None else special.stdtr(dof, t))
    return float(p) if np.ndim(p) == 0 else p


def sign_test_p(above: int, below: int) -> float:
    """Exact two-sided sign test: the chance, if above and below were equally likely, of a split at
    least as uneven as ``above`` : ``below`` (ties left out). 1 with no untied units."""
    n = above + below
    if n == 0:
        return 1.0
    return float(min(1.0, 2 * _special().bdtr(min(above, below), n, 0.5)))


def _reflected(share, fair):
    """``(s, f, below)``: the share and the fair share mirrored (``1 - x``) where the share is below
    the fair one, so that ``s >= f`` (a share below the fair one is a share of the other side above it)."""
    below = share < fair
    return np.where(below, 1 - share, share), np.where(below, 1 - fair, fair), below


def _share_p(share, variance, blocks, fair):
    """Two-sided p-value of "the share is ``fair``" inverted from ``_share_interval``: the smallest
    ``1 - level`` whose interval excludes ``fair`` (by bisection on its logarithm, to about 1e-14 of
    it; above 0.999 it is 1). The interval at ``level`` excludes a fair share below the estimate iff the upper tail of
    Clopper-Pearson on the ``n_eff`` units of that level, ``I_fair(x, n_eff - x + 1)`` with ``x = s
    n_eff``, is below ``(1 - level) / 2``; ``n_eff`` grows as the level falls (the ``(z/t)^2``
    shrink), so the tail falls and there is one crossing. Where every block is alike ``n_eff`` is the
    number of blocks, and this is Clopper-Pearson's exact p-value on the blocks: ``2 fair^n`` where
    all n blocks are 1. 1 where the share is the fair one up to rounding, nan with fewer than 2
    blocks. Vectorised (a float for scalar input)."""
    share, variance, blocks, fair = np.broadcast_arrays(
        *(np.asarray(x, dtype=float) for x in (share, variance, blocks, fair)))
    special = _special()
    usable = (blocks >= 2) & np.isfinite(share)
    s, f, _ = _reflected(np.clip(np.where(usable, share, 0.5), 0.0, 1.0), fair)
    m = np.where(usable, blocks, 2.0)
    flat = ~(variance > 0) | (s == 0) | (s == 1)
    base = np.where(flat, m, s * (1 - s) / np.where(flat, 1.0, variance))

    def rejected(log_alpha):
        tail = np.exp(log_alpha) / 2
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            shrink = np.where(flat, 1.0, (special.ndtri(tail) / special.stdtrit(m - 1, tail)) ** 2)
            n_eff = base * shrink
            x = s * n_eff
            upper = special.betainc(x, n_eff - x + 1, f)
        return upper < tail

    lo = np.full(s.shape, math.log(1e-300))   # rejected at 1e-300 already: p below it (0)
    hi = np.full(s.shape, math.log(0.999))     # not rejected even at 0.999: p = 1 (a share at the fair one)
    never = ~rejected(hi)
    always = rejected(lo)
    for _ in range(56):
        mid = (lo + hi) / 2
        r = rejected(mid)
        hi = np.where(r, mid, hi)
        lo = np.where(r, lo, mid)
    p = np.where(never, 1.0, np.where(always, 0.0, np.exp(hi)))
    p = np.where(np.abs(share - fair) <= TIE, 1.0, p)
    p = np.where(usable, p, np.nan)
    return float(p) if p.ndim == 0 else p


def _floor_p(share, blocks, fair):
    """The smallest p-value ``n`` blocks can give "the share is ``fair``": that of n blocks all 1
    (all 0) for a share above (below) the fair one, ``2 fair^n`` (``2 (1 - fair)^n``). A share in
    [0, 1] with mean ``fair`` is 1 with chance at most ``fair``, so n blocks all 1 have chance at
    most ``fair^n``: no test over n blocks that holds for any blocks in [0, 1] can say more; at 2
    players it is the exact sign test's (and sign-flip test's) least p over n pairs, ``2^(1-n)``."""
    s, f, _ = _reflected(np.asarray(share, dtype=float), np.asarray(fair, dtype=float))
    with np.errstate(under="ignore"):
        return np.minimum(1.0, 2 * f ** np.asarray(blocks, dtype=float))


def win_share_interval(share, variance, blocks, fair, level: float = LEVEL):
    """The interval and the p-value of a win share, the two faces of one test, so that the verdict
    and the interval never disagree: ``(lo, hi, p)``.

    * the interval is ``_share_interval``'s, widened where it is narrower than that of n blocks all
      1 (all 0): it never excludes a share that n blocks all won (lost) would not (``[(1 - level)/2)
      ^(1/n), 1]``): a match one block short of a sweep is no surer than the sweep;
    * the p-value is the smallest ``1 - level`` whose interval excludes ``fair``: ``_share_p``, never
      below ``_floor_p`` (what n blocks all won can give).

    So ``p < 1 - level`` exactly when the interval excludes the fair share, at every n: one test,
    no switch of method at any number of blocks. nan with fewer than 2 blocks. Vectorised."""
    lo, hi = _share_interval(share, variance, blocks, level)
    with np.errstate(divide="ignore", invalid="ignore"):
        c = ((1 - level) / 2) ** (1 / np.asarray(blocks, dtype=float))
    lo, hi = np.minimum(lo, c), np.maximum(hi, 1 - c)
    p = np.maximum(_share_p(share, variance, blocks, fair), _floor_p(share, blocks, fair))
    p = np.where(np.isnan(lo), np.nan, p)
    return _scalar_or_array(lo, hi, p)


def block_moments(values) -> tuple[float, float, int]:
    """``(mean, variance of the mean, n)`` of block values in [0, 1] as ``share_ci`` uses them
    (``_ratio_moments`` with ``m = 1``: rounding is no spread)."""
    v = np.asarray(values, dtype=float).ravel()
    n = v.size
    r, var = _ratio_moments(n, float(v.sum()), float(n), float(v @ v), float(v.sum()), float(n))
    return float(r), float(var), n


#: the name of ``share_test``'s test, in the JSON's ``"test"`` and a verdict's words
SHARE_TEST = "share interval"


def share_test(scores, fair: float, pairs: bool | None = None) -> tuple[float | None, str]:
    """p-value of "A's expected share is the fair share" from its block ``scores`` (float64[n]) and
    the test that gave it, ``(p, SHARE_TEST)``, or ``(None, reason there is none)`` with fewer than
    2 blocks. The test is the one whose confidence set is the win share's printed interval
    (``win_share_interval``): the same at every number of blocks and players (``pairs`` is no
    longer used), never below what n blocks all won can give, and rejecting exactly when the
    interval excludes ``fair``."""
    m, var, n = block_moments(scores)
    if n < 2:
        return None, f"no test: {n:,} block{'s' if n != 1 else ''}"
    return float(win_share_interval(m, var, n, fair)[2]), SHARE_TEST


def win_share_ci(scores, fair: float, level: float = LEVEL) -> tuple[float, float, float]:
    """``(mean, lo, hi)`` of a win share over its block ``scores``: ``win_share_interval``'s
    interval, the one ``share_test``'s verdict agrees with (nan bounds with fewer than 2 blocks)."""
    m, var, n = block_moments(scores)
    if n < 2:
        return (m if n else math.nan), math.nan, math.nan
    lo, hi, _ = win_share_interval(m, var, n, fair, level)
    return m, float(lo), float(hi)


def holm_adjust(pvalues) -> np.ndarray:
    """Holm step-down adjusted p-values, in the input order.

    Sorted ascending, the i-th (0-based) of m becomes ``(m - i) * p``, then
    a running maximum makes them monotone, capped at 1. Reject where the
    adjusted value is <= the family-wise alpha. A missing p-value (None or nan:
    no test was made) stays nan and is not counted in m.
    """
    p = np.array([np.nan if x is None else x for x in np.asarray(pvalues, dtype=object).ravel()], dtype=float)
    out = np.full_like(p, np.nan)
    tested = np.flatnonzero(~np.isnan(p))
    order = tested[np.argsort(p[tested])]
    scaled = (len(order) - np.arange(len(order))) * p[order]
    out[order] = np.minimum(np.maximum.accumulate(scaled), 1.0) if len(order) else scaled
    return out
