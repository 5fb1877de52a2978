"""Strategy files (TOML) -> validated parameter vectors for a variant's bots.

A strategy file is data, never code: it is parsed with ``tomllib`` and every key is checked against
its variant's keys (``Variant.spec``, a tuple of ``rummysim.base.params.Param``: type, allowed
values, default). The meaning of each parameter is documented in ``rummysim.variants.<name>.bots``.
A name without a path (``greedy``) means a file shipped in ``rummysim/strategies/`` under the
variant's ``Variant.strategy_dir`` (``rummysim strategies list`` names them).
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import stat
import tomllib
from pathlib import Path

import numpy as np

from .base.errors import StrategyError
from .base.params import ROLLOUT_KEY, SEARCH
from .base.variant import Variant
from .engine.search import ROLLOUT_BOT
from .variants import NAMES, VARIANTS

BUILTIN_DIR = Path(__file__).parent / "strategies"
#: the keys every strategy file has, besides its variant's ``Variant.spec``
_TOP_KEYS = ("name", "variant", "description")
#: the largest strategy file read (bytes): a strategy is a few dozen keys
MAX_STRATEGY_BYTES = 65_536


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


def parse_strategy(text: str, where: str, variant: Variant, base_dir: Path | None = None,
                   within: tuple[Path, ...] | None = None) -> tuple[str, str, tuple, str]:
    """Validate the TOML text of a strategy; returns ``(name, description, params, rollout digest)``.

    A search bot (``bot = "search"``) starts from its rollout strategy's vector (``search.rollout``,
    a shipped name or a file, relative to ``base_dir``), which plays its simulated continuations
    and the decisions it does not search; the file's other keys then override that vector. The
    rollout's digest (its file's, "" for other bots) is returned so that the search file's
    identity covers it. ``within``: the only directories a rollout file may come from (``load_strategy``)."""
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
    if flat["variant"] not in NAMES:
        raise StrategyError(f"{where}: key 'variant' = {flat['variant']!r}: allowed {' or '.join(map(repr, NAMES))}")
    if flat["variant"] != variant.name:
        raise StrategyError(f"{where}: key 'variant' = {flat['variant']!r}, but this run plays {variant.name!r}")
    v = variant
    spec, n_params = v.spec, v.n_params
    by_key = {p.key: p for p in spec}
    params = [0.0] * n_params
    for p in spec:
        params[p.index] = p.convert(p.default, "default")
    rollout_digest = ""
    if flat.get("bot") == SEARCH and SEARCH in by_key["bot"].choices:
        rollout = _rollout(flat, where, variant, base_dir, within)
        params = list(rollout.params)
        params[v.search_slot + ROLLOUT_BOT] = rollout.params[by_key["bot"].index]
        for p in spec:
            if p.key.startswith("search."):
                params[p.index] = p.convert(p.default, "default")
        rollout_digest = rollout.sha256
    else:
        stray = [k for k in flat if k.startswith("search.")]
        if stray:
            raise StrategyError(f"{where}: key '{stray[0]}' is a search bot's: set bot = \"search\" to use it")
    for key, value in flat.items():
        if key in _TOP_KEYS or key == ROLLOUT_KEY:
            continue
        if key not in by_key:
            raise StrategyError(f"{where}: unknown key '{key}'; allowed: {', '.join([*by_key, ROLLOUT_KEY])}")
        params[by_key[key].index] = by_key[key].convert(value, where)
    return flat["name"], flat["description"].strip(), tuple(params), rollout_digest


def _rollout(flat: dict, where: str, variant: Variant, base_dir: Path | None,
             within: tuple[Path, ...] | None) -> "Strategy":
    """The rollout strategy a search file names: required, and not itself a search bot."""
    name = flat.get(ROLLOUT_KEY)
    if not isinstance(name, str) or not name.strip():
        raise StrategyError(f"{where}: a search bot needs key '{ROLLOUT_KEY}' (a strategy name or .toml file "
                            "that plays the simulated continuations)")
    path = Path(name)
    if path.suffix == ".toml" and not path.is_absolute() and base_dir is not None:
        name = str(base_dir / path)
    try:
        rollout = load_strategy(name, variant, within)
    except StrategyError as e:
        raise StrategyError(f"{where}: {ROLLOUT_KEY}: {e}") from None
    if is_search(rollout, variant):
        raise StrategyError(f"{where}: {ROLLOUT_KEY} = {name!r} is itself a search bot; give one that plays by rules")
    return rollout


def is_search(strategy: "Strategy", variant: Variant) -> bool:
    """Whether ``strategy`` is a search bot (``bot = "search"``)."""
    bot = next(p for p in variant.spec if p.key == "bot")
    return SEARCH in bot.choices and strategy.params[bot.index] == bot.choices.index(SEARCH)


def builtin_dir(variant: Variant) -> Path:
    """Where the shipped strategy files of a variant are."""
    return BUILTIN_DIR / variant.strategy_dir


def builtin_names(variant: Variant) -> list[str]:
    return sorted(p.stem for p in builtin_dir(variant).glob("*.toml"))


def _shipped_elsewhere(name: str, variant: Variant) -> str:
    """`` (a Shanghai Rummy strategy: --variant shanghai)`` when other variants ship ``name``, else ``""``."""
    others = [v for v in VARIANTS.values() if v is not variant and name in builtin_names(v)]
    if not others:
        return ""
    return (f" (a {' and '.join(v.title for v in others)} strategy: "
            f"{' or '.join(f'--variant {v.name}' for v in others)})")


def _is_shipped_name(name_or_path: str) -> bool:
    """A shipped strategy's name (``greedy``), not a file's path."""
    path = Path(name_or_path)
    return path.suffix != ".toml" and path.parent == Path(".")


def _unknown(name_or_path: str, variant: Variant, within: tuple[Path, ...] | None) -> StrategyError:
    files = (", or give a .toml file" if within is None else
             f", or a .toml file under {', '.join(map(str, within))}" if within else
             " (no strategy files: the server was started without --strategies DIR)")
    return StrategyError(f"unknown strategy {name_or_path!r}{_shipped_elsewhere(name_or_path, variant)}; "
                         f"shipped for {variant.title}: {', '.join(builtin_names(variant))}{files}")


def _inside(name_or_path: str, variant: Variant, within: tuple[Path, ...]) -> Path:
    """The file ``name_or_path`` names under one of the directories ``within`` (a relative path from
    each in turn, an absolute one as it is), symbolic links and ``..`` resolved: nothing outside them
    is opened, and the refusal is the same whether or not such a path exists."""
    path = Path(name_or_path)
    for root in within:
        root = root.resolve()
        candidate = (path if path.is_absolute() else root / path).resolve()
        if candidate.is_relative_to(root) and candidate.suffix == ".toml" and candidate.exists():
            return candidate
    raise _unknown(name_or_path, variant, within)


def read_strategy_file(path: Path) -> bytes:
    """A strategy file's bytes: a regular file of at most ``MAX_STRATEGY_BYTES`` (``StrategyError``,
    one line, for a directory, a device, a pipe or a larger file: none of them is read, and none
    can hold the reader up)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise StrategyError(f"strategy file {path}: not a regular file")
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)   # a pipe swapped in since cannot block the open
    except OSError as e:
        raise StrategyError(f"strategy file {path}: cannot read it ({e.strerror})") from None
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(f.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise StrategyError(f"strategy file {path}: not a regular file")
        raw = f.read(MAX_STRATEGY_BYTES + 1)
    if len(raw) > MAX_STRATEGY_BYTES:
        raise StrategyError(f"strategy file {path}: over {MAX_STRATEGY_BYTES:,} bytes: not a strategy")
    return raw


def load_strategy(name_or_path: str, variant: Variant, within: tuple[Path, ...] | None = None) -> Strategy:
    """A strategy by shipped name (``greedy``) or by file path (``my/bot.toml``). ``within``: the
    directories files may come from (``rummysim serve --strategies DIR``; a relative path is taken
    from each of them, never from the working directory); None: any file."""
    shipped = builtin_dir(variant)
    if _is_shipped_name(name_or_path):
        path = shipped / f"{name_or_path}.toml"
        if not path.exists():
            raise _unknown(name_or_path, variant, within)
    else:
        path = Path(name_or_path) if within is None else _inside(name_or_path, variant, within)
    raw = read_strategy_file(path)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise StrategyError(f"strategy file {path}: not UTF-8 text") from None
    name, description, params, rollout_digest = parse_strategy(text, str(path), variant, path.parent, within)
    source = name_or_path if path.parent == shipped else str(path)  # shipped: by name, portable
    return Strategy(name, description, source, hashlib.sha256(raw + rollout_digest.encode()).hexdigest()[:12], params)


def seat_strategies(names: tuple[str, ...] | list[str], players: int, variant: Variant,
                    within: tuple[Path, ...] | None = None) -> list[Strategy]:
    """One strategy for every seat: a single name for all, or exactly one per seat (``within``: as
    ``load_strategy`` takes it)."""
    names = list(names) or ["greedy"]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise StrategyError(f"got {len(names)} strategies for {players} players: give one for all seats or one per seat")
    cache: dict[str, Strategy] = {}
    for n in names:
        if n not in cache:
            cache[n] = load_strategy(n, variant, within)
    return [cache[n] for n in names]


def params_matrix(strategies: list[Strategy]) -> np.ndarray:
    """float64[players, N_PARAMS]: one parameter vector per seat."""
    return np.stack([s.vector() for s in strategies])


def with_override(strategy: Strategy, key: str, text: str, variant: Variant) -> Strategy:
    """``strategy`` with one key set from command-line text (``--param draw.min_gain --values 3``)."""
    by_key = {p.key: p for p in variant.spec}
    if key not in by_key:
        raise StrategyError(f"--param {key!r}: unknown key; allowed: {', '.join(by_key)}")
    spec = by_key[key]
    value: object = text
    if spec.many:
        value = [v.strip() for v in text.split(",")]
    elif not spec.choices:
        try:
            value = int(text)
        except ValueError:
            raise StrategyError(f"--values {text!r} for {key}: allowed {spec.allowed()}") from None
    params = list(strategy.params)
    params[spec.index] = spec.convert(value, f"--values for {key}")
    digest = hashlib.sha256(f"{strategy.sha256}:{key}={text}".encode()).hexdigest()[:12]
    return Strategy(f"{strategy.name}[{key}={text}]", strategy.description, strategy.source, digest, tuple(params))
