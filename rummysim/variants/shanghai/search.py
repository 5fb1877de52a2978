"""The search bot of Shanghai Rummy (``bot = "search"``): determinized Monte Carlo on the legal-move layer.

The same search as Basic Rummy's (``variants/basic/search.py``; the shared pieces are
``engine.search``). At a decision its ``search.decisions`` bits name (``1 << PH_*``: "draw" the
upcard or the stock, "buy", "play" a contract, lay-off, swap or stop, "discard"), seat p

1. lists its candidate moves (``candidates``), the rollout strategy's choice first: the upcard and
   buying, both answers; playing, at most ``search.candidates``: the rollout's move, stopping,
   the other legal moves in the rules layer's order (``CONTRACT`` lays the rollout's laying, or the
   rules layer's when the rollout did not lay down); discarding, at most ``search.candidates``
   cards in the rollout strategy's order of preference (``bots.discard_score``);
2. ``search.samples`` times deals the cards it has not seen (``determinize``) into the other hands
   and the stock, consistent with everything it has seen: its own hand, the table, the discard pile,
   each hand's count and the copies each seat is known to hold (``state.held``: upcards taken or
   bought and jokers taken back, not since thrown or laid; a buy's penalty card is not known); with
   ``SP_SEARCH_BUILD_STEPS`` a hand not yet down is built from random draws as its seat would have
   kept the best of them (uniform deals give the others hands far from their contracts);
3. for every such deal plays ``search.playouts`` playouts of each candidate (``playout``): the
   candidate, then every seat played by the rollout strategy to the end of the round, or for
   ``search.horizon`` turns and then ``static_value``. Every candidate plays the same deals with
   the same streams (common random numbers);
4. plays the candidate with the highest mean value, provided its mean gain over the rollout
   strategy's favourite, paired deal by deal, is more than ``search.confidence`` tenths of its
   standard error above 0; else the favourite (``engine.search.pick``). The deals are the
   independent units of that standard error: the playouts of one deal share its cards.

Value (``search.value``): a comparison's win share counts games, won by the lowest total after ten
rounds (ties share); a round's part in that is its scores, so ``VALUE_WIN`` is seat p's share of the
round's lowest score (the winner's 0 or bonus; in a round nobody won, the least points in hand, ties
share) and ``VALUE_POINTS`` the other seats' mean score minus p's (penalty points are lower-better,
so this is a gain). At a horizon the round is judged as if it ended there with no winner: every seat
scores its hand (rules 2.7).

Every random choice comes from seat p's own stream (``rngs[p]``): the deals, the keys of the simulated
reshuffles, the simulated seats' streams; the search reads nothing seat p may not see.

Per searched decision it makes the simulated round (``_sim_state``: its own hands, counters, stock,
pile, table, proposal and known cards, the real state's scratch arrays, no event log) and the deal
every playout of a sample starts from; the rest is the ``SearchScratch`` (``policy.new_scratch``):
the simulated seats' ``BotScratch`` (the policies' scratch arrays with streams of their own), the
rollout's ``params``, the candidates, their totals, one deal's sums, the discards' scores, a card count
``unseen`` and the ``points``.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from ...engine.rng import below, next_u64, shuffle
from ...engine.search import (
    VALUE_WIN, add_deal, best_first, list_candidates, pick, playout_streams, rollout_params, settings,
)
from . import bots as B
from .moves import EV_WIDTH, STOP, apply, is_legal, is_over, legal_moves, scores
from .state import (
    I_PHASE, I_SEAT, I_SEED, JOKER, PH_DISCARD, PH_PLAY, SI_DISTANCE_SEAT, SI_DOWN_TURN_SEAT, SI_N_TABLE,
    SI_OWN_TURNS_SEAT, SI_PILE_N, SI_ROUND, SI_STOCK_N, SI_TURN, SR_ACE_HIGH, SR_DECKS, SR_JOKERS, State,
)
from .table import hand_points, hand_size, table_counts

SearchScratch = namedtuple("SearchScratch", (
    "bots", "params", "cand", "total", "gain2", "deal_sum", "score", "unseen", "points"))


@njit(cache=True)
def search_move(state, params, p, scratch):
    """Seat p's move at a searched decision (module docstring); ``scratch`` is the policy scratch
    (``policy.new_scratch``), its ``search`` a ``SearchScratch``."""
    ss = scratch.search
    rollout_params(params, p, ss.params, B.SP_BOT, B.SP_SEARCH)
    limit, samples, playouts, horizon, value_mode, z = settings(params, p, B.SP_SEARCH)
    n_cand = candidates(state, ss.params, p, scratch, ss.cand, limit)
    if n_cand == 1:
        return ss.cand[0]
    players = state.hands.shape[0]
    rng = scratch.rngs[p]
    sim = _sim_state(state)
    root_hands, root_ints, root_stock = state.hands.copy(), state.ints.copy(), state.stock.copy()
    pool = np.empty(state.stock.shape[0], dtype=np.int64)
    work = np.empty(B.WORK_SIZE, dtype=np.int64)
    build_steps = np.int64(params[p, B.SP_SEARCH_BUILD_STEPS])
    ss.total[:n_cand] = 0.0
    ss.gain2[:n_cand] = 0.0
    for _ in range(samples):
        determinize(state, p, root_hands, root_ints, root_stock, pool, ss.unseen, build_steps, ss.params, work, rng)
        ss.deal_sum[:n_cand] = 0.0
        for _ in range(playouts):
            key = next_u64(rng)
            for c in range(n_cand):
                _start_from(sim, state, root_hands, root_ints, root_stock)
                playout_streams(ss.bots.rngs, key, players)
                ss.deal_sum[c] += playout(sim, ss, p, ss.cand[c], horizon, value_mode)
        add_deal(ss.total, ss.gain2, ss.deal_sum, n_cand, playouts)
    return ss.cand[pick(ss.total, ss.gain2, n_cand, samples, z)]


@njit(cache=True)
def candidates(state, roll, p, scratch, out, limit):
    """The moves seat p searches into ``out`` int64[MAX_LEGAL], the rollout strategy's (``roll``)
    favourite first, at most ``limit`` (at least 1) when playing or discarding; returns their count.
    ``scratch`` is the policy scratch (the rollout's choice draws from seat p's stream)."""
    phase = state.ints[I_PHASE]
    legal = scratch.out
    if phase == PH_DISCARD:
        return _discards_in_order(state, roll, p, scratch, out, limit)
    first = B.choose(state, roll, p, scratch)
    n_legal = legal_moves(state, legal)   # keeps a legal proposal of the rollout's (CONTRACT)
    return list_candidates(first, legal, n_legal, out, limit, phase == PH_PLAY, STOP,
                           n_legal > 0 and legal[0] == STOP)


@njit(cache=True)
def _discards_in_order(state, roll, p, scratch, out, limit):
    """The legal discards by the rollout strategy's discard score (``bots.discard_score``), the card
    it would keep least first, ties to the higher card as its own choice breaks them; at most ``limit``."""
    legal = scratch.out
    n_legal = legal_moves(state, legal)
    down, d0, stalling, hopeless = B.discard_context(state, p, scratch.dwork)
    par, counts, table, ints = roll[p], state.hands[p], state.table, state.ints
    ace_high = state.rules[SR_ACE_HIGH] != 0
    score = scratch.search.score
    for i in range(n_legal):   # lower keeps less: the score negated, so that best_first's highest is thrown first
        score[i] = -B.discard_score(counts, legal[i], par, table, ints[SI_N_TABLE], ints[SI_ROUND], ace_high,
                                    down, d0, stalling, hopeless, scratch.dwork)
    return best_first(legal, score, n_legal, out, limit)


@njit(cache=True)
def determinize(state, p, root_hands, root_ints, root_stock, pool, unseen, build_steps, roll, work, rng):
    """One deal of the cards seat p has not seen, into ``root_hands`` int64[players, 64],
    ``root_ints`` int64[SI_SIZE] and ``root_stock`` int64[cards] (copies of the public state).

    The unseen cards (``unseen`` int64[64] is their count per card) are the deck less p's hand, the
    table, the discard pile and the copies each other seat is known to hold (``state.held``). Every
    other seat keeps its known copies and gets the rest of its count from them, shuffled by ``rng``
    uint64[1] (``pool`` int64[cards] is the shuffle's scratch); the stock gets what is left, in
    shuffled order. A seat not yet down has kept the best of what it drew: its dealt hand is built
    ``build_steps`` (``SP_SEARCH_BUILD_STEPS``) times per turn it has played this round, by the
    rollout strategy's discard scores (``roll`` float64[players, N_SHANGHAI_PARAMS]; ``work``
    int64[WORK_SIZE]; ``_deal_hidden``); 0 keeps the deals uniform. The other seats' cached
    distances are cleared and the simulated round gets a reshuffle key of its own."""
    hands, ints, held = state.hands, state.ints, state.held
    players = hands.shape[0]
    root_hands[:] = hands
    root_ints[:] = ints
    table_counts(state.table, ints[SI_N_TABLE], unseen)
    for k in range(ints[SI_PILE_N]):
        unseen[state.pile[k]] += 1
    n = 0
    for c in range(64):
        total = state.rules[SR_JOKERS] if c == JOKER else (state.rules[SR_DECKS] if (c & 15) < 13 else 0)
        left = total - unseen[c] - hands[p, c]
        for q in range(players):
            if q != p:
                left -= held[q, c]
        for _ in range(left):
            pool[n] = c
            n += 1
    shuffle(rng, pool, n)
    k = 0
    ace_high = state.rules[SR_ACE_HIGH] != 0
    for q in range(players):
        if q == p:
            continue
        root_hands[q, :] = held[q]
        hidden = hand_size(hands[q]) - hand_size(held[q])
        draws = 0
        if ints[SI_DOWN_TURN_SEAT + q] == 0:
            draws = build_steps * ints[SI_OWN_TURNS_SEAT + q]
        _deal_hidden(root_hands[q], pool, k, n, hidden, draws, roll[q], state.table, ints[SI_N_TABLE],
                     ints[SI_ROUND], ace_high, work, rng)
        k += hidden
        root_ints[SI_DISTANCE_SEAT + q] = 0
    n_stock = ints[SI_STOCK_N]
    if k + n_stock != n:
        raise AssertionError("determinize: the unseen cards do not fill the hidden hands and the stock")
    if build_steps > 0:   # the steps moved cards about: the stock's order afresh
        shuffle(rng, pool[k:], n_stock)
    for i in range(n_stock):
        root_stock[i] = pool[k + i]
    root_ints[I_SEED] = np.int64(next_u64(rng) >> np.uint64(1))


@njit(cache=True)
def _deal_hidden(hand, pool, k, n, hidden, draws, par, table, n_table, round_no, ace_high, work, rng):
    """Add ``hidden`` cards of ``pool[k:n]`` (shuffled) to ``hand`` int64[64], the seat's known copies:
    ``pool[k:k + hidden]``, then ``draws`` times a random card of the rest of the pool is added and,
    of the hidden cards and the one drawn (the drawn one on a tie), the card the rollout strategy
    (vector ``par``) would keep least (``bots.discard_score``) goes back to the pool in the drawn
    card's place. The cards dealt end at ``pool[k:k + hidden]``."""
    for i in range(hidden):
        hand[pool[k + i]] += 1
    rest = n - k - hidden
    if hidden == 0 or rest == 0:
        return
    for _ in range(draws):
        j = k + hidden + below(rng, rest)
        drawn = pool[j]
        hand[drawn] += 1
        d0 = B.distance_in(hand, round_no, ace_high, work)
        B.keep_hand_levels(hand, ace_high, work)
        throw = -1
        least = np.int64(1 << 40)
        for i in range(hidden):   # a hidden copy (the known ones stay), or the card just drawn
            c = pool[k + i]
            score = B.discard_score(hand, c, par, table, n_table, round_no, ace_high, False, d0, False, False, work)
            if score < least:
                least, throw = score, i
        if B.discard_score(hand, drawn, par, table, n_table, round_no, ace_high, False, d0, False, False, work) <= least:
            hand[drawn] -= 1
            continue
        c = pool[k + throw]
        hand[c] -= 1
        pool[k + throw], pool[j] = drawn, c


@njit(cache=True)
def _sim_state(state):
    """A ``State`` to simulate the round in: its own round arrays, the real state's scratch arrays
    (the search runs between two moves of the real round, on one thread) and no event log."""
    return State(state.hands.copy(), state.ints.copy(), state.stock.copy(), state.pile.copy(), state.table.copy(),
                 state.melds.copy(), state.listing, state.counts, state.row, state.rng1.copy(), state.rules,
                 np.zeros((0, EV_WIDTH), dtype=np.int16), np.zeros(1, dtype=np.int64), state.cand, state.chosen,
                 state.ranks, state.left, state.trial, state.held.copy(), state.solver)


@njit(cache=True)
def _start_from(sim, state, root_hands, root_ints, root_stock):
    """Put the simulated round back at the deal ``root_*`` of the real ``state``'s position."""
    ints = state.ints
    sim.hands[:] = root_hands
    sim.ints[:] = root_ints
    sim.stock[:ints[SI_STOCK_N]] = root_stock[:ints[SI_STOCK_N]]
    sim.pile[:ints[SI_PILE_N]] = state.pile[:ints[SI_PILE_N]]
    sim.table[:ints[SI_N_TABLE]] = state.table[:ints[SI_N_TABLE]]
    sim.melds[:] = state.melds
    sim.held[:] = state.held


@njit(cache=True, _nrt=False)
def playout(sim, ss, p, move, horizon, value_mode):
    """Play ``move`` in the simulated round ``sim``, then every seat by the rollout strategy
    (``ss.params``, the simulated seats' ``ss.bots``) to the end of the round or ``horizon`` turns
    (0: no limit); returns what it is worth to seat p (``outcome_value`` or ``static_value``)."""
    apply(sim, move)
    stop_at = sim.ints[SI_TURN] + horizon if horizon > 0 else -1
    while not is_over(sim):
        if sim.ints[SI_TURN] == stop_at:
            return static_value(sim, p, value_mode, ss.points)
        m = B.choose(sim, ss.params, sim.ints[I_SEAT], ss.bots)
        if not is_legal(sim, m):
            raise ValueError("a rollout chose an illegal move (see rummysim.variants.shanghai.moves)")
        apply(sim, m)
    return outcome_value(sim, p, value_mode, ss.points)


@njit(cache=True)
def outcome_value(sim, p, value_mode, points):
    """A finished round's worth to seat p, from its scores (rules 2.7) in ``points`` int64[players]
    (``round_value``)."""
    scores(sim, points)
    return round_value(points, p, value_mode)


@njit(cache=True)
def static_value(sim, p, value_mode, points):
    """A round stopped at the horizon, judged as if it ended there with no winner: every seat scores
    the points in its hand (``round_value``)."""
    for q in range(points.shape[0]):
        points[q] = hand_points(sim.hands[q])
    return round_value(points, p, value_mode)


@njit(cache=True)
def round_value(points, p, value_mode):
    """Seat p's worth of a round scored ``points`` int64[players] (lower is better). ``VALUE_WIN``:
    its share of the lowest score (ties share); ``VALUE_POINTS``: the other seats' mean score minus p's."""
    players = points.shape[0]
    if value_mode == VALUE_WIN:
        least = points[0]
        for q in range(1, players):
            least = min(least, points[q])
        if points[p] != least:
            return 0.0
        ties = 0
        for q in range(players):
            ties += points[q] == least
        return 1.0 / ties
    others = 0
    for q in range(players):
        if q != p:
            others += points[q]
    return others / (players - 1) - points[p]
