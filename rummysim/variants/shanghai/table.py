"""Shanghai melds on the table (docs/rules.md 2.2, 2.3, 2.5): laying a contract, lay-offs, joker swaps.

Meld rows are int64[T_COLS] (columns ``T_*`` of ``core.shanghai_state``).
A joker's identity is fixed when it is placed (2.3): in a run it is the card
of its position; in a set it is "a card of the set's rank", so a swap there
takes any natural of that rank (suits do not matter in a set).

Every function here either tests a move or applies one that was tested;
the engine validates each move a bot proposes with these tests first.
"""

from numba import njit

from ...engine.views import copy_into
from .contracts import CONTRACTS, JOKER_VALUE, RC_HI, RC_JOKER_POS, RC_JOKERS, RC_LO, RC_SUIT, SHANGHAI_VALUE, card_at
from .state import (
    JOKER, MELD_RUN, MELD_SET, T_COLS, T_HI, T_JOKER_POS, T_JOKERS, T_KIND, T_LO, T_NATURALS, T_OWNER,
    T_RANK, T_SUIT, T_SUIT_COUNT,
)

#: points of each card id in hand at the end of a round (rules 2.7); id 63 is the joker
POINTS = SHANGHAI_VALUE.copy()
POINTS[JOKER] = JOKER_VALUE

# where a card goes on a meld (``fit``)
FIT_NONE = 0
FIT_SET = 1
FIT_LOW = 2   # a run's low end
FIT_HIGH = 3  # a run's high end


@njit(cache=True, _nrt=False)
def hand_points(counts):
    """Rules 2.7: the value of a hand ``counts`` int64[64] (jokers at 63 count 25)."""
    total = 0
    for c in range(64):
        total += counts[c] * POINTS[c]
    return total


@njit(cache=True, _nrt=False)
def hand_size(counts):
    n = 0
    for c in range(64):
        n += counts[c]
    return n


@njit(cache=True, _nrt=False)
def materialize(counts, cand, chosen_runs, set_ranks, set_jokers, round_no, melds):
    """Turn a ``best_contract`` answer into meld rows and take their cards out of ``counts``.

    ``counts`` int64[64] (jokers at 63) is the hand the answer was computed on;
    ``melds`` int64[>=6, T_COLS] receives the runs, then the sets; returns the
    number of melds. A rank hosting s sets gets all its naturals that are left,
    split as evenly as possible; jokers go first where a set has only 2 naturals,
    then one at a time to sets with more naturals than jokers.
    """
    n_sets = CONTRACTS[round_no, 0]
    n_runs = CONTRACTS[round_no, 1]
    m = 0
    for t in range(n_runs):
        k = chosen_runs[t]
        row = melds[m]
        row[:] = 0
        row[T_KIND] = MELD_RUN
        row[T_SUIT] = cand[k, RC_SUIT]
        row[T_LO] = cand[k, RC_LO]
        row[T_HI] = cand[k, RC_HI]
        row[T_JOKER_POS] = cand[k, RC_JOKER_POS]
        row[T_JOKERS] = cand[k, RC_JOKERS]
        row[T_NATURALS] = cand[k, RC_HI] - cand[k, RC_LO] + 1 - cand[k, RC_JOKERS]
        for p in range(cand[k, RC_LO], cand[k, RC_HI] + 1):
            if not (cand[k, RC_JOKER_POS] >> p) & 1:
                counts[card_at(cand[k, RC_SUIT], p)] -= 1
        counts[JOKER] -= cand[k, RC_JOKERS]
        m += 1
    first_set = m
    i = 0
    while i < n_sets:
        r = set_ranks[i]
        s_r = 1
        while i + s_r < n_sets and set_ranks[i + s_r] == r:
            s_r += 1
        total = 0
        for s in range(4):
            total += counts[16 * s + r]
        for g in range(s_r):
            row = melds[m + g]
            row[:] = 0
            row[T_KIND] = MELD_SET
            row[T_RANK] = r
            row[T_NATURALS] = total // s_r + (1 if g < total % s_r else 0)
        g = 0
        for s in range(4):  # deal the naturals suit by suit into the groups
            while counts[16 * s + r] > 0:
                while melds[m + g, T_NATURALS] == _suit_total(melds[m + g]):
                    g += 1
                melds[m + g, T_SUIT_COUNT + s] += 1
                counts[16 * s + r] -= 1
        m += s_r
        i += s_r
    jokers = set_jokers
    for g in range(first_set, m):  # a set of two naturals needs its joker
        if melds[g, T_NATURALS] == 2:
            melds[g, T_JOKERS] = 1
            jokers -= 1
    while jokers > 0:
        placed = False
        for g in range(first_set, m):
            if jokers > 0 and melds[g, T_NATURALS] > melds[g, T_JOKERS]:
                melds[g, T_JOKERS] += 1
                jokers -= 1
                placed = True
        if not placed:
            raise ValueError("more jokers for the sets than they can hold")
    counts[JOKER] -= set_jokers
    return m


@njit(cache=True, _nrt=False)
def _suit_total(row):
    return row[T_SUIT_COUNT] + row[T_SUIT_COUNT + 1] + row[T_SUIT_COUNT + 2] + row[T_SUIT_COUNT + 3]


@njit(cache=True, _nrt=False)
def meld_ok(row, ace_high):
    """Rules 2.3: is this row a legal meld (3+ cards, naturals >= jokers, runs in bounds)?"""
    if row[T_JOKERS] < 0 or row[T_NATURALS] < row[T_JOKERS] or row[T_NATURALS] + row[T_JOKERS] < 3:
        return False
    if row[T_KIND] == MELD_SET:
        return 0 <= row[T_RANK] < 13 and _suit_total(row) == row[T_NATURALS]
    if row[T_KIND] != MELD_RUN or not 0 <= row[T_SUIT] < 4:
        return False
    lo = row[T_LO]
    hi = row[T_HI]
    top = 13 if ace_high else 12
    if lo < 0 or hi > top or (lo == 0 and hi == 13) or hi - lo + 1 != row[T_NATURALS] + row[T_JOKERS]:
        return False
    window = (1 << (hi + 1)) - (1 << lo)
    jpos = row[T_JOKER_POS]
    if jpos & ~window:
        return False
    n = 0
    while jpos:
        jpos &= jpos - 1
        n += 1
    return n == row[T_JOKERS]


@njit(cache=True, _nrt=False)
def contract_ok(melds, n, round_no, ace_high):
    """Rules 2.2: exactly the contract's sets and runs, each at least its size, runs of a suit
    not joinable (touching end to end), every meld legal."""
    n_sets = 0
    n_runs = 0
    run_min = CONTRACTS[round_no, 2]
    for i in range(n):
        if not meld_ok(melds[i], ace_high):
            return False
        if melds[i, T_KIND] == MELD_SET:
            n_sets += 1
        else:
            n_runs += 1
            if melds[i, T_HI] - melds[i, T_LO] + 1 < run_min:
                return False
            for j in range(i):
                if melds[j, T_KIND] == MELD_RUN and melds[j, T_SUIT] == melds[i, T_SUIT] and (
                        melds[j, T_HI] + 1 == melds[i, T_LO] or melds[i, T_HI] + 1 == melds[j, T_LO]):
                    return False
    return n_sets == CONTRACTS[round_no, 0] and n_runs == CONTRACTS[round_no, 1]


@njit(cache=True, _nrt=False)
def meld_cards_into(row, counts, sign):
    """Add (sign +1) or take (sign -1) a meld's cards to/from ``counts`` int64[64]."""
    if row[T_KIND] == MELD_SET:
        for s in range(4):
            counts[16 * s + row[T_RANK]] += sign * row[T_SUIT_COUNT + s]
    else:
        for p in range(row[T_LO], row[T_HI] + 1):
            if not (row[T_JOKER_POS] >> p) & 1:
                counts[card_at(row[T_SUIT], p)] += sign
    counts[JOKER] += sign * row[T_JOKERS]


@njit(cache=True, _nrt=False)
def meld_listing(row, out):
    """The meld's cards in order into ``out`` int64[>=16] (runs by position, jokers as 63;
    sets by suit, jokers last); returns how many."""
    n = 0
    if row[T_KIND] == MELD_SET:
        for s in range(4):
            for _ in range(row[T_SUIT_COUNT + s]):
                out[n] = 16 * s + row[T_RANK]
                n += 1
        for _ in range(row[T_JOKERS]):
            out[n] = JOKER
            n += 1
    else:
        for p in range(row[T_LO], row[T_HI] + 1):
            out[n] = JOKER if (row[T_JOKER_POS] >> p) & 1 else card_at(row[T_SUIT], p)
            n += 1
    return n


@njit(cache=True, _nrt=False)
def fit(row, card, ace_high):
    """Where ``card`` (a natural id, or 63 for a joker) would be laid off on the meld ``row``:
    ``FIT_SET``, ``FIT_LOW``, ``FIT_HIGH`` or ``FIT_NONE`` (rules 2.3, 2.5). A joker on a run goes
    to the high end when it is open; when the low end is open too (``joker_both_ends``) the player
    may put it there instead (ruling 3.13)."""
    top = 13 if ace_high else 12
    if card == JOKER:
        if row[T_NATURALS] < row[T_JOKERS] + 1:
            return FIT_NONE
        if row[T_KIND] == MELD_SET:
            return FIT_SET
        if _open_high(row, ace_high):
            return FIT_HIGH
        if _open_low(row):
            return FIT_LOW
        return FIT_NONE
    rank = card & 15
    if row[T_KIND] == MELD_SET:
        return FIT_SET if rank == row[T_RANK] else FIT_NONE
    if card >> 4 != row[T_SUIT]:
        return FIT_NONE
    lo = row[T_LO]
    hi = row[T_HI]
    if lo > 0 and card_at(row[T_SUIT], lo - 1) == card and not (lo - 1 == 0 and hi == 13):
        return FIT_LOW
    if hi < top and card_at(row[T_SUIT], hi + 1) == card and not (lo == 0 and hi + 1 == 13):
        return FIT_HIGH
    return FIT_NONE


@njit(cache=True, inline="always")
def _open_high(row, ace_high):
    """Has the run ``row`` a position above it (not past the top, never K-A-2)?"""
    top = 13 if ace_high else 12
    return row[T_HI] < top and not (row[T_LO] == 0 and row[T_HI] + 1 == 13)


@njit(cache=True, inline="always")
def _open_low(row):
    """Has the run ``row`` a position below it (not below the ace, never K-A-2)?"""
    return row[T_LO] > 0 and not (row[T_LO] - 1 == 0 and row[T_HI] == 13)


@njit(cache=True, _nrt=False)
def joker_both_ends(row, ace_high):
    """Ruling 3.13: is ``row`` a run that takes a joker at either end? Then the player chooses the
    card it stands for: ``fit`` gives the high end, ``FIT_LOW`` the low one."""
    return (row[T_KIND] == MELD_RUN and row[T_NATURALS] >= row[T_JOKERS] + 1 and _open_high(row, ace_high)
            and _open_low(row))


@njit(cache=True, _nrt=False)
def lay_off(row, card, where):
    """Apply a lay-off found by ``fit``; returns the position (runs) or rank (sets) the card took."""
    if where == FIT_SET:
        if card == JOKER:
            row[T_JOKERS] += 1
        else:
            row[T_SUIT_COUNT + (card >> 4)] += 1
            row[T_NATURALS] += 1
        return row[T_RANK]
    pos = row[T_LO] - 1 if where == FIT_LOW else row[T_HI] + 1
    if where == FIT_LOW:
        row[T_LO] = pos
    else:
        row[T_HI] = pos
    if card == JOKER:
        row[T_JOKER_POS] |= 1 << pos
        row[T_JOKERS] += 1
    else:
        row[T_NATURALS] += 1
    return pos


@njit(cache=True, _nrt=False)
def swap_position(row, card):
    """Rules 2.5 joker swap: the position (runs) or rank (sets) of a joker that the natural
    ``card`` stands for in this meld, or -1."""
    if card == JOKER or row[T_JOKERS] == 0:
        return -1
    if row[T_KIND] == MELD_SET:
        return row[T_RANK] if card & 15 == row[T_RANK] else -1
    if card >> 4 != row[T_SUIT]:
        return -1
    jpos = row[T_JOKER_POS]
    rank = card & 15
    if rank == 0:
        if jpos & 1:
            return 0
        if (jpos >> 13) & 1:
            return 13
        return -1
    return rank if (jpos >> rank) & 1 else -1


@njit(cache=True, _nrt=False)
def swap_in(row, card, pos):
    """Put the natural ``card`` where the joker at ``pos`` (from ``swap_position``) was."""
    if row[T_KIND] == MELD_SET:
        row[T_SUIT_COUNT + (card >> 4)] += 1
    else:
        row[T_JOKER_POS] &= ~(1 << pos)
    row[T_NATURALS] += 1
    row[T_JOKERS] -= 1


@njit(cache=True, _nrt=False)
def table_counts(table, n_table, counts):
    """Fill ``counts`` int64[64] with the cards of every table meld."""
    counts[:] = 0
    for k in range(n_table):
        meld_cards_into(table[k], counts, 1)


@njit(cache=True, _nrt=False)
def place(table, n_table, row, owner):
    """Copy a meld row onto the table as meld ``n_table`` for ``owner``."""
    copy_into(table[n_table], row, T_COLS)
    table[n_table, T_OWNER] = owner
