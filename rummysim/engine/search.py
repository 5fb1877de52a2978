"""What the search bots of every variant do alike (``variants/<name>/search.py``): which decisions a
seat searches, the rollout strategy's vector, the order of the candidates, the simulated seats' streams
of a playout, the sums over the deals and the rule for trusting a candidate's paired difference over
the rollout strategy's favourite (``pick``).

A search bot's keys are one block of the variant's parameter vector, in the order of the ``*`` slots
below, starting at the variant's ``base`` slot (``Variant.search_slot``); the helpers take ``base``.
"""

import numpy as np
from numba import njit

from .bits import U64, lowest_card
from .codes import BOT_SEARCH
from .melds import FULL_DECK
from .rng import GOLDEN, mix64, shuffle


#: ``search.value``: the unit won (1) or not (0) / its points
VALUE_WIN = 0
VALUE_POINTS = 1

# the search block of a parameter vector, from its ``base`` slot
ROLLOUT_BOT = 0   # the rollout's bot key: BOT_FAMILY or BOT_RANDOM (engine.codes)
SAMPLES = 1       # deals of the unseen cards per decision
PLAYOUTS = 2      # playouts per candidate move and deal
HORIZON = 3       # turns played before the static evaluation; 0: to the end of the hand or round
DECISIONS = 4     # bit (1 << PH_*) set: that decision is searched
CANDIDATES = 5    # candidate moves kept, in the rollout policy's order
VALUE = 6         # VALUE_WIN or VALUE_POINTS
CONFIDENCE = 7    # standard errors by which a candidate must beat the rollout's favourite, x10
SEARCH_SLOTS = 8


@njit(cache=True)
def any_search(params, bot_slot):
    """True when some seat of ``params`` float64[players, n] is a search bot (``BOT_SEARCH`` in its
    ``bot_slot``): the drivers play the rule-based bots straight, without the policy, otherwise."""
    for q in range(params.shape[0]):
        if params[q, bot_slot] == BOT_SEARCH:
            return True
    return False


@njit(cache=True)
def searches(params, p, phase, base):
    """True when seat p's search bot searches decision ``phase``: bit ``1 << phase`` of its
    ``params[p, base + DECISIONS]`` (float64[players, n])."""
    return (np.int64(params[p, base + DECISIONS]) >> phase) & 1 != 0


@njit(cache=True)
def settings(params, p, base):
    """Seat p's search keys from ``params`` float64[players, n]: ``(candidates, samples, playouts,
    horizon, value_mode)`` int64 and the confidence ``z`` float64 (standard errors)."""
    row = params[p]
    return (np.int64(row[base + CANDIDATES]), np.int64(row[base + SAMPLES]), np.int64(row[base + PLAYOUTS]),
            np.int64(row[base + HORIZON]), np.int64(row[base + VALUE]), row[base + CONFIDENCE] / 10.0)


@njit(cache=True)
def rollout_params(params, p, out, bot_slot, base):
    """Every seat of ``out`` float64[players, n] plays seat p's rollout strategy: p's vector with its
    rollout's bot key (``params[p, base + ROLLOUT_BOT]``, family or random) in its ``bot_slot``.
    (Element by element: Gin Rummy's search calls it where Numba counts no references, which a
    slice assignment needs.)"""
    for q in range(out.shape[0]):
        for k in range(out.shape[1]):
            out[q, k] = params[p, k]
        out[q, bot_slot] = params[p, base + ROLLOUT_BOT]


@njit(cache=True)
def playout_streams(rngs, key, players):
    """The simulated seats' streams of one playout (``rngs`` uint64[>=players, 1]), all from ``key``
    (one draw of the searching seat's stream): every candidate replays them (common random numbers)."""
    for q in range(players):
        rngs[q, 0] = mix64(key ^ (U64(q + 1) * GOLDEN))


@njit(cache=True)
def shuffled_unseen(seen, pool, rng):
    """The cards of the deck not in the card mask ``seen`` into ``pool`` int64[>=52], lowest first, then
    shuffled by ``rng`` uint64[1] (a determinization's deal of the cards a seat has not seen);
    returns their count."""
    n = 0
    unseen = FULL_DECK & ~seen
    while unseen:
        pool[n] = lowest_card(unseen)
        unseen &= unseen - U64(1)
        n += 1
    shuffle(rng, pool, n)
    return n


@njit(cache=True)
def list_candidates(first, legal, n_legal, out, limit, playing, stop, stop_legal):
    """The candidates of a draw, buy or play decision into ``out`` int64[>=n_legal], their count: the
    rollout strategy's ``first``, then (playing, when ``stop_legal`` and there is room) ``stop``, then
    the other moves of ``legal`` int64[n_legal] in its order; at most ``limit`` when ``playing``
    (a draw or buy has two answers, both searched)."""
    out[0] = first
    n = 1
    if playing and first != stop and n < limit and stop_legal:
        out[n] = stop
        n += 1
    for i in range(n_legal):
        if n >= limit and playing:
            break
        if legal[i] != first and legal[i] != stop:
            out[n] = legal[i]
            n += 1
    return n


@njit(cache=True)
def best_first(legal, score, n_legal, out, limit):
    """The at most ``limit`` moves of ``legal`` int64[n_legal] with the highest ``score``
    float64[n_legal] (ties to the higher move, as the rule-based discards break them) into ``out``,
    best first (a selection: ``legal`` and ``score`` are reordered); returns their count."""
    n = min(n_legal, limit)
    for k in range(n):
        best = k
        for i in range(k + 1, n_legal):
            if score[i] > score[best] or (score[i] == score[best] and legal[i] > legal[best]):
                best = i
        legal[k], legal[best] = legal[best], legal[k]
        score[k], score[best] = score[best], score[k]
        out[k] = legal[k]
    return n


@njit(cache=True)
def add_deal(total, gain2, deal_sum, n_cand, playouts):
    """Fold one deal into the candidates' sums: ``deal_sum`` float64[>=n_cand] holds each candidate's
    total over the deal's ``playouts``; ``total`` gets its mean, ``gain2`` the square of its mean gain
    over candidate 0 (the deal is the unit ``pick``'s standard error counts)."""
    for c in range(n_cand):
        total[c] += deal_sum[c] / playouts
        gain = (deal_sum[c] - deal_sum[0]) / playouts
        gain2[c] += gain * gain


@njit(cache=True)
def pick(total, gain2, n_cand, n, z):
    """Index of the candidate to play: the best mean value of ``total`` float64[n_cand] (sums over
    ``n`` deals of each deal's mean value), if its mean gain over candidate 0 exceeds ``z`` standard
    errors of that mean (``gain2``: sums over the deals of the squared gains), else 0. The deals are
    the independent units: the playouts of one deal share its cards."""
    best = 0
    for c in range(1, n_cand):
        if total[c] > total[best]:
            best = c
    if best == 0 or n < 2:
        return best
    mean = (total[best] - total[0]) / n
    var = (gain2[best] / n - mean * mean) * n / (n - 1)
    return best if mean > z * np.sqrt(max(var, 0.0) / n) else 0
