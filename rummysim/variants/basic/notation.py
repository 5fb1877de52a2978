"""Basic Rummy moves as words (``Variant.notation``): naming, parsing with reasons, the seat's view.

Names: ``draw stock``, ``take D9`` (the discard pile's top card), ``meld H3 H4 H5`` (a run low to
high, a set by suit), ``layoff SQ 2`` (table meld 2, counted from 1), ``stop`` (no more melds or
lay-offs this turn), ``discard D9``.
"""

from __future__ import annotations

import numpy as np

from ...cards import card_name, cards_of
from ...base import notation as N
from ...base.errors import MoveError
from ...base.notation import card_word as _card, hand_by_suit, names
from . import bots as B
from ...engine import melds as M
from . import moves as MV
from .state import (
    I_DRAWN, I_MELDS_THIS_TURN, I_N_TABLE, I_PHASE, I_PILE_N, I_PLAYERS, I_SEAT, I_STOCK_N, M_HAND, M_TABLE,
    PH_DISCARD, PH_DRAW, PH_OVER, PH_PLAY, R_ACE_HIGH, R_MAX_MELDS, R_MUST_DISCARD, R_TARGET, State,
)

__all__ = ["State", "describe", "legal_move_names", "move_name", "parse_move", "step_verbs"]

#: what the seat to act is asked at each step, and the moves that answer it
STEPS = {PH_DRAW: "draw: draw stock, or take the upcard",
         PH_PLAY: "meld, lay off, or stop",
         PH_DISCARD: "discard a card",
         PH_OVER: "nothing: the hand is over"}
#: the step each verb belongs to
VERB_STEP = {"draw": PH_DRAW, "take": PH_DRAW, "meld": PH_PLAY, "layoff": PH_PLAY, "stop": PH_PLAY,
             "discard": PH_DISCARD}
ALIASES = {"lay": "layoff", "lay-off": "layoff", "done": "stop", "end": "stop", "pick": "take", "throw": "discard"}


# ------------------------------------------------------------------ cards in order
def run_order(cards: list[int]) -> list[int]:
    """A meld's card ids in the order people write it: a set by suit, a run low to high with a high
    ace (Q-K-A) last."""
    cards = sorted(cards)
    ranks = {c % 16 for c in cards}
    if len(ranks) > 1 and 0 in ranks and 12 in ranks:   # ace above the king
        cards = cards[1:] + cards[:1]
    return cards if len(ranks) > 1 else sorted(cards, key=lambda c: c // 16)


def ext_cards(ext: int) -> list[int]:
    """Card ids of a table meld's stored mask (extended space: bit 13 of a lane is the high ace),
    in its order."""
    return [c - 13 if c % 16 == 13 else c for c in cards_of(ext)]


# ------------------------------------------------------------------ naming
def move_name(state: State, action: int) -> str:
    if action == MV.DRAW_STOCK:
        return "draw stock"
    if action == MV.TAKE_DISCARD:
        return f"take {card_name(upcard(state))}"
    if action == MV.STOP:
        return "stop"
    if 0 <= action < 52:
        return f"discard {card_name(MV.card_of_index(action))}"
    if MV.MELD_BASE <= action < MV.LAYOFF_BASE:
        return "meld " + names(run_order(cards_of(MV.MELD_TABLE[action - MV.MELD_BASE])))
    if MV.LAYOFF_BASE <= action < MV.NUM_ACTIONS:
        i, k = divmod(action - MV.LAYOFF_BASE, MV.MAX_TABLE)
        return f"layoff {card_name(MV.card_of_index(i))} {k + 1}"
    raise ValueError(f"not a Basic Rummy action: {action}")


def legal_move_names(state: State) -> list[tuple[int, str]]:
    return N.legal_move_names(state, MV.legal_moves, MV.MAX_LEGAL, move_name)


def upcard(state: State) -> int:
    """The discard pile's top card, or -1."""
    n = int(state.ints[I_PILE_N])
    return int(state.pile[n - 1]) if n else -1


# ------------------------------------------------------------------ parsing
def step_verbs(state: State) -> tuple[str, ...]:
    """The verbs the step to act now takes (``serve`` tries each with the selected cards)."""
    return tuple(verb for verb, step in VERB_STEP.items() if step == _phase(state))


def parse_move(state: State, text: str) -> int:
    return N.parse_move(state, text, _phase(state), steps=STEPS, verb_step=VERB_STEP, aliases=ALIASES,
                        parsers=_Parse, is_legal=MV.is_legal, why_not=_why_not)


def _phase(state) -> int:
    return int(state.ints[I_PHASE])


def _hand(state) -> int:
    return int(state.masks[M_HAND + int(state.ints[I_SEAT])])


def _held(state, cards: list[int]) -> None:
    hand = _hand(state)
    N.check_held(cards, lambda c: hand >> c & 1)


class _Parse:
    """One parser per verb: the action its words name (legality is checked after)."""

    @staticmethod
    def draw(state, args):
        if args and args[0].lower() not in ("stock", "deck"):
            if args[0].lower() in ("pile", "discard", "upcard"):
                return MV.TAKE_DISCARD
            raise MoveError(f"draw {' '.join(args)}: say draw stock, or take (the upcard)")
        return MV.DRAW_STOCK

    @staticmethod
    def take(state, args):
        N.upcard_named(args, upcard(state))
        return MV.TAKE_DISCARD

    @staticmethod
    def stop(state, args):
        return MV.STOP

    @staticmethod
    def discard(state, args):
        return MV.discard_move(N.discard_card(args, False, lambda cards: _held(state, cards)))

    @staticmethod
    def meld(state, args):
        cards = [_card(w) for w in args]
        if len(cards) < 3:
            raise MoveError("a meld is 3 or more cards, e.g. meld H3 H4 H5")
        if len(set(cards)) != len(cards):
            raise MoveError("a card given twice")
        _held(state, cards)
        mask = sum(1 << c for c in cards)
        ace_high = bool(state.rules[R_ACE_HIGH])
        j = int(MV.meld_index(np.uint64(mask)))
        if j < 0 or not M.is_meld(np.uint64(mask), ace_high):
            high = j >= 0   # in the table of melds, so a run ending in the high ace
            raise MoveError(f"{names(run_order(cards))} is not a meld: "
                            + ("the ace is low (Q-K-A needs --rule ace=high_or_low, docs/rules.md 1.7)" if high
                               else "3-4 cards of one rank, or 3+ in sequence of one suit (docs/rules.md 1.2)"))
        return MV.MELD_BASE + j

    @staticmethod
    def layoff(state, args):
        if len(args) != 2:
            raise MoveError("layoff takes a card and a table meld number, e.g. layoff SQ 2")
        card = _card(args[0])
        _held(state, [card])
        k = N.meld_number(args[1], int(state.ints[I_N_TABLE]))
        if not int(state.t_lay[k]) >> card & 1:
            raise MoveError(f"{card_name(card)} does not fit meld {k + 1} ({names(ext_cards(state.t_mask[k]))}; "
                            f"it takes {names(takes(state, k)) or 'nothing more'})")
        return MV.layoff_move(card, k)


def _why_not(state, verb: str, action: int) -> str:
    """One line: why the parsed ``action`` is not legal now (its words were right)."""
    ints, rules = state.ints, state.rules
    if verb in ("draw", "take"):
        return "the stock is empty" if action == MV.DRAW_STOCK else "the discard pile is empty"
    drawn = int(ints[I_DRAWN])
    if verb == "discard":
        return (f"you took {card_name(drawn)} from the pile this turn: you may not throw it back "
                "(docs/rules.md 3.1)")
    if verb == "meld" and rules[R_MAX_MELDS] and ints[I_MELDS_THIS_TURN] >= rules[R_MAX_MELDS]:
        return f"only {int(rules[R_MAX_MELDS])} meld a turn (rule max_melds_per_turn, docs/rules.md 1.7)"
    if verb == "meld":
        left = _hand(state) & ~int(MV.MELD_TABLE[action - MV.MELD_BASE])
    else:
        left = _hand(state) & ~(1 << MV.card_of_index((action - MV.LAYOFF_BASE) // MV.MAX_TABLE))
    if left == 0 and rules[R_MUST_DISCARD]:
        return "you must keep a card to discard to go out (rule must_discard_to_go_out, docs/rules.md 1.7)"
    if drawn >= 0 and left == 1 << drawn:
        return (f"that would leave only {card_name(drawn)}, taken from the pile this turn, which you may not "
                "throw (docs/rules.md 3.1)")
    return "not legal now"


# ------------------------------------------------------------------ the seat's view
def takes(state, k: int) -> list[int]:
    """The cards that would extend table meld ``k`` and may still be laid off on it: not those on the
    table already, in another meld (one deck, docs/rules.md 1.1)."""
    return cards_of(int(state.t_lay[k]) & ~int(state.masks[M_TABLE]))


def table_lines(state) -> list[str]:
    """One line per table meld: its number (from 1), its cards and what may still be laid off on it."""
    out = []
    for k in range(int(state.ints[I_N_TABLE])):
        fits = names(takes(state, k))
        out.append(f"{k + 1}: {names(ext_cards(state.t_mask[k]))}" + (f" (takes {fits})" if fits else ""))
    return out


def melded_and_partial(state, seat: int) -> tuple[int, int]:
    """Masks of the seat's cards in a meld of its hand, and of the others in a partial meld."""
    hand = np.uint64(int(state.masks[M_HAND + seat]))
    ace_high = bool(state.rules[R_ACE_HIGH])
    melded = int(M.melded_cards(hand, ace_high))
    return melded, int(B.partial_cards(hand, ace_high)) & ~melded


def describe(state: State, seat: int, totals=None, taken=None) -> str:
    ints = state.ints
    players = int(ints[I_PLAYERS])
    hand = int(state.masks[M_HAND + seat])
    up = upcard(state)
    to_act = int(ints[I_SEAT])
    step = STEPS[_phase(state)] if to_act == seat else f"seat {to_act} to play"
    drawn = int(ints[I_DRAWN])
    held = to_act == seat and drawn >= 0 and hand >> drawn & 1   # not once melded or laid off
    keep = f" (took {card_name(drawn)} this turn: may not throw it)" if held else ""
    lines = [f"Basic Rummy, seat {seat}. Now: {step}",
             f"Your hand ({hand.bit_count()}): {hand_by_suit(hand)}{keep}",
             "Table melds: " + ("; ".join(table_lines(state)) or "none"),
             f"Upcard: {card_name(up) if up >= 0 else 'none'} (pile {int(ints[I_PILE_N])}, stock {int(ints[I_STOCK_N])})"]
    for q in range(players):
        if q != seat:
            took = (taken or {}).get(q, [])
            lines.append(f"Seat {q}: {int(state.masks[M_HAND + q]).bit_count()} cards"
                         + (f", took from the pile: {names(took)}" if took else ""))
    if totals is not None:
        scores = ", ".join(f"seat {q} {int(t)}" for q, t in enumerate(totals))
        lines.append(f"Scores: {scores} (target {int(state.rules[R_TARGET])})")
    return "\n".join(lines)
