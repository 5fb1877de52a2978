"""What every variant's run summary is made of: rates and means with their 95% intervals, the words an
estimate is printed with wherever it is printed (terminal and report), and the plain-data state of a
summary accumulator (what a finished chunk keeps so a resumed run adds it back)."""

from __future__ import annotations

import math

import numpy as np

from . import intervals as I

#: an estimate resting on fewer units than this (blocks, games, hands, trials) is printed with its count, "n=8"
FEW_UNITS = 100


def units_note(d: dict) -> str:
    """``" n=8"`` for an estimate (a dict with ``"n"``, the units it rests on) resting on fewer than
    ``FEW_UNITS`` units, else ``""``: printed beside the estimate so a wide interval is read as few units."""
    n = d.get("n")
    return f" n={n:,}" if n is not None and n < FEW_UNITS else ""


def _missing(x) -> bool:
    return x is None or (isinstance(x, (float, np.floating)) and math.isnan(x))


def interval_text(d: dict, show) -> str:
    """An estimate's interval as text, each bound written by ``show``: ``"[lo, hi]"``, or where it has
    none why in words: ``"(no interval: 1 unit)"``, ``"(no interval: all 12 the same)"`` (nan
    bounds on 2 or more units: a mean without spread), ``"(no data)"``."""
    lo, hi = d["ci95"]
    if _missing(lo) or _missing(hi):
        n = d.get("n")
        if not n:
            return "(no data)"
        return "(no interval: 1 unit)" if n == 1 else f"(no interval: all {n:,} the same)"
    return f"[{show(lo)}, {show(hi)}]"


def estimate_text(d: dict, show) -> str:
    """``"est [lo, hi] n=8"`` (``interval_text``, ``units_note``), every number written by ``show``."""
    est = "n/a" if _missing(d["estimate"]) else show(d["estimate"])
    return f"{est} {interval_text(d, show)}{units_note(d)}"


def signed(x: float, digits: int) -> str:
    """``x`` with a sign and ``digits`` decimals, never "-0.0..." (a value that rounds to zero prints +0.0)."""
    text = f"{x:+.{digits}f}"
    return "+" + text[1:] if text.startswith("-") and float(text) == 0 else text


def pp_text(x: float) -> str:
    """A difference of shares in percentage points, ``"+3.50 pp"``, never ``"-0.00 pp"``."""
    return "n/a" if _missing(x) else signed(100 * x, 2) + " pp"


def _est(x: float, lo: float, hi: float, n: int) -> dict:
    return {"estimate": x, "ci95": [lo, hi], "n": n}


def mean_from_sums(total: float, total_sq: float, n: int) -> dict:
    """Mean of ``n`` independent values from their sum and sum of squares, with its Student-t 95%
    interval (``intervals.ratio_ci``: none for one value or no spread), and ``"n"``, the values it
    rests on."""
    return _est(*I.ratio_ci(n, total, n, total_sq, total, n), n)


def share_from_sums(total: float, total_sq: float, n: int) -> dict:
    """Mean of ``n`` independent values in [0, 1] (a seat's share of each game's win) from their sum
    and sum of squares, with the interval of ``intervals.share_ratio_ci``."""
    return _est(*I.share_ratio_ci(n, total, n, total_sq, total, n), n)


def rate(k: int, n: int) -> dict:
    """Proportion ``k / n`` of independent trials with its 95% exact interval (``intervals.proportion_ci``)
    and ``"n"``, the trials it rests on."""
    lo, hi = I.proportion_ci(k, n) if n else (math.nan, math.nan)
    return _est(k / n if n else math.nan, lo, hi, n)


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
