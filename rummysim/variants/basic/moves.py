"""Basic Rummy's rules as moves (compiled): what the seat to act may do, and doing it.

The one place legality is defined (docs/rules.md section 1, rulings 3.1-3.3,
3.5-3.6). A hand is a ``state.State``; its decision point is
``ints[I_PHASE]`` (``PH_DRAW``, ``PH_PLAY``, ``PH_DISCARD``, ``PH_OVER``) and
the seat to act ``ints[I_SEAT]``. Bots (``bots.choose``), a person, a learning
agent or a search all play through the same four calls:
``legal_moves(state, out)``, ``is_legal(state, move)``, ``apply(state, move)``,
``is_over(state)``, and read the result with ``scores(state, out)``.

Action encoding (one flat int range, ``NUM_ACTIONS`` = 1308 actions):

==========================  =================  ======================================
action                      phase              meaning
==========================  =================  ======================================
0 .. 51                     ``PH_DISCARD``     discard card index i = 13 * suit + rank
                                               (card id 16 * suit + rank; 1.3.4)
52 ``DRAW_STOCK``           ``PH_DRAW``        take the top card of the stock (1.3.1)
53 ``TAKE_DISCARD``         ``PH_DRAW``        take the top card of the discard pile
54 ``STOP``                 ``PH_PLAY``        no more melds or lay-offs: go to the discard
55 .. 423 ``MELD_BASE + j`` ``PH_PLAY``        lay down ``MELD_TABLE[j]`` (1.2, 1.3.2)
424 .. 1307                 ``PH_PLAY``        lay off card index i on table meld k (1.3.3):
``LAYOFF_BASE + i * MAX_TABLE + k``
==========================  =================  ======================================

``MELD_TABLE`` uint64[369] holds every meld possible under either ace rule as a
card mask, sorted: 65 sets, 264 runs with the ace low and 40 runs ending in a
high ace (Q-K-A up to 3-..-K-A; A-..-K is listed once). ``meld_index`` finds
a mask by binary search. Which melds are legal depends on the ``ace`` option.
``MAX_TABLE`` = 17 table melds at most (52 cards, 3 a meld).

What ``apply`` does on its own after a move: a meld or lay-off that empties
the hand ends the turn at once (no discard); the end of a turn scores a
player who went out (1.6, going rummy), turns the discard pile over when the
stock ran out (1.4, ``reshuffles``, ``reshuffle_mode``) or ends the hand
(stock stalemate, blocked 1.5, ``turn_limit``), and starts the next seat's
turn. Every move is logged when ``state.ev`` has rows and followed by a card
conservation check when the rule vector's ``R_CHECK`` is on.

``forced_move`` gives the draw that is no choice (stock empty: the discard
pile; pile empty: the stock); drivers play it without asking the policy.
Legal move lists come in a fixed order (draw: stock, pile; play: melds in
``melds.list_melds`` order, lay-offs by card then table meld, stop last;
discard: by card), which the random bot relies on.
"""

import numpy as np
from numba import njit

from ...engine.bits import U64, card_index, card_of_index  # the encoding (engine.bits), named here too
from ...engine.events import EV_CARDS, close_event, open_event
from ...engine.codes import (EV_DISCARD, EV_DRAW_DISCARD, EV_DRAW_STOCK, EV_LAYOFF, EV_MELD, EV_RESHUFFLE,  # noqa: F401
                            OUT_STALEMATE_BLOCKED, OUT_STALEMATE_STOCK, OUT_TURN_LIMIT, OUT_WIN)
from ...engine.rng import KIND_RESHUFFLE, shuffle, stream_key
from ...engine import melds as M
from .state import (
    I_DEALER, I_DISCARD_DRAWS_SEAT, I_DRAWN, I_GAME, I_HAND, I_HAS_PLAYED_SEAT, I_LAID_OFF_SEAT,
    I_MELDS_LAID_SEAT, I_MELDS_THIS_TURN, I_N_TABLE, I_OUTCOME, I_OWN_TURNS_SEAT, I_PHASE, I_PILE_N,
    I_PLAYED_THIS_TURN, I_PLAYERS, I_POINTS, I_RESHUFFLES, I_RUMMY, I_SEAT, I_SEED, I_STOCK_N, I_TURN,
    I_WINNER, M_HAND, M_HELD, M_LAYABLE, M_PICKED, M_PILE, M_TABLE, PH_DISCARD, PH_DRAW, PH_OVER, PH_PLAY,
    R_ACE_HIGH, R_CHECK, R_MAX_MELDS, R_MUST_DISCARD, R_RESHUFFLE_MODE, R_RESHUFFLES, R_RUMMY_MULT,
    R_TURN_LIMIT, RESHUFFLE_KEEP_TOP, RESHUFFLE_TURN_OVER,
)


DRAW_STOCK = 52
TAKE_DISCARD = 53
STOP = 54
MELD_BASE = 55
MAX_TABLE = 17


def _meld_table():
    out = set()
    for r in range(13):
        four = sum(1 << (16 * s + r) for s in range(4))
        out.add(four)
        for s in range(4):
            out.add(four & ~(1 << (16 * s + r)))
    for s in range(4):
        for a in range(13):
            for length in range(3, 14 - a):
                out.add(sum(1 << (16 * s + a + i) for i in range(length)))
        for length in range(3, 13):  # ending in the high ace
            out.add((1 << (16 * s)) | sum(1 << (16 * s + r) for r in range(14 - length, 13)))
    return np.array(sorted(out), dtype=np.uint64)


MELD_TABLE = _meld_table()
N_MELDS = MELD_TABLE.shape[0]              # 369
LAYOFF_BASE = MELD_BASE + N_MELDS          # 424
NUM_ACTIONS = LAYOFF_BASE + 52 * MAX_TABLE  # 1308
#: room for every legal move at one decision: 64 melds (``list_melds`` bound), each card of an
#: 11-card hand on at most 3 table melds, stop
MAX_LEGAL = 256

# event log (replay): one row per event, int16[EV_WIDTH]
EV_WIDTH = 60  # type, player, card, meld index, n cards, cards... (``engine.events``)


# ------------------------------------------------------------------ encoding
@njit(cache=True, inline="always")
def meld_index(mask):
    """Index of the card mask ``mask`` in ``MELD_TABLE``, or -1."""
    lo = 0
    hi = N_MELDS
    while lo < hi:
        mid = (lo + hi) >> 1
        if MELD_TABLE[mid] < mask:
            lo = mid + 1
        else:
            hi = mid
    if lo < N_MELDS and MELD_TABLE[lo] == mask:
        return lo
    return -1


@njit(cache=True, inline="always")
def meld_move(mask):
    """The action laying down the meld ``mask`` (card space)."""
    return MELD_BASE + meld_index(mask)


@njit(cache=True, inline="always")
def layoff_move(card, k):
    """The action laying off card id ``card`` on table meld ``k``."""
    return LAYOFF_BASE + card_index(card) * MAX_TABLE + k


@njit(cache=True, inline="always")
def discard_move(card):
    """The action discarding card id ``card``."""
    return card_index(card)


# --------------------------------------------------------------- legality
@njit(cache=True, inline="always")
def drawn_bit(ints):
    """Mask of the card taken from the discard pile this turn (0 if none)."""
    return M.bit(ints[I_DRAWN]) if ints[I_DRAWN] >= 0 else U64(0)


@njit(cache=True, inline="always")
def legal_after(after, drawn, must_discard):
    """May a meld or lay-off leave ``after`` in hand? (rules 1.3, 1.7 ``must_discard_to_go_out``,
    ruling 3.1: the card taken from the pile may not be the only card left)"""
    if after == 0:
        return not must_discard
    return after != drawn


@njit(cache=True, inline="always")
def may_meld(ints, rules):
    """Does ``max_melds_per_turn`` (1.7) still allow a meld this turn?"""
    return rules[R_MAX_MELDS] == 0 or ints[I_MELDS_THIS_TURN] < rules[R_MAX_MELDS]


# The public calls take a ``State``; each unpacks the arrays it needs once and runs its ``*_in``
# twin on them. Drivers in a hot loop unpack the state once and call the twins (reading a field of a
# named tuple of arrays costs two atomic reference-count updates in Numba, per read).

@njit(cache=True)
def forced_move(state):
    """The draw when it is no choice (stock empty: the pile; pile empty: the stock), else -1."""
    return forced_move_in(state.ints)


@njit(cache=True, inline="always")
def forced_move_in(ints):
    if ints[I_PHASE] != PH_DRAW:
        return -1
    if ints[I_PILE_N] == 0:
        return DRAW_STOCK
    if ints[I_STOCK_N] == 0:
        return TAKE_DISCARD
    return -1


@njit(cache=True)
def legal_moves(state, out):
    """Write every legal move at the current decision to ``out`` (int64[>=MAX_LEGAL]); return the count.
    Order: see the module docstring (the random bot depends on it)."""
    return legal_moves_in(state.masks, state.ints, state.t_lay, state.rules, state.buf, out)


@njit(cache=True, inline="always")
def legal_moves_in(masks, ints, t_lay, rules, buf, out):
    phase = ints[I_PHASE]
    p = ints[I_SEAT]
    n = 0
    if phase == PH_DRAW:
        if ints[I_STOCK_N] > 0:
            out[n] = DRAW_STOCK
            n += 1
        if ints[I_PILE_N] > 0:
            out[n] = TAKE_DISCARD
            n += 1
    elif phase == PH_PLAY:
        hand = masks[M_HAND + p]
        drawn = drawn_bit(ints)
        must = rules[R_MUST_DISCARD] != 0
        if may_meld(ints, rules):
            nm = M.list_melds(hand, rules[R_ACE_HIGH] != 0, buf)
            for i in range(nm):
                if legal_after(hand & ~buf[i], drawn, must):
                    out[n] = meld_move(buf[i])
                    n += 1
        lay = hand & masks[M_LAYABLE]
        while lay:
            c = M.lowest_card(lay)
            lay &= lay - U64(1)
            if legal_after(hand & ~M.bit(c), drawn, must):
                for k in range(ints[I_N_TABLE]):
                    if t_lay[k] & M.bit(c):
                        out[n] = layoff_move(c, k)
                        n += 1
        out[n] = STOP
        n += 1
    elif phase == PH_DISCARD:
        cand = masks[M_HAND + p] & ~drawn_bit(ints)
        while cand:
            out[n] = discard_move(M.lowest_card(cand))
            cand &= cand - U64(1)
            n += 1
    return n


@njit(cache=True)
def is_legal(state, move):
    """True when ``move`` is legal at the current decision (no enumeration)."""
    return is_legal_in(state.masks, state.ints, state.t_lay, state.rules, move)


@njit(cache=True, inline="always")
def is_legal_in(masks, ints, t_lay, rules, move):
    # one exit: Numba then drops the reference counting of the arrays inlined callers pass
    phase = ints[I_PHASE]
    p = ints[I_SEAT]
    ok = False
    if phase == PH_DRAW:
        ok = ((move == DRAW_STOCK and ints[I_STOCK_N] > 0)
              or (move == TAKE_DISCARD and ints[I_PILE_N] > 0))
    elif phase == PH_PLAY:
        hand = masks[M_HAND + p]
        must = rules[R_MUST_DISCARD] != 0
        if move == STOP:
            ok = True
        elif MELD_BASE <= move < LAYOFF_BASE:
            meld = MELD_TABLE[move - MELD_BASE]
            ok = (may_meld(ints, rules) and (meld & hand) == meld and M.is_meld(meld, rules[R_ACE_HIGH] != 0)
                  and legal_after(hand & ~meld, drawn_bit(ints), must))
        elif LAYOFF_BASE <= move < NUM_ACTIONS:
            k = (move - LAYOFF_BASE) % MAX_TABLE
            b = M.bit(card_of_index((move - LAYOFF_BASE) // MAX_TABLE))
            ok = ((hand & b) != 0 and k < ints[I_N_TABLE] and (t_lay[k] & b) != 0
                  and legal_after(hand & ~b, drawn_bit(ints), must))
    elif phase == PH_DISCARD and 0 <= move < 52:
        c = card_of_index(move)
        ok = (masks[M_HAND + p] & M.bit(c)) != 0 and c != ints[I_DRAWN]
    return ok


@njit(cache=True)
def is_over(state):
    return state.ints[I_PHASE] == PH_OVER


@njit(cache=True)
def scores(state, out):
    """Points each seat scored this hand into ``out`` int64[players] (the winner's 1.6 score, else 0);
    returns the outcome (``engine.codes`` OUT_*)."""
    ints = state.ints
    for q in range(ints[I_PLAYERS]):
        out[q] = 0
    if ints[I_WINNER] >= 0:
        out[ints[I_WINNER]] = ints[I_POINTS]
    return ints[I_OUTCOME]


# ------------------------------------------------------------ bookkeeping
@njit(cache=True)
def log_event(ev, n_ev, stock, kind, player, card, meld, cards_mask, n_stock):
    """Append one event to ``ev`` when it has room: cards of ``cards_mask`` lowest first, then the top
    ``n_stock`` cards of ``stock``, top first."""
    i = open_event(ev, n_ev, kind, player, card, meld)
    if i < 0:
        return
    n = 0
    m = cards_mask
    while m:
        ev[i, EV_CARDS + n] = M.lowest_card(m)
        m &= m - U64(1)
        n += 1
    for k in range(n_stock):
        ev[i, EV_CARDS + n] = stock[n_stock - 1 - k]
        n += 1
    close_event(ev, n_ev, i, n)


@njit(cache=True)
def check_cards(masks, stock, pile, ints, players):
    """Raise unless every card is in exactly one place: a hand, the table, the stock or the pile,
    and every card a seat is known to hold (``M_HELD``) is in its hand."""
    seen = U64(0)
    total = 0
    held_elsewhere = False
    for p in range(players):
        seen |= masks[M_HAND + p]
        total += M.popcount(masks[M_HAND + p])
        held_elsewhere |= (masks[M_HELD + p] & ~masks[M_HAND + p]) != 0
    seen |= masks[M_TABLE]
    total += M.popcount(masks[M_TABLE])
    pile_mask = U64(0)
    for k in range(ints[I_PILE_N]):
        pile_mask |= M.bit(pile[k])
        seen |= M.bit(pile[k])
    for k in range(ints[I_STOCK_N]):
        seen |= M.bit(stock[k])
    total += ints[I_PILE_N] + ints[I_STOCK_N]
    if seen != M.FULL_DECK or total != 52 or pile_mask != masks[M_PILE]:
        raise AssertionError("card conservation broken: a card is missing or in two places")
    if held_elsewhere:
        raise AssertionError("a card known to be held from the discard pile is not in that hand")


@njit(cache=True, inline="always")
def start_turn(ints, seat):
    """Seat ``seat`` is to draw (``ints`` of a state)."""
    ints[I_SEAT] = seat
    ints[I_PHASE] = PH_DRAW
    ints[I_DRAWN] = -1
    ints[I_MELDS_THIS_TURN] = 0
    ints[I_PLAYED_THIS_TURN] = 0


@njit(cache=True)
def begin(state, first):
    """Make the position held in ``state`` a hand in play with seat ``first`` to draw
    (the dealer is the seat before it); clears the result slots."""
    ints = state.ints
    ints[I_DEALER] = (first + ints[I_PLAYERS] - 1) % ints[I_PLAYERS]
    ints[I_OUTCOME] = OUT_TURN_LIMIT
    ints[I_WINNER] = -1
    ints[I_POINTS] = 0
    ints[I_RUMMY] = 0
    start_turn(ints, first)


@njit(cache=True, inline="always")
def _over(ints, outcome, winner, points, rummy):
    ints[I_PHASE] = PH_OVER
    ints[I_OUTCOME] = outcome
    ints[I_WINNER] = winner
    ints[I_POINTS] = points
    ints[I_RUMMY] = rummy


@njit(cache=True)
def _reshuffle(masks, ints, stock, pile, rules, rng):
    """Rules 1.4: the discard pile becomes the new stock (mode per rule 1.7)."""
    mode = rules[R_RESHUFFLE_MODE]
    n = ints[I_PILE_N]
    keep = 1 if mode == RESHUFFLE_KEEP_TOP else 0
    moved = n - keep
    if mode == RESHUFFLE_TURN_OVER:
        for k in range(moved):  # the pile turned face down: its bottom card on top
            stock[k] = pile[moved - 1 - k]
    else:
        for k in range(moved):
            stock[k] = pile[k]
        rng[0] = stream_key(ints[I_SEED], ints[I_GAME], ints[I_HAND], KIND_RESHUFFLE, ints[I_RESHUFFLES])
        shuffle(rng, stock, moved)
    if keep:
        pile[0] = pile[n - 1]
        masks[M_PILE] = M.bit(pile[0])
    else:
        masks[M_PILE] = U64(0)
    ints[I_PILE_N] = keep
    ints[I_STOCK_N] = moved
    ints[I_RESHUFFLES] += 1


@njit(cache=True)
def _score(masks, ints, rules, card_value, p):
    """Seat p went out (1.3): the hand is over, scored per 1.6 (going rummy)."""
    points = 0
    for q in range(ints[I_PLAYERS]):
        points += M.mask_value(masks[M_HAND + q], card_value)
    rummy = 0
    if ints[I_HAS_PLAYED_SEAT + p] == 0:
        rummy = 1
        points *= rules[R_RUMMY_MULT]
    _over(ints, OUT_WIN, p, points, rummy)


@njit(cache=True, inline="always")
def _end_turn(masks, ints, stock, pile, rules, card_value, ev, n_ev, rng, p):
    """After seat p's discard, or the meld or lay-off that emptied its hand."""
    players = ints[I_PLAYERS]
    ints[I_TURN] += 1
    ints[I_OWN_TURNS_SEAT + p] += 1
    if masks[M_HAND + p] == 0:
        _score(masks, ints, rules, card_value, p)
        return
    if ints[I_PLAYED_THIS_TURN] > 0:
        ints[I_HAS_PLAYED_SEAT + p] = 1
    # stock run out (1.4)
    if ints[I_STOCK_N] == 0:
        if rules[R_RESHUFFLES] >= 0 and ints[I_RESHUFFLES] >= rules[R_RESHUFFLES]:
            _over(ints, OUT_STALEMATE_STOCK, -1, 0, 0)
            return
        _reshuffle(masks, ints, stock, pile, rules, rng)
        if ev.shape[0] > 0:
            log_event(ev, n_ev, stock, EV_RESHUFFLE, -1, -1, -1, U64(0), ints[I_STOCK_N])
        if rules[R_CHECK] != 0:
            check_cards(masks, stock, pile, ints, players)
    # blocked (1.5)
    if M.blocked(masks[M_TABLE], masks[M_LAYABLE], masks[M_HAND:M_HAND + players], players,
                 rules[R_ACE_HIGH] != 0):
        _over(ints, OUT_STALEMATE_BLOCKED, -1, 0, 0)
        return
    if ints[I_TURN] >= rules[R_TURN_LIMIT]:
        _over(ints, OUT_TURN_LIMIT, -1, 0, 0)
        return
    p += 1
    if p == players:
        p = 0
    start_turn(ints, p)


# ------------------------------------------------------------------ apply
@njit(cache=True)
def apply(state, move):
    """Play the legal ``move`` (check with ``is_legal`` first) for the seat to act, then everything
    that follows automatically, up to the next decision or the end of the hand."""
    apply_in(state.masks, state.ints, state.stock, state.pile, state.t_mask, state.t_kind, state.t_lay,
             state.rules, state.card_value, state.ev, state.n_ev, state.rng, move)


@njit(cache=True, inline="always")
def apply_in(masks, ints, stock, pile, t_mask, t_kind, t_lay, rules, card_value, ev, n_ev, rng, move):
    phase = ints[I_PHASE]
    p = ints[I_SEAT]
    if phase == PH_DRAW:
        _draw_in(masks, ints, stock, pile, ev, n_ev, p, move)
    elif phase == PH_PLAY:
        if move == STOP:
            ints[I_PHASE] = PH_DISCARD
            return
        _play_in(masks, ints, stock, t_mask, t_kind, t_lay, rules, ev, n_ev, p, move)
    else:
        _discard_in(masks, ints, stock, pile, ev, n_ev, p, move)
    if rules[R_CHECK] != 0:
        check_cards(masks, stock, pile, ints, ints[I_PLAYERS])
    if phase == PH_DISCARD or masks[M_HAND + p] == 0:
        _end_turn(masks, ints, stock, pile, rules, card_value, ev, n_ev, rng, p)


@njit(cache=True, inline="always")
def _draw_in(masks, ints, stock, pile, ev, n_ev, p, move):
    """1.3.1: the top card of the stock or of the discard pile into seat p's hand."""
    if move == TAKE_DISCARD:
        ints[I_PILE_N] -= 1
        card = pile[ints[I_PILE_N]]
        masks[M_PILE] &= ~M.bit(card)
        masks[M_PICKED + p] |= M.bit(card)
        masks[M_HELD + p] |= M.bit(card)
        ints[I_DRAWN] = card
        ints[I_DISCARD_DRAWS_SEAT + p] += 1
        if ev.shape[0] > 0:
            log_event(ev, n_ev, stock, EV_DRAW_DISCARD, p, card, -1, U64(0), 0)
    else:
        ints[I_STOCK_N] -= 1
        card = stock[ints[I_STOCK_N]]
        if ev.shape[0] > 0:
            log_event(ev, n_ev, stock, EV_DRAW_STOCK, p, card, -1, U64(0), 0)
    masks[M_HAND + p] |= M.bit(card)
    ints[I_PHASE] = PH_PLAY


@njit(cache=True, inline="always")
def _play_in(masks, ints, stock, t_mask, t_kind, t_lay, rules, ev, n_ev, p, move):
    """1.3.2-3: a meld from seat p's hand to the table, or a lay-off on table meld k."""
    ace_high = rules[R_ACE_HIGH] != 0
    if move < LAYOFF_BASE:
        meld = MELD_TABLE[move - MELD_BASE]
        k = ints[I_N_TABLE]
        tk, tm = M.table_meld_of(meld, ace_high)
        t_kind[k] = tk
        t_mask[k] = tm
        t_lay[k] = M.layoff_cards(tm, tk, ace_high)
        ints[I_N_TABLE] = k + 1
        masks[M_HAND + p] &= ~meld
        masks[M_TABLE] |= meld
        ints[I_MELDS_THIS_TURN] += 1
        ints[I_MELDS_LAID_SEAT + p] += 1
        if ev.shape[0] > 0:
            log_event(ev, n_ev, stock, EV_MELD, p, -1, k, meld, 0)
    else:
        c = card_of_index((move - LAYOFF_BASE) // MAX_TABLE)
        k = (move - LAYOFF_BASE) % MAX_TABLE
        t_mask[k] = M.grow_meld(t_mask[k], t_kind[k], c, ace_high)
        t_lay[k] = M.layoff_cards(t_mask[k], t_kind[k], ace_high)
        masks[M_HAND + p] &= ~M.bit(c)
        masks[M_TABLE] |= M.bit(c)
        ints[I_LAID_OFF_SEAT + p] += 1
        if ev.shape[0] > 0:
            log_event(ev, n_ev, stock, EV_LAYOFF, p, c, k, U64(0), 0)
    masks[M_LAYABLE] = M.table_layoffs(t_mask, t_kind, ints[I_N_TABLE], ace_high)
    masks[M_HELD + p] &= masks[M_HAND + p]
    ints[I_PLAYED_THIS_TURN] += 1


@njit(cache=True, inline="always")
def _discard_in(masks, ints, stock, pile, ev, n_ev, p, move):
    """1.3.4: card index ``move`` from seat p's hand onto the discard pile."""
    c = card_of_index(move)
    masks[M_HAND + p] &= ~M.bit(c)
    masks[M_HELD + p] &= ~M.bit(c)
    pile[ints[I_PILE_N]] = c
    ints[I_PILE_N] += 1
    masks[M_PILE] |= M.bit(c)
    if ev.shape[0] > 0:
        log_event(ev, n_ev, stock, EV_DISCARD, p, c, -1, U64(0), 0)
