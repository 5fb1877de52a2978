"""``Variant``: everything the rest of rummysim needs of a variant, the one extension point.

Each variant package (``rummysim/variants/<name>/``) builds one ``Variant`` in its ``variant.py`` from
its own modules; the registry (``rummysim.variants``) lists them. Code above the registry receives a
``Variant`` object and asks it, never a variant's name: a name is looked up once, where it comes in
(the command line, the Python API, a results record).
"""

from __future__ import annotations

import dataclasses
from typing import Callable


@dataclasses.dataclass(frozen=True)
class Variant:
    """What the rest of rummysim needs to know about a variant."""

    name: str                          # "basic": the --variant value and the package name
    title: str                         # "Basic Rummy"
    unit: str                          # what one row of its main table is: "hand" or "round"
    penalty: bool                      # its points are penalties (lower is better), not winnings
    no_winner: str                     # how its results call a hand or round nobody won
    players: tuple[int, int, int]      # fewest, most, default
    hands_mode: bool                   # may play independent hands (--hands) besides whole games
    run_default: tuple[str, int]       # what `run` plays when no count is given
    compare_default: tuple[str, int]   # what `compare` plays when no count is given
    chunk_size: dict                   # default chunk size per mode {"games": n, "hands": n}
    unit_bytes: int                    # kernel bytes of one game of a chunk, at the most players
    rules: type                        # its rules class (``as_dict``, ``digest``, ``check_players``, ``to_array``)
    rule_options: dict                 # each rule option: what it may be, in words
    convert_rule: Callable             # (option, value) -> the option's value; RuleError if not allowed
    spec: tuple                        # its strategy keys (``rummysim.strategy.Param`` each)
    n_params: int                      # length of a strategy's parameter vector
    strategy_dir: str                  # shipped strategies, under rummysim/strategies/
    play_chunk: Callable               # (seed, games, players, hands_mode, rules, params) -> Chunk
    tables: Callable                   # (chunk, seed, players, strategy names) -> {file name: Arrow table}
    schemas: Callable                  # (players, games mode) -> the results tables it writes (``results.Table``)
    rows_per_game: Callable            # (chunk tables, game indices) -> rows each game has in the main table
    summary: type                      # run-summary accumulator: (players, names); add(chunk); as_dict(wall)
    render: Callable                   # (summary dict, console): the summary as tables
    first_unit: int                    # the number of a game's first hand or round (0, or round 1)
    last_unit: int                     # the highest number a hand or round of a game can have
    units_in_game: Callable            # (seed, game, players, rules, params) -> hands or rounds the game has
    replay: Callable                   # (seed, game, number, players, rules, params) -> events
    format_event: Callable             # one event as a line of text
    describe_deal: Callable            # a replay's deal event in a few words (Shanghai: its round and contract)
    replay_samples: tuple              # report: hands worth watching besides the longest, (name, words, column, codes)
    rotation_rows: Callable            # compare: one rotation's chunk as per-unit and per-game results
    report: str                        # its report sections' module (``sections(page, res)``), loaded by the report
    headline_words: dict               # a comparison's headline columns under its own words (penalty_per_round...)
    interval_note: str                 # report: how its intervals are made
    compare_intro: str                 # report: what a comparison's headline is ({players}, {mode}, {unit})
    notation: object                   # its moves as words (``notation.py``): State, move_name, parse_move...
    game: type                         # its game in play, move by move (``game.Game``): ``play`` and ``env`` drive it
    env_core: object                   # its environments' compiled core (``env_core``): observations, Batch tables
    rules_section: str                 # its section of docs/rules.md ("1")
    options_section: str               # the subsection of its rule options there ("7": 1.7)
    compile_seconds: int               # about how long its engine takes to compile on a 2-core laptop (first run)
    search_slot: int = -1              # first slot of a search bot's keys (engine.search; -1: no search bot)
    hint_strategy: str = "expert"      # the shipped strategy ``play``'s hint and auto use unless told

    @property
    def table(self) -> str:
        """File name of its main results table: ``hands`` or ``rounds``."""
        return self.unit + "s"

    @property
    def points_note(self) -> str:
        """What its points are, for tables and figures: `` (penalty: lower is better)`` or nothing."""
        return " (penalty: lower is better)" if self.penalty else ""
