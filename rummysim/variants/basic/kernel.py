"""Basic Rummy hand and game kernels (docs/rules.md section 1, rulings 3.1-3.3, 3.5-3.6).

Scope: 2-4 players, one 52-card deck, no jokers; every option of rules 1.7
through the rule vector (``state.R_*``):

* ``max_melds_per_turn`` (0 = unlimited), ``ace`` low or high_or_low,
* ``reshuffles`` (-1 = unlimited) and ``reshuffle_mode`` shuffle_all /
  keep_top / turn_over (1.4, ruling 3.3),
* ``must_discard_to_go_out``, ``rummy_multiplier``, ``target``, ``turn_limit``.

A hand is a pure function of ``(seed, game, hand, players, rules, params)``:
the dealer of hand h of game g is ``(g + h + players - 1) % players`` (so the
starting seat rotates with both), the deal is keyed by (seed, g, h), each
bot's stream by (seed, g, h, seat) and each reshuffle by (seed, g, h, k).

Deal (1.1): after the shuffle, card i of the deck goes to seat
``(dealer + 1 + i) % players`` for the first ``n * players`` cards, the next is
the upcard, and the rest is the stock with the following card on top.

The driver (``finish_hand``) knows no rule: while the hand is not over it
asks the seat to act for a move (``moves.forced_move``, else the seat's policy
``policy.choose``), refuses it unless ``moves.is_legal``, and ``moves.apply``-s
it; the result rows are then read off the ``state.State``.
"""

import numpy as np
from numba import njit, prange

from ...engine.bits import U64
from ...engine.codes import OUT_WIN
from ...engine.deck import dealer_of
from ...engine.rng import KIND_BOT, KIND_DEAL, shuffle, stream_key
from . import policy as P
from ...engine import melds as M
from . import moves as MV
from .moves import (  # noqa: F401  (the event log's layout, read by replay and results)
    EV_CARDS, EV_DISCARD, EV_DRAW_DISCARD, EV_DRAW_STOCK, EV_LAYOFF, EV_MELD, EV_RESHUFFLE, EV_WIDTH,
)
from .state import (
    I_DEALER, I_DISCARD_DRAWS_SEAT, I_GAME, I_HAND, I_LAID_OFF_SEAT, I_MELDS_LAID_SEAT, I_OUTCOME,
    I_PHASE, I_PILE_N, I_PLAYERS, I_POINTS, I_RESHUFFLES, I_RUMMY, I_SEAT, I_SEED, I_STOCK_N, I_TURN, I_WINNER,
    INTS_SIZE, M_HAND, M_PILE, MASKS_SIZE, PH_OVER, R_TARGET, State,
)


# per-hand result row (int32[HAND_COLS]) and per-seat row (int32[SEAT_COLS]): their columns are
# declared once, in the results schema
from .schema import (  # noqa: E402
    H_DEALER, H_GAME, H_HAND, H_OUTCOME, H_POINTS, H_RESHUFFLES, H_RUMMY, H_STARTER, H_TURNS, H_WINNER, HAND_COLS,
    S_CARDS_LAID_OFF, S_CARDS_LEFT, S_DISCARD_DRAWS, S_MELDS_LAID, S_VALUE_LEFT, SEAT_COLS,
)
CARDS_DEALT = (0, 0, 10, 7, 7)  # by number of players (rules 1.1)
MAX_HANDS_PER_GAME = 100_000  # safety cap: a game stopped there has winner -1


@njit(cache=True, _nrt=False)
def deal(seed, game, hand, players, hands, stock, deck, rng):
    """Shuffle and deal (rules 1.1). Fills ``hands`` uint64[players] and ``stock`` int64[>=52]
    (top last), using ``deck`` int64[>=52] and ``rng`` uint64[1] as scratch;
    returns ``(upcard, stock size)``."""
    i = 0
    for s in range(4):
        for r in range(13):
            deck[i] = 16 * s + r
            i += 1
    rng[0] = stream_key(seed, game, hand, KIND_DEAL, 0)
    shuffle(rng, deck, 52)
    dealer = dealer_of(game, hand, players)
    n = CARDS_DEALT[players] * players
    for p in range(players):
        hands[p] = U64(0)
    seat = dealer
    for i in range(n):
        seat += 1
        if seat == players:
            seat = 0
        hands[seat] |= M.bit(deck[i])
    n_stock = 52 - n - 1
    for k in range(n_stock):
        stock[k] = deck[51 - k]
    return deck[n], n_stock


@njit(cache=True)
def new_state(players, rules, card_value, ev, n_ev):
    """An empty ``State`` for ``players`` seats, reused hand after hand (``start_hand`` deals it).
    ``rules`` int64[RULES_SIZE], ``card_value`` int64[64], ``ev`` int16[n, EV_WIDTH] (n = 0: no log),
    ``n_ev`` int64[1]."""
    ints = np.zeros(INTS_SIZE, dtype=np.int64)
    ints[I_PLAYERS] = players
    return State(np.zeros(MASKS_SIZE, dtype=np.uint64), ints,
                 np.empty(64, dtype=np.int64), np.empty(64, dtype=np.int64),
                 np.zeros(32, dtype=np.uint64), np.zeros(32, dtype=np.int64), np.zeros(32, dtype=np.uint64),
                 rules, card_value, ev, n_ev, np.empty(1, dtype=np.uint64), np.empty(64, dtype=np.uint64))


@njit(cache=True, _nrt=False)
def start_hand(state, seed, game, hand, rngs):
    """Clear ``state``, deal hand ``hand`` of game ``game`` and seed the bots' streams ``rngs``
    uint64[players, 1]; returns the starting seat (left of the dealer, to draw)."""
    masks = state.masks
    ints = state.ints
    players = ints[I_PLAYERS]
    masks[:] = 0
    ints[:] = 0
    ints[I_PLAYERS] = players
    ints[I_SEED] = seed
    ints[I_GAME] = game
    ints[I_HAND] = hand
    for p in range(players):
        rngs[p, 0] = stream_key(seed, game, hand, KIND_BOT, p)
    upcard, n_stock = deal(seed, game, hand, players, masks[M_HAND:M_HAND + players], state.stock,
                           state.pile, state.rng)
    state.pile[0] = upcard
    ints[I_PILE_N] = 1
    masks[M_PILE] = M.bit(upcard)
    ints[I_STOCK_N] = n_stock
    first = (dealer_of(game, hand, players) + 1) % players
    MV.begin(state, first)
    return first


@njit(cache=True, _nrt=False)
def play_hand(state, seed, game, hand, params, scratch, hand_row, seat_rows):
    """Deal and play one hand to its end; fill its result rows. See ``finish_hand``."""
    start_hand(state, seed, game, hand, scratch[5])
    return finish_hand(state, params, scratch, hand_row, seat_rows)


@njit(cache=True, inline="always")
def finish_hand(state, params, scratch, hand_row, seat_rows):
    """Play the hand held in ``state`` (dealt by ``start_hand``, or a hand-built position after
    ``moves.begin``) to its end: the seat to act gives a move (the forced draw,
    ``moves.forced_move``, else its policy's ``policy.choose``), which must pass ``moves.is_legal``
    and is ``moves.apply``-ed; then fill the result rows.

    ``params`` float64[players, N_PARAMS]; ``scratch`` from ``policy.new_scratch`` (its streams seeded);
    ``hand_row`` int32[HAND_COLS]; ``seat_rows`` int32[players, SEAT_COLS].
    Returns ``(outcome, winner, points)``. Raises ValueError on a move ``moves.is_legal`` refuses.
    """
    if not _play(state, params, scratch):
        raise ValueError("a policy chose an illegal move (see rummysim.variants.basic.moves)")
    return result_rows(state, hand_row, seat_rows)


@njit(cache=True, _nrt=False)
def _play(state, params, scratch):
    """``finish_hand``'s loop, on the state's and the scratch's arrays unpacked once (the ``*_in``
    twins of the moves and the policy, compiled inline), without reference counting (the counts
    were a fifth of greedy's ``perf`` samples); a search bot's move is chosen with them
    (``policy._search_seat``). Returns False, the hand unfinished, at a move ``moves.is_legal``
    refuses."""
    masks, ints, stock, pile, t_mask, t_kind, t_lay, rules, card_value, ev, n_ev, rng, buf = state
    melds, sr, sd, sm, legal, rngs, search = scratch
    while ints[I_PHASE] != PH_OVER:
        move = MV.forced_move_in(ints)
        if move < 0:
            move = P.choose_in(masks, ints, stock, pile, t_mask, t_kind, t_lay, rules, card_value, buf, params,
                               ints[I_SEAT], melds, sr, sd, sm, legal, rngs, search)
        if not MV.is_legal_in(masks, ints, t_lay, rules, move):
            return False
        MV.apply_in(masks, ints, stock, pile, t_mask, t_kind, t_lay, rules, card_value, ev, n_ev, rng, move)
    return True


@njit(cache=True, _nrt=False)
def result_rows(state, hand_row, seat_rows):
    """Fill ``hand_row`` int32[HAND_COLS] and ``seat_rows`` int32[players, SEAT_COLS] from a finished
    hand; returns ``(outcome, winner, points)``."""
    masks = state.masks
    ints = state.ints
    players = ints[I_PLAYERS]
    dealer = ints[I_DEALER]
    hand_row[H_GAME] = ints[I_GAME]
    hand_row[H_HAND] = ints[I_HAND]
    hand_row[H_DEALER] = dealer
    hand_row[H_STARTER] = (dealer + 1) % players
    hand_row[H_OUTCOME] = ints[I_OUTCOME]
    hand_row[H_WINNER] = ints[I_WINNER]
    hand_row[H_TURNS] = ints[I_TURN]
    hand_row[H_RESHUFFLES] = ints[I_RESHUFFLES]
    hand_row[H_POINTS] = ints[I_POINTS]
    hand_row[H_RUMMY] = ints[I_RUMMY]
    for q in range(players):
        seat_rows[q, S_CARDS_LEFT] = M.popcount(masks[M_HAND + q])
        seat_rows[q, S_VALUE_LEFT] = M.mask_value(masks[M_HAND + q], state.card_value)
        seat_rows[q, S_MELDS_LAID] = ints[I_MELDS_LAID_SEAT + q]
        seat_rows[q, S_CARDS_LAID_OFF] = ints[I_LAID_OFF_SEAT + q]
        seat_rows[q, S_DISCARD_DRAWS] = ints[I_DISCARD_DRAWS_SEAT + q]
    return ints[I_OUTCOME], ints[I_WINNER], ints[I_POINTS]


@njit(cache=True, parallel=True, nogil=True)
def play_games(seed, games, players, rules, params, card_value, single_hand, capacity,
               hand_rows, seat_rows, game_rows, n_hands):
    """Play whole games (or one hand per game index when ``single_hand``), in parallel.

    ``games`` int64[G] game indices. Outputs, filled in place:
    ``hand_rows`` int32[G * capacity, HAND_COLS], ``seat_rows`` int32[G * capacity, players, SEAT_COLS]
    (game i's hands at rows ``i*capacity ...``), ``game_rows`` int32[G, 2 + players]
    (winner, hands, final score per seat), ``n_hands`` int64[G] hands played per game.
    A game with more hands than ``capacity`` records only the first ``capacity``;
    the caller sees ``n_hands > capacity`` and replays it with more room.
    Releases the GIL, so the caller can write the previous chunk meanwhile.
    """
    target = rules[R_TARGET]
    n_games = games.shape[0]
    n_blocks = min(n_games, 64)  # contiguous blocks: scratch allocated once per block, not per game
    for b in prange(n_blocks):
        state = new_state(players, rules, card_value, np.empty((0, EV_WIDTH), dtype=np.int16),
                          np.zeros(1, dtype=np.int64))
        scratch = P.new_scratch(players)
        scores = np.zeros(players, dtype=np.int64)
        spare_hand = np.empty(HAND_COLS, dtype=np.int32)
        spare_seats = np.empty((players, SEAT_COLS), dtype=np.int32)
        for i in range(b * n_games // n_blocks, (b + 1) * n_games // n_blocks):
            g = games[i]
            scores[:] = 0
            h = 0
            winner = -1
            while True:
                row = i * capacity + h
                if h < capacity:
                    outcome, w, pts = play_hand(state, seed, g, h, params, scratch, hand_rows[row], seat_rows[row])
                else:
                    outcome, w, pts = play_hand(state, seed, g, h, params, scratch, spare_hand, spare_seats)
                if outcome == OUT_WIN:
                    scores[w] += pts
                h += 1
                if single_hand:
                    winner = w
                    break
                top = 0
                for q in range(players):
                    if scores[q] > scores[top]:
                        top = q
                if scores[top] >= target:
                    winner = top
                    break
                if h >= MAX_HANDS_PER_GAME:
                    break  # a safety cap like the turn limit: the game has no winner (-1)
            n_hands[i] = h
            game_rows[i, 0] = winner
            game_rows[i, 1] = h
            for q in range(players):
                game_rows[i, 2 + q] = scores[q]
