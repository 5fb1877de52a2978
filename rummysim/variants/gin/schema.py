"""Gin Rummy's results tables, declared once (``rummysim.results.Table``): the kernel's result columns
(``H_*``, ``S_*``), the Arrow tables and the schema tables of docs/results.md all come from here."""

from __future__ import annotations

from ...engine.codes import OUTCOMES
from ...results import Column, Table, arrow_table, games_table, kernel_columns, seats_table, unit_tables

HANDS = Table("hands", "one row per hand", (
    Column("game", "int64", "game index", 0),
    Column("hand", "int32", "hand of the game (0, 1, ...; always 0 in `--hands` runs)", 1),
    Column("deal", "uint64", "the deal's key, the state its shuffle starts from: `stream_key(seed, game, hand, "
                             "KIND_DEAL, 0)` (rummysim/engine/rng.py); every rotation of a comparison shares it"),
    Column("seed", "uint64", "the run's master seed"),
    Column("players", "int8", "players at the table (2)"),
    Column("dealer", "int8", "the dealing seat: `(game + hand + 1) % 2`", 2),
    Column("starter", "int8", "the other seat, offered the first upcard (docs/rules.md 4.3)", 3),
    Column("outcome", "int8", "how the hand ended: `win` after a knock, `stalemate_stock` at the wall, "
                              "`turn_limit` at the 50th take of the upcard (docs/rules.md 4.6)", 4, OUTCOMES),
    Column("winner", "int8", "the seat that scored, -1 if none", 5),
    Column("knocker", "int8", "the seat that knocked, -1 if nobody did", 6),
    Column("turns", "int16", "discards made", 7),
    Column("points", "int32", "the winner's score for the hand, bonuses included (4.7)", 8),
    Column("gin", "bool", "the knocker had no deadwood (4.7)", 9),
    Column("big_gin", "bool", "... with all eleven cards melded (option big_gin_bonus)", 10),
    Column("undercut", "bool", "the defender's deadwood was below the knocker's (4.7)", 11),
    Column("knock_card", "int8", "the hand's knock card (4.5; option oklahoma)", 12),
    Column("knocker_deadwood", "int16", "the knocker's deadwood at the end, -1 without a knock", 13),
    Column("defender_deadwood", "int16", "the defender's deadwood after laying off, -1 without a knock", 14),
))
SEATS = seats_table(Column("hand", "int32", "hand of the game"), "one row per seat and hand", (
    Column("cards_left", "int8", "cards in hand at the end (not laid in melds or laid off)", 0),
    Column("value_left", "int16", "their value: the seat's deadwood after a knock (4.2)", 1),
    Column("melds_laid", "int8", "melds the seat laid after the knock", 2),
    Column("cards_laid_off", "int8", "cards it laid off on the knocker's melds", 3),
    Column("discard_draws", "int16", "times it took the upcard", 4),
))

#: the kernel's result columns, from the schema above
(H_GAME, H_HAND, H_DEALER, H_STARTER, H_OUTCOME, H_WINNER, H_KNOCKER, H_TURNS, H_POINTS, H_GIN, H_BIG_GIN,
 H_UNDERCUT, H_KNOCK_CARD, H_KNOCKER_DEADWOOD, H_DEFENDER_DEADWOOD) = kernel_columns(
    HANDS, "game", "hand", "dealer", "starter", "outcome", "winner", "knocker", "turns", "points", "gin", "big_gin",
    "undercut", "knock_card", "knocker_deadwood", "defender_deadwood")
HAND_COLS = HANDS.width
S_CARDS_LEFT, S_VALUE_LEFT, S_MELDS_LAID, S_CARDS_LAID_OFF, S_DISCARD_DRAWS = kernel_columns(
    SEATS, "cards_left", "value_left", "melds_laid", "cards_laid_off", "discard_draws")
SEAT_COLS = SEATS.width


def games_schema(players: int) -> Table:
    """``games.parquet`` (``--games`` runs); kernel rows int32[g, 2 + players]."""
    return games_table(players, "the seat that reached the game's target (4.8), -1 if the game hit the hands cap",
                       "seat {q}'s final score, the game's bonuses included (4.8)")


def schemas(players: int, games_mode: bool) -> list[Table]:
    """Every table a run writes (``games`` only for whole games)."""
    return [HANDS, SEATS] + ([games_schema(players)] if games_mode else [])


def tables(chunk, seed: int, players: int, strategy_names: list[str]) -> dict:
    """The Arrow tables of one chunk (``rummysim.results.Chunk``), by file name."""
    out = unit_tables(chunk, seed, players, strategy_names, HANDS, SEATS, "hand", 0)
    if chunk.game_rows is not None:
        out["games"] = arrow_table(games_schema(players), chunk.game_rows, {"game": chunk.games})
    return out
