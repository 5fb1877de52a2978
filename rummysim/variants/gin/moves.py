"""Gin Rummy's rules as moves (compiled): what the seat to act may do, and doing it.

The one place legality is defined (docs/rules.md section 4, rulings 3.14-3.18). A hand is a
``state.State``; its decision point is ``ints[I_PHASE]`` and the seat to act ``ints[I_SEAT]``. Bots,
a person, a learning agent or a search all play through ``legal_moves(state, out)``,
``is_legal(state, move)``, ``apply(state, move)``, ``is_over(state)``, and read the result with
``scores(state, out)``.

Action encoding (one flat int range, ``NUM_ACTIONS`` = 242), OpenSpiel's ``gin_rummy`` numbering
with rummysim's card index (13 * suit + rank, suits C D H S):

=====================  ==============================  ===============================================
action                 phase                           meaning
=====================  ==============================  ===============================================
0 .. 51                discard, knock discard, layoff  discard card index i; the knocker's discard;
                                                       the defender lays card i off (4.4-4.6)
52 ``DRAW_UPCARD``     first upcard, draw              take the upcard (4.3, 4.4)
53 ``DRAW_STOCK``      first upcard (after two         take the top card of the stock
                       passes), draw
54 ``PASS``            first upcard, knock meld,       pass the first upcard; done laying melds; done
                       layoff, defender meld, wall     laying off; no knock at the wall (4.3-4.6)
55 ``KNOCK``           discard, wall                   knock (4.5)
56 .. 240              knock meld, defender meld       lay ``MELD_TABLE[j]``, ``j = action - 56``
``MELD_BASE + j``
241 ``BIG_GIN``        discard                         go big gin: 11 cards melded, no discard
                                                       (option ``big_gin_bonus``)
=====================  ==============================  ===============================================

``MELD_TABLE`` uint64[185]: the melds of 3 to 5 cards (a longer run is laid as two), in OpenSpiel's
order (``meld_id``: sets of rank r 5r + the missing suit, 5r + 4 the four; runs of 3, 4, 5 cards by
OpenSpiel's suit and lowest rank), so an OpenSpiel action is the same number here once its card is
translated (``OS_SUIT``; tests/test_gin_openspiel.py).

What ``apply`` does on its own after a move: a discard that leaves two cards in the stock brings the
wall (4.6); the 50th take of the upcard ends the hand with no score; the knocker's pass with no
deadwood skips the lay-offs (gin); the defender's last pass scores the hand (4.7).
"""

import numpy as np
from numba import njit

from ...engine import melds as M
from ...engine import bits
from ...engine.bits import U64, card_of_index
from ...engine.codes import (EV_DISCARD, EV_DRAW_DISCARD, EV_DRAW_STOCK, EV_KNOCK, EV_LAYOFF, EV_MELD, EV_PASS,
                            OUT_STALEMATE_STOCK, OUT_TURN_LIMIT, OUT_WIN)
from ...engine.events import EV_CARDS, close_event, open_event
from .deadwood import deadwood, discard_deadwood
from .state import (
    I_BEST_DEADWOOD, I_BIG_GIN, I_DEALER, I_DISCARDS_SEAT, I_DEFENDER_DEADWOOD, I_DISCARD_DRAWS_SEAT, I_GIN,
    I_KNOCK_CARD, I_KNOCKER, I_KNOCKER_DEADWOOD, I_LAID_OFF_SEAT, I_LEFT_AFTER, I_MELDS_LAID_SEAT,
    I_N_KNOCKER_MELDS, I_N_TABLE, I_OUTCOME, I_PASSES, I_PHASE, I_PILE_N, I_POINTS, I_SEAT, I_STOCK_N, I_TAKEN,
    I_TURN, I_UNDERCUT, I_UPCARD_DRAWS, I_WINNER, M_HAND, M_HELD, M_LAYABLE, M_PASSED, M_PICKED, M_PILE, M_TABLE,
    M_THREW, PH_DEFENDER_MELD, I_N_EV, I_PILE, I_STOCK, I_T_KIND, M_T_LAY, M_T_MASK, MAX_TABLE, MELD_SLOTS, W_BUF,
    PH_DISCARD, PH_DRAW, PH_FIRST_UPCARD, PH_KNOCK_DISCARD, PH_KNOCK_MELD, PH_LAYOFF, PH_OVER, PH_WALL,
    R_BIG_GIN_BONUS, R_CHECK, R_GIN_BONUS, R_TIE_UNDERCUT, R_UNDERCUT_BONUS, UPCARD_DRAW_LIMIT, WALL,
)

DRAW_UPCARD = 52
DRAW_STOCK = 53
PASS = 54
KNOCK = 55
MELD_BASE = 56

#: OpenSpiel's suit (spades, clubs, diamonds, hearts = 0..3) of rummysim's suits C, D, H, S
OS_SUIT = (1, 2, 3, 0)


def meld_id(cards):
    """OpenSpiel's number of the meld made of rummysim card ids ``cards`` (3 to 5 of them)."""
    ranks = sorted(c % 16 for c in cards)
    suits = {c // 16 for c in cards}
    if len(set(ranks)) == 1:
        if len(cards) == 4:
            return 5 * ranks[0] + 4
        missing = OS_SUIT[({0, 1, 2, 3} - suits).pop()]
        return 5 * ranks[0] + missing
    s, r = OS_SUIT[suits.pop()], ranks[0]
    return {3: 65 + 11 * s + r, 4: 109 + 10 * s + r, 5: 149 + 9 * s + r}[len(cards)]


def _meld_table():
    table = np.zeros(185, dtype=np.uint64)
    for r in range(13):
        table[meld_id([16 * s + r for s in range(4)])] = sum(1 << (16 * s + r) for s in range(4))
        for skip in range(4):
            cards = [16 * s + r for s in range(4) if s != skip]
            table[meld_id(cards)] = sum(1 << c for c in cards)
    for s in range(4):
        for length in (3, 4, 5):
            for r in range(14 - length):
                cards = [16 * s + r + i for i in range(length)]
                table[meld_id(cards)] = sum(1 << c for c in cards)
    assert len(set(table.tolist())) == 185 and table.all()
    return table


MELD_TABLE = _meld_table()
N_MELDS = 185
BIG_GIN = MELD_BASE + N_MELDS    # 241
NUM_ACTIONS = BIG_GIN + 1        # 242
#: room for every legal move at one decision: 11 cards, or every meld of a hand (at most 64) and a pass
MAX_LEGAL = 72
_MELD_ORDER = np.argsort(MELD_TABLE)
_MELD_SORTED = MELD_TABLE[_MELD_ORDER]

# event log (replay): one row per event, int16[EV_WIDTH]
EV_WIDTH = 20  # kind, player, card, meld index, n cards, cards... (``engine.events``)


# ------------------------------------------------------------------ encoding
#: card id -> card index, the action number of a discard (``engine.bits``, as Basic Rummy's)
card_index = bits.card_index


@njit(cache=True, _nrt=False)
def meld_index(mask):
    """The index in ``MELD_TABLE`` of the card mask ``mask``, or -1 (not a meld of 3-5 cards)."""
    lo = 0
    hi = N_MELDS
    while lo < hi:
        mid = (lo + hi) >> 1
        if _MELD_SORTED[mid] < mask:
            lo = mid + 1
        else:
            hi = mid
    if lo < N_MELDS and _MELD_SORTED[lo] == mask:
        return _MELD_ORDER[lo]
    return -1


# ------------------------------------------------------------------ knocking
@njit(cache=True, inline="always", _nrt=False)
def taken_bit(ints):
    """Mask of the card taken from the discard pile this turn (0 if none; ruling 3.14)."""
    return M.bit(ints[I_TAKEN]) if ints[I_TAKEN] >= 0 else U64(0)


@njit(cache=True, _nrt=False)
def _may_knock(state):
    return state.ints[I_BEST_DEADWOOD] <= state.ints[I_KNOCK_CARD]


@njit(cache=True, _nrt=False)
def _may_go_big_gin(state, hand):
    return state.rules[R_BIG_GIN_BONUS] > 0 and deadwood(state, hand) == 0


@njit(cache=True, _nrt=False)
def knocker_meld_ok(state, hand, meld):
    """May the knocker lay ``meld``: some set of disjoint melds holding it leaves at most the knock card
    of deadwood (rules 4.5)?"""
    return deadwood(state, hand & ~meld) <= state.ints[I_KNOCK_CARD]


# ------------------------------------------------------------------ legality
@njit(cache=True, inline="always", _nrt=False)
def forced_move(state):
    """The move that is no choice (after two passes of the first upcard: the stock), else -1."""
    ints = state.ints
    if ints[I_PHASE] == PH_FIRST_UPCARD and ints[I_PASSES] == 2:
        return DRAW_STOCK
    return -1


@njit(cache=True, _nrt=False)
def legal_moves(state, out):
    """Write every legal move at the current decision to ``out`` (int64[>=MAX_LEGAL]), ascending;
    return the count."""
    ints = state.ints
    masks = state.masks
    phase = ints[I_PHASE]
    p = ints[I_SEAT]
    hand = masks[M_HAND + p]
    n = 0
    if phase == PH_FIRST_UPCARD:
        if ints[I_PASSES] == 2:
            out[0] = DRAW_STOCK
            return 1
        out[0] = DRAW_UPCARD
        out[1] = PASS
        return 2
    if phase == PH_DRAW:
        out[0] = DRAW_UPCARD
        out[1] = DRAW_STOCK
        return 2
    if phase == PH_DISCARD or phase == PH_KNOCK_DISCARD:
        n = _card_moves(state, hand & ~taken_bit(ints), phase == PH_KNOCK_DISCARD, out)
        if phase == PH_DISCARD:
            if _may_knock(state):
                out[n] = KNOCK
                n += 1
            if _may_go_big_gin(state, hand):
                out[n] = BIG_GIN
                n += 1
        return n
    if phase == PH_WALL:
        out[0] = PASS
        n = 1
        if _may_knock(state):
            out[1] = KNOCK
            n = 2
        return n
    if phase == PH_LAYOFF:
        n = _card_moves(state, hand & masks[M_LAYABLE], False, out)
        out[n] = PASS
        return n + 1
    if phase == PH_KNOCK_MELD or phase == PH_DEFENDER_MELD:
        return _meld_moves(state, hand, phase == PH_KNOCK_MELD, out)
    return 0


@njit(cache=True, _nrt=False)
def _card_moves(state, cards, knock_limit, out):
    """The card actions of ``cards`` in index order (with ``knock_limit``: only those whose discard
    leaves at most the knock card); returns their count."""
    n = 0
    m = cards
    while m:   # card ids ascend with their index (13 * suit + rank)
        i = card_index(M.lowest_card(m))
        m &= m - U64(1)
        if knock_limit and state.ints[I_LEFT_AFTER + i] > state.ints[I_KNOCK_CARD]:
            continue
        out[n] = i
        n += 1
    return n


@njit(cache=True, _nrt=False)
def _meld_moves(state, hand, knocker, out):
    """``PASS`` when the seat may stop (the knocker: cards left within the knock card), then the melds
    of 3-5 cards in ``hand`` (the knocker's: only those that keep him within the knock card), all
    ascending; returns the count."""
    melds = state.work[W_BUF:W_BUF + MELD_SLOTS]
    nm = M.list_melds(hand, False, melds)
    n = 0
    if not knocker or M.mask_value(hand, state.card_value) <= state.ints[I_KNOCK_CARD]:
        out[0] = PASS
        n = 1
    first = n
    for k in range(nm):
        meld = melds[k]
        if M.popcount(meld) > 5:
            continue
        if knocker and not knocker_meld_ok(state, hand, meld):
            continue
        out[n] = MELD_BASE + meld_index(meld)
        n += 1
    # ascending order (insertion sort: a few dozen at most)
    for i in range(first + 1, n):
        x = out[i]
        j = i - 1
        while j >= first and out[j] > x:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = x
    return n


@njit(cache=True, _nrt=False)
def is_legal(state, move):
    """True when ``move`` is legal at the current decision."""
    ints = state.ints
    phase = ints[I_PHASE]
    hand = state.masks[M_HAND + ints[I_SEAT]]
    ok = False
    if phase == PH_FIRST_UPCARD:
        ok = move == DRAW_STOCK if ints[I_PASSES] == 2 else (move == DRAW_UPCARD or move == PASS)
    elif phase == PH_DRAW:
        ok = move == DRAW_UPCARD or move == DRAW_STOCK
    elif phase == PH_DISCARD or phase == PH_KNOCK_DISCARD:
        if 0 <= move < 52:
            b = M.bit(card_of_index(move))
            ok = (hand & b & ~taken_bit(ints)) != 0
            if ok and phase == PH_KNOCK_DISCARD:
                ok = ints[I_LEFT_AFTER + move] <= ints[I_KNOCK_CARD]
        elif phase == PH_DISCARD and move == KNOCK:
            ok = _may_knock(state)
        elif phase == PH_DISCARD and move == BIG_GIN:
            ok = _may_go_big_gin(state, hand)
    elif phase == PH_WALL:
        ok = move == PASS or (move == KNOCK and _may_knock(state))
    elif phase == PH_LAYOFF:
        ok = move == PASS or (0 <= move < 52 and (hand & state.masks[M_LAYABLE] & M.bit(card_of_index(move))) != 0)
    elif phase == PH_KNOCK_MELD or phase == PH_DEFENDER_MELD:
        knocker = phase == PH_KNOCK_MELD
        if move == PASS:
            ok = not knocker or M.mask_value(hand, state.card_value) <= ints[I_KNOCK_CARD]
        elif MELD_BASE <= move < BIG_GIN:
            meld = MELD_TABLE[move - MELD_BASE]
            ok = (meld & hand) == meld and (not knocker or knocker_meld_ok(state, hand, meld))
    return ok


@njit(cache=True, _nrt=False)
def is_over(state):
    return state.ints[I_PHASE] == PH_OVER


@njit(cache=True, _nrt=False)
def scores(state, out):
    """The points each seat scored this hand into ``out`` int64[2] (the winner's 4.7 score, else 0);
    returns the outcome (``engine.codes`` OUT_*)."""
    ints = state.ints
    out[0] = 0
    out[1] = 0
    if ints[I_WINNER] >= 0:
        out[ints[I_WINNER]] = ints[I_POINTS]
    return ints[I_OUTCOME]


# ------------------------------------------------------------ bookkeeping
@njit(cache=True, _nrt=False)
def log_event(ev, ints, kind, player, card, meld, cards_mask):
    """Append one event to ``ev`` when it has room (``ints[I_N_EV]`` rows written), the cards of
    ``cards_mask`` lowest first."""
    n_ev = ints[I_N_EV:I_N_EV + 1]
    i = open_event(ev, n_ev, kind, player, card, meld)
    if i < 0:
        return
    n = 0
    m = cards_mask
    while m:
        ev[i, EV_CARDS + n] = M.lowest_card(m)
        m &= m - U64(1)
        n += 1
    close_event(ev, n_ev, i, n)


@njit(cache=True, _nrt=False)
def check_cards(state):
    """Raise unless every card is in exactly one place (a hand, the table, the stock, the pile) and
    every card a seat is known to hold (``M_HELD``) is in its hand."""
    masks, ints = state.masks, state.ints
    seen = masks[M_HAND] | masks[M_HAND + 1] | masks[M_TABLE]
    total = M.popcount(masks[M_HAND]) + M.popcount(masks[M_HAND + 1]) + M.popcount(masks[M_TABLE])
    pile_mask = U64(0)
    for k in range(ints[I_PILE_N]):
        pile_mask |= M.bit(ints[I_PILE + k])
    for k in range(ints[I_STOCK_N]):
        seen |= M.bit(ints[I_STOCK + k])
    seen |= pile_mask
    total += ints[I_PILE_N] + ints[I_STOCK_N]
    if seen != M.FULL_DECK or total != 52 or pile_mask != masks[M_PILE]:
        raise AssertionError("card conservation broken: a card is missing or in two places")
    for p in range(2):
        if masks[M_HELD + p] & ~masks[M_HAND + p]:
            raise AssertionError("a card known to be held from the discard pile is not in that hand")


@njit(cache=True, _nrt=False)
def begin(state, first):
    """Make the position held in ``state`` (hands, stock, the upcard on the pile, ``I_KNOCK_CARD``) a
    hand in play with seat ``first`` offered the first upcard (the dealer is the other seat)."""
    ints = state.ints
    ints[I_DEALER] = 1 - first
    ints[I_SEAT] = first
    ints[I_PHASE] = PH_FIRST_UPCARD
    ints[I_PASSES] = 0
    ints[I_TAKEN] = -1
    ints[I_KNOCKER] = -1
    ints[I_BIG_GIN] = 0
    ints[I_GIN] = 0
    ints[I_UNDERCUT] = 0
    ints[I_UPCARD_DRAWS] = 0
    ints[I_N_TABLE] = 0
    ints[I_N_KNOCKER_MELDS] = 0
    ints[I_OUTCOME] = OUT_TURN_LIMIT
    ints[I_WINNER] = -1
    ints[I_POINTS] = 0


@njit(cache=True, _nrt=False)
def _over(ints, outcome, winner, points):
    ints[I_PHASE] = PH_OVER
    ints[I_OUTCOME] = outcome
    ints[I_WINNER] = winner
    ints[I_POINTS] = points


@njit(cache=True, _nrt=False)
def _score(state):
    """The defender is done: the hand is scored (rules 4.7, ruling 3.17, option ``tie_undercut``)."""
    ints = state.ints
    k = ints[I_KNOCKER]
    knocker = M.mask_value(state.masks[M_HAND + k], state.card_value)
    defender = M.mask_value(state.masks[M_HAND + 1 - k], state.card_value)
    ints[I_KNOCKER_DEADWOOD] = knocker
    ints[I_DEFENDER_DEADWOOD] = defender
    r = defender - knocker
    if knocker > 0:
        ints[I_BIG_GIN] = 0   # a big gin that passed with cards unlaid is an ordinary knock
    else:
        ints[I_GIN] = 1
        r += state.rules[R_BIG_GIN_BONUS] if ints[I_BIG_GIN] else state.rules[R_GIN_BONUS]
    # option tie_undercut (ruling 3.17): equal deadwood, no gin, is an undercut (Hoyle, the EAAI games)
    if r < 0 or (r == 0 and knocker > 0 and state.rules[R_TIE_UNDERCUT] != 0):
        ints[I_UNDERCUT] = 1
        _over(ints, OUT_WIN, 1 - k, state.rules[R_UNDERCUT_BONUS] - r)
    else:
        _over(ints, OUT_WIN, k, r)


@njit(cache=True, _nrt=False)
def _layable(masks, ints, n):
    """The cards that would extend one of the first ``n`` table melds."""
    return M.table_layoffs(masks[M_T_MASK:M_T_MASK + MAX_TABLE], ints[I_T_KIND:I_T_KIND + MAX_TABLE], n, False)


@njit(cache=True, _nrt=False)
def _lay_meld(state, p, meld):
    """Seat p lays ``meld`` on the table; the knocker's melds take lay-offs (4.6)."""
    ints, masks = state.ints, state.masks
    k = ints[I_N_TABLE]
    kind, stored = M.table_meld_of(meld, False)
    ints[I_T_KIND + k] = kind
    masks[M_T_MASK + k] = stored
    masks[M_T_LAY + k] = M.layoff_cards(stored, kind, False)
    ints[I_N_TABLE] = k + 1
    masks[M_HAND + p] &= ~meld
    masks[M_HELD + p] &= ~meld
    masks[M_TABLE] |= meld
    ints[I_MELDS_LAID_SEAT + p] += 1
    if ints[I_PHASE] == PH_KNOCK_MELD:
        ints[I_N_KNOCKER_MELDS] = k + 1
        masks[M_LAYABLE] = _layable(masks, ints, k + 1)
    if state.ev.shape[0] > 0:
        log_event(state.ev, state.ints, EV_MELD, p, -1, k, meld)


@njit(cache=True, _nrt=False)
def _lay_off(state, p, card):
    """The defender lays ``card`` off: it extends every one of the knocker's melds it fits (4.6)."""
    ints, masks = state.ints, state.masks
    b = M.bit(card)
    first = -1
    extended = U64(0)   # bit k: knocker meld k took the card (the event lists them)
    for k in range(ints[I_N_KNOCKER_MELDS]):
        if masks[M_T_LAY + k] & b:
            masks[M_T_MASK + k] = M.grow_meld(masks[M_T_MASK + k], ints[I_T_KIND + k], card, False)
            masks[M_T_LAY + k] = M.layoff_cards(masks[M_T_MASK + k], ints[I_T_KIND + k], False)
            extended |= U64(1) << U64(k)
            if first < 0:
                first = k
    masks[M_LAYABLE] = _layable(masks, ints, ints[I_N_KNOCKER_MELDS])
    masks[M_HAND + p] &= ~b
    masks[M_HELD + p] &= ~b
    masks[M_TABLE] |= b
    ints[I_LAID_OFF_SEAT + p] += 1
    if state.ev.shape[0] > 0:
        log_event(state.ev, state.ints, EV_LAYOFF, p, card, first, extended)


@njit(cache=True, _nrt=False)
def _take_upcard(state, p):
    ints, masks = state.ints, state.masks
    ints[I_PILE_N] -= 1
    card = ints[I_PILE + ints[I_PILE_N]]
    b = M.bit(card)
    masks[M_PILE] &= ~b
    masks[M_HAND + p] |= b
    masks[M_PICKED + p] |= b
    masks[M_HELD + p] |= b
    ints[I_TAKEN] = card
    ints[I_DISCARD_DRAWS_SEAT + p] += 1
    if state.ev.shape[0] > 0:
        log_event(state.ev, state.ints, EV_DRAW_DISCARD, p, card, -1, U64(0))


@njit(cache=True, _nrt=False)
def _after_draw(state, p):
    """Seat p holds 11 cards: its discard and whether it may knock (rules 4.4, 4.5)."""
    ints = state.ints
    ints[I_BEST_DEADWOOD] = discard_deadwood(state, state.masks[M_HAND + p], taken_bit(ints), True)
    ints[I_PHASE] = PH_DISCARD


@njit(cache=True, _nrt=False)
def _to_pile(state, p, card):
    ints, masks = state.ints, state.masks
    b = M.bit(card)
    masks[M_HAND + p] &= ~b
    masks[M_HELD + p] &= ~b
    ints[I_PILE + ints[I_PILE_N]] = card
    ints[I_PILE_N] += 1
    masks[M_PILE] |= b


# ------------------------------------------------------------------ apply
@njit(cache=True, _nrt=False)
def apply(state, move):
    """Play the legal ``move`` (check with ``is_legal`` first) for the seat to act, then everything
    that follows automatically, up to the next decision or the end of the hand."""
    ints = state.ints
    phase = ints[I_PHASE]
    p = ints[I_SEAT]
    logging = state.ev.shape[0] > 0
    if phase == PH_FIRST_UPCARD or phase == PH_DRAW:
        if move == PASS:
            ints[I_PASSES] += 1
            ints[I_SEAT] = 1 - p
            state.masks[M_PASSED + p] |= M.bit(ints[I_PILE + ints[I_PILE_N] - 1])
            if logging:
                log_event(state.ev, state.ints, EV_PASS, p, -1, phase, U64(0))
        elif move == DRAW_UPCARD:
            if phase == PH_DRAW:
                ints[I_UPCARD_DRAWS] += 1
                if ints[I_UPCARD_DRAWS] >= UPCARD_DRAW_LIMIT:
                    _over(ints, OUT_TURN_LIMIT, -1, 0)
                    return
            _take_upcard(state, p)
            _after_draw(state, p)
        else:
            if ints[I_PILE_N] > 0:
                state.masks[M_PASSED + p] |= M.bit(ints[I_PILE + ints[I_PILE_N] - 1])
            ints[I_STOCK_N] -= 1
            card = ints[I_STOCK + ints[I_STOCK_N]]
            state.masks[M_HAND + p] |= M.bit(card)
            ints[I_TAKEN] = -1
            if logging:
                log_event(state.ev, state.ints, EV_DRAW_STOCK, p, card, -1, U64(0))
            _after_draw(state, p)
    elif phase == PH_DISCARD:
        if move == KNOCK or move == BIG_GIN:
            ints[I_KNOCKER] = p
            if logging:
                log_event(state.ev, state.ints, EV_KNOCK, p, -1, -1, U64(0))
            if move == BIG_GIN:
                ints[I_BIG_GIN] = 1
                ints[I_PHASE] = PH_KNOCK_MELD
            else:
                ints[I_PHASE] = PH_KNOCK_DISCARD
        else:
            card = card_of_index(move)
            _to_pile(state, p, card)
            state.masks[M_THREW + p] |= M.bit(card)
            if logging:
                log_event(state.ev, state.ints, EV_DISCARD, p, card, -1, U64(0))
            ints[I_TURN] += 1
            ints[I_DISCARDS_SEAT + p] += 1
            ints[I_TAKEN] = -1
            ints[I_SEAT] = 1 - p
            if ints[I_STOCK_N] <= WALL:
                ints[I_PHASE] = PH_WALL
                q = 1 - p
                up = M.bit(card)
                ints[I_BEST_DEADWOOD] = discard_deadwood(state, state.masks[M_HAND + q] | up, up, True)
            else:
                ints[I_PHASE] = PH_DRAW
    elif phase == PH_WALL:
        if move == PASS:
            if logging:
                log_event(state.ev, state.ints, EV_PASS, p, -1, phase, U64(0))
            _over(ints, OUT_STALEMATE_STOCK, -1, 0)
            return
        ints[I_KNOCKER] = p
        _take_upcard(state, p)
        if logging:
            log_event(state.ev, state.ints, EV_KNOCK, p, -1, -1, U64(0))
        ints[I_PHASE] = PH_KNOCK_DISCARD
    elif phase == PH_KNOCK_DISCARD:
        card = card_of_index(move)
        _to_pile(state, p, card)
        if logging:
            log_event(state.ev, state.ints, EV_DISCARD, p, card, -1, U64(0))
        ints[I_PHASE] = PH_KNOCK_MELD
    elif phase == PH_KNOCK_MELD or phase == PH_DEFENDER_MELD:
        if move == PASS:
            if logging:
                log_event(state.ev, state.ints, EV_PASS, p, -1, phase, U64(0))
            if phase == PH_DEFENDER_MELD:
                _score(state)
            else:
                ints[I_SEAT] = 1 - p
                gin = M.mask_value(state.masks[M_HAND + p], state.card_value) == 0
                ints[I_PHASE] = PH_DEFENDER_MELD if gin else PH_LAYOFF
        else:
            _lay_meld(state, p, MELD_TABLE[move - MELD_BASE])
    elif phase == PH_LAYOFF:
        if move == PASS:
            if logging:
                log_event(state.ev, state.ints, EV_PASS, p, -1, phase, U64(0))
            ints[I_PHASE] = PH_DEFENDER_MELD
        else:
            _lay_off(state, p, card_of_index(move))
    if state.rules[R_CHECK] != 0:
        check_cards(state)
