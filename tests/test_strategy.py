"""Strategy files: validation errors for every kind of bad file, shipped files, the keys' tables of docs/strategies.md."""

import re
from pathlib import Path

import pytest

from rummysim.variants.basic import bots as B
from rummysim.strategy import StrategyError, builtin_names, load_strategy, seat_strategies
from rummysim.variants.basic.spec import SPEC
from rummysim.variants.shanghai.spec import SPEC as SHANGHAI_SPEC
from rummysim.variants import VARIANTS

BASIC, SHANGHAI = VARIANTS["basic"], VARIANTS["shanghai"]

HEAD = 'name = "t"\nvariant = "basic"\ndescription = "test"\n'


def write(tmp_path, body, head=HEAD):
    f = tmp_path / "s.toml"
    f.write_text(head + body)
    return f


@pytest.mark.parametrize("body, words", [
    ('[draw]\nmode = "sometimes"\n', ["draw.mode", "'sometimes'", "'never' or 'meld' or 'gain'"]),
    ('[draw]\nmin_gain = 500\n', ["draw.min_gain", "500", "from 0 to 100"]),
    ('[draw]\nmin_gain = "3"\n', ["draw.min_gain", "'3'", "an integer"]),
    ('[draw]\nmin_gain = 2.5\n', ["draw.min_gain", "2.5"]),
    ('[meld]\nabandon_turn = true\n', ["meld.abandon_turn", "True"]),
    ('[meld]\nabandon_opponent_cards = -2\n', ["meld.abandon_opponent_cards", "from -1 to 10"]),
    ('[discard]\ncolour = "red"\n', ["unknown key 'discard.colour'", "discard.mode"]),
    ('speed = 3\n', ["unknown key 'speed'"]),
    ('[layoff]\nmode = 1\n', ["layoff.mode", "'at_once' or 'when_going_out'"]),
])
def test_bad_values_name_file_key_and_allowed(tmp_path, body, words):
    f = write(tmp_path, body)
    with pytest.raises(StrategyError) as e:
        load_strategy(str(f), BASIC)
    msg = str(e.value)
    assert "\n" not in msg and str(f) in msg
    for w in words:
        assert w in msg


@pytest.mark.parametrize("head, words", [
    ('variant = "basic"\ndescription = "d"\n', ["missing key 'name'"]),
    ('name = "x"\ndescription = "d"\n', ["missing key 'variant'"]),
    ('name = "x"\nvariant = "basic"\n', ["missing key 'description'"]),
    ('name = "x"\nvariant = "shanghai"\ndescription = "d"\n', ["'shanghai'", "this run plays 'basic'"]),
    ('name = "x"\nvariant = "canasta"\ndescription = "d"\n', ["'canasta'", "allowed 'basic' or 'shanghai' or 'gin'"]),
    ('name = 3\nvariant = "basic"\ndescription = "d"\n', ["'name' must be a non-empty string"]),
    ('name = "x\nvariant = "basic"\n', ["not valid TOML"]),
])
def test_bad_headers(tmp_path, head, words):
    f = write(tmp_path, "", head)
    with pytest.raises(StrategyError) as e:
        load_strategy(str(f), BASIC)
    for w in words:
        assert w in str(e.value)


def test_unreadable_and_unknown(tmp_path):
    with pytest.raises(StrategyError, match="cannot read"):
        load_strategy(str(tmp_path / "missing.toml"), BASIC)
    with pytest.raises(StrategyError, match="unknown strategy .nope.; shipped for Basic Rummy: .*greedy"):
        load_strategy("nope", BASIC)
    # a name another variant ships says which (issue 27: `unknown strategy 'buyer'` alone sent users guessing)
    with pytest.raises(StrategyError) as e:
        load_strategy("buyer", BASIC)
    assert str(e.value).startswith("unknown strategy 'buyer' (a Shanghai Rummy strategy: --variant shanghai); "
                                   "shipped for Basic Rummy: ")
    with pytest.raises(StrategyError) as e:
        load_strategy("cautious", VARIANTS["gin"])
    assert "(a Basic Rummy strategy: --variant basic)" in str(e.value)
    binary = tmp_path / "b.toml"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(StrategyError, match="not UTF-8"):
        load_strategy(str(binary), BASIC)


def test_loading_runs_no_code(tmp_path):
    """A file is data: a value that looks like code stays a string and is rejected."""
    f = write(tmp_path, '[draw]\nmode = "__import__(\'os\').system(\'touch pwned\')"\n')
    with pytest.raises(StrategyError):
        load_strategy(str(f), BASIC)
    assert not Path("pwned").exists()


def test_shipped_strategies_load_and_differ():
    names = builtin_names(BASIC)
    assert {"random", "greedy", "cautious", "rummy-seeker", "expert"} <= set(names)
    params = {n: load_strategy(n, BASIC).params for n in names}
    assert len(set(params.values())) == len(names)
    assert params["random"][B.P_BOT] == 1 and params["greedy"][B.P_BOT] == 0
    assert params["rummy-seeker"][B.P_MELD] == 1
    for n in names:
        assert load_strategy(n, BASIC).description


def test_defaults_are_greedy_and_hash_follows_content(tmp_path):
    f = write(tmp_path, "")
    assert load_strategy(str(f), BASIC).params == load_strategy("greedy", BASIC).params
    g = write(tmp_path, "[draw]\nmin_gain = 1\n")
    assert load_strategy(str(g), BASIC).sha256 != load_strategy("greedy", BASIC).sha256


def test_seat_strategies_counts():
    assert [s.name for s in seat_strategies(["greedy"], 3, BASIC)] == ["greedy"] * 3
    assert [s.name for s in seat_strategies([], 2, BASIC)] == ["greedy"] * 2
    with pytest.raises(StrategyError, match="2 strategies for 4 players"):
        seat_strategies(["greedy", "random"], 4, BASIC)


@pytest.mark.parametrize("spec, section", [(SPEC, "## Basic Rummy strategies"), (SHANGHAI_SPEC, "## Shanghai strategies")])
def test_the_strategies_page_documents_every_key_with_its_default(spec, section):
    """docs/strategies.md has, in its section of the variant, a row per strategy key with its default and
    its choices (or its range)."""
    text = (Path(__file__).parents[1] / "docs" / "strategies.md").read_text()
    start = text.index(f"\n{section}\n")
    end = text.find("\n## ", start + 1)
    page = text[start:end if end > 0 else len(text)]
    for p in spec:
        row = re.search(rf"^\| `{re.escape(p.key)}` \|[^\n]*$", page, re.M)
        assert row, f"docs/strategies.md ({section}) lacks a row for {p.key}"
        cells = [c.strip() for c in row.group(0).strip("|").split("|")]
        default = "[" + ", ".join(f'"{c}"' for c in p.default) + "]" if p.many else str(p.default)
        assert cells[3].strip("`") == default, f"docs/strategies.md default of {p.key}: {cells[3]} != {default}"
        if p.choices:
            assert all(f"`{c}`" in cells[2] for c in p.choices)
        else:
            assert cells[2] == f"{p.low:g}-{p.high:g}"


def test_shipped_shanghai_strategies_load_with_their_own_keys():
    from rummysim.variants.shanghai.bots import BOT_RANDOM, N_SHANGHAI_PARAMS, SP_BOT, SP_BUY_MAX_CARDS, SP_DOWN

    names = builtin_names(SHANGHAI)
    assert {"random", "greedy", "buyer", "patient", "expert"} <= set(names)
    loaded = {n: load_strategy(n, SHANGHAI) for n in names}
    for n, s in loaded.items():
        assert s.name == n and s.source == n and len(s.params) == N_SHANGHAI_PARAMS
    assert loaded["random"].params[SP_BOT] == BOT_RANDOM
    assert loaded["patient"].params[SP_DOWN] == 1 and loaded["greedy"].params[SP_DOWN] == 0
    assert loaded["buyer"].params[SP_BUY_MAX_CARDS] == 0 and loaded["greedy"].params[SP_BUY_MAX_CARDS] == 14


@pytest.mark.parametrize("body, message", [
    ('[buy]\nmode = "always"\n', "key 'buy.mode' = 'always': allowed 'never' or 'helps'"),
    ('[buy]\nkeep = -1\n', "key 'buy.keep' = -1: allowed an integer from 0 to 100"),
    ('[meld]\nmode = "at_once"\n', "unknown key 'meld.mode'; allowed: bot, draw.mode"),
    ('[down]\nabandon_turn = "soon"\n', "key 'down.abandon_turn' = 'soon'"),
])
def test_bad_shanghai_strategy_file_names_file_key_and_what_is_allowed(tmp_path, body, message):
    f = tmp_path / "mine.toml"
    f.write_text('name = "mine"\nvariant = "shanghai"\ndescription = "x"\n' + body)
    with pytest.raises(StrategyError) as e:
        load_strategy(str(f), SHANGHAI)
    assert str(e.value).startswith(f"{f}: ") and message in str(e.value)
