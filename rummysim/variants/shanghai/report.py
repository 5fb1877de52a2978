"""Shanghai's report sections (``rummysim report``) and the statistics tables under them, over saved
Shanghai results (``"variant": "shanghai"``; schema in ``variants.shanghai.schema``).

Per round number (1-10): how often a seat met its contract, how often the round
ended by someone going out, with the one-turn bonus, or with no winner, the
penalty of the seats that did not go out, buys, reshuffles and turns; pooled
over all seats, or per strategy. Per game: final totals and win shares (lowest
total wins, ties share) per seat or strategy, and the distribution of final
totals. As in ``stats``, every table streams the Parquet files batch by batch
and column by column, so memory does not grow with the number of games.

Intervals are 95%. Rates over rounds and seat-rounds: exact (Clopper-Pearson);
the rounds of one game, the seats of one round and, in a comparison, the
rotations of one game are not fully independent, so these intervals are
somewhat narrow. Means (penalty, buys, reshuffles, turns per round; final
totals): a t-interval over independent blocks (a game, in a comparison the game
in all its seat rotations) by linearisation, as ``stats`` does; win shares the
share interval over the same blocks (``intervals.share_ratio_ci``).

The report floor loads this module through ``Variant.report`` and calls ``sections(page, res)``; it is
the variant's one module above the registry (it reads saved results with ``rummysim.analysis.stats``
and draws with ``rummysim.report.figures``), and nothing in the variant's own package imports it.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ...analysis import stats as S
from ...engine.codes import OUTCOMES
from ...report.figures import COLORS, bin_width, errorbar, histogram, new_figure, seat_panel, set_title
from .contracts import contract
from .state import ROUNDS
from .summary import win_shares

#: per round number (and strategy), summed over blocks. Per seat-round: seat-rounds, seats that laid their
#: contract, went out, went out with the one-turn bonus, did not go out, the penalty of those, buys.
SEAT_ROUND_VALUES = ("seat_rounds", "contract", "won", "bonus", "losing", "penalty", "buys")
#: per round: rounds, rounds with no winner (nothing left to draw, a blocked table, turn limit), reshuffles, turns
ROUND_VALUES = SEAT_ROUND_VALUES + ("rounds", "no_winner", "stalemate_stock", "stalemate_blocked", "turn_limit",
                                   "reshuffles", "turns")
#: per seat-game: games, final total, share of the game's win, won alone, shared the win (a tie)
GAME_VALUES = ("games", "total", "share", "wins", "tied_wins")
_STOCK, _BLOCKED, _TURN_LIMIT = (OUTCOMES.index(n) for n in ("stalemate_stock", "stalemate_blocked", "turn_limit"))


def _round_moments(res: S.SavedResults, by: str) -> S._BlockMoments:
    """Block moments of ``ROUND_VALUES`` per round number (``by="round"``: one row per round) or per round
    number and strategy (``by="strategy"``: one row per seat-round, group round * strategies + strategy)."""
    if ("shanghai_rounds", by) in res.cache:
        return res.cache[("shanghai_rounds", by)]
    k, m = res.players, len(res.strategies) if by == "strategy" else 1
    acc = S._BlockMoments(ROUNDS * m, res.path / "rounds.parquet", ROUND_VALUES)
    columns = ("outcome", "winner", "bonus", "reshuffles", "turns") + (S.PAIR_COLUMNS if res.kind == "compare" else ())
    for h, s in S._aligned(res, columns, ("score", "down_turn", "buys")):
        n = len(h["game"])
        won = h["winner"][:, None] == np.arange(k)
        seat = np.stack([np.ones((n, k)), s["down_turn"] > 0, won, won & (h["bonus"] > 0)[:, None], ~won,
                         np.where(won, 0, s["score"]), s["buys"]], axis=-1)
        whole = np.stack([np.ones(n), h["winner"] < 0, h["outcome"] == _STOCK, h["outcome"] == _BLOCKED,
                          h["outcome"] == _TURN_LIMIT, h["reshuffles"], h["turns"]], axis=-1)
        block, last = S._block_key(res, h)
        r = h["round"].astype(np.int64) - 1
        if by == "strategy":
            values = np.concatenate([seat, np.broadcast_to(whole[:, None], (n, k, whole.shape[1]))], axis=-1)
            group = r[:, None] * m + S._strategy_of_seats(res, h)
            acc.add(np.repeat(block, k), group.ravel(), values.reshape(n * k, len(ROUND_VALUES)), np.repeat(last, k))
        else:
            acc.add(block, r, np.concatenate([seat.sum(axis=1), whole], axis=-1), last)
    res.cache[("shanghai_rounds", by)] = acc.finish()
    return res.cache[("shanghai_rounds", by)]


def per_round(results: S.SavedResults | str | Path, by: str = "round") -> pd.DataFrame:
    """Per round number (``by="round"``): rounds; rates (exact) of seat-rounds that met the contract and of
    rounds that ended by going out, with the one-turn bonus, or with no winner (with the counts of rounds
    that ended with nothing left to draw, on a blocked table and at the turn limit); means (t over blocks)
    of the penalty of a seat that did not go out, buys per seat, reshuffles and turns per round.

    ``by="strategy"``: per round number and strategy, over its seat-rounds: contract met, went out and
    one-turn bonus rates, penalty when not out and buys per seat-round.
    """
    res = S._as_results(results)
    acc = _round_moments(res, by)
    m = len(res.strategies) if by == "strategy" else 1
    rows = []
    for g in np.flatnonzero(acc.n):
        r, strategy = divmod(int(g), m)
        row = {"round": r + 1, "contract": contract(r + 1)}
        if by == "strategy":
            row["strategy"] = res.strategies[strategy]
        seat_rounds = acc.count(g, "seat_rounds")
        rounds = seat_rounds if by == "strategy" else acc.count(g, "rounds")
        row["seat_rounds" if by == "strategy" else "rounds"] = rounds
        S._estimate(row, "contract_met_rate", S._rate(acc.count(g, "contract"), seat_rounds))
        S._estimate(row, "went_out_rate", S._rate(acc.count(g, "won"), rounds))
        S._estimate(row, "one_turn_bonus_rate", S._rate(acc.count(g, "bonus"), rounds))
        if by == "round":
            S._estimate(row, "no_winner_rate", S._rate(acc.count(g, "no_winner"), rounds))
            for name in ("stalemate_stock", "stalemate_blocked", "turn_limit"):
                row[name] = acc.count(g, name)
        means = {"mean_penalty": ("penalty", "losing"), "buys_per_seat": ("buys", "seat_rounds")}
        if by == "round":
            means.update(reshuffles_per_round=("reshuffles", "rounds"), turns_per_round=("turns", "rounds"))
        for name, (num, den) in means.items():
            est, lo, hi, n = acc.ratio(g, {num: 1}, den)
            S._estimate(row, name, (est, lo, hi, n))  # means of counts and points: t on the log scale, never below 0
        rows.append(row)
    return pd.DataFrame(rows)


#: how a round ends (``engine.codes.OUTCOMES``, in code order), in words
ENDINGS = (
    ("win", "went out"),
    ("stalemate_stock", "no winner: nothing left to draw (2.6)"),
    ("stalemate_blocked", "no winner: a blocked table (ruling 3.7)"),
    ("turn_limit", "no winner: turn cap reached (ruling 3.6: a bug to investigate)"),
)


def round_endings(results: S.SavedResults | str | Path) -> pd.DataFrame:
    """How rounds end (``ENDINGS``): count and rate of the rounds with a exact interval; a comparison
    has one block of rows per match (column ``match``)."""
    res = S._as_results(results)
    matches = res.matches() if res.kind == "compare" else [None]
    counts = np.zeros((len(matches), len(OUTCOMES)), dtype=np.int64)
    columns = ("outcome",) + (("pair",) if res.kind == "compare" else ())
    for h in S._batches(res, "rounds", columns):
        pair = h["pair"].astype(np.int64) if res.kind == "compare" else np.zeros(len(h["outcome"]), dtype=np.int64)
        counts += np.bincount(pair * len(OUTCOMES) + h["outcome"], minlength=counts.size).reshape(counts.shape)
    rows = []
    for i, match in enumerate(matches):
        rounds = int(counts[i].sum())
        for name, words in ENDINGS:
            row = {} if match is None else {"match": match}
            k = int(counts[i, OUTCOMES.index(name)])
            row.update({"ending": name, "description": words, "rounds": rounds, "count": k})
            S._estimate(row, "rate", S._rate(k, rounds))
            rows.append(row)
    return pd.DataFrame(rows)


def _total_columns(res: S.SavedResults) -> tuple[str, ...]:
    return tuple(f"total_{q}" for q in range(res.players))


def _games(res: S.SavedResults, columns=()):
    """games.parquet batches with ``totals`` int64[n, players] and the strategy index of every seat."""
    extra = S.PAIR_COLUMNS if res.kind == "compare" else ()
    for g in S._batches(res, "games", tuple(dict.fromkeys(("game",) + tuple(columns) + _total_columns(res) + extra))):
        g["totals"] = np.stack([g[c] for c in _total_columns(res)], axis=1).astype(np.int64)
        g["strategy"] = S._strategy_of_seats(res, g)
        yield g


def _game_moments(res: S.SavedResults, by: str) -> S._BlockMoments:
    """Block moments of ``GAME_VALUES`` per seat and strategy (``by="seat"``) or per strategy."""
    if ("shanghai_games", by) in res.cache:
        return res.cache[("shanghai_games", by)]
    k, m = res.players, len(res.strategies)
    acc = S._BlockMoments(k * m if by == "seat" else m, res.path / "games.parquet", GAME_VALUES)
    for g in _games(res, ("tied", "winner")):
        n, totals = len(g["game"]), g["totals"]
        group = np.arange(k) * m + g["strategy"] if by == "seat" else g["strategy"]
        best = totals == totals.min(axis=1, keepdims=True)
        values = np.stack([np.ones((n, k)), totals, win_shares(totals), g["winner"][:, None] == np.arange(k),
                           best & (g["tied"][:, None] > 1)], axis=-1).reshape(n * k, len(GAME_VALUES))
        block, last = S._block_key(res, g)
        acc.add(np.repeat(block, k), np.ascontiguousarray(group).ravel(), values, np.repeat(last, k))
    res.cache[("shanghai_games", by)] = acc.finish()
    return res.cache[("shanghai_games", by)]


def final_totals(results: S.SavedResults | str | Path, by: str = "seat") -> pd.DataFrame:
    """Per seat (and strategy; ``by="strategy"``: per strategy over all its seats, games = seat-games):
    games, games won alone and with a tie, win share (each game's win shared among the seats with the
    lowest total) and mean final total, with t-intervals over blocks."""
    res = S._as_results(results)
    acc = _game_moments(res, by)
    m = len(res.strategies)
    rows = []
    for g in np.flatnonzero(acc.n):
        seat, strategy = (g // m, g % m) if by == "seat" else (None, g)
        row = {} if seat is None else {"seat": int(seat)}
        row.update({"strategy": res.strategies[strategy], "games": acc.count(g, "games"),
                    "wins": acc.count(g, "wins"), "tied_wins": acc.count(g, "tied_wins")})
        S._estimate(row, "win_share", acc.ratio(g, {"share": 1}, "games", share=True))
        S._estimate(row, "mean_total", acc.ratio(g, {"total": 1}, "games"))
        rows.append(row)
    return pd.DataFrame(rows)


def final_total_distribution(results: S.SavedResults | str | Path) -> pd.DataFrame:
    """Value -> count table of final totals per strategy (columns strategy, value, count, share), each
    strategy's values from its smallest to its largest, zero counts included."""
    res = S._as_results(results)
    if "shanghai_totals" in res.cache:
        return res.cache["shanghai_totals"]
    counts = None
    for g in _games(res):
        seen = pd.DataFrame({"strategy": g["strategy"].ravel(), "value": g["totals"].ravel()}).value_counts()
        counts = seen if counts is None else counts.add(seen, fill_value=0)
    parts = []
    for s, label in enumerate(res.strategies):
        if counts is None or s not in counts.index.get_level_values(0):
            continue
        c = counts.loc[s]
        values = np.arange(c.index.min(), c.index.max() + 1)
        n = c.reindex(values, fill_value=0).to_numpy(dtype=np.int64)
        parts.append(pd.DataFrame({"strategy": label, "value": values, "count": n, "share": n / n.sum()}))
    columns = ["strategy", "value", "count", "share"]
    table = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=columns)
    res.cache["shanghai_totals"] = table
    return table


def final_total_summary(results: S.SavedResults | str | Path) -> pd.DataFrame:
    """Per strategy: n (seat-games), mean, sd, min, exact 5%/25%/50%/75%/95% quantiles and max of final totals."""
    dist = final_total_distribution(results)
    return pd.DataFrame([{"strategy": s, **S.summarise(d)} for s, d in dist.groupby("strategy", sort=False)])


# ---------------------------------------------------------------- the report's sections

#: panels of ``fig_per_round``: column, scale, what it shows (rates in % of rounds; per strategy: of its seat-rounds)
ROUND_PANELS = (
    ("contract_met_rate", 100, "contract met (% of seat-rounds)"),
    ("went_out_rate", 100, "went out (% of {of})"),
    ("one_turn_bonus_rate", 100, "went out with the one-turn bonus (% of {of})"),
    ("no_winner_rate", 100, "no winner (% of rounds)"),
    ("mean_penalty", 1, "penalty of a seat that did not go out (points)"),
    ("buys_per_seat", 1, "buys per seat"),
    ("reshuffles_per_round", 1, "reshuffles per round"),
    ("turns_per_round", 1, "turns per round"),
)


def fig_per_round(res: S.SavedResults, rounds: pd.DataFrame) -> Figure:
    """A panel per measure of ``per_round`` against the round number, with 95% interval bars;
    one series per strategy if the table has a ``strategy`` column (the last panel then holds the legend)."""
    groups = list(dict.fromkeys(rounds["strategy"])) if "strategy" in rounds.columns else [None]
    panels = [p for p in ROUND_PANELS if p[0] in rounds.columns]
    used = len(panels) + (groups != [None])
    n_rows = math.ceil(used / 2)
    fig, axes = new_figure(11, 1.2 + 2.6 * n_rows, 2, n_rows, sharex=True)
    width = 0.6 / len(groups)
    of = "rounds" if groups == [None] else "its seat-rounds"
    for ax, (col, scale, words) in zip(axes, panels):
        for i, g in enumerate(groups):
            rows = rounds if g is None else rounds[rounds["strategy"] == g]
            x = rows["round"].to_numpy() + (i - (len(groups) - 1) / 2) * width
            errorbar(ax, x, scale * rows[col], scale * rows[f"{col}_lo"], scale * rows[f"{col}_hi"],
                      color=COLORS[i % len(COLORS)], label=g, markersize=4, linestyle="-", linewidth=0.8)
        if col == "went_out_rate" and groups != [None]:
            ax.axhline(100 / res.players, color="grey", linestyle="--", linewidth=1,
                       label=f"1/{res.players} = {100 / res.players:.1f}% (even share)")
        ax.set_title(words.format(of=of), fontsize=10)
        top = ax.get_ylim()[1] * 1.05
        ax.set_ylim(-0.03 * top, top)  # points at 0 in full view
        ax.grid(axis="y", alpha=0.3)
    for ax in axes[len(panels):]:
        ax.axis("off")
    if groups != [None]:
        axes[len(panels)].legend(*axes[1].get_legend_handles_labels(), loc="center", title="strategy", fontsize=9)
    rounds_no = range(1, ROUNDS + 1)
    axes[0].set_xticks(rounds_no, [f"{r}\n" + contract(r, short=True).replace("+", "\n") for r in rounds_no],
                       fontsize=8.5)
    axes[0].set_xlim(0.4, len(rounds_no) + 0.6)
    for i, ax in enumerate(axes[:len(panels)]):
        if i + 2 >= len(panels):  # the lowest panel of its column
            ax.xaxis.set_tick_params(labelbottom=True)
            ax.set_xlabel("round and contract (S: a set of 3+, R4: a run of 4+)")
    pooled = "seats and matches" if res.kind == "compare" else "seats"
    what = "Per round" + ("" if groups == [None] else f" by strategy (over all its {pooled})")
    set_title(fig, what, res, "points: estimate; bars: 95% interval (exact for rates: rounds of one game are not "
           "fully independent, so a little narrow; t over games for means)")
    return fig


def fig_final_totals_by_seat(res: S.SavedResults, seats: pd.DataFrame) -> Figure:
    """Shanghai: win share and mean final total per seat, with their 95% intervals and the 1/k line."""
    fig, axes = new_figure(10, 4.8, 2)
    xlabel = "seat (the deal rotates every round)"
    seat_panel(axes[0], res, seats, "win_share", "share of the games won (%; a tie shares the win)", xlabel,
                f"1/{res.players} = {100 / res.players:.1f}% (even share)", dodge=False)
    # room for the legend; one game has no interval (nan), so the 1/k line sets the scale
    top = np.nanmax([100 * seats["win_share_hi"].max(), 100 / res.players]) * 1.3
    axes[0].set_ylim(-0.03 * top, top)
    seat_panel(axes[1], res, seats, "mean_total", "mean final total (points; lower is better)", xlabel, None,
                scale=1, fmt="{:.1f}", dodge=False)
    for ax in axes:
        ax.set_xlim(-0.6, res.players - 0.1)  # room for the value beside the last seat's point
    set_title(fig, "Win share and final total by seat (lowest total wins)", res,
           "points: estimate, bars: 95% interval over games (win share: the share interval; total: t)")
    return fig


def fig_final_totals(res: S.SavedResults, dist: pd.DataFrame) -> Figure:
    """Histograms of final totals, a panel per strategy on one scale, with mean and median."""
    groups = list(dict.fromkeys(dist["strategy"]))
    cols = min(len(groups), 2)
    n_rows = math.ceil(len(groups) / cols)
    fig, axes = new_figure(5 * cols + 0.5, 1.4 + 2.8 * n_rows, cols, n_rows, sharex=True)
    width = bin_width(float(dist["value"].max() - dist["value"].min()))
    cuts = []
    for ax, g in zip(axes, groups):
        d = dist[dist["strategy"] == g]
        cut = histogram(ax, d, "final total (points; lower is better)", "share of games (%)", width)
        ax.set_title(f"{g} ({int(d['count'].sum()):,} seat-games)", fontsize=10)
        ax.xaxis.set_tick_params(labelbottom=True)
        if cut != "all values shown":
            cuts.append(f"{g}: {cut}")
    for ax in axes[len(groups):]:
        ax.axis("off")
    set_title(fig, "Final totals after ten rounds", res,
           f"bars of {width} points; " + ("; ".join(cuts) if cuts else "all values shown"))
    return fig


def sections(page, res: S.SavedResults) -> None:
    """Shanghai: a run's final totals and win shares, and per round measures (a run's pooled over its seats;
    by strategy for a comparison, and for a run of several strategies)."""
    if res.kind == "run":
        seats = final_totals(res, "seat")
        page.heading("Final totals and win shares", "After ten rounds the lowest total wins; seats tied at the "
                     "lowest share the win. Means over games with 95% intervals (t; the share interval for win shares).")
        page.table("by_seat", "Per seat: games won alone and tied, win share and mean final total", seats)
        page.table("by_strategy", "Per strategy, over all its seats (games = seat-games)",
                   final_totals(res, "strategy"))
        page.figure("final_totals_by_seat", fig_final_totals_by_seat(res, seats), "Win share and final total by seat")
        dist = final_total_distribution(res)
        page.table("final_total_summary", "Final totals per strategy (exact quantiles)", final_total_summary(res))
        page.figure("final_totals", fig_final_totals(res, dist), "Final totals per strategy")
        page.table("distribution_final_total", "Distribution: final totals per strategy", dist[dist["count"] > 0],
                   collapsed=True)
        rounds = per_round(res)
        page.heading("Per round", "Each game plays rounds 1-10, one contract each. Rates: of the rounds, or of "
                     "the seat-rounds for the contract; exact intervals, a little narrow as the seats of one round "
                     "are not independent. Penalty: the points added to a seat that did not go out. Means: "
                     "t-intervals over games.")
        page.table("per_round", "Per round", rounds)
        page.figure("per_round", fig_per_round(res, rounds), "Per round measures")
    page.heading("How rounds end", "Went out, or no winner by cause: nothing left to draw (2.6), a blocked table "
                 "(ruling 3.7) or the turn cap (ruling 3.6); exact intervals over rounds.")
    page.table("round_endings", "How rounds end", round_endings(res))
    if res.kind == "compare" or len(res.strategies) > 1:
        by = per_round(res, "strategy")
        page.heading("Per round by strategy", "Each strategy over all its seat-rounds" + (
            ", pooled over all its matches (A fills one seat, B the others)" if res.kind == "compare" else "")
            + ": contract met, went out and one-turn bonus rates (exact, a little narrow: the rounds of one "
            "game are not independent), the penalty of its seats that did not go out and buys per seat-round "
            "(t-intervals over games).")
        page.table("per_round_by_strategy", "Per round and strategy", by)
        page.figure("per_round_by_strategy", fig_per_round(res, by), "Per round measures by strategy")
