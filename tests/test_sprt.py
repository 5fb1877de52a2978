"""The SPRT of ``compare``: looks every ``SPRT_EVERY`` blocks, its error rates on simulated
pentanomial data, verdicts that say what was tested, and fixed-sample statistics marked as such."""

import json
import math

import numpy as np
import pytest

from rummysim.base import intervals as I
from rummysim.analysis.compare import (Blocks, _crosstable, _fmt, _p_text, _sprt_look, compare, render,
                                       resume_compare, sprt_words, summarise_pair)
from rummysim.cli import main
from rummysim.strategy import load_strategy
from rummysim.variants.basic.rules import BasicRules
from rummysim.variants import VARIANTS

BASIC = VARIANTS["basic"]


# --- item 1: a look every SPRT_EVERY blocks, whatever the chunk size ---

def test_sprt_looks_every_100_blocks_counted_from_the_match_start():
    """A chunk of 1,000 won pairs after 50 earlier blocks: the first look is at block 100 of the
    match (the chunk's 50th), where the LLR is already past the upper bound (once per chunk it
    would have looked only after all 1,000)."""
    part = {"score": np.ones(1000)}
    running = np.array([0, 0, 50, 0, 0])   # 50 blocks before: all pair score 1
    assert I.SPRT_EVERY == 100
    keep = _sprt_look(part, 50, running, (0, 10), 0.05, 0.05, "logistic")
    assert keep == 50 and running.tolist() == [0, 0, 50, 0, 50]
    # an undecided chunk: the counts run on to its end, blocks past the last look included
    running = np.zeros(5, dtype=np.int64)
    part = {"score": np.tile([0.0, 1.0], 125)}        # 250 balanced blocks: LL, WW, LL, ...
    assert _sprt_look(part, 0, running, (0, 10), 0.05, 0.05, "logistic") is None
    assert running.tolist() == [125, 0, 0, 0, 125]


@pytest.mark.engine
def test_sprt_stops_inside_the_first_chunk_and_keeps_only_the_blocks_played(tmp_path):
    """greedy vs rummy-seeker, SPRT (0, 10): decided at block 600, inside the first chunk of
    4,000; the saved rows, the blocks and the summary all stop there, for any chunk size."""
    import pandas as pd

    s = [load_strategy("greedy", BASIC), load_strategy("rummy-seeker", BASIC)]
    r = compare(BASIC, s, 2, 5, BasicRules(), None, 20_000, chunk_size=4000, sprt=(0, 10), out_dir=tmp_path / "a")
    p = r["pairs"][0]
    assert p["blocks"] % 100 == 0 and 0 < p["blocks"] < 4000
    assert p["sprt"]["decision"] != "continue" and p["sprt"]["stopped_after_blocks"] == p["blocks"]
    assert p["sequential"] is True and p["sprt"]["stop_game"] == p["blocks"]
    assert sum(p["pentanomial"].values()) == p["blocks"]
    hands = pd.read_parquet(tmp_path / "a" / "hands.parquet")
    assert hands.game.nunique() == p["blocks"] == hands.game.max() + 1
    assert len(hands) == p["hands"] == 2 * p["blocks"]
    # the looks do not depend on the chunk size
    q = compare(BASIC, s, 2, 5, BasicRules(), None, 20_000, chunk_size=250, sprt=(0, 10))["pairs"][0]
    assert q == p


@pytest.mark.engine
def test_an_interrupted_sprt_comparison_is_finished_by_resume(tmp_path):
    """Cut after its first chunk of 250, resumed: the same stop, summary and rows as uninterrupted."""
    import pandas as pd

    s = [load_strategy("greedy", BASIC), load_strategy("rummy-seeker", BASIC)]
    whole = compare(BASIC, s, 2, 5, BasicRules(), None, 20_000, chunk_size=250, sprt=(0, 10), out_dir=tmp_path / "w")

    def cut(done, hands):
        if done >= 250:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        compare(BASIC, s, 2, 5, BasicRules(), None, 20_000, chunk_size=250, sprt=(0, 10), out_dir=tmp_path / "r",
                on_chunk=cut)
    resumed = resume_compare(tmp_path / "r")
    assert resumed["pairs"] == whole["pairs"] and resumed["status"] == "complete"
    a = pd.read_parquet(tmp_path / "w" / "hands.parquet")
    b = pd.read_parquet(tmp_path / "r" / "hands.parquet")
    pd.testing.assert_frame_equal(a, b)


# --- item 2: error rates on simulated pentanomial data of known Elo ---

def test_pentanomial_probs_model():
    p = I.pentanomial_probs(0.0)
    assert p == pytest.approx([0.25, 0, 0.5, 0, 0.25]) and p.sum() == pytest.approx(1)
    p = I.pentanomial_probs(10.0, draw_ratio=0.2)
    s = 1 / (1 + 10 ** (-10 / 400))
    assert p.sum() == pytest.approx(1) and p @ [0, 0.25, 0.5, 0.75, 1] == pytest.approx(s)


def simulate_sprt(true_elo: float, runs: int, rng, elo0=0.0, elo1=10.0, alpha=0.05, beta=0.05,
                  max_steps=500, model="logistic"):
    """``runs`` SPRTs on pentanomial pairs at ``true_elo`` (``pentanomial_probs``, draw-free), each
    looked at every SPRT_EVERY pairs by ``intervals.sprt_walk`` (as ``play_pair`` does): decisions."""
    probs = I.pentanomial_probs(true_elo)
    steps = rng.multinomial(I.SPRT_EVERY, probs, size=(runs, max_steps))
    first, decision = I.sprt_walk(steps, np.zeros((runs, 5), dtype=np.int64), elo0, elo1, alpha, beta, model)
    return decision


def _holds_its_error_rate(count: int, runs: int, rate: float = 0.05) -> bool:
    """The observed error ``count`` of ``runs`` is consistent with at most ``rate`` (its 95% exact
    interval reaches down to ``rate``) and not far below it (the interval reaches 0.6 * ``rate``).

    Not "the interval holds ``rate``": Wald's bounds ignore the overshoot of the LLR past them, and
    a look every 100 pairs overshoots, so the true error rates are below the nominal ones: 4.14%
    (+-0.3%) for both at alpha = beta = 0.05, SPRT (0, 10), in 16,000 simulated SPRTs per side."""
    lo, hi = I.proportion_ci(count, runs)
    return lo <= rate and hi >= 0.6 * rate


def test_sprt_error_rates_on_simulated_pentanomial_data():
    """2,000 SPRTs (0, 10) at true Elo 0 and 2,000 at true Elo 10, alpha = beta = 0.05, draw-free
    pairs: the rate of accepting H1 at Elo 0 and of accepting H0 at Elo 10 are each at most 5%."""
    rng = np.random.default_rng(20261201)
    runs = 2000
    at0 = simulate_sprt(0.0, runs, rng)
    at10 = simulate_sprt(10.0, runs, rng)
    assert np.all(at0 != 0) and np.all(at10 != 0)   # every run decided within its 50,000 pairs
    false_h1, false_h0 = int(np.sum(at0 == 1)), int(np.sum(at10 == -1))
    assert _holds_its_error_rate(false_h1, runs) and _holds_its_error_rate(false_h0, runs), (false_h1, false_h0)


# --- item 3: verdicts that say what was tested; the Elo model named; normalized Elo ---

def test_sprt_words_say_what_was_tested_not_an_estimate():
    s = {"elo0": 0.0, "elo1": 10.0, "alpha": 0.05, "beta": 0.05, "elo_model": "logistic", "llr": 3.1,
         "bounds": [-2.94, 2.94], "decision": "H1"}
    words = sprt_words(s, "expert", "greedy")
    assert words.startswith("H1 accepted (Elo1 = +10 vs Elo0 = 0, logistic Elo of expert over greedy, "
                            "alpha = 0.05, beta = 0.05): the data favour +10 over 0; "
                            "this is not an estimate of the difference")
    assert "at least" not in words and "at most" not in words
    s.update(decision="H0", llr=-3.0, elo0=-0.0)
    words = sprt_words(s, "expert", "greedy")
    assert words.startswith("H0 accepted") and "the data favour 0 over +10" in words and "-0" not in words
    s.update(decision="continue", elo_model="normalized", llr=0.5)
    assert "normalized Elo" in sprt_words(s, "a", "b") and sprt_words(s, "a", "b").startswith("undecided (")
    # item 6: at the end of the match, an SPRT that decided nothing says it reached its cap
    assert sprt_words(s, "a", "b", 20000).startswith("undecided at the cap of 20,000 deals (")
    assert "neither hypothesis accepted" in sprt_words(s, "a", "b", 20000)


def run_main(args):
    try:
        main(args)
    except SystemExit as e:
        assert e.code == 0


def test_sprt_help_does_not_claim_a_bound(capsys):
    run_main(["compare", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "Elo <= ELO0" not in out and "Elo >= ELO1" not in out
    assert "does not estimate the difference" in out and "--elo-model" in out and "normalized" in out


def test_normalized_elo_and_its_llr_by_hand():
    counts = [1, 1, 4, 2, 2]          # pair score / 2: mean 0.575, variance 0.088125
    n, m, v = 10, 0.575, 0.088125
    sigma = math.sqrt(2 * v)
    assert I.nelo(counts) == pytest.approx((m - 0.5) / sigma * 800 / math.log(10))
    s0, s1 = 0.5, 0.5 + 10 * sigma * math.log(10) / 800
    assert I.sprt_llr(counts, 0, 10, model="normalized") == pytest.approx(n * (s1 - s0) * (2 * m - s0 - s1) / (2 * v))
    assert I.sprt_llr(counts, 0, 10) == pytest.approx(0.11070, abs=1e-5)   # logistic unchanged
    # vectorised over leading axes, as the simulation uses it
    many = I.sprt_llr(np.array([counts, [0, 0, 0, 0, 0]]), 0, 10, model="normalized")
    assert many.shape == (2,) and many[1] == 0.0
    with pytest.raises(ValueError):
        I.sprt_llr(counts, 0, 10, model="bayes")


def test_normalized_sprt_error_rates():
    """The normalized SPRT (0, 10), with draws (draw ratio 0.3), holds its error rates too."""
    rng = np.random.default_rng(7)
    runs = 1000
    sigma = lambda e: math.sqrt(2 * I._penta_stats(I.pentanomial_probs(e, 0.3))[2])  # noqa: E731
    lo, hi = 0.0, 40.0   # the logistic Elo whose normalized Elo is 10, by bisection
    for _ in range(60):
        mid = (lo + hi) / 2
        s = 1 / (1 + 10 ** (-mid / 400))
        lo, hi = (mid, hi) if (s - 0.5) / sigma(mid) * 800 / math.log(10) < 10 else (lo, mid)
    p10 = I.pentanomial_probs(lo, 0.3)
    assert I.nelo(p10 * 1e6) == pytest.approx(10, abs=1e-6)
    at0 = I.sprt_walk(rng.multinomial(100, I.pentanomial_probs(0.0, 0.3), size=(runs, 600)),
                      np.zeros((runs, 5)), 0, 10, 0.05, 0.05, "normalized")[1]
    at10 = I.sprt_walk(rng.multinomial(100, p10, size=(runs, 600)), np.zeros((runs, 5)), 0, 10, 0.05, 0.05,
                       "normalized")[1]
    assert np.all(at0 != 0) and np.all(at10 != 0)
    for count in (int(np.sum(at0 == 1)), int(np.sum(at10 == -1))):
        assert _holds_its_error_rate(count, runs), count


@pytest.mark.engine
def test_compare_cli_json_names_the_elo_model(capsys, tmp_path):
    for model in ("logistic", "normalized"):
        run_main(["compare", "strategies/greedy.toml", "strategies/random.toml", "--hands", "2000", "--sprt", "0",
                  "20", "--elo-model", model, "--json", "--out", str(tmp_path / model)])
        result = json.loads(capsys.readouterr().out)
        assert result["elo_model"] == model and result["pairs"][0]["sprt"]["elo_model"] == model
        assert result["sprt"]["elo_model"] == model
        assert (model == "normalized") == ("nelo" in result["pairs"][0])
        assert (model == "normalized") == ("--elo-model normalized" in result["reproduce"])


# --- item 4: after an SPRT stop, fixed-sample statistics are marked ---

def _stopped_blocks(stopped: bool) -> Blocks:
    b = Blocks()
    score = np.array([1.0, 0.5, 0.5, 1.0, 0.75, 0.5] * 50)
    b.add({"score": score, "points_diff": np.zeros(300), "block_hands": np.full(300, 2.0),
           "block_stalemates": np.zeros(300), "by_seat": np.stack([score, score], axis=1),
           "position_score": np.stack([score, score], axis=1), "position_units": np.ones((300, 2))}, 600)
    if stopped:
        b.stopped_at, b.stop_game = 300, 300
    return b


def test_a_stopped_sprt_marks_the_fixed_sample_statistics():
    from rich.console import Console

    stopped = summarise_pair(_stopped_blocks(True), 2, (0, 10))
    plain = summarise_pair(_stopped_blocks(False), 2, (145, 165))   # undecided at its cap
    assert stopped["sequential"] is True and "sequential" not in plain
    # issue 42, item 3: an SPRT that decided on its last look (the cap) is a stop like any other
    assert summarise_pair(_stopped_blocks(False), 2, (0, 10))["sequential"] is True
    assert stopped["p_value"] < 0.05
    pairs = [{"a": "x", "b": "y", "a_index": 0, "b_index": 1, **stopped}]

    class S:
        def __init__(self, name):
            self.name = name

    _crosstable([S("x"), S("y")], pairs, 2)
    assert pairs[0]["verdict"].startswith("decided by SPRT: ") and "p =" not in pairs[0]["verdict"]
    result = {"players": 2, "mode": "hands", "pairs": pairs, "reproduce": "r"}
    console = Console(record=True, width=400)
    render(result, console)
    text = console.export_text()
    assert ("decided by the SPRT (H1 accepted): the estimates above are biased upward, toward and past Elo1 = "
            "+10 (the match stopped because its data looked strong), and their intervals and p-values assume a "
            "fixed number of deals (too narrow); the SPRT decision is the result") in text
    assert "biased away from zero" not in text


# --- item 5: p-values that underflow, and no "-0.0" ---

def test_p_values_that_underflow_and_negative_zero():
    # item 7: the value where doubles hold it (p = 2.7e-19 was printed "p < 1e-16"), a bound where not
    assert _p_text(0.0) == "p < 1e-300" and _p_text(1e-310) == "p < 1e-300"
    assert _p_text(2.7e-19) == "p = 2.7e-19"
    assert _p_text(0.0123) == "p = 0.0123"
    assert _fmt({"estimate": -0.0, "ci95": [-0.04, 0.0]}, digits=1) == "+0.0 [+0.0, +0.0]"
    # equal strategies: Elo 0 exactly, which -400 * log10(1) makes -0.0
    s = summarise_pair(_stopped_blocks(False), 2)
    b = Blocks()
    b.add({"score": np.full(10, 0.5), "points_diff": np.zeros(10), "block_hands": np.full(10, 2.0),
           "block_stalemates": np.zeros(10), "by_seat": np.full((10, 2), 0.5),
           "position_score": np.full((10, 2), 0.5), "position_units": np.ones((10, 2))}, 20)
    s = summarise_pair(b, 2)
    assert math.copysign(1, s["elo"]["estimate"]) == 1.0 and "-0.0" not in json.dumps(s)

    class S:
        def __init__(self, name):
            self.name = name

    pairs = [{"a": "x", "b": "y", "a_index": 0, "b_index": 1, **summarise_pair(_stopped_blocks(False), 2),
              "p_value": 0.0}]
    _crosstable([S("x"), S("y")], pairs, 2)
    assert pairs[0]["verdict"] == "x is better (Holm-adjusted p < 1e-300, the share interval's test over 300 blocks)"


# --- issue 24, item 6: an SPRT at its cap says so; the crosstable after a stop is flagged ---

class _Named:
    def __init__(self, name):
        self.name = name


def test_an_sprt_that_reaches_its_cap_undecided_says_so_not_the_fixed_sample_verdict():
    """300 pairs scoring 0.708 on average: the fixed-sample t-test finds A better (p < 1e-9), but an
    SPRT (145, 165) looked at them and decided nothing; its verdict is that, not the t-test's."""
    s = summarise_pair(_stopped_blocks(False), 2, (145, 165))
    assert s["sprt"]["decision"] == "continue" and s["p_value"] < 1e-9
    pairs = [{"a": "x", "b": "y", "a_index": 0, "b_index": 1, **s}]
    _crosstable([_Named("x"), _Named("y")], pairs, 2)
    assert pairs[0]["verdict"] == ("undecided: the SPRT reached the cap of 300 deals without accepting either "
                                   "hypothesis")
    # and the LLR is named for what it is
    assert s["sprt"]["llr_method"].startswith("normal approximation of the GSPRT (fishtest LLR_alt2), not the exact "
                                              "LLR_logistic")


def test_the_crosstable_after_an_sprt_stop_is_flagged():
    from rich.console import Console

    pairs = [{"a": "x", "b": "y", "a_index": 0, "b_index": 1, **summarise_pair(_stopped_blocks(True), 2, (0, 10))}]
    result = {"players": 2, "mode": "hands", "pairs": pairs, "reproduce": "r",
              **_crosstable([_Named("x"), _Named("y")], pairs, 2)}
    console = Console(record=True, width=400)
    render(result, console)
    text = console.export_text()
    assert "0.708 [0.682, 0.734]*" in text and "0.292 [0.266, 0.318]*" in text
    assert ("* decided by its SPRT: the share is biased toward the side of the hypothesis it accepted and its "
            "interval too narrow; the SPRT decision is the result") in text
    # a stopped match's p-value claims nothing: it is not in the Holm family
    assert pairs[0]["p_holm"] is None


# --- issue 42, item 3: the SPRT's verdict, its LLR between copies, the note for each stop, the ratings ---

def test_the_llr_of_pairs_all_in_one_bin_is_the_exact_one():
    """greedy against a copy of itself: 100 pairs all DD+WL. The normal approximation divided by the
    variance of the empty bins' 1e-3 alone and gave -1656.06; the exact LLR (fishtest's
    LLR_logistic, the pentanomial likelihood maximised under each hypothesis) is -2.91: not yet H0."""
    c = [0, 0, 100, 0, 0]
    assert I.sprt_llr(c, 0, 10) == pytest.approx(-2.9112, abs=1e-4) == I.sprt_llr_exact(c, 0, 10)
    assert I.sprt_decision(I.sprt_llr(c, 0, 10)) == "continue"
    assert I.sprt_decision(I.sprt_llr([0, 0, 200, 0, 0], 0, 10)) == "H0"
    # the exact LLR is close to the approximation where the variance is real
    assert I.sprt_llr_exact([96, 1, 353, 1, 149], 0, 10) == pytest.approx(I.sprt_llr([96, 1, 353, 1, 149], 0, 10),
                                                                          abs=0.1)
    # vectorised as sprt_walk uses it
    assert I.sprt_llr(np.array([c, [96, 1, 353, 1, 149]]), 0, 10) == pytest.approx(
        [-2.9112, I.sprt_llr([96, 1, 353, 1, 149], 0, 10)], abs=1e-4)


def test_an_h0_stop_says_its_estimates_lean_toward_elo0_not_away_from_zero():
    from rummysim.analysis.compare import sequential_note
    h0 = sequential_note({"decision": "H0", "elo0": 0, "elo1": 10})
    assert "biased downward, toward and past Elo0 = 0" in h0 and "away from zero" not in h0
    assert "biased upward, toward and past Elo1 = +10" in sequential_note({"decision": "H1", "elo0": 0, "elo1": 10})


def test_the_sprt_verdict_is_the_verdict_and_out_of_holm_and_a_rating_after_a_stop_is_flagged():
    """An SPRT that accepted H1 on its last look: its verdict is the SPRT's, not "x is better (p = ...)",
    and its p-value is not in the Holm family; a rating list resting on it says so."""
    from rummysim.analysis import rating as R
    s = summarise_pair(_stopped_blocks(False), 2, (0, 10))
    assert s["sprt"]["decision"] == "H1" and s["p_value"] < 0.05
    pairs = [{"a": "x", "b": "y", "a_index": 0, "b_index": 1, **s}]
    _crosstable([_Named("x"), _Named("y")], pairs, 2)
    assert pairs[0]["verdict"] == "decided by SPRT: H1 accepted" and pairs[0]["p_holm"] is None
    rating = {"bootstrap": {"level": 0.95, "replicates": 1000, "seed": 1}, "model": "m", "anchor": "a",
              "sequential": ["x vs y"]}
    assert "biased, and the intervals too narrow: they rest on x vs y, decided by its SPRT" in R.note(rating)
