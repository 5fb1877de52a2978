"""Hints for a person playing Shanghai Rummy (``rummysim play``): which cards of a hand are in melds or
partial melds (for marking them), and why a strategy's move, in a few words, from what the seat sees."""

from __future__ import annotations

import itertools

from ...cards import JOKER, card_name
from . import moves as SMV
from .contracts import CONTRACTS
from .state import SI_ROUND

def marks(state, seat: int) -> tuple[set[int], set[int]]:
    """``(in a group, in a partial group)``: a rank held 3+ times or a run of the round's length
    (at least 3) of one suit; a pair, or two of a suit at most two ranks apart."""
    counts = state.hands[seat]
    run_min = max(3, int(CONTRACTS[int(state.ints[SI_ROUND]), 2]))
    full, part = set(), set()
    for r in range(13):
        held = [16 * s + r for s in range(4) if counts[16 * s + r]]
        total = sum(int(counts[c]) for c in held)
        (full if total >= 3 else part if total == 2 else set()).update(held)
    for s in range(4):
        ranks = [r for r in range(13) if counts[16 * s + r]]
        block = []
        for r in ranks + [99]:
            if block and r != block[-1] + 1:
                if len(block) >= run_min:
                    full.update(16 * s + x for x in block)
                block = []
            block.append(r)
        for a, b in itertools.pairwise(ranks):
            if b - a <= 2:
                part.update((16 * s + a, 16 * s + b))
    return full, part - full


def reason(state, seat: int, move: int) -> str:
    if move == SMV.TAKE_UPCARD:
        return "the upcard brings you closer to the contract"
    if move == SMV.LEAVE_UPCARD:
        return "the upcard does not help your contract"
    if move == SMV.BUY:
        return "the upcard is worth a penalty card"
    if move == SMV.PASS:
        return "not worth a penalty card"
    if move == SMV.CONTRACT:
        return "your hand holds the contract: lay it down"
    if move == SMV.STOP:
        return "nothing worth laying off now"
    if SMV.LAYOFF_BASE <= move < SMV.SWAP_BASE:
        return "it fits a table meld: fewer points in hand"
    if move >= SMV.SWAP_BASE:
        return "a joker from the table, for a natural"
    if move == JOKER:
        return "JK: no use left for it"
    full, part = marks(state, seat)
    name = card_name(move)
    if move in full or move in part:
        return f"{name}: the card your contract needs least"
    return f"{name}: outside every group, {'high' if move % 16 in (0, 9, 10, 11, 12) else 'low'} points"
