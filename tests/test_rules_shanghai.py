"""Shanghai Rummy, rule by rule: one test per rule and ruling of docs/rules.md.

Section 2 (2.1-2.8, every option of 2.8 with its default) and the rulings of
section 3 that apply to Shanghai (3.1, 3.2, 3.4, 3.5, 3.6). Each test is a
hand-built position played by ``rummysim.variants.shanghai.replay.play_round_position``
(or a kernel called on small arrays), with the outcome, winner, bonus, scores,
the cards left and, where it matters, the exact sequence of moves written out.

Conventions
-----------
* Cards as in ``rummysim.cards``: ``H8``, ``SK``, ``D10``; ``JK`` is a joker.
  Card ids are ``16 * suit + rank`` with suits in the order C, D, H, S, so
  "highest id" means spades before hearts before diamonds before clubs.
* A position is drawn in a comment: the round (its contract), each seat's
  hand, the stock top card first, the discard pile bottom card first (the
  last one is the upcard) and the melds on the table as ``k = owner: cards``,
  numbered in the order they were laid. ``down`` names the seats that went
  down on an earlier turn.
* Cards a position does not name are out of play.
* Unless a test says otherwise every seat plays *greedy* (``strategies/
  shanghai/greedy.toml``): it takes the upcard, or buys it (keeping one of its
  four buys), when it brings its contract at least one card closer (once
  down: when it can be laid off); lays the contract down as soon as it can,
  leaving the least value in hand; once down lays off at once (naturals
  first, then joker swaps, then jokers); discards the card whose loss raises
  its distance to the contract least, the highest value first (ties: the
  highest card id); once down, the highest card that cannot be laid off.
  A *quiet* seat never takes the upcard nor buys (draw and buy mode "never");
  a *taker* always takes the upcard when it may.
* The distance to a contract (``core.shanghai_bots.distance``) of a round-1
  hand (two sets) is worked out by hand in the comments as "d = n": the rank
  with most cards (ties: the lowest rank) makes the first set, the next the
  second; d counts the cards they miss.
* ``turn_limit=N`` is used as a stop watch to look at the first N turns of a
  position (the round then ends with outcome ``turn_limit`` and everyone
  scores the hand they hold).
* ``moves(result)`` writes the events as short lines, e.g.
  ``"0 draws H5 from discard"``, ``"1 buys H5 (penalty C2)"``,
  ``"0 lays down C5 D5 JK | C9 D9 H9"`` (a joker as ``JK``),
  ``"0 lays off JK=H8 on 1"`` (a joker with the card it stands for; in a set,
  the rank alone: ``JK=9``), ``"0 swaps H6 for the joker of 1"``,
  ``"reshuffle D4 S3"`` (the new stock, top first).
"""

from __future__ import annotations

import numpy as np
import pytest

from rummysim.cards import card_id
from rummysim.variants.shanghai import kernel as K
from rummysim.variants.shanghai import bots as B
from rummysim.variants.shanghai import policy as P
from rummysim.variants.shanghai.contracts import CONTRACTS, MAX_RUN_CANDIDATES, RUN_COLS, SOLVER_WORK, best_contract
from rummysim.engine.rng import KIND_DEAL, shuffle, stream_key
from rummysim.variants.shanghai.state import (
    JOKER, MELD_RUN, SI_PILE_N, SI_STOCK_N, SR_ACE_HIGH, SR_BONUS, SR_BONUS_NO_JOKER, SR_DECKS, SR_JOKER_SWAP,
    SR_JOKERS, SR_LAYOFF_ON_CONTRACT_TURN, SR_MAX_BUYS, SR_MUST_DISCARD, SR_TURN_LIMIT, T_COLS, T_HI, T_JOKERS,
    T_KIND, T_LO, T_NATURALS, T_RANK, T_SUIT, T_SUIT_COUNT,
)
from rummysim.variants.shanghai.table import (
    FIT_HIGH, FIT_LOW, FIT_NONE, FIT_SET, POINTS, contract_ok, fit, hand_points, lay_off, meld_ok, swap_in,
    swap_position,
)
from rummysim.engine.codes import OUT_STALEMATE_BLOCKED, OUT_STALEMATE_STOCK, OUT_TURN_LIMIT, OUT_WIN
from rummysim.base.errors import RuleError
from rummysim.base.rules import parse_rule_options
from rummysim.variants.shanghai.rules import ShanghaiRules
from rummysim.variants.shanghai.replay import parse_table_meld, play_round_position, trace_round
from rummysim.variants.shanghai.schema import game_winners
from rummysim.variants.shanghai.summary import win_shares
from rummysim.strategy import params_matrix, seat_strategies

from positions import moves
from rummysim.variants import VARIANTS

SHANGHAI = VARIANTS["shanghai"]

pytestmark = pytest.mark.engine


# ----------------------------------------------------------------- helpers
def rules(players: int, *options: str) -> np.ndarray:
    return parse_rule_options(SHANGHAI, list(options)).to_array(players)


def strategy(players: int, *names: str) -> np.ndarray:
    return params_matrix(seat_strategies(list(names) or ["greedy"], players, SHANGHAI))


def quiet(params: np.ndarray, *seats: int) -> np.ndarray:
    """These seats never take the upcard and never buy."""
    for q in seats:
        params[q, B.SP_DRAW] = 0
        params[q, B.SP_BUY] = 0
    return params


def taker(params: np.ndarray, *seats: int) -> np.ndarray:
    """These seats take the upcard whenever they may (a gain no hand misses)."""
    for q in seats:
        params[q, B.SP_DRAW] = 1
        params[q, B.SP_DRAW_GAIN] = -100
    return params


def play(hands, stock="", pile="", *options, round_no=1, table=(), first=0, down=None, buys=None,
         discarder=-1, seed=0, params=None) -> dict:
    players = len(hands)
    return play_round_position(players, round_no, list(hands), stock, pile, rules(players, *options),
                               strategy(players) if params is None else params, table=list(table),
                               first=first, down=down, buys=buys, discarder=discarder, seed=seed)


def summary(r: dict) -> tuple:
    return r["outcome"], r["winner"], r["bonus"], r["scores"]


def counts_of(text: str) -> np.ndarray:
    counts = np.zeros(64, dtype=np.int64)
    for t in text.split():
        counts[card_id(t, allow_joker=True)] += 1
    return counts


def row(text: str, ace_high: bool = True) -> np.ndarray:
    return parse_table_meld(text, ace_high)


def contract(*texts: str, ace_high: bool = True) -> tuple[np.ndarray, int]:
    """Meld rows for ``contract_ok``: int64[6, T_COLS] and how many."""
    melds = np.zeros((6, T_COLS), dtype=np.int64)
    for i, t in enumerate(texts):
        melds[i] = row(t, ace_high)
    return melds, len(texts)


def contract_fits(round_no: int, *texts: str, ace_high: bool = True) -> bool:
    melds, n = contract(*texts, ace_high=ace_high)
    return bool(contract_ok(melds, n, round_no, ace_high))


def exact_contract(text: str, round_no: int, ace_high: bool = True) -> int:
    """The exact solver's value left for a hand, or -1 when the contract cannot be met."""
    counts = counts_of(text)
    jokers = int(counts[JOKER])
    counts[JOKER] = 0
    cand = np.zeros((MAX_RUN_CANDIDATES, RUN_COLS), dtype=np.int64)
    value, _ = best_contract(counts, jokers, round_no, ace_high, cand, np.zeros(3, dtype=np.int64),
                             np.zeros(3, dtype=np.int64), np.zeros(SOLVER_WORK, dtype=np.int64))
    return int(value)


def play_games(players: int, games: int, *options, names=("greedy",), seed=7, params=None):
    r = rules(players, *options)
    p = strategy(players, *names) if params is None else params
    g = np.arange(games, dtype=np.int64)
    round_rows = np.zeros((games * 10, K.ROUND_COLS), dtype=np.int32)
    seat_rows = np.zeros((games * 10, players, K.SEAT_COLS), dtype=np.int32)
    totals = np.zeros((games, players), dtype=np.int32)
    K.play_games(seed, g, players, r, p, round_rows, seat_rows, totals)
    return round_rows, seat_rows, totals


def new_round(players: int, r):
    """A fresh round state and the bots' scratch (the kernel's ``start_round`` deals into them)."""
    return (K.new_state(players, r, np.zeros((0, K.EV_WIDTH), dtype=np.int16)), P.new_scratch(players))


def card_total(work, players: int) -> int:
    hands, ints = work.hands, work.ints
    return int(hands[:players].sum() + ints[SI_PILE_N] + ints[SI_STOCK_N])


# ====================================================================== 2.1
@pytest.mark.parametrize("players, options, decks, jokers, total", [
    (3, (), 2, 1, 105), (4, (), 2, 1, 105), (5, (), 3, 2, 158), (8, (), 3, 2, 158),
    (4, ("decks=1", "jokers=0"), 1, 0, 52), (3, ("decks=3", "jokers=4"), 3, 4, 160),
])
def test_2_1_deal_eleven_each_upcard_and_stock(players, options, decks, jokers, total):
    """3-4 players: two decks and one joker (105 cards); 5-8: three decks and two jokers (158);
    11 cards to each player; the next card face up (the upcard); the rest the stock."""
    r = rules(players, *options)
    assert K.total_cards(r) == total
    for seed, game, round_no in [(0, 0, 1), (1, 5, 4), (2024, 17, 10)]:
        work, scratch = new_round(players, r)
        K.start_round(seed, game, round_no, work, scratch)
        hands, ints, stock, pile = work.hands, work.ints, work.stock, work.pile
        assert [int(hands[p].sum()) for p in range(players)] == [11] * players
        assert ints[SI_PILE_N] == 1 and ints[SI_STOCK_N] == total - 11 * players - 1
        assert card_total(work, players) == total
        # every natural exactly `decks` times, `jokers` jokers: in the hands, the upcard or the stock
        seen = hands[:players].sum(axis=0)
        seen[pile[0]] += 1
        for c in stock[:ints[SI_STOCK_N]]:
            seen[c] += 1
        assert seen[JOKER] == jokers
        assert all(seen[16 * s + k] == decks for s in range(4) for k in range(13))
        assert seen.sum() == total
        # the same shuffled deck (decks x 52 naturals, then the jokers), dealt one card at a time
        # from the dealer's left; the next card is the upcard, the one after it the stock's top
        deck = np.array([16 * s + k for _ in range(decks) for s in range(4) for k in range(13)]
                        + [JOKER] * jokers, dtype=np.int64)
        shuffle(np.array([stream_key(seed, game, round_no - 1, KIND_DEAL, 0)], dtype=np.uint64), deck, total)
        dealer = (game + round_no - 1 + players - 1) % players
        dealt = np.zeros((players, 64), dtype=np.int64)
        for i in range(11 * players):
            dealt[(dealer + 1 + i) % players, deck[i]] += 1
        assert (dealt == hands[:players]).all()
        assert pile[0] == deck[11 * players]
        assert stock[ints[SI_STOCK_N] - 1] == deck[11 * players + 1]


@pytest.mark.parametrize("players", [3, 4, 5, 8])
def test_2_1_ten_rounds_the_deal_passes_left(players):
    """The dealer of round r (1..10) of game g is (g + r - 1 + players - 1) % players; the player
    on the dealer's left starts; ten rounds a game."""
    r = rules(players)
    from rummysim.run import RunSpec
    for wrong in (2, 9):                                               # 3 to 8 players
        with pytest.raises(ValueError):
            RunSpec(SHANGHAI, wrong, seat_strategies(["greedy"], wrong, SHANGHAI), games=1)
    for game in range(3):
        dealers = [K.dealer_of(game, rnd - 1, players) for rnd in range(1, 11)]
        assert dealers == [(game + rnd - 1 + players - 1) % players for rnd in range(1, 11)]
        for rnd in range(2, 11):
            assert dealers[rnd - 1] == (dealers[rnd - 2] + 1) % players    # passes left
        if game:
            assert dealers[0] == (K.dealer_of(game - 1, 0, players) + 1) % players   # and with the game
        work, scratch = new_round(players, r)
        for rnd in (1, 2, 10):
            assert K.start_round(3, game, rnd, work, scratch) == (dealers[rnd - 1] + 1) % players
    events = trace_round(3, 1, 2, players, r, strategy(players))
    dealer = (1 + 2 - 1 + players - 1) % players
    assert events[0]["event"] == "deal" and events[0]["dealer"] == dealer
    assert [len(h) for h in events[0]["hands"]] == [11] * players
    first_draw = next(e for e in events if e["event"] == "draw")
    assert first_draw["player"] == (dealer + 1) % players
    # whole games: ten rounds each, numbered 1..10, each row naming its dealer and starter
    round_rows, _, _ = play_games(players, 2)
    for i in range(2):
        rows = round_rows[i * 10:(i + 1) * 10]
        assert rows[:, K.RW_GAME].tolist() == [i] * 10 and rows[:, K.RW_ROUND].tolist() == list(range(1, 11))
        assert rows[:, K.RW_DEALER].tolist() == [(i + rnd - 1 + players - 1) % players for rnd in range(1, 11)]
        assert ((rows[:, K.RW_DEALER] + 1) % players == rows[:, K.RW_STARTER]).all()


# ====================================================================== 2.2
def test_2_2_the_contracts_table():
    # (sets of 3, runs, run length) of rounds 1..10, and the fewest cards each needs
    assert [tuple(x) for x in CONTRACTS[1:].tolist()] == [
        (2, 0, 0), (1, 1, 4), (0, 2, 4), (3, 0, 0), (1, 1, 7),
        (2, 1, 5), (0, 3, 4), (1, 1, 10), (3, 1, 5), (0, 3, 5),
    ]
    fewest = [3 * s + n * length for s, n, length in CONTRACTS[1:].tolist()]
    assert fewest == [6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
    # round 8 and later cannot be met from 11 dealt cards plus one drawn: they need buys
    assert [rnd for rnd in range(1, 11) if fewest[rnd - 1] > 12] == [8, 9, 10]
    # e.g. round 8 with twelve cards: a set of 3 and a run of 9 is one card short
    assert exact_contract("C5 D5 H5 S2 S3 S4 S5 S6 S7 S8 S9 S10", 8) == -1
    assert exact_contract("C5 D5 H5 S2 S3 S4 S5 S6 S7 S8 S9 S10 SJ", 8) == 0


# one example laying for each round's contract
EXAMPLES = {
    1: ("C5 D5 H5", "C9 D9 S9"),
    2: ("C5 D5 H5", "H2 H3 H4 H5"),
    3: ("H2 H3 H4 H5", "S6 S7 S8 S9"),
    4: ("C5 D5 H5", "C9 D9 S9", "CK DK HK"),
    5: ("C5 D5 H5", "D2 D3 D4 D5 D6 D7 D8"),
    6: ("C5 D5 H5", "C9 D9 S9", "C2 C3 C4 C5 C6"),
    7: ("H2 H3 H4 H5", "S6 S7 S8 S9", "D10 DJ DQ DK"),
    8: ("C5 D5 H5", "S2 S3 S4 S5 S6 S7 S8 S9 S10 SJ"),
    9: ("C5 D5 H5", "C9 D9 S9", "CK DK HK", "C2 C3 C4 C5 C6"),
    10: ("H2 H3 H4 H5 H6", "S6 S7 S8 S9 S10", "D9 D10 DJ DQ DK"),
}


def test_2_2_exact_number_and_kind_of_melds_sizes_are_minimums():
    # Each example meets exactly the contracts with its number of sets and runs whose run
    # length it reaches: round 5's set + run of 7 also meets round 2 (set + run of 4), round
    # 8's set + run of 10 meets rounds 2, 5 and 8, three runs of 5 meet rounds 7 and 10.
    meets = {1: {1}, 2: {2}, 3: {3}, 4: {4}, 5: {2, 5}, 6: {6}, 7: {7}, 8: {2, 5, 8}, 9: {9}, 10: {7, 10}}
    for example, texts in EXAMPLES.items():
        assert {rnd for rnd in range(1, 11) if contract_fits(rnd, *texts)} == meets[example], example
    # sizes are minimums: a set of 4 serves as a set of 3, a run of 6 as a run of 5
    assert contract_fits(1, "C5 D5 H5 S5", "C9 D9 S9")
    assert contract_fits(10, "H2 H3 H4 H5 H6 H7", "S6 S7 S8 S9 S10", "D9 D10 DJ DQ DK")
    assert not contract_fits(10, "H2 H3 H4 H5", "S6 S7 S8 S9 S10", "D9 D10 DJ DQ DK")   # run of 4 < 5


def test_2_2_no_extra_melds_and_none_missing():
    assert not contract_fits(1, "C5 D5 H5", "C9 D9 S9", "CK DK HK")           # an extra set
    assert not contract_fits(2, "C5 D5 H5", "H2 H3 H4 H5", "CK DK HK")        # an extra set
    assert not contract_fits(3, "H2 H3 H4 H5", "S6 S7 S8 S9", "D10 DJ DQ DK")  # an extra run
    assert not contract_fits(4, "C5 D5 H5", "C9 D9 S9")                       # a set missing
    assert not contract_fits(9, "C5 D5 H5", "C9 D9 S9", "CK DK HK")           # the run missing
    assert not contract_fits(2, "C5 D5 H5", "C9 D9 S9")                       # a set for the run
    assert not contract_fits(1)                                               # nothing


def test_2_2_two_runs_of_a_suit_must_not_be_joinable():
    assert not contract_fits(3, "H2 H3 H4 H5", "H6 H7 H8 H9")                 # one run H2-H9
    assert not contract_fits(3, "H6 H7 H8 H9", "H2 H3 H4 H5")                 # in either order
    assert not contract_fits(3, "HA H2 H3 H4", "H5 H6 H7 H8")
    assert not contract_fits(3, "H7 H8 H9 H10", "HJ HQ HK HA")
    assert not contract_fits(7, "H2 H3 H4 H5", "S2 S3 S4 S5", "H6 H7 H8 H9")
    assert contract_fits(3, "H2 H3 H4 H5", "H7 H8 H9 H10")                    # a gap: two runs
    assert contract_fits(3, "H2 H3 H4 H5", "S6 S7 S8 S9")                     # other suits may touch
    assert contract_fits(3, "HA H2 H3 H4", "HJ HQ HK HA")                     # K-A-2 never joins
    assert contract_fits(3, "H2 H3 H4 H5", "H4 H5 H6 H7")                     # overlapping: duplicates


def test_2_2_the_contract_is_laid_down_whole():
    # round 2 (a set of 3 and a run of 4)
    # seat 0: H2 H3 H4 H5 C9 D9 S9 SK   seats 1, 2 (quiet): CA D10 / C4 D6
    # stock: C3 S2   pile: D7
    # Seat 0 draws C3 and lays both melds down in one move, then discards SK.
    params = quiet(strategy(3), 1, 2)
    r = play(["H2 H3 H4 H5 C9 D9 S9 SK", "CA D10", "C4 D6"], "C3 S2", "D7", "turn_limit=1",
             round_no=2, params=params)
    assert moves(r) == ["0 draws C3 from stock", "0 lays down H2 H3 H4 H5 | C9 D9 S9", "0 discards SK"]
    (event,) = [e for e in r["events"] if e["event"] == "contract"]
    assert event["table_melds"] == [0, 1]
    assert r["table"] == [["H2", "H3", "H4", "H5"], ["C9", "D9", "S9"]]
    assert r["hands"][0] == ["C3"] and r["seats"][0][K.SS_DOWN_TURN] == 1
    # round 3: two runs of hearts that overlap (H4 and H5 twice) are two runs
    r = play(["H2 H3 H4 H5 H4 H5 H6 H7 C2 SK", "CA D10", "C4 D6"], "C3 S2", "D7", "turn_limit=1",
             round_no=3, params=params)
    assert moves(r) == ["0 draws C3 from stock", "0 lays down H2 H3 H4 H5 | H4 H5 H6 H7", "0 discards SK"]
    assert r["hands"][0] == ["C2", "C3"]


def test_2_2_touching_runs_are_not_a_contract_in_play():
    # round 3; seat 0: H2 H3 H4 H5 H6 H7 H8 H9 SK; stock: C2
    # H2-H5 and H6-H9 would join into one run of 8: no contract (the exact solver agrees).
    # Seat 0 keeps its hearts and throws SK (its highest card; losing it costs nothing).
    assert exact_contract("H2 H3 H4 H5 H6 H7 H8 H9 SK C2", 3) == -1
    params = quiet(strategy(3), 1, 2)
    r = play(["H2 H3 H4 H5 H6 H7 H8 H9 SK", "CA D10", "C4 D6"], "C2 S2", "D7", "turn_limit=1",
             round_no=3, params=params)
    assert moves(r) == ["0 draws C2 from stock", "0 discards SK"]
    assert r["hands"][0] == ["C2", "H2", "H3", "H4", "H5", "H6", "H7", "H8", "H9"]


# ====================================================================== 2.3
def test_2_3_sets_of_three_or_more_any_suits_duplicates_allowed():
    assert meld_ok(row("H8 H8 S8"), True)
    assert meld_ok(row("C8 D8 H8 S8 C8 D8"), True)                 # 6 cards, every suit, twice
    assert meld_ok(row("C8 C8 C8"), True)                          # one suit (three decks)
    with pytest.raises(ValueError):
        row("C8 D8")                                               # two cards are no meld
    bad = row("C8 D8 H8")
    bad[T_RANK] = 13                                               # no such rank
    assert not meld_ok(bad, True)
    assert fit(row("C8 D8 H8 S8"), card_id("C8"), True) == FIT_SET  # a set has no size limit
    assert fit(row("C8 D8 H8"), card_id("C9"), True) == FIT_NONE
    # in play -- round 1; seat 0: H8 H8 S8 C5 D5 D5 SK; stock: C2
    params = quiet(strategy(3), 1, 2)
    r = play(["H8 H8 S8 C5 D5 D5 SK", "CA D10", "C4 D6"], "C2 S2", "D7", "turn_limit=1", params=params)
    assert moves(r) == ["0 draws C2 from stock", "0 lays down C5 D5 D5 | H8 H8 S8", "0 discards SK"]


def test_2_3_runs_ace_low_or_high_never_round_the_corner():
    assert meld_ok(row("HA H2 H3"), True)                          # ace low
    assert meld_ok(row("HQ HK HA"), True)                          # ace high
    assert meld_ok(row("HA H2 H3 H4 H5 H6 H7 H8 H9 H10 HJ HQ HK"), True)
    assert meld_ok(row("H2 H3 H4 H5 H6 H7 H8 H9 H10 HJ HQ HK HA"), True)
    with pytest.raises(ValueError):
        row("HK HA H2")
    corner = np.zeros(T_COLS, dtype=np.int64)                      # K-A-2 as positions 12, 13, 14
    corner[T_KIND], corner[T_SUIT], corner[T_LO], corner[T_HI], corner[T_NATURALS] = MELD_RUN, 2, 12, 14, 3
    assert not meld_ok(corner, True)
    whole = np.zeros(T_COLS, dtype=np.int64)                       # A-2-...-K-A: the ace twice
    whole[T_KIND], whole[T_SUIT], whole[T_LO], whole[T_HI], whole[T_NATURALS] = MELD_RUN, 2, 0, 13, 14
    assert not meld_ok(whole, True)
    assert meld_ok(row("H4 H5 H6"), True)                          # a plain run
    with pytest.raises(ValueError):
        row("H4 H5 D6")                                            # one suit
    with pytest.raises(ValueError):
        row("H4 H5 H7")                                            # consecutive
    # lay-offs: the ace goes on either end, never round the corner
    assert fit(row("HJ HQ HK"), card_id("HA"), True) == FIT_HIGH
    assert fit(row("H2 H3 H4"), card_id("HA"), True) == FIT_LOW
    assert fit(row("HQ HK HA"), card_id("H2"), True) == FIT_NONE
    assert fit(row("HA H2 H3"), card_id("HK"), True) == FIT_NONE
    assert fit(row("HA H2 H3 H4 H5 H6 H7 H8 H9 H10 HJ HQ"), card_id("HK"), True) == FIT_HIGH
    assert fit(row("HA H2 H3 H4 H5 H6 H7 H8 H9 H10 HJ HQ HK"), card_id("HA"), True) == FIT_NONE
    assert fit(row("H2 H3 H4 H5 H6 H7 H8 H9 H10 HJ HQ HK"), card_id("HA"), True) == FIT_LOW
    # in play -- round 2; seat 0: HJ HQ HK HA C4 D4 S4 D9; stock: C2
    params = quiet(strategy(3), 1, 2)
    r = play(["HJ HQ HK HA C4 D4 S4 D9", "CA D10", "C5 D6"], "C2 S2", "D7", "turn_limit=1",
             round_no=2, params=params)
    assert moves(r) == ["0 draws C2 from stock", "0 lays down HJ HQ HK HA | C4 D4 S4", "0 discards D9"]
    r = play(["HA H2 H3 H4 C4 D4 S4 D9", "CA D10", "C5 D6"], "C2 S2", "D7", "turn_limit=1",
             round_no=2, params=params)
    assert moves(r) == ["0 draws C2 from stock", "0 lays down HA H2 H3 H4 | C4 D4 S4", "0 discards D9"]
    # HK HA H2 H3 is no run: no contract; HK is useless and goes (d stays 1: H4 is missing)
    assert exact_contract("HK HA H2 H3 C4 D4 S4 D9 C2", 2) == -1
    r = play(["HK HA H2 H3 C4 D4 S4 D9", "CA D10", "C5 D6"], "C2 S2", "D7", "turn_limit=1",
             round_no=2, params=params)
    assert moves(r) == ["0 draws C2 from stock", "0 discards HK"]


def test_2_3_a_meld_holds_at_least_as_many_naturals_as_jokers():
    assert meld_ok(row("H5 S5 JK"), True) and meld_ok(row("H5 S5 JK JK"), True)
    assert meld_ok(row("H5 JK H7"), True) and meld_ok(row("H5 JK H7 JK"), True)
    for text in ("H5 JK JK", "H5 S5 JK JK JK", "H5 JK JK JK H9", "JK JK JK"):
        with pytest.raises(ValueError):
            row(text)
    too_many = row("H5 S5 JK JK")
    too_many[T_SUIT_COUNT + 3] = 0                                 # one natural, two jokers
    too_many[T_NATURALS] = 1
    assert not meld_ok(too_many, True)
    # a joker is laid off only where the naturals still outnumber the jokers
    assert fit(row("H5 S5 JK"), JOKER, True) == FIT_SET
    assert fit(row("H5 S5 JK JK"), JOKER, True) == FIT_NONE
    assert fit(row("H5 JK H7"), JOKER, True) == FIT_HIGH
    assert fit(row("H5 JK H7 JK"), JOKER, True) == FIT_NONE
    # in play -- round 1; seat 0: C5 D5 H9 JK JK JK C2; stock: D3
    # Three jokers cannot carry H9 alone (nor C2 or D3): no second set, no contract.
    # After D3: d = 1 (5s miss one, a joker fills it; the next set, C2, misses two,
    # one joker may fill). Losing C2, D3 or H9 keeps d = 1: the highest, H9, goes.
    assert exact_contract("C5 D5 H9 JK JK JK C2 D3", 1) == -1
    params = quiet(strategy(3), 1, 2)
    r = play(["C5 D5 H9 JK JK JK C2", "CA D10", "C4 D6"], "D3 S2", "D7", "turn_limit=1", params=params)
    assert moves(r) == ["0 draws D3 from stock", "0 discards H9"]
    # with S9 drawn instead: 5s and 9s, every joker placed, naturals >= jokers in each set;
    # C2 is discarded and seat 0 goes out in one turn with jokers laid: -25
    r = play(["C5 D5 H9 JK JK JK C2", "CA D10", "C4 D6"], "S9 S2", "D7", params=params)
    assert moves(r) == ["0 draws S9 from stock", "0 lays down C5 D5 JK JK | H9 S9 JK", "0 discards C2"]
    assert summary(r) == ("win", 0, "one_turn", [-25, 25, 10])


def test_2_3_a_joker_stands_for_its_place_fixed_when_placed():
    # round 2; seat 0: H4 H5 JK H7 C9 D9 S9 SK; stock: C2
    # The joker fills H6 in the run; the 9s are natural.
    params = quiet(strategy(3), 1, 2)
    r = play(["H4 H5 JK H7 C9 D9 S9 SK", "CA D10", "C5 D6"], "C2 S2", "D7", "turn_limit=1",
             round_no=2, params=params)
    assert moves(r) == ["0 draws C2 from stock", "0 lays down H4 H5 JK H7 | C9 D9 S9", "0 discards SK"]
    (event,) = [e for e in r["events"] if e["event"] == "contract"]
    assert event["stands_for"] == [[None, None, "H6", None], [None, None, None]]
    # a joker in a set stands for "a card of the set's rank"
    r = play(["C5 D5 JK C9 D9 H9 SK", "CA D10", "C4 D6"], "S2 S3", "D7", "turn_limit=1", params=params)
    (event,) = [e for e in r["events"] if e["event"] == "contract"]
    assert event["melds"] == [["C5", "D5", "JK"], ["C9", "D9", "H9"]]
    assert event["stands_for"] == [[None, None, "5"], [None, None, None]]
    # its place does not move when the meld grows: H5 JK H7 takes H8 and H4, the joker stays H6
    run = row("H5 JK H7")
    lay_off(run, card_id("H8"), fit(run, card_id("H8"), True))
    lay_off(run, card_id("H4"), fit(run, card_id("H4"), True))
    assert (run[T_LO], run[T_HI]) == (3, 7)
    assert swap_position(run, card_id("H6")) == 5
    assert swap_position(run, card_id("H4")) == -1 and swap_position(run, card_id("H8")) == -1


# ====================================================================== 2.4
# round 1; the upcard H5 helps seat 0 (two 5s) and every other seat (one 5 each)
# seat 0: C5 D5 SK   seat 1: S5 C9   seat 2: H5 CJ
# stock: C2 C3 C4 C6   pile: H5
BUY3 = (["C5 D5 SK", "S5 C9", "H5 CJ"], "C2 C3 C4 C6", "H5")


def test_2_4_1_taking_the_upcard_stops_buying():
    # Seat 0 takes H5 (three 5s: d 3 -> 2); seats 1 and 2, who want it too, get no chance.
    # Then losing C5 or D5 would cost a card of the set, losing SK the only card of the
    # second set: every discard raises d by one, so the highest value goes: SK.
    r = play(*BUY3, "turn_limit=1")
    assert moves(r) == ["0 draws H5 from discard", "0 discards SK"]
    assert r["hands"] == [["C5", "D5", "H5"], ["C9", "S5"], ["CJ", "H5"]]
    assert [s[K.SS_BUYS] for s in r["seats"]] == [0, 0, 0] and r["seats"][0][K.SS_UPCARDS] == 1
    # the same with seat 0 leaving the upcard: seat 1 buys it
    r = play(*BUY3, "turn_limit=1", params=quiet(strategy(3), 0))
    assert moves(r) == ["1 buys H5 (penalty C2)", "0 draws C3 from stock", "0 discards SK"]


@pytest.mark.parametrize("unwilling, buyer", [((), 3), ((3,), 0), ((3, 0), 1), ((3, 0, 1), None)])
def test_2_4_2_buying_in_turn_order_from_the_players_left(unwilling, buyer):
    # 4 players, seat 2 on turn (quiet): the others ask in turn order from its left: 3, 0, 1.
    # seat 0: S5 C9   seat 1: D5 CJ   seat 2: C5 D5 SK   seat 3: H5 C10
    # stock: C2 C3 C4 C6 C7   pile: H5
    # The first who wants H5 takes it and, as a penalty, the top stock card C2; then
    # seat 2 draws the next stock card, C3. With no buyer seat 2 draws C2.
    params = quiet(strategy(4), 2, *unwilling)
    r = play(["S5 C9", "D5 CJ", "C5 D5 SK", "H5 C10"], "C2 C3 C4 C6 C7", "H5", "turn_limit=1",
             first=2, params=params)
    if buyer is None:
        assert moves(r) == ["2 draws C2 from stock", "2 discards SK"]
        assert r["hands"][2] == ["C2", "C5", "D5"]
        return
    assert moves(r) == [f"{buyer} buys H5 (penalty C2)", "2 draws C3 from stock", "2 discards SK"]
    before = {0: ["C9", "S5"], 1: ["CJ", "D5"], 3: ["C10", "H5"]}
    assert r["hands"][buyer] == sorted(before[buyer] + ["C2", "H5"], key=lambda t: card_id(t))
    assert r["hands"][2] == ["C3", "C5", "D5"]
    assert [s[K.SS_BUYS] for s in r["seats"]] == [int(q == buyer) for q in range(4)]


def _buyers() -> np.ndarray:
    """BUY3 with seat 0 quiet and seats 1, 2 asking to buy whatever buys they have used (a
    negative reserve): only the engine's rules stop them."""
    params = quiet(strategy(3), 0)
    params[1:, B.SP_BUY_KEEP] = -100
    return params


def test_2_4_3_at_most_four_buys_per_round():
    # BUY3, seat 0 leaving H5. Seat 1 has bought 3 times: it buys a fourth time.
    r = play(*BUY3, "turn_limit=1", buys={1: 3}, params=_buyers())
    assert moves(r) == ["1 buys H5 (penalty C2)", "0 draws C3 from stock", "0 discards SK"]
    assert r["seats"][1][K.SS_BUYS] == 4
    # four buys used: seat 1 is passed over and seat 2 buys
    r = play(*BUY3, "turn_limit=1", buys={1: 4}, params=_buyers())
    assert moves(r) == ["2 buys H5 (penalty C2)", "0 draws C3 from stock", "0 discards SK"]
    # whole games of buyers (they buy whenever it helps) and of random bots (they buy on one
    # upcard in four, never counting): never more than 4 in a round
    for names in (("buyer",), ("random",)):
        _, seat_rows, _ = play_games(4, 6, "turn_limit=300", names=names)
        assert seat_rows[:, :, K.SS_BUYS].max() == 4


def test_2_4_3_a_buy_needs_two_stock_cards():
    # one stock card: nobody may buy; seat 0 draws it
    r = play(BUY3[0], "C2", BUY3[2], "turn_limit=1", params=_buyers())
    assert moves(r) == ["0 draws C2 from stock", "0 discards SK"]
    assert r["hands"][1:] == [["C9", "S5"], ["CJ", "H5"]]
    # two: seat 1 buys (penalty C2) and seat 0 draws the last one
    r = play(BUY3[0], "C2 C3", BUY3[2], "turn_limit=1", params=_buyers())
    assert moves(r) == ["1 buys H5 (penalty C2)", "0 draws C3 from stock", "0 discards SK"]


def test_2_4_3_the_discarder_cannot_buy_back_its_discard():
    # H5 was discarded by seat 1: seat 1 is passed over, seat 2 buys
    r = play(*BUY3, "turn_limit=1", discarder=1, params=_buyers())
    assert moves(r) == ["2 buys H5 (penalty C2)", "0 draws C3 from stock", "0 discards SK"]
    assert r["hands"][1] == ["C9", "S5"]
    r = play(*BUY3, "turn_limit=1", discarder=2, params=_buyers())
    assert moves(r) == ["1 buys H5 (penalty C2)", "0 draws C3 from stock", "0 discards SK"]


def test_2_4_3_one_buy_per_upcard():
    # seats 1 and 2 both want H5: only seat 1 gets it, and seat 2 takes no penalty card
    r = play(*BUY3, "turn_limit=1", params=_buyers())
    assert [m for m in moves(r) if "buys" in m] == ["1 buys H5 (penalty C2)"]
    assert r["hands"][2] == ["CJ", "H5"]
    assert [s[K.SS_BUYS] for s in r["seats"]] == [0, 1, 0]


# ====================================================================== 2.5
# round 1 (two sets); table: 0 = 1: C7 D7 H7 (seat 1 is down)
# seat 0: C5 D5 H5 C9 D9 H9 S7 SK   seat 1: D2 H10   seat 2: C4 D6
# stock: C2 S2 H4 C3 D8   pile: D3
# Nobody wants D3 (seat 0's contract is complete; one card of a new rank does not help
# the others). Turn 1: seat 0 draws C2, lays its contract down, does NOT lay S7 off
# on seat 1's sevens, and discards SK (once down: the highest card that cannot be laid off).
CONTRACT_TURN = (["C5 D5 H5 C9 D9 H9 S7 SK", "D2 H10", "C4 D6"], "C2 S2 H4 C3 D8", "D3")


def test_2_5_lay_down_the_whole_contract_and_nothing_else_that_turn():
    r = play(*CONTRACT_TURN, "turn_limit=1", table=[(1, "C7 D7 H7")], down={1: 1})
    assert moves(r) == ["0 draws C2 from stock", "0 lays down C5 D5 H5 | C9 D9 H9", "0 discards SK"]
    assert r["hands"][0] == ["C2", "S7"]
    assert r["table"] == [["C7", "D7", "H7"], ["C5", "D5", "H5"], ["C9", "D9", "H9"]]
    assert r["seats"][0][K.SS_DOWN_TURN] == 1 and r["seats"][0][K.SS_LAID_OFF] == 0


def test_2_5_lay_offs_from_the_next_turn_on():
    # CONTRACT_TURN, four turns. Seat 1 (down) draws S2 and throws H10; seat 2 draws H4,
    # keeps its pair of 4s and throws D6; seat 0, down since its last turn, lays S7 off
    # on the sevens, then throws C3 (its highest card).
    r = play(*CONTRACT_TURN, "turn_limit=4", table=[(1, "C7 D7 H7")], down={1: 1})
    assert moves(r) == [
        "0 draws C2 from stock", "0 lays down C5 D5 H5 | C9 D9 H9", "0 discards SK",
        "1 draws S2 from stock", "1 discards H10",
        "2 draws H4 from stock", "2 discards D6",
        "0 draws C3 from stock", "0 lays off S7 on 0", "0 discards C3",
    ]
    assert r["hands"] == [["C2"], ["D2", "S2"], ["C4", "H4"]]
    assert r["table"][0] == ["C7", "D7", "H7", "S7"]
    assert r["seats"][0][K.SS_LAID_OFF] == 1


def test_2_5_no_lay_off_before_going_down():
    # table: 0 = 1: C7 D7 H7; seat 0 (not down): S7 C2 D4; stock: H9 C3; pile: D3
    # S7 would fit the sevens, but seat 0 has not gone down: it may not lay off.
    params = quiet(strategy(3), 1, 2)
    r = play(["S7 C2 D4", "D2 H10", "C4 D6"], "H9 C3", "D3", "turn_limit=1",
             table=[(1, "C7 D7 H7")], down={1: 1}, params=params)
    assert moves(r) == ["0 draws H9 from stock", "0 discards H9"]
    assert r["hands"][0] == ["C2", "D4", "S7"]
    # down on an earlier turn: the same hand lays S7 off
    r = play(["S7 C2 D4", "D2 H10", "C4 D6"], "H9 C3", "D3", "turn_limit=1",
             table=[(1, "C7 D7 H7"), (0, "C5 D5 H5"), (0, "CJ DJ SJ")], down={0: 1, 1: 1}, params=params)
    assert moves(r) == ["0 draws H9 from stock", "0 lays off S7 on 0", "0 discards H9"]


def test_2_5_no_new_melds_after_going_down():
    # table: 0 = 0: C9 D9 H9   1 = 0: C5 D5 H5 (seat 0 is down)
    # seat 0: C3 D3 H3 SK; stock: C2 S2; pile: DK
    # Three 3s make a set, but seat 0 is down: no new meld, only lay-offs (none fit).
    params = quiet(strategy(3), 1, 2)
    r = play(["C3 D3 H3 SK", "D2 H10", "C4 D6"], "C2 S2", "DK", "turn_limit=1",
             table=[(0, "C9 D9 H9"), (0, "C5 D5 H5")], down={0: 1}, params=params)
    assert moves(r) == ["0 draws C2 from stock", "0 discards SK"]
    assert r["hands"][0] == ["C2", "C3", "D3", "H3"] and len(r["table"]) == 2


# table: 0 = 0: C9 D9 S9   1 = 1: H5 JK H7 (the joker is H6); seats 0 and 1 are down
# seat 0: H6 SK   seat 1: D2 H10   seat 2: C4 D6
# stock: C2 S2   pile: D3
SWAP = (["H6 SK", "D2 H10", "C4 D6"], "C2 S2", "D3")
SWAP_TABLE = [(0, "C9 D9 S9"), (1, "H5 JK H7")]


def test_2_5_joker_swap_in_a_run_freed_joker_laid_off_at_once():
    # Seat 0 puts H6 in place of the joker of meld 1 and lays the joker off at once,
    # on the first meld that takes it (the 9s, where it stands for a 9).
    params = quiet(strategy(3), 1, 2)
    r = play(*SWAP, "turn_limit=1", table=SWAP_TABLE, down={0: 1, 1: 1}, params=params)
    assert moves(r) == ["0 draws C2 from stock", "0 swaps H6 for the joker of 1", "0 lays off JK=9 on 0",
                        "0 discards SK"]
    assert r["table"] == [["C9", "D9", "S9", "JK"], ["H5", "H6", "H7"]]
    assert r["hands"][0] == ["C2"]
    assert r["seats"][0][K.SS_SWAPS] == 1 and r["seats"][0][K.SS_LAID_OFF] == 1
    # with only the run on the table the joker goes back on it, at its high end (H8)
    r = play(*SWAP, "turn_limit=1", table=[(1, "H5 JK H7")], down={0: 1, 1: 1}, params=params)
    assert moves(r) == ["0 draws C2 from stock", "0 swaps H6 for the joker of 0", "0 lays off JK=H8 on 0",
                        "0 discards SK"]
    assert r["table"] == [["H5", "H6", "H7", "JK"]]


def test_2_5_joker_swap_needs_a_place_for_the_freed_joker():
    # table: 0 = 1: HA H2 ... HQ JK (the joker is HK); seat 0 (down): HK S3; stock: C2
    # HK would free the joker, but the run A..K takes no more card and there is no other
    # meld: no swap (HK does not fit as a lay-off either); seat 0 throws HK.
    params = quiet(strategy(3), 1, 2)
    full = "HA H2 H3 H4 H5 H6 H7 H8 H9 H10 HJ HQ JK"
    r = play(["HK S3", "D2 H10", "C4 D6"], "C2 S2", "D3", "turn_limit=1", table=[(1, full)],
             down={0: 1, 1: 1}, params=params)
    assert moves(r) == ["0 draws C2 from stock", "0 discards HK"]
    # with a set of 9s on the table, the joker has a place: swap, then the joker goes on the 9s
    r = play(["HK S3", "D2 H10", "C4 D6"], "C2 S2", "D3", "turn_limit=1",
             table=[(1, full), (0, "C9 D9 S9")], down={0: 1, 1: 1}, params=params)
    assert moves(r) == ["0 draws C2 from stock", "0 swaps HK for the joker of 0", "0 lays off JK=9 on 1",
                        "0 discards S3"]
    assert r["table"][0][-1] == "HK"


def test_2_5_joker_swap_in_a_set_takes_any_natural_of_its_rank():
    s = row("C8 D8 JK")
    assert [swap_position(s, card_id(t)) for t in ("C8", "D8", "H8", "S8")] == [7, 7, 7, 7]
    assert swap_position(s, card_id("S9")) == -1 and swap_position(s, JOKER) == -1
    swap_in(s, card_id("S8"), 7)
    assert (s[T_NATURALS], s[T_JOKERS]) == (3, 0) and s[T_SUIT_COUNT:T_SUIT_COUNT + 4].tolist() == [1, 1, 0, 1]
    assert swap_position(s, card_id("H8")) == -1                     # no joker left
    r_ = row("H5 JK H7")
    assert swap_position(r_, card_id("H6")) == 5
    assert swap_position(r_, card_id("S6")) == -1 and swap_position(r_, card_id("H5")) == -1
    # in play: greedy lays a natural off a set rather than swap (both are legal), so the random
    # bot shows it: table 0 = 1: C8 D8 JK; seat 0 (random, down): S8 C2 D3
    params = quiet(strategy(3, "random", "greedy", "greedy"), 1, 2)
    swapped = 0
    for seed in range(40):
        r = play(["S8 C2 D3", "D2 H10", "C4 D6"], "C5 S2", "DK", "turn_limit=1",
                 table=[(1, "C8 D8 JK")], down={0: 1, 1: 1}, params=params, seed=seed)
        ev = moves(r)
        for i, m in enumerate(ev):
            if "swaps" in m:
                swapped += 1
                assert m == "0 swaps S8 for the joker of 0"
                assert ev[i + 1] == "0 lays off JK=8 on 0"           # the freed joker, at once
                assert sorted(r["table"][0]) == ["C8", "D8", "JK", "S8"]
    assert swapped > 0


def test_2_5_joker_swap_only_for_a_player_down_on_an_earlier_turn():
    # table: 0 = 1: H5 JK H7; seat 0 (not down): C5 D5 H5 C9 D9 S9 H6 SK; stock: C2
    # Seat 0 lays its contract down this turn: no swap until its next turn.
    params = quiet(strategy(3), 1, 2)
    hands = ["C5 D5 H5 C9 D9 S9 H6 SK", "D2 H10", "C4 D6"]
    r = play(hands, "C2 S2", "D3", "turn_limit=1", table=[(1, "H5 JK H7")], down={1: 1}, params=params)
    assert moves(r) == ["0 draws C2 from stock", "0 lays down C5 D5 H5 | C9 D9 S9", "0 discards SK"]
    assert r["hands"][0] == ["C2", "H6"]
    # not down at all: no swap either
    r = play(*SWAP, "turn_limit=1", table=SWAP_TABLE, down={1: 1}, params=params)
    assert moves(r) == ["0 draws C2 from stock", "0 discards SK"]


# ====================================================================== 2.6
# round 1; table: 0 = 0: H5 H6 H7 (seat 0 is down)
# seat 0: H8   seat 1: CA D10 (25 points)   seat 2: JK C9 (34); seats 1 and 2 never buy
GOING_OUT = dict(table=[(0, "H5 H6 H7")], down={0: 1})


def _no_buy(players=3, *seats) -> np.ndarray:
    params = strategy(players)
    params[list(seats or range(1, players)), B.SP_BUY] = 0
    return params


def test_2_6_going_out_without_a_discard_is_legal():
    # stock: H9 C2: seat 0 draws H9 and lays H8 and H9 off: the hand is empty, no discard
    r = play(["H8", "CA D10", "JK C9"], "H9 C2", "D3", params=_no_buy(), **GOING_OUT)
    assert moves(r) == ["0 draws H9 from stock", "0 lays off H8 on 0", "0 lays off H9 on 0"]
    assert summary(r) == ("win", 0, "none", [0, 25, 34])
    assert r["hands"] == [[], ["CA", "D10"], ["C9", "JK"]] and r["turns"] == 1
    assert r["table"] == [["H5", "H6", "H7", "H8", "H9"]]


def test_2_6_discard_one_card_unless_the_hand_is_empty():
    # stock: SK C2: H8 is laid off, SK is the final discard
    r = play(["H8", "CA D10", "JK C9"], "SK C2", "D3", params=_no_buy(), **GOING_OUT)
    assert moves(r) == ["0 draws SK from stock", "0 lays off H8 on 0", "0 discards SK"]
    assert summary(r) == ("win", 0, "none", [0, 25, 34])
    # a hand that is not empty always ends its turn with exactly one discard
    r = play(["H8 C3 D4", "CA D10", "JK C9"], "SK C2", "D3", "turn_limit=1", params=_no_buy(), **GOING_OUT)
    assert moves(r) == ["0 draws SK from stock", "0 lays off H8 on 0", "0 discards SK"]
    assert r["hands"][0] == ["C3", "D4"]


def test_2_6_stock_refilled_from_the_pile_less_its_top_card():
    # round 1, every seat quiet; seat 0: CK DQ  seat 1: C4 D6  seat 2: C8 D10
    # stock: C2 (the last card)   pile: S3 D4 H6
    # Turn 1: seat 0 draws C2 and throws DQ (CK and DQ tie at 10: the higher id, DQ).
    # Turn 2: the stock is empty: S3 D4 H6 are shuffled into a new stock, DQ stays as
    # the upcard, and seat 1 draws the new top card.
    orders = set()
    for seed in range(8):
        r = play(["CK DQ", "C4 D6", "C8 D10"], "C2", "S3 D4 H6", "turn_limit=2", seed=seed,
                 params=quiet(strategy(3), 0, 1, 2))
        ev = moves(r)
        assert ev[:2] == ["0 draws C2 from stock", "0 discards DQ"]
        new_stock = ev[2].split()[1:]
        assert ev[2].startswith("reshuffle") and sorted(new_stock) == ["D4", "H6", "S3"]
        assert ev[3] == f"1 draws {new_stock[0]} from stock"
        assert r["reshuffles"] == 1
        assert all("DQ" not in h for h in r["hands"])            # still on the pile
        orders.add(tuple(new_stock))
    assert len(orders) > 1                                        # it is shuffled


def test_2_6_round_ends_with_no_winner_when_nothing_is_left_to_draw():
    # round 1, every seat quiet; seat 0: CK DQ (20)  seat 1: C4 D6 (10)  seat 2: C8 D10 (18)
    # stock: empty   pile: S6 (the upcard). Seat 0 leaves S6; the pile less its top card is
    # empty: no stock can be formed, the round ends, everyone scores their hand.
    r = play(["CK DQ", "C4 D6", "C8 D10"], "", "S6", params=quiet(strategy(3), 0, 1, 2))
    assert moves(r) == ["reshuffle"]
    assert summary(r) == ("stalemate_stock", -1, "none", [20, 10, 18])
    assert r["turns"] == 0 and r["hands"] == [["CK", "DQ"], ["C4", "D6"], ["C8", "D10"]]
    # reached in play: BUY3 with two stock cards. Seat 1 buys H5 and the penalty C2, seat 0
    # draws C3, the last card, and throws SK. Seat 1 does not want SK; the pile holds only SK.
    params = quiet(strategy(3), 0, 2)
    r = play(BUY3[0], "C2 C3", BUY3[2], params=params)
    assert moves(r) == ["1 buys H5 (penalty C2)", "0 draws C3 from stock", "0 discards SK", "reshuffle"]
    # seat 0: C3 C5 D5 = 13; seat 1: C2 C9 H5 S5 = 21; seat 2: CJ H5 = 15
    assert summary(r) == ("stalemate_stock", -1, "none", [13, 21, 15])
    assert r["turns"] == 1


# ====================================================================== 2.7
def test_2_7_card_values():
    # 2-9 face value, 10/J/Q/K 10, ace 15, joker 25
    assert [int(POINTS[k]) for k in range(13)] == [15, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]
    assert all(POINTS[16 * s + k] == POINTS[k] for s in range(4) for k in range(13))
    assert POINTS[JOKER] == 25
    assert hand_points(counts_of("CA C2 C3 C4 C5 C6 C7 C8 C9 C10 CJ CQ CK JK")) == 15 + 44 + 40 + 25
    assert hand_points(counts_of("HA HA JK JK")) == 80


def test_2_7_everyone_else_adds_the_value_of_their_hand():
    # a round stopped by the turn cap: every seat scores its hand
    # seat 0: CA C2 C9   seat 1: D10 DJ DQ DK   seat 2: JK H5   stock: S2   pile: H3 (all quiet)
    # seat 0 draws S2 and keeps its pair of 2s; CA goes (the highest value, d unchanged)
    r = play(["CA C2 C9", "D10 DJ DQ DK", "JK H5"], "S2 S3", "H3", "turn_limit=1",
             params=quiet(strategy(3), 0, 1, 2))
    assert moves(r) == ["0 draws S2 from stock", "0 discards CA"]
    assert summary(r) == ("turn_limit", -1, "none", [2 + 9 + 2, 40, 30])
    # a won round: the winner 0, the others their hands (the 2.6 position)
    r = play(["H8", "CA D10", "JK C9"], "SK C2", "D3", params=_no_buy(), **GOING_OUT)
    assert summary(r) == ("win", 0, "none", [0, 25, 34])


# round 1; seat 0: C5 D5 H5 C9 D9 H9 SK  seat 1: CA D10 (25)  seat 2: C4 D6 (10)
# stock: S9 S2   pile: D3. Seat 0 draws S9, lays both sets down (four 9s) and throws SK:
# laid down and out in the same turn.
ONE_TURN = (["C5 D5 H5 C9 D9 H9 SK", "CA D10", "C4 D6"], "S9 S2", "D3")
ONE_TURN_JOKER = (["C5 D5 JK C9 D9 H9 SK", "CA D10", "C4 D6"], "S9 S2", "D3")


def test_2_7_one_turn_without_a_joker_minus_50():
    r = play(*ONE_TURN)
    assert moves(r) == ["0 draws S9 from stock", "0 lays down C5 D5 H5 | C9 D9 H9 S9", "0 discards SK"]
    assert summary(r) == ("win", 0, "one_turn_no_joker", [-50, 25, 10])


def test_2_7_one_turn_with_a_joker_minus_25():
    r = play(*ONE_TURN_JOKER)
    assert moves(r) == ["0 draws S9 from stock", "0 lays down C5 D5 JK | C9 D9 H9 S9", "0 discards SK"]
    assert summary(r) == ("win", 0, "one_turn", [-25, 25, 10])


def test_2_7_going_out_after_an_earlier_contract_scores_0():
    # seat 0 went down on an earlier turn and goes out by lay-offs: 0, no bonus
    r = play(["H8", "CA D10", "JK C9"], "H9 C2", "D3", params=_no_buy(), **GOING_OUT)
    assert summary(r) == ("win", 0, "none", [0, 25, 34])


def test_2_7_a_discarded_joker_is_not_laid_down_a_laid_off_one_is():
    # seat 0 lays the contract with the fewest jokers: C5 D5 H5 | C9 D9 H9 S9, JK kept.
    # Discarding the joker: no joker was laid down: -50.
    params = strategy(3)
    params[0, B.SP_JOKERS] = 1
    hands = ["C5 D5 H5 C9 D9 H9 JK", "CA D10", "C4 D6"]
    r = play(hands, "S9 S2", "D3", params=params)
    assert moves(r) == ["0 draws S9 from stock", "0 lays down C5 D5 H5 | C9 D9 H9 S9", "0 discards JK"]
    assert summary(r) == ("win", 0, "one_turn_no_joker", [-50, 25, 10])
    # with layoff_on_contract_turn the joker is laid off on the 5s the same turn: -25
    r = play(hands, "S9 S2", "D3", "layoff_on_contract_turn=true", params=params)
    assert moves(r) == ["0 draws S9 from stock", "0 lays down C5 D5 H5 | C9 D9 H9 S9", "0 lays off JK=5 on 0"]
    assert summary(r) == ("win", 0, "one_turn", [-25, 25, 10])


def test_2_7_game_total_over_ten_rounds_lowest_wins_ties_share():
    totals = np.array([[120, 95, 300], [80, 80, 200], [10, 10, 10], [-25, 0, 5]])
    tied, winner = game_winners(totals)
    assert tied.tolist() == [1, 2, 3, 1] and winner.tolist() == [1, -1, -1, 0]
    assert win_shares(totals).tolist() == [[0, 1, 0], [0.5, 0.5, 0], [1 / 3, 1 / 3, 1 / 3], [1, 0, 0]]
    # whole games: each total is the sum of that seat's ten round scores
    from rummysim.run import simulate
    res = simulate(games=3, players=3, variant="shanghai", seed=5)
    assert len(res.hands) == 30
    for g in range(3):
        seats = res.seats[res.seats.game == g]
        assert sorted(seats["round"].unique().tolist()) == list(range(1, 11))
        row_ = res.games[res.games.game == g].iloc[0]
        sums = [int(seats[seats.seat == q].score.sum()) for q in range(3)]
        assert [int(row_[f"total_{q}"]) for q in range(3)] == sums
        best = min(sums)
        assert int(row_["tied"]) == sums.count(best)
        assert int(row_["winner"]) == (sums.index(best) if sums.count(best) == 1 else -1)
    # round scores: the winner 0 or its bonus, everyone else the (positive) value left
    rounds, seats = res.hands, res.seats
    for _, rd in rounds.iterrows():
        s = seats[(seats.game == rd.game) & (seats["round"] == rd["round"])]
        for _, st in s.iterrows():
            if st.seat == rd.winner:
                assert st.score == {"none": 0, "one_turn": -25, "one_turn_no_joker": -50}[rd.bonus]
                assert st.cards_left == 0
            else:
                assert st.cards_left > 0 and st.score >= 2 * st.cards_left


# ====================================================================== 2.8
def test_2_8_defaults():
    d = ShanghaiRules()
    assert (d.jokers, d.decks, d.max_buys, d.layoff_on_contract_turn, d.joker_swap, d.ace,
            d.must_discard_to_go_out, d.one_turn_bonus, d.turn_limit) == (
        None, None, 4, False, True, "high_or_low", False, (-25, -50), 2000)
    for players, decks, jokers in [(3, 2, 1), (4, 2, 1), (5, 3, 2), (8, 3, 2)]:
        r = rules(players)
        assert (r[SR_DECKS], r[SR_JOKERS]) == (decks, jokers)
        assert (r[SR_MAX_BUYS], r[SR_LAYOFF_ON_CONTRACT_TURN], r[SR_JOKER_SWAP], r[SR_ACE_HIGH],
                r[SR_MUST_DISCARD], r[SR_BONUS], r[SR_BONUS_NO_JOKER], r[SR_TURN_LIMIT]) == (
            4, 0, 1, 1, 0, -25, -50, 2000)


@pytest.mark.parametrize("bad", ["jokers=5", "jokers=-1", "decks=0", "decks=9", "max_buys=-1", "ace=high",
                                 "joker_swap=maybe", "joker_swap=any", "one_turn_bonus=-25", "one_turn_bonus=a/b",
                                 "turn_limit=0", "target=100"])
def test_2_8_bad_option_values_are_refused(bad):
    with pytest.raises(RuleError):
        parse_rule_options(SHANGHAI, [bad])


def test_2_8_decks_and_jokers_change_the_card_count():
    for players, options, total in [(3, ("decks=1",), 53), (4, ("jokers=0",), 104), (5, ("decks=2",), 106),
                                    (3, ("decks=3", "jokers=4"), 160), (8, ("jokers=4",), 160)]:
        r = rules(players, *options)
        work, scratch = new_round(players, r)
        K.start_round(1, 0, 1, work, scratch)
        assert card_total(work, players) == total == 52 * r[SR_DECKS] + r[SR_JOKERS]
    # too few cards for the players is refused
    with pytest.raises(RuleError):
        parse_rule_options(SHANGHAI, ["decks=1", "jokers=0"]).check_players(5)


def test_2_8_max_buys_any_number_0_disables_buying():
    # max_buys=1: seat 1, one buy used, is passed over; seat 2 buys
    r = play(*BUY3, "max_buys=1", "turn_limit=1", buys={1: 1}, params=_buyers())
    assert moves(r) == ["2 buys H5 (penalty C2)", "0 draws C3 from stock", "0 discards SK"]
    # max_buys=0: nobody buys, however much they want it. (Seat 0 holds two more cards here, H9 D2:
    # with three cards and no buys no seat could ever hold the 6 cards of two sets, and ruling 3.12
    # would end the round before the first turn.)
    hands = ["C5 D5 SK H9 D2"] + BUY3[0][1:]
    r = play(hands, *BUY3[1:], "max_buys=0", "turn_limit=1", params=_buyers())
    assert moves(r) == ["0 draws C2 from stock", "0 discards SK"]
    # whole games of random bots (they never count their buys): the cap holds, 0 means none
    for cap in (2, 0):
        round_rows, seat_rows, _ = play_games(4, 4, f"max_buys={cap}", "turn_limit=300", names=("random",))
        assert seat_rows[:, :, K.SS_BUYS].max() == cap
        assert round_rows[:, K.RW_BUYS].max() <= 4 * cap


def test_2_8_layoff_on_contract_turn_true():
    # CONTRACT_TURN: with the option, S7 goes on the sevens in the turn of the contract
    r = play(*CONTRACT_TURN, "layoff_on_contract_turn=true", "turn_limit=1", table=[(1, "C7 D7 H7")],
             down={1: 1})
    assert moves(r) == ["0 draws C2 from stock", "0 lays down C5 D5 H5 | C9 D9 H9", "0 lays off S7 on 0",
                        "0 discards SK"]
    assert r["hands"][0] == ["C2"]
    # and a joker swap is allowed in that turn too (ruling 3.9): H6 for the joker of H5 JK H7
    params = quiet(strategy(3), 1, 2)
    r = play(["C5 D5 H5 C9 D9 S9 H6 SK", "D2 H10", "C4 D6"], "C2 S2", "D3", "layoff_on_contract_turn=true",
             "turn_limit=1", table=[(1, "H5 JK H7")], down={1: 1}, params=params)
    assert moves(r) == ["0 draws C2 from stock", "0 lays down C5 D5 H5 | C9 D9 S9",
                        "0 swaps H6 for the joker of 0", "0 lays off JK=H8 on 0", "0 discards SK"]


def test_2_8_joker_swap_false():
    # SWAP with the option off: H6 stays in hand, the joker on the table
    params = quiet(strategy(3), 1, 2)
    r = play(*SWAP, "joker_swap=false", "turn_limit=1", table=SWAP_TABLE, down={0: 1, 1: 1}, params=params)
    assert moves(r) == ["0 draws C2 from stock", "0 discards SK"]
    assert r["hands"][0] == ["C2", "H6"] and r["table"] == [["C9", "D9", "S9"], ["H5", "JK", "H7"]]


# round 1; table: 0 = 1: H5 JK H7 (the joker is H6); seat 1 is down; seat 0 not down:
# C9 D9 S9 C4 D4 H6 SK; stock: C2 S2   No contract from the hand (two fours); with the joker
# that H6 frees, C4 D4 JK makes the second set.
ANYONE = (["C9 D9 S9 C4 D4 H6 SK", "D2 H10", "C4 D6"], "C2 S2", "D3")


def _swapper(params: np.ndarray, seat: int = 0) -> np.ndarray:
    params[seat, B.SP_SWAP_DOWN] = 1
    return params


def test_3_8_joker_swap_anyone_swap_then_the_contract_with_the_joker():
    # docs/rules.md 3.8: a player not down swaps in the turn it lays its contract, the natural in
    # the table meld, the freed joker in the contract laid that turn
    params = _swapper(quiet(strategy(3), 1, 2))
    r = play(*ANYONE, "joker_swap=anyone", "turn_limit=1", table=[(1, "H5 JK H7")], down={1: 1}, params=params)
    assert moves(r) == ["0 draws C2 from stock", "0 swaps H6 for the joker of 0",
                        "0 lays down C4 D4 JK | C9 D9 S9", "0 discards SK"]
    assert r["table"] == [["H5", "H6", "H7"], ["C4", "D4", "JK"], ["C9", "D9", "S9"]]
    assert r["hands"][0] == ["C2"]
    assert r["seats"][0][K.SS_SWAPS] == 1 and r["seats"][0][K.SS_DOWN_TURN] == 1


def test_3_8_no_swap_for_a_player_not_down_unless_anyone():
    # joker_swap=true (2.5: players who have gone down) and false: the same seat cannot swap, so
    # cannot lay down; it discards, H6 stays in hand and the joker on the table
    params = _swapper(quiet(strategy(3), 1, 2))
    for option in ("joker_swap=true", "joker_swap=false"):
        r = play(*ANYONE, option, "turn_limit=1", table=[(1, "H5 JK H7")], down={1: 1}, params=params)
        assert moves(r) == ["0 draws C2 from stock", "0 discards SK"]
        assert r["table"] == [["H5", "JK", "H7"]]


def test_3_8_no_swap_when_the_joker_cannot_go_into_a_contract():
    # without D4 the fours cannot host the joker (a meld keeps as many naturals as jokers) and
    # the nines alone are not the contract: the swap is not legal, the seat does not go down
    params = _swapper(quiet(strategy(3), 1, 2))
    r = play(["C9 D9 S9 C4 H6 SK", "D2 H10", "C4 D6"], "C2 S2", "D3", "joker_swap=anyone", "turn_limit=1",
             table=[(1, "H5 JK H7")], down={1: 1}, params=params)
    assert moves(r) == ["0 draws C2 from stock", "0 discards SK"]


def test_3_8_a_player_down_swaps_as_in_2_5_under_anyone():
    # SWAP (2.5) under joker_swap=anyone: the same moves as under the default
    params = quiet(strategy(3), 1, 2)
    r = play(*SWAP, "joker_swap=anyone", "turn_limit=1", table=SWAP_TABLE, down={0: 1, 1: 1}, params=params)
    assert moves(r) == ["0 draws C2 from stock", "0 swaps H6 for the joker of 1", "0 lays off JK=9 on 0",
                        "0 discards SK"]


def test_2_8_ace_low_makes_q_k_a_impossible():
    assert meld_ok(row("HQ HK HA"), True)
    lowq = row("HQ HK HA")
    assert not meld_ok(lowq, False)
    with pytest.raises(ValueError):
        parse_table_meld("HQ HK HA", ace_high=False)
    assert meld_ok(row("HA H2 H3", False), False)
    assert fit(row("HJ HQ HK", False), card_id("HA"), False) == FIT_NONE
    assert fit(row("H2 H3 H4", False), card_id("HA"), False) == FIT_LOW
    assert fit(row("HJ HQ HK", False), JOKER, False) == FIT_LOW          # no room above the king
    melds, n = contract("C5 D5 H5", "HJ HQ HK HA")
    assert contract_ok(melds, n, 2, True) and not contract_ok(melds, n, 2, False)
    # in play -- round 2; seat 0: HJ HQ HK HA C4 D4 S4 D9; stock: C2
    # ace=low: J-Q-K is one card short of a run of 4 (d = 1); HA is useless and goes.
    params = quiet(strategy(3), 1, 2)
    r = play(["HJ HQ HK HA C4 D4 S4 D9", "CA D10", "C5 D6"], "C2 S2", "D7", "ace=low", "turn_limit=1",
             round_no=2, params=params)
    assert moves(r) == ["0 draws C2 from stock", "0 discards HA"]
    assert exact_contract("HJ HQ HK HA C4 D4 S4 D9 C2", 2, ace_high=False) == -1


def test_2_8_ace_high_or_low_default():
    r = play(["HJ HQ HK HA C4 D4 S4 D9", "CA D10", "C5 D6"], "C2 S2", "D7", "turn_limit=1",
             round_no=2, params=quiet(strategy(3), 1, 2))
    assert moves(r) == ["0 draws C2 from stock", "0 lays down HJ HQ HK HA | C4 D4 S4", "0 discards D9"]


def test_2_8_must_discard_to_go_out_true():
    # 2.6 position, stock H9: H8 is laid off but H9 may not be (it would empty the hand):
    # H9 is the final discard
    r = play(["H8", "CA D10", "JK C9"], "H9 C2", "D3", "must_discard_to_go_out=true", params=_no_buy(),
             **GOING_OUT)
    assert moves(r) == ["0 draws H9 from stock", "0 lays off H8 on 0", "0 discards H9"]
    assert summary(r) == ("win", 0, "none", [0, 25, 34])
    # round 1; seat 0: C5 D5 H5 C9 D9 H9; stock: S9. Without the rule it lays everything
    # down (two sets, four 9s) and is out without a discard; with it, one card is kept back
    # to throw: the lowest id that leaves a contract, C9.
    hands = ["C5 D5 H5 C9 D9 H9", "CA D10", "C4 D6"]
    r = play(hands, "S9 S2", "D3")
    assert moves(r) == ["0 draws S9 from stock", "0 lays down C5 D5 H5 | C9 D9 H9 S9"]
    assert summary(r) == ("win", 0, "one_turn_no_joker", [-50, 25, 10])
    r = play(hands, "S9 S2", "D3", "must_discard_to_go_out=true")
    assert moves(r) == ["0 draws S9 from stock", "0 lays down C5 D5 H5 | D9 H9 S9", "0 discards C9"]
    assert summary(r) == ("win", 0, "one_turn_no_joker", [-50, 25, 10])


@pytest.mark.parametrize("pair, with_joker, without", [("-10/-30", -10, -30), ("0/0", 0, 0), ("5/-100", 5, -100)])
def test_2_8_one_turn_bonus_any_pair(pair, with_joker, without):
    assert tuple(rules(3, f"one_turn_bonus={pair}")[[SR_BONUS, SR_BONUS_NO_JOKER]]) == (with_joker, without)
    r = play(*ONE_TURN, f"one_turn_bonus={pair}")
    assert summary(r) == ("win", 0, "one_turn_no_joker", [without, 25, 10])
    r = play(*ONE_TURN_JOKER, f"one_turn_bonus={pair}")
    assert summary(r) == ("win", 0, "one_turn", [with_joker, 25, 10])


def test_2_8_turn_limit_any_positive_integer():
    # the stop watch: three turns of quiet play, then everyone scores the hand held
    # seat 0: CK DQ  seat 1: C4 D6  seat 2: C8 D10; stock: C2 S3 H7
    r = play(["CK DQ", "C4 D6", "C8 D10"], "C2 S3 H7 S2", "D9", "turn_limit=3",
             params=quiet(strategy(3), 0, 1, 2))
    # seat 0 throws DQ (ties with CK at 10: the higher id); seat 1 with S3: all ranks single,
    # throws its highest, D6; seat 2 with H7: throws D10
    assert moves(r) == ["0 draws C2 from stock", "0 discards DQ", "1 draws S3 from stock", "1 discards D6",
                        "2 draws H7 from stock", "2 discards D10"]
    assert summary(r) == ("turn_limit", -1, "none", [12, 7, 15])
    assert r["turns"] == 3
    # whole games with a small cap: no round is longer
    round_rows, _, _ = play_games(3, 3, "turn_limit=12")
    assert round_rows[:, K.RW_TURNS].max() == 12
    capped = round_rows[:, K.RW_OUTCOME] == OUT_TURN_LIMIT
    assert capped.any() and (round_rows[capped, K.RW_TURNS] == 12).all()
    assert (round_rows[capped, K.RW_WINNER] == -1).all()


# ====================================================================== 3.x
def test_3_1_upcard_taken_is_never_discarded_nor_a_copy():
    # round 1; seat 0 (a taker): HK C2 D2 H2; pile: HK (another copy of HK)
    # After taking it: three 2s and two kings (d = 1). Throwing a king would cost least
    # (a card of the second set, worth 10) but both kings are copies of the upcard: a 2 goes.
    params = taker(quiet(strategy(3), 1, 2), 0)
    r = play(["HK C2 D2 H2", "CA D10", "C4 D6"], "C3 S2", "HK", "turn_limit=1", params=params)
    assert moves(r) == ["0 draws HK from discard", "0 discards H2"]
    assert r["hands"][0] == ["C2", "D2", "HK", "HK"]
    # the same with SK in hand instead of HK: SK is not a copy, and goes
    r = play(["SK C2 D2 H2", "CA D10", "C4 D6"], "C3 S2", "HK", "turn_limit=1", params=params)
    assert moves(r) == ["0 draws HK from discard", "0 discards SK"]
    # the random bot, which discards uniformly among what it may, never throws H9 back
    params = quiet(strategy(3, "random", "greedy", "greedy"), 1, 2)
    took = 0
    for seed in range(30):
        r = play(["H9 C2 D3", "CA D10", "C4 D6"], "C5 S2", "H9", "turn_limit=1", seed=seed, params=params)
        ev = moves(r)
        if ev[0] == "0 draws H9 from discard":
            took += 1
            assert ev[-1] != "0 discards H9" and r["hands"][0].count("H9") == 2
    assert took > 0


def test_3_1_holding_only_copies_of_the_upcard_it_cannot_be_taken():
    # seat 0 (a taker): H9; pile: H9. Taken, it would leave nothing that may be thrown.
    params = taker(quiet(strategy(3), 1, 2), 0)
    r = play(["H9", "CA D10", "C4 D6"], "C4 S2", "H9", "turn_limit=1", params=params)
    assert moves(r) == ["0 draws C4 from stock", "0 discards H9"]
    r = play(["H9 H9", "CA D10", "C4 D6"], "C4 S2", "H9", "turn_limit=1", params=params)
    assert moves(r)[0] == "0 draws C4 from stock"


def test_3_1_upcard_may_be_laid_down_or_laid_off():
    # laid down -- round 1; seat 0: C5 D5 C9 D9 H9 C2 SK; pile: H5 (completes the 5s)
    params = quiet(strategy(3), 1, 2)
    r = play(["C5 D5 C9 D9 H9 C2 SK", "CA D10", "C4 D6"], "C3 S2", "H5", "turn_limit=1", params=params)
    assert moves(r) == ["0 draws H5 from discard", "0 lays down C5 D5 H5 | C9 D9 H9", "0 discards SK"]
    # laid off -- table 0 = 0: H5 H6 H7; seat 0 (down): SK C2; pile: H8
    r = play(["SK C2", "CA D10", "C4 D6"], "C3 S2", "H8", "turn_limit=1", table=[(0, "H5 H6 H7")],
             down={0: 1}, params=params)
    assert moves(r) == ["0 draws H8 from discard", "0 lays off H8 on 0", "0 discards SK"]
    assert r["hands"][0] == ["C2"]


def test_3_2_the_one_turn_bonus_allows_a_final_discard():
    # ONE_TURN: the contract, then SK thrown: still the bonus
    r = play(*ONE_TURN)
    assert moves(r)[-1] == "0 discards SK"
    assert summary(r) == ("win", 0, "one_turn_no_joker", [-50, 25, 10])
    r = play(*ONE_TURN_JOKER)
    assert moves(r)[-1] == "0 discards SK"
    assert summary(r) == ("win", 0, "one_turn", [-25, 25, 10])


def test_3_4_buying_never_triggers_a_reshuffle():
    # BUY3 with an empty stock and the pile C3 D4 H5: seats 1 and 2 want H5, but there is
    # no stock card for the penalty: no buy, and no reshuffle for one. Seat 0 then needs a
    # stock card: C3 and D4 are shuffled into the stock, H5 stays as the upcard.
    for seed in range(4):
        r = play(BUY3[0], "", "C3 D4 H5", "turn_limit=1", seed=seed, params=_buyers())
        ev = moves(r)
        assert len(ev) == 3 and sorted(ev[0].split()[1:]) == ["C3", "D4"]
        assert ev[1] == f"0 draws {ev[0].split()[1]} from stock" and ev[2] == "0 discards SK"
        assert r["hands"][1:] == [["C9", "S5"], ["CJ", "H5"]]
    # one stock card: no buy; seat 0 draws it, no reshuffle
    r = play(BUY3[0], "C2", "C3 D4 H5", "turn_limit=1", params=_buyers())
    assert moves(r) == ["0 draws C2 from stock", "0 discards SK"] and r["reshuffles"] == 0


def test_3_5_a_round_with_no_winner_still_counts_with_its_cause():
    # the 2.6 position: the round is recorded, with its cause and every seat's row
    r = play(["CK DQ", "C4 D6", "C8 D10"], "", "S6", params=quiet(strategy(3), 0, 1, 2))
    assert r["outcome"] == "stalemate_stock" and r["winner"] == -1
    assert [s[K.SS_SCORE] for s in r["seats"]] == [20, 10, 18]
    assert [s[K.SS_CARDS_LEFT] for s in r["seats"]] == [2, 2, 2]
    # whole games with one deck: buys drain the small stock and some rounds end with nothing
    # to draw. Every such round has its row, counts in the game, and scores everyone's hand.
    players, games = 4, 10
    round_rows, seat_rows, totals = play_games(players, games, "decks=1")
    assert len(round_rows) == games * 10
    empty = round_rows[:, K.RW_OUTCOME] == OUT_STALEMATE_STOCK
    assert empty.sum() > 0
    assert (round_rows[empty, K.RW_WINNER] == -1).all() and (round_rows[empty, K.RW_BONUS] == 0).all()
    assert (round_rows[empty, K.RW_TURNS] >= 0).all()
    assert (seat_rows[empty][:, :, K.SS_CARDS_LEFT] > 0).all()
    assert (seat_rows[empty][:, :, K.SS_SCORE] >= 2 * seat_rows[empty][:, :, K.SS_CARDS_LEFT]).all()
    assert (totals == seat_rows[:, :, K.SS_SCORE].reshape(games, 10, players).sum(axis=1)).all()


@pytest.mark.parametrize("players", [3, 5, 8])
def test_3_6_every_round_ends(players):
    # the greedy bots end every round by the rules, never by the cap
    round_rows, _, _ = play_games(players, 12)
    assert (round_rows[:, K.RW_OUTCOME] != OUT_TURN_LIMIT).all()
    assert np.isin(round_rows[:, K.RW_OUTCOME], [OUT_WIN, OUT_STALEMATE_STOCK, OUT_STALEMATE_BLOCKED]).all()
    # and whatever the bots do, the cap bounds a round
    round_rows, _, _ = play_games(players, 4, "turn_limit=40", names=("random",))
    assert round_rows[:, K.RW_TURNS].max() <= 40


def test_3_6_a_closed_table_is_bounded_by_the_turn_cap():
    # round 1; table: 0 = 0: C5 D5 H5   1 = 1: C9 D9 H9   2 = 2: CK DK HK (everyone is down)
    # seat 0: C2 D3   seat 1: C4 D6   seat 2: C7 D8   stock: H2 H3 H4   pile: S6
    # No card in play can ever be laid off and nobody may meld again: nobody can go out, and the
    # pile keeps refilling the stock. The cards the position does not name are out of play, but
    # ruling 3.7 counts them off the table (interpretation I.7): the other 5s, 9s and kings would
    # fit, so the table is not blocked (test_shanghai_blocked.py has blocked ones). The safety cap
    # of 2.6 ends the round, counted apart, everyone scoring their hand.
    r = play(["C2 D3", "C4 D6", "C7 D8"], "H2 H3 H4", "S6", "turn_limit=60",
             table=[(0, "C5 D5 H5"), (1, "C9 D9 H9"), (2, "CK DK HK")], down={0: 1, 1: 1, 2: 1})
    assert r["outcome"] == "turn_limit" and r["turns"] == 60 and r["winner"] == -1
    values = {"A": 15, "J": 10, "Q": 10, "K": 10}
    points = [sum(values.get(c[1:], 0) or int(c[1:]) for c in hand) for hand in r["hands"]]
    assert r["scores"] == points and all(len(hand) == 2 for hand in r["hands"])
