"""Results on disk: the schema toolkit (``Column``, ``Table``, ``arrow_table``; each variant declares
its tables in ``rummysim.variants.<name>.schema``), chunk files joined into Parquet (``ChunkStore``),
one writer per results directory, atomic JSON records and results directories.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import math
import os
import shutil
import socket
import time
from pathlib import Path
from typing import Callable

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from filelock import FileLock, Timeout

from .base.errors import UsageError
from .engine.rng import deal_keys

SCHEMA_VERSION = 2
TABLES = ("hands", "rounds", "seats", "games")
#: the record a command leaves beside its tables: one results directory holds one of them
RECORDS = ("run.json", "compare.json", "sweep.json")
#: the one-writer lock of a results directory, and who holds it
LOCK_FILE = ".rummysim.lock"
OWNER_FILE = ".rummysim.owner"


@dataclasses.dataclass
class Chunk:
    """One chunk's kernel rows: ``hand_rows`` int32[n, width of the main table] (hands or rounds),
    ``seat_rows`` int32[n, players, width of the seats table], ``games`` int64[g] (the game indices)
    and ``game_rows`` int32[g, width of the games table] (None in hands mode)."""

    hand_rows: np.ndarray
    seat_rows: np.ndarray
    games: np.ndarray
    game_rows: np.ndarray | None


def chunk_with_room(play, games: np.ndarray, single: bool, capacity: int) -> Chunk:
    """A chunk of the game indices ``games`` int64[g] from a kernel that keeps ``capacity`` hands
    (rounds) a game: ``play(games, cap)`` returns ``(hand_rows, seat_rows, game_rows, n_hands)`` with
    each game's first ``cap`` units kept, in game order. Games longer than ``capacity`` (rare) are
    played again on their own with room for all their units, and their rows put back in game order."""
    cap = 1 if single else capacity
    hand_rows, seat_rows, game_rows, n_hands = play(games, cap)
    long_games = np.flatnonzero(n_hands > cap)
    if len(long_games) and not single:
        h2, s2, _, _ = play(games[long_games], int(n_hands[long_games].max()))
        fits = n_hands <= cap
        short = np.repeat(fits, np.minimum(n_hands, cap))
        position = np.concatenate([np.repeat(np.flatnonzero(fits), n_hands[fits]),
                                   np.repeat(long_games, n_hands[long_games])])
        order = np.argsort(position, kind="stable")
        hand_rows = np.concatenate([hand_rows[short], h2])[order]
        seat_rows = np.concatenate([seat_rows[short], s2])[order]
    return Chunk(hand_rows, seat_rows, games, None if single else game_rows)


@dataclasses.dataclass(frozen=True)
class Column:
    """One column of a results table: its name, Arrow type, meaning, and where its values come
    from: ``kernel`` (the column of the kernel's rows array it is read from; the kernels take their
    column constants from the same list) or, when None, from the caller (``arrow_table(given=)``).
    ``labels``: for a ``dictionary`` column, the names of its codes in code order."""

    name: str
    dtype: str
    meaning: str
    kernel: int | None = None
    labels: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class Table:
    """A results table (``<name>.parquet``), declared once: the Arrow tables, the kernels' column
    indices, the column checks of ``report`` and the schema tables of docs/results.md all come from it."""

    name: str
    rows: str                    # what one row is, for people: "one row per hand"
    columns: tuple[Column, ...]

    def index(self, name: str) -> int:
        """The kernel column of ``name``."""
        return next(c.kernel for c in self.columns if c.name == name)

    @property
    def width(self) -> int:
        """Columns of the kernel's rows array."""
        return 1 + max(c.kernel for c in self.columns if c.kernel is not None)

    def markdown(self) -> str:
        """This schema's table in docs/results.md."""
        lines = [f"`{self.name}.parquet`, {self.rows}:", "", "| column | type | meaning |", "|---|---|---|"]
        for c in self.columns:
            kind = c.dtype if not c.labels else "dictionary: " + ", ".join(f"`{x}`" for x in c.labels)
            lines.append(f"| `{c.name}` | {kind} | {c.meaning} |")
        return "\n".join(lines)


def seats_table(unit: Column, rows: str, columns: tuple[Column, ...]) -> Table:
    """A variant's ``seats`` table: ``game``, its ``unit`` column (hand, round), ``seat`` and
    ``strategy`` (the four ``unit_tables`` fills), then the kernel's per-seat ``columns``."""
    return Table("seats", rows, (
        Column("game", "int64", "game index"),
        unit,
        Column("seat", "int8", "seat (0 is left of the first dealer)"),
        Column("strategy", "dictionary", "the seat's strategy (name)"),
        *columns,
    ))


def games_table(players: int, winner: str, score: str) -> Table:
    """The ``games`` table of a variant whose kernel's game rows are int32[g, 2 + players] (winner,
    hands, final scores: Basic Rummy's, Gin Rummy's): ``winner`` says what the winner column holds,
    ``score`` what seat {q}'s score does (``score.format(q=q)``)."""
    return Table("games", "one row per game (`--games` runs)", (
        Column("game", "int64", "game index"),
        Column("winner", "int8", winner, 0),
        Column("hands", "int32", "hands played", 1),
        *(Column(f"score_{q}", "int32", score.format(q=q), 2 + q) for q in range(players)),
    ))


def kernel_columns(table: Table, *names: str) -> tuple[int, ...]:
    """The kernel column indices of ``names``, checked to be every kernel column in order: how a
    variant's kernel constants (``H_GAME, H_HAND, ... = kernel_columns(HANDS, "game", "hand", ...)``)
    are taken from its schema."""
    kernel = [c.name for c in sorted((c for c in table.columns if c.kernel is not None), key=lambda c: c.kernel)]
    if list(names) != kernel or [table.index(n) for n in names] != list(range(len(names))):
        raise AssertionError(f"{table.name}: kernel columns {kernel}, asked for {list(names)}")
    return tuple(range(len(names)))


def arrow_table(table: Table, rows: np.ndarray, given: dict[str, np.ndarray] | None = None) -> pa.Table:
    """The Arrow table of ``table`` from the kernel's ``rows`` (int[n, width]) and the ``given``
    columns (arrays of n values, for the columns no kernel writes), typed as the schema says."""
    given = given or {}
    out = {}
    for c in table.columns:
        values = given[c.name] if c.kernel is None else rows[:, c.kernel]
        if c.dtype == "dictionary" and not c.labels:   # labels of the run's own: (codes, labels)
            codes, labels = values
            out[c.name] = pa.DictionaryArray.from_arrays(pa.array(codes), pa.array(list(labels)))
        elif c.labels:
            out[c.name] = pa.DictionaryArray.from_arrays(pa.array(np.asarray(values).astype(np.int8)),
                                                         pa.array(list(c.labels)))
        elif c.dtype == "bool":
            out[c.name] = pa.array(np.asarray(values).astype(bool))
        else:
            out[c.name] = pa.array(np.asarray(values).astype(c.dtype))
    return pa.table(out)


def strategy_codes(strategy_names: list[str], n: int) -> tuple[np.ndarray, tuple[str, ...]]:
    """The ``strategy`` column of a seats table of ``n`` hands or rounds (seat-minor): codes int8 into
    the sorted distinct names, and those names."""
    names = tuple(sorted(set(strategy_names)))
    return np.tile(np.array([names.index(s) for s in strategy_names], dtype=np.int8), n), names


def unit_tables(chunk: Chunk, seed: int, players: int, strategy_names: list[str], units: Table, seats: Table,
                unit: str, first_unit: int) -> dict[str, pa.Table]:
    """A chunk's table of hands (rounds) and its seats table, by file name: what every variant writes
    alike. ``units`` holds the kernel's unit rows (its columns ``game`` and ``unit`` numbered from
    ``first_unit``; the run's ``seed``, ``players`` and each deal's key added here); ``seats`` the seat
    rows, with ``game``, ``unit``, ``seat`` and ``strategy`` added."""
    n = len(chunk.hand_rows)
    game = chunk.hand_rows[:, units.index("game")]
    number = chunk.hand_rows[:, units.index(unit)]
    return {
        units.name: arrow_table(units, chunk.hand_rows, {
            "seed": np.full(n, seed), "players": np.full(n, players),
            "deal": deal_keys(seed, game.astype(np.int64), number.astype(np.int64) - first_unit)}),
        seats.name: arrow_table(seats, chunk.seat_rows.reshape(n * players, seats.width), {
            "game": np.repeat(game, players), unit: np.repeat(number, players),
            "seat": np.tile(np.arange(players), n), "strategy": strategy_codes(strategy_names, n)}),
    }


def json_safe(value):
    """``value`` with every NaN or infinite float replaced by None, so the JSON is valid (RFC 8259)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    return value


def write_json_atomic(path: Path, data: dict) -> None:
    """Write JSON to ``path`` through a temporary file and a rename: never half a file."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(json_safe(data), indent=2, default=str) + "\n")
    os.replace(tmp, path)


class ChunkError(RuntimeError):
    """A finished chunk failed its check while being joined; the message says which and why."""


class ResultsBusy(UsageError):
    """Another process holds the results directory."""


_HELD: dict[Path, list] = {}   # results directories this process holds: [lock, depth]


@contextlib.contextmanager
def hold_results_dir(out_dir: Path):
    """Hold ``out_dir`` as its one writer for the block; ``ResultsBusy`` naming the holder's PID if
    another process holds it. The lock (``.rummysim.lock``, an OS file lock that dies with its
    process) is taken by ``filelock``; ``.rummysim.owner`` says who holds it. Re-entrant in a process."""

    key = Path(out_dir).resolve()
    if key in _HELD:
        _HELD[key][1] += 1
        try:
            yield
        finally:
            _HELD[key][1] -= 1
        return
    lock = FileLock(str(key / LOCK_FILE), timeout=0)
    try:
        lock.acquire()
    except Timeout:
        try:
            owner = json.loads((key / OWNER_FILE).read_text())
            who = f"process {owner['pid']} on {owner['host']} since {owner['since']}"
        except (OSError, ValueError, KeyError, TypeError):
            who = "another process"
        raise ResultsBusy(f"{out_dir}: in use by {who}; wait for it to finish or use another --out") from None
    _HELD[key] = [lock, 1]
    try:
        write_json_atomic(key / OWNER_FILE, {"pid": os.getpid(), "host": socket.gethostname(),
                                             "since": time.strftime("%Y-%m-%dT%H:%M:%S%z")})
        yield
    finally:
        del _HELD[key]
        (key / OWNER_FILE).unlink(missing_ok=True)
        lock.release()


#: how a chunk's Arrow files are written: LZ4 takes 4 ms a table of a Basic chunk and leaves a third
#: of the bytes, which the disk then writes (and the hash reads) in less than the 5 MB it saved took
CHUNK_FILE_OPTIONS = pa.ipc.IpcWriteOptions(compression="lz4")

#: Parquet encodings of the columns the writer's default (a dictionary, then plain) costs time for
#: nothing: ``game`` ascends (delta-packed, a few bytes a chunk), ``deal`` is a random key no
#: dictionary holds. Together they were half the time of writing a Basic chunk.
COLUMN_ENCODING = {"game": "DELTA_BINARY_PACKED", "deal": "PLAIN"}


def parquet_writer(path: Path, schema: pa.Schema) -> pq.ParquetWriter:
    """A Parquet writer for a results table: each column of ``COLUMN_ENCODING`` encoded so, every
    other one dictionary-encoded (they repeat a few values), snappy-compressed."""
    return pq.ParquetWriter(path, schema, use_dictionary=[n for n in schema.names if n not in COLUMN_ENCODING],
                            column_encoding={n: e for n, e in COLUMN_ENCODING.items() if n in schema.names})


def _sha256(data) -> str:
    return hashlib.sha256(memoryview(data)).hexdigest()


class ChunkStore:
    """Finished chunks of a run under ``out_dir/chunks/``, joined in order into the run's Parquet files.

    Chunk ``key`` (a run's chunk index; a comparison's ``(pair, chunk)``) is one Arrow IPC file per
    table (``<stem>.<table>.arrow``, LZ4-compressed: ``CHUNK_FILE_OPTIONS``), each under a temporary name then
    renamed, and last its record ``<stem>.json``: the caller's fields (index range, summary counters)
    plus ``run`` (the run's options hash) and, per table, its row count and the sha256 of the file.
    A chunk is finished exactly when its record exists, whatever killed the run and when.
    ``verified`` drops (and deletes) every chunk whose record is unreadable or foreign, or whose files
    are missing, truncated or changed, so a resumed run plays them again. ``join`` appends finished
    chunks in order to ``<table>.parquet.tmp`` (one row group per chunk; ``parquet_writer``), passing
    their tables to ``check`` (the caller's content check: which games, how many rows) first: the
    tables the caller just wrote and still holds (``written``) as they are, any other chunk's
    re-read and re-hashed;
    ``finish`` renames the Parquet files into place and only then removes the chunks. A chunk that
    fails a check while being joined is deleted and raises ``ChunkError``: nothing is renamed, the
    other chunks stay, and a resumed run plays that one again.
    """

    def __init__(self, out_dir: Path, run_id: str, keep: bool = False):
        """``keep``: keep the chunks already there (a resumed run); else start with none."""
        self.out_dir = out_dir
        self.run_id = run_id
        self.dir = out_dir / "chunks"
        if not keep:
            shutil.rmtree(self.dir, ignore_errors=True)
        self.dir.mkdir(exist_ok=True)
        self.writers: dict[str, pq.ParquetWriter] = {}
        self.joined = 0   # chunks joined so far, in the caller's order

    @staticmethod
    def stem(key) -> str:
        """File stem of chunk ``key``: ``c0000000012`` (a run's chunk 12), ``p0003c0000000012`` (pair 3)."""
        return f"c{key:010d}" if isinstance(key, int) else f"p{key[0]:04d}c{key[1]:010d}"

    def _path(self, key, suffix: str) -> Path:
        return self.dir / f"{self.stem(key)}.{suffix}"

    def record(self, key) -> dict | None:
        """Chunk ``key``'s record, or None if it is not finished (or its record is unreadable)."""
        try:
            rec = json.loads(self._path(key, "json").read_text())
        except (OSError, ValueError):
            return None
        return rec if isinstance(rec, dict) else None

    def problem(self, key, rec: dict | None) -> str | None:
        """Why chunk ``key`` cannot be used (its record ``rec``), or None if every file is as recorded."""
        if rec is None:
            return "no readable record"
        if rec.get("run") != self.run_id:
            return "written by another run"
        tables = rec.get("tables")
        if not isinstance(tables, dict) or not tables:
            return "record lists no tables"
        for name, meta in tables.items():
            try:
                data = self._path(key, f"{name}.arrow").read_bytes()
            except OSError:
                return f"{name} file missing"
            if not isinstance(meta, dict) or _sha256(data) != meta.get("sha256"):
                return f"{name} file truncated or changed"
        return None

    def discard(self, key) -> None:
        """Delete whatever chunk ``key`` left (its record first, so it is never half finished)."""
        self._path(key, "json").unlink(missing_ok=True)
        for f in self.dir.glob(f"{self.stem(key)}.*"):
            f.unlink(missing_ok=True)

    @staticmethod
    def key_of(stem: str):
        """The chunk key a file stem names (``stem``'s inverse), or None for a foreign name."""
        try:
            if stem.startswith("c"):
                return int(stem[1:])
            if stem.startswith("p") and "c" in stem:
                pair, chunk = stem[1:].split("c")
                return int(pair), int(chunk)
        except ValueError:
            pass
        return None

    def present(self) -> list:
        """Keys of every chunk that left a file (finished or not), sorted."""
        keys = {self.key_of(f.name.split(".")[0]) for f in self.dir.iterdir()}
        return sorted(k for k in keys if k is not None)

    def records(self) -> dict:
        """``{key: record}`` of every chunk with a readable record (unchecked: for counting)."""
        recs = {k: self.record(k) for k in self.present()}
        return {k: r for k, r in recs.items() if r is not None}

    def verified(self, valid: Callable[[object, dict], str | None] | None = None) -> tuple[dict, dict]:
        """``({key: record}, {key: why dropped})``: the usable finished chunks, and the ones dropped
        (deleted, to be played again) because a file or record is missing, damaged or foreign, or
        because ``valid(key, record)`` (the caller's check of the record: its index range) says why."""
        good, dropped = {}, {}
        for key in self.present():
            rec = self.record(key)
            why = self.problem(key, rec)
            if why is None and valid is not None:
                why = valid(key, rec)
            if why is None:
                good[key] = rec
            else:
                dropped[key] = why
                self.discard(key)
        return good, dropped

    def write(self, key, tables: dict[str, pa.Table], record: dict) -> None:
        """Write chunk ``key``'s tables, then its record (which makes it finished)."""
        meta = {}
        for name, table in tables.items():
            sink = pa.BufferOutputStream()
            with pa.ipc.new_file(sink, table.schema, options=CHUNK_FILE_OPTIONS) as ipc:
                ipc.write_table(table)
            data = sink.getvalue()
            final = self._path(key, f"{name}.arrow")
            tmp = final.with_name(final.name + ".tmp")
            with open(tmp, "wb") as f:
                f.write(data)
            os.replace(tmp, final)
            meta[name] = {"rows": table.num_rows, "sha256": _sha256(data)}
        write_json_atomic(self._path(key, "json"), {**record, "run": self.run_id, "tables": meta})

    def read(self, key) -> dict[str, pa.Table]:
        """Chunk ``key``'s tables, each checked against its recorded hash and row count (``ChunkError``)."""
        rec = self.record(key)
        why = self.problem(key, rec)   # reads and hashes the files ...
        if why is not None:
            raise ChunkError(f"chunk {self.stem(key)}: {why}")
        out = {}
        for name, meta in rec["tables"].items():   # ... which are read once more here, from the page cache
            table = pa.ipc.open_file(pa.memory_map(str(self._path(key, f"{name}.arrow")))).read_all()
            if table.num_rows != meta.get("rows"):
                raise ChunkError(f"chunk {self.stem(key)}: {name} holds {table.num_rows} rows, "
                                 f"recorded {meta.get('rows')}")
            out[name] = table
        return out

    def join(self, order, check: Callable[[object, dict], str | None] | None = None,
             written: dict | None = None) -> None:
        """Append the finished chunks of ``order`` (every key, in order: a list, or a ``range`` for a
        run's chunks, which takes no memory however many) that are next in line. ``written``:
        ``{key: tables}`` of a chunk the caller has just written (``write``) and still holds, used as
        it is instead of read back from its files (a run writing chunk after chunk joins each so)."""
        while self.joined < len(order) and self._path(order[self.joined], "json").exists():
            key = order[self.joined]
            try:
                tables = written[key] if written and key in written else self.read(key)
                why = check(key, tables) if check else None
                if why is not None:
                    raise ChunkError(f"chunk {self.stem(key)}: {why}")
            except ChunkError:
                self.discard(key)   # so that a resumed run plays it again
                raise
            for name in sorted(set(tables) & set(TABLES)):   # a chunk's other tables are its own
                if name not in self.writers:
                    self.writers[name] = parquet_writer(self.out_dir / f"{name}.parquet.tmp", tables[name].schema)
                self.writers[name].write_table(tables[name])
            self.joined += 1

    def finish(self, order, check=None) -> None:
        """Every chunk of ``order`` is done: join the rest, check all were joined, rename the Parquet
        files into place, and only then drop the chunks."""
        self.join(order, check)
        if self.joined != len(order):
            missing = order[self.joined]
            raise ChunkError(f"chunk {self.stem(missing)} is missing")
        for name, writer in self.writers.items():
            writer.close()
            os.replace(self.out_dir / f"{name}.parquet.tmp", self.out_dir / f"{name}.parquet")
        self.writers.clear()
        shutil.rmtree(self.dir)

    def abandon(self) -> None:
        """The run stopped: drop the half-joined Parquet files, keep the chunks."""
        for name, writer in self.writers.items():
            writer.close()
            (self.out_dir / f"{name}.parquet.tmp").unlink(missing_ok=True)
        self.writers.clear()


def read_results_table(out_dir: str | Path, name: str) -> pa.Table:
    """Table ``name`` (``hands``, ``rounds``, ``seats``, ``games``) of a run: its Parquet file, or,
    for a run that did not finish, its finished chunks in order."""
    out = Path(out_dir)
    if (out / f"{name}.parquet").exists():
        return pq.read_table(out / f"{name}.parquet")
    parts = sorted((out / "chunks").glob(f"c*.{name}.arrow"))
    done = [p for p in parts if p.with_name(p.name.split(".")[0] + ".json").exists()]
    if not done:
        raise FileNotFoundError(f"{out}: no {name} table and no finished chunk of one")
    return pa.concat_tables(pa.ipc.open_file(pa.memory_map(str(p))).read_all() for p in done)


def writable_dir(out: Path, what: str) -> Path:
    """Create ``out`` if needed and prove it can be written; ``ValueError`` naming it if not."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as e:
        raise ValueError(f"{what} {out}: cannot write there ({e.strerror or e})") from None
    return out


def check_out_dir(out: Path, overwrite: bool) -> Path:
    """``out`` made (if needed) after checking it can take results: a directory, holding none unless
    ``overwrite``, writable; ``ValueError`` saying which is not so, with nothing written."""
    if out.exists() and not out.is_dir():
        raise ValueError(f"output directory {out}: exists and is not a directory")
    held = [f for f in RECORDS if (out / f).exists()]
    if held and not overwrite:
        raise ValueError(f"output directory {out}: already holds results ({held[0]}); "
                         "choose another --out or pass --overwrite")
    return writable_dir(out, "output directory")


def prepare_out_dir(path: str | Path, overwrite: bool = False) -> Path:
    """Create ``path`` if needed and check it can take a run; ``ValueError`` with a clear message if not
    (``ResultsBusy`` if another process is writing there). With ``overwrite`` the results there are
    removed, under the directory's lock."""
    out = check_out_dir(Path(path), overwrite)
    with hold_results_dir(out):
        for name in [f"{t}.parquet" for t in TABLES] + [f"{t}.parquet.tmp" for t in TABLES] + list(RECORDS):
            (out / name).unlink(missing_ok=True)
        shutil.rmtree(out / "chunks", ignore_errors=True)
    return out


@contextlib.contextmanager
def results_dir(path: str | Path | None, overwrite: bool = False, default: str | Path = "results/run"):
    """The results directory of a command, held for the whole block: ``path`` (checked and, with
    ``overwrite``, emptied of earlier results) or, if None, a new ``unique_dir(default)``. Every
    check comes before anything is written; ``ValueError`` (``ResultsBusy``) says what is wrong."""
    out = unique_dir(default) if path is None else check_out_dir(Path(path), overwrite)
    with hold_results_dir(out):
        yield prepare_out_dir(out, overwrite)


def unique_dir(stem: str | Path) -> Path:
    """A new directory named ``stem``, or ``stem-2``, ``stem-3``... if taken: made with an exclusive
    ``mkdir``, so two runs started in the same second never share one."""
    stem = Path(stem)
    writable_dir(stem.parent, "output directory")
    for n in range(1, 10_000):
        path = stem if n == 1 else stem.with_name(f"{stem.name}-{n}")
        try:
            path.mkdir()
            return path
        except FileExistsError:
            continue
        except OSError as e:
            raise ValueError(f"output directory {path}: cannot write there ({e.strerror or e})") from None
    raise ValueError(f"{stem}: 10,000 results directories of that name already exist; give --out")
