"""The conformance suite: what every registered variant must do, checked through its ``Variant`` alone
(as pgx's api_test and OpenSpiel's random-simulation tests). A variant added to ``rummysim.variants``
is checked here with no edit to this file; the variant-specific suites (``test_moves_<name>.py``,
``test_rules_<name>.py``) check its rules position by position.

- random play through the game in play (``Variant.game``, the driver of ``play`` and the environments):
  at every decision a uniform draw among the legal moves, at every number of players; the legal list
  is never empty and never repeats a move until the hand (round) ends, every event reads as a line;
- every shipped strategy choosing every move there: each move is in the legal list, and the game's
  rows are those of ``run``'s kernel for the same seed (``play`` and the environments are ``run``);
- each hand (round) replayed from its seed ends as ``run``'s row says (``replay`` is ``run``);

- the AEC environment (``rummysim.env.<name>_v0``) with the shipped strategies choosing every move gives
  ``run``'s rows (``test_env.py`` drives the environments further: PettingZoo's api_test, ``Batch``);
- hidden information stays hidden: with the cards a seat cannot see dealt again (``redeal_hidden``), its
  strategy chooses the same move and its observation, action mask and text are the same (the rules
  layers' suites check the same of every bot, search included, inside the compiled loop).

The documentation's generated tables are checked against the code in ``test_docs.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

from rummysim.engine.codes import BOT_SEARCH, OUTCOMES
from rummysim.run import RunSpec, play_chunk
from rummysim.strategy import builtin_names, load_strategy, params_matrix, seat_strategies
from rummysim.variants import VARIANTS

pytestmark = pytest.mark.engine

ALL = list(VARIANTS.values())
IDS = [v.name for v in ALL]
SEED = 11


def strategies_to_check(variant) -> list[str]:
    """The shipped strategies but the search bots (``test_search_<name>.py`` checks those: minutes each)."""
    return [n for n in builtin_names(variant) if load_strategy(n, variant).params[0] != BOT_SEARCH]


def seated(variant, players: int) -> list[str]:
    """Each seat's strategy: those of ``strategies_to_check`` in turn, the shipped strategies mixed."""
    names = strategies_to_check(variant)
    return [names[q % len(names)] for q in range(players)]


def finish_unit(game, events: list[dict]) -> None:
    """The hand (round) in play has ended: its rows kept, its end event logged, the next one dealt."""
    game.finish()
    events.append(game.end_event())
    if not game.over:
        game.next_unit()
        events.append(game.deal_event())


@pytest.mark.parametrize("variant", ALL, ids=IDS)
def test_random_play_keeps_to_the_legal_moves(variant):
    rng = np.random.default_rng(SEED)
    fewest, most, _ = variant.players
    for players in range(fewest, most + 1):
        game = variant.game(players, variant.rules().to_array(players), log=True)
        game.reset(SEED, players)
        events = [game.deal_event()]
        for _ in range(2):   # two hands (rounds) at each number of players
            while not game.unit_over:
                legal = game.legal()
                assert 0 < len(legal) == len(set(legal.tolist())) <= game.num_actions
                assert 0 <= game.seat < players
                events += game.play(int(rng.choice(legal)))
            finish_unit(game, events)
            if game.over:
                break
        assert events[0]["event"] == "deal" and any(e["event"] == "end" for e in events)
        assert all(isinstance(variant.format_event(e), str) for e in events)


def play_whole_game(variant, game, params) -> None:
    """Every seat's move chosen by its strategy (``params``), each checked to be legal, to the game's end."""
    events: list[dict] = []
    while not game.over:
        while not game.unit_over:
            move = game.bot_move(params)
            assert move in game.legal(), f"{variant.name}: a bot's move {move} is not legal"
            game.play(move)
        finish_unit(game, events)
        assert game.number - variant.first_unit <= variant.last_unit - variant.first_unit + 1


@pytest.mark.parametrize("variant", ALL, ids=IDS)
def test_each_shipped_strategy_plays_legal_moves_and_run_s_rows(variant):
    players = variant.players[2]
    for name in strategies_to_check(variant):
        spec = RunSpec(variant, players, seat_strategies([name], players, variant), seed=SEED, games=1)
        rules, params = spec.rules.to_array(players), params_matrix(spec.strategies)
        game = variant.game(players, rules)
        game.reset(SEED, 0)
        play_whole_game(variant, game, params)
        played, ran = game.chunk(), play_chunk(spec, np.zeros(1, dtype=np.int64), rules, params)
        assert np.array_equal(played.hand_rows, ran.hand_rows), name
        assert np.array_equal(played.seat_rows, ran.seat_rows), name
        assert np.array_equal(played.game_rows, ran.game_rows), name


@pytest.mark.parametrize("variant", ALL, ids=IDS)
def test_replay_ends_each_hand_as_run_s_row(variant):
    players = variant.players[2]
    names = strategies_to_check(variant)[:players]
    spec = RunSpec(variant, players, seat_strategies(names, players, variant), seed=SEED, games=1)
    rules, params = spec.rules.to_array(players), params_matrix(spec.strategies)
    rows = play_chunk(spec, np.zeros(1, dtype=np.int64), rules, params).hand_rows
    table = variant.schemas(players, True)[0]
    for row in rows:
        events = variant.replay(SEED, 0, int(row[table.index(variant.unit)]), players, rules, params)
        assert events[0]["event"] == "deal" and events[-1]["event"] == "end"
        assert events[-1]["outcome"] == OUTCOMES[row[table.index("outcome")]]
        assert events[-1]["winner"] == row[table.index("winner")]


@pytest.mark.parametrize("variant", ALL, ids=IDS)
def test_the_environment_gives_run_s_rows(variant):
    """Two games at the fewest and the default number of players, the shipped strategies mixed."""
    env_module = pytest.importorskip("rummysim.env")
    pytest.importorskip("pettingzoo")
    for players in sorted({variant.players[0], variant.players[2]}):
        names = seated(variant, players)
        spec = RunSpec(variant, players, seat_strategies(names, players, variant), seed=SEED, games=2)
        params = params_matrix(spec.strategies)
        env = getattr(env_module, f"{variant.name}_v0").env(players=players)
        game = env.unwrapped.game
        rows, seats = [], []
        for g in range(2):
            env.reset(seed=SEED) if g == 0 else env.reset()
            while not game.over:
                done = game.units_done
                env.step(game.bot_move(params))
                if game.units_done > done:
                    rows.append(game.unit_rows[0].copy())
                    seats.append(game.unit_rows[1].copy())
        ran = play_chunk(spec, np.arange(2, dtype=np.int64), spec.rules.to_array(players), params)
        assert np.array_equal(np.array(rows), ran.hand_rows), (players, names)
        assert np.array_equal(np.array(seats), ran.seat_rows), (players, names)


@pytest.mark.parametrize("variant", ALL, ids=IDS)
def test_no_seat_decides_or_sees_by_cards_it_cannot_see(variant):
    """Games at the default number of players (as many as give each seat 100 checks), the shipped
    strategies mixed, through the AEC environment: at every 5th decision, each seat in turn gets the cards it cannot see dealt again
    (three times): the seat to act's strategy must choose the same move, and each seat's observation,
    action mask and text must be the same."""
    env_module = pytest.importorskip("rummysim.env")
    pytest.importorskip("pettingzoo")
    players = variant.players[2]
    names = seated(variant, players)
    params = params_matrix(seat_strategies(names, players, variant))
    env = getattr(env_module, f"{variant.name}_v0").raw_env(players=players)
    rng = np.random.default_rng(SEED)
    checked = 0
    for episode_seed in range(SEED, SEED + 50):   # episodes until enough decisions are checked (Gin's are short)
        checked += _redeal_every_5th_decision(env, episode_seed, params, names, rng)
        if checked >= 100 * players:
            break
    assert checked >= 100 * players


def _redeal_every_5th_decision(env, seed, params, names, rng) -> int:
    """One episode of ``env`` from ``seed``, every 5th decision asked again with the hidden cards dealt
    again (``test_no_seat_decides_or_sees_by_cards_it_cannot_see``); returns the seat-decisions checked."""
    env.reset(seed=seed)
    episode = env.game
    game = episode.game   # the variant's Game, which the environment's episode plays
    decisions = checked = 0
    while not episode.over:
        before = game.snapshot()
        move = game.bot_move(params)   # the policy's streams move on: asked again from ``before``
        decisions += 1
        if decisions % 5 == 0:
            chosen = game.snapshot()
            for agent in env.agents:
                q = env.possible_agents.index(agent)
                game.rewind(before)
                seen, text = env.observe(agent), env.describe(agent)
                for _ in range(3):
                    game.rewind(before)
                    game.redeal_hidden(q, rng)
                    observed = env.observe(agent)
                    assert np.array_equal(observed["observation"], seen["observation"]), (agent, decisions)
                    assert np.array_equal(observed["action_mask"], seen["action_mask"]), (agent, decisions)
                    assert env.describe(agent) == text, (agent, decisions)
                    if q == game.seat:
                        assert game.bot_move(params) == move, (names[q], decisions)
                checked += 1
            game.rewind(chosen)
        env.step(move)
        while env.agents and (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            env.step(None)
    return checked
