"""Basic Rummy's report sections (``rummysim report``): win rates per seat and strategy, the starter's
advantage, how hands end, the value of going rummy, and the distributions of turns, points and cards
left. The report floor loads this module through ``Variant.report`` and calls ``sections(page,
res)``; it is the variant's one module above the registry (it reads saved results with
``rummysim.analysis.stats`` and draws with ``rummysim.report.figures``), and nothing in the variant's
own package imports it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ...analysis import stats as S
from ...report.figures import (COLORS, errorbar, even_label, fig_hand_endings, fig_histogram, grouped_bars, histogram,
                               new_figure, rate_interval, seat_panel, set_title)


def fig_win_rate_by_seat(res: S.SavedResults, seats: pd.DataFrame) -> Figure:
    """Hand (and, for full games, game) win rate per seat with 95% intervals and the 1/k line."""
    has_games = "game_win_rate" in seats.columns
    fig, axes = new_figure(10 if has_games else 8, 4.8, 2 if has_games else 1)
    panels = [("win_rate", "hands won (% of hands played in the seat)")]
    if has_games:
        panels.append(("game_win_rate", "games won (% of games)"))
    for ax, (col, ylabel) in zip(axes, panels):
        seat_panel(ax, res, seats, col, ylabel, "seat (the starting seat rotates with the deal)",
                    even_label(res.players))
    set_title(fig, "Win rate by seat", res, f"points: estimate, bars: 95% interval ({rate_interval(res)})")
    return fig


def fig_cards_left(res: S.SavedResults, cards: pd.DataFrame, value: pd.DataFrame) -> Figure:
    """Cards and points left in losing hands, side by side."""
    fig, axes = new_figure(10, 4.6, 2)
    cuts = [histogram(axes[0], cards, "cards left in the hand", "share of losing hands (%)"),
            histogram(axes[1], value, "points of the cards left (A = 1, face cards 10)", "share of losing hands (%)")]
    set_title(fig, f"What a losing seat is left holding ({int(cards['count'].sum()):,} losing seat-hands)", res,
           "; ".join(f"{w}: {c}" for w, c in zip(("cards", "points"), cuts)))
    return fig


def fig_convergence(res: S.SavedResults, conv: pd.DataFrame) -> Figure:
    """The main estimate against hands played, with its 95% band."""
    fig, (ax,) = new_figure(9, 4.6)
    if res.kind == "compare":
        p = res.meta["pairs"][0]
        played = "games" if res.mode == "games" else "deals"
        what = (f"Win share of {p['a']} against {p['b']} "
                + ("(games won)" if res.mode == "games" else f"(win 1, stalemate 1/{res.players}, loss 0)"))
        how = (f"band: 95% share interval over duplicate {played} (all {res.players} rotations each); "
               "last point: the headline")
        xlabel = f"{played} played, in {played[:-1]} order, each in every rotation (log scale)"
    else:
        what = f"Hand win rate of seat 0 ({res.meta['strategies'][0]['name']})"
        how = "band: 95% exact (Clopper-Pearson) interval"
        xlabel = "hands played, in the order played (log scale)"
    x = conv["deals" if res.kind == "compare" else "hands"]
    ax.fill_between(x, 100 * conv["lo"], 100 * conv["hi"], alpha=0.25, color=COLORS[0],
                    label="95% interval at each point (pointwise: not a band for the whole curve)")
    ax.plot(x, 100 * conv["estimate"], color=COLORS[0], linewidth=1.3, label="estimate so far")
    even = f"1/{res.players} = {100 / res.players:.1f}% (no difference)" if res.kind == "compare" else even_label(res.players)
    ax.axhline(100 / res.players, color="grey", linestyle="--", linewidth=1, label=even)
    if len(conv):
        last = conv.iloc[-1]
        ax.axhline(100 * last["estimate"], color=COLORS[1], linestyle=":", linewidth=1,
                   label=f"final {100 * last['estimate']:.2f}% [{100 * last['lo']:.2f}, {100 * last['hi']:.2f}]")
        ax.set_ylim(max(0, min(100 * conv["estimate"].min(), 100 / res.players) - 10),
                    min(100, max(100 * conv["estimate"].max(), 100 / res.players) + 10))   # the 1/k line in view
    ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("estimate so far (%)")
    ax.legend(fontsize=8, loc="upper right")
    set_title(fig, f"Convergence: {what}", res, how)
    return fig


def fig_starter(res: S.SavedResults, starter: pd.DataFrame) -> Figure:
    """Win rate by position relative to the dealer, with the 1/k line."""
    fig, (ax,) = new_figure(7.5, 4.4)
    x = starter["position"].to_numpy()
    errorbar(ax, x, 100 * starter["win_rate"], 100 * starter["win_rate_lo"], 100 * starter["win_rate_hi"],
              color=COLORS[0], label="hand win rate")
    for xi, e in zip(x, starter["win_rate"]):
        ax.annotate(f"{100 * e:.2f}%", (xi, 100 * e), textcoords="offset points", xytext=(8, 0), va="center",
                    fontsize=8)
    ax.axhline(100 / res.players, color="grey", linestyle="--", linewidth=1,
               label=even_label(res.players))
    ax.set_xticks(x, [f"{p}\n{w}" for p, w in zip(x, starter["who"])])
    ax.set_xlim(x.min() - 0.6, x.max() + 0.6)
    ax.set_xlabel("position from the dealer's left (1 = starter, plays first)")
    ax.set_ylabel("hands won (% of all hands)")
    ax.legend(fontsize=8)
    set_title(fig, "The starter's advantage", res, f"95% intervals ({rate_interval(res)})")
    return fig


def fig_going_rummy(res: S.SavedResults, rummy: pd.DataFrame) -> Figure:
    """Per strategy: rummy's share of its wins and of its points, and the points of a rummy win against
    an ordinary win."""
    fig, axes = new_figure(10.5, 4.8, 2)
    x = np.arange(len(rummy))
    cols = lambda c, k=1.0: tuple(k * rummy[n].to_numpy(dtype=float) for n in (c, f"{c}_lo", f"{c}_hi"))  # noqa: E731
    grouped_bars(axes[0], x, [("share of its winning hands", *cols("rummy_share_of_wins", 100)),
                               ("share of its points", *cols("rummy_share_of_points", 100))], "{:.2f}%")
    axes[0].set_ylabel("going rummy (%)")
    axes[0].set_title("Rummy's share of a strategy's wins and points", fontsize=10)
    grouped_bars(axes[1], x, [("ordinary win", *cols("points_per_ordinary_win")),
                               ("rummy win (doubled)", *cols("points_per_rummy_win"))], "{:.1f}")
    axes[1].set_ylabel("mean points per winning hand")
    axes[1].set_title("Points of a rummy win vs an ordinary win", fontsize=10)
    for ax in axes:
        ax.set_xticks(x, [f"{s}\n{n:,} rummy wins" for s, n in zip(rummy["strategy"], rummy["rummy_wins"])],
                      fontsize=8.5)
        ax.set_xlabel("strategy")
        ax.set_ylim(0, ax.get_ylim()[1] * 1.3)
        ax.set_xlim(-0.75, len(x) - 0.25)
        ax.legend(fontsize=8, loc="upper center", ncols=2)
    set_title(fig, "The value of going rummy", res, f"95% intervals ({rate_interval(res)} for the rates of wins; "
           "the share interval over blocks for the share of points; t on the log scale over blocks for points per win)")
    return fig


def sections(page, res: S.SavedResults) -> None:
    """Basic Rummy: win rates, how hands end, going rummy, distributions."""
    seats = S.by_seat(res)
    page.heading("Win rates", "Hands won, lost and stalemated per seat and per strategy; points are the "
                 "points a seat scored (only the winner of a hand scores).")
    page.table("by_seat", "Per seat", seats)
    page.table("by_strategy", "Per strategy, over all its seats (hands = seat-hands)", S.by_strategy(res))
    page.figure("win_rate_by_seat", fig_win_rate_by_seat(res, seats), "Win rate by seat")
    page.figure("convergence", fig_convergence(res, S.convergence(res)), "Convergence of the main win rate")
    starter = S.starter_advantage(res)
    page.table("starter_advantage", "Win rate by position relative to the dealer", starter)
    page.figure("starter_advantage", fig_starter(res, starter), "The starter's advantage")
    page.heading("How hands end")
    endings = S.hand_endings(res)
    page.table("hand_endings", "How hands end", endings)
    page.figure("hand_endings", fig_hand_endings(res, endings, "How hands end (went out includes going rummy)"),
                "How hands end")
    page.heading("The value of going rummy")
    rummy = S.going_rummy(res)
    page.table("going_rummy", "Going rummy per strategy", rummy)
    page.figure("going_rummy", fig_going_rummy(res, rummy), "The value of going rummy")
    page.heading("Distributions", "Exact quantiles from the value -> count tables (expand each below).")
    page.table("distribution_summary", "Summary of the distributions", S.distribution_summary(res))
    dist = {q: S.distribution(res, q) for q in S.QUANTITIES}
    page.figure("turns_per_hand", fig_histogram(res, dist["turns_per_hand"], "Turns per hand", "hands",
                                                "turns in the hand (one turn = one player's draw to discard)"),
                "Turns per hand")
    page.figure("points_per_winning_hand",
                fig_histogram(res, dist["points_per_winning_hand"], "Points per winning hand", "won hands",
                              "points scored by the winner (rummy doubled)"),
                "Points per winning hand")
    page.figure("cards_left", fig_cards_left(res, dist["cards_left_per_losing_seat"],
                                             dist["value_left_per_losing_seat"]), "Cards and points left per losing seat")
    if res.mode == "games":
        page.figure("hands_per_game", fig_histogram(res, dist["hands_per_game"], "Hands per game", "games",
                                                    "hands played in the game"),
                    "Hands per game")
    for q, words in S.QUANTITIES.items():
        if len(dist[q]):
            page.table(f"distribution_{q}", f"Distribution: {words}", dist[q], collapsed=True)
