"""Shanghai Rummy's rule options (docs/rules.md 2.8): ``ShanghaiRules`` with every option and its
default, each option's allowed values and bounds (``ALLOWED``, ``convert``), and the packing for the
kernels."""

from __future__ import annotations

import dataclasses
import hashlib
import json

import numpy as np

from ...base.errors import RuleError
from ...base.rules import ACE_MODES, MAX_TURN_LIMIT, RULES_VERSION
from . import state as SS


@dataclasses.dataclass(frozen=True)
class ShanghaiRules:
    """Shanghai Rummy options (rules.md 2.8). ``None`` means "by the number of players"."""

    jokers: int | None = None
    decks: int | None = None
    max_buys: int = 4
    layoff_on_contract_turn: bool = False
    joker_swap: bool | str = True   # True, False or "anyone" (ruling 3.8)
    ace: str = "high_or_low"
    must_discard_to_go_out: bool = False
    one_turn_bonus: tuple[int, int] = (-25, -50)
    turn_limit: int = 2000

    def decks_for(self, players: int) -> int:
        return self.decks if self.decks is not None else (2 if players <= 4 else 3)

    def jokers_for(self, players: int) -> int:
        return self.jokers if self.jokers is not None else (1 if players <= 4 else 2)

    def as_dict(self, players: int) -> dict:
        """Canonical form, decks and jokers resolved for ``players``."""
        d = dataclasses.asdict(self)
        d["decks"] = self.decks_for(players)
        d["jokers"] = self.jokers_for(players)
        d["one_turn_bonus"] = list(self.one_turn_bonus)
        return d

    def digest(self, players: int) -> str:
        text = json.dumps({"version": RULES_VERSION, "variant": "shanghai", **self.as_dict(players)}, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    def check_players(self, players: int) -> None:
        """Enough cards to deal 11 to everyone, turn an upcard and leave a stock (2.1)."""
        total = 52 * self.decks_for(players) + self.jokers_for(players)
        if total < 11 * players + 2:
            raise RuleError(f"rules decks={self.decks_for(players)}, jokers={self.jokers_for(players)}: "
                            f"{total} cards, but {players} players need at least {11 * players + 2}")

    def to_array(self, players: int) -> np.ndarray:
        """int64[SR_SIZE] rule vector for the kernels (``state.SR_*``)."""
        r = np.zeros(SS.SR_SIZE, dtype=np.int64)
        r[SS.SR_DECKS] = self.decks_for(players)
        r[SS.SR_JOKERS] = self.jokers_for(players)
        r[SS.SR_MAX_BUYS] = self.max_buys
        r[SS.SR_LAYOFF_ON_CONTRACT_TURN] = int(self.layoff_on_contract_turn)
        r[SS.SR_JOKER_SWAP] = (SS.JOKER_SWAP_ANYONE if self.joker_swap == "anyone"
                               else SS.JOKER_SWAP_DOWN if self.joker_swap else SS.JOKER_SWAP_OFF)
        r[SS.SR_ACE_HIGH] = int(self.ace == "high_or_low")
        r[SS.SR_MUST_DISCARD] = int(self.must_discard_to_go_out)
        r[SS.SR_BONUS], r[SS.SR_BONUS_NO_JOKER] = self.one_turn_bonus
        r[SS.SR_TURN_LIMIT] = self.turn_limit
        return r


MAX_DECKS = 8
MAX_JOKERS = 4   # the exact contract solver's table of candidate runs is sized for this many
MAX_BUYS = 100
MAX_BONUS = 1_000
ALLOWED = {
    "jokers": f"an integer from 0 to {MAX_JOKERS}",
    "decks": f"an integer from 1 to {MAX_DECKS}",
    "max_buys": f"an integer from 0 to {MAX_BUYS} (0 disables buying)",
    "layoff_on_contract_turn": "true or false",
    "joker_swap": "true (players who have gone down), false or 'anyone' (ruling 3.8)",
    "ace": "'low' or 'high_or_low'",
    "must_discard_to_go_out": "true or false",
    "one_turn_bonus": f"two integers from -{MAX_BONUS:,} to {MAX_BONUS:,}, with jokers/without, e.g. -25/-50",
    "turn_limit": f"an integer from 1 to {MAX_TURN_LIMIT:,}",
}
_SHANGHAI_RANGE = {"jokers": (0, MAX_JOKERS), "decks": (1, MAX_DECKS), "max_buys": (0, MAX_BUYS),
                   "turn_limit": (1, MAX_TURN_LIMIT)}


def _integer(value, key: str, low: int, high: int) -> int:
    """An integer in ``[low, high]`` from a TOML int or a string (signs allowed)."""
    try:
        n = value if isinstance(value, int) and not isinstance(value, bool) else int(str(value).strip())
    except ValueError:
        n = None
    if n is None or isinstance(value, bool) or not low <= n <= high:
        raise RuleError(f"rule {key}={value!r}: allowed {ALLOWED[key]}")
    return n


def convert(key: str, value) -> object:
    """The value of option ``key`` from a string or TOML value; ``RuleError`` naming what is allowed."""
    text = str(value).strip().lower()
    if key in _SHANGHAI_RANGE:
        return _integer(value, key, *_SHANGHAI_RANGE[key])
    if key == "ace":
        if text not in ACE_MODES:
            raise RuleError(f"rule {key}={value!r}: allowed {ALLOWED[key]}")
        return text
    if key == "joker_swap" and text == "anyone":
        return text
    if key == "one_turn_bonus":
        parts = list(value) if isinstance(value, (list, tuple)) else str(value).split("/")
        if len(parts) != 2:
            raise RuleError(f"rule {key}={value!r}: allowed {ALLOWED[key]}")
        return tuple(_integer(v, key, -MAX_BONUS, MAX_BONUS) for v in parts)
    if text in ("true", "1", "yes"):
        return True
    if text in ("false", "0", "no"):
        return False
    raise RuleError(f"rule {key}={value!r}: allowed {ALLOWED[key]}")
