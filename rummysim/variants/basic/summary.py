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

import math

import numpy as np

from ...base.summary import estimate_text, mean_from_sums, rate
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
        hand_rows, game_rows = chunk.hand_rows, chunk.game_rows
        self.hands += len(hand_rows)
        winner = hand_rows[:, K.H_WINNER]
        won = winner >= 0
        self.seat_wins += np.bincount(winner[won], minlength=self.players)
        self.seat_starts += np.bincount(hand_rows[:, K.H_STARTER], minlength=self.players)
        self.starter_wins += int(np.sum(winner == hand_rows[:, K.H_STARTER]))
        self.outcomes += np.bincount(hand_rows[:, K.H_OUTCOME], minlength=len(OUTCOMES))
        self.rummy += int(hand_rows[:, K.H_RUMMY].sum())
        pts = hand_rows[won, K.H_POINTS].astype(np.float64)
        self.points += pts.sum()
        self.points_sq += (pts ** 2).sum()
        turns = hand_rows[:, K.H_TURNS].astype(np.float64)
        self.turns += turns.sum()
        self.turns_sq += (turns ** 2).sum()
        if game_rows is not None and len(game_rows):
            self.games += len(game_rows)
            self.game_hands += int(game_rows[:, 1].sum())
            self.game_hands_sq += int((game_rows[:, 1].astype(np.int64) ** 2).sum())
            gw = game_rows[:, 0]
            self.game_wins += np.bincount(gw[gw >= 0], minlength=self.players)

    def as_dict(self, wall_seconds: float) -> dict:
        """Every figure of the summary, each estimate as ``{"estimate": x, "ci95": [lo, hi]}``."""
        wins = int(self.seat_wins.sum())
        out = {
            "hands": self.hands,
            "games": self.games,
            "win_rate_by_seat": [
                {"seat": q, "strategy": self.strategy_names[q], "wins": int(self.seat_wins[q]),
                 **rate(int(self.seat_wins[q]), self.hands)}
                for q in range(self.players)
            ],
            "starter_win_rate": rate(self.starter_wins, self.hands),
            "outcomes": {name: {"count": int(self.outcomes[i]), **rate(int(self.outcomes[i]), self.hands)}
                         for i, name in enumerate(OUTCOMES)},
            "going_rummy_rate": rate(self.rummy, self.hands),
            "going_rummy_share_of_wins": rate(self.rummy, wins),
            "points_per_winning_hand": mean_from_sums(self.points, self.points_sq, wins),
            "turns_per_hand": mean_from_sums(self.turns, self.turns_sq, self.hands),
            "wall_seconds": wall_seconds,
            "hands_per_second": self.hands / wall_seconds if wall_seconds > 0 else math.nan,
        }
        if self.games:
            out["hands_per_game"] = mean_from_sums(self.game_hands, self.game_hands_sq, self.games)
            out["game_win_rate_by_seat"] = [
                {"seat": q, **rate(int(self.game_wins[q]), self.games)} for q in range(self.players)
            ]
        return out


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
    """A comparison's rotation (candidate A in seat r, ``k`` players) of one chunk ``ch``: per hand
    ``(block index, A's points minus the mean of B's seats, no winner)``, per block A's score (won 1,
    stalemate 1/k, lost 0; with ``games_mode`` the game's winner), per game A's final score minus
    B's mean (None for independent hands), and per hand A's score (won 1, stalemate 1/k, lost 0)
    and A's position after the dealer (0: A starts, ..., k - 1: A deals)."""
    rows = ch.hand_rows
    idx = np.searchsorted(ch.games, rows[:, K.H_GAME])
    winner = rows[:, K.H_WINNER]
    stale = winner < 0
    a_won = winner == r
    points = rows[:, K.H_POINTS].astype(np.float64)
    diff = np.where(a_won, points, 0.0) - np.where(~a_won & ~stale, points, 0.0) / (k - 1)
    hand_score = np.where(a_won, 1.0, np.where(stale, 1.0 / k, 0.0))
    position = (r - rows[:, K.H_STARTER]) % k
    if not games_mode:
        return idx, diff, stale, hand_score, None, hand_score, position
    final = ch.game_rows[:, 2:2 + k].astype(np.float64)
    score = (ch.game_rows[:, 0] == r).astype(np.float64)
    return (idx, diff, stale, score, final[:, r] - (final.sum(axis=1) - final[:, r]) / (k - 1), hand_score,
            position)
