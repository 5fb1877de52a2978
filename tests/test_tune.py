"""``rummysim tune``: keys typed from the strategy spec, the written file, bad input, and a tiny search
(3 trials of 60 deals: the machinery, not a tuning result)."""

import json
import sys
import tomllib

import pytest
from test_report_figures import text_problems

from rummysim.analysis import tune as T
from rummysim.cli import main
from rummysim.run import UsageError
from rummysim.strategy import load_strategy, parse_strategy
from rummysim.variants.basic.rules import BasicRules
from rummysim.variants import VARIANTS

BASIC, SHANGHAI = VARIANTS["basic"], VARIANTS["shanghai"]


def run_cli(args):
    try:
        main([str(a) for a in args])
    except SystemExit as e:
        return e.code
    return 0


def test_keys_are_typed_from_the_spec():
    assert T.parse_knob("meld.abandon_turn=0:30", BASIC) == T.Knob("meld.abandon_turn", 0, 30)
    assert T.parse_knob("discard.mode", BASIC) == T.Knob("discard.mode", choices=("highest", "least_useful"))
    assert T.parse_knob("draw.mode=never,gain", BASIC) == T.Knob("draw.mode", choices=("never", "gain"))
    assert T.parse_knob("buy.keep=0:5", SHANGHAI) == T.Knob("buy.keep", 0, 5)
    for bad in ("meld.abandon_turn=0:2000", "meld.abandon_turn=5:5", "meld.abandon_turn=a:b", "meld.abandon_turn",
                "draw.mode=never", "draw.mode=never,sometimes", "no.such_key=0:1", "buy.keep=0:5"):
        with pytest.raises(UsageError):
            T.parse_knob(bad, BASIC)


@pytest.mark.parametrize("name, variant", [("expert", "basic"), ("greedy", "basic"), ("buyer", "shanghai")])
def test_written_file_says_every_key_of_the_strategy(name, variant):
    variant = VARIANTS[variant]
    s = load_strategy(name, variant)
    text = T.strategy_toml("x", variant, "a\ndescription", s.params)
    assert parse_strategy(text, "x.toml", variant) == ("x", "a\ndescription", s.params, "")


def test_without_optuna_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "optuna", None)   # import optuna -> ImportError
    code = run_cli(["tune", "expert", "--param", "meld.abandon_turn=0:30", "--against", "greedy",
                    "--out", tmp_path / "t.toml", "--report", tmp_path / "r"])
    err = capsys.readouterr().err
    assert code == 2 and err == f"rummysim: error: {T.INSTALL}\n"
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("args, words", [
    (["--param", "meld.abandon_turn=0:5000"], "meld.abandon_turn=0:5000"),
    (["--param", "meld.abandon_turn=0:5", "--param", "meld.abandon_turn=1:6"], "each key once"),
    (["--param", "meld.abandon_turn=0:5", "--against", "nobody"], "unknown strategy"),
])
def test_bad_input_one_line_exit_2_nothing_written(tmp_path, capsys, args, words):
    args = args if "--against" in args else [*args, "--against", "greedy"]
    code = run_cli(["tune", "expert", *args, "--out", tmp_path / "t.toml", "--report", tmp_path / "r"])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("rummysim: error: ") and words in err and err.count("\n") == 1
    assert not list(tmp_path.iterdir())


@pytest.mark.engine
def test_tiny_search_writes_the_confirmed_file(tmp_path):
    out, report = tmp_path / "tuned.toml", tmp_path / "report"
    assert run_cli(["tune", "expert", "--param", "meld.abandon_turn=0:30", "--param", "discard.mode",
                    "--against", "greedy", "--against", "expert", "--hands", 60, "--trials", 3, "--seed", 4,
                    "--out", out, "--report", report]) == 0
    result = json.loads((report / "tune.json").read_text())
    assert len(result["trials"]) == 3 and (report / "trials.csv").read_text().count("\n") == 4
    best = max(result["trials"], key=lambda r: r["score"]["estimate"])
    assert result["best"] == best
    # common random numbers: a trial re-measured on the tuning seed gives the same figure
    base, field = load_strategy("expert", BASIC), [load_strategy("greedy", BASIC), load_strategy("expert", BASIC)]
    again = T.field_score(T.candidate(base, best["settings"], BASIC), field, 2, 4, BasicRules(), None, 60, None,
                          BASIC)
    assert again == best["score"]
    confirmed = result["confirmed"]
    assert confirmed["seed"] != 4 and confirmed["best"] != best["score"]
    # the file: the best settings, and the confirmed figure with its interval in the description
    data = tomllib.loads(out.read_text())
    assert data["meld"]["abandon_turn"] == best["settings"]["meld.abandon_turn"]
    assert data["discard"]["mode"] == best["settings"]["discard.mode"]
    c = confirmed["best"]
    assert f"{c['estimate']:+.4f} [{c['ci95'][0]:+.4f}, {c['ci95'][1]:+.4f}]" in data["description"]
    assert f"fresh seed {confirmed['seed']}" in data["description"]
    d = confirmed["difference"]
    assert d["estimate"] == pytest.approx(c["estimate"] - confirmed["base"]["estimate"], abs=1e-12)
    # the best may be the base itself: then every block's difference is 0 and it has no interval (not "[+nan, +nan]")
    interval = (f"[{d['ci95'][0]:+.4f}, {d['ci95'][1]:+.4f}]" if d["ci95"][0] is not None
                else f"(no interval: all {d['n']:,} the same)")
    assert f"paired by duplicate block: {d['estimate']:+.4f} {interval}" in data["description"]
    assert "nan" not in data["description"]
    assert load_strategy(str(out), BASIC).name == "tuned"
    for fig in (T.history_figure(result), T.effects_figure(result)):
        assert not text_problems(fig)
    assert (report / "history.png").read_bytes()[:4] == b"\x89PNG"
    # an existing --out is not replaced without --overwrite
    code = run_cli(["tune", "expert", "--param", "meld.abandon_turn=0:30", "--against", "greedy", "--out", out])
    assert code == 2
