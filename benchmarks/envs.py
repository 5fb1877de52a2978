"""Random-play steps/s of the environments (``rummysim.env``) against RLCard's and OpenSpiel's gin
rummy, each driven from Python the way an agent loop drives it (section ``envs`` of ``run.py``).

A step is one decision played: an AEC ``env.step`` after ``env.last()`` (observation and mask);
a Gymnasium ``env.step`` (the agent's decision; the opponents' moves inside it are not counted);
one table's move in ``Batch.step`` (``n_tables`` per call, Basic or Shanghai); RLCard ``env.step`` after reading its
state's legal actions; OpenSpiel ``state.apply_action`` of a player (chance moves are played but
not counted). Every contender picks uniformly among the legal moves with the same idiom (an index
drawn from a random float), so the figure is the environment's cost, not the picker's.

    python benchmarks/envs.py          # a quick look (1 s per contender), not the README table
"""

from __future__ import annotations

import random
import time

import numpy as np


def _timed(play, seconds: float) -> tuple[float, float]:
    """``play()`` (returns steps played) called until ``seconds`` have passed: steps per second of wall
    time, and per second of the process's CPU time (all its threads; on a shared machine, what a free
    core would give)."""
    steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        steps += play()
    return steps / (time.perf_counter() - start), steps / (time.process_time() - cpu)


def aec(variant: str = "basic", players: int = 2):
    """A function playing one random game through the AEC environment; returns its steps."""
    from rummysim.env import basic_v0, shanghai_v0
    env = (basic_v0 if variant == "basic" else shanghai_v0).env(players=players)
    env.reset(seed=1)
    rng = random.Random(1)

    def play() -> int:
        env.reset()
        steps = 0
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
        return steps
    return play


def gymnasium(opponent: str = "random"):
    """One random episode (a game) of the single-seat Gymnasium environment against ``opponent``."""
    from rummysim.env import single
    env = single("basic", opponents=[opponent])
    env.reset(seed=1)
    rng = random.Random(1)

    def play() -> int:
        obs, _ = env.reset()
        steps, done = 0, False
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            obs, _, done, _, _ = env.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
        return steps
    return play


def batch(variant: str = "basic", n_tables: int = 4096, players: int = 2, threads: int | None = None,
          observe: bool = False):
    """100 random steps of a ``Batch``; with ``observe`` each step also builds every table's observation."""
    from rummysim.env import Batch
    b = Batch(variant, n_tables, players, seed=1, threads=threads)
    rng = np.random.default_rng(1)
    out = b.observe()
    b.step(b.random_actions(rng))

    def play() -> int:
        for _ in range(100):
            b.step(b.random_actions(rng))
            if observe:
                b.observe(out)
        return 100 * n_tables
    return play


def rlcard_gin():
    """One random game of RLCard's ``gin-rummy``; None when RLCard is not installed."""
    try:
        import rlcard
    except ImportError:
        return None
    env = rlcard.make("gin-rummy", config={"seed": 1})
    rng = random.Random(1)

    def play() -> int:
        state, _ = env.reset()
        steps = 0
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[int(rng.random() * len(legal))])
            steps += 1
        return steps
    return play


def openspiel_gin():
    """One random game of OpenSpiel's ``gin_rummy`` (C++); None when ``pyspiel`` is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(1)

    def play() -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])   # uniform deals
                continue
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
            steps += 1
        return steps
    return play


def contenders() -> dict:
    """name -> play function (None: not installed), in the table's order."""
    return {
        "rummysim `basic_v0` AEC (PettingZoo), 2 players": aec("basic", 2),
        "rummysim `shanghai_v0` AEC (PettingZoo), 4 players": aec("shanghai", 4),
        "rummysim `single` (Gymnasium) vs random, agent steps": gymnasium("random"),
        "rummysim `Batch`, 2 players, 4,096 tables, 1 thread": batch(threads=1),
        "rummysim `Batch`, 2 players, 4,096 tables, 2 threads": batch(threads=2),
        "rummysim `Batch`, 2 players, 4,096 tables, 2 threads, with `observe()`": batch(threads=2, observe=True),
        "rummysim `Batch(\"shanghai\")`, 4 players, 1,024 tables, 1 thread": batch("shanghai", 1024, 4, threads=1),
        "rummysim `Batch(\"shanghai\")`, 4 players, 1,024 tables, 2 threads": batch("shanghai", 1024, 4, threads=2),
        "RLCard `gin-rummy`": rlcard_gin(),
        "OpenSpiel `gin_rummy` (C++ engine)": openspiel_gin(),
    }


def measure(seconds: float, rounds: int) -> dict[str, list[tuple[float, float]]]:
    """Steps/s (wall, CPU) of every contender, ``rounds`` rounds of ``seconds`` each, the contenders in
    turn within a round (side by side under the same load); warm-up (compiling) before any timing."""
    plays = contenders()
    for play in plays.values():
        if play is not None:
            _timed(play, 0.2)
    out: dict[str, list[tuple[float, float]]] = {name: [] for name in plays}
    for _ in range(rounds):
        for name, play in plays.items():
            if play is not None:
                out[name].append(_timed(play, seconds))
    return out


if __name__ == "__main__":
    for name, rates in measure(1.0, 1).items():
        print(f"{name}: {rates[0][0]:,.0f} steps/s, {rates[0][1]:,.0f} per CPU-second" if rates
              else f"{name}: not installed")
