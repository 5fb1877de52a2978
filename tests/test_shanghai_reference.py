"""The plain Shanghai contract reference (tests/shanghai_reference.py) against hand-worked positions.

Rules 2.2 (contracts), 2.3 (melds and jokers), 2.7 (card values). Values:
2-9 face, 10/J/Q/K 10, ace 15, joker 25. Run positions: 0 = ace low,
1..12 = 2..K, 13 = ace high (only with ace="high_or_low"). Card ids are
16 * suit + rank (C, D, H, S = 0..3; rank 0 = ace).

Every hand-written position below states its answer worked out by hand in a
comment. A second, deliberately naive solver (every sub-multiset of one rank
or one suit as a meld, every joker count, every run layout) checks the
reference on random small hands.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import product

import pytest

import shanghai_reference as S
from rummysim.cards import card_id

ACES = ["high_or_low", "low"]


# ---------------------------------------------------------------- helpers


def hand(text):
    return S.parse_hand(text)


def solve(text, round_no, ace="high_or_low"):
    """best_contract on a text hand, with every answer checked against the rules."""
    naturals, jokers = hand(text)
    result = S.best_contract(naturals, jokers, round_no, ace)
    if result is not None:
        S.validate_laying(naturals, jokers, round_no, result[0], result[1], ace)
    assert S.meets_contract(naturals, jokers, round_no, ace) == (result is not None)
    return result


def left(text, round_no, ace="high_or_low"):
    """The value left in hand by the best laying, or None when the contract is not met."""
    result = solve(text, round_no, ace)
    return None if result is None else result[0]


def ids(text):
    return sorted(card_id(t) for t in text.split())


def a_set(text, jokers=0):
    return {"kind": "set", "naturals": ids(text), "jokers": jokers, "positions": None}


def a_run(*cells):
    """a_run((4, "H5"), (5, "H6"), (6, "JK"), ...)"""
    positions = [(p, c if c == "JK" else card_id(c)) for p, c in cells]
    naturals = sorted(c for _, c in positions if c != "JK")
    return {
        "kind": "run",
        "naturals": naturals,
        "jokers": sum(1 for _, c in positions if c == "JK"),
        "positions": positions,
    }


def same_melds(got, expected):
    key = lambda m: repr(sorted(m.items(), key=lambda kv: kv[0]))  # noqa: E731
    return sorted(map(key, got)) == sorted(map(key, expected))


# ---------------------------------------------------------------- basics


def test_contracts_match_rules_2_2():
    assert S.CONTRACTS[1:] == (
        (2, 0, 0),
        (1, 1, 4),
        (0, 2, 4),
        (3, 0, 0),
        (1, 1, 7),
        (2, 1, 5),
        (0, 3, 4),
        (1, 1, 10),
        (3, 1, 5),
        (0, 3, 5),
    )
    # the "fewest cards" column: 3 per set plus the run minimum per run
    assert [S.fewest_cards(r) for r in range(1, 11)] == [6, 7, 8, 9, 10, 11, 12, 13, 14, 15]


def test_card_values_rules_2_7():
    assert [S.card_value(card_id(f"H{r}")) for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split()] == [
        15, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10,
    ]
    assert S.JOKER_VALUE == 25
    assert all(S.card_value(16 * s + 6) == 7 for s in range(4))
    assert S.hand_value(*hand("HA SK D2 JK JK")) == 15 + 10 + 2 + 50


def test_parse_hand():
    assert hand("H7 H7 S7 JK jk") == ([card_id("H7")] * 2 + [card_id("S7")], 2)


# ---------------------------------------------------------------- single melds (rules 2.3)


@pytest.mark.parametrize(
    "text, ace, expected",
    [
        # sets: 3+ of one rank, any suits, duplicates allowed
        ("H7 H7 S7", "high_or_low", True),
        ("H7 H7 H7", "high_or_low", True),
        ("H7 S7 D7 C7 C7 S7", "high_or_low", True),  # a set has no upper size
        ("H7 S7", "high_or_low", False),  # too short
        ("H7 S7 D8", "high_or_low", False),
        # naturals >= jokers
        ("JK JK H5", "high_or_low", False),
        ("JK H5 H6", "high_or_low", True),  # run 4-5-6 or 5-6-7
        ("JK H5 S5", "high_or_low", True),  # set
        ("JK H5 H5", "high_or_low", True),  # set of a duplicated card
        ("JK JK H5 H6", "high_or_low", True),
        ("JK JK H5 H7", "high_or_low", True),  # JK H5 JK H7 or H5 JK H7 JK
        ("JK JK JK H5 H6", "high_or_low", False),
        ("JK JK JK H5 H6 H7", "high_or_low", True),
        ("JK JK", "high_or_low", False),
        # runs: one suit, consecutive, no position twice
        ("H5 H6 H7", "high_or_low", True),
        ("H5 H6 S7", "high_or_low", False),
        ("H5 H6 H8", "high_or_low", False),
        ("H5 H6 H8 JK", "high_or_low", True),
        ("H5 H6 H6", "high_or_low", False),  # position 6 twice, not a set either
        # aces: Q-K-A high, A-2-3 low, never K-A-2
        ("HQ HK HA", "high_or_low", True),
        ("HQ HK HA", "low", False),
        ("HA H2 H3", "high_or_low", True),
        ("HA H2 H3", "low", True),
        ("HK HA H2", "high_or_low", False),
        ("HK HA H2", "low", False),
        ("HK HA JK", "high_or_low", True),  # Q(joker)-K-A
        ("HK HA JK", "low", False),
        ("HQ HK JK", "low", True),  # J(joker)-Q-K
        ("HA H2 JK", "low", True),
        ("HA HA H2", "high_or_low", False),  # the ace cannot sit low and high at once
        ("HA H2 H3 H4 H5 H6 H7 H8 H9 H10 HJ HQ HK", "low", True),  # 13 long, A low
        ("H2 H3 H4 H5 H6 H7 H8 H9 H10 HJ HQ HK HA", "high_or_low", True),  # 13 long, A high
        ("HA H2 H3 H4 H5 H6 H7 H8 H9 H10 HJ HQ HK JK", "high_or_low", False),  # 14 would go round
        ("H2 H3 H4 H5 H6 H7 H8 H9 H10 HJ HQ HK JK", "high_or_low", True),  # joker as either ace
        ("H2 H3 H4 H5 H6 H7 H8 H9 H10 HJ HQ HK JK", "low", True),  # joker as the low ace
        ("HA H2 H3 H4 H5 H6 H7 H8 H9 H10 HJ HQ HK JK", "low", False),
    ],
)
def test_is_meld(text, ace, expected):
    assert S.is_meld(*hand(text), ace=ace) is expected


def test_run_layouts_put_jokers_at_either_end():
    # H5 H6 H7 + JK: the joker is the 4 or the 8
    layouts = S.run_layouts(*hand("H5 H6 H7 JK"))
    assert sorted(lay[0][0] for lay in layouts) == [3, 4]
    assert ("JK" in dict(layouts[0]).values()) and all(len(lay) == 4 for lay in layouts)
    # HQ HK + JK, ace low: only J(joker)-Q-K; ace high also Q-K-A(joker)
    assert S.run_layouts(*hand("HQ HK JK"), ace="low") == [[(10, "JK"), (11, card_id("HQ")), (12, card_id("HK"))]]
    assert len(S.run_layouts(*hand("HQ HK JK"), ace="high_or_low")) == 2


def test_bad_ace_option():
    with pytest.raises(ValueError):
        S.is_meld(*hand("H5 H6 H7"), ace="high")


# ---------------------------------------------------------------- round 1: 2 sets of 3


def test_round1_two_sets():
    # 7s and 9s; CK (10) + D2 (2) stay: 12
    r = solve("H7 H7 S7 D9 C9 S9 CK D2", 1)
    assert r[0] == 12
    assert same_melds(r[1], [a_set("H7 H7 S7"), a_set("C9 D9 S9")])


def test_round1_six_sevens_make_two_sets():
    # two decks: six 7s are two sets of 7s; H2 stays: 2
    r = solve("H7 H7 S7 S7 D7 C7 H2", 1)
    assert r[0] == 2
    assert [len(m["naturals"]) for m in r[1]] == [3, 3]
    assert all(S.rank_of(c) == 6 for m in r[1] for c in m["naturals"])


def test_round1_five_sevens_need_a_joker():
    # five 7s: 3 + 2 would leave a set of two; with a joker 3 + (2 + JK), nothing left
    assert left("H7 H7 S7 S7 D7", 1) is None
    r = solve("H7 H7 S7 S7 D7 JK", 1)
    assert r[0] == 0
    assert sorted((len(m["naturals"]), m["jokers"]) for m in r[1]) == [(2, 1), (3, 0)]


def test_round1_four_sevens_two_jokers():
    # 2 + JK and 2 + JK; without the jokers four 7s are one set only
    assert left("H7 S7 D7 C7 JK JK", 1) == 0
    assert left("H7 S7 D7 C7", 1) is None
    # one joker is not enough: 2 + 2 needs two jokers, and 3 + (1 + JK) is a 2-card "set"
    assert left("H7 S7 D7 C7 JK", 1) is None


def test_round1_pairs_only_not_met():
    # only pairs of 7s and 9s and a heart run: no two sets
    assert left("H7 S7 D9 C9 H2 H3 H4 H5", 1) is None


def test_round1_two_jokers_cannot_carry_one_natural():
    # JK JK H5 is not a set: only the 9s make a set, and three 9s are not two sets
    assert left("H5 JK JK C9 D9 S9", 1) is None


def test_round1_joker_goes_where_it_saves_most():
    # 9s are a natural set; the joker completes either 2s (leaves HA SA = 30) or
    # aces (leaves H2 S2 = 4): best 4, aces + joker
    r = solve("S9 D9 C9 H2 S2 HA SA JK", 1)
    assert r[0] == 4
    assert same_melds(r[1], [a_set("C9 D9 S9"), a_set("HA SA", jokers=1)])


def test_round1_extra_naturals_join_their_set():
    # 7s take all five 7s (C7 twice), 9s take three: C4 stays, 4
    r = solve("H7 S7 D7 C7 C7 D9 S9 H9 C4", 1)
    assert r[0] == 4
    assert same_melds(r[1], [a_set("C7 C7 D7 H7 S7"), a_set("D9 H9 S9")])


def test_round1_spare_joker_is_laid():
    # 7s and 9s natural; the spare joker joins a set (25 saved); C4 stays: 4
    r = solve("H7 S7 D7 D9 S9 H9 C4 JK", 1)
    assert r[0] == 4
    assert sum(m["jokers"] for m in r[1]) == 1


# ---------------------------------------------------------------- round 2: 1 set of 3 + 1 run of 4


def test_round2_plain():
    # run H3-H6 (positions 2..5), 9s; DK 10 + CA 15 stay: 25
    r = solve("H3 H4 H5 H6 S9 D9 C9 DK CA", 2)
    assert r[0] == 25
    assert same_melds(r[1], [a_set("C9 D9 S9"), a_run((2, "H3"), (3, "H4"), (4, "H5"), (5, "H6"))])


def test_round2_short_run():
    # H3 H4 H5 is 3 long; with a joker the run is H3 H4 H5 + JK, DK stays: 10
    assert left("H3 H4 H5 S9 D9 C9 DK", 2) is None
    r = solve("H3 H4 H5 S9 D9 C9 DK JK", 2)
    assert r[0] == 10
    assert [m["jokers"] for m in r[1] if m["kind"] == "run"] == [1]


def test_round2_joker_in_run_at_a_held_card_makes_the_contract():
    # The only set is 7s, and it needs both H7 and S7 (+ a joker: 2 naturals).
    # So the run H5 H6 _ H8 takes the second joker AT position 6, although H7
    # is held. Run H5-H8 natural leaves S7 JK JK: not a set. Answer: 0 left.
    r = solve("H5 H6 H7 H8 S7 JK JK", 2)
    assert r[0] == 0
    assert same_melds(
        r[1], [a_set("H7 S7", jokers=1), a_run((4, "H5"), (5, "H6"), (6, "JK"), (7, "H8"))]
    )


def test_round2_joker_in_run_at_a_held_card_is_better():
    # Either set 2s (D2 C2 JK) + run H5-H8 (+ spare JK): S7 stays, 7 left;
    # or set 7s (H7 S7 JK) + run H5 H6 JK H8: D2 C2 stay, 4 left. Best 4.
    r = solve("H5 H6 H7 H8 S7 JK JK D2 C2", 2)
    assert r[0] == 4
    assert same_melds(
        r[1], [a_set("H7 S7", jokers=1), a_run((4, "H5"), (5, "H6"), (6, "JK"), (7, "H8"))]
    )


def test_round2_joker_below_a_king_when_aces_are_low():
    # 4s take no joker (the run HJ HQ HK needs it). Ace low: the joker is the 10
    # (position 9). Ace high or low: the 10 or the ace above the king. 0 left.
    r = solve("HJ HQ HK JK C4 D4 S4", 2, ace="low")
    assert r[0] == 0
    assert same_melds(
        r[1], [a_set("C4 D4 S4"), a_run((9, "JK"), (10, "HJ"), (11, "HQ"), (12, "HK"))]
    )
    r = solve("HJ HQ HK JK C4 D4 S4", 2)
    assert r[0] == 0
    run = [m for m in r[1] if m["kind"] == "run"][0]
    assert [p for p, _ in run["positions"]] in ([9, 10, 11, 12], [10, 11, 12, 13])


# ---------------------------------------------------------------- round 3: 2 runs of 4


def test_round3_joinable_runs_are_one_run():
    # H3-H6 + H7-H10 would join into H3-H10: not two runs. Nothing else makes 2 runs.
    assert left("H3 H4 H5 H6 H7 H8 H9 H10", 3) is None


def test_round3_runs_with_a_gap_are_two_runs():
    # H3-H6 and H8-HJ: the gap at 7 keeps them apart. 0 left.
    r = solve("H3 H4 H5 H6 H8 H9 H10 HJ", 3)
    assert r[0] == 0
    assert same_melds(
        r[1],
        [
            a_run((2, "H3"), (3, "H4"), (4, "H5"), (5, "H6")),
            a_run((7, "H8"), (8, "H9"), (9, "H10"), (10, "HJ")),
        ],
    )


def test_round3_the_gap_card_stays_in_hand():
    # H3..HJ in a row: only leaving H7 splits it into two runs of 4+ that do
    # not touch (H3-H6, H8-HJ): 7 left.
    r = solve("H3 H4 H5 H6 H7 H8 H9 H10 HJ", 3)
    assert r[0] == 7
    assert same_melds(
        r[1],
        [
            a_run((2, "H3"), (3, "H4"), (4, "H5"), (5, "H6")),
            a_run((7, "H8"), (8, "H9"), (9, "H10"), (10, "HJ")),
        ],
    )


def test_round3_joker_goes_low_so_the_runs_do_not_join():
    # H3 H4 H5 + JK: the joker as H6 would touch H7-H10; as H2 it does not. 0 left.
    r = solve("H3 H4 H5 H7 H8 H9 H10 JK", 3)
    assert r[0] == 0
    assert same_melds(
        r[1],
        [
            a_run((1, "JK"), (2, "H3"), (3, "H4"), (4, "H5")),
            a_run((6, "H7"), (7, "H8"), (8, "H9"), (9, "H10")),
        ],
    )


@pytest.mark.parametrize("ace, expected", [("high_or_low", 0), ("low", None)])
def test_round3_ace_high_run(ace, expected):
    # clubs 4-7 and DJ DQ DK DA: J-Q-K-A only when aces may be high
    assert left("C4 C5 C6 C7 DJ DQ DK DA", 3, ace) == expected


@pytest.mark.parametrize("ace", ACES)
def test_round3_never_round_the_corner(ace):
    # CK CA C2 C3 is K-A-2-3: never a run; A-2-3 is only 3 long. Not met.
    assert left("CK CA C2 C3 D5 D6 D7 D8", 3, ace) is None
    # with a joker: A-2-3-JK(4) and D5-D8; CK stays: 10
    r = solve("CK CA C2 C3 D5 D6 D7 D8 JK", 3, ace)
    assert r[0] == 10
    assert same_melds(
        r[1],
        [
            a_run((0, "CA"), (1, "C2"), (2, "C3"), (3, "JK")),
            a_run((4, "D5"), (5, "D6"), (6, "D7"), (7, "D8")),
        ],
    )


def test_round3_overlapping_runs_of_one_suit():
    # two decks: H3-H6 twice is two runs (same positions, not end to end). 0 left.
    r = solve("H3 H4 H5 H6 H3 H4 H5 H6", 3)
    assert r[0] == 0
    run = a_run((2, "H3"), (3, "H4"), (4, "H5"), (5, "H6"))
    assert same_melds(r[1], [run, run])
    # H3 H4 H5 H6 H7 + H5 H6 + JK: H3-H6 and H5 H6 H7 + JK overlap; all laid, 0 left
    assert left("H3 H4 H5 H6 H7 H5 H6 JK", 3) == 0


def test_round3_joker_at_a_held_card_for_a_second_run():
    # H4 H5 H5 H6 H7 H7 H8 + JK (positions 3, 4, 4, 5, 6, 6, 7): 8 cards, 2 runs
    # of 4, so all are laid. Each run holds one H5 (4) and one H7 (6), so each
    # covers position 5, and there is one H6: one run has the joker at 5 while
    # the other holds H6 -- e.g. H4-H7 and H5 JK H7 H8 (or H5-H8 and H4 H5 JK H7).
    # The runs overlap. 0 left.
    r = solve("H4 H5 H6 H7 H8 H5 H7 JK", 3)
    assert r[0] == 0
    assert sum((5, "JK") in m["positions"] for m in r[1]) == 1
    assert sum((5, card_id("H6")) in m["positions"] for m in r[1]) == 1


# ---------------------------------------------------------------- round 4: 3 sets of 3


def test_round4_three_sets():
    # 7s (H7 H7 S7), 9s, Ks; H2 stays: 2
    r = solve("H7 H7 S7 D9 C9 S9 CK DK HK H2", 4)
    assert r[0] == 2
    assert same_melds(r[1], [a_set("H7 H7 S7"), a_set("C9 D9 S9"), a_set("CK DK HK")])


def test_round4_a_pair_needs_a_joker():
    # kings are a pair: not met; with a joker CK DK JK, H2 stays: 2
    assert left("H7 S7 D7 C9 S9 D9 CK DK H2", 4) is None
    r = solve("H7 S7 D7 C9 S9 D9 CK DK H2 JK", 4)
    assert r[0] == 2
    assert same_melds(r[1], [a_set("D7 H7 S7"), a_set("C9 D9 S9"), a_set("CK DK", jokers=1)])


def test_round4_one_rank_three_times():
    # three decks: nine 7s are three sets of 7s; eight are not, unless a joker helps
    assert left("H7 H7 H7 S7 S7 S7 D7 D7 D7", 4) == 0
    assert left("H7 H7 H7 S7 S7 S7 D7 D7", 4) is None
    assert left("H7 H7 H7 S7 S7 S7 D7 D7 JK", 4) == 0


# ---------------------------------------------------------------- round 5: 1 set of 3 + 1 run of 7


def test_round5_plain():
    # run S2-S8 (positions 1..7), queens; SK stays: 10
    r = solve("S2 S3 S4 S5 S6 S7 S8 HQ DQ CQ SK", 5)
    assert r[0] == 10
    assert same_melds(
        r[1],
        [a_set("CQ DQ HQ"), a_run(*[(p, f"S{p + 1}") for p in range(1, 8)])],
    )


def test_round5_joker_extends_the_run():
    # S3-S8 is 6 long: the joker is the 2 or the 9. 0 left.
    assert left("S3 S4 S5 S6 S7 S8 JK HQ DQ CQ", 5) == 0
    # ace low: S8..SK + JK can only be extended downwards (the 7)
    r = solve("S8 S9 S10 SJ SQ SK JK HQ DQ CQ", 5, ace="low")
    assert r[0] == 0
    assert same_melds(
        r[1],
        [a_set("CQ DQ HQ"), a_run((6, "JK"), (7, "S8"), (8, "S9"), (9, "S10"), (10, "SJ"), (11, "SQ"), (12, "SK"))],
    )


@pytest.mark.parametrize("ace, expected", [("high_or_low", 0), ("low", None)])
def test_round5_run_to_the_ace(ace, expected):
    # H8..HK + HA is 7 long only with the ace above the king
    assert left("H8 H9 H10 HJ HQ HK HA C5 D5 S5", 5, ace) == expected


def test_round5_gap_not_filled():
    # H2..H8 without H5: 6 naturals, no joker. Not met.
    assert left("H2 H3 H4 H6 H7 H8 H9 C5 D5 S5", 5) is None


# ---------------------------------------------------------------- round 6: 2 sets of 3 + 1 run of 5


def test_round6_plain():
    # run D4-D8, jacks, 2s; DA stays: 15
    r = solve("D4 D5 D6 D7 D8 HJ SJ CJ H2 S2 C2 DA", 6)
    assert r[0] == 15
    assert same_melds(
        r[1],
        [
            a_set("CJ HJ SJ"),
            a_set("C2 H2 S2"),
            a_run((3, "D4"), (4, "D5"), (5, "D6"), (6, "D7"), (7, "D8")),
        ],
    )


def test_round6_extra_naturals_and_a_joker():
    # 2s take all five 2s (D2 twice), jacks take HJ SJ + JK, run D4-D8. 0 left.
    r = solve("D4 D5 D6 D7 D8 H2 S2 C2 D2 D2 HJ SJ JK", 6)
    assert r[0] == 0
    assert same_melds(
        r[1],
        [
            a_set("C2 D2 D2 H2 S2"),
            a_set("HJ SJ", jokers=1),
            a_run((3, "D4"), (4, "D5"), (5, "D6"), (6, "D7"), (7, "D8")),
        ],
    )


# ---------------------------------------------------------------- round 7: 3 runs of 4


def test_round7_plain_and_short():
    # three runs, 12 cards exactly: 0 left; 11 cards cannot; a joker completes it
    assert left("C3 C4 C5 C6 D3 D4 D5 D6 S9 S10 SJ SQ", 7) == 0
    assert left("C3 C4 C5 C6 D3 D4 D5 D6 S9 S10 SJ", 7) is None
    assert left("C3 C4 C5 C6 D3 D4 D5 D6 S9 S10 SJ JK", 7) == 0


def test_round7_three_equal_runs():
    # three decks: H3-H6 three times
    assert left("H3 H4 H5 H6 H3 H4 H5 H6 H3 H4 H5 H6", 7) == 0


@pytest.mark.parametrize("ace", ACES)
def test_round7_third_run_would_touch(ace):
    # Hearts at 2-5 | 7-10 | Q K A, one joker. Q-K-A needs the joker to be 4
    # long: as the J it touches 7-10 (hi 9 + 1 == lo 10), and there is no
    # position above the high ace. The joker in the gaps joins two runs; the
    # single ace cannot be both A-2-3-4-5 and Q-K-A. Not met.
    assert left("H2 H3 H4 H5 H7 H8 H9 H10 HQ HK HA JK", 7, ace) is None


# ---------------------------------------------------------------- round 8: 1 set of 3 + 1 run of 10


def test_round8_needs_13_cards():
    # run C2-CJ (10) + 4s: 13 cards, 0 left. Drop any one card: 12 cannot.
    text = "C2 C3 C4 C5 C6 C7 C8 C9 C10 CJ H4 S4 D4"
    assert left(text, 8) == 0
    cards = text.split()
    for i in range(len(cards)):
        assert left(" ".join(cards[:i] + cards[i + 1 :]), 8) is None
        # a joker in place of the dropped card restores it (never more than 1 joker here)
        assert left(" ".join(cards[:i] + cards[i + 1 :] + ["JK"]), 8) == 0
    # 12 cards with two jokers: run C2-C9 + JK JK, but 4s are a pair. Not met.
    assert left("C2 C3 C4 C5 C6 C7 C8 C9 H4 S4 JK JK", 8) is None


def test_round8_and_later_never_from_12_cards():
    # 12 = 11 dealt + 1 drawn < 13, 14, 15 (rules 2.2): whatever the 12 cards
    # are, jokers included (a joker is one of the 12 cards). Dense hands of
    # few ranks in one or two suits, duplicates and jokers.
    rng = random.Random(8)
    for _ in range(40):
        suits = rng.sample(range(4), rng.randint(1, 2))
        lo = rng.randrange(13)
        ranks = [(lo + k) % 13 for k in range(rng.randint(4, 13))]
        shoe = [16 * s + r for s in suits for r in ranks] * 3
        jokers = rng.randint(0, 2)
        naturals = rng.sample(shoe, 12 - jokers)
        for round_no in (8, 9, 10):
            assert S.best_contract(naturals, jokers, round_no) is None


@pytest.mark.parametrize("ace, expected", [("high_or_low", 0), ("low", None)])
def test_round8_run_to_the_ace(ace, expected):
    # S5..SK + SA: positions 4..13, 10 long only with the ace high
    assert left("S5 S6 S7 S8 S9 S10 SJ SQ SK SA H2 D2 C2", 8, ace) == expected


def test_round8_two_jokers_in_the_long_run():
    # C2 C3 JK(4) C5..C10 + JK as the ace low or the J: 10 long; 4s natural. 0 left.
    r = solve("C2 C3 C5 C6 C7 C8 C9 C10 JK JK H4 S4 D4", 8)
    assert r[0] == 0
    run = [m for m in r[1] if m["kind"] == "run"][0]
    assert run["jokers"] == 2 and (3, "JK") in run["positions"]


# ---------------------------------------------------------------- round 9: 3 sets of 3 + 1 run of 5


def test_round9():
    # 7s, 9s, Ks, run S2-S6: 14 cards, 0 left
    assert left("H7 S7 D7 C9 S9 D9 CK DK HK S2 S3 S4 S5 S6", 9) == 0
    # jokers: H7 S7 JK, and S2-S5 + JK (ace low or the 6). 0 left.
    r = solve("H7 S7 JK C9 S9 D9 CK DK HK S2 S3 S4 S5 JK", 9)
    assert r[0] == 0
    assert sorted(m["jokers"] for m in r[1]) == [0, 0, 1, 1]
    # 13 cards: not met
    assert left("H7 S7 D7 C9 S9 D9 CK DK HK S2 S3 S4 S5", 9) is None


# ---------------------------------------------------------------- round 10: 3 runs of 5


def test_round10():
    # three suits, 15 cards: 0 left
    assert left("C2 C3 C4 C5 C6 D8 D9 D10 DJ DQ S9 S10 SJ SQ SK", 10) == 0
    # clubs 2-J in a row can only split into 2-6 + 7-J, which join: not met
    assert left("C2 C3 C4 C5 C6 C7 C8 C9 C10 CJ S9 S10 SJ SQ SK", 10) is None
    # clubs 2-6 and 8-Q with the 7 missing: two runs, 0 left
    assert left("C2 C3 C4 C5 C6 C8 C9 C10 CJ CQ S9 S10 SJ SQ SK", 10) == 0
    # ... and with the C7 held it must stay in hand: 7 left
    assert left("C2 C3 C4 C5 C6 C7 C8 C9 C10 CJ CQ S9 S10 SJ SQ SK", 10) == 7


# ---------------------------------------------------------------- more jokers (option `jokers`)


def test_three_jokers_cannot_outnumber_naturals_in_a_run():
    # H5 + JK JK JK would be a run of 4 with 1 natural: not a meld. The 9s are
    # the set; the run needs 2+ naturals of one suit. Not met.
    assert left("H5 JK JK JK C9 D9 S9", 2) is None
    # H5 H6 + JK JK is a run of 4; the third joker joins the 9s. 0 left.
    assert left("H5 H6 JK JK JK C9 D9 S9", 2) == 0
    # all 8 cards laid: H5 H6 needs 2 jokers to be 4 long, so the 9s take the third
    r = solve("H5 H6 JK JK JK C9 D9 S9", 2)
    assert sorted(m["jokers"] for m in r[1]) == [1, 2]


# ---------------------------------------------------------------- properties


def test_random_hands_are_fast_and_valid():
    # random hands of 11-16 cards with 0-2 jokers from two decks, every round,
    # both ace rules: each answer passes validate_laying (inside solve)
    rng = random.Random(11)
    shoe = [16 * s + r for s in range(4) for r in range(13)] * 2
    for _ in range(40):
        jokers = rng.randint(0, 2)
        naturals = rng.sample(shoe, rng.randint(11, 16) - jokers)
        for round_no in range(1, 11):
            high = S.best_contract(naturals, jokers, round_no, "high_or_low")
            low = S.best_contract(naturals, jokers, round_no, "low")
            for ace, r in (("high_or_low", high), ("low", low)):
                if r is not None:
                    S.validate_laying(naturals, jokers, round_no, r[0], r[1], ace)
            # every low-ace laying is also a high-or-low laying
            if low is not None:
                assert high is not None and high[0] <= low[0]


def test_adding_a_card_never_hurts():
    # best(hand + c) <= best(hand) + value(c): the old laying still works
    rng = random.Random(12)
    for _ in range(25):
        suits = rng.sample(range(4), 2)
        lo = rng.randrange(13)
        shoe = [16 * s + (lo + k) % 13 for s in suits for k in range(8)] * 2
        naturals = rng.sample(shoe, rng.randint(8, 12))
        jokers = rng.randint(0, 1)
        extra = rng.choice(shoe)
        for round_no in range(1, 8):
            before = S.best_contract(naturals, jokers, round_no)
            after = S.best_contract(naturals + [extra], jokers, round_no)
            with_joker = S.best_contract(naturals, jokers + 1, round_no)
            if before is not None:
                assert after is not None and after[0] <= before[0] + S.card_value(extra)
                assert with_joker is not None and with_joker[0] <= before[0] + S.JOKER_VALUE


def test_suit_relabelling_changes_nothing():
    rng = random.Random(13)
    shoe = [16 * s + r for s in range(4) for r in range(13)] * 2
    for _ in range(20):
        naturals = rng.sample(shoe, 14)
        perm = rng.sample(range(4), 4)
        moved = [16 * perm[c // 16] + c % 16 for c in naturals]
        for round_no in range(1, 11):
            a = S.best_contract(naturals, 1, round_no)
            b = S.best_contract(moved, 1, round_no)
            assert (a is None) == (b is None) and (a is None or a[0] == b[0])


# ---------------------------------------------------------------- a naive second opinion


def naive_best_left(naturals, jokers, round_no, ace):
    """The least value left over every laying, found the slow way; None if none.

    Each meld is any sub-multiset of the cards left of ONE rank (a set) or
    ONE suit (a run), with any number of the jokers left, kept when
    is_set / run_layouts say it is a meld of the contract's size. Melds of
    one kind are taken in sorted order (each collection once). At the end the
    runs need some choice of layouts with no two of one suit end to end.
    """
    n_sets, n_runs, run_min_len = S.CONTRACTS[round_no]
    kinds = ["set"] * n_sets + ["run"] * n_runs
    best = None

    def sub_multisets(remaining, same):
        for key in sorted({same(c) for c in remaining}):
            items = sorted((c, k) for c, k in remaining.items() if same(c) == key)
            for counts in product(*(range(k + 1) for _, k in items)):
                picked = tuple(c for (c, _), m in zip(items, counts) for _ in range(m))
                if picked:
                    yield picked

    def runs_fit(runs):
        layouts = [S.run_layouts(nat, j, ace, run_min_len) for nat, j in runs]
        for choice in product(*layouts):
            spans = [(S.suit_of(nat[0]), lay[0][0], lay[-1][0]) for (nat, _), lay in zip(runs, choice)]
            if all(
                not (a[0] == b[0] and (a[2] + 1 == b[1] or b[2] + 1 == a[1]))
                for i, a in enumerate(spans)
                for b in spans[i + 1 :]
            ):
                return True
        return False

    def explore(i, remaining, jokers_left, chosen):
        nonlocal best
        if i == len(kinds):
            runs = [(nat, j) for kind, nat, j in chosen if kind == "run"]
            if runs_fit(runs):
                value = S.hand_value(remaining.elements(), jokers_left)
                best = value if best is None else min(best, value)
            return
        kind = kinds[i]
        same = S.rank_of if kind == "set" else S.suit_of
        for nat in sub_multisets(remaining, same):
            for j in range(jokers_left + 1):
                if i > 0 and kinds[i - 1] == kind and (nat, j) < chosen[-1][1:]:
                    continue
                ok = S.is_set(nat, j) if kind == "set" else bool(S.run_layouts(nat, j, ace, run_min_len))
                if ok:
                    explore(i + 1, remaining - Counter(nat), jokers_left - j, chosen + [(kind, nat, j)])

    explore(0, Counter(naturals), jokers, [])
    return best


def test_reference_agrees_with_the_naive_solver():
    # dense small hands (two suits, seven ranks, two decks, up to 3 jokers:
    # the jokers option may be any number) so that contracts are often met;
    # both ace rules; every round the hand is big enough for
    rng = random.Random(20)
    met = 0
    for trial in range(150):
        suits = rng.sample(range(4), 2)
        lo = rng.choice([0, 3, 6, 8, 9])  # 8, 9: windows that hold Q-K-A and A-2
        shoe = [16 * s + (lo + k) % 13 for s in suits for k in range(7)] * 2
        jokers = rng.choice([0, 0, 1, 1, 2, 3])
        naturals = rng.sample(shoe, rng.randint(6, 12) - min(jokers, 2))
        ace = ACES[trial % 2]
        for round_no in range(1, 11):
            if len(naturals) + jokers < S.fewest_cards(round_no):
                continue
            ref = S.best_contract(naturals, jokers, round_no, ace)
            naive = naive_best_left(naturals, jokers, round_no, ace)
            assert (None if ref is None else ref[0]) == naive, (sorted(naturals), jokers, round_no, ace)
            met += ref is not None
    assert met > 100  # the sample does exercise met contracts


@pytest.mark.parametrize(
    "text, round_no",
    [
        ("H5 H6 H7 H8 S7 JK JK", 2),
        ("H5 H6 H7 H8 S7 JK JK D2 C2", 2),
        ("H3 H4 H5 H7 H8 H9 H10 JK", 3),
        ("H4 H5 H6 H7 H8 H5 H7 JK", 3),
        ("H7 H7 S7 S7 D7 JK", 1),
        ("H2 H3 H4 H5 H7 H8 H9 H10 HQ HK HA JK", 7),
    ],
)
def test_hand_worked_positions_agree_with_the_naive_solver(text, round_no):
    naturals, jokers = hand(text)
    for ace in ACES:
        ref = S.best_contract(naturals, jokers, round_no, ace)
        assert (None if ref is None else ref[0]) == naive_best_left(naturals, jokers, round_no, ace)


# ---------------------------------------------------------------- lay-offs and swaps (rules 2.5, ruling 3.13)


def meld(text):
    """A table meld from text: naturals of one rank a set, else a run in position order (``JK`` where a
    joker stands; an ace after other cards is high)."""
    items = text.split()
    naturals = [card_id(t) for t in items if t != "JK"]
    if len({S.rank_of(c) for c in naturals}) == 1 and len(items) >= 3:
        return {"kind": "set", "naturals": sorted(naturals), "jokers": len(items) - len(naturals), "positions": None}
    first = next(i for i, t in enumerate(items) if t != "JK")
    pos0 = S.rank_of(naturals[0]) if S.rank_of(naturals[0]) or first == 0 else S.ACE_HIGH_POS
    cells = [(pos0 - first + i, "JK" if t == "JK" else card_id(t)) for i, t in enumerate(items)]
    return {"kind": "run", "naturals": sorted(naturals), "jokers": len(items) - len(naturals), "positions": cells}


def in_hand(text):
    return Counter("JK" if t == "JK" else card_id(t) for t in text.split())


def test_play_moves_a_joker_on_a_run_open_at_both_ends_goes_below_or_above():
    # ruling 3.13: H5 H6 H7 H8 takes the joker as H4 or H9; H2..HK as the ace below or above (3.11)
    assert S.play_moves([meld("H5 H6 H7 H8")], in_hand("JK C2")) == {("layoff", "JK", 0, "low"),
                                                                    ("layoff", "JK", 0, "high")}
    king = meld("H2 H3 H4 H5 H6 H7 H8 H9 H10 HJ HQ HK")
    assert S.play_moves([king], in_hand("JK HA C2")) == {("layoff", "JK", 0, "low"), ("layoff", "JK", 0, "high"),
                                                         ("layoff", card_id("HA"), 0, None)}
    # one end: nothing above the high ace, nor above the king with aces low, nor below the low ace
    assert S.play_moves([meld("HJ HQ HK HA")], in_hand("JK C2")) == {("layoff", "JK", 0, "low")}
    assert S.play_moves([meld("HJ HQ HK")], in_hand("JK C2"), ace="low") == {("layoff", "JK", 0, "low")}
    assert S.play_moves([meld("HA H2 H3")], in_hand("JK C2")) == {("layoff", "JK", 0, "high")}
    # a set takes a joker while it has more naturals than jokers; no end
    assert S.play_moves([meld("C9 D9 JK"), meld("C9 D9 JK JK")], in_hand("JK C2")) == {("layoff", "JK", 0, "set")}


def test_play_moves_swaps_and_their_freed_joker():
    # 2.5: H5 takes the joker of H4 JK H6 H7; the joker then goes to either end of H4..H7 or of D3 D4 D5,
    # or into the set of 9s
    table = [meld("H4 JK H6 H7"), meld("D3 D4 D5"), meld("S9 C9 JK")]
    h5 = card_id("H5")
    assert S.play_moves(table, in_hand("H5 C2")) == {
        ("swap", h5, 0, 0, "low"), ("swap", h5, 0, 0, "high"), ("swap", h5, 0, 1, "low"),
        ("swap", h5, 0, 1, "high"), ("swap", h5, 0, 2, "set")}
    assert S.play_moves(table, in_hand("H5 C2"), swaps=False) == set()
    # any natural of a set's rank takes its joker
    assert ("swap", card_id("H9"), 2, 2, "set") in S.play_moves(table, in_hand("H9 C2"))


def test_play_moves_keep_a_card_to_throw():
    # 2.6 and ruling 3.1: H3 was taken from the pile this turn; laying off H8 would leave only H3
    run = [meld("H5 H6 H7")]
    assert S.play_moves(run, in_hand("H8 H3"), drawn=card_id("H3")) == set()
    assert S.play_moves(run, in_hand("H8 H3")) == {("layoff", card_id("H8"), 0, None)}
    assert S.play_moves(run, in_hand("H8")) == {("layoff", card_id("H8"), 0, None)}        # going out
    assert S.play_moves(run, in_hand("H8"), must_discard=True) == set()
