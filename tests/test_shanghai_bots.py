"""The Shanghai bots' measure of a hand's distance to its contract (``rummysim.variants.shanghai.bots``)."""

import numpy as np
import pytest

from rummysim.variants.shanghai import bots as B
from rummysim.variants.shanghai.contracts import CONTRACTS, best_contract, MAX_RUN_CANDIDATES, RUN_COLS

pytestmark = pytest.mark.engine


def _hands(seed: int, n: int, decks: int):
    rng = np.random.default_rng(seed)
    deck = np.array([16 * s + r for s in range(4) for r in range(13)] * decks + [63, 63])
    for _ in range(n):
        counts = np.zeros(64, dtype=np.int64)
        for c in rng.choice(deck, int(rng.integers(8, 20)), replace=False):
            counts[c] += 1
        yield counts, int(rng.integers(1, 11)), bool(rng.integers(0, 2))


@pytest.mark.parametrize("decks", [2, 3, 6])
def test_distance_stays_within_its_bounds_with_many_copies_of_a_card(decks):
    # levels stop at three copies; with 4+ decks a hand can hold more, and the set step must not
    # look past the four suits for them (CI runs this under NUMBA_BOUNDSCHECK=1)
    for counts, round_no, ace_high in _hands(decks, 2000, decks):
        n_sets, n_runs, length = CONTRACTS[round_no]
        d = B.distance(counts, round_no, ace_high)
        assert 0 <= d <= 3 * n_sets + n_runs * length


def test_distance_zero_means_the_exact_solver_lays_the_contract():
    # the greedy laying behind distance 0 is a witness (module docstring): never a wasted exact call
    cand = np.zeros((MAX_RUN_CANDIDATES, RUN_COLS), dtype=np.int64)
    runs, ranks = np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64)
    zeros = 0
    for counts, round_no, ace_high in _hands(7, 4000, 2):
        if B.distance(counts, round_no, ace_high) == 0:
            zeros += 1
            value, _ = best_contract(counts, counts[63], round_no, ace_high, cand, runs, ranks)
            assert value >= 0, (round_no, ace_high, np.flatnonzero(counts))
    assert zeros > 100 and CONTRACTS.shape == (11, 3)
