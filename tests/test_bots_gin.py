"""Gin Rummy's rule-based bots (``rummysim.variants.gin.bots``): the helpers their discard is built on."""

from __future__ import annotations

import numpy as np
import pytest

from rummysim.cards import mask_of
from rummysim.engine import melds as M
from rummysim.variants.gin import bots as B

pytestmark = pytest.mark.engine


def _near_by_definition(cards: int) -> int:
    """The cards making a pair (the same rank, another suit) or a near run (the same suit, one or two
    ranks away) with one of ``cards``, card by card (ids 16 * suit + rank, ranks 0-12)."""
    out = 0
    for c in range(64):
        if c % 16 > 12:
            continue
        for d in range(64):
            if (cards >> d) & 1 and d != c and d % 16 <= 12:
                same_rank = d % 16 == c % 16
                near_run = d // 16 == c // 16 and abs(d % 16 - c % 16) <= 2
                if same_rank or near_run:
                    out |= 1 << c
    return out


def test_near_cards_of_a_hand_built_hand():
    # H3: the 3s of the other suits, H1 H2 H4 H5; SK: the other kings, SQ SJ (nothing above a king)
    near = int(B.near_cards(np.uint64(mask_of("H3 SK"))))
    assert near == mask_of("C3 D3 S3 HA H2 H4 H5 CK DK HK SQ SJ")


def test_near_cards_is_the_pair_or_near_run_rule_for_random_hands():
    rng = np.random.default_rng(5)
    deck = [c for c in range(64) if c % 16 <= 12]
    for _ in range(300):
        hand = sum(1 << int(c) for c in rng.choice(deck, size=int(rng.integers(0, 12)), replace=False))
        assert int(B.near_cards(np.uint64(hand))) == _near_by_definition(hand)
    assert int(B.near_cards(M.FULL_DECK)) == int(M.FULL_DECK)
