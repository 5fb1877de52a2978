"""A Gin Rummy game in play, move by move over the rules layer: the one driver of ``rummysim play`` and
``rummysim.env``.

``Game.reset(seed, game)`` deals what ``rummysim run --seed seed`` deals for game index ``game``, and
the calls follow the kernel's game loop (``kernel.play_games``): a game whose every move is
``bot_move`` is ``run``'s game, row for row. What each seat is known to hold (``known``: the cards it
took from the pile, until it throws them or lays them on the table) is the state's ``M_HELD`` masks,
kept by the rules layer: the only source of what the other seat is told of a hand.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...base.game import GameInPlay, MaskedHands
from ...base.summary import counted
from ...base.notation import seat_name
from ...engine import melds
from . import hints, kernel, moves, notation, policy, replay
from .state import (I_BEST_DEADWOOD, I_KNOCK_CARD, I_N_EV, I_PHASE, I_PILE_N, I_SEAT, I_STOCK_N, I_WINNER, M_HAND,
                    M_HELD, PH_DEFENDER_MELD, PH_DISCARD, PH_FIRST_UPCARD, PH_KNOCK_MELD, PH_LAYOFF, PH_OVER,
                    PH_WALL, R_GAME_TO, stock_view)

#: what a seat's pass ends, in people's words (the saved event's ``what``: ``replay.PASSED``)
PASS_WORDS = {"first_upcard": "on the first upcard", "wall": "with two cards left in the stock: no score",
              "melds": "and is done melding", "layoffs": "and is done laying off"}

#: event log rows between two reads (a move logs one)
EV_ROWS = 64


@njit(cache=True)
def step(state, move, legal):
    """Apply the legal ``move`` of the seat to act; then the legal moves of the next decision into
    ``legal`` int64[MAX_LEGAL]; returns their count (0 once over)."""
    moves.apply(state, move)
    if state.ints[I_PHASE] == PH_OVER:
        return 0
    return moves.legal_moves(state, legal)


@njit(cache=True)
def start(state, scratch, seed, game, hand, legal):
    """Deal hand ``hand`` of game ``game`` (``kernel.start_hand``: the deal and the policies' streams);
    the first decision's legal moves into ``legal``, returns the count."""
    kernel.start_hand(state, seed, game, hand, scratch[1])
    return moves.legal_moves(state, legal)


class Game(MaskedHands, GameInPlay):
    """A Gin Rummy game: hands until a seat reaches the game's target (docs/rules.md 4.8), as ``run`` plays
    it. ``rules`` int64[RULES_SIZE] (``GinRules.to_array``); ``log``: keep each move's events."""

    unit = "hand"
    first_unit = 0
    move_words = "take, pass, draw stock, discard D9, knock, meld H3 H4 H5, layoff D9"
    num_actions = moves.NUM_ACTIONS
    I_SEAT, I_PHASE, I_STOCK_N, I_PILE_N, I_WINNER = I_SEAT, I_PHASE, I_STOCK_N, I_PILE_N, I_WINNER
    M_HAND, M_HELD = M_HAND, M_HELD
    max_hands = kernel.MAX_HANDS_PER_GAME
    policy, notation, replay, hints, moves = policy, notation, replay, hints, moves
    row_cols, seat_cols = kernel.HAND_COLS, kernel.SEAT_COLS

    def __init__(self, players: int, rules: np.ndarray, log: bool = False):
        self.players, self.log = players, log
        ev = np.zeros((EV_ROWS if log else 0, moves.EV_WIDTH), dtype=np.int16)
        self.state = kernel.new_state(rules.copy(), melds.CARD_VALUE.copy(), ev)
        self.scratch = policy.new_scratch(self.state.rules, self.state.card_value)
        self.legal_buf = np.empty(moves.MAX_LEGAL, dtype=np.int64)
        self.n_legal = 0
        self.scores = np.zeros(players, dtype=np.int64)
        self.target = int(rules[R_GAME_TO])

    # ------------------------------------------------------------------ the game
    def _deal(self) -> None:
        self.n_legal = start(self.state, self.scratch, self.seed, self.game, self.number, self.legal_buf)
        self.first = self.seat

    def _apply(self, move: int) -> int:
        return int(step(self.state, move, self.legal_buf))

    def _events(self) -> list[dict]:
        return replay.decode_events(self.state.ev, int(self.state.ints[I_N_EV]))

    def _clear_events(self) -> None:
        self.state.ints[I_N_EV] = 0

    def _stock(self) -> np.ndarray:
        return stock_view(self.state)

    def _result_rows(self, row: np.ndarray, seats: np.ndarray) -> None:
        kernel.result_rows(self.state, row, seats)

    def game_row(self) -> np.ndarray:
        """int32[1, 4]: winner (-1 for a game stopped early), hands, final scores with the game's bonuses."""
        wins = np.zeros(2, dtype=np.int64)
        for row in self.rows:
            if row[kernel.H_WINNER] >= 0:
                wins[row[kernel.H_WINNER]] += 1
        totals = np.zeros(2, dtype=np.int64)
        kernel.game_totals(self.state.rules, self.scores.astype(np.int64), wins, self.winner(), totals)
        return np.array([[self.winner(), self.number, *totals]], dtype=np.int32)

    # ------------------------------------------------------------------ what a seat may see (``MaskedHands``)
    def _check_cards(self) -> None:
        moves.check_cards(self.state)

    def event_line(self, e: dict, who, you: int) -> str | None:
        """Gin's own moves as lines (a knock, a pass); the rest as every variant says them."""
        kind, p = e["event"], e.get("player")
        name, s = (who(p), "s" * (p != you)) if p is not None else ("", "")
        if kind == "knock":
            return f"{name} knock{s}"
        if kind == "pass":
            words = PASS_WORDS.get(e.get("what"), "")
            if p == you:
                words = words.replace(" is ", " are ")
            return f"{name} pass{'es' * (p != you)}" + (f" {words}" if words else "")
        if kind == "layoff":
            return f"{name} lay{s} off {e['card']}"
        return super().event_line(e, who, you)

    def went_out(self, e: dict, who) -> str:
        """Who won the hand, how, and its points."""
        how = "big gin" if e.get("big_gin") else "gin" if e.get("gin") else "an undercut" if e.get("undercut") else "the knock"
        return f"{who(e['winner'])} won the hand by {how}: {counted(e['points'], 'points')}"

    def heading(self) -> str:
        """The hand's title, numbered as ``rummysim replay --hand`` numbers it (from 0)."""
        return f"Gin Rummy, hand {self.number}"

    # ------------------------------------------------------------------ what the person is told
    def _deadwood(self, seat: int) -> tuple[int, int]:
        """``(least deadwood, value of every card)`` of ``seat``'s hand (docs/rules.md 4.2)."""
        hand = int(self.state.masks[M_HAND + seat])
        value = int(melds.mask_value(np.uint64(hand), self.state.card_value))
        return (int(moves.deadwood(self.state, np.uint64(hand))) if hand else 0), value

    def counters(self, seat: int) -> str:
        """The stock and pile, and the seat's deadwood against the knock card."""
        return (super().counters(seat) + f"; your deadwood {self._deadwood(seat)[0]}, knock card "
                f"{int(self.state.ints[I_KNOCK_CARD])}")

    def step(self, who=seat_name) -> str:
        """What the seat to act may do now, naming only what is legal: knocking and big gin where they
        are; in a meld step what passing now scores."""
        phase, legal = int(self.state.ints[I_PHASE]), set(int(a) for a in self.legal())
        if phase == PH_DISCARD:
            knock = (f", or knock (your deadwood after the best discard: {int(self.state.ints[I_BEST_DEADWOOD])})"
                     if moves.KNOCK in legal else "")
            return "discard a card" + knock + (", or big gin" if moves.BIG_GIN in legal else "")
        if phase in (PH_KNOCK_MELD, PH_DEFENDER_MELD):
            least, value = self._deadwood(self.seat)
            who_melds = "you knocked: meld" if phase == PH_KNOCK_MELD else "meld"
            return (f"{who_melds} (your best melds are offered), or pass: the cards left in your hand count as "
                    f"deadwood ({value} now; {least} after your best melds)")
        if phase == PH_WALL and moves.KNOCK not in legal:
            return "two cards left in the stock: pass (no score)"
        return super().step(who)

    def suggested(self, seat: int) -> list[int]:
        """The meld moves of the best arrangement of ``seat``'s hand in a meld step (offered before
        "pass" with nothing selected): the disjoint legal melds of the most value; else none."""
        if seat != self.seat or int(self.state.ints[I_PHASE]) not in (PH_KNOCK_MELD, PH_DEFENDER_MELD):
            return []
        options = [(int(a), int(moves.MELD_TABLE[a - moves.MELD_BASE])) for a in self.legal()
                   if moves.MELD_BASE <= a < moves.BIG_GIN]
        worth = {a: int(melds.mask_value(np.uint64(m), self.state.card_value)) for a, m in options}
        best: tuple[int, list[int]] = (0, [])

        def walk(i: int, used: int, value: int, chosen: list[int]) -> None:
            nonlocal best
            if value > best[0]:
                best = (value, list(chosen))
            for j in range(i, len(options)):
                a, m = options[j]
                if not m & used:
                    walk(j + 1, used | m, value + worth[a], chosen + [a])

        walk(0, 0, 0, [])
        return best[1]
