"""Basic Rummy as a PettingZoo AEC environment (docs/rules.md section 1): ``env(players=2, ...)``.

Actions: the flat encoding of ``rummysim.variants.basic.moves`` (1,308 actions); observation:
``rummysim.env.basic_core``; rewards and episodes: ``rummysim.env.aec``.
"""

from .aec import OrderEnforcing, RummyAEC


def raw_env(players: int = 2, rules=None, reward: str = "points", episode: str = "game", render_mode=None):
    """The environment without PettingZoo's order-enforcing wrapper. ``rules``: a ``BasicRules``, a dict
    of rule options (``{"ace": "high_or_low"}``) or None; ``episode``: ``"game"`` or ``"hand"``."""
    return RummyAEC("basic", players, rules, reward, episode, render_mode)


def env(players: int = 2, rules=None, reward: str = "points", episode: str = "game", render_mode=None):
    """``raw_env`` in PettingZoo's order-enforcing wrapper (``aec.OrderEnforcing``), the usual way to build one."""
    return OrderEnforcing(raw_env(players, rules, reward, episode, render_mode))
