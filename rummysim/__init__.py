"""rummysim: answer questions about Rummy by playing it millions of times."""

__version__ = "0.1.0"

from .run import Results, simulate  # noqa: E402

__all__ = ["Results", "simulate", "__version__"]
