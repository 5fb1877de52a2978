"""Shanghai Rummy round and game kernels (docs/rules.md section 2, rulings 3.1, 3.2, 3.4-3.6).

Scope: 3-8 players, several decks and jokers; ten rounds with the contracts
of 2.2; every option of 2.8 through the rule vector (``core.shanghai_state.SR_*``):
``decks``, ``jokers``, ``max_buys`` (0 disables buying), ``layoff_on_contract_turn``,
``joker_swap``, ``ace`` (low or high_or_low), ``must_discard_to_go_out``,
``one_turn_bonus`` (the pair with / without jokers) and ``turn_limit``.

A round is a pure function of ``(seed, game, round, players, rules, params)``:
the dealer of round r (1..10) of game g is ``(g + r - 1 + players - 1) % players``
(the deal passes left, and the first dealer rotates with the game), the deal
is keyed by (seed, g, r - 1), each bot's stream by (seed, g, r - 1, seat) and
each reshuffle by (seed, g, r - 1, k).

Deal (2.1): the shuffled deck is ``decks`` x 52 naturals then the jokers
(id 63); card i goes to seat ``(dealer + 1 + i) % players`` for the first
``11 * players`` cards, the next is the upcard, the rest the stock with the
following card on top.

A turn (2.4-2.6):
1. the player on turn takes the upcard, or leaves it; then the others, in
   turn order from their left and skipping the seat that discarded it, may
   buy it (upcard plus the top stock card as a penalty; at most ``max_buys``
   a round, only with 2+ stock cards, never triggering a reshuffle, ruling
   3.4; one buy per upcard); then the player on turn draws from the stock,
   which is refilled from the discard pile less its top card when empty. If
   that leaves no stock, the round ends with no winner;
2. a player not yet down may lay down the whole contract (validated here
   with ``shanghai_table.contract_ok``) and nothing else, unless
   ``layoff_on_contract_turn``; a player down on an earlier turn lays off
   and swaps jokers (the freed joker is laid off at once, in the same move);
3. discard, unless the hand is empty (not the upcard taken this turn nor a
   copy of it, ruling 3.1; with ``must_discard_to_go_out`` the last card must
   be discarded). An empty hand ends the round: the winner scores 0, or the
   one-turn bonus if they laid down and emptied the hand this turn (without a
   joker among the cards they put down: the second value); everyone else
   scores their hand (2.7).
"""

import numpy as np
from numba import njit, prange

from ...engine.codes import OUT_STALEMATE_STOCK, OUT_TURN_LIMIT, OUT_WIN
from ...engine.deck import dealer_of
from ...engine.rng import KIND_BOT, KIND_DEAL, KIND_RESHUFFLE, shuffle, stream_key
from . import bots as B
from .contracts import MAX_RUN_CANDIDATES, RUN_COLS
from .state import (
    CARDS_DEALT, JOKER, MAX_TABLE, ROUNDS, SI_BUYS, SI_BUYS_SEAT, SI_DISCARDER, SI_DISTANCE_SEAT, SI_DOWN_TURN_SEAT,
    SI_DRAWN, SI_LAID_OFF_SEAT, SI_N_TABLE, SI_OWN_TURNS_SEAT, SI_PILE_N, SI_RESHUFFLES, SI_ROUND,
    SI_SIZE, SI_STOCK_N, SI_SWAPS_SEAT, SI_TURN, SI_UPCARDS_SEAT, SR_ACE_HIGH, SR_BONUS,
    SR_BONUS_NO_JOKER, SR_CHECK, SR_DECKS, SR_JOKER_SWAP, SR_JOKERS, SR_LAYOFF_ON_CONTRACT_TURN,
    SR_MAX_BUYS,
    SR_MUST_DISCARD, SR_TURN_LIMIT, T_COLS, T_JOKERS, T_KIND, T_LO, T_RANK, MELD_RUN,
)
from .table import (
    FIT_NONE, contract_ok, fit, hand_points, hand_size, lay_off, meld_cards_into, meld_listing, place, swap_in,
    swap_position, table_counts,
)

# event log (replay): one row per event, int16[EV_WIDTH]: type, player, card, meld, n cards, cards...
EV_DRAW_STOCK = 1
EV_DRAW_DISCARD = 2
EV_LAYOFF = 4       # cards[0]: the position (run) or rank (set) the card took
EV_DISCARD = 5
EV_RESHUFFLE = 6    # cards: the new stock, top first
EV_BUY = 7          # card: the upcard; cards[0]: the penalty card
EV_CONTRACT = 8     # one row per meld laid; card: 16 * kind + (run start or set rank); cards in order
EV_SWAP = 9         # card: the natural put in; meld: where; cards[0]: the position (run) or rank (set)
EV_CARDS = 5
EV_WIDTH = EV_CARDS + 8 * 52 + 16

# per-round result row (int32[ROUND_COLS]) and per-seat row (int32[SEAT_COLS])
RW_GAME, RW_ROUND, RW_DEALER, RW_STARTER, RW_OUTCOME, RW_WINNER, RW_TURNS, RW_RESHUFFLES, RW_BONUS, RW_BUYS = range(10)
ROUND_COLS = 10
SS_SCORE, SS_DOWN_TURN, SS_BUYS, SS_CARDS_LEFT, SS_JOKERS_LEFT, SS_LAID_OFF, SS_SWAPS, SS_UPCARDS = range(8)
SEAT_COLS = 8
BONUS_NONE = 0
BONUS_ONE_TURN = 1
BONUS_NO_JOKER = 2


@njit(cache=True)
def total_cards(rules):
    return 52 * rules[SR_DECKS] + rules[SR_JOKERS]


@njit(cache=True)
def new_work(players, rules):
    """Scratch and state arrays for one round, reused round after round (see ``core.shanghai_state``):
    ``(hands, ints, stock, pile, table, melds, scratch, options, listing, rngs, rng1)``.
    ``scratch`` is the bots' ``(cand, chosen runs, set ranks, counts, row, table copy)``."""
    n = total_cards(rules)
    scratch = (np.zeros((MAX_RUN_CANDIDATES, RUN_COLS), dtype=np.int64), np.zeros(3, dtype=np.int64),
               np.zeros(3, dtype=np.int64), np.zeros(64, dtype=np.int64), np.zeros(T_COLS, dtype=np.int64),
               np.zeros((MAX_TABLE, T_COLS), dtype=np.int64))
    return (np.zeros((players, 64), dtype=np.int64), np.zeros(SI_SIZE, dtype=np.int64),
            np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64),
            np.zeros((MAX_TABLE, T_COLS), dtype=np.int64), np.zeros((6, T_COLS), dtype=np.int64),
            scratch, np.zeros((1024, 4), dtype=np.int64), np.zeros(max(n, 64), dtype=np.int64),
            np.zeros((players, 1), dtype=np.uint64), np.zeros(1, dtype=np.uint64))


@njit(cache=True)
def _log(ev, n_ev, kind, player, card, meld, cards, n):
    """Append one event (only when logging: ``ev`` has rows); ``cards[:n]`` int64."""
    i = n_ev[0]
    if i >= ev.shape[0]:
        return
    ev[i, 0] = kind
    ev[i, 1] = player
    ev[i, 2] = card
    ev[i, 3] = meld
    ev[i, 4] = n
    for k in range(n):
        ev[i, EV_CARDS + k] = cards[k]
    n_ev[0] = i + 1


@njit(cache=True)
def start_round(seed, game, round_no, players, rules, work):
    """Reset ``work`` and deal round ``round_no`` (1..10) of game ``game``; returns the starting seat."""
    hands, ints, stock, pile, table, melds, scratch, options, listing, rngs, rng1 = work
    hands[:] = 0
    ints[:] = 0
    table[:] = 0
    ints[SI_ROUND] = round_no
    ints[SI_DISCARDER] = -1
    for p in range(players):
        rngs[p, 0] = stream_key(seed, game, round_no - 1, KIND_BOT, p)
    n = total_cards(rules)
    deck = listing
    i = 0
    for _ in range(rules[SR_DECKS]):
        for s in range(4):
            for r in range(13):
                deck[i] = 16 * s + r
                i += 1
    for _ in range(rules[SR_JOKERS]):
        deck[i] = JOKER
        i += 1
    rng1[0] = stream_key(seed, game, round_no - 1, KIND_DEAL, 0)
    shuffle(rng1, deck, n)
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
    return (dealer + 1) % players


@njit(cache=True)
def check_cards(hands, ints, stock, pile, table, rules, players, counts):
    """Raise unless every card is in exactly one place: a hand, the table, the stock or the pile
    (``counts`` int64[64] scratch)."""
    table_counts(table, ints[SI_N_TABLE], counts)
    for p in range(players):
        for c in range(64):
            if hands[p, c] < 0:
                raise AssertionError("card conservation broken: a negative count in a hand")
            counts[c] += hands[p, c]
    for k in range(ints[SI_STOCK_N]):
        counts[stock[k]] += 1
    for k in range(ints[SI_PILE_N]):
        counts[pile[k]] += 1
    for c in range(64):
        expect = 0
        if c == JOKER:
            expect = rules[SR_JOKERS]
        elif (c & 15) < 13:
            expect = rules[SR_DECKS]
        if counts[c] != expect:
            raise AssertionError("card conservation broken: a card is missing or in two places")


@njit(cache=True)
def _refill(seed, game, round_no, ints, stock, pile, rng1):
    """Rules 2.6: the discard pile less its top card, shuffled, becomes the stock."""
    n = ints[SI_PILE_N]
    moved = n - 1 if n > 0 else 0
    for k in range(moved):
        stock[k] = pile[k]
    rng1[0] = stream_key(seed, game, round_no - 1, KIND_RESHUFFLE, ints[SI_RESHUFFLES])
    shuffle(rng1, stock, moved)
    if n > 0:
        pile[0] = pile[n - 1]
    ints[SI_PILE_N] = n - moved
    ints[SI_STOCK_N] = moved
    ints[SI_RESHUFFLES] += 1


@njit(cache=True)
def play_round(seed, game, round_no, players, rules, params, work, round_row, seat_rows, ev, n_ev):
    """Deal and play one round to its end; fill its result rows. See ``finish_round``."""
    first = start_round(seed, game, round_no, players, rules, work)
    return finish_round(seed, game, round_no, players, rules, params, work, first, round_row, seat_rows, ev, n_ev)


@njit(cache=True)
def finish_round(seed, game, round_no, players, rules, params, work, first, round_row, seat_rows, ev, n_ev):
    """Play the round held in ``work`` from seat ``first``'s turn to its end.

    ``rules`` int64[SR_SIZE]; ``params`` float64[players, N_SHANGHAI_PARAMS];
    ``work`` from ``new_work`` (dealt by ``start_round``, or a hand-built position);
    ``round_row`` int32[ROUND_COLS]; ``seat_rows`` int32[players, SEAT_COLS] (scores of this
    round in ``SS_SCORE``); ``ev`` int16[n, EV_WIDTH] event log (n = 0 when not replaying),
    ``n_ev`` int64[1]. Returns ``(outcome, winner)``.
    """
    hands, ints, stock, pile, table, melds, scratch, options, listing, rngs, rng1 = work
    ace_high = rules[SR_ACE_HIGH] != 0
    must = rules[SR_MUST_DISCARD] != 0
    check = rules[SR_CHECK] != 0
    logging = ev.shape[0] > 0
    counts_scratch = np.zeros(64, dtype=np.int64)
    dealer = (first + players - 1) % players
    p = first
    outcome = OUT_TURN_LIMIT
    winner = -1
    bonus = BONUS_NONE
    while True:
        counts = hands[p]
        ints[SI_DRAWN] = -1
        # 1. the upcard, buying, the stock (2.4, 2.6)
        took = False
        if ints[SI_PILE_N] > 0:
            up = pile[ints[SI_PILE_N] - 1]
            if B.take_upcard(p, params, hands, ints, table, rules, up, rngs):
                if not B.leftover_ok(counts, up, True):
                    raise ValueError("bot took an upcard that would leave it nothing to discard (ruling 3.1)")
                ints[SI_PILE_N] -= 1
                counts[up] += 1
                ints[SI_DISTANCE_SEAT + p] = 0  # the bots' cached distance: the hand changed
                ints[SI_DRAWN] = up
                ints[SI_UPCARDS_SEAT + p] += 1
                took = True
                if logging:
                    _log(ev, n_ev, EV_DRAW_DISCARD, p, up, -1, listing, 0)
            elif rules[SR_MAX_BUYS] > 0:
                q = p
                for _ in range(players - 1):
                    q += 1
                    if q == players:
                        q = 0
                    if ints[SI_STOCK_N] < 2:
                        break
                    if q == ints[SI_DISCARDER] or ints[SI_BUYS_SEAT + q] >= rules[SR_MAX_BUYS]:
                        continue
                    if B.wants_buy(q, params, hands, ints, rules, up, rngs):
                        ints[SI_PILE_N] -= 1
                        ints[SI_STOCK_N] -= 1
                        penalty = stock[ints[SI_STOCK_N]]
                        hands[q, up] += 1
                        hands[q, penalty] += 1
                        ints[SI_DISTANCE_SEAT + q] = 0
                        ints[SI_BUYS_SEAT + q] += 1
                        ints[SI_BUYS] += 1
                        if logging:
                            listing[0] = penalty
                            _log(ev, n_ev, EV_BUY, q, up, -1, listing, 1)
                        if check:
                            check_cards(hands, ints, stock, pile, table, rules, players, counts_scratch)
                        break
        if not took:
            if ints[SI_STOCK_N] == 0:
                _refill(seed, game, round_no, ints, stock, pile, rng1)
                if logging:
                    for k in range(ints[SI_STOCK_N]):
                        listing[k] = stock[ints[SI_STOCK_N] - 1 - k]
                    _log(ev, n_ev, EV_RESHUFFLE, -1, -1, -1, listing, ints[SI_STOCK_N])
                if ints[SI_STOCK_N] == 0:
                    outcome = OUT_STALEMATE_STOCK
                    break
            ints[SI_STOCK_N] -= 1
            card = stock[ints[SI_STOCK_N]]
            counts[card] += 1
            ints[SI_DISTANCE_SEAT + p] = 0
            if logging:
                _log(ev, n_ev, EV_DRAW_STOCK, p, card, -1, listing, 0)
        if check:
            check_cards(hands, ints, stock, pile, table, rules, players, counts_scratch)

        # 2. lay down the contract, or lay off (2.5)
        down_now = False
        jokers_down = 0
        was_down = ints[SI_DOWN_TURN_SEAT + p] > 0
        if not was_down:
            n = B.plan_down(p, params, hands, ints, rules, players, scratch, melds)
            if n > 0:
                if not contract_ok(melds, n, round_no, ace_high):
                    raise ValueError("bot proposed a laying that is not the contract (rules 2.2, 2.3)")
                ints[SI_DISTANCE_SEAT + p] = 0
                for i in range(n):
                    meld_cards_into(melds[i], counts, -1)
                    jokers_down += melds[i, T_JOKERS]
                for c in range(64):
                    if counts[c] < 0:
                        raise ValueError("bot proposed a contract with cards it does not hold")
                if not B.leftover_ok(counts, ints[SI_DRAWN], must):
                    raise ValueError("bot proposed a contract that leaves no legal discard (rules 2.6, 3.1)")
                for i in range(n):
                    k = ints[SI_N_TABLE]
                    place(table, k, melds[i], p)
                    ints[SI_N_TABLE] = k + 1
                    if logging:
                        m = meld_listing(melds[i], listing)
                        start = melds[i, T_LO] if melds[i, T_KIND] == MELD_RUN else melds[i, T_RANK]
                        _log(ev, n_ev, EV_CONTRACT, p, 16 * melds[i, T_KIND] + start, k, listing, m)
                ints[SI_DOWN_TURN_SEAT + p] = ints[SI_OWN_TURNS_SEAT + p] + 1
                down_now = True
                if check:
                    check_cards(hands, ints, stock, pile, table, rules, players, counts_scratch)
        if was_down or (down_now and rules[SR_LAYOFF_ON_CONTRACT_TURN] != 0):
            while True:
                act, c, k, k2 = B.next_layoff(p, params, hands, ints, table, rules, rngs, scratch, options)
                if act == B.ACT_STOP:
                    break
                if c < 0 or c > JOKER or counts[c] == 0 or k < 0 or k >= ints[SI_N_TABLE]:
                    raise ValueError("bot proposed a lay-off of a card it does not hold or on no meld")
                if not B._may_play(counts, c, ints[SI_DRAWN], must):
                    raise ValueError("bot proposed a lay-off that leaves no legal discard (rules 2.6, 3.1)")
                ints[SI_DISTANCE_SEAT + p] = 0
                if act == B.ACT_LAYOFF:
                    where = fit(table[k], c, ace_high)
                    if where == FIT_NONE:
                        raise ValueError("bot proposed a lay-off that does not fit (rules 2.3, 2.5)")
                    pos = lay_off(table[k], c, where)
                    counts[c] -= 1
                    ints[SI_LAID_OFF_SEAT + p] += 1
                    if c == JOKER:
                        jokers_down += 1
                    if logging:
                        listing[0] = pos
                        _log(ev, n_ev, EV_LAYOFF, p, c, k, listing, 1)
                else:
                    pos = swap_position(table[k], c)
                    if rules[SR_JOKER_SWAP] == 0 or c == JOKER or pos < 0 or k2 < 0 or k2 >= ints[SI_N_TABLE]:
                        raise ValueError("bot proposed a joker swap that is not allowed (rules 2.5)")
                    swap_in(table[k], c, pos)
                    where = fit(table[k2], JOKER, ace_high)
                    if where == FIT_NONE:
                        raise ValueError("bot proposed a joker swap whose joker cannot be laid off (rules 2.5)")
                    counts[c] -= 1
                    ints[SI_SWAPS_SEAT + p] += 1
                    if logging:
                        listing[0] = pos
                        _log(ev, n_ev, EV_SWAP, p, c, k, listing, 1)
                    pos = lay_off(table[k2], JOKER, where)
                    ints[SI_LAID_OFF_SEAT + p] += 1
                    jokers_down += 1
                    if logging:
                        listing[0] = pos
                        _log(ev, n_ev, EV_LAYOFF, p, JOKER, k2, listing, 1)
                if check:
                    check_cards(hands, ints, stock, pile, table, rules, players, counts_scratch)

        # 3. discard (2.6)
        if hand_size(counts) > 0:
            c = B.choose_discard(p, params, hands, ints, table, rules, rngs)
            if c < 0 or c > JOKER or counts[c] == 0 or c == ints[SI_DRAWN]:
                raise ValueError("bot proposed a discard it may not make (rules 2.6, ruling 3.1)")
            counts[c] -= 1
            ints[SI_DISTANCE_SEAT + p] = 0
            pile[ints[SI_PILE_N]] = c
            ints[SI_PILE_N] += 1
            ints[SI_DISCARDER] = p
            if logging:
                _log(ev, n_ev, EV_DISCARD, p, c, -1, listing, 0)
            if check:
                check_cards(hands, ints, stock, pile, table, rules, players, counts_scratch)
        ints[SI_TURN] += 1
        ints[SI_OWN_TURNS_SEAT + p] += 1
        if hand_size(counts) == 0:
            outcome = OUT_WIN
            winner = p
            if down_now:
                bonus = BONUS_NO_JOKER if jokers_down == 0 else BONUS_ONE_TURN
            break
        if ints[SI_TURN] >= rules[SR_TURN_LIMIT]:
            outcome = OUT_TURN_LIMIT
            break
        p += 1
        if p == players:
            p = 0

    round_row[RW_GAME] = game
    round_row[RW_ROUND] = round_no
    round_row[RW_DEALER] = dealer
    round_row[RW_STARTER] = first
    round_row[RW_OUTCOME] = outcome
    round_row[RW_WINNER] = winner
    round_row[RW_TURNS] = ints[SI_TURN]
    round_row[RW_RESHUFFLES] = ints[SI_RESHUFFLES]
    round_row[RW_BONUS] = bonus
    round_row[RW_BUYS] = ints[SI_BUYS]
    for q in range(players):
        row = seat_rows[q]
        if q == winner:
            row[SS_SCORE] = 0
            if bonus == BONUS_ONE_TURN:
                row[SS_SCORE] = rules[SR_BONUS]
            elif bonus == BONUS_NO_JOKER:
                row[SS_SCORE] = rules[SR_BONUS_NO_JOKER]
        else:
            row[SS_SCORE] = hand_points(hands[q])
        row[SS_DOWN_TURN] = ints[SI_DOWN_TURN_SEAT + q]
        row[SS_BUYS] = ints[SI_BUYS_SEAT + q]
        row[SS_CARDS_LEFT] = hand_size(hands[q])
        row[SS_JOKERS_LEFT] = hands[q, JOKER]
        row[SS_LAID_OFF] = ints[SI_LAID_OFF_SEAT + q]
        row[SS_SWAPS] = ints[SI_SWAPS_SEAT + q]
        row[SS_UPCARDS] = ints[SI_UPCARDS_SEAT + q]
    return outcome, winner


@njit(cache=True, parallel=True, nogil=True)
def play_games(seed, games, players, rules, params, round_rows, seat_rows, totals):
    """Play whole games of ten rounds, in parallel.

    ``games`` int64[G] game indices. Outputs, filled in place:
    ``round_rows`` int32[G * ROUNDS, ROUND_COLS], ``seat_rows`` int32[G * ROUNDS, players, SEAT_COLS]
    (game i's rounds at rows ``i*ROUNDS ...``), ``totals`` int32[G, players] (final totals;
    the lowest wins, ties share). Releases the GIL.
    """
    n_games = games.shape[0]
    n_blocks = min(n_games, 64)  # contiguous blocks: scratch allocated once per block, not per game
    for b in prange(n_blocks):
        work = new_work(players, rules)
        ev = np.empty((0, EV_WIDTH), dtype=np.int16)
        n_ev = np.zeros(1, dtype=np.int64)
        for i in range(b * n_games // n_blocks, (b + 1) * n_games // n_blocks):
            g = games[i]
            for q in range(players):
                totals[i, q] = 0
            for r in range(ROUNDS):
                row = i * ROUNDS + r
                play_round(seed, g, r + 1, players, rules, params, work, round_rows[row], seat_rows[row], ev, n_ev)
                for q in range(players):
                    totals[i, q] += seat_rows[row, q, SS_SCORE]
