"""What every variant's run summary is made of: rates and means with their 95% intervals, and the
plain-data state of a summary accumulator (what a finished chunk keeps so a resumed run adds it back)."""

from __future__ import annotations

import math

import numpy as np

from .intervals import wilson

Z95 = 1.959963984540054
#: an estimate resting on fewer units than this (blocks, games, hands, trials) is printed with its count, "n=8"
FEW_UNITS = 100


def units_note(d: dict) -> str:
    """``" n=8"`` for an estimate (a dict with ``"n"``, the units it rests on) resting on fewer than
    ``FEW_UNITS`` units, else ``""``: printed beside the estimate so a wide interval is read as few units."""
    n = d.get("n")
    return f" n={n:,}" if n is not None and n < FEW_UNITS else ""


def mean_from_sums(total: float, total_sq: float, n: int) -> dict:
    """Mean of ``n`` independent values from their sum and sum of squares, with a normal 95% interval
    (and ``"n"``, the values it rests on)."""
    if n == 0:
        return {"estimate": math.nan, "ci95": [math.nan, math.nan], "n": 0}
    mean = total / n
    var = max(total_sq / n - mean * mean, 0.0) * n / max(n - 1, 1)
    half = Z95 * math.sqrt(var / n)
    return {"estimate": mean, "ci95": [mean - half, mean + half], "n": n}


def rate(k: int, n: int) -> dict:
    """Proportion ``k / n`` with its 95% Wilson interval (and ``"n"``, the trials it rests on)."""
    lo, hi = wilson(k, n) if n else (math.nan, math.nan)
    return {"estimate": k / n if n else math.nan, "ci95": [lo, hi], "n": n}


def summary_state(summary) -> dict:
    """The counters of a summary accumulator (``RunSummary``, ``ShanghaiSummary``) as plain JSON
    data: what a finished chunk leaves so that a resumed run can add it back."""
    def plain(v):
        if isinstance(v, np.ndarray):
            return v.tolist()
        if hasattr(v, "__dict__"):
            return {k: plain(x) for k, x in vars(v).items()}
        return v
    return {k: plain(v) for k, v in vars(summary).items() if k not in ("players", "strategy_names")}


def add_state(summary, state: dict) -> None:
    """Add the counters of ``state`` (from ``summary_state``) into ``summary``, in place."""
    def add(obj, data):
        for k, v in data.items():
            cur = getattr(obj, k)
            if isinstance(cur, np.ndarray):
                cur += np.asarray(v, dtype=cur.dtype)
            elif hasattr(cur, "__dict__"):
                add(cur, v)
            else:
                setattr(obj, k, cur + v)
    add(summary, state)
