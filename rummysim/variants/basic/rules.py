"""Basic Rummy's rule options (docs/rules.md 1.7): ``BasicRules`` with every option and its default,
each option's allowed values and bounds (``ALLOWED``, ``convert``), and the packing for the kernels."""

from __future__ import annotations

import dataclasses
import hashlib
import json

import numpy as np

from ...base.errors import RuleError
from ...base.rules import ACE_MODES, MAX_TURN_LIMIT, RULES_VERSION
from . import state as S

TARGET_BY_PLAYERS = {2: 100, 3: 150, 4: 200}
RESHUFFLE_MODES = ("shuffle_all", "keep_top", "turn_over")


@dataclasses.dataclass(frozen=True)
class BasicRules:
    """Basic Rummy options (rules.md 1.7). ``None`` means "unlimited" or "by players"."""

    max_melds_per_turn: int | None = None
    ace: str = "low"
    reshuffles: int | None = 1
    reshuffle_mode: str = "shuffle_all"
    must_discard_to_go_out: bool = False
    rummy_multiplier: int = 2
    target: int | None = None
    turn_limit: int = 1000

    def target_for(self, players: int) -> int:
        return self.target if self.target is not None else TARGET_BY_PLAYERS[players]

    def as_dict(self, players: int) -> dict:
        """Canonical form, with the target resolved for ``players``: printed in results and reports."""
        d = dataclasses.asdict(self)
        d["target"] = self.target_for(players)
        d["max_melds_per_turn"] = "unlimited" if self.max_melds_per_turn is None else self.max_melds_per_turn
        d["reshuffles"] = "unlimited" if self.reshuffles is None else self.reshuffles
        return d

    def digest(self, players: int) -> str:
        """Short hash of the canonical rules and the rules version (the "rule hash")."""
        text = json.dumps({"version": RULES_VERSION, **self.as_dict(players)}, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    def check_players(self, players: int) -> None:
        """One deck deals every table of 2-4 players with a stock to spare (1.1): nothing to check."""

    def to_array(self, players: int) -> np.ndarray:
        """int64[RULES_SIZE] rule vector for the kernels (``state.R_*``)."""
        r = np.zeros(S.RULES_SIZE, dtype=np.int64)
        r[S.R_MAX_MELDS] = self.max_melds_per_turn or 0
        r[S.R_ACE_HIGH] = int(self.ace == "high_or_low")
        r[S.R_RESHUFFLES] = -1 if self.reshuffles is None else self.reshuffles
        r[S.R_RESHUFFLE_MODE] = RESHUFFLE_MODES.index(self.reshuffle_mode)
        r[S.R_MUST_DISCARD] = int(self.must_discard_to_go_out)
        r[S.R_RUMMY_MULT] = self.rummy_multiplier
        r[S.R_TARGET] = self.target_for(players)
        r[S.R_TURN_LIMIT] = self.turn_limit
        return r


#: upper bounds that keep every score and count inside the kernels' integers
MAX_RESHUFFLES = 10_000
MAX_RUMMY_MULTIPLIER = 1_000
MAX_TARGET = 1_000_000

ALLOWED = {
    "max_melds_per_turn": "'unlimited' or 1",
    "ace": "'low' or 'high_or_low'",
    "reshuffles": f"0 to {MAX_RESHUFFLES:,} or 'unlimited'",
    "reshuffle_mode": "'shuffle_all', 'keep_top' or 'turn_over'",
    "must_discard_to_go_out": "true or false",
    "rummy_multiplier": f"an integer from 1 to {MAX_RUMMY_MULTIPLIER:,}",
    "target": f"an integer from 1 to {MAX_TARGET:,}",
    "turn_limit": f"an integer from 1 to {MAX_TURN_LIMIT:,}",
}
_MAXIMUM = {"reshuffles": MAX_RESHUFFLES, "rummy_multiplier": MAX_RUMMY_MULTIPLIER, "target": MAX_TARGET,
            "turn_limit": MAX_TURN_LIMIT, "max_melds_per_turn": 1}


def _to_int(value, key: str, minimum: int) -> int:
    """An integer >= ``minimum`` from a TOML int or a string of digits."""
    if isinstance(value, int) and not isinstance(value, bool):
        n = value
    elif isinstance(value, str) and value.strip().isdigit():
        n = int(value)
    else:
        raise RuleError(f"rule {key}={value!r}: allowed {ALLOWED[key]}")
    if not minimum <= n <= _MAXIMUM[key]:
        raise RuleError(f"rule {key}={value!r}: allowed {ALLOWED[key]}")
    return n


def convert(key: str, value) -> object:
    """The value of option ``key`` from a string or TOML value; ``RuleError`` naming what is allowed."""
    text = str(value).strip().lower()
    if key == "max_melds_per_turn":
        if text == "unlimited":
            return None
        return _to_int(value, key, 1)
    if key == "reshuffles":
        return None if text == "unlimited" else _to_int(value, key, 0)
    if key in ("ace", "reshuffle_mode"):
        choices = ACE_MODES if key == "ace" else RESHUFFLE_MODES
        if text not in choices:
            raise RuleError(f"rule {key}={value!r}: allowed {ALLOWED[key]}")
        return text
    if key == "must_discard_to_go_out":
        if text in ("true", "1", "yes"):
            return True
        if text in ("false", "0", "no"):
            return False
        raise RuleError(f"rule {key}={value!r}: allowed {ALLOWED[key]}")
    return _to_int(value, key, 1)
