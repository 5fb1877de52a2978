"""Issue 27 item 4: piped at 80 columns (and narrower) every table and line the commands print fits the
width, no interval is broken across lines (``0.460 [0.449,`` / ``0.471]``), and the reproduce line is
one line a shell gives back the command from."""

import io
import re
import shlex

import pytest
from rich.console import Console
from rich.table import Table

from rummysim.base.terminal import fit, wrap
from rummysim.cli import main

SHANGHAI, GIN = "shanghai", "gin"
WIDTHS = (80, 60)
#: printed on one line whatever the width: a command or a path to paste back, and what it ran with
ONE_LINE = ("reproduce: ", "ran with: ", "results: ", "report: ", "wrote ")


def printed(args, width, capsys, monkeypatch) -> str:
    """What ``rummysim ARGS`` prints, piped, with ``COLUMNS=width``."""
    monkeypatch.setenv("COLUMNS", str(width))
    main(args)
    return capsys.readouterr().out


def _broken(segment: str) -> bool:
    """Whether a cell or line opens an interval it does not close, or closes one it did not open."""
    depth = 0
    for ch in segment:
        depth += {"[": 1, "]": -1}.get(ch, 0)
        if depth < 0:
            return True
    return depth != 0


def check(text: str, width: int) -> None:
    """Every line within ``width`` (but the one-line ones), no interval broken across lines in a
    table cell (the text between two column rules) or a line of text."""
    lines = [line for line in text.splitlines() if not line.startswith(ONE_LINE)]
    assert lines
    wide = [line for line in lines if len(line) > width]
    assert not wide, f"wider than {width}: {wide}"
    broken = [line for line in lines if any(_broken(s) for s in re.split("[│┃]", line))]
    assert not broken, f"an interval broken across lines at {width} columns: {broken}"


def check_reproduce(text: str, args: list[str], strategies: list[str]) -> None:
    """One reproduce line, which ``shlex.split`` makes the command again: its strategies in their
    order and every option given with its value."""
    [line] = [x for x in text.splitlines() if x.startswith("reproduce: ")]
    argv = shlex.split(line.removeprefix("reproduce: "))
    assert argv[:2 + len(strategies)] == ["rummysim", "compare", *strategies]
    for i, a in enumerate(args):
        if a.startswith("--") and a not in ("--out", "--workers"):
            assert argv[argv.index(a) + 1] == args[i + 1], a


COMPARES = {
    "two": ["greedy", "rummy-seeker", "--hands", "300"],
    "three": ["greedy", "rummy-seeker", "cautious", "--hands", "200"],
    "five": ["greedy", "rummy-seeker", "cautious", "expert", "random", "--hands", "100"],
    "sprt": ["expert", "greedy", "--sprt", "0", "50", "--hands", "400", "--chunk-size", "100"],
    "games": ["greedy", "expert", "--games", "100"],
    SHANGHAI: ["greedy", "buyer", "--variant", SHANGHAI, "--players", "3", "--games", "2"],
    GIN: ["greedy", "expert", "--variant", GIN, "--games", "30"],
}


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("which", COMPARES)
def test_compare_fits_the_width_and_its_reproduce_line_is_one_line(which, width, capsys, monkeypatch, tmp_path):
    args = COMPARES[which] + ["--seed", "2", "--workers", "1", "--out", str(tmp_path / "c")]
    text = printed(["compare", *args], width, capsys, monkeypatch)
    check(text, width)
    strategies = args[:next(i for i, a in enumerate(args) if a.startswith("--"))]
    check_reproduce(text, args, strategies)
    if which == "sprt":   # undecided at its cap: the bounds, an interval in a sentence, on one line
        assert "undecided at the cap" in text and "[-2.94, 2.94]" in text


def test_a_crosstable_too_wide_is_split_with_the_row_names_in_each_part(capsys, monkeypatch, tmp_path):
    """Five strategies at 60 columns: the crosstable in parts, each with the row names, every share
    over its interval; every pair's share is in one of them."""
    text = printed(["compare", *COMPARES["five"], "--out", str(tmp_path / "c")], 60, capsys, monkeypatch)
    cross = text.split("Crosstable")[1].split("ranking by mean edge")[0]
    assert cross.count("(continued)") >= 1
    parts = cross.split("(continued)")
    for part in parts:
        rows = [line.split("│")[1].strip() for line in part.splitlines() if line.startswith("│")]
        assert [r for r in rows if r] == ["greedy", "rummy-seeker", "cautious", "expert", "random"]
    assert sum(len(re.findall(r"\[0\.\d{3}, 0\.\d{3}\]", p)) for p in parts) == 5 * 4


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("variant", [None, SHANGHAI, GIN])
def test_run_summary_fits_the_width(variant, width, capsys, monkeypatch, tmp_path):
    args = ["run", "--games", "4" if variant == SHANGHAI else "100", "--workers", "1", "--out", str(tmp_path / "r")]
    text = printed(args + (["--variant", variant] if variant else []), width, capsys, monkeypatch)
    check(text, width)


@pytest.mark.parametrize("width", WIDTHS)
def test_sweep_fits_the_width(width, capsys, monkeypatch, tmp_path):
    text = printed(["sweep", "rummy-seeker", "--param", "meld.abandon_turn", "--values", "0,4,8", "--hands", "300",
                    "--workers", "1", "--out", str(tmp_path / "s")], width, capsys, monkeypatch)
    check(text, width)
    assert text.count("[0.") >= 3   # every value's win share with its interval


def test_tune_fits_the_width(capsys, monkeypatch, tmp_path):
    pytest.importorskip("optuna")
    text = printed(["tune", "rummy-seeker", "--param", "meld.abandon_turn=0:20", "--against", "greedy",
                    "--trials", "2", "--hands", "100", "--workers", "1", "--out", str(tmp_path / "t.toml"),
                    "--report", str(tmp_path / "tr")], 80, capsys, monkeypatch)
    check(text, 80)


@pytest.mark.parametrize("width", WIDTHS)
def test_strategies_list_fits_the_width(width, capsys, monkeypatch):
    check(printed(["strategies", "list"], width, capsys, monkeypatch), width)


def test_wrap_breaks_on_words_never_inside_an_interval():
    text = ("win share minus 1/2, averaged over the field, +0.0163 [-0.0142, +0.0467] (95% t-interval); "
            "1. expert (+1.39 pp)")
    for width in range(27, 90):   # the widest word, an estimate with its interval, is 26
        lines = wrap(text, width)
        assert " ".join(lines) == text
        assert all(len(line) <= width for line in lines)
        assert not any(_broken(line) for line in lines)
        assert any("+0.0163 [-0.0142, +0.0467]" in line for line in lines)   # outside a table: with its estimate
        assert any("(+1.39 pp)" in line for line in lines) and any("1. expert" in line for line in lines)


def _table(columns: int) -> Table:
    t = Table(title="shares")
    t.add_column("")
    for j in range(columns):
        t.add_column(f"s{j}", justify="right")
    for i in range(columns):
        t.add_row(f"s{i}", *("-" if i == j else "0.460 [0.449, 0.471]" for j in range(columns)))
    return t


def _shown(renderables, width: int) -> str:
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(*renderables)
    return console.export_text()


def test_fit_leaves_a_table_that_fits_as_it_is_stacks_then_splits_one_that_does_not():
    t = _table(2)
    assert fit(t, Console(width=200)) == [t]
    stacked = fit(_table(3), Console(width=60))     # the interval under its estimate, in every cell
    text = _shown(stacked, 60)
    check(text, 60)
    assert len(stacked) == 1 and text.count("[0.449, 0.471]") == 6 and "0.460 [" not in text
    parts = fit(_table(6), Console(width=60))       # too wide even so: the title, then parts
    text = _shown(parts, 60)
    check(text, 60)
    assert len(parts) > 2 and text.count("(continued)") == len(parts) - 2
    assert text.count("[0.449, 0.471]") == 6 * 5 and text.count("│ s5 ") == len(parts) - 1
