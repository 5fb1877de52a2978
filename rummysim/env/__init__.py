"""Playing environments for learning agents and programs (``pip install "rummysim[env]"``).

* ``<name>_v0.env(players=..., ...)`` for every registered variant (``basic_v0``, ``shanghai_v0``...):
  PettingZoo AEC environments (``aec.make``).
* ``single(variant, opponents=["expert"], ...)``: a Gymnasium environment, one learning seat
  against shipped strategies.
* ``Batch(variant, n_tables, players, seed)``: many tables of a variant stepped together in the
  compiled core (an episode: one hand or round), actions and masks as NumPy arrays (needs neither
  PettingZoo nor Gymnasium).

Each variant's observation layout and action encoding: its ``env_core`` and ``moves`` modules
(``rummysim.variants.<name>``), tabled in docs/environments.md.
"""

from importlib import import_module

from ..variants import NAMES
from .batch import Batch

#: the AEC environments, one per registered variant: ``rummysim.env.basic_v0``...
AEC_NAMES = tuple(f"{name}_v0" for name in NAMES)

__all__ = ["Batch", *AEC_NAMES, "single"]


def __getattr__(name):
    """The environments that need the ``[env]`` extra (PettingZoo, Gymnasium), built when first used."""
    if name in AEC_NAMES:
        return import_module(".aec", __name__).make(name.removesuffix("_v0"))
    if name == "single":
        return import_module(".single_agent", __name__).single
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
