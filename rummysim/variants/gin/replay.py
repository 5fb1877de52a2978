"""A Gin Rummy hand's trace, move by move, as JSON-ready events or readable text.

``trace_hand`` replays exactly the hand that ``run`` recorded for the same seed, game, hand, rules and
strategies (a hand is a pure function of those), with the rules layer's event log switched on: it
deals with ``kernel.start_hand`` and plays it with ``run``'s own driver, ``kernel.finish_hand`` (every
move through ``moves.forced_move`` or ``policy.choose``, checked by ``moves.is_legal`` and played by
``moves.apply``, which writes the log).

Events (cards as in ``rummysim.cards``, e.g. ``"H8"``), as docs/commands/replay.md ("JSON events")
lists them; the kinds Basic Rummy has keep its keys:

``deal``     ``dealer``, ``hands`` (per seat), ``upcard``, ``stock`` (top first), ``knock_card`` (4.5)
``draw``     ``player``, ``source`` (``"stock"`` or ``"discard"``: the upcard, 4.3, 4.4, or the upcard a
             knock at the wall takes, 4.6), ``card``
``discard``  ``player``, ``card`` (after a knock: the knocker's discard, 4.5)
``knock``    ``player`` (4.5; at the wall 4.6, after the ``draw`` of the upcard)
``meld``     ``player``, ``cards`` (a meld laid after a knock, 4.5, 4.6)
``layoff``   ``player``, ``card``, ``meld`` (the first of the knocker's melds it extends, numbered from
             0 in the order laid) and ``melds`` (every one it extends: ruling 3.16)
``pass``     ``player``, ``what``: what the seat passed on, ``"first_upcard"`` (4.3), ``"wall"`` (no
             knock at the wall: the hand ends, 4.6), ``"melds"`` (done laying melds, 4.5, 4.6),
             ``"layoffs"`` (done laying off, 4.6)
``end``      ``outcome``, ``winner`` (-1: nobody scored), ``points``, ``knocker`` (-1: nobody knocked),
             ``gin``, ``big_gin``, ``undercut``, ``knocker_deadwood`` and ``defender_deadwood`` (-1
             without a knock), ``hands`` (the cards left per seat) (4.7)
"""

from __future__ import annotations

import numpy as np

from ...base.events import common_line
from ...cards import card_name, card_names, cards_of
from ...engine import melds as M
from ...engine.codes import (EV_DISCARD, EV_DRAW_DISCARD, EV_DRAW_STOCK, EV_KNOCK, EV_LAYOFF, EV_MELD, EV_PASS,
                             OUTCOMES)
from ...engine.events import EV_CARDS
from . import kernel as K
from . import moves as MV
from . import policy as P
from . import schema as S
from .state import (I_KNOCK_CARD, I_N_EV, I_PILE_N, I_STOCK_N, M_HAND, PH_DEFENDER_MELD, PH_FIRST_UPCARD,
                    PH_KNOCK_MELD, PH_LAYOFF, PH_WALL, SEATS, pile_view, stock_view)

#: what a pass passes on, by the phase it was made in (the ``meld`` column of its event row)
PASSED = {PH_FIRST_UPCARD: "first_upcard", PH_WALL: "wall", PH_KNOCK_MELD: "melds", PH_DEFENDER_MELD: "melds",
          PH_LAYOFF: "layoffs"}
#: rows of the event log a trace starts with (a hand logs about two events a turn, a few hundred at most)
LOG_ROWS = 1024


def deal_event(state, players: int, dealer: int) -> dict:
    """The ``deal`` event of the hand just dealt into ``state``."""
    masks, ints = state.masks, state.ints
    n_stock, n_pile = int(ints[I_STOCK_N]), int(ints[I_PILE_N])
    stock, pile = stock_view(state)[:n_stock], pile_view(state)[:n_pile]
    return {
        "event": "deal",
        "dealer": dealer,
        "hands": [card_names(cards_of(masks[M_HAND + p])) for p in range(players)],
        "upcard": card_name(int(pile[n_pile - 1])) if n_pile else None,
        "stock": card_names(stock[::-1]),
        "knock_card": int(ints[I_KNOCK_CARD]),
    }


def decode_events(ev: np.ndarray, n: int) -> list[dict]:
    """The events of the rules layer's log rows ``ev[:n]`` (int16[n, EV_WIDTH]: kind, player, card,
    meld, count, cards...), in order."""
    out = []
    for row in ev[:n]:
        kind, player, card, meld, count = (int(x) for x in row[:5])
        listed = [int(x) for x in row[EV_CARDS:EV_CARDS + count]]
        if kind in (EV_DRAW_STOCK, EV_DRAW_DISCARD):
            source = "stock" if kind == EV_DRAW_STOCK else "discard"
            out.append({"event": "draw", "player": player, "source": source, "card": card_name(card)})
        elif kind == EV_DISCARD:
            out.append({"event": "discard", "player": player, "card": card_name(card)})
        elif kind == EV_KNOCK:
            out.append({"event": "knock", "player": player})
        elif kind == EV_MELD:
            out.append({"event": "meld", "player": player, "cards": card_names(listed)})
        elif kind == EV_LAYOFF:
            # the listed "cards" of a lay-off are the indices of the melds it extends (ruling 3.16)
            out.append({"event": "layoff", "player": player, "card": card_name(card), "meld": meld,
                        "melds": listed or [meld]})
        elif kind == EV_PASS:
            out.append({"event": "pass", "player": player, "what": PASSED.get(meld)})
    return out


def end_event(hand_row: np.ndarray, masks: np.ndarray, players: int = SEATS) -> dict:
    """The ``end`` event of a finished hand: its result row ``hand_row`` (``schema.HAND_COLS``) and the
    state's ``masks``."""
    return {
        "event": "end",
        "outcome": OUTCOMES[hand_row[S.H_OUTCOME]],
        "winner": int(hand_row[S.H_WINNER]),
        "points": int(hand_row[S.H_POINTS]),
        "knocker": int(hand_row[S.H_KNOCKER]),
        "gin": bool(hand_row[S.H_GIN]),
        "big_gin": bool(hand_row[S.H_BIG_GIN]),
        "undercut": bool(hand_row[S.H_UNDERCUT]),
        "knocker_deadwood": int(hand_row[S.H_KNOCKER_DEADWOOD]),
        "defender_deadwood": int(hand_row[S.H_DEFENDER_DEADWOOD]),
        "hands": [card_names(cards_of(masks[M_HAND + p])) for p in range(players)],
    }


def _new_state(rules_array: np.ndarray, rows: int):
    return K.new_state(np.ascontiguousarray(rules_array, dtype=np.int64), M.CARD_VALUE,
                       np.zeros((rows, MV.EV_WIDTH), dtype=np.int16))


def trace_hand(seed: int, game: int, hand: int, players: int, rules_array: np.ndarray,
               params: np.ndarray) -> list[dict]:
    """Every event of hand ``hand`` of game ``game``, deal first and end last. ``params``
    float64[2, N_PARAMS]; ``players`` is 2 (rules 4.1)."""
    params = np.ascontiguousarray(params, dtype=np.float64)
    rows = LOG_ROWS
    while True:   # a log that fills up is played again with room to spare
        state = _new_state(rules_array, rows)
        scratch = P.new_scratch(state.rules, state.card_value)
        first = K.start_hand(state, seed, game, hand, scratch[1])
        deal = deal_event(state, SEATS, 1 - first)
        hand_row = np.zeros(S.HAND_COLS, dtype=np.int32)
        K.finish_hand(state, params, scratch, hand_row, np.zeros((SEATS, S.SEAT_COLS), dtype=np.int32))
        if state.ints[I_N_EV] < rows:
            break
        rows *= 4
    return [deal, *decode_events(state.ev, int(state.ints[I_N_EV])), end_event(hand_row, state.masks, SEATS)]


def hands_in_game(seed: int, game: int, players: int, rules_array: np.ndarray, params: np.ndarray) -> int:
    """How many hands game ``game`` has (it is played to its end, recording only its first hand)."""
    games = np.array([game], dtype=np.int64)
    hand_rows = np.empty((1, S.HAND_COLS), dtype=np.int32)
    seat_rows = np.empty((1, SEATS, S.SEAT_COLS), dtype=np.int32)
    game_rows = np.empty((1, 2 + SEATS), dtype=np.int32)
    n_hands = np.empty(1, dtype=np.int64)
    K.play_games(seed, games, np.ascontiguousarray(rules_array, dtype=np.int64),
                 np.ascontiguousarray(params, dtype=np.float64), M.CARD_VALUE, False, 1, hand_rows, seat_rows,
                 game_rows, n_hands)
    return int(n_hands[0])


def _melds_words(melds: list[int]) -> str:
    numbers = [str(k + 1) for k in melds]
    if len(numbers) == 1:
        return f"meld {numbers[0]}"
    return "melds " + ", ".join(numbers[:-1]) + " and " + numbers[-1]


_PASS_WORDS = {
    "first_upcard": "passes the first upcard",
    "wall": "does not knock at the wall",
    "melds": "lays no more melds",
    "layoffs": "lays off no more cards",
    None: "passes",
}


def format_event(e: dict) -> str:
    """One readable line per event (``base.events.common_line`` for the kinds every variant shares; the
    end adds the cards left)."""
    kind = e["event"]
    if kind == "deal":
        first, *rest = common_line(e).split("\n")
        return "\n".join([f"{first}, knock card {e['knock_card']}", *rest])
    if kind == "layoff" and len(e.get("melds", ())) > 1:
        return f"seat {e['player']} lays off {e['card']} on {_melds_words(e['melds'])}"
    line = common_line(e)
    if line is not None:
        return line
    if kind == "knock":
        return f"seat {e['player']} knocks"
    if kind == "pass":
        return f"seat {e['player']} {_PASS_WORDS.get(e.get('what'), 'passes')}"
    left = "; ".join(f"seat {p}: {' '.join(h) or '-'}" for p, h in enumerate(e["hands"]))
    if e["outcome"] == "win":
        k, w = e["knocker"], e["winner"]
        deadwood = f"deadwood {e['knocker_deadwood']} against {e['defender_deadwood']}"
        if e["undercut"]:
            head = f"seat {w} undercuts seat {k} ({deadwood}) and scores {e['points']}"
        elif e["gin"]:
            head = f"seat {k} goes {'big gin' if e['big_gin'] else 'gin'} and scores {e['points']}"
        else:
            head = f"seat {k} knocks and scores {e['points']} ({deadwood})"
    elif e["outcome"] == "stalemate_stock":
        head = "hand ends at the wall: two cards left in the stock, nobody scores"
    elif e["outcome"] == "turn_limit":
        head = "hand ends at the upcard limit (its 50th take), nobody scores"
    else:
        head = f"hand ends: {e['outcome'].replace('_', ' ')}, nobody scores"
    return f"{head}\n  cards left: {left}"


def describe_deal(deal: dict) -> str:
    """The deal in a few words: who dealt, and the knock card."""
    return f"seat {deal['dealer']} deals, knock card {deal['knock_card']}"
