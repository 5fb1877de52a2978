"""What the search bots of every variant do alike (``variants/<name>/search.py``): which decisions a
seat searches, the rollout strategy's vector, the simulated seats' streams of a playout, and the rule
for trusting a candidate's paired difference over the rollout strategy's favourite (``pick``).

The parameter vectors are the variants' own; these helpers take the slots they read as arguments.
"""

import numpy as np
from numba import njit

from .rng import GOLDEN, mix64

U64 = np.uint64

#: ``search.value``: the unit won (1) or not (0) / its points
VALUE_WIN = 0
VALUE_POINTS = 1


@njit(cache=True)
def searches(params, p, phase, decisions_slot):
    """True when seat p's search bot searches decision ``phase``: bit ``1 << phase`` of its
    ``params[p, decisions_slot]`` (float64[players, n])."""
    return (np.int64(params[p, decisions_slot]) >> phase) & 1 != 0


@njit(cache=True)
def rollout_params(params, p, out, bot_slot, rollout_bot_slot):
    """Every seat of ``out`` float64[players, n] plays seat p's rollout strategy: p's vector with its
    rollout's bot key (``params[p, rollout_bot_slot]``, family or random) in its ``bot_slot``."""
    for q in range(out.shape[0]):
        out[q, :] = params[p, :]
        out[q, bot_slot] = params[p, rollout_bot_slot]


@njit(cache=True)
def playout_streams(rngs, key, players):
    """The simulated seats' streams of one playout (``rngs`` uint64[>=players, 1]), all from ``key``
    (one draw of the searching seat's stream): every candidate replays them (common random numbers)."""
    for q in range(players):
        rngs[q, 0] = mix64(key ^ (U64(q + 1) * GOLDEN))


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
