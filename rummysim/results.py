"""Results schema, kernel rows -> Arrow tables, Parquet written chunk by chunk, atomic run.json.

Schema version ``SCHEMA_VERSION`` (documented in the README, "Results"):

``hands.parquet`` one row per hand:
    game int64, hand int32, seed uint64, players int8, dealer int8, starter int8,
    outcome dictionary<string> (win, stalemate_stock, stalemate_blocked, turn_limit),
    winner int8 (-1 if none), turns int16, reshuffles int16, points int32, going_rummy bool
``seats.parquet`` one row per seat and hand:
    game int64, hand int32, seat int8, strategy dictionary<string>, cards_left int8,
    value_left int16, melds_laid int8, cards_laid_off int8, discard_draws int16
``games.parquet`` one row per game (only for ``--games`` runs):
    game int64, winner int8 (-1: stopped by the hands-per-game cap), hands int32,
    score_0 ... score_{players-1} int32 (final scores)
"""

from __future__ import annotations

import json
import math
import os
import shutil
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from .core import basic as K
from .core.state import OUTCOMES

SCHEMA_VERSION = 1
TABLES = ("hands", "rounds", "seats", "games")
#: the record a command leaves beside its tables: one results directory holds one of them
RECORDS = ("run.json", "compare.json", "sweep.json")


def hands_table(rows: np.ndarray, seed: int, players: int) -> pa.Table:
    """``rows`` int32[n, HAND_COLS] from the kernel -> the ``hands`` table."""
    n = len(rows)
    return pa.table({
        "game": pa.array(rows[:, K.H_GAME].astype(np.int64)),
        "hand": pa.array(rows[:, K.H_HAND]),
        "seed": pa.array(np.full(n, seed, dtype=np.uint64)),
        "players": pa.array(np.full(n, players, dtype=np.int8)),
        "dealer": pa.array(rows[:, K.H_DEALER].astype(np.int8)),
        "starter": pa.array(rows[:, K.H_STARTER].astype(np.int8)),
        "outcome": pa.DictionaryArray.from_arrays(pa.array(rows[:, K.H_OUTCOME].astype(np.int8)), pa.array(OUTCOMES)),
        "winner": pa.array(rows[:, K.H_WINNER].astype(np.int8)),
        "turns": pa.array(rows[:, K.H_TURNS].astype(np.int16)),
        "reshuffles": pa.array(rows[:, K.H_RESHUFFLES].astype(np.int16)),
        "points": pa.array(rows[:, K.H_POINTS]),
        "going_rummy": pa.array(rows[:, K.H_RUMMY].astype(bool)),
    })


def seats_table(hand_rows: np.ndarray, seat_rows: np.ndarray, strategy_names: list[str]) -> pa.Table:
    """``seat_rows`` int32[n, players, SEAT_COLS] -> the ``seats`` table (hand-major, seat-minor)."""
    n, players = seat_rows.shape[:2]
    names = sorted(set(strategy_names))
    seat_code = np.array([names.index(s) for s in strategy_names], dtype=np.int8)
    flat = seat_rows.reshape(n * players, K.SEAT_COLS)
    return pa.table({
        "game": pa.array(np.repeat(hand_rows[:, K.H_GAME].astype(np.int64), players)),
        "hand": pa.array(np.repeat(hand_rows[:, K.H_HAND], players)),
        "seat": pa.array(np.tile(np.arange(players, dtype=np.int8), n)),
        "strategy": pa.DictionaryArray.from_arrays(pa.array(np.tile(seat_code, n)), pa.array(names)),
        "cards_left": pa.array(flat[:, K.S_CARDS_LEFT].astype(np.int8)),
        "value_left": pa.array(flat[:, K.S_VALUE_LEFT].astype(np.int16)),
        "melds_laid": pa.array(flat[:, K.S_MELDS_LAID].astype(np.int8)),
        "cards_laid_off": pa.array(flat[:, K.S_CARDS_LAID_OFF].astype(np.int8)),
        "discard_draws": pa.array(flat[:, K.S_DISCARD_DRAWS].astype(np.int16)),
    })


def games_table(games: np.ndarray, game_rows: np.ndarray, players: int) -> pa.Table:
    """``game_rows`` int32[g, 2 + players] (winner, hands, scores) -> the ``games`` table."""
    cols = {
        "game": pa.array(games.astype(np.int64)),
        "winner": pa.array(game_rows[:, 0].astype(np.int8)),
        "hands": pa.array(game_rows[:, 1]),
    }
    for q in range(players):
        cols[f"score_{q}"] = pa.array(game_rows[:, 2 + q])
    return pa.table(cols)


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


class ChunkStore:
    """Finished chunks of a run under ``out_dir/chunks/``, joined in order into the run's Parquet files.

    Each table of chunk k is written as an Arrow IPC file (``cNNNNNNN.<table>.arrow``: no encoding,
    nearly free) under a temporary name and renamed, and the chunk's record ``cNNNNNNN.json`` (its
    summary counters) is written last: a chunk is finished exactly when its record exists, whatever
    killed the run and when. ``join`` appends finished chunks, in index order, to
    ``<table>.parquet.tmp`` (one row group per chunk) as soon as they are next in line, so the
    Parquet encoding overlaps play as before; ``finish`` closes and renames those files and removes
    the chunks. A run that stops before then keeps its chunks and drops the half-written Parquet
    files; a resumed run joins the kept chunks again from the first.
    """

    def __init__(self, out_dir: Path, keep: bool = False):
        """``keep``: keep the chunks already there (a resumed run); else start with none."""
        self.out_dir = out_dir
        self.dir = out_dir / "chunks"
        if not keep:
            shutil.rmtree(self.dir, ignore_errors=True)
        self.dir.mkdir(exist_ok=True)
        self.writers: dict[str, pq.ParquetWriter] = {}
        self.next = 0

    def _name(self, k: int, suffix: str) -> Path:
        return self.dir / f"c{k:07d}.{suffix}"

    def finished(self) -> dict[int, dict]:
        """``{chunk index: its record}`` of every finished chunk."""
        return {int(f.name[1:8]): json.loads(f.read_text()) for f in self.dir.glob("c*.json")}

    def write(self, k: int, tables: dict[str, pa.Table], record: dict) -> None:
        for name, table in tables.items():
            final = self._name(k, f"{name}.arrow")
            tmp = final.with_name(final.name + ".tmp")
            with pa.OSFile(str(tmp), "wb") as sink, pa.ipc.new_file(sink, table.schema) as ipc:
                ipc.write_table(table)
            os.replace(tmp, final)
        write_json_atomic(self._name(k, "json"), record)

    def join(self) -> None:
        """Append every finished chunk that is next in index order to the Parquet files."""
        while self._name(self.next, "json").exists():
            for part in sorted(self.dir.glob(f"c{self.next:07d}.*.arrow")):
                name = part.name.split(".")[1]
                table = pa.ipc.open_file(pa.memory_map(str(part))).read_all()
                if name not in self.writers:
                    self.writers[name] = pq.ParquetWriter(self.out_dir / f"{name}.parquet.tmp", table.schema)
                self.writers[name].write_table(table)
            self.next += 1

    def finish(self, n_chunks: int) -> None:
        """All ``n_chunks`` chunks done: close the Parquet files under their names, drop the chunks."""
        self.join()
        if self.next != n_chunks:
            raise RuntimeError(f"chunks {self.next}..{n_chunks - 1} are missing")
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


class ResultWriter:
    """Parquet files in ``out_dir``, one row group per chunk, so memory does not grow with N.

    Files are closed (and so valid and readable) whether the run completes or
    is interrupted; ``run.json`` says which, with the counts finished.
    """

    def __init__(self, out_dir: Path):
        self.out_dir = out_dir
        self.writers: dict[str, pq.ParquetWriter] = {}

    def write(self, name: str, table: pa.Table) -> None:
        if table.num_rows == 0:
            return
        if name not in self.writers:
            self.writers[name] = pq.ParquetWriter(self.out_dir / f"{name}.parquet", table.schema)
        self.writers[name].write_table(table)

    def close(self) -> None:
        for w in self.writers.values():
            w.close()
        self.writers.clear()


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


def prepare_out_dir(path: str | Path, overwrite: bool = False) -> Path:
    """Create ``path`` if needed and check it can take a run; raise ``OSError``/``ValueError`` with a clear message."""
    out = Path(path)
    if out.exists() and not out.is_dir():
        raise ValueError(f"output directory {out}: exists and is not a directory")
    held = [f for f in RECORDS if (out / f).exists()]
    if held and not overwrite:
        raise ValueError(f"output directory {out}: already holds results ({held[0]}); "
                         "choose another --out or pass --overwrite")
    writable_dir(out, "output directory")
    for name in [f"{t}.parquet" for t in TABLES] + [f"{t}.parquet.tmp" for t in TABLES] + list(RECORDS):
        (out / name).unlink(missing_ok=True)
    shutil.rmtree(out / "chunks", ignore_errors=True)
    return out
