"""Rule options of Basic Rummy (rules.md 1.7) and their packing for the kernels.

``BasicRules`` holds every option with its default; ``parse_rule_options``
turns ``key=value`` strings (``--rule reshuffles=0``) or a TOML rules file into
one, with a one-line ``RuleError`` for anything unknown or out of range.
``RULES_VERSION`` changes whenever the engine's behaviour under some rules
changes (never for a speed-up); results record it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import tomllib
from pathlib import Path

import numpy as np

from .core import state as S

RULES_VERSION = 1
TARGET_BY_PLAYERS = {2: 100, 3: 150, 4: 200}
RESHUFFLE_MODES = ("shuffle_all", "keep_top", "turn_over")
ACE_MODES = ("low", "high_or_low")


class RuleError(ValueError):
    """A rule option the user gave is unknown or has a bad value."""


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

    def to_array(self, players: int) -> np.ndarray:
        """int64[RULES_SIZE] rule vector for the kernels (``core.state.R_*``)."""
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
MAX_TURN_LIMIT = 100_000

_ALLOWED = {
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
        raise RuleError(f"rule {key}={value!r}: allowed {_ALLOWED[key]}")
    if not minimum <= n <= _MAXIMUM[key]:
        raise RuleError(f"rule {key}={value!r}: allowed {_ALLOWED[key]}")
    return n


def _convert(key: str, value) -> object:
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
            raise RuleError(f"rule {key}={value!r}: allowed {_ALLOWED[key]}")
        return text
    if key == "must_discard_to_go_out":
        if text in ("true", "1", "yes"):
            return True
        if text in ("false", "0", "no"):
            return False
        raise RuleError(f"rule {key}={value!r}: allowed {_ALLOWED[key]}")
    return _to_int(value, key, 1)


def rules_from_mapping(options: dict, source: str = "rule") -> BasicRules:
    """Build ``BasicRules`` from a mapping of option names to values (strings or TOML values)."""
    values = {}
    for key, value in options.items():
        if key not in _ALLOWED:
            raise RuleError(f"{source}: unknown rule option {key!r}; allowed: {', '.join(_ALLOWED)}")
        try:
            values[key] = _convert(key, value)
        except RuleError as e:
            raise RuleError(str(e) if source == "rule" else f"{source}: {e}") from None
    return BasicRules(**values)


def rule_flags(rules: dict, players: int) -> list[str]:
    """``--rule key=value`` flags for the options of a canonical rules dict (``BasicRules.as_dict``)
    that differ from the defaults for ``players``: what a command line needs to reproduce them."""
    defaults = BasicRules().as_dict(players)
    return [f"--rule {key}={str(value).lower() if isinstance(value, bool) else value}"
            for key, value in rules.items() if defaults.get(key) != value]


def parse_rule_options(pairs: tuple[str, ...] | list[str] = (), rules_file: str | Path | None = None) -> BasicRules:
    """Rules from an optional TOML file, then ``key=value`` overrides in order."""
    options: dict = {}
    if rules_file is not None:
        path = Path(rules_file)
        try:
            data = tomllib.loads(path.read_text())
        except OSError as e:
            raise RuleError(f"rules file {path}: cannot read it ({e.strerror})") from None
        except tomllib.TOMLDecodeError as e:
            raise RuleError(f"rules file {path}: not valid TOML ({e})") from None
        data = data.get("rules", data)
        if not isinstance(data, dict):
            raise RuleError(f"rules file {path}: 'rules' must be a table of options (e.g. [rules] reshuffles = 0)")
        rules_from_mapping(data, f"rules file {path}")
        options.update(data)
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise RuleError(f"rule option {pair!r}: write it as key=value, e.g. reshuffles=0")
        options[key.strip()] = value.strip()
    return rules_from_mapping(options)
