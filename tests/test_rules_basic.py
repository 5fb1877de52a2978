"""Basic Rummy, rule by rule: one test per rule and ruling of docs/rules.md.

Section 1 (1.1-1.7, every option of 1.7 with its default) and the rulings of
section 3 that apply to Basic Rummy (3.1, 3.2, 3.3, 3.5, 3.6). Each test is a
hand-built position played by ``rummysim.variants.basic.replay.play_position`` (or a kernel
called on small arrays), with the outcome, winner, points, going rummy, the
cards left and, where it matters, the exact sequence of moves written out.

Conventions
-----------
* Cards as in ``rummysim.cards``: ``H8``, ``SK``, ``D10``.
* A position is drawn in a comment: each seat's hand, the stock top card
  first, the discard pile bottom card first (the last one is the upcard) and
  the melds on the table, numbered in the order they were laid.
* Cards a position does not name are out of play; they still count as
  *reachable* for the ``blocked`` rule (1.5), so only the positions of 1.5
  care to place all 52 cards.
* Unless a test says otherwise every seat plays *greedy*: it takes the upcard
  only when it goes into a meld, melds and lays off at once (sets before runs,
  lowest card first), and discards the highest card in no meld and no partial
  meld (ties: the highest card id, so spades before hearts before diamonds
  before clubs). ``turn_limit=N`` is used as a stop watch to look at the
  first N turns of a position.
* ``moves(result)`` writes the events as short lines, e.g.
  ``"0 draws H5 from discard"``, ``"1 lays off S9 on 0"`` (table meld 0).
"""

from __future__ import annotations

import numpy as np
import pytest

from rummysim.cards import FULL_DECK_MASK, card_id, card_name, cards_of, mask_of
from rummysim.variants.basic import kernel as K
from rummysim.variants.basic import bots as B
from rummysim.engine import melds as M
from rummysim.engine import codes as C
from rummysim.variants.basic import state as S
from rummysim.engine.rng import KIND_DEAL, shuffle, stream_key
from rummysim.variants.basic.replay import play_position, trace_hand
from rummysim.base.rules import parse_rule_options
from rummysim.variants.basic.rules import BasicRules
from rummysim.strategy import params_matrix, seat_strategies
from positions import moves
from rummysim.variants import VARIANTS

BASIC = VARIANTS["basic"]

pytestmark = pytest.mark.engine

U64 = np.uint64


# ----------------------------------------------------------------- helpers
def rules(players: int, *options: str) -> np.ndarray:
    return parse_rule_options(BASIC, list(options)).to_array(players)


def strategy(players: int, *names: str) -> np.ndarray:
    return params_matrix(seat_strategies(list(names) or ["greedy"], players, BASIC))


def taker(players: int) -> np.ndarray:
    """Greedy, except that it always takes the upcard (draw mode 'gain' with a gain no hand misses)."""
    params = strategy(players)
    params[:, B.P_DRAW] = 2
    params[:, B.P_DRAW_GAIN] = -1000
    return params


def play(hands, stock="", pile="", *options, table=(), first=0, seed=0, has_played=(), params=None) -> dict:
    players = len(hands)
    return play_position(players, list(hands), stock, pile, rules(players, *options),
                         strategy(players) if params is None else params,
                         table=list(table), first=first, seed=seed, has_played=tuple(has_played))


def reshuffle_events(result: dict) -> list[list[str]]:
    return [e["stock"] for e in result["events"] if e["event"] == "reshuffle"]


def m(text: str) -> np.uint64:
    return mask_of(text)


def names(mask) -> set[str]:
    return {card_name(c) for c in cards_of(int(mask))}


def table_layoffs(meld_text: str, ace_high: bool = False) -> set[str]:
    kind, tm = M.table_meld_of(m(meld_text), ace_high)
    return names(M.layoff_cards(U64(tm), np.int64(kind), ace_high))


def run_games(players, games, *options, names_=("greedy",), single_hand=False, capacity=256, seed=7):
    r = rules(players, *options)
    params = strategy(players, *names_)
    g = np.arange(games, dtype=np.int64)
    hand_rows = np.zeros((games * capacity, K.HAND_COLS), dtype=np.int32)
    seat_rows = np.zeros((games * capacity, players, K.SEAT_COLS), dtype=np.int32)
    game_rows = np.zeros((games, 2 + players), dtype=np.int32)
    n_hands = np.zeros(games, dtype=np.int64)
    K.play_games(seed, g, players, r, params, M.CARD_VALUE, single_hand, capacity,
                 hand_rows, seat_rows, game_rows, n_hands)
    assert (n_hands <= capacity).all()
    return hand_rows, seat_rows, game_rows, n_hands


# ====================================================================== 1.1
@pytest.mark.parametrize("players, each, stock_left", [(2, 10, 31), (3, 7, 30), (4, 7, 23)])
def test_1_1_deal_sizes_upcard_and_stock(players, each, stock_left):
    """2-4 players, one 52-card deck, no jokers; 10 cards each with 2, 7 with 3-4;
    the next card is the upcard, the rest the stock (with the card after the upcard on top)."""
    for seed, game, hand in [(0, 0, 0), (1, 5, 3), (2024, 17, 9)]:
        hands = np.zeros(players, dtype=np.uint64)
        stock = np.zeros(64, dtype=np.int64)
        upcard, n_stock = K.deal(seed, game, hand, players, hands, stock,
                                 np.zeros(64, dtype=np.int64), np.zeros(1, dtype=np.uint64))
        assert n_stock == stock_left
        assert [M.popcount(U64(h)) for h in hands] == [each] * players
        # every card of the one deck exactly once: hands, upcard, stock
        seen = 0
        for h in hands:
            assert seen & int(h) == 0
            seen |= int(h)
        for c in [int(upcard), *stock[:n_stock].tolist()]:
            assert 0 <= c % 16 < 13 and c < 64
            assert not seen >> c & 1
            seen |= 1 << c
        assert seen == int(FULL_DECK_MASK)
        # the same shuffled deck, dealt one card at a time from the dealer's left:
        deck = np.array([16 * s + r for s in range(4) for r in range(13)], dtype=np.int64)
        shuffle(np.array([stream_key(seed, game, hand, KIND_DEAL, 0)], dtype=np.uint64), deck, 52)
        dealer = K.dealer_of(game, hand, players)
        n = each * players
        for i in range(n):
            assert int(hands[(dealer + 1 + i) % players]) >> int(deck[i]) & 1
        assert upcard == deck[n]                       # the next card face up
        assert stock[n_stock - 1] == deck[n + 1]       # then the stock, its next card on top
        assert sorted(stock[:n_stock].tolist()) == sorted(deck[n + 1:].tolist())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_1_1_left_of_dealer_starts_and_deal_passes_left(players):
    """The player left of the dealer (next seat) starts; the deal passes left each hand."""
    for game in range(3):
        dealers = [K.dealer_of(game, h, players) for h in range(2 * players)]
        for h in range(1, len(dealers)):
            assert dealers[h] == (dealers[h - 1] + 1) % players
        assert sorted(dealers[:players]) == list(range(players))   # everyone deals in turn
        for h in range(players):
            state = K.new_state(players, rules(players), M.CARD_VALUE, np.zeros((0, K.EV_WIDTH), np.int16),
                                np.zeros(1, np.int64))
            assert K.start_hand(state, 11, game, h, np.zeros((players, 1), dtype=np.uint64)) == (dealers[h] + 1) % players
            events = trace_hand(11, game, h, players, rules(players), strategy(players))
            assert events[0]["event"] == "deal" and events[0]["dealer"] == dealers[h]
            assert [len(x) for x in events[0]["hands"]] == [K.CARDS_DEALT[players]] * players
            assert events[1]["event"] == "draw" and events[1]["player"] == (dealers[h] + 1) % players
    # whole games: every hand's row names its dealer and starter, and the deal moves on by one
    hand_rows, _, _, n_hands = run_games(players, 3)
    for i in range(3):
        rows = hand_rows[i * 256: i * 256 + n_hands[i]]
        for h, row in enumerate(rows):
            assert row[K.H_DEALER] == K.dealer_of(i, h, players)
            assert row[K.H_STARTER] == (row[K.H_DEALER] + 1) % players


# ====================================================================== 1.2
def test_1_2_sets_are_three_or_four_of_a_rank():
    assert M.is_meld(m("C8 D8 H8"), False)
    assert M.is_meld(m("C8 D8 H8 S8"), False)
    assert M.is_meld(m("CK HK SK"), False)
    assert not M.is_meld(m("C8 D8"), False)          # two cards are no meld
    assert not M.is_meld(m("C8 D8 H9"), False)       # mixed ranks, mixed suits
    assert not M.is_meld(m("C8 D8 H8 S9"), False)


def test_1_2_runs_three_or_more_of_a_suit_aces_low_no_wraparound():
    assert M.is_meld(m("H4 H5 H6"), False)
    assert M.is_meld(m("HA H2 H3"), False)                                  # A-2-3 is a run
    assert M.is_meld(m("SA S2 S3 S4 S5 S6 S7 S8 S9 S10 SJ SQ SK"), False)   # 13 long
    assert not M.is_meld(m("HQ HK HA"), False)                              # Q-K-A is not
    assert not M.is_meld(m("HK HA H2"), False)                              # K-A-2 is not
    assert not M.is_meld(m("SJ SQ SK SA S2"), False)                        # no wrap-around
    assert not M.is_meld(m("H4 H5 D6"), False)                              # one suit
    assert not M.is_meld(m("H4 H5 H7"), False)                              # consecutive
    assert not M.is_meld(m("H4 H5"), False)                                 # three or more


def test_1_2_exactly_329_melds_264_runs_65_sets():
    out = np.zeros(512, dtype=np.uint64)
    n = M.list_melds(FULL_DECK_MASK, False, out)
    melds = [int(x) for x in out[:n]]
    assert n == 329 and len(set(melds)) == 329
    sets = [x for x in melds if len({c % 16 for c in cards_of(x)}) == 1]
    runs = [x for x in melds if len({c // 16 for c in cards_of(x)}) == 1]
    assert len(sets) == 65 and len(runs) == 264
    # independent count: a meld lies inside one suit (run) or one rank (set); try every subset
    found = set()
    for suit in range(4):
        for sub in range(1 << 13):
            mask = sub << (16 * suit)
            if M.is_meld(U64(mask), False):
                found.add(mask)
    for rank in range(13):
        for sub in range(16):
            mask = sum(1 << (16 * s + rank) for s in range(4) if sub >> s & 1)
            if mask and M.is_meld(U64(mask), False):
                found.add(mask)
    assert found == set(melds)


# ====================================================================== 1.3
def test_1_3_draw_top_of_stock_or_top_of_discard_pile():
    # seat 0: C2 C5 D5 SK        seat 1: D9 HQ
    # stock (top first): C7 S3   discard pile (bottom first): H2 H5  -> upcard H5
    # Seat 0 takes the upcard H5 (not H2 under it) for the set of fives; seat 1
    # then finds SK on the pile, useless to it, and draws the top of the stock.
    r = play(["C5 D5 SK C2", "D9 HQ"], "C7 S3", "H2 H5", "turn_limit=2")
    assert moves(r) == [
        "0 draws H5 from discard", "0 melds C5 D5 H5", "0 discards SK",
        "1 draws C7 from stock", "1 discards HQ",
    ]
    assert r["hands"] == [["C2"], ["C7", "D9"]]
    assert r["outcome"] == "turn_limit" and r["seats"][0][K.S_DISCARD_DRAWS] == 1


def test_1_3_meld_any_number_of_melds_in_one_turn():
    # seat 0: C2 C5 D5 H5 S9 S10 SJ CK   seat 1: D9 HQ
    # stock: D8 S3   pile: H2
    r = play(["C5 D5 H5 S9 S10 SJ CK C2", "D9 HQ"], "D8 S3", "H2", "turn_limit=1")
    assert moves(r) == [
        "0 draws D8 from stock", "0 melds C5 D5 H5", "0 melds S9 S10 SJ", "0 discards CK",
    ]
    assert r["hands"][0] == ["C2", "D8"]
    assert r["seats"][0][K.S_MELDS_LAID] == 2


def test_1_3_lay_off_on_any_meld_even_without_having_melded():
    # seat 0: S9 C4 D6                 seat 1: C9 D9 H9 DK C2   (seat 1 plays first)
    # stock: H8 S2 C10   pile: S3
    # Seat 1 melds the nines; seat 0, who never melded, lays S9 off on seat 1's meld.
    r = play(["S9 C4 D6", "C9 D9 H9 DK C2"], "H8 S2 C10", "S3", "turn_limit=2", first=1)
    assert moves(r) == [
        "1 draws H8 from stock", "1 melds C9 D9 H9", "1 discards DK",
        "0 draws S2 from stock", "0 lays off S9 on 0", "0 discards D6",
    ]
    assert r["hands"] == [["C4", "S2"], ["C2", "H8"]]
    assert r["seats"][0][K.S_MELDS_LAID] == 0 and r["seats"][0][K.S_CARDS_LAID_OFF] == 1


def test_1_3_lay_off_keeps_melds_valid_run_grows_at_either_end_set_at_most_four():
    # table: 0 = C9 D9 H9   1 = H4 H5 H6
    # seat 0: C2 CK H2 H3 H7 S9        seat 1: D10 SQ
    # stock: D8 C6   pile: S4
    # H3 goes below the run, then H2 below that, H7 above it; S9 makes the set four.
    r = play(["S9 H3 H2 H7 CK C2", "D10 SQ"], "D8 C6", "S4", "turn_limit=1",
             table=["C9 D9 H9", "H4 H5 H6"])
    assert moves(r) == [
        "0 draws D8 from stock", "0 lays off H3 on 1", "0 lays off H2 on 1",
        "0 lays off H7 on 1", "0 lays off S9 on 0", "0 discards CK",
    ]
    assert r["hands"][0] == ["C2", "D8"]
    # what each table meld accepts
    assert table_layoffs("C9 D9 H9") == {"S9"}
    assert table_layoffs("C9 D9 H9 S9") == set()               # a set holds at most 4
    assert table_layoffs("H4 H5 H6") == {"H3", "H7"}           # a run grows at either end
    assert table_layoffs("H2 H3 H4 H5 H6 H7") == {"HA", "H8"}
    assert table_layoffs("DA D2 D3") == {"D4"}                 # nothing below the ace
    assert table_layoffs("DJ DQ DK") == {"D10"}                # nothing above the king (aces low)


def test_1_3_melds_and_layoffs_in_any_order():
    # table: 0 = C9 D9 H9
    # seat 0 (random bot): H4 H5 H6 H7 S9 CK    seat 1: D2 D3
    # stock: C3 D7   pile: S2
    # The random bot picks uniformly among every legal meld, lay-off and "stop":
    # the engine must accept a lay-off before a meld, and a lay-off onto a meld
    # laid earlier in the same turn.
    params = strategy(2, "random", "greedy")
    layoff_first = layoff_on_new_meld = 0
    for seed in range(80):
        r = play(["H4 H5 H6 H7 S9 CK", "D2 D3"], "C3 D7", "S2", "turn_limit=1",
                 table=["C9 D9 H9"], seed=seed, params=params)
        kinds = [e["event"] for e in r["events"] if e["event"] in ("meld", "layoff")]
        if "meld" in kinds and "layoff" in kinds and kinds.index("layoff") < kinds.index("meld"):
            layoff_first += 1
        if any(e["event"] == "layoff" and e["meld"] == 1 for e in r["events"]):
            layoff_on_new_meld += 1
    assert layoff_first > 0 and layoff_on_new_meld > 0


def test_1_3_going_out_by_the_final_discard():
    # seat 0: H4 H5 CK   seat 1: D9 S2   stock: H6 C3   pile: C8
    # seat 0 has melded before (no rummy): meld H4 H5 H6, discard CK, empty.
    r = play(["H4 H5 CK", "D9 S2"], "H6 C3", "C8", has_played=(0,))
    assert moves(r) == ["0 draws H6 from stock", "0 melds H4 H5 H6", "0 discards CK"]
    assert (r["outcome"], r["winner"], r["points"], r["going_rummy"]) == ("win", 0, 11, False)
    assert r["hands"] == [[], ["D9", "S2"]]


def test_1_3_going_out_without_discard():
    # by a meld -- seat 0: H4 H5 H6   seat 1: D9 S2   stock: H7 C3   pile: C8
    r = play(["H4 H5 H6", "D9 S2"], "H7 C3", "C8", has_played=(0,))
    assert moves(r) == ["0 draws H7 from stock", "0 melds H4 H5 H6 H7"]
    assert (r["outcome"], r["winner"], r["points"], r["turns"]) == ("win", 0, 11, 1)
    assert r["hands"] == [[], ["D9", "S2"]]
    # by a lay-off -- table: 0 = C9 D9 H9; seat 0: H4 H5 H6; seat 1: D10 S2; stock: S9 C3
    r = play(["H4 H5 H6", "D10 S2"], "S9 C3", "C8", has_played=(0,), table=["C9 D9 H9"])
    assert moves(r) == ["0 draws S9 from stock", "0 melds H4 H5 H6", "0 lays off S9 on 0"]
    assert (r["outcome"], r["winner"], r["points"]) == ("win", 0, 12)
    # by lay-offs alone -- table: 0 = H4 H5 H6; seat 0: H7; seat 1: D10 S2; stock: H8 C3
    r = play(["H7", "D10 S2"], "H8 C3", "C8", has_played=(0,), table=["H4 H5 H6"])
    assert moves(r) == ["0 draws H8 from stock", "0 lays off H7 on 0", "0 lays off H8 on 0"]
    assert (r["outcome"], r["winner"], r["points"]) == ("win", 0, 12)


def test_1_3_going_out_ends_the_hand_at_once():
    # seat 0: H4 H5 CK   seat 1: C9 D9   seat 2: H9 S9
    # stock: H6 S8 C7   pile: C2
    # Seat 0 goes out in turn 1; seats 1 and 2 (who would meld nines with the
    # next cards) get no further turn.
    r = play(["H4 H5 CK", "C9 D9", "H9 S9"], "H6 S8 C7", "C2", has_played=(0,))
    assert moves(r) == ["0 draws H6 from stock", "0 melds H4 H5 H6", "0 discards CK"]
    assert r["turns"] == 1 and r["events"][-1]["event"] == "end"
    assert (r["outcome"], r["winner"], r["points"]) == ("win", 0, 36)
    assert r["hands"] == [[], ["C9", "D9"], ["H9", "S9"]]


def test_1_3_no_play_leaves_the_discard_pile_card_alone_in_hand():
    # seat 0 (always takes the upcard): C5 D5 H5   seat 1: DK SQ   stock: C7 S3   pile: H9
    # Melding the fives would leave only H9, which could not be discarded:
    # no meld is offered, and a five is discarded instead (H5, highest id).
    r = play(["C5 D5 H5", "DK SQ"], "C7 S3", "H9", "turn_limit=1", params=taker(2))
    assert moves(r) == ["0 draws H9 from discard", "0 discards H5"]
    assert r["hands"][0] == ["C5", "D5", "H9"]
    # the same with a lay-off -- table: 0 = H4 H5 H6; seat 0: H7; pile: DK
    r = play(["H7", "D10 SQ"], "C7 S3", "DK", "turn_limit=1", table=["H4 H5 H6"], params=taker(2))
    assert moves(r) == ["0 draws DK from discard", "0 discards H7"]
    assert r["hands"][0] == ["DK"]
    # the random bot, which picks among all the moves it is offered, never melds here
    # (no stock: it must take the upcard; the empty stock then ends the hand)
    for seed in range(30):
        r = play(["C5 D5 H5", "DK SQ"], "", "H9", "reshuffles=0", seed=seed,
                 params=strategy(2, "random"))
        assert [x["event"] for x in r["events"]] == ["draw", "discard", "end"]
        assert r["events"][1]["card"] in ("C5", "D5", "H5") and "H9" in r["hands"][0]


# ====================================================================== 1.4
# seat 0: CA D3   seat 1: H5 S7   stock: C9 DJ   pile: HK S2
# No meld can ever be made from these eight cards, but the cards out of play
# keep the hand from being blocked (1.5): only the stock can end it.
RUN_OUT = (["CA D3", "H5 S7"], "C9 DJ", "HK S2")


def test_1_4_reshuffle_once_then_stalemate():
    r = play(*RUN_OUT)
    ev = moves(r)
    assert ev[:4] == ["0 draws C9 from stock", "0 discards C9", "1 draws DJ from stock", "1 discards DJ"]
    # turn 2 drew the last stock card: at its end the whole pile becomes the stock
    (new_stock,) = reshuffle_events(r)
    assert sorted(new_stock) == sorted(["HK", "S2", "C9", "DJ"]) and ev[4].startswith("reshuffle")
    # the next player draws from it, top first, until it runs out a second time
    draws = [e for e in r["events"][5:] if e["event"] == "draw"]
    assert [(d["player"], d["source"], d["card"]) for d in draws] == [
        (0, "stock", new_stock[0]), (1, "stock", new_stock[1]),
        (0, "stock", new_stock[2]), (1, "stock", new_stock[3]),
    ]
    # seed 0 shuffles to HK DJ C9 S2; the last turn keeps S2 and throws S7
    assert ev[5:] == ["0 draws HK from stock", "0 discards HK", "1 draws DJ from stock", "1 discards DJ",
                      "0 draws C9 from stock", "0 discards C9", "1 draws S2 from stock", "1 discards S7"]
    assert (r["outcome"], r["winner"], r["points"], r["going_rummy"]) == ("stalemate_stock", -1, 0, False)
    assert (r["turns"], r["reshuffles"]) == (6, 1)
    assert r["hands"] == [["CA", "D3"], ["H5", "S2"]]


def test_1_4_no_reshuffle_when_the_last_stock_card_goes_out():
    # seat 0: H4 H5 CK   seat 1: D9 S2   stock: H6 (the last card)   pile: C8
    r = play(["H4 H5 CK", "D9 S2"], "H6", "C8", has_played=(0,))
    assert moves(r) == ["0 draws H6 from stock", "0 melds H4 H5 H6", "0 discards CK"]
    assert (r["outcome"], r["winner"], r["points"], r["reshuffles"]) == ("win", 0, 11, 0)


def test_1_4_going_out_when_the_stock_runs_out_a_second_time_wins():
    # seat 0: C2 H6   seat 1: H4 H5   stock: D3 (one card)   pile: empty
    # Turn 1 empties the stock; seat 0's discard H6 is the whole pile and so the
    # whole new stock. Turn 2 draws it (the second run-out) and goes out with it:
    # somebody went out in that turn, so it is a win, not a stalemate.
    r = play(["C2 H6", "H4 H5"], "D3", "", has_played=(1,))
    assert moves(r) == ["0 draws D3 from stock", "0 discards H6", "reshuffle H6",
                        "1 draws H6 from stock", "1 melds H4 H5 H6"]
    assert (r["outcome"], r["winner"], r["points"], r["reshuffles"]) == ("win", 1, 5, 1)
    assert r["hands"] == [["C2", "D3"], []]


# ====================================================================== 1.5
def test_1_5_blocked_everyone_holds_one_card():
    # table: 0 = CK DK HK SK   1 = CQ DQ HQ SQ   2 = CJ DJ HJ SJ   3 = C10 D10 H10 S10
    # seat 0: C2   seat 1: D5   stock: H7 S9   pile: C4
    # Four full sets take no lay-off; once seat 0 is back to one card, nobody
    # can ever finish: with one discard a turn a hand never exceeds two cards.
    table = ["CK DK HK SK", "CQ DQ HQ SQ", "CJ DJ HJ SJ", "C10 D10 H10 S10"]
    r = play(["C2", "D5"], "H7 S9", "C4", table=table)
    assert moves(r) == ["0 draws H7 from stock", "0 discards H7"]
    assert (r["outcome"], r["winner"], r["points"], r["turns"]) == ("stalemate_blocked", -1, 0, 1)
    assert r["hands"] == [["C2"], ["D5"]]
    # with a set of three kings instead, SK (in the stock) can still be laid off: not blocked
    table[0] = "CK DK HK"
    r = play(["C2", "D5"], "H7 S9 SK", "C4", "turn_limit=1", table=table)
    assert moves(r) == ["0 draws H7 from stock", "0 discards H7"]
    assert r["outcome"] == "turn_limit"


# Every card placed. Reachable (off the table): C3 C9 D9 DJ H3 HJ -- no three
# of them form a meld; and every card that would extend a table meld is itself
# on the table (e.g. the end cards of the runs sit in the sets).
FROZEN_TABLE = ["CA DA HA", "C2 D2 H2", "C4 H4 S4", "C5 C6 C7", "C8 D8 S8", "C10 D10 H10",
                "CJ CQ CK", "D3 D4 D5 D6 D7", "DQ HQ SQ", "DK HK SK", "H5 H6 H7 H8 H9",
                "SA S2 S3", "S5 S6 S7", "S9 S10 SJ"]


def test_1_5_blocked_no_three_reachable_cards_form_a_meld():
    # table: the 14 melds of FROZEN_TABLE (46 cards)
    # seat 0: C3 DJ   seat 1: D9   stock: H3 HJ   pile: C9
    # Seat 0 keeps two cards, so the one-card clause does not apply; but nothing
    # can be laid off and no meld can be made from the reachable cards.
    opts = rules(2)
    opts[S.R_CHECK] = 1  # all 52 cards placed: verify each is in exactly one place, move by move
    r = play_position(2, ["C3 DJ", "D9"], "H3 HJ", "C9", opts, strategy(2), table=FROZEN_TABLE)
    assert moves(r) == ["0 draws H3 from stock", "0 discards DJ"]
    assert (r["outcome"], r["winner"], r["points"], r["turns"]) == ("stalemate_blocked", -1, 0, 1)
    assert r["hands"] == [["C3", "H3"], ["D9"]]


def test_1_5_blocked_needs_no_lay_off_and_one_card_hands_or_no_reachable_meld():
    table = m(" ".join(FROZEN_TABLE))
    frozen_layable = U64(0)
    for meld in FROZEN_TABLE:
        kind, tm = M.table_meld_of(m(meld), False)
        frozen_layable |= M.layoff_cards(U64(tm), np.int64(kind), False)
    assert frozen_layable & ~table == 0                        # nothing reachable extends the table

    def hands(*texts):
        return np.array([m(t) if t else U64(0) for t in texts], dtype=np.uint64)

    assert M.blocked(table, frozen_layable, hands("C3 H3", "D9"), 2, False)
    assert M.blocked(table, frozen_layable, hands("C3 H3 C9", "D9 DJ HJ"), 2, False)
    # one reachable card that extends a table meld: never blocked
    assert not M.blocked(table, frozen_layable | m("C9"), hands("C3", "D9"), 2, False)
    # an empty table: no lay-off; blocked only while every hand holds at most one card
    empty = U64(0)
    assert M.blocked(empty, empty, hands("C3", "D9", "HK"), 3, False)
    assert not M.blocked(empty, empty, hands("C3 C4", "D9"), 2, False)


def test_1_5_turn_limit_safety_cap():
    # the RUN_OUT position with unlimited reshuffles never ends by itself
    r = play(*RUN_OUT, "reshuffles=unlimited", "turn_limit=7")
    assert (r["outcome"], r["winner"], r["points"], r["turns"]) == ("turn_limit", -1, 0, 7)
    assert r["outcome"] not in ("stalemate_stock", "stalemate_blocked")   # counted apart


# ====================================================================== 1.6
def test_1_6_winner_takes_all_sum_of_every_opponents_cards():
    # seat 0: H4 H5 CK   seat 1: CA D10 HJ (1+10+10)   seat 2: C7 SQ SK (7+10+10)
    # stock: H6 C3   pile: D2; seat 0 melded before, so no rummy.
    r = play(["H4 H5 CK", "CA D10 HJ", "SQ SK C7"], "H6 C3", "D2", has_played=(0,))
    assert moves(r) == ["0 draws H6 from stock", "0 melds H4 H5 H6", "0 discards CK"]
    assert (r["outcome"], r["winner"], r["points"], r["going_rummy"]) == ("win", 0, 48, False)
    assert [row[K.S_VALUE_LEFT] for row in r["seats"]] == [0, 21, 27]
    assert [row[K.S_CARDS_LEFT] for row in r["seats"]] == [0, 3, 3]


def test_1_6_going_rummy_scores_double_first_turn_counts():
    # the same position, but seat 0 has laid nothing down yet: it goes out in its first turn
    r = play(["H4 H5 CK", "CA D10 HJ", "SQ SK C7"], "H6 C3", "D2")
    assert moves(r) == ["0 draws H6 from stock", "0 melds H4 H5 H6", "0 discards CK"]
    assert (r["outcome"], r["winner"], r["points"], r["going_rummy"], r["turns"]) == ("win", 0, 96, True, 1)


def test_1_6_going_rummy_after_holding_melds_for_several_turns():
    # seat 0 (rummy-seeker): H4 H5 H6 C9 D9   seat 1 (greedy): CA C3 D10 HJ S5
    # stock: S2 HQ H9   pile: SK
    # Turn 1: seat 0 holds its run (it could not go out) and throws S2.
    # Turn 3: with H9 it lays both melds down in one turn and goes out: rummy.
    r = play(["H4 H5 H6 C9 D9", "CA C3 D10 HJ S5"], "S2 HQ H9", "SK",
             params=strategy(2, "rummy-seeker", "greedy"))
    assert moves(r) == [
        "0 draws S2 from stock", "0 discards S2",
        "1 draws HQ from stock", "1 discards D10",
        "0 draws H9 from stock", "0 melds C9 D9 H9", "0 melds H4 H5 H6",
    ]
    # seat 1 keeps CA C3 HJ HQ S5 = 1+3+10+10+5 = 29, doubled
    assert (r["outcome"], r["winner"], r["points"], r["going_rummy"], r["turns"]) == ("win", 0, 58, True, 3)
    assert r["hands"] == [[], ["CA", "C3", "HJ", "HQ", "S5"]]


def test_1_6_no_rummy_after_melding_in_an_earlier_turn():
    # seat 0: H4 H5 H6 C9 D9   seat 1: CA D10 HJ   stock: S2 HQ H9   pile: SK
    r = play(["H4 H5 H6 C9 D9", "CA D10 HJ"], "S2 HQ H9", "SK")
    assert moves(r) == [
        "0 draws S2 from stock", "0 melds H4 H5 H6", "0 discards S2",
        "1 draws HQ from stock", "1 discards D10",
        "0 draws H9 from stock", "0 melds C9 D9 H9",
    ]
    assert (r["outcome"], r["winner"], r["points"], r["going_rummy"]) == ("win", 0, 21, False)
    assert r["hands"] == [[], ["CA", "HJ", "HQ"]]


def test_1_6_no_rummy_after_laying_off_in_an_earlier_turn():
    # table: 0 = C9 D9 H9
    # seat 0: C5 D5 S9 CK   seat 1: CA D10 HJ   stock: D2 HQ H5   pile: SQ
    r = play(["S9 C5 D5 CK", "CA D10 HJ"], "D2 HQ H5", "SQ", table=["C9 D9 H9"])
    assert moves(r) == [
        "0 draws D2 from stock", "0 lays off S9 on 0", "0 discards CK",
        "1 draws HQ from stock", "1 discards D10",
        "0 draws H5 from stock", "0 melds C5 D5 H5", "0 discards D2",
    ]
    assert (r["outcome"], r["winner"], r["points"], r["going_rummy"]) == ("win", 0, 21, False)


def test_1_6_stalemate_nobody_scores():
    r = play(*RUN_OUT)
    assert (r["outcome"], r["winner"], r["points"]) == ("stalemate_stock", -1, 0)
    # in whole games, a hand that is not won adds nothing to anyone's score
    hand_rows, _, game_rows, n_hands = run_games(4, 6, "reshuffles=0")
    stalemates = 0
    for i in range(6):
        rows = hand_rows[i * 256: i * 256 + n_hands[i]]
        stalemates += int((rows[:, K.H_OUTCOME] != C.OUT_WIN).sum())
        assert (rows[rows[:, K.H_OUTCOME] != C.OUT_WIN][:, K.H_POINTS] == 0).all()
        for q in range(4):
            won = rows[(rows[:, K.H_OUTCOME] == C.OUT_WIN) & (rows[:, K.H_WINNER] == q)]
            assert game_rows[i, 2 + q] == won[:, K.H_POINTS].sum()
    assert stalemates > 0


@pytest.mark.parametrize("players, target", [(2, 100), (3, 150), (4, 200)])
def test_1_6_game_to_100_150_200_by_players_winner_takes_all(players, target):
    assert BasicRules().target_for(players) == target
    games = 4
    hand_rows, _, game_rows, n_hands = run_games(players, games)
    for i in range(games):
        rows = hand_rows[i * 256: i * 256 + n_hands[i]]
        assert game_rows[i, 1] == n_hands[i]
        scores = np.zeros(players, dtype=np.int64)
        for h, row in enumerate(rows):
            assert scores.max() < target                      # nobody had reached it before
            if row[K.H_OUTCOME] == C.OUT_WIN:
                scores[row[K.H_WINNER]] += row[K.H_POINTS]    # only the hand's winner scores
        assert list(game_rows[i, 2:]) == scores.tolist()
        winner = game_rows[i, 0]
        assert scores[winner] >= target and rows[-1][K.H_WINNER] == winner
        assert (np.delete(scores, winner) < target).all()    # one player scores a hand: no tie


# ====================================================================== 1.7
def test_1_7_max_melds_per_turn_default_unlimited():
    assert BasicRules().max_melds_per_turn is None and rules(2)[S.R_MAX_MELDS] == 0
    r = play(["C5 D5 H5 S9 S10 SJ CK C2", "D9 HQ"], "D8 S3 H7 C10", "H2", "turn_limit=1")
    assert moves(r) == ["0 draws D8 from stock", "0 melds C5 D5 H5", "0 melds S9 S10 SJ", "0 discards CK"]


def test_1_7_max_melds_per_turn_1():
    # seat 0: C2 C5 D5 H5 S9 S10 SJ CK   seat 1: D9 HQ   stock: D8 S3 H7 C10   pile: H2
    # One meld a turn: the run waits for seat 0's next turn.
    r = play(["C5 D5 H5 S9 S10 SJ CK C2", "D9 HQ"], "D8 S3 H7 C10", "H2",
             "max_melds_per_turn=1", "turn_limit=3")
    assert moves(r) == [
        "0 draws D8 from stock", "0 melds C5 D5 H5", "0 discards CK",
        "1 draws S3 from stock", "1 discards HQ",
        "0 draws H7 from stock", "0 melds S9 S10 SJ", "0 discards D8",
    ]
    assert r["hands"] == [["C2", "H7"], ["D9", "S3"]]


def test_1_7_ace_low_default():
    assert BasicRules().ace == "low" and rules(2)[S.R_ACE_HIGH] == 0
    # seat 0: HQ HK HA   seat 1: D9 S2   stock: C2 C3   pile: C8 -- Q-K-A is no meld
    r = play(["HQ HK HA", "D9 S2"], "C2 C3", "C8", "turn_limit=1", has_played=(0,))
    assert moves(r) == ["0 draws C2 from stock", "0 discards C2"]
    assert r["outcome"] == "turn_limit" and r["hands"][0] == ["HA", "HQ", "HK"]
    assert table_layoffs("HJ HQ HK") == {"H10"}


def test_1_7_ace_high_or_low():
    r = play(["HQ HK HA", "D9 S2"], "C2 C3", "C8", "ace=high_or_low", has_played=(0,))
    assert moves(r) == ["0 draws C2 from stock", "0 melds HA HQ HK", "0 discards C2"]
    assert (r["outcome"], r["winner"], r["points"]) == ("win", 0, 11)
    # K-A-2 never; A-2-3 still; the ace goes on either end of a run but never turns the corner
    assert M.is_meld(m("HQ HK HA"), True) and M.is_meld(m("HA H2 H3"), True)
    assert M.is_meld(m("HJ HQ HK HA"), True)
    assert not M.is_meld(m("HK HA H2"), True) and not M.is_meld(m("HQ HK HA H2"), True)
    assert table_layoffs("HJ HQ HK", True) == {"H10", "HA"}
    assert table_layoffs("HQ HK HA", True) == {"HJ"}
    assert table_layoffs("H2 H3 H4", True) == {"HA", "H5"}
    # a lay-off of the ace on top of J-Q-K makes J-Q-K-A, which then takes only the ten
    kind, tm = M.table_meld_of(m("HJ HQ HK"), True)
    grown = M.grow_meld(U64(tm), np.int64(kind), card_id("HA"), True)
    assert names(M.layoff_cards(U64(grown), np.int64(kind), True)) == {"H10"}
    # position: table 0 = HJ HQ HK; seat 0: HA C5 D7; stock: S2 -- lays the ace off high
    r = play(["HA C5 D7", "D9 S2"], "C2 C3", "C8", "ace=high_or_low", "turn_limit=1",
             table=["HJ HQ HK"])
    assert moves(r) == ["0 draws C2 from stock", "0 lays off HA on 0", "0 discards D7"]
    # 40 more runs ending in the high ace (Q-K-A ... 2-K-A; 2-..-A is A-..-K again)
    out = np.zeros(512, dtype=np.uint64)
    assert M.list_melds(FULL_DECK_MASK, True, out) == 329 + 40


def test_1_7_reshuffles_default_1():
    assert BasicRules().reshuffles == 1 and rules(2)[S.R_RESHUFFLES] == 1
    r = play(*RUN_OUT)
    assert (r["outcome"], r["reshuffles"], r["turns"]) == ("stalemate_stock", 1, 6)


def test_1_7_reshuffles_0_stalemate_at_the_first_run_out():
    r = play(*RUN_OUT, "reshuffles=0")
    assert moves(r) == ["0 draws C9 from stock", "0 discards C9", "1 draws DJ from stock", "1 discards DJ"]
    assert (r["outcome"], r["winner"], r["points"], r["reshuffles"], r["turns"]) == ("stalemate_stock", -1, 0, 0, 2)
    assert r["hands"] == [["CA", "D3"], ["H5", "S7"]]


def test_1_7_reshuffles_unlimited():
    assert rules(2, "reshuffles=unlimited")[S.R_RESHUFFLES] == -1
    # the pile holds four cards at every run-out: turns 2, 6, 10, ...
    r = play(*RUN_OUT, "reshuffles=unlimited", "turn_limit=12")
    assert (r["outcome"], r["reshuffles"], r["turns"]) == ("turn_limit", 3, 12)
    ev = moves(r)
    assert [i for i, e in enumerate(ev) if e.startswith("reshuffle")] == [4, 13, 22]
    r = play(*RUN_OUT, "reshuffles=2")
    assert (r["outcome"], r["reshuffles"], r["turns"]) == ("stalemate_stock", 2, 10)


# seat 0: CA D3   seat 1: D9 H9   stock: C9 (the last card)   pile: HK S2 DJ
# Turn 1: seat 0 draws C9 and throws it; the stock has run out, the pile is
# HK S2 DJ C9 (C9 on top), and C9 is the card seat 1 needs.
LAST_CARD = (["CA D3", "D9 H9"], "C9", "HK S2 DJ")


def test_1_7_reshuffle_mode_shuffle_all_default():
    assert BasicRules().reshuffle_mode == "shuffle_all" and rules(2)[S.R_RESHUFFLE_MODE] == 0
    orders = set()
    for seed in range(12):
        r = play(*LAST_CARD, "turn_limit=2", seed=seed)
        ev = moves(r)
        assert ev[:2] == ["0 draws C9 from stock", "0 discards C9"]
        (new_stock,) = reshuffle_events(r)
        assert sorted(new_stock) == ["C9", "DJ", "HK", "S2"]     # the whole pile, its top too
        orders.add(tuple(new_stock))
        assert r["events"][3] == {"event": "draw", "player": 1, "source": "stock", "card": new_stock[0]}
    assert len(orders) > 1                                       # it is shuffled


def test_1_7_reshuffle_mode_keep_top():
    for seed in range(6):
        r = play(*LAST_CARD, "reshuffle_mode=keep_top", seed=seed)
        (new_stock,) = reshuffle_events(r)
        assert sorted(new_stock) == ["DJ", "HK", "S2"]          # C9 stays as the upcard
        assert moves(r)[3:] == ["1 draws C9 from discard", "1 melds C9 D9 H9"]
        # seat 1 goes out in its first turn: rummy, CA D3 = 4 points doubled
        assert (r["outcome"], r["winner"], r["points"], r["going_rummy"]) == ("win", 1, 8, True)


def test_1_7_reshuffle_mode_turn_over():
    for seed in range(3):
        r = play(*LAST_CARD, "reshuffle_mode=turn_over", "turn_limit=2", seed=seed)
        # the pile turned face down, no shuffle: its bottom card HK is now the top of the stock
        assert moves(r) == ["0 draws C9 from stock", "0 discards C9", "reshuffle HK S2 DJ C9",
                            "1 draws HK from stock", "1 discards HK"]
        assert r["hands"] == [["CA", "D3"], ["D9", "H9"]]


def test_1_7_must_discard_to_go_out_default_false():
    assert BasicRules().must_discard_to_go_out is False and rules(2)[S.R_MUST_DISCARD] == 0
    # table: 0 = C9 D9 H9; seat 0: H4 H5 H6; seat 1: D10 S2; stock: S9 C3; pile: C8
    r = play(["H4 H5 H6", "D10 S2"], "S9 C3", "C8", table=["C9 D9 H9"], has_played=(0,))
    assert moves(r) == ["0 draws S9 from stock", "0 melds H4 H5 H6", "0 lays off S9 on 0"]
    assert (r["outcome"], r["winner"], r["points"]) == ("win", 0, 12)


def test_1_7_must_discard_to_go_out_true():
    # the same position: the lay-off that would empty the hand is not offered; S9 is the final discard
    r = play(["H4 H5 H6", "D10 S2"], "S9 C3", "C8", "must_discard_to_go_out=true",
             table=["C9 D9 H9"], has_played=(0,))
    assert moves(r) == ["0 draws S9 from stock", "0 melds H4 H5 H6", "0 discards S9"]
    assert (r["outcome"], r["winner"], r["points"]) == ("win", 0, 12)
    # seat 0: H4 H5 H6; stock: H7 -- laying down all four (out without a discard) is not
    # allowed; greedy lays the most valuable legal part, H5 H6 H7, and goes out discarding H4
    r = play(["H4 H5 H6", "D10 S2"], "H7 C3", "C8", "must_discard_to_go_out=true")
    assert moves(r) == ["0 draws H7 from stock", "0 melds H5 H6 H7", "0 discards H4"]
    assert (r["outcome"], r["winner"], r["points"], r["going_rummy"]) == ("win", 0, 24, True)  # (10 + 2) x 2
    # without the rule the same hand goes out by laying all four, no discard
    r = play(["H4 H5 H6", "D10 S2"], "H7 C3", "C8")
    assert moves(r) == ["0 draws H7 from stock", "0 melds H4 H5 H6 H7"]


# seat 0: H4 H5 CK   seat 1: D9 S2 (9+2)   stock: H6 C3   pile: C8 -- rummy with a discard
RUMMY = (["H4 H5 CK", "D9 S2"], "H6 C3", "C8")


def test_1_7_rummy_multiplier_default_2():
    assert BasicRules().rummy_multiplier == 2 and rules(2)[S.R_RUMMY_MULT] == 2
    r = play(*RUMMY)
    assert (r["outcome"], r["winner"], r["points"], r["going_rummy"]) == ("win", 0, 22, True)


@pytest.mark.parametrize("mult, points", [(1, 11), (3, 33), (5, 55)])
def test_1_7_rummy_multiplier_any_integer(mult, points):
    r = play(*RUMMY, f"rummy_multiplier={mult}")
    assert (r["outcome"], r["winner"], r["points"], r["going_rummy"]) == ("win", 0, points, True)
    # a winner who is not going rummy is not multiplied
    r = play(*RUMMY, f"rummy_multiplier={mult}", has_played=(0,))
    assert (r["points"], r["going_rummy"]) == (11, False)


def test_1_7_target_default_by_players():
    assert BasicRules().target is None
    assert [int(rules(p)[S.R_TARGET]) for p in (2, 3, 4)] == [100, 150, 200]


def test_1_7_target_any_positive_integer():
    assert int(rules(3, "target=40")[S.R_TARGET]) == 40
    hand_rows, _, game_rows, n_hands = run_games(3, 6, "target=40")
    for i in range(6):
        scores = game_rows[i, 2:]
        assert scores[game_rows[i, 0]] >= 40 and (np.delete(scores, game_rows[i, 0]) < 40).all()
        rows = hand_rows[i * 256: i * 256 + n_hands[i] - 1]
        before = np.zeros(3, dtype=np.int64)
        for row in rows:
            if row[K.H_OUTCOME] == C.OUT_WIN:
                before[row[K.H_WINNER]] += row[K.H_POINTS]
        assert before.max() < 40          # the game stopped at the first hand that reached 40


def test_1_7_turn_limit_default_1000():
    assert BasicRules().turn_limit == 1000 and rules(2)[S.R_TURN_LIMIT] == 1000
    r = play(*RUN_OUT, "reshuffles=unlimited")
    assert (r["outcome"], r["winner"], r["points"], r["turns"]) == ("turn_limit", -1, 0, 1000)


def test_1_7_turn_limit_any_positive_integer():
    r = play(*RUN_OUT, "reshuffles=unlimited", "turn_limit=3")
    assert (r["outcome"], r["turns"]) == ("turn_limit", 3)
    assert moves(r)[-2:] == ["0 draws HK from stock", "0 discards HK"]


# ====================================================================== 3.x
def test_3_1_discard_pile_card_never_discarded_same_turn():
    # seat 0 (always takes the upcard): C2   seat 1: D9 H4   stock: C7 S3   pile: D5 SK
    # Greedy would throw its highest card, SK; SK came from the pile, so C2 goes.
    r = play(["C2", "D9 H4"], "C7 S3", "D5 SK", "turn_limit=1", params=taker(2))
    assert moves(r) == ["0 draws SK from discard", "0 discards C2"]
    assert r["hands"][0] == ["SK"]
    # the random bot, forced to take the upcard (no stock), never throws it back
    for seed in range(20):
        r = play(["C2 D7 H9", "D9 H4"], "", "SK", "reshuffles=0", seed=seed, params=strategy(2, "random"))
        assert moves(r)[0] == "0 draws SK from discard"
        assert moves(r)[1] != "0 discards SK" and "SK" in r["hands"][0]


def test_3_1_discard_pile_card_may_be_melded_or_laid_off():
    # melded: seat 0: H4 H5 CK C2; pile: C8 H6 -- takes H6, melds it, throws CK
    r = play(["H4 H5 CK C2", "D9 S2"], "C3 S7", "C8 H6", "turn_limit=1")
    assert moves(r) == ["0 draws H6 from discard", "0 melds H4 H5 H6", "0 discards CK"]
    # laid off: table 0 = C9 D9 H9; seat 0 (always takes): C2 D4; pile: S9
    r = play(["C2 D4", "D10 H4"], "C3 S7", "S9", "turn_limit=1", table=["C9 D9 H9"], params=taker(2))
    assert moves(r) == ["0 draws S9 from discard", "0 lays off S9 on 0", "0 discards D4"]
    assert r["hands"][0] == ["C2"]


def test_3_2_going_rummy_allows_a_final_discard():
    r = play(*RUMMY)
    assert moves(r) == ["0 draws H6 from stock", "0 melds H4 H5 H6", "0 discards CK"]
    assert (r["outcome"], r["winner"], r["points"], r["going_rummy"]) == ("win", 0, 22, True)
    assert r["hands"] == [[], ["D9", "S2"]]


def test_3_3_no_upcard_after_a_shuffle_all_reshuffle():
    # LAST_CARD: seat 0's last discard C9 would complete seat 1's nines, but
    # after the reshuffle there is no upcard: seat 1 draws the top of the new stock.
    missed = 0
    for seed in range(12):
        r = play(*LAST_CARD, "turn_limit=2", seed=seed)
        (new_stock,) = reshuffle_events(r)
        draw = r["events"][3]
        assert (draw["player"], draw["source"], draw["card"]) == (1, "stock", new_stock[0])
        if new_stock[0] != "C9":
            missed += 1
            assert r["outcome"] == "turn_limit" and "C9" not in r["hands"][1]
        else:
            assert (r["outcome"], r["winner"]) == ("win", 1)
    assert missed > 0


def test_3_5_stalemate_counts_as_a_hand_with_its_cause():
    # a stalemate still has its per-seat rows: cards and points left, melds, lay-offs
    r = play(*RUN_OUT, "reshuffles=0")
    assert r["outcome"] == "stalemate_stock"
    assert r["seats"] == [[2, 4, 0, 0, 0], [2, 12, 0, 0, 0]]
    r = play(["C2", "D5"], "H7 S9", "C4",
             table=["CK DK HK SK", "CQ DQ HQ SQ", "CJ DJ HJ SJ", "C10 D10 H10 S10"])
    assert r["outcome"] == "stalemate_blocked" and r["seats"] == [[1, 2, 0, 0, 0], [1, 5, 0, 0, 0]]
    # in whole games every stalemate is a recorded hand: counted, with its cause, its turns, its seats
    players, games = 4, 6
    hand_rows, seat_rows, game_rows, n_hands = run_games(players, games, "reshuffles=0")
    seen = 0
    for i in range(games):
        assert game_rows[i, 1] == n_hands[i]
        for h in range(n_hands[i]):
            row = hand_rows[i * 256 + h]
            assert row[K.H_GAME] == i and row[K.H_HAND] == h and row[K.H_TURNS] > 0
            if row[K.H_OUTCOME] == C.OUT_STALEMATE_STOCK:
                seen += 1
                assert row[K.H_WINNER] == -1 and row[K.H_POINTS] == 0 and row[K.H_RESHUFFLES] == 0
                seats = seat_rows[i * 256 + h]
                assert (seats[:, K.S_CARDS_LEFT] > 0).all()
                assert (seats[:, K.S_VALUE_LEFT] >= seats[:, K.S_CARDS_LEFT]).all()
            # the next hand is dealt by the next seat, stalemate or not
            if h + 1 < n_hands[i]:
                assert hand_rows[i * 256 + h + 1][K.H_DEALER] == (row[K.H_DEALER] + 1) % players
    assert seen > 0


@pytest.mark.parametrize("options", [(), ("reshuffles=0",), ("reshuffle_mode=keep_top",),
                                     ("reshuffle_mode=turn_over",), ("ace=high_or_low",),
                                     ("max_melds_per_turn=1", "must_discard_to_go_out=true")])
@pytest.mark.parametrize("players", [2, 4])
def test_3_6_every_hand_ends(players, options):
    # random bots: they rarely go out, so the stock rules must end the hand; never the cap
    hand_rows, _, _, _ = run_games(players, 300, *options, names_=("random",), single_hand=True,
                                   capacity=1)
    assert (hand_rows[:, K.H_OUTCOME] != C.OUT_TURN_LIMIT).all()
    assert (hand_rows[:, K.H_TURNS] > 0).all()
    # the greedy bots, with unlimited reshuffles: bounded by the turn cap all the same
    hand_rows, _, _, _ = run_games(players, 100, "reshuffles=unlimited", "turn_limit=200",
                                   single_hand=True, capacity=1)
    assert (hand_rows[:, K.H_TURNS] <= 200).all()
