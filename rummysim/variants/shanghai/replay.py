"""A Shanghai round's trace, move by move, as JSON-ready events or readable text.

``trace_round`` replays exactly the round that ``run --variant shanghai``
recorded for the same seed, game, round, players, rules and strategies, with
the kernel's event log on; ``play_round_position`` runs a hand-built position
the same way (the rules tests use it).

Events: those of Basic Rummy (``deal``, ``draw``, ``layoff``, ``discard``,
``reshuffle``, ``end``) plus
``{"event": "buy", "player": p, "card": c, "penalty": c2}``,
``{"event": "contract", "player": p, "melds": [[cards], ...], "stands_for": [[...], ...]}`` and
``{"event": "swap", "player": p, "meld": k, "card": c, "joker": "JK"}``.
An event's ``meld`` (and a contract's ``table_melds``) is a table meld's index, from 0 in the order
laid; the readable lines number melds from 1. A joker is ``"JK"``; the card it stands for is given
in a parallel field:
``stands_for`` (one entry per card of each meld, ``None`` for a natural) in a
contract, ``stands_for`` in a joker's lay-off. In a run a joker stands for
the card of its position (``"H9"``); in a set for a card of the set's rank,
written as the rank alone (``"9"``). A joker laid off on a run also says which
end it took, ``"end": "low"`` or ``"high"`` (the player chooses when both are
open, docs/rules.md 3.13; the ace below a 2 and above a king have one name).
"""

from __future__ import annotations

import numpy as np

from ...base.events import common_line
from ...cards import JOKER, RANKS, card_id, card_name, card_names
from . import policy as P
from . import kernel as K
from . import moves as M
from .contracts import card_at, contract
from .state import (
    I_SEED, MELD_RUN, MELD_SET, SI_BUYS_SEAT, SI_DISCARDER, SI_DOWN_TURN_SEAT, SI_N_TABLE, SI_OWN_TURNS_SEAT,
    SI_PILE_N, SI_ROUND, SI_STOCK_N, SR_ACE_HIGH, T_COLS, T_HI, T_JOKER_POS, T_JOKERS, T_KIND, T_LO, T_NATURALS, T_OWNER,
    T_RANK, T_SUIT, T_SUIT_COUNT,
)
from .table import meld_listing, meld_ok
from ...engine.codes import OUTCOMES
from .schema import BONUSES


def hand_names(counts) -> list[str]:
    return [card_name(c) for c in range(64) for _ in range(int(counts[c]))]


def _stands_for(kind: int, suit_or_rank: int, pos: int) -> str:
    """What a joker stands for: the card of a run position, or a set's rank."""
    if kind == MELD_SET:
        return RANKS[suit_or_rank]
    return card_name(card_at(suit_or_rank, pos))


def deal_event(state, players: int, dealer: int) -> dict:
    hands, ints, stock, pile = state.hands, state.ints, state.stock, state.pile
    n_stock, n_pile = int(ints[SI_STOCK_N]), int(ints[SI_PILE_N])
    return {
        "event": "deal",
        "round": int(ints[SI_ROUND]),
        "dealer": dealer,
        "hands": [hand_names(hands[p]) for p in range(players)],
        "upcard": card_name(int(pile[n_pile - 1])) if n_pile else None,
        "stock": card_names(stock[:n_stock][::-1]),
    }


def decode_events(ev: np.ndarray, n: int, table_kinds: dict) -> list[dict]:
    """Kernel event rows -> events. ``table_kinds`` maps meld index -> [kind, suit or rank, a run's
    lowest position], filled as contracts and lay-offs are decoded (a joker's lay-off needs its
    meld's kind, and its end)."""
    out: list[dict] = []
    for row in ev[:n]:
        kind, player, card, meld, count = (int(x) for x in row[:5])
        cards = [int(c) for c in row[K.EV_CARDS:K.EV_CARDS + count]]
        if kind in (K.EV_DRAW_STOCK, K.EV_DRAW_DISCARD):
            source = "stock" if kind == K.EV_DRAW_STOCK else "discard"
            out.append({"event": "draw", "player": player, "source": source, "card": card_name(card)})
        elif kind == K.EV_BUY:
            out.append({"event": "buy", "player": player, "card": card_name(card), "penalty": card_name(cards[0])})
        elif kind == K.EV_CONTRACT:
            meld_kind, start = divmod(card, 16)
            if meld_kind == MELD_RUN:
                suit = next(c >> 4 for c in cards if c != JOKER)
                stands = [_stands_for(MELD_RUN, suit, start + i) if c == JOKER else None for i, c in enumerate(cards)]
                table_kinds[meld] = [MELD_RUN, suit, start]
            else:
                stands = [_stands_for(MELD_SET, start, 0) if c == JOKER else None for c in cards]
                table_kinds[meld] = [MELD_SET, start, 0]
            if out and out[-1]["event"] == "contract" and out[-1]["player"] == player:
                out[-1]["melds"].append(card_names(cards))
                out[-1]["stands_for"].append(stands)
                out[-1]["table_melds"].append(meld)
            else:
                out.append({"event": "contract", "player": player, "melds": [card_names(cards)],
                            "stands_for": [stands], "table_melds": [meld]})
        elif kind == K.EV_LAYOFF:
            e = {"event": "layoff", "player": player, "card": card_name(card), "meld": meld}
            mk, sr, lo = table_kinds[meld]
            if card == JOKER:
                e["stands_for"] = _stands_for(mk, sr, cards[0])
                if mk == MELD_RUN:
                    e["end"] = "low" if cards[0] < lo else "high"
            if mk == MELD_RUN and cards[0] < lo:
                table_kinds[meld][2] = cards[0]
            out.append(e)
        elif kind == K.EV_SWAP:
            out.append({"event": "swap", "player": player, "meld": meld, "card": card_name(card), "joker": "JK"})
        elif kind == K.EV_DISCARD:
            out.append({"event": "discard", "player": player, "card": card_name(card)})
        elif kind == K.EV_RESHUFFLE:
            out.append({"event": "reshuffle", "stock": card_names(cards)})
    return out


def _play_logged(setup, players: int, rules_array, params, rows: int = 1024):
    """Play a round to its end with its event log on: ``setup(state, scratch)`` deals or builds the
    position and begins play; again with four times the log rows while the log fills up (it is
    sized for ordinary rounds). Returns ``(events, round_row, seat_rows, state)``."""
    while True:
        state = M.new_state(players, rules_array, np.zeros((rows, K.EV_WIDTH), dtype=np.int16))
        scratch = P.new_scratch(players)
        setup(state, scratch)
        table_kinds = {}
        table, n_table = state.table, int(state.ints[SI_N_TABLE])
        for k in range(n_table):
            table_kinds[k] = [int(table[k, T_KIND]),
                              int(table[k, T_SUIT] if table[k, T_KIND] == MELD_RUN else table[k, T_RANK]),
                              int(table[k, T_LO])]
        round_row = np.zeros(K.ROUND_COLS, dtype=np.int32)
        seat_rows = np.zeros((players, K.SEAT_COLS), dtype=np.int32)
        K.finish_round(state, params, scratch, round_row, seat_rows)
        if state.n_ev[0] < rows:
            break
        rows *= 4
    events = decode_events(state.ev, int(state.n_ev[0]), table_kinds)
    events.append(end_event(round_row, seat_rows, state.hands))
    return events, round_row, seat_rows, state


def end_event(round_row: np.ndarray, seat_rows: np.ndarray, hands: np.ndarray) -> dict:
    """The ``end`` event of a finished round: its result rows and the state's ``hands``."""
    players = hands.shape[0]
    return {
        "event": "end",
        "outcome": OUTCOMES[round_row[K.RW_OUTCOME]],
        "winner": int(round_row[K.RW_WINNER]),
        "bonus": BONUSES[round_row[K.RW_BONUS]],
        "scores": [int(seat_rows[q, K.SS_SCORE]) for q in range(players)],
        "hands": [hand_names(hands[p]) for p in range(players)],
    }


def trace_round(seed: int, game: int, round_no: int, players: int, rules_array: np.ndarray,
                params: np.ndarray) -> list[dict]:
    """Every event of round ``round_no`` (1..10) of game ``game``, deal first and end last."""
    deal = []

    def setup(state, scratch):
        first = K.start_round(seed, game, round_no, state, scratch)
        deal[:] = [deal_event(state, players, (first + players - 1) % players)]

    events, _, _, _ = _play_logged(setup, players, rules_array, params)
    return deal + events


def parse_table_meld(text: str, ace_high: bool = True) -> np.ndarray:
    """A table meld from text -> a meld row int64[T_COLS]. Naturals all of one rank make a set
    (``"H8 S8 JK"``); otherwise a run in position order, jokers where they stand
    (``"H5 JK H7"``, ``"HQ HK HA"``). ``ValueError`` if it is not a meld (rules 2.3)."""
    ids = [card_id(t, allow_joker=True) for t in text.split()]
    naturals = [c for c in ids if c != JOKER]
    row = np.zeros(T_COLS, dtype=np.int64)
    if not naturals:
        raise ValueError(f"table meld {text!r}: no natural card")
    row[T_JOKERS] = len(ids) - len(naturals)
    row[T_NATURALS] = len(naturals)
    if len({c & 15 for c in naturals}) == 1 and len(ids) >= 3:
        row[T_KIND] = MELD_SET
        row[T_RANK] = naturals[0] & 15
        for c in naturals:
            row[T_SUIT_COUNT + (c >> 4)] += 1
    else:
        row[T_KIND] = MELD_RUN
        row[T_SUIT] = naturals[0] >> 4
        i0 = next(i for i, c in enumerate(ids) if c != JOKER)
        pos0 = naturals[0] & 15
        if pos0 == 0 and i0 > 0:
            pos0 = 13  # an ace after other cards is high
        lo = pos0 - i0
        row[T_LO], row[T_HI] = lo, lo + len(ids) - 1
        for i, c in enumerate(ids):
            p = lo + i
            if c == JOKER:
                row[T_JOKER_POS] |= 1 << p
            elif c >> 4 != row[T_SUIT] or card_at(c >> 4, p) != c:
                raise ValueError(f"table meld {text!r}: not a run in position order")
    if not meld_ok(row, ace_high):
        raise ValueError(f"table meld {text!r} is not a meld (rules 2.3)")
    return row


def play_round_position(players: int, round_no: int, hands: list[str], stock: str, pile: str,
                        rules_array: np.ndarray, params: np.ndarray, table: list[tuple[int, str]] = (),
                        first: int = 0, down: dict[int, int] | None = None, buys: dict[int, int] | None = None,
                        discarder: int = -1, seed: int = 0) -> dict:
    """Play a hand-built Shanghai position from seat ``first``'s turn to the end of the round.

    ``hands`` one card string per seat (``JK`` for a joker); ``stock`` top card
    first; ``pile`` bottom card first (its last card is the upcard, discarded by
    ``discarder``); ``table`` the melds already laid as ``(owner, text)`` (see
    ``parse_table_meld``); ``down`` seat -> own turn on which it went down (earlier
    turns); ``buys`` seat -> buys already used this round. Cards the position does not
    name are out of play (card conservation is not checked here), though ruling 3.7 counts them
    off the table (docs/rules.md I.7): a blocked table must hold every copy of what could fit it.
    Returns ``{"events", "outcome", "winner", "bonus", "scores", "hands", "turns",
    "reshuffles", "seats"}``; ``seats`` holds the per-seat result rows.
    """
    def setup(state, scratch):
        hands_arr, ints, stock_arr, pile_arr, table_arr = state.hands, state.ints, state.stock, state.pile, state.table
        K.start_round(seed, 0, round_no, state, scratch)  # seeds the bot streams
        hands_arr[:] = 0
        ints[:] = 0
        ints[I_SEED] = seed
        ints[SI_ROUND] = round_no
        ints[SI_DISCARDER] = discarder
        for p, h in enumerate(hands):
            for t in h.split():
                hands_arr[p, card_id(t, allow_joker=True)] += 1
        for k, (owner, text) in enumerate(table):
            table_arr[k] = parse_table_meld(text, bool(rules_array[SR_ACE_HIGH]))
            table_arr[k, T_OWNER] = owner
        ints[SI_N_TABLE] = len(table)
        stock_ids = [card_id(t, allow_joker=True) for t in stock.split()]
        pile_ids = [card_id(t, allow_joker=True) for t in pile.split()]
        stock_arr[:len(stock_ids)] = stock_ids[::-1]
        pile_arr[:len(pile_ids)] = pile_ids
        ints[SI_STOCK_N], ints[SI_PILE_N] = len(stock_ids), len(pile_ids)
        for p, turn in (down or {}).items():
            ints[SI_DOWN_TURN_SEAT + p] = turn
            ints[SI_OWN_TURNS_SEAT + p] = max(int(ints[SI_OWN_TURNS_SEAT + p]), turn)
        for p, n in (buys or {}).items():
            ints[SI_BUYS_SEAT + p] = n
        M.begin(state, first)

    events, round_row, seat_rows, state = _play_logged(setup, players, rules_array, params)
    end = events[-1]
    table_now = state.table
    listing = np.zeros(64, dtype=np.int64)
    melds = []
    for k in range(int(state.ints[SI_N_TABLE])):
        n = meld_listing(table_now[k], listing)
        melds.append(card_names(listing[:n]))
    return {
        "events": events, "outcome": end["outcome"], "winner": end["winner"], "bonus": end["bonus"],
        "scores": end["scores"], "hands": end["hands"], "turns": int(round_row[K.RW_TURNS]),
        "reshuffles": int(round_row[K.RW_RESHUFFLES]), "seats": seat_rows.tolist(), "table": melds,
    }


def describe_deal(deal: dict) -> str:
    """The deal in a few words: the round, its contract (docs/rules.md 2.2) and who dealt."""
    return f"round {deal['round']}, contract {contract(deal['round'])}; seat {deal['dealer']} deals"


def format_event(e: dict) -> str:
    """One readable line per event (``base.events.common_line`` for the kinds every variant shares)."""
    kind = e["event"]
    if kind == "deal":
        return f"round {e['round']} " + common_line(e)
    if kind == "layoff" and "stands_for" in e:
        end = {"low": " (low end)", "high": " (high end)"}.get(e.get("end"), "")
        return f"seat {e['player']} lays off JK={e['stands_for']}{end} on meld {e['meld'] + 1}"
    line = common_line(e)
    if line is not None:
        return line
    if kind == "buy":
        return f"seat {e['player']} buys {e['card']} (penalty card {e['penalty']})"
    if kind == "contract":
        shown = []
        for meld, stands in zip(e["melds"], e["stands_for"]):
            shown.append(" ".join(c if s is None else f"JK={s}" for c, s in zip(meld, stands)))
        return f"seat {e['player']} lays down its contract: " + " / ".join(shown)
    if kind == "swap":
        return f"seat {e['player']} swaps {e['card']} for the joker of meld {e['meld'] + 1}"
    if kind == "reshuffle":
        return f"stock ran out: the discard pile less its top card becomes the stock ({len(e['stock'])} cards)"
    left = "; ".join(f"seat {p}: {' '.join(h) or '-'}" for p, h in enumerate(e["hands"]))
    scores = ", ".join(f"seat {p} {s:+d}" for p, s in enumerate(e["scores"]))
    if e["outcome"] == "win":
        bonus = {"none": "", "one_turn": " in one turn", "one_turn_no_joker": " in one turn without a joker"}[e["bonus"]]
        head = f"seat {e['winner']} goes out{bonus}"
    else:
        head = f"round ends with no winner: {e['outcome'].replace('_', ' ')}"
    return f"{head}; scores {scores}\n  cards left: {left}"
