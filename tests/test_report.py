"""rummysim report: every file written, a self-contained HTML page, one-line errors with exit 2."""

import base64
import json
import re

import pandas as pd
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


def expected_files(figures, tables, replays=()):
    return ({"report.html"} | {f"{f}.png" for f in figures} | {f"{t}.{x}" for t in tables for x in ("csv", "md")}
            | {f"replay_{r}.html" for r in replays})


def embedded_replay(page_text: str) -> dict:
    """The replay a viewer page (``replay --html``, a report's ``replay_*.html``) embeds."""
    return json.JSONDecoder().raw_decode(page_text.split("const REPLAY = ", 1)[1])[0]


def sample_rows(results_dir, unit: str = "hand") -> dict:
    """The hands (Shanghai: rounds) a report replays, chosen again from the saved rows with pandas: the first of
    the most turns; the first nobody won; Basic: the first won by going rummy (1.6); Shanghai: the first won
    in one turn (2.7)."""
    rows = pd.read_parquet(results_dir / f"{unit}s.parquet")
    chosen = {"longest": rows.loc[rows["turns"].idxmax()],
              "stalemate" if unit == "hand" else "no_winner": rows[rows["outcome"] != "win"],
              "rummy" if unit == "hand" else "one_turn":
                  rows[rows["going_rummy"]] if unit == "hand" else rows[rows["bonus"] != "none"]}
    return {k: (v if k == "longest" else v.iloc[0]) for k, v in chosen.items() if k == "longest" or len(v)}


def check_replays(report_dir, results_dir, unit: str = "hand") -> None:
    """Each sample page replays its row: its game and hand, and as many draws as the row has turns."""
    page = (report_dir / "report.html").read_text()
    for name, row in sample_rows(results_dir, unit).items():
        assert f'<a href="replay_{name}.html">' in page
        replay = embedded_replay((report_dir / f"replay_{name}.html").read_text())
        assert replay["title"].endswith(f"game {row['game']}, {unit} {row[unit]}")
        assert sum(" draws " in f["text"] for f in replay["frames"]) == row["turns"]


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
    replays = sample_rows(hands_run / "hands")
    assert {p.name for p in rep.iterdir()} == expected_files(FIGURES_RUN, TABLES_RUN + distribution_tables(False),
                                                             replays)
    assert set(replays) == {"longest", "stalemate", "rummy"}   # 3,000 hands hold each kind
    check_replays(rep, hands_run / "hands")
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
    said = " ".join(out.split())   # the console wraps a long temporary path anywhere
    assert "using the newest" in said and "games" in said
    figures = FIGURES_RUN + ["hands_per_game"]
    assert {p.name for p in (tmp_path / "rep").iterdir()} == expected_files(
        figures, TABLES_RUN + distribution_tables(True), sample_rows(hands_run / "games"))
    check_replays(tmp_path / "rep", hands_run / "games")
    check_self_contained(tmp_path / "rep", figures)
    # without -o the report goes into the results directory
    code, out, _ = run_cli(["report", hands_run / "hands"], capsys)
    assert code == 0 and (hands_run / "hands" / "report" / "report.html").is_file()


@pytest.mark.engine
def test_compare_report_has_forest_plot_crosstable_and_rating_list(capsys, tmp_path):
    code, _, err = run_cli(["compare", "greedy", "random", "rummy-seeker", "--hands", "300", "--out", tmp_path / "cmp",
                            "--report", tmp_path / "rep"], capsys)
    assert code == 0, err
    figures = FIGURES_RUN + ["forest", "position_split", "crosstable", "rating"]
    tables = TABLES_RUN + ["headline", "crosstable", "rating"] + distribution_tables(False)
    assert {p.name for p in (tmp_path / "rep").iterdir()} == expected_files(figures, tables,
                                                                            sample_rows(tmp_path / "cmp"))
    check_replays(tmp_path / "rep", tmp_path / "cmp")
    page = check_self_contained(tmp_path / "rep", figures)
    assert "rummysim compare" in page and "rummysim 0.1.0 | rules " in page and "greedy vs random" in page
    assert "Who starts" in page
    assert "t for points). Each of the 3 intervals" in page   # issue 27: the caption ran two sentences together
    head = (tmp_path / "rep" / "headline.csv").read_text().splitlines()[0].split(",")
    assert "hand_share_of_a_when_a_starts" in head and not any("seat" in c for c in head)
    check_headline_laid_out_for_the_page(page, head)


def check_headline_laid_out_for_the_page(page: str, csv_columns: list[str]) -> None:
    """Issue 27 item 5: the page's headline was one table of 15 columns, each interval over 3 to 5 lines.
    Now: a table as wide as the page of the match, win share, Elo, points and verdict, each interval on a
    line of its own under its estimate in a span that never breaks; the other columns folded away below
    (the CSV and Markdown keep every column)."""
    start = page.index("<b>Headline per match")
    tables = re.findall(r"<table[^>]*>.*?</table>", page[start:page.index("<figure", start)])
    assert len(tables) == 3 and tables[0].startswith('<table class="wide">')
    names = [re.sub(r"<[^>]+>", " ", th).split() for th in re.findall(r"<th[^>]*>(.*?)</th>", tables[0])]
    assert [" ".join(n) for n in names] == ["match", "win share (95% CI)", "elo (95% CI)",
                                            "points per hand diff (95% CI)", "verdict"]
    folded = page[start:].split("<figure", 1)[0].count("<details><summary>")
    assert folded == 2
    shown = sum(len(re.findall(r"<th[ >]", t)) for t in tables) - 2   # "match" begins each
    assert shown == len([c for c in csv_columns if not c.endswith(("_lo", "_hi", "_n"))]) - 2   # but a, b
    cells = [c for t in tables for c in re.findall(r"<td[^>]*>(.*?)</td>", t)]
    with_interval = [c for c in cells if "[" in c]
    assert len(with_interval) == 3 * 7   # 3 matches: win share, Elo, points, minus fair, per game, stalemates,
    for c in with_interval:              # ... and 2 positions
        assert re.fullmatch(r'[^<\[]+<br><span class="ci">\[[^<\]]+\]( n=\d+)?</span>', c), c
    assert ".ci { white-space: nowrap;" in page


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


def test_tables_print_the_units_beside_an_estimate_on_fewer_than_100():
    """points per rummy win on 8 blocks shows "n=8"; on 100 it shows no count; the _n column is not a column."""
    import pandas as pd

    from rummysim.report import display, markdown

    df = pd.DataFrame({"strategy": ["greedy", "expert"], "points_per_rummy_win": [119.0, 38.25],
                       "points_per_rummy_win_lo": [98.44, 37.76], "points_per_rummy_win_hi": [139.56, 38.75],
                       "points_per_rummy_win_n": [8, 100]})
    shown = display(df)
    assert list(shown.columns) == ["strategy", "points per rummy win (95% CI)"]
    assert list(shown["points per rummy win (95% CI)"]) == ["119.00 [98.44, 139.56] n=8", "38.25 [37.76, 38.75]"]
    assert "| greedy | 119.00 [98.44, 139.56] n=8 |" in markdown(df)


# --- issue 24, item 7: one figure, one wording, one unit in terminal and report ---

def test_report_tables_word_figures_as_the_terminal_does():
    """The rating list's LOS read 100.00% in the report and >99.9% in the terminal, a mean edge +3.50 pp
    in the report and (+0.0350) in the terminal; a clean sweep's Elo, null in JSON, read "nan"."""
    from rich.console import Console

    from rummysim.analysis import rating as RL
    from rummysim.analysis.compare import _render_crosstable
    from rummysim.report import display

    shown = display(pd.DataFrame({"strategy": ["a", "b"], "los_over_next": [0.99995, float("nan")],
                                  "mean_edge": [0.035, -0.035]}))
    assert list(shown["los over next"]) == [RL.los_text(0.99995), ""] == [">99.9%", ""]
    assert list(shown["mean edge"]) == ["+3.50 pp", "-3.50 pp"]
    console = Console(record=True, width=200)
    _render_crosstable({"crosstable": {"names": ["a", "b"], "win_share": [[None, None], [None, None]]},
                        "pairs": [], "ranking": [{"rank": 1, "name": "a", "mean_edge": 0.035},
                                                 {"rank": 2, "name": "b", "mean_edge": -0.035}]}, console)
    assert "1. a (+3.50 pp), 2. b (-3.50 pp)" in console.export_text()
    elo = display(pd.DataFrame({"elo": [float("inf")], "elo_lo": [177.53], "elo_hi": [float("inf")], "elo_n": [12],
                                "points_per_hand_diff": [82.79], "points_per_hand_diff_lo": [65.15],
                                "points_per_hand_diff_hi": [100.43], "points_per_hand_diff_n": [12]}))
    assert elo["elo (95% CI)"][0] == "unbounded [+177.5, unbounded] n=12"      # as compare prints it
    assert elo["points per hand diff (95% CI)"][0] == "+82.79 [+65.15, +100.43] n=12"


def test_a_sweep_read_back_from_json_keeps_its_unbounded_elo(tmp_path):
    """compare.json holds a clean sweep's infinite Elo as null; the headline gets it back, marked."""
    from rummysim.analysis.stats import _unbounded

    assert _unbounded({"estimate": None, "ci95": [177.5, None], "unbounded": "above"}) == (
        float("inf"), 177.5, float("inf"))
    assert _unbounded({"estimate": 12.0, "ci95": [1.0, 20.0]}) == (12.0, 1.0, 20.0)


def test_a_histogram_cut_says_how_far_the_values_it_leaves_out_go():
    """Issue 27: ``14 above 64 not shown`` read as a gap when the largest value was 65; the caption says
    where the values it leaves out end."""
    from rummysim.report.figures import histogram, new_figure

    dist = pd.DataFrame({"value": [*range(1, 11), 100], "count": [1000] * 10 + [1]})
    _, (ax,) = new_figure()
    assert histogram(ax, dist, "turns", "share (%)") == "1 above 10 (up to 100) not shown"
    whole = pd.DataFrame({"value": [1, 2], "count": [5, 5]})
    _, (ax,) = new_figure()
    assert histogram(ax, whole, "turns", "share (%)") == "all values shown"


def test_figure_subtitles_count_the_play_once(capsys, tmp_path):
    """Issue 27: every figure's subtitle said ``300 hands (300 hands)``; a count that is the units played
    is said once, games still with their hands."""
    from rummysim.analysis.stats import open_results
    from rummysim.report.figures import scope

    for mode, count in (("--hands", "300"), ("--games", "3")):
        out = tmp_path / mode.strip("-")
        code, _, err = run_cli(["run", mode, count, "--out", out], capsys)
        assert code == 0, err
        res = open_results(out)
        words = scope(res)
        if mode == "--hands":
            assert "players, 300 hands, seed 0" in words
        else:
            assert f"players, 3 games ({res.hands_played():,} hands), seed 0" in words


def test_the_crosstable_colours_span_its_cells_around_the_fair_share(capsys, tmp_path):
    """Issue 27: the heatmap's scale ran 0-100% while its cells were 46-54%, so every cell was white.
    The scale is centred on the fair share and reaches the cell farthest from it, no farther."""
    from rummysim.analysis.stats import open_results
    from rummysim.report import CROSSTABLE_MIN_SPREAD, fig_crosstable

    code, _, err = run_cli(["compare", "greedy", "expert", "cautious", "--hands", "200", "--out", tmp_path / "cmp"],
                           capsys)
    assert code == 0, err
    res = open_results(tmp_path / "cmp")
    fig = fig_crosstable(res)
    image = fig.axes[0].images[0]
    cells = image.get_array().compressed()
    fair = 50.0
    far = max(abs(cells - fair).max(), CROSSTABLE_MIN_SPREAD)
    assert image.norm.vcenter == fair
    assert (image.norm.vmin, image.norm.vmax) == pytest.approx((fair - far, fair + far))
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert sum(t.endswith("]") for t in texts) == 6 and texts.count("") == 3   # 6 matches' cells, the diagonal


def test_the_seat_panels_legend_covers_no_whisker_or_label(capsys, tmp_path):
    """Issue 27: in a comparison's ``win_rate_by_seat.png`` the legend covered expert's seat-0 whisker.
    Drawn, the legend's box meets no interval bar, point or value label of any panel."""
    from rummysim.analysis.stats import by_seat, open_results
    from matplotlib.transforms import Bbox

    from rummysim.variants.basic.report import fig_win_rate_by_seat

    code, _, err = run_cli(["compare", "expert", "greedy", "--games", "20", "--out", tmp_path / "cmp"], capsys)
    assert code == 0, err
    res = open_results(tmp_path / "cmp")
    fig = fig_win_rate_by_seat(res, by_seat(res))
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    for ax in fig.axes:
        box = ax.get_legend().get_window_extent(renderer)
        data = [Bbox(ax.transData.transform(seg)) for c in ax.collections for seg in c.get_segments()]   # whiskers
        data += [line.get_window_extent(renderer) for line in ax.lines if len(line.get_xdata())
                 and line.get_linestyle() == "None"]                                      # the points
        data += [t.get_window_extent(renderer) for t in ax.texts]                        # the values
        assert data and not any(box.overlaps(d) for d in data), ax.get_ylabel()


def test_the_page_tables_put_text_left_and_numbers_right():
    """Issue 27: every column of the page's tables was right-aligned, text too (only the first column was
    not). A column is left-aligned exactly when one of its cells is not a number, as in the Markdown."""
    from rummysim.report import _html_table, _STYLE

    d = pd.DataFrame({"strategy": ["greedy", "expert"], "seat": ["0", "1"], "win rate": ["51.2%", "48.8%"],
                      "ending": ["rummy", "stalemate"]})
    page = _html_table(d)
    assert page.startswith('<table><thead><tr><th class="text">strategy</th><th>seat</th><th>win rate</th>'
                           '<th class="text">ending</th></tr></thead>')
    assert '<td class="text">greedy</td><td>0</td><td>51.2%</td><td class="text">rummy</td>' in page
    assert "td.text, th.text { text-align: left; }" in _STYLE and "text-align: right" in _STYLE


def test_a_comparison_of_one_duplicate_block_is_reported(capsys, tmp_path):
    """One block has no interval (``ci95`` is ``[None, None]``): the report draws the point alone and says
    n=1; it raised a TypeError."""
    code, _, err = run_cli(["compare", "greedy", "expert", "--games", "1", "--out", tmp_path / "c",
                            "--report", tmp_path / "r"], capsys)
    assert code == 0, err
    assert (tmp_path / "r" / "position_split.png").is_file() and (tmp_path / "r" / "report.html").is_file()
