"""Basic Rummy for the environments (compiled): one seat's observation, a move with what the seats
learn from it, and many tables stepped together (``Batch``).

Built on the rules layer (``moves``): ``legal_moves_in``, ``is_legal_in``,
``apply_in``; nothing here decides legality or plays a rule.

Observation of seat ``p`` (float32[obs_size(players)]), seats counted from ``p`` (relative seat r is
``(p + r) % players``: 0 is the observer, 1 the next to play), cards by card index ``13 * suit + rank``:

=============  ==================  =========================================================
block          size                contents
=============  ==================  =========================================================
hand           52                  1 for each card in the observer's hand
table          17 x 52             the cards of table meld k (in the order laid, the k of lay-off
                                   actions; a Q-K-A run's ace at the ace's index)
pile           52                  1 for each card in the discard pile
upcard         52                  1 for the top card of the discard pile
known          (players - 1) x 52  cards each opponent (relative seat 1, 2, ...) took from the
                                   pile and still holds
counts         players             cards in each relative seat's hand
stock          1                   cards in the stock
phase          4                   one-hot: draw, play (meld / lay off / stop), discard, over
scores         players             each relative seat's game score so far
=============  ==================  =========================================================
"""

import numpy as np
from numba import njit

from ...engine.bits import U64
from ...engine import melds as M
from .game import IB, UB, deal
from . import moves
from .moves import (
    MAX_TABLE,
    apply_in,
    card_index,
    legal_moves_in,
)
from .state import (
    I_N_TABLE,
    I_PHASE,
    I_PILE_N,
    I_PLAYERS,
    I_POINTS,
    I_SEAT,
    I_STOCK_N,
    I_WINNER,
    INTS_SIZE,
    M_HAND,
    M_HELD,
    M_PILE,
    MASKS_SIZE,
    PH_OVER,
    State,
)
from ...engine.views import row_view, set_mask

#: the action encoding and the most legal moves at one decision (``moves``), what ``Batch`` sizes its arrays by
NUM_ACTIONS, MAX_LEGAL = moves.NUM_ACTIONS, moves.MAX_LEGAL

def layout(players):
    """The observation's blocks ``(name, rows, columns)`` for ``players`` seats, in order."""
    return (("hand", 1, 52), ("table", MAX_TABLE, 52), ("pile", 1, 52), ("upcard", 1, 52),
            ("known", players - 1, 52), ("counts", 1, players), ("stock", 1, 1), ("phase", 1, 4),
            ("scores", 1, players))


def obs_size(players):
    return sum(r * c for _, r, c in layout(players))


@njit(cache=True, inline="always")
def _cards(mask, out, base):
    """1.0 at ``out[base + card index]`` for each card of ``mask``."""
    while mask:
        out[base + card_index(M.lowest_card(mask))] = 1.0
        mask &= mask - U64(1)


@njit(cache=True)
def observe_in(masks, ints, pile, t_mask, scores, p, out):
    """Seat ``p``'s observation into ``out`` float32[obs_size] (layout: module docstring).

    Reads only what seat p may see: its hand, the table, the pile, the counts, the cards each seat
    took from the pile and still holds (``M_HELD``, kept by the rules layer) and ``scores``
    int64[players] (game scores)."""
    players = ints[I_PLAYERS]
    out[:] = 0.0
    _cards(masks[M_HAND + p], out, 0)
    o = 52
    for k in range(ints[I_N_TABLE]):
        _cards(M.to_cards(t_mask[k]), out, o + 52 * k)   # a run's high ace is stored as bit 13 of its lane
    o += 52 * MAX_TABLE
    _cards(masks[M_PILE], out, o)
    o += 52
    if ints[I_PILE_N] > 0:
        out[o + card_index(pile[ints[I_PILE_N] - 1])] = 1.0
    o += 52
    for r in range(1, players):
        _cards(masks[M_HELD + (p + r) % players], out, o)
        o += 52
    for r in range(players):
        out[o + r] = M.popcount(masks[M_HAND + (p + r) % players])
    o += players
    out[o] = ints[I_STOCK_N]
    o += 1
    out[o + ints[I_PHASE]] = 1.0
    o += 4
    for r in range(players):
        out[o + r] = scores[(p + r) % players]


# A game's arrays live in two flat buffers (``variants.basic.game``: ``IB``, ``UB``): the observation
# of a packed game reads them without unboxing a ``State``.

_INTS, _PILE, _SCORES = IB["ints"], IB["pile"], IB["scores"]
_MASKS, _T_MASK = UB["masks"], UB["t_mask"]


@njit(cache=True)
def observe_packed(ib, ub, seat, out):
    """``observe_in`` of seat ``seat`` on a packed game."""
    observe_in(ub[_MASKS[0]:_MASKS[1]], ib[_INTS[0]:_INTS[1]], ib[_PILE[0]:_PILE[1]], ub[_T_MASK[0]:_T_MASK[1]],
               ib[_SCORES[0]:_SCORES[1]], seat, out)


def observe_game(game, seat, out):
    """Seat ``seat``'s observation of ``game`` (a ``variants.basic.game.Game``) into ``out``."""
    observe_packed(game.ib, game.ub, seat, out)


# --------------------------------------------------------------------------- many tables
def new_tables(n, players, rules):
    """The arrays of ``n`` tables (``Batch``): ``tables``, stacked per table (row i: table i), the fields of
    ``state.State`` with an empty event log, then ``rngs`` (the bots' streams, keyed by the deal) and
    ``scores`` (0: an episode is one hand); ``shared``, the block's ``rules`` int64[RULES_SIZE] (a
    copy) and ``card_value``."""
    ints = np.zeros((n, INTS_SIZE), dtype=np.int64)
    ints[:, I_PLAYERS] = players
    tables = (np.zeros((n, MASKS_SIZE), dtype=np.uint64), ints, np.zeros((n, 64), dtype=np.int64),
              np.zeros((n, 64), dtype=np.int64), np.zeros((n, 32), dtype=np.uint64), np.zeros((n, 32), dtype=np.int64),
              np.zeros((n, 32), dtype=np.uint64), np.zeros((n, 1), dtype=np.int64), np.zeros((n, 1), dtype=np.uint64),
              np.zeros((n, 64), dtype=np.uint64), np.zeros((n, players, 1), dtype=np.uint64),
              np.zeros((n, players), dtype=np.int64))
    return tables, (rules.copy(), M.CARD_VALUE.copy())


@njit(cache=True, inline="always")
def _table_state(tables, shared, i, ev):
    masks, ints, stock, pile, t_mask, t_kind, t_lay, n_ev, rng, buf = tables[:10]
    rules, card_value = shared
    return State(masks[i], ints[i], stock[i], pile[i], t_mask[i], t_kind[i], t_lay[i], rules, card_value, ev,
                 n_ev[i], rng[i], buf[i])


@njit(cache=True, inline="always")
def _deal_next(tables, shared, i, ev, seed, number, legal):
    """Table i's hand: hand 0 of game ``number``; its legal moves into ``legal``, returns their count."""
    return deal(_table_state(tables, shared, i, ev), seed, number, 0, tables[10][i], legal)


@njit(cache=True, nogil=True)
def batch_reset(tables, shared, seed, first, n_all, episodes, legal, n_legal, mask, seat):
    """Deal the hand of every table of a block (arrays: its rows; ``first``: its first table's number
    among ``n_all``): table j deals hand 0 of game ``j + episodes[j - first] * n_all``."""
    ev = np.empty((0, 60), dtype=np.int16)
    for i in range(n_legal.shape[0]):
        set_mask(legal[i], n_legal[i], mask[i], 0)
        n_legal[i] = _deal_next(tables, shared, i, ev, seed, first + i + episodes[i] * n_all, legal[i])
        set_mask(legal[i], n_legal[i], mask[i], 1)
        seat[i] = tables[1][i, I_SEAT]


@njit(cache=True, nogil=True)
def batch_step(tables, shared, seed, first, n_all, episodes, actions, win_reward, legal, n_legal, mask, seat, reward,
               done):
    """One legal move at every table of a block (``actions`` int64[n], legality checked by the caller). A
    finished hand scores ``reward`` float32[n, players] (its points to the winner, or 1 with
    ``win_reward``), sets ``done`` and is replaced by the table's next deal (``batch_reset``'s numbering).
    The other arrays as in ``batch_reset``; ``mask`` int8[n, NUM_ACTIONS] is kept by clearing the
    previous ``legal`` entries and setting the new ones."""
    ev = np.empty((0, 60), dtype=np.int16)
    masks, ints, stock, pile, t_mask, t_kind, t_lay, n_ev, rng, buf, _, _ = tables
    rules, card_value = shared
    for i in range(n_legal.shape[0]):
        legal_i, mask_i, ints_i = row_view(legal, i), row_view(mask, i), row_view(ints, i)
        set_mask(legal_i, n_legal[i], mask_i, 0)
        row_view(reward, i)[:] = 0.0
        done[i] = False
        masks_i, t_lay_i = row_view(masks, i), row_view(t_lay, i)
        apply_in(masks_i, ints_i, row_view(stock, i), row_view(pile, i), row_view(t_mask, i), row_view(t_kind, i),
                 t_lay_i, rules, card_value, ev, row_view(n_ev, i), row_view(rng, i), actions[i])
        if ints_i[I_PHASE] == PH_OVER:
            done[i] = True
            if ints_i[I_WINNER] >= 0:
                reward[i, ints_i[I_WINNER]] = 1.0 if win_reward else ints_i[I_POINTS]
            episodes[i] += 1
            n_legal[i] = _deal_next(tables, shared, i, ev, seed, first + i + episodes[i] * n_all, legal_i)
        else:
            n_legal[i] = legal_moves_in(masks_i, ints_i, t_lay_i, rules, row_view(buf, i), legal_i)
        set_mask(legal_i, n_legal[i], mask_i, 1)
        seat[i] = ints_i[I_SEAT]


@njit(cache=True, nogil=True)
def batch_observe(tables, out):
    """Each table's observation for its seat to act into ``out`` float32[n, obs_size]."""
    masks, ints, pile, t_mask, scores = tables[0], tables[1], tables[3], tables[4], tables[11]
    for i in range(out.shape[0]):
        observe_in(row_view(masks, i), row_view(ints, i), row_view(pile, i), row_view(t_mask, i),
                   row_view(scores, i), ints[i, I_SEAT], row_view(out, i))
