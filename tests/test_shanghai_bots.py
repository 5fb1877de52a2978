"""Shanghai Rummy bots, key by key (``rummysim.variants.shanghai.bots``, ``spec.SPEC``).

For every key of a Shanghai strategy file that changes a decision, a hand-built
position in which the policy ``bots.choose(state, params, seat, scratch)`` is
asked for its move, and the exact move (an action of ``moves``: a card id to
discard, ``TAKE_UPCARD``/``LEAVE_UPCARD``, ``BUY``/``PASS``, ``CONTRACT``/``STOP``,
``LAYOFF_BASE + c * MAX_TABLE + k``, ``SWAP_BASE + (c * MAX_TABLE + k) * MAX_TABLE + k2``) is
asserted, with the key at one value and at another that gives the other move.
Every seat is *greedy* (``strategies/shanghai/greedy.toml``) with the keys a test
names set by ``with_override``.

Conventions (as in ``test_rules_shanghai.py``)
----------------------------------------------
* Cards as in ``rummysim.cards``; ``JK`` a joker. Card ids run C, D, H, S, so
  "highest id" means spades first.
* ``position(...)`` builds a ``State`` directly at one decision point
  (``phase``): seat ``seat`` to act, seat ``turn`` on turn (the same unless a buy
  is offered); the upcard is the pile's last card; ``own_turns`` the turns seat
  ``seat`` completed this round (its current turn is ``own_turns + 1``);
  ``down`` seat -> the own turn on which it went down.
* The distance to the contract (``bots.distance``, module docstring of ``bots``)
  is checked where a position relies on it ("d = n").

Also here: the distance measure's bounds and its witness property.
"""

from __future__ import annotations

import numpy as np
import pytest

from rummysim.cards import card_id
from rummysim.base.rules import parse_rule_options
from rummysim.strategy import load_strategy, params_matrix, with_override
from rummysim.variants.shanghai import bots as B
from rummysim.variants.shanghai import moves as M
from rummysim.variants.shanghai.contracts import CONTRACTS, MAX_RUN_CANDIDATES, RUN_COLS, SOLVER_WORK, best_contract
from rummysim.variants.shanghai.replay import parse_table_meld
from rummysim.variants.shanghai.state import (
    I_PHASE, I_PROPOSAL_N, I_SEAT, I_TURN_SEAT, JOKER, MAX_TABLE, PH_BUY, PH_DISCARD, PH_PLAY, PH_UPCARD, SI_BUYS_SEAT,
    SI_DOWN_TURN_SEAT, SI_DRAWN, SI_N_TABLE, SI_OWN_TURNS_SEAT, SI_PILE_N, SI_RESHUFFLES, SI_ROUND, SI_STOCK_N,
    SR_ACE_HIGH, T_JOKERS, T_OWNER,
)
from rummysim.variants import VARIANTS

SHANGHAI = VARIANTS["shanghai"]

pytestmark = pytest.mark.engine

GREEDY = load_strategy("greedy", SHANGHAI)
STOCK = "C2 S2 H4 C3 D8"


# ----------------------------------------------------------------- helpers
def bot(*settings: str):
    """Greedy with some keys set, e.g. ``bot("draw.min_gain=2")``."""
    s = GREEDY
    for setting in settings:
        key, text = setting.split("=", 1)
        s = with_override(s, key, text, SHANGHAI)
    return s


def counts_of(text: str) -> np.ndarray:
    counts = np.zeros(64, dtype=np.int64)
    for t in text.split():
        counts[card_id(t, allow_joker=True)] += 1
    return counts


def dist(text: str, round_no: int) -> int:
    return int(B.distance(counts_of(text), round_no, True))


def position(round_no: int, hands: list[str], phase: int, *, seat: int = 0, turn: int | None = None,
             pile: str = "D3", stock: str = STOCK, table=(), down=None, buys=None, own_turns=0,
             reshuffles: int = 0, drawn: str | None = None, options=(), seed: int = 0):
    """A ``State`` at decision ``phase`` of ``seat`` (and a seeded ``BotScratch``)."""
    players = len(hands)
    rules = parse_rule_options(SHANGHAI, list(options)).to_array(players)
    state = M.new_state(players, rules, np.zeros((0, M.EV_WIDTH), dtype=np.int16))
    ints = state.ints
    ints[SI_ROUND] = round_no
    for p, h in enumerate(hands):
        state.hands[p] = counts_of(h)
    for k, (owner, text) in enumerate(table):
        state.table[k] = parse_table_meld(text, bool(rules[SR_ACE_HIGH]))
        state.table[k, T_OWNER] = owner
    ints[SI_N_TABLE] = len(table)
    stock_ids = [card_id(t, allow_joker=True) for t in stock.split()][::-1]
    pile_ids = [card_id(t, allow_joker=True) for t in pile.split()]
    state.stock[:len(stock_ids)] = stock_ids
    state.pile[:len(pile_ids)] = pile_ids
    ints[SI_STOCK_N], ints[SI_PILE_N] = len(stock_ids), len(pile_ids)
    ints[SI_OWN_TURNS_SEAT + seat] = own_turns
    for p, t in (down or {}).items():
        ints[SI_DOWN_TURN_SEAT + p] = t
        ints[SI_OWN_TURNS_SEAT + p] = max(int(ints[SI_OWN_TURNS_SEAT + p]), t)
    for p, n in (buys or {}).items():
        ints[SI_BUYS_SEAT + p] = n
    ints[SI_RESHUFFLES] = reshuffles
    ints[SI_DRAWN] = -1 if drawn is None else card_id(drawn, allow_joker=True)
    ints[I_PHASE] = phase
    ints[I_SEAT] = seat
    ints[I_TURN_SEAT] = seat if turn is None else turn
    scratch = B.new_scratch(players)
    B.seed_streams(scratch, seed, 0, round_no)
    return state, scratch


def ask(strategy, round_no: int, hands: list[str], phase: int, *, seat: int = 0, **kw) -> int:
    """The move of ``seat`` playing ``strategy`` (the others greedy) in the position."""
    state, scratch = position(round_no, hands, phase, seat=seat, **kw)
    seats = [GREEDY] * len(hands)
    seats[seat] = strategy
    return int(B.choose(state, params_matrix(seats), seat, scratch))


def cid(name: str) -> int:
    return card_id(name, allow_joker=True)


def layoff(card: str, k: int) -> int:
    return M.LAYOFF_BASE + cid(card) * MAX_TABLE + k


def swap(card: str, k: int, k2: int) -> int:
    return M.SWAP_BASE + (cid(card) * MAX_TABLE + k) * MAX_TABLE + k2


def test_helpers_build_a_legal_position_and_the_greedy_vector():
    state, _ = position(1, ["C5 D5 H5 JK JK", "C4 D6"], PH_UPCARD, pile="D3 S9")
    assert state.hands[0, JOKER] == 2 and state.pile[state.ints[SI_PILE_N] - 1] == cid("S9")
    out = np.zeros(M.MAX_LEGAL, dtype=np.int64)
    assert sorted(out[:M.legal_moves(state, out)]) == [M.TAKE_UPCARD, M.LEAVE_UPCARD]
    changed = params_matrix([bot("draw.min_gain=3", "buy.keep=0"), GREEDY])
    assert np.flatnonzero(changed[0] != changed[1]).tolist() == [B.SP_DRAW_GAIN, B.SP_BUY_KEEP]


# ============================================================ draw.min_gain
# round 1 (two sets)   seat 0: C5 D5 H5 JK JK    seat 1: C4 D6    upcard S9 (pile D3 S9)
# d = 3: the fives are a set, the second set has no natural (a meld keeps at least
# as many naturals as jokers); with S9 the jokers make S9 JK JK: d = 1, a gain of 2.
# With C7 too (C5 D5 H5 C7 JK JK, d = 1) the upcard H7 gains 1 (C7 H7 JK: d = 0).
GAIN2 = dict(hands=["C5 D5 H5 JK JK", "C4 D6"], pile="D3 S9")
GAIN1 = dict(hands=["C5 D5 H5 C7 JK JK", "C4 D6"], pile="D3 H7")


def test_draw_min_gain_above_1():
    assert (dist("C5 D5 H5 JK JK", 1), dist("C5 D5 H5 JK JK S9", 1)) == (3, 1)
    assert (dist("C5 D5 H5 C7 JK JK", 1), dist("C5 D5 H5 C7 JK JK H7", 1)) == (1, 0)
    assert ask(bot("draw.min_gain=2"), 1, phase=PH_UPCARD, **GAIN2) == M.TAKE_UPCARD
    assert ask(bot("draw.min_gain=3"), 1, phase=PH_UPCARD, **GAIN2) == M.LEAVE_UPCARD
    assert ask(bot("draw.min_gain=1"), 1, phase=PH_UPCARD, **GAIN1) == M.TAKE_UPCARD
    assert ask(bot("draw.min_gain=2"), 1, phase=PH_UPCARD, **GAIN1) == M.LEAVE_UPCARD
    assert ask(bot("draw.mode=never"), 1, phase=PH_UPCARD, **GAIN2) == M.LEAVE_UPCARD


# ============================================================= buy.min_gain
# the same hands for seat 1, offered the upcard seat 0 (on turn, seat 2 discarded it) left
def _buy_pos(hand: str, pile: str, round_no: int = 1, **kw) -> dict:
    return dict(round_no=round_no, hands=["C4 D6", hand, "H10 HJ"], phase=PH_BUY, seat=1, turn=0,
                pile=pile, **kw)


def test_buy_min_gain_above_1():
    assert ask(bot("buy.min_gain=2"), **_buy_pos("C5 D5 H5 JK JK", "D3 S9")) == M.BUY
    assert ask(bot("buy.min_gain=3"), **_buy_pos("C5 D5 H5 JK JK", "D3 S9")) == M.PASS
    assert ask(bot("buy.min_gain=1"), **_buy_pos("C5 D5 H5 C7 JK JK", "D3 H7")) == M.BUY
    assert ask(bot("buy.min_gain=2"), **_buy_pos("C5 D5 H5 C7 JK JK", "D3 H7")) == M.PASS
    assert ask(bot("buy.mode=never"), **_buy_pos("C5 D5 H5 JK JK", "D3 S9")) == M.PASS


# ================================================================= buy.keep
# a gain-1 upcard in rounds 1, 7, 8 and 10 for seat 1; max_buys 4 (default)
KEEP_HANDS = {
    1: ("C5 D5 C9 D9 H2", "D3 H5"),                                    # two sets
    7: ("H2 H3 H4 C5 C6 C7 C8 D9 D10 DJ DQ", "D3 H5"),                 # three runs of 4
    8: ("H2 H3 H4 H5 H6 H7 H8 H9 C5 D5", "D3 H10"),                    # a set, a run of 10
    10: ("H2 H3 H4 H5 C6 C7 C8 C9 C10 D9 D10 DJ DQ", "D3 H6"),         # three runs of 5
}


def _keep(strategy, round_no: int, used: int) -> int:
    hand, pile = KEEP_HANDS[round_no]
    return ask(strategy, **_buy_pos(hand, pile, round_no, buys={1: used}))


@pytest.mark.parametrize("round_no", sorted(KEEP_HANDS))
def test_buy_keep_hands_gain_one(round_no):
    hand, pile = KEEP_HANDS[round_no]
    assert dist(hand, round_no) - dist(hand + " " + pile.split()[-1], round_no) == 1


@pytest.mark.parametrize("round_no", [1, 7])
def test_buy_keep_holds_buys_in_reserve_in_rounds_1_to_7(round_no):
    # 3 of 4 buys used: keep 1 passes, keep 0 buys; 2 used: keep 1 buys, keep 2 passes
    assert _keep(bot("buy.keep=1"), round_no, 3) == M.PASS
    assert _keep(bot("buy.keep=0"), round_no, 3) == M.BUY
    assert _keep(bot("buy.keep=1"), round_no, 2) == M.BUY
    assert _keep(bot("buy.keep=2"), round_no, 2) == M.PASS


@pytest.mark.parametrize("round_no", [8, 10])
def test_buy_keep_is_not_applied_from_round_8(round_no):
    # the contract of rounds 8-10 needs buys: the reserve is spent (any keep buys the 4th)
    for keep in (0, 1, 3, 100):
        assert _keep(bot(f"buy.keep={keep}"), round_no, 3) == M.BUY
    # the rule's limit still holds: with all 4 buys used the seat is never offered one,
    # and the policy itself refuses
    assert _keep(bot("buy.keep=0"), round_no, 4) == M.PASS


# =========================================================== buy.from_round
def test_buy_from_round():
    hand, pile = KEEP_HANDS[7]
    assert ask(bot("buy.from_round=7"), **_buy_pos(hand, pile, 7)) == M.BUY
    assert ask(bot("buy.from_round=8"), **_buy_pos(hand, pile, 7)) == M.PASS
    hand, pile = KEEP_HANDS[1]
    assert ask(bot("buy.from_round=1"), **_buy_pos(hand, pile, 1)) == M.BUY
    assert ask(bot("buy.from_round=2"), **_buy_pos(hand, pile, 1)) == M.PASS


# ============================================================ buy.max_cards
def test_buy_max_cards():
    # seat 1 holds 11 cards (round 7's hand): never buys holding max_cards or more; 0: no limit
    hand, pile = KEEP_HANDS[7]
    assert len(hand.split()) == 11
    assert ask(bot("buy.max_cards=11"), **_buy_pos(hand, pile, 7)) == M.PASS
    assert ask(bot("buy.max_cards=12"), **_buy_pos(hand, pile, 7)) == M.BUY
    assert ask(bot("buy.max_cards=0"), **_buy_pos(hand, pile, 7)) == M.BUY


def test_a_seat_that_is_down_never_buys():
    hand, pile = KEEP_HANDS[1]
    assert ask(bot("buy.keep=0"), **_buy_pos(hand, pile, 1, down={1: 1})) == M.PASS


# ================================================================ down.mode
# round 1, seat 0 in its play step (it drew), seat 1: C4 D6 H8, seat 2: CA D10 S3 S4
# seat 0: C5 D5 H5 C9 D9 H9 SK S2: the contract leaves SK S2, it cannot go out this turn
# seat 0: C5 D5 H5 C9 D9 H9 SK: the contract and the SK discard empty the hand
WAITS = "C5 D5 H5 C9 D9 H9 SK S2"
GOES_OUT = "C5 D5 H5 C9 D9 H9 SK"
OTHERS = ["C4 D6 H8", "CA D10 S3 S4"]


def _down(strategy, hand: str = WAITS, others=OTHERS, **kw) -> int:
    return ask(strategy, 1, [hand, *others], PH_PLAY, **kw)


def test_down_mode_one_turn_waits_for_a_turn_it_can_go_out():
    assert _down(bot("down.mode=at_once")) == M.CONTRACT
    assert _down(bot("down.mode=one_turn")) == M.STOP
    assert _down(bot("down.mode=one_turn"), GOES_OUT) == M.CONTRACT
    assert _down(bot("down.mode=at_once"), GOES_OUT) == M.CONTRACT


def test_down_mode_one_turn_lays_a_laying_that_goes_out():
    state, scratch = position(1, [GOES_OUT, *OTHERS], PH_PLAY)
    params = params_matrix([bot("down.mode=one_turn"), GREEDY, GREEDY])
    assert B.choose(state, params, 0, scratch) == M.CONTRACT
    # the laying is in the proposal buffer: the two sets, legal as proposed
    assert state.ints[I_PROPOSAL_N] == 2 and M.is_legal(state, M.CONTRACT)


def test_down_abandon_turn():
    # own turn own_turns + 1: abandon_turn=5 gives up waiting in its 5th turn, not its 4th
    one_turn = ("down.mode=one_turn",)
    assert _down(bot(*one_turn, "down.abandon_turn=5"), own_turns=4) == M.CONTRACT
    assert _down(bot(*one_turn, "down.abandon_turn=5"), own_turns=3) == M.STOP
    assert _down(bot(*one_turn, "down.abandon_turn=6"), own_turns=4) == M.STOP
    assert _down(bot(*one_turn, "down.abandon_turn=1"), own_turns=0) == M.CONTRACT
    assert _down(bot(*one_turn, "down.abandon_turn=0"), own_turns=50) == M.STOP


def test_down_abandon_opponent_down():
    one_turn = ("down.mode=one_turn",)
    table = [(2, "CA DA HA"), (2, "S3 S4 S5")]
    others = ["C4 D6 H8", "D10"]
    assert _down(bot(*one_turn, "down.abandon_opponent_down=yes"), others=others, table=table,
                 down={2: 1}) == M.CONTRACT
    assert _down(bot(*one_turn, "down.abandon_opponent_down=no"), others=others, table=table,
                 down={2: 1}) == M.STOP
    # nobody down yet: the trigger does not fire
    assert _down(bot(*one_turn, "down.abandon_opponent_down=yes")) == M.STOP


def test_down_abandon_opponent_cards():
    # seat 1 holds 3 cards, seat 2 four: the trigger fires at 3 or more, not at 2 nor -1
    one_turn = ("down.mode=one_turn",)
    assert _down(bot(*one_turn, "down.abandon_opponent_cards=3")) == M.CONTRACT
    assert _down(bot(*one_turn, "down.abandon_opponent_cards=4")) == M.CONTRACT
    assert _down(bot(*one_turn, "down.abandon_opponent_cards=2")) == M.STOP
    assert _down(bot(*one_turn, "down.abandon_opponent_cards=-1")) == M.STOP
    # only opponents count: seat 0's own 8 cards do not fire it at 8 (the others hold 9)
    nine = ["C4 D6 H8 S8 C10 D10 H10 S10 HJ", "CA D2 S3 S4 D4 C6 C7 C8 DJ"]
    assert _down(bot(*one_turn, "down.abandon_opponent_cards=8"), others=nine) == M.STOP
    assert _down(bot(*one_turn, "down.abandon_opponent_cards=9"), others=nine) == M.CONTRACT


# =============================================================== jokers.swap
# seat 0 down (turn 1), its play step: H6 SK     table: 0 = 0: C9 D9 S9   1 = 1: H5 JK H7
# H6 takes the joker's place in meld 1; the freed joker goes to meld 0 (the first that takes it)
SWAP_HANDS = ["H6 SK", "D2 H10", "C4 D6"]
SWAP_TABLE = [(0, "C9 D9 S9"), (1, "H5 JK H7")]


def test_jokers_swap():
    kw = dict(table=SWAP_TABLE, down={0: 1}, own_turns=1)
    assert ask(bot("jokers.swap=yes"), 1, SWAP_HANDS, PH_PLAY, **kw) == swap("H6", 1, 0)
    assert ask(bot("jokers.swap=no"), 1, SWAP_HANDS, PH_PLAY, **kw) == M.STOP
    # the rule off (2.8 joker_swap=false): no swap whatever the key
    assert ask(bot("jokers.swap=yes"), 1, SWAP_HANDS, PH_PLAY, options=("joker_swap=false",), **kw) == M.STOP


# ===================================================== jokers.swap_to_go_down
# round 1, seat 0 not down, its play step: C9 D9 S9 C4 D4 H6 SK   table: 0 = 1: H5 JK H7
# no contract from the hand; H6 for the joker (docs/rules.md 3.8) makes C4 D4 JK the second set
def swap_down(card: str, k: int) -> int:
    return M.SWAP_DOWN_BASE + cid(card) * MAX_TABLE + k


def test_jokers_swap_to_go_down():
    hands = ["C9 D9 S9 C4 D4 H6 SK", "D2 H10", "C4 D6"]
    kw = {"table": [(1, "H5 JK H7")], "down": {1: 1}}
    anyone = ("joker_swap=anyone",)
    assert ask(bot("jokers.swap_to_go_down=yes"), 1, hands, PH_PLAY, options=anyone, **kw) == swap_down("H6", 0)
    assert ask(bot("jokers.swap_to_go_down=no"), 1, hands, PH_PLAY, options=anyone, **kw) == M.STOP
    # the rule at its default (only players who have gone down swap): no swap whatever the key
    assert ask(bot("jokers.swap_to_go_down=yes"), 1, hands, PH_PLAY, **kw) == M.STOP
    # after the swap the bot lays the contract, the joker in it
    state, scratch = position(1, hands, PH_PLAY, options=anyone, **kw)
    M.apply(state, swap_down("H6", 0))
    params = params_matrix([bot("jokers.swap_to_go_down=yes"), GREEDY, GREEDY])
    assert B.choose(state, params, 0, scratch) == M.CONTRACT
    n = state.ints[I_PROPOSAL_N]
    assert state.melds[:n, T_JOKERS].sum() == 1 and M.is_legal(state, M.CONTRACT)
    # jokers.contract=fewest would lay no joker it can spare; after the swap it must lay one
    state, scratch = position(1, ["C9 D9 S9 C4 D4 S4 H6", "D2 H10", "C4 D6"], PH_PLAY, options=anyone, **kw)
    M.apply(state, swap_down("H6", 0))
    params = params_matrix([bot("jokers.contract=fewest"), GREEDY, GREEDY])
    assert B.choose(state, params, 0, scratch) == M.CONTRACT and M.is_legal(state, M.CONTRACT)


# =============================================================== layoff.mode
# seat 0 down (turn 1), its play step; table 0 = 1: S2 S3 S4
# S5 C2 D7 H9: S5 lays off but three cards stay: when_going_out stops
# S5 H9: laying off S5 leaves H9 to discard: when_going_out lays it off too
def test_layoff_mode():
    kw = dict(table=[(1, "S2 S3 S4")], down={0: 1}, own_turns=1)
    assert ask(bot("layoff.mode=at_once"), 1, ["S5 C2 D7 H9", "C4 D6"], PH_PLAY, **kw) == layoff("S5", 0)
    assert ask(bot("layoff.mode=when_going_out"), 1, ["S5 C2 D7 H9", "C4 D6"], PH_PLAY, **kw) == M.STOP
    assert ask(bot("layoff.mode=when_going_out"), 1, ["S5 H9", "C4 D6"], PH_PLAY, **kw) == layoff("S5", 0)
    assert ask(bot("layoff.mode=at_once"), 1, ["S5 H9", "C4 D6"], PH_PLAY, **kw) == layoff("S5", 0)


# ================================================================= discard.*
# round 1, seat 0 not down, its discard step: the two sets C5 D5 H5 | C9 D9 H9 (d = 0) and extras;
# an extra's loss keeps d = 0, a set card's raises it: the choice is among the extras
SETS = "C5 D5 H5 C9 D9 H9 "


def _discard(strategy, extras: str, *, seed: int = 0, **kw) -> int:
    return ask(strategy, 1, [SETS + extras, "C4 D6"], PH_DISCARD, seed=seed, **kw)


def test_discard_mode_least_useful_keeps_connected_cards():
    # SQ SK D2: highest throws a 10 (SQ, SK tie on value: the highest id SK); least_useful counts
    # SQ and SK as connected (+10 each) and throws D2, the card with no connector
    assert _discard(bot("discard.mode=highest"), "SQ SK D2") == cid("SK")
    assert _discard(bot("discard.mode=least_useful"), "SQ SK D2") == cid("D2")
    # without the connector the two agree
    assert _discard(bot("discard.mode=least_useful"), "SK D2") == cid("SK")


def test_discard_avoid_feeding():
    # table 0 = 1: S10 SJ SQ; extras HK SK (10 each, tie -> SK, the highest id); SK fits meld 0
    kw = dict(table=[(1, "S10 SJ SQ")])
    assert _discard(bot("discard.avoid_feeding=0"), "HK SK", **kw) == cid("SK")
    assert _discard(bot("discard.avoid_feeding=1"), "HK SK", **kw) == cid("HK")
    # the bonus is weighed against the card's value: HK (10) fits 1: H10 HJ HQ, H2 (2) nothing;
    # HK scores -10 + avoid_feeding against H2's -2: thrown up to 7, kept from 9 on
    kw = dict(table=[(1, "H10 HJ HQ")])
    assert _discard(bot("discard.avoid_feeding=0"), "HK H2", **kw) == cid("HK")
    assert _discard(bot("discard.avoid_feeding=7"), "HK H2", **kw) == cid("HK")
    assert _discard(bot("discard.avoid_feeding=9"), "HK H2", **kw) == cid("H2")


def test_discard_tiebreak():
    # HK SK tie: highest_card always SK; random draws from the seat's stream: both occur, per seed
    picks = {s: _discard(bot("discard.tiebreak=random"), "HK SK", seed=s) for s in range(40)}
    assert {_discard(bot("discard.tiebreak=highest_card"), "HK SK", seed=s) for s in range(40)} == {cid("SK")}
    assert set(picks.values()) == {cid("HK"), cid("SK")}
    assert all(_discard(bot("discard.tiebreak=random"), "HK SK", seed=s) == picks[s] for s in range(0, 40, 7))


def test_discard_never_the_upcard_taken_jokers_last():
    # SK is the upcard taken this turn: D2 goes. With a joker held, any natural of the sets may
    # go (the joker fills its place, d stays 0): H9, the highest-valued (C9 D9 H9 tie: highest
    # id); the joker (25 points) is thrown last
    assert _discard(GREEDY, "SK D2", drawn="SK") == cid("D2")
    assert _discard(GREEDY, "JK D2") == cid("H9")
    assert _discard(GREEDY, "JK", drawn=None) != JOKER


def test_discards_after_three_reshuffles():
    # SK D2 extras. Up to two reshuffles: always SK (highest value). From three on card values
    # are ignored: ties (SK, D2 both keep d = 0) go to the stream, and one discard in four is a
    # uniform draw among the legal discards (a set card too).
    seeds = range(200)
    assert {_discard(GREEDY, "SK D2", reshuffles=2, seed=s) for s in seeds} == {cid("SK")}
    after = [_discard(GREEDY, "SK D2", reshuffles=3, seed=s) for s in seeds]
    extras = sum(c in (cid("SK"), cid("D2")) for c in after)
    assert cid("D2") in after and cid("SK") in after
    assert 0 < len(after) - extras < 50            # a set card: only from the uniform draw (~6/8 of 1/4)
    assert 40 <= after.count(cid("D2")) <= 120     # about half of the non-uniform 3/4 (plus 1/8 of 1/4)
    # the same seed gives the same discard; reshuffles=4 behaves as 3
    assert [_discard(GREEDY, "SK D2", reshuffles=3, seed=s) for s in range(10)] == after[:10]
    assert {_discard(GREEDY, "SK D2", reshuffles=4, seed=s) for s in seeds} >= {cid("SK"), cid("D2")}


def test_discards_after_three_reshuffles_once_down_ignore_values():
    # seat 0 down, table 0 = 1: S2 S3 S4: SK and D2 feed nothing; values ignored from 3 reshuffles
    kw = dict(table=[(1, "S2 S3 S4")], down={0: 1}, own_turns=1)
    seeds = range(100)
    hands = lambda: ["SK D2 S5", "C4 D6"]  # noqa: E731
    assert {ask(GREEDY, 1, hands(), PH_DISCARD, seed=s, **kw) for s in seeds} == {cid("SK")}
    after = {ask(GREEDY, 1, hands(), PH_DISCARD, seed=s, reshuffles=3, **kw) for s in seeds}
    assert {cid("SK"), cid("D2")} <= after


# ================================================== the distance measure

def _hands(seed: int, n: int, decks: int):
    rng = np.random.default_rng(seed)
    deck = np.array([16 * s + r for s in range(4) for r in range(13)] * decks + [63, 63])
    for _ in range(n):
        counts = np.zeros(64, dtype=np.int64)
        for c in rng.choice(deck, int(rng.integers(8, 20)), replace=False):
            counts[c] += 1
        yield counts, int(rng.integers(1, 11)), bool(rng.integers(0, 2))


@pytest.mark.parametrize("decks", [2, 3, 6])
def test_distance_stays_within_its_bounds_with_many_copies_of_a_card(decks):
    # levels stop at three copies; with 4+ decks a hand can hold more, and the set step must not
    # look past the four suits for them (CI runs this under NUMBA_BOUNDSCHECK=1)
    for counts, round_no, ace_high in _hands(decks, 2000, decks):
        n_sets, n_runs, length = CONTRACTS[round_no]
        d = B.distance(counts, round_no, ace_high)
        assert 0 <= d <= 3 * n_sets + n_runs * length


@pytest.mark.parametrize("decks", [2, 6])
def test_each_discard_weighed_from_the_whole_hands_levels_is_the_distance_of_the_smaller_hand(decks):
    # choose_discard keeps the hand's levels once and clears one card per discard: the answer must be
    # what distance gives on the hand less that card, whatever the copies held (levels stop at three)
    work = np.zeros(B.WORK_SIZE, dtype=np.int64)
    weighed = 0
    for counts, round_no, ace_high in _hands(11 + decks, 600, decks):
        B.keep_hand_levels(counts, ace_high, work)
        for c in np.flatnonzero(counts[:63]):
            smaller = counts.copy()
            smaller[c] -= 1
            assert B._discard_distance(counts, c, round_no, ace_high, work) == B.distance(smaller, round_no, ace_high)
            weighed += 1
    assert weighed > 5000


def test_distance_zero_means_the_exact_solver_lays_the_contract():
    # the greedy laying behind distance 0 is a witness (module docstring): never a wasted exact call
    cand = np.zeros((MAX_RUN_CANDIDATES, RUN_COLS), dtype=np.int64)
    runs, ranks = np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64)
    solver = np.zeros(SOLVER_WORK, dtype=np.int64)
    zeros = 0
    for counts, round_no, ace_high in _hands(7, 4000, 2):
        if B.distance(counts, round_no, ace_high) == 0:
            zeros += 1
            value, _ = best_contract(counts, counts[63], round_no, ace_high, cand, runs, ranks, solver)
            assert value >= 0, (round_no, ace_high, np.flatnonzero(counts))
    assert zeros > 100 and CONTRACTS.shape == (11, 3)
