"""A Basic Rummy seat's policy: ``choose(state, params, seat, scratch) -> move``.

The one dispatch between the bots: a search bot (``bots.BOT_SEARCH``) searches the decisions it names
(``search``) and plays the others by its rollout strategy; every other seat plays its rule-based or
random bot (``bots.choose_in``). The driver (``kernel.finish_hand``), a game in play
(``Variant.game``) and the environments ask this module, never the bots directly.
"""

import numpy as np
from numba import njit

from ...engine.search import rollout_params, searches
from . import bots as B
from . import search as S
from .moves import MAX_LEGAL
from .state import I_PHASE, I_PLAYERS


@njit(cache=True)
def new_scratch(players):
    """The policies' scratch: ``(melds uint64[64], stack_r uint64[1024], stack_d int64[1024],
    stack_m uint64[1024], legal int64[MAX_LEGAL], rngs uint64[players, 1], search)``; ``rngs[p]`` is
    seat p's stream (seeded per hand by ``kernel.start_hand``), ``search`` the search bot's three
    flat buffers (``search.new_buffers``)."""
    return (np.empty(64, dtype=np.uint64), np.empty(1024, dtype=np.uint64), np.empty(1024, dtype=np.int64),
            np.empty(1024, dtype=np.uint64), np.empty(MAX_LEGAL, dtype=np.int64),
            np.empty((players, 1), dtype=np.uint64), S.new_buffers(players))


@njit(cache=True)
def choose(state, params, p, scratch):
    """Seat p's move (an action of ``moves``) at the state's decision. ``params`` float64[players,
    N_PARAMS]; ``scratch`` from ``new_scratch``."""
    melds, sr, sd, sm, legal, rngs, search = scratch
    return choose_in(state.masks, state.ints, state.stock, state.pile, state.t_mask, state.t_kind, state.t_lay,
                     state.rules, state.card_value, state.buf, params, p, melds, sr, sd, sm, legal, rngs, search)


@njit(cache=True, inline="always")
def choose_in(masks, ints, stock, pile, t_mask, t_kind, t_lay, rules, card_value, buf, params, p,
              melds, sr, sd, sm, legal, rngs, search):
    """``choose`` on the arrays of the state and of the scratch (the driver unpacks them once)."""
    if params[p, B.P_BOT] != B.BOT_SEARCH:
        return B.choose_in(masks, ints, pile, t_lay, rules, card_value, buf, params, p, melds, sr, sd, sm, legal, rngs)
    return _search_seat(masks, ints, stock, pile, t_mask, t_kind, t_lay, rules, card_value, buf, params, p,
                        melds, sr, sd, sm, legal, rngs, search)


@njit(cache=True, _nrt=True)
def _search_seat(masks, ints, stock, pile, t_mask, t_kind, t_lay, rules, card_value, buf, params, p,
                 melds, sr, sd, sm, legal, rngs, search):
    """A search bot's move: searched, or its rollout strategy's at a decision it does not search.
    Compiled with reference counting (the search allocates), though the driver that calls it is not
    (``kernel._play``): a function that does not say ``_nrt`` is compiled as its caller is."""
    ss = S.unpack(search, ints[I_PLAYERS])
    if searches(params, p, ints[I_PHASE], B.P_SEARCH):
        return S.search_move(masks, ints, stock, pile, t_mask, t_kind, t_lay, rules, card_value, buf, params, p,
                             melds, sr, sd, sm, legal, rngs, ss)
    rollout_params(params, p, ss.params, B.P_BOT, B.P_SEARCH)
    return B.choose_in(masks, ints, pile, t_lay, rules, card_value, buf, ss.params, p, melds, sr, sd, sm, legal, rngs)
