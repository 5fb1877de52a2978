"""A hand's trace, move by move, as JSON-ready events or readable text.

``trace_hand`` replays exactly the hand that ``run`` recorded for the same
seed, game, hand, players, rules and strategies (a hand is a pure function of
those), with the kernel's event log switched on. ``play_position`` runs a
hand-built position the same way (tests use it for the rules).

Events (cards as in ``rummysim.cards``, e.g. ``"H8"``):
``deal``, ``draw``, ``meld``, ``layoff``, ``discard``, ``reshuffle``, ``end``
as listed in docs/commands/replay.md ("JSON events").
"""

from __future__ import annotations

import numpy as np

from ...base.events import common_line
from ...cards import card_name, card_names, cards_of, format_mask, mask_of, parse_cards
from . import policy as P
from . import kernel as K
from ...engine import melds as M
from . import moves as MV
from ...engine.codes import OUTCOMES
from .state import (I_GAME, I_HAND, I_HAS_PLAYED_SEAT, I_N_TABLE, I_PILE_N, I_PLAYERS, I_SEED, I_STOCK_N,
                    M_HAND, M_LAYABLE, M_PILE, M_TABLE)


def deal_event(state, players: int, dealer: int) -> dict:
    masks, ints, stock, pile = state.masks, state.ints, state.stock, state.pile
    n_stock, n_pile = int(ints[I_STOCK_N]), int(ints[I_PILE_N])
    return {
        "event": "deal",
        "dealer": dealer,
        "hands": [card_names(cards_of(masks[M_HAND + p])) for p in range(players)],
        "upcard": card_name(int(pile[n_pile - 1])) if n_pile else None,
        "stock": card_names(stock[:n_stock][::-1]),
    }


def decode_events(ev: np.ndarray, n: int) -> list[dict]:
    """The events of the kernel's log rows ``ev[:n]`` (int16[n, EV_WIDTH]), in order."""
    out = []
    for row in ev[:n]:
        kind, player, card, meld, count = (int(x) for x in row[:5])
        cards = card_names(row[K.EV_CARDS:K.EV_CARDS + count])
        if kind in (K.EV_DRAW_STOCK, K.EV_DRAW_DISCARD):
            source = "stock" if kind == K.EV_DRAW_STOCK else "discard"
            out.append({"event": "draw", "player": player, "source": source, "card": card_name(card)})
        elif kind == K.EV_MELD:
            out.append({"event": "meld", "player": player, "cards": cards})
        elif kind == K.EV_LAYOFF:
            out.append({"event": "layoff", "player": player, "card": card_name(card), "meld": meld})
        elif kind == K.EV_DISCARD:
            out.append({"event": "discard", "player": player, "card": card_name(card)})
        elif kind == K.EV_RESHUFFLE:
            out.append({"event": "reshuffle", "stock": cards})
    return out


def copy_work(work):
    """A deep copy of a kernel work tuple (arrays, nested tuples and named tuples of arrays)."""
    items = [copy_work(w) if isinstance(w, tuple) else w.copy() for w in work]
    return type(work)(*items) if hasattr(work, "_fields") else tuple(items)


def play_logged(finish, work, row_cols: int, seat_shape: tuple, width: int, rows: int):
    """Run ``finish(trial_work, row, seat_rows, ev, n_ev)`` (a kernel's finish function) on a copy of
    ``work`` with an event log of ``rows`` rows, again with four times the rows while the log fills up
    (the log is sized for ordinary hands). Returns ``(ev, n_events, row, seat_rows, trial_work)``."""
    while True:
        ev = np.zeros((rows, width), dtype=np.int16)
        n_ev = np.zeros(1, dtype=np.int64)
        row = np.zeros(row_cols, dtype=np.int32)
        seat_rows = np.zeros(seat_shape, dtype=np.int32)
        trial = copy_work(work)
        finish(trial, row, seat_rows, ev, n_ev)
        if n_ev[0] < rows:
            return ev, int(n_ev[0]), row, seat_rows, trial
        rows *= 4


def _play_logged(players, params, state, scratch) -> tuple[list[dict], np.ndarray, np.ndarray]:
    """Play ``state`` (a hand in play) to its end with the event log on, policies' ``scratch`` seeded."""
    def finish(trial, row, seats, ev, n_ev):
        trial_state, trial_scratch = trial
        K.finish_hand(trial_state._replace(ev=ev, n_ev=n_ev), params, trial_scratch, row, seats)

    ev, n, hand_row, seat_rows, trial = play_logged(finish, (state, scratch), K.HAND_COLS, (players, K.SEAT_COLS),
                                                    K.EV_WIDTH, 4096)
    events = decode_events(ev, n)
    events.append(end_event(hand_row, trial[0].masks, players))
    return events, hand_row, seat_rows


def end_event(hand_row: np.ndarray, masks: np.ndarray, players: int) -> dict:
    """The ``end`` event of a finished hand: its result row ``hand_row`` and the state's ``masks``."""
    return {
        "event": "end",
        "outcome": OUTCOMES[hand_row[K.H_OUTCOME]],
        "winner": int(hand_row[K.H_WINNER]),
        "points": int(hand_row[K.H_POINTS]),
        "going_rummy": bool(hand_row[K.H_RUMMY]),
        "hands": [card_names(cards_of(masks[M_HAND + p])) for p in range(players)],
    }


def trace_hand(seed: int, game: int, hand: int, players: int, rules_array: np.ndarray,
               params: np.ndarray) -> list[dict]:
    """Every event of hand ``hand`` of game ``game``, deal first and end last."""
    state = _new_state(players, rules_array)
    scratch = P.new_scratch(players)
    first = K.start_hand(state, seed, game, hand, scratch[5])
    deal = deal_event(state, players, (first + players - 1) % players)
    events, _, _ = _play_logged(players, params, state, scratch)
    return [deal] + events


def _new_state(players: int, rules_array: np.ndarray):
    return K.new_state(players, np.ascontiguousarray(rules_array, dtype=np.int64), M.CARD_VALUE,
                       np.zeros((0, K.EV_WIDTH), dtype=np.int16), np.zeros(1, dtype=np.int64))


def hands_in_game(seed: int, game: int, players: int, rules_array: np.ndarray, params: np.ndarray) -> int:
    """How many hands game ``game`` has (it is played to its end, recording only its first hand)."""
    games = np.array([game], dtype=np.int64)
    hand_rows = np.empty((1, K.HAND_COLS), dtype=np.int32)
    seat_rows = np.empty((1, players, K.SEAT_COLS), dtype=np.int32)
    game_rows = np.empty((1, 2 + players), dtype=np.int32)
    n_hands = np.empty(1, dtype=np.int64)
    K.play_games(seed, games, players, rules_array, params, M.CARD_VALUE, False, 1,
                 hand_rows, seat_rows, game_rows, n_hands)
    return int(n_hands[0])


def format_event(e: dict) -> str:
    """One readable line per event (``base.events.common_line`` for the kinds every variant shares)."""
    line = common_line(e)
    if line is not None:
        return line
    if e["event"] == "reshuffle":
        return f"stock ran out: the discard pile becomes the stock ({len(e['stock'])} cards)"
    left = "; ".join(f"seat {p}: {' '.join(h) or '-'}" for p, h in enumerate(e["hands"]))
    if e["outcome"] == "win":
        head = f"seat {e['winner']} goes out{' with rummy' if e['going_rummy'] else ''} and scores {e['points']}"
    else:
        head = f"hand ends: {e['outcome'].replace('_', ' ')}, nobody scores"
    return f"{head}\n  cards left: {left}"


def describe_deal(deal: dict) -> str:
    """The deal in a few words: who dealt."""
    return f"seat {deal['dealer']} deals"


def play_position(players: int, hands: list[str], stock: str, pile: str, rules_array: np.ndarray,
                  params: np.ndarray, table: list[str] = (), first: int = 0, seed: int = 0,
                  has_played: tuple[int, ...] = ()) -> dict:
    """Play a hand-built position from seat ``first``'s turn to the end of the hand.

    ``hands`` one card string per seat; ``stock`` top card first; ``pile`` bottom
    card first (its last card is the upcard); ``table`` melds already laid, in
    order; ``has_played`` seats that melded or laid off in an earlier turn.
    Returns ``{"events", "outcome", "winner", "points", "going_rummy",
    "hands", "turns", "reshuffles", "seats"}`` where ``seats`` holds the
    per-seat result rows (cards left, value left, melds, lay-offs, discard draws).
    """
    state = _new_state(players, rules_array)
    scratch = P.new_scratch(players)
    masks, ints, stock_arr, pile_arr = state.masks, state.ints, state.stock, state.pile
    t_mask, t_kind, t_lay = state.t_mask, state.t_kind, state.t_lay
    K.start_hand(state, seed, 0, 0, scratch[5])  # seeds the bot streams; the deal is replaced below
    masks[:] = 0
    ints[:] = 0
    ints[I_PLAYERS], ints[I_SEED], ints[I_GAME], ints[I_HAND] = players, seed, 0, 0
    ace_high = bool(rules_array[1])
    seen = np.uint64(0)
    for p, h in enumerate(hands):
        masks[M_HAND + p] = mask_of(h) if h.strip() else np.uint64(0)
    for k, meld_text in enumerate(table):
        meld = mask_of(meld_text)
        if not M.is_meld(meld, ace_high):
            raise ValueError(f"table meld {meld_text!r} is not a meld")
        kind, tm = M.table_meld_of(meld, ace_high)
        t_kind[k], t_mask[k] = kind, np.uint64(tm)
        t_lay[k] = M.layoff_cards(np.uint64(tm), np.int64(kind), ace_high)
        masks[M_TABLE] |= meld
    ints[I_N_TABLE] = len(table)
    masks[M_LAYABLE] = M.table_layoffs(t_mask, t_kind, len(table), ace_high)
    stock_ids = parse_cards(stock)
    pile_ids = parse_cards(pile)
    for i, c in enumerate(stock_ids[::-1]):
        stock_arr[i] = c
    for i, c in enumerate(pile_ids):
        pile_arr[i] = c
        masks[M_PILE] |= np.uint64(1 << c)
    ints[I_STOCK_N], ints[I_PILE_N] = len(stock_ids), len(pile_ids)
    for p in has_played:
        ints[I_HAS_PLAYED_SEAT + p] = 1
    everything = [*[masks[M_HAND + p] for p in range(players)], masks[M_TABLE],
                  *[np.uint64(1 << c) for c in stock_ids + pile_ids]]
    for m in everything:
        if seen & m:
            raise ValueError(f"card(s) placed twice in the position: {format_mask(seen & m)}")
        seen |= m
    MV.begin(state, first)
    events, hand_row, seat_rows = _play_logged(players, params, state, scratch)
    end = events[-1]
    return {
        "events": events, "outcome": end["outcome"], "winner": end["winner"], "points": end["points"],
        "going_rummy": end["going_rummy"], "hands": end["hands"], "turns": int(hand_row[K.H_TURNS]),
        "reshuffles": int(hand_row[K.H_RESHUFFLES]), "seats": seat_rows.tolist(),
    }
