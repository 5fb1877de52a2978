"""Golden rows: small seeded runs of every shipped strategy and every rule option
must give byte-identical result rows (hands/rounds, seats, games).

The digests in ``tests/golden.json`` were recorded from commit 99c9acc, before
the "moves as data" redesign (turn loops as a legal-move layer, bots as
policies), and re-recorded once when schema version 2 added the ``deal``
column to hands/rounds: the new frames with ``deal`` dropped were first checked
to give every old digest (136 of 136), so no row changed. A refactor or
speed-up must never change them. If a rule fix
changes rows on purpose: bump ``RULES_VERSION`` (rummysim/base/rules.py), say what
changed in docs/reproducibility.md (its table of rules versions), and record new digests in the same commit:

    python tests/test_golden.py > tests/golden.json

and write the golden playthroughs again (``python tools/gen_playthroughs.py``, ``tests/test_playthroughs.py``):
their diff shows where the hands went another way.

A shipped strategy given a new setting changes the rows of the cases that play
it, and only those: re-record, and check that no other digest moved.

A digest is the sha256 of each frame written as CSV (categorical columns as
their strings), so it does not depend on pandas' hashing or dtypes.
"""

import hashlib
import json
import sys
from pathlib import Path

import pytest

from rummysim import simulate
from rummysim.strategy import builtin_names
from rummysim.variants import VARIANTS

pytestmark = pytest.mark.engine

GOLDEN = Path(__file__).with_name("golden.json")

# the shipped strategies at 99c9acc; test_every_shipped_strategy_is_covered asks for new ones
BASIC = ("cautious", "expert", "greedy", "random", "rummy-seeker")
SHANGHAI = ("buyer", "expert", "greedy", "patient", "random")
# Gin Rummy's, recorded when the variant was added (expert when it was shipped)
GIN = ("expert", "greedy", "random")
# search bots, a few hands each against the rule-based (they cost thousands of playouts a decision)
SEARCH = {"basic-search-p2-hands": dict(hands=30, players=2, strategies=["search", "expert"], seed=51),
          "basic-search-p3-games": dict(games=1, players=3, strategies=["search", "greedy", "search"], seed=52),
          "gin-search-p2-hands": dict(hands=40, players=2, strategies=["search", "expert"], seed=53),
          "shanghai-search-p4-games": dict(games=1, players=4, strategies=["search", "expert", "buyer", "patient"],
                                           seed=34)}
# shipped later, each with cases of its own (the cases above are unchanged by them)
LATER = {"gin-simple-p2-hands": dict(hands=2000, players=2, strategies=["simple"], seed=61),
         "gin-simple-p2-games": dict(games=100, players=2, strategies=["simple", "expert"], seed=62),
         "gin-rule-tie_undercut=true-simple-p2-games": dict(games=50, players=2, strategies=["simple", "greedy"],
                                                           seed=65, rules={"tie_undercut": True}),
         "gin-strong-p2-hands": dict(hands=20, players=2, strategies=["strong", "simple"], seed=66)}

BASIC_RULES = {
    "max_melds_per_turn=1": {"max_melds_per_turn": 1},
    "ace=high_or_low": {"ace": "high_or_low"},
    "reshuffles=0": {"reshuffles": 0},
    "reshuffles=unlimited": {"reshuffles": "unlimited"},
    "reshuffles=3": {"reshuffles": 3},
    "reshuffle_mode=keep_top": {"reshuffle_mode": "keep_top"},
    "reshuffle_mode=turn_over": {"reshuffle_mode": "turn_over"},
    "must_discard_to_go_out=true": {"must_discard_to_go_out": True},
    "rummy_multiplier=1": {"rummy_multiplier": 1},
    "target=50": {"target": 50},
    "turn_limit=30": {"turn_limit": 30},
}
SHANGHAI_RULES = {
    "jokers=0": {"jokers": 0},
    "jokers=4": {"jokers": 4},
    "decks=1": {"decks": 1},
    "decks=3": {"decks": 3},
    "max_buys=0": {"max_buys": 0},
    "max_buys=2": {"max_buys": 2},
    "layoff_on_contract_turn=true": {"layoff_on_contract_turn": True},
    "joker_swap=false": {"joker_swap": False},
    "joker_swap=anyone": {"joker_swap": "anyone"},
    "ace=low": {"ace": "low"},
    "must_discard_to_go_out=true": {"must_discard_to_go_out": True},
    "one_turn_bonus=-10/-100": {"one_turn_bonus": "-10/-100"},
    "turn_limit=40": {"turn_limit": 40},
}
GIN_RULES = {
    "knock_card=0": {"knock_card": 0},
    "knock_card=5": {"knock_card": 5},
    "gin_bonus=20": {"gin_bonus": 20},
    "undercut_bonus=10": {"undercut_bonus": 10},
    "oklahoma=true": {"oklahoma": True},
    "hand_size=7": {"hand_size": 7},
    "big_gin_bonus=31": {"big_gin_bonus": 31},
    "game_to=50": {"game_to": 50},
    "line_bonus=25": {"line_bonus": 25},
    "game_bonus=100": {"game_bonus": 100},
    "shutout=true": {"shutout": True, "line_bonus": 25, "game_bonus": 100},
}


def _cases() -> dict[str, dict]:
    """Case id -> keyword arguments of ``simulate``."""
    cases = {}
    for players in (2, 3, 4):
        for s in BASIC:
            cases[f"basic-{s}-p{players}-hands"] = dict(hands=2000, players=players, strategies=[s], seed=11)
            cases[f"basic-{s}-p{players}-games"] = dict(games=100, players=players, strategies=[s], seed=12)
    mixed4 = ["greedy", "random", "expert", "cautious"]
    mixed3 = ["rummy-seeker", "expert", "random"]
    cases["basic-mixed-p4-hands"] = dict(hands=2000, players=4, strategies=mixed4, seed=13)
    cases["basic-mixed-p4-games"] = dict(games=100, players=4, strategies=mixed4, seed=14)
    cases["basic-mixed-p3-games"] = dict(games=100, players=3, strategies=mixed3, seed=15)
    cases["basic-mixed-p2-games"] = dict(games=100, players=2, strategies=["expert", "rummy-seeker"], seed=16)
    for rule, value in BASIC_RULES.items():
        for s, players in (("greedy", 2), ("random", 3)):
            cases[f"basic-rule-{rule}-{s}-p{players}-hands"] = dict(
                hands=2000, players=players, strategies=[s], seed=21, rules=value)
            cases[f"basic-rule-{rule}-{s}-p{players}-games"] = dict(
                games=100, players=players, strategies=[s], seed=22, rules=value)
    for players in (3, 4, 6, 8):
        for s in SHANGHAI:
            cases[f"shanghai-{s}-p{players}"] = dict(games=8, players=players, strategies=[s], seed=31)
    cases["shanghai-mixed-p5"] = dict(games=8, players=5, strategies=list(SHANGHAI), seed=32)
    cases["shanghai-mixed-p8"] = dict(games=4, players=8, strategies=list(SHANGHAI) + ["greedy", "expert", "buyer"],
                                      seed=33)
    for rule, value in SHANGHAI_RULES.items():   # decks at 4 players: one deck is too few for 6, three their default
        for s, players in (("greedy", 3), ("random", 4), ("expert", 4 if rule.startswith("decks") else 6)):
            cases[f"shanghai-rule-{rule}-{s}-p{players}"] = dict(
                games=6, players=players, strategies=[s], seed=41, rules=value)
    for s in GIN:
        cases[f"gin-{s}-p2-hands"] = dict(hands=2000, players=2, strategies=[s], seed=61)
        cases[f"gin-{s}-p2-games"] = dict(games=100, players=2, strategies=[s], seed=62)
    cases["gin-mixed-p2-games"] = dict(games=100, players=2, strategies=["greedy", "random"], seed=63)
    for rule, value in GIN_RULES.items():
        for s in GIN:
            cases[f"gin-rule-{rule}-{s}-p2-hands"] = dict(hands=1000, players=2, strategies=[s], seed=64, rules=value)
            cases[f"gin-rule-{rule}-{s}-p2-games"] = dict(games=50, players=2, strategies=[s], seed=65, rules=value)
    cases.update(SEARCH)
    cases.update(LATER)
    for case_id, case in cases.items():
        case["variant"] = case_id.split("-")[0]
    return cases


CASES = _cases()


def _csv(df) -> bytes:
    df = df.copy()
    for c in df.columns:
        if str(df[c].dtype) == "category" or df[c].dtype == object:
            df[c] = df[c].astype(str)
    return df.to_csv(index=False, lineterminator="\n").encode()


def digest(case: dict) -> str:
    r = simulate(workers=1, **case)
    h = hashlib.sha256()
    for name in ("hands", "seats", "games"):
        h.update(f"[{name}]\n".encode())
        h.update(_csv(getattr(r, name)))
    return h.hexdigest()


@pytest.fixture(scope="module")
def golden() -> dict[str, str]:
    return json.loads(GOLDEN.read_text())


@pytest.mark.parametrize("case_id", list(CASES))
def test_golden_rows(case_id, golden):
    assert case_id in golden, f"no golden digest for {case_id}: record it (see the module docstring)"
    assert digest(CASES[case_id]) == golden[case_id], (
        f"{case_id}: result rows changed; if on purpose, bump RULES_VERSION and re-record (module docstring)")


def test_every_shipped_strategy_is_covered():
    for variant, shipped in (("basic", BASIC), ("shanghai", SHANGHAI), ("gin", GIN)):
        searched = {s for case in (*SEARCH.values(), *LATER.values()) if case["variant"] == variant
                    for s in case["strategies"]}
        assert set(builtin_names(VARIANTS[variant])) <= set(shipped) | searched


if __name__ == "__main__":
    import rummysim

    print(f"recording from {rummysim.__file__}", file=sys.stderr)
    print(json.dumps({k: digest(v) for k, v in CASES.items()}, indent=1))
