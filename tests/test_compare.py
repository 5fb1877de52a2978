"""Duplicate matches: paired statistics by hand, SPRT decisions, reproducibility, the CLI."""

import dataclasses
import json
import math

import numpy as np
import pytest
from scipy import stats as sps

from rummysim.base import intervals as I
from rummysim.cli import main
from rummysim.analysis.compare import Blocks, _chunk_blocks, _crosstable, compare, summarise_pair
from rummysim.variants.basic import kernel as K
from rummysim.variants.basic.rules import BasicRules
from rummysim.run import Chunk
from rummysim.strategy import load_strategy

from independent import ratio_interval, share_interval, share_ratio_interval
from rummysim.variants import VARIANTS

SHANGHAI = VARIANTS["shanghai"]

BASIC = VARIANTS["basic"]




def chunk(winners, points):
    rows = np.zeros((len(winners), K.HAND_COLS), dtype=np.int32)
    rows[:, K.H_GAME] = np.arange(len(winners))
    rows[:, K.H_STARTER] = np.arange(len(winners)) % 2   # a deal's starter, (game + hand) % players: 2 players
    rows[:, K.H_WINNER] = winners
    rows[:, K.H_POINTS] = points
    rows[:, K.H_OUTCOME] = np.where(np.array(winners) < 0, 1, 0)
    return Chunk(rows, np.zeros((len(winners), 2, K.SEAT_COLS), np.int32), np.arange(len(winners)), None)


def test_paired_statistics_on_a_hand_computed_example():
    """Three deals, two seatings. Rotation 0 has A in seat 0, rotation 1 has A in seat 1; the deal
    fixes who starts (seat 0, 1, 0), so A starts in one rotation of each deal (marked *).

    deal   rotation 0 (A=seat 0)   rotation 1 (A=seat 1)   A's pair   A-B points per hand
    0      *seat 0 wins 10         seat 1 wins 5           1 + 1      (10 + 5) / 2  = 7.5
    1      seat 1 wins 20          *seat 1 wins 8          0 + 1      (-20 + 8) / 2 = -6
    2      *stalemate              seat 0 wins 12          1/2 + 0    (0 - 12) / 2  = -6

    By who starts: A starts 1, 1, 1/2 (5/6), B starts 1, 0, 0 (1/3), each with the share interval over
    the 3 deals; by A's seat it would be 1, 0, 1/2 (1/2) and 1, 1, 0 (2/3), which hides that A wins
    more when it starts.
    """
    blocks = Blocks()
    blocks.add(*_chunk_blocks(BASIC, [chunk([0, 1, -1], [10, 20, 0]), chunk([1, 1, 0], [5, 8, 12])], 2, False))
    s = summarise_pair(blocks, 2)
    assert s["pentanomial"] == {"LL": 0, "LD": 1, "DD+WL": 1, "DW": 0, "WW": 1}
    # win share: block means 1, 1/2, 1/4 -> 0.58333; sd 0.38188, se 0.22048; Korn and Graubard's interval:
    # n_eff = .583333 * .416667 / .048611 = 5, times (1.959964 / t(.975, 2) = 4.302653)^2: 1.0375
    assert s["win_share"]["estimate"] == pytest.approx(0.583333, abs=1e-6)
    assert [s["win_share"]["estimate"], *s["win_share"]["ci95"]] == pytest.approx(share_interval([1, 0.5, 0.25]),
                                                                                   rel=1e-9)
    assert 0 < s["win_share"]["ci95"][0] < s["win_share"]["ci95"][1] < 1
    assert s["points_per_hand_diff"]["estimate"] == pytest.approx(-1.5)
    assert s["stalemate_rate"]["estimate"] == pytest.approx(1 / 6)
    assert "seat_split" not in s
    assert [(q["position"], q["who"]) for q in s["position_split"]] == [(1, "A starts"), (2, "B starts")]
    assert [s["position_split"][0]["estimate"], *s["position_split"][0]["ci95"]] == pytest.approx(
        share_interval([1, 1, 0.5]), rel=1e-9)
    assert [s["position_split"][1]["estimate"], *s["position_split"][1]["ci95"]] == pytest.approx(
        share_interval([1, 0, 0]), rel=1e-9)
    # unpaired: var of [1,0,1/2,1,1,0] / 6 = 0.040278; paired: var of blocks / 3 = 0.048611
    assert s["variance_reduction"] == pytest.approx(0.040278 / 0.048611, rel=1e-3)
    assert s["blocks"] == 3 and s["hands"] == 6
    # every estimate says how many units it rests on: here the 3 deals (pairs)
    assert [s[k]["n"] for k in ("win_share", "win_share_minus_fair", "points_per_hand_diff", "stalemate_rate",
                                "elo")] == [3] * 5
    assert [x["n"] for x in s["position_split"]] == [3, 3]


def _printed(result) -> str:
    from rich.console import Console

    from rummysim.analysis.compare import render

    console = Console(record=True, width=200)
    render(result, console)
    return console.export_text()


def test_estimates_on_few_blocks_print_their_count():
    """Fewer than 100 blocks: "n=3" beside every estimate of the headline (and in the crosstable);
    100 or more: no count."""
    blocks = Blocks()
    blocks.add(*_chunk_blocks(BASIC, [chunk([0, 1, -1], [10, 20, 0]), chunk([1, 1, 0], [5, 8, 12])], 2, False))
    s = summarise_pair(blocks, 2)
    result = {"players": 2, "variant": "basic", "mode": "hands", "reproduce": "rummysim compare a b",
              "pairs": [{"a": "A", "b": "B", **s}], **_crosstable([_Named("A"), _Named("B")],
                                                                   [{"a": "A", "b": "B", "a_index": 0, "b_index": 1,
                                                                     **s}], 2)}
    lines = {line.split("│")[1].strip(): line for line in _printed(result).splitlines() if line.count("│") >= 3}
    for what in ("win share of A (hands; fair = 0.500)", "Elo difference (logistic, per hand)",
                 "points per hand, A minus B", "stalemate rate", "A's hand win share when A starts",
                 "A's hand win share when B starts"):
        assert lines[what].split("│")[2].strip().endswith("n=3"), what
    assert lines["variance reduction from pairing"].split("│")[2].strip().endswith("x n=3")   # issue 42, item 8
    assert _printed(result).count("n=3") == 7 + 2     # and both cells of the crosstable
    many = Blocks()
    winners = [0, 1, -1] * 34
    many.add(*_chunk_blocks(BASIC, [chunk(winners, [10, 20, 0] * 34), chunk([1, 1, 0] * 34, [5, 8, 12] * 34)], 2, False))
    s = summarise_pair(many, 2)
    assert s["win_share"]["n"] == 102
    assert "n=" not in _printed({"players": 2, "variant": "basic", "mode": "hands", "reproduce": "rummysim compare a b",
                                 "pairs": [{"a": "A", "b": "B", **s}]})


def test_elo_label_says_per_game_in_games_mode():
    blocks = Blocks()
    blocks.add(*_chunk_blocks(BASIC, [chunk([0, 1, -1], [10, 20, 0]), chunk([1, 1, 0], [5, 8, 12])], 2, False))
    result = {"players": 2, "variant": "basic", "mode": "games", "reproduce": "rummysim compare a b",
              "pairs": [{"a": "A", "b": "B", **summarise_pair(blocks, 2)}]}
    text = _printed(result)
    assert "Elo difference (logistic, per game)" in text and "win share of A (games;" in text


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
    greedy, rnd = load_strategy("greedy", BASIC), load_strategy("random", BASIC)
    r = compare(BASIC, [greedy, rnd], 2, 5, BasicRules(), None, 200_000, chunk_size=500, sprt=(0, 20))
    s = r["pairs"][0]["sprt"]
    assert s["decision"] == "H1" and r["pairs"][0]["hands"] < 20_000  # stops early
    # the same strategy on both sides: duplicate deals cancel everything, every pair scores 1
    r = compare(BASIC, [greedy, greedy], 2, 5, BasicRules(), None, 200_000, chunk_size=500, sprt=(0, 20))
    assert r["pairs"][0]["sprt"]["decision"] == "H0"
    assert r["pairs"][0]["pentanomial"]["DD+WL"] == r["pairs"][0]["blocks"]


@pytest.mark.engine
def test_compare_same_for_any_worker_count_and_chunk():
    s = [load_strategy(n, BASIC) for n in ("greedy", "cautious", "rummy-seeker")]
    a = compare(BASIC, s, 3, 9, BasicRules(), None, 3000, workers=1, chunk_size=700)
    b = compare(BASIC, s, 3, 9, BasicRules(), None, 3000, workers=2, chunk_size=3000)
    for x, y in zip(a["pairs"], b["pairs"]):
        assert x == y
    assert a["ranking"] == b["ranking"]
    assert len(a["pairs"]) == 3
    # Holm by its definition: sorted ascending, the i-th (0-based) of m times (m - i), running maximum
    raw = [p["p_value"] for p in a["pairs"]]
    order = sorted(range(3), key=lambda i: raw[i])
    holm, running = [0.0] * 3, 0.0
    for i, j in enumerate(order):
        running = max(running, (3 - i) * raw[j])
        holm[j] = min(running, 1.0)
    for p, h in zip(a["pairs"], holm):
        assert p["p_holm"] == pytest.approx(h, rel=1e-12)
        better = p["a"] if p["win_share"]["estimate"] > 1 / 3 else p["b"]
        assert p["verdict"].startswith(f"{better} is better" if h < 0.05 else "no significant difference")


@pytest.mark.engine
def test_compare_cli_json_and_saved_results(capsys, tmp_path):
    out = tmp_path / "cmp"
    try:
        main(["compare", "strategies/greedy.toml", "strategies/random.toml", "--hands", "2000", "--json",
              "--out", str(out)])
    except SystemExit as e:
        assert e.code == 0
    result = json.loads(capsys.readouterr().out)
    assert result["win_share"]["estimate"] > 0.8  # greedy crushes random
    assert result["reproduce"] == ("rummysim compare strategies/greedy.toml strategies/random.toml --players 2 "
                                   "--hands 2000 --seed 0 --variant basic")
    assert result["provenance"].startswith("rummysim 0.1.0 | rules ")
    assert (out / "compare.json").exists() and (out / "hands.parquet").exists()
    import pandas as pd

    hands = pd.read_parquet(out / "hands.parquet")
    assert len(hands) == 4000 and set(hands.rotation) == {0, 1}
    # the headline again from the rows: A (greedy) sits in seat `rotation`; a deal is a block of 2 hands
    a_won, stale = hands.winner == hands.rotation, hands.winner < 0
    hands["score"] = np.where(a_won, 1.0, np.where(stale, 0.5, 0.0))
    hands["diff"] = np.where(a_won, hands.points, 0) - np.where(~a_won & ~stale, hands.points, 0)
    blocks = hands.groupby("game").agg(score=("score", "mean"), diff=("diff", "sum"), m=("diff", "size"))
    assert len(blocks) == 2000 and (blocks.m == 2).all()
    assert [result["win_share"]["estimate"], *result["win_share"]["ci95"]] == pytest.approx(
        share_interval(blocks.score), rel=1e-9)
    assert [result["points_per_hand_diff"]["estimate"], *result["points_per_hand_diff"]["ci95"]] == pytest.approx(
        ratio_interval(blocks["diff"], blocks.m), rel=1e-9)
    pair = blocks.score * 2                              # 0, 1/2, 1, 3/2, 2: LL, LD, DD+WL, DW, WW
    assert list(result["pairs"][0]["pentanomial"].values()) == [int((pair == v).sum()) for v in (0, .5, 1, 1.5, 2)]


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

    s = [load_strategy("rummy-seeker", BASIC), load_strategy("greedy", BASIC)]
    r = compare(BASIC, s, 3, 4, BasicRules(), 300, None, out_dir=tmp_path)
    h = pd.read_parquet(tmp_path / "hands.parquet")
    a_won = h.winner == h.rotation
    b_won = (h.winner >= 0) & ~a_won
    diff = (h.points * a_won).sum() - (h.points * b_won).sum() / 2  # B is the mean of its 2 seats
    est = r["pairs"][0]["points_per_hand_diff"]
    assert est["estimate"] == pytest.approx(diff / len(h))
    # its interval by the delta method over blocks (a game's deal in every rotation), from the rows
    h["diff"] = np.where(a_won, h.points, 0) - np.where(b_won, h.points, 0) / 2
    blocks = h.groupby("game").agg(y=("diff", "sum"), m=("diff", "size"))
    assert len(blocks) == 300
    assert [est["estimate"], *est["ci95"]] == pytest.approx(ratio_interval(blocks.y, blocks.m), rel=1e-9)


class _Named:
    def __init__(self, name):
        self.name = name


def _pair(a, b, ai, bi, p, ws, half=0.05):
    return {"a": a, "b": b, "a_index": ai, "b_index": bi, "p_value": p, "test": "t", "blocks": 400,
            "win_share": {"estimate": ws, "ci95": [ws - half, ws + half], "n": 400}}


def test_crosstable_by_hand_holm_verdicts_direction_and_ranking():
    """Three strategies X, Y, Z at 2 players; the pairs' raw p-values 0.03, 0.01, 0.04.

    Holm, by hand: sorted 0.01 (X-Z), 0.03 (X-Y), 0.04 (Y-Z) scale by 3, 2, 1 -> 0.03, 0.06, 0.04;
    the running maximum makes the last 0.06. So X-Z is significant (Holm 0.03 < 0.05), X-Y and
    Y-Z are not (0.06), though their raw p-values (0.03, 0.04) are below 0.05.
    Direction: X's share against Z is 0.35 < 1/2, so Z is the better one.
    Ranking (mean of edges; A gets ws - 1/2, B gets -(ws - 1/2)):
        X: (+0.08 - 0.15) / 2 = -0.035;  Y: (-0.08 - 0.05) / 2 = -0.065;  Z: (+0.15 + 0.05) / 2 = +0.10
    -> Z, X, Y."""
    names = [_Named(n) for n in "XYZ"]
    pairs = [_pair("X", "Y", 0, 1, 0.03, 0.58), _pair("X", "Z", 0, 2, 0.01, 0.35), _pair("Y", "Z", 1, 2, 0.04, 0.45)]
    out = _crosstable(names, pairs, 2)
    assert [p["p_holm"] for p in pairs] == pytest.approx([0.06, 0.03, 0.06], abs=1e-15)
    assert [p["verdict"] for p in pairs] == ["no significant difference (Holm-adjusted p = 0.06, the share interval's test over 400 blocks)",
                                           "Z is better (Holm-adjusted p = 0.03, the share interval's test over 400 blocks)",
                                           "no significant difference (Holm-adjusted p = 0.06, the share interval's test over 400 blocks)"]
    assert [(r["rank"], r["name"]) for r in out["ranking"]] == [(1, "Z"), (2, "X"), (3, "Y")]
    assert [r["mean_edge"] for r in out["ranking"]] == pytest.approx([0.10, -0.035, -0.065], abs=1e-12)
    ws = out["crosstable"]["win_share"]
    assert ws[0][0] is None and ws[0][1]["estimate"] == 0.58
    # the mirror at 2 players: Z's share against X is 1 - 0.35 with the interval mirrored
    assert [ws[2][0]["estimate"], *ws[2][0]["ci95"]] == pytest.approx([0.65, 0.60, 0.70], abs=1e-12)


def test_crosstable_by_hand_direction_against_the_fair_share_of_three_players():
    """At 3 players the fair share is 1/3: A at 0.40 is better though below 1/2, A at 0.30 worse.
    Raw p 0.001, 0.002, 0.5 -> Holm 0.003, 0.004, 0.5. Edges: A gets ws - 1/3, each B seat
    -(ws - 1/3) / 2, with d = 1/15, -1/30, 1/150 for the three pairs:
    X: (1/15 - 1/30) / 2 = 1/60;  Y: (-(1/15)/2 + 1/150) / 2 = -1/75;  Z: ((1/30)/2 - (1/150)/2) / 2 = 1/150
    -> X, Z, Y (X ranks first though it lost to Z: it beat Y by more)."""
    names = [_Named(n) for n in "XYZ"]
    pairs = [_pair("X", "Y", 0, 1, 0.001, 0.40), _pair("X", "Z", 0, 2, 0.002, 0.30), _pair("Y", "Z", 1, 2, 0.5, 0.34)]
    out = _crosstable(names, pairs, 3)
    assert [p["p_holm"] for p in pairs] == pytest.approx([0.003, 0.004, 0.5], abs=1e-15)
    assert [p["verdict"].split(" (")[0] for p in pairs] == ["X is better", "Z is better", "no significant difference"]
    assert [r["name"] for r in out["ranking"]] == ["X", "Z", "Y"]
    assert [r["mean_edge"] for r in out["ranking"]] == pytest.approx([1 / 60, 1 / 150, -1 / 75], abs=1e-12)
    assert out["crosstable"]["win_share"][1][0] is None   # no mirror with 3 players


def shanghai_chunk(scores, winners):
    """A Shanghai rotation's chunk by hand: ``scores[game][round]`` the seats' penalty points of
    each round, ``winners[game][round]`` the seat that went out (-1: no winner)."""
    from rummysim.engine.codes import OUT_STALEMATE_STOCK, OUT_WIN
    from rummysim.variants.shanghai import schema as SK

    flat = [(g, r, s, w) for g in range(len(scores)) for r, (s, w) in enumerate(zip(scores[g], winners[g]))]
    k = len(flat[0][2])
    rows = np.zeros((len(flat), SK.ROUND_COLS), np.int32)
    seats = np.zeros((len(flat), k, SK.SEAT_COLS), np.int32)
    for i, (g, r, s, w) in enumerate(flat):
        rows[i, SK.RW_GAME], rows[i, SK.RW_ROUND], rows[i, SK.RW_WINNER] = g, r + 1, w
        rows[i, SK.RW_STARTER] = (g + r) % len(s)   # round r + 1 of game g: dealt by (g + r + k - 1) % k
        rows[i, SK.RW_OUTCOME] = OUT_WIN if w >= 0 else OUT_STALEMATE_STOCK
        seats[i, :, SK.SS_SCORE] = s
    totals = np.array([np.sum(game, axis=0) for game in scores], np.int32)
    return Chunk(rows, seats, np.arange(len(scores)), totals)


def test_shanghai_duplicate_match_by_hand():
    """3 players, A against B, 2 games (blocks) of 2 rounds, in 3 rotations (A in seat r).
    Penalty points per round (seat 0, 1, 2), a "-" round had no winner; A's seat in brackets:

    game 0  rot 0: [0] 10 20 | [5]  0 15       totals [5] 10 35   A lowest: share 1
                   A - mean B per round: 0 - 15 = -15;  5 - 7.5 = -2.5          sum -17.5
            rot 1: 10 [0] 30 | 5 [15] 5 (-)    totals 15 [15] 35  A tied with a B: 1/2
                   0 - 20 = -20;  15 - 5 = +10                                 sum -10
            rot 2: 0 10 [10] | 20 10 [10] (-) totals 20 20 [20]   three-way tie: 1/3
                   10 - 5 = +5;  10 - 15 = -5                                  sum 0
            block: score (1 + 1/2 + 1/3) / 3 = 11/18, points -27.5 over 6 rounds, per game -27.5/3
    game 1  rot 0: [20] 0 10 | [0] 10 30       totals [20] 10 40  share 0
                   20 - 5 = +15;  0 - 20 = -20                                 sum -5
            rot 1: 10 [0] 20 | 0 [10] 30       totals 10 [10] 50  tied: 1/2
                   0 - 15 = -15;  10 - 15 = -5                                 sum -20
            rot 2: 30 10 [0] | 20 40 [0]       totals 50 50 [0]   share 1
                   0 - 20 = -20;  0 - 30 = -30                                 sum -50
            block: score (0 + 1/2 + 1) / 3 = 1/2, points -75 over 6 rounds, per game -25
    win share (11/18 + 9/18) / 2 = 5/9; t-interval over 2 blocks: se = |11/18 - 9/18| / 2 = 1/18,
    p-value of 5/9 - 1/3 = 4 se with 1 dof; penalty per round (-27.5 - 75) / 12 = -8.541666...;
    per game (-27.5/3 - 25) / 2 = -17.083333...; no winner 2 of 12 rounds.

    By position in the round (the starter is seat (game + round - 1) % 3: 0, 1 in game 0, 1, 2 in
    game 1), A's round score (went out 1, no winner 1/3, else 0):
    game 0  starter: rot 0 round 1 (1), rot 1 round 2 (-: 1/3)     2nd: rot 1 round 1 (1), rot 2 round 2 (1/3)
            dealer:  rot 0 round 2 (0), rot 2 round 1 (0)
    game 1  starter: rot 1 round 1 (1), rot 2 round 2 (1)          2nd: rot 0 round 2 (1), rot 2 round 1 (1)
            dealer:  rot 0 round 1 (0), rot 1 round 2 (0)
    so per game (sum, rounds): starter (4/3, 2), (2, 2): 5/6; 2nd the same; dealer 0. (By A's seat it
    would be the game's win share by rotation, 1/2, 1/2, 2/3: nothing about who starts a round.)
    """
    rot = [
        shanghai_chunk([[[0, 10, 20], [5, 0, 15]], [[20, 0, 10], [0, 10, 30]]], [[0, 1], [1, 0]]),
        shanghai_chunk([[[10, 0, 30], [5, 15, 5]], [[10, 0, 20], [0, 10, 30]]], [[1, -1], [1, 0]]),
        shanghai_chunk([[[0, 10, 10], [20, 10, 10]], [[30, 10, 0], [20, 40, 0]]], [[0, -1], [2, 2]]),
    ]
    part, hands = _chunk_blocks(SHANGHAI, rot, 3, True)
    assert hands == 12
    assert part["score"] == pytest.approx([11 / 18, 1 / 2], abs=1e-15)
    assert part["points_diff"] == pytest.approx([-27.5, -75.0], abs=1e-12)
    assert part["points_game"] == pytest.approx([-27.5 / 3, -25.0], abs=1e-12)
    assert part["by_seat"].ravel() == pytest.approx([1, 1 / 2, 1 / 3, 0, 1 / 2, 1], abs=1e-15)
    blocks = Blocks()
    blocks.add(part, hands)
    s = summarise_pair(blocks, 3)
    t = sps.t.ppf(0.975, 1)
    assert s["blocks"] == 2 and s["hands"] == 12
    # the t-interval, 5/9 +- 12.706/18 = [-0.15, 1.26], left [0, 1]; the share interval does not
    assert [s["win_share"]["estimate"], *s["win_share"]["ci95"]] == pytest.approx(share_interval([11 / 18, 1 / 2]),
                                                                                   rel=1e-9)
    assert 0 <= s["win_share"]["ci95"][0] < s["win_share"]["ci95"][1] <= 1
    assert s["win_share_minus_fair"]["estimate"] == pytest.approx(2 / 9, abs=1e-12)
    # 2 blocks at 3 players: the share interval's test (a t-test on 2 blocks gave p = 0.156), which
    # agrees with the interval: it holds the fair share 1/3, p above 0.05
    assert s["test"] == "share interval" and 0.05 < s["p_value"] <= 1
    assert s["win_share"]["ci95"][0] < 1 / 3
    assert s["points_per_hand_diff"]["estimate"] == pytest.approx(-102.5 / 12, abs=1e-12)
    pg = np.array([-27.5 / 3, -25.0])
    half = t * pg.std(ddof=1) / np.sqrt(2)
    assert [s["points_per_game_diff"]["estimate"], *s["points_per_game_diff"]["ci95"]] == pytest.approx(
        [pg.mean(), pg.mean() - half, pg.mean() + half], abs=1e-12)
    assert s["points_per_game_diff"]["estimate"] == pytest.approx(-102.5 / 6, abs=1e-12)
    assert s["stalemate_rate"]["estimate"] == pytest.approx(2 / 12, abs=1e-15)
    split = s["position_split"]
    assert [(q["position"], q["who"]) for q in split] == [(1, "starter"), (2, "2nd to play"),
                                                          (3, "dealer (plays last)")]
    for q, (y, m) in zip(split, [([4 / 3, 2], [2, 2]), ([4 / 3, 2], [2, 2]), ([0, 0], [2, 2])]):
        assert [q["estimate"], *q["ci95"]] == pytest.approx(share_ratio_interval(y, m), rel=1e-9, abs=1e-15)
    assert "pentanomial" not in s and "elo" not in s   # 3 players: no pairs of two games


@pytest.fixture(scope="module")
def saved_matches(tmp_path_factory):
    """Two saved comparisons: expert against greedy at 2 players (3,000 deals) and rummy-seeker
    against greedy at 3 players (150 games)."""
    root = tmp_path_factory.mktemp("matches")
    compare(BASIC, [load_strategy("expert", BASIC), load_strategy("greedy", BASIC)], 2, 5, BasicRules(), None, 3000,
            out_dir=root / "p2")
    compare(BASIC, [load_strategy("rummy-seeker", BASIC), load_strategy("greedy", BASIC)], 3, 6, BasicRules(), 150, None,
            out_dir=root / "p3")
    return root


def _rows(directory):
    import pandas as pd

    hands = pd.read_parquet(directory / "hands.parquet")
    return hands, json.loads((directory / "compare.json").read_text())


@pytest.mark.engine
@pytest.mark.parametrize("name", ["p2", "p3"])
def test_position_split_recomputed_from_the_rows(saved_matches, name):
    """A's share of the hands it played at each position after the dealer (1: A starts), from the
    rows: position = (A's seat - starter) % k, A's seat = rotation; a block is a deal (--hands) or a
    game (--games) with all its rotations, the interval the delta-method t over blocks."""
    hands, record = _rows(saved_matches / name)
    k = record["players"]
    p = record["pairs"][0]
    assert "seat_split" not in p
    hands["position"] = (hands.rotation - hands.starter) % k
    hands["score"] = np.where(hands.winner == hands.rotation, 1.0, np.where(hands.winner < 0, 1 / k, 0.0))
    assert [q["position"] for q in p["position_split"]] == list(range(1, k + 1))
    for q in p["position_split"]:
        at = hands[hands.position == q["position"] - 1].groupby("game").agg(y=("score", "sum"), m=("score", "size"))
        assert len(at) == p["blocks"]
        assert [q["estimate"], *q["ci95"]] == pytest.approx(share_ratio_interval(at.y, at.m), rel=1e-9)
    if k == 2:   # every deal once with each starter: the two halves average to the headline
        split = [q["estimate"] for q in p["position_split"]]
        assert np.mean(split) == pytest.approx(p["win_share"]["estimate"], rel=1e-12)
        assert [q["who"] for q in p["position_split"]] == ["A starts", "B starts"]
    else:
        assert [q["who"] for q in p["position_split"]] == ["starter", "2nd to play", "dealer (plays last)"]


@pytest.mark.engine
def test_every_rotation_of_a_deal_shares_its_deal_key(saved_matches):
    """The ``deal`` column: one value per deal (game, hand) across the rotations that played it,
    distinct deals distinct, and equal to the deal stream's key written out here in Python integers."""
    mask = (1 << 64) - 1
    golden = 0x9E3779B97F4A7C15

    def mix(z):
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return z ^ (z >> 31)

    def deal_key(seed, game, hand, kind=1, index=0):   # kind 1: the deal (rummysim/engine/rng.py)
        h = mix((seed + golden) & mask)
        for i, v in enumerate((game, hand, kind, index)):
            h = mix(h ^ ((v * golden + i + 1) & mask))
        return h

    for name, seed in (("p2", 5), ("p3", 6)):
        hands, record = _rows(saved_matches / name)
        per_deal = hands.groupby(["game", "hand"]).deal.agg(["nunique", "first", "size"])
        assert (per_deal["nunique"] == 1).all()
        # every rotation plays each deal of --hands; in --games a rotation's game may end before hand h
        assert (per_deal["size"] == record["players"]).all() if record["mode"] == "hands" else \
            (per_deal.xs(0, level="hand")["size"] == record["players"]).all()
        assert per_deal["first"].is_unique
        for (game, hand), key in per_deal["first"].iloc[:: max(1, len(per_deal) // 50)].items():
            assert int(key) == deal_key(seed, int(game), int(hand))


@pytest.mark.engine
@pytest.mark.parametrize("name", ["p2", "p3"])
def test_convergence_is_in_deal_order_and_ends_on_the_headline(saved_matches, name):
    """The convergence curve: A's win share after each number of deals (games), every deal with all
    its rotations, with the t-interval over deals; its last point is the headline, exactly."""
    from rummysim.analysis import stats as S

    hands, record = _rows(saved_matches / name)
    k, p = record["players"], record["pairs"][0]
    c = S.convergence(saved_matches / name, points=40, first=2)
    last = c.iloc[-1]
    assert last.deals == p["blocks"]
    assert [last.estimate, last.lo, last.hi] == [p["win_share"]["estimate"], *p["win_share"]["ci95"]]
    if record["mode"] == "games":
        import pandas as pd

        games = pd.read_parquet(saved_matches / name / "games.parquet")
        blocks = games.assign(s=(games.winner == games.rotation).astype(float)).groupby("game").s.mean()
    else:
        a_won = hands.winner == hands.rotation
        blocks = hands.assign(s=np.where(a_won, 1.0, np.where(hands.winner < 0, 1 / k, 0.0))).groupby("game").s.mean()
    for row in c.itertuples():
        assert [row.estimate, row.lo, row.hi] == pytest.approx(share_interval(blocks.iloc[:row.deals]), rel=1e-9)
    assert len(c) > 10


@pytest.mark.engine
@pytest.mark.parametrize("name", ["p2", "p3"])
def test_report_rates_of_a_comparison_are_over_deals(saved_matches, name):
    """by_strategy, hand_endings, starter_advantage and going_rummy of a comparison: every rate is a
    share over duplicate blocks (a deal or game in all its rotations) with Korn and Graubard's interval,
    recomputed here from the rows; the pooled exact interval over the hands is not it."""
    import pandas as pd

    from rummysim.analysis import stats as S

    hands, record = _rows(saved_matches / name)
    k = record["players"]
    a, b = record["strategies"][0]["name"], record["strategies"][1]["name"]
    seat = np.arange(k)
    long = pd.DataFrame({"game": np.repeat(hands.game.to_numpy(), k), "seat": np.tile(seat, len(hands)),
                         "rotation": np.repeat(hands.rotation.to_numpy(), k),
                         "winner": np.repeat(hands.winner.to_numpy(), k),
                         "rummy": np.repeat(hands.going_rummy.to_numpy(), k)})
    long["strategy"] = np.where(long.seat == long.rotation, a, b)
    long["won"] = long.winner == long.seat
    long["rummy_won"] = long.won & long.rummy

    def estimate(row, name):
        return tuple(row[name + part] for part in ("", "_lo", "_hi", "_n"))

    def check(got, y, m, count, n):
        # the blocks the rate rests on: those with a nonzero denominator (rummy's share of wins: the
        # deals where the strategy won a hand), and their number is the estimate's n
        y, m = np.asarray(y, dtype=float), np.asarray(m, dtype=float)
        want = share_ratio_interval(y[m != 0], m[m != 0])
        assert list(got[:3]) == pytest.approx(want, rel=1e-9, abs=1e-12)
        assert 0 <= got[1] <= got[2] <= 1
        assert got[3] == np.count_nonzero(m)
        lo, hi = I.proportion_ci(count, n)
        assert got[1] != pytest.approx(lo, rel=1e-6) or got[2] != pytest.approx(hi, rel=1e-6)   # not pooled

    by = S.by_strategy(saved_matches / name).set_index("strategy")
    rummy = S.going_rummy(saved_matches / name).set_index("strategy")
    for s in (a, b):
        blk = long[long.strategy == s].groupby("game").agg(w=("won", "sum"), m=("won", "size"), r=("rummy_won", "sum"))
        row = by.loc[s]
        check(estimate(row, "win_rate"), blk.w, blk.m, row.wins, row.hands)
        rr = rummy.loc[s]
        check(estimate(rr, "rummy_rate_per_seat_hand"), blk.r, blk.m, rr.rummy_wins, rr.hands)
        check(estimate(rr, "rummy_share_of_wins"), blk.r, blk.w, rr.rummy_wins, rr.wins)
    ends = S.hand_endings(saved_matches / name).set_index("ending")
    per = hands.assign(out=hands.outcome == "win", stale=hands.outcome == "stalemate_stock").groupby("game").agg(
        out=("out", "sum"), stale=("stale", "sum"), m=("out", "size"))
    for ending, col in (("went_out", "out"), ("stalemate_stock", "stale")):
        e = ends.loc[ending]
        check(estimate(e, "rate"), per[col], per.m, e["count"], e.hands)
    starter = S.starter_advantage(saved_matches / name).set_index("position")
    hands["position"] = (hands.winner - hands.dealer - 1) % k
    for q in range(k):
        y = hands.assign(w=(hands.winner >= 0) & (hands.position == q)).groupby("game").w.sum()
        s = starter.loc[q + 1]
        check(estimate(s, "win_rate"), y, per.m, s.wins, s.hands)
    if record["mode"] == "games":
        games = pd.read_parquet(saved_matches / name / "games.parquet")
        for s, at in ((a, games.winner == games.rotation), (b, (games.winner >= 0) & (games.winner != games.rotation))):
            y = at.groupby(games.game).sum()
            m = games.groupby("game").size() * (1 if s == a else k - 1)
            row = by.loc[s]
            check(estimate(row, "game_win_rate"), y, m, row.game_wins, int(m.sum()))


# --- issue 24: figures honest at any sample size; degenerate comparisons said as such ---

def _compare_text(args, capsys) -> str:
    try:
        main(["compare", *args])
    except SystemExit as e:
        assert e.code == 0
    return " ".join(capsys.readouterr().out.split())


@pytest.mark.engine
def test_twelve_deals_won_print_honest_bounds_an_exact_test_and_no_infinity(capsys, tmp_path):
    """compare expert random --hands 12 --seed 3: expert won all 24 hands. It printed
    ``1.0000 [1.0000, 1.0000] n=12``, ``+inf [+inf, +inf]`` and ``p < 1e-16``; now the share's interval
    is one-sided (Clopper-Pearson on 12 deals: 0.025^(1/12) = 0.7354), the Elo is unbounded in words
    from the image of that bound (+177.5), and the test is the interval's, Clopper-Pearson on the 12
    deals as the exact sign test, 2 / 4096."""
    result = compare(BASIC, [load_strategy("expert", BASIC), load_strategy("random", BASIC)], 2, 3, BasicRules(), None, 12)
    text = _printed(result)
    assert "1.0000 [0.7354, 1.0000] n=12" in text
    assert "unbounded [+177.5, unbounded] n=12" in text
    assert "0.00% [0.00%, 26.46%] n=12" in text                 # no stalemate: one-sided, not [0.00, 0.00]
    assert "expert is better (Holm-adjusted p = 0.000488, the share interval's test over 12 blocks)" in text
    assert "n/a: every block scored the same" in text           # not "infx"
    assert "inf " not in text.replace("unbounded", "") and "1e-16" not in text


@pytest.mark.engine
def test_twelve_deals_with_a_loss_stay_inside_0_1(capsys, tmp_path):
    """compare expert random --hands 12 --seed 2 printed 0.8958 [0.7109, 1.0808], a stalemate rate of
    4.17% [-5.00, 13.34] and Elo +373.8 [+180.0, +inf]: every share now stays in [0, 1] and the Elo is
    the image of the share's interval (elo(0.5603) = +42.1)."""
    text = _compare_text(["expert", "random", "--hands", "12", "--seed", "2", "--json", "--out",
                          str(tmp_path / "c")], capsys)
    p = json.loads(text)["pairs"][0]
    for est in [p["win_share"], p["stalemate_rate"], *p["position_split"]]:
        assert 0 <= est["ci95"][0] < est["estimate"] < est["ci95"][1] <= 1
    assert p["elo"]["ci95"] == pytest.approx([I.elo(x) for x in p["win_share"]["ci95"]], rel=1e-12)
    assert math.isfinite(p["elo"]["ci95"][1]) and "unbounded" not in p["elo"]


@pytest.mark.engine
def test_a_strategy_against_a_copy_of_itself_declares_nothing(capsys, tmp_path):
    """greedy against greedy2.toml (greedy.toml under another name) at 3 players: every block scores
    exactly 1/3 but for rounding. It printed "greedy2 is better (Holm-adjusted p < 1e-16)" and a
    variance reduction of 2.4e31x; with a third copy a ranking and a rating list with "LOS over next
    >99.9%" and "-0.0 [-0.0, -0.0]". Now one line says there is no difference, and nothing is
    declared, ranked or rated."""
    src = open("strategies/greedy.toml").read()
    for name in ("greedy2", "greedy3"):
        (tmp_path / f"{name}.toml").write_text(src.replace('name = "greedy"', f'name = "{name}"'))
    copies = [str(tmp_path / "greedy2.toml"), str(tmp_path / "greedy3.toml")]
    text = _compare_text(["greedy", copies[0], "--players", "3", "--hands", "300", "--seed", "1", "--out",
                          str(tmp_path / "c2")], capsys)
    assert "no difference: every deal played identically" in text
    assert "is better" not in text and "e+" not in text and "infx" not in text and "nanx" not in text
    assert "n/a: every block scored the same" in text
    text = _compare_text(["greedy", *copies, "--players", "3", "--hands", "300", "--seed", "1", "--json", "--out",
                          str(tmp_path / "c3")], capsys)
    result = json.loads(text)
    assert result["no_difference"] == "no difference: every deal played identically"
    assert all(p["verdict"] == "no difference: every deal played identically" and p["identical"]
               for p in result["pairs"])
    assert "rating" not in result and {r["rank"] for r in result["ranking"]} == {1}
    assert all(p["variance_reduction"] is None for p in result["pairs"])


def test_points_at_three_players_say_whose_mean_they_subtract():
    """At 3+ players the points row is A minus the mean of B's seats (README said "all of A's points
    minus B's", which reads as the sum: -3.62 where +4.81 is printed)."""
    blocks = Blocks()
    blocks.add({"score": np.array([0.5, 0.25]), "points_diff": np.array([3.0, -1.0]), "block_hands": np.full(2, 3.0),
                "block_stalemates": np.zeros(2), "by_seat": np.array([[1, 0.5, 0], [0, 0.25, 0.5]]),
                "position_score": np.ones((2, 3)), "position_units": np.ones((2, 3))}, 6)
    s = summarise_pair(blocks, 3)
    text = _printed({"players": 3, "variant": "basic", "mode": "hands", "reproduce": "r",
                     "pairs": [{"a": "A", "b": "B", **s}]})
    assert "points per hand, A minus the mean of B's 2 seats" in " ".join(text.split())


def test_the_reproduce_line_stays_one_line_a_shell_accepts_at_80_columns(capsys, tmp_path):
    """Issue 27: piped at 80 columns the reproduce line wrapped over 4 lines with `` | `` separators and
    could not be pasted back. It is the command alone, unwrapped; what it ran with is the next line."""
    import io
    import shlex
    from pathlib import Path

    from rich.console import Console

    from rummysim.analysis.compare import render
    from rummysim.cli import main

    odd = tmp_path / "my bots" / "greedy copy.toml"   # a path a shell must have quoted
    odd.parent.mkdir()
    odd.write_text((Path(__file__).parent.parent / "strategies" / "greedy.toml").read_text())
    main(["compare", str(odd), "random", "--hands", "200", "--seed", "3", "--workers", "1", "--json",
          "--out", str(tmp_path / "cmp")])
    result = json.loads(capsys.readouterr().out)
    out = io.StringIO()
    render(result, Console(file=out, width=80))
    lines = out.getvalue().splitlines()
    [line] = [x for x in lines if x.startswith("reproduce: ")]
    argv = shlex.split(line.removeprefix("reproduce: "))
    assert argv[:4] == ["rummysim", "compare", str(odd), "random"]
    assert argv[argv.index("--seed") + 1] == "3" and argv[argv.index("--hands") + 1] == "200"
    assert len(line) > 80   # longer than the width, and still one line
    [ran] = [x for x in lines if x.startswith("ran with: ")]
    assert ran.startswith("ran with: rummysim ") and " | 400 hands | " in ran


@pytest.mark.engine
@pytest.mark.parametrize("args", [("--hands", "1"), ("--games", "1"), ("--hands", "1", "--players", "3")])
def test_one_deal_of_two_strategies_is_not_identical_play(args):
    """compare expert greedy --hands 1 --seed 1 said "every deal played identically" beside +17.50
    points a hand (one hand each way: the fair share and one block, whose no spread is trivial);
    also --games 1 and --players 3. Identical play is now every block's rows alike in every
    rotation; these are not, and the match is in the Holm family (its one block has no p-value)."""
    players = int(args[-1]) if "--players" in args else 2
    games, hands = (1, None) if "--games" in args else (None, 1)
    result = compare(BASIC, [load_strategy("expert", BASIC), load_strategy("greedy", BASIC)], players, 1,
                     BasicRules(), games, hands)
    p = result["pairs"][0]
    assert not p.get("identical") and "identically" not in p["verdict"] and "no_difference" not in result


@pytest.mark.engine
def test_identical_play_has_no_interval_no_p_value_and_leaves_the_holm_family():
    """greedy against a copy of itself and against random at 2 players: the copy's match is played
    identically (no interval for the win share, the Elo or the points; no p-value), and is not
    counted by Holm: random's p-value is its own, unadjusted."""
    greedy = load_strategy("greedy", BASIC)
    copy = dataclasses.replace(greedy, name="greedy2")
    result = compare(BASIC, [greedy, copy, load_strategy("random", BASIC)], 2, 1, BasicRules(), None, 40)
    same, other = result["pairs"][0], result["pairs"][1]
    assert same["identical"] and same["p_value"] is None and same["p_holm"] is None
    for name in ("win_share", "elo", "points_per_hand_diff"):
        assert all(math.isnan(x) for x in same[name]["ci95"]) and same[name]["no_interval"]
    tested = [p for p in result["pairs"] if p["p_value"] is not None]
    assert len(tested) == 2   # a family of two: the identical match is not counted
    assert [p["p_holm"] for p in tested] == pytest.approx(list(I.holm_adjust([p["p_value"] for p in tested])))
    text = _printed(result)
    assert "(no interval: every deal played identically)" in text
    # the crosstable's mirrored cell says the same, and nothing is marked as an SPRT's
    assert "all 40 the same" not in text and "*" not in text
    ws = result["crosstable"]["win_share"]
    assert ws[1][0]["no_interval"] == ws[0][1]["no_interval"] == "every deal played identically"


def _figure_strings() -> list[str]:
    """Every kind of figure string the terminal prints: estimates with intervals (shares, Elo with
    either bound unbounded, signed points, percentages), the reasons for a missing interval, a verdict,
    the SPRT's words, the variance reduction."""
    from rummysim.analysis.compare import (_fmt, _share_text, elo_text, sprt_words, variance_reduction_text)
    from rummysim.base.summary import estimate_text
    est = {"estimate": 0.0, "ci95": [0.0, 0.0873], "n": 31}
    return [_share_text(est), elo_text({"estimate": -math.inf, "ci95": [-math.inf, -359.3], "n": 31}),
            elo_text({"estimate": math.inf, "ci95": [177.5, math.inf], "n": 12}),
            elo_text({"estimate": 70.4, "ci95": [-1.3, 143.8], "n": 50}),
            _fmt({"estimate": 11.87, "ci95": [6.97, 16.77], "n": 50}),
            _fmt({"estimate": 0.0, "ci95": [math.nan, math.nan], "n": 100}),
            _fmt({"estimate": 17.5, "ci95": [math.nan, math.nan], "n": 1}),
            _share_text({"estimate": 0.5, "ci95": [math.nan, math.nan], "n": 30, "no_interval": "every deal played identically"}),
            estimate_text({"estimate": 0.0033, "ci95": [0.0006, 0.0103], "n": 600}, lambda x: f"{100 * x:.2f}%"),
            "expert is better (Holm-adjusted p = 1.86e-09, the share interval's test over 30 blocks)",
            sprt_words({"elo0": 0, "elo1": 10, "alpha": 0.05, "beta": 0.05, "llr": -2.91, "bounds": [-2.94, 2.94],
                        "decision": "H0"}, "greedy", "greedy2"),
            variance_reduction_text(math.nan, 30), "[bold]not a style[/bold] [link=x]", "n/a [n/a, n/a]"]


@pytest.mark.parametrize("width", [40, 60, 80, 120, 200])
def test_every_figure_string_prints_as_it_is_through_the_table_code(width):
    """compare random expert --games 31 --seed 1 printed its Elo as "unbounded  n=31": rich read
    "[unbounded, -359.3]" as a style and ate it. Every figure string, put in a table and printed by
    the fitted console (``terminal.fit``) at any width, and printed as a line, comes out whole."""
    from rich.console import Console
    from rich.table import Table

    from rummysim.base.terminal import fitted
    strings = _figure_strings()
    console = fitted(Console(record=True, width=width))
    table = Table(title="expert vs greedy [a title, with a comma]", show_header=False)
    table.add_column("what")
    table.add_column("value (95% interval)", justify="right")
    for s in strings:
        table.add_row("a figure", s)
    console.print(table)
    console.print(table)   # printed twice: escaped once
    words = " ".join(console.export_text(clear=True).replace("│", " ").replace("┃", " ").split())
    for s in strings:
        for w in s.split():
            assert w in words, (s, w)
    assert "\\" not in words
    figures = [s for s in strings if "[bold]" not in s]   # a line's own markup is kept (the CLI's "[yellow]")
    for s in figures:
        console.print(s)
    lines = " ".join(console.export_text().split())
    assert all(" ".join(s.split()) in lines for s in figures)
    assert "unbounded [unbounded, -359.3] n=31" in " ".join(_printed_words(strings[1]))


def _printed_words(s: str) -> list[str]:
    from rich.console import Console

    from rummysim.base.terminal import fitted
    console = fitted(Console(record=True, width=200))
    console.print(s)
    return console.export_text().split()


def test_copies_of_one_strategy_get_distinct_labels():
    """issue 42, item 8: greedy against g2.toml (greedy's file, named greedy) printed two columns and two
    rows "greedy"; the second is labelled by its file, a third copy of the same file by its place."""
    from rummysim.analysis.compare import distinct_names
    greedy = load_strategy("greedy", BASIC)
    copy = dataclasses.replace(greedy, source="/tmp/g2.toml")
    assert distinct_names([greedy, copy, copy]) == ["greedy", "greedy (g2.toml)", "greedy (#3)"]
    assert distinct_names([greedy, load_strategy("random", BASIC)]) == ["greedy", "random"]
    pairs = [_pair("X", "Y", 0, 1, 0.03, 0.58)]
    out = _crosstable([greedy, copy], pairs, 2)
    assert out["crosstable"]["names"] == ["greedy", "greedy (g2.toml)"]
