"""A slow, plain reference for melds (docs/rules.md 1.2, 1.3, 1.6, 1.7).

Nothing here is fast or clever on purpose: no numba, no bit tricks, just sets
of card ids and the rules read literally. The tests compare the Numba kernels
of ``rummysim.engine.melds`` with these functions.

Card ids are ``16 * suit + rank``: suits C, D, H, S are 0..3 and rank 0 is
the ace, 1..9 are 2..10, 10/11/12 are J/Q/K (see ``rummysim.cards``).

``ace_high`` is the rules option ``ace``: False for ``"low"`` (A-2-3 only),
True for ``"high_or_low"`` (A-2-3 and Q-K-A, but never K-A-2).
"""

from __future__ import annotations

from itertools import combinations

N_SUITS = 4
N_RANKS = 13
ACE = 0
KING = 12

#: the 52 card ids of one deck
DECK = [16 * suit + rank for suit in range(N_SUITS) for rank in range(N_RANKS)]


def card(suit: int, rank: int) -> int:
    return 16 * suit + rank


def suit_of(c: int) -> int:
    return c // 16


def rank_of(c: int) -> int:
    return c % 16


def value(c: int) -> int:
    """Rules 1.6: ace 1, 2-10 face value, J/Q/K 10."""
    return min(rank_of(c) + 1, 10)


def hand_value(cards) -> int:
    return sum(value(c) for c in cards)


def ace_is_high(ace) -> bool:
    """Accept the option's name (``"low"``/``"high_or_low"``) or a bool."""
    if isinstance(ace, str):
        if ace not in ("low", "high_or_low"):
            raise ValueError(f"unknown ace rule: {ace!r}")
        return ace == "high_or_low"
    return bool(ace)


def _consecutive(numbers) -> bool:
    numbers = sorted(numbers)
    return all(b == a + 1 for a, b in zip(numbers, numbers[1:]))


def is_meld(cards, ace_high) -> bool:
    """True when ``cards`` is one set (3-4 of a rank) or one run (3+ in a row, one suit)."""
    cards = set(cards)
    if len(cards) < 3:
        return False
    if len({rank_of(c) for c in cards}) == 1:
        return True  # 3 or 4 cards of one rank (only 4 exist)
    if len({suit_of(c) for c in cards}) != 1:
        return False
    ranks = [rank_of(c) for c in cards]
    if _consecutive(ranks):
        return True  # aces low, e.g. A-2-3
    if ace_is_high(ace_high) and ACE in ranks:
        # the ace above the king, e.g. Q-K-A; K-A-2 is never consecutive either way
        ranks_ace_high = [KING + 1 if r == ACE else r for r in ranks]
        return _consecutive(ranks_ace_high)
    return False


def all_melds(ace="low") -> set[frozenset]:
    """Every meld of a 52-card deck, each a frozenset of card ids."""
    ace_high = ace_is_high(ace)
    melds = set()
    # sets: 3 or 4 cards of one rank
    for rank in range(N_RANKS):
        same_rank = [card(suit, rank) for suit in range(N_SUITS)]
        for size in (3, 4):
            for combo in combinations(same_rank, size):
                melds.add(frozenset(combo))
    # runs: a slice of 3+ of the ranks in order; with high aces the ace also
    # follows the king. A slice is never wrapped round, so K-A-2 never shows
    # up, and a slice holding the ace twice (A..K-A) is not a set of cards.
    line = list(range(N_RANKS)) + ([ACE] if ace_high else [])
    for suit in range(N_SUITS):
        for start in range(len(line)):
            for stop in range(start + 3, len(line) + 1):
                ranks = line[start:stop]
                if len(set(ranks)) == len(ranks):
                    melds.add(frozenset(card(suit, r) for r in ranks))
    return melds


_ALL_MELDS = {False: None, True: None}


def _melds(ace_high: bool) -> list[frozenset]:
    if _ALL_MELDS[ace_high] is None:
        _ALL_MELDS[ace_high] = sorted(all_melds(ace_high), key=sorted)
    return _ALL_MELDS[ace_high]


def melds_in(cards, ace_high) -> list[frozenset]:
    """The melds made only of ``cards``."""
    cards = frozenset(cards)
    return [m for m in _melds(ace_is_high(ace_high)) if m <= cards]


def has_meld(cards, ace_high) -> bool:
    return len(melds_in(cards, ace_high)) > 0


def melded_cards(cards, ace_high) -> set:
    """The cards that belong to at least one meld inside ``cards``."""
    out = set()
    for m in melds_in(cards, ace_high):
        out |= m
    return out


def best_split(cards, ace_high) -> tuple[int, list[frozenset]]:
    """Least deadwood over every choice of disjoint melds from ``cards``.

    Literally tries every collection of pairwise disjoint melds (each
    collection once: melds are taken in list order) and keeps the one that
    leaves the least value outside the melds. Returns ``(deadwood, melds)``.
    """
    cards = frozenset(cards)
    candidates = melds_in(cards, ace_high)
    best_deadwood = hand_value(cards)
    best_melds: list[frozenset] = []

    def explore(first: int, used: frozenset, chosen: list[frozenset]):
        nonlocal best_deadwood, best_melds
        deadwood = hand_value(cards - used)
        if deadwood < best_deadwood:
            best_deadwood, best_melds = deadwood, list(chosen)
        for i in range(first, len(candidates)):
            m = candidates[i]
            if not (m & used):
                explore(i + 1, used | m, chosen + [m])

    explore(0, frozenset(), [])
    return best_deadwood, best_melds


def best_deadwood(cards, ace_high) -> int:
    """Least deadwood value of ``cards`` over all partitions into disjoint melds."""
    return best_split(cards, ace_high)[0]


def layoff_cards(meld, ace_high) -> set:
    """Cards that, added to the table meld ``meld``, keep it one valid meld.

    That is the 4th card of a 3-set (a 4-set takes none) and the next card at
    either end of a run (ace low below the 2; with high aces also above the
    king; never round the corner).
    """
    meld = set(meld)
    return {c for c in DECK if c not in meld and is_meld(meld | {c}, ace_high)}
