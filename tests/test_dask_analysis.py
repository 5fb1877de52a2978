"""compare, sweep and tune on a Dask cluster give what they give locally (issue 29).

Every check is against the same call played in this process with the same seed: the same rows
in the saved files and the same statistics (all but how it was run: wall time), whatever order the
chunks come back from the worker processes of a real ``distributed.LocalCluster`` in; an SPRT stops
at the same deal and cancels what is still queued on the cluster; a comparison whose client is
killed is finished by ``--resume --dask-local``; a worker killed mid-match has its chunks re-run.
"""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path

import pandas as pd
import pytest
from conftest import kill_a_busy_worker
from distributed.diagnostics.plugin import SchedulerPlugin

from rummysim.analysis import tune as T
from rummysim.analysis.compare import compare
from rummysim.analysis.sweep import run_sweep
from rummysim.results import prepare_out_dir
from rummysim.strategy import load_strategy, with_override
from rummysim.variants import VARIANTS
from test_cli import run_cli
from test_scale import _rummysim

BASIC = VARIANTS["basic"]
#: what records how a comparison was run, not what it found
HOW_IT_RAN = ("wall_seconds", "provenance")


def _strategies(*names):
    return [load_strategy(n, BASIC) for n in names]


def _found(result: dict) -> dict:
    """A comparison's result without the fields that say how it was run."""
    return {k: v for k, v in json.loads(json.dumps(result)).items() if k not in HOW_IT_RAN}


def _assert_same_dirs(a: Path, b: Path) -> None:
    """The same files: Parquet rows equal, compare.json equal but for how it ran, the rest byte for byte."""
    files = sorted(p.name for p in a.iterdir() if not p.name.startswith("."))
    assert files == sorted(p.name for p in b.iterdir() if not p.name.startswith(".")) and "hands.parquet" in files
    for name in files:
        if name.endswith(".parquet"):
            pd.testing.assert_frame_equal(pd.read_parquet(a / name), pd.read_parquet(b / name))
        elif name == "compare.json":
            assert _found(json.loads((a / name).read_text())) == _found(json.loads((b / name).read_text()))
        else:
            assert (a / name).read_bytes() == (b / name).read_bytes(), name


def _rummysim_keys(client) -> list[str]:
    """The chunk tasks the scheduler still holds."""
    return client.run_on_scheduler(lambda dask_scheduler: [str(k) for k in dask_scheduler.tasks
                                                           if str(k).startswith("rummysim-chunk-")])


class _TaskLog(SchedulerPlugin):
    """A scheduler plugin noting every chunk task it sees and those that ran to the end (``memory``)."""

    name = "rummysim-test-task-log"

    def __init__(self):
        self.seen, self.ran = set(), set()

    @staticmethod
    def read(dask_scheduler) -> tuple[set, set]:
        """The chunk tasks seen and run, taken off the scheduler."""
        log = dask_scheduler.plugins[_TaskLog.name]
        dask_scheduler.remove_plugin(name=_TaskLog.name)
        return log.seen, log.ran

    def transition(self, key, start, finish, *args, **kwargs):
        if str(key).startswith("rummysim-chunk-"):
            self.seen.add(str(key))
            if finish == "memory":
                self.ran.add(str(key))


def test_compare_on_dask_gives_the_local_result_and_rows(tmp_path, cluster):
    _, client = cluster
    s = _strategies("greedy", "expert", "cautious")
    args = (BASIC, s, 2, 5, BASIC.rules(), None, 3000)
    seen = []
    on = compare(*args, chunk_size=250, out_dir=prepare_out_dir(tmp_path / "dask"), client=client,
                 on_chunk=lambda done, hands: seen.append(done))
    local = compare(*args, workers=1, chunk_size=250, out_dir=prepare_out_dir(tmp_path / "local"))
    assert on["status"] == "complete" and len(on["pairs"]) == 3 and "rating" in on
    assert _found(on) == _found(local)
    assert seen == list(range(250, 3001, 250)) * 3   # progress: each chunk of each match, in order
    _assert_same_dirs(tmp_path / "dask", tmp_path / "local")


def test_sprt_on_dask_stops_where_the_local_one_does_and_cancels_the_rest(tmp_path, cluster):
    c, client = cluster
    s = _strategies("greedy", "rummy-seeker")
    args = (BASIC, s, 2, 5, BASIC.rules(), None, 100_000)
    client.run_on_scheduler(lambda dask_scheduler: dask_scheduler.add_plugin(_TaskLog()))
    try:
        on = compare(*args, chunk_size=250, sprt=(0, 10), out_dir=prepare_out_dir(tmp_path / "dask"), client=client)
    finally:
        seen, ran = client.run_on_scheduler(_TaskLog.read)
    local = compare(*args, workers=1, chunk_size=250, sprt=(0, 10), out_dir=prepare_out_dir(tmp_path / "local"))
    p = on["pairs"][0]
    assert p["sequential"] and p["blocks"] == 600   # stopped in its third chunk of 400
    assert _found(on) == _found(local)
    _assert_same_dirs(tmp_path / "dask", tmp_path / "local")
    # at most a window of chunks was sent, and what had not run when the SPRT stopped never did
    assert 3 <= len(ran) < len(seen) <= 64 + 3
    assert _rummysim_keys(client) == []


def test_sweep_on_dask_gives_the_local_figures(tmp_path, cluster):
    _, client = cluster
    base = load_strategy("greedy", BASIC)
    values = ["4", "12"]
    strategies = [with_override(base, "meld.abandon_turn", v, BASIC) for v in values]
    baseline = load_strategy("expert", BASIC)
    results = {}
    for where, kw in (("dask", {"client": client}), ("local", {})):
        out = prepare_out_dir(tmp_path / where)
        results[where] = run_sweep(BASIC, strategies, values, "meld.abandon_turn", baseline, 2, 3, BASIC.rules(),
                                   None, 2400, 1, 300, out, **kw)
    assert results["dask"] == results["local"] and results["dask"]["rows"][0]["blocks"] == 2400
    for name in ("sweep.json", "sweep.csv"):
        assert (tmp_path / "dask" / name).read_bytes() == (tmp_path / "local" / name).read_bytes()


def test_tune_on_dask_makes_the_local_search(tmp_path, cluster):
    pytest.importorskip("optuna")
    _, client = cluster
    base = load_strategy("greedy", BASIC)
    knobs = [T.parse_knob("meld.abandon_turn=2:20", BASIC)]
    args = (BASIC, base, knobs, _strategies("expert"), 2, 4, BASIC.rules(), None, 3000, 2)
    on = T.tune(*args, workers=1, client=client)
    local = T.tune(*args, workers=1)
    assert json.dumps(on) == json.dumps(local)   # (NaN where an interval has none: equal as text)
    assert len(on["trials"]) == 2 and on["confirmed"]["best"]["n"] == 3000


COMMANDS = {
    "compare": ["compare", "greedy", "expert", "--hands", "40", "--out", "r"],
    "resume": ["compare", "--resume", "r"],
    "sweep": ["sweep", "greedy", "--param", "meld.abandon_turn", "--values", "4,8", "--hands", "40", "--out", "r"],
    "tune": ["tune", "greedy", "--param", "meld.abandon_turn=2:9", "--against", "expert", "--trials", "1",
             "--hands", "40", "--out", "tuned.toml", "--report", "r"],
}


def _refused(code: int, err: str, words: str, where: Path) -> None:
    assert code == 2 and err.startswith(f"rummysim: error: {words}") and err.count("\n") == 1, err
    assert list(where.iterdir()) == []


@pytest.mark.parametrize("command", list(COMMANDS))
def test_scheduler_and_dask_local_together_are_refused(tmp_path, capsys, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli([*COMMANDS[command], "--scheduler", "tcp://127.0.0.1:8786", "--dask-local", "2"], capsys)
    _refused(code, err, "give --scheduler or --dask-local, not both", tmp_path)


def test_a_bad_scheduler_address_writes_nothing(tmp_path, capsys, monkeypatch):
    # (once in this process: distributed does not take a second failed client in one process well)
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli([*COMMANDS["compare"], "--scheduler", "nowhere"], capsys)
    _refused(code, err, "--scheduler nowhere: cannot connect (missing port number", tmp_path)


@pytest.mark.slow   # a new process each, and the 20 s a Dask client waits for an unreachable scheduler
@pytest.mark.parametrize("command, address", [("compare", "tcp://127.0.0.1:1"), ("resume", "nowhere"),
                                              ("sweep", "nowhere"), ("tune", "nowhere")])
def test_an_unreachable_scheduler_writes_nothing(tmp_path, command, address):
    done = subprocess.run(_rummysim(*COMMANDS[command], "--scheduler", address), cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    _refused(done.returncode, done.stderr, f"--scheduler {address}: cannot connect", tmp_path)


def _wait_for_pair_chunks(out: Path, n: int, proc: subprocess.Popen, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while len(list((out / "chunks").glob("p*.json"))) < n:
        assert proc.poll() is None, "the comparison ended before it could be cut"
        assert time.monotonic() < deadline, "the comparison wrote no chunks"
        time.sleep(0.02)


@pytest.mark.slow   # a killed client, then a local cluster started by the command: about 30 s
def test_a_killed_client_is_resumed_with_dask_local(tmp_path, capsys, cluster):
    c, _ = cluster
    args = ["greedy", "expert", "--hands", "40000", "--chunk-size", "1000", "--seed", "9"]
    out = tmp_path / "killed"
    proc = subprocess.Popen(_rummysim("compare", *args, "--scheduler", c.scheduler_address, "--out", str(out)),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_for_pair_chunks(out, 3, proc)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
    assert json.loads((out / "compare.json").read_text())["status"] == "running"
    assert 3 <= len(list((out / "chunks").glob("p*.json"))) < 40 and not (out / "hands.parquet").exists()
    done = subprocess.run(_rummysim("compare", "--resume", str(out), "--dask-local", "2", "--json"),
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    resumed = json.loads(done.stdout)
    assert resumed["status"] == "complete" and not (out / "chunks").exists()
    whole = tmp_path / "whole"
    code, stdout, err = run_cli(["compare", *args, "--workers", "1", "--out", str(whole), "--json"], capsys)
    assert code == 0, err
    assert _found(resumed) == _found(json.loads(stdout))
    _assert_same_dirs(out, whole)


@pytest.mark.slow
def test_a_worker_dying_mid_match_has_its_chunks_rerun_once(tmp_path, cluster):
    _, client = cluster
    s = _strategies("greedy", "expert")
    args = (BASIC, s, 2, 7, BASIC.rules(), None, 120_000)
    killed = []

    def kill_one(done, hands):
        kill_a_busy_worker(client, killed)

    on = compare(*args, chunk_size=3000, out_dir=prepare_out_dir(tmp_path / "dask"), client=client,
                 on_chunk=kill_one)
    assert killed, "no worker was busy to kill"
    client.wait_for_workers(2, timeout=60)
    local = compare(*args, workers=1, chunk_size=3000, out_dir=prepare_out_dir(tmp_path / "local"))
    assert on["pairs"][0]["blocks"] == 120_000 and _found(on) == _found(local)
    hands = pd.read_parquet(tmp_path / "dask" / "hands.parquet")
    assert len(hands) == 2 * 120_000 and not hands.duplicated(["game", "rotation"]).any()  # each hand once
    _assert_same_dirs(tmp_path / "dask", tmp_path / "local")
