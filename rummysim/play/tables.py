"""One game at the table, per variant, through the rules layer: deal, the seat to act, the bots' move,
apply, the events, the result rows. The same calls in the same order as the kernels' game loops
(``basic.kernel.play_games``, ``shanghai.kernel.play_games``), so a game whose every move is the
seat's strategy's is the game ``run`` records for that seed (game index ``GAME``).
"""

from __future__ import annotations

import numpy as np

from ..cards import card_id, cards_of
from ..results import Chunk
from .hints import basic_marks, basic_reason, shanghai_marks, shanghai_reason
from ..variants.basic import bots as BB
from ..variants.basic import kernel as BK
from ..variants.basic import melds as BM
from ..variants.basic import moves as BMV
from ..variants.basic import notation as BN
from ..variants.basic import replay as BR
from ..variants.basic.state import I_PHASE as B_PHASE
from ..variants.basic.state import I_PILE_N as B_PILE_N
from ..variants.basic.state import I_SEAT as B_SEAT
from ..variants.basic.state import I_STOCK_N as B_STOCK_N
from ..variants.basic.state import M_HAND as B_HAND
from ..variants.basic.state import R_TARGET
from ..variants.shanghai import bots as SB
from ..variants.shanghai import kernel as SK
from ..variants.shanghai import moves as SMV
from ..variants.shanghai import notation as SN
from ..variants.shanghai import replay as SR
from ..variants.shanghai.state import (I_PROPOSAL_N, ROUNDS, SI_BUYS_SEAT, SI_DOWN_TURN_SEAT, SI_PILE_N, SI_STOCK_N,
                                       SR_MAX_BUYS)
from ..variants.shanghai.state import I_PHASE as S_PHASE
from ..variants.shanghai.state import I_SEAT as S_SEAT

#: the game index a played game has: ``rummysim run --games 1`` plays game 0 too
GAME = 0
#: event log rows between two reads (a move logs a few; a Basic reshuffle one row)
EV_ROWS = 64


class BasicTable:
    """Basic Rummy: hands until a seat reaches the target (docs/rules.md 1.6), as ``play_games``."""

    unit = "hand"
    first_unit = 0

    def __init__(self, seed: int, players: int, rules: np.ndarray, params: np.ndarray):
        self.seed, self.players, self.params = seed, players, params
        self.state = BK.new_state(players, rules, BM.CARD_VALUE, np.zeros((EV_ROWS, BMV.EV_WIDTH), dtype=np.int16),
                                  np.zeros(1, dtype=np.int64))
        self.scratch = BB.new_scratch(players)
        self.target = int(rules[R_TARGET])
        self.totals = np.zeros(players, dtype=np.int64)
        self.number = 0                      # the hand being played (or next)
        self.rows, self.seat_rows = [], []

    def start(self) -> dict:
        """Deal the next hand; returns its ``deal`` event."""
        first = BK.start_hand(self.state, self.seed, GAME, self.number, self.scratch[5])
        self.state.n_ev[0] = 0
        return BR.deal_event(self.state, self.players, (first + self.players - 1) % self.players)

    def seat(self) -> int:
        return int(self.state.ints[B_SEAT])

    def forced(self) -> int:
        """The draw that is no choice (the driver plays it without asking), else -1."""
        return int(BMV.forced_move(self.state))

    def choose(self, seat: int) -> int:
        return int(BB.choose(self.state, self.params, seat, self.scratch))

    def marks(self, seat: int) -> tuple[set[int], set[int]]:
        return basic_marks(self.state, seat)

    # what the seat sees (render)
    def heading(self) -> str:
        return f"Basic Rummy, hand {self.number + 1}"

    def goal(self) -> str:
        return f"first to {self.target}"

    def step(self) -> str:
        return BN.STEPS[int(self.state.ints[B_PHASE])]

    def table_lines(self) -> list[str]:
        return BN.table_lines(self.state)

    def upcard(self) -> int:
        return BN.upcard(self.state)

    def counters(self, seat: int) -> str:
        return f"stock {int(self.state.ints[B_STOCK_N])}, pile {int(self.state.ints[B_PILE_N])}"

    def count(self, seat: int) -> int:
        return int(self.state.masks[B_HAND + seat]).bit_count()

    def hand(self, seat: int) -> dict[int, int]:
        return dict.fromkeys(cards_of(self.state.masks[B_HAND + seat]), 1)

    def seat_note(self, seat: int) -> str:
        """What else the others see of a seat (Shanghai: down or not, buys left)."""
        return ""

    def taken(self) -> dict[int, list[int]]:
        """Per seat, the cards it took from the pile this hand and still holds."""
        return {q: cards_of(BN.taken_unshown(self.state, q)) for q in range(self.players)}

    def reason(self, seat: int, move: int) -> str:
        return basic_reason(self.state, seat, move)

    def keep(self):
        """What ``restore`` needs to apply a move chosen earlier this decision: nothing in Basic."""

    def restore(self, kept) -> None:
        pass

    def apply(self, move: int) -> list[dict]:
        """Play ``move`` (legal) and what follows; returns the events it logged."""
        BMV.apply(self.state, move)
        events = BR.decode_events(self.state.ev, int(self.state.n_ev[0]))
        self.state.n_ev[0] = 0
        return events

    def over(self) -> bool:
        return bool(BMV.is_over(self.state))

    def finish(self) -> dict:
        """The hand is over: its rows kept, the scores added; returns its ``end`` event."""
        row = np.zeros(BK.HAND_COLS, dtype=np.int32)
        seats = np.zeros((self.players, BK.SEAT_COLS), dtype=np.int32)
        BK.result_rows(self.state, row, seats)
        points = np.zeros(self.players, dtype=np.int64)
        BMV.scores(self.state, points)
        self.totals += points
        self.rows.append(row)
        self.seat_rows.append(seats)
        self.number += 1
        return BR.end_event(row, self.state.masks, self.players)

    def winner(self) -> int:
        """The seat that reached the target (the first of the highest), else -1."""
        top = int(np.argmax(self.totals))
        return top if self.totals[top] >= self.target else -1

    def game_over(self) -> bool:
        return self.winner() >= 0 or self.number >= BK.MAX_HANDS_PER_GAME

    def chunk(self) -> Chunk:
        """The game's rows as ``run`` writes them (a game stopped early has winner -1)."""
        game_row = np.array([[self.winner(), self.number, *self.totals]], dtype=np.int32)
        return Chunk(np.array(self.rows, dtype=np.int32).reshape(-1, BK.HAND_COLS),
                     np.array(self.seat_rows, dtype=np.int32).reshape(-1, self.players, BK.SEAT_COLS),
                     np.array([GAME], dtype=np.int64), game_row)


class ShanghaiTable:
    """Shanghai Rummy: the ten contract rounds (docs/rules.md 2.1), as ``play_games``."""

    unit = "round"
    first_unit = 1

    def __init__(self, seed: int, players: int, rules: np.ndarray, params: np.ndarray):
        self.seed, self.players, self.params = seed, players, params
        self.state = SMV.new_state(players, rules, np.zeros((EV_ROWS, SMV.EV_WIDTH), dtype=np.int16))
        self.scratch = SB.new_scratch(players)
        self.totals = np.zeros(players, dtype=np.int64)
        self.number = 1
        self.rows, self.seat_rows = [], []
        self.table_kinds: dict = {}
        self.took: dict[int, list[int]] = {}

    def start(self) -> dict:
        first = SK.start_round(self.seed, GAME, self.number, self.state, self.scratch)
        self.table_kinds = {}
        self.took = {q: [] for q in range(self.players)}
        return SR.deal_event(self.state, self.players, (first + self.players - 1) % self.players)

    def seat(self) -> int:
        return int(self.state.ints[S_SEAT])

    def forced(self) -> int:
        return -1   # the kernel asks the policy at every decision

    def choose(self, seat: int) -> int:
        return int(SB.choose(self.state, self.params, seat, self.scratch))

    def marks(self, seat: int) -> tuple[set[int], set[int]]:
        return shanghai_marks(self.state, seat)

    # what the seat sees (render)
    def heading(self) -> str:
        return f"Shanghai Rummy, round {self.number} of 10: contract {SN.contract_words(self.number)}"

    def goal(self) -> str:
        return "penalty points: lowest wins"

    def step(self) -> str:
        return SN.STEPS[int(self.state.ints[S_PHASE])]

    def table_lines(self) -> list[str]:
        return SN.table_lines(self.state)

    def upcard(self) -> int:
        return SN.upcard(self.state)

    def counters(self, seat: int) -> str:
        ints = self.state.ints
        left = int(self.state.rules[SR_MAX_BUYS]) - int(ints[SI_BUYS_SEAT + seat])
        return f"stock {int(ints[SI_STOCK_N])}, pile {int(ints[SI_PILE_N])}; your buys left: {left}"

    def count(self, seat: int) -> int:
        return int(self.state.hands[seat].sum())

    def hand(self, seat: int) -> dict[int, int]:
        return {c: int(n) for c, n in enumerate(self.state.hands[seat]) if n}

    def seat_note(self, seat: int) -> str:
        ints = self.state.ints
        left = int(self.state.rules[SR_MAX_BUYS]) - int(ints[SI_BUYS_SEAT + seat])
        return (", down" if ints[SI_DOWN_TURN_SEAT + seat] else "") + f", buys left {left}"

    def reason(self, seat: int, move: int) -> str:
        return shanghai_reason(self.state, seat, move)

    def keep(self):
        """The proposal buffer (the laying a ``CONTRACT`` chosen now lays), to put back with ``restore``."""
        return self.state.melds.copy(), int(self.state.ints[I_PROPOSAL_N])

    def restore(self, kept) -> None:
        self.state.melds[:], self.state.ints[I_PROPOSAL_N] = kept

    def apply(self, move: int) -> list[dict]:
        SMV.apply(self.state, move)
        events = SR.decode_events(self.state.ev, int(self.state.n_ev[0]), self.table_kinds)
        self.state.n_ev[0] = 0
        for e in events:
            self._follow(e)
        return events

    def _follow(self, e: dict) -> None:
        """Keep each seat's cards taken from the pile (upcards, bought ones) until it shows them."""
        p = e.get("player")
        took = self.took.get(p)
        if took is None:
            return
        if e["event"] in ("buy", "draw") and (e["event"] == "buy" or e["source"] == "discard"):
            took.append(card_id(e["card"], allow_joker=True))
            return
        shown = [c for m in e.get("melds", []) for c in m] + ([e["card"]] if "card" in e else [])
        for name in shown:
            c = card_id(name, allow_joker=True)
            if c in took:
                took.remove(c)

    def taken(self) -> dict[int, list[int]]:
        return self.took

    def over(self) -> bool:
        return bool(SMV.is_over(self.state))

    def finish(self) -> dict:
        row = np.zeros(SK.ROUND_COLS, dtype=np.int32)
        seats = np.zeros((self.players, SK.SEAT_COLS), dtype=np.int32)
        SK.fill_rows(self.state, row, seats)
        self.totals += seats[:, SK.SS_SCORE]
        self.rows.append(row)
        self.seat_rows.append(seats)
        self.number += 1
        return SR.end_event(row, seats, self.state.hands)

    def game_over(self) -> bool:
        return self.number > ROUNDS

    def chunk(self) -> Chunk:
        return Chunk(np.array(self.rows, dtype=np.int32).reshape(-1, SK.ROUND_COLS),
                     np.array(self.seat_rows, dtype=np.int32).reshape(-1, self.players, SK.SEAT_COLS),
                     np.array([GAME], dtype=np.int64), self.totals.astype(np.int32)[None, :])


TABLES = {"basic": BasicTable, "shanghai": ShanghaiTable}
