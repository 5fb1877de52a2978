"""Where a Shanghai round's time goes: cycles per decision point, the bot's choice against the
engine's ``is_legal`` and ``apply``, counted with the CPU's cycle counter around each call of the
same driver loop as ``kernel.finish_round`` (one thread; a Python profiler sees nothing inside
Numba code).

    python benchmarks/shanghai_profile.py --players 4 --strategy greedy --games 200
    python benchmarks/shanghai_profile.py --players 4 --rule jokers=4 --games 50

Prints, per decision point, the calls per round and the microseconds per round of the choice,
``is_legal`` and ``apply`` (cycles scaled by the run's cycles per second, so the columns add up
to the measured time per round). The counter reads add a little to every call.
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from rummysim.rules import rules_from_mapping
from rummysim.strategy import params_matrix, seat_strategies
from rummysim.variants.shanghai import bots as B
from rummysim.variants.shanghai import kernel as K
from rummysim.variants.shanghai import moves as M
from rummysim.variants.shanghai.state import I_PHASE, I_SEAT, PH_PLAY, SI_DOWN_TURN_SEAT

#: rows of the tally: the decision points, the play step split by whether the seat is down
ROWS = ("upcard", "buy", "play, not down (lay the contract?)", "play, down (lay off, swap)", "discard")


@intrinsic
def cycles(typingctx):
    """The CPU's cycle counter (``llvm.readcyclecounter``)."""
    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.readcyclecounter", fnty=ir.FunctionType(ir.IntType(64), []))
        return builder.call(fn, [])
    return types.int64(), codegen


# parallel=True as on kernel.finish_round, so that the loop compiles the same way (no parallel loop)
@njit(parallel=True)
def tally(seed, games, players, rules, params, spent, calls):
    """Play ``games`` games; add cycles to ``spent`` int64[5, 3] (row: ``ROWS``; columns: choice,
    is_legal, apply) and calls to ``calls`` int64[5]."""
    state = M.new_state(players, rules, np.empty((0, M.EV_WIDTH), dtype=np.int16))
    scratch = B.new_scratch(players)
    for g in range(games):
        for r in range(1, 11):
            K.start_round(seed, g, r, state, scratch)
            while not M.is_over(state):
                seat = state.ints[I_SEAT]
                row = state.ints[I_PHASE]
                if row > PH_PLAY or (row == PH_PLAY and state.ints[SI_DOWN_TURN_SEAT + seat] > 0):
                    row += 1
                t0 = cycles()
                move = B.choose(state, params, seat, scratch)
                t1 = cycles()
                legal = M.is_legal(state, move)
                t2 = cycles()
                M.apply(state, move)
                t3 = cycles()
                spent[row, 0] += t1 - t0
                spent[row, 1] += t2 - t1
                spent[row, 2] += t3 - t2
                calls[row] += 1
                if not legal:
                    raise ValueError("a bot chose an illegal move")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--strategy", default="greedy")
    parser.add_argument("--rule", action="append", default=[], help="a rule option, e.g. jokers=4")
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    numba.set_num_threads(1)
    options = dict(r.split("=", 1) for r in args.rule)
    rules = rules_from_mapping(options, variant="shanghai").to_array(args.players)
    params = params_matrix(seat_strategies([args.strategy], args.players, "shanghai"))
    spent = np.zeros((len(ROWS), 3), dtype=np.int64)
    calls = np.zeros(len(ROWS), dtype=np.int64)
    tally(1, 2, args.players, rules, params, spent, calls)  # compile, outside the timing
    spent[:] = 0
    calls[:] = 0
    start = time.perf_counter()
    tally(1, args.games, args.players, rules, params, spent, calls)
    seconds = time.perf_counter() - start
    rounds = 10 * args.games
    us = spent / (spent.sum() / seconds) * 1e6 / rounds  # microseconds per round
    print(f"{args.players} players, {args.strategy}, rules {options or 'default'}: {rounds / seconds:,.0f} rounds/s "
          f"with the counters, {1e6 * seconds / rounds:,.0f} us a round")
    print(f"{'decision':38s} {'calls':>6s} {'choice us':>10s} {'is_legal us':>12s} {'apply us':>9s} {'share':>6s}")
    total = us.sum()
    for i, name in enumerate(ROWS):
        print(f"{name:38s} {calls[i] / rounds:6.1f} {us[i, 0]:10.1f} {us[i, 1]:12.1f} {us[i, 2]:9.1f} "
              f"{us[i].sum() / total:6.1%}")
    print(f"{'all':38s} {calls.sum() / rounds:6.1f} {us[:, 0].sum():10.1f} {us[:, 1].sum():12.1f} "
          f"{us[:, 2].sum():9.1f}")


if __name__ == "__main__":
    main()
