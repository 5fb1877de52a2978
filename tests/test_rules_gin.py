"""Gin Rummy, rule by rule: one test per rule and ruling of docs/rules.md section 4 and rulings 3.14-3.18.

Each test builds a position by hand (``position``: the starter's and the dealer's hands, the upcard,
the stock top card first) and plays named moves through the rules layer (``rummysim.variants.gin.moves``),
checking the legal moves at each decision and the exact result. Cards as in ``rummysim.cards``: ``H8``,
``SK``, ``D10``. The starter is seat 0 unless a test says otherwise.
"""

from __future__ import annotations

import numpy as np
import pytest

from rummysim.cards import card_id, mask_of
from rummysim.engine import codes as C
from rummysim.engine import melds as M
from rummysim.variants.gin import kernel as K
from rummysim.variants.gin import moves as MV
from rummysim.variants.gin import state as S
from rummysim.variants.gin.notation import legal_move_names
from rummysim.variants.gin.rules import GinRules

pytestmark = pytest.mark.engine


def cards(text: str) -> list[int]:
    return [card_id(w) for w in text.split()]


def position(starter: str, dealer: str, upcard: str, stock: str, first: int = 0, rest: str = "stock", **options):
    """A hand in play: seat ``first`` holds ``starter`` and is offered the first upcard ``upcard``; the other
    seat holds ``dealer``; ``stock`` names the stock from its top card down. The cards not named are out of
    play: under the stock (``rest="stock"``) or under the upcard in the discard pile (``rest="pile"``, a
    stock of only the cards named). Every move is followed by the card-conservation check."""
    rules = GinRules(**options).to_array(2)
    rules[S.R_CHECK] = 1
    state = K.new_state(rules, M.CARD_VALUE.copy(), np.zeros((64, MV.EV_WIDTH), np.int16))
    named = cards(starter) + cards(dealer) + cards(upcard) + cards(stock)
    assert len(set(named)) == len(named), "a card named twice"
    others = [c for c in (16 * s + r for s in range(4) for r in range(13)) if c not in named]
    under_stock = others if rest == "stock" else []
    pile = (others if rest == "pile" else []) + [card_id(upcard)]
    top_last = under_stock + cards(stock)[::-1]
    S.stock_view(state)[:len(top_last)] = top_last
    state.ints[S.I_STOCK_N] = len(top_last)
    S.pile_view(state)[:len(pile)] = pile
    state.ints[S.I_PILE_N] = len(pile)
    state.masks[S.M_PILE] = np.uint64(mask_of(pile))
    state.ints[S.I_PLAYERS] = 2
    state.masks[S.M_HAND + first] = np.uint64(mask_of(cards(starter)))
    state.masks[S.M_HAND + 1 - first] = np.uint64(mask_of(cards(dealer)))
    state.ints[S.I_KNOCK_CARD] = K.knock_card_of(rules, card_id(upcard))
    MV.begin(state, first)
    return state


def legal(state) -> list[str]:
    return [name for _, name in legal_move_names(state)]


def play(state, *names: str) -> None:
    """Play the moves named (as ``legal`` names them), each checked legal first."""
    for name in names:
        found = dict((n, a) for a, n in legal_move_names(state))
        assert name in found, f"{name!r} not legal; legal: {sorted(found)}"
        assert MV.is_legal(state, found[name])
        MV.apply(state, found[name])


def result(state) -> tuple:
    ints = state.ints
    return (int(ints[S.I_OUTCOME]), int(ints[S.I_WINNER]), int(ints[S.I_POINTS]), bool(ints[S.I_GIN]),
            bool(ints[S.I_UNDERCUT]))


# a hand that can knock at once: three melds and a 2 of deadwood (9 cards) + a deadwood card
KNOCKER = "C2 C3 C4 D7 H7 S7 HJ HQ HK S2"        # deadwood S2 = 2
DEFENDER = "DA D2 D3 S9 S10 C9 H9 D9 SK C5"       # D A-2-3, the four 9s; S10 SK C5 = 25 of deadwood
DEFENDER2 = "DA D2 D3 S9 C9 H9 D9 SK C5 C6"      # the same with C6 for S10


# ------------------------------------------------------------------ 4.1 table and deal
def test_4_1_the_deal_gives_ten_cards_each_an_upcard_and_31_in_the_stock_starter_first():
    hands = np.zeros(2, np.uint64)
    stock = np.zeros(64, np.int64)
    deck = np.zeros(64, np.int64)
    up, n = K.deal(7, 3, 0, 10, hands, stock, deck, np.zeros(1, np.uint64))
    assert n == 31 and bin(int(hands[0])).count("1") == 10 and bin(int(hands[1])).count("1") == 10
    everything = int(hands[0]) | int(hands[1]) | (1 << int(up)) | sum(1 << int(c) for c in stock[:n])
    assert everything == int(M.FULL_DECK)
    # the shuffled deck: the starter's cards first, then the dealer's, the upcard, the stock top first
    starter = 1   # game 3, hand 0: the dealer is (3 + 0 + 1) % 2 = seat 0
    assert int(hands[starter]) == sum(1 << int(c) for c in deck[:10])
    assert int(hands[1 - starter]) == sum(1 << int(c) for c in deck[10:20])
    assert int(up) == int(deck[20]) and int(stock[n - 1]) == int(deck[21])


def test_4_1_hand_size_option_deals_fewer_cards():
    hands = np.zeros(2, np.uint64)
    up, n = K.deal(1, 0, 0, 7, hands, np.zeros(64, np.int64), np.zeros(64, np.int64), np.zeros(1, np.uint64))
    assert n == 52 - 15 and [bin(int(h)).count("1") for h in hands] == [7, 7]


# ------------------------------------------------------------------ 4.2 melds and deadwood
@pytest.mark.parametrize("hand, deadwood", [
    ("C2 C3 C4 D7 H7 S7 HJ HQ HK S2", 2),
    ("SQ SK SA C5 D5 H5 S5 D9 D10 DJ", 21),      # the ace is low: Q-K-A is no run (1 + 10 + 10)
    ("C5 C6 C7 C8 D8 H8 S8 DA HA SA", 0),        # C8 in the run or in the set, not both: the run of 3 and the 8s
    ("CA C2 C3 C4 C5 C6 C7 HK SK DK", 0),        # a run of 7 is laid as two melds
    ("CK DK HQ SJ D10 C9 H8 S7 D6 C5", 85),
])
def test_4_2_deadwood_is_the_value_left_by_the_best_set_of_disjoint_melds(hand, deadwood):
    state = position(hand, "", next(w for w in ("S3", "H4", "D5") if w not in hand.split()), "")
    assert MV.deadwood(state, np.uint64(mask_of(cards(hand)))) == deadwood


def test_4_2_the_deadwood_each_discard_leaves_is_the_best_arrangement_of_the_other_ten():
    """One search of an 11-card hand gives each card's deadwood after its discard (``I_LEFT_AFTER``):
    checked against the reference's exhaustive search of the 10 cards left, on hands drawn from few
    ranks and suits so that they hold many overlapping melds (4-sets, long runs, both at once)."""
    from reference import best_deadwood
    rng = np.random.default_rng(42)
    state = position(KNOCKER, DEFENDER, "H5", "S3 S4")
    for _ in range(300):
        ranks = rng.choice(13, size=rng.integers(4, 9), replace=False)
        pool = [16 * s + r for s in range(4) for r in ranks]
        hand = [int(c) for c in rng.choice(pool, size=11, replace=False)]
        keep = hand[0]
        best = MV.discard_deadwood(state, np.uint64(mask_of(hand)), np.uint64(mask_of([keep])), True)
        left = {c: best_deadwood(set(hand) - {c}, False) for c in hand}
        assert {c: int(state.ints[S.I_LEFT_AFTER + (c // 16) * 13 + c % 16]) for c in hand} == left
        assert best == min(d for c, d in left.items() if c != keep)


# ------------------------------------------------------------------ 4.3 the first upcard
def test_4_3_the_first_upcard_goes_to_the_starter_then_the_dealer_then_the_stock():
    state = position(KNOCKER, DEFENDER, "H5", "S3 S4")
    assert legal(state) == ["take H5", "pass"] and state.ints[S.I_SEAT] == 0
    play(state, "pass")
    assert legal(state) == ["take H5", "pass"] and state.ints[S.I_SEAT] == 1
    play(state, "pass")
    assert legal(state) == ["draw stock"] and state.ints[S.I_SEAT] == 0
    assert MV.forced_move(state) == MV.DRAW_STOCK
    play(state, "draw stock")
    assert state.ints[S.I_PHASE] == S.PH_DISCARD and int(state.masks[S.M_HAND]) >> card_id("S3") & 1
    # the upcard nobody took stays under the next discard
    play(state, "discard S3")
    assert [int(c) for c in S.pile_view(state)[:2]] == cards("H5 S3")


def test_4_3_the_dealer_may_take_the_first_upcard_the_starter_passed():
    state = position(KNOCKER, DEFENDER, "H5", "S3 S4")
    play(state, "pass", "take H5")
    assert state.ints[S.I_SEAT] == 1 and state.ints[S.I_PHASE] == S.PH_DISCARD
    assert "discard H5" not in legal(state)                     # ruling 3.14
    play(state, "discard SK")
    assert state.ints[S.I_SEAT] == 0 and legal(state) == ["take SK", "draw stock"]


# ------------------------------------------------------------------ 4.4 a turn; ruling 3.14
def test_4_4_a_stock_draw_may_discard_any_card_and_ruling_3_14_a_taken_card_not():
    state = position(KNOCKER, DEFENDER, "H5", "S3 S4")
    play(state, "pass", "pass", "draw stock")
    assert len([m for m in legal(state) if m.startswith("discard")]) == 11
    play(state, "discard S3")
    play(state, "take S3")
    discards = [m for m in legal(state) if m.startswith("discard")]
    assert len(discards) == 10 and "discard S3" not in discards
    assert not MV.is_legal(state, MV.card_index(card_id("S3")))


# ------------------------------------------------------------------ 4.5 knocking; ruling 3.15
def test_4_5_knock_when_the_best_discard_leaves_at_most_the_knock_card():
    state = position(KNOCKER, DEFENDER, "H5", "S3 S4")
    play(state, "pass", "pass", "draw stock")      # S3: deadwood after discarding S3 is 2 (S2)
    assert "knock" in legal(state)
    play(state, "knock")
    # the knocker's discard: only those leaving at most 10 of deadwood (not a card of a meld)
    assert legal(state) == ["discard C4", "discard S2", "discard S3"]   # C4 leaves C2 C3 S2 S3 = 10
    play(state, "discard S3")
    # melds that keep the deadwood within 10; passing only once the unlaid cards are worth at most 10
    names = legal(state)
    assert "pass" not in names and "meld C2 C3 C4" in names and "meld D7 H7 S7" in names
    play(state, "meld C2 C3 C4", "meld D7 H7 S7", "meld HJ HQ HK")
    assert legal(state) == ["pass"]
    play(state, "pass")
    assert state.ints[S.I_PHASE] == S.PH_LAYOFF and state.ints[S.I_SEAT] == 1


def test_4_5_no_knock_above_the_knock_card():
    state = position("C2 C3 C4 D7 H7 S7 HJ HQ HK S10", DEFENDER2, "H5", "SQ S4")
    play(state, "pass", "pass", "draw stock")      # SQ: best discard leaves S10 = 10: may knock
    assert "knock" in legal(state)
    state = position("C2 C3 C4 D7 H7 S7 HJ HQ HK S10", DEFENDER2, "H5", "SQ S4", knock_card=9)
    play(state, "pass", "pass", "draw stock")
    assert "knock" not in legal(state)


def test_ruling_3_15_knock_is_offered_by_the_true_best_discard():
    # OpenSpiel's shortcut finds 11 here (6s set and S4-S7 run, then drops a 5); discarding S7 leaves
    # C5 H5 S5 and C6 D6 H6 S6 with S2 S4 D4 = 10
    state = position("S2 S4 S5 S6 S7 C5 C6 D4 D6 H5", "CA C2 C3 C4 C7 C8 C9 C10 CJ CQ", "H6", "SK")
    play(state, "take H6")
    assert "knock" in legal(state)
    play(state, "knock")
    assert "discard S7" in legal(state)


# ------------------------------------------------------------------ 4.6 laying off; ruling 3.16
def test_4_6_the_defender_lays_off_on_the_knockers_melds_then_melds_then_passes():
    state = position(KNOCKER, DEFENDER, "H5", "S3 S4")
    play(state, "pass", "pass", "draw stock", "knock", "discard S3", "meld C2 C3 C4", "meld D7 H7 S7",
         "meld HJ HQ HK", "pass")
    # the defender holds DA D2 D3 S9 S10 C9 H9 D9 SK C5: only C5 fits a knocker's meld (C2 C3 C4)
    assert legal(state) == ["layoff C5", "pass"]
    play(state, "layoff C5", "pass")
    assert "meld DA D2 D3" in legal(state) and "meld C9 D9 H9 S9" in legal(state)
    play(state, "meld DA D2 D3", "meld C9 D9 H9 S9", "pass")
    # defender deadwood S10 + SK = 20; knocker 2: the knocker wins 18
    assert result(state) == (C.OUT_WIN, 0, 18, False, False)


def test_ruling_3_16_lay_offs_extend_a_run_without_limit():
    state = position("S6 S7 S8 C2 D2 H2 CK DK HK CA", "S9 S10 SJ SQ S5 S4 D9 H4 C6 H10", "C3", "D5")
    play(state, "pass", "pass", "draw stock", "knock", "discard D5")
    play(state, "meld S6 S7 S8", "meld C2 D2 H2", "meld CK DK HK", "pass")
    assert legal(state) == ["layoff S5", "layoff S9", "pass"]
    play(state, "layoff S9", "layoff S10", "layoff SJ")      # OpenSpiel stops after S10
    assert "layoff SQ" in legal(state)
    play(state, "layoff SQ", "layoff S5", "layoff S4", "pass")
    assert [int(m) for m in [state.masks[S.M_HAND + 1]]] == [mask_of(cards("D9 H4 C6 H10"))]


def test_4_6_no_lay_offs_on_gin():
    state = position("C2 C3 C4 D7 H7 S7 HJ HQ HK SA", "C5 DA D2 D3 S9 S10 C9 H9 D9 SK", "H10", "S2")
    play(state, "take H10", "knock", "discard SA")
    play(state, "meld C2 C3 C4", "meld D7 H7 S7", "meld H10 HJ HQ HK", "pass")
    assert state.ints[S.I_PHASE] == S.PH_DEFENDER_MELD and "layoff C5" not in legal(state)
    play(state, "meld DA D2 D3", "meld C9 D9 H9 S9", "pass")
    # gin: defender deadwood C5 S10 SK = 25, + the gin bonus 25
    assert result(state) == (C.OUT_WIN, 0, 50, True, False)


def test_4_6_the_wall_pass_ends_the_hand_with_no_score():
    # a stock of three: after the starter's draw and discard two are left, and the dealer is at the wall
    state = position("CA C2 C3 D7 H7 S7 HJ HQ HK S2", DEFENDER, "C10", "S3 S4 S5", rest="pile")
    play(state, "pass", "pass", "draw stock", "discard S3")
    assert state.ints[S.I_PHASE] == S.PH_WALL and state.ints[S.I_STOCK_N] == 2 and state.ints[S.I_SEAT] == 1
    assert legal(state) == ["pass"]     # no draw; S3 leaves the dealer's deadwood at 18 after a discard
    play(state, "pass")
    assert result(state) == (C.OUT_STALEMATE_STOCK, -1, 0, False, False)


def test_4_6_the_wall_knock_takes_the_upcard():
    # seat 1 starts and throws S2 at the wall; seat 0 (deadwood S9) knocks with it and must keep it
    state = position("DA D2 D3 C9 H9 D9 SK C5 C6 S2", "CA C2 C3 D7 H7 S7 HJ HQ HK S9", "C10", "C8 S4 S5",
                     first=1, rest="pile")
    play(state, "pass", "pass", "draw stock", "discard S2")
    assert state.ints[S.I_PHASE] == S.PH_WALL and state.ints[S.I_SEAT] == 0
    assert legal(state) == ["pass", "knock"]
    play(state, "knock")
    assert int(state.masks[S.M_HAND]) >> card_id("S2") & 1
    assert legal(state) == ["discard S9"]      # ruling 3.14: not S2, the upcard the knock took


def test_4_6_the_50th_take_of_the_upcard_ends_the_hand_with_no_score():
    state = position(KNOCKER, DEFENDER, "H5", "S3 S4")
    state.ints[S.I_UPCARD_DRAWS] = S.UPCARD_DRAW_LIMIT - 1
    play(state, "pass", "pass", "draw stock", "discard S3")
    play(state, "take S3")
    assert result(state)[:3] == (C.OUT_TURN_LIMIT, -1, 0)
    assert not int(state.masks[S.M_HAND + 1]) >> card_id("S3") & 1   # the card is not taken


# ------------------------------------------------------------------ 4.7 scoring; ruling 3.17
def _knock_and_score(knocker: str, defender: str, lay_k: list[str], lay_d: list[str], **options):
    state = position(knocker, defender, "DK", "HA", **options)
    play(state, "pass", "pass", "draw stock", "knock", "discard HA", *lay_k, "pass")
    if state.ints[S.I_PHASE] == S.PH_LAYOFF:
        play(state, "pass")
    play(state, *lay_d, "pass")
    return result(state)


def test_4_7_an_undercut_gives_the_defender_the_difference_and_the_bonus():
    r = _knock_and_score("C2 C3 C4 D7 H7 S7 HJ HQ HK S9", "DA D2 D3 C9 H9 D9 SA CA C5 C6",
                         ["meld C2 C3 C4", "meld D7 H7 S7", "meld HJ HQ HK"], ["meld DA D2 D3", "meld C9 D9 H9"])
    # knocker S9 = 9, defender SA CA C5 C6 = 13: the knocker wins 4
    assert r == (C.OUT_WIN, 0, 4, False, False)
    r = _knock_and_score("C2 C3 C4 D7 H7 S7 HJ HQ HK S9", "DA D2 D3 C9 H9 D9 SA CA S2 S3",
                         ["meld C2 C3 C4", "meld D7 H7 S7", "meld HJ HQ HK"], ["meld DA D2 D3", "meld C9 D9 H9"])
    # defender 1 + 1 + 2 + 3 = 7 < 9: undercut, the defender wins 2 + 25
    assert r == (C.OUT_WIN, 1, 27, False, True)
    r = _knock_and_score("C2 C3 C4 D7 H7 S7 HJ HQ HK S9", "DA D2 D3 C9 H9 D9 SA CA S2 S3",
                         ["meld C2 C3 C4", "meld D7 H7 S7", "meld HJ HQ HK"], ["meld DA D2 D3", "meld C9 D9 H9"],
                         undercut_bonus=10)
    assert r == (C.OUT_WIN, 1, 12, False, True)


def test_ruling_3_17_a_tie_is_won_by_the_knocker_with_no_points():
    r = _knock_and_score("C2 C3 C4 D7 H7 S7 HJ HQ HK S9", "DA D2 D3 C9 H9 D9 SA CA S2 S5",
                         ["meld C2 C3 C4", "meld D7 H7 S7", "meld HJ HQ HK"], ["meld DA D2 D3", "meld C9 D9 H9"])
    assert r == (C.OUT_WIN, 0, 0, False, False)


def test_4_9_tie_undercut_option_scores_the_tie_as_an_undercut():
    # knocker S9 = 9, defender SA CA S2 S5 = 1 + 1 + 2 + 5 = 9 (the tie of ruling 3.17), knocker no gin
    tie = ("C2 C3 C4 D7 H7 S7 HJ HQ HK S9", "DA D2 D3 C9 H9 D9 SA CA S2 S5",
           ["meld C2 C3 C4", "meld D7 H7 S7", "meld HJ HQ HK"], ["meld DA D2 D3", "meld C9 D9 H9"])
    assert _knock_and_score(*tie, tie_undercut=True) == (C.OUT_WIN, 1, 25, False, True)   # the defender: 0 + 25
    assert _knock_and_score(*tie, tie_undercut=True, undercut_bonus=10) == (C.OUT_WIN, 1, 10, False, True)
    assert _knock_and_score(*tie, tie_undercut=False) == (C.OUT_WIN, 0, 0, False, False)  # the default, 3.17
    # a true undercut and a knock that wins are scored as without the option
    r = _knock_and_score("C2 C3 C4 D7 H7 S7 HJ HQ HK S9", "DA D2 D3 C9 H9 D9 SA CA S2 S3",
                         ["meld C2 C3 C4", "meld D7 H7 S7", "meld HJ HQ HK"], ["meld DA D2 D3", "meld C9 D9 H9"],
                         tie_undercut=True)
    assert r == (C.OUT_WIN, 1, 27, False, True)
    r = _knock_and_score("C2 C3 C4 D7 H7 S7 HJ HQ HK S9", "DA D2 D3 C9 H9 D9 SA CA C5 C6",
                         ["meld C2 C3 C4", "meld D7 H7 S7", "meld HJ HQ HK"], ["meld DA D2 D3", "meld C9 D9 H9"],
                         tie_undercut=True)
    assert r == (C.OUT_WIN, 0, 4, False, False)


def test_4_9_tie_undercut_never_undercuts_gin():
    # gin (knocker 0) against a defender who melds everything (0): the knocker's gin, 0 + 25
    state = position("C2 C3 C4 D7 H7 S7 HJ HQ HK SA", "C5 C6 C7 DA D2 D3 C9 H9 D9 S9", "H10", "S2",
                     tie_undercut=True)
    play(state, "take H10", "knock", "discard SA", "meld C2 C3 C4", "meld D7 H7 S7", "meld H10 HJ HQ HK", "pass",
         "meld DA D2 D3", "meld C9 D9 H9 S9", "meld C5 C6 C7", "pass")
    assert result(state) == (C.OUT_WIN, 0, 25, True, False)


def test_4_7_gin_bonus_option():
    state = position("C2 C3 C4 D7 H7 S7 HJ HQ HK SA", "C5 DA D2 D3 S9 S10 C9 H9 D9 SK", "H10", "S2",
                     gin_bonus=20)
    play(state, "take H10", "knock", "discard SA", "meld C2 C3 C4", "meld D7 H7 S7", "meld H10 HJ HQ HK", "pass",
         "meld DA D2 D3", "meld C9 D9 H9 S9", "pass")
    assert result(state) == (C.OUT_WIN, 0, 45, True, False)


# ------------------------------------------------------------------ 4.8 the game
@pytest.mark.parametrize("options, points, wins, winner, totals", [
    ({}, (104, 30), (3, 2), 0, (104, 30)),
    ({"line_bonus": 25, "game_bonus": 100}, (104, 30), (3, 2), 0, (104 + 75 + 100, 30 + 50)),
    ({"line_bonus": 25, "game_bonus": 100, "shutout": True}, (104, 0), (3, 0), 0, (2 * (104 + 75 + 100), 0)),
    ({"line_bonus": 25, "game_bonus": 100, "shutout": True}, (30, 101), (1, 4), 1, (30 + 25, 101 + 100 + 100)),
])
def test_4_8_the_game_bonuses(options, points, wins, winner, totals):
    out = np.zeros(2, np.int64)
    K.game_totals(GinRules(**options).to_array(2), np.array(points, np.int64), np.array(wins, np.int64), winner, out)
    assert tuple(out) == totals


# ------------------------------------------------------------------ 4.9 options
@pytest.mark.parametrize("upcard, knock_card", [("HA", 0), ("C7", 7), ("SQ", 10), ("C10", 10)])
def test_4_9_oklahoma_the_first_upcard_sets_the_knock_card(upcard, knock_card):
    state = position(KNOCKER, DEFENDER, upcard, "S3", oklahoma=True)
    assert state.ints[S.I_KNOCK_CARD] == knock_card


def test_4_9_knock_card_0_allows_only_gin():
    state = position(KNOCKER, DEFENDER, "H5", "S3 S4", knock_card=0)
    play(state, "pass", "pass", "draw stock")
    assert "knock" not in legal(state)
    state = position("C2 C3 C4 D7 H7 S7 HJ HQ HK SA", DEFENDER, "H10", "S2", knock_card=0)
    play(state, "take H10")
    assert "knock" in legal(state)


def test_4_9_big_gin_keeps_eleven_melded_cards():
    state = position("C2 C3 C4 D7 H7 S7 HJ HQ HK S10", DEFENDER2, "H10", "S2", big_gin_bonus=31)
    play(state, "take H10")
    assert "big gin" not in legal(state)        # S10 is deadwood
    state = position("C2 C3 C4 D7 H7 S7 HJ HQ HK C5", "DA D2 D3 S9 S10 C9 H9 D9 SK D5", "H10", "S2",
                     big_gin_bonus=31)
    play(state, "take H10", "big gin", "meld C2 C3 C4 C5", "meld D7 H7 S7", "meld H10 HJ HQ HK", "pass",
         "meld DA D2 D3", "meld C9 D9 H9 S9", "pass")
    # defender S10 SK D5 = 25, + 31
    assert result(state) == (C.OUT_WIN, 0, 56, True, False) and state.ints[S.I_BIG_GIN] == 1
    state = position("C2 C3 C4 D7 H7 S7 HJ HQ HK C5", "DA D2 D3 S9 S10 C9 H9 D9 SK D5", "H10", "S2")
    play(state, "take H10")
    assert "big gin" not in legal(state)        # the option is off by default


# ------------------------------------------------------------------ ruling 3.18 the deal alternates
def test_ruling_3_18_the_seats_deal_in_turn():
    state = K.new_state(GinRules().to_array(2), M.CARD_VALUE.copy(), np.zeros((0, MV.EV_WIDTH), np.int16))
    rngs = np.zeros((2, 1), np.uint64)
    firsts = [K.start_hand(state, 5, 0, h, rngs) for h in range(4)]
    assert firsts == [0, 1, 0, 1]
    assert [K.start_hand(state, 5, g, 0, rngs) for g in range(3)] == [0, 1, 0]


# ------------------------------------------------------------------ interpretations I.14, I.15
def test_I_14_a_card_laid_off_extends_every_knocker_meld_it_fits():
    state = position("C4 H4 S4 D5 D6 D7 HJ HQ HK CA", "D4 D3 C9 H9 S9 SK SQ C2 H2 S2", "C10", "DA")
    play(state, "pass", "pass", "draw stock", "knock", "discard DA", "meld C4 H4 S4", "meld D5 D6 D7",
         "meld HJ HQ HK", "pass")
    assert legal(state) == ["layoff D4", "pass"]
    play(state, "layoff D4")        # the fourth 4, and the card below D5: both melds take it
    assert legal(state) == ["layoff D3", "pass"]
    play(state, "layoff D3", "pass")


def test_I_15_a_meld_the_knocker_keeps_in_hand_counts_as_deadwood():
    state = position("CA C2 C3 D7 H7 S7 HJ HQ HK S10", "D4 D3 C9 H9 S9 SK SQ C5 H2 S2", "C10", "DA")
    play(state, "pass", "pass", "draw stock", "knock", "discard S10", "meld D7 H7 S7", "meld HJ HQ HK")
    assert "pass" in legal(state)   # CA C2 C3 DA unlaid: 7, within the knock card
    play(state, "pass")
    assert state.ints[S.I_PHASE] == S.PH_LAYOFF   # no gin: the defender may lay off (it has nothing to)
    assert legal(state) == ["pass"]
    play(state, "pass", "meld C9 H9 S9", "pass")
    # the knocker's CA C2 C3 DA = 7 against D4 D3 SK SQ C5 H2 S2 = 36: the knocker wins 29
    assert result(state) == (C.OUT_WIN, 0, 29, False, False)
