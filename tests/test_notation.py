"""The notation (each variant's ``notation.py``): every legal move's name parses back to it (both variants, many random positions);
wrong text gets a one-line reason; describe shows only what the seat may see.

Positions: hands dealt by the kernels and played by uniform random legal moves, every decision's
whole move list round-tripped. Hand-built positions for the reasons (docs/rules.md numbers cited).
"""

import re
from collections import Counter

import numpy as np
import pytest

from rummysim.cards import card_id, mask_of
from rummysim.base.errors import MoveError
from rummysim.strategy import params_matrix, seat_strategies
from rummysim.variants.basic import kernel as BK
from rummysim.engine import melds as BM
from rummysim.variants.basic import moves as BMV
from rummysim.variants import VARIANTS, variant_named
from rummysim.variants.basic.rules import BasicRules
from rummysim.cards import card_name
from rummysim.variants.basic.state import (
    I_N_TABLE, I_PHASE, I_SEAT, M_HAND, M_LAYABLE, M_PILE, M_TABLE, PH_DISCARD, PH_PLAY,
)
from rummysim.variants.shanghai import bots as SB
from rummysim.variants.shanghai import kernel as SK
from rummysim.variants.shanghai import moves as SMV
from rummysim.variants.shanghai.notation import meld_words
from rummysim.variants.shanghai.replay import parse_table_meld
from rummysim.variants.shanghai.rules import ShanghaiRules
from rummysim.variants.shanghai.state import (
    I_PHASE as S_PHASE, I_PROPOSAL_N, I_SEAT as S_SEAT, PH_BUY, PH_PLAY as S_PLAY, SI_DOWN_TURN_SEAT, SI_DRAWN,
    SI_N_TABLE, SI_OWN_TURNS_SEAT, T_OWNER,
)

pytestmark = pytest.mark.engine


def _notation(state):
    """The notation module of the variant whose rules layer ``state`` belongs to."""
    return next(v.notation for v in VARIANTS.values() if isinstance(state, v.notation.State))


def move_name(state, action):
    return _notation(state).move_name(state, action)


def parse_move(state, text):
    return _notation(state).parse_move(state, text)


def legal_move_names(state):
    return _notation(state).legal_move_names(state)


def describe(state, seat, totals=None, taken=None):
    return _notation(state).describe(state, seat, totals, taken)


def basic_state(players=2, seed=0, game=0, hand=0, rules=None):
    rules = (rules or BasicRules()).to_array(players)
    state = BK.new_state(players, rules, BM.CARD_VALUE, np.zeros((0, BMV.EV_WIDTH), dtype=np.int16),
                         np.zeros(1, dtype=np.int64))
    BK.start_hand(state, seed, game, hand, np.zeros((players, 1), dtype=np.uint64))
    return state


def shanghai_state(players=4, seed=0, game=0, round_no=1, rules=None):
    rules = (rules or ShanghaiRules()).to_array(players)
    state = SMV.new_state(players, rules, np.zeros((0, SMV.EV_WIDTH), dtype=np.int16))
    SK.start_round(seed, game, round_no, state, SB.new_scratch(players))
    return state


def round_trip_all(state):
    """Every legal move's name parses back to that move; returns the moves."""
    moves = legal_move_names(state)
    assert moves
    for action, name in moves:
        assert parse_move(state, name) == action, name
        assert move_name(state, action) == name
    return [a for a, _ in moves]


def test_basic_every_name_round_trips_over_random_hands():
    rng = np.random.default_rng(1)
    decisions = 0
    seen = set()
    for players in (2, 3, 4):
        for hand in range(12):
            rules = BasicRules(ace="high_or_low") if hand % 2 else BasicRules()
            state = basic_state(players, seed=3, game=hand, rules=rules)
            while not BMV.is_over(state):
                moves = round_trip_all(state)
                seen.update(move_name(state, a).split()[0] for a in moves)
                decisions += 1
                BMV.apply(state, moves[rng.integers(len(moves))])
    assert decisions > 1000
    assert seen == {"draw", "take", "meld", "layoff", "stop", "discard"}


def test_shanghai_every_name_round_trips_over_random_rounds():
    rng = np.random.default_rng(2)
    seen = set()
    for players, round_no in [(3, 1), (4, 2), (5, 3), (4, 5), (6, 7), (4, 9), (3, 10), (8, 4)]:
        for game in range(3):
            state = shanghai_state(players, seed=5, game=game, round_no=round_no)
            for _ in range(400):
                if SMV.is_over(state):
                    break
                moves = round_trip_all(state)
                seen.update(move_name(state, a).split()[0] for a in moves)
                # play the contract when there is one, so rounds reach lay-offs and swaps
                move = SMV.CONTRACT if SMV.CONTRACT in moves else moves[rng.integers(len(moves))]
                if move == SMV.CONTRACT:
                    parse_move(state, move_name(state, move))   # the laying named is the one laid
                SMV.apply(state, move)
    assert {"take", "draw", "buy", "pass", "contract", "layoff", "stop", "discard"} <= seen


def test_shanghai_swap_before_going_down_names_round_trip():
    """joker_swap = anyone (docs/rules.md 3.8): a player not yet down swaps a table joker and must lay
    it in the contract that turn; its move is named ``swap H7 2`` and parses back, and then only the
    contract is legal."""
    rng = np.random.default_rng(3)
    rules = ShanghaiRules(joker_swap="anyone", jokers=4)
    swaps_down = 0
    for players, round_no in [(3, 1), (4, 2), (4, 3), (5, 4), (4, 6)]:
        for game in range(6):
            state = shanghai_state(players, seed=7, game=game, round_no=round_no, rules=rules)
            for _ in range(600):
                if SMV.is_over(state):
                    break
                moves = round_trip_all(state)
                down_swaps = [a for a in moves if SMV.SWAP_DOWN_BASE <= a < SMV.JOKER_LOW_BASE]
                if down_swaps:
                    move = down_swaps[0]
                    words = move_name(state, move).split()
                    assert words[0] == "swap" and len(words) == 3
                    SMV.apply(state, move)
                    assert [a for a, _ in legal_move_names(state)] == [SMV.CONTRACT]
                    swaps_down += 1
                    continue
                move = SMV.CONTRACT if SMV.CONTRACT in moves else moves[rng.integers(len(moves))]
                if move == SMV.CONTRACT:
                    parse_move(state, move_name(state, move))
                SMV.apply(state, move)
    assert swaps_down >= 3


def test_shanghai_contract_name_is_the_laying_and_parses_to_the_same_rows():
    """A typed laying is written into the proposal buffer as the rows the rules layer lays (2.2, 2.3)."""
    state = shanghai_state(4, seed=0, round_no=2)   # 1 set and 1 run of 4+
    hand = "H3 H4 JK H6 S9 C9 D9 CK D2 S5 C7 D8"
    set_hand(state, 0, hand)
    to_play(state, 0)
    assert parse_move(state, "contract H3 H4 JK H6 / S9 C9 D9") == SMV.CONTRACT
    n = int(state.ints[I_PROPOSAL_N])
    assert [meld_words(state.melds[i]) for i in range(n)] == ["H3 H4 JK H6", "C9 D9 S9"]   # a set by suit
    assert move_name(state, SMV.CONTRACT) == "contract H3 H4 JK H6 / C9 D9 S9"
    np.testing.assert_array_equal(state.melds[0], parse_table_meld("H3 H4 JK H6"))


def set_hand(state, seat, text):
    state.hands[seat, :] = 0
    for c in text.split():
        state.hands[seat, card_id(c, allow_joker=True)] += 1


def to_play(state, seat):
    """Put seat ``seat`` in its play step (it drew already)."""
    SMV.begin(state, seat)
    SMV.apply(state, SMV.LEAVE_UPCARD)
    while state.ints[S_PHASE] == PH_BUY:
        SMV.apply(state, SMV.PASS)
    assert state.ints[S_SEAT] == seat and state.ints[S_PHASE] == S_PLAY


@pytest.mark.parametrize("text, reason", [
    ("", "no move given"),
    ("fly away", "unknown move 'fly'"),
    ("discard D9", "no discard now"),
    ("take ZZ", "not a card: 'ZZ'"),
])
def test_basic_wrong_text_at_the_draw(text, reason):
    state = basic_state()
    with pytest.raises(MoveError, match=reason):
        parse_move(state, text)


def basic_position(hand, table=(), upcard="D2", drawn=None, ace="low", must_discard=False, max_melds=None):
    """Seat 0 in its play step holding ``hand`` (after taking ``drawn`` from the pile if given)."""
    rules = BasicRules(ace=ace, must_discard_to_go_out=must_discard,
                       **({"max_melds_per_turn": max_melds} if max_melds else {}))
    state = basic_state(2, rules=rules)
    state.masks[:] = 0
    state.masks[M_HAND] = mask_of(hand)
    state.masks[M_HAND + 1] = mask_of("C2 C3")
    state.pile[0] = card_id(upcard)
    state.masks[M_PILE] |= np.uint64(1 << card_id(upcard))
    ace_high = ace == "high_or_low"
    for k, text in enumerate(table):
        kind, tm = BM.table_meld_of(mask_of(text), ace_high)
        state.t_kind[k], state.t_mask[k] = kind, np.uint64(tm)
        state.masks[M_TABLE] |= mask_of(text)
        state.t_lay[k] = BM.layoff_cards(np.uint64(tm), np.int64(kind), ace_high)
    state.ints[I_N_TABLE] = len(table)
    state.masks[M_LAYABLE] = BM.table_layoffs(state.t_mask, state.t_kind, len(table), ace_high)
    BMV.begin(state, 0)
    if drawn:
        state.masks[M_HAND] &= ~np.uint64(1 << card_id(drawn))
        state.pile[0] = card_id(drawn)
        state.masks[M_PILE] = np.uint64(1 << card_id(drawn))
        BMV.apply(state, BMV.TAKE_DISCARD)
    else:
        BMV.apply(state, BMV.DRAW_STOCK)
        state.masks[M_HAND] = mask_of(hand)
    assert state.ints[I_SEAT] == 0 and state.ints[I_PHASE] == PH_PLAY
    return state


@pytest.mark.parametrize("text, reason", [
    ("meld H3 H4 HQ", "H3 H4 HQ is not a meld"),                  # 1.2
    ("meld H3 H4", "a meld is 3 or more cards"),
    ("meld H3 H4 H9", "not in your hand: H9"),
    ("meld HQ HK HA", "the ace is low"),                           # 1.7 ace
    ("layoff S9 1", "not in your hand: S9"),
    ("layoff H3 3", "no table meld 3: they are numbered 1 to 1"),
    ("layoff C8 1", r"C8 does not fit meld 1 \(D5 D6 D7; it takes D4 D8\)"),
    ("discard H3", "no discard now"),
    ("draw stock", "no draw now"),
])
def test_basic_wrong_text_in_the_play_step(text, reason):
    state = basic_position("H3 H4 H5 HQ HK HA C8 D8", table=["D5 D6 D7"])
    with pytest.raises(MoveError, match=reason):
        parse_move(state, text)


def test_basic_reasons_from_the_rules():
    """3.1: the card taken from the pile may be neither thrown nor the only card left; 1.7 options."""
    state = basic_position("H3 H4 H5 D8", drawn="D8", table=["D5 D6 D7"])
    with pytest.raises(MoveError, match=r"only D8, taken from the pile this turn.*3\.1"):
        parse_move(state, "meld H3 H4 H5")
    parse_move(state, "stop")
    BMV.apply(state, BMV.STOP)
    assert state.ints[I_PHASE] == PH_DISCARD
    with pytest.raises(MoveError, match=r"you took D8 from the pile this turn.*3\.1"):
        parse_move(state, "discard D8")
    assert parse_move(state, "discard h3") == BMV.discard_move(card_id("H3"))

    state = basic_position("H3 H4 H5", must_discard=True)
    with pytest.raises(MoveError, match="must_discard_to_go_out"):
        parse_move(state, "meld H3 H4 H5")
    state = basic_position("H3 H4 H5 C7 D7 S7 SK", max_melds=1)
    BMV.apply(state, parse_move(state, "meld H3 H4 H5"))
    with pytest.raises(MoveError, match="only 1 meld a turn"):
        parse_move(state, "meld C7 D7 S7")


def test_basic_forgiving_words():
    state = basic_position("H3 H4 H5 HQ HK HA C8 D4", table=["D5 D6 D7"], ace="high_or_low")
    assert parse_move(state, "meld HA HK HQ") == parse_move(state, "meld HQ HK HA")
    assert move_name(state, parse_move(state, "meld ha hk hq")) == "meld HQ HK HA"
    assert move_name(state, parse_move(state, "lay off D4 on 1")) == "layoff D4 1"
    assert parse_move(state, "done") == BMV.STOP


def test_basic_describe_shows_what_the_seat_may_see():
    state = basic_state(3, seed=4)
    seat = int(state.ints[I_SEAT])
    text = describe(state, seat, totals=[10, 0, 35])
    hand = int(state.masks[M_HAND + seat])
    assert f"Your hand ({hand.bit_count()})" in text
    assert "Scores: seat 0 10, seat 1 0, seat 2 35 (target 150)" in text
    for q in range(3):
        if q != seat:
            assert f"Seat {q}: 7 cards" in text
            for c in range(64):   # no card of another hand is named
                if int(state.masks[M_HAND + q]) >> c & 1 and not hand >> c & 1:
                    assert card_name(c) not in text.split("Upcard:")[0]


def test_basic_describe_names_cards_taken_from_the_pile_until_shown():
    """docs/rules.md 1.3.1: a card taken from the pile is seen by all; the game's record of takes
    (``Game.taken``) is what ``describe`` names, nothing when it is not given."""
    game = variant_named("basic").game(2, BasicRules().to_array(2))
    game.reset(0, 0)
    first = game.seat
    up = int(game.state.pile[0])
    game.play(BMV.TAKE_DISCARD)
    assert game.taken()[first] == [up]
    assert f"took from the pile: {card_name(up)}" in game.describe(1 - first)
    assert "took from the pile" not in describe(game.state, 1 - first)


def test_basic_hints_name_only_what_may_still_be_laid_off():
    """Issue 23, docs/rules.md 1.1 (one deck) and 1.3: a table meld's hint named cards already melded
    elsewhere (``C9 C10 CJ (takes C8 CQ)`` with C8 in a set); ruling 3.1: "took HQ this turn: may not
    throw it" stayed after HQ was melded."""
    state = basic_position("H3 H4 H5 CQ S2", table=["C8 D8 H8", "C9 C10 CJ"])
    assert "Table melds: 1: C8 D8 H8 (takes S8); 2: C9 C10 CJ (takes CQ)\n" in describe(state, 0)
    with pytest.raises(MoveError, match=r"S2 does not fit meld 2 \(C9 C10 CJ; it takes CQ\)"):
        parse_move(state, "layoff S2 2")
    state = basic_position("C7 D7 H7 S7", table=["C8 D8 H8 S8", "C9 C10 CJ CQ CK"])
    assert "Table melds: 1: C8 D8 H8 S8; 2: C9 C10 CJ CQ CK\n" in describe(state, 0)   # C8 is on meld 1

    state = basic_position("HJ HQ HK C2 D2", drawn="HQ")
    assert "(took HQ this turn: may not throw it)" in describe(state, 0)
    BMV.apply(state, parse_move(state, "meld HJ HQ HK"))
    assert "took HQ" not in describe(state, 0) and "Your hand (2): C: 2  D: 2\n" in describe(state, 0)


def test_shanghai_reasons():
    state = shanghai_state(4, seed=0, round_no=2)
    set_hand(state, 0, "H3 H4 JK H6 S9 C9 D9 CK D2 S5 C7 D8")
    to_play(state, 0)
    with pytest.raises(MoveError, match=r"round 2's contract is 1 set and 1 run of 4\+"):
        parse_move(state, "contract S9 C9 D9")
    with pytest.raises(MoveError, match="H3 H5 H6 is not a meld"):
        parse_move(state, "contract H3 H5 H6 / S9 C9 D9")
    with pytest.raises(MoveError, match="not in your hand: H10 HJ HQ HK"):
        parse_move(state, "contract H10 HJ HQ HK / S9 C9 D9")
    with pytest.raises(MoveError, match="lay down your contract first"):
        parse_move(state, "layoff D2 1")
    with pytest.raises(MoveError, match="no buy now"):
        parse_move(state, "buy")


def shanghai_down(hand, table, rules=None):
    """Seat 0 of 4, down already, in its play step of round 1 holding ``hand`` (and the card it drew), with
    seat 1's melds ``table`` on the table."""
    state = shanghai_state(4, seed=0, round_no=1, rules=rules)
    set_hand(state, 0, hand)
    for k, text in enumerate(table):
        state.table[k] = parse_table_meld(text)
        state.table[k, T_OWNER] = 1
    state.ints[SI_N_TABLE] = len(table)
    state.ints[SI_DOWN_TURN_SEAT] = 1
    state.ints[SI_OWN_TURNS_SEAT] = 1
    to_play(state, 0)
    return state


def test_shanghai_swap_and_layoff_words():
    """2.5: a natural for the joker standing for it; the freed joker laid off at once."""
    state = shanghai_down("H5 C2 C3 D9", ["H4 JK H6 H7", "S9 C9 JK", "D3 D4 D5"])
    # the freed joker on a run open at both ends: the player names the end (ruling 3.13)
    assert move_name(state, parse_move(state, "swap H5 1 JK 3 high")) == "swap H5 1 JK 3 high"
    assert move_name(state, parse_move(state, "swap H5 into 1 joker to 1 below")) == "swap H5 1 JK 1 low"
    assert move_name(state, parse_move(state, "swap H5 1 JK 2")) == "swap H5 1 JK 2"   # a set: no end
    with pytest.raises(MoveError, match=r"meld 2 \(C9 S9 JK\) has no joker standing for H5"):
        parse_move(state, "swap H5 2 3")
    with pytest.raises(MoveError, match=r"C3 does not fit meld 3 \(D3 D4 D5; it takes D2 D6 JK\)"):
        parse_move(state, "layoff C3 3")
    assert "1: H4 JK H6 H7 [seat 1] takes H3 H8 JK" in describe(state, 0)


@pytest.mark.parametrize("decks, takes", [(1, "H8 JK"), (2, "H3 H8 JK")])
def test_shanghai_hints_name_only_what_may_still_be_laid_off(decks, takes):
    """Issue 23, docs/rules.md 2.1 (a copy of each card a deck) and 2.5: a table meld's hint named a
    natural whose every copy was on the table already; a joker may still come, freed by a swap.
    Ruling 3.1: "took D8 this turn" is named while the seat holds D8 (or a copy), not once laid."""
    state = shanghai_down("H5 C2 C4 D9", ["H4 JK H6 H7", "H3 D3 S3", "D5 D6 D7 D8"],
                          ShanghaiRules(decks=decks, jokers=2))
    text = describe(state, 0)
    assert f"1: H4 JK H6 H7 [seat 1] takes {takes};" in text
    with pytest.raises(MoveError, match=rf"C2 does not fit meld 1 \(H4 JK H6 H7; it takes {takes}\)"):
        parse_move(state, "layoff C2 1")
    state.ints[SI_DRAWN] = card_id("D8")   # taken as the upcard this turn and laid off on meld 3
    assert "took D8" not in describe(state, 0)
    state.ints[SI_DRAWN] = card_id("D9")   # taken as the upcard this turn, still held
    assert "(took D9 this turn: may not throw it)" in describe(state, 0)


# ------------------------------------------------------------------ one meld number for people
@pytest.mark.parametrize("variant, players, options", [("basic", 3, {}), ("shanghai", 3, {"jokers": 4})])
def test_a_replay_lines_meld_number_is_the_one_play_takes(variant, players, options):
    """Issue 23: the text replay numbered table melds from 0, ``play`` and ``describe`` from 1, so
    "seat 0 lays off C8 on meld 1" typed as ``layoff C8 1`` named another meld. Along games of the
    shipped bots, each lay-off and joker swap is named in ``play``'s words, which parse back to the move
    before it is played; the replay lines of its events (the text replay, the page's move text) give
    the same meld numbers, and the JSON's ``meld`` is that number less one (an index)."""
    v = variant_named(variant)
    rules = v.rules(**options).to_array(players)
    params = params_matrix(seat_strategies(["expert", "greedy", "expert"], players, VARIANTS[variant]))
    game = v.game(players, rules, log=True)
    seen = Counter()
    for g in range(6):
        game.reset(7, g)
        while not game.over:
            while not game.unit_over:
                move = game.bot_move(params)
                words = move_name(game.state, move) if move >= 0 else ""
                if not words.startswith(("layoff", "swap")):
                    game.play(move)
                    continue
                assert parse_move(game.state, words) == move
                events = [e for e in game.play(move) if "meld" in e]
                lines = [v.format_event(e) for e in events]
                numbers = [int(w) for w in words.split()[1:] if w.isdigit()]
                assert [int(n) for line in lines for n in re.findall(r"meld (\d+)", line)] == numbers, (words, lines)
                assert [e["meld"] + 1 for e in events] == numbers
                seen[words.split()[0]] += 1
            game.finish()
            if not game.over:
                game.next_unit()
    assert seen["layoff"] > 20 and (seen["swap"] > 0) == (variant == "shanghai")


@pytest.mark.parametrize("swap, before, after", [
    (True, "lay down your contract, or stop", "lay off, swap a joker, or stop"),
    ("anyone", "lay down your contract, swap a joker, or stop", "lay off, swap a joker, or stop"),
    (False, "lay down your contract, or stop", "lay off, or stop")])
def test_the_shanghai_play_step_offers_what_the_seat_may_do(swap, before, after):
    """Issue 27: the prompt said ``lay down your contract`` to a seat already down. Before its contract a
    seat may lay it down (and swap a joker only with joker_swap=anyone, rules 3.8); once down, lay off
    and swap (rules 2.5, 2.8)."""
    from rummysim.variants.shanghai.notation import describe

    state = shanghai_state(rules=ShanghaiRules(joker_swap=swap))
    seat = int(state.ints[S_SEAT])
    state.ints[S_PHASE] = S_PLAY
    assert f"Now: {before}\n" in describe(state, seat)
    state.ints[SI_DOWN_TURN_SEAT + seat] = 1
    assert f"Now: {after}\n" in describe(state, seat)
