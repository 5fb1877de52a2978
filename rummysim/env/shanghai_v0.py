"""Shanghai Rummy as a PettingZoo AEC environment (docs/rules.md section 2): ``env(players=4, ...)``.

Actions: the flat encoding of ``rummysim.variants.shanghai.moves`` (135,270 actions; ``CONTRACT``
lays the laying that the action mask's listing found, see that module); observation:
``rummysim.env.shanghai_core``; rewards and episodes: ``rummysim.env.aec``.
"""

from .aec import OrderEnforcing, RummyAEC


def raw_env(players: int = 4, rules=None, reward: str = "points", render_mode=None):
    """The environment without PettingZoo's order-enforcing wrapper; an episode is a game of ten rounds.
    ``rules``: a ``ShanghaiRules``, a dict of rule options or None."""
    return RummyAEC("shanghai", players, rules, reward, "game", render_mode)


def env(players: int = 4, rules=None, reward: str = "points", render_mode=None):
    """``raw_env`` in PettingZoo's order-enforcing wrapper (``aec.OrderEnforcing``), the usual way to build one."""
    return OrderEnforcing(raw_env(players, rules, reward, render_mode))
