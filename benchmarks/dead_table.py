"""What judging a Shanghai table costs (rulings 3.7 and 3.12, ``moves.table_blocked``), per check and per round.

    python benchmarks/dead_table.py greedy 4 30      # strategy, players, games

Plays ``games`` games (seed 1, default rules, every seat the strategy) and keeps the state after every
turn that moved the table while a seat is not down, where ``moves._end_turn`` asks ``table_blocked``
(ruling 3.12's ``table_dead``); then times ``table_blocked`` on those states in a compiled loop, less
the loop that only copies the states in. Prints the checks a round and the microseconds a check and a
round: the figure to set against the rounds/s of ``run.py``'s sections.
"""

from __future__ import annotations

import sys
import time

import numpy as np
from numba import njit

from rummysim.variants.shanghai.moves import table_blocked
from rummysim.variants import VARIANTS

SHANGHAI = VARIANTS["shanghai"]


@njit
def _judge_all(tables, ints, hands, state, reps, judge):
    """Load each kept state into ``state`` and (with ``judge``) ask ``table_blocked``; ``reps`` times."""
    hits = 0
    for _ in range(reps):
        for i in range(tables.shape[0]):
            state.table[:] = tables[i]
            state.ints[:] = ints[i]
            state.hands[:] = hands[i]
            hits += table_blocked(state) if judge else state.ints[0] & 1
    return hits


def kept_states(strategy: str, players: int, games: int):
    """The states after every table-moving turn with a seat not down: tables, ints, hands; and rounds."""
    from rummysim.run import RunSpec
    from rummysim.strategy import params_matrix, seat_strategies
    from rummysim.variants.shanghai import kernel as K
    from rummysim.variants.shanghai import moves as M
    from rummysim.variants.shanghai import policy as P
    from rummysim.variants.shanghai.state import I_SEAT, SI_N_TABLE, SI_TURN

    spec = RunSpec(SHANGHAI, players, seat_strategies([strategy], players, SHANGHAI), seed=1, games=games)
    rules, params = spec.rules.to_array(players), params_matrix(spec.strategies)
    state = M.new_state(players, rules, np.zeros((0, M.EV_WIDTH), dtype=np.int16))
    scratch = P.new_scratch(players)
    kept: tuple[list, list, list] = ([], [], [])
    for g in range(games):
        for r in range(1, 11):
            K.start_round(1, g, r, state, scratch)
            moved = False
            while not M.is_over(state):
                turn, n_table, table = state.ints[SI_TURN], state.ints[SI_N_TABLE], state.table.copy()
                M.apply(state, P.choose(state, params, state.ints[I_SEAT], scratch))
                moved |= state.ints[SI_N_TABLE] != n_table or not (state.table == table).all()
                if state.ints[SI_TURN] != turn:
                    if moved and not M.all_down(state):
                        for keep, a in zip(kept, (state.table, state.ints, state.hands)):
                            keep.append(a.copy())
                    moved = False
    return (*(np.array(k) for k in kept), 10 * games, state)


def main() -> None:
    strategy, players, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    tables, ints, hands, rounds, state = kept_states(strategy, players, games)
    reps = max(1, 200_000 // len(tables))
    seconds = []
    for judge in (True, False):
        _judge_all(tables[:2], ints[:2], hands[:2], state, 1, judge)   # compile outside the timing
        start = time.perf_counter()
        _judge_all(tables, ints, hands, state, reps, judge)
        seconds.append(time.perf_counter() - start)
    per_check = (seconds[0] - seconds[1]) / (reps * len(tables)) * 1e6
    print(f"{strategy}, {players} players: {rounds} rounds, {len(tables) / rounds:.1f} checks a round with a seat "
          f"not down, {per_check:.2f} us a check, {per_check * len(tables) / rounds:.1f} us a round")


if __name__ == "__main__":
    main()
