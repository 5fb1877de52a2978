"""Shanghai Rummy round and game kernels (docs/rules.md section 2, rulings 3.1, 3.2, 3.4-3.7).

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

The round is played through the legal-move layer ``moves``: the driver
(``finish_round``) asks the policy of the seat to act (``policy.choose``) for a
move, refuses it unless ``moves.is_legal``, and ``moves.apply``-es it, until
``moves.is_over``; then it fills the result rows from the state.

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
   scores their hand (2.7). Otherwise, if the turn changed the table and
   everyone is down, a blocked table (ruling 3.7) ends the round with no
   winner, everyone scoring their hand.
"""

import numpy as np
from numba import njit, prange

from ...engine.deck import dealer_of  # noqa: F401  (re-exported: tests and replay use K.dealer_of)
from . import bots as B
from . import policy as P
from .moves import (  # noqa: F401  (EV_* and total_cards re-exported for replay and the results code)
    EV_BUY, EV_CARDS, EV_CONTRACT, EV_DISCARD, EV_DRAW_DISCARD, EV_DRAW_STOCK, EV_LAYOFF, EV_RESHUFFLE, EV_SWAP,
    EV_WIDTH, apply, check_cards, deal, is_legal, is_over, new_state, scores, total_cards,
)
from .state import (  # noqa: F401  (BONUS_* re-exported)
    BONUS_NO_JOKER, BONUS_NONE, BONUS_ONE_TURN, I_BONUS, I_FIRST, I_GAME, I_OUTCOME, I_SEAT, I_WINNER, JOKER, ROUNDS,
    SI_BUYS, SI_BUYS_SEAT, SI_DOWN_TURN_SEAT, SI_LAID_OFF_SEAT, SI_RESHUFFLES, SI_ROUND, SI_SWAPS_SEAT, SI_TURN,
    SI_UPCARDS_SEAT,
)
from .table import hand_size

# per-round result row (int32[ROUND_COLS]) and per-seat row (int32[SEAT_COLS]): their columns are
# declared once, in the results schema
from .schema import (  # noqa: E402, F401  (ROUND_COLS, SEAT_COLS re-exported for replay)
    ROUND_COLS, RW_BONUS, RW_BUYS, RW_DEALER, RW_GAME, RW_OUTCOME, RW_RESHUFFLES, RW_ROUND, RW_STARTER, RW_TURNS,
    RW_WINNER, SEAT_COLS, SS_BUYS, SS_CARDS_LEFT, SS_DOWN_TURN, SS_JOKERS_LEFT, SS_LAID_OFF, SS_SCORE, SS_SWAPS,
    SS_UPCARDS,
)


@njit(cache=True)
def start_round(seed, game, round_no, state, scratch):
    """Deal round ``round_no`` (1..10) of game ``game`` into ``state`` (``moves.new_state``) and key
    the policies' streams in ``scratch`` (``policy.new_scratch``); returns the first seat."""
    B.seed_streams(scratch, seed, game, round_no)
    return deal(state, seed, game, round_no)


@njit(cache=True)
def play_round(seed, game, round_no, params, state, scratch, round_row, seat_rows):
    """Deal and play one round to its end; fill its result rows. See ``finish_round``."""
    start_round(seed, game, round_no, state, scratch)
    return finish_round(state, params, scratch, round_row, seat_rows)


@njit(cache=True)
def finish_round(state, params, scratch, round_row, seat_rows):
    """Play the round held in ``state`` (dealt by ``start_round``, or a hand-built position started
    with ``moves.begin``) to its end, the bots choosing every move; fill the result rows.

    ``params`` float64[players, N_SHANGHAI_PARAMS]; ``scratch`` from ``policy.new_scratch``;
    ``round_row`` int32[ROUND_COLS]; ``seat_rows`` int32[players, SEAT_COLS] (scores of this
    round in ``SS_SCORE``). Returns ``(outcome, winner)``.
    """
    if not _play(state, params, scratch):
        raise ValueError("a bot chose an illegal move (docs/rules.md 2.4-2.6)")
    fill_rows(state, round_row, seat_rows)
    return state.ints[I_OUTCOME], state.ints[I_WINNER]


@njit(cache=True, _nrt=False)
def _play(state, params, scratch):
    """``finish_round``'s loop, compiled without reference counting (with it, greedy spent a seventh
    of its time counting: ``perf``); a search bot's move is chosen with them
    (``policy._search_seat``). Returns False, the round unfinished, at a move ``moves.is_legal``
    refuses."""
    while not is_over(state):
        move = P.choose(state, params, state.ints[I_SEAT], scratch)
        if not is_legal(state, move):
            return False
        apply(state, move)
    return True


@njit(cache=True)
def fill_rows(state, round_row, seat_rows):
    """The result rows of the finished round in ``state``: ``round_row`` int32[ROUND_COLS],
    ``seat_rows`` int32[players, SEAT_COLS]."""
    ints = state.ints
    hands = state.hands
    players = hands.shape[0]
    first = ints[I_FIRST]
    round_row[RW_GAME] = ints[I_GAME]
    round_row[RW_ROUND] = ints[SI_ROUND]
    round_row[RW_DEALER] = (first + players - 1) % players
    round_row[RW_STARTER] = first
    round_row[RW_OUTCOME] = ints[I_OUTCOME]
    round_row[RW_WINNER] = ints[I_WINNER]
    round_row[RW_TURNS] = ints[SI_TURN]
    round_row[RW_RESHUFFLES] = ints[SI_RESHUFFLES]
    round_row[RW_BONUS] = ints[I_BONUS]
    round_row[RW_BUYS] = ints[SI_BUYS]
    points = state.counts
    scores(state, points)
    for q in range(players):
        row = seat_rows[q]
        row[SS_SCORE] = points[q]
        row[SS_DOWN_TURN] = ints[SI_DOWN_TURN_SEAT + q]
        row[SS_BUYS] = ints[SI_BUYS_SEAT + q]
        row[SS_CARDS_LEFT] = hand_size(hands[q])
        row[SS_JOKERS_LEFT] = hands[q, JOKER]
        row[SS_LAID_OFF] = ints[SI_LAID_OFF_SEAT + q]
        row[SS_SWAPS] = ints[SI_SWAPS_SEAT + q]
        row[SS_UPCARDS] = ints[SI_UPCARDS_SEAT + q]


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
        state = new_state(players, rules, np.empty((0, EV_WIDTH), dtype=np.int16))
        scratch = P.new_scratch(players)
        for i in range(b * n_games // n_blocks, (b + 1) * n_games // n_blocks):
            g = games[i]
            for q in range(players):
                totals[i, q] = 0
            for r in range(ROUNDS):
                row = i * ROUNDS + r
                play_round(seed, g, r + 1, params, state, scratch, round_rows[row], seat_rows[row])
                for q in range(players):
                    totals[i, q] += seat_rows[row, q, SS_SCORE]
