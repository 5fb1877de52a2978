"""Playing environments for learning agents and programs (``pip install "rummysim[env]"``).

* ``basic_v0.env(players=2, ...)``, ``shanghai_v0.env(players=4, ...)``: PettingZoo AEC environments.
* ``single(variant="basic", opponents=["expert"], ...)``: a Gymnasium environment, one learning seat
  against shipped strategies.
* ``Batch(variant, n_tables, players, seed)``: many Basic or Shanghai tables stepped together in the
  compiled core (an episode: a Basic hand, a Shanghai round), actions and masks as NumPy arrays
  (needs neither PettingZoo nor Gymnasium).

See the README, section "Environments", for the observation layout and the action encoding.
"""

import importlib

from .batch import Batch

__all__ = ["Batch", "basic_v0", "shanghai_v0", "single"]


def __getattr__(name):
    """The modules that need the ``[env]`` extra, imported when first used."""
    if name in ("basic_v0", "shanghai_v0"):
        return importlib.import_module(f".{name}", __name__)
    if name == "single":
        return importlib.import_module(".single_agent", __name__).single
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
