"""Shanghai Rummy's results tables, declared once (``rummysim.results.Table``): the kernel's result
columns (``RW_*``, ``SS_*``), the Arrow tables and the schema tables of docs/results.md all come from here."""

from __future__ import annotations

import numpy as np

from ...engine.codes import OUTCOMES
from ...results import Column, Table, arrow_table, kernel_columns, seats_table, unit_tables

from .state import BONUSES  # how a round's winner scored (docs/rules.md 2.7): the ``bonus`` column's codes

ROUNDS_TABLE = Table("rounds", "one row per round", (
    Column("game", "int64", "game index", 0),
    Column("round", "int8", "round 1-10 (its contract: docs/rules.md 2.2)", 1),
    Column("deal", "uint64", "the round's deal key, the state its shuffle starts from: `stream_key(seed, game, "
                             "round - 1, KIND_DEAL, 0)` (rummysim/engine/rng.py); every rotation of a comparison "
                             "shares it"),
    Column("seed", "uint64", "the run's master seed"),
    Column("players", "int8", "players at the table"),
    Column("dealer", "int8", "the dealing seat: `(game + round - 1 + players - 1) % players`", 2),
    Column("starter", "int8", "the seat left of the dealer, who plays first", 3),
    Column("outcome", "int8", "how the round ended (`stalemate_stock`: nothing left to draw, 2.6; "
           "`stalemate_blocked`: a blocked table, 3.7)", 4, OUTCOMES),
    Column("winner", "int8", "the seat that went out, -1 if none", 5),
    Column("turns", "int16", "turns played", 6),
    Column("reshuffles", "int16", "times the discard pile was turned into the stock", 7),
    Column("bonus", "int8", "the winner's one-turn bonus (2.7)", 8, BONUSES),
    Column("buys", "int16", "buys this round, all seats (2.4)", 9),
))
SEATS = seats_table(Column("round", "int8", "round 1-10"), "one row per seat and round", (
    Column("score", "int16", "points added this round: the hand's value, 0 or the bonus for the winner", 0),
    Column("down_turn", "int16", "own turn on which the seat laid its contract, 0: never", 1),
    Column("buys", "int8", "upcards bought", 2),
    Column("cards_left", "int8", "cards in hand at the end", 3),
    Column("jokers_left", "int8", "jokers among them", 4),
    Column("cards_laid_off", "int8", "cards laid off (freed jokers included)", 5),
    Column("swaps", "int8", "jokers taken from the table (2.5; before the contract with joker_swap=anyone, 3.8)", 6),
    Column("upcards", "int8", "upcards taken on its own turn", 7),
))

#: the kernel's result columns, from the schema above
RW_GAME, RW_ROUND, RW_DEALER, RW_STARTER, RW_OUTCOME, RW_WINNER, RW_TURNS, RW_RESHUFFLES, RW_BONUS, RW_BUYS = \
    kernel_columns(ROUNDS_TABLE, "game", "round", "dealer", "starter", "outcome", "winner", "turns", "reshuffles",
                   "bonus", "buys")
ROUND_COLS = ROUNDS_TABLE.width
SS_SCORE, SS_DOWN_TURN, SS_BUYS, SS_CARDS_LEFT, SS_JOKERS_LEFT, SS_LAID_OFF, SS_SWAPS, SS_UPCARDS = kernel_columns(
    SEATS, "score", "down_turn", "buys", "cards_left", "jokers_left", "cards_laid_off", "swaps", "upcards")
SEAT_COLS = SEATS.width


def games_schema(players: int) -> Table:
    """``games.parquet`` for ``players`` seats; kernel rows int32[g, players] (the final totals)."""
    return Table("games", "one row per game", (
        Column("game", "int64", "game index"),
        *(Column(f"total_{q}", "int32", f"seat {q}'s total after ten rounds", q) for q in range(players)),
        Column("tied", "int8", "a count, not a yes/no: how many seats share the lowest total (1: a single winner)"),
        Column("winner", "int8", "the seat with the lowest total, -1 when `tied` > 1 (2.7)"),
    ))


def schemas(players: int, games_mode: bool = True) -> list[Table]:
    """Every table a run of ``players`` writes."""
    return [ROUNDS_TABLE, SEATS, games_schema(players)]


def game_winners(totals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``totals`` int[g, players] -> ``(tied, winner)``: how many seats share the lowest total,
    and that seat when it is alone (else -1). Rules 2.7: lowest total wins, ties share."""
    best = totals.min(axis=1, keepdims=True)
    at_best = totals == best
    tied = at_best.sum(axis=1)
    winner = np.where(tied == 1, at_best.argmax(axis=1), -1)
    return tied, winner


def tables(chunk, seed: int, players: int, strategy_names: list[str]) -> dict:
    """The Arrow tables of one chunk (``rummysim.run.Chunk``: ``hand_rows`` holds the rounds and
    ``game_rows`` the final totals), by file name."""
    tied, winner = game_winners(chunk.game_rows)
    out = unit_tables(chunk, seed, players, strategy_names, ROUNDS_TABLE, SEATS, "round", 1)
    out["games"] = arrow_table(games_schema(players), chunk.game_rows, {"game": chunk.games, "tied": tied,
                                                                        "winner": winner})
    return out
