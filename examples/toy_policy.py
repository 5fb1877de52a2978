"""A new Basic Rummy bot in ten lines, played against the shipped ``greedy`` through the rules layer.

The bot (``toy_policy``) sees what its seat may see and picks one of ``moves.legal_moves``: draw
from the stock, lay down or lay off whatever it can, and throw its highest card. The loop (``play``) is
what every driver does: ask the seat to act for a move, check it with ``moves.is_legal``, apply it
with ``moves.apply``. Run it:

    python examples/toy_policy.py            # 2,000 hands, the toy bot in seat 0 against greedy
"""

import numpy as np
from numba import njit

from rummysim.strategy import params_matrix, seat_strategies
from rummysim.engine import melds
from rummysim.variants.basic import kernel, moves, policy
from rummysim.variants.basic.rules import BasicRules
from rummysim.variants.basic.state import I_SEAT
from rummysim.variants import VARIANTS

BASIC = VARIANTS["basic"]


@njit
def toy_policy(state, legal):
    """The first listed move that neither discards nor takes the pile (the stock; a meld, else a lay-off,
    else stop: the order ``legal_moves`` lists them in), else the discard of the highest rank."""
    best = -1
    for move in legal[:moves.legal_moves(state, legal)]:
        if move >= moves.DRAW_STOCK and move != moves.TAKE_DISCARD:
            return move
        if move < 52 and (best < 0 or move % 13 > best % 13):   # discard card index 13 * suit + rank
            best = move
    return best


@njit
def play(seed, hands, rules, params):
    """``hands`` independent 2-player hands, the toy bot in seat 0; returns how many each seat won."""
    state = kernel.new_state(2, rules, melds.CARD_VALUE, np.empty((0, moves.EV_WIDTH), dtype=np.int16),
                             np.zeros(1, dtype=np.int64))
    scratch = policy.new_scratch(2)
    legal = np.empty(moves.MAX_LEGAL, dtype=np.int64)
    wins = np.zeros(2, dtype=np.int64)
    for hand in range(hands):
        kernel.start_hand(state, seed, hand, 0, scratch[5])
        while not moves.is_over(state):
            seat = state.ints[I_SEAT]
            move = moves.forced_move(state)
            if move < 0:
                move = toy_policy(state, legal) if seat == 0 else policy.choose(state, params, seat, scratch)
            if not moves.is_legal(state, move):
                raise ValueError("an illegal move")
            moves.apply(state, move)
        result = np.zeros(2, dtype=np.int64)
        moves.scores(state, result)
        for p in range(2):
            wins[p] += result[p] > 0
    return wins


def main(hands: int = 2000, seed: int = 1) -> np.ndarray:
    """Play and print the toy bot's share of the hands won against greedy."""
    params = params_matrix(seat_strategies(["greedy"], 2, BASIC))
    wins = play(seed, hands, BasicRules().to_array(2), params)
    print(f"toy bot won {wins[0]:,} of {hands:,} hands, greedy {wins[1]:,} (the rest: stalemates)")
    return wins


if __name__ == "__main__":
    main()
