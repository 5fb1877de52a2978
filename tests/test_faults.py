"""Faults: bad input gets one line and loses nothing.

Every user mistake, from the command line or the Python API, ends as one line
(``rummysim: error: ...`` on stderr and exit code 2; a ``ValueError`` subclass
with a one-line message from the API), never a traceback; nothing is written,
and results already saved stay byte-identical.
"""

import hashlib
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rummysim.cli import main
from test_report import run_cli
from rummysim.variants import VARIANTS

BASIC, SHANGHAI = VARIANTS["basic"], VARIANTS["shanghai"]


def snapshot(*dirs) -> dict:
    """sha256 of every file under ``dirs`` (and the listing, so nothing new goes unseen)."""
    out = {}
    for d in dirs:
        for p in sorted(Path(d).rglob("*")):
            out[str(p)] = hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
    return out


def one_line(code, err, *words):
    assert code == 2, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("rummysim: error: "), err
    assert "Traceback" not in err
    for w in words:
        assert w in lines[0], (w, err)


@pytest.fixture(scope="session")
def saved(tmp_path_factory):
    """Two small finished runs: ``hands`` (2,000 hands, chunks of 500) and ``games`` (100 games)."""
    root = tmp_path_factory.mktemp("saved")
    for name, args in {"hands": ["--hands", "2000", "--chunk-size", "500"], "games": ["--games", "100"]}.items():
        try:
            main(["run", *args, "--seed", "3", "--workers", "1", "--json", "--out", str(root / name)])
        except SystemExit as e:
            assert not e.code
    return root


@pytest.fixture()
def cwd(tmp_path, monkeypatch):
    """Run in an empty directory, so anything written there by mistake is seen."""
    d = tmp_path / "cwd"
    d.mkdir()
    monkeypatch.chdir(d)
    return d


def check_untouched(before, saved, cwd):
    assert snapshot(saved) == before
    assert list(cwd.iterdir()) == []


# --- bad input (issue section 4) ---


@pytest.fixture()
def inputs(tmp_path):
    """A directory for files the tests hand to rummysim (beside ``cwd``, which must stay empty)."""
    d = tmp_path / "inputs"
    d.mkdir()
    return d


def test_binary_rules_or_strategy_file_is_one_line(saved, cwd, inputs, capsys):
    """Row 1: a --rules-file (or strategy file) of binary bytes: one line, nothing written."""
    before = snapshot(saved)
    binary = inputs / "rules.toml"
    binary.write_bytes(b"\xff\xfe\x00\x81binary\x00\xc3")
    for args in (["run", "--hands", "10", "--rules-file", binary, "--out", "out"],
                 ["replay", "--rules-file", binary],
                 ["run", "--hands", "10", "--strategy", binary, "--out", "out"]):
        code, _, err = run_cli(args, capsys)
        one_line(code, err, str(binary), "not UTF-8 text")
    check_untouched(before, saved, cwd)


@pytest.mark.parametrize("args, words", [
    (["replay", "--game", str(2**64)], ["--game", "0<=x<=9223372036854775807"]),
    (["replay", "--game", "-1"], ["--game"]),
    (["replay", "--hand", "100000"], ["--hand", "0<=x<=99999"]),
    (["replay", "--variant", "shanghai", "--game", str(2**63)], ["--game"]),
])
def test_replay_game_and_hand_are_bounded_to_what_the_kernels_take(args, words, saved, cwd, capsys):
    """Row 2: --game beyond int64 was a Numba TypingError traceback."""
    before = snapshot(saved)
    code, _, err = run_cli(args, capsys)
    one_line(code, err, *words)
    check_untouched(before, saved, cwd)


@pytest.mark.engine
def test_replay_of_a_game_or_hand_never_played_is_one_line(saved, cwd, capsys):
    """Row 3: a game outside the run, or a hand after the game ended, was printed as if played."""
    import pyarrow.parquet as pq

    before = snapshot(saved)
    games, hands = saved / "games", saved / "hands"
    n = pq.read_table(games / "games.parquet", filters=[("game", "=", 3)])["hands"][0].as_py()
    for args, words in [
        (["replay", "--from", games, "--game", "5000"], ["--game 5000", "played games 0..99"]),
        (["replay", "--from", games, "--game", "100"], ["--game 100", "0..99"]),
        (["replay", "--from", games, "--game", "3", "--hand", str(n)],
         [f"--hand {n}", f"game 3 of the run in {games} ended after {n} hands (0..{n - 1})"]),
        (["replay", "--from", games, "--game", "3", "--hand", "99999"], [f"ended after {n} hands"]),
        (["replay", "--from", hands, "--game", "2000"], ["--game 2000", "0..1999"]),
        (["replay", "--from", hands, "--game", "3", "--hand", "1"], ["--hand 1", "give --hand 0"]),
    ]:
        code, _, err = run_cli(args, capsys)
        one_line(code, err, *words)
    # the last hand is there, and so is hand 0 of every game index of a hands run
    assert run_cli(["replay", "--from", games, "--game", "3", "--hand", str(n - 1)], capsys)[0] == 0
    assert run_cli(["replay", "--from", hands, "--game", "1999"], capsys)[0] == 0
    # without --from the game is played to its end to know how many hands it has
    code, out, _ = run_cli(["replay", "--seed", "3", "--game", "3", "--hand", str(n - 1)], capsys)
    assert code == 0 and out
    code, _, err = run_cli(["replay", "--seed", "3", "--game", "3", "--hand", str(n)], capsys)
    one_line(code, err, f"--hand {n}: game 3 ended after {n} hands (0..{n - 1})")
    check_untouched(before, saved, cwd)


@pytest.mark.parametrize("args, line", [
    (["replay", "--round", "3"], "--round is for Shanghai Rummy; Basic Rummy replays --hand"),
    (["replay", "--round", "1", "--hand", "0"], "--round is for Shanghai Rummy; Basic Rummy replays --hand"),
    (["replay", "--variant", "shanghai", "--hand", "3"], "--hand is for Basic Rummy or Gin Rummy; Shanghai Rummy replays --round"),
])
def test_replay_option_of_the_other_variant_is_one_line(args, line, saved, cwd, capsys):
    """Row 4: --round for Basic Rummy, --hand for Shanghai were silently ignored."""
    before = snapshot(saved)
    code, _, err = run_cli(args, capsys)
    one_line(code, err)
    assert err.strip() == f"rummysim: error: {line}"
    check_untouched(before, saved, cwd)


@pytest.mark.parametrize("extra, names", [
    (["--players", "3", "--seed", "9"], "--players, --seed"),
    (["--variant", "shanghai"], "--variant"),
    (["--hands", "5", "--strategy", "random", "--chunk-size", "7"], "--hands, --strategy, --chunk-size"),
    (["--games", "5", "--out", "elsewhere", "--overwrite"], "--games, --out, --overwrite"),
    (["--rule", "reshuffles=0", "--rules-file", "rules.toml"], "--rule, --rules-file"),
])
def test_resume_with_run_options_is_one_line(extra, names, saved, cwd, capsys):
    """Row 5: run options given with --resume were silently ignored."""
    before = snapshot(saved)
    code, _, err = run_cli(["run", "--resume", saved / "hands", *extra], capsys)
    one_line(code, err)
    assert err.strip() == f"rummysim: error: --resume uses the run's own options: drop {names}"
    check_untouched(before, saved, cwd)


@pytest.mark.engine
def test_report_of_a_killed_run_says_it_is_unfinished(tmp_path, capsys):
    """Row 6: a killed run (finished chunks, no Parquet yet) was 'the run saved no finished chunk?'."""
    from rummysim.run import warm_up

    warm_up(2, BASIC)  # the child process loads compiled kernels from the cache
    out = tmp_path / "killed"
    proc = subprocess.Popen([sys.executable, "-m", "rummysim", "run", "--hands", "400000", "--chunk-size", "4000",
                             "--workers", "1", "--out", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    try:
        while len(list((out / "chunks").glob("c*.json"))) < 3:
            assert proc.poll() is None, "the run ended before it could be killed"
            assert time.monotonic() < deadline, "the run wrote no chunks"
            time.sleep(0.02)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
    before = snapshot(out)
    done = len(list((out / "chunks").glob("c*.json")))
    for report_dir in (None, tmp_path / "rep"):
        code, _, err = run_cli(["report", out] + (["-o", report_dir] if report_dir else []), capsys)
        one_line(code, err)
        assert err.strip() == (f"rummysim: error: {out}: the run is unfinished ({done} of 100 chunks); "
                               f"finish it with rummysim run --resume {out}")
    assert snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["killed"]


@pytest.mark.slow   # a killed process and a report: 17 s
@pytest.mark.engine
def test_failed_report_leaves_nothing_and_keeps_an_earlier_report(saved, tmp_path, capsys):
    """Row 7: a report that failed half way (corrupt seats.parquet) left a half-written directory."""
    bad = tmp_path / "bad"
    bad.mkdir()
    for f in (saved / "games").iterdir():
        if f.is_file():
            (bad / f.name).write_bytes(f.read_bytes())
    seats = bytearray((bad / "seats.parquet").read_bytes())
    seats[200:len(seats) - 3000] = b"\xab" * (len(seats) - 3200)  # the footer (schema) stays readable
    (bad / "seats.parquet").write_bytes(bytes(seats))
    earlier = tmp_path / "earlier"
    assert run_cli(["report", saved / "games", "-o", earlier], capsys)[0] == 0
    (earlier / "mine.txt").write_text("not the report's")
    before = snapshot(bad, earlier)
    listing = sorted(p.name for p in tmp_path.iterdir())
    for target in (earlier, tmp_path / "new", tmp_path / "deeper" / "new", bad / "report"):
        code, _, err = run_cli(["report", bad, "-o", target], capsys)
        one_line(code, err, "seats.parquet")
        assert snapshot(bad, earlier) == before
        assert sorted(p.name for p in tmp_path.iterdir()) == listing
    code, _, err = run_cli(["report", bad], capsys)   # default: bad/report
    one_line(code, err, "seats.parquet")
    assert snapshot(bad, earlier) == before
    # a good report over the earlier one replaces its files and keeps the others
    assert run_cli(["report", saved / "games", "-o", earlier], capsys)[0] == 0
    assert (earlier / "mine.txt").read_text() == "not the report's" and (earlier / "report.html").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == listing


API_MISTAKES = [
    (dict(variant="nope", hands=10), "variant 'nope': allowed basic, shanghai"),
    (dict(rules="reshuffles=0", hands=10), "rules: got 'reshuffles=0'"),
    (dict(players="3", hands=10), "players = '3'"),
    (dict(players=True, hands=10), "players = True"),
    (dict(players=2.0, hands=10), "players = 2.0"),
    (dict(players=10**9, hands=10), "players = 1000000000"),
    (dict(seed=7.5, hands=10), "seed = 7.5"),
    (dict(seed=True, hands=10), "seed = True"),
    (dict(seed=-1, hands=10), "seed = -1"),
    (dict(seed=2**63, hands=10), "seed = 9223372036854775808"),
    (dict(hands=True), "hands = True"),
    (dict(hands=0), "hands = 0"),
    (dict(games=2.5), "games = 2.5"),
    (dict(games=10**13 + 1), "games = 10000000000001: allowed a whole number from 1 to 10,000,000,000,000"),
    (dict(hands=10, workers=0), "workers = 0"),
    (dict(hands=10, workers=1.5), "workers = 1.5"),
    (dict(hands=10, chunk_size=0), "chunk_size = 0"),
    (dict(hands=10, chunk_size=False), "chunk_size = False"),
    (dict(hands=10, chunk_size=10**9), "chunk_size = 1000000000: allowed a whole number from 1 to"),
    (dict(hands=10, strategies=5), "strategies = 5"),
    (dict(hands=10, strategies=["greedy", "random", "greedy"]), "got 3 for 2 players"),
    (dict(games=1, hands=1), "give exactly one of games or hands"),
    (dict(games=2, variant="shanghai", rules={"reshuffles": 0}), "unknown rule option 'reshuffles' of Shanghai"),
]


@pytest.mark.parametrize("kwargs, words", API_MISTAKES)
def test_simulate_bad_argument_is_a_one_line_value_error(kwargs, words, cwd):
    """Row 8: the Python API raises a ValueError subclass with one line naming the argument: a
    ``rummysim.UsageError`` (``RuleError``, ``StrategyError``, ``UnknownVariant``... are its kinds)."""
    from rummysim import UsageError, simulate

    with pytest.raises(ValueError) as info:
        simulate(**kwargs)
    message = str(info.value)
    assert isinstance(info.value, UsageError), type(info.value)
    assert len(message.splitlines()) == 1 and words in message, message
    assert list(cwd.iterdir()) == []


@pytest.mark.engine
def test_simulate_takes_one_strategy_name_for_every_seat():
    """Row 8: a single string is one strategy for every seat, not one seat per letter."""
    from rummysim import simulate

    r = simulate(hands=20, players=3, strategies="random", seed=1, workers=1)
    assert [s["name"] for s in r.spec["strategies"]] == ["random"] * 3
    assert len(r.hands) == 20


def test_chunk_size_bound_comes_from_the_chunk_arrays():
    """Row 8: the largest chunk size is worked out from the kernel's per-game arrays and a memory budget."""
    from rummysim import run as R
    from rummysim.variants import NAMES, variant_named
    from rummysim.variants.basic import play as BP
    from rummysim.variants.basic import schema as BS
    from rummysim.variants.shanghai import schema as SS
    from rummysim.variants.shanghai.state import ROUNDS

    basic = BP.HAND_CAPACITY * (BS.HAND_COLS + 4 * BS.SEAT_COLS) * 4
    shanghai = ROUNDS * (SS.ROUND_COLS + 8 * SS.SEAT_COLS) * 4
    assert R.max_chunk_size() * max(basic, shanghai) <= R.CHUNK_MEMORY
    assert R.max_chunk_size() >= max(size for n in NAMES for size in variant_named(n).chunk_size.values())


@pytest.mark.parametrize("args, words", [
    (["run", "--games", str(10**13 + 1)], ["--games", "at most 10,000,000,000,000"]),
    (["run", "--hands", str(10**14)], ["--hands", "at most 10,000,000,000,000"]),
    (["run", "--chunk-size", str(10**9)], ["--chunk-size", "at most", "fit in memory"]),
    (["compare", "greedy", "random", "--hands", str(10**14)], ["--hands", "at most"]),
])
def test_cli_counts_are_bounded(args, words, saved, cwd, capsys):
    """Row 8: the CLI bounds --games/--hands and --chunk-size as the API does; nothing is written."""
    before = snapshot(saved)
    code, _, err = run_cli(args, capsys)
    one_line(code, err, *words)
    # the same with --overwrite of saved results: they stay as they were
    code, _, err = run_cli([*args, "--out", saved / "hands", "--overwrite"], capsys)
    one_line(code, err, *words)
    check_untouched(before, saved, cwd)


# --- resume and faults (issue section 3) ---

import json  # noqa: E402

import pandas as pd  # noqa: E402

from rummysim.analysis.compare import COMPARE_FIELDS  # noqa: E402
from rummysim.analysis.compare import compare as compare_api  # noqa: E402
from rummysim.results import LOCK_FILE, SCHEMA_VERSION, ChunkStore, prepare_out_dir  # noqa: E402
from rummysim.base.rules import RULES_VERSION, parse_rule_options  # noqa: E402
from rummysim.run import OPTION_FIELDS, RunSpec, options_digest, run_to_dir  # noqa: E402
from rummysim.strategy import load_strategy, seat_strategies  # noqa: E402


def tables(out: Path) -> dict:
    return {p.stem: pd.read_parquet(p) for p in sorted(Path(out).glob("*.parquet"))}


def same_rows(a: Path, b: Path) -> None:
    ta, tb = tables(a), tables(b)
    assert ta.keys() == tb.keys() and ta
    for name in ta:
        pd.testing.assert_frame_equal(ta[name], tb[name], check_exact=True)


def cut_run(out: Path, spec: RunSpec, chunk_size: int, stop_after: int) -> dict:
    """``spec`` played into ``out`` and interrupted (as Ctrl-C does) after ``stop_after`` chunks."""
    seen = []

    def stop(done, hands, seconds):
        seen.append(done)
        if len(seen) >= stop_after:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_to_dir(spec, prepare_out_dir(out), workers=1, chunk_size=chunk_size, on_chunk=stop)
    record = json.loads((out / "run.json").read_text())
    assert record["status"] == "interrupted"
    return record


def whole_run(out: Path, spec: RunSpec, chunk_size: int) -> Path:
    run_to_dir(spec, prepare_out_dir(out), workers=1, chunk_size=chunk_size)
    return out


def basic_spec(**kw) -> RunSpec:
    return RunSpec(BASIC, 2, seat_strategies(["greedy", "expert"], 2, BASIC), seed=kw.pop("seed", 11), **kw)


def resume_cli(out: Path, capsys) -> tuple[int, dict | None, str]:
    code, stdout, err = run_cli(["run", "--resume", out, "--json", "--workers", "1"], capsys)
    return code, (json.loads(stdout) if code == 0 else None), err


def damage(chunks: Path, how: str) -> str:
    """Damage chunk 1 of a cut run as a fault would; returns the stem of the chunk damaged."""
    stem = ChunkStore.stem(1)
    hands, record = chunks / f"{stem}.hands.arrow", chunks / f"{stem}.json"
    if how == "deleted":
        hands.unlink()
    elif how == "truncated":
        hands.write_bytes(hands.read_bytes()[: hands.stat().st_size // 2])
    elif how == "corrupt":   # same size, one byte flipped in the middle
        data = bytearray(hands.read_bytes())
        data[len(data) // 2] ^= 0xFF
        hands.write_bytes(bytes(data))
    elif how == "malformed record":
        record.write_text('{"units": 250, "rows"')
    elif how == "record gone":   # the files of a chunk killed while being written
        record.unlink()
    return stem


@pytest.mark.engine
@pytest.mark.parametrize("how", ["deleted", "truncated", "corrupt", "malformed record", "record gone"])
def test_resume_plays_a_damaged_chunk_again(how, tmp_path, capsys):
    """A cut run whose chunk 1 was deleted, truncated, corrupted or half written: --resume plays that
    chunk again and the run ends with exactly the rows of an uninterrupted run (it used to finish
    'complete' with the chunk's rows missing, and deleted chunks/ so it could not be repaired)."""
    spec = basic_spec(hands=3000)
    cut = tmp_path / "cut"
    cut_run(cut, spec, 250, stop_after=5)
    stem = damage(cut / "chunks", how)
    code, record, err = resume_cli(cut, capsys)
    assert code == 0, err
    assert record["status"] == "complete" and record["hands_played"] == 3000
    if how != "record gone":   # an unfinished chunk is simply not finished: nothing to report
        assert stem in record["replayed_chunks"]
    same_rows(cut, whole_run(tmp_path / "whole", spec, 250))


@pytest.mark.slow   # a killed process: 14 s
@pytest.mark.engine
def test_a_killed_run_with_a_deleted_chunk_is_resumed_exactly(tmp_path, capsys):
    """The issue's case end to end: a real run process killed with SIGKILL, one chunk file deleted."""
    from test_scale import _rummysim, _wait_for_chunks

    args = ["--hands", "200000", "--chunk-size", "2000", "--seed", "4", "--workers", "1"]
    out = tmp_path / "killed"
    proc = subprocess.Popen(_rummysim("run", *args, "--out", str(out)), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    _wait_for_chunks(out, 3, proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=60)
    (out / "chunks" / f"{ChunkStore.stem(1)}.seats.arrow").unlink()
    code, record, err = resume_cli(out, capsys)
    assert code == 0, err
    assert ChunkStore.stem(1) in record["replayed_chunks"] and record["hands_played"] == 200000
    whole = tmp_path / "whole"
    assert subprocess.run(_rummysim("run", *args, "--out", str(whole)), capture_output=True).returncode == 0
    same_rows(out, whole)


@pytest.mark.engine
def test_a_chunk_with_foreign_rows_is_caught_by_the_join_and_played_again(tmp_path, capsys):
    """A chunk whose files and record agree but hold another chunk's games (here chunk 2's, record and
    all): the final join's content check refuses it before anything is deleted; the run is not
    'complete', and the next --resume plays that chunk again."""
    spec = basic_spec(games=120)
    cut = tmp_path / "cut"
    cut_run(cut, spec, 10, stop_after=6)
    chunks = cut / "chunks"
    one, two = ChunkStore.stem(1), ChunkStore.stem(2)
    for f in chunks.glob(f"{two}.*"):
        (chunks / f.name.replace(two, one)).write_bytes(f.read_bytes())
    record = json.loads((chunks / f"{one}.json").read_text())
    good = json.loads((chunks / f"{ChunkStore.stem(0)}.json").read_text())
    record.update(first=good["stop"], stop=good["stop"] + 10)   # the record claims chunk 1's range
    (chunks / f"{one}.json").write_text(json.dumps(record))
    code, _, err = resume_cli(cut, capsys)
    one_line(code, err, one, "does not hold", f"rummysim run --resume {cut}")
    status = json.loads((cut / "run.json").read_text())
    assert status["status"] == "failed" and not (cut / "hands.parquet").exists()
    assert (chunks / f"{ChunkStore.stem(3)}.json").exists()   # the good chunks are kept
    code, final, err = resume_cli(cut, capsys)
    assert code == 0 and final["status"] == "complete", err
    same_rows(cut, whole_run(tmp_path / "whole", spec, 10))


@pytest.mark.engine
@pytest.mark.parametrize("field, value", [("seed", 12), ("chunk_size", 500), ("count", 6000), ("players", 3),
                                          ("first", 5), ("rules", {"reshuffles": 0})])
def test_resume_refuses_an_edited_run_json_naming_the_field(field, value, tmp_path, capsys):
    """Editing run.json before --resume gave rows from two seeds or duplicated games, exit 0."""
    cut = tmp_path / "cut"
    cut_run(cut, basic_spec(hands=3000), 250, stop_after=3)
    record = json.loads((cut / "run.json").read_text())
    record[field] = {**record[field], **value} if isinstance(value, dict) else value
    (cut / "run.json").write_text(json.dumps(record))
    before = snapshot(cut)
    code, _, err = resume_cli(cut, capsys)
    one_line(code, err, f"field '{field}' was changed")
    assert snapshot(cut) == before


@pytest.mark.engine
@pytest.mark.parametrize("field", ["schema_version", "rules_version"])
def test_resume_refuses_a_run_started_by_another_rummysim(field, tmp_path, capsys):
    """A run cut by an older rummysim (other rows, other chunk statistics) was finished by the new one,
    mixing the two; its record is consistent (its own options hash), only the versions differ."""
    from rummysim.run import options_digest
    cut = tmp_path / "cut"
    cut_run(cut, basic_spec(hands=3000), 250, stop_after=3)
    record = json.loads((cut / "run.json").read_text())
    record[field] -= 1
    record["options_sha256"] = options_digest(record)
    (cut / "run.json").write_text(json.dumps(record))
    before = snapshot(cut)
    code, _, err = resume_cli(cut, capsys)
    one_line(code, err, f"({field} {record[field]}, this rummysim writes {record[field] + 1})",
             "finish it with that version or start anew")
    assert snapshot(cut) == before


@pytest.mark.parametrize("command, file", [("run", "run.json"), ("compare", "compare.json")])
@pytest.mark.parametrize("where, words", [("missing", "no such directory"), ("empty", "not a resumable rummysim"),
                                          ("damaged", "not a resumable rummysim"),
                                          ("complete", "already complete"), ("held before", "already complete")])
def test_resume_that_refuses_writes_nothing(command, file, where, words, tmp_path, capsys):
    """Issue 23: --resume of a directory that holds no unfinished run (comparison) said so in one line
    but created the directory and its .rummysim.lock (the lock was taken before the record was read).
    A directory held before (its lock file there) is read once held, and is left as it was."""
    target = tmp_path / "results"
    if where != "missing":
        target.mkdir()
    if where == "held before":
        (target / LOCK_FILE).touch()
        where = "complete"
    if where == "damaged":
        (target / file).write_text('{"players": 2')
    if where == "complete":   # a finished record, whole: its options hash and versions are checked first
        record = {"status": "complete", "schema_version": SCHEMA_VERSION, "rules_version": RULES_VERSION}
        record["options_sha256"] = options_digest(record, OPTION_FIELDS if command == "run" else COMPARE_FIELDS)
        (target / file).write_text(json.dumps(record))
    before = snapshot(tmp_path)
    code, _, err = run_cli([command, "--resume", target], capsys)
    one_line(code, err, f"--resume {target}: ", words)
    assert snapshot(tmp_path) == before


HOLDER = """
import sys, time
from pathlib import Path
from rummysim.results import hold_results_dir
with hold_results_dir(Path(sys.argv[1])):
    print("held", flush=True)
    time.sleep(60)
"""


@pytest.mark.engine
def test_one_writer_per_results_directory(saved, tmp_path, capsys):
    """Two rummysim processes on one --out crashed with tracebacks and mixed their seeds; now the second
    gets one line naming the directory and the holder's PID, whatever it asked, and nothing changes."""
    out = saved / "hands"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(out)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        before = snapshot(saved)
        for args in (["run", "--hands", "100", "--out", out, "--overwrite"],
                     ["run", "--resume", out],
                     ["compare", "greedy", "random", "--hands", "100", "--out", out, "--overwrite"]):
            code, _, err = run_cli(args, capsys)
            one_line(code, err, str(out), f"process {holder.pid}")
        assert snapshot(saved) == before
    finally:
        holder.kill()
        holder.wait()


#: a non-default value of every rule option of each variant, all at once
EVERY_OPTION = {
    "basic": ["max_melds_per_turn=1", "ace=high_or_low", "reshuffles=unlimited", "reshuffle_mode=turn_over",
              "must_discard_to_go_out=true", "rummy_multiplier=3", "target=60", "turn_limit=900"],
    "shanghai": ["jokers=2", "decks=3", "max_buys=2", "layoff_on_contract_turn=true", "joker_swap=anyone",
                 "ace=low", "must_discard_to_go_out=true", "one_turn_bonus=-10/-20", "turn_limit=1500"],
}


@pytest.mark.engine
@pytest.mark.parametrize("variant", ["basic", "shanghai"])
def test_every_rule_option_round_trips_through_resume_and_replay(variant, tmp_path, capsys):
    """Resume and replay --from rebuilt the rules without every 'unlimited' value: a resumed run
    played its remaining chunks under other rules, and replay showed hands the run never had.
    With a non-default value of every option, a cut and resumed run equals an uninterrupted one, and
    replay --from reproduces the rows it saved (Shanghai: a Shanghai resume)."""
    rules = parse_rule_options(VARIANTS[variant], EVERY_OPTION[variant])
    if variant == "basic":
        spec = RunSpec(BASIC, 4, seat_strategies(["greedy", "random", "expert", "cautious"], 4, BASIC), 61, rules, games=40)
        size = 5
    else:
        spec = RunSpec(SHANGHAI, 4, seat_strategies(["greedy", "buyer", "random", "expert"], 4, SHANGHAI), 61, rules,
                       games=8)
        size = 2
    cut = tmp_path / "cut"
    record = cut_run(cut, spec, size, stop_after=2)
    assert record["rules"] == rules.as_dict(4)
    code, final, err = resume_cli(cut, capsys)
    assert code == 0 and final["status"] == "complete", err
    same_rows(cut, whole_run(tmp_path / "whole", spec, size))
    rows = tables(cut)["rounds" if variant == "shanghai" else "hands"]
    sample = rows.iloc[[0, len(rows) // 2, len(rows) - 1]]
    for _, row in sample.iterrows():
        where = ["--round", int(row["round"])] if variant == "shanghai" else ["--hand", int(row["hand"])]
        code, out, err = run_cli(["replay", "--from", cut, "--game", int(row["game"]), *where, "--json"], capsys)
        assert code == 0, err
        end = [json.loads(line) for line in out.splitlines()][-1]
        assert end["event"] == "end"
        assert end["winner"] == row["winner"] and end["outcome"] == row["outcome"]
        if variant == "basic":
            assert end["points"] == row["points"]


@pytest.mark.engine
def test_default_output_names_are_unique_within_a_second(cwd, capsys, monkeypatch):
    """Two runs started in the same second wrote into one directory; now the second gets -2."""
    import time as time_module

    monkeypatch.setattr(time_module, "strftime", lambda fmt, *a: "20261201-120000")
    for _ in range(2):
        code, _, err = run_cli(["run", "--hands", "50", "--workers", "1"], capsys)
        assert code == 0, err
    made = sorted(p.name for p in (cwd / "results").iterdir())
    assert made == ["run-20261201-120000-seed0", "run-20261201-120000-seed0-2"]
    for name in made:
        assert json.loads((cwd / "results" / name / "run.json").read_text())["status"] == "complete"


@pytest.mark.engine
def test_an_interrupted_comparison_is_finished_by_resume(tmp_path, capsys):
    """compare stopped by Ctrl-C said its finished pairs were in compare.json, which held none; now
    it keeps its chunks, and compare --resume DIR ends with the rows and figures of an uninterrupted
    comparison (a damaged chunk is played again)."""
    strategies = [load_strategy(s, BASIC) for s in ("greedy", "expert", "cautious")]
    rules = parse_rule_options(BASIC, [])
    cut = prepare_out_dir(tmp_path / "cut")
    calls = []

    def stop(done, hands):
        calls.append(done)
        if len(calls) == 5:   # within the second pair
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        compare_api(BASIC, strategies, 2, 5, rules, None, 1200, 1, 400, out_dir=cut, on_chunk=stop)
    saved_record = json.loads((cut / "compare.json").read_text())
    assert saved_record["status"] == "interrupted" and saved_record["finished_chunks"] == 5
    (cut / "chunks" / f"{ChunkStore.stem((1, 0))}.blocks.arrow").unlink()
    code, out, err = run_cli(["compare", "--resume", cut, "--json"], capsys)
    assert code == 0, err
    resumed = json.loads(out)
    whole = prepare_out_dir(tmp_path / "whole")
    fresh = compare_api(BASIC, strategies, 2, 5, rules, None, 1200, 1, 400, out_dir=whole)
    assert resumed["pairs"] == json.loads(json.dumps(fresh["pairs"]))
    assert resumed["status"] == "complete" and not (cut / "chunks").exists()
    same_rows(cut, whole)
    code, _, err = run_cli(["compare", "--resume", cut], capsys)
    one_line(code, err, "already complete")
