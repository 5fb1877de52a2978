"""Basic Rummy's results tables, declared once (``rummysim.results.Table``): the kernel's result
columns (``H_*``, ``S_*``), the Arrow tables and the schema tables of docs/results.md all come from here."""

from __future__ import annotations

from ...engine.codes import OUTCOMES
from ...results import Column, Table, arrow_table, games_table, kernel_columns, seats_table, unit_tables

HANDS = Table("hands", "one row per hand", (
    Column("game", "int64", "game index", 0),
    Column("hand", "int32", "hand of the game (0, 1, ...; always 0 in `--hands` runs)", 1),
    Column("deal", "uint64", "the deal's key, the state its shuffle starts from: `stream_key(seed, game, hand, "
                             "KIND_DEAL, 0)` (rummysim/engine/rng.py); every rotation of a comparison shares it"),
    Column("seed", "uint64", "the run's master seed"),
    Column("players", "int8", "players at the table"),
    Column("dealer", "int8", "the dealing seat: `(game + hand + players - 1) % players`", 2),
    Column("starter", "int8", "the seat left of the dealer, who plays first", 3),
    Column("outcome", "int8", "how the hand ended (docs/rules.md 1.5)", 4, OUTCOMES),
    Column("winner", "int8", "the seat that went out, -1 if none", 5),
    Column("turns", "int16", "turns played", 6),
    Column("reshuffles", "int16", "times the discard pile became the stock", 7),
    Column("points", "int32", "the winner's score for the hand, going rummy included (1.6)", 8),
    Column("going_rummy", "bool", "the winner went rummy (1.6)", 9),
))
SEATS = seats_table(Column("hand", "int32", "hand of the game"), "one row per seat and hand", (
    Column("cards_left", "int8", "cards in hand at the end", 0),
    Column("value_left", "int16", "their value (1.6)", 1),
    Column("melds_laid", "int8", "melds the seat laid", 2),
    Column("cards_laid_off", "int8", "cards it laid off", 3),
    Column("discard_draws", "int16", "times it took the discard", 4),
))

#: the kernel's result columns, from the schema above
H_GAME, H_HAND, H_DEALER, H_STARTER, H_OUTCOME, H_WINNER, H_TURNS, H_RESHUFFLES, H_POINTS, H_RUMMY = kernel_columns(
    HANDS, "game", "hand", "dealer", "starter", "outcome", "winner", "turns", "reshuffles", "points", "going_rummy")
HAND_COLS = HANDS.width
S_CARDS_LEFT, S_VALUE_LEFT, S_MELDS_LAID, S_CARDS_LAID_OFF, S_DISCARD_DRAWS = kernel_columns(
    SEATS, "cards_left", "value_left", "melds_laid", "cards_laid_off", "discard_draws")
SEAT_COLS = SEATS.width


def games_schema(players: int) -> Table:
    """``games.parquet`` (``--games`` runs) for ``players`` seats; kernel rows int32[g, 2 + players]."""
    return games_table(players, "the seat that reached the target, -1 if the game hit the hands cap",
                       "seat {q}'s final score")


def schemas(players: int, games_mode: bool) -> list[Table]:
    """Every table a run of ``players`` writes (``games`` only for whole games)."""
    return [HANDS, SEATS] + ([games_schema(players)] if games_mode else [])


def tables(chunk, seed: int, players: int, strategy_names: list[str]) -> dict:
    """The Arrow tables of one chunk (``rummysim.run.Chunk``), by file name."""
    out = unit_tables(chunk, seed, players, strategy_names, HANDS, SEATS, "hand", 0)
    if chunk.game_rows is not None:
        out["games"] = arrow_table(games_schema(players), chunk.game_rows, {"game": chunk.games})
    return out
