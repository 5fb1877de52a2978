"""Hints for a person playing Basic Rummy (``rummysim play``): which cards of a hand are in melds or
partial melds (for marking them), and why a strategy's move, in a few words, from what the seat sees."""

from __future__ import annotations

import numpy as np

from ...cards import card_name
from . import bots as BB
from ...engine import melds as BM
from . import moves as BMV
from .state import M_HAND, R_ACE_HIGH

def marks(state, seat: int) -> tuple[set[int], set[int]]:
    """``(in a meld, in a partial meld only)``: card ids of the seat's hand (docs/rules.md 1.2)."""
    hand = np.uint64(int(state.masks[M_HAND + seat]))
    ace_high = bool(state.rules[R_ACE_HIGH])
    melded = int(BM.melded_cards(hand, ace_high))
    partial = int(BB.partial_cards(hand, ace_high)) & ~melded
    return _ids(melded), _ids(partial)


def _ids(mask: int) -> set[int]:
    return {c for c in range(64) if mask >> c & 1}


def reason(state, seat: int, move: int) -> str:
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
    melded, partial = marks(state, seat)
    if card in melded:
        return f"{card_name(card)}: every card left is in a meld; this one breaks the least"
    if card in partial:
        return f"{card_name(card)}: only partial melds are left; this one helps least"
    return f"{card_name(card)}: deadwood, in no meld or partial meld"
