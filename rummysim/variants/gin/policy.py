"""A Gin Rummy seat's policy: ``choose(state, params, seat, scratch) -> move``, the one call the driver
(``kernel.finish_hand``), a game in play (``Variant.game``) and the environments ask.

The one dispatch between the bots: a search bot (``bots.BOT_SEARCH``) searches the decisions it names
(``search``) and plays the others by its rollout strategy; every other seat plays its rule-based or
random bot (``bots.choose``)."""

import numpy as np
from numba import njit

from ...engine.search import rollout_params, searches
from . import bots as B
from . import search as S
from .moves import MAX_LEGAL
from .state import I_PHASE


@njit(cache=True)
def new_scratch(rules, card_value):
    """The policies' scratch: ``(legal int64[MAX_LEGAL], rngs uint64[2, 1], search)``; ``rngs[p]`` is seat
    p's stream (seeded per hand by ``kernel.start_hand``), ``search`` the search bot's arrays
    (``search.new_search`` on the hand's ``rules`` and ``card_value``)."""
    return np.empty(MAX_LEGAL, dtype=np.int64), np.empty((2, 1), dtype=np.uint64), S.new_search(rules, card_value)


@njit(cache=True, _nrt=False)
def choose(state, params, p, scratch):
    """Seat p's move (an action of ``moves``) at the state's decision. ``params`` float64[2, N_PARAMS]."""
    legal, rngs, search = scratch
    if params[p, B.P_BOT] != B.BOT_SEARCH:
        return B.choose(state, params, p, legal, rngs)
    return _search_seat(state, params, p, legal, rngs, search)


@njit(cache=True, _nrt=False)
def _search_seat(state, params, p, legal, rngs, ss):
    """A search bot's move: searched, or its rollout strategy's at a decision it does not search."""
    rollout_params(params, p, ss.params, B.P_BOT, B.P_SEARCH)
    if searches(params, p, state.ints[I_PHASE], B.P_SEARCH):
        return S.search_move(state, params, p, rngs, ss)
    return B.choose(state, ss.params, p, legal, rngs)
