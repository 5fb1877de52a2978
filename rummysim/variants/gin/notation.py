"""Gin Rummy moves as words (``Variant.notation``): naming, parsing with reasons, the seat's view.

Names: ``take D9`` (the upcard), ``pass``, ``draw stock``, ``discard D9``, ``knock``, ``big gin``,
``meld H3 H4 H5`` (a run low to high, a set by suit), ``layoff D9`` (on the knocker's melds it fits).
"""

from __future__ import annotations

import numpy as np

from ...base import notation as N
from ...base.errors import MoveError
from ...base.notation import card_word as _card, hand_by_suit, names
from ...cards import card_name, cards_of
from ...engine import melds as M
from . import moves as MV
from .state import (
    I_BEST_DEADWOOD, I_KNOCK_CARD, I_N_KNOCKER_MELDS, I_N_TABLE, I_PASSES, I_PHASE, I_PILE, I_PILE_N, I_SEAT,
    I_STOCK_N, I_TAKEN, M_HAND, M_LAYABLE, M_T_MASK, PH_DEFENDER_MELD, PH_DISCARD, PH_DRAW, PH_FIRST_UPCARD,
    PH_KNOCK_DISCARD, PH_KNOCK_MELD, PH_LAYOFF, PH_OVER, PH_WALL, R_BIG_GIN_BONUS, R_GAME_TO, State,
)

__all__ = ["State", "describe", "legal_move_names", "move_name", "parse_move", "step_verbs"]

#: what the seat to act is asked at each step
STEPS = {PH_FIRST_UPCARD: "the first upcard: take it, or pass",
         PH_DRAW: "draw: take the upcard, or draw stock",
         PH_DISCARD: "discard a card, or knock",
         PH_KNOCK_DISCARD: "you knocked: discard a card face down",
         PH_KNOCK_MELD: "you knocked: meld, or pass when done",
         PH_LAYOFF: "lay off on the knocker's melds, or pass",
         PH_DEFENDER_MELD: "meld, or pass to score the hand",
         PH_WALL: "two cards left in the stock: knock with the upcard, or pass (no score)",
         PH_OVER: "nothing: the hand is over"}
#: the verbs each step takes
VERBS = {PH_FIRST_UPCARD: ("take", "pass", "draw"), PH_DRAW: ("take", "draw"),
         PH_DISCARD: ("discard", "knock", "big"), PH_KNOCK_DISCARD: ("discard",),
         PH_KNOCK_MELD: ("meld", "pass"), PH_LAYOFF: ("layoff", "pass"), PH_DEFENDER_MELD: ("meld", "pass"),
         PH_WALL: ("knock", "pass"), PH_OVER: ()}
#: the step named in an error when a verb comes at another
HOME = {"take": PH_DRAW, "draw": PH_DRAW, "pass": PH_FIRST_UPCARD, "discard": PH_DISCARD, "knock": PH_DISCARD,
        "big": PH_DISCARD, "meld": PH_DEFENDER_MELD, "layoff": PH_LAYOFF}
ALIASES = {"lay": "layoff", "lay-off": "layoff", "done": "pass", "stop": "pass", "pick": "take", "throw": "discard",
           "biggin": "big"}


# ------------------------------------------------------------------ naming
def meld_order(cards: list[int]) -> list[int]:
    """A meld's card ids as people write them: a set by suit, a run low to high."""
    cards = sorted(cards)
    return cards if len({c % 16 for c in cards}) > 1 else sorted(cards, key=lambda c: c // 16)


def move_name(state: State, action: int) -> str:
    if action == MV.DRAW_UPCARD:
        return f"take {card_name(upcard(state))}"
    if action == MV.DRAW_STOCK:
        return "draw stock"
    if action == MV.PASS:
        return "pass"
    if action == MV.KNOCK:
        return "knock"
    if action == MV.BIG_GIN:
        return "big gin"
    if 0 <= action < 52:
        verb = "layoff" if int(state.ints[I_PHASE]) == PH_LAYOFF else "discard"
        return f"{verb} {card_name(MV.card_of_index(action))}"
    if MV.MELD_BASE <= action < MV.BIG_GIN:
        return "meld " + names(meld_order(cards_of(MV.MELD_TABLE[action - MV.MELD_BASE])))
    raise ValueError(f"not a Gin Rummy action: {action}")


def legal_move_names(state: State) -> list[tuple[int, str]]:
    return N.legal_move_names(state, MV.legal_moves, MV.MAX_LEGAL, move_name)


def upcard(state: State) -> int:
    """The discard pile's top card, or -1."""
    n = int(state.ints[I_PILE_N])
    return int(state.ints[I_PILE + n - 1]) if n else -1


# ------------------------------------------------------------------ parsing
def step_verbs(state: State) -> tuple[str, ...]:
    """The verbs the step to act now takes (``serve`` tries each with the selected cards)."""
    return VERBS[int(state.ints[I_PHASE])]


def parse_move(state: State, text: str) -> int:
    phase = int(state.ints[I_PHASE])
    verb_step = {verb: phase if verb in VERBS[phase] else home for verb, home in HOME.items()}
    return N.parse_move(state, text, phase, steps=STEPS, verb_step=verb_step, aliases=ALIASES, parsers=_Parse,
                        is_legal=MV.is_legal, why_not=_why_not)


def _hand(state) -> int:
    return int(state.masks[M_HAND + int(state.ints[I_SEAT])])


def _held(state, cards: list[int]) -> None:
    hand = _hand(state)
    N.check_held(cards, lambda c: hand >> c & 1)


def _one_card(state, args, verb) -> int:
    if len(args) != 1:
        raise MoveError(f"{verb} takes one card, e.g. {verb} D9")
    card = _card(args[0])
    _held(state, [card])
    return MV.card_index(card)


class _Parse:
    """One parser per verb: the action its words name (legality is checked after)."""

    @staticmethod
    def take(state, args):
        N.upcard_named(args, upcard(state))
        return MV.DRAW_UPCARD

    @staticmethod
    def draw(state, args):
        if args and args[0].lower() in ("pile", "discard", "upcard"):
            return MV.DRAW_UPCARD
        if args and args[0].lower() not in ("stock", "deck"):
            raise MoveError(f"draw {' '.join(args)}: say draw stock, or take (the upcard)")
        return MV.DRAW_STOCK

    @staticmethod
    def pass_(state, args):
        return MV.PASS

    @staticmethod
    def knock(state, args):
        return MV.KNOCK

    @staticmethod
    def big(state, args):
        if args and args[0].lower() != "gin":
            raise MoveError("say big gin")
        return MV.BIG_GIN

    @staticmethod
    def discard(state, args):
        return _one_card(state, args, "discard")

    @staticmethod
    def layoff(state, args):
        return _one_card(state, args, "layoff")

    @staticmethod
    def meld(state, args):
        cards = [_card(w) for w in args]
        if not 3 <= len(cards) <= 5 or len(set(cards)) != len(cards):
            raise MoveError("a meld is 3 to 5 different cards, e.g. meld H3 H4 H5 (a longer run is laid as two)")
        _held(state, cards)
        j = int(MV.meld_index(np.uint64(sum(1 << c for c in cards))))
        if j < 0:
            raise MoveError(f"{names(meld_order(cards))} is not a meld: 3-4 cards of one rank, or 3-5 in sequence "
                            "of one suit, the ace low (docs/rules.md 4.2)")
        return MV.MELD_BASE + j


setattr(_Parse, "pass", _Parse.pass_)


def _why_not(state, verb: str, action: int) -> str:
    """One line: why the parsed ``action`` is not legal now (its words were right)."""
    ints = state.ints
    phase = int(ints[I_PHASE])
    knock_card = int(ints[I_KNOCK_CARD])
    taken = int(ints[I_TAKEN])
    if verb == "draw" and phase == PH_FIRST_UPCARD:
        return "the first upcard is offered first: take it or pass (docs/rules.md 4.3)"
    if verb in ("take", "pass") and phase == PH_FIRST_UPCARD:
        return "both passed the first upcard: draw stock (docs/rules.md 4.3)"
    if verb in ("discard", "layoff") and taken >= 0 and MV.card_of_index(action) == taken:
        return (f"you took {card_name(taken)} from the pile this turn: you may not throw it back "
                "(docs/rules.md 3.14)")
    if verb == "discard":
        return f"that discard would leave more than {knock_card} of deadwood after your knock (docs/rules.md 4.5)"
    if verb == "knock":
        return (f"your deadwood after the best discard would be {int(ints[I_BEST_DEADWOOD])}, above the knock card "
                f"{knock_card} (docs/rules.md 4.5)")
    if verb == "big":
        return ("big gin needs all eleven cards melded" if state.rules[R_BIG_GIN_BONUS]
                else "big gin is not played (rule big_gin_bonus, docs/rules.md 4.9)")
    if verb == "layoff":
        return "it extends none of the knocker's melds (docs/rules.md 4.6)"
    if verb == "meld":
        return f"that meld would leave more than {knock_card} of deadwood (docs/rules.md 4.5)"
    if verb == "pass":
        return (f"your unlaid cards are worth {M.mask_value(np.uint64(_hand(state)), state.card_value)}, more than "
                f"the knock card {knock_card}: lay your melds (docs/rules.md 4.5)")
    return "not legal now"


# ------------------------------------------------------------------ the seat's view
def meld_cards(state, k: int) -> list[int]:
    """The cards of table meld ``k``, in order."""
    return meld_order(cards_of(int(state.masks[M_T_MASK + k])))


def table_lines(state) -> list[str]:
    """One line per meld laid after a knock: its number (from 1), its cards, whose it is."""
    out = []
    n_knocker = int(state.ints[I_N_KNOCKER_MELDS])
    for k in range(int(state.ints[I_N_TABLE])):
        owner = "knocker" if k < n_knocker else "defender"
        out.append(f"{k + 1}: {names(meld_cards(state, k))} ({owner})")
    return out


def describe(state: State, seat: int, totals=None, taken=None) -> str:
    ints = state.ints
    hand = int(state.masks[M_HAND + seat])
    up = upcard(state)
    to_act = int(ints[I_SEAT])
    phase = int(ints[I_PHASE])
    step = STEPS[phase] if to_act == seat else f"seat {to_act} to play"
    mask = np.uint64(hand)
    dw = int(MV.deadwood(state, mask)) if hand else 0
    lines = [f"Gin Rummy, seat {seat}. Now: {step}",
             f"Your hand ({hand.bit_count()}): {hand_by_suit(hand)} (deadwood {dw}; knock card "
             f"{int(ints[I_KNOCK_CARD])})",
             f"Upcard: {card_name(up) if up >= 0 else 'none'} (pile {int(ints[I_PILE_N])}, stock {int(ints[I_STOCK_N])})"]
    if phase == PH_FIRST_UPCARD and int(ints[I_PASSES]):
        lines.append(f"First upcard passed {int(ints[I_PASSES])} time(s)")
    if int(ints[I_N_TABLE]):
        lines.append("Table melds: " + "; ".join(table_lines(state)))
    if phase == PH_LAYOFF and to_act == seat:
        fits = int(state.masks[M_LAYABLE]) & hand
        lines.append(f"You may lay off: {names(cards_of(fits)) or 'nothing'}")
    other = 1 - seat
    took = (taken or {}).get(other, [])
    lines.append(f"Seat {other}: {int(state.masks[M_HAND + other]).bit_count()} cards"
                 + (f", took from the pile: {names(took)}" if took else ""))
    if totals is not None:
        scores = ", ".join(f"seat {q} {int(t)}" for q, t in enumerate(totals))
        lines.append(f"Scores: {scores} (game to {int(state.rules[R_GAME_TO])})")
    return "\n".join(lines)
