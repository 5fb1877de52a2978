"""Card ids, the bitmask layout and the familiar notation.

Layout: a hand is one ``uint64`` made of four
16-bit lanes, one per suit in the order clubs, diamonds, hearts, spades.
Within a lane bit ``r`` is rank ``r``: 0 is the ace, 1..9 are 2..10, 10/11/12
are J/Q/K. Bit 13 of a lane is reserved for "the ace above the king" when
aces are high (runs then stay shifts), bits 14-15 are always clear.

A card id is its bit index: ``card = 16 * suit + rank``.

Notation: suit letter then rank, e.g. ``H8``, ``SK``, ``D10`` (or ``DT``),
``HA`` (or ``H1``). Formatting writes aces as ``A`` and tens as ``10``.
Shanghai adds the joker, ``JK``, whose id ``JOKER`` (63, an unused bit of the
spades lane) only appears in card lists, never in a hand's mask.
"""

from __future__ import annotations

import numpy as np

SUITS = "CDHS"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_RANK_ALIASES = {name: i for i, name in enumerate(RANKS)}
_RANK_ALIASES.update({"1": 0, "T": 9})

LANE_BITS = 16
RANKS_PER_SUIT = 13
#: The 52 card ids of one deck, suit by suit, ace to king.
DECK = np.array([LANE_BITS * s + r for s in range(4) for r in range(RANKS_PER_SUIT)], dtype=np.int64)
#: Card id of a joker in card lists (Shanghai); never a bit of a hand mask.
JOKER = 63
#: Mask of all 52 cards.
FULL_DECK_MASK = np.uint64(sum(1 << int(c) for c in DECK))


def card_id(text: str, allow_joker: bool = False) -> int:
    """Parse one card such as ``"H8"``, ``"SK"``, ``"D10"``, ``"DT"``, ``"HA"``, ``"H1"``
    (and ``"JK"``, a joker, when ``allow_joker``).

    Raises ``ValueError`` naming the card when it is not one.
    """
    t = text.strip().upper()
    if t == "JK":
        if allow_joker:
            return JOKER
        raise ValueError(f"not a card here: {text!r} (a joker: only Shanghai Rummy has jokers)")
    if len(t) < 2 or t[0] not in SUITS or t[1:] not in _RANK_ALIASES:
        raise ValueError(
            f"not a card: {text!r} (write suit C/D/H/S then rank A or 1, 2-10 or T, J, Q, K; e.g. H8, SK, D10)"
        )
    return LANE_BITS * SUITS.index(t[0]) + _RANK_ALIASES[t[1:]]


def card_name(card: int) -> str:
    """Format a card id: ``card_name(card_id("DT")) == "D10"``; the joker is ``"JK"``."""
    if int(card) == JOKER:
        return "JK"
    suit, rank = divmod(int(card), LANE_BITS)
    if not (0 <= suit < 4 and 0 <= rank < RANKS_PER_SUIT):
        raise ValueError(f"not a card id: {card}")
    return SUITS[suit] + RANKS[rank]


def card_names(cards) -> list[str]:
    """The names of ``cards`` (an iterable of card ids), in order."""
    return [card_name(int(c)) for c in cards]


def parse_cards(text: str | list[str], allow_joker: bool = False) -> list[int]:
    """Parse ``"H8 S8 D8"`` (or a list of card strings) into card ids, in order."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [card_id(t, allow_joker) for t in items]


def mask_of(text: str | list[str] | list[int]) -> np.uint64:
    """The bitmask of some cards given as text or ids; a repeated card is an error."""
    ids = parse_cards(text) if isinstance(text, str) or (text and isinstance(text[0], str)) else list(text)
    mask = 0
    for c in ids:
        if mask >> c & 1:
            raise ValueError(f"card given twice: {card_name(c)}")
        mask |= 1 << c
    return np.uint64(mask)


def cards_of(mask: int | np.uint64) -> list[int]:
    """The card ids in a mask, lowest bit first (clubs ace up to spades king)."""
    m = int(mask)
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


def format_mask(mask: int | np.uint64) -> str:
    """``"C5 H8 SK"``: the cards of a mask in suit order."""
    return " ".join(card_name(c) for c in cards_of(mask))


def card_value(card: int) -> int:
    """Basic Rummy value (rules 1.6): ace 1, 2-10 face value, J/Q/K 10."""
    return min(int(card) % LANE_BITS + 1, 10)
