"""Melds of one 52-card deck without jokers, on bitmasks: Basic Rummy's and Gin Rummy's (docs/rules.md
1.2, 1.3, 1.5, 4.2; layout in ``rummysim.cards``).

All functions take plain ``uint64`` card masks (16-bit lane per suit, rank in
the lane, ace = bit 0). ``ace_high`` (rules 1.7 option ``ace``) lets a run end
in an ace above the king: such runs are found in an *extended* lane in which
bit 13 copies the ace, so Q-K-A is a shift like any other run.

Table melds are kept as ``(mask, kind)`` pairs with ``kind`` 0 for a set (mask
in card space) and 1 for a run (mask in extended space, so an ace-high run
knows which end its ace is on).
"""

import numpy as np
from numba import njit

from .bits import U64, bit, lowest_card, popcount  # noqa: F401  (used as M.bit etc. by the kernels)

LANE = U64(0xFFFF)
RANKS13 = U64(0x1FFF1FFF1FFF1FFF)   # ranks A..K of every lane
ACES = U64(0x0001000100010001)      # bit 0 of every lane
STARTS_LOW = U64(0x07FF07FF07FF07FF)   # run of 3 may start at A..J
STARTS_HIGH = U64(0x0FFF0FFF0FFF0FFF)  # ... or at Q when bit 13 is the high ace
EXT_LOW = RANKS13
EXT_HIGH = U64(0x3FFF3FFF3FFF3FFF)
FULL_DECK = RANKS13

KIND_SET = 0
KIND_RUN = 1

#: value of each card id (rules 1.6): ace 1, 2-10 face, J/Q/K 10; 0 off the deck.
CARD_VALUE = np.zeros(64, dtype=np.int64)
for _s in range(4):
    for _r in range(13):
        CARD_VALUE[16 * _s + _r] = min(_r + 1, 10)


@njit(cache=True, _nrt=False)
def mask_value(mask, card_value):
    """Sum of card values in ``mask``; ``card_value`` is int64[64]."""
    total = 0
    m = mask
    while m:
        c = lowest_card(m)
        total += card_value[c]
        m &= m - U64(1)
    return total


@njit(cache=True, inline="always")
def extend(mask, ace_high):
    """Card space -> extended space (copy each ace to bit 13 of its lane when aces are high)."""
    if ace_high:
        return mask | ((mask & ACES) << U64(13))
    return mask


@njit(cache=True, inline="always")
def to_cards(ext):
    """Extended space -> card space (bit 13 of a lane is the ace)."""
    return (ext & RANKS13) | ((ext >> U64(13)) & ACES)


@njit(cache=True, inline="always")
def run_starts(hand, ace_high):
    """Extended-space bits where a run of 3 starts inside ``hand``."""
    e = extend(hand, ace_high)
    starts = e & (e >> U64(1)) & (e >> U64(2))
    return starts & (STARTS_HIGH if ace_high else STARTS_LOW)


@njit(cache=True, inline="always")
def rank_counts_at_least(hand, k):
    """13-bit mask of the ranks held in at least ``k`` suits (k in 1..4)."""
    a = hand & LANE
    b = (hand >> U64(16)) & LANE
    c = (hand >> U64(32)) & LANE
    d = (hand >> U64(48)) & LANE
    if k == 1:
        return a | b | c | d
    if k == 2:
        return (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)
    if k == 3:
        return (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d)
    return a & b & c & d


@njit(cache=True, _nrt=False)
def has_meld(hand, ace_high):
    """True when some three cards of ``hand`` form a meld."""
    return run_starts(hand, ace_high) != 0 or rank_counts_at_least(hand, 3) != 0


@njit(cache=True, _nrt=False)
def melded_cards(hand, ace_high):
    """Union of the cards of ``hand`` that belong to at least one meld of ``hand``."""
    out = U64(0)
    s3 = rank_counts_at_least(hand, 3)
    if s3:
        spread = s3 | (s3 << U64(16)) | (s3 << U64(32)) | (s3 << U64(48))
        out |= hand & spread
    st = run_starts(hand, ace_high)
    if st:
        out |= to_cards(st | (st << U64(1)) | (st << U64(2)))
    return out


@njit(cache=True, inline="always")
def _contiguous(x):
    """True when the set bits of non-zero ``x`` are one unbroken block."""
    y = x >> U64(lowest_card(x))
    return (y & (y + U64(1))) == 0


@njit(cache=True, _nrt=False)
def is_meld(cards, ace_high):
    """True when ``cards`` (card space) is one valid meld (rules 1.2; 1.7 ``ace``)."""
    if popcount(cards) < 3:
        return False
    low = lowest_card(cards)
    if cards & (ACES << U64(low & 15)) == cards:
        return True
    lane = cards >> U64(low & 48)
    if lane & ~U64(0x1FFF):
        return False
    if _contiguous(lane):
        return True
    return ace_high and (lane & U64(1)) != 0 and _contiguous((lane & ~U64(1)) | U64(1 << 13))


@njit(cache=True, _nrt=False)
def list_melds(hand, ace_high, out):
    """Write every meld contained in ``hand`` to ``out`` (uint64[>=64]); return the count.

    Sets are written in card space, runs converted to card space too; ``out``
    is the list used by searches (ace-high runs are distinct masks from
    ace-low ones, so both appear when both are possible).
    """
    n = 0
    s3 = rank_counts_at_least(hand, 3)
    while s3:
        r = lowest_card(s3)
        s3 &= s3 - U64(1)
        cards = hand & (ACES << U64(r))
        if popcount(cards) == 4:
            out[n] = cards
            n += 1
            m = cards
            while m:
                low = m & (~m + U64(1))
                out[n] = cards ^ low
                n += 1
                m ^= low
        else:
            out[n] = cards
            n += 1
    st = run_starts(hand, ace_high)
    e = extend(hand, ace_high)
    while st:
        s = lowest_card(st)
        st &= st - U64(1)
        run = (U64(7) << U64(s))
        length = 3
        while True:
            # never K-A-2; and 2..K-A is the same cards as A..K, listed once
            if not (run & (ACES << U64(13)) and length >= 13):
                out[n] = to_cards(run)
                n += 1
            nxt = U64(1) << U64(s + length)
            if (s & 15) + length > (13 if ace_high else 12) or not (e & nxt):
                break
            run |= nxt
            length += 1
    return n


@njit(cache=True, _nrt=False)
def best_partition(hand, ace_high, card_value, melds, stack_r, stack_d, stack_m):
    """Exact least-deadwood split of ``hand`` into disjoint melds, without recursion.

    Depth-first search with an explicit stack, branching on the lowest card
    left: it is deadwood, or it goes into one of the melds that hold it.
    Hands of at most 11 cards (Basic Rummy): they hold at most 45 melds, within the
    64 slots of ``melds`` and the 64 bits of ``chosen``.
    ``melds`` uint64[64] receives ``list_melds(hand)``; ``stack_r``/``stack_m``
    uint64[1024] and ``stack_d`` int64[1024] are scratch.
    Returns ``(deadwood_value, chosen)`` where bit i of the uint64 ``chosen``
    says ``melds[i]`` is in the best split.
    """
    n = list_melds(hand, ace_high, melds)
    if n == 0:
        return mask_value(hand, card_value), U64(0)
    best = 1 << 30
    best_chosen = U64(0)
    stack_r[0] = hand
    stack_d[0] = 0
    stack_m[0] = U64(0)
    top = 1
    while top > 0:
        top -= 1
        r = stack_r[top]
        d = stack_d[top]
        m = stack_m[top]
        if d >= best:
            continue
        if r == 0:
            best = d
            best_chosen = m
            continue
        low = r & (~r + U64(1))
        stack_r[top] = r ^ low
        stack_d[top] = d + card_value[lowest_card(r)]
        stack_m[top] = m
        top += 1
        for i in range(n):
            mi = melds[i]
            if (mi & low) and (mi & r) == mi:
                stack_r[top] = r ^ mi
                stack_d[top] = d
                stack_m[top] = m | (U64(1) << U64(i))
                top += 1
    return best, best_chosen


@njit(cache=True, _nrt=False)
def chosen_cards(melds, chosen):
    """Union of ``melds[i]`` over the bits i of ``chosen``."""
    out = U64(0)
    c = chosen
    while c:
        out |= melds[lowest_card(c)]
        c &= c - U64(1)
    return out


@njit(cache=True, _nrt=False)
def layoff_cards(t_mask, t_kind, ace_high):
    """Cards that would extend one table meld (card space). See module doc for ``t_mask``/``t_kind``."""
    if t_kind == KIND_SET:
        if popcount(t_mask) >= 4:
            return U64(0)
        return (ACES << U64(lowest_card(t_mask) & 15)) & ~t_mask
    lane = LANE << U64(lowest_card(t_mask) & 48)
    ext = ((t_mask << U64(1)) | (t_mask >> U64(1))) & ~t_mask & lane & (EXT_HIGH if ace_high else EXT_LOW)
    return to_cards(ext) & ~to_cards(t_mask)


@njit(cache=True, _nrt=False)
def grow_meld(t_mask, t_kind, card, ace_high):
    """The table meld ``t_mask`` with ``card`` laid off on it (``card`` must fit)."""
    b = bit(card)
    if t_kind == KIND_SET:
        return t_mask | b
    below = (t_mask >> U64(1)) & ~t_mask
    if below & b:  # the low end: an ace fits low only
        return t_mask | b
    return t_mask | (extend(b, ace_high) & (t_mask << U64(1)))


@njit(cache=True, _nrt=False)
def table_meld_of(meld, ace_high):
    """``(kind, stored mask)`` of a meld being laid down (card space in, table form out)."""
    rank = lowest_card(meld) & 15
    if meld & (ACES << U64(rank)) == meld:
        return KIND_SET, meld
    if ace_high and (meld & ACES) and (meld & (ACES << U64(12))):  # ends in the high ace
        return KIND_RUN, (meld & ~ACES) | ((meld & ACES) << U64(13))
    return KIND_RUN, meld


@njit(cache=True, _nrt=False)
def table_layoffs(t_mask, t_kind, n_table, ace_high):
    """Union of the lay-off cards of the first ``n_table`` table melds."""
    out = U64(0)
    for k in range(n_table):
        out |= layoff_cards(t_mask[k], t_kind[k], ace_high)
    return out


@njit(cache=True, _nrt=False)
def blocked(table_cards, layable, hands, players, ace_high):
    """Rules 1.5 ``blocked``: nobody can ever finish.

    ``layable`` is the union of the table's lay-off cards; ``hands`` uint64[players].
    Blocked when no reachable card (not on the table) can be laid off and either
    every hand holds at most one card or no three reachable cards form a meld.
    """
    reachable = FULL_DECK & ~table_cards
    if reachable & layable:
        return False
    for p in range(players):
        if popcount(hands[p]) > 1:
            return not has_meld(reachable, ace_high)
    return True
