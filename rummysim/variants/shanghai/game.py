"""A Shanghai Rummy game in play, move by move over the rules layer: the one driver of ``rummysim
play`` and ``rummysim.env``.

``Game.reset(seed, game)`` deals what ``rummysim run --seed seed`` deals for game index ``game``, and
the calls follow the kernel's game loop (``kernel.play_games``): a game whose every move is
``bot_move`` is ``run``'s game, row for row. What each seat is known to hold
(``known``: the state's ``held``, kept by ``moves.apply``: the cards it took as the upcard or bought,
until it throws them or puts them on the table) is the only source of what the others are told of a
seat's hand.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...base.game import GameInPlay
from ...base.notation import seat_name
from ...cards import card_name
from . import hints, kernel, moves, notation, policy, replay
from .moves import apply, legal_moves
from .state import (
    I_PHASE,
    I_PROPOSAL_N,
    I_SEAT,
    I_TURN_SEAT,
    PH_BUY,
    PH_OVER,
    PH_PLAY,
    ROUNDS,
    SI_BUYS_SEAT,
    SI_DOWN_TURN_SEAT,
    SI_PILE_N,
    SI_STOCK_N,
    SR_MAX_BUYS,
)

#: event log rows between two reads (a move logs a few)
EV_ROWS = 64


@njit(cache=True)
def step(state, move, legal):
    """Apply the legal ``move`` of the seat to act (``moves.apply``, which keeps what each seat is
    known to hold, ``state.held``); then the legal moves of the next decision into ``legal``
    int64[MAX_LEGAL]; returns their count (0 once over)."""
    apply(state, move)
    if state.ints[I_PHASE] == PH_OVER:
        return 0
    return legal_moves(state, legal)


@njit(cache=True)
def start(state, scratch, seed, game, round_no, legal):
    """Deal round ``round_no`` of game ``game`` (``kernel.start_round``: the deal and the policies'
    streams); the first decision's legal moves into ``legal``, returns the count."""
    kernel.start_round(seed, game, round_no, state, scratch)
    return legal_moves(state, legal)


def _card_list(counts: np.ndarray) -> list[int]:
    """The cards of ``counts`` (int64[64], copies per card) as a list, each copy once, in card order."""
    return [c for c in range(64) for _ in range(int(counts[c]))]


class Game(GameInPlay):
    """A Shanghai Rummy game: the ten contract rounds (docs/rules.md 2.1), as ``run`` plays it; scores
    are penalty points. ``rules`` int64[RULES_SIZE] (``ShanghaiRules.to_array``); ``log``: keep each
    move's events (``play`` returns them) and the deal's and end's (``deal_event``, ``end_event``)."""

    unit = "round"
    first_unit = 1
    move_words = ("draw stock, take, buy, pass, contract C7 D7 S7 / H3 H4 H5 H6, layoff D9 2, layoff JK 1 low, "
                  "swap H7 2 JK 3, stop, discard D9")
    num_actions = moves.NUM_ACTIONS
    I_SEAT, I_PHASE, I_STOCK_N = I_SEAT, I_PHASE, SI_STOCK_N
    policy, notation, replay, hints, moves = policy, notation, replay, hints, moves
    row_cols, seat_cols = kernel.ROUND_COLS, kernel.SEAT_COLS

    def __init__(self, players: int, rules: np.ndarray, log: bool = False):
        self.players, self.log = players, log
        self.state = moves.new_state(players, rules, np.zeros((EV_ROWS if log else 0, moves.EV_WIDTH), dtype=np.int16))
        self.scratch = policy.new_scratch(players)
        self.known = self.state.held   # what each seat is known to hold, kept by moves.apply
        self.legal_buf = np.empty(moves.MAX_LEGAL, dtype=np.int64)
        self.n_legal = 0
        self.scores = np.zeros(players, dtype=np.int64)
        self.table_kinds: dict = {}   # meld index -> its kind, for decoding events (``replay.decode_events``)

    # ------------------------------------------------------------------ the game
    def _deal(self) -> None:
        self.n_legal = start(self.state, self.scratch, self.seed, self.game, self.number, self.legal_buf)
        self.first = self.seat
        self.table_kinds = {}

    def forced(self) -> int:
        return -1   # the kernel asks the policy at every decision

    def bot_move(self, params: np.ndarray) -> int:
        """The move ``run``'s driver plays (``policy.choose``)."""
        return self.choose(params, self.seat)

    def keep(self):
        """The proposal buffer (the laying a ``CONTRACT`` chosen now lays), to put back with ``restore``."""
        return self.state.melds.copy(), int(self.state.ints[I_PROPOSAL_N])

    def restore(self, kept) -> None:
        self.state.melds[:], self.state.ints[I_PROPOSAL_N] = kept

    def _apply(self, move: int) -> int:
        return int(step(self.state, move, self.legal_buf))

    def _events(self) -> list[dict]:
        return replay.decode_events(self.state.ev, int(self.state.n_ev[0]), self.table_kinds)

    def _result_rows(self, row: np.ndarray, seats: np.ndarray) -> None:
        kernel.fill_rows(self.state, row, seats)

    def end_event(self) -> dict:
        return replay.end_event(self.rows[-1], self.seat_rows[-1], self.state.hands)

    def winners(self) -> list[int]:
        """The seats with the lowest total (ties share the win, docs/rules.md 2.7)."""
        return [int(q) for q in np.flatnonzero(self.scores == self.scores.min())]

    @property
    def over(self) -> bool:
        """The game has ended: ten rounds played."""
        return self.number > ROUNDS

    def game_row(self) -> np.ndarray:
        """int32[1, players]: the game's penalty totals."""
        return self.scores.astype(np.int32)[None, :]

    # ------------------------------------------------------------------ what a seat may see
    def _take_hidden(self, q: int) -> list[int]:
        """Seat q's cards not known to be held, taken out of its hand (``redeal_hidden``)."""
        hidden = self.state.hands[q] - self.known[q]
        if (hidden < 0).any():
            raise RuntimeError(f"seat {q}: a card counted as known is not in its hand")
        self.state.hands[q] -= hidden
        return _card_list(hidden)

    def _give(self, q: int, cards: list[int]) -> None:
        np.add.at(self.state.hands[q], cards, 1)

    def _check_cards(self) -> None:
        moves.check_cards(self.state)

    def taken(self) -> dict[int, list[int]]:
        """Per seat, the cards known to be in its hand (taken as the upcard or bought, not shown since)."""
        return {q: _card_list(self.known[q]) for q in range(self.players)}

    def event_line(self, e: dict, who, you: int) -> str | None:
        """Shanghai's own moves as lines (a buy's penalty card hidden from the others, 2.4; a joker laid
        off named with the card it stands for, ruling 3.13); the rest as every variant says them."""
        kind, p = e["event"], e.get("player")
        name, s = (who(p), "s" * (p != you)) if p is not None else ("", "")
        if kind == "contract":
            return f"{name} lay{s} down: " + " / ".join(" ".join(m) for m in e["melds"])
        if kind == "layoff" and "stands_for" in e:
            return f"{name} lay{s} off {e['card']}={e['stands_for']} on meld {e['meld'] + 1}"
        if kind == "swap":
            return f"{name} swap{s} {e['card']} for the joker of meld {e['meld'] + 1}"
        if kind == "buy":
            penalty = f" (penalty card {e['penalty']})" if p == you else " and a penalty card"
            return f"{name} buy{s} {e['card']}{penalty}"
        return super().event_line(e, who, you)

    def went_out(self, e: dict, who) -> str:
        """Who went out and every seat's penalty this round."""
        return f"{who(e['winner'])} went out; this round: " + ", ".join(
            f"{who(q)} {s:+d}" for q, s in enumerate(e["scores"]))

    def heading(self) -> str:
        return f"Shanghai Rummy, round {self.number} of 10: contract {notation.contract_words(self.number)}"

    def goal(self) -> str:
        return "penalty points: lowest wins"

    def _buys_left(self, seat: int) -> int:
        return int(self.state.rules[SR_MAX_BUYS]) - int(self.state.ints[SI_BUYS_SEAT + seat])

    def counters(self, seat: int) -> str:
        ints = self.state.ints
        return f"stock {int(ints[SI_STOCK_N])}, pile {int(ints[SI_PILE_N])}; your buys left: {self._buys_left(seat)}"

    def count(self, seat: int) -> int:
        return int(self.state.hands[seat].sum())

    def hand(self, seat: int) -> dict[int, int]:
        return {c: int(n) for c, n in enumerate(self.state.hands[seat]) if n}

    def step(self, who=seat_name) -> str:
        """What the seat to act may do now: a buy says who left the upcard and what a buy costs before
        asking (docs/rules.md 2.4); the play step what the seat may lay (``notation.play_step``)."""
        ints, seat = self.state.ints, self.seat
        phase = int(ints[I_PHASE])
        if phase == PH_PLAY:
            return notation.play_step(self.state, seat)
        if phase != PH_BUY:
            return super().step(who)
        turn = int(ints[I_TURN_SEAT])
        asked = [q % self.players for q in range(turn + 1, seat + (self.players if seat <= turn else 0))]
        before = ("" if not asked else f"; {', '.join(who(q) for q in asked)} did not buy it" if len(asked) < 3
                  else f"; {len(asked)} seats before you did not buy it")
        up = card_name(self.upcard())
        return (f"{who(turn)} left {up}{before}. Buy it (you take {up} and, as a penalty, the top card of the "
                f"stock; {self._buys_left(seat)} buys left this round), or pass")

    def table_lines(self, who=seat_name) -> list[str]:
        """The table melds, each with whose it is (``who``: "you" for the person)."""
        return notation.table_lines(self.state, who)

    def marks(self, seat: int) -> tuple[set[int], set[int], str]:
        """Before ``seat`` is down, the melds of this round's contract; once down, what fits the table."""
        full, part = hints.marks(self.state, seat)
        if self.state.ints[SI_DOWN_TURN_SEAT + seat]:
            return full, part, "* fits a table meld"
        return full, part, f"* in a meld of the contract ({notation.contract_words(self.number)}), + in a partial one"

    def seat_note(self, seat: int) -> str:
        """What else the others see of a seat: down or not, buys left."""
        return (", down" if self.state.ints[SI_DOWN_TURN_SEAT + seat] else "") + f", buys left {self._buys_left(seat)}"
