"""Strategy files (TOML) -> validated parameter vectors for the Basic Rummy and Shanghai bots.

A strategy file is data, never code: it is parsed with ``tomllib`` and every
key is checked against ``SPEC`` below (type, allowed values, default). The
meaning of each parameter is documented in ``rummysim.variants.basic.bots`` (Basic
Rummy, ``SPEC``), ``rummysim.variants.shanghai.bots`` (Shanghai, ``SHANGHAI_SPEC``)
and in the README. A name without a path (``greedy``) means a file shipped in
``rummysim/strategies/`` (Shanghai: ``rummysim/strategies/shanghai/``), also
reachable as ``strategies/`` at the top of the repository.
"""

from __future__ import annotations

import dataclasses
import hashlib
import tomllib
from pathlib import Path

import numpy as np

from .variants.basic import bots as B
from .variants.shanghai import bots as SB

BUILTIN_DIR = Path(__file__).parent / "strategies"


class StrategyError(ValueError):
    """A strategy file or name the user gave is not usable; the message says why in one line."""


@dataclasses.dataclass(frozen=True)
class Param:
    """One key of a strategy file: where it lands in the vector and what it may be."""

    key: str
    index: int
    default: object
    choices: tuple = ()          # allowed strings, mapped to 0, 1, 2... in order
    low: float | None = None     # numeric range, inclusive
    high: float | None = None
    doc: str = ""

    def allowed(self) -> str:
        if self.choices:
            return " or ".join(repr(c) for c in self.choices)
        return f"an integer from {self.low:g} to {self.high:g}"

    def convert(self, value, where: str) -> float:
        if self.choices:
            if not isinstance(value, str) or value not in self.choices:
                raise StrategyError(f"{where}: key '{self.key}' = {value!r}: allowed {self.allowed()}")
            return float(self.choices.index(value))
        if isinstance(value, bool) or not isinstance(value, int) or not (self.low <= value <= self.high):
            raise StrategyError(f"{where}: key '{self.key}' = {value!r}: allowed {self.allowed()}")
        return float(value)


#: Every key a Basic Rummy strategy file may set (besides name, variant, description).
SPEC = (
    Param("bot", B.P_RANDOM, "family", ("family", "random"),
          doc="'random' plays uniformly at random (every other key is then ignored)"),
    Param("draw.mode", B.P_DRAW, "meld", ("never", "meld", "gain"),
          doc="take the discard: never / when it goes into a meld / when it lowers deadwood by min_gain"),
    Param("draw.min_gain", B.P_DRAW_GAIN, 1, low=0, high=100, doc="points of deadwood the discard must save (mode 'gain')"),
    Param("meld.mode", B.P_MELD, "at_once", ("at_once", "hold_for_rummy"),
          doc="lay melds down at once, or hold everything until the hand can go out in one turn"),
    Param("meld.abandon_opponent_cards", B.P_ABANDON_OPP_CARDS, -1, low=-1, high=10,
          doc="stop holding when an opponent has at most this many cards (-1: never)"),
    Param("meld.abandon_turn", B.P_ABANDON_TURN, 0, low=0, high=1000,
          doc="stop holding from this own turn on (0: never)"),
    Param("meld.abandon_deadwood", B.P_ABANDON_DEADWOOD, 0, low=0, high=200,
          doc="stop holding when deadwood is above this (0: never)"),
    Param("layoff.mode", B.P_LAYOFF, "at_once", ("at_once", "when_going_out"),
          doc="lay off at once, or only in the turn the hand goes out"),
    Param("discard.mode", B.P_DISCARD, "highest", ("highest", "least_useful"),
          doc="throw the highest card outside melds and partial melds, or the one with fewest live connectors"),
    Param("discard.avoid_feeding", B.P_AVOID_FEED, 0, low=0, high=1000,
          doc="points taken off a card's discard score when an opponent could use it"),
    Param("discard.tiebreak", B.P_TIEBREAK_RANDOM, "highest_card", ("highest_card", "random"),
          doc="break ties by highest card, or at random from the seat's seeded stream"),
)
#: Every key a Shanghai strategy file may set (besides name, variant, description).
SHANGHAI_SPEC = (
    Param("bot", SB.SP_RANDOM, "family", ("family", "random"),
          doc="'random' decides every choice at random (every other key is then ignored)"),
    Param("draw.mode", SB.SP_DRAW, "helps", ("never", "helps"),
          doc="take the upcard: never / when it brings the contract closer by min_gain cards (once down: when it can be laid off)"),
    Param("draw.min_gain", SB.SP_DRAW_GAIN, 1, low=1, high=5, doc="cards closer to the contract the upcard must bring"),
    Param("buy.mode", SB.SP_BUY, "helps", ("never", "helps"), doc="buy the upcard: never / when it brings the contract closer"),
    Param("buy.min_gain", SB.SP_BUY_GAIN, 1, low=1, high=5, doc="cards closer to the contract a buy must bring"),
    Param("buy.keep", SB.SP_BUY_KEEP, 0, low=0, high=100, doc="buys held in reserve in rounds 1-7 (from round 8 the contract needs buys)"),
    Param("buy.from_round", SB.SP_BUY_MIN_ROUND, 1, low=1, high=10, doc="buy only from this round on"),
    Param("buy.max_cards", SB.SP_BUY_MAX_CARDS, 0, low=0, high=60, doc="never buy holding this many cards or more (0: no limit)"),
    Param("down.mode", SB.SP_DOWN, "at_once", ("at_once", "one_turn"),
          doc="lay down the contract at once, or wait to go out in one turn for the bonus"),
    Param("down.abandon_turn", SB.SP_ABANDON_TURN, 0, low=0, high=2000, doc="stop waiting from this own turn on (0: never)"),
    Param("down.abandon_opponent_down", SB.SP_ABANDON_OPP_DOWN, "no", ("no", "yes"),
          doc="stop waiting once an opponent has gone down"),
    Param("down.abandon_opponent_cards", SB.SP_ABANDON_OPP_CARDS, -1, low=-1, high=60,
          doc="stop waiting when an opponent has at most this many cards (-1: never)"),
    Param("jokers.contract", SB.SP_JOKERS, "most", ("most", "fewest"),
          doc="lay the contract leaving the least value in hand (spare jokers go in), or with the fewest jokers"),
    Param("jokers.swap", SB.SP_SWAP, "yes", ("no", "yes"), doc="swap a natural for a table joker when the joker can be laid off"),
    Param("layoff.mode", SB.SP_LAYOFF, "at_once", ("at_once", "when_going_out"),
          doc="lay off at once, or only in a turn the hand can be emptied"),
    Param("discard.mode", SB.SP_DISCARD, "highest", ("highest", "least_useful"),
          doc="throw the card the contract needs least, highest first; or keep cards with more connectors"),
    Param("discard.avoid_feeding", SB.SP_AVOID_FEED, 0, low=0, high=1000,
          doc="points added to the keep-score of a card that fits a table meld"),
    Param("discard.tiebreak", SB.SP_TIEBREAK_RANDOM, "highest_card", ("highest_card", "random"),
          doc="break ties by highest card, or at random from the seat's seeded stream"),
)
_SPECS = {"basic": (SPEC, B.N_PARAMS), "shanghai": (SHANGHAI_SPEC, SB.N_SHANGHAI_PARAMS)}
_BY_KEY = {p.key: p for p in SPEC}
_BY_KEY_OF = {v: {p.key: p for p in spec} for v, (spec, _) in _SPECS.items()}
_TOP_KEYS = ("name", "variant", "description")
VARIANTS = ("basic", "shanghai")


@dataclasses.dataclass(frozen=True)
class Strategy:
    name: str
    description: str
    source: str           # the file path given, or the name of a shipped strategy
    sha256: str           # of the file's bytes
    params: tuple         # float values in P_* order

    def vector(self) -> np.ndarray:
        return np.array(self.params, dtype=np.float64)


def _flatten(data: dict, where: str, prefix: str = "") -> dict:
    out = {}
    for key, value in data.items():
        full = prefix + key
        if isinstance(value, dict):
            out.update(_flatten(value, where, full + "."))
        else:
            out[full] = value
    return out


def parse_strategy(text: str, where: str, variant: str = "basic") -> tuple[str, str, tuple]:
    """Validate the TOML text of a strategy; returns ``(name, description, params)``."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise StrategyError(f"{where}: not valid TOML ({e})") from None
    flat = _flatten(data, where)
    for key in _TOP_KEYS:
        if key not in flat:
            raise StrategyError(f"{where}: missing key '{key}'")
        if not isinstance(flat[key], str) or not flat[key].strip():
            raise StrategyError(f"{where}: key '{key}' must be a non-empty string")
    if flat["variant"] not in VARIANTS:
        raise StrategyError(f"{where}: key 'variant' = {flat['variant']!r}: allowed 'basic' or 'shanghai'")
    if flat["variant"] != variant:
        raise StrategyError(f"{where}: key 'variant' = {flat['variant']!r}, but this run plays {variant!r}")
    spec, n_params = _SPECS[variant]
    by_key = _BY_KEY_OF[variant]
    params = [0.0] * n_params
    for p in spec:
        params[p.index] = p.convert(p.default, "default")
    for key, value in flat.items():
        if key in _TOP_KEYS:
            continue
        if key not in by_key:
            raise StrategyError(f"{where}: unknown key '{key}'; allowed: {', '.join(by_key)}")
        params[by_key[key].index] = by_key[key].convert(value, where)
    return flat["name"], flat["description"].strip(), tuple(params)


def builtin_dir(variant: str = "basic") -> Path:
    """Where the shipped strategy files of a variant are."""
    return BUILTIN_DIR if variant == "basic" else BUILTIN_DIR / variant


def builtin_names(variant: str = "basic") -> list[str]:
    return sorted(p.stem for p in builtin_dir(variant).glob("*.toml"))


def load_strategy(name_or_path: str, variant: str = "basic") -> Strategy:
    """A strategy by shipped name (``greedy``) or by file path (``my/bot.toml``)."""
    path = Path(name_or_path)
    shipped = builtin_dir(variant)
    if path.suffix != ".toml" and path.parent == Path("."):
        path = shipped / f"{name_or_path}.toml"
        if not path.exists():
            which = " for Shanghai" if variant == "shanghai" else ""
            raise StrategyError(f"unknown strategy {name_or_path!r}; shipped{which}: "
                                f"{', '.join(builtin_names(variant))}, or give a .toml file")
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise StrategyError(f"strategy file {path}: cannot read it ({e.strerror})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise StrategyError(f"strategy file {path}: not UTF-8 text") from None
    name, description, params = parse_strategy(text, str(path), variant)
    source = name_or_path if path.parent == shipped else str(path)  # shipped: by name, portable
    return Strategy(name, description, source, hashlib.sha256(raw).hexdigest()[:12], params)


def seat_strategies(names: tuple[str, ...] | list[str], players: int, variant: str = "basic") -> list[Strategy]:
    """One strategy for every seat: a single name for all, or exactly one per seat."""
    names = list(names) or ["greedy"]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise StrategyError(f"got {len(names)} strategies for {players} players: give one for all seats or one per seat")
    cache: dict[str, Strategy] = {}
    for n in names:
        if n not in cache:
            cache[n] = load_strategy(n, variant)
    return [cache[n] for n in names]


def params_matrix(strategies: list[Strategy]) -> np.ndarray:
    """float64[players, N_PARAMS]: one parameter vector per seat."""
    return np.stack([s.vector() for s in strategies])


def with_override(strategy: Strategy, key: str, text: str) -> Strategy:
    """``strategy`` with one key set from command-line text (``--param draw.min_gain --values 3``)."""
    if key not in _BY_KEY:
        raise StrategyError(f"--param {key!r}: unknown key; allowed: {', '.join(_BY_KEY)}")
    spec = _BY_KEY[key]
    value: object = text
    if not spec.choices:
        try:
            value = int(text)
        except ValueError:
            raise StrategyError(f"--values {text!r} for {key}: allowed {spec.allowed()}") from None
    params = list(strategy.params)
    params[spec.index] = spec.convert(value, f"--values for {key}")
    digest = hashlib.sha256(f"{strategy.sha256}:{key}={text}".encode()).hexdigest()[:12]
    return Strategy(f"{strategy.name}[{key}={text}]", strategy.description, strategy.source, digest, tuple(params))
