"""Running many hands: chunking, threads, progress, Parquet output, interruption.

``simulate`` is the Python API (DataFrames back); ``run_to_dir`` is what
``rummysim run`` calls (Parquet chunk by chunk, constant memory). Both play
chunks of game indices through ``core.basic.play_games`` (or, for Shanghai,
``core.shanghai.play_games``) with Numba threads; each hand or round depends
only on (seed, game, hand or round), so the rows are the same for any number
of workers and any chunk size.
"""

from __future__ import annotations

import dataclasses
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

import numba
import numpy as np
import pyarrow as pa

if TYPE_CHECKING:
    import pandas as pd

from . import __version__
from .core import basic as K
from .core import melds as M
from .core import shanghai as SK
from .core.bots import N_PARAMS
from .core.shanghai_bots import N_SHANGHAI_PARAMS
from .core.shanghai_state import ROUNDS
from .results import SCHEMA_VERSION, ChunkStore, games_table, hands_table, seats_table, write_json_atomic
from .rules import RULES_VERSION, BasicRules, ShanghaiRules
from . import shanghai_results as SR
from .strategy import Strategy, params_matrix
from .summary import RunSummary, add_state, summary_state

#: games start with room for this many hands each; a longer game is replayed with more room
HAND_CAPACITY = 32
DEFAULT_CHUNK_GAMES = 16384
DEFAULT_CHUNK_HANDS = 131072
DEFAULT_CHUNK_SHANGHAI_GAMES = 1024   # 10,240 rounds: a few seconds a chunk


@dataclasses.dataclass
class RunSpec:
    """Everything that determines a run's results (and nothing that does not)."""

    players: int
    strategies: list[Strategy]
    seed: int = 0
    rules: BasicRules | ShanghaiRules | None = None   # None: the variant's defaults
    games: int | None = None      # full games (to the target; Shanghai: ten rounds) ...
    hands: int | None = None      # ... or independent hands (Basic Rummy only)
    first: int = 0                # first game index (lets a run be split across machines)
    variant: str = "basic"

    def __post_init__(self):
        if self.rules is None:
            self.rules = BasicRules() if self.variant == "basic" else ShanghaiRules()
        if (self.games is None) == (self.hands is None):
            raise ValueError("give exactly one of games or hands")
        count = self.games if self.games is not None else self.hands
        if count <= 0:
            raise ValueError("the number of games or hands must be positive")
        if not 0 <= self.seed < 2**63:
            raise ValueError(f"seed {self.seed}: allowed 0 to 2**63 - 1")
        if self.variant == "basic" and self.players not in (2, 3, 4):
            raise ValueError(f"players = {self.players}: Basic Rummy takes 2, 3 or 4")
        if self.variant == "shanghai":
            if not 3 <= self.players <= 8:
                raise ValueError(f"players = {self.players}: Shanghai Rummy takes 3 to 8")
            if self.hands is not None:
                raise ValueError("Shanghai is played in games of ten rounds: give --games, not --hands")
            self.rules.check_players(self.players)
        if len(self.strategies) != self.players:
            raise ValueError("one strategy per seat")

    @property
    def count(self) -> int:
        return self.games if self.games is not None else self.hands

    def describe(self) -> dict:
        """The canonical record of the run's inputs (written to run.json and reports)."""
        return {
            "variant": self.variant,
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


@dataclasses.dataclass
class Chunk:
    """One chunk's rows: ``hand_rows`` int32[n, HAND_COLS], ``seat_rows`` int32[n, players, SEAT_COLS],
    ``games`` int64[g] and ``game_rows`` int32[g, 2 + players] (None in hands mode)."""

    hand_rows: np.ndarray
    seat_rows: np.ndarray
    games: np.ndarray
    game_rows: np.ndarray | None


def _play(spec: RunSpec, games: np.ndarray, rules: np.ndarray, params: np.ndarray, cap: int):
    """One kernel call with room for ``cap`` hands per game; returns the raw arrays."""
    g, p = len(games), spec.players
    hand_rows = np.empty((g * cap, K.HAND_COLS), dtype=np.int32)
    seat_rows = np.empty((g * cap, p, K.SEAT_COLS), dtype=np.int32)
    game_rows = np.empty((g, 2 + p), dtype=np.int32)
    n_hands = np.empty(g, dtype=np.int64)
    K.play_games(spec.seed, games, p, rules, params, M.CARD_VALUE, spec.hands is not None, cap,
                 hand_rows, seat_rows, game_rows, n_hands)
    keep = (np.arange(cap)[None, :] < n_hands[:, None]).ravel()
    return hand_rows[keep], seat_rows[keep], game_rows, n_hands


def play_chunk(spec: RunSpec, games: np.ndarray, rules: np.ndarray, params: np.ndarray) -> Chunk:
    """Play the given game indices (whole games, or one hand each in hands mode).

    Games longer than ``HAND_CAPACITY`` hands (rare) are replayed on their own
    with room for all their hands, and their rows put back in game order.
    Shanghai games always have ten rounds: ``hand_rows`` holds the rounds and
    ``game_rows`` the final totals int32[g, players].
    """
    if spec.variant == "shanghai":
        g, p = len(games), spec.players
        round_rows = np.empty((g * ROUNDS, SK.ROUND_COLS), dtype=np.int32)
        seat_rows = np.empty((g * ROUNDS, p, SK.SEAT_COLS), dtype=np.int32)
        totals = np.empty((g, p), dtype=np.int32)
        SK.play_games(spec.seed, games, p, rules, params, round_rows, seat_rows, totals)
        return Chunk(round_rows, seat_rows, games, totals)
    single = spec.hands is not None
    hand_rows, seat_rows, game_rows, n_hands = _play(spec, games, rules, params, 1 if single else HAND_CAPACITY)
    long_games = np.flatnonzero(n_hands > HAND_CAPACITY)
    if len(long_games) and not single:
        h2, s2, _, _ = _play(spec, games[long_games], rules, params, int(n_hands[long_games].max()))
        short = np.repeat(n_hands <= HAND_CAPACITY, np.minimum(n_hands, HAND_CAPACITY))
        position = np.concatenate([np.repeat(np.flatnonzero(n_hands <= HAND_CAPACITY), n_hands[n_hands <= HAND_CAPACITY]),
                                   np.repeat(long_games, n_hands[long_games])])
        order = np.argsort(position, kind="stable")
        hand_rows = np.concatenate([hand_rows[short], h2])[order]
        seat_rows = np.concatenate([seat_rows[short], s2])[order]
    return Chunk(hand_rows, seat_rows, games, None if single else game_rows)


def iter_chunks(spec: RunSpec, chunk_size: int | None = None, workers: int | None = None) -> Iterator[Chunk]:
    """Play the run chunk by chunk, in game-index order."""
    size = chunk_size_for(spec, chunk_size)
    for _, chunk in _local_chunks(spec, range(-(-spec.count // size)), size, workers):
        yield chunk


def warm_up(players: int, variant: str = "basic") -> float:
    """Compile (or load from the cache) the kernels outside any timing; returns the seconds it took."""
    start = time.perf_counter()
    if variant == "shanghai":
        spec = RunSpec(players, [_WARM_SHANGHAI] * players, games=1, variant="shanghai")
    else:
        spec = RunSpec(players, [_WARM_STRATEGY] * players, hands=1)
    play_chunk(spec, np.zeros(1, dtype=np.int64), spec.rules.to_array(players), params_matrix(spec.strategies))
    return time.perf_counter() - start


_WARM_STRATEGY = Strategy("warm-up", "", "builtin", "", tuple([0.0] * N_PARAMS))
_WARM_SHANGHAI = Strategy("warm-up", "", "builtin", "", tuple([1.0] + [0.0] * (N_SHANGHAI_PARAMS - 1)))


def new_summary(spec: RunSpec):
    """The summary accumulator of the run's variant."""
    names = [s.name for s in spec.strategies]
    return SR.ShanghaiSummary(spec.players, names) if spec.variant == "shanghai" else RunSummary(spec.players, names)


def add_chunk(summary, chunk: Chunk) -> None:
    if isinstance(summary, SR.ShanghaiSummary):
        summary.add(chunk.hand_rows, chunk.seat_rows, chunk.game_rows)
    else:
        summary.add(chunk.hand_rows, chunk.game_rows)


def chunk_tables(spec: RunSpec, chunk: Chunk) -> dict[str, pa.Table]:
    """The Arrow tables of one chunk, by file name (``hands``/``rounds``, ``seats``, ``games``)."""
    names = [s.name for s in spec.strategies]
    if spec.variant == "shanghai":
        return {"rounds": SR.rounds_table(chunk.hand_rows, spec.seed, spec.players),
                "seats": SR.seats_table(chunk.hand_rows, chunk.seat_rows, names),
                "games": SR.games_table(chunk.games, chunk.game_rows, spec.players)}
    out = {"hands": hands_table(chunk.hand_rows, spec.seed, spec.players),
           "seats": seats_table(chunk.hand_rows, chunk.seat_rows, names)}
    if chunk.game_rows is not None:
        out["games"] = games_table(chunk.games, chunk.game_rows, spec.players)
    return out


@dataclasses.dataclass
class Results:
    """A run's results as DataFrames (schema in ``rummysim.results``, Shanghai in
    ``rummysim.shanghai_results``: ``hands`` then holds the rounds) and its summary."""

    hands: pd.DataFrame
    seats: pd.DataFrame
    games: pd.DataFrame
    summary: dict
    spec: dict


def simulate(games: int | None = None, hands: int | None = None, players: int = 2,
             strategies: list[str] | tuple[str, ...] = ("greedy",), seed: int = 0,
             rules: BasicRules | ShanghaiRules | dict | None = None, workers: int | None = None,
             chunk_size: int | None = None, variant: str = "basic") -> Results:
    """Play ``games`` full games or ``hands`` independent hands and return the results in memory.

    >>> r = simulate(hands=1000, players=3, strategies=["greedy", "random", "greedy"], seed=7)
    >>> r.hands.outcome.value_counts()
    >>> s = simulate(games=100, players=4, variant="shanghai")   # s.hands: one row per round
    """
    import pandas as pd

    from .rules import rules_from_mapping
    from .strategy import seat_strategies

    if isinstance(rules, dict):
        rules = rules_from_mapping(rules, variant=variant)
    spec = RunSpec(players, seat_strategies(list(strategies), players, variant), seed, rules, games, hands,
                   variant=variant)
    summary = new_summary(spec)
    tables: dict[str, list[pa.Table]] = {"hands": [], "rounds": [], "seats": [], "games": []}
    warm_up(players, variant)
    start = time.perf_counter()
    for chunk in iter_chunks(spec, chunk_size, workers):
        add_chunk(summary, chunk)
        for name, table in chunk_tables(spec, chunk).items():
            tables[name].append(table)
    wall = time.perf_counter() - start
    frames = {k: pa.concat_tables(v).to_pandas() if v else pd.DataFrame() for k, v in tables.items()}
    return Results(frames["rounds" if variant == "shanghai" else "hands"], frames["seats"], frames["games"],
                   summary.as_dict(wall), spec.describe())


def chunk_size_for(spec: RunSpec, chunk_size: int | None = None) -> int:
    """Games (or hands) per chunk: the given size, or the default of the run's kind."""
    return chunk_size or (DEFAULT_CHUNK_HANDS if spec.hands is not None else
                          DEFAULT_CHUNK_SHANGHAI_GAMES if spec.variant == "shanghai" else DEFAULT_CHUNK_GAMES)


def chunk_games(spec: RunSpec, k: int, size: int) -> np.ndarray:
    """int64 game indices of chunk ``k`` (chunks of ``size`` in game order)."""
    return np.arange(spec.first + k * size, spec.first + min((k + 1) * size, spec.count), dtype=np.int64)


def play_chunk_task(spec: RunSpec, k: int, size: int, threads: int = 1) -> tuple[int, Chunk]:
    """Chunk ``k`` of ``spec``, played where this runs (a Dask worker): ``(k, chunk)``."""
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    games = chunk_games(spec, k, size)
    return k, play_chunk(spec, games, spec.rules.to_array(spec.players), params_matrix(spec.strategies))


def _local_chunks(spec: RunSpec, todo, size: int, workers: int | None) -> Iterator[tuple[int, Chunk]]:
    """Chunks ``todo`` (indices, in order) played in this process with ``workers`` threads: ``(k, chunk)``."""
    rules = spec.rules.to_array(spec.players)
    params = params_matrix(spec.strategies)
    numba.set_num_threads(min(workers or numba.config.NUMBA_NUM_THREADS, numba.config.NUMBA_NUM_THREADS))
    for k in todo:
        yield k, play_chunk(spec, chunk_games(spec, k, size), rules, params)


def _dask_chunks(spec: RunSpec, todo: list[int], size: int, client) -> Iterator[tuple[int, Chunk]]:
    """Chunks played by the workers of a ``distributed.Client``, in the order they finish. A worker
    that dies has its chunks re-run by the scheduler; each chunk's result arrives once."""
    from distributed import as_completed

    futures = [client.submit(play_chunk_task, spec, k, size, pure=False, key=f"rummysim-chunk-{k}-{id(spec)}")
               for k in todo]
    try:
        for future in as_completed(futures):
            yield future.result()
    finally:
        for f in futures:
            f.cancel()


def run_to_dir(spec: RunSpec, out_dir: Path, workers: int | None = None, chunk_size: int | None = None,
               on_chunk: Callable[[int, int, float], None] | None = None, client=None,
               resume: bool = False) -> dict:
    """Play ``spec`` writing Parquet to ``out_dir`` chunk by chunk; return the ``run.json`` record.

    Each finished chunk is kept in ``out_dir/chunks`` (``results.ChunkStore``) and joined, in
    order, into ``hands``/``rounds``, ``seats`` and ``games.parquet``, named when all are done.
    ``on_chunk(units_done, hands_done, seconds)`` is called after each chunk (progress;
    seconds of play so far, compile time excluded; Shanghai counts rounds as hands).
    ``client``: a ``distributed.Client`` whose workers play the chunks (else this process,
    with ``workers`` threads). ``resume``: keep the chunks already finished in ``out_dir``
    and play only the others (``chunk_size`` must then be the run's).
    On KeyboardInterrupt (Ctrl-C, or SIGTERM) the finished chunks stay and run.json says
    ``"status": "interrupted"``; after a SIGKILL it still says ``"running"``. Either way
    ``resume_run`` finishes it, with the same rows as an uninterrupted run.
    """
    size = chunk_size_for(spec, chunk_size)
    n_chunks = -(-spec.count // size)
    store = ChunkStore(out_dir, keep=resume)
    finished = store.finished()
    summary = new_summary(spec)
    for rec in finished.values():
        add_state(summary, rec["summary_state"])
    done = sum(rec["units"] for rec in finished.values())
    played = sum(rec["rows"] for rec in finished.values())
    earlier = sum(rec["seconds"] for rec in finished.values())  # play time of the chunks kept
    record = {"rummysim_version": __version__, "schema_version": SCHEMA_VERSION, **spec.describe(),
              "chunk_size": size, "chunks": n_chunks, "status": "running",
              "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
              "workers": "dask" if client is not None else workers or numba.config.NUMBA_NUM_THREADS}
    write_json_atomic(out_dir / "run.json", record)
    record["compile_seconds"] = 0.0 if client is not None else round(warm_up(spec.players, spec.variant), 3)
    todo = [k for k in range(n_chunks) if k not in finished]
    start = time.perf_counter()

    def write(k: int, chunk: Chunk, state: dict, seconds: float) -> None:
        store.write(k, chunk_tables(spec, chunk), {"units": len(chunk.games), "rows": len(chunk.hand_rows),
                                                   "seconds": seconds, "summary_state": state})
        store.join()

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
            add_chunk(part, chunk)
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
        store.finish(n_chunks)
        record["status"] = "complete"
    except KeyboardInterrupt:
        record["status"] = "interrupted"
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
            kept = store.finished()
            done = sum(rec["units"] for rec in kept.values())
            played = sum(rec["rows"] for rec in kept.values())
        wall = earlier + time.perf_counter() - start  # resumed: the kept chunks' play time too
        record.update({"done": done, ("rounds_played" if spec.variant == "shanghai" else "hands_played"): played,
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


class ResumeError(ValueError):
    """A results directory that cannot be resumed; the message says why in one line."""


def spec_of_record(record: dict) -> RunSpec:
    """The ``RunSpec`` a ``run.json`` describes, with its strategy files checked unchanged."""
    from .rules import rules_from_mapping
    from .strategy import load_strategy

    variant = record.get("variant", "basic")
    strategies = []
    for s in record["strategies"]:
        strategy = load_strategy(s.get("path", s["source"]), variant)
        if strategy.sha256 != s["sha256"]:
            raise ResumeError(f"strategy {s['source']} has changed since the run (sha256 {strategy.sha256}, "
                              f"recorded {s['sha256']}): the results would not be the same")
        strategies.append(strategy)
    rules = rules_from_mapping({k: v for k, v in record["rules"].items() if v != "unlimited"}, variant=variant)
    count = record["count"]
    games, hands = (count, None) if record["mode"] == "games" else (None, count)
    return RunSpec(record["players"], strategies, record["seed"], rules, games, hands, record.get("first", 0),
                   variant)


def resume_run(out_dir: Path, workers: int | None = None, on_chunk=None, client=None) -> dict:
    """Finish an interrupted (or killed) run in ``out_dir``: play exactly its missing chunks."""
    import json

    path = Path(out_dir) / "run.json"
    try:
        record = json.loads(path.read_text())
        spec = spec_of_record(record)
        size = record["chunk_size"]
    except ResumeError:
        raise
    except (OSError, ValueError, KeyError) as e:
        raise ResumeError(f"--resume {out_dir}: not a resumable rummysim run ({e})") from None
    if record.get("status") == "complete":
        raise ResumeError(f"--resume {out_dir}: the run is already complete")
    return run_to_dir(spec, Path(out_dir), workers, size, on_chunk, client, resume=True)
