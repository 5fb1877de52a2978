"""The search bot of Basic Rummy (``bot = "search"``): determinized Monte Carlo on the legal-move layer.

At a decision its ``search.decisions`` bits name (``1 << PH_*``), seat p

1. lists its candidate moves (``candidates``), the rollout strategy's choice first: drawing, both
   sources; playing, at most ``search.candidates``: the rollout's move, stopping, the other legal
   melds and lay-offs in the rules layer's order; discarding, at most ``search.candidates`` cards in
   the rollout strategy's order of preference (``bots.discard_score``);
2. ``search.samples`` times deals the cards it has not seen (``determinize``) into the other hands
   and the stock, consistent with everything it has seen: its own hand, the table, the discard pile,
   each hand's count and the cards each seat took from the pile and still holds (``M_HELD``);
3. for every such deal plays ``search.playouts`` playouts of each candidate (``playout``): the
   candidate, then every seat played by the rollout strategy (the searcher's vector with its
   rollout's bot key, ``rollout_params``), to the end of the hand, or for ``search.horizon`` turns
   and then ``static_value``. Every candidate plays the same deals with the same streams (common
   random numbers), so the search compares the moves, not their luck;
4. plays the candidate with the highest mean value (``outcome_value``), provided its mean gain over
   the rollout strategy's favourite, paired deal by deal, is more than ``search.confidence`` tenths
   of its standard error above 0; else the favourite (``pick``). The deals are the independent
   units of that standard error: the playouts of one deal share its cards, so they are averaged
   first. A search that trusted its
   noisiest differences would replace a good rule's choice by a coin flip whenever the candidates
   are close.

Every random choice comes from seat p's own stream (``rngs[p]``): the deals, the keys of the simulated
reshuffles, the simulated seats' streams. A hand is therefore still a pure function of the seed, the
game and the hand, whatever the threads or workers; and the search reads nothing seat p may not see
(the hidden-information test redeals the unseen cards and expects the same move).

The search's arrays (``SearchScratch``): the hand being simulated (``masks`` ... ``t_lay``, ``rng``,
``ev``, ``n_ev``: the fields of a ``state.State`` but ``rules``, ``card_value``, ``buf``), the deal
every playout of a sample starts from (``root_masks``, ``root_ints``, ``root_stock``), the rollout's
``params`` and streams, the candidates, their totals and the discards' scores. They live in three flat buffers
(``new_buffers``: uint64, int64, float64), part of every seat's policy scratch, and are viewed as a
``SearchScratch`` only when a search runs (``unpack``): a scratch of nineteen arrays passed through
the driver's calls of every hand cost the rule-based bots a fifth of their speed in reference counts.
"""

from collections import namedtuple
from itertools import accumulate

import numpy as np
from numba import njit

from ...engine.bits import U64
from ...engine.rng import next_u64
from ...engine.search import (
    VALUE_WIN, add_deal, best_first, list_candidates, pick, playout_streams, rollout_params, settings,
    shuffled_unseen,
)
from . import bots as B
from ...engine import melds as M
from .moves import EV_WIDTH, MAX_LEGAL, STOP, apply_in, card_of_index, forced_move_in, is_legal_in, legal_moves_in
from .state import (
    I_ABANDONED_SEAT, I_N_TABLE, I_PHASE, I_PILE_N, I_PLAYERS, I_POINTS, I_SEAT, I_SEED, I_STOCK_N, I_TURN,
    I_WINNER, INTS_SIZE, M_HAND, M_HELD, MASKS_SIZE, M_PILE, M_TABLE, PH_DISCARD, PH_OVER, PH_PLAY, R_ACE_HIGH,
)


SearchScratch = namedtuple("SearchScratch", (
    "masks", "ints", "stock", "pile", "t_mask", "t_kind", "t_lay", "rng", "ev", "n_ev",
    "root_masks", "root_ints", "root_stock", "params", "rngs", "cand", "total", "gain2", "deal_sum", "pool", "score"))

U_SIZES = (MASKS_SIZE, 32, 32, 1, MASKS_SIZE)             # masks, t_mask, t_lay, rng, root_masks; then rngs
I_SIZES = (INTS_SIZE, 64, 64, 32, 1, INTS_SIZE, 64, MAX_LEGAL, 64)  # ints, stock, pile, t_kind, n_ev,
#                                                          root_ints, root_stock, cand, pool
F_SIZES = (MAX_LEGAL, MAX_LEGAL, MAX_LEGAL, MAX_LEGAL)      # total, gain2, deal_sum, score; then params
U_AT, I_AT, F_AT = (tuple(accumulate((0,) + sizes)) for sizes in (U_SIZES, I_SIZES, F_SIZES))  # offsets


@njit(cache=True)
def new_buffers(players):
    """The search's three flat buffers for ``players`` seats: ``(uint64[...], int64[...], float64[...])``."""
    return (np.zeros(U_AT[-1] + players, dtype=np.uint64), np.zeros(I_AT[-1], dtype=np.int64),
            np.zeros(F_AT[-1] + players * B.N_PARAMS, dtype=np.float64))


@njit(cache=True)
def unpack(buffers, players):
    """The ``SearchScratch`` views of ``new_buffers``' arrays (shapes in the module docstring)."""
    u, i, f = buffers
    o, q, r = U_AT, I_AT, F_AT
    return SearchScratch(
        u[o[0]:o[1]], i[q[0]:q[1]], i[q[1]:q[2]], i[q[2]:q[3]], u[o[1]:o[2]], i[q[3]:q[4]], u[o[2]:o[3]],
        u[o[3]:o[4]], np.empty((0, EV_WIDTH), dtype=np.int16), i[q[4]:q[5]],
        u[o[4]:o[5]], i[q[5]:q[6]], i[q[6]:q[7]], f[r[4]:r[4] + players * B.N_PARAMS].reshape(players, B.N_PARAMS),
        u[o[5]:o[5] + players].reshape(players, 1), i[q[7]:q[8]], f[r[0]:r[1]], f[r[1]:r[2]], f[r[2]:r[3]],
        i[q[8]:q[9]], f[r[3]:r[4]])


@njit(cache=True)
def search_move(masks, ints, stock, pile, t_mask, t_kind, t_lay, rules, card_value, buf, params, p,
                melds, sr, sd, sm, legal, rngs, ss):
    """Seat p's move at a searched decision (module docstring); the arrays are the state's
    (``state.State``) and the policy scratch's (``policy.new_scratch``), ``ss`` a ``SearchScratch``."""
    rollout_params(params, p, ss.params, B.P_BOT, B.P_SEARCH)
    limit, samples, playouts, horizon, value_mode, z = settings(params, p, B.P_SEARCH)
    n_cand = candidates(masks, ints, pile, t_lay, rules, card_value, buf, ss.params, p, melds, sr, sd, sm, legal,
                        rngs, ss.cand, ss.score, limit)
    if n_cand == 1:
        return ss.cand[0]
    ss.total[:n_cand] = 0.0
    ss.gain2[:n_cand] = 0.0
    for _ in range(samples):
        determinize(masks, ints, p, ss.root_masks, ss.root_ints, ss.root_stock, ss.pool, rngs[p])
        ss.deal_sum[:n_cand] = 0.0
        for _ in range(playouts):
            key = next_u64(rngs[p])
            for c in range(n_cand):
                start_playout(ss, ints, pile, t_mask, t_kind, t_lay, key)
                ss.deal_sum[c] += playout(ss, rules, card_value, buf, p, ss.cand[c], horizon, value_mode,
                                          melds, sr, sd, sm, legal)
        add_deal(ss.total, ss.gain2, ss.deal_sum, n_cand, playouts)
    return ss.cand[pick(ss.total, ss.gain2, n_cand, samples, z)]


@njit(cache=True)
def candidates(masks, ints, pile, t_lay, rules, card_value, buf, roll, p, melds, sr, sd, sm, legal, rngs, out, score,
               limit):
    """The moves seat p searches into ``out`` int64[MAX_LEGAL], the rollout strategy's (``roll``)
    favourite first, at most ``limit`` (at least 1); returns their count."""
    phase = ints[I_PHASE]
    if phase != PH_DISCARD:
        # drawing: the other source second; playing: stopping second, then the other melds and lay-offs
        first = B.choose_in(masks, ints, pile, t_lay, rules, card_value, buf, roll, p, melds, sr, sd, sm, legal, rngs)
        n_legal = legal_moves_in(masks, ints, t_lay, rules, buf, legal)
        return list_candidates(first, legal, n_legal, out, limit, phase == PH_PLAY, STOP, True)
    n_legal = legal_moves_in(masks, ints, t_lay, rules, buf, legal)
    # PH_DISCARD: by the rollout strategy's discard score, highest first, ties to the higher card as
    # its own choice breaks them (a selection of the top ``limit``)
    ctx = B.discard_context(p, roll, masks, ints, rules, ints[I_PLAYERS])
    for i in range(n_legal):
        score[i] = B.discard_score(card_of_index(legal[i]), ctx, masks, card_value)
    return best_first(legal, score, n_legal, out, limit)


@njit(cache=True)
def determinize(masks, ints, p, root_masks, root_ints, root_stock, pool, rng):
    """One deal of the cards seat p has not seen, into ``root_masks`` uint64[MASKS_SIZE],
    ``root_ints`` int64[INTS_SIZE] and ``root_stock`` int64[64] (copies of the public state).

    Every other seat keeps the cards it is known to hold (``M_HELD``) and gets the rest of its count
    from the unseen cards, shuffled by ``rng`` uint64[1] (``pool`` int64[64] is the shuffle's
    scratch); the stock gets what is left, in that shuffled order. The other seats' private memory
    (``I_ABANDONED_SEAT``) is cleared and the simulated hand gets a reshuffle key of its own."""
    players = ints[I_PLAYERS]
    root_masks[:] = masks
    root_ints[:] = ints
    seen = masks[M_HAND + p] | masks[M_TABLE] | masks[M_PILE]
    for q in range(players):
        if q != p:
            seen |= masks[M_HELD + q]
    shuffled_unseen(seen, pool, rng)
    k = 0
    for q in range(players):
        if q == p:
            continue
        hand = masks[M_HELD + q]
        for _ in range(M.popcount(masks[M_HAND + q]) - M.popcount(masks[M_HELD + q])):
            hand |= M.bit(pool[k])
            k += 1
        root_masks[M_HAND + q] = hand
        root_ints[I_ABANDONED_SEAT + q] = 0
    for i in range(ints[I_STOCK_N]):
        root_stock[i] = pool[k + i]
    root_ints[I_SEED] = np.int64(next_u64(rng) >> U64(1))


@njit(cache=True)
def start_playout(ss, ints, pile, t_mask, t_kind, t_lay, key):
    """The simulated hand ``ss`` back at the sample's deal (``root_*``; the pile and the table are the
    real state's, public), every seat's stream keyed by ``key`` and the seat."""
    ss.masks[:] = ss.root_masks
    ss.ints[:] = ss.root_ints
    ss.stock[:] = ss.root_stock
    ss.pile[:ints[I_PILE_N]] = pile[:ints[I_PILE_N]]
    n_table = ints[I_N_TABLE]
    ss.t_mask[:n_table] = t_mask[:n_table]
    ss.t_kind[:n_table] = t_kind[:n_table]
    ss.t_lay[:n_table] = t_lay[:n_table]
    playout_streams(ss.rngs, key, ints[I_PLAYERS])


@njit(cache=True)
def playout(ss, rules, card_value, buf, p, move, horizon, value_mode, melds, sr, sd, sm, legal):
    """Play ``move`` in the simulated hand ``ss``, then every seat by the rollout strategy
    (``ss.params``, streams ``ss.rngs``) to the end of the hand or ``horizon`` turns (0: no limit);
    returns what it is worth to seat p (``outcome_value`` or ``static_value``)."""
    masks, ints, stock, pile, t_mask, t_kind, t_lay = ss.masks, ss.ints, ss.stock, ss.pile, ss.t_mask, ss.t_kind, ss.t_lay
    apply_in(masks, ints, stock, pile, t_mask, t_kind, t_lay, rules, card_value, ss.ev, ss.n_ev, ss.rng, move)
    stop_at = ints[I_TURN] + horizon if horizon > 0 else -1
    while ints[I_PHASE] != PH_OVER:
        if ints[I_TURN] == stop_at:
            return static_value(masks, ints, rules, card_value, p, value_mode, melds, sr, sd, sm)
        m = forced_move_in(ints)
        if m < 0:
            m = B.choose_in(masks, ints, pile, t_lay, rules, card_value, buf, ss.params, ints[I_SEAT],
                            melds, sr, sd, sm, legal, ss.rngs)
        if not is_legal_in(masks, ints, t_lay, rules, m):
            raise ValueError("a rollout chose an illegal move (see rummysim.variants.basic.moves)")
        apply_in(masks, ints, stock, pile, t_mask, t_kind, t_lay, rules, card_value, ss.ev, ss.n_ev, ss.rng, m)
    return outcome_value(ints, p, value_mode)


@njit(cache=True)
def outcome_value(ints, p, value_mode):
    """A finished hand's worth to seat p. ``VALUE_WIN``: 1 won, 0 lost, 1/players nobody won (as a
    comparison's win share counts it); ``VALUE_POINTS``: the hand's points, + won, - lost (shared
    among the losers), 0 nobody won."""
    players = ints[I_PLAYERS]
    winner = ints[I_WINNER]
    if value_mode == VALUE_WIN:
        if winner < 0:
            return 1.0 / players
        return 1.0 if winner == p else 0.0
    if winner < 0:
        return 0.0
    if winner == p:
        return float(ints[I_POINTS])
    return -float(ints[I_POINTS]) / (players - 1)


@njit(cache=True)
def static_value(masks, ints, rules, card_value, p, value_mode, melds, sr, sd, sm):
    """A hand stopped at the horizon, judged by its least deadwood (rules 1.6's points left in hand
    outside the best melds). ``VALUE_WIN``: as if the seat with the least deadwood won (ties share);
    ``VALUE_POINTS``: the other seats' mean deadwood minus seat p's."""
    players = ints[I_PLAYERS]
    ace_high = rules[R_ACE_HIGH] != 0
    own = 0
    least = 1 << 30
    n_least = 0
    others = 0
    for q in range(players):
        dw, _ = M.best_partition(masks[M_HAND + q], ace_high, card_value, melds, sr, sd, sm)
        if q == p:
            own = dw
        else:
            others += dw
        if dw < least:
            least, n_least = dw, 1
        elif dw == least:
            n_least += 1
    if value_mode == VALUE_WIN:
        return 1.0 / n_least if own == least else 0.0
    return others / (players - 1) - own
