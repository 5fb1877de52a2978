"""Shanghai Rummy for the environments (compiled): one seat's observation, and many tables stepped
together (``Batch``: an episode is one round). Built on the rules layer (``variants.shanghai.moves``: ``legal_moves``,
``is_legal``, ``apply``); nothing here decides legality or plays a rule.

Observation of seat ``p`` (float32[obs_size(players)]), seats counted from ``p`` (relative seat r is
``(p + r) % players``), cards in 53 slots (``13 * suit + rank``, 52 the joker), counts of copies:

=============  ==================  =========================================================
block          size                contents
=============  ==================  =========================================================
hand           53                  copies of each card in the observer's hand
table          32 x 14             table meld k (the k of lay-off and swap actions): present,
                                   kind (0 set, 1 run), owner (relative seat), set rank, run
                                   suit, run low and high positions (0 ace low .. 13 ace
                                   high), joker positions (bit mask), jokers, naturals,
                                   a set's naturals of each suit (4)
pile           53                  copies of each card in the discard pile
upcard         53                  1 for the top card of the discard pile
known          (players - 1) x 53  copies each opponent (relative seat 1, 2, ...) is known to
                                   hold (``state.held``: taken as the upcard or bought, a
                                   joker taken back; a lower bound)
counts         players             cards in each relative seat's hand
stock          1                   cards in the stock
phase          5                   one-hot: upcard, buy, play, discard, over
round          1                   the round, 1..10
down           players             1 for each relative seat that has laid its contract
buys           players + 1         buys of each relative seat this round, then of all seats
scores         players             each relative seat's game total so far (penalty points)
=============  ==================  =========================================================
"""

import numpy as np
from numba import njit

from . import moves
from .game import step
from .state import (
    I_PHASE,
    I_SEAT,
    I_WINNER,
    JOKER,
    MAX_TABLE,
    PH_OVER,
    ROUNDS,
    SI_BUYS,
    SI_BUYS_SEAT,
    SI_DOWN_TURN_SEAT,
    SI_N_TABLE,
    SI_PILE_N,
    SI_ROUND,
    SI_STOCK_N,
    T_COLS,
    T_OWNER,
    State,
)
from .table import hand_size
from ...engine.views import row_view, set_mask

#: the action encoding and the most legal moves at one decision (``moves``), what ``Batch`` sizes its arrays by
NUM_ACTIONS, MAX_LEGAL = moves.NUM_ACTIONS, moves.MAX_LEGAL

SLOTS = 53


def layout(players):
    """The observation's blocks ``(name, rows, columns)`` for ``players`` seats, in order."""
    return (("hand", 1, SLOTS), ("table", MAX_TABLE, 1 + T_COLS), ("pile", 1, SLOTS), ("upcard", 1, SLOTS),
            ("known", players - 1, SLOTS), ("counts", 1, players), ("stock", 1, 1), ("phase", 1, 5),
            ("round", 1, 1), ("down", 1, players), ("buys", 1, players + 1), ("scores", 1, players))


def obs_size(players):
    return sum(r * c for _, r, c in layout(players))


@njit(cache=True, inline="always")
def slot(c):
    """Card id (16 * suit + rank, 63 the joker) -> observation slot (13 * suit + rank, 52 the joker)."""
    return SLOTS - 1 if c == JOKER else 13 * (c >> 4) + (c & 15)


@njit(cache=True, inline="always")
def _counts(counts, out, base):
    for c in range(64):
        if counts[c] > 0:
            out[base + slot(c)] += counts[c]


@njit(cache=True)
def observe(state, totals, p, out):
    """Seat ``p``'s observation into ``out`` float32[obs_size] (layout: module docstring). Reads only
    what seat p may see: its hand, the table, the pile, counts, what each seat is known to hold
    (``state.held``, kept by the rules layer) and ``totals`` int64[players] (game totals)."""
    observe_in(state.hands, state.ints, state.pile, state.table, state.held, totals, p, out)


@njit(cache=True)
def observe_in(hands, ints, pile, table, held, totals, p, out):
    """``observe`` on the state's arrays ``hands``, ``ints``, ``pile``, ``table``, ``held``."""
    players = hands.shape[0]
    out[:] = 0.0
    _counts(hands[p], out, 0)
    o = SLOTS
    for k in range(ints[SI_N_TABLE]):
        out[o] = 1.0
        for j in range(T_COLS):
            out[o + 1 + j] = table[k, j]
        out[o + 1 + T_OWNER] = (table[k, T_OWNER] - p + players) % players
        o += 1 + T_COLS
    o = SLOTS + MAX_TABLE * (1 + T_COLS)
    for k in range(ints[SI_PILE_N]):
        out[o + slot(pile[k])] += 1.0
    o += SLOTS
    if ints[SI_PILE_N] > 0:
        out[o + slot(pile[ints[SI_PILE_N] - 1])] = 1.0
    o += SLOTS
    for r in range(1, players):
        _counts(held[(p + r) % players], out, o)
        o += SLOTS
    for r in range(players):
        out[o + r] = hand_size(hands[(p + r) % players])
    o += players
    out[o] = ints[SI_STOCK_N]
    o += 1
    out[o + ints[I_PHASE]] = 1.0
    o += 5
    out[o] = ints[SI_ROUND]
    o += 1
    for r in range(players):
        out[o + r] = ints[SI_DOWN_TURN_SEAT + (p + r) % players] > 0
    o += players
    for r in range(players):
        out[o + r] = ints[SI_BUYS_SEAT + (p + r) % players]
    out[o + players] = ints[SI_BUYS]
    o += players + 1
    for r in range(players):
        out[o + r] = totals[(p + r) % players]


def observe_game(game, seat, out):
    """Seat ``seat``'s observation of ``game`` (a ``variants.shanghai.game.Game``) into ``out``."""
    observe(game.state, game.scores, seat, out)


# --------------------------------------------------------------------------- many tables
def new_tables(n, players, rules):
    """The arrays of ``n`` tables (``Batch``): ``tables``, stacked per table (row i: table i), the fields
    of ``state.State`` a round keeps between moves (hands, ints, stock, pile, table, melds, rng1,
    n_ev, held), then ``scores`` int64[n, players] (the game's totals before the round); ``shared``,
    the block's ``rules`` (a copy), an empty event log and the scratch of a move (the state's
    listing, counts, row, cand, chosen, ranks, left, trial, solver)."""
    one = moves.new_state(players, rules, np.empty((0, moves.EV_WIDTH), dtype=np.int16))
    tables = tuple(np.zeros((n, *a.shape), dtype=a.dtype) for a in one[:6]) + (
        np.zeros((n, 1), dtype=np.uint64), np.zeros((n, 1), dtype=np.int64),
        np.zeros((n, players, 64), dtype=np.int64), np.zeros((n, players), dtype=np.int64))
    shared = (one.rules, one.ev, one.listing, one.counts, one.row, one.cand, one.chosen, one.ranks, one.left,
              one.trial, one.solver)
    return tables, shared


@njit(cache=True, inline="always")
def _table_state(tables, shared, i):
    hands, ints, stock, pile, table, melds, rng1, n_ev, held = tables[:9]
    rules, ev, listing, counts, row, cand, chosen, ranks, left, trial, solver = shared
    return State(row_view(hands, i), row_view(ints, i), row_view(stock, i), row_view(pile, i), row_view(table, i),
                 row_view(melds, i), listing, counts, row, row_view(rng1, i), rules, ev, row_view(n_ev, i), cand, chosen,
                 ranks, left, trial, row_view(held, i), solver)


@njit(cache=True)
def _deal_next(tables, shared, i, seed, first, n_all, episode, legal):
    """Table i's ``episode``-th round (round ``episode % 10 + 1`` of game ``first + i + (episode // 10)
    * n_all``; a new game's totals start at 0); its legal moves into ``legal``, returns their count."""
    state = _table_state(tables, shared, i)
    if episode % ROUNDS == 0:
        tables[9][i, :] = 0
    moves.deal(state, seed, first + i + (episode // ROUNDS) * n_all, episode % ROUNDS + 1)
    return moves.legal_moves(state, legal)


@njit(cache=True, nogil=True)
def batch_reset(tables, shared, seed, first, n_all, episodes, legal, n_legal, mask, seat):
    """Deal the round of every table of a block (arrays: its rows; ``first``: its first table's number
    among ``n_all``): table j deals its ``episodes[j - first]``-th round (``_deal_next``)."""
    for i in range(n_legal.shape[0]):
        set_mask(legal[i], n_legal[i], mask[i], 0)
        n_legal[i] = _deal_next(tables, shared, i, seed, first, n_all, episodes[i], legal[i])
        set_mask(legal[i], n_legal[i], mask[i], 1)
        seat[i] = tables[1][i, I_SEAT]


@njit(cache=True, nogil=True)
def batch_step(tables, shared, seed, first, n_all, episodes, actions, win_reward, legal, n_legal, mask, seat, reward,
               done):
    """One legal move at every table of a block (``actions`` int64[n], legality checked by the caller). A
    finished round scores ``reward`` float32[n, players] (minus each seat's penalty points, rules 2.7,
    or 1 to its winner with ``win_reward``), adds the points to the game's totals, sets ``done`` and
    is replaced by the table's next round (``_deal_next``). The other arrays as in ``batch_reset``;
    ``mask`` int8[n, NUM_ACTIONS] is kept by clearing the previous ``legal`` entries and setting the
    new ones."""
    totals = tables[9]
    for i in range(n_legal.shape[0]):
        legal_i, mask_i = row_view(legal, i), row_view(mask, i)
        set_mask(legal_i, n_legal[i], mask_i, 0)
        row_view(reward, i)[:] = 0.0
        done[i] = False
        state = _table_state(tables, shared, i)
        n_legal[i] = step(state, actions[i], legal_i)
        if state.ints[I_PHASE] == PH_OVER:
            done[i] = True
            points = state.counts
            moves.scores(state, points)
            for q in range(totals.shape[1]):
                totals[i, q] += points[q]
                if not win_reward:
                    reward[i, q] = -points[q]
            if win_reward and state.ints[I_WINNER] >= 0:
                reward[i, state.ints[I_WINNER]] = 1.0
            episodes[i] += 1
            n_legal[i] = _deal_next(tables, shared, i, seed, first, n_all, episodes[i], legal_i)
        set_mask(legal_i, n_legal[i], mask_i, 1)
        seat[i] = tables[1][i, I_SEAT]


@njit(cache=True, nogil=True)
def batch_observe(tables, out):
    """Each table's observation for its seat to act into ``out`` float32[n, obs_size]."""
    hands, ints, pile, table, held, totals = tables[0], tables[1], tables[3], tables[4], tables[8], tables[9]
    for i in range(out.shape[0]):
        observe_in(row_view(hands, i), row_view(ints, i), row_view(pile, i), row_view(table, i), row_view(held, i),
                   row_view(totals, i), ints[i, I_SEAT], row_view(out, i))
