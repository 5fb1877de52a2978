"""One learning seat against shipped strategies, as a Gymnasium environment: ``single(...)``.

The agent plays seat ``seat``; every other seat is played by a strategy (a built-in name such as
``"expert"`` or ``"greedy"``, or a strategy file) through the same driver as ``rummysim run``
(the forced draw, else ``policy.choose``). ``step`` plays the agent's move and then the other seats'
moves up to the agent's next decision or the end of the episode.

Observation and action: as one agent of ``basic_v0`` / ``shanghai_v0`` (a dict of ``observation``
and ``action_mask``; ``Discrete(num_actions)``). Rewards and episodes as there (``reward="points"``
or ``"win"``). An action outside the mask ends the episode with reward ``illegal_reward`` and
``info["illegal"] = True`` (Gymnasium's checker and random exploration send such actions). When the
other seats end the episode before the agent's first decision (a hand won on the first turn),
``reset`` returns it over: ``info["over"] = True``, an empty mask; call ``reset`` again.
"""

from __future__ import annotations

from typing import ClassVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..base.errors import UsageError
from ..variants import variant_named
from .aec import observation_space
from .games import Episode, check_reward, new_seed, strategy_params


class SingleEnv(gym.Env):
    """See the module docstring."""

    metadata: ClassVar[dict] = {"render_modes": []}

    def __init__(self, variant: str, opponents=("expert",), players: int | None = None, seat: int = 0,
                 rules=None, reward: str = "points", episode: str = "game", illegal_reward: float = -1.0):
        variant = variant_named(variant)
        if isinstance(opponents, str):
            opponents = [opponents]
        opponents = list(opponents)
        if players is None:
            players = len(opponents) + 1 if len(opponents) > 1 else variant.players[2]
        if len(opponents) not in (1, players - 1):
            raise UsageError(f"opponents: got {len(opponents)} for {players - 1} other seats: give one for all "
                             "or one per seat")
        if not isinstance(seat, (int, np.integer)) or not 0 <= seat < players:
            raise UsageError(f"seat = {seat!r}: allowed 0 to {players - 1}")
        self.game = Episode(variant, players, rules, episode)
        names = opponents * (players - 1) if len(opponents) == 1 else opponents
        self.params = strategy_params(variant, names[:seat] + names[:1] + names[seat:], players)
        self.seat, self.reward_kind, self.illegal_reward = int(seat), check_reward(reward), float(illegal_reward)
        self.sign = -1.0 if self.game.variant.penalty else 1.0
        self.observation_space = observation_space(self.game)
        self.action_space = spaces.Discrete(self.game.num_actions)
        self._seed = None
        self._next_game = 0

    def _obs(self) -> dict:
        obs = np.empty(self.game.obs_size, dtype=np.float32)
        self.game.observe(self.seat, obs)
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        if not self.game.over:
            mask[self.game.legal()] = 1
        return {"observation": obs, "action_mask": mask}

    def _play(self, move: int) -> float:
        """Play ``move`` for the seat to act; the agent's reward from it."""
        points = self.game.play(move)
        r = 0.0
        if points is not None and self.reward_kind == "points":
            r = self.sign * float(points[self.seat])
        if self.game.over and self.reward_kind == "win":
            winners = self.game.winners()
            r = 1.0 / len(winners) if self.seat in winners else 0.0
        return r

    def _others(self) -> float:
        """The other seats' moves up to the agent's turn or the end; the agent's reward from them."""
        r = 0.0
        while not self.game.over and self.game.seat != self.seat:
            r += self._play(self.game.bot_move(self.params))
        return r

    def describe(self) -> str:
        """What the agent's seat sees, as text (see ``aec.RummyAEC.describe``)."""
        return self.game.describe(self.seat)

    def legal_move_names(self) -> list[str]:
        """The agent's legal moves as text, in the order of their actions."""
        return self.game.legal_move_names()

    def parse_move(self, text: str) -> int:
        """The action the text names; ``notation.MoveError`` when it is not a legal move now."""
        return self.game.parse_move(text)

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        if seed is not None or self._seed is None:
            self._seed = new_seed() if seed is None else int(seed)
            self._next_game = 0
        self.game.reset(self._seed, self._next_game)
        self._next_game += 1
        self._others()
        return self._obs(), ({"over": True} if self.game.over else {})

    def step(self, action):
        if self.game.over:
            raise UsageError("step after the episode ended: call reset()")
        if not (self.game.legal() == action).any():
            self.game.over = True
            return self._obs(), self.illegal_reward, True, False, {"illegal": True}
        r = self._play(int(action))
        r += self._others()
        return self._obs(), r, self.game.over, False, {}


def single(variant: str, opponents=("expert",), players: int | None = None, seat: int = 0, rules=None,
           reward: str = "points", episode: str = "game", illegal_reward: float = -1.0) -> SingleEnv:
    """A Gymnasium environment: seat ``seat`` learns against ``opponents`` (one strategy for every other
    seat, or one per seat; ``players`` defaults to the variant's usual table, or one more than the
    opponents given). See ``rummysim.env.single_agent`` for the rest."""
    return SingleEnv(variant, opponents, players, seat, rules, reward, episode, illegal_reward)
