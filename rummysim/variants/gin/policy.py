"""A Gin Rummy seat's policy: ``choose(state, params, seat, scratch) -> move``, the one call the driver
(``kernel.finish_hand``), a game in play (``Variant.game``) and the environments ask."""

import numpy as np
from numba import njit

from . import bots as B
from .moves import MAX_LEGAL


@njit(cache=True)
def new_scratch():
    """The policies' scratch: ``(legal int64[MAX_LEGAL], rngs uint64[2, 1])``; ``rngs[p]`` is seat p's
    stream (seeded per hand by ``kernel.start_hand``)."""
    return np.empty(MAX_LEGAL, dtype=np.int64), np.empty((2, 1), dtype=np.uint64)


@njit(cache=True, _nrt=False)
def choose(state, params, p, scratch):
    """Seat p's move (an action of ``moves``) at the state's decision. ``params`` float64[2, N_PARAMS]."""
    return B.choose(state, params, p, scratch[0], scratch[1])
