"""What every variant's game in play (``rummysim/variants/<name>/game.py``, ``Variant.game``) does the
same way: the game's start, dealing the next unit, the seat to act and its legal moves, the seat's
policy, and the seat's view in words. A subclass names its variant's modules (``rules_modules``:
policy, notation, replay) and state slots (``I_SEAT``, ``I_PHASE``) and deals with ``_deal``."""

from __future__ import annotations

import numpy as np


class GameInPlay:
    """Base of a variant's ``Game``; see the variant's module for the calls that differ."""

    first_unit = 0
    I_SEAT = I_PHASE = -1          # the state's slots (``ints``) of the seat to act and its decision
    policy = notation = replay = hints = None   # the variant's modules

    def reset(self, seed: int, game: int) -> None:
        """Game ``game`` of ``seed`` from its start: its first hand (round) dealt."""
        self.seed, self.game = seed, game
        self.scores[:] = 0
        self.number = self.first_unit          # the hand (round) in play
        self.rows, self.seat_rows = [], []     # the finished units' result rows
        self._deal()

    def next_unit(self) -> None:
        """Deal the next hand (round), after ``finish``."""
        self._deal()

    def deal_event(self) -> dict:
        return self.replay.deal_event(self.state, self.players, (self.first + self.players - 1) % self.players)

    @property
    def seat(self) -> int:
        """The seat to act."""
        return int(self.state.ints[self.I_SEAT])

    def legal(self) -> np.ndarray:
        """The legal moves of the seat to act (int64, in ``legal_moves`` order; empty once the unit is over)."""
        return self.legal_buf[:self.n_legal]

    def choose(self, params: np.ndarray, seat: int) -> int:
        """The move the seat's policy (``params`` float64[players, N]) chooses now (Shanghai, a
        ``CONTRACT``: its laying in the proposal buffer, see ``keep``)."""
        return int(self.policy.choose(self.state, params, seat, self.scratch))

    @property
    def unit_over(self) -> bool:
        """The hand (round) in play has ended (``finish`` it)."""
        return self.n_legal == 0

    def describe(self, seat: int) -> str:
        """What ``seat`` sees, as text (its notation's ``describe``)."""
        return self.notation.describe(self.state, seat, totals=self.scores, taken=self.taken())

    def step(self) -> str:
        return self.notation.STEPS[int(self.state.ints[self.I_PHASE])]

    def table_lines(self) -> list[str]:
        return self.notation.table_lines(self.state)

    def upcard(self) -> int:
        return self.notation.upcard(self.state)
