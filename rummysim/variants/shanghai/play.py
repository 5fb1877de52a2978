"""A chunk of Shanghai Rummy games through the kernel, as result rows."""

from __future__ import annotations

import numpy as np

from ...results import Chunk
from . import kernel as K
from .schema import ROUND_COLS, SEAT_COLS
from .state import ROUNDS

#: kernel bytes per game of a chunk at 8 players: round and seat rows (int32) for its ROUNDS rounds,
#: the totals and the game index
UNIT_BYTES = ROUNDS * (ROUND_COLS + 8 * SEAT_COLS) * 4 + 8 * 4 + 8


def play_chunk(seed: int, games: np.ndarray, players: int, single: bool, rules: np.ndarray,
               params: np.ndarray) -> Chunk:
    """Play the game indices ``games`` int64[g], ten rounds each: ``hand_rows`` holds the rounds and
    ``game_rows`` the final totals int32[g, players] (``single`` is never set: no independent rounds)."""
    g = len(games)
    round_rows = np.empty((g * ROUNDS, ROUND_COLS), dtype=np.int32)
    seat_rows = np.empty((g * ROUNDS, players, SEAT_COLS), dtype=np.int32)
    totals = np.empty((g, players), dtype=np.int32)
    K.play_games(seed, games, players, rules, params, round_rows, seat_rows, totals)
    return Chunk(round_rows, seat_rows, games, totals)


def rows_per_game(tables: dict, games: np.ndarray) -> np.ndarray:
    """Rounds each game of a chunk has: always ten."""
    return np.full(len(games), ROUNDS)


def rounds_in_game(seed: int, game: int, players: int, rules: np.ndarray, params: np.ndarray) -> int:
    """Rounds game ``game`` has: always ten (docs/rules.md 2.1)."""
    return ROUNDS
