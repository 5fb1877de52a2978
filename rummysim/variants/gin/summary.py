"""Gin Rummy's end-of-run summary, accumulated chunk by chunk from the kernel's rows.

Counts and sums only, so a run of any length summarises in constant memory. As Basic Rummy's:
proportions get a 95% exact (Clopper-Pearson) interval, means a Student-t interval from the
accumulated sum of squares (hands are independent; hands per game is a mean over games, which
are): ``base.summary``. Every estimate carries ``"n"``, the units it rests on, printed beside it
when fewer than ``base.summary.FEW_UNITS``; one unit, or means with no spread, have no interval,
and the text says so.

How a hand ends (``ENDINGS``, rules 4.5-4.7; the rows add up to every hand): a knock the knocker
won (a tie included, ruling 3.17), an undercut, gin, big gin, the wall (``stalemate_stock``) and
the upcard limit (``turn_limit``).
"""

from __future__ import annotations

import numpy as np

from ...base.summary import add_hands, estimate_text, hand_figures, mean_from_sums, rate, winner_rotation_rows
from ...engine.codes import OUT_STALEMATE_STOCK, OUT_TURN_LIMIT, OUT_WIN, OUTCOMES
from . import schema as K

#: how a hand ends, in words (the ``endings`` of the summary, in this order)
ENDINGS = (
    ("knock", "knock won by the knocker (a tie too, ruling 3.17)"),
    ("undercut", "undercut: the defender wins"),
    ("gin", "gin"),
    ("big_gin", "big gin (option big_gin_bonus)"),
    ("stalemate_stock", "the wall, no score"),
    ("turn_limit", "the upcard limit, no score"),
)


def endings_of(outcome: np.ndarray, gin: np.ndarray, big_gin: np.ndarray, undercut: np.ndarray) -> np.ndarray:
    """bool[n, len(ENDINGS)]: how each of n hands ended (exactly one ending each), from its columns
    ``outcome`` (codes), ``gin``, ``big_gin`` and ``undercut`` (the hands table's)."""
    won = outcome == OUT_WIN
    gin, big, under = (np.asarray(c) != 0 for c in (gin, big_gin, undercut))
    return np.stack([won & ~gin & ~under, won & under, won & gin & ~big, won & big,
                     outcome == OUT_STALEMATE_STOCK, outcome == OUT_TURN_LIMIT], axis=1)


class RunSummary:
    def __init__(self, players: int, strategy_names: list[str]):
        self.players = players
        self.strategy_names = strategy_names
        self.hands = 0
        self.games = 0
        self.game_hands = 0
        self.game_hands_sq = 0
        self.seat_wins = np.zeros(players, dtype=np.int64)
        self.seat_points = np.zeros(players, dtype=np.float64)
        self.seat_points_sq = np.zeros(players, dtype=np.float64)
        self.seat_knocks = np.zeros(players, dtype=np.int64)
        self.starter_wins = 0
        self.game_wins = np.zeros(players, dtype=np.int64)
        self.outcomes = np.zeros(len(OUTCOMES), dtype=np.int64)
        self.endings = np.zeros(len(ENDINGS), dtype=np.int64)
        self.knocks = 0
        self.knock_deadwood = 0.0
        self.knock_deadwood_sq = 0.0
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
        winner = hand_rows[:, K.H_WINNER]
        columns = (K.H_OUTCOME, K.H_GIN, K.H_BIG_GIN, K.H_UNDERCUT)
        self.endings += endings_of(*(hand_rows[:, c] for c in columns)).sum(axis=0)
        for q in range(self.players):
            mine = np.where(winner == q, hand_rows[:, K.H_POINTS], 0).astype(np.float64)
            self.seat_points[q] += mine.sum()
            self.seat_points_sq[q] += (mine ** 2).sum()
        knocker = hand_rows[:, K.H_KNOCKER]
        knocked = knocker >= 0
        self.knocks += int(knocked.sum())
        self.seat_knocks += np.bincount(knocker[knocked], minlength=self.players)
        deadwood = hand_rows[knocked, K.H_KNOCKER_DEADWOOD].astype(np.float64)
        self.knock_deadwood += deadwood.sum()
        self.knock_deadwood_sq += (deadwood ** 2).sum()

    def as_dict(self, wall_seconds: float) -> dict:
        """Every figure of the summary, each estimate as ``{"estimate": x, "ci95": [lo, hi], "n": n}``."""
        ending = dict(zip((name for name, _ in ENDINGS), (int(c) for c in self.endings)))
        by_seat = {
            "points_per_hand_by_seat": [
                {"seat": q, "strategy": self.strategy_names[q],
                 **mean_from_sums(self.seat_points[q], self.seat_points_sq[q], self.hands)}
                for q in range(self.players)
            ],
            "knocks_per_hand_by_seat": [
                {"seat": q, "strategy": self.strategy_names[q], "knocks": int(self.seat_knocks[q]),
                 **rate(int(self.seat_knocks[q]), self.hands)}
                for q in range(self.players)
            ],
        }
        by_hand = {
            "endings": {name: {"count": k, **rate(k, self.hands)} for name, k in ending.items()},
            "knocks_per_hand": rate(self.knocks, self.hands),
            "knocker_deadwood": mean_from_sums(self.knock_deadwood, self.knock_deadwood_sq, self.knocks),
            "undercut_rate_of_knocks": rate(ending["undercut"], self.knocks),
            "gin_rate_of_knocks": rate(ending["gin"] + ending["big_gin"], self.knocks),
        }
        return hand_figures(self, wall_seconds, OUTCOMES, by_seat=by_seat, by_hand=by_hand)


def render(summary: dict, console) -> None:
    """Print the summary as rich tables."""
    from rich.table import Table

    def pct(d: dict) -> str:
        return estimate_text(d, lambda x: f"{100 * x:.2f}%")

    def mean(d: dict) -> str:
        return estimate_text(d, lambda x: f"{x:.2f}")

    seats = Table(title="Per seat (95% intervals: exact for rates, t for points)")
    for col in ("seat", "strategy", "hands won", "win rate", "points per hand", "knocks per hand"):
        seats.add_column(col, justify="right" if col != "strategy" else "left")
    for s, p, k in zip(summary["win_rate_by_seat"], summary["points_per_hand_by_seat"],
                       summary["knocks_per_hand_by_seat"]):
        seats.add_row(str(s["seat"]), s["strategy"], f"{s['wins']:,}", pct(s), mean(p), pct(k))
    console.print(seats)
    if "game_win_rate_by_seat" in summary:
        games = Table(title=f"Games won per seat ({summary['games']:,} games, 95% exact interval)")
        games.add_column("seat", justify="right")
        games.add_column("game win rate", justify="right")
        for s in summary["game_win_rate_by_seat"]:
            games.add_row(str(s["seat"]), pct(s))
        console.print(games)
    ends = Table(title=f"How {summary['hands']:,} hands ended (the rows add up to every hand)")
    ends.add_column("ending")
    ends.add_column("hands", justify="right")
    ends.add_column("rate (95% CI)", justify="right")
    words = dict(ENDINGS)
    for name, d in summary["endings"].items():
        ends.add_row(words.get(name, name.replace("_", " ")), f"{d['count']:,}", pct(d))
    console.print(ends)
    lines = [
        f"knocks per hand: {pct(summary['knocks_per_hand'])}",
        f"knocker's deadwood: {mean(summary['knocker_deadwood'])}",
        f"undercut, of the knocks: {pct(summary['undercut_rate_of_knocks'])}",
        f"gin (big gin included), of the knocks: {pct(summary['gin_rate_of_knocks'])}",
        f"points per winning hand: {mean(summary['points_per_winning_hand'])}",
        f"turns per hand: {mean(summary['turns_per_hand'])}",
        f"starter wins: {pct(summary['starter_win_rate'])}",
    ]
    if "hands_per_game" in summary:
        lines.append(f"hands per game: {mean(summary['hands_per_game'])} (games are independent)")
    lines.append(f"{summary['hands']:,} hands in {summary['wall_seconds']:.1f} s: {summary['hands_per_second']:,.0f} hands/s")
    console.print("\n".join(lines))


def rotation_rows(ch, r: int, k: int, games_mode: bool):
    """A comparison's rotation (candidate A in seat r, ``k`` = 2 players) of one chunk ``ch``
    (``base.summary.winner_rotation_rows`` on Gin Rummy's columns, as Basic Rummy's)."""
    return winner_rotation_rows(ch, r, k, games_mode, game=K.H_GAME, winner=K.H_WINNER, points=K.H_POINTS,
                                starter=K.H_STARTER)
