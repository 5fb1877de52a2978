"""The Basic Rummy search bot (``bot = "search"``, rummysim/variants/basic/search.py): its strategy keys,
its deals of the unseen cards, hand-built decisions where searching must change the rollout strategy's
move, its rule for trusting a difference, and reproducibility. Legality and blindness to hidden cards
over many hands: ``test_moves_basic.test_search_moves_are_legal_and_blind_to_hidden_cards``."""

from __future__ import annotations

import numpy as np
import pytest
from test_moves_basic import cheap_search, name, new_state, position, rules

from rummysim import simulate
from rummysim.cards import mask_of
from rummysim.engine import search as ES
from rummysim.engine.search import pick
from rummysim.strategy import StrategyError, load_strategy, params_matrix, seat_strategies
from rummysim.variants.basic import bots as B
from rummysim.variants.basic import kernel as K
from rummysim.engine import melds as M
from rummysim.variants.basic import moves as MV
from rummysim.variants.basic import policy as P
from rummysim.variants.basic import search as S
from rummysim.variants.basic import state as ST
from rummysim.variants import VARIANTS

BASIC = VARIANTS["basic"]

U64 = np.uint64


def strategy_file(tmp_path, body: str, name: str = "s") -> str:
    path = tmp_path / f"{name}.toml"
    path.write_text(f'name = "{name}"\nvariant = "basic"\ndescription = "test"\n{body}')
    return str(path)


# ------------------------------------------------------------- strategy keys
def test_shipped_search_starts_from_its_rollout():
    search, expert = load_strategy("search", BASIC), load_strategy("expert", BASIC)
    for i in range(B.P_SEARCH + ES.ROLLOUT_BOT):
        if i != B.P_BOT:
            assert search.params[i] == expert.params[i], i
    assert search.params[B.P_BOT] == B.BOT_SEARCH
    assert search.params[B.P_SEARCH + ES.ROLLOUT_BOT] == B.BOT_FAMILY
    assert search.params[B.P_SEARCH + ES.DECISIONS] == 1 << ST.PH_DRAW


def test_search_keys_override_and_decisions_are_a_mask(tmp_path):
    f = strategy_file(tmp_path, 'bot = "search"\n[search]\nrollout = "random"\ndecisions = ["play", "discard"]\n'
                                "samples = 3\n[draw]\nmode = \"never\"\n")
    s = load_strategy(f, BASIC)
    assert s.params[B.P_SEARCH + ES.ROLLOUT_BOT] == B.BOT_RANDOM
    assert s.params[B.P_SEARCH + ES.DECISIONS] == (1 << ST.PH_PLAY) | (1 << ST.PH_DISCARD)
    assert s.params[B.P_SEARCH + ES.SAMPLES] == 3 and s.params[B.P_DRAW] == 0


@pytest.mark.parametrize("body, words", [
    ('bot = "search"\n', "needs key 'search.rollout'"),
    ('bot = "search"\n[search]\nrollout = "nobody"\n', "unknown strategy 'nobody'"),
    ('bot = "search"\n[search]\nrollout = "search"\n', "is itself a search bot"),
    ('[search]\nsamples = 4\n', "set bot = \"search\""),
    ('bot = "search"\n[search]\nrollout = "expert"\ndecisions = ["draw", "draw"]\n', "a list of one or more of"),
    ('bot = "search"\n[search]\nrollout = "expert"\ndecisions = []\n', "a list of one or more of"),
    ('bot = "search"\n[search]\nrollout = "expert"\nsamples = 0\n', "an integer from 1 to 10000"),
])
def test_bad_search_files_say_why(tmp_path, body, words):
    with pytest.raises(StrategyError, match=words):
        load_strategy(strategy_file(tmp_path, body), BASIC)


def test_rollout_file_is_relative_to_the_search_file_and_in_its_digest(tmp_path):
    roll = strategy_file(tmp_path, '[draw]\nmode = "never"\n', "roll")
    f = strategy_file(tmp_path, 'bot = "search"\n[search]\nrollout = "roll.toml"\n')
    before = load_strategy(f, BASIC)
    assert before.params[B.P_DRAW] == 0
    (tmp_path / "roll.toml").write_text(open(roll).read().replace('"never"', '"gain"'))
    after = load_strategy(f, BASIC)
    assert after.params[B.P_DRAW] == 2 and after.sha256 != before.sha256


# ------------------------------------------------------- deals of the unseen
def _midhand_state(seed: int):
    """A dealt 3-player hand played by expert until seat 0 is to draw and seat 1 holds a card it took
    from the discard pile; returns the state."""
    players = 3
    params = params_matrix(seat_strategies(["expert"], players, BASIC))
    scratch = P.new_scratch(players)
    for game in range(200):
        state = new_state(players, rules(players))
        K.start_hand(state, seed, game, 0, scratch[5])
        while not MV.is_over(state):
            if (state.ints[ST.I_SEAT] == 0 and state.ints[ST.I_PHASE] == ST.PH_DRAW
                    and state.masks[ST.M_HELD + 1] and state.ints[ST.I_TURN] > 3):
                return state
            move = MV.forced_move(state)
            MV.apply(state, move if move >= 0 else P.choose(state, params, state.ints[ST.I_SEAT], scratch))
    raise AssertionError("no such position in 200 hands")


def test_determinize_keeps_what_the_seat_has_seen():
    state = _midhand_state(3)
    masks, ints = state.masks, state.ints
    stock_n = ints[ST.I_STOCK_N]
    unseen = U64(0)
    for q in (1, 2):
        unseen |= masks[ST.M_HAND + q] & ~masks[ST.M_HELD + q]
    for k in range(stock_n):
        unseen |= M.bit(state.stock[k])
    root_masks, root_ints = np.zeros_like(masks), np.zeros_like(ints)
    root_stock, pool, rng = np.zeros(64, np.int64), np.zeros(64, np.int64), np.array([5], dtype=np.uint64)
    deals = set()
    for _ in range(50):
        S.determinize(masks, ints, 0, root_masks, root_ints, root_stock, pool, rng)
        assert root_masks[ST.M_HAND] == masks[ST.M_HAND]
        dealt = U64(0)
        for q in (1, 2):
            hand = root_masks[ST.M_HAND + q]
            assert hand & masks[ST.M_HELD + q] == masks[ST.M_HELD + q]      # known cards stay
            assert M.popcount(hand) == M.popcount(masks[ST.M_HAND + q])      # counts are public
            dealt |= hand & ~masks[ST.M_HELD + q]
            assert root_ints[ST.I_ABANDONED_SEAT + q] == 0
        stock = U64(0)
        for k in range(stock_n):
            stock |= M.bit(root_stock[k])
        assert dealt & stock == 0 and dealt | stock == unseen                 # the unseen, each once
        assert root_ints[ST.I_SEED] != ints[ST.I_SEED]                        # own reshuffle key
        deals.add((int(root_masks[ST.M_HAND + 1]), int(root_masks[ST.M_HAND + 2]), tuple(root_stock[:stock_n])))
    assert len(deals) == 50


# --------------------------------------------------- hand-built decisions
def _choose(state, table: list[str]) -> str:
    players = len(table)
    params = params_matrix(seat_strategies(table, players, BASIC))
    scratch = P.new_scratch(players)
    for p in range(players):
        scratch[5][p, 0] = U64(1234 + p)
    return name(P.choose(state, params, state.ints[ST.I_SEAT], scratch))


def test_search_takes_the_discard_that_goes_out(tmp_path):
    """docs/rules.md 1.3: H4 from the pile lets seat 0 meld H2 H3 H4 and discard its last card; a
    rollout strategy that never takes the discard draws from the stock, its search takes H4."""
    never = strategy_file(tmp_path, '[draw]\nmode = "never"\n', "never")
    searcher = cheap_search(tmp_path, rollout="never.toml", samples=8, playouts=2, decisions='["draw"]')
    args = (2, ["H2 H3 SK", "C2 C5 C9 D4 D8 S2 S7"], "D2 D5 D7 DJ C4 CQ S9 S10", "CJ H4")
    assert _choose(position(*args), [never, "greedy"]) == "draw stock"
    assert _choose(position(*args), [searcher, "greedy"]) == "take discard"


def test_search_does_not_feed_a_known_meld(tmp_path):
    """Seat 1 holds H5 H6, both taken from the discard pile (public). Discarding H7, its highest card,
    as greedy would, lets seat 1 take it, meld H5 H6 H7 and go out (1.3): a sure loss. Any other discard
    wins a few of the playouts (greedy throws H7 later), so over 64 deals the gain is clear and the
    search keeps H7."""
    searcher = cheap_search(tmp_path, rollout="greedy", samples=64, playouts=1, decisions='["discard"]',
                            candidates=5)

    def at_discard():
        state = position(2, ["C2 C3 C4 H7 S3", "H5 H6"], "D2 D5 D9 DJ C8 CQ S9 S10", "CJ",
                         phase=ST.PH_DISCARD)
        state.masks[ST.M_HELD + 1] = state.masks[ST.M_PICKED + 1] = mask_of("H5 H6")
        return state

    assert _choose(at_discard(), ["greedy", "greedy"]) == "discard H7"
    assert _choose(at_discard(), [searcher, "greedy"]) != "discard H7"


def test_unsearched_decisions_are_the_rollouts(tmp_path):
    """A decision the search bot does not search is its rollout strategy's move (here: random, one
    draw from the seat's stream, as the random bot's)."""
    searcher = cheap_search(tmp_path, rollout="random", decisions='["discard"]')
    state = position(2, ["C2 C3 C4 H7 S3", "H5 H6 D3"], "D2 D5 D9 DJ C8 CQ S9 S10", "CJ")
    assert _choose(state, [searcher, "greedy"]) == _choose(state, ["random", "greedy"])


def test_pick_trusts_a_difference_only_beyond_its_standard_error():
    total = np.array([0.0, 4.0])            # candidate 1 gains 1 per deal on average over 4 deals
    steady = np.array([0.0, 4.0])           # gains 1, 1, 1, 1: no doubt
    noisy = np.array([0.0, 20.0])           # gains 3, -1, 3, -1: standard error 1.15
    assert pick(total, steady, 2, 4, 3.0) == 1
    assert pick(total, noisy, 2, 4, 1.0) == 0
    assert pick(total, noisy, 2, 4, 0.5) == 1
    assert pick(np.array([1.0, 0.5]), noisy, 2, 4, 0.0) == 0   # the favourite is best anyway


# ------------------------------------------------------------ reproducible
def test_search_rows_do_not_depend_on_workers_or_chunks(tmp_path):
    f = cheap_search(tmp_path)
    a = simulate(hands=24, players=3, strategies=[f, "expert", "greedy"], seed=9, workers=1)
    b = simulate(hands=24, players=3, strategies=[f, "expert", "greedy"], seed=9, workers=2, chunk_size=5)
    for table in ("hands", "seats"):
        x, y = getattr(a, table), getattr(b, table)
        assert x.reset_index(drop=True).equals(y.reset_index(drop=True)), table




def test_tune_refuses_a_search_bot_and_its_keys(tmp_path, capsys):
    """A search bot is tuned through its rollout strategy; its own keys are not tuned (one line, exit 2,
    nothing written)."""
    from test_cli import run_cli

    from rummysim.analysis.tune import parse_knob
    from rummysim.run import UsageError

    with pytest.raises(UsageError, match="unknown key 'search.samples'"):
        parse_knob("search.samples=1:8", BASIC)
    code, _, err = run_cli(["tune", "search", "--param", "meld.abandon_turn=0:30", "--against", "greedy",
                            "--out", str(tmp_path / "t.toml"), "--report", str(tmp_path / "r")], capsys)
    assert code == 2 and err.startswith("rummysim: error: search: a search bot; tune the rule-based strategy")
    assert not list(tmp_path.iterdir())


def test_the_melds_at_once_example_differs_from_search_only_there():
    """examples/search-melds-at-once.toml (docs/findings.md's holding question for search players)."""
    from pathlib import Path

    example = load_strategy(str(Path(__file__).parents[1] / "examples" / "search-melds-at-once.toml"), BASIC)
    shipped = load_strategy("search", BASIC)
    differ = [i for i, (a, b) in enumerate(zip(example.params, shipped.params)) if a != b]
    assert differ == [B.P_MELD] and example.params[B.P_MELD] == 0 and shipped.params[B.P_MELD] == 1
