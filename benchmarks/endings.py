"""How Shanghai rounds end, per shipped strategy and number of players (section ``endings`` of run.py).

    python benchmarks/run.py --only endings            # 100,000 rounds (10,000 games) per row, all cores
    python benchmarks/run.py --only endings --quick    # a tenth

Every seat plays the same shipped strategy (``strategies/shanghai/*.toml``), default rules, seed 1;
``random`` plays a tenth of the rounds (about a fifth of its rounds run to the 2,000-turn cap).
The rows count the rounds by outcome (``engine.codes.OUTCOMES``): a win, nothing left to draw
(2.6), a blocked table (rulings 3.7 and 3.12) and the turn cap (2.6, ruling 3.6: a bug to
investigate), and of the blocked rounds those with a seat not down (ruling 3.12: a dead table).
The shipped non-random strategies must reach the turn cap in none of them.
"""

from __future__ import annotations

import time

import numpy as np
from rummysim.variants import VARIANTS

SHANGHAI = VARIANTS["shanghai"]

PLAYERS = (3, 4, 6, 8)
STRATEGIES = ("buyer", "expert", "greedy", "patient", "random")
SEED = 1


def endings(strategy: str, players: int, games: int) -> tuple[np.ndarray, int, float]:
    """Outcome counts int64[len(OUTCOMES)] over ``games`` games (ten rounds each) of ``players`` seats
    of ``strategy``, played on all cores in chunks of 1,000 games; the blocked rounds with a seat not
    down (ruling 3.12); the seconds it took."""
    from rummysim.engine.codes import OUT_STALEMATE_BLOCKED, OUTCOMES
    from rummysim.run import RunSpec, play_chunk
    from rummysim.strategy import params_matrix, seat_strategies
    from rummysim.variants.shanghai.schema import RW_OUTCOME, SS_DOWN_TURN

    spec = RunSpec(SHANGHAI, players, seat_strategies([strategy], players, SHANGHAI), seed=SEED,
                   games=games)
    rules, params = spec.rules.to_array(players), params_matrix(spec.strategies)
    play_chunk(spec, np.arange(2, dtype=np.int64), rules, params)  # compile or load outside the timing
    counts = np.zeros(len(OUTCOMES), dtype=np.int64)
    dead = 0
    start = time.perf_counter()
    for first in range(0, games, 1000):
        chunk = play_chunk(spec, np.arange(first, min(first + 1000, games), dtype=np.int64), rules, params)
        outcome = chunk.hand_rows[:, RW_OUTCOME]
        counts += np.bincount(outcome, minlength=len(OUTCOMES))
        not_down = (chunk.seat_rows[:, :, SS_DOWN_TURN] == 0).any(axis=1)
        dead += int(((outcome == OUT_STALEMATE_BLOCKED) & not_down).sum())
    return counts, dead, time.perf_counter() - start


def section_endings(quick: bool) -> list[str]:
    """The outcome table: 10,000 games (100,000 rounds) per row, ``random`` 1,000 (a fifth of its rounds
    run 2,000 turns); ``quick`` a tenth of each."""
    from rummysim.base.rules import RULES_VERSION
    from rummysim.engine.codes import OUTCOMES

    lines = [f"Rounds by outcome per strategy and players, every seat the same strategy, default rules, seed "
             f"{SEED}, rules version {RULES_VERSION}: `python benchmarks/run.py --only endings` "
             f"({'a tenth: --quick' if quick else '10,000 games, 100,000 rounds, a row; `random` 1,000 games'}).",
             "",
             "A round reaches the turn cap only while the table can still change (rulings 3.7 and 3.12; "
             "docs/rules.md I.8). Up to rules version 4 the shipped bots could keep it changing for ever: a "
             "seat that could never lay its contract held a card that a seat down could lay off (it keeps "
             "cards that fit the table, so as not to feed the others), and nobody could go out (version 4: "
             "`expert`, 8 players, game 1294, round 8). From version 5 such a seat throws those cards first once "
             "the round stalls. `random` still reaches the cap in about a fifth of its rounds: a hand thrown at "
             "random never builds the runs of rounds 8 and 10 while the cards for them are still off the table, "
             "and no ruling may end a round that a better player could still win.", "",
             "| strategy | players | rounds | " + " | ".join(f"`{o}`" for o in OUTCOMES)
             + " | of them a seat not down (3.12) | rounds/s, all cores |",
             "|---|---|---|" + "---|" * (len(OUTCOMES) + 2)]
    for strategy in STRATEGIES:
        games = (1_000 if strategy == "random" else 10_000) // (10 if quick else 1)
        for players in PLAYERS:
            counts, dead, seconds = endings(strategy, players, games)
            lines.append(f"| {strategy} | {players} | {10 * games:,} | " + " | ".join(f"{int(c):,}" for c in counts)
                         + f" | {dead:,} | {counts.sum() / seconds:,.0f} |")
            print(lines[-1], flush=True)
    return lines
