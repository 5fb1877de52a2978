"""Shanghai Rummy's rule-based bots as policies: ``choose(state, params, seat, scratch) -> move``
(the seat's policy, search or these, is ``policy.choose``).

Every seat has a float64 parameter vector (``SP_*`` indices, built from a
strategy file by ``rummysim.strategy``) and its own random stream keyed by
(game, round, seat), kept with the rest of the policies' scratch in a
``BotScratch`` (``new_scratch``, ``seed_streams``). ``choose`` returns an action
of ``moves`` for the decision ``state.ints[I_PHASE]`` of the seat to act,
through one function per decision point:

* ``take_upcard``: the player on turn, the upcard or the stock (rules 2.4.1);
* ``wants_buy``: the seat offered the upcard, when the player on turn left it (2.4.2-3);
* ``plan_down``: whether to lay down the contract now, and how: the laying is written
  into the state's proposal buffer and the move is ``moves.CONTRACT`` (2.5);
* ``next_layoff``: repeatedly, a lay-off, a joker swap or stop (2.5);
* ``choose_discard``: the card to throw (2.6).

A policy reads only what its seat may see: its own hand, the table, the discard
pile, the counters (``ints``: buys, turns, who is down, the card it took from the
pile) and, for the abandon triggers, the other hands' sizes; never another hand's
cards or the stock. The driver checks every move with ``moves.is_legal``;
legality itself (``leftover_ok``, ``may_play``, ``joker_home``) lives in ``moves``.
The cached distance of each seat's hand (``SI_DISTANCE_SEAT + p``) is kept in the
state's ``ints``: ``moves.apply`` zeroes it whenever that hand changes.

How far a hand is from its contract: ``distance`` lays the contract greedily,
meld by meld, each on the window of run positions or the rank that misses
fewest cards given what the earlier melds took (runs first, then sets first,
the better of the two), and counts the cards missing less the jokers that
could fill them (a meld keeps at least as many naturals as jokers). When it
is 0 the greedy laying is a witness, so the exact (slower) solver of
``core.contracts`` is only asked then; it then finds the best laying.

``SP_BOT`` picks the bot: ``BOT_FAMILY`` (the parametrised family below), ``BOT_RANDOM`` or
``BOT_SEARCH`` (``search``: it searches the decisions its search keys (from ``SP_SEARCH``) name and plays the
rest with its vector's family or random keys, those of its rollout strategy; ``policy.choose``
dispatches, and a search seat's vector reaching ``choose`` plays as the family).
The *random* bot takes the upcard on a coin flip (no
draw when it may not take it), buys with probability 1/4 when offered, lays down
its contract as soon as it can, stops on a coin flip or else plays a uniform
draw among the legal lay-offs and joker swaps (a swap's freed joker going to the
first meld that takes it; no draw when there is none), and discards uniformly
among the legal discards (``moves.legal_moves``). Otherwise the family plays:

Upcard (``SP_DRAW``): 0 never; 1 when it lowers the distance by at least
``SP_DRAW_GAIN`` cards, or, once down, when it can be laid off.

Buying (``SP_BUY``): 0 never; 1 when the upcard lowers the distance by at least
``SP_BUY_GAIN``, from round ``SP_BUY_MIN_ROUND`` on, keeping ``SP_BUY_KEEP``
buys in reserve in rounds 1-7 (from round 8 on the contract needs buys) and never with ``SP_BUY_MAX_CARDS`` or more cards in hand
(0: no limit). A bot that is down never buys (the penalty card is dead weight).

Going down (``SP_DOWN``): 0 as soon as the contract can be laid; 1 (*patient*)
only in a turn in which it can also go out (the one-turn bonus of 2.7), until
a trigger makes it give up for the round: its own turn reaching
``SP_ABANDON_TURN`` (0 off), an opponent going down (``SP_ABANDON_OPP_DOWN``),
or an opponent holding at most ``SP_ABANDON_OPP_CARDS`` cards (-1 off).
Jokers (``SP_JOKERS``): 0 lays the contract that leaves the least value in
hand (spare jokers go into melds); 1 uses the fewest jokers the contract
needs and keeps the rest. ``SP_SWAP`` = 1 makes joker swaps when the freed
joker can be laid off at once. ``SP_SWAP_DOWN`` = 1 (with ``joker_swap = anyone``, ruling 3.8):
a seat not down that cannot lay its contract swaps a natural for a table joker when the contract
can then be laid with it (``swap_to_go_down``; a patient bot only once it would lay down at once);
after the swap the laying must hold a joker, else the rules layer's laying is taken.

Laying off (``SP_LAYOFF``): 0 at once (naturals, then swaps, then jokers);
1 only in a turn in which the hand can be emptied down to a last discard.
A joker laid off (or freed by a swap) on a run that takes it at both ends goes where
``SP_JOKER_END`` says (ruling 3.13): the high end (``JOKER_END_HIGH``, the shipped bots), the low
end, or the end after which a natural of the hand can be laid off next (high when neither or both).

Discarding (``SP_DISCARD``): 0 the card whose loss raises the distance least,
highest value first; 1 the same, but cards with more connectors (same rank,
or same suit within two positions) are kept longer. ``SP_AVOID_FEED`` points
are added to the keep-score of a card that fits a meld on the table. Once
down: the highest card that cannot be laid off. Jokers are thrown last. Ties
go to the highest card id, or with ``SP_TIEBREAK_RANDOM`` = 1 to a uniform
draw from the seat's stream. After ``STALL_RESHUFFLES`` reshuffles in a round
card values are ignored, ties always go to the stream and one discard in four
is a uniform draw: otherwise, late in rounds 8-10, every bot can keep the
cards another needs and the round cycles to the turn limit. Then too a seat not
down that can never lay its contract (``moves.contract_hopeless``, ruling 3.12's
test from the table alone) throws first the cards that fit a table meld: held,
they keep the seats that are down from going out and the round from ending.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from ...engine.codes import BOT_FAMILY, BOT_RANDOM, BOT_SEARCH  # noqa: F401  (bots.BOT_*: policy, spec and tests)
from .contracts import CONTRACTS, MAX_RUN_CANDIDATES, RUN_COLS, SOLVER_WORK, best_contract
from ...engine.bits import U64, popcount
from ...engine.rng import KIND_BOT, below, stream_key
from ...engine.search import SEARCH_SLOTS
from ...engine.views import copy_into
from .moves import (
    BUY, CONTRACT, JOKER_LOW_BASE, LAYOFF_BASE, LEAVE_UPCARD, MAX_LEGAL, PASS, STOP, SWAP_BASE, SWAP_DOWN_BASE,
    SWAP_LOW_BASE, TAKE_UPCARD, contract_hopeless, joker_home, leftover_ok, legal_moves, may_play, propose_contract,
    swap_down_ok,
)
from .state import (
    I_PHASE, I_PROPOSAL_N, I_SWAPPED_DOWN, JOKER, JOKER_SWAP_ANYONE, MAX_TABLE, PH_BUY, PH_DISCARD, PH_PLAY,
    PH_UPCARD, SI_DISTANCE_SEAT,
    SI_DOWN_TURN_SEAT, SI_DRAWN, SI_N_TABLE, SI_OWN_TURNS_SEAT, SI_PILE_N, SI_RESHUFFLES, SI_ROUND, SR_ACE_HIGH,
    SR_JOKER_SWAP, SR_MAX_BUYS, SR_MUST_DISCARD, SI_BUYS_SEAT, T_COLS, T_JOKERS,
)
from .table import (
    FIT_HIGH, FIT_LOW, FIT_NONE, POINTS, fit, hand_size, joker_both_ends, lay_off, materialize, swap_position,
)

#: the policies' scratch: the contract solver's (``cand``, ``chosen``, ``ranks``), a hand copy
#: ``left`` int64[64], a meld ``row`` int64[T_COLS], a table copy int64[MAX_TABLE, T_COLS], the
#: seats' random streams ``rngs`` uint64[players, 1] and a move list ``out`` int64[MAX_LEGAL]
#: and ``dwork`` int64[WORK_SIZE] for ``distance_in``; the solver's ``solver`` int64[SOLVER_WORK]
BotScratch = namedtuple("BotScratch", ["cand", "chosen", "ranks", "left", "row", "table", "rngs", "out", "dwork",
                                       "solver"])


SP_BOT = 0
SP_DRAW = 1
SP_DRAW_GAIN = 2
SP_BUY = 3
SP_BUY_GAIN = 4
SP_BUY_KEEP = 5
SP_BUY_MIN_ROUND = 6
SP_BUY_MAX_CARDS = 7
SP_DOWN = 8
SP_ABANDON_TURN = 9
SP_ABANDON_OPP_DOWN = 10
SP_ABANDON_OPP_CARDS = 11
SP_JOKERS = 12
SP_SWAP = 13
SP_LAYOFF = 14
SP_DISCARD = 15
SP_AVOID_FEED = 16
SP_TIEBREAK_RANDOM = 17
SP_SWAP_DOWN = 18
SP_SEARCH = 19             # a search bot's keys, slots SP_SEARCH + engine.search.ROLLOUT_BOT ... CONFIDENCE
SP_SEARCH_BUILD_STEPS = SP_SEARCH + SEARCH_SLOTS  # per own turn of a seat not down, steps that build its dealt
                                                  # hand (0: uniform)
SP_JOKER_END = SP_SEARCH_BUILD_STEPS + 1  # JOKER_END_*: where a joker goes on a run open at both ends (ruling 3.13)
N_SHANGHAI_PARAMS = SP_JOKER_END + 1

JOKER_END_HIGH = 0
JOKER_END_LOW = 1
JOKER_END_HELD = 2

#: after this many reshuffles in a round the family's discards break ties at random, ignoring
#: card values: a round where every bot keeps the cards another needs would otherwise cycle
STALL_RESHUFFLES = 3


# layout of the greedy laying's work array (int64[WORK_SIZE]): per suit and level, the positions held
# at least level + 1 times (bit 13: the ace above the king); then the naturals held of each rank
W_LEVELS = 0       # + 3 * suit + level
W_RANKS = 12       # + rank
W_COPY = 25        # a second copy of both, for the second order
W_HAND = 50        # the whole hand's levels and ranks, kept while each discard is weighed (``_discard_distance``)
WORK_SIZE = 75


@njit(cache=True, _nrt=False)
def _levels(counts, ace_high, work):
    """Fill ``work[:W_COPY]`` from ``counts`` int64[64] (copies beyond three are not needed:
    a contract has at most three runs)."""
    for r in range(13):
        work[W_RANKS + r] = counts[r] + counts[16 + r] + counts[32 + r] + counts[48 + r]
    for s in range(4):
        m0 = 0
        m1 = 0
        m2 = 0
        for r in range(13):
            c = counts[16 * s + r]
            if c > 0:
                m0 |= 1 << r
                if c > 1:
                    m1 |= 1 << r
                    if c > 2:
                        m2 |= 1 << r
        if ace_high:
            m0 |= (m0 & 1) << 13
            m1 |= (m1 & 1) << 13
            m2 |= (m2 & 1) << 13
        work[W_LEVELS + 3 * s] = m0
        work[W_LEVELS + 3 * s + 1] = m1
        work[W_LEVELS + 3 * s + 2] = m2


@njit(cache=True, inline="always")
def _take_positions(work, base, s, w):
    """Take one copy of each held position of ``w`` (bitmask) of suit ``s``; returns the
    positions taken at level 0."""
    i = base + W_LEVELS + 3 * s
    taken = work[i] & w
    work[i] = (work[i] & ~w) | (work[i + 1] & w)
    work[i + 1] = (work[i + 1] & ~w) | (work[i + 2] & w)
    work[i + 2] &= ~w
    return taken


@njit(cache=True, _nrt=False)
def _greedy_melds(work, base, round_no, ace_high, runs_first):
    """Lay the contract's melds one by one on the levels and rank counts at ``work[base:]``,
    each on the window or rank that misses fewest cards given the cards the earlier ones took;
    runs first or sets first. Returns ``(cards missing, of them how many jokers could fill)``."""
    n_sets = CONTRACTS[round_no, 0]
    n_runs = CONTRACTS[round_no, 1]
    length = CONTRACTS[round_no, 2]
    missing = 0
    fillable = 0
    suit0 = -1
    lo0 = -1
    suit1 = -1
    lo1 = -1
    top = 13 if ace_high else 12
    window = (1 << length) - 1
    ranks = base + W_RANKS
    for phase in range(2):
        if (phase == 0) == runs_first:
            for t in range(n_runs):
                best = length + 1
                best_s = 0
                best_lo = 0
                for s in range(4):
                    held = work[base + W_LEVELS + 3 * s]
                    for lo in range(0, top - length + 2):
                        # two runs of a suit must not touch (2.2)
                        if (s == suit0 and (lo0 + length == lo or lo + length == lo0)) or (
                                s == suit1 and (lo1 + length == lo or lo + length == lo1)):
                            continue
                        v = length - popcount(U64(held & (window << lo)))
                        if v < best:
                            best = v
                            best_s = s
                            best_lo = lo
                            if v == 0:
                                break  # a whole run: no later window can miss fewer (the first one wins ties)
                    if best == 0:
                        break
                if t == 0:
                    suit0, lo0 = best_s, best_lo
                else:
                    suit1, lo1 = best_s, best_lo
                w = window << best_lo
                if ace_high:
                    w |= ((w >> 13) & 1) | ((w & 1) << 13)  # the ace is one card at both ends
                taken = _take_positions(work, base, best_s, w) & 0x1FFF
                while taken:
                    r = popcount(U64((taken & -taken) - 1))
                    work[ranks + r] -= 1
                    taken &= taken - 1
                missing += best
                fillable += min(best, length - best)
        else:
            for _ in range(n_sets):
                best_r = 0
                best_c = -1
                for r in range(13):
                    if work[ranks + r] > best_c:
                        best_c = work[ranks + r]
                        best_r = r
                take = min(best_c, 3)
                work[ranks + best_r] -= take
                bit = 1 << best_r
                if ace_high and best_r == 0:
                    bit |= 1 << 13
                s = 0
                while take > 0 and s < 4:  # copies beyond three (4+ decks) have no level: stop there
                    if work[base + W_LEVELS + 3 * s] & bit:
                        _take_positions(work, base, s, bit)
                        take -= 1
                    else:
                        s += 1
                missing += 3 - min(best_c, 3)
                fillable += min(3 - min(best_c, 3), best_c)
    return missing, fillable


@njit(cache=True)
def distance(counts, round_no, ace_high):
    """Cards still missing from the contract of ``round_no`` after the jokers held fill what they
    may (``counts`` int64[64], jokers at 63). 0 means the greedy laying found is a witness: the
    exact solver will lay the contract."""
    return distance_in(counts, round_no, ace_high, np.empty(WORK_SIZE, dtype=np.int64))


@njit(cache=True, _nrt=False)
def distance_in(counts, round_no, ace_high, work):
    """``distance`` with the caller's scratch ``work`` int64[WORK_SIZE] (no allocation)."""
    _levels(counts, ace_high, work)
    return _distance_of_levels(work, counts[JOKER], round_no, ace_high)


@njit(cache=True, inline="always")
def _distance_of_levels(work, jokers, round_no, ace_high):
    """``distance`` of the hand whose levels and rank counts are ``work[:W_COPY]`` (``_levels``)
    and which holds ``jokers`` jokers; uses ``work[:2 * W_COPY]``."""
    two_orders = CONTRACTS[round_no, 0] > 0 and CONTRACTS[round_no, 1] > 0
    if two_orders:
        for i in range(W_COPY):
            work[W_COPY + i] = work[i]
    missing, fillable = _greedy_melds(work, 0, round_no, ace_high, True)
    best = missing - min(jokers, fillable)
    if two_orders:  # with one kind of meld the order does not matter
        missing, fillable = _greedy_melds(work, W_COPY, round_no, ace_high, False)
        best = min(best, missing - min(jokers, fillable))
    return best


@njit(cache=True, _nrt=False)
def keep_hand_levels(counts, ace_high, work):
    """Store the levels and rank counts of ``counts`` int64[64] at ``work[W_HAND:W_HAND + W_COPY]``,
    for ``_discard_distance`` to weigh each discard from."""
    _levels(counts, ace_high, work)
    for i in range(W_COPY):
        work[W_HAND + i] = work[i]


@njit(cache=True, _nrt=False)
def _discard_distance(counts, c, round_no, ace_high, work):
    """``distance`` of ``counts`` less one natural ``c`` (held), from the whole hand's levels kept
    by ``keep_hand_levels``: the same as ``distance_in`` on the smaller hand without rebuilding
    its levels. ``work`` int64[WORK_SIZE]."""
    for i in range(W_COPY):
        work[i] = work[W_HAND + i]
    r = c & 15
    work[W_RANKS + r] -= 1
    held = counts[c]
    if held <= 3:  # the highest level holding c's position loses it (levels stop at three copies)
        bit = 1 << r
        if ace_high and r == 0:
            bit |= 1 << 13
        work[W_LEVELS + 3 * (c >> 4) + held - 1] &= ~bit
    return _distance_of_levels(work, counts[JOKER], round_no, ace_high)


@njit(cache=True, _nrt=False)
def _fits_table(table, n_table, card, ace_high):
    for k in range(n_table):
        if fit(table[k], card, ace_high) != FIT_NONE:
            return True
    return False


@njit(cache=True, _nrt=False)
def _lay(counts, jokers_cap, round_no, ace_high, scratch, melds):
    """Best laying of ``counts`` with at most ``jokers_cap`` jokers; the leftover goes to
    ``scratch[3]``. Returns the number of melds (0: no laying)."""
    cand, chosen, ranks, left = scratch[0], scratch[1], scratch[2], scratch[3]
    copy_into(left, counts, 64)
    value, set_jokers = best_contract(left, min(jokers_cap, counts[JOKER]), round_no, ace_high,
                                      cand, chosen, ranks, scratch.solver)
    if value < 0:
        return 0
    return materialize(left, cand, chosen, ranks, set_jokers, round_no, melds)


@njit(cache=True, _nrt=False)
def plan_contract(counts, round_no, ace_high, drawn, must, fewest_jokers, scratch, melds):
    """A legal laying of the whole contract: the least value left (or the fewest jokers
    with ``fewest_jokers``), keeping back one card to discard when the laying would leave
    none that may be thrown. Returns the number of melds in ``melds`` (0: none)."""
    left = scratch[3]
    cap = 0 if fewest_jokers else counts[JOKER]
    n = 0
    while n == 0 and cap <= counts[JOKER]:
        n = _lay(counts, cap, round_no, ace_high, scratch, melds)
        cap += 1
    if n == 0:
        return 0
    if leftover_ok(left, drawn, must):
        return n
    for d in range(64):  # keep d back to throw
        if counts[d] > 0 and d != drawn:
            counts[d] -= 1
            n = 0
            if distance_in(counts, round_no, ace_high, scratch.dwork) == 0:  # else no laying exists without d
                n = _lay(counts, counts[JOKER], round_no, ace_high, scratch, melds)
            counts[d] += 1
            if n > 0:
                left[d] += 1
                return n
    return 0


@njit(cache=True, _nrt=False)
def plan_one_turn(counts, round_no, ace_high, drawn, must, scratch, melds):
    """A laying that goes out this turn: nothing left (not with ``must``), or one card other
    than the upcard taken this turn, to discard. Returns the number of melds (0: none)."""
    left = scratch[3]
    if not must and distance_in(counts, round_no, ace_high, scratch.dwork) == 0:
        n = _lay(counts, counts[JOKER], round_no, ace_high, scratch, melds)
        if n > 0 and hand_size(left) == 0:
            return n
    for d in range(64):
        if counts[d] > 0 and d != drawn:
            counts[d] -= 1
            n = 0
            if distance_in(counts, round_no, ace_high, scratch.dwork) == 0:
                n = _lay(counts, counts[JOKER], round_no, ace_high, scratch, melds)
            counts[d] += 1
            if n > 0 and hand_size(left) == 0:
                left[d] += 1
                return n
    return 0


@njit(cache=True, inline="always")
def take_upcard(p, params, hands, ints, table, rules, card, rngs, dwork):
    """Rules 2.4.1: does the player on turn take the upcard ``card``?"""
    par = params[p]
    if not leftover_ok(hands[p], card, True):
        return False  # holding only copies of it, there would be nothing to discard (ruling 3.1)
    if par[SP_BOT] == BOT_RANDOM:
        return below(rngs[p], 2) == 1
    if par[SP_DRAW] == 0:
        return False
    ace_high = rules[SR_ACE_HIGH] != 0
    if ints[SI_DOWN_TURN_SEAT + p] > 0:
        return _fits_table(table, ints[SI_N_TABLE], card, ace_high)
    return _gain(p, hands, ints, card, ace_high, dwork) >= par[SP_DRAW_GAIN]


@njit(cache=True, inline="always")
def seat_distance(p, hands, ints, ace_high, dwork):
    """``distance`` of seat p's hand, kept in ``ints[SI_DISTANCE_SEAT + p]`` until the engine
    says the hand changed (it zeroes the entry)."""
    if ints[SI_DISTANCE_SEAT + p] == 0:
        ints[SI_DISTANCE_SEAT + p] = 1 + distance_in(hands[p], ints[SI_ROUND], ace_high, dwork)
    return ints[SI_DISTANCE_SEAT + p] - 1


@njit(cache=True, inline="always")
def _gain(p, hands, ints, card, ace_high, dwork):
    """How much taking ``card`` lowers the distance of seat p's hand."""
    counts = hands[p]
    round_no = ints[SI_ROUND]
    before = seat_distance(p, hands, ints, ace_high, dwork)
    counts[card] += 1
    after = distance_in(counts, round_no, ace_high, dwork)
    counts[card] -= 1
    return before - after


@njit(cache=True, inline="always")
def wants_buy(q, params, hands, ints, rules, card, rngs, dwork):
    """Rules 2.4.2: does seat ``q`` (not on turn, allowed to buy) buy the upcard ``card``?"""
    par = params[q]
    if par[SP_BOT] == BOT_RANDOM:
        return below(rngs[q], 4) == 0
    if par[SP_BUY] == 0 or ints[SI_DOWN_TURN_SEAT + q] > 0 or ints[SI_ROUND] < par[SP_BUY_MIN_ROUND]:
        return False
    # the reserve is for rounds 1-7: from round 8 on the contract cannot be met without buys (2.2)
    keep = par[SP_BUY_KEEP] if ints[SI_ROUND] < 8 else 0
    if ints[SI_BUYS_SEAT + q] >= rules[SR_MAX_BUYS] - keep:
        return False
    if par[SP_BUY_MAX_CARDS] > 0 and hand_size(hands[q]) >= par[SP_BUY_MAX_CARDS]:
        return False
    return _gain(q, hands, ints, card, rules[SR_ACE_HIGH] != 0, dwork) >= par[SP_BUY_GAIN]


@njit(cache=True, inline="always")
def plan_down(p, params, hands, ints, rules, players, scratch, melds):
    """Rules 2.5: lay down the contract now? Returns the number of melds written to ``melds``
    (0: not this turn)."""
    par = params[p]
    counts = hands[p]
    round_no = ints[SI_ROUND]
    ace_high = rules[SR_ACE_HIGH] != 0
    if seat_distance(p, hands, ints, ace_high, scratch.dwork) > 0:
        return 0
    drawn = ints[SI_DRAWN]
    must = rules[SR_MUST_DISCARD] != 0
    if par[SP_BOT] != BOT_RANDOM and par[SP_DOWN] == 1 and not _abandon(p, par, hands, ints, players):
        return plan_one_turn(counts, round_no, ace_high, drawn, must, scratch, melds)
    fewest = par[SP_BOT] != BOT_RANDOM and par[SP_JOKERS] == 1
    return plan_contract(counts, round_no, ace_high, drawn, must, fewest, scratch, melds)


@njit(cache=True, _nrt=False)
def _abandon(p, par, hands, ints, players):
    """Has a trigger made a patient bot give up waiting for the one-turn bonus?"""
    if par[SP_ABANDON_TURN] > 0 and ints[SI_OWN_TURNS_SEAT + p] + 1 >= par[SP_ABANDON_TURN]:
        return True
    for q in range(players):
        if q == p:
            continue
        if par[SP_ABANDON_OPP_DOWN] != 0 and ints[SI_DOWN_TURN_SEAT + q] > 0:
            return True
        if par[SP_ABANDON_OPP_CARDS] >= 0 and hand_size(hands[q]) <= par[SP_ABANDON_OPP_CARDS]:
            return True
    return False


@njit(cache=True, _nrt=False)
def _holds_joker(melds, n):
    for i in range(n):
        if melds[i, T_JOKERS] > 0:
            return True
    return False


@njit(cache=True, _nrt=False)
def swap_to_go_down(state, p, params, scratch):
    """Ruling 3.8 (``joker_swap = anyone``): the first swap (natural c ascending, table meld k
    ascending) after which seat p, not down, can lay its contract with the freed joker
    (``moves.SWAP_DOWN_BASE + MAX_TABLE * c + k``), or ``STOP``. A patient bot swaps only once it
    would lay down at once (a trigger made it give up waiting)."""
    hands, ints, table, rules = state.hands, state.ints, state.table, state.rules
    if rules[SR_JOKER_SWAP] != JOKER_SWAP_ANYONE:
        return STOP
    par = params[p]
    if par[SP_DOWN] == 1 and not _abandon(p, par, hands, ints, hands.shape[0]):
        return STOP
    counts = hands[p]
    round_no = ints[SI_ROUND]
    ace_high = rules[SR_ACE_HIGH] != 0
    for c in range(JOKER):
        if counts[c] == 0:
            continue
        for k in range(ints[SI_N_TABLE]):
            if swap_position(table[k], c) < 0:
                continue
            counts[c] -= 1
            counts[JOKER] += 1
            close = distance_in(counts, round_no, ace_high, scratch.dwork) == 0
            counts[c] += 1
            counts[JOKER] -= 1
            if close and swap_down_ok(state, c, k):
                return SWAP_DOWN_BASE + c * MAX_TABLE + k
    return STOP


@njit(cache=True, inline="always")
def next_layoff(state, p, params, scratch):
    """Rules 2.5: the next move of a seat that is down: ``LAYOFF_BASE + ...``, ``SWAP_BASE + ...``
    or ``STOP`` (``moves``)."""
    par = params[p]
    hands, ints, table, rules = state.hands, state.ints, state.table, state.rules
    counts = hands[p]
    n_table = ints[SI_N_TABLE]
    drawn = ints[SI_DRAWN]
    must = rules[SR_MUST_DISCARD] != 0
    ace_high = rules[SR_ACE_HIGH] != 0
    swap_rule = rules[SR_JOKER_SWAP] != 0
    row = scratch.row
    if par[SP_BOT] == BOT_RANDOM:
        # the legal lay-offs (a joker's at either end of a run, ruling 3.13) and swaps (out[0] is
        # STOP), a swap's joker to its first home only, at the end ``fit`` gives
        out = scratch.out
        n = legal_moves(state, out)
        m = 0
        last = -1
        for i in range(1, n):
            mv = out[i]
            if mv >= SWAP_LOW_BASE:
                continue
            if SWAP_BASE <= mv < SWAP_DOWN_BASE:
                ck = (mv - SWAP_BASE) // MAX_TABLE
                if ck == last:
                    continue
                last = ck
            out[m] = mv
            m += 1
        if m == 0 or below(scratch.rngs[p], 2) == 0:
            return STOP
        return out[below(scratch.rngs[p], m)]
    if par[SP_LAYOFF] == 1 and not _can_go_out(counts, table, n_table, ace_high, scratch):
        return STOP
    for c in range(JOKER):
        if counts[c] > 0 and may_play(counts, c, drawn, must):
            for k in range(n_table):
                if fit(table[k], c, ace_high) != FIT_NONE:
                    return LAYOFF_BASE + c * MAX_TABLE + k
    if swap_rule and par[SP_SWAP] != 0:
        for c in range(JOKER):
            if counts[c] > 0 and may_play(counts, c, drawn, must):
                for k in range(n_table):
                    pos = swap_position(table[k], c)
                    if pos >= 0:
                        k2 = joker_home(table, n_table, k, pos, c, ace_high, row)
                        if k2 >= 0:   # row: meld k2 after the swap
                            i = (c * MAX_TABLE + k) * MAX_TABLE + k2
                            if _joker_low(par, row, counts, ace_high, scratch.table[0]):
                                return SWAP_LOW_BASE + i
                            return SWAP_BASE + i
    if counts[JOKER] > 0 and may_play(counts, JOKER, drawn, must):
        for k in range(n_table):
            if fit(table[k], JOKER, ace_high) != FIT_NONE:
                if _joker_low(par, table[k], counts, ace_high, scratch.table[0]):
                    return JOKER_LOW_BASE + k
                return LAYOFF_BASE + JOKER * MAX_TABLE + k
    return STOP


@njit(cache=True, _nrt=False)
def _joker_low(par, row, counts, ace_high, copy):
    """Ruling 3.13: does the family lay a joker at the low end of meld ``row``? Only on a run that
    takes it at both ends (``joker_both_ends``); ``SP_JOKER_END`` 0 never (the high end), 1 always,
    2 when only the low end lets a natural of the hand ``counts`` be laid off next (``copy``
    int64[T_COLS] scratch)."""
    mode = par[SP_JOKER_END]
    if mode == JOKER_END_HIGH or not joker_both_ends(row, ace_high):
        return False
    if mode == JOKER_END_LOW:
        return True
    return not _joker_feeds(row, FIT_HIGH, counts, ace_high, copy) and _joker_feeds(row, FIT_LOW, counts, ace_high,
                                                                                    copy)


@njit(cache=True, _nrt=False)
def _joker_feeds(row, where, counts, ace_high, copy):
    """With a joker laid at ``where`` of run ``row``, does a natural of ``counts`` fit the run?"""
    copy_into(copy, row, T_COLS)
    lay_off(copy, JOKER, where)
    for c in range(JOKER):
        if counts[c] > 0 and fit(copy, c, ace_high) != FIT_NONE:
            return True
    return False


@njit(cache=True, _nrt=False)
def _can_go_out(counts, table, n_table, ace_high, scratch):
    """Would laying off greedily (on copies) leave at most one card in hand?"""
    left = scratch[3]
    copy = scratch[5]
    copy_into(left, counts, 64)
    for k in range(n_table):
        copy_into(copy[k], table[k], T_COLS)
    progress = True
    while progress:
        progress = False
        for c in range(64):
            if left[c] == 0:
                continue
            for k in range(n_table):
                where = fit(copy[k], c, ace_high)
                if where != FIT_NONE:
                    lay_off(copy[k], c, where)
                    left[c] -= 1
                    progress = True
                    break
    return hand_size(left) <= 1


@njit(cache=True, inline="always")
def choose_discard(state, p, params, scratch):
    """Rules 2.6: the card to throw (any card held but the upcard taken this turn)."""
    par = params[p]
    counts, rngs = state.hands[p], scratch.rngs
    drawn = state.ints[SI_DRAWN]
    if par[SP_BOT] == BOT_RANDOM:
        return _random_discard(state, scratch.out, rngs[p])
    down, d0, stalling, hopeless = discard_context(state, p, scratch.dwork)
    if stalling and below(rngs[p], 4) == 0:
        return _random_discard(state, scratch.out, rngs[p])
    table, n_table, round_no = state.table, state.ints[SI_N_TABLE], state.ints[SI_ROUND]
    ace_high = state.rules[SR_ACE_HIGH] != 0
    best = -1
    best_score = 1 << 40
    ties = 0
    for c in range(64):
        if counts[c] == 0 or c == drawn:
            continue
        score = discard_score(counts, c, par, table, n_table, round_no, ace_high, down, d0, stalling, hopeless,
                              scratch.dwork)
        if score < best_score:
            best_score = score
            best = c
            ties = 1
        elif score == best_score:
            ties += 1
            if par[SP_TIEBREAK_RANDOM] != 0 or stalling:
                if below(rngs[p], ties) == 0:
                    best = c
            else:
                best = c  # ascending ids: the highest id wins the tie
    return best


@njit(cache=True, inline="always")
def discard_context(state, p, dwork):
    """What the family's discard scores of seat p need, once per decision: ``(down, d0, stalling,
    hopeless)`` (is p down, its hand's distance, past ``STALL_RESHUFFLES``, and when stalling and not
    down, can p never lay its contract, ``moves.contract_hopeless``); keeps the hand's levels in
    ``dwork`` for ``discard_score``."""
    hands, ints = state.hands, state.ints
    ace_high = state.rules[SR_ACE_HIGH] != 0
    down = ints[SI_DOWN_TURN_SEAT + p] > 0
    d0 = 0 if down else seat_distance(p, hands, ints, ace_high, dwork)
    if not down:
        keep_hand_levels(hands[p], ace_high, dwork)
    stalling = ints[SI_RESHUFFLES] >= STALL_RESHUFFLES
    return down, d0, stalling, stalling and not down and contract_hopeless(state, p)


@njit(cache=True, inline="always")
def discard_score(counts, c, par, table, n_table, round_no, ace_high, down, d0, stalling, hopeless, dwork):
    """How much the family (vector ``par``) would keep card ``c`` of the hand ``counts`` int64[64]:
    the lowest score is thrown. ``table`` int64[MAX_TABLE, T_COLS] (``n_table`` melds); ``down``,
    ``d0``, ``stalling``, ``hopeless`` and ``dwork`` from ``discard_context``. A hopeless seat throws
    first the cards that fit a table meld: held, they keep the seats that are down from going out."""
    if c == JOKER:
        return np.int64(1 << 30)
    if down:
        feeds = _fits_table(table, n_table, c, ace_high)
        return np.int64((500 if feeds else 0) - (0 if stalling else POINTS[c]))
    if hopeless:
        return np.int64(-500 if _fits_table(table, n_table, c, ace_high) else 0)
    score = np.int64(1000 * (_discard_distance(counts, c, round_no, ace_high, dwork) - d0))
    if not stalling:
        score -= POINTS[c]
        if par[SP_DISCARD] == 1:
            score += 10 * _connectors(counts, c)
        if par[SP_AVOID_FEED] != 0 and _fits_table(table, n_table, c, ace_high):
            score += np.int64(par[SP_AVOID_FEED])
    return score


@njit(cache=True, _nrt=False)
def _random_discard(state, out, rng):
    """A uniform draw among the legal discards (the distinct cards that may be thrown)."""
    n = legal_moves(state, out)
    return out[below(rng, n)]


@njit(cache=True, _nrt=False)
def _connectors(counts, c):
    """Cards held that could join ``c`` in a meld: other copies of its rank, and cards of its
    suit at most two ranks away."""
    s = c >> 4
    r = c & 15
    n = -1
    for t in range(4):
        n += counts[16 * t + r]
    for d in (-2, -1, 1, 2):
        if 0 <= r + d < 13:
            n += counts[16 * s + r + d]
    return n


@njit(cache=True)
def new_scratch(players):
    """The policies' scratch (``BotScratch``) for rounds of ``players`` seats."""
    return BotScratch(np.zeros((MAX_RUN_CANDIDATES, RUN_COLS), dtype=np.int64), np.zeros(3, dtype=np.int64),
                      np.zeros(3, dtype=np.int64), np.zeros(64, dtype=np.int64), np.zeros(T_COLS, dtype=np.int64),
                      np.zeros((MAX_TABLE, T_COLS), dtype=np.int64), np.zeros((players, 1), dtype=np.uint64),
                      np.zeros(MAX_LEGAL, dtype=np.int64), np.zeros(WORK_SIZE, dtype=np.int64),
                      np.zeros(SOLVER_WORK, dtype=np.int64))


@njit(cache=True, _nrt=False)
def seed_streams(scratch, seed, game, round_no):
    """Key each seat's random stream for round ``round_no`` (1..10) of game ``game``."""
    for p in range(scratch.rngs.shape[0]):
        scratch.rngs[p, 0] = stream_key(seed, game, round_no - 1, KIND_BOT, p)


@njit(cache=True, inline="always")
def choose(state, params, seat, scratch):
    """The move of ``seat`` (the seat to act) at the state's decision point, an action of
    ``moves``. ``params`` float64[players, N_SHANGHAI_PARAMS]; ``scratch`` a ``BotScratch``."""
    ints = state.ints
    phase = ints[I_PHASE]
    if phase == PH_UPCARD:
        up = state.pile[ints[SI_PILE_N] - 1]
        if take_upcard(seat, params, state.hands, ints, state.table, state.rules, up, scratch.rngs, scratch.dwork):
            return TAKE_UPCARD
        return LEAVE_UPCARD
    if phase == PH_BUY:
        up = state.pile[ints[SI_PILE_N] - 1]
        if wants_buy(seat, params, state.hands, ints, state.rules, up, scratch.rngs, scratch.dwork):
            return BUY
        return PASS
    if phase == PH_PLAY:
        if ints[SI_DOWN_TURN_SEAT + seat] == 0:
            n = plan_down(seat, params, state.hands, ints, state.rules, state.hands.shape[0], scratch, state.melds)
            if ints[I_SWAPPED_DOWN] != 0 and (n == 0 or not _holds_joker(state.melds, n)):
                n = propose_contract(state)  # after a swap (3.8) the laying must hold the joker
            if n > 0:
                ints[I_PROPOSAL_N] = n
                return CONTRACT
            if params[seat, SP_BOT] != BOT_RANDOM and params[seat, SP_SWAP_DOWN] != 0:
                return swap_to_go_down(state, seat, params, scratch)
            return STOP
        return next_layoff(state, seat, params, scratch)
    if phase == PH_DISCARD:
        return choose_discard(state, seat, params, scratch)
    return STOP
