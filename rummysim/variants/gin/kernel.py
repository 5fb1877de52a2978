"""Gin Rummy hand and game kernels (docs/rules.md section 4, rulings 3.14-3.18).

A hand is a pure function of ``(seed, game, hand, rules, params)``: the dealer of hand h of game g is
``(g + h + 1) % 2`` (the seats alternate, ruling 3.18), the deal is keyed by (seed, g, h) and each
bot's stream by (seed, g, h, seat).

Deal (4.1): after the shuffle, the first ``hand_size`` cards of the deck go to the starter (the
seat that is not the dealer), the next ``hand_size`` to the dealer, the next is the upcard and the
rest is the stock with the following card on top: OpenSpiel's order of chance outcomes (its player
0 is the starter).

The driver (``finish_hand``) knows no rule: while the hand is not over it asks the seat to act for a
move (``moves.forced_move``, else its policy), refuses it unless ``moves.is_legal`` and
``moves.apply``-s it; the result rows are then read off the ``state.State``.
"""

import numpy as np
from numba import njit, prange

from ...engine import melds as M
from ...engine.bits import U64
from ...engine.codes import OUT_WIN
from ...engine.deck import dealer_of
from ...engine.rng import KIND_BOT, KIND_DEAL, shuffle, stream_key
from ...engine.search import any_search
from . import bots as B
from . import moves as MV
from . import policy as P
from .schema import (
    H_BIG_GIN, H_DEALER, H_DEFENDER_DEADWOOD, H_GAME, H_GIN, H_HAND, H_KNOCK_CARD, H_KNOCKER, H_KNOCKER_DEADWOOD,
    H_OUTCOME, H_POINTS, H_STARTER, H_TURNS, H_UNDERCUT, H_WINNER, HAND_COLS, S_CARDS_LAID_OFF, S_CARDS_LEFT,
    S_DISCARD_DRAWS, S_MELDS_LAID, S_VALUE_LEFT, SEAT_COLS,
)
from .state import (
    CARD_SLOTS, I_BIG_GIN, I_DEALER, I_DEFENDER_DEADWOOD, I_DISCARD_DRAWS_SEAT, I_GAME, I_GIN, I_HAND, I_KNOCK_CARD,
    I_KNOCKER, I_KNOCKER_DEADWOOD, I_LAID_OFF_SEAT, I_MELDS_LAID_SEAT, I_N_EV, I_OUTCOME, I_PHASE, I_PILE, I_PILE_N,
    I_PLAYERS, I_POINTS, I_SEAT, I_SEED, I_STOCK, I_STOCK_N, I_TURN, I_UNDERCUT, I_WINNER, M_HAND, M_PILE, PH_OVER,
    R_GAME_BONUS, R_GAME_TO, R_HAND_SIZE, R_KNOCK_CARD, R_LINE_BONUS, R_OKLAHOMA, R_SHUTOUT, new_state,
)
from .moves import EV_WIDTH

MAX_HANDS_PER_GAME = 10_000  # safety cap: a game stopped there has winner -1


@njit(cache=True)
def deal(seed, game, hand, hand_size, hands, stock, deck, rng):
    """Shuffle and deal (rules 4.1). Fills ``hands`` uint64[2] (the starter's, the dealer's: seats
    ``starter``, ``1 - starter``) and ``stock`` int64[>=52] (top last), with ``deck`` int64[>=52] and
    ``rng`` uint64[1] as scratch; returns ``(upcard, stock size)``."""
    i = 0
    for s in range(4):
        for r in range(13):
            deck[i] = 16 * s + r
            i += 1
    rng[0] = stream_key(seed, game, hand, KIND_DEAL, 0)
    shuffle(rng, deck, 52)
    starter = (dealer_of(game, hand, 2) + 1) % 2
    hands[0] = U64(0)
    hands[1] = U64(0)
    for i in range(hand_size):
        hands[starter] |= M.bit(deck[i])
        hands[1 - starter] |= M.bit(deck[hand_size + i])
    n = 2 * hand_size
    n_stock = 52 - n - 1
    for k in range(n_stock):
        stock[k] = deck[51 - k]
    return deck[n], n_stock


@njit(cache=True)
def knock_card_of(rules, upcard):
    """The hand's knock card: the option's, or with ``oklahoma`` the upcard's value, an ace 0 (rules 4.5)."""
    if rules[R_OKLAHOMA] == 0:
        return rules[R_KNOCK_CARD]
    rank = upcard & 15
    return 0 if rank == 0 else min(rank + 1, 10)


@njit(cache=True)
def start_hand(state, seed, game, hand, rngs):
    """Clear ``state``, deal hand ``hand`` of game ``game`` and seed the bots' streams ``rngs``
    uint64[2, 1]; returns the starting seat (offered the first upcard)."""
    masks = state.masks
    ints = state.ints
    n_ev = ints[I_N_EV]   # the event log runs on over the hands of a game
    masks[:] = 0
    ints[:] = 0
    ints[I_N_EV] = n_ev
    ints[I_PLAYERS] = 2
    ints[I_SEED] = seed
    ints[I_GAME] = game
    ints[I_HAND] = hand
    for p in range(2):
        rngs[p, 0] = stream_key(seed, game, hand, KIND_BOT, p)
    rng = np.empty(1, dtype=np.uint64)
    upcard, n_stock = deal(seed, game, hand, state.rules[R_HAND_SIZE], masks[M_HAND:M_HAND + 2],
                           ints[I_STOCK:I_STOCK + CARD_SLOTS], ints[I_PILE:I_PILE + CARD_SLOTS], rng)
    ints[I_PILE] = upcard
    ints[I_PILE_N] = 1
    masks[M_PILE] = M.bit(upcard)
    ints[I_STOCK_N] = n_stock
    ints[I_KNOCK_CARD] = knock_card_of(state.rules, upcard)
    first = (dealer_of(game, hand, 2) + 1) % 2
    MV.begin(state, first)
    return first


@njit(cache=True)
def finish_hand(state, params, scratch, hand_row, seat_rows):
    """Play the hand held in ``state`` (dealt by ``start_hand``, or a hand-built position after
    ``moves.begin``) to its end, then fill the result rows. ``params`` float64[2, N_PARAMS];
    ``scratch`` from ``policy.new_scratch`` (its streams seeded); ``hand_row`` int32[HAND_COLS];
    ``seat_rows`` int32[2, SEAT_COLS]. Returns ``(outcome, winner, points)``. Raises ValueError on a
    move ``moves.is_legal`` refuses."""
    if not any_search(params, B.P_BOT):
        ok = _play_rule_based(state, params, scratch[0], scratch[1])
    else:
        ok = True
        while ok and state.ints[I_PHASE] != PH_OVER:
            move = MV.forced_move(state)
            if move < 0:
                move = P.choose(state, params, state.ints[I_SEAT], scratch)
            ok = MV.is_legal(state, move)
            if ok:
                MV.apply(state, move)
    if not ok:
        raise ValueError("a policy chose an illegal move (see rummysim.variants.gin.moves)")
    return result_rows(state, hand_row, seat_rows)


@njit(cache=True, _nrt=False)
def _play_rule_based(state, params, legal, rngs):
    """``finish_hand``'s loop when no seat searches: the rule-based bots called straight, compiled
    without reference counting (through the policy, or with a reference count per call, greedy lost
    a fifth). Returns False, the hand unfinished, at a move ``moves.is_legal`` refuses."""
    while state.ints[I_PHASE] != PH_OVER:
        move = MV.forced_move(state)
        if move < 0:
            move = B.choose(state, params, state.ints[I_SEAT], legal, rngs)
        if not MV.is_legal(state, move):
            return False
        MV.apply(state, move)
    return True


@njit(cache=True)
def play_hand(state, seed, game, hand, params, scratch, hand_row, seat_rows):
    """Deal and play one hand to its end; fill its result rows. See ``finish_hand``."""
    start_hand(state, seed, game, hand, scratch[1])
    return finish_hand(state, params, scratch, hand_row, seat_rows)


@njit(cache=True)
def result_rows(state, hand_row, seat_rows):
    """Fill ``hand_row`` int32[HAND_COLS] and ``seat_rows`` int32[2, SEAT_COLS] from a finished hand;
    returns ``(outcome, winner, points)``."""
    masks = state.masks
    ints = state.ints
    knocked = ints[I_KNOCKER] >= 0 and ints[I_OUTCOME] == OUT_WIN
    hand_row[H_GAME] = ints[I_GAME]
    hand_row[H_HAND] = ints[I_HAND]
    hand_row[H_DEALER] = ints[I_DEALER]
    hand_row[H_STARTER] = 1 - ints[I_DEALER]
    hand_row[H_OUTCOME] = ints[I_OUTCOME]
    hand_row[H_WINNER] = ints[I_WINNER]
    hand_row[H_KNOCKER] = ints[I_KNOCKER]
    hand_row[H_TURNS] = ints[I_TURN]
    hand_row[H_POINTS] = ints[I_POINTS]
    hand_row[H_GIN] = ints[I_GIN]
    hand_row[H_BIG_GIN] = ints[I_BIG_GIN]
    hand_row[H_UNDERCUT] = ints[I_UNDERCUT]
    hand_row[H_KNOCK_CARD] = ints[I_KNOCK_CARD]
    hand_row[H_KNOCKER_DEADWOOD] = ints[I_KNOCKER_DEADWOOD] if knocked else -1
    hand_row[H_DEFENDER_DEADWOOD] = ints[I_DEFENDER_DEADWOOD] if knocked else -1
    for q in range(2):
        seat_rows[q, S_CARDS_LEFT] = M.popcount(masks[M_HAND + q])
        seat_rows[q, S_VALUE_LEFT] = M.mask_value(masks[M_HAND + q], state.card_value)
        seat_rows[q, S_MELDS_LAID] = ints[I_MELDS_LAID_SEAT + q]
        seat_rows[q, S_CARDS_LAID_OFF] = ints[I_LAID_OFF_SEAT + q]
        seat_rows[q, S_DISCARD_DRAWS] = ints[I_DISCARD_DRAWS_SEAT + q]
    return ints[I_OUTCOME], ints[I_WINNER], ints[I_POINTS]


@njit(cache=True)
def game_totals(rules, points, wins, winner, out):
    """The final scores of a game into ``out`` int64[2] (rules 4.8): the points of the hands won
    (``points`` int64[2]), plus ``line_bonus`` per hand won (``wins`` int64[2]), ``game_bonus`` to
    the ``winner``, all of the winner's doubled by ``shutout`` when the loser won no hand."""
    for q in range(2):
        out[q] = points[q] + rules[R_LINE_BONUS] * wins[q]
    if winner >= 0:
        out[winner] += rules[R_GAME_BONUS]
        if rules[R_SHUTOUT] != 0 and wins[1 - winner] == 0:
            out[winner] *= 2


@njit(cache=True, parallel=True, nogil=True)
def play_games(seed, games, rules, params, card_value, single_hand, capacity, hand_rows, seat_rows, game_rows,
               n_hands):
    """Play whole games (or one hand per game index when ``single_hand``), in parallel.

    ``games`` int64[G] game indices. Outputs, filled in place: ``hand_rows`` int32[G * capacity,
    HAND_COLS], ``seat_rows`` int32[G * capacity, 2, SEAT_COLS] (game i's hands at rows ``i*capacity
    ...``), ``game_rows`` int32[G, 4] (winner, hands, final score per seat), ``n_hands`` int64[G]
    hands played per game. A game with more hands than ``capacity`` records only the first
    ``capacity``; the caller sees ``n_hands > capacity`` and replays it with more room. Releases the
    GIL, so the caller can write the previous chunk meanwhile.
    """
    target = rules[R_GAME_TO]
    n_games = games.shape[0]
    n_blocks = min(n_games, 64)  # contiguous blocks: scratch allocated once per block, not per game
    for b in prange(n_blocks):
        state = new_state(rules, card_value, np.empty((0, EV_WIDTH), dtype=np.int16))
        scratch = P.new_scratch(rules, card_value)
        points = np.zeros(2, dtype=np.int64)
        wins = np.zeros(2, dtype=np.int64)
        totals = np.zeros(2, dtype=np.int64)
        spare_hand = np.empty(HAND_COLS, dtype=np.int32)
        spare_seats = np.empty((2, SEAT_COLS), dtype=np.int32)
        for i in range(b * n_games // n_blocks, (b + 1) * n_games // n_blocks):
            g = games[i]
            points[:] = 0
            wins[:] = 0
            h = 0
            winner = -1
            while True:
                row = i * capacity + h
                if h < capacity:
                    outcome, w, pts = play_hand(state, seed, g, h, params, scratch, hand_rows[row], seat_rows[row])
                else:
                    outcome, w, pts = play_hand(state, seed, g, h, params, scratch, spare_hand, spare_seats)
                if outcome == OUT_WIN:
                    points[w] += pts
                    wins[w] += 1
                h += 1
                if single_hand:
                    winner = w
                    break
                top = 0 if points[0] >= points[1] else 1
                if points[top] >= target:
                    winner = top
                    break
                if h >= MAX_HANDS_PER_GAME:
                    break
            n_hands[i] = h
            if single_hand:
                totals[:] = points
            else:
                game_totals(rules, points, wins, winner, totals)
            game_rows[i, 0] = winner
            game_rows[i, 1] = h
            game_rows[i, 2] = totals[0]
            game_rows[i, 3] = totals[1]
