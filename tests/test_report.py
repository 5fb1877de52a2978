"""rummysim report: every file written, a self-contained HTML page, one-line errors with exit 2."""

import base64
import re

import pytest

from rummysim.cli import main
from rummysim.analysis.stats import QUANTITIES

FIGURES_RUN = ["win_rate_by_seat", "convergence", "starter_advantage", "hand_endings", "going_rummy",
               "turns_per_hand", "points_per_winning_hand", "cards_left"]
TABLES_RUN = ["by_seat", "by_strategy", "starter_advantage", "hand_endings", "going_rummy", "distribution_summary"]


def run_cli(args, capsys):
    """Run ``rummysim ARGS`` in-process; returns (exit code, stdout, stderr)."""
    code = 0
    try:
        main([str(a) for a in args])
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def expected_files(figures, tables):
    return {"report.html"} | {f"{f}.png" for f in figures} | {f"{t}.{x}" for t in tables for x in ("csv", "md")}


def distribution_tables(games: bool):
    return [f"distribution_{q}" for q in QUANTITIES if games or q != "hands_per_game"]


def check_self_contained(report_dir, figures):
    page = (report_dir / "report.html").read_text()
    assert "http:" not in page and "https:" not in page and "<script" not in page and "<link" not in page
    sources = re.findall(r'src="([^"]*)"', page)
    assert len(sources) == len(figures) and all(s.startswith("data:image/png;base64,") for s in sources)
    embedded = {base64.b64decode(s.split(",", 1)[1]) for s in sources}
    assert embedded == {(report_dir / f"{f}.png").read_bytes() for f in figures}
    assert "To reproduce" in page and "95%" in page
    return page


@pytest.fixture(scope="module")
def hands_run(tmp_path_factory):
    """A small real run (3,000 hands) with its report written by ``run --report``."""
    root = tmp_path_factory.mktemp("runs")
    code = 0
    try:
        main(["run", "--hands", "3000", "--seed", "2", "--out", str(root / "hands"), "--report", str(root / "rep")])
    except SystemExit as e:
        code = e.code
    assert code == 0
    return root


@pytest.mark.engine
def test_run_report_writes_every_file_and_embeds_every_figure(hands_run):
    rep = hands_run / "rep"
    assert {p.name for p in rep.iterdir()} == expected_files(FIGURES_RUN, TABLES_RUN + distribution_tables(False))
    page = check_self_contained(rep, FIGURES_RUN)
    assert "rummysim run --variant basic --players 2 --hands 3000 --seed 2 --strategy greedy | rummysim 0.1.0 | rules" in page
    assert (rep / "by_seat.md").read_text().startswith("### Per seat\n\n| seat | strategy | hands |")
    assert (rep / "by_seat.csv").read_text().splitlines()[0].startswith("seat,strategy,hands,wins,losses,stalemates")


@pytest.mark.engine
def test_report_command_takes_the_newest_results_and_says_which(hands_run, capsys, tmp_path):
    code, _, _ = run_cli(["run", "--games", "150", "--players", "3", "--out", hands_run / "games"], capsys)
    assert code == 0
    code, out, err = run_cli(["report", hands_run, "-o", tmp_path / "rep"], capsys)
    assert code == 0, err
    assert "using the newest" in out and "games" in out
    figures = FIGURES_RUN + ["hands_per_game"]
    assert {p.name for p in (tmp_path / "rep").iterdir()} == expected_files(
        figures, TABLES_RUN + distribution_tables(True))
    check_self_contained(tmp_path / "rep", figures)
    # without -o the report goes into the results directory
    code, out, _ = run_cli(["report", hands_run / "hands"], capsys)
    assert code == 0 and (hands_run / "hands" / "report" / "report.html").is_file()


@pytest.mark.engine
def test_compare_report_has_forest_plot_and_crosstable(capsys, tmp_path):
    code, _, err = run_cli(["compare", "greedy", "random", "rummy-seeker", "--hands", "300", "--out", tmp_path / "cmp",
                            "--report", tmp_path / "rep"], capsys)
    assert code == 0, err
    figures = FIGURES_RUN + ["forest", "position_split", "crosstable"]
    tables = TABLES_RUN + ["headline", "crosstable"] + distribution_tables(False)
    assert {p.name for p in (tmp_path / "rep").iterdir()} == expected_files(figures, tables)
    page = check_self_contained(tmp_path / "rep", figures)
    assert "rummysim compare" in page and "| rummysim 0.1.0 |" in page and "greedy vs random" in page
    assert "Who starts" in page
    head = (tmp_path / "rep" / "headline.csv").read_text().splitlines()[0].split(",")
    assert "hand_share_of_a_when_a_starts" in head and not any("seat" in c for c in head)


def one_line_error(code, err, *words):
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("rummysim: error: "), err
    assert "Traceback" not in err
    for w in words:
        assert w in lines[0]


def test_bad_results_path_is_one_line_exit_2(capsys, tmp_path):
    code, _, err = run_cli(["report", tmp_path / "nowhere", "-o", tmp_path / "rep"], capsys)
    one_line_error(code, err, "nowhere", "no such directory")
    code, _, err = run_cli(["report", tmp_path, "-o", tmp_path / "rep"], capsys)
    one_line_error(code, err, "holds no run.json or compare.json")


@pytest.mark.engine
def test_corrupt_parquet_is_one_line_exit_2(hands_run, capsys, tmp_path):
    bad = tmp_path / "bad"
    bad.mkdir()
    for name in ("run.json", "seats.parquet"):
        (bad / name).write_bytes((hands_run / "hands" / name).read_bytes())
    (bad / "hands.parquet").write_bytes(b"\x00garbage, not Parquet\xff" * 50)
    code, _, err = run_cli(["report", bad, "-o", tmp_path / "rep"], capsys)
    one_line_error(code, err, str(bad / "hands.parquet"), "not a readable Parquet file")


@pytest.mark.engine
def test_unwritable_report_directory_is_one_line_exit_2(hands_run, capsys, tmp_path):
    code, _, err = run_cli(["report", hands_run / "hands", "-o", "/proc/rummysim-cannot-write"], capsys)
    one_line_error(code, err, "report directory /proc/rummysim-cannot-write", "cannot write there")
    # run --report checks the directory before playing
    code, _, err = run_cli(["run", "--hands", "10", "--out", tmp_path / "r", "--report", "/proc/rummysim-x"], capsys)
    one_line_error(code, err, "cannot write there")
    assert not (tmp_path / "r").exists()
