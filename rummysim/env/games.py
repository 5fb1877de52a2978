"""A game in play for the environments: the variant's game (``Variant.game``, the one driver of
``rummysim play`` and the environments) as an episode (a game, or for Basic one hand), with the
observation arrays of its ``env_core`` (``Variant.env_core``).

A game is numbered like ``rummysim run``'s: ``reset(seed, game)`` deals what ``run --seed seed``
deals for game index ``game`` (hand after hand, Shanghai round after round), so a game played by
the shipped strategies through these calls gives ``run``'s rows (``tests/test_env.py``).
"""

from __future__ import annotations

import numpy as np

from ..base.errors import MoveError, UsageError
from ..base.rules import rules_from_mapping
from ..base.variant import Variant
from ..strategy import params_matrix, seat_strategies

REWARDS = ("points", "win")


def check_reward(reward: str) -> str:
    if reward not in REWARDS:
        raise UsageError(f"reward = {reward!r}: allowed {', '.join(map(repr, REWARDS))}")
    return reward


def new_seed() -> int:
    """A fresh seed when none is given (0 .. 2**63 - 1)."""
    return int(np.random.SeedSequence().entropy % 2**63)


def resolve_rules(variant: Variant, rules, players: int):
    """The rules object of ``variant`` from None (defaults), a dict of options or a rules object."""
    v = variant
    if rules is None:
        rules = v.rules()
    elif isinstance(rules, dict):
        rules = rules_from_mapping(v, rules)
    if not isinstance(rules, v.rules):
        raise UsageError(f"rules: allowed a {v.rules.__name__}, a dict of rule options or None")
    low, high, _ = v.players
    if not isinstance(players, (int, np.integer)) or not low <= players <= high:
        raise UsageError(f"players = {players!r}: {v.title} takes {low} to {high}")
    rules.check_players(players)
    return rules


def strategy_params(variant: Variant, names, players: int) -> np.ndarray:
    """float64[players, N] parameters of the named strategies (one name for every seat, or one per seat)."""
    return params_matrix(seat_strategies(list(names), players, variant))


def episodes(variant: Variant) -> tuple[str, ...]:
    """What an episode may be: a game, or one hand where the variant plays independent hands."""
    return ("game", "hand") if variant.hands_mode else ("game",)


class Episode:
    """A game (``episode="game"``) or, where the variant has independent hands, one hand
    (``episode="hand"``) of ``variant`` at ``players`` seats; the variant's ``Game`` plays it."""

    def __init__(self, variant: Variant, players: int, rules=None, episode: str = "game"):
        self.variant = variant
        if episode not in episodes(variant):
            raise UsageError(f"episode = {episode!r}: allowed {', '.join(map(repr, episodes(variant)))}")
        self.players, self.episode = players, episode
        self.rules = resolve_rules(variant, rules, players)
        self.game = variant.game(players, self.rules.to_array(players))
        # the game's own calls, bound once (a step reads ``legal`` twice: a call less each time)
        self.legal = self.game.legal            # () -> the seat to act's legal moves, int64
        self.bot_move = self.game.bot_move      # (params) -> the move ``run``'s driver plays
        self.describe = self.game.describe      # (seat) -> what the seat sees, as text
        self.core = variant.env_core
        self.num_actions = self.game.num_actions
        self.obs_size = self.core.obs_size(players)
        self.over = False
        self.units_done = 0   # hands (rounds) finished since the episode began; ``unit_rows``: the last one's rows

    # the game's arrays, for tests and readers of the state
    @property
    def state(self):
        return self.game.state

    @property
    def known(self) -> np.ndarray:
        return self.game.known

    @property
    def unit_rows(self) -> tuple[np.ndarray, np.ndarray]:
        return self.game.rows[-1], self.game.seat_rows[-1]

    def reset(self, seed: int, game: int) -> None:
        self.game.reset(seed, game)
        self.over = False
        self.units_done = 0

    @property
    def seat(self) -> int:
        """The seat to act."""
        return self.game.seat

    def observe(self, seat: int, out: np.ndarray) -> None:
        self.core.observe_game(self.game, seat, out)

    def play(self, move: int):
        """Play the seat to act's legal ``move``. Returns each seat's points of the hand (round) it
        ended (int64[players]) or None; ``self.over`` says whether the episode ended."""
        game = self.game
        game.play(move)
        if not game.unit_over:
            return None
        points = game.finish()
        self.units_done += 1
        self.over = self.episode == "hand" or game.over
        if not self.over:
            game.next_unit()
        return points

    def winners(self) -> list[int]:
        """The episode's winners: a hand's winner (none after a stalemate), else the game's
        (``Game.winners``: Basic's seat that reached the target, Shanghai's lowest totals)."""
        if self.episode == "hand":
            w = self.game.hand_winner()
            return [w] if w >= 0 else []
        return self.game.winners()

    # the game in words for language-model agents (the variant's notation, the one ``rummysim play`` uses)
    def legal_move_names(self) -> list[str]:
        """The names of the seat to act's legal moves, in ``legal()`` order."""
        return [name for _, name in self.variant.notation.legal_move_names(self.game.state)] if not self.over else []

    def parse_move(self, text: str) -> int:
        """The action ``text`` names for the seat to act; ``MoveError`` (one line) if none."""
        if self.over:
            raise MoveError("the episode is over")
        return self.variant.notation.parse_move(self.game.state, text)
