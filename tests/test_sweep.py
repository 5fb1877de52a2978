"""``rummysim sweep``: every value is compared with the same baseline, so its p-values are Holm-adjusted
over the values, and the output says the intervals are not adjusted."""

import json

import numpy as np
import pytest

from rummysim.cli import main


def holm(p) -> list[float]:
    """Holm's step-down adjustment written out: the i-th smallest of m times (m - i), kept monotone, at most 1."""
    p = np.asarray(p, dtype=float)
    order = np.argsort(p)
    out = np.empty(len(p))
    running = 0.0
    for i, j in enumerate(order):
        running = max(running, (len(p) - i) * p[j])
        out[j] = min(running, 1.0)
    return list(out)


@pytest.mark.engine
def test_sweep_holm_adjusts_over_its_values_and_says_the_intervals_are_not(tmp_path, capsys):
    out = tmp_path / "sweep"
    try:
        main(["sweep", "strategies/rummy-seeker.toml", "--param", "meld.abandon_turn", "--values", "0,4,8",
              "--hands", "400", "--seed", "3", "--out", str(out)])
    except SystemExit as e:
        assert e.code == 0
    printed = capsys.readouterr().out
    assert "Holm-adjusted p" in printed
    assert "Holm-adjusted over the 3" in " ".join(printed.split())
    assert "not adjusted for the 3 comparisons" in " ".join(printed.split())
    result = json.loads((out / "sweep.json").read_text())
    assert "not adjusted for the 3 comparisons" in result["multiple_comparisons"]
    rows = result["rows"]
    for r in rows:
        # the p-value of win share = 1/2: the share interval's test over the 400 blocks (intervals.share_test)
        ws, n = r["win_share"], r["blocks"]
        assert ws["n"] == n == 400 and r["test"] == "share interval" and 0 < r["p_value"] <= 1
        assert (r["p_value"] < 0.05) == (not ws["ci95"][0] <= 0.5 <= ws["ci95"][1])
    assert [r["p_holm"] for r in rows] == pytest.approx(holm([r["p_value"] for r in rows]), rel=1e-12)
    assert any(r["p_holm"] > r["p_value"] for r in rows)   # the adjustment did something
    header = (out / "sweep.csv").read_text().splitlines()[0]
    assert header.endswith(",blocks,p_value,p_holm")
