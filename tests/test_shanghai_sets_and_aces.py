"""Rulings 3.10 (two sets of one rank stay two melds) and 3.11 (no run with the ace both low and high) of
docs/rules.md, in the contract solver (``contracts.best_contract``, ``first_contract``), the table checks
(``table.contract_ok``, ``fit``) and the legal-move layer (``moves.legal_moves``, ``is_legal``, ``apply``).
Positions as in ``test_moves_shanghai.py``: cards it does not name are out of play."""

from __future__ import annotations

import numpy as np
import pytest

from rummysim.variants.shanghai import moves as M
from rummysim.variants.shanghai.contracts import MAX_RUN_CANDIDATES, RUN_COLS, SOLVER_WORK, first_contract
from rummysim.variants.shanghai.replay import parse_table_meld
from rummysim.variants.shanghai.state import (
    I_PROPOSAL_N, MELD_RUN, MELD_SET, SI_N_TABLE, T_HI, T_KIND, T_LO, T_NATURALS, T_RANK, T_SUIT, T_SUIT_COUNT,
)
from rummysim.variants.shanghai.table import FIT_NONE, contract_ok, fit, meld_ok

from test_moves_shanghai import FILLER, c, layoff, legal, position
from test_rules_shanghai import counts_of, exact_contract

pytestmark = pytest.mark.engine

HEARTS = "HA H2 H3 H4 H5 H6 H7 H8 H9 H10 HJ HQ HK"


def first_value(text: str, round_no: int, ace_high: bool = True) -> int:
    """``contracts.first_contract``'s answer for a hand: the value it leaves, -1 when no laying exists."""
    counts = counts_of(text)
    jokers = int(counts[63])
    counts[63] = 0
    value, _ = first_contract(counts, jokers, round_no, ace_high, np.zeros((MAX_RUN_CANDIDATES, RUN_COLS),
                              dtype=np.int64), np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64),
                              np.zeros(SOLVER_WORK, dtype=np.int64))
    return int(value)


def sets_on_table(state) -> list[tuple[int, list[int]]]:
    """(rank, naturals per suit C D H S) of each table meld, in order; all must be sets."""
    out = []
    for k in range(int(state.ints[SI_N_TABLE])):
        row = state.table[k]
        assert row[T_KIND] == MELD_SET
        out.append((int(row[T_RANK]), [int(row[T_SUIT_COUNT + s]) for s in range(4)]))
    return out


# ====================================================================== 3.10
def test_3_10_two_sets_of_one_rank_in_the_solver():
    # round 1 (two sets), two decks: six 7s make both sets; only SK is left (10)
    assert exact_contract("C7 D7 H7 C7 D7 S7 SK", 1) == 10
    assert first_value("C7 D7 H7 C7 D7 S7 SK", 1) >= 0
    # five 7s and a joker: 7-7-7 and 7-7-JK
    assert exact_contract("C7 D7 H7 C7 D7 JK SK", 1) == 10
    # five 7s without a joker make one set, and the hand has no second rank for the other
    assert exact_contract("C7 D7 H7 C7 D7 SK", 1) == -1
    # three decks (5-8 players), round 4 (three sets): nine 7s make all three
    assert exact_contract("C7 C7 C7 D7 D7 D7 H7 H7 S7 SK", 4) == 10
    # contract_ok takes two sets of one rank as the contract of round 1
    melds = np.zeros((6, 13), dtype=np.int64)
    melds[0], melds[1] = parse_table_meld("C7 C7 D7"), parse_table_meld("D7 H7 S7")
    assert contract_ok(melds, 2, 1, True)


def test_3_10_two_sets_of_one_rank_are_laid_and_stay_two_melds():
    # round 1, seat 0: C7 D7 H7 C7 D7 S7 SK C2; it draws HA (empty pile). The contract is legal,
    # and laying it puts two melds of 7s on the table, three naturals each.
    s = position(["C7 D7 H7 C7 D7 S7 SK C2", FILLER, FILLER], "HA", "", discarder=2)
    assert legal(s) == [M.STOP, M.CONTRACT] and s.ints[I_PROPOSAL_N] == 2
    M.apply(s, M.CONTRACT)
    assert sets_on_table(s) == [(6, [2, 1, 0, 0]), (6, [0, 1, 1, 1])]     # C7 C7 D7 | D7 H7 S7
    # a later turn: each set takes a lay-off of its own, and they stay two melds
    table = [(0, "C7 C7 D7"), (0, "D7 H7 S7")]
    s = position(["H7 S7 C3", FILLER, FILLER], "HA", "", table=table, down={0: 1}, discarder=2)
    assert legal(s) == [M.STOP, layoff("H7", 0), layoff("H7", 1), layoff("S7", 0), layoff("S7", 1)]
    M.apply(s, layoff("H7", 0))
    M.apply(s, layoff("S7", 0))
    assert sets_on_table(s) == [(6, [2, 1, 1, 1]), (6, [0, 1, 1, 1])]
    assert s.table[0, T_NATURALS] == 5 and s.table[1, T_NATURALS] == 3


# ====================================================================== 3.11
def test_3_11_the_solver_lays_no_run_with_the_ace_low_and_high():
    # round 2 (a set and a run of 4): A-2-...-K-A of hearts and three 5s. The set is C5 D5 S5;
    # a run holds at most one ace, so one HA (15) is left, never 0 (a 14-card A...A run)
    hand = f"{HEARTS} HA C5 D5 S5"
    assert exact_contract(hand, 2) == 15
    assert exact_contract(hand, 2, ace_high=False) == 15
    assert first_value(hand, 2) >= 0
    # round 8 (a set and a run of 10) from the same cards: the same answer
    assert exact_contract(hand, 8) == 15


def test_3_11_no_fourteen_card_run_in_a_contract_and_no_ace_on_a_whole_run():
    round_no = 8                                                  # a set of 3 and a run of 10
    ace_ace = np.zeros(13, dtype=np.int64)
    ace_ace[T_KIND], ace_ace[T_SUIT], ace_ace[T_LO], ace_ace[T_HI], ace_ace[T_NATURALS] = MELD_RUN, 2, 0, 13, 14
    assert not meld_ok(ace_ace, True)
    with pytest.raises(ValueError):
        parse_table_meld(f"{HEARTS} HA")
    # the legal-move layer refuses a proposal with A-...-K-A and takes A-...-K
    hand = f"{HEARTS} HA C5 D5 S5 C2"
    s = position([hand, FILLER, FILLER], "D9", "", round_no=round_no, discarder=2)
    s.melds[0] = parse_table_meld("C5 D5 S5")
    s.melds[1] = ace_ace
    s.ints[I_PROPOSAL_N] = 2
    assert not M.is_legal(s, M.CONTRACT)
    s.melds[1] = parse_table_meld(HEARTS)
    assert M.is_legal(s, M.CONTRACT)
    # once A-...-K (or 2-...-K-A) is on the table, the other ace is no lay-off, nor a joker
    for run in (HEARTS, "H2 H3 H4 H5 H6 H7 H8 H9 H10 HJ HQ HK HA"):
        row = parse_table_meld(run)
        assert fit(row, c("HA"), True) == FIT_NONE and fit(row, c("JK"), True) == FIT_NONE
        s = position(["HA JK C3", FILLER, FILLER], "D9", "", round_no=round_no, table=[(1, run)],
                     down={0: 1}, discarder=2)
        assert legal(s) == [M.STOP]
        assert not M.is_legal(s, layoff("HA", 0)) and not M.is_legal(s, layoff("JK", 0))
