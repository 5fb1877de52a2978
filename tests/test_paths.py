"""Command-line paths each checked against an independent computation, not just "it ran":

* ``sweep``: every value's figures are those of ``compare`` with the overridden strategy, and
  those again are recomputed here from the Parquet rows compare saved;
* ``--rules-file``: the same rows as the same options given with ``--rule``, other rows than the
  default rules, and recorded in run.json (both variants);
* ``--overwrite``: refused without it (the first run's files untouched, by hash), and with it
  nothing of the first run is left;
* ``--scheduler`` and ``--resume --scheduler``: a real ``distributed.LocalCluster`` gives the rows
  of a local run, also when it finishes a run killed with SIGKILL;
* ``replay --variant shanghai`` without ``--from``: its last event is the row the run saved.
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
import signal
import struct
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from rummysim.results import TABLES
from test_cli import run_cli
from test_scale import _rummysim, _wait_for_chunks

ROOT = Path(__file__).resolve().parents[1]
EXPERT = ROOT / "strategies" / "expert.toml"


def _hashes(directory: Path) -> dict[str, str]:
    """sha256 of every file under ``directory``, by relative path."""
    return {str(p.relative_to(directory)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(directory.rglob("*")) if p.is_file()}


def _visible(directory: Path) -> set[str]:
    """The files a run leaves for the user (not the hidden lock/owner files of a results directory)."""
    return {name for name in _hashes(directory) if not Path(name).name.startswith(".")}


def _tables(out: Path) -> dict[str, pd.DataFrame]:
    return {n: pd.read_parquet(out / f"{n}.parquet") for n in TABLES if (out / f"{n}.parquet").exists()}


def _assert_same_rows(a: Path, b: Path) -> None:
    """Both runs hold the same tables, row for row, and the same summary (less its timings)."""
    ta, tb = _tables(a), _tables(b)
    assert ta and ta.keys() == tb.keys()
    for name in ta:
        pd.testing.assert_frame_equal(ta[name], tb[name], obj=name)

    def summary(out):
        s = json.loads((out / "run.json").read_text())["summary"]
        return {k: v for k, v in s.items() if k != "wall_seconds" and not k.endswith("_per_second")}

    assert summary(a) == summary(b)


def _ok(args, capsys) -> str:
    code, out, err = run_cli(args, capsys)
    assert code == 0, err
    return out


def _one_error_line(code: int, err: str) -> str:
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rummysim: error: "), err
    return lines[0]


# ------------------------------------------------------------------------------------------ sweep

SWEEP_VALUES = ("5", "20")
SWEEP_MATCH = ["--hands", "300", "--seed", "7", "--players", "2"]


def _share_interval(blocks: np.ndarray) -> list[float]:
    """Korn and Graubard's 95% interval for the mean of block shares, from its formula: Clopper-Pearson
    (beta quantiles) on Kish's effective number of units ``p (1 - p) / (s^2 / n)``, shrunk by
    ``(z / t(n - 1))^2``."""
    n, p = len(blocks), blocks.mean()
    n_eff = p * (1 - p) / (blocks.var(ddof=1) / n) * (stats.norm.ppf(0.975) / stats.t.ppf(0.975, n - 1)) ** 2
    x = p * n_eff
    return [stats.beta.ppf(0.025, x, n_eff - x + 1), stats.beta.ppf(0.975, x + 1, n_eff - x)]


def _recompute_pair(hands: pd.DataFrame, k: int) -> dict:
    """Win share (mean over deals of A's mean score over the k seatings, with its 95% interval)
    and A's points minus B's per hand, from the hands a compare of A against B saved: in rotation r
    A sits in seat r."""
    a_won = hands.winner == hands.rotation
    stale = hands.winner < 0
    score = np.where(a_won, 1.0, np.where(stale, 1.0 / k, 0.0))
    diff = np.where(a_won, hands.points, 0.0) - np.where(~a_won & ~stale, hands.points, 0.0) / (k - 1)
    per = pd.DataFrame({"game": hands.game, "score": score, "diff": diff})
    counts = per.groupby("game").size()
    assert (counts == k).all()  # every deal played once per seating
    blocks = per.groupby("game").score.mean().to_numpy()
    return {"win_share": blocks.mean(), "win_share_ci95": _share_interval(blocks),
            "points_per_hand_diff": diff.sum() / len(hands), "blocks": len(blocks)}


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


@pytest.mark.engine
def test_sweep_rows_are_the_compare_of_each_value(tmp_path, capsys):
    out = tmp_path / "sweep"
    printed = json.loads(_ok(["sweep", str(EXPERT), "--param", "meld.abandon_turn", "--values", ",".join(SWEEP_VALUES),
                              *SWEEP_MATCH, "--out", str(out), "--json"], capsys))
    assert _visible(out) == {"sweep.csv", "sweep.json", "sweep.png"}
    saved = json.loads((out / "sweep.json").read_text())
    assert saved == printed
    assert saved["key"] == "meld.abandon_turn" and saved["baseline"] == "greedy" and saved["count"] == 300
    assert _png_size(out / "sweep.png") == (1100, 440)  # figsize 10 x 4 at 110 dpi
    with open(out / "sweep.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["value"] for r in rows] == list(SWEEP_VALUES)  # one row per value, in order
    assert [r["value"] for r in saved["rows"]] == list(SWEEP_VALUES)

    text = EXPERT.read_text()
    for value, row, json_row in zip(SWEEP_VALUES, rows, saved["rows"]):
        mine = tmp_path / f"expert-{value}.toml"
        swept, n = re.subn(r"^abandon_turn = \d+$", f"abandon_turn = {value}", text, flags=re.MULTILINE)
        assert n == 1
        mine.write_text(swept)
        cmp_dir = tmp_path / f"compare-{value}"
        cmp = json.loads(_ok(["compare", str(mine), "greedy", *SWEEP_MATCH, "--out", str(cmp_dir), "--json"], capsys))
        pair = cmp["pairs"][0]
        ws, pp = pair["win_share"], pair["points_per_hand_diff"]
        # the CSV holds the floats' repr: they read back exactly
        assert float(row["win_share"]) == ws["estimate"], value
        assert [float(row["win_share_lo"]), float(row["win_share_hi"])] == ws["ci95"], value
        assert float(row["points_per_hand_diff"]) == pp["estimate"], value
        assert [float(row["pph_lo"]), float(row["pph_hi"])] == pp["ci95"], value
        assert int(row["blocks"]) == pair["blocks"] == 300
        assert json_row["win_share"] == ws and json_row["points_per_hand_diff"] == pp
        assert json_row["hands"] == pair["hands"]
        # and compare's figures again, from the rows it saved
        again = _recompute_pair(pd.read_parquet(cmp_dir / "hands.parquet"), 2)
        assert again["blocks"] == pair["blocks"]
        assert again["win_share"] == pytest.approx(ws["estimate"], abs=1e-12)
        assert again["win_share_ci95"] == pytest.approx(ws["ci95"], abs=1e-12)
        assert again["points_per_hand_diff"] == pytest.approx(pp["estimate"], abs=1e-12)
    # the two values are really different strategies
    assert rows[0]["win_share"] != rows[1]["win_share"] or rows[0]["points_per_hand_diff"] != rows[1]["points_per_hand_diff"]


def test_sweep_unknown_param_is_one_line_and_exit_2(tmp_path, capsys):
    out = tmp_path / "sweep"
    code, _, err = run_cli(["sweep", str(EXPERT), "--param", "meld.no_such_key", "--values", "1,2", "--hands", "10",
                            "--out", str(out)], capsys)
    line = _one_error_line(code, err)
    assert "--param 'meld.no_such_key': unknown key" in line and "meld.abandon_turn" in line
    assert "Traceback" not in err
    assert not (out / "sweep.json").exists() and not (out / "sweep.csv").exists()


# ------------------------------------------------------------------------------------ --rules-file

RULE_CASES = {
    "basic": ('reshuffles = 0\nace = "high_or_low"\n', ["reshuffles=0", "ace=high_or_low"],
              {"reshuffles": 0, "ace": "high_or_low"}, ["--hands", "300", "--players", "3", "--seed", "11"]),
    "basic-table": ('[rules]\nreshuffles = 0\nace = "high_or_low"\n', ["reshuffles=0", "ace=high_or_low"],
                    {"reshuffles": 0, "ace": "high_or_low"}, ["--games", "5", "--seed", "12"]),
    "shanghai": ("max_buys = 2\njoker_swap = false\n", ["max_buys=2", "joker_swap=false"],
                 {"max_buys": 2, "joker_swap": False},
                 ["--variant", "shanghai", "--games", "3", "--players", "4", "--seed", "11"]),
}


@pytest.mark.engine
@pytest.mark.parametrize("case", list(RULE_CASES))
def test_rules_file_equals_the_same_rule_flags(tmp_path, capsys, case):
    toml, pairs, expected, args = RULE_CASES[case]
    rules_file = tmp_path / "rules.toml"
    rules_file.write_text(toml)
    by_file, by_flags, default = tmp_path / "file", tmp_path / "flags", tmp_path / "default"
    _ok(["run", *args, "--rules-file", str(rules_file), "--out", str(by_file), "--json"], capsys)
    _ok(["run", *args, *[x for p in pairs for x in ("--rule", p)], "--out", str(by_flags), "--json"], capsys)
    _ok(["run", *args, "--out", str(default), "--json"], capsys)

    files, flags, plain = _tables(by_file), _tables(by_flags), _tables(default)
    assert files and files.keys() == flags.keys() == plain.keys()
    for name in files:
        pd.testing.assert_frame_equal(files[name], flags[name], obj=name)
        # not only the same rows: the same Parquet bytes
        assert _hashes(by_file)[f"{name}.parquet"] == _hashes(by_flags)[f"{name}.parquet"], name
    assert any(not files[n].equals(plain[n]) for n in files), "the rules file changed nothing"

    rec_file, rec_flags, rec_plain = (json.loads((d / "run.json").read_text()) for d in (by_file, by_flags, default))
    for key, value in expected.items():
        assert rec_file["rules"][key] == value, key
        assert rec_plain["rules"][key] != value, key
    assert rec_file["rules"] == rec_flags["rules"] and rec_file["rule_hash"] == rec_flags["rule_hash"]
    assert {k: v for k, v in rec_file["rules"].items() if k not in expected} == \
           {k: v for k, v in rec_plain["rules"].items() if k not in expected}
    assert rec_file["rule_hash"] != rec_plain["rule_hash"]
    # the rules themselves, from the rows
    if case.startswith("basic"):
        assert (files["hands"].reshuffles == 0).all()
    else:
        seats = files["seats"]
        assert seats.buys.max() <= 2 and (seats.swaps == 0).all()


# -------------------------------------------------------------------------------------- --overwrite

FIRST_RUNS = {
    "basic-games": ["--games", "20", "--seed", "1"],
    "shanghai-games": ["--variant", "shanghai", "--games", "2", "--players", "3", "--seed", "1"],
}


@pytest.mark.engine
@pytest.mark.parametrize("first", list(FIRST_RUNS))
def test_overwrite_replaces_a_run_and_only_with_the_flag(tmp_path, capsys, first):
    out, fresh = tmp_path / "out", tmp_path / "fresh"
    second = ["--hands", "200", "--seed", "2"]
    _ok(["run", *FIRST_RUNS[first], "--out", str(out), "--json"], capsys)
    before = _hashes(out)
    assert "games.parquet" in before

    code, _, err = run_cli(["run", *second, "--out", str(out), "--json"], capsys)
    line = _one_error_line(code, err)
    assert str(out) in line and "already holds results (run.json)" in line and "--overwrite" in line
    after = _hashes(out)
    assert {k: after.get(k) for k in before} == before  # every file of the first run byte for byte
    assert _visible(out) == {k for k in before if not Path(k).name.startswith(".")}  # and nothing new

    record = json.loads(_ok(["run", *second, "--out", str(out), "--overwrite", "--json"], capsys))
    assert record["status"] == "complete" and record["seed"] == 2 and record["mode"] == "hands"
    _ok(["run", *second, "--out", str(fresh), "--json"], capsys)
    assert _visible(out) == _visible(fresh)  # no stale file of the first run
    assert not (out / "games.parquet").exists() and not (out / "rounds.parquet").exists()
    assert json.loads((out / "run.json").read_text())["seed"] == 2
    _assert_same_rows(out, fresh)


# ---------------------------------------------------------------------------------- --scheduler

SCHEDULER_RUNS = {
    "basic": ["--games", "40", "--chunk-size", "8", "--seed", "5", "--strategy", "greedy", "--strategy", "expert"],
    "shanghai": ["--variant", "shanghai", "--games", "4", "--players", "4", "--chunk-size", "1", "--seed", "2",
                 "--strategy", "greedy", "--strategy", "buyer", "--strategy", "patient", "--strategy", "random"],
}


@pytest.mark.engine
@pytest.mark.parametrize("variant", list(SCHEDULER_RUNS))
def test_scheduler_from_the_command_line_gives_the_local_rows(tmp_path, capsys, cluster, variant):  # noqa: F811
    c, _ = cluster
    args = SCHEDULER_RUNS[variant]
    on_dask, local = tmp_path / "dask", tmp_path / "local"
    done = subprocess.run(_rummysim("run", *args, "--scheduler", c.scheduler_address, "--out", str(on_dask), "--json"),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["status"] == "complete" and record["workers"] == "dask" and record["variant"] == variant
    _ok(["run", *args, "--out", str(local), "--json"], capsys)
    _assert_same_rows(on_dask, local)


@pytest.mark.slow   # a Dask cluster and a killed process: 10 s
@pytest.mark.engine
def test_resume_on_a_scheduler_finishes_a_killed_run(tmp_path, capsys, cluster):  # noqa: F811
    c, _ = cluster
    args = ["--hands", "24000", "--chunk-size", "1000", "--seed", "9", "--workers", "1"]
    out, whole = tmp_path / "killed", tmp_path / "whole"
    proc = subprocess.Popen(_rummysim("run", *args, "--out", str(out)), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        _wait_for_chunks(out, 1, proc)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
    assert json.loads((out / "run.json").read_text())["status"] == "running"
    assert 1 <= len(list((out / "chunks").glob("c*.json"))) < 24
    assert not (out / "hands.parquet").exists()

    done = subprocess.run(_rummysim("run", "--resume", str(out), "--scheduler", c.scheduler_address, "--json"),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["status"] == "complete" and record["done"] == 24000 and record["workers"] == "dask"
    assert not (out / "chunks").exists()
    _ok(["run", *args, "--out", str(whole), "--json"], capsys)
    _assert_same_rows(out, whole)


# ------------------------------------------------------------------------------- Shanghai replay

def totals_line(seats: pd.DataFrame, game: int, round_no: int) -> str:
    """The text replay's last line: the game's totals after ``round_no``, from the run's seat rows."""
    so_far = seats[(seats.game == game) & (seats["round"] <= round_no)].groupby("seat").score.sum()
    return (f"game totals after round {round_no} (penalty: lower is better): "
            + ", ".join(f"seat {q} {t}" for q, t in so_far.items()) + ("; the game ends here" if round_no == 10 else "")
            + "\n")


@pytest.mark.engine
def test_shanghai_replay_without_from_is_the_round_the_run_saved(tmp_path, capsys):
    out = tmp_path / "sh"
    _ok(["run", "--variant", "shanghai", "--games", "2", "--players", "4", "--seed", "3", "--out", str(out),
         "--json"], capsys)
    rounds, seats = pd.read_parquet(out / "rounds.parquet"), pd.read_parquet(out / "seats.parquet")
    for game, round_no in ((1, 2), (0, 10)):
        common = ["replay", "--variant", "shanghai", "--seed", "3", "--game", str(game), "--round", str(round_no),
                  "--players", "4"]
        events = [json.loads(line) for line in _ok([*common, "--json"], capsys).splitlines()]
        row = rounds[(rounds.game == game) & (rounds["round"] == round_no)]
        assert len(row) == 1
        row = row.iloc[0]
        seat = seats[(seats.game == game) & (seats["round"] == round_no)].sort_values("seat")
        deal, end = events[0], events[-1]
        assert deal["event"] == "deal" and deal["round"] == round_no and deal["dealer"] == row.dealer
        assert end["event"] == "end" and [e["event"] for e in events].count("end") == 1
        assert end["outcome"] == row.outcome and end["winner"] == row.winner and end["bonus"] == row.bonus
        assert end["scores"] == seat.score.tolist()
        assert [len(h) for h in end["hands"]] == seat.cards_left.tolist()
        assert [sum(c == "JK" for c in h) for h in end["hands"]] == seat.jokers_left.tolist()
        kinds = [e["event"] for e in events]
        assert kinds.count("buy") == row.buys
        assert [sum(e["event"] == "buy" and e["player"] == q for e in events) for q in range(4)] == seat.buys.tolist()
        assert kinds.count("reshuffle") == row.reshuffles
        assert [sum(e["event"] == "swap" and e["player"] == q for e in events) for q in range(4)] == seat.swaps.tolist()
        # the text form: a header, each event as format_event writes it (a contract's melds separated by " / ",
        # as play writes them), the round's end, then the game's totals
        from rummysim.variants.shanghai.replay import format_event

        header, text = _ok(common, capsys).split("\n\n", 1)
        assert header.startswith(f"Shanghai Rummy: seed 3, game {game}, round {round_no}\n4 players: ")
        assert text == "".join(format_event(e) + "\n" for e in events) + totals_line(seats, game, round_no)
        assert text.startswith(f"round {round_no} deal: dealer seat {row.dealer}")
        last = text.rstrip("\n").splitlines()[-3]
        assert last.startswith(f"seat {row.winner} goes out" if row.outcome == "win" else "round ends with no winner")
