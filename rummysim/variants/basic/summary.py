"""Basic Rummy's end-of-run summary, accumulated chunk by chunk from the kernel's rows.

Counts and sums only, so a run of any length summarises in constant memory.
Proportions get a 95% exact (Clopper-Pearson) interval, means a Student-t
interval from the accumulated sum of squares (hands are independent; hands per
game is a mean over games, which are): ``base.intervals``. Every estimate
carries ``"n"``, the units it rests on, printed beside it when fewer than
``base.summary.FEW_UNITS``; one unit, or means with no spread, have no
interval, and the text says so.
"""

from __future__ import annotations

import numpy as np

from ...base.summary import add_hands, estimate_text, hand_figures, rate, winner_rotation_rows
from ...engine.codes import OUTCOMES
from . import schema as K

class RunSummary:
    def __init__(self, players: int, strategy_names: list[str]):
        self.players = players
        self.strategy_names = strategy_names
        self.hands = 0
        self.games = 0
        self.game_hands = 0
        self.game_hands_sq = 0
        self.seat_wins = np.zeros(players, dtype=np.int64)
        self.seat_starts = np.zeros(players, dtype=np.int64)
        self.starter_wins = 0
        self.game_wins = np.zeros(players, dtype=np.int64)
        self.outcomes = np.zeros(len(OUTCOMES), dtype=np.int64)
        self.rummy = 0
        self.points = 0.0
        self.points_sq = 0.0
        self.turns = 0.0
        self.turns_sq = 0.0

    def add(self, chunk) -> None:
        """Fold in one chunk (``results.Chunk``): ``hand_rows`` int32[n, HAND_COLS]; ``game_rows``
        int32[g, 2 + players] or None."""
        hand_rows = chunk.hand_rows
        add_hands(self, hand_rows, chunk.game_rows, winner=K.H_WINNER, starter=K.H_STARTER, outcome=K.H_OUTCOME,
                  points=K.H_POINTS, turns=K.H_TURNS, n_outcomes=len(OUTCOMES))
        self.seat_starts += np.bincount(hand_rows[:, K.H_STARTER], minlength=self.players)
        self.rummy += int(hand_rows[:, K.H_RUMMY].sum())

    def as_dict(self, wall_seconds: float) -> dict:
        """Every figure of the summary, each estimate as ``{"estimate": x, "ci95": [lo, hi]}``."""
        wins = int(self.seat_wins.sum())
        return hand_figures(self, wall_seconds, OUTCOMES, by_seat={}, by_hand={
            "going_rummy_rate": rate(self.rummy, self.hands),
            "going_rummy_share_of_wins": rate(self.rummy, wins),
        })


def render(summary: dict, console) -> None:
    """Print the summary as rich tables."""
    from rich.table import Table

    def pct(d: dict) -> str:
        return estimate_text(d, lambda x: f"{100 * x:.2f}%")

    def mean(d: dict) -> str:
        return estimate_text(d, lambda x: f"{x:.2f}")

    seats = Table(title="Win rate per seat (95% exact interval)")
    for col in ("seat", "strategy", "hands won", "win rate"):
        seats.add_column(col, justify="right" if col != "strategy" else "left")
    for s in summary["win_rate_by_seat"]:
        seats.add_row(str(s["seat"]), s["strategy"], f"{s['wins']:,}", pct(s))
    console.print(seats)
    if "game_win_rate_by_seat" in summary:
        games = Table(title=f"Games won per seat ({summary['games']:,} games, 95% exact interval)")
        games.add_column("seat", justify="right")
        games.add_column("game win rate", justify="right")
        for s in summary["game_win_rate_by_seat"]:
            games.add_row(str(s["seat"]), pct(s))
        console.print(games)
    ends = Table(title=f"How {summary['hands']:,} hands ended (the rows add up to every hand)")
    ends.add_column("outcome")
    ends.add_column("hands", justify="right")
    ends.add_column("rate (95% CI)", justify="right")
    for name, d in summary["outcomes"].items():
        ends.add_row(name.replace("_", " "), f"{d['count']:,}", pct(d))
    console.print(ends)
    p = summary["points_per_winning_hand"]
    t = summary["turns_per_hand"]
    rummy = summary["going_rummy_rate"]
    lines = [
        # a kind of going out, so apart from the endings above, which it would push past 100%
        f"went rummy (a win, counted in \"win\" above): {round(rummy['estimate'] * summary['hands']):,} of "
        f"{summary['hands']:,} hands, {pct(rummy)}",
        f"points per winning hand: {mean(p)}",
        f"turns per hand: {mean(t)}",
        f"starter wins: {pct(summary['starter_win_rate'])}",
    ]
    if "hands_per_game" in summary:
        lines.append(f"hands per game: {mean(summary['hands_per_game'])} (games are independent)")
    lines.append(f"{summary['hands']:,} hands in {summary['wall_seconds']:.1f} s: {summary['hands_per_second']:,.0f} hands/s")
    console.print("\n".join(lines))


def rotation_rows(ch, r: int, k: int, games_mode: bool):
    """A comparison's rotation (candidate A in seat r, ``k`` players) of one chunk ``ch``
    (``base.summary.winner_rotation_rows`` on Basic Rummy's columns)."""
    return winner_rotation_rows(ch, r, k, games_mode, game=K.H_GAME, winner=K.H_WINNER, points=K.H_POINTS,
                                starter=K.H_STARTER)
