"""Card notation and the bit layout of rummysim.cards."""

import numpy as np
import pytest

from rummysim.cards import (
    DECK,
    FULL_DECK_MASK,
    card_id,
    card_name,
    card_value,
    cards_of,
    format_mask,
    mask_of,
    parse_cards,
)


def test_layout_corners():
    assert card_id("CA") == 0
    assert card_id("CK") == 12
    assert card_id("DA") == 16
    assert card_id("HA") == 32
    assert card_id("SA") == 48
    assert card_id("SK") == 60


def test_parse_a_set():
    assert parse_cards("H8 S8 D8") == [16 * 2 + 7, 16 * 3 + 7, 16 * 1 + 7]


def test_aces_tens_faces():
    assert card_id("H1") == card_id("HA") == 32
    assert card_id("D10") == card_id("DT") == 16 + 9
    assert parse_cards("SJ SQ SK") == [58, 59, 60]


def test_lowercase_and_spaces():
    assert card_id("h8") == card_id("H8")
    assert card_id("sk") == 60
    assert card_id("dt") == card_id("d10") == 25
    assert card_id("ha") == card_id("h1") == 32
    assert card_id(" c5 ") == 4
    assert parse_cards("h8, s8 ,d8") == parse_cards("H8 S8 D8")
    assert parse_cards(["H8", "s8"]) == [39, 55]


def test_format_writes_A_and_10():
    assert card_name(card_id("H1")) == "HA"
    assert card_name(card_id("DT")) == "D10"
    assert card_name(0) == "CA"
    assert card_name(60) == "SK"


def test_round_trip_all_52():
    assert len(DECK) == 52
    names = [card_name(int(c)) for c in DECK]
    assert len(set(names)) == 52
    for c, name in zip(DECK, names):
        assert card_id(name) == c
        assert card_id(name.lower()) == c
        assert 0 <= c % 16 < 13 and 0 <= c // 16 < 4
    assert parse_cards(" ".join(names)) == [int(c) for c in DECK]


def test_masks():
    assert FULL_DECK_MASK == np.uint64(0x1FFF1FFF1FFF1FFF)
    assert cards_of(FULL_DECK_MASK) == [int(c) for c in DECK]
    m = mask_of("SK C5 H8")
    assert isinstance(m, np.uint64)
    assert int(m) == (1 << 60) | (1 << 4) | (1 << 39)
    assert format_mask(m) == "C5 H8 SK"
    assert mask_of([4, 39, 60]) == m
    with pytest.raises(ValueError, match="H8"):
        mask_of("H8 h8")


def test_values():
    assert [card_value(card_id(f"C{r}")) for r in "A 2 5 9 10 J Q K".split()] == [1, 2, 5, 9, 10, 10, 10, 10]
    assert sum(card_value(int(c)) for c in DECK) == 4 * (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 30)


@pytest.mark.parametrize("bad", ["X9", "H11", "H", "", "H0", "HAA", "9H", "H-1", "C14"])
def test_bad_card_names_the_card(bad):
    with pytest.raises(ValueError) as info:
        card_id(bad)
    assert repr(bad) in str(info.value)


def test_bad_card_in_a_list_is_named():
    with pytest.raises(ValueError, match="'X9'"):
        parse_cards("H8 X9 D8")


@pytest.mark.parametrize("bad", [-1, 13, 15, 64, 29 + 16 * 4])
def test_bad_card_id(bad):
    with pytest.raises(ValueError, match=str(bad)):
        card_name(bad)


def test_joker_only_where_allowed():
    from rummysim.cards import JOKER

    assert card_id("JK", allow_joker=True) == JOKER and card_name(JOKER) == "JK"
    assert parse_cards("H7 JK s7", allow_joker=True) == [card_id("H7"), JOKER, card_id("S7")]
    with pytest.raises(ValueError, match="only Shanghai Rummy has jokers"):
        card_id("JK")
    with pytest.raises(ValueError, match="'JK'"):
        parse_cards("H7 JK")
