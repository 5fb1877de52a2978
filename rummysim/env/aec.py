"""The PettingZoo AEC environment over a game of ``games``: ``make(name)`` is ``rummysim.env.<name>_v0``
(``env()`` and ``raw_env()``) for every registered variant.

Agents ``player_0`` .. ``player_{n-1}`` are the seats; ``agent_selection`` is the seat to act
(in Shanghai also a seat offered the upcard to buy). Each agent observes a dict:
``observation`` float32[obs_size] (its seat's view, layout in the variant's ``env_core``)
and ``action_mask`` int8[num_actions] (1 on the legal moves when it is to act, else all 0).

Rewards (``reward=``):

* ``"points"``: when a hand (Shanghai: a round) ends, each agent gets the points it scored in
  it: Basic, the winner its score of rules 1.6, the others 0; Shanghai, minus its penalty points
  of rules 2.7 (the one-turn bonus, negative points, gives a positive reward).
* ``"win"``: when the episode ends, 1 for its winner (Shanghai: ties share 1 equally), 0 for
  the others; nothing for a stalemate hand.

An episode is a game (``episode="game"``: Basic to the target score, Shanghai ten rounds) or,
where the variant plays independent hands (Basic), one hand (``episode="hand"``). ``reset(seed=s)`` starts game index 0 of seed ``s``
and each later ``reset()`` the next game index, dealing what ``rummysim run --seed s`` deals.
"""

from __future__ import annotations

from typing import ClassVar

import types

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from ..base.errors import UsageError
from ..base.variant import Variant
from ..variants import variant_named
from .games import Episode, check_reward, episodes, new_seed


def observation_space(game) -> spaces.Dict:
    return spaces.Dict({
        "observation": spaces.Box(-np.inf, np.inf, (game.obs_size,), np.float32),
        "action_mask": spaces.Box(0, 1, (game.num_actions,), np.int8),
    })


class RummyAEC(AECEnv):
    """A table of ``players`` agents playing ``variant`` (see the module docstring)."""

    metadata: ClassVar[dict] = {"render_modes": [], "is_parallelizable": False}

    def __init__(self, variant: Variant, players: int, rules=None, reward: str = "points", episode: str = "game",
                 render_mode: str | None = None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise UsageError(f"render_mode = {render_mode!r}: allowed None")
        self.metadata = {**self.metadata, "name": f"{variant.name}_v0"}
        self.render_mode = render_mode
        self.reward_kind = check_reward(reward)
        self.game = Episode(variant, players, rules, episode)
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self._index = {a: p for p, a in enumerate(self.possible_agents)}
        space = observation_space(self.game)
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.game.num_actions) for a in self.possible_agents}
        self._seed = None
        self._next_game = 0

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        if seed is not None or self._seed is None:
            self._seed = new_seed() if seed is None else int(seed)
            self._next_game = 0
        self.game.reset(self._seed, self._next_game)
        self._next_game += 1
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.seat]

    def observe(self, agent):
        p = self._index[agent]
        obs = np.empty(self.game.obs_size, dtype=np.float32)
        self.game.observe(p, obs)
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        if not self.game.over and p == self.game.seat:
            mask[self.game.legal()] = 1
        return {"observation": obs, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        if action is None or not (self.game.legal() == action).any():
            raise UsageError(f"action {action!r} is not legal for {agent} (see observe(agent)['action_mask'])")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        points = self.game.play(int(action))
        if points is not None and self.reward_kind == "points":
            sign = -1.0 if self.game.variant.penalty else 1.0
            for a, pts in zip(self.possible_agents, points):
                self.rewards[a] = sign * float(pts)
        if self.game.over:
            if self.reward_kind == "win":
                winners = self.game.winners()
                for w in winners:
                    self.rewards[self.possible_agents[w]] = 1.0 / len(winners)
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[self.game.seat]
        self._accumulate_rewards()

    def describe(self, agent) -> str:
        """What ``agent`` sees, as a few lines of text (hand by suit, table melds numbered, upcard, the others'
        counts and the cards known in their hands, the step, the scores): for language-model agents."""
        return self.game.describe(self._index[agent])

    def legal_move_names(self, agent) -> list[str]:
        """``agent``'s legal moves as text (``"draw stock"``, ``"meld H3 H4 H5"``, ``"discard D9"``), in the
        order of their actions; empty when it is not to act."""
        if agent != self.agent_selection or self.terminations[agent]:
            return []
        return self.game.legal_move_names()

    def parse_move(self, text: str) -> int:
        """The action the text names for the agent to act (the variant's notation); raises
        ``MoveError`` (a ``ValueError``, one line saying why) when it is not a legal move now."""
        return self.game.parse_move(text)

    def render(self):
        return None

    def close(self):
        pass


def _after_reset(name: str):
    """A read of the wrapped environment's attribute ``name``, refused before ``reset`` as PettingZoo's
    wrapper refuses it."""
    def get(self):
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)
    return property(get)


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` with the attributes an agent loop reads at every step
    (``agents``, ``agent_selection``, ``terminations``, ``truncations``, ``rewards``, ``infos``,
    ``last``) read from the environment directly: through the wrapper's generic ``__getattr__`` they
    cost more than the move itself (half the time of a random-play step)."""

    agents = _after_reset("agents")
    agent_selection = _after_reset("agent_selection")
    terminations = _after_reset("terminations")
    truncations = _after_reset("truncations")
    rewards = _after_reset("rewards")
    infos = _after_reset("infos")

    def last(self, observe: bool = True):
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.last(observe)


def make(name: str) -> types.SimpleNamespace:
    """``rummysim.env.<name>_v0``: the AEC environment of the variant ``name``, as a module-like
    namespace of ``raw_env`` and ``env`` (``env`` wraps it in ``OrderEnforcing``, the usual way)."""
    variant = variant_named(name)
    low, high, default = variant.players

    def raw_env(players: int = default, rules=None, reward: str = "points", episode: str = "game",
                render_mode=None) -> RummyAEC:
        return RummyAEC(variant, players, rules, reward, episode, render_mode)

    def env(players: int = default, rules=None, reward: str = "points", episode: str = "game",
            render_mode=None) -> OrderEnforcing:
        return OrderEnforcing(raw_env(players, rules, reward, episode, render_mode))

    words = (f"{variant.title} as a PettingZoo AEC environment: {low}-{high} players (default {default}); "
             f"``rules``: a {variant.rules.__name__}, a dict of rule options or None; ``episode``: "
             + " or ".join(f"``{e!r}``" for e in episodes(variant)) + ".")
    raw_env.__doc__ = words + " Without PettingZoo's order-enforcing wrapper."
    env.__doc__ = words
    return types.SimpleNamespace(__name__=f"{__package__}.{name}_v0", __doc__=words, raw_env=raw_env, env=env)
