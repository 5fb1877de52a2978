"""Rule options, shared by every variant: ``parse_rule_options`` turns ``key=value`` strings
(``--rule reshuffles=0``) or a TOML rules file into the variant's rules object (``BasicRules``,
``ShanghaiRules``: ``rummysim.variants.<name>.rules``), with a one-line ``RuleError`` for anything
unknown or out of range. ``RULES_VERSION`` changes whenever the engine's behaviour under some rules
changes (never for a speed-up); results record it.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

RULES_VERSION = 4
#: the turn cap of every variant stays inside the kernels' int16 turn counters
MAX_TURN_LIMIT = 100_000


class RuleError(ValueError):
    """A rule option the user gave is unknown or has a bad value."""


def rules_from_mapping(options: dict, source: str = "rule", variant: str = "basic"):
    """Build ``BasicRules`` (or ``ShanghaiRules``) from a mapping of option names to values
    (strings or TOML values)."""
    from .variants import variant_named

    v = variant_named(variant)
    values = {}
    for key, value in options.items():
        if key not in v.rule_options:
            raise RuleError(f"{source}: unknown rule option {key!r} of {v.title}; "
                            f"allowed: {', '.join(v.rule_options)}")
        try:
            values[key] = v.convert_rule(key, value)
        except RuleError as e:
            raise RuleError(str(e) if source == "rule" else f"{source}: {e}") from None
    return v.rules(**values)


def rule_flags(rules: dict, players: int, variant: str = "basic") -> list[str]:
    """``--rule key=value`` flags for the options of a canonical rules dict (``as_dict``)
    that differ from the defaults for ``players``: what a command line needs to reproduce them."""
    from .variants import variant_named

    defaults = variant_named(variant).rules().as_dict(players)

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
