"""Several decks on bitmasks (issue 5, rules.md 2.1): a hand as count planes.

``planes`` uint64[decks]: plane k holds the cards held at least k + 1 times,
in the card layout of ``rummysim.cards`` (16-bit lane per suit), so plane k is
always inside plane k - 1 and plane 0 is "which cards are held at all": the
run and set tests of one deck work on it unchanged. Jokers are a separate count.
"""

import numpy as np
from numba import njit

from .melds import popcount

U64 = np.uint64


@njit(cache=True)
def plane_add(planes, card):
    """Add one copy of ``card``; raises if every plane already holds it."""
    b = U64(1) << U64(card)
    for k in range(planes.shape[0]):
        if not planes[k] & b:
            planes[k] |= b
            return
    raise ValueError("more copies of a card than there are decks")


@njit(cache=True)
def plane_remove(planes, card):
    """Remove one copy of ``card``; raises if it is not held."""
    b = U64(1) << U64(card)
    for k in range(planes.shape[0] - 1, -1, -1):
        if planes[k] & b:
            planes[k] &= ~b
            return
    raise ValueError("removing a card that is not held")


@njit(cache=True)
def plane_count(planes, card):
    """How many copies of ``card`` are held."""
    b = U64(1) << U64(card)
    n = 0
    for k in range(planes.shape[0]):
        if planes[k] & b:
            n += 1
    return n


@njit(cache=True)
def plane_counts(planes, counts):
    """Fill ``counts`` int64[64] with the copies held of every card id."""
    counts[:] = 0
    for k in range(planes.shape[0]):
        m = planes[k]
        while m:
            low = m & (~m + U64(1))
            counts[popcount(low - U64(1))] += 1
            m ^= low


@njit(cache=True)
def plane_cards(planes):
    """Number of natural cards held (all copies)."""
    n = 0
    for k in range(planes.shape[0]):
        n += popcount(planes[k])
    return n
