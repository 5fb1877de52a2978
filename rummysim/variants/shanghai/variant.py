"""The ``Variant`` of Shanghai Rummy: what the registry lists and the rest of rummysim asks, built from this package's modules."""

from ...base.variant import Variant
from . import env_core, game, notation, play, replay, rules, schema, spec, state, summary
from .bots import N_SHANGHAI_PARAMS, SP_SEARCH

VARIANT = Variant(
    name="shanghai", title="Shanghai Rummy", unit="round", penalty=True, no_winner="rounds with no winner",
    players=(3, 8, 4), hands_mode=False,
    run_default=("games", 1_000), compare_default=("games", 1_000),
    chunk_size={"games": 1024}, unit_bytes=play.UNIT_BYTES,
    rules=rules.ShanghaiRules, rule_options=rules.ALLOWED, convert_rule=rules.convert, spec=spec.SPEC, n_params=N_SHANGHAI_PARAMS, strategy_dir="shanghai",
    play_chunk=play.play_chunk, tables=schema.tables, schemas=schema.schemas, rows_per_game=play.rows_per_game,
    summary=summary.ShanghaiSummary, render=summary.render, first_unit=1, last_unit=state.ROUNDS, units_in_game=play.rounds_in_game,
    replay=replay.trace_round,
    format_event=replay.format_event, describe_deal=replay.describe_deal,
    replay_samples=(("one_turn", "a win in one turn (Shanghai, docs/rules.md 2.7)", "bonus", ("one_turn", "one_turn_no_joker")),
                    ("no_winner", "a round nobody won", "outcome", ("stalemate_stock", "stalemate_blocked", "turn_limit"))),
    rotation_rows=summary.rotation_rows, report=f"{__package__}.report",
    notation=notation, game=game.Game, env_core=env_core, rules_section="2", options_section="8", compile_seconds=360, search_slot=SP_SEARCH,
    headline_words={"hands": "rounds", "points_per_hand_diff": "penalty_per_round_diff",
                    "points_per_game_diff": "penalty_per_game_diff", "stalemate_rate": "no_winner_rate"},
    interval_note="Every interval is 95%: exact (Clopper-Pearson) for rates over rounds and seat-rounds (the rounds "
                  "of one game, the seats of one round and the rotations of one game in a comparison are not fully "
                  "independent, so these are a little narrow); for means (final totals, penalty points, buys, "
                  "reshuffles, turns) a t-interval over independent blocks (a game, in a comparison the game in all "
                  "its seatings), with the degrees of freedom of the blocks it rests on; win shares the share "
                  "interval over the same blocks (Clopper-Pearson on their effective number of units), which stays "
                  "within 0-100%; one unit, or a mean whose units are all alike, has none; \"n=8\" beside an "
                  "estimate says it rests on fewer than 100 units.",
    compare_intro="Each match plays every game once per seat rotation of the candidate A (A in one seat, B in the "
                  "others); the win share is A's share of the games won (lowest total after ten rounds; a tie "
                  "shares the win), fair 1/{players}; penalty points: A minus the mean of B's seats, lower is better; no winner: rounds "
                  "that ended with nothing left to draw or at the turn limit; intervals are over these duplicate "
                  "blocks (from compare.json).",
)
