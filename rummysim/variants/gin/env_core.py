"""Gin Rummy for the environments (compiled): one seat's observation, and many tables stepped together
(``Batch``). Built on the rules layer (``moves``); nothing here decides legality or plays a rule.

Observation of seat ``p`` (float32[obs_size(2)]), seats counted from ``p`` (relative seat 0 is the
observer, 1 the opponent), cards by card index ``13 * suit + rank``:

==============  ====  ================================================================
block           size  contents
==============  ====  ================================================================
hand            52    1 for each card in the observer's hand
knocker_melds   52    the cards of the knocker's melds, lay-offs included (after a knock)
defender_melds  52    the cards of the defender's melds (after a knock)
pile            52    1 for each card in the discard pile
upcard          52    1 for the upcard (the pile's top card)
known           52    the cards the opponent took from the pile and still holds
counts          2     cards in each relative seat's hand
stock           1     cards in the stock
phase           9     one-hot: first upcard, draw, discard, knock discard, knock meld, layoff,
                      defender meld, wall, over
knocker         2     one-hot: the relative seat that knocked (zeros before a knock)
knock_card      1     the hand's knock card
scores          2     each relative seat's game points so far
==============  ====  ================================================================
"""

import numpy as np
from numba import njit

from ...engine import melds as M
from ...engine.bits import U64
from ...engine.views import row_view, set_mask
from . import kernel, moves
from .moves import card_index
from .state import (
    I_KNOCK_CARD, I_KNOCKER, I_N_KNOCKER_MELDS, I_N_TABLE, I_PHASE, I_PILE, I_PILE_N, I_POINTS, I_SEAT,
    I_STOCK_N, I_WINNER, M_HAND, M_HELD, M_PILE, M_T_MASK, PH_OVER, State,
)

#: the action encoding and the most legal moves at one decision (``moves``), what ``Batch`` sizes its arrays by
NUM_ACTIONS, MAX_LEGAL = moves.NUM_ACTIONS, moves.MAX_LEGAL


def layout(players):
    """The observation's blocks ``(name, rows, columns)``, in order."""
    return (("hand", 1, 52), ("knocker_melds", 1, 52), ("defender_melds", 1, 52), ("pile", 1, 52),
            ("upcard", 1, 52), ("known", 1, 52), ("counts", 1, 2), ("stock", 1, 1), ("phase", 1, 9),
            ("knocker", 1, 2), ("knock_card", 1, 1), ("scores", 1, 2))


def obs_size(players):
    return sum(r * c for _, r, c in layout(players))


@njit(cache=True, inline="always")
def _cards(mask, out, base):
    """1.0 at ``out[base + card index]`` for each card of ``mask``."""
    while mask:
        out[base + card_index(M.lowest_card(mask))] = 1.0
        mask &= mask - U64(1)


@njit(cache=True)
def observe_in(masks, ints, scores, p, out):
    """Seat ``p``'s observation into ``out`` float32[obs_size] (layout: module docstring). Reads only
    what seat p may see: its hand, the table, the pile, the counts, the cards the opponent took from the
    pile and still holds (``M_HELD``) and ``scores`` int64[2] (game points)."""
    out[:] = 0.0
    _cards(masks[M_HAND + p], out, 0)
    for k in range(ints[I_N_TABLE]):
        _cards(masks[M_T_MASK + k], out, 52 if k < ints[I_N_KNOCKER_MELDS] else 104)
    _cards(masks[M_PILE], out, 156)
    if ints[I_PILE_N] > 0:
        out[208 + card_index(ints[I_PILE + ints[I_PILE_N] - 1])] = 1.0
    _cards(masks[M_HELD + 1 - p], out, 260)
    o = 312
    for r in range(2):
        out[o + r] = M.popcount(masks[M_HAND + (p + r) % 2])
    out[o + 2] = ints[I_STOCK_N]
    out[o + 3 + ints[I_PHASE]] = 1.0
    o += 12
    if ints[I_KNOCKER] >= 0:
        out[o + (ints[I_KNOCKER] - p + 2) % 2] = 1.0
    out[o + 2] = ints[I_KNOCK_CARD]
    for r in range(2):
        out[o + 3 + r] = scores[(p + r) % 2]


def observe_game(game, seat, out):
    """Seat ``seat``'s observation of ``game`` (a ``variants.gin.game.Game``) into ``out``."""
    s = game.state
    observe_in(s.masks, s.ints, game.scores, seat, out)


# --------------------------------------------------------------------------- many tables
def new_tables(n, players, rules):
    """The arrays of ``n`` tables (``Batch``): ``tables``, stacked per table (row i: table i), the fields
    of ``state.State`` a hand keeps between moves (masks, ints), then ``rngs`` uint64[n, 2, 1] (the
    bots' streams, keyed by the deal) and ``scores`` int64[n, 2] (0: an episode is one hand);
    ``shared``, the block's rules (a copy), card values, an empty event log and the rules layer's
    scratch (``state.State``'s ``work`` and ``iwork``)."""
    one = kernel.new_state(rules.copy(), M.CARD_VALUE.copy(), np.empty((0, moves.EV_WIDTH), dtype=np.int16))
    tables = (np.zeros((n, *one.masks.shape), dtype=np.uint64), np.zeros((n, *one.ints.shape), dtype=np.int64),
              np.zeros((n, 2, 1), dtype=np.uint64), np.zeros((n, 2), dtype=np.int64))
    shared = (one.rules, one.card_value, one.ev, one.work, one.iwork)
    return tables, shared


@njit(cache=True, inline="always")
def _table_state(tables, shared, i):
    rules, card_value, ev, work, iwork = shared
    return State(row_view(tables[0], i), row_view(tables[1], i), rules, card_value, ev, work, iwork)


@njit(cache=True)
def _deal_next(tables, shared, i, seed, number, legal):
    """Table i's hand: hand 0 of game ``number``; its legal moves into ``legal``, returns their count."""
    state = _table_state(tables, shared, i)
    kernel.start_hand(state, seed, number, 0, tables[2][i])
    return moves.legal_moves(state, legal)


@njit(cache=True, nogil=True)
def batch_reset(tables, shared, seed, first, n_all, episodes, legal, n_legal, mask, seat):
    """Deal the hand of every table of a block (arrays: its rows; ``first``: its first table's number
    among ``n_all``): table j deals hand 0 of game ``j + episodes[j - first] * n_all``."""
    for i in range(n_legal.shape[0]):
        set_mask(legal[i], n_legal[i], mask[i], 0)
        n_legal[i] = _deal_next(tables, shared, i, seed, first + i + episodes[i] * n_all, legal[i])
        set_mask(legal[i], n_legal[i], mask[i], 1)
        seat[i] = tables[1][i, I_SEAT]


@njit(cache=True, nogil=True)
def batch_step(tables, shared, seed, first, n_all, episodes, actions, win_reward, legal, n_legal, mask, seat, reward,
               done):
    """One legal move at every table of a block (``actions`` int64[n], legality checked by the caller). A
    finished hand scores ``reward`` float32[n, 2] (its points to the winner, or 1 with ``win_reward``),
    sets ``done`` and is replaced by the table's next deal (``batch_reset``'s numbering). ``mask``
    int8[n, NUM_ACTIONS] is kept by clearing the previous ``legal`` entries and setting the new ones."""
    for i in range(n_legal.shape[0]):
        legal_i, mask_i = row_view(legal, i), row_view(mask, i)
        set_mask(legal_i, n_legal[i], mask_i, 0)
        row_view(reward, i)[:] = 0.0
        done[i] = False
        state = _table_state(tables, shared, i)
        moves.apply(state, actions[i])
        ints = state.ints
        if ints[I_PHASE] == PH_OVER:
            done[i] = True
            if ints[I_WINNER] >= 0:
                reward[i, ints[I_WINNER]] = 1.0 if win_reward else ints[I_POINTS]
            episodes[i] += 1
            n_legal[i] = _deal_next(tables, shared, i, seed, first + i + episodes[i] * n_all, legal_i)
        else:
            n_legal[i] = moves.legal_moves(state, legal_i)
        set_mask(legal_i, n_legal[i], mask_i, 1)
        seat[i] = tables[1][i, I_SEAT]


@njit(cache=True, nogil=True)
def batch_observe(tables, out):
    """Each table's observation for its seat to act into ``out`` float32[n, obs_size]."""
    masks, ints, scores = tables[0], tables[1], tables[3]
    for i in range(out.shape[0]):
        observe_in(row_view(masks, i), row_view(ints, i), row_view(scores, i), ints[i, I_SEAT], row_view(out, i))
