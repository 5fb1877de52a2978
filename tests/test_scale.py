"""Long runs: nothing lost on interruption, resume, and a Dask cluster giving the same rows (issue 6).

Every comparison is hand for hand: the same seed and options must give the
same rows whether a run is played at once, cut (Ctrl-C, SIGTERM or SIGKILL) and
resumed, or sent to the worker processes of a real ``distributed.LocalCluster``.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from conftest import kill_a_busy_worker

from rummysim.results import prepare_out_dir, read_results_table
from rummysim.run import ResumeError, RunSpec, resume_run, run_to_dir, warm_up
from rummysim.strategy import seat_strategies
from rummysim.variants import VARIANTS

BASIC, SHANGHAI = VARIANTS["basic"], VARIANTS["shanghai"]


def _tables(out: Path, names=("hands", "seats", "games")) -> dict[str, pd.DataFrame]:
    return {n: read_results_table(out, n).to_pandas() for n in names if (out / f"{n}.parquet").exists()}


def _assert_same_run(a: Path, b: Path) -> None:
    ta, tb = _tables(a), _tables(b)
    assert ta.keys() == tb.keys() and ta
    for name in ta:
        pd.testing.assert_frame_equal(ta[name], tb[name])
    sa = json.loads((a / "run.json").read_text())["summary"]
    sb = json.loads((b / "run.json").read_text())["summary"]
    for key in ("hands", "games", "win_rate_by_seat", "outcomes", "points_per_winning_hand", "turns_per_hand"):
        assert sa[key] == sb[key], key


def _uninterrupted(tmp_path: Path, spec: RunSpec, chunk_size: int) -> Path:
    out = prepare_out_dir(tmp_path / "whole")
    run_to_dir(spec, out, workers=1, chunk_size=chunk_size)
    return out


def _spec(**kw) -> RunSpec:
    return RunSpec(BASIC, 2, seat_strategies(["greedy", "expert"], 2, BASIC), seed=kw.pop("seed", 3), **kw)


@pytest.mark.parametrize("mode", [{"games": 120}, {"hands": 3000}])
def test_interrupted_then_resumed_equals_uninterrupted(tmp_path, mode):
    spec = _spec(**mode)
    cut = prepare_out_dir(tmp_path / "cut")

    def stop(done, hands, seconds):
        if done >= spec.count // 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_to_dir(spec, cut, workers=1, chunk_size=spec.count // 12, on_chunk=stop)
    record = json.loads((cut / "run.json").read_text())
    assert record["status"] == "interrupted" and 0 < record["done"] < spec.count
    assert not (cut / "hands.parquet").exists() and (cut / "chunks").is_dir()
    kept = read_results_table(cut, "hands").num_rows
    assert kept == record["hands_played"]

    seen = []
    final = resume_run(cut, workers=2, on_chunk=lambda done, hands, s: seen.append(done))
    assert final["status"] == "complete" and final["done"] == spec.count
    assert seen[0] > record["done"]  # only the missing chunks were played
    assert not (cut / "chunks").exists()
    _assert_same_run(cut, _uninterrupted(tmp_path, spec, spec.count // 12))


def test_resume_refuses_a_complete_run_and_a_changed_strategy(tmp_path):
    spec = _spec(hands=200)
    out = _uninterrupted(tmp_path, spec, 100)
    with pytest.raises(ResumeError, match="already complete"):
        resume_run(out)
    mine = tmp_path / "mine.toml"
    mine.write_text(Path("strategies/greedy.toml").read_text())
    spec = RunSpec(BASIC, 2, seat_strategies([str(mine)], 2, BASIC), seed=1, hands=400)
    cut = prepare_out_dir(tmp_path / "cut")
    with pytest.raises(KeyboardInterrupt):
        run_to_dir(spec, cut, chunk_size=100, on_chunk=lambda *a: (_ for _ in ()).throw(KeyboardInterrupt))
    mine.write_text(mine.read_text().replace('mode = "highest"', 'mode = "least_useful"'))
    with pytest.raises(ResumeError, match="has changed since the run"):
        resume_run(cut)


def _rummysim(*args: str) -> list[str]:
    return [sys.executable, "-m", "rummysim", *args]


def _wait_for_chunks(out: Path, n: int, proc: subprocess.Popen, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while len(list((out / "chunks").glob("c*.json"))) < n:
        assert proc.poll() is None, "the run ended before it could be cut"
        assert time.monotonic() < deadline, "the run wrote no chunks"
        time.sleep(0.02)


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_a_killed_run_process_is_resumed_exactly(tmp_path, sig):
    warm_up(2, BASIC)  # the child process loads compiled kernels from the cache
    args = ["--hands", "400000", "--chunk-size", "4000", "--seed", "9", "--workers", "1"]
    out = tmp_path / "killed"
    proc = subprocess.Popen(_rummysim("run", *args, "--out", str(out)), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    _wait_for_chunks(out, 3, proc)
    proc.send_signal(sig)
    proc.wait(timeout=60)
    record = json.loads((out / "run.json").read_text())
    # SIGKILL leaves no time to write anything: run.json still says running; SIGTERM is a clean stop
    assert record["status"] == ("running" if sig == signal.SIGKILL else "interrupted")
    finished = len(list((out / "chunks").glob("c*.json")))
    assert 3 <= finished < 100
    done = subprocess.run(_rummysim("run", "--resume", str(out), "--json"), capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["status"] == "complete"
    whole = tmp_path / "whole"
    assert subprocess.run(_rummysim("run", *args, "--out", str(whole)), capture_output=True).returncode == 0
    _assert_same_run(out, whole)


@pytest.mark.parametrize("spec", [_spec(games=150), RunSpec(SHANGHAI, 4, seat_strategies(["greedy", "buyer", "patient",
                                                                                    "random"], 4, SHANGHAI),
                                                             seed=2, games=24)],
                         ids=["basic", "shanghai"])
def test_dask_cluster_gives_the_rows_of_a_local_run(tmp_path, cluster, spec):
    _, client = cluster
    size = max(spec.count // 6, 1)
    out = prepare_out_dir(tmp_path / "dask")
    record = run_to_dir(spec, out, chunk_size=size, client=client)
    assert record["status"] == "complete" and record["workers"] == "dask"
    local = prepare_out_dir(tmp_path / "local")
    run_to_dir(spec, local, workers=2, chunk_size=size)
    names = (spec.variant.table, "seats", "games")
    for name in names:
        pd.testing.assert_frame_equal(read_results_table(out, name).to_pandas(),
                                      read_results_table(local, name).to_pandas())


@pytest.mark.slow
def test_a_worker_dying_mid_run_has_its_chunks_rerun_once(tmp_path, cluster):
    _, client = cluster
    spec = _spec(hands=240_000)
    killed = []

    def kill_one(done, hands, seconds):
        kill_a_busy_worker(client, killed)

    out = prepare_out_dir(tmp_path / "dask")
    record = run_to_dir(spec, out, chunk_size=6000, client=client, on_chunk=kill_one)
    assert killed, "no worker was busy to kill"
    assert record["status"] == "complete" and record["done"] == spec.count
    hands = read_results_table(out, "hands").to_pandas()
    assert len(hands) == spec.count and hands.game.is_unique  # every hand once, none twice
    client.wait_for_workers(2, timeout=60)
    _assert_same_run(out, _uninterrupted(tmp_path, spec, 6000))


def test_a_second_invocation_loads_every_kernel_from_the_cache():
    # no recursion under cache=True (a cached recursive kernel crashes a second process with "Symbol not
    # found"): whatever the first process did, the second one compiles nothing, for both variants' game kernels
    probe = ("from rummysim.run import warm_up\n"
             "from rummysim.variants import VARIANTS\n"
             "from rummysim.variants.basic import kernel as basic; from rummysim.variants.shanghai import kernel as shanghai\n"
             "warm_up(2, VARIANTS['basic']); warm_up(4, VARIANTS['shanghai'])\n"
             "s = [k.play_games.stats for k in (basic, shanghai)]\n"
             "print(sum(sum(x.cache_hits.values()) for x in s), sum(sum(x.cache_misses.values()) for x in s))\n")
    for attempt in ("first", "second"):
        done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
    hits, misses = (int(x) for x in done.stdout.split())
    assert (hits, misses) == (2, 0)
