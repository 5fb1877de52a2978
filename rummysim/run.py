"""Running many hands: chunking, threads, progress, Parquet output, interruption.

``simulate`` is the Python API (DataFrames back); ``run_to_dir`` is what
``rummysim run`` calls (Parquet chunk by chunk, constant memory). Both play
chunks of game indices through their variant's kernel (``Variant.play_chunk``)
with Numba threads; each hand or round depends only on (seed, game, hand or
round), so the rows are the same for any number of workers and any chunk size.
"""

from __future__ import annotations

import collections
import dataclasses
import hashlib
import itertools
import json
import numbers
import os
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

import numba
import numpy as np
import pyarrow as pa

if TYPE_CHECKING:
    import pandas as pd

from .base.version import __version__
from .base.summary import add_state, summary_state
from .results import (LOCK_FILE, SCHEMA_VERSION, Chunk, ChunkError, ChunkStore, hold_results_dir,
                      write_json_atomic)
from .base.rules import RULES_VERSION
from .base.errors import UsageError
from .base.rules import rules_from_mapping
from .base.variant import Variant
from .compiling import warming_up
from .strategy import Strategy, load_strategy, params_matrix, seat_strategies
from .variants import DEFAULT_VARIANT, VARIANTS, variant_named, variant_of

#: the most games (or hands) a run can ask for: what a cluster could play
MAX_COUNT = 10**13
#: the kernel's arrays of one chunk stay within this many bytes
CHUNK_MEMORY = 2**30


def max_chunk_size() -> int:
    """The largest chunk size: a chunk's kernel arrays fit in CHUNK_MEMORY whatever the variant, mode
    and players (each variant says how many bytes a game takes at its most players)."""
    return CHUNK_MEMORY // max(v.unit_bytes for v in VARIANTS.values())


def _whole(value) -> bool:
    """An integer (Python or NumPy), not a bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def check_count(name: str, value, high: int = MAX_COUNT) -> int:
    """``value`` as an int from 1 to ``high``; ``UsageError`` naming ``name`` if it is not one."""
    if not _whole(value) or not 1 <= value <= high:
        raise UsageError(f"{name} = {value!r}: allowed a whole number from 1 to {high:,}")
    return int(value)


def check_chunk_size(chunk_size) -> int | None:
    """``chunk_size`` (None: the default) checked: a whole number from 1 to ``max_chunk_size()``."""
    return None if chunk_size is None else check_count("chunk_size", chunk_size, max_chunk_size())


def check_workers(workers) -> int | None:
    """``workers`` (None: all cores) checked: a positive whole number."""
    return None if workers is None else check_count("workers", workers, 2**31 - 1)


@dataclasses.dataclass
class RunSpec:
    """Everything that determines a run's results (and nothing that does not)."""

    variant: Variant              # the variant played
    players: int
    strategies: list[Strategy]
    seed: int = 0
    rules: object = None          # the variant's rules object (``BasicRules``...); None: its defaults
    games: int | None = None      # full games (to the target; Shanghai: ten rounds) ...
    hands: int | None = None      # ... or independent hands (variants with ``hands_mode``)
    first: int = 0                # first game index (lets a run be split across machines)

    def __post_init__(self):
        """Check every field (``UsageError``, one line naming it): the CLI and the API both build a RunSpec."""
        v = self.variant
        if not isinstance(v, Variant):
            raise UsageError(f"variant: got {v!r}; allowed a Variant (rummysim.variants.variant_named(name))")
        low, high, _ = v.players
        if not _whole(self.players):
            raise UsageError(f"players = {self.players!r}: allowed a whole number ({low} to {high})")
        self.players = int(self.players)
        if self.rules is None:
            self.rules = v.rules()
        if not isinstance(self.rules, v.rules):
            got = repr(self.rules) if isinstance(self.rules, str) else f"a {type(self.rules).__name__}"
            raise UsageError(f"rules: got {got}; allowed a {v.rules.__name__} object, a dict of rule options "
                             "(e.g. {'turn_limit': 500}) or None")
        if (self.games is None) == (self.hands is None):
            raise UsageError("give exactly one of games or hands")
        if self.games is not None:
            self.games = check_count("games", self.games)
        else:
            self.hands = check_count("hands", self.hands)
        if not _whole(self.seed) or not 0 <= self.seed < 2**63:
            raise UsageError(f"seed = {self.seed!r}: allowed a whole number from 0 to 2**63 - 1")
        self.seed = int(self.seed)
        if not _whole(self.first) or not 0 <= self.first <= 2**63 - 1 - self.count:
            raise UsageError(f"first = {self.first!r}: allowed a whole number from 0 to 2**63 - 1 - the count")
        self.first = int(self.first)
        if not low <= self.players <= high:
            raise UsageError(f"players = {self.players}: {v.title} takes {low} to {high}")
        if self.hands is not None and not v.hands_mode:
            raise UsageError(f"{v.title} is played in whole games: give --games, not --hands")
        self.rules.check_players(self.players)
        if not isinstance(self.strategies, (list, tuple)) or not all(isinstance(s, Strategy) for s in self.strategies):
            raise UsageError("strategies: allowed a list of Strategy objects, one per seat")
        if len(self.strategies) != self.players:
            raise UsageError(f"strategies: got {len(self.strategies)} for {self.players} players: "
                             "give one for all seats or one per seat")

    @property
    def count(self) -> int:
        return self.games if self.games is not None else self.hands

    def describe(self) -> dict:
        """The canonical record of the run's inputs (written to run.json and reports)."""
        return {
            "variant": self.variant.name,
            "mode": "games" if self.games is not None else "hands",
            "count": self.count,
            "first": self.first,
            "players": self.players,
            "seed": self.seed,
            "rules": self.rules.as_dict(self.players),
            "rules_version": RULES_VERSION,
            "rule_hash": self.rules.digest(self.players),
            "strategies": [{"seat": q, "name": s.name, "source": s.source, "sha256": s.sha256,
                            **({"path": str(Path(s.source).resolve())} if s.source.endswith(".toml") else {})}
                           for q, s in enumerate(self.strategies)],
        }


def play_chunk(spec: RunSpec, games: np.ndarray, rules: np.ndarray, params: np.ndarray) -> Chunk:
    """Play the game indices ``games`` int64[g] of ``spec`` (whole games, or one hand each in hands
    mode) with its variant's kernel; ``rules`` and ``params`` are the packed rules and strategies."""
    return spec.variant.play_chunk(spec.seed, games, spec.players, spec.hands is not None, rules, params)


def iter_chunks(spec: RunSpec, chunk_size: int | None = None, workers: int | None = None) -> Iterator[Chunk]:
    """Play the run chunk by chunk, in game-index order."""
    size = chunk_size_for(spec, chunk_size)
    for _, chunk in _local_chunks(spec, range(-(-spec.count // size)), size, workers):
        yield chunk


def warm_up(players: int, variant: Variant) -> float:
    """Compile (or load from the cache) the kernels outside any timing; returns the seconds it took."""
    start = time.perf_counter()
    # one game of the shipped greedy bot: every kernel compiles whatever the bot, and greedy ends a game
    # soonest (a Shanghai game of random bots took 0.23 s more, the time it ran to the turn limit)
    spec = RunSpec(variant, players, [load_strategy("greedy", variant)] * players, games=1)
    with warming_up():
        play_chunk(spec, np.zeros(1, dtype=np.int64), spec.rules.to_array(players), params_matrix(spec.strategies))
    return time.perf_counter() - start


def new_summary(spec: RunSpec):
    """The summary accumulator of the run's variant."""
    return spec.variant.summary(spec.players, [s.name for s in spec.strategies])


def chunk_tables(spec: RunSpec, chunk: Chunk) -> dict[str, pa.Table]:
    """The Arrow tables of one chunk, by file name (``hands``/``rounds``, ``seats``, ``games``)."""
    return spec.variant.tables(chunk, spec.seed, spec.players, [s.name for s in spec.strategies])


@dataclasses.dataclass
class Results:
    """A run's results as DataFrames (schema in ``rummysim.results``, Shanghai in
    ``rummysim.variants.<name>.schema``: for Shanghai ``hands`` holds the rounds) and its summary."""

    hands: pd.DataFrame
    seats: pd.DataFrame
    games: pd.DataFrame
    summary: dict
    spec: dict


def simulate(games: int | None = None, hands: int | None = None, players: int = 2,
             strategies: str | list[str] | tuple[str, ...] = ("greedy",), seed: int = 0,
             rules: object | dict | None = None, workers: int | None = None,
             chunk_size: int | None = None, variant: str = DEFAULT_VARIANT) -> Results:
    """Play ``games`` full games or ``hands`` independent hands and return the results in memory.

    ``strategies``: one name (or file) for every seat, or one per seat. A bad argument raises
    ``UsageError`` (a ``ValueError``) with one line naming it and what is allowed.

    >>> r = simulate(hands=1000, players=3, strategies=["greedy", "random", "greedy"], seed=7)
    >>> r.hands.outcome.value_counts()
    >>> s = simulate(games=100, players=4, variant="shanghai")   # s.hands: one row per round
    """
    import pandas as pd

    v = variant_named(variant)
    if not _whole(players):
        raise UsageError(f"players = {players!r}: allowed a whole number ({v.players[0]} to {v.players[1]})")
    if isinstance(strategies, (str, Strategy)):
        strategies = [strategies]   # one strategy for every seat
    if not isinstance(strategies, (list, tuple)) or not all(isinstance(s, (str, Strategy)) for s in strategies):
        raise UsageError(f"strategies = {strategies!r}: allowed a strategy name or file, "
                         "or a list of them (one for all seats or one per seat)")
    if isinstance(rules, dict):
        rules = rules_from_mapping(v, rules)
    workers, chunk_size = check_workers(workers), check_chunk_size(chunk_size)
    names = [s for s in strategies if isinstance(s, str)]
    loaded = dict(zip(names, seat_strategies(names, len(names), v))) if names else {}
    seats = [loaded[s] if isinstance(s, str) else s for s in strategies]
    if len(seats) == 1 and v.players[0] <= players <= v.players[1]:   # else RunSpec says what players may be
        seats = seats * players
    spec = RunSpec(v, players, seats, seed, rules, games, hands)
    summary = new_summary(spec)
    tables: dict[str, list[pa.Table]] = {v.table: [], "seats": [], "games": []}
    warm_up(players, v)
    start = time.perf_counter()
    for chunk in iter_chunks(spec, chunk_size, workers):
        summary.add(chunk)
        for name, table in chunk_tables(spec, chunk).items():
            tables[name].append(table)
    wall = time.perf_counter() - start
    frames = {k: pa.concat_tables(v).to_pandas() if v else pd.DataFrame() for k, v in tables.items()}
    return Results(frames[v.table], frames["seats"], frames["games"],
                   summary.as_dict(wall), spec.describe())


def chunk_size_for(spec: RunSpec, chunk_size: int | None = None) -> int:
    """Games (or hands) per chunk: the given size, or the default of the run's kind."""
    return chunk_size or spec.variant.chunk_size["hands" if spec.hands is not None else "games"]


def chunk_games(spec: RunSpec, k: int, size: int) -> np.ndarray:
    """int64 game indices of chunk ``k`` (chunks of ``size`` in game order)."""
    return np.arange(spec.first + k * size, spec.first + min((k + 1) * size, spec.count), dtype=np.int64)


def play_chunk_task(spec: RunSpec, k: int, size: int, threads: int = 1) -> tuple[int, Chunk]:
    """Chunk ``k`` of ``spec``, played where this runs (a Dask worker): ``(k, chunk)``."""
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    games = chunk_games(spec, k, size)
    return k, play_chunk(spec, games, spec.rules.to_array(spec.players), params_matrix(spec.strategies))


def _local_chunks(spec: RunSpec, todo, size: int, workers: int | None) -> Iterator[tuple[int, Chunk]]:
    """Chunks ``todo`` (indices, in order) played in this process with ``workers`` threads: ``(k, chunk)``.

    When the kernel leaves a core free (``--workers 1`` on 2 cores), it plays on a thread of its own,
    one chunk ahead: while the caller takes chunk k (its summary, handing it to the writer), chunk
    k+1 is already playing (Basic, 3 million hands, one worker: 1.11x the hands/s side by side). With
    every core playing, the caller's work would only take a core from the kernel: the chunks play
    here, one after the other. Closing the iterator early waits for the chunk in play."""
    rules = spec.rules.to_array(spec.players)
    params = params_matrix(spec.strategies)
    threads = min(workers or numba.config.NUMBA_NUM_THREADS, numba.config.NUMBA_NUM_THREADS)

    def play(k: int) -> tuple[int, Chunk]:
        numba.set_num_threads(threads)   # per launching thread
        return k, play_chunk(spec, chunk_games(spec, k, size), rules, params)

    if threads >= (os.cpu_count() or 1):
        for k in todo:
            yield play(k)
        return
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="rummysim-kernel") as kernel:
        ahead = None
        for k in todo:
            playing = kernel.submit(play, k)   # starts as soon as the chunk before it is done
            if ahead is not None:
                yield ahead.result()
            ahead = playing
        if ahead is not None:
            yield ahead.result()


def _dask_chunks(spec, todo: Iterator[int], size: int, client, window: int = 64,
                 task: Callable = play_chunk_task, ordered: bool = False) -> Iterator[tuple[int, object]]:
    """Chunks played by the workers of a ``distributed.Client``, in the order they finish (with
    ``ordered``: in the order of ``todo``, each finished one waiting on the workers for its turn), at
    most ``window`` submitted at a time (so memory does not grow with the number of chunks). Each is
    ``task(spec, k, size)``, ``(k, result)``: ``play_chunk_task`` by default. A worker that dies has its
    chunks re-run by the scheduler; each chunk's result arrives once. Closing the iterator (a caller
    that stops early) cancels the chunks still submitted."""
    from distributed import as_completed

    tag = uuid.uuid4().hex
    todo = iter(todo)
    in_flight = set()

    def submit(k):
        future = client.submit(task, spec, k, size, pure=False, key=f"rummysim-chunk-{k}-{tag}")
        in_flight.add(future)
        return future

    first = [submit(k) for k in itertools.islice(todo, window)]
    if ordered:
        queue = collections.deque(first)
        running, add = _popping(queue), queue.append
    else:
        running = as_completed(first)
        add = running.add
    try:
        for future in running:
            in_flight.discard(future)
            yield future.result()
            for k in itertools.islice(todo, 1):
                add(submit(k))
    finally:
        if in_flight:   # one message for all of them
            client.cancel(list(in_flight))


def _popping(queue: collections.deque) -> Iterator:
    """The items of ``queue`` from the left, taken off as they go (items added meanwhile included)."""
    while queue:
        yield queue.popleft()


#: the fields of run.json that determine a run's rows: each is hashed into ``options_sha256``
OPTION_FIELDS = ("variant", "mode", "count", "first", "players", "seed", "rules", "rules_version", "strategies",
                 "chunk_size", "schema_version")


def options_digest(record: dict, names: tuple[str, ...] = OPTION_FIELDS) -> dict[str, str]:
    """``{field: sha256}`` of each field ``names`` of ``record`` (run.json, compare.json), and ``"all"``
    over them together: the run's identity, which its chunks carry, and how an edited record is caught."""
    def digest(value) -> str:
        return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()

    fields = {f: digest(record.get(f)) for f in names}
    fields["all"] = digest(fields)
    return fields


def chunk_check(spec: RunSpec, size: int):
    """The content check of a run's chunk ``k`` (``ChunkStore.join``): exactly the chunk's game
    indices, each once and in order, with the rows a game of them must have. Returns why not, or None."""
    hands_name = spec.variant.table

    def check(k: int, tables: dict[str, pa.Table]) -> str | None:
        games = chunk_games(spec, k, size)
        if hands_name not in tables or "seats" not in tables:
            return f"no {hands_name} or seats table"
        game_col = tables[hands_name].column("game").to_numpy()
        if spec.games is not None:
            if "games" not in tables:
                return "no games table"
            if not np.array_equal(tables["games"].column("game").to_numpy(), games):
                return f"its games table does not hold games {games[0]}..{games[-1]} once each"
        expected = np.repeat(games, spec.variant.rows_per_game(tables, games))
        if not np.array_equal(game_col, expected):
            return f"its {hands_name} table does not hold the {hands_name} of games {games[0]}..{games[-1]} once each"
        seats = tables["seats"].column("game").to_numpy()
        if not np.array_equal(seats, np.repeat(game_col, spec.players)):
            return f"its seats table does not hold {spec.players} seats per {hands_name[:-1]}"
        return None
    return check


def run_to_dir(spec: RunSpec, out_dir: Path, workers: int | None = None, chunk_size: int | None = None,
               on_chunk: Callable[[int, int, float], None] | None = None, client=None,
               resume: bool = False) -> dict:
    """Play ``spec`` writing Parquet to ``out_dir`` chunk by chunk; return the ``run.json`` record.

    The directory is held (``results.hold_results_dir``) for the whole run: one writer at a time.
    Each finished chunk is kept in ``out_dir/chunks`` (``results.ChunkStore``, with its index range,
    row counts and content hashes) and joined, in order and checked (``chunk_check``), into
    ``hands``/``rounds``, ``seats`` and ``games.parquet``, named when all are done and only then
    are the chunks removed. ``run.json`` holds ``options_sha256`` (``options_digest``).
    ``on_chunk(units_done, hands_done, seconds)`` is called after each chunk (progress;
    seconds of play so far, compile time excluded; Shanghai counts rounds as hands).
    ``client``: a ``distributed.Client`` whose workers play the chunks (else this process,
    with ``workers`` threads). ``resume``: keep the chunks already finished in ``out_dir`` that
    pass their checks, and play all others (``chunk_size`` must then be the run's).
    On KeyboardInterrupt (Ctrl-C, or SIGTERM) the finished chunks stay and run.json says
    ``"status": "interrupted"``; after a SIGKILL it still says ``"running"``. Either way
    ``resume_run`` finishes it, with the same rows as an uninterrupted run. A chunk that fails
    its check while being joined raises ``ChunkError`` (status ``"failed"``; resume plays it again).
    """
    with hold_results_dir(out_dir):
        return _run_held(spec, out_dir, workers, chunk_size, on_chunk, client, resume)


def _run_held(spec, out_dir, workers, chunk_size, on_chunk, client, resume) -> dict:
    size = chunk_size_for(spec, chunk_size)
    n_chunks = -(-spec.count // size)
    record = {"rummysim_version": __version__, "schema_version": SCHEMA_VERSION, **spec.describe(),
              "chunk_size": size, "chunks": n_chunks, "status": "running",
              "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
              "workers": "dask" if client is not None else workers or numba.config.NUMBA_NUM_THREADS}
    record["options_sha256"] = options_digest(record)
    store = ChunkStore(out_dir, record["options_sha256"]["all"], keep=resume)

    def in_range(k, rec) -> str | None:
        games = chunk_games(spec, k, size) if isinstance(k, int) and 0 <= k < n_chunks else None
        if games is None or [rec.get("first"), rec.get("stop")] != [int(games[0]), int(games[-1]) + 1]:
            return "not a chunk of this run"
        return None

    finished, dropped = store.verified(in_range)
    summary = new_summary(spec)
    for rec in finished.values():
        add_state(summary, rec["summary_state"])
    done = sum(rec["units"] for rec in finished.values())
    played = sum(rec["rows"] for rec in finished.values())
    earlier = sum(rec["seconds"] for rec in finished.values())  # play time of the chunks kept
    if dropped:
        record["replayed_chunks"] = {ChunkStore.stem(k): why for k, why in sorted(dropped.items())}
    write_json_atomic(out_dir / "run.json", record)
    record["compile_seconds"] = 0.0 if client is not None else round(warm_up(spec.players, spec.variant), 3)
    todo = (k for k in range(n_chunks) if k not in finished)
    check = chunk_check(spec, size)
    order = range(n_chunks)
    start = time.perf_counter()

    def write(k: int, chunk: Chunk, state: dict, seconds: float) -> None:
        tables = chunk_tables(spec, chunk)
        store.write(k, tables, {"first": int(chunk.games[0]), "stop": int(chunk.games[-1]) + 1,
                                "units": len(chunk.games), "rows": len(chunk.hand_rows),
                                "seconds": seconds, "summary_state": state})
        store.join(order, check, written={k: tables})

    stream = _dask_chunks(spec, todo, size, client) if client is not None else _local_chunks(spec, todo, size, workers)
    # chunk k is written by one thread while the kernel (which releases the GIL) plays chunk k+1
    pool = ThreadPoolExecutor(max_workers=1)
    pending = None
    previous_sigterm = _sigterm_as_interrupt()
    try:
        last = start
        for k, chunk in stream:
            now = time.perf_counter()
            part = new_summary(spec)
            part.add(chunk)
            if pending is not None:
                pending.result()
            state = summary_state(part)
            pending = pool.submit(write, k, chunk, state, now - last)
            last = now
            add_state(summary, state)  # counted with the write it goes with
            done += len(chunk.games)
            played += len(chunk.hand_rows)
            if on_chunk:
                on_chunk(done, played, earlier + now - start)
        if pending is not None:
            pending.result()
            pending = None
        store.finish(order, check)
        record["status"] = "complete"
    except KeyboardInterrupt:
        record["status"] = "interrupted"
        raise
    except ChunkError as e:
        record["status"] = "failed"
        record["error"] = str(e)
        raise
    finally:
        _restore_sigterm(previous_sigterm)
        if pending is not None:  # interrupted: finish the chunk being written, drop the one being played
            try:
                pending.result()
            except Exception:  # noqa: BLE001 - its record was not written: the chunk is not finished
                pass
        pool.shutdown()
        if record["status"] != "complete":  # count what is on disk, finished for good
            store.abandon()
            kept = store.records()
            done = sum(rec.get("units", 0) for rec in kept.values())
            played = sum(rec.get("rows", 0) for rec in kept.values())
        wall = earlier + time.perf_counter() - start  # resumed: the kept chunks' play time too
        record.update({"done": done, f"{spec.variant.table}_played": played,
                       "wall_seconds": round(wall, 3),
                       "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "summary": summary.as_dict(wall)})
        write_json_atomic(out_dir / "run.json", record)
    return record


def _sigterm_as_interrupt():
    """Make SIGTERM (``kill``) end a run like Ctrl-C, keeping what finished (main thread only)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return None

    def handler(signum, frame):
        raise KeyboardInterrupt

    return signal.signal(signal.SIGTERM, handler)


def _restore_sigterm(previous) -> None:
    import signal

    if previous is not None:
        signal.signal(signal.SIGTERM, previous)


class ResumeError(UsageError):
    """A results directory that cannot be resumed; the message says why in one line."""


def rules_of_record(record: dict):
    """The rules a run.json (or compare.json) records, exactly: every value round-trips, ``unlimited``
    included."""
    return rules_from_mapping(variant_of(record), record["rules"])


def strategies_of_record(record: dict, what: str = "the run") -> list[Strategy]:
    """The strategies a ``run.json`` or ``compare.json`` records, each file checked unchanged since
    ``what`` started (``ResumeError`` if not)."""
    variant = variant_of(record)
    strategies = []
    for s in record["strategies"]:
        strategy = load_strategy(s.get("path", s["source"]), variant)
        if strategy.sha256 != s["sha256"]:
            raise ResumeError(f"strategy {s['source']} has changed since {what} (sha256 {strategy.sha256}, "
                              f"recorded {s['sha256']}): the results would not be the same")
        strategies.append(strategy)
    return strategies


def spec_of_record(record: dict) -> RunSpec:
    """The ``RunSpec`` a ``run.json`` describes, with its strategy files checked unchanged."""
    count = record["count"]
    games, hands = (count, None) if record["mode"] == "games" else (None, count)
    return RunSpec(variant_of(record), record["players"], strategies_of_record(record), record["seed"],
                   rules_of_record(record), games, hands, record.get("first", 0))


def check_options(record: dict, where: str, names: tuple[str, ...] = OPTION_FIELDS, file: str = "run.json") -> None:
    """Refuse a record whose options no longer match the hash it was started with, naming the field."""
    saved = record.get("options_sha256")
    if not isinstance(saved, dict):
        raise ResumeError(f"{where}: {file} has no options hash (written by an older rummysim?); "
                          "it cannot be resumed safely")
    now = options_digest(record, names)
    changed = [f for f in names if saved.get(f) != now[f]]
    if changed:
        raise ResumeError(f"{where}: {file} field {changed[0]!r} was changed after it started; "
                          "put it back or start anew")
    if saved.get("all") != now["all"]:
        raise ResumeError(f"{where}: {file}'s options hash was changed after it started")


def check_versions(record: dict, where: str, file: str = "run.json") -> None:
    """Refuse to finish a record started by a rummysim whose rows (``schema_version``) or rules
    (``rules_version``) differ from this one's: its chunks could not be joined with new ones."""
    for field, now in (("schema_version", SCHEMA_VERSION), ("rules_version", RULES_VERSION)):
        if record.get(field) != now:
            raise ResumeError(f"{where}: {file} was started by rummysim {record.get('rummysim_version', '?')} "
                              f"({field} {record.get(field)}, this rummysim writes {now}); "
                              "finish it with that version or start anew")


def resumable_record(out_dir: Path, file: str, names: tuple[str, ...], what: str) -> dict:
    """The record ``file`` (``run.json``, ``compare.json``) of an unfinished ``what`` in ``out_dir``,
    its options checked against the hash it was started with (``ResumeError`` if it cannot be resumed;
    ``OSError``/``ValueError`` if it cannot be read)."""
    where = f"--resume {out_dir}"
    if not out_dir.is_dir():
        raise ResumeError(f"{where}: no such directory")
    record = json.loads((out_dir / file).read_text())
    if not isinstance(record, dict):
        raise ValueError("not a JSON object")
    check_options(record, where, names, file)
    check_versions(record, where, file)
    if record.get("status") == "complete":
        raise ResumeError(f"{where}: {what} is already complete")
    return record


def resume_run(out_dir: Path, workers: int | None = None, on_chunk=None, client=None) -> dict:
    """Finish an interrupted (or killed) run in ``out_dir``: play exactly its missing or damaged chunks."""
    out_dir = Path(out_dir)
    refuse_before_holding(out_dir, _resumable_run)
    with hold_results_dir(out_dir):
        spec, size = _resumable_run(out_dir)
        return run_to_dir(spec, out_dir, workers, size, on_chunk, client, resume=True)


def refuse_before_holding(out_dir: Path, check: Callable[[Path], object]) -> None:
    """``check(out_dir)`` (``ResumeError`` if ``out_dir`` cannot be resumed) before the directory is held,
    when holding it would write its lock file: a --resume that refuses writes nothing. A directory held
    before keeps its lock file; it is checked once held (a busy one says so, whatever was asked)."""
    if not (out_dir / LOCK_FILE).exists():
        check(out_dir)


def _resumable_run(out_dir: Path) -> tuple[RunSpec, int]:
    """The spec and chunk size of the unfinished run in ``out_dir``; ``ResumeError`` (one line) if none."""
    try:
        record = resumable_record(out_dir, "run.json", OPTION_FIELDS, "the run")
        return spec_of_record(record), record["chunk_size"]
    except ResumeError:
        raise
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ResumeError(f"--resume {out_dir}: not a resumable rummysim run ({_line(e)})") from None


def _line(e: BaseException) -> str:
    """An exception as one short line."""
    text = str(e).splitlines()[0] if str(e) else type(e).__name__
    return text[:200]
