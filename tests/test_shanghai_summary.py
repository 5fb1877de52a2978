"""The Shanghai end-of-run summary as printed by ``rummysim run --variant shanghai``
(``rummysim.variants.shanghai.summary.render``): it must fit 80 columns, rich's width when
stdout is not a terminal (``run ... > file``), with no cell cut short."""

import copy

import pytest
from rich.console import Console

from rummysim import simulate
from rummysim.variants.shanghai.summary import render

pytestmark = pytest.mark.engine


def rendered(summary: dict) -> str:
    console = Console(width=80, record=True, file=open("/dev/null", "w"), color_system=None)
    render(summary, console)
    return console.export_text()


def assert_fits(text: str) -> None:
    assert "…" not in text and "..." not in text, text
    long = [line for line in text.splitlines() if len(line) > 80]
    assert not long, long


@pytest.fixture(scope="module")
def summary():
    return simulate(games=20, players=4, seed=1, workers=1, variant="shanghai").summary


def test_the_summary_of_a_small_run_fits_80_columns(summary):
    text = rendered(summary)
    assert_fits(text)
    # every round's row is there with its estimate and its interval on the next line (no cell folded)
    assert "reshuffles" in text and "contract" in text
    table = text.split("Per round")[1].splitlines()
    rows = [line for line in table if line.startswith("│")]
    assert len(rows) == 2 * len(summary["per_round"])
    for r in summary["per_round"]:
        lo, hi = r["contract_met_rate"]["ci95"]
        assert f"{100 * r['contract_met_rate']['estimate']:.1f}" in text
        assert f"[{100 * max(lo, 0):.0f},{100 * hi:.0f}]" in text


def test_the_per_round_table_fits_80_columns_with_wide_values(summary):
    # the widest values a run can give: full rates, large penalties, many buys and reshuffles,
    # normal intervals dipping below 0
    wide = copy.deepcopy(summary)
    for r in wide["per_round"]:
        for k in ("contract_met_rate", "went_out_rate", "one_turn_bonus_rate"):
            r[k] = {"estimate": 1.0, "ci95": (0.834, 1.0)}
        r["mean_penalty"] = {"estimate": 245.55, "ci95": (231.0, 259.9)}
        r["buys_per_seat"] = {"estimate": 9.95, "ci95": (9.12, 10.78)}
        r["reshuffles"] = {"estimate": 0.05, "ci95": (-0.05, 0.15)} if r["round"] < 5 else \
            {"estimate": 5.55, "ci95": (1.0, 9.9)}
    text = rendered(wide)
    assert_fits(text)
    assert "[0.0,0.1]" in text and "[1.0,9.9]" in text and "-0" not in text.split("Per round")[1]
    assert sum(line.startswith("│") for line in text.split("Per round")[1].splitlines()) == 2 * 10
