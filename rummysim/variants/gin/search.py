"""The search bot of Gin Rummy (``bot = "search"``): determinized Monte Carlo on the legal-move layer, as
Basic Rummy's (``variants/basic/search.py``; what every variant's does alike is ``engine.search``).

At a decision its ``search.decisions`` bits name (``upcard``: the first upcard, ``draw``, ``discard``
with the knock), seat p

1. lists its candidate moves (``candidates``), the rollout strategy's choice first: at the first
   upcard and a draw, both answers; discarding, at most ``search.candidates``: the rollout's move,
   the knock when it is allowed, then the cards in the rollout strategy's order of preference
   (``bots.discard_score``);
2. ``search.samples`` times deals the cards it has not seen (``determinize``) into the opponent's
   hand and the stock, consistent with everything it has seen: its own hand, the discard pile, the
   table and the cards the opponent took from the pile and still holds (``M_HELD``);
3. for every such deal plays ``search.playouts`` playouts of each candidate (``playout``): the
   candidate, then both seats by the rollout strategy to the end of the hand, or for
   ``search.horizon`` turns and then ``static_value``. Every candidate plays the same deals with the
   same streams (common random numbers);
4. plays the candidate with the highest mean value (``outcome_value``) if its mean gain over the
   rollout's favourite, paired deal by deal, is more than ``search.confidence`` tenths of its
   standard error (``engine.search.pick``); else the favourite.

Every random choice comes from seat p's own stream, so a hand is still a pure function of the seed,
the game and the hand, whatever the threads or workers; and the search reads nothing seat p may
not see (tests/test_search_gin.py deals the unseen cards again and expects the same move).

The search's arrays (``SearchScratch``, ``new_search``): ``sim`` a ``state.State`` of its own for the
hand being simulated (the real hand's rules and card values, no event log),
the deal every playout of a sample starts from (``root_masks`` uint64[MASKS_SIZE], ``root_ints``
int64[INTS_SIZE], the stock in it), the rollout's ``params`` float64[2, N_PARAMS] and
streams ``rngs`` uint64[2, 1], ``cand`` int64[MAX_LEGAL] the candidates, ``total``/``gain2``/
``deal_sum``/``score`` float64[MAX_LEGAL] their sums and the discards' scores, ``pool`` int64[64]
the unseen cards and ``weight`` float64[64] their weights (``search.deals``), ``legal``
int64[MAX_LEGAL]. Like the rules layer, it is compiled without
reference counting (docs/development.md): it allocates nothing and returns no array.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from ...engine import melds as M
from ...engine.bits import U64
from ...engine.rng import below, next_u64, shuffle
from ...engine.search import (
    VALUE_WIN, add_deal, best_first, list_candidates, pick, playout_streams, settings, shuffled_unseen,
)
from ...engine.views import copy_into
from . import bots as B
from .deadwood import deadwood, discard_deadwood
from .moves import EV_WIDTH, KNOCK, MAX_LEGAL, PASS, apply, card_index, forced_move, is_legal, legal_moves
from .state import (
    I_DISCARDS_SEAT, I_LEFT_AFTER, I_PHASE, I_POINTS, I_SEAT, I_STOCK, I_STOCK_N, I_TURN, I_WINNER, INTS_SIZE, M_HAND,
    M_HELD, M_PASSED, M_PILE, M_TABLE, M_THREW, MASKS_SIZE, PH_DISCARD, PH_OVER, new_state,
)

SearchScratch = namedtuple("SearchScratch", (
    "sim", "root_masks", "root_ints", "params", "rngs", "cand", "total", "gain2", "deal_sum", "score",
    "pool", "weight", "legal"))

@njit(cache=True)
def new_search(rules, card_value):
    """The search's arrays (module docstring), its simulated hand on the real hand's ``rules``
    int64[RULES_SIZE] and ``card_value`` int64[64], with an event log of no rows (nothing logged)."""
    n = MAX_LEGAL
    return SearchScratch(
        new_state(rules, card_value, np.zeros((0, EV_WIDTH), dtype=np.int16)),
        np.zeros(MASKS_SIZE, dtype=np.uint64), np.zeros(INTS_SIZE, dtype=np.int64),
        np.zeros((2, B.N_PARAMS)), np.zeros((2, 1), dtype=np.uint64), np.zeros(n, dtype=np.int64), np.zeros(n),
        np.zeros(n), np.zeros(n), np.zeros(n), np.zeros(64, dtype=np.int64), np.zeros(64), np.zeros(n, dtype=np.int64))


@njit(cache=True, _nrt=False)
def search_move(state, params, p, rngs, ss):
    """Seat p's move at a searched decision (module docstring); ``rngs`` uint64[2, 1] the seats'
    streams, ``ss`` the search's arrays (``new_search``), ``ss.params`` already the rollout strategy's
    (``engine.search.rollout_params``, which needs reference counting)."""
    limit, samples, playouts, horizon, value_mode, z = settings(params, p, B.P_SEARCH)
    n_cand = candidates(state, ss.params, p, rngs, ss, limit)
    if n_cand == 1:
        return ss.cand[0]
    for c in range(n_cand):
        ss.total[c] = 0.0
        ss.gain2[c] = 0.0
    inferred = params[p, B.P_SEARCH_INFER] == B.INFER_TABLE
    build_steps = np.int64(params[p, B.P_SEARCH_BUILD])
    for _ in range(samples):
        determinize(state, p, ss.root_masks, ss.root_ints, ss.pool, ss.weight, inferred, build_steps, ss.sim,
                    rngs[p])
        for c in range(n_cand):
            ss.deal_sum[c] = 0.0
        for _ in range(playouts):
            key = next_u64(rngs[p])
            for c in range(n_cand):
                start_playout(ss, key)
                ss.deal_sum[c] += playout(ss, p, ss.cand[c], horizon, value_mode)
        add_deal(ss.total, ss.gain2, ss.deal_sum, n_cand, playouts)
    return ss.cand[pick(ss.total, ss.gain2, n_cand, samples, z)]


@njit(cache=True, _nrt=False)
def candidates(state, roll, p, rngs, ss, limit):
    """The moves seat p searches into ``ss.cand``, the rollout strategy's (``roll``) favourite first, at
    most ``limit`` (at least 1) when discarding; returns their count."""
    legal, out = ss.legal, ss.cand
    first = B.choose(state, roll, p, legal, rngs)
    n_legal = legal_moves(state, legal)
    if state.ints[I_PHASE] != PH_DISCARD:   # the first upcard or a draw: both answers
        return list_candidates(first, legal, n_legal, out, limit, False, PASS, False)
    out[0] = first
    n = 1
    knock = False
    k = 0
    near_own, near_held = B.near_cards(state.masks[M_HAND + p]), B.near_cards(state.masks[M_HELD + 1 - p])
    for i in range(n_legal):
        if legal[i] == KNOCK:
            knock = True
        elif legal[i] < 52 and legal[i] != first:
            ss.pool[k] = legal[i]
            ss.score[k] = -B.discard_score(state.ints, state.card_value, roll, p, legal[i], False, near_own, near_held)
            k += 1
    if knock and first != KNOCK and n < limit:
        out[n] = KNOCK
        n += 1
    m = best_first(ss.pool, ss.score, k, legal, max(limit - n, 0))   # ``legal`` is free again
    for i in range(m):
        out[n + i] = legal[i]
    return n + m


#: ``search.deals = "inferred"``: how likely an unseen card is in the opponent's hand against one the
#: table says nothing of, by whether it is near (``bots.near_cards``: a pair or a near run with) a card
#: the opponent threw (bit 2), an upcard it passed on (bit 1), a card it took and holds (bit 0).
#: Measured: the share of such unseen cards in the hand of an ``expert`` opponent at the other seat's
#: draws, 300 games of expert against expert (benchmarks/gin_inference.py), over the share of cards
#: in none of the three (0.342). A card it threw near one it passed on is a quarter as likely.
INFER_WEIGHT = np.array([1.0, 1.73, 0.82, 1.75, 0.68, 1.61, 0.27, 1.13])


@njit(cache=True, _nrt=False)
def determinize(state, p, root_masks, root_ints, pool, weight, inferred, build_steps, scratch, rng):
    """One deal of the cards seat p has not seen, into ``root_masks`` and ``root_ints`` (copies of the
    public state): the opponent keeps the cards it is known to hold (``M_HELD``) and gets the rest of
    its count from the unseen cards, shuffled by ``rng`` uint64[1] (``pool`` int64[64] scratch); the
    stock gets what is left, in that shuffled order. ``inferred``: the opponent's cards are drawn
    one by one, each unseen card with chance in proportion to its ``INFER_WEIGHT`` (``weight``
    float64[64] scratch), not uniformly. ``build_steps`` > 0: the dealt hand is then built as a
    hand kept by play is (``build_hidden``, ``scratch`` a state whose work arrays and ``I_LEFT_AFTER``
    it may use), and the stock shuffled again."""
    masks, ints = state.masks, state.ints
    q = 1 - p
    copy_into(root_masks, masks, len(masks))
    copy_into(root_ints, ints, len(ints))
    seen = masks[M_HAND + p] | masks[M_TABLE] | masks[M_PILE] | masks[M_HELD + q]
    n = shuffled_unseen(seen, pool, rng)
    hand = masks[M_HELD + q]
    k = M.popcount(masks[M_HAND + q]) - M.popcount(hand)
    if inferred:
        weighted_front(masks, q, pool, n, k, weight, rng)
    for i in range(k):
        hand |= M.bit(pool[i])
    if build_steps > 0 and k > 0 and n > k:
        hand = build_hidden(scratch, hand, masks[M_HELD + q], pool, n, k, build_steps * ints[I_DISCARDS_SEAT + q], rng)
        shuffle(rng, pool[k:], n - k)   # the steps moved cards about: the stock's order afresh
    root_masks[M_HAND + q] = hand
    for i in range(ints[I_STOCK_N]):
        root_ints[I_STOCK + i] = pool[k + i]


@njit(cache=True, _nrt=False)
def build_hidden(scratch, hand, held, pool, n, k, draws, rng):
    """The opponent's dealt hand (card mask ``hand``: its known cards ``held`` and the hidden
    ``pool[:k]``) built ``draws`` times as play builds a hand: a random card of the rest of the pool
    (``pool[k:n]``) comes in, and of the hidden cards and the one drawn, the card whose discard leaves
    the least deadwood (``deadwood.discard_deadwood`` on ``scratch``; the drawn one on a tie) goes back
    to the pool in the drawn card's place. Returns the built hand; ``pool[:k]`` are its hidden cards."""
    ints = scratch.ints
    for _ in range(draws):
        j = k + below(rng, n - k)
        drawn = pool[j]
        full = hand | M.bit(drawn)
        discard_deadwood(scratch, full, held, True)
        out = -1
        least = ints[I_LEFT_AFTER + card_index(drawn)]
        for i in range(k):
            left = ints[I_LEFT_AFTER + card_index(pool[i])]
            if left < least:
                least = left
                out = i
        if out >= 0:
            hand = full & ~M.bit(pool[out])
            pool[j] = pool[out]
            pool[out] = drawn
    return hand


@njit(cache=True, _nrt=False)
def weighted_front(masks, q, pool, n, k, weight, rng):
    """Reorder ``pool[:n]`` (shuffled card ids) so that its first ``k`` are a draw without replacement
    of the opponent q's hidden cards, each card's chance in proportion to ``INFER_WEIGHT`` of what
    ``masks`` show of q's play (``weight`` float64[64] scratch, per pool slot); the rest stay shuffled."""
    near_threw = B.near_cards(masks[M_THREW + q])
    near_passed = B.near_cards(masks[M_PASSED + q])
    near_held = B.near_cards(masks[M_HELD + q])
    total = 0.0
    for i in range(n):
        b = M.bit(pool[i])
        cell = (4 if near_threw & b else 0) + (2 if near_passed & b else 0) + (1 if near_held & b else 0)
        weight[i] = INFER_WEIGHT[cell]
        total += weight[i]
    for j in range(k):
        x = (next_u64(rng) >> U64(11)) * (1.0 / 9007199254740992.0) * total
        i = j
        while i < n - 1 and x >= weight[i]:
            x -= weight[i]
            i += 1
        total -= weight[i]
        pool[i], pool[j] = pool[j], pool[i]
        weight[i], weight[j] = weight[j], weight[i]


@njit(cache=True, _nrt=False)
def start_playout(ss, key):
    """The simulated hand back at the sample's deal (``root_*``), both seats' streams keyed by ``key``."""
    sim = ss.sim
    copy_into(sim.masks, ss.root_masks, len(sim.masks))
    copy_into(sim.ints, ss.root_ints, len(sim.ints))
    playout_streams(ss.rngs, key, 2)


@njit(cache=True, _nrt=False)
def playout(ss, p, move, horizon, value_mode):
    """Play ``move`` in the simulated hand, then both seats by the rollout strategy (``ss.params``,
    streams ``ss.rngs``) to the end of the hand or ``horizon`` turns (0: no limit); returns what it is
    worth to seat p (``outcome_value`` or ``static_value``)."""
    sim = ss.sim
    ints = sim.ints
    apply(sim, move)
    stop_at = ints[I_TURN] + horizon if horizon > 0 else -1
    while ints[I_PHASE] != PH_OVER:
        if ints[I_TURN] == stop_at:
            return static_value(sim, p, value_mode)
        m = forced_move(sim)
        if m < 0:
            m = B.choose(sim, ss.params, ints[I_SEAT], ss.legal, ss.rngs)
        if not is_legal(sim, m):
            raise ValueError("a rollout chose an illegal move (see rummysim.variants.gin.moves)")
        apply(sim, m)
    return outcome_value(ints, p, value_mode)


@njit(cache=True, _nrt=False)
def outcome_value(ints, p, value_mode):
    """A finished hand's worth to seat p. ``VALUE_WIN``: 1 won, 0 lost, 1/2 no score (as a comparison's
    win share counts it); ``VALUE_POINTS``: the hand's points, + won, - lost, 0 no score."""
    winner = ints[I_WINNER]
    if value_mode == VALUE_WIN:
        if winner < 0:
            return 0.5
        return 1.0 if winner == p else 0.0
    if winner < 0:
        return 0.0
    return float(ints[I_POINTS]) if winner == p else -float(ints[I_POINTS])


@njit(cache=True, _nrt=False)
def static_value(sim, p, value_mode):
    """A hand stopped at the horizon, judged by each seat's least deadwood (rules 4.2). ``VALUE_WIN``: as
    if the seat with less deadwood won (a tie: a half); ``VALUE_POINTS``: the opponent's deadwood
    minus seat p's."""
    own = deadwood(sim, sim.masks[M_HAND + p])
    other = deadwood(sim, sim.masks[M_HAND + 1 - p])
    if value_mode == VALUE_WIN:
        return 1.0 if own < other else 0.5 if own == other else 0.0
    return float(other - own)
