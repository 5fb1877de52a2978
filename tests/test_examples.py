"""The examples in examples/ run, as docs/architecture.md ("A new bot") shows them."""

import runpy
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).parent.parent / "examples"


@pytest.mark.engine
def test_a_ten_line_policy_plays_through_the_rules_layer(capsys):
    """The toy bot of examples/toy_policy.py plays whole hands against greedy: every move it makes
    passes ``moves.is_legal`` (the loop raises otherwise), the same seed gives the same hands, and the
    shipped greedy beats it (it never takes the pile and throws its highest card, melded or not)."""
    toy = runpy.run_path(str(EXAMPLES / "toy_policy.py"))
    wins = toy["main"](hands=400, seed=3)
    assert wins.sum() <= 400 and wins[1] > 2 * wins[0]
    assert (toy["main"](hands=400, seed=3) == wins).all()
    assert "toy bot won" in capsys.readouterr().out


@pytest.mark.engine
def test_the_draw_learner_trains_through_the_gymnasium_environment(tmp_path, capsys):
    """examples/learn_draw.py trains its table through ``rummysim.env.single`` against greedy: the same
    seed gives the same table and the same wins; every value is a mean of hand results (0..1); the plot
    is written."""
    pytest.importorskip("gymnasium")
    learn = runpy.run_path(str(EXAMPLES / "learn_draw.py"))
    q, wins, played = learn["main"](hands=600, seed=2, block=300, out=tmp_path / "learn.png")
    assert played.tolist() == [300, 300] and (wins <= played).all()
    assert ((q >= 0) & (q <= 1)).all() and (q > 0).any()
    q2, wins2, _ = learn["main"](hands=600, seed=2, block=300)
    assert (q2 == q).all() and (wins2 == wins).all()
    assert (tmp_path / "learn.png").stat().st_size > 10_000
    assert "learned: take the upcard in" in capsys.readouterr().out
