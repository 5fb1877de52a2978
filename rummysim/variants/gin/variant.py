"""The ``Variant`` of Gin Rummy: what the registry lists and the rest of rummysim asks, built from this package's modules."""

from ...base.variant import Variant
from . import env_core, game, kernel, notation, play, replay, rules, schema, spec, summary
from .bots import N_PARAMS, P_SEARCH

VARIANT = Variant(
    name="gin", title="Gin Rummy", unit="hand", penalty=False, no_winner="hands with no score", players=(2, 2, 2),
    hands_mode=True, run_default=("hands", 100_000), compare_default=("hands", 20_000),
    chunk_size={"games": 8192, "hands": 65536}, unit_bytes=play.UNIT_BYTES,
    rules=rules.GinRules, rule_options=rules.ALLOWED, convert_rule=rules.convert, spec=spec.SPEC, n_params=N_PARAMS,
    strategy_dir="gin",
    play_chunk=play.play_chunk, tables=schema.tables, schemas=schema.schemas, rows_per_game=play.rows_per_game,
    summary=summary.RunSummary, render=summary.render, first_unit=0, last_unit=kernel.MAX_HANDS_PER_GAME - 1,
    units_in_game=replay.hands_in_game,
    replay=replay.trace_hand, format_event=replay.format_event, describe_deal=replay.describe_deal,
    replay_samples=(("gin", "a hand won by gin", "gin", (True,)),
                    ("undercut", "an undercut", "undercut", (True,)),
                    ("no_score", "a hand with no score (the wall)", "outcome", ("stalemate_stock", "turn_limit"))),
    rotation_rows=summary.rotation_rows, report=f"{__package__}.report",
    notation=notation, game=game.Game, env_core=env_core, rules_section="4", options_section="9", compile_seconds=40, search_slot=P_SEARCH,
    headline_words={"stalemate_rate": "no_score_rate"},
    interval_note="Every interval is 95%: exact (Clopper-Pearson) for the proportions of a run; for points per "
                  "hand and per game a t-interval over independent blocks (a game with --games, a hand with "
                  "--hands, the deal in both seatings in a comparison), with the degrees of freedom of the blocks "
                  "it rests on; for every rate and share of a comparison the share interval over the same blocks "
                  "(Clopper-Pearson on their effective number of units), which stays within 0-100%; one unit, or a "
                  "mean whose units are all alike, has none; \"n=8\" beside an estimate says it rests on fewer than "
                  "100 units.",
    compare_intro="Each match plays every {unit} once per seat rotation of the candidate A; the win share counts "
                  "{mode} (a hand with no score counts 1/{players}); points: A minus B; intervals are over these "
                  "duplicate blocks (from compare.json).",
)
