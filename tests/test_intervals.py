"""Hand-worked checks of rummysim.intervals (z = 1.959964 at 95%)."""

import math

import numpy as np
import pytest

from rummysim.analysis.intervals import (
    PAIR_BINS,
    block_bootstrap_ci,
    elo,
    elo_ci,
    holm_adjust,
    mean_ci,
    pentanomial,
    pentanomial_score,
    sprt_bounds,
    sprt_decision,
    sprt_llr,
    two_sided_p,
    variance_reduction,
    wilson,
)

Z = 1.959964


def test_wilson_8_of_10():
    # p = .8, z^2/n = .384146, denom = 1.384146
    # centre = (.8 + .192073) / denom = .716738
    # half = z/denom * sqrt(.016 + z^2/400 = .025604) = .226578
    lo, hi = wilson(8, 10)
    assert lo == pytest.approx(0.4902, abs=1e-4)
    assert hi == pytest.approx(0.9433, abs=1e-4)
    assert isinstance(lo, float)


def test_wilson_zero_successes_and_vectorised():
    # k = 0: lo = 0, hi = z^2 / (n + z^2) = 3.841459 / 13.841459 = .27753
    lo, hi = wilson(np.array([0, 8, 0]), np.array([10, 10, 0]))
    assert lo[0] == 0.0 and hi[0] == pytest.approx(0.2775, abs=1e-4)
    assert (lo[1], hi[1]) == pytest.approx((0.4902, 0.9433), abs=1e-4)
    assert math.isnan(lo[2]) and math.isnan(hi[2])
    assert all(math.isnan(x) for x in wilson(0, 0))
    with pytest.raises(ValueError):
        wilson(11, 10)


def test_mean_ci_hand():
    # mean 2.5, s = sqrt(5/3) = 1.290994, se = .645497, 3.1824 * se = 2.05426
    mean, lo, hi = mean_ci([1, 2, 3, 4])
    assert mean == 2.5
    assert (lo, hi) == pytest.approx((0.4457, 4.5543), abs=1e-4)
    m, lo, hi = mean_ci([3.0])
    assert m == 3.0 and math.isnan(lo) and math.isnan(hi)


def test_bootstrap_two_blocks_by_hand():
    # Resampled means are 0, .5, 1 with prob 1/4, 1/2, 1/4: the 2.5% and
    # 97.5% percentiles are 0 and 1.
    assert block_bootstrap_ci(np.array([0.0, 1.0]), np.mean) == (0.5, 0.0, 1.0)


def test_bootstrap_keeps_blocks_whole():
    # Each row is (numerator, denominator) with ratio exactly 2; whole-row
    # resampling gives 2 every time, mixing rows' columns would not.
    rows = np.array([[2.0, 1.0], [20.0, 10.0], [6.0, 3.0], [0.2, 0.1]])
    ratio = lambda v: v[:, 0].sum() / v[:, 1].sum()  # noqa: E731
    assert block_bootstrap_ci(rows, ratio) == pytest.approx((2.0, 2.0, 2.0))


def test_bootstrap_deterministic_and_close_to_t():
    x = np.random.default_rng(1).normal(size=300)
    a = block_bootstrap_ci(x, np.mean, seed=5)
    assert a == block_bootstrap_ci(x, np.mean, seed=5)
    assert a != block_bootstrap_ci(x, np.mean, seed=6)
    _, tlo, thi = mean_ci(x)
    assert (a[2] - a[1]) == pytest.approx(thi - tlo, rel=0.1)
    assert math.isnan(block_bootstrap_ci(np.array([1.0]), np.mean)[1])


def test_pentanomial_counts():
    scores = [0, 0.5, 1, 1, 2, 1.5, 1, 0.5]
    assert PAIR_BINS == ("LL", "LD", "DD+WL", "DW", "WW")
    counts = pentanomial(scores)
    assert counts.dtype == np.int64
    assert counts.tolist() == [1, 2, 3, 1, 1]
    for bad in ([0.25], [3], [-0.5], [float("nan")]):
        with pytest.raises(ValueError):
            pentanomial(bad)


def test_pentanomial_score_hand():
    # counts [1,1,4,2,2] over per-game values 0,.25,.5,.75,1, N = 10 pairs
    # mean = (.25 + 2 + 1.5 + 2) / 10 = .575
    # var = (.330625 + .105625 + 4*.005625 + 2*.030625 + 2*.180625)/10 = .088125
    # half = z * sqrt(.0088125) = .183992
    mean, lo, hi = pentanomial_score([1, 1, 4, 2, 2])
    assert mean == pytest.approx(0.575)
    assert (lo, hi) == pytest.approx((0.3910, 0.7590), abs=1e-4)


def _penta_vs_independent(first, second):
    pair = first + second
    _, lo, hi = pentanomial_score(pentanomial(pair))
    games = np.concatenate([first, second])
    indep = Z * np.sqrt(games.var() / games.size)
    return (hi - lo) / 2, indep


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_pentanomial_narrower_when_seat_decides(seed):
    # Each deal favours one seat; both games of a deal go to the favoured
    # seat with prob .8 (deal outcomes positively correlated), so the
    # candidate, who swaps seats, tends to score 1 + 0: its two game scores
    # are negatively correlated (rho = -(.8 - .2)^2 = -.36) and pairing must
    # narrow the interval, by sqrt(1 + rho) = .8 in expectation.
    rng = np.random.default_rng(seed)
    n = 2000
    seat_a = rng.random(n) < 0.5
    keep = rng.random((2, n)) < 0.8
    first = np.where(keep[0], seat_a, ~seat_a).astype(float)
    second = np.where(keep[1], ~seat_a, seat_a).astype(float)
    penta, indep = _penta_vs_independent(first, second)
    assert penta < 0.9 * indep
    # Control: the candidate's own strength varies by deal (positive
    # correlation of its scores, rho = var(p)/.25 = .64), so the pentanomial
    # interval is wider, by sqrt(1.64) = 1.28 in expectation.
    good = rng.random(n) < 0.5
    p = np.where(good, 0.9, 0.1)
    penta, indep = _penta_vs_independent(
        (rng.random(n) < p).astype(float), (rng.random(n) < p).astype(float)
    )
    assert penta > 1.15 * indep


def test_elo_values():
    # -400 * log10(1/.75 - 1) = 400 * log10(3) = 190.849
    assert elo(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo(0.5) == 0.0
    assert elo(0.0) == -math.inf and elo(1.0) == math.inf
    assert elo(-0.1) == -math.inf and elo(1.2) == math.inf
    assert elo(np.array([0.25, 0.75])) == pytest.approx([-190.849, 190.849], abs=1e-3)


def test_elo_ci_maps_endpoints():
    # score (.575, .391009, .758991) from the hand example above:
    # elo(.575) = -400*log10(.425/.575) = 52.51
    # elo(.391009) = -400*log10(.608991/.391009) = -76.97
    # elo(.758991) = -400*log10(.241009/.758991) = 199.28
    assert elo_ci([1, 1, 4, 2, 2]) == pytest.approx((52.51, -76.97, 199.28), abs=0.01)


def test_sprt_llr_hand():
    # s0 = .5, s1 = 1/(1 + 10^(-10/400)) = .514387
    # LLR = 10 * .014387 * (1.15 - 1.014387) / (2 * .088125) = .110700
    assert sprt_llr([1, 1, 4, 2, 2], 0, 10) == pytest.approx(0.11070, abs=1e-5)
    assert sprt_llr([1, 1, 4, 2, 2], 10, 0) == pytest.approx(-0.11070, abs=1e-5)
    # mean .5 sits midway between s(-5) and s(5) = 1 - s(-5)
    assert sprt_llr([1, 2, 4, 2, 1], -5, 5) == pytest.approx(0.0, abs=1e-12)
    assert sprt_llr([0, 0, 0, 0, 0], 0, 5) == 0.0
    # empty bins regularised: finite and strongly for H1
    llr = sprt_llr([0, 0, 0, 0, 10], 0, 5)
    assert math.isfinite(llr) and llr > 2.95


def test_sprt_bounds_and_decision():
    # log(.05/.95) = -2.944439
    assert sprt_bounds() == pytest.approx((-2.9444, 2.9444), abs=1e-4)
    lo, hi = sprt_bounds(0.05, 0.10)  # log(.1/.95), log(.9/.05)
    assert (lo, hi) == pytest.approx((-2.2513, 2.8904), abs=1e-4)
    assert sprt_decision(2.95, 0.05, 0.05) == "H1"
    assert sprt_decision(-2.95, 0.05, 0.05) == "H0"
    assert sprt_decision(2.9, 0.05, 0.05) == "continue"


def test_variance_reduction_hand():
    # games 1,0 | 0,1 | 1,1 | 0,0: var = 2/7, /8 -> 1/28
    # blocks .5,.5,1,0: var = .5/3, /4 -> 1/24;  ratio (1/28)/(1/24) = 6/7
    games = [1, 0, 0, 1, 1, 1, 0, 0]
    assert variance_reduction([0.5, 0.5, 1, 0], games) == pytest.approx(6 / 7)
    # games 1,0 | 0,1 | 1,0 | 1,1: (1.875/7/8) / (.1875/3/4) = 15/7
    games = [1, 0, 0, 1, 1, 0, 1, 1]
    assert variance_reduction([0.5, 0.5, 0.5, 1], games) == pytest.approx(15 / 7)
    assert variance_reduction([0.5, 0.5], [1, 0, 0, 1]) == math.inf


def test_holm_hand():
    # sorted .005,.01,.03,.04 -> 4*.005=.02, 3*.01=.03, 2*.03=.06, 1*.04=.04
    # running max .02,.03,.06,.06; back in input order:
    adj = holm_adjust([0.01, 0.04, 0.03, 0.005])
    assert adj == pytest.approx([0.03, 0.06, 0.06, 0.02])
    # 2*.6 = 1.2 capped at 1, then .9 lifted to 1 by monotonicity
    assert holm_adjust([0.9, 0.6]).tolist() == [1.0, 1.0]


def test_two_sided_p():
    # t(.975, 3) = 3.1824 and z(.975) = 1.96 both give p = .05
    assert two_sided_p(3.1824, 1.0, 3) == pytest.approx(0.05, abs=1e-4)
    assert two_sided_p(-1.96, 1.0) == pytest.approx(0.05, abs=1e-4)
    assert two_sided_p(np.array([0.0, 1.96]), 1.0) == pytest.approx([1.0, 0.05], abs=1e-4)
