"""Shanghai Rummy moves as words (``Variant.notation``): naming, parsing with reasons, the seat's view.

Names: ``take D9`` (the upcard), ``draw stock`` (leave the upcard: the others may buy it, then you
draw), ``buy D9``, ``pass``, ``contract S7 H7 D7 / C4 C5 C6 C7`` (the melds of the laying, each
written as ``replay.parse_table_meld`` reads it: a run in position order with its jokers ``JK``
where they stand), ``layoff D9 2`` (table meld 2, counted from 1), ``swap H7 2 JK 3`` (H7 in place
of the joker of meld 2, the freed joker laid off on meld 3), ``swap H7 2`` (not yet down, with
``joker_swap = anyone``: the freed joker goes into the contract laid next, docs/rules.md 3.8),
``stop``, ``discard D9``.

A joker laid off on a run that takes it at both ends stands for the card the player chooses (3.13):
the move names the end, ``layoff JK 2 low`` / ``layoff JK 2 high`` (also ``below`` / ``above``, or
the card it stands for: ``layoff JK=H4 2``), and ``swap H7 2 JK 3 low`` / ``... high`` for a freed
joker. Without the end such a move is refused, naming both; on a run open at one end, or a set,
no end is named.
"""

from __future__ import annotations

import numpy as np

from ...cards import JOKER, RANKS, SUITS, card_id, card_name
from ...base import notation as N
from ...base.errors import MoveError
from ...base.notation import names, seat_name
from . import moves as MV
from .contracts import CONTRACTS
from .replay import parse_table_meld
from .state import (
    I_PHASE, I_PROPOSAL_N, I_SEAT, I_TURN_SEAT, JOKER_SWAP_ANYONE, MAX_TABLE, PH_BUY, PH_DISCARD, PH_OVER, PH_PLAY,
    PH_UPCARD, SI_BUYS_SEAT, SI_DOWN_TURN_SEAT, SI_DRAWN, SI_N_TABLE, SI_PILE_N, SI_ROUND, SI_STOCK_N,
    SR_ACE_HIGH, SR_DECKS, SR_JOKER_SWAP, SR_MAX_BUYS, SR_MUST_DISCARD, T_HI, T_KIND, T_LO, T_OWNER, T_SUIT,
    MELD_RUN, State,
)
from .contracts import card_at
from .table import (
    FIT_HIGH, FIT_LOW, FIT_NONE, contract_ok, fit, joker_both_ends, meld_listing, swap_position, table_counts,
)

__all__ = ["State", "contract_words", "describe", "legal_move_names", "move_name", "parse_move", "step_verbs"]

STEPS = {PH_UPCARD: "take the upcard, or draw stock",
         PH_BUY: "buy the upcard, or pass",
         PH_PLAY: "lay down your contract, lay off, swap a joker, or stop",
         PH_DISCARD: "discard a card",
         PH_OVER: "nothing: the round is over"}
VERB_STEP = {"take": PH_UPCARD, "draw": PH_UPCARD, "leave": PH_UPCARD, "buy": PH_BUY, "pass": PH_BUY,
             "contract": PH_PLAY, "layoff": PH_PLAY, "swap": PH_PLAY, "stop": PH_PLAY, "discard": PH_DISCARD}
ALIASES = {"lay": "layoff", "lay-off": "layoff", "done": "stop", "end": "stop", "throw": "discard",
           "down": "contract"}


def meld_words(row) -> str:
    """A meld row's cards in order (``H5 JK H7``, ``S8 H8 JK``)."""
    listing = np.zeros(64, dtype=np.int64)
    return names(listing[:meld_listing(row, listing)])


def contract_words(round_no: int) -> str:
    """``2 sets`` / ``1 set and 1 run of 7+``: round ``round_no``'s contract (docs/rules.md 2.2)."""
    sets, runs, run_min = (int(x) for x in CONTRACTS[round_no])
    parts = ([f"{sets} set{'s' * (sets > 1)}"] if sets else []) + \
            ([f"{runs} run{'s' * (runs > 1)} of {run_min}+"] if runs else [])
    return " and ".join(parts)


def upcard(state: State) -> int:
    n = int(state.ints[SI_PILE_N])
    return int(state.pile[n - 1]) if n else -1


# ------------------------------------------------------------------ naming
def move_name(state: State, action: int) -> str:
    if 0 <= action < 64:
        return f"discard {card_name(action)}"
    if action == MV.TAKE_UPCARD:
        return f"take {card_name(upcard(state))}"
    if action == MV.LEAVE_UPCARD:
        return "draw stock"
    if action == MV.BUY:
        return f"buy {card_name(upcard(state))}"
    if action == MV.PASS:
        return "pass"
    if action == MV.STOP:
        return "stop"
    if action == MV.CONTRACT:
        if not MV.proposal_ok(state) and MV.propose_contract(state) == 0:
            raise ValueError("no legal laying of the contract to name")
        n = int(state.ints[I_PROPOSAL_N])
        return "contract " + " / ".join(meld_words(state.melds[i]) for i in range(n))
    if MV.LAYOFF_BASE <= action < MV.SWAP_BASE:
        c, k = divmod(action - MV.LAYOFF_BASE, MAX_TABLE)
        both = c == JOKER and k < int(state.ints[SI_N_TABLE]) and joker_both_ends(state.table[k], _ace_high(state))
        return f"layoff {card_name(c)} {k + 1}" + (" high" if both else "")
    if MV.JOKER_LOW_BASE <= action < MV.SWAP_LOW_BASE:
        return f"layoff JK {action - MV.JOKER_LOW_BASE + 1} low"
    if MV.SWAP_DOWN_BASE <= action < MV.JOKER_LOW_BASE:
        c, k = divmod(action - MV.SWAP_DOWN_BASE, MAX_TABLE)
        return f"swap {card_name(c)} {k + 1}"
    if MV.SWAP_BASE <= action < MV.SWAP_DOWN_BASE or MV.SWAP_LOW_BASE <= action < MV.NUM_ACTIONS:
        low = action >= MV.SWAP_LOW_BASE
        c, rest = divmod(action - (MV.SWAP_LOW_BASE if low else MV.SWAP_BASE), MAX_TABLE * MAX_TABLE)
        k, k2 = divmod(rest, MAX_TABLE)
        end = " low" if low else (" high" if _swap_both_ends(state, c, k, k2) else "")
        return f"swap {card_name(c)} {k + 1} JK {k2 + 1}{end}"
    raise ValueError(f"not a Shanghai action: {action}")


def _ace_high(state) -> bool:
    return bool(state.rules[SR_ACE_HIGH])


def _swap_both_ends(state, c: int, k: int, k2: int) -> bool:
    """After natural ``c`` takes the place of a joker of meld ``k``, does run ``k2`` take the freed
    joker at both ends (ruling 3.13)? The row after the swap is left in ``state.row``."""
    n_table = int(state.ints[SI_N_TABLE])
    pos = swap_position(state.table[k], c) if k < n_table else -1
    return (pos >= 0 and k2 < n_table
            and MV.joker_fits_after_swap(state.table, k, pos, c, k2, _ace_high(state), state.row)
            and joker_both_ends(state.row, _ace_high(state)))


def legal_move_names(state: State) -> list[tuple[int, str]]:
    return N.legal_move_names(state, MV.legal_moves, MV.MAX_LEGAL, move_name)


# ------------------------------------------------------------------ parsing
def step_verbs(state: State) -> tuple[str, ...]:
    """The verbs the step to act now takes (``serve`` tries each with the selected cards)."""
    return tuple(verb for verb, step in VERB_STEP.items() if step == int(state.ints[I_PHASE]))


def parse_move(state: State, text: str) -> int:
    return N.parse_move(state, text, int(state.ints[I_PHASE]), steps=STEPS, verb_step=VERB_STEP,
                        aliases=ALIASES, parsers=_Parse, is_legal=MV.is_legal, why_not=_why_not)


def _card(word: str) -> int:
    return N.card_word(word, allow_joker=True)


def _counts(state):
    return state.hands[int(state.ints[I_SEAT])]


def _held(state, cards: list[int]) -> None:
    counts = _counts(state)
    N.check_held(cards, lambda c: counts[c])


def _meld_number(state, word: str) -> int:
    return N.meld_number(word, int(state.ints[SI_N_TABLE]))


def _upcard_named(state, args) -> None:
    N.upcard_named(args, upcard(state), allow_joker=True)


class _Parse:
    """One parser per verb: the action its words name (legality is checked after)."""

    @staticmethod
    def take(state, args):
        _upcard_named(state, args)
        return MV.TAKE_UPCARD

    @staticmethod
    def draw(state, args):
        if args and args[0].lower() not in ("stock", "deck"):
            raise MoveError(f"draw {' '.join(args)}: say draw stock, or take (the upcard)")
        return MV.LEAVE_UPCARD

    leave = draw

    @staticmethod
    def buy(state, args):
        _upcard_named(state, args)
        return MV.BUY

    @staticmethod
    def pass_(state, args):
        return MV.PASS

    @staticmethod
    def stop(state, args):
        return MV.STOP

    @staticmethod
    def discard(state, args):
        return N.discard_card(args, True, lambda cards: _held(state, cards))

    @staticmethod
    def contract(state, args):
        """``contract`` alone: the laying the rules layer proposes; else the melds given, split by ``/``."""
        ints = state.ints
        if ints[SI_DOWN_TURN_SEAT + int(ints[I_SEAT])] > 0:
            raise MoveError("you are down already: lay off, swap a joker, or stop")
        if not args:
            if MV.proposal_ok(state) or MV.propose_contract(state) > 0:
                return MV.CONTRACT
            raise MoveError(f"your hand holds no laying of the contract ({contract_words(int(ints[SI_ROUND]))})")
        groups = " ".join(args).split("/")
        if len(groups) > state.melds.shape[0]:
            raise MoveError(f"{len(groups)} melds: a contract has at most {state.melds.shape[0]}")
        rows = []
        for g in groups:
            if not g.split():
                raise MoveError("an empty meld: write the melds split by /, e.g. contract S7 H7 D7 / C4 C5 C6 C7")
            for w in g.split():
                _card(w)
            try:
                rows.append(parse_table_meld(g, bool(state.rules[SR_ACE_HIGH])))
            except ValueError:
                raise MoveError(f"{g.strip().upper()} is not a meld: a set of 3+ of one rank, or a run of one "
                                "suit in order with jokers where they stand; no more jokers than naturals "
                                "(docs/rules.md 2.3)") from None
        _held(state, [card_id(w, allow_joker=True) for g in groups for w in g.split()])
        round_no = int(ints[SI_ROUND])
        melds = np.zeros_like(state.melds)
        for i, row in enumerate(rows):
            melds[i] = row
        if not contract_ok(melds, len(rows), round_no, bool(state.rules[SR_ACE_HIGH])):
            raise MoveError(f"round {round_no}'s contract is {contract_words(round_no)} (docs/rules.md 2.2; runs "
                            "of one suit may not touch end to end)")
        state.melds[:] = melds
        ints[I_PROPOSAL_N] = len(rows)
        return MV.CONTRACT

    @staticmethod
    def layoff(state, args):
        args, end = _end_word(args)
        stands = None
        if args and "=" in args[0]:
            args[0], stands = args[0].split("=", 1)
        if len(args) != 2:
            raise MoveError("layoff takes a card and a table meld number, e.g. layoff D9 2 (a joker on a run "
                            "open at both ends: layoff JK 2 low, or high)")
        card = _card(args[0])
        if stands is not None and card != JOKER:
            raise MoveError(f"{args[0]}={stands}: only a joker stands for another card")
        if end is not None and card != JOKER:
            raise MoveError(f"{end}: only a joker's end is chosen; {card_name(card)} goes where it belongs")
        _held(state, [card])
        _down_first(state)
        k = _meld_number(state, args[1])
        if fit(state.table[k], card, _ace_high(state)) == FIT_NONE:
            raise MoveError(f"{card_name(card)} does not fit meld {k + 1} ({meld_words(state.table[k])}; "
                            f"it takes {names(fitting(state, k)) or 'nothing more'})")
        if card == JOKER and (end is not None or stands is not None):
            end = _joker_end(state.table[k], _ace_high(state), end, stands, f"meld {k + 1}")
        if card == JOKER and joker_both_ends(state.table[k], _ace_high(state)):
            if end is None:
                raise MoveError(_choose_end(state.table[k], _ace_high(state), f"layoff JK {k + 1}"))
            if end == "low":
                return MV.JOKER_LOW_BASE + k
        return MV.LAYOFF_BASE + card * MAX_TABLE + k

    @staticmethod
    def swap(state, args):
        args, end = _end_word(args)
        args = [a for a in args if a.lower() not in ("jk", "joker")]
        if len(args) not in (2, 3):
            raise MoveError("swap takes a card, the meld of the joker and the meld the joker goes to, "
                            "e.g. swap H7 2 JK 3 (not yet down, with joker_swap=anyone: swap H7 2, the joker "
                            "then goes into your contract)")
        card = _card(args[0])
        if card == JOKER:
            raise MoveError("swap puts a natural card in place of a joker: name the natural")
        _held(state, [card])
        if not state.rules[SR_JOKER_SWAP]:
            raise MoveError("no joker swaps in this game (rule joker_swap, docs/rules.md 2.8)")
        down = state.ints[SI_DOWN_TURN_SEAT + int(state.ints[I_SEAT])] > 0
        if len(args) == 2 and down:
            raise MoveError("you are down: name the meld the joker goes to, e.g. swap H7 2 JK 3")
        if len(args) == 2 and state.rules[SR_JOKER_SWAP] != JOKER_SWAP_ANYONE:
            raise MoveError("lay down your contract first (docs/rules.md 2.5; before it only with "
                            "joker_swap=anyone, 3.8)")
        if len(args) == 3:
            _down_first(state)
        k = _meld_number(state, args[1])
        if swap_position(state.table[k], card) < 0:
            raise MoveError(f"meld {k + 1} ({meld_words(state.table[k])}) has no joker standing for "
                            f"{card_name(card)}")
        if len(args) == 2:
            if end is not None:
                raise MoveError(f"{end}: the freed joker goes into your contract, not onto a table meld")
            return MV.SWAP_DOWN_BASE + card * MAX_TABLE + k
        k2 = _meld_number(state, args[2])
        i = (card * MAX_TABLE + k) * MAX_TABLE + k2
        if not MV.joker_fits_after_swap(state.table, k, swap_position(state.table[k], card), card, k2,
                                        _ace_high(state), state.row):
            return MV.SWAP_BASE + i     # refused by the rules layer: the freed joker has no place there
        row = state.row.copy()          # meld k2 after the swap
        if end is not None:
            end = _joker_end(row, _ace_high(state), end, None, f"meld {k2 + 1} after the swap")
        if joker_both_ends(row, _ace_high(state)):
            if end is None:
                raise MoveError(_choose_end(row, _ace_high(state), f"swap {card_name(card)} {k + 1} JK {k2 + 1}"))
            if end == "low":
                return MV.SWAP_LOW_BASE + i
        return MV.SWAP_BASE + i


setattr(_Parse, "pass", _Parse.pass_)

END_WORDS = {"low": "low", "below": "low", "high": "high", "above": "high"}


def _end_word(args: list[str]) -> tuple[list[str], str | None]:
    """The words without the end named for a joker (``low``/``below``, ``high``/``above``), and that end."""
    ends = [END_WORDS[a.lower()] for a in args if a.lower() in END_WORDS]
    if len(ends) > 1:
        raise MoveError("name one end for the joker: low or high")
    return [a for a in args if a.lower() not in END_WORDS], (ends[0] if ends else None)


def _end_cards(row, ace_high: bool) -> tuple[str | None, str | None]:
    """The cards a joker laid off on run ``row`` would stand for: below it and above it (None: closed)."""
    low = high = None
    if fit(row, JOKER, ace_high) == FIT_NONE or row[T_KIND] != MELD_RUN:
        return low, high
    if joker_both_ends(row, ace_high) or fit(row, JOKER, ace_high) == FIT_LOW:
        low = card_name(card_at(int(row[T_SUIT]), int(row[T_LO]) - 1))
    if fit(row, JOKER, ace_high) == FIT_HIGH:
        high = card_name(card_at(int(row[T_SUIT]), int(row[T_HI]) + 1))
    return low, high


def _choose_end(row, ace_high: bool, move: str) -> str:
    """Ruling 3.13: the one line asking which end of run ``row`` the joker takes."""
    low, high = _end_cards(row, ace_high)
    return (f"the joker fits {meld_words(row)} at either end: say {move} low (JK={low}) or {move} high "
            f"(JK={high}) (docs/rules.md 3.13)")


def _joker_end(row, ace_high: bool, end: str | None, stands: str | None, where: str) -> str:
    """The end a joker takes on ``row`` (which takes it) when the player named one, by word or by the
    card it stands for; ``MoveError`` if the meld has no such end."""
    if row[T_KIND] != MELD_RUN:
        raise MoveError(f"{where} ({meld_words(row)}) is a set: a joker there stands for its rank; name no end")
    low, high = _end_cards(row, ace_high)
    if stands is not None:
        wanted = card_name(_card(stands))
        ends = [e for e, c in (("low", low), ("high", high)) if c == wanted]
        if not ends:
            raise MoveError(f"on {where} ({meld_words(row)}) a joker can stand for "
                            + " or ".join(c for c in (low, high) if c) + f", not {wanted}")
        if len(ends) == 2 and end is None:
            raise MoveError(f"{wanted} is below and above {meld_words(row)}: say low or high")
        if end is not None and end not in ends:
            raise MoveError(f"JK={wanted} is the {ends[0]} end of {meld_words(row)}, not the {end} end")
        end = end or ends[0]
    if (low if end == "low" else high) is None:
        other = "high" if end == "low" else "low"
        raise MoveError(f"{where} ({meld_words(row)}) takes a joker only at its {other} end "
                        f"(JK={low or high}): name no end")
    return end


def _down_first(state) -> None:
    if state.ints[SI_DOWN_TURN_SEAT + int(state.ints[I_SEAT])] == 0:
        raise MoveError("lay down your contract first (docs/rules.md 2.5)")


def _why_not(state, verb: str, action: int) -> str:
    """One line: why the parsed ``action`` is not legal now (its words were right)."""
    ints = state.ints
    if verb == "take":
        return (f"you must keep a card to discard that is not {card_name(upcard(state))} "
                "(docs/rules.md 2.4.1, ruling 3.1)")
    drawn = int(ints[SI_DRAWN])
    if verb == "discard":
        return (f"you took {card_name(drawn)} as the upcard this turn: you may not throw it (or a copy) back "
                "(docs/rules.md 3.1)")
    if verb == "contract":
        return "that laying leaves no card you may discard (docs/rules.md 2.6, ruling 3.1)"
    if verb == "swap" and action >= MV.SWAP_DOWN_BASE:
        return "no contract you can lay this turn takes the freed joker (docs/rules.md 3.8)"
    if verb == "swap":
        return "the freed joker does not fit that meld (docs/rules.md 2.5)"
    if state.rules[SR_MUST_DISCARD]:
        return "you must keep a card to discard (rule must_discard_to_go_out, docs/rules.md 2.8)"
    return f"that would leave only {card_name(drawn)}, the upcard taken this turn, which you may not throw (3.1)"


# ------------------------------------------------------------------ the seat's view
def fitting(state, k: int) -> list[int]:
    """The cards (naturals, then the joker) that table meld ``k`` takes now and may still be laid off on
    it: not a natural whose every copy (one a deck, docs/rules.md 2.1) is on the table already; a joker
    may come back from the table by a swap (2.5)."""
    ace_high = bool(state.rules[SR_ACE_HIGH])
    melded = np.zeros(64, dtype=np.int64)
    table_counts(state.table, state.ints[SI_N_TABLE], melded)
    left = [16 * s + r for s in range(4) for r in range(13) if melded[16 * s + r] < state.rules[SR_DECKS]]
    return [c for c in left + [JOKER] if fit(state.table[k], c, ace_high) != FIT_NONE]


def hand_by_suit(counts) -> str:
    """``C: A 4 4 5  H: 3  JK JK``."""
    parts = []
    for s, suit in enumerate(SUITS):
        ranks = [RANKS[r] for r in range(13) for _ in range(int(counts[16 * s + r]))]
        if ranks:
            parts.append(f"{suit}: {' '.join(ranks)}")
    if counts[JOKER]:
        parts.append(" ".join(["JK"] * int(counts[JOKER])))
    return "  ".join(parts) or "(empty)"


def play_step(state, seat: int) -> str:
    """What ``seat`` may do in its play step, in words: its contract until it is down (and a joker swap
    only with joker_swap=anyone, 3.8), then lay-offs and joker swaps (docs/rules.md 2.5, 2.8)."""
    swap = int(state.rules[SR_JOKER_SWAP])
    if state.ints[SI_DOWN_TURN_SEAT + seat] == 0:
        return "lay down your contract, " + ("swap a joker, " if swap == JOKER_SWAP_ANYONE else "") + "or stop"
    return "lay off, " + ("swap a joker, " if swap else "") + "or stop"


def table_lines(state, who=seat_name) -> list[str]:
    """One line per table meld: its number (from 1), its cards, whose it is (``who(seat)``) and what fits it."""
    out = []
    for k in range(int(state.ints[SI_N_TABLE])):
        row = state.table[k]
        takes = names(fitting(state, k))
        out.append(f"{k + 1}: {meld_words(row)} [{who(int(row[T_OWNER]))}]" + (f" takes {takes}" if takes else ""))
    return out


def describe(state: State, seat: int, totals=None, taken=None) -> str:
    ints = state.ints
    players = state.hands.shape[0]
    round_no = int(ints[SI_ROUND])
    up = upcard(state)
    to_act = int(ints[I_SEAT])
    phase = int(ints[I_PHASE])
    step = f"seat {to_act} to play" if to_act != seat else play_step(state, seat) if phase == PH_PLAY else STEPS[phase]
    max_buys = int(state.rules[SR_MAX_BUYS])
    counts = state.hands[seat]
    drawn = int(ints[SI_DRAWN])
    held = to_act == seat and drawn >= 0 and counts[drawn] > 0   # it or a copy (3.1), not once all laid
    keep = f" (took {card_name(drawn)} this turn: may not throw it)" if held else ""
    buys_left = max_buys - int(ints[SI_BUYS_SEAT + seat])
    lines = [f"Shanghai Rummy, seat {seat}, round {round_no} of 10: contract {contract_words(round_no)}. Now: {step}",
             f"Your hand ({int(counts.sum())}): {hand_by_suit(counts)}"
             + ("" if ints[SI_DOWN_TURN_SEAT + seat] == 0 else " (you are down)") + keep,
             "Table melds: " + ("; ".join(table_lines(state)) or "none"),
             f"Upcard: {card_name(up) if up >= 0 else 'none'} (pile {int(ints[SI_PILE_N])}, stock {int(ints[SI_STOCK_N])}); your buys left: {buys_left}"]
    for q in range(players):
        if q != seat:
            took = (taken or {}).get(q, [])
            lines.append(f"Seat {q}: {int(state.hands[q].sum())} cards"
                         + (", down" if ints[SI_DOWN_TURN_SEAT + q] else "")
                         + f", buys left {max_buys - int(ints[SI_BUYS_SEAT + q])}"
                         + (f", took from the pile: {names(took)}" if took else "")
                         + (" (on turn)" if int(ints[I_TURN_SEAT]) == q and phase != PH_OVER else ""))
    if totals is not None:
        lines.append("Scores (penalty points, lowest wins): "
                     + ", ".join(f"seat {q} {int(t)}" for q, t in enumerate(totals)))
    return "\n".join(lines)
