"""Shanghai Rummy moves as data: the legal-move layer of the compiled core (docs/rules.md 2.1-2.7,
rulings 3.1, 3.4, 3.7-3.9, 3.12, 3.13). Legality is defined here once; the bots (``bots.py``) and the driver
(``kernel.py``) call into this module, never the other way round.

A round is a ``state.State``; ``ints[I_PHASE]`` is the decision to take (``PH_*``) and
``ints[I_SEAT]`` the seat to act. Everything automatic (the stock draw after the upcard is
left or bought, refills, the end of a turn, going out and scoring, stalemates (an empty stock,
2.6; a blocked or dead table, rulings 3.7 and 3.12, judged when a round starts and at the end of
a turn that changed the table), the turn
limit, the event log, card-conservation checks with the rules' check flag) happens inside
``apply``.

Actions (one flat int64 encoding, ``NUM_ACTIONS`` integers):

===============================  =====================  ===========================================
integers                         name                   meaning (phase)
===============================  =====================  ===========================================
0 .. 63                          discard card c         throw card id c (63: a joker) (PH_DISCARD)
64                               ``TAKE_UPCARD``        take the upcard (PH_UPCARD)
65                               ``LEAVE_UPCARD``       leave it: buys are offered, then the stock
                                                        draw is automatic (PH_UPCARD)
66                               ``BUY``                buy the upcard + the top stock card (PH_BUY)
67                               ``PASS``               do not buy (PH_BUY)
68                               ``STOP``               end the play step: to the discard (PH_PLAY)
69                               ``CONTRACT``           lay down the laying held in the proposal
                                                        buffer ``melds[:ints[I_PROPOSAL_N]]``
                                                        (PH_PLAY, seat not down)
70 + c * 32 + k                  ``LAYOFF_BASE``        lay off card c on table meld k (PH_PLAY,
                                                        seat down)
2118 + (c * 32 + k) * 32 + k2    ``SWAP_BASE``          put natural c in place of a joker of meld k;
                                                        the freed joker is laid off on meld k2
                                                        (which is judged after the swap; k2 may be k)
                                                        (PH_PLAY, seat down)
67654 + c * 32 + k               ``SWAP_DOWN_BASE``     put natural c in place of a joker of meld k
                                                        and take the joker into the hand, to lay the
                                                        contract with it (PH_PLAY, seat not down,
                                                        ``joker_swap = anyone``, ruling 3.8)
69702 + k                        ``JOKER_LOW_BASE``     lay off a joker at the low end of run k, which
                                                        takes one at both ends (ruling 3.13; the lay-off
                                                        ``LAYOFF_BASE + 63 * 32 + k`` puts it at the high
                                                        end) (PH_PLAY, seat down)
69734 + (c * 32 + k) * 32 + k2   ``SWAP_LOW_BASE``      the swap ``SWAP_BASE + ...`` with the freed joker
                                                        at the low end of run k2, which takes one at both
                                                        ends after the swap (ruling 3.13) (PH_PLAY, seat
                                                        down)
===============================  =====================  ===========================================

(32 = ``MAX_TABLE``: eight seats of round 9's four melds.) The contract is one action, ``CONTRACT``, naming the laying in the state's
proposal buffer: a policy writes its planned melds into ``state.melds``, sets
``ints[I_PROPOSAL_N]`` and returns ``CONTRACT``; ``is_legal`` checks that laying (the contract
of the round, 2.2-2.3; cards held; a legal discard left, 2.6 and ruling 3.1). ``legal_moves``
lists ``CONTRACT`` exactly when some legal laying exists: it keeps a legal proposal already in
the buffer, else writes there a laying found by the exact solver's search (``propose_contract``:
``contracts.first_contract``, the first laying found depth first rather than ``best_contract``'s
best one, which can take tens of milliseconds on a 30-card hand; keeping back one card to throw
when that laying would leave none), so every move it lists can be applied. ``apply`` empties the buffer after every move.

A swap by a seat not down (ruling 3.8) is two moves, the swap then the contract, and no other
order is possible: ``SWAP_DOWN_BASE + c * 32 + k`` is legal only when, after it, a laying of the
contract holding a joker exists (``swap_down_ok``: the exact solver, ``first_contract`` with
``min_jokers = 1``, on the hand with c given and the joker taken, with a legal discard left;
tried in the ``trial`` scratch so the proposal buffer is kept), and after it ``ints[I_SWAPPED_DOWN]``
is 1 and the one legal move is ``CONTRACT`` with a laying that holds a joker (no ``STOP``, no
second swap): so the freed joker is always used in the contract laid that turn. One move holding
both (a swap folded into ``CONTRACT``) would need a proposal per swap listed; two moves keep one
proposal buffer and one ``CONTRACT``. A seat that went down swaps with ``SWAP_BASE`` as before,
also on its contract turn when lay-offs are allowed there (``layoff_on_contract_turn``, ruling 3.9:
after ``CONTRACT`` the seat is down and its play step goes on).

``is_legal``, ``apply`` and what ``apply`` calls are compiled inline (Numba IR inlining) so that
the driver's loop reads the state's arrays without a reference-count update per field read and
per call (about 1.5x the rounds/s of plain calls).

A joker laid off on a run that takes one at both ends stands for the card the player chooses
(ruling 3.13): the plain lay-off and swap actions put it where ``table.fit`` does, the high end
first (the only end of a run open at one end, any place in a set); ``JOKER_LOW_BASE`` and
``SWAP_LOW_BASE`` put it at the low end and are legal only when both ends are open, so each way of
playing has exactly one action.

``legal_moves`` lists in a fixed order: PH_UPCARD ``LEAVE, [TAKE]``; PH_BUY ``PASS, BUY``;
PH_PLAY ``STOP`` then ``CONTRACT`` then the swaps (c, k) ascending (not down; after such a swap
``CONTRACT`` alone) or, for card c ascending, for meld k ascending,
the lay-off (c, k) [then, for the joker, its low-end lay-off on k] then the swaps (c, k, k2) for
k2 ascending, each [followed by its low-end twin] (down); PH_DISCARD the cards ascending. At most
``MAX_LEGAL`` moves.
"""

import numpy as np
from numba import njit

from ...engine.codes import (EV_BUY, EV_CONTRACT, EV_DISCARD, EV_DRAW_DISCARD, EV_DRAW_STOCK, EV_LAYOFF,  # noqa: F401
                            EV_RESHUFFLE, EV_SWAP, OUT_STALEMATE_BLOCKED, OUT_STALEMATE_STOCK, OUT_TURN_LIMIT,
                            OUT_WIN)
from ...engine.deck import dealer_of
from ...engine.events import EV_CARDS, close_event, open_event
from ...engine.rng import KIND_DEAL, KIND_RESHUFFLE, shuffle, stream_key
from ...engine.views import copy_into
from .contracts import CONTRACTS, MAX_RUN_CANDIDATES, RUN_COLS, SOLVER_WORK, card_at, first_contract
from .state import (
    BONUS_NO_JOKER, BONUS_NONE, BONUS_ONE_TURN, CARDS_DEALT, I_BONUS, I_DOWN_NOW, I_FIRST, I_GAME,
    I_JOKERS_DOWN, I_OUTCOME, I_PHASE, I_PROPOSAL_N, I_SEAT, I_SEED, I_SWAPPED_DOWN, I_TABLE_MOVED, I_TURN_SEAT,
    I_WINNER, JOKER, JOKER_SWAP_ANYONE, MAX_TABLE,
    MELD_RUN, PH_BUY, PH_DISCARD, PH_OVER, PH_PLAY, PH_UPCARD, SI_BUYS, SI_BUYS_SEAT, SI_DISCARDER,
    SI_DISTANCE_SEAT, SI_DOWN_TURN_SEAT, SI_DRAWN, SI_LAID_OFF_SEAT, SI_N_TABLE, SI_OWN_TURNS_SEAT, SI_PILE_N,
    SI_RESHUFFLES, SI_ROUND, SI_SIZE, SI_STOCK_N, SI_SWAPS_SEAT, SI_TURN, SI_UPCARDS_SEAT, SR_ACE_HIGH, SR_BONUS,
    SR_BONUS_NO_JOKER, SR_CHECK, SR_DECKS, SR_JOKER_SWAP, SR_JOKERS, SR_LAYOFF_ON_CONTRACT_TURN, SR_MAX_BUYS,
    SR_MUST_DISCARD, SR_TURN_LIMIT, T_COLS, T_HI, T_JOKER_POS, T_JOKERS, T_KIND, T_LO, T_RANK, T_SUIT, State,
)
from .table import (
    FIT_LOW, FIT_NONE, contract_ok, fit, hand_points, hand_size, joker_both_ends, lay_off, materialize,
    meld_cards_into, meld_listing, place, swap_in, swap_position, table_counts,
)

TAKE_UPCARD = 64
LEAVE_UPCARD = 65
BUY = 66
PASS = 67
STOP = 68
CONTRACT = 69
CONTRACT_BASE = CONTRACT
LAYOFF_BASE = 70
SWAP_BASE = LAYOFF_BASE + 64 * MAX_TABLE
SWAP_DOWN_BASE = SWAP_BASE + 64 * MAX_TABLE * MAX_TABLE
JOKER_LOW_BASE = SWAP_DOWN_BASE + 64 * MAX_TABLE
SWAP_LOW_BASE = JOKER_LOW_BASE + MAX_TABLE
NUM_ACTIONS = SWAP_LOW_BASE + 64 * MAX_TABLE * MAX_TABLE
#: room for every legal move at one decision: lay-offs are at most 5 per meld (a set takes 4
#: naturals and a joker, a run a natural at each end and a joker at each), swaps at most 4 cards
#: per table meld holding a joker (at most 4 such melds: ``jokers`` is at most 4) times MAX_TABLE
#: homes times 2 ends: 1 + 5 * 32 + 4 * 4 * 32 * 2 = 1185 < 1280 (``legal_moves`` raises beyond it)
MAX_LEGAL = 1280

# event log (replay): one row per event, int16[EV_WIDTH]: type, player, card, meld, n cards, cards...
# event kinds (``engine.codes``) as Shanghai writes them: EV_LAYOFF cards[0] the position (run) or rank
# (set) the card took; EV_RESHUFFLE cards the new stock, top first; EV_BUY card the upcard, cards[0] the
# penalty card; EV_CONTRACT one row per meld laid, card 16 * kind + (run start or set rank), cards in
# order; EV_SWAP card the natural put in, meld where, cards[0] the position (run) or rank (set)
EV_WIDTH = EV_CARDS + 8 * 52 + 16


@njit(cache=True, _nrt=False)
def total_cards(rules):
    return 52 * rules[SR_DECKS] + rules[SR_JOKERS]


@njit(cache=True)
def new_state(players, rules, ev):
    """A ``State`` for rounds of ``players`` seats under ``rules`` (copied), logging into ``ev``
    int16[n, EV_WIDTH] (n = 0: no log). Reused round after round (``deal`` resets it)."""
    n = total_cards(rules)
    return State(np.zeros((players, 64), dtype=np.int64), np.zeros(SI_SIZE, dtype=np.int64),
                 np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64),
                 np.zeros((MAX_TABLE, T_COLS), dtype=np.int64), np.zeros((6, T_COLS), dtype=np.int64),
                 np.zeros(max(n, 64), dtype=np.int64), np.zeros(64, dtype=np.int64),
                 np.zeros(T_COLS, dtype=np.int64), np.zeros(1, dtype=np.uint64), rules.copy(), ev,
                 np.zeros(1, dtype=np.int64), np.zeros((MAX_RUN_CANDIDATES, RUN_COLS), dtype=np.int64),
                 np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64), np.zeros(64, dtype=np.int64),
                 np.zeros((6, T_COLS), dtype=np.int64), np.zeros((players, 64), dtype=np.int64),
                 np.zeros(SOLVER_WORK, dtype=np.int64))


@njit(cache=True, inline="always")
def _log(state, kind, player, card, meld, cards, n):
    """Append one event (only when logging: ``state.ev`` has rows); ``cards[:n]`` int64."""
    i = open_event(state.ev, state.n_ev, kind, player, card, meld)
    if i < 0:
        return
    for k in range(n):
        state.ev[i, EV_CARDS + k] = cards[k]
    close_event(state.ev, state.n_ev, i, n)


@njit(cache=True, _nrt=False)
def deal(state, seed, game, round_no):
    """Reset ``state`` and deal round ``round_no`` (1..10) of game ``game`` (rules 2.1); the first
    seat's turn begins. Returns the first seat."""
    hands, ints, stock, pile, table = state.hands, state.ints, state.stock, state.pile, state.table
    rules = state.rules
    players = hands.shape[0]
    hands[:] = 0
    state.held[:] = 0
    ints[:] = 0
    table[:] = 0
    state.n_ev[0] = 0
    ints[SI_ROUND] = round_no
    ints[SI_DISCARDER] = -1
    ints[I_SEED] = seed
    ints[I_GAME] = game
    n = total_cards(rules)
    deck = state.listing
    i = 0
    for _ in range(rules[SR_DECKS]):
        for s in range(4):
            for r in range(13):
                deck[i] = 16 * s + r
                i += 1
    for _ in range(rules[SR_JOKERS]):
        deck[i] = JOKER
        i += 1
    state.rng1[0] = stream_key(seed, game, round_no - 1, KIND_DEAL, 0)
    shuffle(state.rng1, deck, n)
    dealer = dealer_of(game, round_no - 1, players)
    seat = dealer
    dealt = CARDS_DEALT * players
    for i in range(dealt):
        seat += 1
        if seat == players:
            seat = 0
        hands[seat, deck[i]] += 1
    pile[0] = deck[dealt]
    ints[SI_PILE_N] = 1
    n_stock = n - dealt - 1
    for k in range(n_stock):
        stock[k] = deck[n - 1 - k]
    ints[SI_STOCK_N] = n_stock
    first = (dealer + 1) % players
    begin(state, first)
    return first


@njit(cache=True, _nrt=False)
def begin(state, first):
    """Start play of the round held in ``state`` (dealt, or a hand-built position) at seat
    ``first``'s turn."""
    state.ints[I_FIRST] = first
    state.ints[I_OUTCOME] = OUT_TURN_LIMIT
    state.ints[I_WINNER] = -1
    state.ints[I_BONUS] = BONUS_NONE
    if table_blocked(state):
        _end(state, OUT_STALEMATE_BLOCKED, -1)
    else:
        _begin_turn(state, first)


@njit(cache=True, _nrt=False)
def check_cards(state):
    """Raise unless every card is in exactly one place: a hand, the table, the stock or the pile,
    and every card a seat is known to hold (``held``) is in its hand."""
    hands, ints, rules, counts = state.hands, state.ints, state.rules, state.counts
    table_counts(state.table, ints[SI_N_TABLE], counts)
    for p in range(hands.shape[0]):
        for c in range(64):
            if hands[p, c] < 0:
                raise AssertionError("card conservation broken: a negative count in a hand")
            if state.held[p, c] > hands[p, c]:
                raise AssertionError("a card known to be held is not in that hand")
            counts[c] += hands[p, c]
    for k in range(ints[SI_STOCK_N]):
        counts[state.stock[k]] += 1
    for k in range(ints[SI_PILE_N]):
        counts[state.pile[k]] += 1
    for c in range(64):
        expect = 0
        if c == JOKER:
            expect = rules[SR_JOKERS]
        elif (c & 15) < 13:
            expect = rules[SR_DECKS]
        if counts[c] != expect:
            raise AssertionError("card conservation broken: a card is missing or in two places")


@njit(cache=True, inline="always")
def _check(state):
    if state.rules[SR_CHECK] != 0:
        check_cards(state)


@njit(cache=True, _nrt=False)
def _refill(state):
    """Rules 2.6: the discard pile less its top card, shuffled, becomes the stock."""
    ints, stock, pile = state.ints, state.stock, state.pile
    n = ints[SI_PILE_N]
    moved = n - 1 if n > 0 else 0
    for k in range(moved):
        stock[k] = pile[k]
    state.rng1[0] = stream_key(ints[I_SEED], ints[I_GAME], ints[SI_ROUND] - 1, KIND_RESHUFFLE,
                               ints[SI_RESHUFFLES])
    shuffle(state.rng1, stock, moved)
    if n > 0:
        pile[0] = pile[n - 1]
    ints[SI_PILE_N] = n - moved
    ints[SI_STOCK_N] = moved
    ints[SI_RESHUFFLES] += 1


# ---------------------------------------------------------------- legality helpers (bots use them)

@njit(cache=True, _nrt=False)
def leftover_ok(counts, drawn, must_discard):
    """May a hand be left as ``counts`` before the discard? Empty only without
    ``must_discard_to_go_out``; otherwise it must hold a card it may throw (not the upcard
    taken this turn, ruling 3.1: nor a copy of it)."""
    for c in range(64):
        if counts[c] > 0 and c != drawn:
            return True
    return hand_size(counts) == 0 and not must_discard


@njit(cache=True, _nrt=False)
def may_play(counts, card, drawn, must):
    """May ``card`` leave the hand now (what is left must still allow a legal discard)?"""
    counts[card] -= 1
    ok = leftover_ok(counts, drawn, must)
    counts[card] += 1
    return ok


@njit(cache=True, _nrt=False)
def joker_fits_after_swap(table, k, pos, card, k2, ace_high, row):
    """After swapping ``card`` into meld ``k`` at ``pos``, does meld ``k2`` take the freed joker?
    (``row`` int64[T_COLS] scratch: meld ``k2`` after the swap)"""
    copy_into(row, table[k2], T_COLS)
    if k2 == k:
        swap_in(row, card, pos)
    return fit(row, JOKER, ace_high) != FIT_NONE


@njit(cache=True, _nrt=False)
def joker_home(table, n_table, k, pos, card, ace_high, row):
    """The first meld that takes the joker freed by swapping ``card`` into meld ``k``, or -1."""
    for k2 in range(n_table):
        if joker_fits_after_swap(table, k, pos, card, k2, ace_high, row):
            return k2
    return -1


@njit(cache=True, _nrt=False)
def all_down(state):
    """Has every seat laid down its contract (2.5)?"""
    for p in range(state.hands.shape[0]):
        if state.ints[SI_DOWN_TURN_SEAT + p] == 0:
            return False
    return True


@njit(cache=True, _nrt=False)
def table_closed(state):
    """Ruling 3.7: can no card off the table (stock, discard pile, any hand) ever go onto it? True
    when every joker is on the table and no natural off it can be laid off on a table meld or,
    with ``joker_swap``, swapped for a table joker whose freed joker has a home (2.5). The cards
    off the table are the deck less the table's, so this depends on the table alone."""
    rules, counts = state.rules, state.counts
    table_counts(state.table, state.ints[SI_N_TABLE], counts)
    if counts[JOKER] < rules[SR_JOKERS]:
        return False
    return not _natural_joins(state, counts, False)


@njit(cache=True, _nrt=False)
def _natural_joins(state, counts, any_swap):
    """Can a natural off the table (the table holds ``counts`` int64[64] of each card) be laid off on
    a table meld or, with ``joker_swap``, swapped for a table joker whose freed joker has a home
    (2.5)? With ``any_swap`` every swap counts, the freed joker going to the hand (ruling 3.8).
    Meld by meld, only the naturals that could join it: a set's rank, a run's two ends and the
    cards its jokers stand for (a set's joker stands for its rank, which the set takes anyway)."""
    rules, table = state.rules, state.table
    n_table = state.ints[SI_N_TABLE]
    decks = rules[SR_DECKS]
    ace_high = rules[SR_ACE_HIGH] != 0
    swap_rule = rules[SR_JOKER_SWAP] != 0
    for k in range(n_table):
        row = table[k]
        if row[T_KIND] != MELD_RUN:
            for s in range(4):
                if counts[16 * s + row[T_RANK]] < decks:
                    return True
            continue
        for pos in (row[T_LO] - 1, row[T_HI] + 1):
            if 0 <= pos <= 13:
                c = card_at(row[T_SUIT], pos)
                if counts[c] < decks and fit(row, c, ace_high) != FIT_NONE:
                    return True
        if swap_rule and row[T_JOKERS] > 0:
            for pos in range(row[T_LO], row[T_HI] + 1):
                c = card_at(row[T_SUIT], pos)
                if (row[T_JOKER_POS] >> pos) & 1 and counts[c] < decks and (
                        any_swap or joker_home(table, n_table, k, pos, c, ace_high, state.row) >= 0):
                    return True
    return False


@njit(cache=True, _nrt=False)
def table_dead(state):
    """Ruling 3.12 (interpretation I.9), for a round with a seat not down: can the table never change
    again? True when no card off it can join it (a joker that fits no table meld does not; a natural
    as in ``table_closed``, and under ``joker_swap = anyone`` any natural a table joker stands for, 3.8)
    and every seat not down is hopeless: it can never hold the contract's fewest cards (its hand now,
    one card drawn, two for each buy left; one more to throw with ``must_discard_to_go_out``), or the
    cards off the table hold no laying of the contract (``pool_lays_contract``)."""
    rules, table, counts, ints = state.rules, state.table, state.counts, state.ints
    n_table = ints[SI_N_TABLE]
    ace_high = rules[SR_ACE_HIGH] != 0
    table_counts(table, n_table, counts)
    if counts[JOKER] < rules[SR_JOKERS]:
        for k in range(n_table):
            if fit(table[k], JOKER, ace_high) != FIT_NONE:
                return False
    if _natural_joins(state, counts, rules[SR_JOKER_SWAP] == JOKER_SWAP_ANYONE):
        return False
    for p in range(state.hands.shape[0]):
        if ints[SI_DOWN_TURN_SEAT + p] == 0 and may_hold_contract(state, p):
            return not pool_lays_contract(state, counts)   # the same cards for every such seat
    return True


@njit(cache=True, _nrt=False)
def may_hold_contract(state, p):
    """Ruling 3.12: can seat ``p`` (not down) ever hold the round's fewest cards of a contract: its
    hand now, one card drawn, two for each buy left, one more to throw with ``must_discard_to_go_out``?"""
    rules, ints = state.rules, state.ints
    round_no = ints[SI_ROUND]
    need = 3 * CONTRACTS[round_no, 0] + CONTRACTS[round_no, 1] * CONTRACTS[round_no, 2]
    if rules[SR_MUST_DISCARD] != 0:
        need += 1
    most = hand_size(state.hands[p]) + 1 + 2 * max(rules[SR_MAX_BUYS] - ints[SI_BUYS_SEAT + p], 0)
    return most >= need


@njit(cache=True, _nrt=False)
def contract_hopeless(state, p):
    """Ruling 3.12 for one seat not down, from what every seat sees (the table and the rules): can
    seat ``p`` never lay the round's contract, holding too few cards or, whatever it draws, the
    cards off the table holding no laying of it? Uses ``state.counts`` as scratch."""
    if not may_hold_contract(state, p):
        return True
    table_counts(state.table, state.ints[SI_N_TABLE], state.counts)
    return not pool_lays_contract(state, state.counts)


@njit(cache=True, _nrt=False)
def pool_lays_contract(state, counts):
    """Ruling 3.12: do the cards off the table hold a laying of the round's contract? ``counts``
    int64[64] holds the table's cards on entry and the cards off it (naturals) on return. An empty
    table leaves the whole deck, and one deck lays every contract (a test checks it). The exact
    solver (``contracts.first_contract``) tries the naturals alone first, then with the jokers off
    the table (only when none of them fits a table meld, ``table_dead``); with more than 2 of those
    the answer is yes without a search (its run list could outgrow ``MAX_RUN_CANDIDATES``)."""
    rules = state.rules
    jokers = rules[SR_JOKERS] - counts[JOKER]
    for c in range(64):
        counts[c] = rules[SR_DECKS] - counts[c] if (c & 15) < 13 else 0
    if state.ints[SI_N_TABLE] == 0:
        return True
    round_no = state.ints[SI_ROUND]
    ace_high = rules[SR_ACE_HIGH] != 0
    if first_contract(counts, 0, round_no, ace_high, state.cand, state.chosen, state.ranks, state.solver)[0] >= 0:
        return True
    if jokers == 0:
        return False
    if jokers > 2:
        return True
    return first_contract(counts, jokers, round_no, ace_high, state.cand, state.chosen, state.ranks,
                          state.solver)[0] >= 0


@njit(cache=True, _nrt=False)
def table_blocked(state):
    """Rulings 3.7 and 3.12: does the round end at once as ``stalemate_blocked``? Judged at the start
    of a round and after a turn that moved the table (interpretation I.7)."""
    if all_down(state):
        return table_closed(state)
    return table_dead(state)


@njit(cache=True, inline="always")
def _take_ok(state):
    """Rules 2.4.1, ruling 3.1: may the seat on turn take the upcard (it must keep a card to throw
    that is not a copy of it)?"""
    return leftover_ok(state.hands[state.ints[I_TURN_SEAT]], state.pile[state.ints[SI_PILE_N] - 1], True)


@njit(cache=True, inline="always")
def proposal_ok(state):
    """Is the laying in the proposal buffer a legal laying of the contract for the seat to act
    (rules 2.2, 2.3, 2.5; a legal discard left, 2.6 and ruling 3.1; holding a joker after a swap,
    ruling 3.8)?"""
    ints = state.ints
    n = ints[I_PROPOSAL_N]
    if n <= 0 or n > state.melds.shape[0]:
        return False
    rules = state.rules
    if not contract_ok(state.melds, n, ints[SI_ROUND], rules[SR_ACE_HIGH] != 0):
        return False
    left = state.counts
    copy_into(left, state.hands[ints[I_SEAT]], 64)
    jokers = 0
    for i in range(n):
        meld_cards_into(state.melds[i], left, -1)
        jokers += state.melds[i, T_JOKERS]
    if jokers < ints[I_SWAPPED_DOWN]:
        return False
    for c in range(64):
        if left[c] < 0:
            return False
    return leftover_ok(left, ints[SI_DRAWN], rules[SR_MUST_DISCARD] != 0)


@njit(cache=True, _nrt=False)
def _solve_into(state, counts, min_jokers, melds):
    """A laying of ``counts`` holding at least ``min_jokers`` (0 or 1) jokers
    (``contracts.first_contract``, exact about whether one exists) into ``melds``
    int64[6, T_COLS]; returns the number of melds (0: none). The leftover is in ``state.left``."""
    left = state.left
    copy_into(left, counts, 64)
    round_no = state.ints[SI_ROUND]
    ace_high = state.rules[SR_ACE_HIGH] != 0
    value, set_jokers = first_contract(left, counts[JOKER], round_no, ace_high, state.cand, state.chosen,
                                      state.ranks, state.solver, min_jokers)
    if value < 0:
        return 0
    return materialize(left, state.cand, state.chosen, state.ranks, set_jokers, round_no, melds)


@njit(cache=True, _nrt=False)
def _propose(state, counts, min_jokers, melds):
    """A legal laying of the hand ``counts`` (of the seat to act) into ``melds``: the first laying
    found by ``contracts.first_contract`` holding ``min_jokers`` jokers; if it leaves no card that
    may be thrown, the same with the first card d, ascending, kept back to throw. Returns the
    number of melds (0: no legal laying)."""
    drawn = state.ints[SI_DRAWN]
    must = state.rules[SR_MUST_DISCARD] != 0
    n = _solve_into(state, counts, min_jokers, melds)
    if n == 0 or leftover_ok(state.left, drawn, must):
        return n
    for d in range(64):
        if counts[d] > 0 and d != drawn:
            counts[d] -= 1
            n = _solve_into(state, counts, min_jokers, melds)
            counts[d] += 1
            if n > 0:
                return n
    return 0


@njit(cache=True, _nrt=False)
def propose_contract(state):
    """Fill the proposal buffer with a legal laying if one exists (``_propose``; holding a joker
    after a swap, ruling 3.8). Returns the number of melds (0: no legal laying)."""
    ints = state.ints
    ints[I_PROPOSAL_N] = 0
    n = _propose(state, state.hands[ints[I_SEAT]], ints[I_SWAPPED_DOWN], state.melds)
    ints[I_PROPOSAL_N] = n
    return n


@njit(cache=True, _nrt=False)
def swap_down_ok(state, c, k):
    """Ruling 3.8 (``joker_swap = anyone``): may the seat to act, not down and not yet swapped this
    turn, put natural ``c`` in place of a joker of table meld ``k`` and take the joker, that is,
    can it then lay its contract with a joker in it (and a legal discard left)? The laying is
    tried in ``state.trial``; the proposal buffer is left as it was."""
    ints = state.ints
    p = ints[I_SEAT]
    counts = state.hands[p]
    if (state.rules[SR_JOKER_SWAP] != JOKER_SWAP_ANYONE or ints[SI_DOWN_TURN_SEAT + p] > 0
            or ints[I_SWAPPED_DOWN] != 0 or c < 0 or c >= JOKER or counts[c] == 0
            or k < 0 or k >= ints[SI_N_TABLE] or swap_position(state.table[k], c) < 0):
        return False
    counts[c] -= 1
    counts[JOKER] += 1
    n = _propose(state, counts, 1, state.trial)
    counts[c] += 1
    counts[JOKER] -= 1
    return n > 0


# ---------------------------------------------------------------- the move layer

@njit(cache=True, inline="always")
def is_over(state):
    return state.ints[I_PHASE] == PH_OVER


@njit(cache=True, _nrt=False)
def legal_moves(state, out):
    """Every legal move at the current decision into ``out`` int64[>= MAX_LEGAL], in the order of
    the module docstring; returns how many (0 once the round is over). In PH_PLAY for a seat not
    down it may write a laying into the proposal buffer (see ``CONTRACT``)."""
    ints = state.ints
    phase = ints[I_PHASE]
    if phase == PH_UPCARD:
        out[0] = LEAVE_UPCARD
        if _take_ok(state):
            out[1] = TAKE_UPCARD
            return 2
        return 1
    if phase == PH_BUY:
        out[0] = PASS
        out[1] = BUY
        return 2
    if phase == PH_DISCARD:
        counts = state.hands[ints[I_SEAT]]
        drawn = ints[SI_DRAWN]
        n = 0
        for c in range(64):
            if counts[c] > 0 and c != drawn:
                out[n] = c
                n += 1
        return n
    if phase != PH_PLAY:
        return 0
    p = ints[I_SEAT]
    if ints[SI_DOWN_TURN_SEAT + p] == 0:
        return _moves_not_down(state, out)
    out[0] = STOP
    n = 1
    counts = state.hands[p]
    table = state.table
    n_table = ints[SI_N_TABLE]
    drawn = ints[SI_DRAWN]
    rules = state.rules
    must = rules[SR_MUST_DISCARD] != 0
    ace_high = rules[SR_ACE_HIGH] != 0
    swap_rule = rules[SR_JOKER_SWAP] != 0
    for c in range(64):
        if counts[c] == 0 or not may_play(counts, c, drawn, must):
            continue
        for k in range(n_table):
            if fit(table[k], c, ace_high) != FIT_NONE:
                n = _listed(out, n, LAYOFF_BASE + c * MAX_TABLE + k)
                if c == JOKER and joker_both_ends(table[k], ace_high):
                    n = _listed(out, n, JOKER_LOW_BASE + k)
            if swap_rule:
                pos = swap_position(table[k], c)
                if pos >= 0:
                    for k2 in range(n_table):
                        if joker_fits_after_swap(table, k, pos, c, k2, ace_high, state.row):
                            i = (c * MAX_TABLE + k) * MAX_TABLE + k2
                            n = _listed(out, n, SWAP_BASE + i)
                            if joker_both_ends(state.row, ace_high):
                                n = _listed(out, n, SWAP_LOW_BASE + i)
    return n


@njit(cache=True, inline="always")
def _listed(out, n, move):
    """Append ``move`` to the ``n`` moves listed in ``out``; returns the new count."""
    if n >= out.shape[0]:
        raise ValueError("more legal moves than MAX_LEGAL")
    out[n] = move
    return n + 1


@njit(cache=True, _nrt=False)
def _moves_not_down(state, out):
    """``legal_moves`` in PH_PLAY for a seat not down: ``STOP``, ``CONTRACT`` if a laying exists,
    the swaps of ruling 3.8 (``swap_down_ok``); after such a swap ``CONTRACT`` alone."""
    ints = state.ints
    if ints[I_SWAPPED_DOWN] != 0:
        if not proposal_ok(state):
            propose_contract(state)  # one with the joker exists: swap_down_ok allowed the swap
        out[0] = CONTRACT
        return 1
    out[0] = STOP
    n = 1
    if proposal_ok(state) or propose_contract(state) > 0:
        out[1] = CONTRACT
        n = 2
    if state.rules[SR_JOKER_SWAP] == JOKER_SWAP_ANYONE:
        counts = state.hands[ints[I_SEAT]]
        for c in range(JOKER):
            if counts[c] == 0:
                continue
            for k in range(ints[SI_N_TABLE]):
                if swap_down_ok(state, c, k):
                    if n >= out.shape[0]:
                        raise ValueError("more legal moves than MAX_LEGAL")
                    out[n] = SWAP_DOWN_BASE + c * MAX_TABLE + k
                    n += 1
    return n


@njit(cache=True, inline="always")
def is_legal(state, move):
    """Is ``move`` legal for the seat to act at the current decision? No enumeration."""
    ints = state.ints
    phase = ints[I_PHASE]
    if phase == PH_UPCARD:
        return move == LEAVE_UPCARD or (move == TAKE_UPCARD and _take_ok(state))
    if phase == PH_BUY:
        return move == PASS or move == BUY
    if phase == PH_OVER:
        return False
    p = ints[I_SEAT]
    counts = state.hands[p]
    if phase == PH_DISCARD:
        return 0 <= move < 64 and counts[move] > 0 and move != ints[SI_DRAWN]
    if move == STOP:
        return ints[I_SWAPPED_DOWN] == 0
    down = ints[SI_DOWN_TURN_SEAT + p] > 0
    if move == CONTRACT:
        return not down and proposal_ok(state)
    if SWAP_DOWN_BASE <= move < JOKER_LOW_BASE:
        return swap_down_ok(state, (move - SWAP_DOWN_BASE) // MAX_TABLE, (move - SWAP_DOWN_BASE) % MAX_TABLE)
    if not down or move < LAYOFF_BASE or move >= NUM_ACTIONS:
        return False
    rules = state.rules
    ace_high = rules[SR_ACE_HIGH] != 0
    n_table = ints[SI_N_TABLE]
    if move < SWAP_BASE or JOKER_LOW_BASE <= move < SWAP_LOW_BASE:
        low = move >= JOKER_LOW_BASE
        c = JOKER if low else (move - LAYOFF_BASE) // MAX_TABLE
        k = move - JOKER_LOW_BASE if low else (move - LAYOFF_BASE) % MAX_TABLE
        if counts[c] == 0 or k >= n_table or fit(state.table[k], c, ace_high) == FIT_NONE:
            return False
        if low and not joker_both_ends(state.table[k], ace_high):
            return False
        return may_play(counts, c, ints[SI_DRAWN], rules[SR_MUST_DISCARD] != 0)
    low = move >= SWAP_LOW_BASE
    i = move - (SWAP_LOW_BASE if low else SWAP_BASE)
    k2 = i % MAX_TABLE
    k = (i // MAX_TABLE) % MAX_TABLE
    c = i // (MAX_TABLE * MAX_TABLE)
    if rules[SR_JOKER_SWAP] == 0 or c == JOKER or counts[c] == 0 or k >= n_table or k2 >= n_table:
        return False
    pos = swap_position(state.table[k], c)
    if pos < 0 or not joker_fits_after_swap(state.table, k, pos, c, k2, ace_high, state.row):
        return False
    if low and not joker_both_ends(state.row, ace_high):
        return False
    return may_play(counts, c, ints[SI_DRAWN], rules[SR_MUST_DISCARD] != 0)


@njit(cache=True, inline="always")
def apply(state, move):
    """Apply a legal ``move`` (see ``is_legal``) and everything automatic that follows, up to the
    next decision or the end of the round."""
    ints = state.ints
    phase = ints[I_PHASE]
    proposal = ints[I_PROPOSAL_N]
    ints[I_PROPOSAL_N] = 0
    if phase == PH_UPCARD:
        if move == TAKE_UPCARD:
            _take_upcard(state)
        elif state.rules[SR_MAX_BUYS] > 0:
            _offer_buy(state, ints[I_TURN_SEAT])
        else:
            _draw_stock(state)
    elif phase == PH_BUY:
        if move == BUY:
            _buy(state)
        else:
            _offer_buy(state, ints[I_SEAT])
    elif phase == PH_PLAY:
        if move == STOP:
            _to_discard(state)
        elif move == CONTRACT:
            _lay_contract(state, proposal)
        elif move < SWAP_BASE:
            _lay_off(state, (move - LAYOFF_BASE) // MAX_TABLE, (move - LAYOFF_BASE) % MAX_TABLE, False)
        elif move < SWAP_DOWN_BASE:
            i = move - SWAP_BASE
            _swap(state, i // (MAX_TABLE * MAX_TABLE), (i // MAX_TABLE) % MAX_TABLE, i % MAX_TABLE, False)
        elif move < JOKER_LOW_BASE:
            _swap_down(state, (move - SWAP_DOWN_BASE) // MAX_TABLE, (move - SWAP_DOWN_BASE) % MAX_TABLE)
        elif move < SWAP_LOW_BASE:
            _lay_off(state, JOKER, move - JOKER_LOW_BASE, True)
        else:
            i = move - SWAP_LOW_BASE
            _swap(state, i // (MAX_TABLE * MAX_TABLE), (i // MAX_TABLE) % MAX_TABLE, i % MAX_TABLE, True)
    elif phase == PH_DISCARD:
        _discard(state, move)


@njit(cache=True, _nrt=False)
def scores(state, out):
    """This round's score of each seat into ``out`` (rules 2.7): the winner 0 or the one-turn bonus,
    everyone else the value of their hand. Meaningful once ``is_over``."""
    ints = state.ints
    rules = state.rules
    winner = ints[I_WINNER]
    for q in range(state.hands.shape[0]):
        if q == winner:
            out[q] = 0
            if ints[I_BONUS] == BONUS_ONE_TURN:
                out[q] = rules[SR_BONUS]
            elif ints[I_BONUS] == BONUS_NO_JOKER:
                out[q] = rules[SR_BONUS_NO_JOKER]
        else:
            out[q] = hand_points(state.hands[q])


# ---------------------------------------------------------------- what apply does

@njit(cache=True, inline="always")
def _forget_held(state, p, c, n):
    """Seat p threw or laid ``n`` copies of card ``c``: as far as the others know, the known copies
    went first (``state.held``)."""
    state.held[p, c] = max(state.held[p, c] - n, 0)


@njit(cache=True, inline="always")
def _begin_turn(state, p):
    ints = state.ints
    ints[I_TURN_SEAT] = p
    ints[I_SEAT] = p
    ints[SI_DRAWN] = -1
    ints[I_DOWN_NOW] = 0
    ints[I_JOKERS_DOWN] = 0
    ints[I_PROPOSAL_N] = 0
    ints[I_SWAPPED_DOWN] = 0
    ints[I_TABLE_MOVED] = 0
    if ints[SI_PILE_N] > 0:
        ints[I_PHASE] = PH_UPCARD
    else:
        _draw_stock(state)


@njit(cache=True, inline="always")
def _end(state, outcome, winner):
    state.ints[I_PHASE] = PH_OVER
    state.ints[I_SEAT] = -1
    state.ints[I_OUTCOME] = outcome
    state.ints[I_WINNER] = winner


@njit(cache=True, inline="always")
def _take_upcard(state):
    ints = state.ints
    p = ints[I_TURN_SEAT]
    ints[SI_PILE_N] -= 1
    up = state.pile[ints[SI_PILE_N]]
    state.hands[p, up] += 1
    state.held[p, up] += 1
    ints[SI_DISTANCE_SEAT + p] = 0  # the bots' cached distance: the hand changed
    ints[SI_DRAWN] = up
    ints[SI_UPCARDS_SEAT + p] += 1
    _log(state, EV_DRAW_DISCARD, p, up, -1, state.listing, 0)
    _check(state)
    _enter_play(state)


@njit(cache=True, inline="always")
def _offer_buy(state, q):
    """Offer the upcard to the next seat after ``q`` that may buy it (rules 2.4.2-3, ruling 3.4:
    not the discarder, buys left, 2+ stock cards), or draw from the stock when none is left."""
    ints = state.ints
    p = ints[I_TURN_SEAT]
    players = state.hands.shape[0]
    max_buys = state.rules[SR_MAX_BUYS]
    while True:
        q += 1
        if q == players:
            q = 0
        if q == p or ints[SI_STOCK_N] < 2:
            break
        if q == ints[SI_DISCARDER] or ints[SI_BUYS_SEAT + q] >= max_buys:
            continue
        ints[I_PHASE] = PH_BUY
        ints[I_SEAT] = q
        return
    _draw_stock(state)


@njit(cache=True, inline="always")
def _buy(state):
    ints = state.ints
    q = ints[I_SEAT]
    ints[SI_PILE_N] -= 1
    up = state.pile[ints[SI_PILE_N]]
    ints[SI_STOCK_N] -= 1
    penalty = state.stock[ints[SI_STOCK_N]]
    state.hands[q, up] += 1
    state.held[q, up] += 1   # the upcard is public, the penalty card is not
    state.hands[q, penalty] += 1
    ints[SI_DISTANCE_SEAT + q] = 0
    ints[SI_BUYS_SEAT + q] += 1
    ints[SI_BUYS] += 1
    if state.ev.shape[0] > 0:
        state.listing[0] = penalty
        _log(state, EV_BUY, q, up, -1, state.listing, 1)
    _check(state)
    _draw_stock(state)


@njit(cache=True, inline="always")
def _draw_stock(state):
    """The seat on turn draws from the stock, refilled first when empty (2.6); no stock left
    even then ends the round."""
    ints = state.ints
    p = ints[I_TURN_SEAT]
    ints[I_SEAT] = p
    stock = state.stock
    if ints[SI_STOCK_N] == 0:
        _refill(state)
        if state.ev.shape[0] > 0:
            for k in range(ints[SI_STOCK_N]):
                state.listing[k] = stock[ints[SI_STOCK_N] - 1 - k]
            _log(state, EV_RESHUFFLE, -1, -1, -1, state.listing, ints[SI_STOCK_N])
        if ints[SI_STOCK_N] == 0:
            _end(state, OUT_STALEMATE_STOCK, -1)
            return
    ints[SI_STOCK_N] -= 1
    card = stock[ints[SI_STOCK_N]]
    state.hands[p, card] += 1
    ints[SI_DISTANCE_SEAT + p] = 0
    _log(state, EV_DRAW_STOCK, p, card, -1, state.listing, 0)
    _check(state)
    _enter_play(state)


@njit(cache=True, inline="always")
def _enter_play(state):
    state.ints[I_PHASE] = PH_PLAY
    state.ints[I_SEAT] = state.ints[I_TURN_SEAT]


@njit(cache=True, inline="always")
def _lay_contract(state, n):
    """Rules 2.5: put the proposal's ``n`` melds on the table."""
    ints = state.ints
    p = ints[I_SEAT]
    counts = state.hands[p]
    melds = state.melds
    ints[SI_DISTANCE_SEAT + p] = 0
    laid = state.counts
    laid[:] = 0
    for i in range(n):
        meld_cards_into(melds[i], counts, -1)
        meld_cards_into(melds[i], laid, 1)
        ints[I_JOKERS_DOWN] += melds[i, T_JOKERS]
    for c in range(64):
        if laid[c] > 0:
            _forget_held(state, p, c, laid[c])
    for i in range(n):
        k = ints[SI_N_TABLE]
        place(state.table, k, melds[i], p)
        ints[SI_N_TABLE] = k + 1
        if state.ev.shape[0] > 0:
            m = meld_listing(melds[i], state.listing)
            start = melds[i, T_LO] if melds[i, T_KIND] == MELD_RUN else melds[i, T_RANK]
            _log(state, EV_CONTRACT, p, 16 * melds[i, T_KIND] + start, k, state.listing, m)
    ints[SI_DOWN_TURN_SEAT + p] = ints[SI_OWN_TURNS_SEAT + p] + 1
    ints[I_DOWN_NOW] = 1
    ints[I_SWAPPED_DOWN] = 0
    ints[I_TABLE_MOVED] = 1
    _check(state)
    if state.rules[SR_LAYOFF_ON_CONTRACT_TURN] == 0:
        _to_discard(state)


@njit(cache=True, inline="always")
def _lay_off(state, c, k, low):
    """Card ``c`` onto table meld ``k``: where ``fit`` puts it, or with ``low`` (a joker, ruling 3.13)
    at the run's low end."""
    ints = state.ints
    p = ints[I_SEAT]
    ints[SI_DISTANCE_SEAT + p] = 0
    where = FIT_LOW if low else fit(state.table[k], c, state.rules[SR_ACE_HIGH] != 0)
    pos = lay_off(state.table[k], c, where)
    state.hands[p, c] -= 1
    _forget_held(state, p, c, 1)
    ints[SI_LAID_OFF_SEAT + p] += 1
    ints[I_TABLE_MOVED] = 1
    if c == JOKER:
        ints[I_JOKERS_DOWN] += 1
    state.listing[0] = pos
    _log(state, EV_LAYOFF, p, c, k, state.listing, 1)
    _check(state)


@njit(cache=True, inline="always")
def _swap(state, c, k, k2, low):
    """Natural ``c`` in place of a joker of meld ``k``; the freed joker onto meld ``k2`` where ``fit``
    puts it, or with ``low`` at the run's low end (ruling 3.13)."""
    ints = state.ints
    p = ints[I_SEAT]
    table = state.table
    ints[SI_DISTANCE_SEAT + p] = 0
    pos = swap_position(table[k], c)
    swap_in(table[k], c, pos)
    where = FIT_LOW if low else fit(table[k2], JOKER, state.rules[SR_ACE_HIGH] != 0)
    state.hands[p, c] -= 1
    _forget_held(state, p, c, 1)
    ints[SI_SWAPS_SEAT + p] += 1
    state.listing[0] = pos
    _log(state, EV_SWAP, p, c, k, state.listing, 1)
    pos = lay_off(table[k2], JOKER, where)
    ints[SI_LAID_OFF_SEAT + p] += 1
    ints[I_JOKERS_DOWN] += 1
    ints[I_TABLE_MOVED] = 1
    state.listing[0] = pos
    _log(state, EV_LAYOFF, p, JOKER, k2, state.listing, 1)
    _check(state)


@njit(cache=True, inline="always")
def _swap_down(state, c, k):
    """Ruling 3.8: natural ``c`` into table meld ``k`` in place of a joker, the joker into the hand;
    the contract must follow (``I_SWAPPED_DOWN``)."""
    ints = state.ints
    p = ints[I_SEAT]
    ints[SI_DISTANCE_SEAT + p] = 0
    pos = swap_position(state.table[k], c)
    swap_in(state.table[k], c, pos)
    state.hands[p, c] -= 1
    _forget_held(state, p, c, 1)
    state.hands[p, JOKER] += 1
    state.held[p, JOKER] += 1   # taken from the table: public
    ints[SI_SWAPS_SEAT + p] += 1
    ints[I_SWAPPED_DOWN] = 1
    state.listing[0] = pos
    _log(state, EV_SWAP, p, c, k, state.listing, 1)
    _check(state)


@njit(cache=True, inline="always")
def _to_discard(state):
    ints = state.ints
    if hand_size(state.hands[ints[I_SEAT]]) > 0:
        ints[I_PHASE] = PH_DISCARD
    else:
        _end_turn(state)


@njit(cache=True, inline="always")
def _discard(state, c):
    ints = state.ints
    p = ints[I_SEAT]
    state.hands[p, c] -= 1
    _forget_held(state, p, c, 1)
    ints[SI_DISTANCE_SEAT + p] = 0
    state.pile[ints[SI_PILE_N]] = c
    ints[SI_PILE_N] += 1
    ints[SI_DISCARDER] = p
    _log(state, EV_DISCARD, p, c, -1, state.listing, 0)
    _check(state)
    _end_turn(state)


@njit(cache=True, inline="always")
def _end_turn(state):
    """The turn is over: going out (2.7, with the one-turn bonus), a blocked table (rulings 3.7 and
    3.12, ``table_blocked``: judged only when this turn changed the table; a seat that could still go
    out by its discard has just had that turn), the turn limit, or the next seat."""
    ints = state.ints
    p = ints[I_TURN_SEAT]
    ints[SI_TURN] += 1
    ints[SI_OWN_TURNS_SEAT + p] += 1
    if hand_size(state.hands[p]) == 0:
        if ints[I_DOWN_NOW] != 0:
            ints[I_BONUS] = BONUS_NO_JOKER if ints[I_JOKERS_DOWN] == 0 else BONUS_ONE_TURN
        _end(state, OUT_WIN, p)
    elif ints[I_TABLE_MOVED] != 0 and table_blocked(state):
        _end(state, OUT_STALEMATE_BLOCKED, -1)
    elif ints[SI_TURN] >= state.rules[SR_TURN_LIMIT]:
        _end(state, OUT_TURN_LIMIT, -1)
    else:
        _begin_turn(state, (p + 1) % state.hands.shape[0])


@njit(cache=True)
def copy_state(state):
    """A copy of ``state`` to look ahead or try a move on: the round (hands, counters, stock, pile,
    table, proposal, streams, rules, log) is copied; the scratch arrays (``listing``, ``counts``,
    ``row``, the solver's ``cand``, ``chosen``, ``ranks``, ``left``, ``solver``, ``trial``) are shared, so the copy
    and the original must not be used at the same time from two threads."""
    return State(state.hands.copy(), state.ints.copy(), state.stock.copy(), state.pile.copy(), state.table.copy(),
                 state.melds.copy(), state.listing, state.counts, state.row, state.rng1.copy(),
                 state.rules.copy(), state.ev.copy(), state.n_ev.copy(), state.cand, state.chosen,
                 state.ranks, state.left, state.trial, state.held.copy(), state.solver)
