"""Rulings 3.7 and 3.12 (docs/rules.md): a Shanghai round on a blocked table, or a dead one (a player not
down can never lay the contract), ends at once as ``stalemate_blocked``.

Positions are written as in ``test_rules_shanghai.py`` (its conventions: cards, seats, stock top card
first, pile bottom card first, table melds ``k = owner: cards``; every seat greedy). Ruling 3.7 judges
the table against the whole deck: a card that a position does not name counts as off the table, so
every blocked table below holds every copy of each card that could fit it. 3 players: two decks and a
joker (2.1).
"""

from __future__ import annotations

import numpy as np
import pytest

from rummysim.cards import card_id
from rummysim.engine.codes import OUT_STALEMATE_BLOCKED, OUT_TURN_LIMIT
from rummysim.variants.shanghai import kernel as K
from rummysim.variants.shanghai import moves as M
from rummysim.variants.shanghai.replay import parse_table_meld, trace_round
from rummysim.engine.rng import below
from rummysim.variants.shanghai import bots as B
from rummysim.variants.shanghai.state import (
    I_PHASE, I_TURN_SEAT, PH_DISCARD, SI_DOWN_TURN_SEAT, SI_DRAWN, SI_N_TABLE, SI_RESHUFFLES, SI_ROUND, SR_ACE_HIGH,
    T_OWNER,
)
from rummysim.variants.shanghai.table import table_counts

from positions import moves
from shanghai_reference import meets_contract
from test_rules_shanghai import play, play_games, quiet, rules, strategy, summary

pytestmark = pytest.mark.engine

DOWN = {0: 1, 1: 1, 2: 1}

# round 1; table: 0 = 0: C5 D5 H5 S5   1 = 0: C5 D5 H5 S5   2 = 1: C8 D8 H8 S8   3 = 1: C8 D8 H8 S8
#                 4 = 2: CQ DQ HQ SQ   5 = 2: CQ DQ HQ JK (everyone is down)
# Every 5 and 8, seven queens and the joker are on the table; the eighth queen, SQ, is seat 0's.
SETS = [(0, "C5 D5 H5 S5"), (0, "C5 D5 H5 S5"), (1, "C8 D8 H8 S8"), (1, "C8 D8 H8 S8"), (2, "CQ DQ HQ SQ"),
        (2, "CQ DQ HQ JK")]


def test_3_7_the_last_lay_off_blocks_the_table_and_the_round_ends_at_once():
    # seat 0: SQ C2 D3   seat 1: C4 D6   seat 2: C7 D9   stock: H2 H3 H4   pile: S6
    # Seat 0 leaves S6 (it fits nowhere), draws H2, lays SQ off on the first set of queens and
    # throws D3. No card off the table fits a meld now and the joker is on it: nobody can ever go
    # out. The round ends after this turn, nobody wins, everyone scores the hand they hold.
    r = play(["SQ C2 D3", "C4 D6", "C7 D9"], "H2 H3 H4", "S6", table=SETS, down=DOWN)
    assert moves(r) == ["0 draws H2 from stock", "0 lays off SQ on 4", "0 discards D3"]
    assert summary(r) == ("stalemate_blocked", -1, "none", [2 + 2, 4 + 6, 7 + 9])
    assert r["turns"] == 1 and r["hands"] == [["C2", "H2"], ["C4", "D6"], ["C7", "D9"]]
    assert [s[K.SS_SCORE] for s in r["seats"]] == [4, 10, 16]


def test_3_7_a_seat_that_empties_its_hand_on_the_blocking_turn_goes_out():
    # seat 0: SQ   the rest as above. Seat 0 draws H2, lays SQ off (the table is now blocked)
    # and throws H2: its hand is empty, it goes out. The block only ends rounds nobody won.
    r = play(["SQ", "C4 D6", "C7 D9"], "H2 H3 H4", "S6", table=SETS, down=DOWN)
    assert moves(r) == ["0 draws H2 from stock", "0 lays off SQ on 4", "0 discards H2"]
    assert summary(r) == ("win", 0, "none", [0, 10, 16])


def test_3_7_a_joker_off_the_table_keeps_the_round_open():
    # the table above with both sets of queens natural: 4 = 2: CQ DQ HQ SQ   5 = 2: CQ DQ HQ
    # seat 0: SQ C2 D3   seat 1: JK C4 D6   seat 2: C7 D9   stock: H2 H3 H4   pile: S6
    # Seat 0 lays off the last queen: every natural that fits is on the table, but the joker is
    # in seat 1's hand, and a joker always fits: the round goes on. Seat 1 lays it off on its turn
    # (greedy: jokers last, on the first meld that takes one); then the table is blocked.
    table = SETS[:4] + [(2, "CQ DQ HQ SQ"), (2, "CQ DQ HQ")]
    r = play(["SQ C2 D3", "JK C4 D6", "C7 D9"], "H2 H3 H4", "S6", table=table, down=DOWN)
    assert moves(r) == ["0 draws H2 from stock", "0 lays off SQ on 4", "0 discards D3",
                        "1 draws H3 from stock", "1 lays off JK=5 on 0", "1 discards D6"]
    assert summary(r) == ("stalemate_blocked", -1, "none", [4, 4 + 3, 16])
    assert r["turns"] == 2


# round 2 (1 set + 1 run of 4); table:
#   0 = 0: C5 C5 D5 H5 S5   1 = 0: HA H2 H3 H4 H5 JK H7 H8 H9 H10 HJ HQ HK (the joker is H6)
#   2 = 1: C8 C8 D8 H8 S8   3 = 1: SA S2 ... SK
#   4 = 2: CQ CQ DQ HQ SQ   5 = 2: DA D2 ... DK
# Every 5, 8 and queen is on the table, and one copy of every heart, spade and diamond. A run of
# all thirteen ranks takes no card at either end (the ace is low or high, never both: 3.11), so
# no card off the table can be laid off. Both H6 are off the table: with joker_swap an H6 can
# take the run's joker, which then goes onto a set.
def _run(suit: str, joker_at: str = "") -> str:
    return " ".join("JK" if r == joker_at else f"{suit}{r}" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split())


RUNS = [(0, "C5 C5 D5 H5 S5"), (0, _run("H", "6")), (1, "C8 C8 D8 H8 S8"), (1, _run("S")),
        (2, "CQ CQ DQ HQ SQ"), (2, _run("D"))]
SWAP_POSITION = (["H6 C2", "C4 C6", "C7 C9"], "C3 C10 CJ", "CK")


def test_3_7_without_joker_swaps_a_blocked_table_ends_the_round_before_any_turn():
    r = play(*SWAP_POSITION, "joker_swap=false", round_no=2, table=RUNS, down=DOWN)
    assert moves(r) == []
    assert summary(r) == ("stalemate_blocked", -1, "none", [6 + 2, 4 + 6, 7 + 9])
    assert r["turns"] == 0


def test_3_7_a_card_that_can_take_a_table_joker_keeps_the_round_open_with_joker_swaps():
    # joker_swap=true (the default): seat 0 leaves CK, draws C3, puts H6 in place of the run's
    # joker and lays the joker off on the set of 5s, throws C3. The other H6 can neither be laid
    # off (the run is whole) nor take a joker (no joker stands in a run): blocked.
    r = play(*SWAP_POSITION, round_no=2, table=RUNS, down=DOWN)
    assert moves(r) == ["0 draws C3 from stock", "0 swaps H6 for the joker of 1", "0 lays off JK=5 on 0",
                        "0 discards C3"]
    assert summary(r) == ("stalemate_blocked", -1, "none", [2, 10, 16])
    assert r["turns"] == 1


def test_3_7_a_seat_not_yet_down_keeps_the_round_open():
    # round 1; table: 0 = 0: C5 D5 H5 S5   1 = 0: C5 D5 H5 S5   2 = 1: C8 D8 H8 S8   3 = 1: C8 D8 H8 JK
    # seats 0 and 1 are down, seat 2 is not. seat 0: S8 C2 D3   seat 1: C4 D6
    # seat 2 (quiet): C2 D3 H4 S6 C7 D9 (two sets need 4 more cards)   stock: H2 H3 H4 C10 D10
    # pile: S6. Seat 0 lays off the last 8; every 5, 8 and the joker are then on the table and
    # nothing off it fits, but seat 2 may still lay down a contract (new melds): the round goes on.
    # turn_limit=3 stops it after seat 2's turn.
    table = [(0, "C5 D5 H5 S5"), (0, "C5 D5 H5 S5"), (1, "C8 D8 H8 S8"), (1, "C8 D8 H8 JK")]
    r = play(["S8 C2 D3", "C4 D6", "C2 D3 H4 S6 C7 D9"], "H2 H3 H4 C10 D10", "S6", "turn_limit=3",
             table=table, down={0: 1, 1: 1}, params=quiet(strategy(3), 2))
    assert moves(r)[:3] == ["0 draws H2 from stock", "0 lays off S8 on 2", "0 discards D3"]
    assert [m for m in moves(r) if m.startswith("2 ")][0] == "2 draws H4 from stock"
    assert r["outcome"] == "turn_limit" and r["turns"] == 3 and r["winner"] == -1


def test_3_7_the_seed_15_round_that_reached_the_turn_cap_now_ends_blocked():
    # `rummysim replay --variant shanghai --seed 15 --game 27 --round 1 --players 3 --rule max_buys=2
    # --rule joker_swap=false`: everyone went down on sets of 5s, 8s and queens; once every copy of
    # those ranks and the joker were on the table, it ran to the 2,000-turn cap (28 reshuffles).
    # Now it ends in the turn of the last lay-off, seat 0's DQ, at turn 142 after one reshuffle.
    r = rules(3, "max_buys=2", "joker_swap=false")
    events = trace_round(15, 27, 1, 3, r, strategy(3))
    end = events[-1]
    assert end["outcome"] == "stalemate_blocked" and end["winner"] == -1
    assert events[-3:-1] == [{"event": "layoff", "player": 0, "card": "DQ", "meld": 5},
                             {"event": "discard", "player": 0, "card": events[-2]["card"]}]
    assert [e["event"] for e in events].count("draw") == 142 and [e["event"] for e in events].count("reshuffle") == 1
    assert end["scores"] == [4, 6, 7] and end["hands"] == [["H2", "H2"], ["C2", "D2", "S2"], ["C2", "D2", "H3"]]
    laid = [c for e in events if e["event"] == "contract" for meld in e["melds"] for c in meld]
    laid += [e["card"] for e in events if e["event"] == "layoff"]
    assert {c[1:] for c in laid if c != "JK"} == {"5", "8", "Q"} and laid.count("JK") == 1
    assert len([c for c in laid if c != "JK"]) == 24          # 3 ranks x 2 decks x 4 suits
    # and every round of those 60 games ends by the rules
    games = np.arange(60, dtype=np.int64)
    round_rows = np.zeros((600, K.ROUND_COLS), dtype=np.int32)
    K.play_games(15, games, 3, r, strategy(3), round_rows, np.zeros((600, 3, K.SEAT_COLS), dtype=np.int32),
                 np.zeros((60, 3), dtype=np.int32))
    assert (round_rows[:, K.RW_OUTCOME] != OUT_TURN_LIMIT).all()
    assert (round_rows[:, K.RW_OUTCOME] == OUT_STALEMATE_BLOCKED).sum() >= 2




@pytest.mark.parametrize("players", [3, 4, 6, 8])
@pytest.mark.parametrize("name", ["buyer", "expert", "greedy", "patient"])
def test_3_6_the_shipped_strategies_never_reach_the_turn_cap(name, players):
    # ruling 3.6: a turn_limit round is a bug to investigate. With rulings 3.7 and 3.12 played, the shipped
    # non-random strategies end every round by the rules (docs/rules.md I.8). 500 rounds, default rules,
    # every seat the same strategy, seed 2026; benchmarks/README.md ("How Shanghai rounds end") counts
    # 100,000 rounds a strategy and number of players.
    round_rows, _, _ = play_games(players, 50, names=(name,), seed=2026)
    assert (round_rows[:, K.RW_OUTCOME] != OUT_TURN_LIMIT).all()


# ====================================================================== ruling 3.12
# round 8 (1 set of 3 + 1 run of 10), 3 players (two decks, one joker); table:
#   0 = 0: CA C2 ... CK   1 = 0: C7 D7 H7   2 = 1: SA S2 ... SK   3 = 1: D7 H7 JK (the joker is a 7)
# Seats 0 and 1 are down, seat 2 is not (quiet: it never takes the upcard nor buys). Seven 7s and the
# joker are on the table; the eighth 7, S7, is seat 0's. The club and spade runs are whole (A-K: they
# take nothing, 3.11), and every run of 10 covers the 7 (positions 0-9 up to 4-13).
DEAD = [(0, _run("C")), (0, "C7 D7 H7"), (1, _run("S")), (1, "D7 H7 JK")]
HEARTS = "HA H2 H3 H4 H5 H6 H8 H9 H10 HJ HQ"   # 15 + 2 + 3 + 4 + 5 + 6 + 8 + 9 + 10 + 10 + 10 = 82
DEAD_POSITION = (["S7 C2 D3", "C4 D6", HEARTS], "H2 H3 H4", "S6")


def test_3_12_a_closed_table_and_a_seat_that_can_never_lay_its_contract_end_the_round():
    # Seat 0 leaves S6 (it fits nowhere), draws H2, lays S7 off on the first set of 7s and throws D3.
    # Now no card off the table fits a meld or stands for the joker (every 7 is on the table), and seat 2
    # could not lay a run of 10 even holding every card off the table: no 7 and no joker is off it.
    # The round ends at once (turn_limit=50 would stop it otherwise); nobody wins, everyone scores.
    r = play(*DEAD_POSITION, "turn_limit=50", round_no=8, table=DEAD, down={0: 1, 1: 1},
             params=quiet(strategy(3), 2))
    assert moves(r) == ["0 draws H2 from stock", "0 lays off S7 on 1", "0 discards D3"]
    assert summary(r) == ("stalemate_blocked", -1, "none", [2 + 2, 4 + 6, 82])
    assert r["turns"] == 1


def test_3_12_a_seat_that_could_still_lay_its_contract_keeps_the_round_open():
    # The same position in round 5 (1 set of 3 + 1 run of 7): H8 H9 H10 HJ HQ HK HA is a run of 7
    # without a 7, and its cards are off the table. Seat 2 could still go down: the round goes on.
    r = play(*DEAD_POSITION, "turn_limit=3", round_no=5, table=DEAD, down={0: 1, 1: 1},
             params=quiet(strategy(3), 2))
    assert moves(r)[:3] == ["0 draws H2 from stock", "0 lays off S7 on 1", "0 discards D3"]
    assert r["outcome"] == "turn_limit" and r["turns"] == 3


# nobody down, nothing on the table: every seat holds 11 cards (no meld among them)
JUNK = ["CA C3 C5 C7 C9 CJ DA D3 D5 D7 D9", "D2 D4 D6 D8 D10 DQ HA H3 H5 H7 H9",
        "H2 H4 H6 H8 H10 HQ SA S3 S5 S7 S9"]
JUNK_POINTS = [15 + 3 + 5 + 7 + 9 + 10 + 15 + 3 + 5 + 7 + 9, 2 + 4 + 6 + 8 + 10 + 10 + 15 + 3 + 5 + 7 + 9,
               2 + 4 + 6 + 8 + 10 + 10 + 15 + 3 + 5 + 7 + 9]


@pytest.mark.parametrize("round_no, options, buys, blocked", [
    (8, ("max_buys=0",), {}, True),     # a hand of 11, a draw: 12 cards at most; the contract needs 13
    (7, ("max_buys=0",), {}, False),    # 12 cards: 3 runs of 4 could still be laid
    (8, ("max_buys=1",), {}, False),    # 14 cards with a buy
    (10, ("max_buys=1",), {}, True),    # 14 cards; 3 runs of 5 need 15
    (9, ("max_buys=1", "must_discard_to_go_out=true"), {}, True),   # 14, and one more to throw
    (9, ("max_buys=1",), {}, False),    # 14: going out without a discard is legal (2.6)
    (10, (), {0: 3, 1: 3, 2: 3}, True),   # one buy left each: 14
    (10, (), {0: 3, 1: 3, 2: 2}, False),  # seat 2 has two left: 16
])
def test_3_12_seats_that_can_never_hold_enough_cards_end_the_round_before_any_turn(round_no, options, buys,
                                                                                  blocked):
    # I.9.3: a seat not down holds at most its hand, one card drawn and two for each buy left
    r = play(JUNK, "S2 S4 S6 S8", "SK", "turn_limit=2", *options, round_no=round_no, buys=buys,
             params=quiet(strategy(3), 0, 1, 2))
    if blocked:
        assert summary(r) == ("stalemate_blocked", -1, "none", JUNK_POINTS)
        assert r["turns"] == 0 and moves(r) == []
    else:
        assert r["outcome"] == "turn_limit" and r["turns"] == 2


def test_3_12_dealt_rounds_8_to_10_end_at_once_without_buys():
    # max_buys=0: no hand ever holds the 13 to 15 cards of rounds 8-10 (2.2); they end before any turn,
    # every seat scoring its dealt hand. Rounds 1-7 are played.
    round_rows, seat_rows, _ = play_games(4, 3, "max_buys=0")
    rounds = round_rows[:, K.RW_ROUND]
    late = rounds >= 8
    assert (round_rows[late, K.RW_OUTCOME] == OUT_STALEMATE_BLOCKED).all()
    assert (round_rows[late, K.RW_TURNS] == 0).all()
    assert (seat_rows[late][:, :, K.SS_CARDS_LEFT] == 11).all()
    assert (round_rows[~late, K.RW_TURNS] > 0).all() and (round_rows[~late, K.RW_OUTCOME] != OUT_TURN_LIMIT).all()


def table_state(round_no: int, melds, down, *options, players: int = 3, hands=()):
    """A round's state with ``melds`` ((owner, text), ...) on the table, the seats ``down`` down, ``hands``."""
    r = rules(players, *options)
    state = M.new_state(players, r, np.zeros((0, M.EV_WIDTH), dtype=np.int16))
    for k, (owner, text) in enumerate(melds):
        state.table[k] = parse_table_meld(text, bool(r[SR_ACE_HIGH]))
        state.table[k, T_OWNER] = owner
    state.ints[SI_N_TABLE] = len(melds)
    state.ints[SI_ROUND] = round_no
    for q in down:
        state.ints[SI_DOWN_TURN_SEAT + q] = 1
    for q, text in enumerate(hands):
        for c in text.split():
            state.hands[q, card_id(c, allow_joker=True)] += 1
    return state


def pool_lays(state) -> bool:
    counts = np.zeros(64, dtype=np.int64)
    table_counts(state.table, int(state.ints[SI_N_TABLE]), counts)
    return bool(M.pool_lays_contract(state, counts))


@pytest.mark.slow
def test_3_12_the_cards_off_the_table_include_its_jokers():
    # I.9.2: every 7 on the table (the second set of 7s natural: D7 H7 S7). With the joker off the table
    # a run of 10 can hold it as its 7: the cards off the table lay the contract. With the joker on the
    # table (in that set), they do not.
    no_seven = DEAD[:3] + [(1, "D7 H7 S7")]
    assert pool_lays(table_state(8, no_seven, (0, 1), hands=("", "", HEARTS)))
    assert not pool_lays(table_state(8, DEAD[:3] + [(1, "D7 H7 S7 JK")], (0, 1), hands=("", "", HEARTS)))
    # and that joker off the table fits the sets of 7s: the table is not dead anyway
    assert not M.table_dead(table_state(8, no_seven, (0, 1), hands=("C2", "C4", HEARTS)))
    # an empty table leaves the whole deck off it, which the engine counts as laying the contract without
    # a search: one deck (no joker) meets every contract, by the plain reference
    deck = [16 * s + r for s in range(4) for r in range(13)]
    for ace in ("high_or_low", "low"):
        assert all(meets_contract(deck, 0, round_no, ace) for round_no in range(1, 11))
    assert pool_lays(table_state(10, [], (), "max_buys=0"))


@pytest.mark.parametrize("swap, dead", [("true", True), ("false", True), ("anyone", False)])
def test_3_12_under_joker_swap_anyone_a_card_a_table_joker_stands_for_keeps_the_round_open(swap, dead):
    # round 3 (2 runs of 4), one deck and a joker: seats 0 and 1 are down on the four whole runs A-K, the
    # club one with the joker as C7; C7 is the one card off the table (seat 2 holds it). Nothing can be
    # laid off (whole runs), swapping C7 for the joker leaves the joker no home, and C7 alone lays no
    # contract: dead. With joker_swap=anyone a seat not down might take that joker into a contract (3.8):
    # the engine counts the table as able to change (I.9.1) and the round goes on.
    melds = [(0, _run("C", "7")), (0, _run("S")), (1, _run("D")), (1, _run("H"))]
    state = table_state(3, melds, (0, 1), "decks=1", f"joker_swap={swap}", hands=("", "", "C7"))
    assert bool(M.table_dead(state)) == dead


def test_3_12_the_seed_1_round_that_reached_the_turn_cap_now_ends():
    # `rummysim replay --variant shanghai --seed 1 --game 615 --round 8 --players 3 --strategy buyer`
    # (docs/rules.md I.8): seats 0 and 1 go down on runs of 10 of spades and clubs and sets of 7s; seat 2,
    # not down, can make no run of 10 without a 7 or the joker. Before ruling 3.12 it ran to the
    # 2,000-turn cap; at rules versions 3-4 it ended as a dead table at turn 204 (seat 0 swapped SQ for
    # the joker of its spade run and laid the joker off on its set of 7s). From version 5 seat 2, which
    # can never go down, throws once the round stalls the cards that fit the table: its SQ lets seat 1
    # swap for that joker, lay it off on its set of 7s and go out with its last card.
    r = rules(3)
    events = trace_round(1, 615, 8, 3, r, strategy(3, "buyer"))
    end = events[-1]
    assert end["outcome"] == "win" and end["winner"] == 1
    assert events[-8:-1] == [{"event": "discard", "player": 2, "card": "SQ"},
                             {"event": "draw", "player": 0, "source": "stock", "card": "S8"},
                             {"event": "discard", "player": 0, "card": "H5"},
                             {"event": "draw", "player": 1, "source": "stock", "card": "SQ"},
                             {"event": "swap", "player": 1, "meld": 0, "card": "SQ", "joker": "JK"},
                             {"event": "layoff", "player": 1, "card": "JK", "meld": 1, "stands_for": "7"},
                             {"event": "discard", "player": 1, "card": "S6"}]
    assert [e["event"] for e in events].count("draw") == 205
    assert end["scores"] == [14, 0, 144] and len(end["hands"][2]) == 17
    assert not any(e["event"] == "contract" and e["player"] == 2 for e in events)


# round 8, 3 players; table: the club and spade runs A-K, every 7 (the joker one of them) and a set
# of queens without HQ:
#   0 = 0: CA ... CK   1 = 0: C7 D7 H7 S7   2 = 1: SA ... SK   3 = 1: D7 H7 JK   4 = 1: CQ DQ SQ
# Seat 2, not down, holds the hearts but H7 and one card drawn. No 7 and no joker is off the table,
# so it can never lay a run of 10 (3.12); but HQ, which it holds, fits the set of queens, so the table
# is not dead: a seat that is down could lay HQ off and go out.
HOPELESS_TABLE = [(0, _run("C")), (0, "C7 D7 H7 S7"), (1, _run("S")), (1, "D7 H7 JK"), (1, "CQ DQ SQ")]
HOPELESS_HAND = HEARTS + " D2"


def hopeless_discard(reshuffles: int, seed: int, table=HOPELESS_TABLE) -> tuple[int, bool]:
    """Seat 2's discard (an ``expert``) in the position above after ``reshuffles`` reshuffles, and
    whether its stream's first draw made it a uniform one (one in four once stalling)."""
    state = table_state(8, table, (0, 1), hands=("C4 D6", "C5 D8", HOPELESS_HAND))
    state.ints[I_PHASE], state.ints[I_TURN_SEAT] = PH_DISCARD, 2
    state.ints[SI_DRAWN], state.ints[SI_RESHUFFLES] = -1, reshuffles
    scratch = B.new_scratch(3)
    B.seed_streams(scratch, seed, 0, 8)
    uniform = reshuffles >= B.STALL_RESHUFFLES and below(scratch.rngs[2].copy(), 4) == 0
    return B.choose_discard(state, 2, strategy(3, "expert"), scratch), uniform


def test_3_12_a_seat_that_can_never_go_down_is_hopeless_from_the_table_alone():
    state = table_state(8, HOPELESS_TABLE, (0, 1), hands=("C4 D6", "C5 D8", HOPELESS_HAND))
    assert M.contract_hopeless(state, 2) and not M.table_dead(state)
    # S7 off the table (the set of 7s without it): a run of 10 of spades could be laid again
    open_table = [(0, _run("C")), (0, "C7 D7 H7"), (1, _run("S")), (1, "D7 H7 JK"), (1, "CQ DQ SQ")]
    assert not M.contract_hopeless(table_state(8, open_table, (0, 1), hands=("C4 D6", "C5 D8", HOPELESS_HAND)), 2)


def test_3_12_a_hopeless_seat_throws_the_card_the_seats_down_can_lay_off_once_the_round_stalls():
    # Before the round stalls, expert holds HQ back (avoid_feeding: it fits the set of queens); after
    # STALL_RESHUFFLES reshuffles a seat that can never go down throws it (but for the one discard in
    # four drawn uniformly): held, it would keep the seats that are down from going out, and the round
    # ran to the turn cap (seed 1, game 1294, round 8 of eight `expert` seats, rules version 4).
    hq = card_id("HQ")
    assert all(hopeless_discard(0, seed)[0] != hq for seed in range(20))
    chosen = [hopeless_discard(B.STALL_RESHUFFLES, seed) for seed in range(40)]
    aimed = [card for card, uniform in chosen if not uniform]
    assert len(aimed) >= 20 and set(aimed) == {hq}
