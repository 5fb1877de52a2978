"""Hints for a person playing Shanghai Rummy (``rummysim play``): which cards of a hand are in melds or
partial melds (for marking them), and why a strategy's move, in a few words, from what the seat sees."""

from __future__ import annotations

import itertools

from ...cards import JOKER, card_name
from . import moves as SMV
from .contracts import CONTRACTS
from .notation import fitting
from .state import SI_DOWN_TURN_SEAT, SI_N_TABLE, SI_ROUND

def marks(state, seat: int) -> tuple[set[int], set[int]]:
    """``(marked *, marked +)`` of ``seat``'s hand. Before it is down, only melds of this round's contract
    (docs/rules.md 2.2): with sets in it, a rank held 3+ times (``+``: a pair); with runs, a run of the
    contract's length of one suit (``+``: two of a suit at most two ranks apart). Once down it lays no
    new meld (2.5): ``*`` marks the cards that fit a table meld, and nothing is ``+``."""
    counts = state.hands[seat]
    if state.ints[SI_DOWN_TURN_SEAT + seat]:
        fits = {c for k in range(int(state.ints[SI_N_TABLE])) for c in fitting(state, k)}
        return {c for c in fits if counts[c]}, set()
    n_sets, n_runs, run_len = (int(x) for x in CONTRACTS[int(state.ints[SI_ROUND])])
    full, part = set(), set()
    if n_sets:
        _mark_sets(counts, full, part)
    if n_runs:
        _mark_runs(counts, max(3, run_len), full, part)
    return full, part - full


def _mark_sets(counts, full: set[int], part: set[int]) -> None:
    """A rank held 3+ times into ``full``, a pair into ``part``."""
    for r in range(13):
        held = [16 * s + r for s in range(4) if counts[16 * s + r]]
        total = sum(int(counts[c]) for c in held)
        (full if total >= 3 else part if total == 2 else set()).update(held)


def _mark_runs(counts, run_min: int, full: set[int], part: set[int]) -> None:
    """Runs of ``run_min`` or more of one suit into ``full``, two of a suit at most two ranks apart into
    ``part``."""
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
