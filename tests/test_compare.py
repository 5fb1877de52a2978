"""Duplicate matches: paired statistics by hand, SPRT decisions, reproducibility, the CLI."""

import json

import numpy as np
import pytest

from rummysim.analysis import intervals as I
from rummysim.cli import main
from rummysim.analysis.compare import Blocks, _chunk_blocks, compare, summarise_pair
from rummysim.variants.basic import kernel as K
from rummysim.variants.basic.rules import BasicRules
from rummysim.run import Chunk
from rummysim.strategy import load_strategy


def chunk(winners, points):
    rows = np.zeros((len(winners), K.HAND_COLS), dtype=np.int32)
    rows[:, K.H_GAME] = np.arange(len(winners))
    rows[:, K.H_WINNER] = winners
    rows[:, K.H_POINTS] = points
    rows[:, K.H_OUTCOME] = np.where(np.array(winners) < 0, 1, 0)
    return Chunk(rows, np.zeros((len(winners), 2, K.SEAT_COLS), np.int32), np.arange(len(winners)), None)


def test_paired_statistics_on_a_hand_computed_example():
    """Three deals, two seatings. Rotation 0 has A in seat 0, rotation 1 has A in seat 1.

    deal   rotation 0 (A=seat 0)   rotation 1 (A=seat 1)   A's pair   A-B points per hand
    0      seat 0 wins 10          seat 1 wins 5           1 + 1      (10 + 5) / 2  = 7.5
    1      seat 1 wins 20          seat 1 wins 8           0 + 1      (-20 + 8) / 2 = -6
    2      stalemate               seat 0 wins 12          1/2 + 0    (0 - 12) / 2  = -6
    """
    blocks = Blocks()
    blocks.add(*_chunk_blocks([chunk([0, 1, -1], [10, 20, 0]), chunk([1, 1, 0], [5, 8, 12])], 2, False))
    s = summarise_pair(blocks, 2)
    assert s["pentanomial"] == {"LL": 0, "LD": 1, "DD+WL": 1, "DW": 0, "WW": 1}
    # win share: block means 1, 1/2, 1/4 -> 0.58333; sd 0.38188, se 0.22048, t(0.975, 2) = 4.3027
    assert s["win_share"]["estimate"] == pytest.approx(0.583333, abs=1e-6)
    assert s["win_share"]["ci95"] == pytest.approx([0.583333 - 0.948654, 0.583333 + 0.948654], abs=1e-4)
    assert s["points_per_hand_diff"]["estimate"] == pytest.approx(-1.5)
    assert s["stalemate_rate"]["estimate"] == pytest.approx(1 / 6)
    assert s["seat_split"][0]["estimate"] == pytest.approx(0.5)
    assert s["seat_split"][1]["estimate"] == pytest.approx(2 / 3)
    # unpaired: var of [1,0,1/2,1,1,0] / 6 = 0.040278; paired: var of blocks / 3 = 0.048611
    assert s["variance_reduction"] == pytest.approx(0.040278 / 0.048611, rel=1e-3)
    assert s["blocks"] == 3 and s["hands"] == 6


def test_sprt_machinery_on_known_distributions():
    """Sequential runs on synthetic pentanomial pairs: equal strength accepts H0 in at
    least 90% of runs (alpha = beta = 0.05 promise 95%); +67 Elo accepts H1 likewise."""
    rng = np.random.default_rng(2026)
    values = np.array([0, 0.5, 1, 1.5, 2])
    equal = np.array([0.05, 0.2, 0.5, 0.2, 0.05])
    better = np.array([0.02, 0.12, 0.46, 0.26, 0.14])  # mean pair score 1.19 -> score 0.595, +66.8 Elo

    def decide(probs):
        scores = []
        for _ in range(400):
            scores.extend(rng.choice(values, size=50, p=probs))
            d = I.sprt_decision(I.sprt_llr(I.pentanomial(scores), 0, 40))
            if d != "continue":
                return d
        return "continue"

    assert I.elo((better * values).sum() / 2) == pytest.approx(66.82, abs=0.01)
    h0 = sum(decide(equal) == "H0" for _ in range(100))
    h1 = sum(decide(better) == "H1" for _ in range(100))
    assert h0 >= 90 and h1 >= 90


@pytest.mark.engine
def test_sprt_on_real_matches():
    greedy, rnd = load_strategy("greedy"), load_strategy("random")
    r = compare([greedy, rnd], 2, 5, BasicRules(), None, 200_000, chunk_size=500, sprt=(0, 20))
    s = r["pairs"][0]["sprt"]
    assert s["decision"] == "H1" and r["pairs"][0]["hands"] < 20_000  # stops early
    # the same strategy on both sides: duplicate deals cancel everything, every pair scores 1
    r = compare([greedy, greedy], 2, 5, BasicRules(), None, 200_000, chunk_size=500, sprt=(0, 20))
    assert r["pairs"][0]["sprt"]["decision"] == "H0"
    assert r["pairs"][0]["pentanomial"]["DD+WL"] == r["pairs"][0]["blocks"]


@pytest.mark.engine
def test_compare_same_for_any_worker_count_and_chunk():
    s = [load_strategy(n) for n in ("greedy", "cautious", "rummy-seeker")]
    a = compare(s, 3, 9, BasicRules(), None, 3000, workers=1, chunk_size=700)
    b = compare(s, 3, 9, BasicRules(), None, 3000, workers=2, chunk_size=3000)
    for x, y in zip(a["pairs"], b["pairs"]):
        assert x == y
    assert a["ranking"] == b["ranking"]
    assert len(a["pairs"]) == 3 and all("verdict" in p for p in a["pairs"])


@pytest.mark.engine
def test_compare_cli_json_and_saved_results(capsys, tmp_path):
    out = tmp_path / "cmp"
    try:
        main(["compare", "strategies/greedy.toml", "strategies/random.toml", "--hands", "2000", "--json",
              "--out", str(out)])
    except SystemExit as e:
        assert e.code == 0
    result = json.loads(capsys.readouterr().out)
    for key in ("win_share", "elo", "points_per_hand_diff"):
        est = result[key]
        assert est["ci95"][0] <= est["estimate"] <= est["ci95"][1]
    assert result["win_share"]["estimate"] > 0.8  # greedy crushes random
    assert result["reproduce"].startswith("rummysim compare strategies/greedy.toml strategies/random.toml")
    assert "| rummysim 0.1.0 |" in result["reproduce"]
    assert (out / "compare.json").exists() and (out / "hands.parquet").exists()
    import pandas as pd

    hands = pd.read_parquet(out / "hands.parquet")
    assert len(hands) == 4000 and set(hands.rotation) == {0, 1}


def test_compare_cli_errors(capsys):
    for args, words in [(["compare", "strategies/greedy.toml"], "at least two"),
                        (["compare", "a.toml", "b.toml", "--players", "3", "--sprt", "0", "10"], "--players 2"),
                        (["compare", "strategies/greedy.toml", "strategies/random.toml", "--sprt", "10", "0"], "below")]:
        with pytest.raises(SystemExit) as e:
            main(args)
        assert e.value.code == 2 and words in capsys.readouterr().err


@pytest.mark.engine
def test_points_per_hand_in_games_mode_is_all_points_over_all_hands(tmp_path):
    """Games differ in length: the estimate is (A's points - B's) over every hand, not a mean of per-game rates."""
    import pandas as pd

    s = [load_strategy("rummy-seeker"), load_strategy("greedy")]
    r = compare(s, 3, 4, BasicRules(), 300, None, out_dir=tmp_path)
    h = pd.read_parquet(tmp_path / "hands.parquet")
    a_won = h.winner == h.rotation
    b_won = (h.winner >= 0) & ~a_won
    diff = (h.points * a_won).sum() - (h.points * b_won).sum() / 2  # B is the mean of its 2 seats
    est = r["pairs"][0]["points_per_hand_diff"]
    assert est["estimate"] == pytest.approx(diff / len(h))
    assert est["ci95"][0] < est["estimate"] < est["ci95"][1]
