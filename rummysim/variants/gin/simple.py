"""Gin Rummy's ``simple`` bot (compiled): the EAAI competition's ``SimpleGinRummyPlayer`` exactly as
OpenSpiel's ``simple_gin_rummy_bot`` plays it (open_spiel/bots/gin_rummy/simple_gin_rummy_bot.cc), so
that every comparison can use the field's standard opponent at full speed (issue 43).

Its rules, in OpenSpiel's words ("best" melds: the *first* meld group of least deadwood that
OpenSpiel's ``GinRummyUtils::BestMeldGroup`` meets; "best deadwood": the cards outside it):

* the upcard (first upcard and draw): taken when the hand with it may knock (OpenSpiel's count of
  11 cards, ``MinDeadwood``: the best deadwood less its highest card) or when it is not in the best
  deadwood of the hand with it; else pass (first upcard) or the stock;
* the discard: knock as soon as that 11-card count is within the knock card (gin included); else the
  highest card of the best deadwood (by rank, then OpenSpiel's suit order s c d h: rummysim's S C D
  H);
* at the wall: knock whenever OpenSpiel would offer it (the same count), else pass;
* after its knock: discard the highest card of the best deadwood (with all 11 cards melded, the first
  card in OpenSpiel's card order whose discard keeps gin), then lay the best melds, the last in
  OpenSpiel's meld-group order first, then pass;
* as the defender: never lays off; lays its best melds the same way, then passes; against gin it
  passes at once and lays nothing (OpenSpiel's bot queues a pass for the lay-offs, which gin skips,
  so the pass ends the hand).

Which group is "first" (the tie-break between arrangements of equal deadwood, which decides the
discard): ``BestMeldGroup`` walks every ordered sequence of disjoint melds depth first over its list
of the hand's melds (``AllMelds``: the 4-card sets and two of their 3-card subsets rank by rank, then
the 3-card sets sweeping the hand sorted by rank, then the runs of 5, 4 and 3 cards sweeping it sorted
by suit; no run longer than 5) and keeps the first of strictly the highest value. That is the
lexicographically least set, as indices into that list, of the highest value; ``best_group`` finds it
over the hand's melds sorted by ``os_key``. The policy is stateless: OpenSpiel's bot plans its melds
when it first acts after a knock; ``_lay_next`` rebuilds the hand it planned them from (its cards, its
melds on the table and the knock's discard) and lays the rest of that group (tests/test_gin_simple.py
checks every decision against OpenSpiel's bot).

Where rummysim's rules forbid what OpenSpiel's bot does (docs/rules.md ruling 3.14: throwing back the
card just taken from the pile, here only after a knock; a knock only that discard makes possible)
the bot plays the nearest legal move: the highest allowed card of the best deadwood, else the highest
allowed card; no knock."""

from numba import njit

from ...engine import melds as M
from ...engine.bits import U64, card_index
from .deadwood import deadwood
from .moves import DRAW_STOCK, DRAW_UPCARD, KNOCK, MELD_BASE, PASS, is_legal, legal_moves, meld_index
from .state import (
    I_KNOCK_CARD, I_KNOCKER, I_N_KNOCKER_MELDS, I_N_TABLE, I_PHASE, I_PILE, I_PILE_N, I_TAKEN, M_HAND, M_T_MASK, MELD_SLOTS, PH_DEFENDER_MELD, PH_DISCARD,
    PH_DRAW, PH_FIRST_UPCARD, PH_KNOCK_DISCARD, PH_KNOCK_MELD, PH_LAYOFF, PH_WALL, R_HAND_SIZE, W_BUF,
)

#: OpenSpiel's suit (s c d h = 0..3) of rummysim's suits C D H S (``moves.OS_SUIT``), and back
_OS_SUIT = (1, 2, 3, 0)
_OUR_SUIT = (3, 0, 1, 2)


@njit(cache=True, inline="always", _nrt=False)
def os_key(hand, meld):
    """Where ``meld`` (a card mask, 3-5 cards) stands in OpenSpiel's ``AllMelds`` list of ``hand``."""
    low = M.lowest_card(meld)
    suit, rank = low >> 4, low & 15
    same_rank = meld & (M.ACES << U64(rank))
    if same_rank == meld:                              # a set
        n = M.popcount(meld)
        if n == 4:
            return rank * 10
        if M.popcount(hand & (M.ACES << U64(rank))) == 3:
            return 1000 + rank * 10
        missing = M.lowest_card((M.ACES << U64(rank)) & ~meld) >> 4
        pos = _OS_SUIT[missing]                        # a b c d: OpenSpiel's suit order in the 4-card sweep
        if pos == 2:
            return rank * 10 + 1                       # a b d
        if pos == 1:
            return rank * 10 + 2                       # a c d
        if pos == 3:
            return 1000 + rank * 10                    # a b c
        return 1000 + rank * 10 + 1                    # b c d
    length = M.popcount(meld)
    return (2 + 5 - length) * 1000 + (13 * _OS_SUIT[suit] + rank) * 10


@njit(cache=True, _nrt=False)
def os_melds(state, hand):
    """OpenSpiel's ``AllMelds`` of ``hand`` in its order, at ``state.work[W_BUF:]``; returns the count."""
    melds = state.work[W_BUF:W_BUF + MELD_SLOTS]
    n = 0
    for k in range(M.list_melds(hand, False, melds)):
        if M.popcount(melds[k]) <= 5:
            melds[n] = melds[k]
            n += 1
    for i in range(1, n):                              # insertion sort by os_key
        m = melds[i]
        key = os_key(hand, m)
        j = i - 1
        while j >= 0 and os_key(hand, melds[j]) > key:
            melds[j + 1] = melds[j]
            j -= 1
        melds[j + 1] = m
    return n


@njit(cache=True, _nrt=False)
def best_group(state, hand):
    """OpenSpiel's ``BestMeldGroup`` of ``hand``: ``(its cards, its melds in OpenSpiel's order)``, the
    melds 0 where the group has fewer than 3 (at most 3 disjoint melds in 11 cards)."""
    melds = state.work[W_BUF:W_BUF + MELD_SLOTS]
    cv = state.card_value
    n = os_melds(state, hand)
    best, cards, g1, g2, g3 = 0, U64(0), U64(0), U64(0), U64(0)
    for i in range(n):
        a = melds[i]
        va = M.mask_value(a, cv)
        if va > best:
            best, cards, g1, g2, g3 = va, a, a, U64(0), U64(0)
        for j in range(i + 1, n):
            b = melds[j]
            if a & b:
                continue
            vb = va + M.mask_value(b, cv)
            if vb > best:
                best, cards, g1, g2, g3 = vb, a | b, a, b, U64(0)
            for k in range(j + 1, n):
                c = melds[k]
                if (a | b) & c:
                    continue
                vc = vb + M.mask_value(c, cv)
                if vc > best:
                    best, cards, g1, g2, g3 = vc, a | b | c, a, b, c
    return cards, g1, g2, g3


@njit(cache=True, _nrt=False)
def top_card(cards):
    """The highest card of ``cards`` by OpenSpiel's ``RankComparator`` (rank, then its card number:
    suits s c d h), or -1."""
    for rank in range(12, -1, -1):
        for pos in range(3, -1, -1):
            c = 16 * _OUR_SUIT[pos] + rank
            if cards & M.bit(c):
                return c
    return -1


@njit(cache=True, _nrt=False)
def os_deadwood(state, hand):
    """OpenSpiel's ``MinDeadwood`` of ``hand``: the best deadwood's value, less its highest card's when
    the hand holds ``hand_size + 1`` cards (its shortcut for a hand about to discard; ruling 3.15)."""
    group, _, _, _ = best_group(state, hand)
    rest = hand & ~group
    value = M.mask_value(rest, state.card_value)
    if rest and M.popcount(hand) == state.rules[R_HAND_SIZE] + 1:
        value -= state.card_value[top_card(rest)]
    return value


@njit(cache=True, _nrt=False)
def os_discard(state, hand):
    """OpenSpiel's bot's discard (``GetDiscard``) from ``hand``: the highest card of the best deadwood,
    else (all melded) the first card in OpenSpiel's card order whose going leaves no deadwood."""
    group, _, _, _ = best_group(state, hand)
    rest = hand & ~group
    if rest:
        return top_card(rest)
    for pos in range(4):
        for rank in range(13):
            c = 16 * _OUR_SUIT[pos] + rank
            if hand & M.bit(c) and deadwood(state, hand & ~M.bit(c)) == 0:
                return c
    return top_card(hand)


@njit(cache=True, _nrt=False)
def takes_upcard(state, hand):
    """Take the upcard: the hand with it may knock (OpenSpiel's count), or it is in the best melds."""
    ints = state.ints
    up = M.bit(ints[I_PILE + ints[I_PILE_N] - 1])
    with_up = hand | up
    if os_deadwood(state, with_up) <= ints[I_KNOCK_CARD]:
        return True
    group, _, _, _ = best_group(state, with_up)
    return (group & up) != 0


@njit(cache=True, _nrt=False)
def _discard_move(state, hand):
    """The card action of ``os_discard``, or the nearest allowed one (ruling 3.14; module docstring)."""
    c = os_discard(state, hand)
    if is_legal(state, card_index(c)):
        return card_index(c)
    group, _, _, _ = best_group(state, hand)
    taken = state.ints[I_TAKEN]
    allowed = hand & ~(M.bit(taken) if taken >= 0 else U64(0))
    for cards in (allowed & ~group, allowed):
        m = cards
        while m:
            c = top_card(m)
            if is_legal(state, card_index(c)):
                return card_index(c)
            m &= ~M.bit(c)
    return -1


@njit(cache=True, _nrt=False)
def _lay_next(state, p, hand, knocker):
    """The next meld OpenSpiel's bot lays: it plans them once, when it first acts after the knock, as
    the best group of the hand it then holds (the knocker: its 11 cards, or the 10 it keeps when all
    11 are melded; the defender: its 10), and lays them last first. That hand is the cards in hand,
    the seat's melds on the table and, for the knocker, its discard on the pile (the order of the
    group depends on all of them: a fourth card of a rank puts its sets first); the next meld is
    the group's last still in hand, else pass."""
    ints, masks = state.ints, state.masks
    first = 0 if knocker else ints[I_N_KNOCKER_MELDS]
    last = ints[I_N_KNOCKER_MELDS] if knocker else ints[I_N_TABLE]
    planned = hand
    for k in range(first, last):
        planned |= masks[M_T_MASK + k]
    if knocker:   # its discard is in the plan but when all 11 cards are melded
        with_discard = planned | M.bit(ints[I_PILE + ints[I_PILE_N] - 1])
        if os_deadwood(state, with_discard) > 0:
            planned = with_discard
    _, g1, g2, g3 = best_group(state, planned)
    for m in (g3, g2, g1):
        if m != 0 and (m & ~hand) == 0:
            return MELD_BASE + meld_index(m)
    return PASS


@njit(cache=True, _nrt=False)
def choose(state, p, legal):
    """Seat p's move (it is to act) by OpenSpiel's simple bot's rules; ``legal`` int64[MAX_LEGAL] scratch."""
    ints = state.ints
    phase = ints[I_PHASE]
    hand = state.masks[M_HAND + p]
    kc = ints[I_KNOCK_CARD]
    if phase == PH_FIRST_UPCARD:
        if legal_moves(state, legal) == 1:
            return legal[0]
        return DRAW_UPCARD if takes_upcard(state, hand) else PASS
    if phase == PH_DRAW:
        return DRAW_UPCARD if takes_upcard(state, hand) else DRAW_STOCK
    if phase == PH_DISCARD:
        if os_deadwood(state, hand) <= kc and is_legal(state, KNOCK):
            return KNOCK
        return _discard_move(state, hand)
    if phase == PH_WALL:
        up = M.bit(ints[I_PILE + ints[I_PILE_N] - 1])
        if is_legal(state, KNOCK) and os_deadwood(state, hand | up) <= kc:
            return KNOCK
        return PASS
    if phase == PH_KNOCK_DISCARD:
        return _discard_move(state, hand)
    if phase == PH_LAYOFF:
        return PASS
    if phase == PH_DEFENDER_MELD and M.mask_value(state.masks[M_HAND + ints[I_KNOCKER]], state.card_value) == 0:
        return PASS
    if phase == PH_KNOCK_MELD or phase == PH_DEFENDER_MELD:
        return _lay_next(state, p, hand, phase == PH_KNOCK_MELD)
    return PASS
