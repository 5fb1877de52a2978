"""Counter-based random streams: independent, reproducible streams keyed by what they are for.

Every stream is a SplitMix64 sequence whose starting state is a hash of a key
tuple, so that a deal depends only on ``(seed, game, hand)``, a bot's stream
only on ``(seed, game, hand, seat)`` and a reshuffle only on
``(seed, game, hand, reshuffle number)``. Nothing depends on threads, chunks or
the order in which hands are played.

A stream is a one-element ``uint64`` array holding its state, so kernels can
pass it around and advance it in place.
"""

import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)

#: Stream kinds, mixed into the key so streams never collide.
KIND_DEAL = 1
KIND_BOT = 2
KIND_RESHUFFLE = 3


@njit(cache=True, inline="always")
def mix64(z):
    """SplitMix64 finaliser: a bijective avalanche of one ``uint64``."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def stream_key(seed, game, hand, kind, index):
    """Starting state of the stream for ``(seed, game, hand, kind, index)``; all ints >= 0."""
    h = mix64(np.uint64(seed) + GOLDEN)
    h = mix64(h ^ (np.uint64(game) * GOLDEN + np.uint64(1)))
    h = mix64(h ^ (np.uint64(hand) * GOLDEN + np.uint64(2)))
    h = mix64(h ^ (np.uint64(kind) * GOLDEN + np.uint64(3)))
    return mix64(h ^ (np.uint64(index) * GOLDEN + np.uint64(4)))


@njit(cache=True, inline="always")
def next_u64(state):
    """Advance ``state`` (uint64[1]) and return the next 64 random bits."""
    state[0] += GOLDEN
    return mix64(state[0])


@njit(cache=True)
def below(state, n):
    """Uniform integer in ``[0, n)`` for ``1 <= n < 2**32``, unbiased (Lemire's rejection)."""
    n = np.uint64(n)
    while True:
        x = next_u64(state) >> np.uint64(32)
        m = x * n
        low = m & np.uint64(0xFFFFFFFF)
        if low >= n or low >= (np.uint64(0x100000000) - n) % n:
            return np.int64(m >> np.uint64(32))


@njit(cache=True)
def shuffle(state, items, count):
    """Fisher-Yates shuffle of ``items[:count]`` in place (any 1-D integer array)."""
    for i in range(count - 1, 0, -1):
        j = below(state, i + 1)
        t = items[i]
        items[i] = items[j]
        items[j] = t


@njit(cache=True)
def deal_keys(seed, games, hands):
    """The deal stream's key (``stream_key(seed, game, hand, KIND_DEAL, 0)``, the state the deal is
    shuffled from) of every row: ``games`` int64[n], ``hands`` int64[n] (Shanghai: round - 1) ->
    uint64[n]. A pure function of the seed and the deal's indices, so the results' ``deal`` column
    is computed here from the rows rather than carried through the kernels."""
    out = np.empty(len(games), dtype=np.uint64)
    for i in range(len(games)):
        out[i] = stream_key(seed, games[i], hands[i], KIND_DEAL, 0)
    return out
