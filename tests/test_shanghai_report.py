"""rummysim report of Shanghai results: every file of a run's and a comparison's report, and the tables of
``variants.shanghai.report`` against the same numbers computed independently with pandas from the Parquet files."""

import json

import numpy as np
import pandas as pd
import pytest

from rummysim.variants.shanghai import report as H
from rummysim.analysis import stats as S
from rummysim.cli import main
from independent import (clopper_pearson, nonnegative_interval, nonnegative_ratio_interval, ratio_interval,
                         share_interval, share_ratio_interval, t_interval)
from test_report import check_replays, check_self_contained, expected_files, run_cli, sample_rows

FIGURES_RUN = ["final_totals_by_seat", "final_totals", "per_round", "per_round_by_strategy"]
TABLES_RUN = ["by_seat", "by_strategy", "final_total_summary", "distribution_final_total", "per_round",
              "round_endings", "per_round_by_strategy"]
FIGURES_COMPARE = ["forest", "position_split", "crosstable", "rating", "per_round_by_strategy"]
TABLES_COMPARE = ["headline", "crosstable", "rating", "round_endings", "per_round_by_strategy"]
SEATS = ["greedy", "buyer", "greedy", "random"]  # greedy in two seats: per strategy pools them


@pytest.fixture(scope="module")
def shanghai(tmp_path_factory):
    """A Shanghai run (40 games, 4 players) and comparison (3 strategies, 12 games, 3 players), with
    their reports written by ``--report``."""
    root = tmp_path_factory.mktemp("shanghai")
    for args in (["run", "--variant", "shanghai", "--games", "40", "--players", "4", "--seed", "3",
                  *(a for s in SEATS for a in ("--strategy", s)), "--out", root / "run", "--report", root / "rep-run"],
                 ["compare", "greedy", "buyer", "patient", "--variant", "shanghai", "--games", "12", "--players", "3",
                  "--out", root / "cmp", "--report", root / "rep-cmp"]):
        try:
            main([str(a) for a in args])
        except SystemExit as e:
            assert e.code == 0
    return root


def read(directory, table):
    return pd.read_parquet(directory / f"{table}.parquet")


def exact(k, n):
    """The exact (Clopper-Pearson) 95% interval, written out (not the package's own function)."""
    return list(clopper_pearson(k, n))




@pytest.mark.engine
def test_shanghai_run_report_writes_every_file_and_embeds_every_figure(shanghai):
    rep = shanghai / "rep-run"
    assert {p.name for p in rep.iterdir()} == expected_files(FIGURES_RUN, TABLES_RUN,
                                                             sample_rows(shanghai / "run", "round"))
    check_replays(rep, shanghai / "run", "round")
    page = check_self_contained(rep, FIGURES_RUN)
    assert ("rummysim run --variant shanghai --players 4 --games 40 --seed 3 --strategy greedy --strategy buyer "
            "--strategy greedy --strategy random | rummysim 0.1.0 | rules") in page
    assert "(400 rounds)" in page and "not fully independent" in page and "hands.parquet" not in page
    assert (rep / "per_round.md").read_text().startswith("### Per round\n\n| round | contract | rounds |")
    assert (rep / "by_seat.csv").read_text().splitlines()[0] == (
        "seat,strategy,games,wins,tied_wins,win_share,win_share_lo,win_share_hi,win_share_n,mean_total,mean_total_lo,"
        "mean_total_hi,mean_total_n")


@pytest.mark.engine
def test_shanghai_compare_report_has_headline_forest_crosstable_and_rounds_by_strategy(shanghai):
    rep = shanghai / "rep-cmp"
    assert {p.name for p in rep.iterdir()} == expected_files(FIGURES_COMPARE, TABLES_COMPARE,
                                                             sample_rows(shanghai / "cmp", "round"))
    check_replays(rep, shanghai / "cmp", "round")
    page = check_self_contained(rep, FIGURES_COMPARE)
    assert "rummysim compare greedy buyer patient --players 3 --games 12 --seed 0 --variant shanghai" in page
    assert "lower is better" in page
    record = json.loads((shanghai / "cmp" / "compare.json").read_text())
    head = pd.read_csv(rep / "headline.csv")
    assert list(head["match"]) == ["greedy vs buyer", "greedy vs patient", "buyer vs patient"]
    # every headline figure again from the comparison's Parquet rows: in rotation r, A sits in seat r
    rounds, seats, games = (read(shanghai / "cmp", t) for t in ("rounds", "seats", "games"))
    key = ["pair", "rotation", "game", "round"]
    seats = seats.merge(rounds[key + ["outcome"]], on=key)
    totals = games[[f"total_{q}" for q in range(3)]].to_numpy().astype(float)
    low = totals == totals.min(axis=1, keepdims=True)
    r = games["rotation"].to_numpy()
    at = np.arange(len(games))
    games["share"] = (low / low.sum(axis=1, keepdims=True))[at, r]                # ties share the win
    games["gdiff"] = totals[at, r] - (totals.sum(axis=1) - totals[at, r]) / 2     # A minus mean of B's 2 seats
    seats["a"] = seats["seat"] == seats["rotation"]
    seats["signed"] = np.where(seats["a"], seats["score"], -seats["score"] / 2)
    per_round = seats.groupby(key).agg(diff=("signed", "sum"), stale=("outcome", lambda o: o.iloc[0] != "win"))
    for i, (p, (_, row)) in enumerate(zip(record["pairs"], head.iterrows())):
        assert row["rounds"] == p["hands"] == 12 * 10 * 3
        g = games[games["pair"] == i].groupby("game").agg(share=("share", "mean"), gdiff=("gdiff", "mean"))
        pr = per_round.loc[i].groupby("game").agg(y=("diff", "sum"), m=("diff", "size"), stale=("stale", "sum"))
        assert len(g) == len(pr) == 12 and (pr["m"] == 30).all()
        for ours, want in (("win_share", share_interval(g["share"])),
                           ("penalty_per_game_diff", t_interval(g["gdiff"])),
                           ("penalty_per_round_diff", ratio_interval(pr["y"], pr["m"])),
                           ("no_winner_rate", share_ratio_interval(pr["stale"], pr["m"]))):
            assert [row[ours], row[f"{ours}_lo"], row[f"{ours}_hi"]] == pytest.approx(list(want), rel=1e-9, abs=1e-12), ours
    assert "points_per_hand_diff" not in head.columns and "stalemate_rate" not in head.columns


@pytest.mark.engine
def test_shanghai_position_split_by_round_from_the_rows(shanghai):
    """Who starts moves every round: A's share of the rounds it played at each position after the
    round's dealer (1: A starts the round; went out 1, no winner 1/3, else 0), per game over all
    rotations, with the share interval over games: in compare.json and the headline table."""
    record = json.loads((shanghai / "cmp" / "compare.json").read_text())
    head = pd.read_csv(shanghai / "rep-cmp" / "headline.csv")
    rounds = read(shanghai / "cmp", "rounds")
    rounds["position"] = (rounds["rotation"] - rounds["starter"]) % 3
    rounds["score"] = np.where(rounds["winner"] == rounds["rotation"], 1.0,
                               np.where(rounds["outcome"] != "win", 1 / 3, 0.0))
    columns = ["round_share_of_a_as_starter", "round_share_of_a_as_2nd_to_play", "round_share_of_a_as_dealer"]
    for i, p in enumerate(record["pairs"]):
        assert [q["who"] for q in p["position_split"]] == ["starter", "2nd to play", "dealer (plays last)"]
        for q, column in zip(p["position_split"], columns):
            at = rounds[(rounds["pair"] == i) & (rounds["position"] == q["position"] - 1)]
            g = at.groupby("game").agg(y=("score", "sum"), m=("score", "size"))
            assert len(g) == 12 and (g["m"] == 10).all()   # 10 rounds x 3 rotations: once at each position per round
            want = share_ratio_interval(g["y"], g["m"])
            assert [q["estimate"], *q["ci95"]] == pytest.approx(want, rel=1e-9, abs=1e-12)
            assert [head[column][i], head[f"{column}_lo"][i], head[f"{column}_hi"][i]] == pytest.approx(
                want, rel=1e-9, abs=1e-12)


@pytest.mark.engine
def test_per_round_table_matches_pandas(shanghai):
    rounds, seats = read(shanghai / "run", "rounds"), read(shanghai / "run", "seats")
    seats = seats.merge(rounds[["game", "round", "winner"]], on=["game", "round"])
    seats["met"] = seats["down_turn"] > 0
    seats["out"] = seats["seat"] == seats["winner"]
    table = pd.read_csv(shanghai / "rep-run" / "per_round.csv")
    assert list(table["round"]) == list(range(1, 11))
    for r, row in table.set_index("round").iterrows():
        rr, ss = rounds[rounds["round"] == r], seats[seats["round"] == r]
        assert row["rounds"] == len(rr) == 40 and row["contract"] == H.contract(r)
        for name, k, n in (("contract_met_rate", ss["met"].sum(), len(ss)),
                           ("went_out_rate", (rr["winner"] >= 0).sum(), len(rr)),
                           ("one_turn_bonus_rate", (rr["bonus"] != "none").sum(), len(rr)),
                           ("no_winner_rate", (rr["outcome"] != "win").sum(), len(rr))):
            assert [row[name], row[f"{name}_lo"], row[f"{name}_hi"]] == pytest.approx([k / n, *exact(k, n)], abs=1e-12)
        for outcome in ("stalemate_stock", "stalemate_blocked", "turn_limit"):
            assert row[outcome] == (rr["outcome"] == outcome).sum()
        # means of what cannot be negative: t on the log scale over games (one round r per game)
        lost = ss[~ss["out"]].groupby("game")["score"].agg(["sum", "count"]).reindex(rr["game"], fill_value=0)
        for name, y, m in (("mean_penalty", lost["sum"], lost["count"]),
                           ("buys_per_seat", ss.groupby("game")["buys"].sum(), np.full(40, 4)),
                           ("reshuffles_per_round", rr["reshuffles"], np.ones(40)),
                           ("turns_per_round", rr["turns"], np.ones(40))):
            est, lo, hi = nonnegative_ratio_interval(y, m)
            assert [row[name], row[f"{name}_lo"], row[f"{name}_hi"]] == pytest.approx([est, lo, hi], rel=1e-9,
                                                                                      nan_ok=True)
            assert np.isnan(lo) or lo >= 0
        assert row["mean_penalty"] == pytest.approx(ss.loc[~ss["out"], "score"].mean())


@pytest.mark.engine
def test_round_endings_count_every_outcome_apart(shanghai):
    # run: one row per outcome; compare: one block per match (pair). exact rates over the rounds.
    for kind, by in (("run", None), ("cmp", "pair")):
        rounds = read(shanghai / kind, "rounds")
        table = pd.read_csv(shanghai / f"rep-{kind}" / "round_endings.csv")
        groups = [(None, rounds)] if by is None else list(rounds.groupby(by, observed=True))
        assert len(table) == 4 * len(groups)
        for i, (_, rr) in enumerate(groups):
            part = table.iloc[4 * i:4 * i + 4]
            assert list(part["ending"]) == ["win", "stalemate_stock", "stalemate_blocked", "turn_limit"]
            for _, row in part.iterrows():
                k, n = int((rr["outcome"] == row["ending"]).sum()), len(rr)
                assert (row["count"], row["rounds"]) == (k, n)
                assert [row["rate"], row["rate_lo"], row["rate_hi"]] == pytest.approx([k / n, *exact(k, n)], abs=1e-12)


@pytest.mark.engine
def test_final_totals_match_pandas(shanghai):
    games = read(shanghai / "run", "games")
    totals = games[[f"total_{q}" for q in range(4)]].to_numpy()
    best = totals == totals.min(axis=1, keepdims=True)
    share = best / best.sum(axis=1, keepdims=True)

    by_seat = pd.read_csv(shanghai / "rep-run" / "by_seat.csv")
    assert list(by_seat["strategy"]) == SEATS
    for q, row in by_seat.iterrows():
        assert row["games"] == 40 and row["wins"] == (games["winner"] == q).sum()
        assert row["tied_wins"] == (best[:, q] & (games["tied"] > 1)).sum()
        assert [row["mean_total"], row["mean_total_lo"], row["mean_total_hi"]] == pytest.approx(
            nonnegative_interval(totals[:, q]))
        assert [row["win_share"], row["win_share_lo"], row["win_share_hi"]] == pytest.approx(
            share_interval(share[:, q]), rel=1e-9, abs=1e-12)
    greedy = pd.read_csv(shanghai / "rep-run" / "by_strategy.csv").set_index("strategy").loc["greedy"]
    assert greedy["games"] == 80  # two seats: a game is one block of two seat-games
    assert [greedy["mean_total"], greedy["mean_total_lo"], greedy["mean_total_hi"]] == pytest.approx(
        nonnegative_interval(totals[:, [0, 2]].mean(axis=1)))
    summary = pd.read_csv(shanghai / "rep-run" / "final_total_summary.csv").set_index("strategy")
    values = totals[:, [0, 2]].ravel()
    assert summary.loc["greedy", "n"] == 80 and summary.loc["greedy", "max"] == values.max()
    assert summary.loc["greedy", "median"] == np.quantile(values, 0.5, method="inverted_cdf")
    dist = pd.read_csv(shanghai / "rep-run" / "distribution_final_total.csv")
    assert dist.groupby("strategy")["count"].sum().to_dict() == {"greedy": 80, "buyer": 40, "random": 40}


@pytest.mark.engine
def test_per_round_by_strategy_of_a_comparison_matches_pandas(shanghai):
    """The strategy of a seat is taken from the pairs and rotations; pandas reads the seats' own column."""
    rounds, seats = read(shanghai / "cmp", "rounds"), read(shanghai / "cmp", "seats")
    key = ["pair", "rotation", "game", "round"]
    seats = seats.merge(rounds[key + ["winner", "bonus"]], on=key)
    seats["out"] = seats["seat"] == seats["winner"]
    seats["bonus_out"] = seats["out"] & (seats["bonus"] != "none")
    seats["met"] = seats["down_turn"] > 0
    table = pd.read_csv(shanghai / "rep-cmp" / "per_round_by_strategy.csv")
    assert len(table) == 10 * 3
    expect = seats.groupby(["round", "strategy"], observed=True)
    for _, row in table.iterrows():
        ss = expect.get_group((row["round"], row["strategy"]))
        assert row["seat_rounds"] == len(ss)
        for name, col in (("contract_met_rate", "met"), ("went_out_rate", "out"), ("one_turn_bonus_rate", "bonus_out")):
            assert row[name] == pytest.approx(ss[col].mean())
        assert row["mean_penalty"] == pytest.approx(ss.loc[~ss["out"], "score"].mean())
        assert row["buys_per_seat"] == pytest.approx(ss["buys"].mean())
    # greedy sits in one seat of each rotation of its two matches: 2 matches * 3 rotations * 12 games
    assert set(table.loc[table["strategy"] == "greedy", "seat_rounds"]) == {2 * 3 * 12}


def test_contract_words():
    assert [H.contract(r) for r in (1, 2, 9)] == ["2 sets", "1 set + 1 run of 4", "3 sets + 1 run of 5"]
    assert [H.contract(r, short=True) for r in (1, 2, 3, 8)] == ["2S", "S+R4", "2R4", "S+R10"]


@pytest.mark.engine
def test_shanghai_results_open_without_hands_parquet_and_name_a_missing_table(shanghai, capsys, tmp_path):
    res = S.open_results(shanghai / "run")
    assert (res.variant.name, res.unit, res.hands_played()) == ("shanghai", "round", 400)
    bad = tmp_path / "bad"
    bad.mkdir()
    for name in ("run.json", "seats.parquet", "games.parquet"):
        (bad / name).write_bytes((shanghai / "run" / name).read_bytes())
    code, _, err = run_cli(["report", bad, "-o", tmp_path / "rep"], capsys)
    assert code == 2 and "rounds.parquet: missing" in err and "Traceback" not in err
