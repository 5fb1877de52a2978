"""Ruling 3.13 (docs/rules.md, interpretation I.10): a joker laid off on a run that takes one at both ends,
or freed by a swap and laid off there, stands for the card the player chooses, below the run or above it.

Positions as in ``test_rules_shanghai.py`` (cards, seats, stock top card first, pile bottom card first,
table melds ``k = owner: cards`` numbered from 0 in the events, from 1 in typed moves). The legal-move
layer lists the two ends as two moves (``moves.LAYOFF_BASE + 63 * MAX_TABLE + k`` the high end,
``moves.JOKER_LOW_BASE + k`` the low one; the same for a swap's freed joker, ``SWAP_LOW_BASE``); typed
moves name the end; the replay events say which end (``"end"``) and the card it stands for; the bots
choose by their key ``jokers.end``.
"""

from __future__ import annotations

import numpy as np
import pytest

from rummysim.base.errors import MoveError
from rummysim.replay_html import frames
from rummysim.variants import variant_named
from rummysim.variants.shanghai import bots as B
from rummysim.variants.shanghai import moves as M
from rummysim.variants.shanghai.notation import legal_move_names, parse_move
from rummysim.variants.shanghai.replay import format_event, parse_table_meld
from rummysim.variants.shanghai.rules import ShanghaiRules
from rummysim.variants.shanghai.state import (
    JOKER, MAX_TABLE, SI_DOWN_TURN_SEAT, SI_N_TABLE, SI_OWN_TURNS_SEAT, T_HI, T_JOKER_POS, T_LO, T_OWNER,
)

from positions import moves
from test_notation import set_hand, shanghai_state, to_play
from test_rules_shanghai import play, strategy

pytestmark = pytest.mark.engine

LAYOFF_JK = M.LAYOFF_BASE + JOKER * MAX_TABLE


def down_position(hand: str, melds: list[str], **rules) -> object:
    """Round 1, 4 players: seat 0, down, to play its lay-offs holding ``hand``; ``melds`` seat 1's."""
    state = shanghai_state(4, seed=0, round_no=1, rules=ShanghaiRules(**rules))
    set_hand(state, 0, hand)
    for k, text in enumerate(melds):
        state.table[k] = parse_table_meld(text, rules.get("ace", "high_or_low") == "high_or_low")
        state.table[k, T_OWNER] = 1
    state.ints[SI_N_TABLE] = len(melds)
    state.ints[SI_DOWN_TURN_SEAT] = 1
    state.ints[SI_OWN_TURNS_SEAT] = 1
    to_play(state, 0)
    set_hand(state, 0, hand)   # without the card drawn from the stock
    return state


def legal(state) -> list[int]:
    out = np.empty(M.MAX_LEGAL, dtype=np.int64)
    return out[:M.legal_moves(state, out)].tolist()


def after(state, move: int) -> tuple[int, int, int]:
    """Meld 0's low and high positions and joker positions after ``move`` (played on a copy)."""
    copy = M.copy_state(state)
    assert M.is_legal(copy, move)
    M.apply(copy, move)
    return int(copy.table[0, T_LO]), int(copy.table[0, T_HI]), int(copy.table[0, T_JOKER_POS])


# ---------------------------------------------------------------- the legal moves


def test_3_13_a_joker_on_h5_h8_may_stand_for_h4_or_h9():
    # seat 0: JK C2 D9; table 0 = 1: H5 H6 H7 H8 (positions 4..7). The joker goes above (H9, position 8)
    # or below (H4, position 3): two moves, listed high then low.
    state = down_position("JK C2 D9", ["H5 H6 H7 H8"])
    assert legal(state) == [M.STOP, LAYOFF_JK + 0, M.JOKER_LOW_BASE + 0]
    assert after(state, LAYOFF_JK) == (4, 8, 1 << 8)
    assert after(state, M.JOKER_LOW_BASE) == (3, 7, 1 << 3)


@pytest.mark.parametrize("run, ace, only", [
    ("HJ HQ HK HA", "high_or_low", (9, 13)),   # nothing above the high ace: only H10
    ("HJ HQ HK", "low", (9, 12)),              # ace low only: nothing above the king
    ("HA H2 H3", "high_or_low", (0, 3)),       # nothing below the low ace: only H4
])
def test_3_13_a_run_open_at_one_end_takes_the_joker_there_alone(run, ace, only):
    state = down_position("JK C2", [run], ace=ace)
    assert legal(state) == [M.STOP, LAYOFF_JK]
    assert not M.is_legal(state, M.JOKER_LOW_BASE)
    lo, hi, _ = after(state, LAYOFF_JK)
    assert (lo, hi) == only


def test_3_13_the_ace_at_either_end_of_2_to_k():
    # H2..HK (positions 1..12): the joker is the ace below the 2 (position 0) or above the king (13),
    # never both (3.11); a natural ace has one move (its place is the same card either way)
    state = down_position("JK SA", ["H2 H3 H4 H5 H6 H7 H8 H9 H10 HJ HQ HK"])
    assert legal(state) == [M.STOP, LAYOFF_JK, M.JOKER_LOW_BASE]
    assert after(state, LAYOFF_JK)[:2] == (1, 13) and after(state, M.JOKER_LOW_BASE)[:2] == (0, 12)


def test_3_13_a_set_or_a_run_without_room_for_a_joker_has_no_low_twin():
    # 0 = S9 C9 D9 (a set: the joker stands for its rank); 1 = H5 JK JK H8 (as many jokers as naturals)
    state = down_position("JK C2", ["S9 C9 D9", "H5 JK JK H8"])
    assert legal(state) == [M.STOP, LAYOFF_JK]
    assert not M.is_legal(state, M.JOKER_LOW_BASE) and not M.is_legal(state, M.JOKER_LOW_BASE + 1)


def test_3_13_the_freed_joker_of_a_swap_takes_the_end_chosen():
    # seat 0: H5 C2; table 0 = H4 JK H6 H7, 1 = D3 D4 D5, 2 = S9 C9 JK. H5 frees the joker of meld 0; it
    # goes onto meld 0 (H4..H7 after the swap: H3 or H8), meld 1 (D2 or D6) or the set of 9s (no end)
    state = down_position("H5 C2", ["H4 JK H6 H7", "D3 D4 D5", "S9 C9 JK"])
    i = 36 * MAX_TABLE * MAX_TABLE   # H5 = card 36 on meld 0; + k2
    assert legal(state) == [M.STOP, M.SWAP_BASE + i, M.SWAP_LOW_BASE + i, M.SWAP_BASE + i + 1,
                            M.SWAP_LOW_BASE + i + 1, M.SWAP_BASE + i + 2]
    assert after(state, M.SWAP_BASE + i) == (3, 7, 1 << 7)
    assert after(state, M.SWAP_LOW_BASE + i) == (2, 6, 1 << 2)
    copy = M.copy_state(state)
    M.apply(copy, M.SWAP_LOW_BASE + i + 1)
    assert (copy.table[1, T_LO], copy.table[1, T_HI], copy.table[1, T_JOKER_POS]) == (1, 4, 1 << 1)
    assert copy.table[0, T_JOKER_POS] == 0
    assert not M.is_legal(state, M.SWAP_LOW_BASE + i + 2)   # the set has no low end


# ---------------------------------------------------------------- typed moves


def test_3_13_typed_moves_name_the_end_and_a_bare_one_is_refused():
    state = down_position("JK C2 D3", ["H5 H6 H7 H8", "S9 C9 D9", "HJ HQ HK HA"])
    assert legal_move_names(state) == [(M.STOP, "stop"), (LAYOFF_JK, "layoff JK 1 high"),
                                       (M.JOKER_LOW_BASE, "layoff JK 1 low"), (LAYOFF_JK + 1, "layoff JK 2"),
                                       (LAYOFF_JK + 2, "layoff JK 3")]
    for text, action in [("layoff JK 1 low", M.JOKER_LOW_BASE), ("layoff JK 1 below", M.JOKER_LOW_BASE),
                         ("lay off JK on 1 high", LAYOFF_JK), ("layoff JK 1 above", LAYOFF_JK),
                         ("layoff JK=H4 1", M.JOKER_LOW_BASE), ("layoff jk=h9 1", LAYOFF_JK),
                         ("layoff JK 3", LAYOFF_JK + 2), ("layoff JK 3 low", LAYOFF_JK + 2),
                         ("layoff JK=H10 3", LAYOFF_JK + 2)]:
        assert parse_move(state, text) == action, text
    for text, reason in [
        ("layoff JK 1", r"the joker fits H5 H6 H7 H8 at either end: say layoff JK 1 low \(JK=H4\) or "
                        r"layoff JK 1 high \(JK=H9\) \(docs/rules.md 3.13\)"),
        ("layoff JK=H3 1", "a joker can stand for H4 or H9, not H3"),
        ("layoff JK=H4 1 high", r"JK=H4 is the low end of H5 H6 H7 H8, not the high end"),
        ("layoff JK 1 low high", "name one end for the joker: low or high"),
        ("layoff JK 2 low", r"meld 2 \(C9 D9 S9\) is a set: a joker there stands for its rank; name no end"),
        ("layoff JK 3 high", r"meld 3 \(HJ HQ HK HA\) takes a joker only at its low end \(JK=H10\): name no end"),
        ("layoff C2 1 low", "only a joker's end is chosen"),
        ("layoff D3=D4 1", "only a joker stands for another card"),
    ]:
        with pytest.raises(MoveError, match=reason):
            parse_move(state, text)


def test_3_13_the_ace_named_as_the_card_needs_the_end():
    state = down_position("JK C2", ["H2 H3 H4 H5 H6 H7 H8 H9 H10 HJ HQ HK"])
    with pytest.raises(MoveError, match="HA is below and above"):
        parse_move(state, "layoff JK=HA 1")
    assert parse_move(state, "layoff JK=HA 1 low") == M.JOKER_LOW_BASE
    assert parse_move(state, "layoff JK=HA 1 high") == LAYOFF_JK


def test_3_13_a_bare_swap_onto_a_run_open_at_both_ends_is_refused():
    state = down_position("H5 C2", ["H4 JK H6 H7", "D3 D4 D5"])
    with pytest.raises(MoveError, match=r"say swap H5 1 JK 2 low \(JK=D2\) or swap H5 1 JK 2 high \(JK=D6\)"):
        parse_move(state, "swap H5 1 JK 2")
    with pytest.raises(MoveError, match=r"say swap H5 1 JK 1 low \(JK=H3\) or swap H5 1 JK 1 high \(JK=H8\)"):
        parse_move(state, "swap H5 1 JK 1")


# ---------------------------------------------------------------- played, replayed and shown

# round 1, 3 players; seat 0 (down): JK C2 (and H3 or H10 when the test says); seats 1 and 2 (down): C4 D6,
# C7 D8; table 0 = 1: H5 H6 H7 H8; stock D9 S2 S3; pile S6. Seat 0 leaves S6 (it fits nowhere; seats 1
# and 2 are down and never buy), draws D9, lays the joker off, then any natural that fits, and throws D9.
# turn_limit=1 stops the round after that turn.


def joker_turn(hand: str = "JK C2", end: int | None = None) -> dict:
    params = strategy(3)
    if end is not None:
        params[0, B.SP_JOKER_END] = end
    return play([hand, "C4 D6", "C7 D8"], "D9 S2 S3", "S6", "turn_limit=1", table=[(1, "H5 H6 H7 H8")],
                down={0: 1, 1: 1, 2: 1}, params=params)


@pytest.mark.parametrize("hand, end, shown, laid", [
    ("JK C2", None, "JK=H9", ["H5", "H6", "H7", "H8", "JK"]),                      # shipped: the high end
    ("JK C2", B.JOKER_END_LOW, "JK=H4", ["JK", "H5", "H6", "H7", "H8"]),
    ("JK C2", B.JOKER_END_HELD, "JK=H9", ["H5", "H6", "H7", "H8", "JK"]),          # nothing follows: high
    ("JK C2 H3", B.JOKER_END_HELD, "JK=H4", ["H3", "JK", "H5", "H6", "H7", "H8"]),  # H3 follows H4
    ("JK C2 H10", B.JOKER_END_HELD, "JK=H9", ["H5", "H6", "H7", "H8", "JK", "H10"]),
    ("JK C2 H3 H10", B.JOKER_END_HELD, "JK=H9", ["H5", "H6", "H7", "H8", "JK", "H10"]),  # both: high
])
def test_3_13_the_bots_choose_the_end_by_their_key(hand, end, shown, laid):
    r = joker_turn(hand, end)
    played = moves(r)
    assert played[:2] == ["0 draws D9 from stock", f"0 lays off {shown} on 0"] and played[-1] == "0 discards D9"
    assert r["table"][0] == laid
    (event,) = [e for e in r["events"] if e["event"] == "layoff" and e["card"] == "JK"]
    assert event["end"] == ("low" if shown == "JK=H4" else "high")


def test_3_13_the_text_replay_and_the_page_show_the_end_chosen():
    r = joker_turn(end=B.JOKER_END_LOW)
    (event,) = [e for e in r["events"] if e["event"] == "layoff"]
    assert event == {"event": "layoff", "player": 0, "card": "JK", "meld": 0, "stands_for": "H4", "end": "low"}
    assert format_event(event) == "seat 0 lays off JK=H4 (low end) on meld 1"   # melds numbered from 1 in text
    deal = {"event": "deal", "round": 1, "dealer": 2, "hands": [["JK", "C2"], ["C4", "H5", "H6", "H7", "H8"], ["C7"]],
            "upcard": "S6", "stock": ["D9"]}
    contract = {"event": "contract", "player": 1, "melds": [["H5", "H6", "H7", "H8"]], "stands_for": [[None] * 4],
                "table_melds": [0]}
    end = {"event": "end", "outcome": "turn_limit", "winner": -1, "bonus": "none", "scores": [0, 0, 0],
           "hands": [["C2"], ["C4"], ["C7"]]}
    got = frames([deal, contract, event, end], variant_named("shanghai").format_event)
    assert got[2]["table"] == [{"owner": 1, "cards": ["JK=H4", "H5", "H6", "H7", "H8"]}]


def test_3_13_the_page_puts_a_low_ace_joker_below_the_2():
    # H2..HK: a joker standing for the ace is below the 2 or above the king; only "end" tells which
    run = ["H2", "H3", "H4", "H5", "H6", "H7", "H8", "H9", "H10", "HJ", "HQ", "HK"]
    deal = {"event": "deal", "round": 8, "dealer": 2, "hands": [["JK", "C2"], [*run, "C4"], ["C7"]],
            "upcard": "S6", "stock": ["D9"]}
    contract = {"event": "contract", "player": 1, "melds": [run], "stands_for": [[None] * 12], "table_melds": [0]}
    end = {"event": "end", "outcome": "turn_limit", "winner": -1, "bonus": "none", "scores": [0, 0, 0],
           "hands": [["C2"], ["C4"], ["C7"]]}
    for side, cells in [("low", ["JK=HA", *run]), ("high", [*run, "JK=HA"])]:
        layoff = {"event": "layoff", "player": 0, "card": "JK", "meld": 0, "stands_for": "HA", "end": side}
        got = frames([deal, contract, layoff, end], variant_named("shanghai").format_event)
        assert got[2]["table"][0]["cards"] == cells


def test_3_13_random_lays_a_joker_off_at_either_end():
    # the random bot draws among its legal lay-offs, both ends included (docs/rules.md I.10)
    shown = set()
    for seed in range(40):
        r = play(["JK C2", "C4 D6", "C7 D8"], "D9 S2 S3", "S6", "turn_limit=1", table=[(1, "H5 H6 H7 H8")],
                 down={0: 1, 1: 1, 2: 1}, params=strategy(3, "random"), seed=seed)
        shown |= {e["stands_for"] for e in r["events"] if e["event"] == "layoff"}
    assert shown == {"H4", "H9"}


def test_3_13_the_action_space_holds_both_ends():
    from rummysim.env import Batch
    from rummysim.env import shanghai_v0

    assert (M.JOKER_LOW_BASE, M.SWAP_LOW_BASE, M.NUM_ACTIONS) == (69_702, 69_734, 135_270)
    env = shanghai_v0.raw_env(players=4)
    assert env.action_space(env.possible_agents[0]).n == M.NUM_ACTIONS
    assert Batch("shanghai", 2, players=4).mask.shape == (2, M.NUM_ACTIONS)
