"""The ``Variant`` of Basic Rummy: what the registry lists and the rest of rummysim asks, built from this package's modules."""

from ...base.variant import Variant
from . import env_core, game, kernel, notation, play, replay, rules, schema, spec, summary
from .bots import N_PARAMS, P_SEARCH

VARIANT = Variant(
    name="basic", title="Basic Rummy", unit="hand", penalty=False, no_winner="stalemate rate", players=(2, 4, 2), hands_mode=True,
    run_default=("games", 10_000), compare_default=("hands", 20_000),
    chunk_size={"games": 16384, "hands": 131072}, unit_bytes=play.UNIT_BYTES,
    rules=rules.BasicRules, rule_options=rules.ALLOWED, convert_rule=rules.convert, spec=spec.SPEC, n_params=N_PARAMS, strategy_dir=".",
    play_chunk=play.play_chunk, tables=schema.tables, schemas=schema.schemas, rows_per_game=play.rows_per_game,
    summary=summary.RunSummary, render=summary.render, first_unit=0, last_unit=kernel.MAX_HANDS_PER_GAME - 1, units_in_game=replay.hands_in_game,
    replay=replay.trace_hand, format_event=replay.format_event, describe_deal=replay.describe_deal,
    replay_samples=(("stalemate", "a hand nobody won", "outcome", ("stalemate_stock", "stalemate_blocked", "turn_limit")),
                    ("rummy", "a win by going rummy", "going_rummy", (True,))),
    rotation_rows=summary.rotation_rows, report=f"{__package__}.report",
    notation=notation, game=game.Game, env_core=env_core, rules_section="1", options_section="7", compile_seconds=180, search_slot=P_SEARCH,
    headline_words={},
    interval_note="Every interval is 95%: exact (Clopper-Pearson) for the proportions of a run; for points per "
                  "hand, per game and per win a t-interval over independent blocks (a game with --games, a hand "
                  "with --hands, the deal in all its seatings in a comparison), with the degrees of freedom of the "
                  "blocks it rests on (points per rummy win: the blocks with a rummy win); for every rate and share "
                  "of a comparison the share interval over the same blocks (Clopper-Pearson on their effective "
                  "number of units), which stays within 0-100%; one unit, or a mean whose units are all alike, has "
                  "none; \"n=8\" beside an estimate says it rests on fewer than 100 units.",
    compare_intro="Each match plays every {unit} once per seat rotation of the candidate A; the win share counts "
                  "{mode} (a stalemate hand counts 1/{players}); points: A minus B at 2 players, A minus the mean of B's "
                  "seats at more; intervals are over these duplicate blocks (from "
                  "compare.json).",
)
