"""A Basic Rummy seat's policy: ``choose(state, params, seat, scratch) -> move``.

The one dispatch between the bots: a search bot (``bots.BOT_SEARCH``) searches the decisions it names
(``search``) and plays the others by its rollout strategy; every other seat plays its rule-based or
random bot (``bots.choose_in``). The driver (``kernel.finish_hand``), a game in play
(``variants.game``) and the environments ask this module, never the bots directly.
"""

import numpy as np
from numba import njit

from . import bots as B
from . import search as S
from .moves import EV_WIDTH, MAX_LEGAL
from .state import I_PHASE, INTS_SIZE, MASKS_SIZE


@njit(cache=True)
def new_scratch(players):
    """The policies' scratch: ``(melds uint64[64], stack_r uint64[1024], stack_d int64[1024],
    stack_m uint64[1024], legal int64[MAX_LEGAL], rngs uint64[players, 1], search)``; ``rngs[p]`` is
    seat p's stream (seeded per hand by ``kernel.start_hand``), ``search`` the search bot's
    ``search.SearchScratch``."""
    ss = S.SearchScratch(
        np.zeros(MASKS_SIZE, dtype=np.uint64), np.zeros(INTS_SIZE, dtype=np.int64), np.zeros(64, dtype=np.int64),
        np.zeros(64, dtype=np.int64), np.zeros(32, dtype=np.uint64), np.zeros(32, dtype=np.int64),
        np.zeros(32, dtype=np.uint64), np.zeros(1, dtype=np.uint64), np.zeros((0, EV_WIDTH), dtype=np.int16),
        np.zeros(1, dtype=np.int64), np.zeros(MASKS_SIZE, dtype=np.uint64), np.zeros(INTS_SIZE, dtype=np.int64),
        np.zeros(64, dtype=np.int64), np.zeros((players, B.N_PARAMS), dtype=np.float64),
        np.zeros((players, 1), dtype=np.uint64), np.zeros(MAX_LEGAL, dtype=np.int64),
        np.zeros(MAX_LEGAL, dtype=np.float64), np.zeros(MAX_LEGAL, dtype=np.float64),
        np.zeros(MAX_LEGAL, dtype=np.float64), np.zeros(64, dtype=np.int64))
    return (np.empty(64, dtype=np.uint64), np.empty(1024, dtype=np.uint64), np.empty(1024, dtype=np.int64),
            np.empty(1024, dtype=np.uint64), np.empty(MAX_LEGAL, dtype=np.int64),
            np.empty((players, 1), dtype=np.uint64), ss)


@njit(cache=True)
def choose(state, params, p, scratch):
    """Seat p's move (an action of ``moves``) at the state's decision. ``params`` float64[players,
    N_PARAMS]; ``scratch`` from ``new_scratch``."""
    melds, sr, sd, sm, legal, rngs, ss = scratch
    return choose_in(state.masks, state.ints, state.stock, state.pile, state.t_mask, state.t_kind, state.t_lay,
                     state.rules, state.card_value, state.buf, params, p, melds, sr, sd, sm, legal, rngs, ss)


@njit(cache=True, inline="always")
def choose_in(masks, ints, stock, pile, t_mask, t_kind, t_lay, rules, card_value, buf, params, p,
              melds, sr, sd, sm, legal, rngs, ss):
    """``choose`` on the arrays of the state and of the scratch (the driver unpacks them once)."""
    if params[p, B.P_BOT] != B.BOT_SEARCH:
        return B.choose_in(masks, ints, pile, t_lay, rules, card_value, buf, params, p, melds, sr, sd, sm, legal, rngs)
    return _search_seat(masks, ints, stock, pile, t_mask, t_kind, t_lay, rules, card_value, buf, params, p,
                        melds, sr, sd, sm, legal, rngs, ss)


@njit(cache=True)
def _search_seat(masks, ints, stock, pile, t_mask, t_kind, t_lay, rules, card_value, buf, params, p,
                 melds, sr, sd, sm, legal, rngs, ss):
    """A search bot's move: searched, or its rollout strategy's at a decision it does not search."""
    if S.searches(params, p, ints[I_PHASE]):
        return S.search_move(masks, ints, stock, pile, t_mask, t_kind, t_lay, rules, card_value, buf, params, p,
                             melds, sr, sd, sm, legal, rngs, ss)
    S.rollout_params(params, p, ss.params)
    return B.choose_in(masks, ints, pile, t_lay, rules, card_value, buf, ss.params, p, melds, sr, sd, sm, legal, rngs)
