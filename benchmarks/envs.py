"""Random-play steps/s of the environments (``rummysim.env``) against OpenSpiel's, RLCard's and
PettingZoo's gin rummy, each driven from Python the way an agent loop drives it (section ``envs`` of
``run.py``). Gin Rummy is the same game in all of them (``gin_v0``, ``Batch("gin")``).

A step is one decision played: an AEC ``env.step`` after ``env.last()`` (observation and mask);
a Gymnasium ``env.step`` (the agent's decision; the opponents' moves inside it are not counted);
one table's move in ``Batch.step`` (``n_tables`` per call); RLCard ``env.step`` after reading its
state's legal actions; OpenSpiel ``state.apply_action`` of a player (chance moves are played but
not counted); PettingZoo's ``gin_rummy_v4`` AEC step as ours. PettingZoo dropped ``gin_rummy_v4``
after 1.24.3, which needs an older Gymnasium than ``rummysim[env]``: it is timed in its own Python
(``PETTINGZOO_GIN_PYTHON``, an interpreter with ``pettingzoo[classic]==1.24.3``) by the same code,
run as ``python envs.py --pettingzoo-gin SECONDS``. Every contender picks uniformly among the legal moves with the same idiom (an index
drawn from a random float), so the figure is the environment's cost, not the picker's.

    python benchmarks/envs.py          # a quick look (1 s per contender), not the README table
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
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
    import rummysim.env
    return _aec_play(getattr(rummysim.env, f"{variant}_v0").env(players=players))


def _aec_play(env):
    """One random game of the AEC environment ``env`` per call; returns its steps."""
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


def pettingzoo_gin_here():
    """One random game of PettingZoo's ``gin_rummy_v4`` in this interpreter (pettingzoo <= 1.24.3)."""
    from pettingzoo.classic import gin_rummy_v4
    return _aec_play(gin_rummy_v4.env())


class External:
    """A contender timed in another interpreter (``python``), the same code run there."""

    def __init__(self, python: str):
        self.python = python

    def rate(self, seconds: float) -> tuple[float, float]:
        out = subprocess.run([self.python, __file__, "--pettingzoo-gin", str(seconds)], capture_output=True,
                             text=True, check=True)
        return tuple(json.loads(out.stdout.splitlines()[-1]))


def pettingzoo_gin():
    """PettingZoo's ``gin_rummy_v4`` in ``PETTINGZOO_GIN_PYTHON``; None when that is not set."""
    python = os.environ.get("PETTINGZOO_GIN_PYTHON")
    return External(python) if python else None


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
        "rummysim `gin_v0` AEC (PettingZoo), Gin Rummy": aec("gin", 2),
        "rummysim `Batch(\"gin\")`, 4,096 tables, 1 thread": batch("gin", threads=1),
        "rummysim `Batch(\"gin\")`, 4,096 tables, 2 threads": batch("gin", threads=2),
        "OpenSpiel `gin_rummy` (C++ engine)": openspiel_gin(),
        "RLCard `gin-rummy`": rlcard_gin(),
        "PettingZoo `gin_rummy_v4` (1.24.3, RLCard's engine)": pettingzoo_gin(),
    }


def measure(seconds: float, rounds: int) -> dict[str, list[tuple[float, float]]]:
    """Steps/s (wall, CPU) of every contender, ``rounds`` rounds of ``seconds`` each, the contenders in
    turn within a round (side by side under the same load); warm-up (compiling) before any timing."""
    plays = contenders()
    for play in plays.values():
        if play is not None and not isinstance(play, External):
            _timed(play, 0.2)
    out: dict[str, list[tuple[float, float]]] = {name: [] for name in plays}
    for _ in range(rounds):
        for name, play in plays.items():
            if isinstance(play, External):
                out[name].append(play.rate(seconds))
            elif play is not None:
                out[name].append(_timed(play, seconds))
    return out


if __name__ == "__main__":
    if sys.argv[1:2] == ["--pettingzoo-gin"]:   # run by ``External`` in the peer's interpreter
        play = pettingzoo_gin_here()
        _timed(play, 0.2)
        print(json.dumps(_timed(play, float(sys.argv[2]))))
        sys.exit(0)
    for name, rates in measure(1.0, 1).items():
        print(f"{name}: {rates[0][0]:,.0f} steps/s, {rates[0][1]:,.0f} per CPU-second" if rates
              else f"{name}: not installed")
