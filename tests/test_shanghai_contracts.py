"""The compiled Shanghai contract solver against the plain reference (rules 2.2, 2.3, 2.7)."""

from collections import Counter

import numpy as np
import pytest

import shanghai_reference as R
from rummysim.variants.shanghai import contracts as C

pytestmark = pytest.mark.engine

CAND = np.zeros((C.MAX_RUN_CANDIDATES, C.RUN_COLS), dtype=np.int64)
SOLVER = np.zeros(C.SOLVER_WORK, dtype=np.int64)


def solve(naturals, jokers, round_no, ace="high_or_low"):
    """The kernel's answer as ``(value_left, melds)`` in the reference's format, or None."""
    counts = np.zeros(64, dtype=np.int64)
    for c in naturals:
        counts[c] += 1
    runs, set_ranks = np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64)
    value, set_jokers = C.best_contract(counts, jokers, round_no, ace == "high_or_low", CAND, runs, set_ranks,
                                        SOLVER)
    if value < 0:
        return None
    n_sets, n_runs, _ = C.CONTRACTS[round_no]
    left = Counter(naturals)
    melds = []
    for k in runs[:n_runs]:
        suit, lo, hi, jpos = (int(x) for x in CAND[k, [C.RC_SUIT, C.RC_LO, C.RC_HI, C.RC_JOKER_POS]])
        pos = [(p, "JK" if jpos >> p & 1 else int(C.card_at(suit, p))) for p in range(lo, hi + 1)]
        nat = [c for _, c in pos if c != "JK"]
        left.subtract(nat)
        melds.append({"kind": "run", "naturals": sorted(nat), "jokers": len(pos) - len(nat), "positions": pos})
    # sets: every natural left of a hosting rank, shared out; the set jokers where they are needed first
    hosting = Counter(int(r) for r in set_ranks[:n_sets])
    spare = int(set_jokers)
    sets = []
    for rank, n in sorted(hosting.items()):
        cards = sorted(c for c in (+left).elements() if c % 16 == rank)
        for i in range(n):
            sets.append({"kind": "set", "naturals": cards[i::n], "jokers": 0, "positions": None})
    for s in sets:
        s["jokers"] = max(0, 3 - len(s["naturals"]))
        spare -= s["jokers"]
    for s in sets:
        extra = min(spare, len(s["naturals"]) - s["jokers"])
        s["jokers"] += extra
        spare -= extra
    assert spare == 0, "the kernel claimed more set jokers than the sets can hold"
    return int(value), sets + melds


def random_hand(rng, round_no):
    """12 to 16 cards from two decks, with 0-2 jokers; half of them dense (few suits, few ranks)."""
    size, jokers = int(rng.integers(11, 17)), int(rng.integers(0, 3))
    if rng.random() < 0.5:
        suits = rng.choice(4, size=int(rng.integers(1, 3)), replace=False)
        low = int(rng.integers(0, 7))
        pool = [16 * s + r for s in suits for r in range(low, min(13, low + 8))] * 3
    else:
        pool = [16 * s + r for s in range(4) for r in range(13)] * 2
    return [int(c) for c in rng.choice(pool, size=size - jokers, replace=False)], jokers


@pytest.mark.parametrize("round_no", range(1, 11))
@pytest.mark.parametrize("ace", ["high_or_low", "low"])
def test_kernel_matches_reference_on_random_hands(round_no, ace):
    rng = np.random.default_rng(1000 * round_no + (ace == "low"))
    met = 0
    for _ in range(150):
        naturals, jokers = random_hand(rng, round_no)
        ref = R.best_contract(naturals, jokers, round_no, ace)
        got = solve(naturals, jokers, round_no, ace)
        assert (ref is None) == (got is None), (naturals, jokers)
        if ref is None:
            continue
        met += 1
        assert got[0] == ref[0], (sorted(naturals), jokers)
        R.validate_laying(naturals, jokers, round_no, got[0], got[1], ace)
    assert met > 0 or round_no >= 8  # the test exercises met contracts


@pytest.mark.parametrize("text, jokers, round_no, value_left", [
    ("H7 S7 D7 C9 D9 S9 HK", 0, 1, 10),                # two sets; K left
    ("H7 S7 D7 C9 D9 S9 HK", 0, 2, None),              # no run of 4
    ("H5 H6 H7 H8 S7", 2, 2, 0),                        # joker in the run frees H7 for the set: 7 7 JK + H5 H6 JK H8
    ("H3 H4 H5 H6 H7 H8 H9 H10", 0, 3, None),           # two runs would touch end to end (rules 2.2)
    ("H3 H4 H5 H6 H8 H9 H10 HJ", 0, 3, 0),             # a gap between them: allowed
    ("HQ HK HA H2", 0, 2, None),                        # never K-A-2 (and no set)
    ("HJ HQ HK HA C5 D5 S5", 0, 2, 0),                  # Q-K-A high is a run
])
def test_hand_written_cases(text, jokers, round_no, value_left):
    naturals, _ = R.parse_hand(text)
    got = solve(naturals, jokers, round_no)
    assert (None if got is None else got[0]) == value_left
    ref = R.best_contract(naturals, jokers, round_no)
    assert (None if ref is None else ref[0]) == value_left


def test_ace_low_option_forbids_q_k_a():
    naturals, _ = R.parse_hand("HJ HQ HK HA C5 D5 S5")
    assert solve(naturals, 0, 2, "low") is None


def laid_hand(rng, round_no, ace):
    """A hand holding a laying of the round's contract (sets of 3-4, runs of the length to
    length + 2, some cards a joker where the meld keeps more naturals), plus 0-4 random cards
    of two decks; one hand in five then loses a random card (the contract may or may not
    survive). Every card at most twice (two decks)."""
    n_sets, n_runs, length = (int(x) for x in C.CONTRACTS[round_no])
    top = 14 if ace == "high_or_low" else 13          # positions 0 (ace low) .. 13 (ace high)
    while True:
        naturals, jokers, runs = [], 0, []
        for _ in range(n_sets):
            rank, size = int(rng.integers(0, 13)), int(rng.integers(3, 5))
            cards = [16 * int(s) + rank for s in rng.integers(0, 4, size=size)]
            if rng.random() < 0.3:
                cards.pop()
                jokers += 1
            naturals += cards
        for _ in range(n_runs):
            size = min(int(rng.integers(length, length + 3)), top)
            for _try in range(20):
                suit, lo = int(rng.integers(0, 4)), int(rng.integers(0, top - size + 1))
                if all(s != suit or lo > hi + 1 or lo + size < lo2 for s, lo2, hi in runs):
                    break
            else:
                break
            runs.append((suit, lo, lo + size - 1))
            cards = [16 * suit + p % 13 for p in range(lo, lo + size)]
            if rng.random() < 0.3:
                cards.pop(int(rng.integers(0, size)))
                jokers += 1
            naturals += cards
        else:
            deck = [16 * s + r for s in range(4) for r in range(13)] * 2
            naturals += [int(c) for c in rng.choice(deck, size=int(rng.integers(0, 5)), replace=False)]
            if rng.random() < 0.2:
                naturals.pop(int(rng.integers(0, len(naturals))))
            if max(Counter(naturals).values()) <= 2:
                return naturals, min(jokers, 4)


@pytest.mark.parametrize("round_no", range(1, 11))
@pytest.mark.parametrize("ace", ["high_or_low", "low"])
def test_kernel_matches_reference_on_hands_that_meet_the_contract(round_no, ace):
    # the random hands above rarely meet the contracts of rounds 8-10: here every round's
    # contract is met in most hands, and the solver must agree with the reference on each
    rng = np.random.default_rng(7000 + 10 * round_no + (ace == "low"))
    met, n = 0, 60
    for _ in range(n):
        naturals, jokers = laid_hand(rng, round_no, ace)
        ref = R.best_contract(naturals, jokers, round_no, ace)
        got = solve(naturals, jokers, round_no, ace)
        assert (ref is None) == (got is None), (sorted(naturals), jokers)
        if ref is None:
            continue
        met += 1
        assert got[0] == ref[0], (sorted(naturals), jokers)
        R.validate_laying(naturals, jokers, round_no, got[0], got[1], ace)
    assert met >= 0.3 * n, met
