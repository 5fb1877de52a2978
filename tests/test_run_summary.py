"""The summary of a run, recomputed independently from its rows.

``run`` (and ``simulate``) fold a summary in chunk by chunk from counters and sums of squares;
here every figure is computed again from the DataFrames with pandas and scipy, by formulas
written out below (the exact Clopper-Pearson interval, Student's t interval, the share interval of
a seat's win share), and must agree to 1e-9. A wrong quantile (1.645 for a 90% interval, a normal
one for t), a wrong count or a wrong denominator fails.
"""

import math

import pandas as pd
import pytest
from scipy import stats

import rummysim

from independent import clopper_pearson, share_interval


def rate(k, n) -> dict:
    k, n = int(k), int(n)
    return {"estimate": k / n, "ci95": list(clopper_pearson(k, n)), "n": n}


def mean(values) -> dict:
    """Mean of what cannot be negative with Student's t on the log scale: h = t(.975, n - 1) * sd(ddof=1)
    / sqrt(n), [mean exp(-h / mean), min(mean exp(h / mean), mean + 2h)]; none (nan) for one value or no
    spread."""
    v = pd.Series(values, dtype=float)
    if len(v) < 2 or v.std(ddof=1) == 0:
        return {"estimate": v.mean(), "ci95": [math.nan, math.nan], "n": len(v)}
    m, h = v.mean(), stats.t.ppf(0.975, len(v) - 1) * v.std(ddof=1) / math.sqrt(len(v))
    return {"estimate": m, "ci95": [m * math.exp(-h / m), min(m * math.exp(h / m), m + 2 * h)], "n": len(v)}


def share(values) -> dict:
    """A mean of values in [0, 1] (a seat's share of each game's win) with Korn and Graubard's interval."""
    est, lo, hi = share_interval(values)
    return {"estimate": est, "ci95": [lo, hi], "n": len(values)}


def same(ours: dict, theirs: dict, what: str) -> None:
    """The same estimate, interval and number of units it rests on."""
    got = [theirs["estimate"], *theirs["ci95"]]
    want = [ours["estimate"], *ours["ci95"]]
    assert got == pytest.approx(want, rel=1e-9, abs=1e-9, nan_ok=True), what
    assert theirs["n"] == ours["n"], what


def check_basic(r, players: int, games_mode: bool) -> None:
    h, s = r.hands, r.summary
    n = len(h)
    assert s["hands"] == n
    won = h[h.winner >= 0]
    for q, row in enumerate(s["win_rate_by_seat"]):
        k = int((h.winner == q).sum())
        assert row["wins"] == k and row["seat"] == q
        same(rate(k, n), row, f"win rate seat {q}")
    same(rate((h.winner == h.starter).sum(), n), s["starter_win_rate"], "starter wins")
    for name, d in s["outcomes"].items():
        k = int((h.outcome == name).sum())
        assert d["count"] == k, name
        same(rate(k, n), d, name)
    assert sum(d["count"] for d in s["outcomes"].values()) == n
    same(rate(h.going_rummy.sum(), n), s["going_rummy_rate"], "rummy rate")
    same(rate(h.going_rummy.sum(), len(won)), s["going_rummy_share_of_wins"], "rummy share of wins")
    same(mean(won.points), s["points_per_winning_hand"], "points per winning hand")
    same(mean(h.turns), s["turns_per_hand"], "turns per hand")
    if games_mode:
        g = r.games
        assert s["games"] == len(g) == h.game.nunique()
        # games are independent: hands per game is a mean over games, with its interval
        same(mean(h.groupby("game").size()), s["hands_per_game"], "hands per game")
        assert (g.set_index("game").hands == h.groupby("game").size()).all()
        for q, row in enumerate(s["game_win_rate_by_seat"]):
            same(rate((g.winner == q).sum(), len(g)), row, f"game win rate seat {q}")
    else:
        assert s["games"] == 0 and "game_win_rate_by_seat" not in s


@pytest.mark.engine
def test_basic_games_summary_recomputed_from_the_rows():
    r = rummysim.simulate(games=40, players=3, strategies=["greedy", "random", "cautious"], seed=3, chunk_size=16)
    check_basic(r, 3, True)
    # printed with its interval, and with its count: 40 games are fewer than 100
    from rich.console import Console

    from rummysim.variants.basic.summary import render

    console = Console(record=True, width=120)
    render(r.summary, console)
    hpg = r.summary["hands_per_game"]
    assert (f"hands per game: {hpg['estimate']:.2f} [{hpg['ci95'][0]:.2f}, {hpg['ci95'][1]:.2f}] n=40"
            in console.export_text())


@pytest.mark.engine
def test_basic_hands_summary_recomputed_from_the_rows():
    r = rummysim.simulate(hands=300, players=2, strategies=["greedy", "rummy-seeker"], seed=11, chunk_size=128)
    check_basic(r, 2, False)


@pytest.mark.engine
def test_shanghai_summary_recomputed_from_the_rows():
    players = 4
    r = rummysim.simulate(games=6, players=players, seed=2, variant="shanghai",
                          strategies=["greedy", "buyer", "patient", "greedy"], chunk_size=4)
    rounds, seats, games, s = r.hands, r.seats, r.games, r.summary
    assert s["games"] == len(games) == 6 and s["rounds"] == len(rounds) == 60
    seats = seats.merge(rounds[["game", "round", "winner"]], on=["game", "round"])
    for row in s["per_round"]:
        rr, ss = rounds[rounds["round"] == row["round"]], seats[seats["round"] == row["round"]]
        n = len(rr)
        assert row["rounds"] == n == 6
        same(rate((ss.down_turn > 0).sum(), n * players), row["contract_met_rate"], "contract met")
        same(rate((rr.outcome == "win").sum(), n), row["went_out_rate"], "went out")
        same(rate((rr.bonus != "none").sum(), n), row["one_turn_bonus_rate"], "one-turn bonus")
        same(rate((rr.outcome != "win").sum(), n), row["no_winner_rate"], "no winner")
        for outcome in ("stalemate_stock", "stalemate_blocked", "turn_limit"):
            assert row[outcome] == (rr.outcome == outcome).sum()
        same(mean(ss[ss.seat != ss.winner].score), row["mean_penalty"], "penalty of the losers")
        same(mean(ss.buys), row["buys_per_seat"], "buys per seat")
        same(mean(rr.reshuffles), row["reshuffles"], "reshuffles")
        same(mean(rr.turns), row["turns"], "turns")
    totals = games[[f"total_{q}" for q in range(players)]].to_numpy()
    # every seat's final total is the sum of its round penalties
    by_seat = seats.groupby(["game", "seat"]).score.sum().unstack().to_numpy()
    assert (by_seat == totals).all()
    low = totals == totals.min(axis=1, keepdims=True)
    win = low / low.sum(axis=1, keepdims=True)         # the lowest total wins; ties share the win
    assert (games.tied == low.sum(axis=1)).all()
    for q, row in enumerate(s["by_seat"]):
        same(mean(totals[:, q]), row["mean_total"], f"mean total seat {q}")
        same(share(win[:, q]), row["win_share"], f"win share seat {q}")
        assert 0 <= row["win_share"]["ci95"][0] <= row["win_share"]["ci95"][1] <= 1
    assert sum(row["win_share"]["estimate"] for row in s["by_seat"]) == pytest.approx(1.0, abs=1e-12)
    for name, d in s["outcomes"].items():
        k = int((rounds.outcome == name).sum())
        assert d["count"] == k, name
        same(rate(k, len(rounds)), d, name)


# --- issue 24: the run summary's words and intervals ---

def _rendered(summary) -> str:
    from rich.console import Console

    from rummysim.variants.basic.summary import render

    console = Console(record=True, width=120)
    render(summary, console)
    return console.export_text()


@pytest.mark.engine
def test_means_use_student_t_and_went_rummy_is_apart_from_the_endings():
    """run --hands 20 --players 3 --seed 4 printed points per winning hand 25.00 [18.24, 31.76] n=20,
    a normal interval, where docs/commands/run.md says Student t: t(.975, 19) gives [17.79, 32.21], its
    half width h = 7.21; points cannot be negative, so it is t on the log scale (issue 42):
    [25 exp(-h/25), 25 exp(h/25)] = [18.73, 33.36]. The endings add up to every hand; went rummy, a
    kind of win, is said apart (it made them add to 100.24%)."""
    r = rummysim.simulate(hands=20, players=3, seed=4)
    text = _rendered(r.summary)
    assert "points per winning hand: 25.00 [18.73, 33.36] n=20" in text
    table = text[text.index("How 20 hands ended"):text.index("went rummy")]
    assert "rummy" not in table.split("\n", 1)[1]
    assert sum(d["count"] for d in r.summary["outcomes"].values()) == 20
    assert 'went rummy (a win, counted in "win" above): 0 of 20 hands, 0.00% [0.00%, 16.84%] n=20' in text


@pytest.mark.engine
def test_one_game_has_no_interval_and_says_so():
    """One game: hands per game printed 14.00 [14.00, 14.00] n=1; one unit gives no interval."""
    r = rummysim.simulate(games=1, seed=0)
    assert r.summary["hands_per_game"]["n"] == 1
    assert all(math.isnan(x) for x in r.summary["hands_per_game"]["ci95"])
    assert "hands per game: 14.00 (no interval: 1 unit) n=1" in _rendered(r.summary)
