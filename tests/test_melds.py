"""The meld kernels of rummysim.engine.melds against the plain reference (tests/reference.py).

Rules 1.2 and 1.7: sets of 3-4 of a rank; runs of 3+ in one suit; aces low, or
with ``ace = "high_or_low"`` also above the king (Q-K-A), never K-A-2.
"""

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import reference as ref
from rummysim.cards import parse_cards
from rummysim.engine import melds as M

pytestmark = pytest.mark.engine

ACE_MODES = [pytest.param(False, id="ace_low"), pytest.param(True, id="ace_high_or_low")]


# ---------------------------------------------------------------- helpers


def mask(cards) -> np.uint64:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return np.uint64(m)


def cards(m) -> frozenset:
    m = int(m)
    return frozenset(i for i in range(64) if m >> i & 1)


def C(text) -> frozenset:
    return frozenset(parse_cards(text))


def random_hand(rng: random.Random, size: int, ace_high: bool, dense: bool) -> list[int]:
    """``size`` distinct cards: from the whole deck, or (dense) from a few suits
    and a window of ranks, so that the hand holds many overlapping melds."""
    if not dense:
        return rng.sample(ref.DECK, size)
    line = list(range(13)) + ([0] if ace_high else [])  # ace also after the king
    while True:
        n_suits = rng.randint(1, 4)
        width = rng.randint(3, len(line))
        start = rng.randint(0, len(line) - width)
        suits = rng.sample(range(4), n_suits)
        pool = sorted({ref.card(s, r) for s in suits for r in line[start : start + width]})
        if len(pool) >= size:
            return rng.sample(pool, size)


def kernel_melds(hand_cards, ace_high) -> list[frozenset]:
    out = np.zeros(512, np.uint64)
    n = M.list_melds(mask(hand_cards), ace_high, out)
    return [cards(x) for x in out[:n]]


class Scratch:
    """The scratch arrays of ``best_partition`` (shapes from its docstring)."""

    def __init__(self):
        self.melds = np.zeros(64, np.uint64)
        self.stack_r = np.zeros(1024, np.uint64)
        self.stack_d = np.zeros(1024, np.int64)
        self.stack_m = np.zeros(1024, np.uint64)

    def solve(self, hand_cards, ace_high):
        return M.best_partition(
            mask(hand_cards), ace_high, M.CARD_VALUE, self.melds, self.stack_r, self.stack_d, self.stack_m
        )


def check_partition(scratch: Scratch, hand_cards, ace_high) -> int:
    """Solve with the kernel, check the answer against the reference, return the deadwood."""
    hand = frozenset(hand_cards)
    deadwood, chosen = scratch.solve(hand, ace_high)
    expected = ref.best_deadwood(hand, ace_high)
    label = f"hand {sorted(hand)} ace_high={ace_high}"
    assert deadwood == expected, label
    chosen = int(chosen)
    picked = [cards(scratch.melds[i]) for i in range(64) if chosen >> i & 1]
    union = set()
    for m in picked:
        assert ref.is_meld(m, ace_high), label
        assert not (m & union), label  # disjoint
        union |= m
    assert union <= hand, label
    assert cards(M.chosen_cards(scratch.melds, np.uint64(chosen))) == union, label
    assert ref.hand_value(hand) - ref.hand_value(union) == deadwood, label
    return deadwood


# ---------------------------------------------------------------- the reference itself


def test_reference_counts_329_and_369():
    """Rules 1.2: exactly 329 melds (264 runs + 65 sets) with aces low.

    Sets: 13 ranks x (4 sets of 3 + 1 set of 4) = 65. Runs of one suit with
    aces low: 11 of length 3 + 10 of length 4 + ... + 1 of 13 = 66, so 264.
    With high aces a suit also has the runs ending in the high ace, Q-K-A
    (3 cards) up to 3..K-A (12 cards): 10 more (2..K-A is the same 13 cards
    as A..K, and K-A-2 is no run), so 76 a suit, 304 runs, 369 melds.
    """
    for ace, n_runs in (("low", 264), ("high_or_low", 304)):
        melds = ref.all_melds(ace)
        sets = [m for m in melds if len({ref.rank_of(c) for c in m}) == 1]
        runs = [m for m in melds if len({ref.suit_of(c) for c in m}) == 1 and len(m) >= 3 and m not in sets]
        assert len(sets) == 13 * (4 + 1) == 65
        assert len(runs) == n_runs
        assert len(melds) == len(sets) + len(runs)
    assert len(ref.all_melds("low")) == 329
    assert len(ref.all_melds("high_or_low")) == 369
    # runs by length, one suit, aces low: 11 of 3 cards ... 1 of 13
    low_runs = [m for m in ref.all_melds("low") if len({ref.suit_of(c) for c in m}) == 1 and ref.suit_of(min(m)) == 0]
    assert sorted(len(m) for m in low_runs) == sorted(L for L in range(3, 14) for _ in range(14 - L))


@pytest.mark.parametrize("ace_high", ACE_MODES)
def test_reference_is_meld_agrees_with_enumeration(ace_high):
    """Every subset of one suit or of one rank: ``is_meld`` iff listed by ``all_melds``."""
    listed = ref.all_melds(ace_high)
    for suit in range(4):
        for bits in range(1 << 13):
            s = frozenset(ref.card(suit, r) for r in range(13) if bits >> r & 1)
            assert ref.is_meld(s, ace_high) == (s in listed)
    for rank in range(13):
        for bits in range(1 << 4):
            s = frozenset(ref.card(su, rank) for su in range(4) if bits >> su & 1)
            assert ref.is_meld(s, ace_high) == (s in listed)


# ---------------------------------------------------------------- list_melds


@pytest.mark.parametrize("ace_high, n_runs", [(False, 264), (True, 304)])
def test_full_deck_has_exactly_329_or_369_melds(ace_high, n_runs):
    """Rules 1.2: 329 melds (264 runs + 65 sets) under ace low; 369 (304 + 65) under high_or_low."""
    out = np.zeros(512, np.uint64)
    n = M.list_melds(M.FULL_DECK, ace_high, out)
    assert n == n_runs + 65 == (329 if not ace_high else 369)
    listed = [cards(x) for x in out[:n]]
    assert len(set(listed)) == n  # each meld listed once
    assert not out[n:].any()
    assert set(listed) == ref.all_melds("high_or_low" if ace_high else "low")
    n_sets = sum(1 for m in listed if len({ref.rank_of(c) for c in m}) == 1)
    assert (n_sets, n - n_sets) == (65, n_runs)


@pytest.mark.parametrize("ace_high", ACE_MODES)
def test_list_melds_random_hands(ace_high):
    rng = random.Random(20240601 + ace_high)
    for i in range(1500):
        hand = random_hand(rng, rng.choice([3, 5, 7, 8, 10, 11, 13, 20]), ace_high, dense=i % 2 == 0)
        got = kernel_melds(hand, ace_high)
        assert len(got) == len(set(got))
        assert set(got) == set(ref.melds_in(hand, ace_high)), sorted(hand)


def test_at_most_45_melds_in_11_cards():
    """``best_partition`` keeps melds in uint64[64] and a 64-bit choice mask.

    Eleven cards in a row of one suit hold 9 + 8 + ... + 1 = 45 runs, the most
    eleven cards can hold (a hill-climb found no more). A 13-card suit holds 66.
    """
    eleven = [ref.card(2, r) for r in range(11)]
    for ace_high in (False, True):
        assert len(kernel_melds(eleven, ace_high)) == 45
    assert len(kernel_melds([ref.card(2, r) for r in range(13)], False)) == 66


# ---------------------------------------------------------------- best_partition


@pytest.mark.parametrize("ace_high", ACE_MODES)
@pytest.mark.parametrize("size", [7, 8, 10, 11])
def test_best_partition_matches_reference(size, ace_high):
    rng = random.Random(1000 * size + ace_high)
    scratch = Scratch()
    zero = 0
    for i in range(3000):
        hand = random_hand(rng, size, ace_high, dense=i % 2 == 1)
        zero += check_partition(scratch, hand, ace_high) == 0
    assert zero > 0  # the dense hands do reach gin now and then


@settings(max_examples=400, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(
    hand=st.sets(st.sampled_from(ref.DECK), min_size=0, max_size=11),
    ace_high=st.booleans(),
)
def test_best_partition_hypothesis(hand, ace_high):
    check_partition(Scratch(), hand, ace_high)


@pytest.mark.parametrize(
    "hand, low, high",
    [
        ("", 0, 0),
        ("CA", 1, 1),
        ("HA H2 H3", 0, 0),
        ("HQ HK HA", 21, 0),
        ("HK HA H2", 13, 13),
        ("HJ HQ HK HA H2", 3, 2),  # J-Q-K, or J-Q-K-A with high aces
        ("S8 H8 D8 C8", 0, 0),
        ("S8 H8 D8 C8 C7 C9", 0, 0),  # 7-8-9 run + 8 set of 3
        ("S8 H8 D8 C7 C9", 16, 16),  # the C8 is missing: the 7 and 9 are deadwood
        ("CA C2 C3 C4 C5 C6 C7 C8 C9 C10 CJ", 0, 0),
        ("DQ DK DA SQ SK SA HQ HK HA", 0, 0),  # three sets, or three Q-K-A runs
        ("DQ DK DA SQ SK CA", 42, 21),  # no set of 3; Q-K-A only with high aces
    ],
)
def test_best_partition_hand_written(hand, low, high):
    scratch = Scratch()
    assert check_partition(scratch, C(hand), False) == low
    assert check_partition(scratch, C(hand), True) == high


# ---------------------------------------------------------------- is_meld, has_meld, melded_cards


@pytest.mark.parametrize("ace_high", ACE_MODES)
def test_is_meld_every_suit_and_rank_subset(ace_high):
    for suit in (0, 3):  # the lowest and highest lane
        for bits in range(1 << 13):
            s = [ref.card(suit, r) for r in range(13) if bits >> r & 1]
            assert M.is_meld(mask(s), ace_high) == ref.is_meld(s, ace_high), s
    for rank in range(13):
        for bits in range(1 << 4):
            s = [ref.card(su, rank) for su in range(4) if bits >> su & 1]
            assert M.is_meld(mask(s), ace_high) == ref.is_meld(s, ace_high), s


@pytest.mark.parametrize("ace_high", ACE_MODES)
def test_is_meld_random(ace_high):
    rng = random.Random(7 + ace_high)
    for i in range(4000):
        hand = random_hand(rng, rng.randint(0, 8), ace_high, dense=i % 2 == 0)
        assert M.is_meld(mask(hand), ace_high) == ref.is_meld(hand, ace_high), sorted(hand)


@pytest.mark.parametrize(
    "meld, low, high",
    [
        ("HA H2 H3", True, True),
        ("H2 H3 H4 H5", True, True),
        ("HQ HK HA", False, True),
        ("SJ SQ SK SA", False, True),
        ("HK HA H2", False, False),  # never round the corner
        ("HQ HK HA H2", False, False),
        ("HK HA H2 H3", False, False),
        ("CA C2 C3 C4 C5 C6 C7 C8 C9 C10 CJ CQ CK", True, True),  # a full suit
        ("C2 C3 C4 C5 C6 C7 C8 C9 C10 CJ CQ CK", True, True),
        ("SA S2 S3 S4 S5 S6 S7 S8 S9 S10 SJ SQ SK", True, True),
        ("H8 S8 D8", True, True),
        ("H8 S8 D8 C8", True, True),
        ("HA SA DA", True, True),
        ("HK SK DK CK", True, True),
        ("H8 S8", False, False),
        ("HA H2", False, False),
        ("HQ HK", False, False),
        ("H4 H5 H7", False, False),  # a gap
        ("H4 H5 D6", False, False),  # two suits
        ("H8 S8 D8 D9", False, False),
        ("CK DA D2", False, False),  # across a lane boundary
        ("", False, False),
        ("HA", False, False),
    ],
)
def test_is_meld_hand_written(meld, low, high):
    m = C(meld)
    assert ref.is_meld(m, False) == low
    assert ref.is_meld(m, True) == high
    assert M.is_meld(mask(m), False) == low
    assert M.is_meld(mask(m), True) == high


@pytest.mark.parametrize("ace_high", ACE_MODES)
def test_has_meld_and_melded_cards_random(ace_high):
    rng = random.Random(99 + ace_high)
    for i in range(3000):
        hand = random_hand(rng, rng.choice([0, 2, 3, 4, 7, 8, 10, 11, 15, 26, 40]), ace_high, dense=i % 3 == 0)
        h = mask(hand)
        assert M.has_meld(h, ace_high) == ref.has_meld(hand, ace_high), sorted(hand)
        assert cards(M.melded_cards(h, ace_high)) == ref.melded_cards(hand, ace_high), sorted(hand)


def test_has_meld_and_melded_cards_hand_written():
    for text, low, high in [
        ("HQ HK HA S5", "", "HQ HK HA"),
        ("HK HA H2 S5", "", ""),
        ("HA H2 H3 HK", "HA H2 H3", "HA H2 H3"),
        ("HQ HK HA H2 H3", "HA H2 H3", "HQ HK HA H2 H3"),
        ("H8 S8 D8 C7 C9 C10", "H8 S8 D8", "H8 S8 D8"),
        ("H8 S8 D8 C8 C7 C9", "H8 S8 D8 C8 C7 C9", "H8 S8 D8 C8 C7 C9"),
        ("CK DA D2 D4", "", ""),
    ]:
        hand = mask(C(text))
        assert cards(M.melded_cards(hand, False)) == C(low), text
        assert cards(M.melded_cards(hand, True)) == C(high), text
        assert M.has_meld(hand, False) == bool(low), text
        assert M.has_meld(hand, True) == bool(high), text
    assert M.has_meld(M.FULL_DECK, False) and M.melded_cards(M.FULL_DECK, False) == int(M.FULL_DECK)


# ---------------------------------------------------------------- lay-offs


def table_form(meld, ace_high):
    kind, t = M.table_meld_of(mask(meld), ace_high)
    return np.uint64(t), np.int64(kind)


def kernel_layoffs(t, kind, ace_high) -> frozenset:
    return cards(M.layoff_cards(t, kind, ace_high))


@pytest.mark.parametrize("ace_high", ACE_MODES)
def test_layoffs_of_every_meld(ace_high):
    """Every meld laid down, every card laid off on it once, then the lay-offs again."""
    for meld in ref.all_melds(ace_high):
        t, kind = table_form(meld, ace_high)
        is_set = len({ref.rank_of(c) for c in meld}) == 1
        assert kind == (M.KIND_SET if is_set else M.KIND_RUN)
        assert cards(M.to_cards(t)) == meld
        expected = ref.layoff_cards(meld, ace_high)
        assert kernel_layoffs(t, kind, ace_high) == expected, sorted(meld)
        for c in expected:
            grown = np.uint64(M.grow_meld(t, kind, np.int64(c), ace_high))
            assert cards(M.to_cards(grown)) == meld | {c}, (sorted(meld), c)
            assert kernel_layoffs(grown, kind, ace_high) == ref.layoff_cards(meld | {c}, ace_high), (sorted(meld), c)


@pytest.mark.parametrize("ace_high", ACE_MODES)
def test_layoff_chains(ace_high):
    """Grow random melds one random lay-off at a time until nothing fits."""
    rng = random.Random(5 + ace_high)
    melds = sorted(ref.all_melds(ace_high), key=sorted)
    for _ in range(600):
        meld = set(rng.choice(melds))
        t, kind = table_form(meld, ace_high)
        while True:
            expected = ref.layoff_cards(meld, ace_high)
            assert kernel_layoffs(t, kind, ace_high) == expected, sorted(meld)
            if not expected:
                break
            c = rng.choice(sorted(expected))
            t = np.uint64(M.grow_meld(t, kind, np.int64(c), ace_high))
            meld.add(c)
            assert cards(M.to_cards(t)) == meld
            assert ref.is_meld(meld, ace_high)
        assert len(meld) in (4, 13)  # a full set or a full suit


@pytest.mark.parametrize(
    "meld, low, high",
    [
        ("H8 S8 D8", "C8", "C8"),
        ("H8 S8 D8 C8", "", ""),  # a 4-set takes nothing
        ("HA SA DA", "CA", "CA"),
        ("HA H2 H3", "H4", "H4"),  # never K-A-2-3
        ("H2 H3 H4", "HA H5", "HA H5"),
        ("HJ HQ HK", "H10", "H10 HA"),
        ("HQ HK HA", None, "HJ"),  # only a meld with high aces; never Q-K-A-2
        ("C10 CJ CQ CK CA", None, "C9"),
        ("C2 C3 C4 C5 C6 C7 C8 C9 C10 CJ CQ CK", "CA", "CA"),
        ("CA C2 C3 C4 C5 C6 C7 C8 C9 C10 CJ CQ", "CK", "CK"),
        ("CA C2 C3 C4 C5 C6 C7 C8 C9 C10 CJ CQ CK", "", ""),
        ("SJ SQ SK", "S10", "S10 SA"),  # the top lane
        ("DA D2 D3", "D4", "D4"),  # the ace at a lane boundary
    ],
)
def test_layoffs_hand_written(meld, low, high):
    m = C(meld)
    for ace_high, want in ((False, low), (True, high)):
        if want is None:
            assert not ref.is_meld(m, ace_high) and not M.is_meld(mask(m), ace_high)
            continue
        assert ref.layoff_cards(m, ace_high) == C(want)
        t, kind = table_form(m, ace_high)
        assert kernel_layoffs(t, kind, ace_high) == C(want)


def test_grow_meld_ace_ends():
    # 2..K with high aces: the ace goes low or high, the cards are A..K either way
    m = C("C2 C3 C4 C5 C6 C7 C8 C9 C10 CJ CQ CK")
    t, kind = table_form(m, True)
    grown = np.uint64(M.grow_meld(t, kind, np.int64(ref.card(0, 0)), True))
    assert cards(M.to_cards(grown)) == m | C("CA")
    assert M.layoff_cards(grown, kind, True) == 0
    # J-Q-K with high aces takes the ace on top: then the 10 still fits, the 2 never
    t, kind = table_form(C("SJ SQ SK"), True)
    grown = np.uint64(M.grow_meld(t, kind, np.int64(ref.card(3, 0)), True))
    assert cards(M.to_cards(grown)) == C("SJ SQ SK SA")
    assert kernel_layoffs(grown, kind, True) == C("S10")
    # Q-K-A is stored with the ace above the king
    kind, t = M.table_meld_of(mask(C("HQ HK HA")), True)
    assert kind == M.KIND_RUN and t == (1 << 43) | (1 << 44) | (1 << 45)
