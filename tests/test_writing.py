"""What a run writes, and how (issue 29's write path): the Parquet files hold exactly the rows played,
with the encodings chosen for speed; chunk files are compressed and checked; a chunk is joined from
memory only when the caller still holds it; the ``rummysim`` command ends without the interpreter's
teardown but runs the exit handlers and keeps its exit status."""

import json
import os
import subprocess
import sys

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from rummysim import simulate
from rummysim.results import CHUNK_FILE_OPTIONS, COLUMN_ENCODING, ChunkError, ChunkStore
from rummysim.run import RunSpec, chunk_tables, play_chunk, run_to_dir
from rummysim.strategy import params_matrix, seat_strategies
from rummysim.variants import VARIANTS

pytestmark = pytest.mark.engine


def _spec(variant: str, players: int, **count) -> RunSpec:
    v = VARIANTS[variant]
    return RunSpec(v, players, seat_strategies(["greedy"], players, v), seed=5, **count)


@pytest.mark.parametrize("variant, players, count", [("basic", 2, {"hands": 900}), ("basic", 3, {"games": 40}),
                                                     ("shanghai", 4, {"games": 3}), ("gin", 2, {"games": 20})])
def test_parquet_files_hold_the_rows_played_with_their_encodings(variant, players, count, tmp_path):
    """Every table read back from its Parquet file equals the rows ``simulate`` keeps in memory, and
    each column of ``COLUMN_ENCODING`` is written in its encoding (no dictionary), the others (but
    booleans) with one."""
    spec = _spec(variant, players, **count)
    run_to_dir(spec, tmp_path, workers=1, chunk_size=7)
    memory = simulate(players=players, strategies="greedy", seed=5, variant=variant, workers=1, **count)
    frames = {VARIANTS[variant].table: memory.hands, "seats": memory.seats, "games": memory.games}
    for name, frame in frames.items():
        path = tmp_path / f"{name}.parquet"
        if frame.empty:
            assert not path.exists()
            continue
        saved = pq.read_table(path).to_pandas()
        assert saved.equals(frame), name
        meta = pq.ParquetFile(path).metadata
        assert meta.num_row_groups == -(-spec.count // 7)   # one row group per chunk
        columns = meta.row_group(0)
        for i in range(columns.num_columns):
            column = columns.column(i)
            encodings = set(column.encodings)
            if column.path_in_schema in COLUMN_ENCODING:
                assert COLUMN_ENCODING[column.path_in_schema] in encodings, (name, column.path_in_schema)
                assert not {"PLAIN_DICTIONARY", "RLE_DICTIONARY"} & encodings, (name, column.path_in_schema)
            elif pq.ParquetFile(path).schema_arrow.field(column.path_in_schema).type != pa.bool_():  # bits as they are
                assert {"PLAIN_DICTIONARY", "RLE_DICTIONARY"} & encodings, (name, column.path_in_schema)


def _chunk(spec: RunSpec, first: int, n: int) -> dict[str, pa.Table]:
    games = np.arange(first, first + n, dtype=np.int64)
    return chunk_tables(spec, play_chunk(spec, games, spec.rules.to_array(spec.players),
                                         params_matrix(spec.strategies)))


def test_chunk_files_are_compressed_and_read_back_whole(tmp_path):
    """A chunk's Arrow files are LZ4-compressed (a Basic chunk's to well under half its bytes in
    memory) and another store over the directory reads them back equal, hashes checked."""
    spec = _spec("basic", 2, hands=4000)
    tables = _chunk(spec, 0, 4000)
    store = ChunkStore(tmp_path, "run-a")
    store.write(0, tables, {"units": 4000})
    for name, table in tables.items():
        size = (tmp_path / "chunks" / f"{ChunkStore.stem(0)}.{name}.arrow").stat().st_size
        assert size < table.nbytes / 2, (name, size, table.nbytes)
    again = ChunkStore(tmp_path, "run-a", keep=True).read(0)
    assert set(again) == set(tables) and all(again[n].equals(tables[n]) for n in tables)
    assert CHUNK_FILE_OPTIONS.compression == "lz4"


def _damage(out, key, table="hands"):
    path = out / "chunks" / f"{ChunkStore.stem(key)}.{table}.arrow"
    path.write_bytes(path.read_bytes()[:-40])


def test_a_chunk_the_caller_holds_is_joined_as_it_is_any_other_read_back_and_checked(tmp_path):
    """``join(written=...)`` takes the tables the caller just wrote as they are (so a file damaged
    afterwards does not matter to this join); a chunk it is not given (a resumed run's) is re-read
    and re-hashed, and one changed since is refused."""
    spec = _spec("basic", 2, hands=400)
    parts = [_chunk(spec, 200 * k, 200) for k in range(2)]
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    writer = ChunkStore(tmp_path / "a", "run-a")
    for k in range(2):
        writer.write(k, parts[k], {"units": 200})
        _damage(tmp_path / "a", k)
        writer.join(range(2), written={k: parts[k]})
    writer.finish(range(2))
    assert pq.read_table(tmp_path / "a" / "hands.parquet").equals(pa.concat_tables(p["hands"] for p in parts))

    ChunkStore(tmp_path / "b", "run-b").write(0, parts[0], {"units": 200})
    _damage(tmp_path / "b", 0)
    resumed = ChunkStore(tmp_path / "b", "run-b", keep=True)
    with pytest.raises(ChunkError, match="truncated or changed"):
        resumed.join(range(1))


def test_chunks_written_ahead_of_their_turn_are_read_back_when_it_comes(tmp_path):
    """Chunks arriving out of order (a cluster's) wait in their files: each join takes only the chunks
    next in line, the one just written from memory and the others read back, and the Parquet file
    holds them all in order."""
    spec = _spec("basic", 2, hands=250)
    parts = [_chunk(spec, 50 * k, 50) for k in range(5)]
    store = ChunkStore(tmp_path, "run-c")
    for k in (3, 1, 4, 0, 2):
        store.write(k, parts[k], {"units": 50})
        store.join(range(5), written={k: parts[k]})
        assert store.joined == {3: 0, 1: 0, 4: 0, 0: 2, 2: 5}[k]
    store.finish(range(5))
    assert pq.read_table(tmp_path / "seats.parquet").equals(pa.concat_tables(p["seats"] for p in parts))


def _command(code: str, tmp_path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                          env={**os.environ, "COLUMNS": "100"})


def test_the_command_runs_the_exit_handlers_and_keeps_its_status(tmp_path):
    """``rummysim`` (``cli.entry``) skips the interpreter's teardown, not the exit handlers or the
    output: a handler registered before still runs, stdout is complete, and the statuses are 0 for
    success and 2 for a user's mistake (one line)."""
    handler = "import atexit, sys; atexit.register(lambda: print('handler ran', flush=True)); "
    ok = _command(handler + "sys.argv = ['rummysim', '--version']; from rummysim.cli import entry; entry()", tmp_path)
    assert ok.returncode == 0 and "rummysim" in ok.stdout and ok.stdout.rstrip().endswith("handler ran")
    bad = _command(handler + "sys.argv = ['rummysim', 'run', '--hands', '0']; from rummysim.cli import entry; "
                   "entry()", tmp_path)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and bad.stderr.startswith("rummysim: error:")
    assert "handler ran" in bad.stdout and not any(tmp_path.iterdir())
    run = subprocess.run([sys.executable, "-m", "rummysim", "run", "--hands", "300", "--out", "r", "--json"],
                         capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    record = json.loads(run.stdout)
    assert record["status"] == "complete" and json.loads((tmp_path / "r" / "run.json").read_text()) == record
