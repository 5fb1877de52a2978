"""Why a strategy's move, in a few words, from what the seat sees; and which cards of a hand are in
melds or partial melds (for marking them)."""

from __future__ import annotations

import itertools

import numpy as np

from ..cards import JOKER, card_name
from ..variants.basic import bots as BB
from ..variants.basic import melds as BM
from ..variants.basic import moves as BMV
from ..variants.basic.state import M_HAND, R_ACE_HIGH
from ..variants.shanghai import moves as SMV
from ..variants.shanghai.contracts import CONTRACTS
from ..variants.shanghai.state import SI_ROUND


# ------------------------------------------------------------------ Basic Rummy
def basic_marks(state, seat: int) -> tuple[set[int], set[int]]:
    """``(in a meld, in a partial meld only)``: card ids of the seat's hand (docs/rules.md 1.2)."""
    hand = np.uint64(int(state.masks[M_HAND + seat]))
    ace_high = bool(state.rules[R_ACE_HIGH])
    melded = int(BM.melded_cards(hand, ace_high))
    partial = int(BB.partial_cards(hand, ace_high)) & ~melded
    return _ids(melded), _ids(partial)


def _ids(mask: int) -> set[int]:
    return {c for c in range(64) if mask >> c & 1}


def basic_reason(state, seat: int, move: int) -> str:
    if move == BMV.DRAW_STOCK:
        return "the upcard does not help your hand"
    if move == BMV.TAKE_DISCARD:
        return "the upcard makes or builds a meld"
    if move == BMV.STOP:
        return "nothing more worth laying down now"
    if BMV.MELD_BASE <= move < BMV.LAYOFF_BASE:
        return "a meld: those points leave your hand"
    if move >= BMV.LAYOFF_BASE:
        return "it fits a table meld: fewer points in hand"
    card = BMV.card_of_index(move)
    melded, partial = basic_marks(state, seat)
    if card in melded:
        return f"{card_name(card)}: every card left is in a meld; this one breaks the least"
    if card in partial:
        return f"{card_name(card)}: only partial melds are left; this one helps least"
    return f"{card_name(card)}: deadwood, in no meld or partial meld"


# ------------------------------------------------------------------ Shanghai
def shanghai_marks(state, seat: int) -> tuple[set[int], set[int]]:
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


def shanghai_reason(state, seat: int, move: int) -> str:
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
    full, part = shanghai_marks(state, seat)
    name = card_name(move)
    if move in full or move in part:
        return f"{name}: the card your contract needs least"
    return f"{name}: outside every group, {'high' if move % 16 in (0, 9, 10, 11, 12) else 'low'} points"


# ------------------------------------------------------------------ by variant
#: each variant's ``(marks, reason)``, by its name (``Game.variant``)
HINTS = {"basic": (basic_marks, basic_reason), "shanghai": (shanghai_marks, shanghai_reason)}


def marks(game, seat: int) -> tuple[set[int], set[int]]:
    """``(in a meld, in a partial meld only)``: card ids of the seat's hand in ``game`` (a ``Variant.game``)."""
    return HINTS[game.variant][0](game.state, seat)


def reason(game, seat: int, move: int) -> str:
    """Why the strategy of ``seat`` chose ``move`` in ``game``, in a few words."""
    return HINTS[game.variant][1](game.state, seat, move)
