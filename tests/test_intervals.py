"""Hand-worked checks of rummysim.intervals (z = 1.959964 at 95%); the exact intervals are written
out with scipy's beta quantiles, not the package's own code."""

import math

import numpy as np
import pytest
from scipy import stats as sps

from rummysim.base.intervals import (
    PAIR_BINS,
    SHARE_TEST,
    _ratio_moments,
    elo,
    elo_ci,
    holm_adjust,
    mean_ci,
    pentanomial,
    pentanomial_probs,
    pentanomial_score,
    proportion_ci,
    ratio_ci,
    share_ci,
    share_ratio_ci,
    share_test,
    sign_test_p,
    sprt_bounds,
    sprt_decision,
    sprt_llr,
    two_sided_p,
    variance_reduction,
    win_share_ci,
    win_share_interval,
)

Z = 1.959964


def clopper_pearson(k, n):
    """The exact 95% interval, written out: beta quantiles."""
    lo = 0.0 if k == 0 else sps.beta.ppf(0.025, k, n - k + 1)
    hi = 1.0 if k == n else sps.beta.ppf(0.975, k + 1, n - k)
    return lo, hi


def test_proportion_ci_8_of_10_is_clopper_pearson():
    # Beta(8, 3) at 2.5% and Beta(9, 2) at 97.5%
    lo, hi = proportion_ci(8, 10)
    assert (lo, hi) == pytest.approx((0.44390, 0.97479), abs=1e-5)
    assert (lo, hi) == pytest.approx(clopper_pearson(8, 10), rel=1e-10)
    assert isinstance(lo, float)


def test_proportion_ci_zero_successes_is_one_sided_and_vectorised():
    # k = 0: lo = 0, hi = 1 - 0.025 ** (1/10) = .30850 (k = n mirrors it); n = 0: no interval
    lo, hi = proportion_ci(np.array([0, 8, 10, 0]), np.array([10, 10, 10, 0]))
    assert lo[0] == 0.0 and hi[0] == pytest.approx(1 - 0.025 ** 0.1, rel=1e-10) and hi[0] > 0
    assert (lo[1], hi[1]) == pytest.approx((0.44390, 0.97479), abs=1e-5)
    assert hi[2] == 1.0 and lo[2] == pytest.approx(0.025 ** 0.1, rel=1e-10)
    assert math.isnan(lo[3]) and math.isnan(hi[3])
    with pytest.raises(ValueError):
        proportion_ci(11, 10)


def test_share_ci_by_hand():
    """Korn and Graubard's interval: 12 pair scores / 2 (10 won, 1 DW, 1 LL), mean .895833; the
    sample variance .084754 over 12 is .0070629; n_eff = .895833 * .104167 / .0070629 = 13.212,
    times (1.959964 / t(.975, 11) = 2.200985)^2 = .79297: 10.477; Clopper-Pearson on 9.386 of 10.477."""
    v = np.array([1.0] * 10 + [0.75, 0.0])
    m, lo, hi = share_ci(v)
    n_eff = m * (1 - m) / (v.var(ddof=1) / 12) * (sps.norm.ppf(0.975) / sps.t.ppf(0.975, 11)) ** 2
    assert n_eff == pytest.approx(10.477, abs=1e-3)
    x = m * n_eff
    assert (lo, hi) == pytest.approx((sps.beta.ppf(0.025, x, n_eff - x + 1), sps.beta.ppf(0.975, x + 1, n_eff - x)),
                                     rel=1e-9)
    assert 0 < lo < m < hi < 1


# --- issue 24, item 1: no interval of a share leaves [0, 1] ---

def test_a_share_interval_never_leaves_0_1():
    """The t-interval of these 12 deals was [0.7109, 1.0808] (compare expert random --hands 12 --seed
    2) and of 2 Shanghai games [-2.9266, 3.4266]: a share's interval now stays in [0, 1]."""
    for v in ([1.0] * 10 + [0.75, 0.0], [0.0, 0.5], [0.0, 1.0], [1 / 3] * 5 + [1.0], [0.0] * 7 + [0.25]):
        _, lo, hi = share_ci(v)
        assert 0 <= lo <= hi <= 1, v
    # a ratio of block totals (a stalemate rate: 1 stalemated hand of 24 in 12 deals) too
    y, m = np.array([1.0] + [0.0] * 11), np.full(12, 2.0)
    r, lo, hi = share_ratio_ci(12, y.sum(), m.sum(), y @ y, y @ m, m @ m)
    assert r == pytest.approx(1 / 24) and 0 <= lo < r < hi <= 1


# --- item 2: a count of zero has a one-sided interval; one unit has none ---

def test_a_share_of_zero_or_one_has_a_one_sided_interval_over_the_blocks():
    # 12 blocks all 0: Clopper-Pearson on 12 blocks, [0, 1 - .025^(1/12)] = [0, .26465]
    assert share_ci(np.zeros(12)) == pytest.approx((0.0, 0.0, 1 - 0.025 ** (1 / 12)), rel=1e-10)
    assert share_ci(np.ones(12)) == pytest.approx((1.0, 0.025 ** (1 / 12), 1.0), rel=1e-10)
    m = np.full(12, 2.0)   # 12 blocks of 2 units, none a success
    assert share_ratio_ci(12, 0.0, m.sum(), 0.0, 0.0, m @ m)[2] == pytest.approx(1 - 0.025 ** (1 / 12), rel=1e-10)


def test_one_unit_or_no_spread_gives_no_interval():
    for ci in (share_ci, mean_ci):
        m, lo, hi = ci([0.5])
        assert m == 0.5 and math.isnan(lo) and math.isnan(hi)
    # a mean whose every unit is 3 (3 hands in every game): no interval, not [3, 3]
    m, lo, hi = mean_ci([3.0, 3.0, 3.0])
    assert m == 3.0 and math.isnan(lo) and math.isnan(hi)
    # the same from running sums: 3 games of 3 hands
    assert all(math.isnan(x) for x in ratio_ci(3, 9.0, 3.0, 27.0, 9.0, 3.0)[1:])


def test_mean_ci_hand():
    # mean 2.5, s = sqrt(5/3) = 1.290994, se = .645497, 3.1824 * se = 2.05426
    mean, lo, hi = mean_ci([1, 2, 3, 4])
    assert mean == 2.5
    assert (lo, hi) == pytest.approx((0.4457, 4.5543), abs=1e-4)


# --- issue 42, items 1 and 2: one test, the interval's, at every n ---

def test_twelve_won_deals_get_the_exact_bound_not_p_below_1e_16():
    # 12 of 12 pairs won: every block alike, Clopper-Pearson on the 12 blocks, 2 * 0.5^12 = 0.000488
    # (the exact sign test's p too)
    p, test = share_test(np.ones(12), 0.5)
    assert test == SHARE_TEST and p == pytest.approx(2 * 0.5 ** 12, rel=1e-9)
    # 30 all won: 2^-29 = 1.86e-9, what no test over 30 pairs can go below; one block short of a
    # sweep is no surer (the t-test said 3e-14 and the share interval alone 3e-31)
    assert share_test(np.ones(30), 0.5)[0] == pytest.approx(2 * 0.5 ** 30, rel=1e-9)
    assert share_test(np.array([1.0] * 29 + [0.75]), 0.5)[0] == pytest.approx(2 * 0.5 ** 30, rel=1e-9)
    m, lo, hi = win_share_ci(np.array([1.0] * 29 + [0.75]), 0.5)
    assert lo == pytest.approx(0.025 ** (1 / 30), rel=1e-12) and hi > m
    # 30 all lost at 3 players: 2 (2/3)^30
    assert share_test(np.zeros(30), 1 / 3)[0] == pytest.approx(2 * (2 / 3) ** 30, rel=1e-9)
    assert sign_test_p(0, 0) == 1.0 and sign_test_p(3, 3) == 1.0


def test_the_p_value_is_the_level_at_which_the_interval_reaches_the_fair_share():
    """10 won, a DW and a LL of 12 pairs: the share interval at level 1 - p has the fair share 0.5
    as its lower bound (to 1e-9)."""
    v = np.array([1.0] * 10 + [0.75, 0.0])
    p, _ = share_test(v, 0.5)
    assert 0.01 < p < 0.05
    assert share_ci(v, level=1 - p)[1] == pytest.approx(0.5, abs=1e-9)
    assert win_share_ci(v, 0.5)[1:] == share_ci(v)[1:]   # not near a sweep: the share interval itself


def test_few_blocks_at_three_players_get_a_p_value_from_two_blocks():
    p, test = share_test(np.array([1.0, 2 / 3, 1 / 3] * 5), 1 / 3)
    assert test == SHARE_TEST and p < 0.05 and win_share_ci(np.array([1.0, 2 / 3, 1 / 3] * 5), 1 / 3)[1] > 1 / 3
    assert share_test([1.0], 1 / 3) == (None, "no test: 1 block")


# --- item 4: blocks all alike up to rounding are no evidence ---

def test_blocks_of_one_third_up_to_rounding_test_nothing():
    """Every block of greedy against a copy of itself scores 1/3 but for the last bit: the t-test
    used to find p = 1.5e-152 in it; there is no spread and the share is the fair one: p = 1."""
    rng = np.random.default_rng(0)
    v = np.full(1000, 1 / 3) + rng.choice([0.0, 5.551115123125783e-17], 1000)
    assert np.ptp(v) > 0 and v.std() > 0
    assert share_test(v, 1 / 3) == (1.0, SHARE_TEST)
    assert share_test(np.full(1000, 0.5) + rng.choice([0.0, 1.1e-16], 1000), 0.5) == (1.0, SHARE_TEST)
    # nor a width: the interval of no spread rests on the blocks alone (Clopper-Pearson at 1/3 of 1000)
    _, lo, hi = share_ci(v)
    assert hi - lo > 0.05


def _random_matches(rng, count):
    """``count`` random matches as their block values ([count, 200], the first ``n`` of each row used)
    with ``n`` in 5..200, the players (2, 3 or 4) and the fair share: two-player pairs from the
    pentanomial of an Elo in [-120, 120] with up to 30% stalemates, and 3-4 player rotations whose
    deals share their luck (a win chance per deal from a beta distribution about a share near 1/k),
    so that many matches fall near the 5% boundary."""
    n = rng.integers(5, 201, count)
    players = rng.choice([2, 3, 4], count)
    values = np.zeros((count, 200))
    two = players == 2
    for i in np.flatnonzero(two):
        probs = pentanomial_probs(rng.uniform(-120, 120), rng.uniform(0, 0.3))
        values[i] = rng.choice(5, 200, p=probs) / 4
    many = np.flatnonzero(~two)
    k = players[many][:, None, None]
    share = np.clip(1 / k * np.exp(rng.uniform(-0.6, 0.6, (len(many), 1, 1))), 0.02, 0.98)
    chance = rng.beta(4 * share, 4 * (1 - share), (len(many), 200, 1))
    won = (rng.random((len(many), 200, 4)) < chance) & (np.arange(4) < k)
    values[many] = won.sum(axis=-1) / k[:, :, 0]
    used = np.arange(200) < n[:, None]
    return np.where(used, values, 0.0), n, players


def test_the_verdict_never_disagrees_with_the_interval_in_10000_random_matches():
    """The rule of docs/intervals.md: the verdict is the test whose confidence set is the printed
    interval. 10,000 random matches at 5 to 200 blocks (vectorised: the same code as
    ``share_test`` and ``win_share_ci``): p < 0.05 exactly where the interval excludes the fair share,
    and never below what the blocks could give (2 fair^n); 200 of them through
    ``compare.verdict`` too, whose words say the same."""
    from rummysim.analysis.compare import verdict
    rng = np.random.default_rng(42)
    values, n, players = _random_matches(rng, 10_000)
    fair = 1 / players
    s = values.sum(axis=1)
    share, variance = _ratio_moments(n, s, n, (values * values).sum(axis=1), s, n)
    lo, hi, p = win_share_interval(share, variance, n, fair)
    excluded = (lo > fair) | (hi < fair)
    assert 0.2 < excluded.mean() < 0.8 and np.sum(np.abs(p - 0.05) < 0.01) > 100   # near the boundary too
    assert np.array_equal(p < 0.05, excluded)
    assert np.all(p >= np.minimum(1, 2 * np.minimum(fair, 1 - fair) ** n) * (1 - 1e-9))
    assert np.all((lo <= share) & (share <= hi))
    for i in rng.choice(10_000, 200, replace=False):
        v = values[i, :n[i]]
        (m, lo_i, hi_i), (p_i, _) = win_share_ci(v, fair[i]), share_test(v, fair[i])
        assert (lo_i, hi_i, p_i) == pytest.approx((lo[i], hi[i], p[i]), rel=1e-9)
        words = verdict({"a": "A", "b": "B", "blocks": int(n[i]), "p_value": p_i, "test": SHARE_TEST,
                         "win_share": {"estimate": m, "ci95": [lo_i, hi_i]}}, p_i, int(players[i]))
        assert ("is better" in words) == bool(excluded[i]), (words, lo_i, hi_i)


def _sign_flip_p(v) -> float:
    """The exact two-sided sign-flip test of pair scores / 2 about 1/2 (the sum statistic, every one
    of the 2^n flips), by convolution: 4 (v - 1/2) is 2 (2A - a) + (2B - b) with A of the a pairs at
    +-2 and B of the b at +-1 flipped up, each Binomial(., 1/2)."""
    d = np.rint(4 * (np.asarray(v) - 0.5)).astype(int)
    a, b = int(np.sum(np.abs(d) == 2)), int(np.sum(np.abs(d) == 1))
    pa = sps.binom.pmf(np.arange(a + 1), a, 0.5)
    pb = sps.binom.pmf(np.arange(b + 1), b, 0.5)
    sums = (2 * (2 * np.arange(a + 1) - a))[:, None] + (2 * np.arange(b + 1) - b)[None, :]
    return float((pa[:, None] * pb[None, :])[np.abs(sums) >= abs(int(d.sum()))].sum())


def test_the_share_test_is_within_a_factor_10_of_the_exact_sign_flip_test_at_every_n():
    """The share interval's test is used at every n (no switch of method); at 2 players the exact
    test over the same pairs, the sign-flip (permutation) test, gives p-values within a factor of 10
    of it on 2,000 random matches at 5 to 200 pairs (p from 1e-12 to 0.5: within 6 here)."""
    rng = np.random.default_rng(5)
    n = rng.integers(5, 201, 2000)
    matches = [rng.choice(5, k, p=pentanomial_probs(rng.uniform(-120, 120), rng.uniform(0, 0.3))) / 4 for k in n]
    exact = np.array([_sign_flip_p(v) for v in matches])
    moments = np.array([_ratio_moments(len(v), v.sum(), len(v), v @ v, v.sum(), len(v)) for v in matches])
    p = win_share_interval(moments[:, 0], moments[:, 1], n, 0.5)[2]
    assert p[:50] == pytest.approx([share_test(v, 0.5)[0] for v in matches[:50]], rel=1e-9)
    tested = (exact > 1e-12) & (np.minimum(p, exact) < 0.5)
    ratios = np.maximum(p / exact, exact / p)[tested]
    assert len(ratios) > 1000 and max(ratios) < 10


def test_pentanomial_counts():
    scores = [0, 0.5, 1, 1, 2, 1.5, 1, 0.5]
    assert PAIR_BINS == ("LL", "LD", "DD+WL", "DW", "WW")
    counts = pentanomial(scores)
    assert counts.dtype == np.int64
    assert counts.tolist() == [1, 2, 3, 1, 1]
    for bad in ([0.25], [3], [-0.5], [float("nan")]):
        with pytest.raises(ValueError):
            pentanomial(bad)


def test_pentanomial_score_is_the_share_interval_over_the_pairs():
    # counts [1,1,4,2,2] over per-game values 0,.25,.5,.75,1, N = 10 pairs, mean .575
    mean, lo, hi = pentanomial_score([1, 1, 4, 2, 2])
    assert mean == pytest.approx(0.575)
    assert (mean, lo, hi) == share_ci([0, 0.25, 0.5, 0.5, 0.5, 0.5, 0.75, 0.75, 1, 1])


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


def test_elo_ci_is_the_image_of_the_win_share_interval():
    """Item 5: the Elo interval is the printed win share's interval mapped through ``elo``, so they
    agree; at 12 deals (10 won, 1 DW, 1 LL) the share's lower bound .5603 is +42.1 Elo, and a clean
    sweep is unbounded above."""
    share = share_ci([1.0] * 10 + [0.75, 0.0])
    est, lo, hi = elo_ci(share)
    assert (est, lo, hi) == pytest.approx(tuple(-400 * math.log10(1 / s - 1) for s in share), rel=1e-12)
    assert lo == pytest.approx(42.1, abs=0.05)
    sweep = elo_ci(share_ci(np.ones(12)))
    assert sweep[0] == math.inf and sweep[2] == math.inf and math.isfinite(sweep[1])
    assert sweep[1] == pytest.approx(elo(0.025 ** (1 / 12)))


def test_sprt_llr_hand():
    # s0 = .5, s1 = 1/(1 + 10^(-10/400)) = .514387
    # LLR = 10 * .014387 * (1.15 - 1.014387) / (2 * .088125) = .110700
    assert sprt_llr([1, 1, 4, 2, 2], 0, 10) == pytest.approx(0.11070, abs=1e-5)
    assert sprt_llr([1, 1, 4, 2, 2], 10, 0) == pytest.approx(-0.11070, abs=1e-5)
    # mean .5 sits midway between s(-5) and s(5) = 1 - s(-5)
    assert sprt_llr([1, 2, 4, 2, 1], -5, 5) == pytest.approx(0.0, abs=1e-12)
    assert sprt_llr([0, 0, 0, 0, 0], 0, 5) == 0.0
    # every pair in one bin (issue 42): the exact LLR, not the approximation's division by the 1e-3's
    # variance (which said > 2.95, H1, from 10 pairs). All won, the likeliest pentanomials of mean s put
    # about s on WW and the rest on LL: 10 ln(s1 / s0) = 10 ln(.507195 / .5) = .14289
    llr = sprt_llr([0, 0, 0, 0, 10], 0, 5)
    assert llr == pytest.approx(10 * math.log((1 / (1 + 10 ** (-5 / 400))) / 0.5), abs=1e-3)


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
    # every block alike (each pair split): the ratio says nothing, not "infx"
    assert math.isnan(variance_reduction([0.5, 0.5], [1, 0, 0, 1]))
    assert math.isnan(variance_reduction([1 / 3, 1 / 3 + 5.6e-17, 1 / 3], [1, 0, 0, 0, 1, 0, 0, 0, 1]))


def test_holm_hand():
    # sorted .005,.01,.03,.04 -> 4*.005=.02, 3*.01=.03, 2*.03=.06, 1*.04=.04
    # running max .02,.03,.06,.06; back in input order:
    adj = holm_adjust([0.01, 0.04, 0.03, 0.005])
    assert adj == pytest.approx([0.03, 0.06, 0.06, 0.02])
    # 2*.6 = 1.2 capped at 1, then .9 lifted to 1 by monotonicity
    assert holm_adjust([0.9, 0.6]).tolist() == [1.0, 1.0]
    # a match with no test stays nan and is not counted: 2 * .01, 1 * .04
    adj = holm_adjust([0.01, None, 0.04])
    assert adj[0] == pytest.approx(0.02) and math.isnan(adj[1]) and adj[2] == pytest.approx(0.04)


def test_two_sided_p():
    # t(.975, 3) = 3.1824 and z(.975) = 1.96 both give p = .05
    assert two_sided_p(3.1824, 1.0, 3) == pytest.approx(0.05, abs=1e-4)
    assert two_sided_p(-1.96, 1.0) == pytest.approx(0.05, abs=1e-4)
    assert two_sided_p(np.array([0.0, 1.96]), 1.0) == pytest.approx([1.0, 0.05], abs=1e-4)
    # far tails are kept, not cut at 1e-16: t = 10 on 1000 degrees of freedom
    p = two_sided_p(10.0, 1.0, 1000)
    assert p == pytest.approx(2 * sps.t.sf(10, 1000), rel=1e-9) and p < 1e-20
