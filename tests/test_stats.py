"""rummysim.stats on tiny results tables worked by hand, and its errors for unreadable results.

The tables are written with the same builders ``run`` and ``compare`` use
(``rummysim.results``), so they have the exact saved schema. t(0.975, 1 dof)
= 12.7062, t(0.975, 3) = 3.18245.
"""

import json
import os

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from rummysim.analysis import stats as S
from rummysim.variants.basic import kernel as K
from scipy.stats import t as scipy_t

from rummysim.base.intervals import mean_ci, ratio_ci

from independent import clopper_pearson as exact, nonnegative_interval, share_interval, share_ratio_interval


def nonneg(r, h):
    """``(r, lo, hi)`` of a ratio of what cannot be negative whose t-interval's half width is ``h``: t on
    the log scale, [r exp(-h/r), min(r exp(h/r), r + 2h)] (intervals.nonnegative_ratio_ci)."""
    return r, r * np.exp(-h / r), min(r * np.exp(h / r), r + 2 * h)
from rummysim.engine.codes import OUTCOMES
from rummysim.results import Chunk
from rummysim.variants.basic.schema import tables as basic_tables
from rummysim.variants import VARIANTS

BASIC = VARIANTS["basic"]


def hands_table(h, seed, players):
    """The ``hands`` table of kernel rows ``h``, as a run writes it."""
    return basic_tables(Chunk(h, np.zeros((len(h), players, 5), np.int32), np.zeros(0), None), seed, players,
                        ["x"] * players)["hands"]


def seats_table(h, s, names):
    """The ``seats`` table of kernel rows ``h`` and seat rows ``s``, as a run writes it."""
    return basic_tables(Chunk(h, s, np.zeros(0), None), 0, len(names), names)["seats"]


def games_table(games, game_rows, players):
    """The ``games`` table of a chunk's games, as a run writes it."""
    return basic_tables(Chunk(np.zeros((0, 10), np.int32), np.zeros((0, players, 5), np.int32), games, game_rows),
                        0, players, ["x"] * players)["games"]

T1 = 12.7062

# A 2-player run of 2 games to 100 (seat 0 "alpha", seat 1 "beta"). Hand h of game g is dealt by
# seat (g + h + 1) % 2; the starter is the other seat.
#  game hand dealer outcome            winner turns reshuffles points rummy | seat 0 left  | seat 1 left
#  0    0    1      win                0      10    0          20     no    | 0 cards  0   | 3 cards 20
#  0    1    0      win                1      12    0          30     no    | 4 cards 30   | 0        0
#  0    2    1      win                0       3    0          90     yes   | 0        0   | 7 cards 45
#  1    0    0      stalemate_stock    -1     40    1           0     no    | 5 cards 25   | 6 cards 33
#  1    1    1      win                1      15    1          40     no    | 2 cards 40   | 0        0
#  1    2    0      stalemate_blocked  -1     30    0           0     no    | 1 card  10   | 1 card   5
#  1    3    1      win                1      20    0          70     yes   | 7 cards 35   | 0        0
# Final scores: game 0 seat 0 110 - seat 1 30 (seat 0 wins), game 1 seat 0 0 - seat 1 110 (seat 1 wins).
RUN_HANDS = [  # game, hand, dealer, outcome, winner, turns, reshuffles, points, rummy
    (0, 0, 1, "win", 0, 10, 0, 20, 0),
    (0, 1, 0, "win", 1, 12, 0, 30, 0),
    (0, 2, 1, "win", 0, 3, 0, 90, 1),
    (1, 0, 0, "stalemate_stock", -1, 40, 1, 0, 0),
    (1, 1, 1, "win", 1, 15, 1, 40, 0),
    (1, 2, 0, "stalemate_blocked", -1, 30, 0, 0, 0),
    (1, 3, 1, "win", 1, 20, 0, 70, 1),
]
RUN_LEFT = [[(0, 0), (3, 20)], [(4, 30), (0, 0)], [(0, 0), (7, 45)], [(5, 25), (6, 33)],
            [(2, 40), (0, 0)], [(1, 10), (1, 5)], [(7, 35), (0, 0)]]


def kernel_rows(hands, left):
    """The kernel's int32 rows for the given hands and cards left per seat."""
    h = np.zeros((len(hands), K.HAND_COLS), dtype=np.int32)
    for i, (game, hand, dealer, outcome, winner, turns, resh, points, rummy) in enumerate(hands):
        h[i, [K.H_GAME, K.H_HAND, K.H_DEALER, K.H_STARTER, K.H_OUTCOME, K.H_WINNER, K.H_TURNS, K.H_RESHUFFLES,
              K.H_POINTS, K.H_RUMMY]] = [game, hand, dealer, (dealer + 1) % 2, OUTCOMES.index(outcome), winner,
                                         turns, resh, points, rummy]
    s = np.zeros((len(hands), 2, K.SEAT_COLS), dtype=np.int32)
    for i, seats in enumerate(left):
        for q, (cards, value) in enumerate(seats):
            s[i, q, K.S_CARDS_LEFT], s[i, q, K.S_VALUE_LEFT] = cards, value
    return h, s


def strategy_record(name):
    return {"name": name, "source": f"/x/{name}.toml", "sha256": name[0] * 12}


@pytest.fixture
def run_dir(tmp_path):
    d = tmp_path / "run"
    d.mkdir()
    h, s = kernel_rows(RUN_HANDS, RUN_LEFT)
    # two chunks, one per game, as run_to_dir writes them
    for name, parts in (("hands", [hands_table(h[:3], 5, 2), hands_table(h[3:], 5, 2)]),
                        ("seats", [seats_table(h[:3], s[:3], ["alpha", "beta"]),
                                   seats_table(h[3:], s[3:], ["alpha", "beta"])])):
        with pq.ParquetWriter(d / f"{name}.parquet", parts[0].schema) as w:
            for t in parts:
                w.write_table(t)
    pq.write_table(games_table(np.array([0, 1]), np.array([[0, 3, 110, 30], [1, 4, 0, 110]], dtype=np.int32), 2),
                   d / "games.parquet")
    meta = {"rummysim_version": "0.1.0", "players": 2, "mode": "games", "count": 2, "seed": 5,
            "rules": {}, "rule_hash": "r" * 12, "strategies": [
                {"seat": 0, **strategy_record("alpha")}, {"seat": 1, **strategy_record("beta")}],
            "status": "complete", "hands_played": 7}
    (d / "run.json").write_text(json.dumps(meta))
    return d


# A 2-player duplicate match in --hands mode, alpha (A) against beta (B), 2 deals, 2 rotations.
# Rotation r has A in seat r. Rows in file order (all of rotation 0, then rotation 1):
#  rotation game dealer winner points | A's score
#  0        0    1      0 (A)  10     | 1
#  0        1    0      1 (B)  20     | 0
#  1        0    1      1 (A)   6     | 1
#  1        1    0      -1      0     | 1/2 (stalemate_stock)
COMPARE_HANDS = [(0, 0, 1, "win", 0, 8, 0, 10, 0), (1, 0, 0, "win", 1, 9, 0, 20, 0),
                 (0, 0, 1, "win", 1, 7, 0, 6, 0), (1, 0, 0, "stalemate_stock", -1, 50, 1, 0, 0)]
COMPARE_LEFT = [[(0, 0), (2, 10)], [(3, 20), (0, 0)], [(1, 6), (0, 0)], [(4, 9), (5, 12)]]


@pytest.fixture
def compare_dir(tmp_path):
    d = tmp_path / "cmp"
    d.mkdir()
    h, s = kernel_rows(COMPARE_HANDS, COMPARE_LEFT)
    tables = {"hands": [], "seats": []}
    for r, seats_names in ((0, ["alpha", "beta"]), (1, ["beta", "alpha"])):
        part = slice(2 * r, 2 * r + 2)
        ht = hands_table(h[part], 0, 2)
        st = seats_table(h[part], s[part], seats_names)
        for name, t in (("hands", ht), ("seats", st)):
            n = t.num_rows
            tables[name].append(t.append_column("pair", pa.array(np.zeros(n, np.int16)))
                                .append_column("rotation", pa.array(np.full(n, r, np.int16))))
    for name, parts in tables.items():
        with pq.ParquetWriter(d / f"{name}.parquet", parts[0].schema) as w:
            for t in parts:
                w.write_table(t)
    est = lambda x, lo, hi: {"estimate": x, "ci95": [lo, hi]}  # noqa: E731
    pair = {"a": "alpha", "b": "beta", "a_index": 0, "b_index": 1, "blocks": 2, "hands": 4,
            "stalemate_rate": est(0.25, 0.05, 0.7), "win_share": est(0.75, 0.1, 1.4),
            "win_share_minus_fair": est(0.25, -0.4, 0.9), "p_value": 0.3,
            "points_per_hand_diff": est(-1.0, -20.0, 18.0), "variance_reduction": 1.5,
            "position_split": [{"position": 1, "who": "A starts", **est(0.75, -2.4, 3.9)},
                               {"position": 2, "who": "B starts", **est(0.5, -5.8, 6.8)}],
            "pentanomial": {"LL": 0, "LD": 0, "DD+WL": 1, "DW": 1, "WW": 0}, "elo": est(190.8, -100, 500)}
    meta = {"rummysim_version": "0.1.0", "players": 2, "mode": "hands", "count": 2, "seed": 0, "rules": {},
            "rule_hash": "r" * 12, "strategies": [strategy_record("alpha"), strategy_record("beta")],
            "pairs": [pair], "wall_seconds": 0.1, "reproduce": "rummysim 0.1.0 compare a b"}
    (d / "compare.json").write_text(json.dumps(meta))
    return d


def row(df, **where):
    mask = np.ones(len(df), dtype=bool)
    for k, v in where.items():
        mask &= (df[k] == v).to_numpy()
    assert mask.sum() == 1, where
    return df[mask].iloc[0]


def test_by_seat_of_a_run(run_dir):
    t = S.by_seat(run_dir)
    assert list(t.seat) == [0, 1] and list(t.strategy) == ["alpha", "beta"]
    a, b = row(t, seat=0), row(t, seat=1)
    # seat 0: won (0,0) and (0,2); stalemates (1,0), (1,2); lost the other 3
    assert (a.hands, a.wins, a.losses, a.stalemates) == (7, 2, 3, 2)
    assert (b.hands, b.wins, b.losses, b.stalemates) == (7, 3, 2, 2)
    assert (a.win_rate, a.win_rate_lo, a.win_rate_hi) == pytest.approx((2 / 7, *exact(2, 7)))
    # seat 0 points per hand: 110 / 7 = 15.714; blocks are games: (y, m) = (110, 3), (0, 4)
    # residuals y - R m = 62.857, -62.857; var = 2/1 * 7902.04 / 7^2 = 322.53; se 17.959; half 12.7062 * se = 228.19;
    # points cannot be negative: t on the log scale, its upper bound capped at R + 2 * 228.19
    assert a.points_per_hand == pytest.approx(110 / 7)
    r = 110 / 7
    h = scipy_t.ppf(0.975, 1) * np.sqrt(2 * ((110 - 3 * r) ** 2 + (4 * r) ** 2) / 7 ** 2)
    assert h == pytest.approx(228.19, abs=0.01)
    assert (a.points_per_hand, a.points_per_hand_lo, a.points_per_hand_hi) == pytest.approx(nonneg(r, h), rel=1e-9)
    assert a.points_per_hand_lo > 0 and a.points_per_hand_hi - a.points_per_hand == pytest.approx(2 * 228.19, abs=0.02)
    # points per game: games 110 and 0 -> 55 (t half 12.7062 * 55 = 698.84), written out
    assert a.games == 2
    assert (a.points_per_game, a.points_per_game_lo, a.points_per_game_hi) == pytest.approx(
        nonnegative_interval([110, 0]))
    assert a.points_per_game_hi - 55 == pytest.approx(2 * 698.84, abs=0.02)
    # seat 1: 30 + 40 + 70 = 140 over 7 hands; games 30 and 110
    assert b.points_per_hand == pytest.approx(20.0) and b.points_per_game == pytest.approx(70.0)
    # game wins from games.parquet: one each of 2
    assert (a.game_wins, a.game_win_rate) == (1, 0.5)
    assert (a.game_win_rate_lo, a.game_win_rate_hi) == pytest.approx(exact(1, 2))


def test_by_strategy_of_a_run_groups_seats_of_one_strategy(run_dir):
    t = S.by_strategy(run_dir)
    assert list(t.strategy) == ["alpha", "beta"]
    assert row(t, strategy="beta").wins == 3
    meta = json.loads((run_dir / "run.json").read_text())
    meta["strategies"][1] = {"seat": 1, **strategy_record("alpha")}  # the same strategy in both seats
    (run_dir / "run.json").write_text(json.dumps(meta))
    t = S.by_strategy(run_dir)
    a = row(t, strategy="alpha")
    # 14 seat-hands, 5 wins, 4 stalemate seat-hands, 250 points; 2 game wins of 2 * 2 seat-games
    assert (a.hands, a.wins, a.stalemates, a.losses) == (14, 5, 4, 5)
    assert a.points_per_hand == pytest.approx(250 / 14)
    assert (a.game_wins, a.game_win_rate) == (2, 0.5)
    # issue 42, item 7: alpha's 2 seats of a game are one block: its win rate over the 2 games (game 0: all 3
    # hands won, of 6 seat-hands; game 1: 2 of 8, 2 stalemated), not Clopper-Pearson on 14 seat-hands; its
    # game win rate over 2 games of 2 seat-games
    assert a.win_rate_n == 2 and a.game_win_rate_n == 2
    assert (a.win_rate, a.win_rate_lo, a.win_rate_hi) == pytest.approx(share_ratio_interval([3, 2], [6, 8]),
                                                                       rel=1e-9, abs=1e-12)
    # per game: block sums 140 and 110 over 2 seat-games each -> 62.5
    assert a.points_per_game == pytest.approx(62.5)


def test_going_rummy_of_a_run(run_dir):
    t = S.going_rummy(run_dir)
    a, b = row(t, strategy="alpha"), row(t, strategy="beta")
    assert (a.wins, a.rummy_wins, b.wins, b.rummy_wins) == (2, 1, 3, 1)
    assert (a.rummy_rate_per_seat_hand, a.rummy_share_of_wins, b.rummy_share_of_wins) == pytest.approx((1 / 7, 1 / 2, 1 / 3))
    assert (a.rummy_share_of_wins_lo, a.rummy_share_of_wins_hi) == pytest.approx(exact(1, 2))
    # alpha: one rummy win of 90, one ordinary of 20, all in game 0 (game 1 adds 0 / 0): one unit, no interval
    assert a.points_per_rummy_win == 90 and a.points_per_rummy_win_n == 1
    assert np.isnan(a.points_per_rummy_win_lo) and np.isnan(a.points_per_rummy_win_hi)
    assert a.points_per_ordinary_win == 20 and a.rummy_share_of_points == pytest.approx(90 / 110)
    # beta ordinary wins 30 (game 0) and 40 (game 1): mean 35, residuals -5, 5, var 2 * 50 / 2^2 = 25, half 63.53
    assert b.points_per_ordinary_win == pytest.approx(35)
    assert b.points_per_ordinary_win_hi == pytest.approx(nonneg(35, T1 * 5)[2], abs=1e-3)
    # beta rummy share of points 70 / 140 = 0.5; blocks (0, 30), (70, 110): residuals -15, 15,
    # var = 2 * 450 / 140^2 = 0.0459: the t-interval's half-width 12.7062 * 0.2143 = 2.72 left [0, 1]
    # (it was clipped); the share interval stays inside, and on 2 blocks this far apart spans nearly all of it
    assert [b.rummy_share_of_points, b.rummy_share_of_points_lo, b.rummy_share_of_points_hi] == pytest.approx(
        share_ratio_interval([0, 70], [30, 110]), rel=1e-9, abs=1e-12)
    assert 0 <= b.rummy_share_of_points_lo < 0.01 and 0.99 < b.rummy_share_of_points_hi <= 1


# A 2-player run of 6 independent hands (--hands: a block is a hand): alpha (seat 0) goes rummy in 3
# of them, so its points per rummy win rest on 3 units, not 6.
#  hand winner points rummy
#  0    0      60     yes
#  1    1      20     no
#  2    0      90     yes
#  3    0      10     no
#  4    0      120    yes
#  5    1      30     no
FEW_RUMMY_HANDS = [(g, 0, (g + 1) % 2, "win", w, 10, 0, p, r)
                   for g, (w, p, r) in enumerate([(0, 60, 1), (1, 20, 0), (0, 90, 1), (0, 10, 0), (0, 120, 1),
                                                  (1, 30, 0)])]


def test_ratio_intervals_rest_on_the_units_with_a_nonzero_denominator(tmp_path):
    """Points per rummy win over the 3 hands with a rummy win: t with 2 degrees of freedom and the
    factor n/(n-1) of those 3, not of all 6 hands (hands without a rummy win add 0 / 0)."""
    h, s = kernel_rows(FEW_RUMMY_HANDS, [[(0, 0), (0, 0)]] * 6)
    pq.write_table(hands_table(h, 1, 2), tmp_path / "hands.parquet")
    pq.write_table(seats_table(h, s, ["alpha", "beta"]), tmp_path / "seats.parquet")
    meta = {"rummysim_version": "0.1.0", "players": 2, "mode": "hands", "count": 6, "seed": 1, "rules": {},
            "rule_hash": "r" * 12, "strategies": [{"seat": 0, **strategy_record("alpha")},
                                                  {"seat": 1, **strategy_record("beta")}],
            "status": "complete", "hands_played": 6}
    (tmp_path / "run.json").write_text(json.dumps(meta))
    from scipy import stats as sps

    t = S.going_rummy(tmp_path)
    a, b = row(t, strategy="alpha"), row(t, strategy="beta")
    # alpha: rummy wins 60, 90, 120: mean 90, residuals -30, 0, 30, variance 3/2 * 1800 / 3^2 of the ratio
    half = sps.t.ppf(0.975, 2) * np.sqrt(3 / 2 * 1800) / 3
    assert a.points_per_rummy_win_n == 3
    assert (a.points_per_rummy_win, a.points_per_rummy_win_lo, a.points_per_rummy_win_hi) == pytest.approx(
        nonneg(90, half), rel=1e-12)
    assert half == pytest.approx(74.52, abs=0.01)   # over all 6 hands (5 df) it would be 39.8
    # its one ordinary win: one unit, no interval; beta's two ordinary wins, 20 and 30: 1 df
    assert a.points_per_ordinary_win_n == 1 and np.isnan(a.points_per_ordinary_win_hi)
    assert b.points_per_ordinary_win_n == 2
    assert b.points_per_ordinary_win_hi == pytest.approx(nonneg(25, sps.t.ppf(0.975, 1) * np.sqrt(2 * 50) / 2)[2],
                                                         rel=1e-12)
    # rates rest on their trials: the rummy rate per hand on the 6 hands, its share of wins on alpha's 4 wins
    assert (a.rummy_rate_per_seat_hand_n, a.rummy_share_of_wins_n) == (6, 4)
    # points per hand rest on every hand alpha played
    p = row(S.by_strategy(tmp_path), strategy="alpha")
    assert p.points_per_hand_n == 6 and p.win_rate_n == 6


def test_hand_endings_and_starter_of_a_run(run_dir):
    t = S.hand_endings(run_dir)
    assert dict(zip(t.ending, t["count"])) == {"went_out": 5, "went_rummy": 2, "stalemate_stock": 1,
                                               "stalemate_blocked": 1, "turn_limit": 0}
    assert (t.hands == 7).all()
    r = row(t, ending="stalemate_stock")
    assert (r.rate, r.rate_lo, r.rate_hi) == pytest.approx((1 / 7, *exact(1, 7)))
    # position of the winner from the dealer's left: (0,0) (0,1) (0,2) the starter; (1,1), (1,3) the dealer
    s = S.starter_advantage(run_dir)
    assert list(s.position) == [1, 2] and list(s.who) == ["starter", "dealer"]
    assert list(s.wins) == [3, 2] and list(s.hands) == [7, 7]
    assert (s.win_rate[0], s.win_rate_lo[0], s.win_rate_hi[0]) == pytest.approx((3 / 7, *exact(3, 7)))


def counts(df):
    return {int(v): int(c) for v, c in zip(df.value, df["count"]) if c}


def test_distributions_of_a_run(run_dir):
    res = S.open_results(run_dir)
    assert counts(S.distribution(res, "turns_per_hand")) == {3: 1, 10: 1, 12: 1, 15: 1, 20: 1, 30: 1, 40: 1}
    turns = S.distribution(res, "turns_per_hand")
    assert list(turns.value) == list(range(3, 41)) and turns["count"].sum() == 7  # zero counts kept in between
    assert counts(S.distribution(res, "points_per_winning_hand")) == {20: 1, 30: 1, 40: 1, 70: 1, 90: 1}
    # losing seats of won hands only (not the stalemates): cards 3, 4, 7, 2, 7; points 20, 30, 45, 40, 35
    assert counts(S.distribution(res, "cards_left_per_losing_seat")) == {2: 1, 3: 1, 4: 1, 7: 2}
    assert counts(S.distribution(res, "value_left_per_losing_seat")) == {20: 1, 30: 1, 35: 1, 40: 1, 45: 1}
    assert counts(S.distribution(res, "hands_per_game")) == {3: 1, 4: 1}
    assert counts(S.distribution(res, "reshuffles_per_hand")) == {0: 5, 1: 2}
    summary = S.distribution_summary(res).set_index("quantity")
    t = summary.loc["turns_per_hand"]
    # sorted 3 10 12 15 20 30 40: mean 130/7, median 15, 5% -> 3, 25% (cum 2/7 = .286) -> 10, 95% -> 40
    assert (t.n, t["min"], t.q05, t.q25, t["median"], t.q95, t["max"]) == (7, 3, 3, 10, 15, 40, 40)
    assert t["mean"] == pytest.approx(130 / 7) and t.sd == pytest.approx(np.std([3, 10, 12, 15, 20, 30, 40], ddof=1))
    p = summary.loc["points_per_winning_hand"]
    assert (p.n, p["mean"], p["median"]) == (5, 50, 40)


def test_convergence_of_a_run(run_dir):
    # seat 0 wins hands 1 and 3 of 7; marks at 1, 2, 3, 5, 7 hands
    c = S.convergence(run_dir, points=7, first=1)
    assert list(c.hands) == [1, 2, 3, 5, 7]
    assert list(c.estimate) == pytest.approx([1, 1 / 2, 2 / 3, 2 / 5, 2 / 7])
    assert (c.lo.iloc[-1], c.hi.iloc[-1]) == pytest.approx(exact(2, 7))


def test_tables_of_a_comparison(compare_dir):
    res = S.open_results(compare_dir)
    assert res.kind == "compare" and res.strategies == ["alpha", "beta"]
    t = S.by_strategy(res)
    a, b = row(t, strategy="alpha"), row(t, strategy="beta")
    # alpha: a seat in each of the 4 hands, won 10 and 6, one stalemate; beta won 20
    assert (a.hands, a.wins, a.losses, a.stalemates) == (4, 2, 1, 1)
    assert (b.hands, b.wins, b.losses, b.stalemates) == (4, 1, 2, 1)
    # blocks are deals over both rotations: alpha (16, 2), (0, 2) -> 4, residuals 8, -8, var 2 * 128 / 16 = 16
    # (t half T1 * 4; points cannot be negative: t on the log scale)
    assert (a.points_per_hand, a.points_per_hand_hi) == pytest.approx(nonneg(4, T1 * 4)[::2], abs=1e-3)
    # beta (0, 2), (20, 2) -> 5, residuals -10, 10, var 2 * 200 / 16 = 25
    assert (b.points_per_hand, b.points_per_hand_lo) == pytest.approx(nonneg(5, T1 * 5)[:2], abs=1e-3)
    assert b.points_per_hand_lo > 0
    assert "points_per_game" not in t.columns and "game_win_rate" not in t.columns
    # a comparison's rates and ratios rest on the 2 deals (blocks), not the 4 seat-hands
    assert (a.win_rate_n, a.points_per_hand_n, b.win_rate_n) == (2, 2, 2)
    seats = S.by_seat(res)
    assert len(seats) == 4  # every seat held each strategy in one rotation
    assert row(seats, seat=0, strategy="alpha").wins == 1 and row(seats, seat=1, strategy="beta").wins == 1
    assert row(seats, seat=0, strategy="beta").stalemates == 1
    ends = S.hand_endings(res)
    assert set(ends.match) == {"alpha vs beta"}
    assert dict(zip(ends.ending, ends["count"]))["stalemate_stock"] == 1
    assert counts(S.distribution(res, "cards_left_per_losing_seat")) == {1: 1, 2: 1, 3: 1}
    assert len(S.distribution(res, "hands_per_game")) == 0
    # A's score by deal: deal 0 (1 + 1) / 2 = 1, deal 1 (0 + 1/2) / 2 = 1/4: running means 1, 5/8 over
    # deals in deal order (not 1, 0, 1, 1/2 in file order: rotation 0 of every deal first); the band is
    # the share interval over deals, as the headline's
    c = S.convergence(res, points=10, first=1)
    assert list(c.deals) == [1, 2]
    assert list(c.estimate) == pytest.approx([1, 0.625])
    assert [c.estimate.iloc[-1], c.lo.iloc[-1], c.hi.iloc[-1]] == pytest.approx(share_interval([1, 0.25]), rel=1e-9)
    head = S.headline(res)
    assert head.match[0] == "alpha vs beta" and head["pairs_LL/LD/DD+WL/DW/WW"][0] == "0 / 0 / 1 / 1 / 0"
    assert (head.win_share[0], head.win_share_lo[0]) == (0.75, 0.1)
    assert (head.hand_share_of_a_when_a_starts[0], head.hand_share_of_a_when_b_starts_hi[0]) == (0.75, 6.8)
    # a record without "n" is older: its estimates rested on every block
    assert (head.win_share_n[0], head.hand_share_of_a_when_a_starts_n[0]) == (2, 2)
    assert S.crosstable(res).empty


def test_crosstable_long_form(compare_dir):
    meta = json.loads((compare_dir / "compare.json").read_text())
    est = lambda x: {"estimate": x, "ci95": [x - 0.1, x + 0.1], "n": 40}  # noqa: E731
    meta["strategies"].append(strategy_record("gamma"))
    meta["crosstable"] = {"names": ["alpha", "beta", "gamma"],
                          "win_share": [[None, est(0.6), est(0.7)], [est(0.4), None, est(0.55)],
                                        [est(0.3), est(0.45), None]]}
    meta["ranking"] = [{"rank": 1, "name": "alpha", "mean_edge": 0.15}, {"rank": 2, "name": "beta", "mean_edge": -0.025},
                       {"rank": 3, "name": "gamma", "mean_edge": -0.125}]
    (compare_dir / "compare.json").write_text(json.dumps(meta))
    ct = S.crosstable(compare_dir)
    assert len(ct) == 6 and list(ct.strategy[:2]) == ["alpha", "alpha"] and list(ct["rank"]) == [1, 1, 2, 2, 3, 3]
    assert row(ct, strategy="beta", opponent="gamma").win_share_hi == pytest.approx(0.65)
    assert (ct.win_share_n == 40).all()


def test_ratio_ci_matches_mean_ci_and_the_block_bootstrap():
    y = np.array([3.0, 7.0, 1.0, 9.0, 4.0])
    assert ratio_ci(5, y.sum(), 5, (y * y).sum(), y.sum(), 5) == pytest.approx(mean_ci(y))
    assert np.isnan(ratio_ci(1, 3, 1, 9, 3, 1)[1]) and np.isnan(ratio_ci(0, 0, 0, 0, 0, 0)[0])


def test_batches_larger_than_one_game_and_games_split_across_batches(run_dir, monkeypatch):
    """The same tables whatever the batch size: blocks and seat rows are carried across batches."""
    whole = (S.by_seat(run_dir), S.distribution(run_dir, "value_left_per_losing_seat"))
    monkeypatch.setattr(S, "BATCH_ROWS", 2)
    split = (S.by_seat(run_dir), S.distribution(run_dir, "value_left_per_losing_seat"))
    for x, y in zip(whole, split):
        pd.testing.assert_frame_equal(x, y)


def write(path, data):
    """Overwrite ``path`` with ``data``; return the results directory."""
    path.write_bytes(data) if isinstance(data, bytes) else path.write_text(data)
    return path.parent


@pytest.mark.parametrize("damage, words", [
    (lambda d: d / "nowhere", ["no such directory"]),
    (lambda d: d / "run.json", ["not a directory"]),
    (lambda d: d.parent / "empty", ["holds no run.json or compare.json"]),
    (lambda d: write(d / "hands.parquet", b"this is not parquet" * 20), ["hands.parquet", "not a readable Parquet"]),
    (lambda d: (d / "seats.parquet").unlink() or d, ["seats.parquet", "missing"]),
    (lambda d: write(d / "run.json", "{oops"), ["run.json", "not a readable rummysim record"]),
    (lambda d: pq.write_table(pa.table({"game": [1]}), d / "games.parquet") or d, ["games.parquet", "winner"]),
])
def test_unreadable_results_raise_one_line_results_error(run_dir, damage, words):
    (run_dir.parent / "empty").mkdir()
    path = damage(run_dir)
    with pytest.raises(S.ResultsError) as e:
        S.by_seat(path)
    assert isinstance(e.value, ValueError) and len(str(e.value).splitlines()) == 1
    for w in words:
        assert w in str(e.value)


def test_corrupt_data_pages_raise_results_error(run_dir):
    """A readable footer over damaged column data still ends as a ResultsError naming the file."""
    path = run_dir / "hands.parquet"
    data = bytearray(path.read_bytes())
    data[4:len(data) // 2] = bytes(len(data) // 2 - 4)
    path.write_bytes(bytes(data))
    with pytest.raises(S.ResultsError, match="hands.parquet"):
        S.hand_endings(run_dir)


def test_a_directory_of_several_results_takes_the_newest(run_dir, compare_dir):
    os.utime(run_dir / "run.json", (1, 1))
    where, note = S.find_results(run_dir.parent)
    assert where == compare_dir and str(compare_dir) in note and "2 results" in note
    assert S.open_results(run_dir.parent).kind == "compare"


@pytest.mark.engine
def test_game_win_rate_of_a_games_comparison(tmp_path):
    """A --games comparison: each strategy's game wins, over the seat-games it played."""
    import json

    from rummysim.analysis.compare import compare
    from rummysim.variants.basic.rules import BasicRules
    from rummysim.strategy import load_strategy

    compare(BASIC, [load_strategy("greedy", BASIC), load_strategy("expert", BASIC)], 2, 3, BasicRules(), 200, None, out_dir=tmp_path)
    share = json.loads((tmp_path / "compare.json").read_text())["win_share"]["estimate"]
    t = S.by_strategy(tmp_path).set_index("strategy")
    assert t.loc["greedy", "game_wins"] + t.loc["expert", "game_wins"] == 400  # 200 games x 2 seatings
    assert t.loc["greedy", "game_wins"] == round(share * 400)
    assert t.loc["greedy", "game_win_rate"] == pytest.approx(share)


@pytest.mark.engine
def test_a_strategy_in_several_seats_of_a_run_is_clustered_by_hand(tmp_path):
    """issue 42, item 7: run --hands 2000 --players 3 greedy random greedy --seed 9, then report: greedy's
    win rate was Clopper-Pearson on its 4,000 seat-hands as if independent, [0.4619, 0.4931] n=4000;
    its two seats of one hand are one block (one of them at most wins it): the share interval over the
    hands, [0.4729, 0.4821] n=2000 there. Here on 300 hands, against the interval written out."""
    from rummysim.cli import main
    out = tmp_path / "run"
    try:
        main(["run", "--hands", "300", "--players", "3", "--strategy", "greedy", "--strategy", "random",
              "--strategy", "greedy", "--seed", "9", "--out", str(out), "--json"])
    except SystemExit as e:
        assert e.code in (0, None)
    hands = pq.read_table(out / "hands.parquet").to_pandas()
    won = hands["winner"].isin([0, 2]).astype(float).to_numpy()   # greedy's seats won the hand
    g = row(S.by_strategy(out), strategy="greedy")
    assert g.hands == 600 and g.win_rate_n == 300
    assert (g.win_rate, g.win_rate_lo, g.win_rate_hi) == pytest.approx(
        share_ratio_interval(won, np.full(300, 2.0)), rel=1e-9)
    # per seat, a seat holds one trial a hand: Clopper-Pearson over its hands, as before
    seat0 = row(S.by_seat(out), seat=0)
    assert (seat0.win_rate_lo, seat0.win_rate_hi) == pytest.approx(exact(seat0.wins, 300))


def test_convergence_of_few_units_has_more_than_its_last_point(run_dir):
    """issue 42, item 8: below 100 units the convergence plot held one point (it started at 100, or at
    the last unit): now from a tenth of them, 2 at least."""
    c = S.convergence(run_dir)
    assert list(c.hands) == [2, 3, 4, 5, 6, 7]
    assert c.hi.iloc[-1] == pytest.approx(exact(2, 7)[1])
