"""Gin Rummy's rule options (docs/rules.md 4.9): ``GinRules`` with every option and its default (OpenSpiel's
``gin_rummy`` for a hand, Hoyle's game as options), each option's allowed values (``ALLOWED``,
``convert``), and the packing for the kernels."""

from __future__ import annotations

import dataclasses

import numpy as np

from ...base.rules import boolean, integer, rule_digest
from . import state as S


@dataclasses.dataclass(frozen=True)
class GinRules:
    """Gin Rummy options (rules.md 4.9)."""

    knock_card: int = 10
    gin_bonus: int = 25
    undercut_bonus: int = 25
    oklahoma: bool = False
    hand_size: int = 10
    big_gin_bonus: int = 0
    game_to: int = 100
    line_bonus: int = 0
    game_bonus: int = 0
    shutout: bool = False
    tie_undercut: bool = False

    def as_dict(self, players: int) -> dict:
        """Canonical form: printed in results and reports."""
        return dataclasses.asdict(self)

    def digest(self, players: int) -> str:
        """Short hash of the canonical rules and the rules version (the "rule hash")."""
        return rule_digest(self.as_dict(players))

    def check_players(self, players: int) -> None:
        """Gin is played by two (rules 4.1): the variant's player range says so already."""

    def to_array(self, players: int) -> np.ndarray:
        """int64[RULES_SIZE] rule vector for the kernels (``state.R_*``)."""
        r = np.zeros(S.RULES_SIZE, dtype=np.int64)
        r[S.R_KNOCK_CARD] = self.knock_card
        r[S.R_GIN_BONUS] = self.gin_bonus
        r[S.R_UNDERCUT_BONUS] = self.undercut_bonus
        r[S.R_OKLAHOMA] = int(self.oklahoma)
        r[S.R_HAND_SIZE] = self.hand_size
        r[S.R_BIG_GIN_BONUS] = self.big_gin_bonus
        r[S.R_GAME_TO] = self.game_to
        r[S.R_LINE_BONUS] = self.line_bonus
        r[S.R_GAME_BONUS] = self.game_bonus
        r[S.R_SHUTOUT] = int(self.shutout)
        r[S.R_TIE_UNDERCUT] = int(self.tie_undercut)
        return r


#: the bounds of each integer option (kept inside the kernels' integers)
_RANGE = {"knock_card": (0, 10), "gin_bonus": (0, 1000), "undercut_bonus": (0, 1000), "hand_size": (1, 10),
          "big_gin_bonus": (0, 1000), "game_to": (1, 100_000), "line_bonus": (0, 1000), "game_bonus": (0, 10_000)}
_FLAGS = ("oklahoma", "shutout", "tie_undercut")

ALLOWED = {**{key: f"an integer from {low:,} to {high:,}" for key, (low, high) in _RANGE.items()},
           **{key: "true or false" for key in _FLAGS}}
ALLOWED["big_gin_bonus"] += " (0: no big gin)"


def convert(key: str, value) -> object:
    """The value of option ``key`` from a string or TOML value; ``RuleError`` naming what is allowed."""
    if key in _FLAGS:
        return boolean(value, key, ALLOWED)
    return integer(value, key, *_RANGE[key], ALLOWED, signed=False)
