"""Basic Rummy hand and game kernels (docs/rules.md section 1, rulings 3.1-3.3, 3.5-3.6).

Scope: 2-4 players, one 52-card deck, no jokers; every option of rules 1.7
through the rule vector (``core.state.R_*``):

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
"""

import numpy as np
from numba import njit, prange

from ...engine.codes import OUT_STALEMATE_BLOCKED, OUT_STALEMATE_STOCK, OUT_TURN_LIMIT, OUT_WIN
from ...engine.deck import dealer_of
from ...engine.rng import KIND_BOT, KIND_DEAL, KIND_RESHUFFLE, shuffle, stream_key
from . import bots as B
from . import melds as M
from .state import (
    ACT_MELD, ACT_STOP, I_DISCARD_DRAWS_SEAT, I_DRAWN, I_HAS_PLAYED_SEAT,
    I_LAID_OFF_SEAT, I_MELDS_LAID_SEAT, I_MELDS_THIS_TURN, I_N_TABLE, I_OWN_TURNS_SEAT,
    I_PILE_N, I_PLAYED_THIS_TURN, I_RESHUFFLES, I_STOCK_N, I_TURN, INTS_SIZE, M_HAND,
    M_LAYABLE, M_PICKED, M_PILE, M_TABLE, MASKS_SIZE, R_ACE_HIGH, R_MUST_DISCARD, R_RESHUFFLE_MODE,
    R_CHECK, R_MAX_MELDS, R_RESHUFFLES, R_RUMMY_MULT, R_TARGET, R_TURN_LIMIT, RESHUFFLE_KEEP_TOP,
    RESHUFFLE_TURN_OVER,
)

U64 = np.uint64

# event log (replay): one row per event, int16[EV_WIDTH]
EV_DRAW_STOCK = 1
EV_DRAW_DISCARD = 2
EV_MELD = 3
EV_LAYOFF = 4
EV_DISCARD = 5
EV_RESHUFFLE = 6
EV_WIDTH = 60  # type, player, card, meld index, n cards, cards...
EV_CARDS = 5

# per-hand result row (int32[HAND_COLS]) and per-seat row (int32[SEAT_COLS])
H_GAME, H_HAND, H_DEALER, H_STARTER, H_OUTCOME, H_WINNER, H_TURNS, H_RESHUFFLES, H_POINTS, H_RUMMY = range(10)
HAND_COLS = 10
S_CARDS_LEFT, S_VALUE_LEFT, S_MELDS_LAID, S_CARDS_LAID_OFF, S_DISCARD_DRAWS = range(5)
SEAT_COLS = 5
CARDS_DEALT = (0, 0, 10, 7, 7)  # by number of players (rules 1.1)
MAX_HANDS_PER_GAME = 100_000  # safety cap: a game stopped there has winner -1


@njit(cache=True)
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
def _log(ev, n_ev, kind, player, card, meld, cards_mask, cards_arr, n_arr):
    """Append one event (only when logging: ``ev`` has rows)."""
    i = n_ev[0]
    if i >= ev.shape[0]:
        return
    ev[i, 0] = kind
    ev[i, 1] = player
    ev[i, 2] = card
    ev[i, 3] = meld
    n = 0
    m = cards_mask
    while m:
        ev[i, EV_CARDS + n] = M.lowest_card(m)
        m &= m - U64(1)
        n += 1
    for k in range(n_arr):  # an ordered list (stock, top first)
        ev[i, EV_CARDS + n] = cards_arr[n_arr - 1 - k]
        n += 1
    ev[i, 4] = n
    n_ev[0] = i + 1


@njit(cache=True)
def _reshuffle(seed, game, hand, rules, ints, masks, stock, pile, rng):
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
        rng[0] = stream_key(seed, game, hand, KIND_RESHUFFLE, ints[I_RESHUFFLES])
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
def check_cards(masks, stock, pile, ints, players):
    """Raise unless every card is in exactly one place: a hand, the table, the stock or the pile."""
    seen = U64(0)
    total = 0
    for p in range(players):
        seen |= masks[M_HAND + p]
        total += M.popcount(masks[M_HAND + p])
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


@njit(cache=True)
def new_work(players):
    """Scratch and state arrays for one hand, reused hand after hand (see ``core.state``):
    ``(masks, ints, stock, pile, t_mask, t_kind, t_lay, scratch, action_buf, rngs, rng1)``
    where ``rngs`` uint64[players, 1] are the bots' streams and ``rng1`` uint64[1] a scratch stream."""
    scratch = (np.empty(64, dtype=np.uint64), np.empty(1024, dtype=np.uint64),
               np.empty(1024, dtype=np.int64), np.empty(1024, dtype=np.uint64))
    return (np.zeros(MASKS_SIZE, dtype=np.uint64), np.zeros(INTS_SIZE, dtype=np.int64),
            np.empty(64, dtype=np.int64), np.empty(64, dtype=np.int64),
            np.zeros(32, dtype=np.uint64), np.zeros(32, dtype=np.int64), np.zeros(32, dtype=np.uint64),
            scratch, np.empty((512, 3), dtype=np.int64), np.empty((players, 1), dtype=np.uint64),
            np.empty(1, dtype=np.uint64))


@njit(cache=True)
def start_hand(seed, game, hand, players, work):
    """Reset ``work`` and deal hand ``hand`` of game ``game``; returns the starting seat."""
    masks, ints, stock, pile, t_mask, t_kind, t_lay, scratch, action_buf, rngs, rng1 = work
    masks[:] = 0
    ints[:] = 0
    for p in range(players):
        rngs[p, 0] = stream_key(seed, game, hand, KIND_BOT, p)
    upcard, n_stock = deal(seed, game, hand, players, masks[M_HAND:M_HAND + players], stock, pile, rng1)
    pile[0] = upcard
    ints[I_PILE_N] = 1
    masks[M_PILE] = M.bit(upcard)
    ints[I_STOCK_N] = n_stock
    return (dealer_of(game, hand, players) + 1) % players


@njit(cache=True)
def play_hand(seed, game, hand, players, rules, params, card_value, work, hand_row, seat_rows, ev, n_ev):
    """Deal and play one hand to its end; fill its result rows. See ``finish_hand``."""
    first = start_hand(seed, game, hand, players, work)
    return finish_hand(seed, game, hand, players, rules, params, card_value, work, first,
                       hand_row, seat_rows, ev, n_ev)


@njit(cache=True)
def finish_hand(seed, game, hand, players, rules, params, card_value, work, first,
                hand_row, seat_rows, ev, n_ev):
    """Play the hand held in ``work`` from seat ``first``'s turn to its end.

    ``rules`` int64[RULES_SIZE]; ``params`` float64[players, N_PARAMS];
    ``work`` from ``new_work`` (dealt by ``start_hand``, or a hand-built position);
    ``hand_row`` int32[HAND_COLS]; ``seat_rows`` int32[players, SEAT_COLS];
    ``ev`` int16[n, EV_WIDTH] event log (n = 0 when not replaying), ``n_ev`` int64[1].
    Returns ``(outcome, winner, points)``.
    """
    masks, ints, stock, pile, t_mask, t_kind, t_lay, scratch, action_buf, rngs, rng1 = work
    ace_high = rules[R_ACE_HIGH] != 0
    must = rules[R_MUST_DISCARD] != 0
    check = rules[R_CHECK] != 0
    logging = ev.shape[0] > 0
    hands_view = masks[M_HAND:M_HAND + players]
    dealer = (first + players - 1) % players
    p = first
    outcome = OUT_TURN_LIMIT
    winner = -1
    points = 0
    rummy = 0
    while True:
        # 1. draw (1.3.1)
        ints[I_DRAWN] = -1
        ints[I_MELDS_THIS_TURN] = 0
        ints[I_PLAYED_THIS_TURN] = 0
        take_discard = False
        if ints[I_PILE_N] > 0:
            top = pile[ints[I_PILE_N] - 1]
            if ints[I_STOCK_N] == 0:
                take_discard = True
            else:
                take_discard = B.choose_draw(p, params, masks, ints, rules, card_value, rngs, scratch, top)
        if take_discard:
            ints[I_PILE_N] -= 1
            card = pile[ints[I_PILE_N]]
            masks[M_PILE] &= ~M.bit(card)
            masks[M_PICKED + p] |= M.bit(card)
            ints[I_DRAWN] = card
            ints[I_DISCARD_DRAWS_SEAT + p] += 1
            if logging:
                _log(ev, n_ev, EV_DRAW_DISCARD, p, card, -1, U64(0), stock, 0)
        else:
            ints[I_STOCK_N] -= 1
            card = stock[ints[I_STOCK_N]]
            if logging:
                _log(ev, n_ev, EV_DRAW_STOCK, p, card, -1, U64(0), stock, 0)
        masks[M_HAND + p] |= M.bit(card)
        if check:
            check_cards(masks, stock, pile, ints, players)

        # 2-3. melds and lay-offs in any order (1.3.2-3)
        while masks[M_HAND + p] != 0:
            kind, a, b = B.next_action(p, params, masks, ints, rules, players, card_value,
                                       t_mask, t_kind, t_lay, rngs, scratch, action_buf)
            if kind == ACT_STOP:
                break
            if kind == ACT_MELD:
                meld = U64(a)
                if (meld & masks[M_HAND + p]) != meld or not M.is_meld(meld, ace_high):
                    raise ValueError("bot proposed a meld that is not in its hand or not a meld")
                if not B.legal_after(masks[M_HAND + p] & ~meld, B.drawn_bit(ints), must):
                    raise ValueError("bot proposed a meld that breaks rules 1.3 / must_discard_to_go_out")
                if rules[R_MAX_MELDS] > 0 and ints[I_MELDS_THIS_TURN] >= rules[R_MAX_MELDS]:
                    raise ValueError("bot proposed a meld beyond max_melds_per_turn")
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
                if logging:
                    _log(ev, n_ev, EV_MELD, p, -1, k, meld, stock, 0)
            else:
                c = a
                k = b
                if not (masks[M_HAND + p] & M.bit(c)) or k < 0 or not (t_lay[k] & M.bit(c)):
                    raise ValueError("bot proposed a lay-off that does not fit")
                if not B.legal_after(masks[M_HAND + p] & ~M.bit(c), B.drawn_bit(ints), must):
                    raise ValueError("bot proposed a lay-off that breaks rules 1.3 / must_discard_to_go_out")
                t_mask[k] = M.grow_meld(t_mask[k], t_kind[k], c, ace_high)
                t_lay[k] = M.layoff_cards(t_mask[k], t_kind[k], ace_high)
                masks[M_HAND + p] &= ~M.bit(c)
                masks[M_TABLE] |= M.bit(c)
                ints[I_LAID_OFF_SEAT + p] += 1
                if logging:
                    _log(ev, n_ev, EV_LAYOFF, p, c, k, U64(0), stock, 0)
            masks[M_LAYABLE] = M.table_layoffs(t_mask, t_kind, ints[I_N_TABLE], ace_high)
            ints[I_PLAYED_THIS_TURN] += 1
            if check:
                check_cards(masks, stock, pile, ints, players)

        # 4. discard (1.3.4)
        if masks[M_HAND + p] != 0:
            c = B.choose_discard(p, params, masks, ints, rules, players, card_value, rngs)
            if not (masks[M_HAND + p] & M.bit(c)) or c == ints[I_DRAWN]:
                raise ValueError("bot proposed a discard it may not make (rules 1.3.4, ruling 3.1)")
            masks[M_HAND + p] &= ~M.bit(c)
            pile[ints[I_PILE_N]] = c
            ints[I_PILE_N] += 1
            masks[M_PILE] |= M.bit(c)
            if logging:
                _log(ev, n_ev, EV_DISCARD, p, c, -1, U64(0), stock, 0)
            if check:
                check_cards(masks, stock, pile, ints, players)
        ints[I_TURN] += 1
        ints[I_OWN_TURNS_SEAT + p] += 1

        # going out ends the hand at once (1.3; scoring 1.6)
        if masks[M_HAND + p] == 0:
            outcome = OUT_WIN
            winner = p
            for q in range(players):
                points += M.mask_value(masks[M_HAND + q], card_value)
            if ints[I_HAS_PLAYED_SEAT + p] == 0:
                rummy = 1
                points *= rules[R_RUMMY_MULT]
            break
        if ints[I_PLAYED_THIS_TURN] > 0:
            ints[I_HAS_PLAYED_SEAT + p] = 1
        # stock run out (1.4)
        if ints[I_STOCK_N] == 0:
            if rules[R_RESHUFFLES] >= 0 and ints[I_RESHUFFLES] >= rules[R_RESHUFFLES]:
                outcome = OUT_STALEMATE_STOCK
                break
            _reshuffle(seed, game, hand, rules, ints, masks, stock, pile, rng1)
            if logging:
                _log(ev, n_ev, EV_RESHUFFLE, -1, -1, -1, U64(0), stock, ints[I_STOCK_N])
            if check:
                check_cards(masks, stock, pile, ints, players)
        # blocked (1.5)
        if M.blocked(masks[M_TABLE], masks[M_LAYABLE], hands_view, players, ace_high):
            outcome = OUT_STALEMATE_BLOCKED
            break
        if ints[I_TURN] >= rules[R_TURN_LIMIT]:
            outcome = OUT_TURN_LIMIT
            break
        p += 1
        if p == players:
            p = 0

    hand_row[H_GAME] = game
    hand_row[H_HAND] = hand
    hand_row[H_DEALER] = dealer
    hand_row[H_STARTER] = (dealer + 1) % players
    hand_row[H_OUTCOME] = outcome
    hand_row[H_WINNER] = winner
    hand_row[H_TURNS] = ints[I_TURN]
    hand_row[H_RESHUFFLES] = ints[I_RESHUFFLES]
    hand_row[H_POINTS] = points
    hand_row[H_RUMMY] = rummy
    for q in range(players):
        seat_rows[q, S_CARDS_LEFT] = M.popcount(masks[M_HAND + q])
        seat_rows[q, S_VALUE_LEFT] = M.mask_value(masks[M_HAND + q], card_value)
        seat_rows[q, S_MELDS_LAID] = ints[I_MELDS_LAID_SEAT + q]
        seat_rows[q, S_CARDS_LAID_OFF] = ints[I_LAID_OFF_SEAT + q]
        seat_rows[q, S_DISCARD_DRAWS] = ints[I_DISCARD_DRAWS_SEAT + q]
    return outcome, winner, points


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
        work = new_work(players)
        ev = np.empty((0, EV_WIDTH), dtype=np.int16)
        n_ev = np.zeros(1, dtype=np.int64)
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
                    outcome, w, pts = play_hand(seed, g, h, players, rules, params, card_value, work,
                                                hand_rows[row], seat_rows[row], ev, n_ev)
                else:
                    outcome, w, pts = play_hand(seed, g, h, players, rules, params, card_value, work,
                                                spare_hand, spare_seats, ev, n_ev)
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
