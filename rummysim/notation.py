"""Moves as words, one notation for every reader and writer of moves: ``rummysim play`` (people) and
``rummysim.env`` (agents, language models).

``move_name(state, action)`` names a legal action of the state's rules layer (``"draw stock"``,
``"take D9"``, ``"meld H3 H4 H5"``, ``"layoff SQ 2"``, ``"discard D9"``; Shanghai adds ``"buy D9"``,
``"pass"``, ``"contract S7 H7 D7 / C4 C5 C6 C7"``, ``"swap H7 2 JK 3"``); ``parse_move(state,
text)`` is its inverse for the seat to act, forgiving in what it reads (``take``, ``draw``, ``lay off
SQ on 2``, ``DT`` for ``D10``) and raising ``MoveError`` with a one-line reason when the text is not
a legal move now (not this step, a card not held, not a meld, the rule that forbids it);
``describe(state, seat)`` is what that seat may see, as short text. Table melds are numbered from
1, in the order laid, in all three.

Each variant's words live beside its rules layer (``rummysim/variants/<name>/notation.py``); the
state's type says which variant it is (the ``Variant`` registry's ``notation`` module).
"""

from __future__ import annotations

from .variants import NAMES, variant_named


class MoveError(ValueError):
    """Text that is not a legal move now; the message is one line saying why."""


def _part(state):
    """The notation module of the variant whose rules layer ``state`` belongs to."""
    for name in NAMES:
        part = variant_named(name).notation
        if isinstance(state, part.State):
            return part
    raise TypeError(f"not a rummysim State: {type(state).__name__}")


def move_name(state, action: int) -> str:
    """The words of ``action`` (a legal action of the seat to act in ``state``)."""
    return _part(state).move_name(state, int(action))


def parse_move(state, text: str) -> int:
    """The action ``text`` names, legal now for the seat to act; ``MoveError`` (one line) if none.
    Shanghai: a ``contract`` is written into the state's proposal buffer, which ``CONTRACT`` lays."""
    return _part(state).parse_move(state, text)


def legal_move_names(state) -> list[tuple[int, str]]:
    """Every legal action at the state's decision with its name, in ``legal_moves`` order."""
    return _part(state).legal_move_names(state)


def describe(state, seat: int, totals=None, taken=None) -> str:
    """What ``seat`` sees, as a few lines: hand by suit, table melds numbered (with what fits them),
    upcard, the others' card counts, the step and the scores. ``totals``: the game's scores so far
    (one per seat) when the state is one hand of a game; ``taken``: per seat, the card ids it
    is known to hold, taken from the pile and not shown since (the game's own record, ``Game.taken``:
    the state cannot tell a card taken, thrown, reshuffled and drawn again unseen); none if not given."""
    return _part(state).describe(state, seat, totals, taken)
