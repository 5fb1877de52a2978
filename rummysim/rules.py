"""Rule options of Basic Rummy (docs/rules.md 1.7) and Shanghai Rummy (2.8) and their packing for the kernels.

``BasicRules`` and ``ShanghaiRules`` hold every option with its default; ``parse_rule_options``
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

from .variants.basic import state as S

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


def rules_from_mapping(options: dict, source: str = "rule", variant: str = "basic"):
    """Build ``BasicRules`` (or ``ShanghaiRules``) from a mapping of option names to values
    (strings or TOML values)."""
    allowed = _ALLOWED if variant == "basic" else _SHANGHAI_ALLOWED
    convert = _convert if variant == "basic" else _convert_shanghai
    values = {}
    for key, value in options.items():
        if key not in allowed:
            which = " of Shanghai" if variant == "shanghai" else ""
            raise RuleError(f"{source}: unknown rule option {key!r}{which}; allowed: {', '.join(allowed)}")
        try:
            values[key] = convert(key, value)
        except RuleError as e:
            raise RuleError(str(e) if source == "rule" else f"{source}: {e}") from None
    return BasicRules(**values) if variant == "basic" else ShanghaiRules(**values)


def rule_flags(rules: dict, players: int, variant: str = "basic") -> list[str]:
    """``--rule key=value`` flags for the options of a canonical rules dict (``as_dict``)
    that differ from the defaults for ``players``: what a command line needs to reproduce them."""
    defaults = (BasicRules() if variant == "basic" else ShanghaiRules()).as_dict(players)

    def text(value):
        if isinstance(value, bool):
            return str(value).lower()
        if isinstance(value, (list, tuple)):
            return "/".join(str(v) for v in value)
        return value
    return [f"--rule {key}={text(value)}" for key, value in rules.items() if text(defaults.get(key)) != text(value)]


def parse_rule_options(pairs: tuple[str, ...] | list[str] = (), rules_file: str | Path | None = None,
                       variant: str = "basic"):
    """Rules from an optional TOML file, then ``key=value`` overrides in order."""
    options: dict = {}
    if rules_file is not None:
        path = Path(rules_file)
        try:
            data = tomllib.loads(path.read_bytes().decode("utf-8"))
        except OSError as e:
            raise RuleError(f"rules file {path}: cannot read it ({e.strerror})") from None
        except UnicodeDecodeError:
            raise RuleError(f"rules file {path}: not UTF-8 text") from None
        except tomllib.TOMLDecodeError as e:
            raise RuleError(f"rules file {path}: not valid TOML ({e})") from None
        data = data.get("rules", data)
        if not isinstance(data, dict):
            raise RuleError(f"rules file {path}: 'rules' must be a table of options (e.g. [rules] reshuffles = 0)")
        rules_from_mapping(data, f"rules file {path}", variant)
        options.update(data)
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise RuleError(f"rule option {pair!r}: write it as key=value, e.g. reshuffles=0")
        options[key.strip()] = value.strip()
    return rules_from_mapping(options, variant=variant)


# ---------------------------------------------------------------- Shanghai (rules.md 2.8)

@dataclasses.dataclass(frozen=True)
class ShanghaiRules:
    """Shanghai Rummy options (rules.md 2.8). ``None`` means "by the number of players"."""

    jokers: int | None = None
    decks: int | None = None
    max_buys: int = 4
    layoff_on_contract_turn: bool = False
    joker_swap: bool = True
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
        """int64[SR_SIZE] rule vector for the kernels (``core.shanghai_state.SR_*``)."""
        from .variants.shanghai import state as SS

        r = np.zeros(SS.SR_SIZE, dtype=np.int64)
        r[SS.SR_DECKS] = self.decks_for(players)
        r[SS.SR_JOKERS] = self.jokers_for(players)
        r[SS.SR_MAX_BUYS] = self.max_buys
        r[SS.SR_LAYOFF_ON_CONTRACT_TURN] = int(self.layoff_on_contract_turn)
        r[SS.SR_JOKER_SWAP] = int(self.joker_swap)
        r[SS.SR_ACE_HIGH] = int(self.ace == "high_or_low")
        r[SS.SR_MUST_DISCARD] = int(self.must_discard_to_go_out)
        r[SS.SR_BONUS], r[SS.SR_BONUS_NO_JOKER] = self.one_turn_bonus
        r[SS.SR_TURN_LIMIT] = self.turn_limit
        return r


MAX_DECKS = 8
MAX_JOKERS = 4   # the exact contract solver's table of candidate runs is sized for this many
MAX_BUYS = 100
MAX_BONUS = 1_000
_SHANGHAI_ALLOWED = {
    "jokers": f"an integer from 0 to {MAX_JOKERS}",
    "decks": f"an integer from 1 to {MAX_DECKS}",
    "max_buys": f"an integer from 0 to {MAX_BUYS} (0 disables buying)",
    "layoff_on_contract_turn": "true or false",
    "joker_swap": "true or false",
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
        raise RuleError(f"rule {key}={value!r}: allowed {_SHANGHAI_ALLOWED[key]}")
    return n


def _convert_shanghai(key: str, value) -> object:
    text = str(value).strip().lower()
    if key in _SHANGHAI_RANGE:
        return _integer(value, key, *_SHANGHAI_RANGE[key])
    if key == "ace":
        if text not in ACE_MODES:
            raise RuleError(f"rule {key}={value!r}: allowed {_SHANGHAI_ALLOWED[key]}")
        return text
    if key == "one_turn_bonus":
        parts = list(value) if isinstance(value, (list, tuple)) else str(value).split("/")
        if len(parts) != 2:
            raise RuleError(f"rule {key}={value!r}: allowed {_SHANGHAI_ALLOWED[key]}")
        return tuple(_integer(v, key, -MAX_BONUS, MAX_BONUS) for v in parts)
    if text in ("true", "1", "yes"):
        return True
    if text in ("false", "0", "no"):
        return False
    raise RuleError(f"rule {key}={value!r}: allowed {_SHANGHAI_ALLOWED[key]}")
