"""A played game saved like a run: ``hands``/``rounds``, ``seats`` and ``games.parquet`` with the
variant's schema (one row per hand or round), ``run.json`` (the run record, with a ``play`` entry),
and each hand's or round's events under ``events/`` (``replay --from`` prints those: a person's
moves cannot be replayed from a strategy). The person's seat is named ``human`` in the tables.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pyarrow.parquet as pq

from ..base.version import __version__
from ..results import SCHEMA_VERSION, write_json_atomic
from ..run import RunSpec, options_digest
from ..strategy import Strategy

HUMAN = "human"
EVENTS = "events"


def human_strategy(hint: Strategy) -> Strategy:
    """The person's seat in the records: named ``human``; the hint strategy's parameters."""
    return Strategy(HUMAN, f"a person at the terminal (hints: {hint.name})", HUMAN, "", hint.params)


def events_file(out: Path, unit: str, number: int) -> Path:
    return out / EVENTS / f"{unit}-{number}.jsonl"


def save_events(out: Path, unit: str, number: int, events: list[dict]) -> None:
    """One hand's or round's events, one JSON object a line (as ``replay --json`` prints them)."""
    path = events_file(out, unit, number)
    path.parent.mkdir(exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text("".join(json.dumps(e) + "\n" for e in events))
    tmp.replace(path)


def save_game(out: Path, spec: RunSpec, game, complete: bool, started: str, wall: float, you: int,
              hint: Strategy) -> dict:
    """Write the game's tables and ``run.json`` (status ``complete``, or ``quit`` with the hands or
    rounds finished before it), each through a rename; returns the record."""
    v = spec.variant
    chunk = game.chunk()
    names = [s.name for s in spec.strategies]
    for name, arrow in v.tables(chunk, spec.seed, spec.players, names).items():
        tmp = out / f"{name}.parquet.tmp"
        pq.write_table(arrow, tmp)
        os.replace(tmp, out / f"{name}.parquet")      # never half a table: a crash leaves the last one whole
    summary = v.summary(spec.players, names)
    summary.add(chunk)
    record = {"rummysim_version": __version__, "schema_version": SCHEMA_VERSION, **spec.describe(),
              "chunk_size": 1, "chunks": 1, "status": "complete" if complete else "quit", "started": started,
              "workers": 1}
    record["options_sha256"] = options_digest(record)
    record.update({"done": int(complete), f"{v.table}_played": len(chunk.hand_rows), "wall_seconds": round(wall, 3),
                   "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "summary": summary.as_dict(wall),
                   "play": {"seat": you, "hint_strategy": hint.name, "hint_sha256": hint.sha256, "events": EVENTS,
                            "totals": [int(t) for t in game.scores]}})
    write_json_atomic(out / "run.json", record)
    return record


def saved_events(out: Path, record: dict, unit: str, first: int, number: int) -> list[dict]:
    """The events of hand or round ``number`` of a played game whose first is ``first`` (``ValueError``,
    one line, if it has none)."""
    played = record.get(f"{unit}s_played", 0)
    if not played:
        raise ValueError(f"--{unit} {number}: the game in {out} was stopped before its first {unit} ended: "
                         "nothing to replay")
    if not events_file(out, unit, number).is_file():
        raise ValueError(f"--{unit} {number}: the game in {out} has {unit}s {first}..{first + played - 1}")
    return [json.loads(line) for line in events_file(out, unit, number).read_text().splitlines()]
