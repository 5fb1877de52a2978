"""Gin Rummy's deadwood searches (compiled; docs/rules.md 4.2, 4.5): the least deadwood of a hand, and
of an 11-card hand after each possible discard, found in one search.

A hand's deadwood is its value less the value of its best arrangement: a set of disjoint melds (any
run of 3 or more cards of a suit, any set of 3 or 4 of a rank; ``engine.melds.list_melds``).

``deadwood`` searches the arrangements of one hand (``melds.best_partition``). After a draw the
rules layer needs more: the deadwood each of the 11 cards would leave if discarded (the knock's
discard list, the bots' discard). Searching 11 ten-card hands would repeat the same arrangements
11 times; ``discard_deadwood`` walks every arrangement of the 11 cards once and keeps, for each card,
the best arrangement that leaves it out: discarding card c leaves exactly the arrangements without c.
"""

from numba import njit

from ...engine import melds as M
from ...engine.bits import U64, card_index
from .state import (CARD_SLOTS, I_LEFT_AFTER, MELD_SLOTS, STACK, W_BUF2, W_STACK_M, W_STACK_R, X_BEST_WITHOUT,
                    X_MELD_VALUE, X_STACK_D)


@njit(cache=True, _nrt=False)
def deadwood(state, hand):
    """The least deadwood of ``hand`` (rules 4.2): its value less its best set of disjoint melds."""
    work, iwork = state.work, state.iwork
    return M.best_partition(hand, False, state.card_value, work[W_BUF2:W_BUF2 + MELD_SLOTS],
                            work[W_STACK_R:W_STACK_R + STACK], iwork[X_STACK_D:X_STACK_D + STACK],
                            work[W_STACK_M:W_STACK_M + STACK])[0]


@njit(cache=True, _nrt=False)
def _best_melded_without(melds, n, card_value, value, without, stack_used, stack_value, stack_next):
    """Walk every set of disjoint melds among ``melds[:n]`` (a hand's melds, uint64) and return the
    largest melded value and the cards in some meld; ``without`` int64[64] receives, for each card id
    c in some meld, the largest melded value of a set that leaves c out (0: the empty set).
    ``value`` int64[>=n] gets each meld's value.

    Depth first with an explicit stack (``stack_used`` uint64 the cards used, ``stack_value`` int64
    their value, ``stack_next`` uint64 the next meld that may join, so each set is visited once, its
    melds in index order).
    """
    melded = U64(0)
    for i in range(n):
        melded |= melds[i]
        value[i] = M.mask_value(melds[i], card_value)
    m = melded
    while m:
        without[M.lowest_card(m)] = 0
        m &= m - U64(1)
    best = 0
    stack_used[0] = U64(0)
    stack_value[0] = 0
    stack_next[0] = U64(0)
    top = 1
    while top > 0:
        top -= 1
        used = stack_used[top]
        v = stack_value[top]
        start = stack_next[top]
        if v > best:
            best = v
        free = melded & ~used
        while free:
            c = M.lowest_card(free)
            free &= free - U64(1)
            if v > without[c]:
                without[c] = v
        for i in range(start, n):
            if melds[i] & used == 0:
                stack_used[top] = used | melds[i]
                stack_value[top] = v + value[i]
                stack_next[top] = i + 1
                top += 1
    return best, melded


@njit(cache=True, _nrt=False)
def discard_deadwood(state, hand, keep, record):
    """The least deadwood ``hand`` (11 cards after a draw; any size) can leave by a discard other than
    the cards of ``keep``;
    with ``record``, each card's (``keep``'s too) also into ``ints[I_LEFT_AFTER + card index]``, which
    the knock's discard list, ``moves.is_legal`` and the bots read instead of searching again."""
    ints, card_value, work, iwork = state.ints, state.card_value, state.work, state.iwork
    melds = work[W_BUF2:W_BUF2 + MELD_SLOTS]
    without = iwork[X_BEST_WITHOUT:X_BEST_WITHOUT + CARD_SLOTS]
    n = M.list_melds(hand, False, melds)
    total = M.mask_value(hand, card_value)
    best_all = 0
    melded = U64(0)
    if n > 0:
        best_all, melded = _best_melded_without(melds, n, card_value, iwork[X_MELD_VALUE:X_MELD_VALUE + MELD_SLOTS],
                                                without, work[W_STACK_R:W_STACK_R + STACK],
                                                iwork[X_STACK_D:X_STACK_D + STACK], work[W_STACK_M:W_STACK_M + STACK])
    best = 1 << 30
    m = hand
    while m:
        c = M.lowest_card(m)
        m &= m - U64(1)
        b = M.bit(c)
        kept = without[c] if melded & b else best_all
        d = total - card_value[c] - kept
        if record:
            ints[I_LEFT_AFTER + card_index(c)] = d
        if d < best and not keep & b:
            best = d
    return best
