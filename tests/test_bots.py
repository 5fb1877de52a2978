"""Basic Rummy bots, parameter by parameter (``rummysim.variants.basic.bots``, ``rummysim.strategy.SPEC``).

For every key of a strategy file a hand-built position in which changing that
one key changes the bot's play exactly as the module docstring of
``rummysim.variants.basic.bots`` says, with the moves written out both ways. Every bot
is *greedy* (``load_strategy("greedy", BASIC)``) with the keys a test names set by
``with_override``; the other seat plays plain greedy unless a test says so.

Conventions (as in ``test_rules_basic.py``)
-------------------------------------------
* Cards as in ``rummysim.cards``: ``H8``, ``SK``, ``D10``; card ids run clubs,
  diamonds, hearts, spades, so "highest card id" prefers spades.
* A position is drawn in a comment: each seat's hand, the stock top card
  first, the discard pile bottom card first (the last one is the upcard) and
  the melds on the table, numbered in the order they were laid. Cards a
  position does not name are out of play (and *live* for ``least_useful``:
  nobody has seen them).
* ``turn_limit=N`` stops the hand after N turns, to look at the first turns.
* ``moves(result)`` writes the events as short lines, e.g.
  ``"0 draws H5 from discard"``, ``"1 lays off S9 on 0"`` (table meld 0).
"""

from __future__ import annotations

from collections import Counter

import pytest

from rummysim.variants.basic.replay import play_position
from rummysim.base.rules import parse_rule_options
from rummysim.strategy import Strategy, load_strategy, params_matrix, with_override
from positions import moves
from rummysim.variants import VARIANTS

BASIC = VARIANTS["basic"]

pytestmark = pytest.mark.engine

GREEDY = load_strategy("greedy", BASIC)
HOLD = ("meld.mode=hold_for_rummy",)


# ----------------------------------------------------------------- helpers
def bot(*settings: str) -> Strategy:
    """Greedy with some keys set, e.g. ``bot("draw.mode=gain", "draw.min_gain=10")``."""
    s = GREEDY
    for setting in settings:
        key, text = setting.split("=", 1)
        s = with_override(s, key, text, BASIC)
    return s


def play(hands, stock, pile, *options, seats, table=(), first=0, seed=0) -> dict:
    players = len(hands)
    return play_position(players, list(hands), stock, pile,
                         parse_rule_options(BASIC, list(options)).to_array(players),
                         params_matrix(list(seats)), table=list(table), first=first, seed=seed)


def test_helpers_build_vectors_from_greedy_with_overrides():
    s = bot("draw.mode=gain", "draw.min_gain=7", "meld.mode=hold_for_rummy", "discard.tiebreak=random")
    params = params_matrix([s, GREEDY])
    assert params.shape == (2, len(GREEDY.params))
    changed = {i for i in range(params.shape[1]) if params[0, i] != params[1, i]}
    assert len(changed) == 4          # exactly the four keys set, nothing else
    assert sorted(params[0, i] for i in changed) == [1.0, 1.0, 2.0, 7.0]


# ===================================================================== bot
# seat 0: S5 C2 D7 H9        seat 1: C10 D10
# stock: CJ H2               pile: D4 SK  (upcard SK)
# table: 0: S2 S3 S4
# Greedy: SK is in no meld -> stock; lays off S5 at once; throws CJ, its highest card.
# Random: upcard or stock (1/2 each), lay off S5 or stop (1/2 each), then a
# uniform discard among the cards it may throw (never SK when it took SK).
RANDOM_POS = dict(hands=["S5 C2 D7 H9", "C10 D10"], stock="CJ H2", pile="D4 SK", table=["S2 S3 S4"])
GREEDY_MOVES = ["0 draws CJ from stock", "0 lays off S5 on 0", "0 discards CJ"]


def _random_pos(seat0: Strategy, seed: int) -> list[str]:
    p = RANDOM_POS
    return moves(play(p["hands"], p["stock"], p["pile"], "turn_limit=1", table=p["table"],
                      seats=[seat0, GREEDY], seed=seed))


def test_bot_family_is_deterministic_random_is_uniform_and_seeded():
    seeds = range(200)
    # the family bot: the same moves whatever the seed
    for seed in range(0, 200, 20):
        assert _random_pos(GREEDY, seed) == GREEDY_MOVES
    rnd = bot("bot=random")
    runs = {seed: _random_pos(rnd, seed) for seed in seeds}
    # the same seed gives the same moves, move for move
    for seed in range(0, 200, 20):
        assert _random_pos(rnd, seed) == runs[seed]
    took = [s for s in seeds if runs[s][0] == "0 draws SK from discard"]
    drew = [s for s in seeds if runs[s][0] == "0 draws CJ from stock"]
    assert len(took) + len(drew) == 200
    laid = [s for s in seeds if "0 lays off S5 on 0" in runs[s]]
    # uniform: each choice about half the time (binomial(200, 1/2): sd ~7)
    assert 70 <= len(took) <= 130
    assert 70 <= len(laid) <= 130
    # the choices differ across seeds: all four (draw, lay off) combinations occur
    assert {(s in took, s in laid) for s in seeds} == {(True, True), (True, False), (False, True), (False, False)}
    assert len({tuple(r) for r in runs.values()}) >= 12
    # uniform discard over the cards it may throw; never the upcard it just took
    discards = Counter(runs[s][-1].split()[-1] for s in seeds)
    assert set(discards) == {"S5", "C2", "D7", "H9", "CJ"}
    assert min(discards.values()) >= 8
    for s in took:
        assert runs[s][-1] != "0 discards SK"
        assert len(runs[s]) in (2, 3)
    # 'random' ignores every other key
    rnd_other = bot("draw.mode=never", "layoff.mode=when_going_out", "discard.mode=least_useful",
                    "discard.avoid_feeding=100", "bot=random")
    for seed in range(0, 200, 10):
        assert _random_pos(rnd_other, seed) == runs[seed]


# =============================================================== draw.mode
# seat 0: C5 D5 SK C2        seat 1: C7 D10 SQ
# stock: D3 D8               pile: S9 H5  (upcard H5 makes the set C5 D5 H5)
DRAW_POS = (["C5 D5 SK C2", "C7 D10 SQ"], "D3 D8", "S9 H5")
TAKES_H5 = ["0 draws H5 from discard", "0 melds C5 D5 H5", "0 discards SK"]
DRAWS_STOCK = ["0 draws D3 from stock", "0 discards SK"]


def test_draw_mode_never_takes_the_discard():
    r = play(*DRAW_POS, "turn_limit=1", seats=[bot("draw.mode=never"), GREEDY])
    assert moves(r) == DRAWS_STOCK
    r = play(*DRAW_POS, "turn_limit=1", seats=[bot("draw.mode=meld"), GREEDY])
    assert moves(r) == TAKES_H5


def test_draw_mode_meld_takes_a_card_that_goes_into_a_meld_gain_only_if_it_lowers_deadwood():
    # seat 0: C2 C3 C4 SK D9     seat 1: C7 D10 SQ
    # stock: D3 D8               pile: S9 C5  (upcard C5 extends C2 C3 C4 to a run of four)
    # C5 goes into a meld, so 'meld' takes it; but the deadwood after the best
    # discard is D9 either way (SK thrown): a gain of 0 points, so 'gain' with
    # min_gain 1 draws from the stock (and melds C2 C3 C4 all the same).
    pos = (["C2 C3 C4 SK D9", "C7 D10 SQ"], "D3 D8", "S9 C5")
    r = play(*pos, "turn_limit=1", seats=[bot("draw.mode=meld"), GREEDY])
    assert moves(r) == ["0 draws C5 from discard", "0 melds C2 C3 C4 C5", "0 discards SK"]
    r = play(*pos, "turn_limit=1", seats=[bot("draw.mode=gain", "draw.min_gain=1"), GREEDY])
    assert moves(r) == ["0 draws D3 from stock", "0 melds C2 C3 C4", "0 discards SK"]
    # a card that saves points is taken in 'gain' mode too (DRAW_POS: H5 saves 10)
    r = play(*DRAW_POS, "turn_limit=1", seats=[bot("draw.mode=gain", "draw.min_gain=1"), GREEDY])
    assert moves(r) == TAKES_H5


# ============================================================ draw.min_gain
def test_draw_min_gain_threshold():
    # DRAW_POS: without H5 the hand C5 D5 SK C2 throws SK -> deadwood 12;
    # with H5 it melds C5 D5 H5 and throws SK -> deadwood 2: a gain of 10 points.
    # Taken when the gain is at least min_gain: 10 yes, 11 no.
    r = play(*DRAW_POS, "turn_limit=1", seats=[bot("draw.mode=gain", "draw.min_gain=10"), GREEDY])
    assert moves(r) == TAKES_H5
    r = play(*DRAW_POS, "turn_limit=1", seats=[bot("draw.mode=gain", "draw.min_gain=11"), GREEDY])
    assert moves(r) == DRAWS_STOCK
    # the zero-gain C5 of the test above: min_gain 0 takes it
    r = play(["C2 C3 C4 SK D9", "C7 D10 SQ"], "D3 D8", "S9 C5", "turn_limit=1",
             seats=[bot("draw.mode=gain", "draw.min_gain=0"), GREEDY])
    assert moves(r) == ["0 draws C5 from discard", "0 melds C2 C3 C4 C5", "0 discards SK"]


# =============================================================== meld.mode
def test_meld_mode_at_once_vs_hold_for_rummy():
    # seat 0: C5 D5 H5 H9 H10 S6 SK     seat 1: C7 D10 SQ C2
    # stock: D3 D8 HJ S4                pile: CA
    # table: 0: S7 S8 S9  (S6 lays off on it)
    # at_once: melds C5 D5 H5 and lays off S6 in turn 1, goes out in turn 2: 27 points.
    # hold_for_rummy: turn 1 it cannot empty its hand, so it plays nothing;
    # turn 2 (HJ drawn) it can: both melds, the lay-off, the discard -> rummy, 54.
    pos = (["C5 D5 H5 H9 H10 S6 SK", "C7 D10 SQ C2"], "D3 D8 HJ S4", "CA")
    r = play(*pos, table=["S7 S8 S9"], seats=[bot("meld.mode=at_once"), GREEDY])
    assert moves(r) == [
        "0 draws D3 from stock", "0 melds C5 D5 H5", "0 lays off S6 on 0", "0 discards SK",
        "1 draws D8 from stock", "1 discards SQ",
        "0 draws HJ from stock", "0 melds H9 H10 HJ", "0 discards D3",
    ]
    assert (r["winner"], r["points"], r["going_rummy"]) == (0, 27, False)
    r = play(*pos, table=["S7 S8 S9"], seats=[bot(*HOLD), GREEDY])
    assert moves(r) == [
        "0 draws D3 from stock", "0 discards SK",
        "1 draws D8 from stock", "1 discards SQ",
        "0 draws HJ from stock", "0 melds C5 D5 H5", "0 melds H9 H10 HJ", "0 lays off S6 on 0",
        "0 discards D3",
    ]
    assert (r["winner"], r["points"], r["going_rummy"]) == (0, 54, True)


def test_meld_mode_hold_for_rummy_counts_max_melds_per_turn():
    # seat 0: C5 D5 H5 H9 H10 SK    seat 1: C7 D10 SQ C2
    # stock: HJ D8 D3 S4            pile: CA
    # With HJ the hand empties with two melds and the SK discard: rummy at
    # once (58 points) when melds are unlimited. Under max_melds_per_turn=1 it
    # cannot empty its hand this turn, so a holding bot lays nothing down.
    # (Regression: it used to meld C5 D5 H5 and lose its rummy.)
    pos = (["C5 D5 H5 H9 H10 SK", "C7 D10 SQ C2"], "HJ D8 D3 S4", "CA")
    r = play(*pos, "turn_limit=3", seats=[bot(*HOLD), GREEDY])
    assert moves(r) == ["0 draws HJ from stock", "0 melds C5 D5 H5", "0 melds H9 H10 HJ", "0 discards SK"]
    assert (r["winner"], r["points"], r["going_rummy"]) == (0, 58, True)
    r = play(*pos, "max_melds_per_turn=1", "turn_limit=3", seats=[bot(*HOLD), GREEDY])
    assert moves(r) == ["0 draws HJ from stock", "0 discards SK", "1 draws D8 from stock", "1 discards SQ",
                        "0 draws D3 from stock", "0 discards D3"]
    # one meld and a lay-off are within the limit: it goes rummy
    # seat 0: C5 D5 H5 S6   seat 1: C7 D10 SQ C2   stock: SK D8   pile: CA   table: 0: S7 S8 S9
    r = play(["C5 D5 H5 S6", "C7 D10 SQ C2"], "SK D8", "CA", "max_melds_per_turn=1", table=["S7 S8 S9"],
             seats=[bot(*HOLD), GREEDY])
    assert moves(r) == ["0 draws SK from stock", "0 melds C5 D5 H5", "0 lays off S6 on 0", "0 discards SK"]
    assert (r["winner"], r["points"], r["going_rummy"]) == (0, 58, True)


# ================================================ meld.abandon_opponent_cards
def test_meld_abandon_opponent_cards():
    # seat 0: C5 D5 H5 H9 H10 SK    seat 1: S5 D10 SQ  (3 cards)
    # stock: D3 D8 C8 S9            pile: CA
    # table: 0: S2 S3 S4
    # Seat 1 lays off S5 in its turn and is down to 2 cards. A holding seat 0
    # gives up when an opponent has at most N cards: N=3 at once (turn 1),
    # N=2 in turn 2 (not before), N=-1 never.
    pos = (["C5 D5 H5 H9 H10 SK", "S5 D10 SQ"], "D3 D8 C8 S9", "CA", "turn_limit=3")
    seat1 = ["1 draws D8 from stock", "1 lays off S5 on 0", "1 discards SQ"]
    r = play(*pos, table=["S2 S3 S4"], seats=[bot(*HOLD, "meld.abandon_opponent_cards=-1"), GREEDY])
    assert moves(r) == ["0 draws D3 from stock", "0 discards SK", *seat1,
                        "0 draws C8 from stock", "0 discards C8"]
    r = play(*pos, table=["S2 S3 S4"], seats=[bot(*HOLD, "meld.abandon_opponent_cards=3"), GREEDY])
    assert moves(r) == ["0 draws D3 from stock", "0 melds C5 D5 H5", "0 discards SK", *seat1,
                        "0 draws C8 from stock", "0 discards C8"]
    r = play(*pos, table=["S2 S3 S4"], seats=[bot(*HOLD, "meld.abandon_opponent_cards=2"), GREEDY])
    assert moves(r) == ["0 draws D3 from stock", "0 discards SK", *seat1,
                        "0 draws C8 from stock", "0 melds C5 D5 H5", "0 discards C8"]


# ======================================================= meld.abandon_turn
def test_meld_abandon_turn():
    # seat 0: C5 D5 H5 H9 H10 SK    seat 1: C7 D10 SQ C2
    # stock: D3 D8 C8 S6 DA S9      pile: HA
    # Seat 0 never can go out in its first three turns. Holding with
    # abandon_turn=3 it melds in its 3rd turn and not before; 4 or 0 (off): never.
    pos = (["C5 D5 H5 H9 H10 SK", "C7 D10 SQ C2"], "D3 D8 C8 S6 DA S9", "HA", "turn_limit=5")
    before = ["0 draws D3 from stock", "0 discards SK", "1 draws D8 from stock", "1 discards SQ",
              "0 draws C8 from stock", "0 discards C8", "1 draws S6 from stock", "1 discards C7",
              "0 draws DA from stock"]
    for off in ("meld.abandon_turn=0", "meld.abandon_turn=4"):
        r = play(*pos, seats=[bot(*HOLD, off), GREEDY])
        assert moves(r) == [*before, "0 discards H10"]
    r = play(*pos, seats=[bot(*HOLD, "meld.abandon_turn=3"), GREEDY])
    assert moves(r) == [*before, "0 melds C5 D5 H5", "0 discards H10"]
    r = play(*pos, seats=[bot(*HOLD, "meld.abandon_turn=1"), GREEDY])
    assert moves(r)[:3] == ["0 draws D3 from stock", "0 melds C5 D5 H5", "0 discards SK"]


# =================================================== meld.abandon_deadwood
def test_meld_abandon_deadwood():
    # seat 0: C5 D5 H5 CK CQ SK D2    seat 1: C7 D10 S9 C2
    # stock: S3 D8 HQ S6              pile: HA
    # Deadwood after the draw (CK CQ SK are partial melds, kept):
    #   turn 1: +S3 -> CK CQ SK D2 S3 = 35, throws S3;
    #   turn 2: +HQ -> CK CQ SK D2 HQ = 42, throws D2.
    # Gives up when the deadwood is above N: N=34 in turn 1, N=40 in turn 2
    # (not before), N=42 or 0 (off): never.
    pos = (["C5 D5 H5 CK CQ SK D2", "C7 D10 S9 C2"], "S3 D8 HQ S6", "HA", "turn_limit=3")
    seat1 = ["1 draws D8 from stock", "1 discards S9"]
    for off in ("meld.abandon_deadwood=0", "meld.abandon_deadwood=42"):
        r = play(*pos, seats=[bot(*HOLD, off), GREEDY])
        assert moves(r) == ["0 draws S3 from stock", "0 discards S3", *seat1,
                            "0 draws HQ from stock", "0 discards D2"]
    r = play(*pos, seats=[bot(*HOLD, "meld.abandon_deadwood=34"), GREEDY])
    assert moves(r) == ["0 draws S3 from stock", "0 melds C5 D5 H5", "0 discards S3", *seat1,
                        "0 draws HQ from stock", "0 discards D2"]
    r = play(*pos, seats=[bot(*HOLD, "meld.abandon_deadwood=40"), GREEDY])
    assert moves(r) == ["0 draws S3 from stock", "0 discards S3", *seat1,
                        "0 draws HQ from stock", "0 melds C5 D5 H5", "0 discards D2"]


# ============================================================= layoff.mode
def test_layoff_mode_at_once_vs_when_going_out():
    # seat 0: S5 C9 D9 HK        seat 1: C7 D10 SQ C2
    # stock: D2 D8 H9 S6         pile: HA
    # table: 0: S2 S3 S4
    # at_once lays off S5 in turn 1; when_going_out keeps it until turn 2, in
    # which it goes out (meld C9 D9 H9, lay off S5, discard D2): rummy, 54 points.
    pos = (["S5 C9 D9 HK", "C7 D10 SQ C2"], "D2 D8 H9 S6", "HA")
    r = play(*pos, table=["S2 S3 S4"], seats=[bot("layoff.mode=at_once"), GREEDY])
    assert moves(r) == [
        "0 draws D2 from stock", "0 lays off S5 on 0", "0 discards HK",
        "1 draws D8 from stock", "1 discards SQ",
        "0 draws H9 from stock", "0 melds C9 D9 H9", "0 discards D2",
    ]
    assert (r["winner"], r["points"], r["going_rummy"]) == (0, 27, False)
    r = play(*pos, table=["S2 S3 S4"], seats=[bot("layoff.mode=when_going_out"), GREEDY])
    assert moves(r) == [
        "0 draws D2 from stock", "0 discards HK",
        "1 draws D8 from stock", "1 discards SQ",
        "0 draws H9 from stock", "0 melds C9 D9 H9", "0 lays off S5 on 0", "0 discards D2",
    ]
    assert (r["winner"], r["points"], r["going_rummy"]) == (0, 54, True)


def test_layoff_when_going_out_not_after_a_meld_in_a_turn_it_does_not_go_out():
    # seat 0: C9 D9 H9 S5 HK D2   seat 1: C7 D10 SQ
    # stock: CA C3 H4             pile: DJ
    # table: 0: S2 S3 S4
    # Both bots meld C9 D9 H9 at once; only at_once then lays off S5: with
    # CA HK D2 left the hand does not go out this turn.
    # (Regression: a play earlier in the turn used to count as "going out".)
    pos = (["C9 D9 H9 S5 HK D2", "C7 D10 SQ"], "CA C3 H4", "DJ", "turn_limit=1")
    r = play(*pos, table=["S2 S3 S4"], seats=[bot("layoff.mode=at_once"), GREEDY])
    assert moves(r) == ["0 draws CA from stock", "0 melds C9 D9 H9", "0 lays off S5 on 0", "0 discards HK"]
    r = play(*pos, table=["S2 S3 S4"], seats=[bot("layoff.mode=when_going_out"), GREEDY])
    assert moves(r) == ["0 draws CA from stock", "0 melds C9 D9 H9", "0 discards HK"]
    assert r["hands"][0] == ["CA", "D2", "S5"]


# ============================================================ discard.mode
def test_discard_mode_highest_vs_least_useful():
    # seat 0: C7 SQ              seat 1: C10 D10
    # stock: D2 S2               pile: D7 HK  (upcard HK)
    # table: 0: C8 D8 H8
    # Cards that would connect C7: the other sevens and C5 C6 C8 C9 (7 cards);
    # D7 is in the discard pile and C8 on the table, so 5 are live. SQ has 6
    # live connectors (CQ DQ HQ S10 SJ SK), D2 too (C2 H2 S2 DA D3 D4).
    # highest throws SQ (10 points); least_useful throws C7 (fewest live).
    hands = ["C7 SQ", "C10 D10"]
    r = play(hands, "D2 S2", "D7 HK", "turn_limit=1", table=["C8 D8 H8"],
             seats=[bot("discard.mode=highest"), GREEDY])
    assert moves(r) == ["0 draws D2 from stock", "0 discards SQ"]
    r = play(hands, "D2 S2", "D7 HK", "turn_limit=1", table=["C8 D8 H8"],
             seats=[bot("discard.mode=least_useful"), GREEDY])
    assert moves(r) == ["0 draws D2 from stock", "0 discards C7"]
    # controls: either dead card out of play instead (unseen, so live): C7 has 6
    # live connectors like SQ, and SQ, the higher card, goes again
    # seat 0: C7 SQ   stock: D2 S2   pile: HK   table: 0: C8 D8 H8
    r = play(hands, "D2 S2", "HK", "turn_limit=1", table=["C8 D8 H8"],
             seats=[bot("discard.mode=least_useful"), GREEDY])
    assert moves(r) == ["0 draws D2 from stock", "0 discards SQ"]
    # seat 0: C7 SQ   stock: D2 S2   pile: D7 HK   table: -
    r = play(hands, "D2 S2", "D7 HK", "turn_limit=1", seats=[bot("discard.mode=least_useful"), GREEDY])
    assert moves(r) == ["0 draws D2 from stock", "0 discards SQ"]


# ==================================================== discard.avoid_feeding
def test_discard_avoid_feeding_a_card_that_extends_a_table_meld():
    # seat 0: SQ C9              seat 1: C10 D10
    # stock: D2 S2               pile: HK
    # table: 0: HQ DQ CQ  (SQ would lay off on it)
    # Seat 0 lays off only when going out, so it keeps SQ. Highest card: SQ;
    # with avoid_feeding 60 SQ scores 60 points less and C9 goes. With 1 SQ and
    # C9 tie (10 - 1 = 9) and the higher card id, SQ, goes; with 2 C9 goes.
    pos = (["SQ C9", "C10 D10"], "D2 S2", "HK", "turn_limit=1")
    for feed, thrown in [(0, "SQ"), (1, "SQ"), (2, "C9"), (60, "C9")]:
        r = play(*pos, table=["HQ DQ CQ"],
                 seats=[bot("layoff.mode=when_going_out", f"discard.avoid_feeding={feed}"), GREEDY])
        assert moves(r) == ["0 draws D2 from stock", f"0 discards {thrown}"], feed


def test_discard_avoid_feeding_a_card_that_connects_with_an_opponents_pick():
    # seat 0: H9 C6              seat 1: C8 D8 SK HJ D4  (seat 1 plays first)
    # stock: D2 S2 C3            pile: H8
    # Seat 1 holds for rummy: it takes H8 (into C8 D8 H8) but does not meld it,
    # so H8 stays in its hand, known to seat 0. H9 connects with H8.
    # Highest card: H9; with avoid_feeding 60: C6.
    pos = (["H9 C6", "C8 D8 SK HJ D4"], "D2 S2 C3", "H8", "turn_limit=2")
    seat1 = ["1 draws H8 from discard", "1 discards SK"]
    r = play(*pos, first=1, seats=[bot("discard.avoid_feeding=0"), bot(*HOLD)])
    assert moves(r) == [*seat1, "0 draws D2 from stock", "0 discards H9"]
    r = play(*pos, first=1, seats=[bot("discard.avoid_feeding=60"), bot(*HOLD)])
    assert moves(r) == [*seat1, "0 draws D2 from stock", "0 discards C6"]
    # control: a greedy seat 1 melds C8 D8 H8 at once; H8 is on the table, no
    # longer held, and nothing of seat 0 lays off on the set: H9 goes again
    r = play(*pos, first=1, seats=[bot("discard.avoid_feeding=60"), GREEDY])
    assert moves(r) == ["1 draws H8 from discard", "1 melds C8 D8 H8", "1 discards SK",
                        "0 draws D2 from stock", "0 discards H9"]


# ======================================================== discard.tiebreak
def test_discard_tiebreak_highest_card_vs_random():
    # seat 0: CJ DQ HK S10 C2    seat 1: C7 D8
    # stock: D3 S2               pile: HA
    # CJ DQ HK S10 are 10 points each and in no partial meld: a four-way tie
    # (C2 and the drawn D3 score less). highest_card: S10, the highest card id,
    # whatever the seed; random: one of the four, drawn from the seat's seeded
    # stream, the same for the same seed and varying with the seed.
    pos = (["CJ DQ HK S10 C2", "C7 D8"], "D3 S2", "HA", "turn_limit=1")

    def thrown(tiebreak: str, seed: int) -> str:
        r = play(*pos, seed=seed, seats=[bot(f"discard.tiebreak={tiebreak}"), GREEDY])
        assert moves(r)[0] == "0 draws D3 from stock" and len(moves(r)) == 2
        return moves(r)[-1].split()[-1]

    seeds = range(80)
    assert {thrown("highest_card", s) for s in range(0, 80, 8)} == {"S10"}
    rnd = {s: thrown("random", s) for s in seeds}
    counts = Counter(rnd.values())
    assert set(counts) == {"CJ", "DQ", "HK", "S10"}        # never C2 or D3: ties only
    assert min(counts.values()) >= 8                        # uniform: 20 each expected
    for s in range(0, 80, 8):
        assert thrown("random", s) == rnd[s]
