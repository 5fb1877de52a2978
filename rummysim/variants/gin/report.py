"""Gin Rummy's report sections (``rummysim report``) and the statistics tables under them, over saved Gin
results (``"variant": "gin"``; schema in ``variants.gin.schema``): win rates and points per hand by
seat and strategy, the starter's advantage, how hands end (a knock, an undercut, gin, big gin, the
wall, the upcard limit: rules 4.5-4.7), the knocks (how often, with how much deadwood, how often
undercut or gin) and the distributions of turns, points and the deadwood at a knock.

Intervals as ``analysis.stats`` makes them (its block moments, ``_share`` and ``_estimate``): 95%,
exact (Clopper-Pearson) for the rates of a run's hands; a t-interval over independent blocks (a
game with ``--games``, a hand with ``--hands``, in a comparison the deal in both seatings) for means
(points per hand and per game, the knocker's deadwood); every rate of a comparison the share
interval over the same blocks. Rates of knocks (undercut, gin, won) rest on the hands with a knock.
Every table streams the Parquet files batch by batch and column by column, so memory does not grow
with the number of hands.

The report floor loads this module through ``Variant.report`` and calls ``sections(page, res)``; it is
the variant's one module above the registry (it reads saved results with ``rummysim.analysis.stats``
and draws with ``rummysim.report.figures``), and nothing in the variant's own package imports it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ...analysis import stats as S
from ...report.figures import (even_label, fig_hand_endings, fig_histogram, grouped_bars, histogram, new_figure,
                               rate_interval, seat_panel, set_title)
from .summary import ENDINGS, endings_of

#: per seat and hand, summed over blocks: hands, games started, hands won, hands nobody scored, the seat's
#: points, its knocks, the knocks it won, its gins, its knocks undercut, its undercuts of the other's
#: knock, the deadwood of its knocks
VALUES = ("hands", "games", "wins", "no_score", "points", "knocks", "knock_wins", "gins", "undercut", "undercuts_made",
          "knock_deadwood")
#: the distributions of the report: name -> (words, column of the hands table)
QUANTITIES = {
    "turns_per_hand": "turns per hand (discards made)",
    "points_per_winning_hand": "points scored by the winner of a hand",
    "knocker_deadwood": "the knocker's deadwood (hands with a knock)",
    "defender_deadwood": "the defender's deadwood after laying off (hands with a knock)",
    "hands_per_game": "hands per game",
}
#: an ending's name on a figure, where its code is not the word (rules 4.6)
_SHORT = {"stalemate_stock": "the wall", "turn_limit": "upcard limit"}
_HAND_COLUMNS = ("hand", "winner", "points", "knocker", "gin", "undercut", "knocker_deadwood")


def _moments(res: S.SavedResults, by: str) -> S._BlockMoments:
    """Block moments of ``VALUES`` per seat and strategy (``by="seat"``: group seat * strategies +
    strategy) or per strategy (``by="strategy"``)."""
    if ("gin_moments", by) in res.cache:
        return res.cache[("gin_moments", by)]
    k, m = res.players, len(res.strategies)
    acc = S._BlockMoments(k * m if by == "seat" else m, res.path / "hands.parquet", VALUES)
    columns = ("game",) + _HAND_COLUMNS + (S.PAIR_COLUMNS if res.kind == "compare" else ())
    for h in S._batches(res, "hands", columns):
        n = len(h["game"])
        strategy = S._strategy_of_seats(res, h)
        group = np.arange(k) * m + strategy if by == "seat" else strategy
        seat = np.arange(k)
        won = h["winner"][:, None] == seat
        knocked = h["knocker"][:, None] == seat
        other = (h["knocker"][:, None] >= 0) & ~knocked
        gin, under = (h["gin"] != 0)[:, None], (h["undercut"] != 0)[:, None]
        every = np.ones((n, k))
        values = np.stack([every, every * (h["hand"] == 0)[:, None], won, every * (h["winner"] < 0)[:, None],
                           np.where(won, h["points"][:, None], 0), knocked, knocked & won, knocked & gin,
                           knocked & under, other & under, np.where(knocked, h["knocker_deadwood"][:, None], 0)],
                          axis=-1).reshape(n * k, len(VALUES))
        block, last = S._block_key(res, h)
        acc.add(np.repeat(block, k), np.ascontiguousarray(group).ravel(), values, np.repeat(last, k))
    res.cache[("gin_moments", by)] = acc.finish()
    return res.cache[("gin_moments", by)]


def _player_rows(res: S.SavedResults, by: str) -> pd.DataFrame:
    acc = _moments(res, by)
    m = len(res.strategies)
    games = S._game_moments(res, by) if res.mode == "games" else None
    rows = []
    for g in np.flatnonzero(acc.n):
        seat, strategy = (g // m, g % m) if by == "seat" else (None, g)
        row = {} if seat is None else {"seat": int(seat)}
        hands, wins, none = acc.count(g, "hands"), acc.count(g, "wins"), acc.count(g, "no_score")
        row.update({"strategy": res.strategies[strategy], "hands": hands, "wins": wins,
                    "losses": hands - wins - none, "no_score": none})
        S._estimate(row, "win_rate", S._share(res, acc, g, "wins", "hands"))
        for name, den in (("points_per_hand", "hands"), ("points_per_game", "games")):
            if den == "games" and res.mode != "games":
                continue
            if den == "games":
                row["games"] = acc.count(g, "games")
            est, lo, hi, n = acc.ratio(g, {"points": 1}, den)
            S._estimate(row, name, (est, max(lo, 0.0), hi, n))   # points are never below 0 (rules 4.7)
        if games is not None:
            row["game_wins"] = games.count(g, "game_wins")
            S._estimate(row, "game_win_rate", S._share(res, games, g, "game_wins", "games"))
        rows.append(row)
    return pd.DataFrame(rows)


def by_seat(results: S.SavedResults | str | Path) -> pd.DataFrame:
    """Per seat (and strategy, when a seat held several, as in a comparison): hands, wins, losses,
    hands nobody scored, hand win rate, points per hand and, with full games, points per game (t over
    blocks; a hand's points, the game's bonuses not included) and game win rate. ``*_lo``/``*_hi``:
    95% bounds."""
    return _player_rows(S._as_results(results), "seat")


def by_strategy(results: S.SavedResults | str | Path) -> pd.DataFrame:
    """As ``by_seat`` per strategy over all its seats (``hands`` counts seat-hands)."""
    return _player_rows(S._as_results(results), "strategy")


def knocks(results: S.SavedResults | str | Path) -> pd.DataFrame:
    """Per strategy, over its seat-hands: knocks, its knock rate (knocks per seat-hand), the mean
    deadwood of its knocks (t over blocks), the share of its knocks that were gin, that were undercut
    and that won, and its rate of undercutting the other seat's knock (per seat-hand)."""
    res = S._as_results(results)
    acc = _moments(res, "strategy")
    rows = []
    for g in np.flatnonzero(acc.n):
        row = {"strategy": res.strategies[g], "hands": acc.count(g, "hands"), "knocks": acc.count(g, "knocks")}
        S._estimate(row, "knock_rate", S._share(res, acc, g, "knocks", "hands"))
        est, lo, hi, n = acc.ratio(g, {"knock_deadwood": 1}, "knocks")
        S._estimate(row, "knocker_deadwood", (est, max(lo, 0.0), hi, n))   # a mean of points: never below 0
        S._estimate(row, "gin_rate", S._share(res, acc, g, "gins", "knocks"))
        S._estimate(row, "undercut_rate", S._share(res, acc, g, "undercut", "knocks"))
        S._estimate(row, "knock_win_rate", S._share(res, acc, g, "knock_wins", "knocks"))
        S._estimate(row, "undercut_made_rate", S._share(res, acc, g, "undercuts_made", "hands"))
        rows.append(row)
    return pd.DataFrame(rows)


def hand_endings(results: S.SavedResults | str | Path) -> pd.DataFrame:
    """How hands end (``summary.ENDINGS``: exactly one each): count and rate with its interval
    (``stats._share``: exact for a run, a share over duplicate blocks for a comparison); a comparison
    has one block of rows per match (column ``match``)."""
    res = S._as_results(results)
    matches = res.matches() if res.kind == "compare" else [None]
    names = tuple(name for name, _ in ENDINGS)
    acc = S._BlockMoments(len(matches), res.path / "hands.parquet", ("hands",) + names)
    columns = ("game", "outcome", "gin", "big_gin", "undercut") + (S.PAIR_COLUMNS if res.kind == "compare" else ())
    for h in S._batches(res, "hands", columns):
        n = len(h["outcome"])
        pair = h["pair"].astype(np.int64) if res.kind == "compare" else np.zeros(n, dtype=np.int64)
        ended = endings_of(h["outcome"], h["gin"], h["big_gin"], h["undercut"])
        block, last = S._block_key(res, h)
        acc.add(block, pair, np.column_stack([np.ones(n), ended]), last)
    acc.finish()
    rows = []
    for i, match in enumerate(matches):
        for name, words in ENDINGS:
            row = {} if match is None else {"match": match}
            row.update({"ending": name, "description": words, "hands": acc.count(i, "hands"),
                        "count": acc.count(i, name)})
            S._estimate(row, "rate", S._share(res, acc, i, name, "hands"))
            rows.append(row)
    return pd.DataFrame(rows)


def distribution(results: S.SavedResults | str | Path, quantity: str) -> pd.DataFrame:
    """Value -> count table of one of ``QUANTITIES`` (columns value, count, share), as
    ``stats.distribution`` (which makes the turns, the points and the hands per game); the deadwoods
    count the hands with a knock."""
    res = S._as_results(results)
    if quantity not in QUANTITIES:
        raise ValueError(f"unknown quantity {quantity!r}; known: {', '.join(QUANTITIES)}")
    if quantity not in ("knocker_deadwood", "defender_deadwood"):
        return S.distribution(res, quantity)
    if ("gin_distribution", quantity) in res.cache:
        return res.cache[("gin_distribution", quantity)]
    total = np.zeros(1, dtype=np.int64)
    for h in S._batches(res, "hands", (quantity, "knocker")):
        total = S._bincount_add(total, h[quantity][h["knocker"] >= 0])
    start = int(np.argmax(total > 0)) if total.any() else 0
    counts = total[start:] if total.any() else np.zeros(0, dtype=np.int64)
    n = counts.sum()
    table = pd.DataFrame({"value": np.arange(start, start + len(counts)), "count": counts,
                          "share": counts / n if n else np.zeros(len(counts))})
    res.cache[("gin_distribution", quantity)] = table
    return table


def distribution_summary(results: S.SavedResults | str | Path) -> pd.DataFrame:
    """One row per quantity of ``QUANTITIES`` present: n, mean, sd, min, exact 5%/25%/50%/75%/95%
    quantiles, max (``stats.summarise``)."""
    res = S._as_results(results)
    rows = []
    for quantity, words in QUANTITIES.items():
        d = distribution(res, quantity)
        if d["count"].sum() > 0:
            rows.append({"quantity": quantity, "description": words, **S.summarise(d)})
    return pd.DataFrame(rows)


# ---------------------------------------------------------------- figures

def fig_by_seat(res: S.SavedResults, seats: pd.DataFrame) -> Figure:
    """Per seat: hands won, points per hand and, for full games, games won, with 95% intervals."""
    has_games = "game_win_rate" in seats.columns
    panels = [("win_rate", "hands won (% of hands played in the seat)", 100, "{:.2f}%", even_label(res.players)),
              ("points_per_hand", "points per hand (the seat's own)", 1, "{:.2f}", None)]
    if has_games:
        panels.append(("game_win_rate", "games won (% of games)", 100, "{:.2f}%", even_label(res.players)))
    fig, axes = new_figure(5 * len(panels), 4.8, len(panels))
    for ax, (col, ylabel, scale, fmt, even) in zip(axes, panels):
        seat_panel(ax, res, seats, col, ylabel, "seat (the deal alternates, ruling 3.18)", even, scale, fmt)
    set_title(fig, "Win rate and points per hand by seat", res,
              f"points: estimate, bars: 95% interval ({rate_interval(res)} for rates, t over blocks for points)")
    return fig


def fig_knocks(res: S.SavedResults, table: pd.DataFrame) -> Figure:
    """Per strategy: the shares of its knocks that were gin, undercut and won, and the mean deadwood of
    its knocks, with 95% intervals."""
    fig, axes = new_figure(10.5, 4.8, 2)
    x = np.arange(len(table))
    cols = lambda c, k=1.0: tuple(k * table[n].to_numpy(dtype=float) for n in (c, f"{c}_lo", f"{c}_hi"))  # noqa: E731
    grouped_bars(axes[0], x, [("gin", *cols("gin_rate", 100)), ("undercut", *cols("undercut_rate", 100)),
                              ("won by the knocker", *cols("knock_win_rate", 100))], "{:.1f}%")
    axes[0].set_ylabel("share of its knocks (%)")
    axes[0].set_title("How a strategy's knocks end", fontsize=10)
    grouped_bars(axes[1], x, [("knocker's deadwood", *cols("knocker_deadwood"))], "{:.2f}")
    axes[1].set_ylabel("mean deadwood of its knocks (points)")
    axes[1].set_title("Deadwood at a knock", fontsize=10)
    for ax in axes:
        ax.set_xticks(x, [f"{s}\n{n:,} knocks" for s, n in zip(table["strategy"], table["knocks"])], fontsize=8.5)
        ax.set_xlabel("strategy")
        ax.set_ylim(0, ax.get_ylim()[1] * 1.3)
        ax.set_xlim(-0.75, len(x) - 0.25)
        ax.legend(fontsize=8, loc="upper center", ncols=3)
    set_title(fig, "Knocks", res, f"95% intervals ({rate_interval(res)} for the shares, t over blocks for the "
              "deadwood)")
    return fig


def fig_deadwood(res: S.SavedResults, knocker: pd.DataFrame, defender: pd.DataFrame) -> Figure:
    """The knocker's and the defender's deadwood at the end of the hands with a knock, side by side."""
    fig, axes = new_figure(10, 4.6, 2)
    cuts = [histogram(axes[0], knocker, "knocker's deadwood (points)", "share of knocks (%)"),
            histogram(axes[1], defender, "defender's deadwood after laying off (points)", "share of knocks (%)")]
    set_title(fig, f"Deadwood at a knock ({int(knocker['count'].sum()):,} knocks)", res,
              "; ".join(f"{w}: {c}" for w, c in zip(("knocker", "defender"), cuts)))
    return fig


# ---------------------------------------------------------------- the sections

def sections(page, res: S.SavedResults) -> None:
    """Gin Rummy: win rates and points by seat, how hands end, knocks, distributions."""
    seats = by_seat(res)
    page.heading("Win rates", "Hands won, lost and not scored per seat and per strategy; points are the points "
                 "a seat scored in its hands (only the winner of a hand scores, rules 4.7).")
    page.table("by_seat", "Per seat", seats)
    page.table("by_strategy", "Per strategy, over all its seats (hands = seat-hands)", by_strategy(res))
    page.figure("by_seat", fig_by_seat(res, seats), "Win rate and points per hand by seat")
    page.table("starter_advantage", "Win rate of the starter (offered the first upcard, rules 4.3) and the dealer",
               S.starter_advantage(res))
    page.heading("How hands end", "A knock the knocker wins, an undercut, gin, big gin (rules 4.5-4.7), or no "
                 "score: at the wall or the upcard limit (4.6).")
    endings = hand_endings(res)
    page.table("hand_endings", "How hands end", endings)
    page.figure("hand_endings", fig_hand_endings(res, endings, "How hands end", _SHORT), "How hands end")
    page.heading("Knocks", "Per strategy: how often it knocks, with how much deadwood, and how its knocks end.")
    table = knocks(res)
    page.table("knocks", "Knocks per strategy", table)
    if table["knocks"].sum() > 0:
        page.figure("knocks", fig_knocks(res, table), "Knocks per strategy")
        page.figure("deadwood", fig_deadwood(res, distribution(res, "knocker_deadwood"),
                                             distribution(res, "defender_deadwood")), "Deadwood at a knock")
    page.heading("Distributions", "Exact quantiles from the value -> count tables (expand each below).")
    page.table("distribution_summary", "Summary of the distributions", distribution_summary(res))
    dist = {q: distribution(res, q) for q in QUANTITIES}
    page.figure("turns_per_hand", fig_histogram(res, dist["turns_per_hand"], "Turns per hand", "hands",
                                                "discards made in the hand"), "Turns per hand")
    if len(dist["points_per_winning_hand"]):
        page.figure("points_per_winning_hand",
                    fig_histogram(res, dist["points_per_winning_hand"], "Points per winning hand", "won hands",
                                  "points scored by the winner (bonuses included)"), "Points per winning hand")
    if res.mode == "games":
        page.figure("hands_per_game", fig_histogram(res, dist["hands_per_game"], "Hands per game", "games",
                                                    "hands played in the game"), "Hands per game")
    for q, words in QUANTITIES.items():
        if len(dist[q]):
            page.table(f"distribution_{q}", f"Distribution: {words}", dist[q], collapsed=True)
