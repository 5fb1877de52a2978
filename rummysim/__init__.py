"""rummysim: answer questions about Rummy by playing it millions of times.

The Python API: ``simulate`` plays a run and returns its rows as DataFrames (``Results``); a bad
argument raises ``UsageError`` with one line saying what is allowed."""

from .base.errors import UsageError
from .base.version import __version__
from .run import Results, simulate

__all__ = ["Results", "UsageError", "simulate", "__version__"]
