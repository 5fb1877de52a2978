"""Rule options, the same way for every variant.

A variant's options are a frozen dataclass of its own (``Variant.rules``: ``as_dict``, ``digest``,
``check_players``, ``to_array``) with what each option may be in words (``Variant.rule_options``)
and a converter (``Variant.convert_rule``) built from the checks below. ``rules_from_mapping`` and
``parse_rule_options`` turn ``key=value`` strings (``--rule reshuffles=0``) or a TOML rules file into
that object, with a one-line ``RuleError`` for anything unknown or out of range; ``rule_flags`` goes
back from a canonical rules dict to the ``--rule`` flags that reproduce it.

``RULES_VERSION`` changes whenever the engine's behaviour under some rules changes (never for a
speed-up); results record it and every rule hash covers it.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from pathlib import Path

from .errors import RuleError

RULES_VERSION = 5
#: the turn cap of every variant stays inside the kernels' int16 turn counters
MAX_TURN_LIMIT = 100_000
#: where an ace may stand in a run (docs/rules.md 1.7, 2.8): low only, or low or high
ACE_MODES = ("low", "high_or_low")


def rule_digest(fields: dict) -> str:
    """The short hash of a canonical rules dict with the rules version (a results record's "rule hash")."""
    text = json.dumps({"version": RULES_VERSION, **fields}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def refuse(key: str, value, allowed: dict) -> RuleError:
    """The one-line error for option ``key`` given ``value``, naming what ``allowed[key]`` says it may be."""
    return RuleError(f"rule {key}={value!r}: allowed {allowed[key]}")


def integer(value, key: str, low: int, high: int, allowed: dict, signed: bool = True) -> int:
    """An integer in ``[low, high]`` from a TOML integer or its text (with a sign if ``signed``)."""
    if isinstance(value, bool):
        raise refuse(key, value, allowed)
    if isinstance(value, int):
        n = value
    else:
        text = str(value).strip()
        if not (text.lstrip("+-") if signed else text).isdigit():
            raise refuse(key, value, allowed)
        n = int(text)
    if not low <= n <= high:
        raise refuse(key, value, allowed)
    return n


def boolean(value, key: str, allowed: dict) -> bool:
    """True or false from a TOML boolean or the words true/false, yes/no, 1/0."""
    text = str(value).strip().lower()
    if text in ("true", "1", "yes"):
        return True
    if text in ("false", "0", "no"):
        return False
    raise refuse(key, value, allowed)


def choice(value, key: str, choices: tuple[str, ...], allowed: dict) -> str:
    """One of ``choices``, from its word in any case."""
    text = str(value).strip().lower()
    if text not in choices:
        raise refuse(key, value, allowed)
    return text


def rules_from_mapping(variant, options: dict, source: str = "rule"):
    """``variant``'s rules object from a mapping of option names to values (strings or TOML values)."""
    values = {}
    for key, value in options.items():
        if key not in variant.rule_options:
            raise RuleError(f"{source}: unknown rule option {key!r} of {variant.title}; "
                            f"allowed: {', '.join(variant.rule_options)}")
        try:
            values[key] = variant.convert_rule(key, value)
        except RuleError as e:
            raise RuleError(str(e) if source == "rule" else f"{source}: {e}") from None
    return variant.rules(**values)


def rule_flags(variant, rules: dict, players: int) -> list[str]:
    """``--rule key=value`` flags for the options of a canonical rules dict (``as_dict``) that differ
    from ``variant``'s defaults for ``players``: what a command line needs to reproduce them."""
    defaults = variant.rules().as_dict(players)

    def text(value):
        if isinstance(value, bool):
            return str(value).lower()
        if isinstance(value, (list, tuple)):
            return "/".join(str(v) for v in value)
        return value
    return [f"--rule {key}={text(value)}" for key, value in rules.items() if text(defaults.get(key)) != text(value)]


def parse_rule_options(variant, pairs: tuple[str, ...] | list[str] = (), rules_file: str | Path | None = None):
    """``variant``'s rules from an optional TOML file, then ``key=value`` overrides in order."""
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
        rules_from_mapping(variant, data, f"rules file {path}")
        options.update(data)
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise RuleError(f"rule option {pair!r}: write it as key=value, e.g. reshuffles=0")
        options[key.strip()] = value.strip()
    return rules_from_mapping(variant, options)
