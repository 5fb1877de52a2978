"""Shanghai results: kernel rows -> Arrow tables, and the end-of-run summary.

Schema (version ``results.SCHEMA_VERSION``, documented in the README, "Results"):

``rounds.parquet`` one row per round:
    game int64, round int8 (1..10), seed uint64, players int8, dealer int8, starter int8,
    outcome dictionary<string> (win, stalemate_stock: nothing left to draw, turn_limit),
    winner int8 (-1 if none), turns int16, reshuffles int16,
    bonus dictionary<string> (none, one_turn, one_turn_no_joker), buys int16
``seats.parquet`` one row per seat and round:
    game int64, round int8, seat int8, strategy dictionary<string>, score int16 (points added
    this round: 0 or the bonus for the winner), down_turn int16 (own turn on which the seat
    laid its contract, 0: never), buys int8, cards_left int8, jokers_left int8,
    cards_laid_off int8, swaps int8, upcards int8
``games.parquet`` one row per game:
    game int64, total_0 ... total_{players-1} int32, tied int8 (seats sharing the lowest
    total), winner int8 (the seat with the lowest total, -1 when tied)
"""

from __future__ import annotations

import math

import numpy as np
import pyarrow as pa

from .variants.shanghai import kernel as K
from .variants.shanghai.state import ROUNDS
from .engine.codes import OUTCOMES, OUT_WIN
from .summary import mean_from_sums, rate

BONUSES = ("none", "one_turn", "one_turn_no_joker")


def rounds_table(rows: np.ndarray, seed: int, players: int) -> pa.Table:
    """``rows`` int32[n, ROUND_COLS] from the kernel -> the ``rounds`` table."""
    n = len(rows)
    return pa.table({
        "game": pa.array(rows[:, K.RW_GAME].astype(np.int64)),
        "round": pa.array(rows[:, K.RW_ROUND].astype(np.int8)),
        "seed": pa.array(np.full(n, seed, dtype=np.uint64)),
        "players": pa.array(np.full(n, players, dtype=np.int8)),
        "dealer": pa.array(rows[:, K.RW_DEALER].astype(np.int8)),
        "starter": pa.array(rows[:, K.RW_STARTER].astype(np.int8)),
        "outcome": pa.DictionaryArray.from_arrays(pa.array(rows[:, K.RW_OUTCOME].astype(np.int8)), pa.array(OUTCOMES)),
        "winner": pa.array(rows[:, K.RW_WINNER].astype(np.int8)),
        "turns": pa.array(rows[:, K.RW_TURNS].astype(np.int16)),
        "reshuffles": pa.array(rows[:, K.RW_RESHUFFLES].astype(np.int16)),
        "bonus": pa.DictionaryArray.from_arrays(pa.array(rows[:, K.RW_BONUS].astype(np.int8)), pa.array(BONUSES)),
        "buys": pa.array(rows[:, K.RW_BUYS].astype(np.int16)),
    })


def seats_table(round_rows: np.ndarray, seat_rows: np.ndarray, strategy_names: list[str]) -> pa.Table:
    """``seat_rows`` int32[n, players, SEAT_COLS] -> the ``seats`` table (round-major, seat-minor)."""
    n, players = seat_rows.shape[:2]
    names = sorted(set(strategy_names))
    seat_code = np.array([names.index(s) for s in strategy_names], dtype=np.int8)
    flat = seat_rows.reshape(n * players, K.SEAT_COLS)
    return pa.table({
        "game": pa.array(np.repeat(round_rows[:, K.RW_GAME].astype(np.int64), players)),
        "round": pa.array(np.repeat(round_rows[:, K.RW_ROUND].astype(np.int8), players)),
        "seat": pa.array(np.tile(np.arange(players, dtype=np.int8), n)),
        "strategy": pa.DictionaryArray.from_arrays(pa.array(np.tile(seat_code, n)), pa.array(names)),
        "score": pa.array(flat[:, K.SS_SCORE].astype(np.int16)),
        "down_turn": pa.array(flat[:, K.SS_DOWN_TURN].astype(np.int16)),
        "buys": pa.array(flat[:, K.SS_BUYS].astype(np.int8)),
        "cards_left": pa.array(flat[:, K.SS_CARDS_LEFT].astype(np.int8)),
        "jokers_left": pa.array(flat[:, K.SS_JOKERS_LEFT].astype(np.int8)),
        "cards_laid_off": pa.array(flat[:, K.SS_LAID_OFF].astype(np.int8)),
        "swaps": pa.array(flat[:, K.SS_SWAPS].astype(np.int8)),
        "upcards": pa.array(flat[:, K.SS_UPCARDS].astype(np.int8)),
    })


def game_winners(totals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``totals`` int[g, players] -> ``(tied, winner)``: how many seats share the lowest total,
    and that seat when it is alone (else -1). Rules 2.7: lowest total wins, ties share."""
    best = totals.min(axis=1, keepdims=True)
    at_best = totals == best
    tied = at_best.sum(axis=1)
    winner = np.where(tied == 1, at_best.argmax(axis=1), -1)
    return tied, winner


def win_shares(totals: np.ndarray) -> np.ndarray:
    """float64[g, players]: each game's win shared equally among the seats with the lowest total."""
    at_best = totals == totals.min(axis=1, keepdims=True)
    return at_best / at_best.sum(axis=1, keepdims=True)


def games_table(games: np.ndarray, totals: np.ndarray, players: int) -> pa.Table:
    """``totals`` int32[g, players] -> the ``games`` table."""
    tied, winner = game_winners(totals)
    cols = {"game": pa.array(games.astype(np.int64))}
    for q in range(players):
        cols[f"total_{q}"] = pa.array(totals[:, q].astype(np.int32))
    cols["tied"] = pa.array(tied.astype(np.int8))
    cols["winner"] = pa.array(winner.astype(np.int8))
    return pa.table(cols)


class _Moments:
    """Count, sum and sum of squares, for a mean with a normal 95% interval."""

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

    def estimate(self, i=()) -> dict:
        return mean_from_sums(float(self.s[i]), float(self.ss[i]), int(self.n[i]))


class ShanghaiSummary:
    """The end-of-run summary of a Shanghai run, folded in chunk by chunk (constant memory).

    Proportions of rounds get a Wilson interval (rounds of one game are not quite
    independent, so per-round rates are slightly narrow); per-game figures (totals,
    win shares) are means over independent games with a normal interval.
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

    def add(self, round_rows: np.ndarray, seat_rows: np.ndarray, totals: np.ndarray) -> None:
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
                         "win_share": self.shares.estimate(q)} for q in range(self.players)],
            "outcomes": {name: {"count": int(self.outcomes[:, i].sum()),
                                **rate(int(self.outcomes[:, i].sum()), rounds)}
                         for i, name in enumerate(OUTCOMES) if name != "stalemate_blocked"},
            "wall_seconds": wall_seconds,
            "rounds_per_second": rounds / wall_seconds if wall_seconds > 0 else math.nan,
        }


def render(summary: dict, console) -> None:
    """Print a Shanghai summary as rich tables."""
    from rich.table import Table

    def pct(d: dict) -> str:
        lo, hi = d["ci95"]
        return f"{100 * d['estimate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"

    def mean(d: dict, digits: int = 1) -> str:
        lo, hi = d["ci95"]
        return f"{d['estimate']:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"

    seats = Table(title=f"Per seat over {summary['games']:,} games (95% intervals; lowest total wins, ties share)")
    for col in ("seat", "strategy", "mean total", "win share"):
        seats.add_column(col, justify="left" if col == "strategy" else "right")
    for s in summary["by_seat"]:
        seats.add_row(str(s["seat"]), s["strategy"], mean(s["mean_total"]), pct(s["win_share"]))
    console.print(seats)
    def short(d: dict, scale: float = 100.0, digits: int = 1) -> str:
        lo, hi = d["ci95"]
        return f"{scale * d['estimate']:.{digits}f} [{scale * lo:.{digits - 1 if digits else 0}f},{scale * hi:.{digits - 1 if digits else 0}f}]"

    rounds = Table(title="Per round: rates in % and means, with 95% intervals (no winner = 100 - went out)")
    for col in ("round", "contract met %", "went out %", "one-turn bonus %", "penalty of losers",
                "buys per seat", "reshuffles"):
        rounds.add_column(col, justify="right")
    for r in summary["per_round"]:
        rounds.add_row(str(r["round"]), short(r["contract_met_rate"]), short(r["went_out_rate"]),
                       short(r["one_turn_bonus_rate"]), short(r["mean_penalty"], 1.0),
                       short(r["buys_per_seat"], 1.0, 2), short(r["reshuffles"], 1.0, 2))
    console.print(rounds)
    o = summary["outcomes"]
    console.print(f"rounds ended with nothing left to draw: {o['stalemate_stock']['count']:,}; "
                  f"at the turn limit: {o['turn_limit']['count']:,}")
    console.print(f"{summary['rounds']:,} rounds in {summary['wall_seconds']:.1f} s: "
                  f"{summary['rounds_per_second']:,.0f} rounds/s")
