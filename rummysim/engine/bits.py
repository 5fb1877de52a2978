"""Bit operations on ``uint64`` card masks, shared by every variant (compiled)."""

import numpy as np
from numba import njit

U64 = np.uint64


@njit(cache=True, inline="always")
def popcount(x):
    """Number of set bits of a ``uint64``."""
    x = x - ((x >> U64(1)) & U64(0x5555555555555555))
    x = (x & U64(0x3333333333333333)) + ((x >> U64(2)) & U64(0x3333333333333333))
    x = (x + (x >> U64(4))) & U64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * U64(0x0101010101010101)) >> U64(56))


@njit(cache=True, inline="always")
def lowest_card(x):
    """Bit index of the lowest set bit of a non-zero ``uint64``."""
    return popcount((x & (~x + U64(1))) - U64(1))


@njit(cache=True, inline="always")
def bit(card):
    return U64(1) << U64(card)


@njit(cache=True, inline="always")
def card_index(card):
    """Card id (16 * suit + rank) -> card index (13 * suit + rank): the action numbers of a 52-card deck
    without jokers (Basic Rummy's, Gin Rummy's)."""
    return 13 * (card >> 4) + (card & 15)


@njit(cache=True, inline="always")
def card_of_index(i):
    """Card index (13 * suit + rank) -> card id (16 * suit + rank)."""
    return 16 * (i // 13) + i % 13
