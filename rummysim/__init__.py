"""rummysim: answer questions about Rummy by playing it millions of times."""

__version__ = "0.1.0"

from .run import Results, UsageError, simulate  # noqa: E402

__all__ = ["Results", "UsageError", "simulate", "__version__"]
