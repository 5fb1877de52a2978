"""What every report figure shares: colours, the figure and its title (what was played, in a few
words), interval bars, per-seat panels and histograms. Used by the report's own sections and by each
variant's report sections (``rummysim.variants.<name>.report``). Figures are matplotlib ``Figure``
objects with the Agg canvas, never pyplot's global state.
"""

from __future__ import annotations

import math
import textwrap
from typing import TYPE_CHECKING

import numpy as np

from ..analysis import stats as S
from ..base.summary import counted

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

DPI = 110
COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
HIST_COVER = 0.999  # histograms show values up to this cumulative share and say how much they leave out


def scope(res: S.SavedResults) -> str:
    """What was played, in a few words: for every title."""
    m = res.meta
    hands = res.hands_played()
    if res.kind == "compare" and len(m["pairs"]) > 1:
        what = f"{len(m['pairs'])} duplicate matches of {', '.join(res.strategies)}"
    elif res.kind == "compare":
        what = f"duplicate match {res.matches()[0]}"
    else:
        names = [s["name"] for s in m["strategies"]]
        what = f"{names[0]} in every seat" if len(set(names)) == 1 else " vs ".join(names)
    count = counted(m["count"], m["mode"]) + (" per rotation" if res.kind == "compare" else "")
    if (m["count"], m["mode"]) != (hands, f"{res.unit}s"):   # not "20,000 hands (20,000 hands)"
        count += f" ({counted(hands, res.unit + 's')})"
    return f"{what}, {res.players} players, {count}, seed {m['seed']}"


def new_figure(width: float = 9.0, height: float = 4.8, cols: int = 1, rows: int = 1,
               sharex: bool = False) -> tuple[Figure, list]:
    """A figure and its axes, row by row."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg   # matplotlib loads when a figure is drawn, not
    from matplotlib.figure import Figure                          # with every command that imports the report
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(rows, cols, sharex=sharex)
    return fig, list(np.atleast_1d(axes).ravel())


def set_title(fig: Figure, what: str, res: S.SavedResults, how: str) -> None:
    width = int(fig.get_figwidth() * 12)  # characters of 10.5 pt text across the figure
    fig.suptitle("\n".join([what, *textwrap.wrap(f"{scope(res)}; {how}", width)]), fontsize=10.5)


def error_lengths(est, lo, hi) -> np.ndarray:
    """Error bar lengths [2, n] from interval bounds: never negative (rounding), 0 where unknown."""
    est, lo, hi = (np.asarray(v, dtype=float) for v in (est, lo, hi))
    return np.clip(np.nan_to_num(np.vstack([est - lo, hi - est])), 0, None)


def even_label(k: int) -> str:
    return f"1/{k} = {100 / k:.1f}% (even share; stalemates lower it)"


def rate_interval(res: S.SavedResults) -> str:
    """How a rate's interval is made (``stats._share``): for a comparison, whose rotations of one deal
    are not independent, the share interval over duplicate deals (games); for a run, exact, but for a
    strategy in several seats the share interval over hands (games)."""
    if res.kind != "run":
        return f"share interval over duplicate {'games' if res.mode == 'games' else 'deals'}"
    return f"exact; a strategy in several seats: the share interval over {'games' if res.mode == 'games' else 'hands'}"


def errorbar(ax, x, est, lo, hi, horizontal: bool = False, **kw) -> None:
    err = error_lengths(est, lo, hi)
    if horizontal:
        ax.errorbar(est, x, xerr=err, fmt="o", capsize=4, **kw)
    else:
        ax.errorbar(x, est, yerr=err, fmt="o", capsize=4, **kw)


def seat_panel(ax, res: S.SavedResults, seats: pd.DataFrame, col: str, ylabel: str, xlabel: str,
                even: str | None, scale: float = 100, fmt: str = "{:.2f}%", dodge: bool = True) -> None:
    """One estimate per seat (and strategy, side by side if ``dodge``; a run has one strategy per seat) with
    its interval bars, written beside each point, and a dashed line at the even share 1/k labelled ``even``
    (none if None)."""
    strategies = list(dict.fromkeys(seats["strategy"]))
    width = 0.8 / len(strategies) if dodge else 0.0
    for i, strategy in enumerate(strategies):
        rows = seats[seats["strategy"] == strategy]
        x = rows["seat"].to_numpy() + (i - (len(strategies) - 1) / 2) * width
        errorbar(ax, x, scale * rows[col], scale * rows[f"{col}_lo"], scale * rows[f"{col}_hi"],
                  color=COLORS[i % len(COLORS)], label=strategy)
        for xi, e in zip(x, rows[col]):
            ax.annotate(fmt.format(scale * e), (xi, scale * e), textcoords="offset points", xytext=(8, 0),
                        va="center", fontsize=8)
    if even is not None:
        ax.axhline(100 / res.players, color="grey", linestyle="--", linewidth=1, label=even)
    ax.set_xticks(range(res.players), [f"seat {q}" for q in range(res.players)])
    ax.set_xlim(-0.6, res.players - 0.4)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    # under the panel, not on it: "best" avoids the points only, and it covered a seat's whisker
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, frameon=False)


def histogram(ax, dist: pd.DataFrame, xlabel: str, ylabel: str, bin_width: int = 1) -> str:
    """Bars of a value -> count table as % of the total, cut at ``HIST_COVER``; returns what was cut, in words.

    With ``bin_width`` > 1 a bar sums that many values from the smallest on;
    the mean and median lines are those of the values themselves.
    """
    counts = dist["count"].to_numpy()
    values = dist["value"].to_numpy()
    n = counts.sum()
    cut = values[min(np.searchsorted(np.cumsum(counts) / n, HIST_COVER), len(values) - 1)]
    shown = values <= cut
    x, heights = values[shown], counts[shown]
    if bin_width > 1:
        heights = np.bincount((x - x[0]) // bin_width, weights=heights)
        x = x[0] + bin_width * np.arange(len(heights)) + (bin_width - 1) / 2
    ax.bar(x, 100 * heights / n, width=float(bin_width), color=COLORS[0], alpha=0.75, edgecolor="white",
           linewidth=0.3)
    mean = float(values @ counts / n)
    median = values[np.searchsorted(np.cumsum(counts) / n, 0.5)]
    ax.axvline(mean, color=COLORS[1], linewidth=1.2, label=f"mean {mean:.2f}")
    ax.axvline(median, color="black", linestyle="--", linewidth=1, label=f"median {median}")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=8)
    left = counts[~shown].sum()
    return f"{left:,} above {cut} (up to {values.max()}) not shown" if left else "all values shown"


def grouped_bars(ax, x, series: list[tuple[str, np.ndarray, np.ndarray, np.ndarray]], fmt: str) -> None:
    """Bars side by side per x, with error bars and the value written inside ("none" where nan)."""
    width = 0.8 / len(series)
    for i, (label, est, lo, hi) in enumerate(series):
        xi = x + (i - (len(series) - 1) / 2) * width
        ax.bar(xi, np.nan_to_num(est), width=width * 0.95, color=COLORS[i], alpha=0.8, label=label,
               yerr=error_lengths(est, lo, hi), capsize=3)
        for xj, e, h in zip(xi, est, hi):
            ax.annotate("none" if math.isnan(e) else fmt.format(e), (xj, np.nanmax([0.0, e, h])),
                        textcoords="offset points", xytext=(0, 3), ha="center", va="bottom", fontsize=8)


def bin_width(span: float, bars: int = 40) -> int:
    """The smallest of 1, 2, 5, 10, 20, 25, 50, 100, 200, 250, ... that makes at most ``bars`` bars of ``span``."""
    widths = [w * 10 ** e for e in range(9) for w in ((1, 2, 5) if e == 0 else (1, 2, 2.5, 5))]
    return int(next((w for w in widths if w >= span / bars), span))


def fig_hand_endings(res: S.SavedResults, endings: pd.DataFrame, title: str = "How hands end",
                     short: dict[str, str] | None = None) -> Figure:
    """Share of hands by how they ended (``endings``: a row per ending, and per match in a comparison),
    with 95% intervals (one bar colour per match); each ending labelled ``short[name]``, else its name
    in words. Basic Rummy's and Gin Rummy's figure."""
    short = short or {}
    groups = list(dict.fromkeys(endings["match"])) if "match" in endings.columns else [None]
    names = list(dict.fromkeys(endings["ending"]))
    fig, (ax,) = new_figure(9.5, 1.2 + 0.45 * len(names) * len(groups))
    height = 0.8 / len(groups)
    for i, g in enumerate(groups):
        rows = endings if g is None else endings[endings["match"] == g]
        y = np.arange(len(names)) + (i - (len(groups) - 1) / 2) * height
        rate = 100 * rows["rate"].to_numpy()
        lo, hi = 100 * rows["rate_lo"].to_numpy(), 100 * rows["rate_hi"].to_numpy()
        ax.barh(y, rate, height=height * 0.9, color=COLORS[i % len(COLORS)], alpha=0.8, label=g,
                xerr=error_lengths(rate, lo, hi), capsize=3)
        for yi, r, l, h in zip(y, rate, lo, hi):
            ax.text(max(h, r) + 1, yi, f"{r:.2f}%  [{l:.2f}, {h:.2f}]", va="center", fontsize=8)
    ax.set_yticks(range(len(names)), [short.get(n, n.replace("_", " ")) for n in names])
    ax.invert_yaxis()
    ax.set_xlim(0, 125)
    ax.set_xticks(range(0, 101, 20))
    ax.set_xlabel("share of hands (%)")
    if groups != [None]:
        ax.legend(fontsize=8, loc="lower right")
    set_title(fig, title, res, f"95% intervals ({rate_interval(res)})")
    return fig


def fig_histogram(res: S.SavedResults, dist: pd.DataFrame, what: str, unit: str, xlabel: str) -> Figure:
    """One distribution as a histogram with its mean and median; ``unit`` names what is counted."""
    fig, (ax,) = new_figure(8.5, 4.6)
    cut = histogram(ax, dist, xlabel, f"share of {unit} (%)")
    set_title(fig, f"{what} ({int(dist['count'].sum()):,} {unit})", res, cut)
    return fig
