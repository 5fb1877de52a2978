"""A Shanghai Rummy seat's policy: ``choose(state, params, seat, scratch) -> move``.

The one dispatch between the bots: a search bot (``bots.BOT_SEARCH``) searches the decisions it names
(``search``) and plays the others by its rollout strategy; every other seat plays its rule-based or
random bot (``bots.choose``). The driver (``kernel.finish_round``), a game in play (``game``) and the
environments ask this module, never the bots directly.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from ...engine.search import rollout_params, searches
from . import bots as B
from . import search as S
from .moves import MAX_LEGAL
from .state import I_PHASE

#: the policies' scratch: the bots' (``bots.BotScratch``, the same fields, so the bots and
#: ``bots.seed_streams`` take it as it is) and the search bot's ``search.SearchScratch``
PolicyScratch = namedtuple("PolicyScratch", (*B.BotScratch._fields, "search"))


@njit(cache=True)
def new_scratch(players):
    """The policies' scratch (``PolicyScratch``) for rounds of ``players`` seats; ``rngs[p]`` is seat
    p's stream (keyed per round by ``kernel.start_round``)."""
    b = B.new_scratch(players)
    simulated = B.BotScratch(b.cand, b.chosen, b.ranks, b.left, b.row, b.table,
                             np.zeros((players, 1), dtype=np.uint64), b.out, b.dwork, b.solver)
    ss = S.SearchScratch(simulated, np.zeros((players, B.N_SHANGHAI_PARAMS), dtype=np.float64),
                         np.zeros(MAX_LEGAL, dtype=np.int64), np.zeros(MAX_LEGAL, dtype=np.float64),
                         np.zeros(MAX_LEGAL, dtype=np.float64), np.zeros(MAX_LEGAL, dtype=np.float64),
                         np.zeros(MAX_LEGAL, dtype=np.float64), np.zeros(64, dtype=np.int64),
                         np.zeros(players, dtype=np.int64))
    return PolicyScratch(b.cand, b.chosen, b.ranks, b.left, b.row, b.table, b.rngs, b.out, b.dwork, b.solver, ss)


@njit(cache=True, inline="always")
def choose(state, params, seat, scratch):
    """The move of ``seat`` (the seat to act) at the state's decision point, an action of ``moves``.
    ``params`` float64[players, N_SHANGHAI_PARAMS]; ``scratch`` a ``PolicyScratch``."""
    if params[seat, B.SP_BOT] != B.BOT_SEARCH:
        return B.choose(state, params, seat, scratch)
    return _search_seat(state, params, seat, scratch)


@njit(cache=True, _nrt=True)
def _search_seat(state, params, p, scratch):
    """A search bot's move: searched, or its rollout strategy's at a decision it does not search.
    Compiled with reference counting (the search allocates), though the driver that calls it is not
    (``kernel._play``): a function that does not say ``_nrt`` is compiled as its caller is."""
    if searches(params, p, state.ints[I_PHASE], B.SP_SEARCH):
        return S.search_move(state, params, p, scratch)
    ss = scratch.search
    rollout_params(params, p, ss.params, B.SP_BOT, B.SP_SEARCH)
    return B.choose(state, ss.params, p, scratch)
