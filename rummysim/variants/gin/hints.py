"""Hints for a person playing Gin Rummy (``rummysim play``): which cards of a hand are in melds or partial
melds (for marking them), and why a strategy's move, in a few words, from what the seat sees."""

from __future__ import annotations

import numpy as np

from ...cards import card_name, cards_of
from ...engine import melds as M
from . import moves as MV
from .state import I_BEST_DEADWOOD, I_PHASE, M_HAND, PH_FIRST_UPCARD, PH_LAYOFF, PH_WALL


def _partial(hand: int) -> int:
    """Cards of ``hand`` in a pair or a near run (same suit, within two ranks) with another of it."""
    out = 0
    for c in cards_of(hand):
        rank, suit_lane = c % 16, hand >> (c & 48) & 0xFFFF
        same_rank = any(hand >> (16 * s + rank) & 1 for s in range(4) if 16 * s + rank != c)
        near = any(0 <= rank + d <= 12 and suit_lane >> (rank + d) & 1 for d in (-2, -1, 1, 2))
        if same_rank or near:
            out |= 1 << c
    return out


def marks(state, seat: int) -> tuple[set[int], set[int]]:
    """``(in a meld, in a partial meld only)``: card ids of the seat's hand (docs/rules.md 4.2)."""
    hand = int(state.masks[M_HAND + seat])
    melded = int(M.melded_cards(np.uint64(hand), False))
    return set(cards_of(melded)), set(cards_of(_partial(hand) & ~melded))


def reason(state, seat: int, move: int) -> str:
    if move == MV.DRAW_UPCARD:
        return "the upcard goes into a meld"
    if move == MV.DRAW_STOCK:
        return "the upcard does not help your hand"
    if move == MV.PASS:
        phase = int(state.ints[I_PHASE])
        if phase == PH_FIRST_UPCARD:
            return "the upcard does not go into a meld"
        if phase == PH_WALL:
            return "the upcard does not bring you within the knock card"
        return "nothing more worth laying"
    if move == MV.KNOCK:
        return f"your deadwood can be {int(state.ints[I_BEST_DEADWOOD])}: within the knock card"
    if move == MV.BIG_GIN:
        return "all eleven cards are melded"
    if MV.MELD_BASE <= move < MV.BIG_GIN:
        return "a meld of your best arrangement"
    card = MV.card_of_index(move)
    if int(state.ints[I_PHASE]) == PH_LAYOFF:
        return f"{card_name(card)} fits a knocker's meld: less deadwood"
    melded, partial = marks(state, seat)
    if card in melded:
        return f"{card_name(card)}: every card is in a meld; this one breaks the least"
    if card in partial:
        return f"{card_name(card)}: only partial melds are left; this one helps least"
    return f"{card_name(card)}: deadwood, in no meld or partial meld"
