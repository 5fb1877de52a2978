"""What every variant's moves-as-words module (``rummysim/variants/<name>/notation.py``) does the same
way: a typed move read into its verb and words, checked against the step the game is at, turned into
an action by the variant's parser for that verb and refused in one line when it is not legal now; the
card and table-meld words every verb shares.

A variant's notation gives ``parse_move`` its tables (the step each verb belongs to, what each step
asks, aliases), one parser per verb (``parsers.<verb>(state, args) -> action``) and its legality test
and reasons; this module knows no variant.
"""

from __future__ import annotations

import numpy as np

from ..cards import RANKS, SUITS, card_id, card_name, cards_of
from .errors import MoveError

#: words a typed move may hold that name nothing: ``lay off SQ on 2``, ``draw from stock``
FILLER = frozenset(("off", "on", "from", "into", "the", "to", "for"))


def seat_name(seat: int) -> str:
    """A seat as a line names it when nobody in particular reads it: ``"seat 2"``."""
    return f"seat {seat}"


def names(cards) -> str:
    """Card names split by spaces: ``H3 H4 H5``."""
    return " ".join(card_name(int(c)) for c in cards)


def parse_move(state, text: str, phase: int, *, steps: dict, verb_step: dict, aliases: dict, parsers,
               is_legal, why_not) -> int:
    """The action of the move ``text`` typed by the seat to act at step ``phase``. ``verb_step``: the
    step of each verb; ``steps``: what each step asks (for the errors); ``parsers``: a namespace with
    one ``verb(state, args) -> action`` per verb; ``is_legal(state, action)``; ``why_not(state, verb,
    action)``: the reason a well-formed move is not legal now. Raises ``MoveError`` (one line)."""
    words = text.replace(",", " ").replace("/", " / ").replace("|", " / ").split()
    if not words:
        raise MoveError("no move given")
    verb = aliases.get(words[0].lower(), words[0].lower())
    args = [w for w in words[1:] if w.lower() not in FILLER]
    if verb not in verb_step:
        raise MoveError(f"unknown move {words[0]!r}: now {steps[phase]}")
    if verb_step[verb] != phase:
        raise MoveError(f"no {verb} now: {steps[phase]}")
    action = getattr(parsers, verb)(state, args)
    if not is_legal(state, action):
        raise MoveError(why_not(state, verb, action))
    return action


def card_word(word: str, allow_joker: bool = False) -> int:
    """The card a word names (``D9``, ``10H``, ``JK`` where jokers are played), else ``MoveError``."""
    try:
        return card_id(word, allow_joker=allow_joker)
    except ValueError as e:
        raise MoveError(str(e)) from None


def check_held(cards: list[int], held_count) -> None:
    """Raise ``MoveError`` naming the cards of ``cards`` (repeats count) that the hand does not hold as
    often; ``held_count(card)`` is how many copies it holds."""
    need = {c: cards.count(c) for c in cards}
    missing = [c for c, n in need.items() if held_count(c) < n]
    if missing:
        raise MoveError(f"not in your hand: {names(missing)}")


def upcard_named(args: list[str], up: int, allow_joker: bool = False) -> None:
    """The words after ``take`` (``buy``) may name the upcard ``up`` (-1: none), by its card or as the
    pile; any other card is refused."""
    if args and args[0].lower() not in ("pile", "discard", "upcard"):
        card = card_word(args[0], allow_joker)
        if card != up:
            raise MoveError(f"{card_name(card)} is not the upcard" + (f" ({card_name(up)})" if up >= 0 else ""))


def discard_card(args: list[str], allow_joker: bool, held) -> int:
    """The card of ``discard D9``, checked to be in hand (``held([card])`` raises ``MoveError`` if not)."""
    if len(args) != 1:
        raise MoveError("discard takes one card, e.g. discard D9")
    card = card_word(args[0], allow_joker)
    held([card])
    return card


def meld_number(word: str, n_table: int) -> int:
    """The table meld a word numbers (from 1, as people count) as an index from 0, else ``MoveError``."""
    if not word.isdigit() or not 1 <= int(word) <= n_table:
        raise MoveError(f"no table meld {word}: " + (f"they are numbered 1 to {n_table}" if n_table
                                                    else "there is none on the table"))
    return int(word) - 1


def legal_move_names(state, legal_moves, max_legal: int, move_name) -> list[tuple[int, str]]:
    """``(action, name)`` of each legal move now, in the rules layer's order."""
    legal = np.empty(max_legal, dtype=np.int64)
    n = legal_moves(state, legal)
    return [(int(a), move_name(state, int(a))) for a in legal[:n]]


def hand_by_suit(hand: int) -> str:
    """A hand's card mask by suit, ``C: A 4 5  H: 3 4 5  S: Q K`` (Basic Rummy's, Gin Rummy's view)."""
    parts = []
    for s, suit in enumerate(SUITS):
        ranks = [RANKS[c % 16] for c in cards_of(hand) if c // 16 == s]
        if ranks:
            parts.append(f"{suit}: {' '.join(ranks)}")
    return "  ".join(parts) or "(empty)"
