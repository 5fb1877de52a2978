"""The variants of Rummy rummysim plays, one package each (``basic``, ``shanghai``).

Each holds its compiled rules, bots and kernels and its Python side (rules options,
results schema, summary, replay).
"""

from .. import engine  # noqa: F401  (first: Numba's cache directory is set before any kernel is defined)
