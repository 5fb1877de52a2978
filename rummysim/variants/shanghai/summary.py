"""Shanghai's end-of-run summary (per round and per game, with intervals) and game win shares."""

from __future__ import annotations

import math

import numpy as np

from ...base.summary import FEW_UNITS, estimate_text, mean_from_sums, rate, share_from_sums
from ...engine.codes import OUT_WIN, OUTCOMES
from . import schema as K
from .state import ROUNDS

def win_shares(totals: np.ndarray) -> np.ndarray:
    """float64[g, players]: each game's win shared equally among the seats with the lowest total."""
    at_best = totals == totals.min(axis=1, keepdims=True)
    return at_best / at_best.sum(axis=1, keepdims=True)


class _Moments:
    """Count, sum and sum of squares, for a mean with its 95% interval: Student-t, or for ``share``s
    (values in [0, 1]) the share interval of ``base.intervals.share_ratio_ci``."""

    def __init__(self, shape=()):
        self.n = np.zeros(shape)
        self.s = np.zeros(shape)
        self.ss = np.zeros(shape)

    def add(self, values: np.ndarray, index=None, weights=None) -> None:
        v = values.astype(np.float64)
        if index is None:
            self.n += v.size
            self.s += v.sum()
            self.ss += (v ** 2).sum()
        else:
            np.add.at(self.n, index, 1)
            np.add.at(self.s, index, v)
            np.add.at(self.ss, index, v ** 2)

    def estimate(self, i=(), share: bool = False) -> dict:
        return (share_from_sums if share else mean_from_sums)(float(self.s[i]), float(self.ss[i]), int(self.n[i]))


class ShanghaiSummary:
    """The end-of-run summary of a Shanghai run, folded in chunk by chunk (constant memory).

    Proportions of rounds get an exact (Clopper-Pearson) interval (rounds of one game are
    not quite independent, so per-round rates are slightly narrow); per-game figures are
    means over independent games: totals with a Student-t interval, win shares (in [0, 1])
    with the share interval, which never leaves [0, 1].
    """

    def __init__(self, players: int, strategy_names: list[str]):
        self.players = players
        self.strategy_names = strategy_names
        self.rounds = np.zeros(ROUNDS + 1, dtype=np.int64)
        self.won = np.zeros(ROUNDS + 1, dtype=np.int64)
        self.bonus = np.zeros(ROUNDS + 1, dtype=np.int64)
        self.outcomes = np.zeros((ROUNDS + 1, len(OUTCOMES)), dtype=np.int64)
        self.contract = np.zeros(ROUNDS + 1, dtype=np.int64)
        self.buys = _Moments(ROUNDS + 1)
        self.reshuffles = _Moments(ROUNDS + 1)
        self.penalty = _Moments(ROUNDS + 1)
        self.turns = _Moments(ROUNDS + 1)
        self.totals = _Moments(players)
        self.shares = _Moments(players)
        self.games = 0

    def add(self, chunk) -> None:
        """Fold in one chunk (``results.Chunk``): rounds, seat rows and the games' final totals."""
        round_rows, seat_rows, totals = chunk.hand_rows, chunk.seat_rows, chunk.game_rows
        r = round_rows[:, K.RW_ROUND]
        self.rounds += np.bincount(r, minlength=ROUNDS + 1)
        won = round_rows[:, K.RW_OUTCOME] == OUT_WIN
        self.won += np.bincount(r[won], minlength=ROUNDS + 1)
        self.bonus += np.bincount(r[round_rows[:, K.RW_BONUS] > 0], minlength=ROUNDS + 1)
        np.add.at(self.outcomes, (r, round_rows[:, K.RW_OUTCOME]), 1)
        self.reshuffles.add(round_rows[:, K.RW_RESHUFFLES], r)
        self.turns.add(round_rows[:, K.RW_TURNS], r)
        seat_round = np.repeat(r, self.players)
        flat = seat_rows.reshape(-1, K.SEAT_COLS)
        self.contract += np.bincount(seat_round[flat[:, K.SS_DOWN_TURN] > 0], minlength=ROUNDS + 1)
        self.buys.add(flat[:, K.SS_BUYS], seat_round)
        loser = np.arange(self.players)[None, :] != round_rows[:, K.RW_WINNER][:, None]
        self.penalty.add(flat[loser.ravel(), K.SS_SCORE], seat_round[loser.ravel()])
        self.games += len(totals)
        seat = np.tile(np.arange(self.players), len(totals))
        self.totals.add(totals.ravel(), seat)
        self.shares.add(win_shares(totals).ravel(), seat)

    def as_dict(self, wall_seconds: float) -> dict:
        per_round = []
        for r in range(1, ROUNDS + 1):
            n = int(self.rounds[r])
            per_round.append({
                "round": r,
                "rounds": n,
                "contract_met_rate": rate(int(self.contract[r]), n * self.players),
                "went_out_rate": rate(int(self.won[r]), n),
                "one_turn_bonus_rate": rate(int(self.bonus[r]), n),
                "no_winner_rate": rate(n - int(self.won[r]), n),
                "stalemate_stock": int(self.outcomes[r, OUTCOMES.index("stalemate_stock")]),
                "stalemate_blocked": int(self.outcomes[r, OUTCOMES.index("stalemate_blocked")]),
                "turn_limit": int(self.outcomes[r, OUTCOMES.index("turn_limit")]),
                "mean_penalty": self.penalty.estimate(r),
                "buys_per_seat": self.buys.estimate(r),
                "reshuffles": self.reshuffles.estimate(r),
                "turns": self.turns.estimate(r),
            })
        rounds = int(self.rounds.sum())
        return {
            "variant": "shanghai",
            "games": self.games,
            "rounds": rounds,
            "per_round": per_round,
            "by_seat": [{"seat": q, "strategy": self.strategy_names[q], "mean_total": self.totals.estimate(q),
                         "win_share": self.shares.estimate(q, share=True)} for q in range(self.players)],
            "outcomes": {name: {"count": int(self.outcomes[:, i].sum()),
                                **rate(int(self.outcomes[:, i].sum()), rounds)}
                         for i, name in enumerate(OUTCOMES)},
            "wall_seconds": wall_seconds,
            "rounds_per_second": rounds / wall_seconds if wall_seconds > 0 else math.nan,
        }


def render(summary: dict, console) -> None:
    """Print a Shanghai summary as rich tables."""
    from rich.table import Table

    def pct(d: dict) -> str:
        return estimate_text(d, lambda x: f"{100 * x:.1f}%")

    def mean(d: dict, digits: int = 1) -> str:
        return estimate_text(d, lambda x: f"{x:.{digits}f}")

    seats = Table(title=f"Per seat over {summary['games']:,} games (95% intervals; lowest total wins, ties share)")
    for col in ("seat", "strategy", "mean total", "win share"):
        seats.add_column(col, justify="left" if col == "strategy" else "right")
    for s in summary["by_seat"]:
        seats.add_row(str(s["seat"]), s["strategy"], mean(s["mean_total"]), pct(s["win_share"]))
    console.print(seats)
    def cell(d: dict, scale: float = 100.0, digits: int = 1) -> str:
        """The estimate over its 95% interval on a second line, narrow enough for 80 columns:
        the interval's bounds with one decimal fewer (none from 10 on); every quantity here is
        >= 0, so a t-interval's lower bound below 0 is shown as 0. Without an interval (one round,
        or every value alike: ``base.summary.interval_text``) the second line says "no CI"."""
        if any(x is None or math.isnan(x) for x in d["ci95"]):
            return f"{scale * d['estimate']:.{digits}f}\nno CI"
        lo, hi = max(0.0, scale * d["ci95"][0]), scale * d["ci95"][1]
        k = max(digits - 1, 0) if hi < 10 else 0
        return f"{scale * d['estimate']:.{digits}f}\n[{lo:.{k}f},{hi:.{k}f}]"

    # headers broken by hand and cells of at most 9 characters: the table is at most 79 columns
    # wide, within rich's 80 when stdout is not a terminal; should a cell still be wider, it
    # folds to another line rather than being cut
    # the cells have no room for "n=6": a table of few games says it in its title
    few = f"; n={summary['games']:,} games per round" if summary["games"] < FEW_UNITS else ""
    shown = ("contract_met_rate", "went_out_rate", "one_turn_bonus_rate", "mean_penalty", "buys_per_seat", "reshuffles")
    bare = any(x is None or math.isnan(x) for r in summary["per_round"] for c in shown for x in r[c]["ci95"])
    none = "; no CI: one round, or every value alike" if bare else ""
    rounds = Table(title=f"Per round: rates in %, means; 95% intervals (no winner = 100 - went out){none}{few}")
    for col in ("round", "contract\nmet %", "went\nout %", "one-turn\nbonus %", "penalty\nof losers",
                "buys\nper seat", "reshuffles"):
        rounds.add_column(col, justify="right", overflow="fold")
    for r in summary["per_round"]:
        rounds.add_row(str(r["round"]), cell(r["contract_met_rate"]), cell(r["went_out_rate"]),
                       cell(r["one_turn_bonus_rate"]), cell(r["mean_penalty"], 1.0),
                       cell(r["buys_per_seat"], 1.0, 2), cell(r["reshuffles"], 1.0, 2))
    console.print(rounds)
    o = summary["outcomes"]
    console.print(f"rounds ended with nothing left to draw: {o['stalemate_stock']['count']:,}; "
                  f"on a blocked table: {o['stalemate_blocked']['count']:,}; "
                  f"at the turn limit: {o['turn_limit']['count']:,}")
    console.print(f"{summary['rounds']:,} rounds in {summary['wall_seconds']:.1f} s: "
                  f"{summary['rounds_per_second']:,.0f} rounds/s")


def rotation_rows(ch, r: int, k: int, games_mode: bool):
    """A comparison's rotation (candidate A in seat r, ``k`` players) of one chunk ``ch``: per round
    ``(block index, A's penalty points minus the mean of B's seats, no winner)``, per game A's share
    of the win (lowest total wins, ties share) and A's final total minus B's mean, and per round A's
    score (went out 1, no winner 1/k, else 0) and A's position after the round's dealer (0: A starts
    the round, ..., k - 1: A deals it; the deal moves one seat every round)."""
    rows = ch.hand_rows
    idx = np.searchsorted(ch.games, rows[:, K.RW_GAME])
    points = ch.seat_rows[:, :, K.SS_SCORE].astype(np.float64)
    diff = points[:, r] - (points.sum(axis=1) - points[:, r]) / (k - 1)
    stale = rows[:, K.RW_OUTCOME] != OUT_WIN
    final = ch.game_rows.astype(np.float64)
    round_score = np.where(rows[:, K.RW_WINNER] == r, 1.0, np.where(stale, 1.0 / k, 0.0))
    position = (r - rows[:, K.RW_STARTER]) % k
    return (idx, diff, stale, win_shares(ch.game_rows)[:, r], final[:, r] - (final.sum(axis=1) - final[:, r]) / (k - 1),
            round_score, position)
