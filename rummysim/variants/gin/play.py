"""A chunk of Gin Rummy games (or independent hands) through the kernel, as result rows."""

from __future__ import annotations

import numpy as np

from ...engine import melds as M
from ...results import Chunk, chunk_with_room
from . import kernel as K
from .schema import HAND_COLS, SEAT_COLS

#: games start with room for this many hands each; a longer game is replayed with more room
HAND_CAPACITY = 16
#: kernel bytes per game of a chunk: hand and seat rows (int32) for HAND_CAPACITY hands, a games row,
#: the hands count and the game index
UNIT_BYTES = HAND_CAPACITY * (HAND_COLS + 2 * SEAT_COLS) * 4 + 4 * 4 + 8 + 8


def _play(seed: int, games: np.ndarray, single: bool, rules: np.ndarray, params: np.ndarray, cap: int):
    """One kernel call with room for ``cap`` hands per game; returns the raw arrays."""
    g = len(games)
    hand_rows = np.empty((g * cap, HAND_COLS), dtype=np.int32)
    seat_rows = np.empty((g * cap, 2, SEAT_COLS), dtype=np.int32)
    game_rows = np.empty((g, 4), dtype=np.int32)
    n_hands = np.empty(g, dtype=np.int64)
    K.play_games(seed, games, rules, params, M.CARD_VALUE, single, cap, hand_rows, seat_rows, game_rows, n_hands)
    keep = (np.arange(cap)[None, :] < n_hands[:, None]).ravel()
    return hand_rows[keep], seat_rows[keep], game_rows, n_hands


def play_chunk(seed: int, games: np.ndarray, players: int, single: bool, rules: np.ndarray,
               params: np.ndarray) -> Chunk:
    """Play the game indices ``games`` int64[g] (whole games, or one hand each when ``single``)."""
    return chunk_with_room(lambda g, cap: _play(seed, g, single, rules, params, cap), games, single,
                           HAND_CAPACITY)


def rows_per_game(tables: dict, games: np.ndarray) -> np.ndarray:
    """Hands each game of a chunk has in its ``hands`` table."""
    return tables["games"].column("hands").to_numpy() if "games" in tables else np.ones(len(games), dtype=np.int64)
