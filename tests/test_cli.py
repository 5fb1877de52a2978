"""The command line: bad input gives one line and exit 2; run writes its files; replay."""

import json
import os
import subprocess
import sys
import types

import pandas as pd
import pytest

from rummysim.cli import cli, main
from rummysim.results import prepare_out_dir, read_results_table
from rummysim.run import RunSpec, run_to_dir
from rummysim.strategy import seat_strategies
from test_run_summary import check_basic
from rummysim.variants import VARIANTS

BASIC = VARIANTS["basic"]


def run_cli(args, capsys):
    """Run ``rummysim ARGS`` in-process; returns (exit code, stdout, stderr)."""
    code = 0
    try:
        main(args)
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("args, words", [
    (["run", "--strategy", "nosuch"], ["unknown strategy 'nosuch'", "greedy"]),
    (["run", "--players", "5"], ["--players 5", "Basic Rummy takes 2 to 4"]),
    (["run", "--variant", "shanghai", "--players", "2"], ["--players 2", "Shanghai Rummy takes 3 to 8"]),
    (["run", "--variant", "shanghai", "--players", "9"], ["--players 9", "3 to 8"]),
    (["run", "--variant", "shanghai", "--strategy", "strategies/expert.toml"],
     ["strategies/expert.toml", "'variant' = 'basic'", "plays 'shanghai'"]),
    (["run", "--strategy", "strategies/shanghai/buyer.toml"],
     ["strategies/shanghai/buyer.toml", "'variant' = 'shanghai'", "plays 'basic'"]),
    (["run", "--variant", "shanghai", "--strategy", "rummy-seeker"], ["unknown strategy 'rummy-seeker'", "buyer"]),
    (["run", "--variant", "shanghai", "--rule", "decks=0"], ["decks", "from 1 to"]),
    (["run", "--variant", "shanghai", "--rule", "max_buys=-1"], ["max_buys", "from 0 to"]),
    (["run", "--variant", "shanghai", "--rule", "jokers=many"], ["jokers", "integer"]),
    (["run", "--variant", "shanghai", "--rule", "reshuffles=0"], ["unknown rule option 'reshuffles' of Shanghai"]),
    (["run", "--variant", "shanghai", "--players", "8", "--rule", "decks=1"], ["decks=1", "need at least 90"]),
    (["run", "--variant", "shanghai", "--hands", "10"], ["--hands", "whole games"]),
    (["compare", "greedy", "cautious", "--variant", "shanghai"], ["unknown strategy 'cautious'", "Shanghai"]),
    (["run", "--players", "1"], ["--players"]),
    (["run", "--games", "0"], ["--games", "positive"]),
    (["run", "--hands", "-3"], ["--hands", "positive"]),
    (["run", "--games", "5", "--hands", "5"], ["not both"]),
    (["run", "--rule", "jokers=2"], ["unknown rule option 'jokers'", "reshuffles"]),
    (["run", "--rule", "reshuffles=lots"], ["reshuffles", "unlimited"]),
    (["run", "--rule", "ace=sideways"], ["ace", "high_or_low"]),
    (["run", "--rule", "reshuffles"], ["key=value"]),
    (["run", "--strategy", "greedy", "--strategy", "random", "--players", "3"], ["2 strategies for 3 players"]),
    (["run", "--out", "/proc/rummysim-cannot-write"], ["cannot write"]),
    (["run", "--rules-file", "/nonexistent/rules.toml"], ["rules file", "cannot read"]),
    (["replay", "--from", "/nonexistent/run"], ["--from", "not a readable rummysim run"]),
    (["frobnicate"], ["No such command"]),
])
def test_user_mistakes_give_one_line_and_exit_2(args, words, capsys, tmp_path):
    if args[0] == "run" and "--out" not in args:
        args = args + ["--out", str(tmp_path / "out")]
    code, out, err = run_cli(args, capsys)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rummysim: error:"), err
    for w in words:
        assert w in lines[0]
    assert "Traceback" not in err
    assert not (tmp_path / "out" / "run.json").exists()


def test_bad_strategy_file_names_file_and_key(capsys, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\nvariant = "basic"\ndescription = "d"\n[draw]\nmode = "sometimes"\n')
    code, _, err = run_cli(["run", "--hands", "10", "--strategy", str(bad), "--out", str(tmp_path / "o")], capsys)
    assert code == 2 and str(bad) in err and "draw.mode" in err and "'never' or 'meld' or 'gain'" in err


@pytest.mark.engine
def test_run_writes_results_and_summary(capsys, tmp_path):
    out = tmp_path / "res"
    code, stdout, _ = run_cli(["run", "--hands", "2000", "--players", "3", "--seed", "4", "--out", str(out),
                               "--rule", "reshuffles=0", "--json"], capsys)
    assert code == 0
    record = json.loads(stdout)
    assert record["status"] == "complete" and record["hands_played"] == 2000
    assert record["rules"]["reshuffles"] == 0 and record["seed"] == 4
    on_disk = json.loads((out / "run.json").read_text())
    assert on_disk["summary"] == record["summary"]   # what was printed is what was saved
    hands = pd.read_parquet(out / "hands.parquet")
    # and it is the summary of the saved rows, every figure recomputed with pandas/scipy
    check_basic(types.SimpleNamespace(hands=hands, games=None, summary=record["summary"]), 3, False)
    assert len(hands) == 2000 and (hands.reshuffles == 0).all()
    assert len(pd.read_parquet(out / "seats.parquet")) == 6000
    # the same out dir is refused unless --overwrite
    code, _, err = run_cli(["run", "--hands", "10", "--out", str(out)], capsys)
    assert code == 2 and "already holds results (run.json)" in err


@pytest.mark.engine
def test_interrupted_run_keeps_finished_chunks(tmp_path):
    out = prepare_out_dir(tmp_path / "cut")
    spec = RunSpec(BASIC, 2, seat_strategies(["greedy"], 2, BASIC), seed=1, games=400)

    def stop_after_two(done, hands, seconds):
        if done >= 200:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_to_dir(spec, out, workers=1, chunk_size=100, on_chunk=stop_after_two)
    record = json.loads((out / "run.json").read_text())
    assert record["status"] == "interrupted" and record["done"] == 200
    games = read_results_table(out, "games").to_pandas()
    assert games.game.tolist() == list(range(200))
    assert read_results_table(out, "hands").num_rows == record["hands_played"]


@pytest.mark.engine
def test_replay_json_and_text(capsys, tmp_path):
    code, out, _ = run_cli(["replay", "--seed", "5", "--game", "2", "--hand", "1", "--json"], capsys)
    assert code == 0
    events = [json.loads(line) for line in out.splitlines()]
    assert events[0]["event"] == "deal" and events[-1]["event"] == "end"
    assert len(events[0]["hands"]) == 2 and all(len(h) == 10 for h in events[0]["hands"])
    assert len(events[0]["stock"]) == 31
    assert {e["event"] for e in events} <= {"deal", "draw", "meld", "layoff", "discard", "reshuffle", "end"}
    code, text, _ = run_cli(["replay", "--seed", "5", "--game", "2", "--hand", "1"], capsys)
    assert code == 0 and "deal: dealer seat" in text and "draws" in text
    # --from takes players, seed, strategies and rules from a saved run
    saved = tmp_path / "saved"
    run_cli(["run", "--hands", "5", "--players", "4", "--seed", "5", "--out", str(saved),
             "--rule", "ace=high_or_low"], capsys)
    code, out, _ = run_cli(["replay", "--from", str(saved), "--game", "3", "--json"], capsys)
    deal = json.loads(out.splitlines()[0])
    assert code == 0
    assert code == 0 and len(deal["hands"]) == 4
    hands = pd.read_parquet(saved / "hands.parquet")
    end = json.loads(out.splitlines()[-1])
    assert end["points"] == hands.points[3] and end["outcome"] == hands.outcome[3]


def test_console_script_entry_point():
    """The installed command answers (one process, as a user would run it)."""
    result = subprocess.run([sys.executable, "-m", "rummysim", "--version"], capture_output=True, text=True,
                            env={**os.environ}, timeout=120)
    assert result.returncode == 0 and "0.1.0" in result.stdout


@pytest.mark.engine
def test_replay_from_refuses_a_changed_strategy_file(capsys, tmp_path):
    mine = tmp_path / "mine.toml"
    mine.write_text('name = "mine"\nvariant = "basic"\ndescription = "d"\n')
    saved = tmp_path / "saved"
    assert run_cli(["run", "--hands", "5", "--strategy", str(mine), "--out", str(saved)], capsys)[0] == 0
    assert run_cli(["replay", "--from", str(saved), "--game", "2"], capsys)[0] == 0
    mine.write_text('name = "mine"\nvariant = "basic"\ndescription = "d"\n[draw]\nmode = "never"\n')
    code, _, err = run_cli(["replay", "--from", str(saved), "--game", "2"], capsys)
    assert code == 2 and "has changed since the run" in err


def test_rule_values_are_bounded(capsys, tmp_path):
    for rule in ("target=99999999999999999999", "rummy_multiplier=99999999999", "turn_limit=10000000"):
        code, _, err = run_cli(["run", "--hands", "5", "--rule", rule, "--out", str(tmp_path / "o")], capsys)
        assert code == 2 and "allowed an integer from 1 to" in err
    bad = tmp_path / "rules.toml"
    bad.write_text("rules = 5\n")
    code, _, err = run_cli(["run", "--hands", "5", "--rules-file", str(bad), "--out", str(tmp_path / "o")], capsys)
    assert code == 2 and "must be a table" in err


def test_shanghai_run_then_replay_reproduces_its_rounds(capsys, tmp_path):
    out = tmp_path / "sh"
    code, stdout, err = run_cli(["run", "--variant", "shanghai", "--games", "6", "--players", "3", "--seed", "5",
                                 "--strategy", "greedy", "--strategy", "buyer", "--strategy", "random",
                                 "--out", str(out), "--json"], capsys)
    assert code == 0, err
    record = json.loads(stdout)
    assert record["variant"] == "shanghai" and record["status"] == "complete" and record["rounds_played"] == 60
    rounds = pd.read_parquet(out / "rounds.parquet")
    seats = pd.read_parquet(out / "seats.parquet")
    games = pd.read_parquet(out / "games.parquet")
    assert len(rounds) == 60 and len(seats) == 180 and len(games) == 6
    totals = seats.groupby(["game", "seat"]).score.sum().unstack()
    assert (totals.to_numpy() == games[[f"total_{q}" for q in range(3)]].to_numpy()).all()
    for game, round_no in ((0, 1), (4, 8)):
        code, stdout, err = run_cli(["replay", "--from", str(out), "--game", str(game), "--round", str(round_no),
                                     "--json"], capsys)
        assert code == 0, err
        events = [json.loads(line) for line in stdout.splitlines()]
        assert events[0]["event"] == "deal" and events[0]["round"] == round_no
        end = events[-1]
        row = rounds[(rounds.game == game) & (rounds["round"] == round_no)].iloc[0]
        assert end["outcome"] == row.outcome and end["winner"] == row.winner
        expect = seats[(seats.game == game) & (seats["round"] == round_no)].sort_values("seat").score.tolist()
        assert end["scores"] == expect
        assert sum(e["event"] == "buy" for e in events) == row.buys
        # the text replay ends with the game's totals after the round: the run's scores of its rounds so far
        code, text, err = run_cli(["replay", "--from", str(out), "--game", str(game), "--round", str(round_no)], capsys)
        so_far = seats[(seats.game == game) & (seats["round"] <= round_no)].groupby("seat").score.sum().tolist()
        assert text.splitlines()[-1] == (f"game totals after round {round_no} (penalty: lower is better): "
                                         + ", ".join(f"seat {q} {t}" for q, t in enumerate(so_far)))


@pytest.mark.engine
def test_text_replay_starts_with_a_header_that_reproduces_it(capsys, tmp_path):
    """Issue 27 item 5: the text replay began with the deal: no seed, players, strategies or rules. Its header
    says the variant, seed, game and round, each seat's strategy, the rules that differ from the defaults
    and the command, which prints the same again; the last hand of a game says the game ends there, with
    the run's final scores (--json stays one event a line)."""
    args = ["replay", "--variant", "shanghai", "--players", "3", "--seed", "7", "--game", "1", "--round", "3",
            "--strategy", "greedy", "--strategy", "buyer", "--strategy", "random", "--rule", "max_buys=2"]
    code, text, err = run_cli(args, capsys)
    assert code == 0, err
    lines = text.splitlines()
    assert lines[0] == "Shanghai Rummy: seed 7, game 1, round 3"
    assert lines[1] == "3 players: seat 0 greedy, seat 1 buyer, seat 2 random; round 3, contract 2 runs of 4; seat 2 deals."
    assert lines[2] == "Rules: --rule max_buys=2 (the others as by default)"
    assert lines[3].startswith("To reproduce: rummysim replay --variant shanghai --players 3 --seed 7 --game 1 ")
    assert lines[4] == "" and lines[5].startswith("round 3 deal: ")
    assert run_cli(lines[3].split()[3:], capsys) == (0, text, "")
    code, out, _ = run_cli([*args, "--json"], capsys)
    assert [json.loads(line)["event"] for line in out.splitlines()][::len(out.splitlines()) - 1] == ["deal", "end"]
    saved = tmp_path / "b"
    assert run_cli(["run", "--games", "2", "--seed", "4", "--strategy", "expert", "--strategy", "greedy",
                    "--out", str(saved)], capsys)[0] == 0
    games = pd.read_parquet(saved / "games.parquet")
    code, text, err = run_cli(["replay", "--from", str(saved), "--game", "1", "--hand", str(games.hands[1] - 1)], capsys)
    assert code == 0, err
    assert text.splitlines()[1].startswith("2 players: seat 0 expert, seat 1 greedy; ")
    assert text.splitlines()[-1] == (f"game totals after hand {games.hands[1] - 1}: seat 0 {games.score_0[1]}, "
                                     f"seat 1 {games.score_1[1]}; the game ends here")


def _commands(group, path=()):
    import click
    for name, cmd in group.commands.items():
        yield (*path, name), cmd
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, (*path, name))


def test_every_option_of_every_command_says_what_it_does():
    """``--help`` explains every option (issue 27: ``compare --seed`` and ``sweep --json`` had no text)."""
    import click
    bare = [f"{' '.join(path)} {p.opts[0]}" for path, cmd in _commands(cli) for p in cmd.params
            if isinstance(p, click.Option) and not p.hidden and not (p.help or "").strip()]
    assert not bare, f"options without help: {bare}"


def test_strategies_list_one_line_each_and_show_writes_a_file_to_edit(capsys, tmp_path, monkeypatch):
    """Issue 27 item 2: a user who installed with pip has no strategies/ directory; ``strategies list``
    names what is shipped, a line each within the terminal's width, and ``strategies show NAME`` prints the
    file, which saved and loaded is that strategy (run from a directory outside the checkout)."""
    from rummysim.strategy import builtin_names, load_strategy

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "80")
    main(["strategies", "list"])
    lines = capsys.readouterr().out.splitlines()
    expected = [(v.name, n) for v in VARIANTS.values() for n in builtin_names(v)]
    assert [tuple(line.split()[:2]) for line in lines] == expected
    assert all(len(line) <= 80 for line in lines)
    for v in VARIANTS.values():
        main(["strategies", "show", "expert", "--variant", v.name])
        mine = tmp_path / f"mine-{v.name}.toml"
        mine.write_text(capsys.readouterr().out)
        assert load_strategy(str(mine), v).params == load_strategy("expert", v).params
    with pytest.raises(SystemExit) as e:
        main(["strategies", "show", "mine-basic.toml"])
    assert e.value.code == 2 and "shipped strategy by name" in capsys.readouterr().err
