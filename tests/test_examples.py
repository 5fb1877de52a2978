"""The examples in examples/ run, as the README's "Architecture" section shows them."""

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
