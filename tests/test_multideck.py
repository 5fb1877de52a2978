"""Count planes for several decks (issue 5 item 1) against a plain Counter."""

from collections import Counter

import numpy as np
import pytest

from rummysim.cards import DECK
from rummysim.core import multideck as D

pytestmark = pytest.mark.engine


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_planes_follow_a_counter_through_random_adds_and_removes(decks):
    rng = np.random.default_rng(decks)
    planes = np.zeros(decks, dtype=np.uint64)
    held = Counter()
    counts = np.zeros(64, dtype=np.int64)
    for _ in range(3000):
        card = int(rng.choice(DECK))
        if held[card] < decks and (held[card] == 0 or rng.random() < 0.5):
            D.plane_add(planes, np.int64(card))
            held[card] += 1
        elif held[card] > 0:
            D.plane_remove(planes, np.int64(card))
            held[card] -= 1
        assert D.plane_count(planes, np.int64(card)) == held[card]
        for k in range(1, decks):  # plane k inside plane k - 1
            assert int(planes[k]) & ~int(planes[k - 1]) == 0
    D.plane_counts(planes, counts)
    assert {c: int(counts[c]) for c in range(64) if counts[c]} == +held
    assert D.plane_cards(planes) == sum(held.values())


def test_planes_refuse_impossible_moves():
    planes = np.zeros(2, dtype=np.uint64)
    D.plane_add(planes, np.int64(5))
    D.plane_add(planes, np.int64(5))
    with pytest.raises(ValueError, match="more copies"):
        D.plane_add(planes, np.int64(5))
    with pytest.raises(ValueError, match="not held"):
        D.plane_remove(planes, np.int64(6))
