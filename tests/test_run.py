"""Whole runs: invariants over many seeded hands (issue item 10), reproducibility
(item 6), replay = run (item 9), the results schema (item 8)."""

import numpy as np
import pandas as pd
import pytest

from rummysim import simulate
from rummysim.variants.basic import kernel as K
from rummysim.variants.basic.state import R_CHECK
from rummysim.variants.basic.replay import trace_hand
from rummysim.variants.basic.rules import BasicRules
from rummysim.run import RunSpec, play_chunk
from rummysim.strategy import params_matrix, seat_strategies
from rummysim.variants import VARIANTS

BASIC = VARIANTS["basic"]

pytestmark = pytest.mark.engine


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("strategy", ["random", "greedy"])
def test_invariants_on_10000_seeded_hands(players, strategy):
    """Every card in exactly one place after every move (the kernel checks it with
    R_CHECK and raises otherwise), every hand ends without the turn cap, and the
    winner's points are exactly the cards left in the other hands (doubled for rummy)."""
    spec = RunSpec(BASIC, players, seat_strategies([strategy], players, BASIC), seed=20261130, hands=10_000)
    rules = spec.rules.to_array(players)
    rules[R_CHECK] = 1
    chunk = play_chunk(spec, np.arange(10_000, dtype=np.int64), rules, params_matrix(spec.strategies))
    h, s = chunk.hand_rows, chunk.seat_rows
    assert len(h) == 10_000
    outcome = h[:, K.H_OUTCOME]
    assert not np.any(outcome == 3), "turn_limit fired: a bot or rule never ends a hand"
    won = outcome == 0
    assert won.sum() > 1000
    left = s[:, :, K.S_VALUE_LEFT].sum(axis=1)
    mult = np.where(h[:, K.H_RUMMY] == 1, 2, 1)
    np.testing.assert_array_equal(h[won, K.H_POINTS], left[won] * mult[won])
    winner = h[won, K.H_WINNER]
    assert np.all(s[won][np.arange(won.sum()), winner, K.S_CARDS_LEFT] == 0)
    assert np.all(h[~won, K.H_POINTS] == 0) and np.all(h[~won, K.H_WINNER] == -1)
    # stalemates by stock happen only after the one allowed reshuffle (rules 1.4)
    assert np.all(h[outcome == 1, K.H_RESHUFFLES] == 1)
    assert np.all(h[:, K.H_RESHUFFLES] <= 1)


def _frames(workers, chunk_size, **kw):
    r = simulate(workers=workers, chunk_size=chunk_size, **kw)
    return r.hands, r.seats, r.games


@pytest.mark.parametrize("mode", [{"games": 300}, {"hands": 3000}])
def test_same_seed_same_results_for_any_workers_and_chunks(mode):
    kw = dict(players=3, strategies=["greedy", "random", "cautious"], seed=99, **mode)
    a = _frames(1, 7 if "games" in mode else 111, **kw)
    b = _frames(2, 1000, **kw)
    for x, y in zip(a, b):
        pd.testing.assert_frame_equal(x, y)
    c = simulate(workers=2, **{**kw, "seed": 100})
    assert not c.hands["points"].equals(a[0]["points"])


def test_games_reach_the_target_and_scores_add_up():
    r = simulate(games=200, players=2, seed=3)
    g, h = r.games, r.hands
    assert len(g) == 200 and (g.winner >= 0).all()
    final = g[["score_0", "score_1"]].to_numpy()
    assert (final.max(axis=1) >= 100).all()
    # the final scores are the winners' points summed hand by hand
    won = h[h.outcome == "win"]
    by_seat = won.pivot_table(index="game", columns="winner", values="points", aggfunc="sum", fill_value=0)
    np.testing.assert_array_equal(by_seat.reindex(g.game, fill_value=0).to_numpy(), final)
    assert (h.groupby("game").size().to_numpy() == g.hands.to_numpy()).all()
    # the game ends with the hand that crosses the target, never later
    last = h.sort_values(["game", "hand"]).groupby("game").tail(1).set_index("game").loc[g.game]
    assert (last.outcome == "win").all()
    before_last = final.copy()
    before_last[np.arange(len(g)), last.winner.to_numpy()] -= last.points.to_numpy()
    assert (before_last.max(axis=1) < 100).all()
    # dealer rotation (1.1): the deal passes left each hand and the starter is left of the dealer
    assert ((h.dealer.to_numpy() - (h.game + h.hand + 1).to_numpy() % 2) == 0).all()
    assert ((h.starter - h.dealer) % 2 == 1).all()


def test_replay_reproduces_the_recorded_hands():
    players = 3
    r = simulate(games=20, players=players, strategies=["greedy", "random", "expert"], seed=11)
    strategies = seat_strategies(["greedy", "random", "expert"], players, BASIC)
    rules = BasicRules().to_array(players)
    for row in r.hands.sample(12, random_state=1).itertuples():
        events = trace_hand(11, row.game, row.hand, players, rules, params_matrix(strategies))
        end = events[-1]
        assert end["outcome"] == row.outcome and end["winner"] == row.winner and end["points"] == row.points
        seats = r.seats[(r.seats.game == row.game) & (r.seats.hand == row.hand)].sort_values("seat")
        assert [len(h) for h in end["hands"]] == seats.cards_left.tolist()
        turns = sum(e["event"] == "draw" for e in events)
        assert turns == row.turns
        assert events[0]["dealer"] == row.dealer


def test_results_schema():
    r = simulate(hands=50, players=4, seed=1)
    assert list(r.hands.columns) == ["game", "hand", "deal", "seed", "players", "dealer", "starter", "outcome",
                                     "winner", "turns", "reshuffles", "points", "going_rummy"]
    assert r.hands.deal.is_unique   # hands mode: every hand its own deal
    assert list(r.seats.columns) == ["game", "hand", "seat", "strategy", "cards_left", "value_left", "melds_laid",
                                     "cards_laid_off", "discard_draws"]
    assert set(r.hands.outcome.cat.categories) == {"win", "stalemate_stock", "stalemate_blocked", "turn_limit"}
    assert len(r.seats) == 4 * len(r.hands)
    assert r.games.empty  # hands mode plays no games
    # hands mode: the starting seat rotates
    assert r.hands.starter.tolist()[:8] == [0, 1, 2, 3, 0, 1, 2, 3]


def test_games_longer_than_the_row_capacity_are_replayed_in_place(monkeypatch):
    """A game with more hands than the kernel's room is replayed alone; rows stay in game order."""
    import rummysim.run as R
    from rummysim.variants.basic import play as BP

    spec = RunSpec(BASIC, 2, seat_strategies(["random"], 2, BASIC), seed=5, games=500)
    rules, params = spec.rules.to_array(2), params_matrix(spec.strategies)
    games = np.arange(500, dtype=np.int64)
    roomy = R.play_chunk(spec, games, rules, params)
    monkeypatch.setattr(BP, "HAND_CAPACITY", 4)
    tight = R.play_chunk(spec, games, rules, params)
    assert (roomy.game_rows[:, 1] > 4).sum() > 100  # many games did overflow
    np.testing.assert_array_equal(roomy.hand_rows, tight.hand_rows)
    np.testing.assert_array_equal(roomy.seat_rows, tight.seat_rows)
    np.testing.assert_array_equal(roomy.game_rows, tight.game_rows)
