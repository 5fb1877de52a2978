"""Every figure ``report`` (and ``compare --report``, ``sweep``) writes, for both variants, runs and
comparisons: no two of its texts overlap, none runs off the figure, and the figures say what their
intervals are (per game where the unit is a game; unadjusted where there are several matches).

The figures are drawn (Agg) and every text actually drawn is recorded (``Text.draw`` wrapped), so tick
labels outside the axes' view, hidden or empty texts do not count; each text's window extent comes
from the renderer, and any two extents that intersect fail the test, naming both texts.
"""

from unittest import mock

import matplotlib.text as mtext
import pytest

from rummysim import report as R
from rummysim.analysis.sweep import multiple_comparisons_note, sweep_figure
from rummysim.cli import main


def drawn_texts(fig) -> list[tuple[str, object]]:
    """(text, window extent in pixels) of every visible, non-empty text drawn when ``fig`` is drawn."""
    drawn = []
    draw = mtext.Text.draw

    def record(self, renderer):
        drawn.append(self)
        return draw(self, renderer)

    with mock.patch.object(mtext.Text, "draw", record):
        fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    return [(t.get_text(), t.get_window_extent(renderer)) for t in drawn if t.get_visible() and t.get_text().strip()]


def text_problems(fig) -> list[str]:
    """Pairs of texts that overlap, and texts that run off the figure, in words (empty if none)."""
    texts = drawn_texts(fig)
    assert texts, "no text drawn: the check would pass on anything"
    problems = [f"{a!r} overlaps {b!r}" for i, (a, box_a) in enumerate(texts) for b, box_b in texts[i + 1:]
                if box_a.overlaps(box_b)]
    edge = fig.bbox
    problems += [f"{t!r} runs off the figure" for t, box in texts
                 if box.x0 < edge.x0 - 1 or box.y0 < edge.y0 - 1 or box.x1 > edge.x1 + 1 or box.y1 > edge.y1 + 1]
    return problems


def report_figures(results_dir, out_dir) -> dict:
    """Every figure ``write_report`` writes for ``results_dir``, by name (each also written as its PNG)."""
    figures = {}
    page_figure = R._Page.figure

    def keep(page, name, fig, caption):
        figures[name] = (fig, caption)
        return page_figure(page, name, fig, caption)

    with mock.patch.object(R._Page, "figure", keep):
        R.write_report(results_dir, out_dir)
    return figures


def cli(args) -> None:
    try:
        main([str(a) for a in args])
    except SystemExit as e:
        assert e.code == 0


def run_results(tmp, variant, players, count):
    """A small run's results directory (the variant's default strategy in every seat)."""
    cli(["run", "--variant", variant, "--players", players, *count, "--seed", 5, "--out", tmp / "results"])
    return tmp / "results"


def compare_results(tmp, variant, names, players, count):
    """A small comparison's results directory."""
    cli(["compare", *names, "--variant", variant, "--players", players, *count, "--seed", 5,
         "--out", tmp / "results"])
    return tmp / "results"


CASES = {   # results maker and its arguments
    "basic run of hands": (run_results, ("basic", 2, ["--hands", 400])),
    "basic run of games, 3 players": (run_results, ("basic", 3, ["--games", 20])),
    "basic comparison of 2, hands": (compare_results, ("basic", ["expert", "greedy"], 2, ["--hands", 300])),
    "basic comparison of 3, games": (compare_results, ("basic", ["greedy", "random", "rummy-seeker"], 2,
                                                       ["--games", 20])),
    "basic comparison of 3, 3 players": (compare_results, ("basic", ["greedy", "random", "rummy-seeker"], 3,
                                                           ["--hands", 200])),
    "shanghai run": (run_results, ("shanghai", 4, ["--games", 4])),
    "shanghai comparison of 3": (compare_results, ("shanghai", ["greedy", "buyer", "patient"], 4, ["--games", 3])),
}


@pytest.mark.slow   # 9-11 s a figure set
@pytest.mark.engine
@pytest.mark.parametrize("case", CASES)
def test_no_figure_text_overlaps_another_or_leaves_the_figure(case, tmp_path):
    make, args = CASES[case]
    figures = report_figures(make(tmp_path, *args), tmp_path / "report")
    assert figures
    problems = {name: text_problems(fig) for name, (fig, _) in figures.items()}
    assert not {name: p for name, p in problems.items() if p}, case


def _all_text(fig) -> str:
    return "\n".join(t for t, _ in drawn_texts(fig))


@pytest.mark.engine
def test_comparison_figures_say_per_game_and_unadjusted(tmp_path):
    """A --games comparison of 3: the forest plot's win-share axis counts games, and the forest plot
    and crosstable (figures and captions) say their intervals are not adjusted for the 3 matches."""
    results = compare_results(tmp_path, "basic", ["greedy", "random", "rummy-seeker"], 2, ["--games", 12])
    figures = report_figures(results, tmp_path / "report")
    forest, caption = figures["forest"]
    assert forest.axes[0].get_xlabel() == "share of games won by A minus 1/2 (percentage points)"
    assert "win share per game" in _all_text(forest)
    for name in ("forest", "crosstable"):
        fig, caption = figures[name]
        assert "not adjusted for the 3 comparisons" in _all_text(fig).replace("\n", " "), name
        assert "not adjusted for the 3 comparisons" in caption, name
    assert "share of games won by row" in _all_text(figures["crosstable"][0])


def test_sweep_figure_texts_do_not_overlap_and_say_unadjusted():
    rows = [{"value": v, "win_share": {"estimate": w, "ci95": [w - 0.02, w + 0.02], "n": 500},
             "points_per_hand_diff": {"estimate": p, "ci95": [p - 0.5, p + 0.5], "n": 500}, "blocks": 500,
             "hands": 1000, "p_value": 0.01, "p_holm": 0.03} for v, w, p in (("4", 0.50, 0.1), ("8", 0.53, 1.9),
                                                                            ("12", 0.55, 3.0))]
    for variant, players in (("basic", 2), ("shanghai", 4)):
        result = {"variant": variant, "key": "meld.abandon_turn", "baseline": "greedy",
                  "strategy": "strategies/rummy-seeker.toml", "players": players, "seed": 12345, "mode": "hands",
                  "count": 50000, "rule_hash": "r" * 12, "rows": rows,
                  "multiple_comparisons": multiple_comparisons_note(3, players)}
        fig = sweep_figure(result)
        assert not text_problems(fig), variant
        assert "not adjusted for the 3 comparisons" in _all_text(fig).replace("\n", " ")
