"""``rummysim report``: the statistics tables and plots of saved results, as files and one HTML page.

``write_report`` writes to its directory ``report.html`` (self-contained:
figures embedded as base64 PNG data URIs, the only style inline, no script,
no external reference), every figure as a PNG and every table as CSV (full
precision) and Markdown (formatted, with 95% intervals), and a few hands
(Shanghai: rounds) as pages to step through (``replay_<name>.html``, see
``rummysim.replay_html``), linked from the report. Shanghai results get
their own sections (``variants.shanghai.stats``): per round and per game, and for a
comparison the same headline, forest plot and crosstable. Figures are drawn on
matplotlib ``Figure`` objects with the Agg canvas, never through pyplot's
global state.
"""

from __future__ import annotations

import base64
import html
import io
import math
import os
import secrets
import shutil
import textwrap
import time
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure

from ..analysis import rating as RL
from ..analysis import stats as S
from ..analysis.compare import elo_number, rotation_seats
from ..analysis.summary import estimate_text, pp_text, signed, units_note
from ..base.errors import UsageError
from ..base.rules import rule_flags
from ..replay_html import replay_page
from ..run import ResumeError, rules_of_record, strategies_of_record
from ..strategy import BUILTIN_DIR, params_matrix
from ..variants.shanghai import stats as H

DPI = 110
COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
HIST_COVER = 0.999  # histograms show values up to this cumulative share and say how much they leave out


class ReportError(UsageError):
    """The report cannot be written where asked (one line naming the directory)."""


class Written(NamedTuple):
    """What ``write_report`` wrote: the HTML page, every file, and which results were used if chosen among several."""

    html: Path
    files: list[Path]
    note: str | None


# ---------------------------------------------------------------- words and numbers

def reproduce_line(res: S.SavedResults) -> str:
    """The line to reproduce the results: command, rule hash, strategy hashes, hands, wall time.

    A comparison carries its own (compare.json ``reproduce``); for a run it is
    built from run.json: shipped strategies by name, others by path, rule
    options that differ from the defaults as ``--rule`` flags.
    """
    m = res.meta
    if res.kind == "compare":
        return m["reproduce"]
    args = [_strategy_arg(s) for s in m["strategies"]]
    if len(set(args)) == 1:
        args = args[:1]
    command = " ".join([f"rummysim run --variant {res.variant.name} --players {m['players']}",
                        f"--{m['mode']} {m['count']} --seed {m['seed']}", *(f"--strategy {a}" for a in args),
                        *rule_flags(res.variant, m["rules"], m["players"])])
    parts = [command, f"rummysim {m.get('rummysim_version', '?')}",
             f"rules {m['rule_hash']} (rules version {m.get('rules_version', '?')})",
             "strategies " + ", ".join(dict.fromkeys(f"{s['name']} {s['sha256']}" for s in m["strategies"]))]
    if m.get("first"):
        parts.append(f"first game index {m['first']} (Python API only)")
    parts.append(f"{m.get(f'{res.unit}s_played', res.hands_played()):,} {res.unit}s")
    if "wall_seconds" in m:
        parts.append(f"{m['wall_seconds']:.1f} s")
    if m.get("status", "complete") != "complete":
        parts.append(f"status {m['status']}: {m.get('done', 0):,} of {m['count']:,} {m['mode']} done")
    return " | ".join(parts)


def _strategy_arg(s: dict) -> str:
    source = Path(s["source"])
    return s["name"] if source.parent.resolve() == BUILTIN_DIR.resolve() and source.stem == s["name"] else str(source)


def _scope(res: S.SavedResults) -> str:
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
    count = f"{m['count']:,} {m['mode']}" + (" per rotation" if res.kind == "compare" else "")
    return f"{what}, {res.players} players, {count} ({hands:,} {res.unit}s), seed {m['seed']}"


def _pct(x: float, digits: int = 2) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    v = 100 * x
    return f"{v:.{digits}g}%" if 0 < abs(v) < 10 ** -digits else f"{v:.{digits}f}%"


def _num(x, digits: int = 2, whole: bool = True) -> str:
    """A number as text; with ``whole``, a float that is a whole number prints as one (quantiles)."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    if isinstance(x, (int, np.integer)) or (whole and isinstance(x, (float, np.floating)) and float(x).is_integer()):
        return f"{int(x):,}"
    if isinstance(x, (float, np.floating)):
        return f"{x:,.{digits}f}"
    return str(x)


def _cell(column: str, x, whole: bool = True) -> str:
    """One number as text by what its column holds: percentage points, %, Elo or plain."""
    if not isinstance(x, (float, np.floating)):
        return _num(x)
    if column.endswith(("minus_fair", "mean_edge")):
        return pp_text(x)
    if column.startswith("los_"):   # the terminal's words: never "100.00%"; none for the last (no next)
        return "" if math.isnan(x) else RL.los_text(x)
    if ("rate" in column or "share" in column) and not column.startswith("points"):
        return _pct(x)
    if column.startswith("elo"):   # signed, as in the terminal; a clean sweep's infinite Elo is "unbounded"
        return "n/a" if math.isnan(x) else elo_number(x)
    if column.endswith("_diff"):   # A minus B: signed, as in the terminal
        return "n/a" if math.isnan(x) else signed(x, 2)
    return _num(x, 2, whole)


def _units(n) -> str:
    """`` n=8`` beside an estimate resting on fewer than ``FEW_UNITS`` units (blocks, trials), else nothing."""
    return units_note({"n": None if n is None or pd.isna(n) else int(n)})


def display(df: pd.DataFrame) -> pd.DataFrame:
    """The table as text: ``x``, ``x_lo``, ``x_hi`` (and ``x_n``, its units) become one column ``x (95% CI)``
    "est [lo, hi]", with " n=8" after it when it rests on fewer than ``FEW_UNITS`` units;
    rates and shares in %, counts with thousands separators."""
    out = {}
    for c in df.columns:
        if c.endswith(("_lo", "_hi")) and c[:-3] in df.columns or c.endswith("_n") and f"{c[:-2]}_lo" in df.columns:
            continue
        if f"{c}_lo" in df.columns:
            units = df[f"{c}_n"] if f"{c}_n" in df.columns else [None] * len(df)
            out[f"{c} (95% CI)".replace("_", " ")] = [
                f"{_cell(c, e, False)} [{_cell(c, lo, False)}, {_cell(c, hi, False)}]{_units(n)}"
                for e, lo, hi, n in zip(df[c], df[f"{c}_lo"], df[f"{c}_hi"], units)]
        else:
            out[c.replace("_", " ")] = [_cell(c, x) for x in df[c]]
    return pd.DataFrame(out)


def markdown(df: pd.DataFrame) -> str:
    """A GitHub Markdown table of the displayed table (text left, numbers right)."""
    d = display(df)
    if d.empty:
        return "(no rows)\n"
    numeric = [c for c in d.columns if d[c].str.match(r"^[-+]?[\d,.]+(%|e)?").all()]
    cell = lambda x: str(x).replace("|", "\\|")  # noqa: E731
    lines = ["| " + " | ".join(d.columns) + " |",
             "|" + "|".join("---:" if c in numeric else ":---" for c in d.columns) + "|"]
    lines += ["| " + " | ".join(cell(x) for x in row) + " |" for row in d.itertuples(index=False)]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- figures

def _figure(width: float = 9.0, height: float = 4.8, cols: int = 1, rows: int = 1,
            sharex: bool = False) -> tuple[Figure, list]:
    """A figure and its axes, row by row."""
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(rows, cols, sharex=sharex)
    return fig, list(np.atleast_1d(axes).ravel())


def _title(fig: Figure, what: str, res: S.SavedResults, how: str) -> None:
    width = int(fig.get_figwidth() * 12)  # characters of 10.5 pt text across the figure
    fig.suptitle("\n".join([what, *textwrap.wrap(f"{_scope(res)}; {how}", width)]), fontsize=10.5)


def _err(est, lo, hi) -> np.ndarray:
    """Error bar lengths [2, n] from interval bounds: never negative (rounding), 0 where unknown."""
    est, lo, hi = (np.asarray(v, dtype=float) for v in (est, lo, hi))
    return np.clip(np.nan_to_num(np.vstack([est - lo, hi - est])), 0, None)


def _even_label(k: int) -> str:
    return f"1/{k} = {100 / k:.1f}% (even share; stalemates lower it)"


def _rate_interval(res: S.SavedResults) -> str:
    """How a rate's interval is made (``stats._share``): exact for a run; for a comparison, whose
    rotations of one deal are not independent, the share interval over duplicate deals."""
    return "exact" if res.kind == "run" else f"share interval over duplicate {'games' if res.mode == 'games' else 'deals'}"


def _errorbar(ax, x, est, lo, hi, horizontal: bool = False, **kw) -> None:
    err = _err(est, lo, hi)
    if horizontal:
        ax.errorbar(est, x, xerr=err, fmt="o", capsize=4, **kw)
    else:
        ax.errorbar(x, est, yerr=err, fmt="o", capsize=4, **kw)


def _seat_panel(ax, res: S.SavedResults, seats: pd.DataFrame, col: str, ylabel: str, xlabel: str,
                even: str | None, scale: float = 100, fmt: str = "{:.2f}%", dodge: bool = True) -> None:
    """One estimate per seat (and strategy, side by side if ``dodge``; a run has one strategy per seat) with
    its interval bars, written beside each point, and a dashed line at the even share 1/k labelled ``even``
    (none if None)."""
    strategies = list(dict.fromkeys(seats["strategy"]))
    width = 0.8 / len(strategies) if dodge else 0.0
    for i, strategy in enumerate(strategies):
        rows = seats[seats["strategy"] == strategy]
        x = rows["seat"].to_numpy() + (i - (len(strategies) - 1) / 2) * width
        _errorbar(ax, x, scale * rows[col], scale * rows[f"{col}_lo"], scale * rows[f"{col}_hi"],
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
    ax.legend(fontsize=8, loc="best")


def fig_win_rate_by_seat(res: S.SavedResults, seats: pd.DataFrame) -> Figure:
    """Hand (and, for full games, game) win rate per seat with 95% intervals and the 1/k line."""
    has_games = "game_win_rate" in seats.columns
    fig, axes = _figure(10 if has_games else 8, 4.8, 2 if has_games else 1)
    panels = [("win_rate", "hands won (% of hands played in the seat)")]
    if has_games:
        panels.append(("game_win_rate", "games won (% of games)"))
    for ax, (col, ylabel) in zip(axes, panels):
        _seat_panel(ax, res, seats, col, ylabel, "seat (the starting seat rotates with the deal)",
                    _even_label(res.players))
    _title(fig, "Win rate by seat", res, f"points: estimate, bars: 95% interval ({_rate_interval(res)})")
    return fig


def fig_hand_endings(res: S.SavedResults, endings: pd.DataFrame) -> Figure:
    """Share of hands by how they ended, with 95% intervals (one bar colour per match)."""
    groups = list(dict.fromkeys(endings["match"])) if "match" in endings.columns else [None]
    names = list(dict.fromkeys(endings["ending"]))
    fig, (ax,) = _figure(9.5, 1.2 + 0.45 * len(names) * len(groups))
    height = 0.8 / len(groups)
    for i, g in enumerate(groups):
        rows = endings if g is None else endings[endings["match"] == g]
        y = np.arange(len(names)) + (i - (len(groups) - 1) / 2) * height
        rate = 100 * rows["rate"].to_numpy()
        lo, hi = 100 * rows["rate_lo"].to_numpy(), 100 * rows["rate_hi"].to_numpy()
        ax.barh(y, rate, height=height * 0.9, color=COLORS[i % len(COLORS)], alpha=0.8, label=g,
                xerr=_err(rate, lo, hi), capsize=3)
        for yi, r, l, h in zip(y, rate, lo, hi):
            ax.text(max(h, r) + 1, yi, f"{r:.2f}%  [{l:.2f}, {h:.2f}]", va="center", fontsize=8)
    ax.set_yticks(range(len(names)), [n.replace("_", " ") for n in names])
    ax.invert_yaxis()
    ax.set_xlim(0, 125)
    ax.set_xticks(range(0, 101, 20))
    ax.set_xlabel("share of hands (%)")
    if groups != [None]:
        ax.legend(fontsize=8, loc="lower right")
    _title(fig, "How hands end (went out includes going rummy)", res, f"95% intervals ({_rate_interval(res)})")
    return fig


def _histogram(ax, dist: pd.DataFrame, xlabel: str, ylabel: str, bin_width: int = 1) -> str:
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
    return f"{left:,} above {cut} not shown" if left else "all values shown"


def fig_histogram(res: S.SavedResults, dist: pd.DataFrame, what: str, unit: str, xlabel: str) -> Figure:
    """One distribution as a histogram with its mean and median; ``unit`` names what is counted."""
    fig, (ax,) = _figure(8.5, 4.6)
    cut = _histogram(ax, dist, xlabel, f"share of {unit} (%)")
    _title(fig, f"{what} ({int(dist['count'].sum()):,} {unit})", res, cut)
    return fig


def fig_cards_left(res: S.SavedResults, cards: pd.DataFrame, value: pd.DataFrame) -> Figure:
    """Cards and points left in losing hands, side by side."""
    fig, axes = _figure(10, 4.6, 2)
    cuts = [_histogram(axes[0], cards, "cards left in the hand", "share of losing hands (%)"),
            _histogram(axes[1], value, "points of the cards left (A = 1, face cards 10)", "share of losing hands (%)")]
    _title(fig, f"What a losing seat is left holding ({int(cards['count'].sum()):,} losing seat-hands)", res,
           "; ".join(f"{w}: {c}" for w, c in zip(("cards", "points"), cuts)))
    return fig


def fig_convergence(res: S.SavedResults, conv: pd.DataFrame) -> Figure:
    """The main estimate against hands played, with its 95% band."""
    fig, (ax,) = _figure(9, 4.6)
    if res.kind == "compare":
        p = res.meta["pairs"][0]
        played = "games" if res.mode == "games" else "deals"
        what = (f"Win share of {p['a']} against {p['b']} "
                + ("(games won)" if res.mode == "games" else f"(win 1, stalemate 1/{res.players}, loss 0)"))
        how = (f"band: 95% share interval over duplicate {played} (all {res.players} rotations each); "
               "last point: the headline")
        xlabel = f"{played} played, in {played[:-1]} order, each in every rotation (log scale)"
    else:
        what = f"Hand win rate of seat 0 ({res.meta['strategies'][0]['name']})"
        how = "band: 95% exact (Clopper-Pearson) interval"
        xlabel = "hands played, in the order played (log scale)"
    x = conv["deals" if res.kind == "compare" else "hands"]
    ax.fill_between(x, 100 * conv["lo"], 100 * conv["hi"], alpha=0.25, color=COLORS[0], label="95% band")
    ax.plot(x, 100 * conv["estimate"], color=COLORS[0], linewidth=1.3, label="estimate so far")
    even = f"1/{res.players} = {100 / res.players:.1f}% (no difference)" if res.kind == "compare" else _even_label(res.players)
    ax.axhline(100 / res.players, color="grey", linestyle="--", linewidth=1, label=even)
    if len(conv):
        last = conv.iloc[-1]
        ax.axhline(100 * last["estimate"], color=COLORS[1], linestyle=":", linewidth=1,
                   label=f"final {100 * last['estimate']:.2f}% [{100 * last['lo']:.2f}, {100 * last['hi']:.2f}]")
        ax.set_ylim(max(0, min(100 * conv["estimate"].min(), 100 / res.players) - 10),
                    min(100, max(100 * conv["estimate"].max(), 100 / res.players) + 10))   # the 1/k line in view
    ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("estimate so far (%)")
    ax.legend(fontsize=8, loc="upper right")
    _title(fig, f"Convergence: {what}", res, how)
    return fig


def fig_starter(res: S.SavedResults, starter: pd.DataFrame) -> Figure:
    """Win rate by position relative to the dealer, with the 1/k line."""
    fig, (ax,) = _figure(7.5, 4.4)
    x = starter["position"].to_numpy()
    _errorbar(ax, x, 100 * starter["win_rate"], 100 * starter["win_rate_lo"], 100 * starter["win_rate_hi"],
              color=COLORS[0], label="hand win rate")
    for xi, e in zip(x, starter["win_rate"]):
        ax.annotate(f"{100 * e:.2f}%", (xi, 100 * e), textcoords="offset points", xytext=(8, 0), va="center",
                    fontsize=8)
    ax.axhline(100 / res.players, color="grey", linestyle="--", linewidth=1,
               label=_even_label(res.players))
    ax.set_xticks(x, [f"{p}\n{w}" for p, w in zip(x, starter["who"])])
    ax.set_xlim(x.min() - 0.6, x.max() + 0.6)
    ax.set_xlabel("position from the dealer's left (1 = starter, plays first)")
    ax.set_ylabel("hands won (% of all hands)")
    ax.legend(fontsize=8)
    _title(fig, "The starter's advantage", res, f"95% intervals ({_rate_interval(res)})")
    return fig


def _grouped_bars(ax, x, series: list[tuple[str, np.ndarray, np.ndarray, np.ndarray]], fmt: str) -> None:
    """Bars side by side per x, with error bars and the value written inside ("none" where nan)."""
    width = 0.8 / len(series)
    for i, (label, est, lo, hi) in enumerate(series):
        xi = x + (i - (len(series) - 1) / 2) * width
        ax.bar(xi, np.nan_to_num(est), width=width * 0.95, color=COLORS[i], alpha=0.8, label=label,
               yerr=_err(est, lo, hi), capsize=3)
        for xj, e, h in zip(xi, est, hi):
            ax.annotate("none" if math.isnan(e) else fmt.format(e), (xj, np.nanmax([0.0, e, h])),
                        textcoords="offset points", xytext=(0, 3), ha="center", va="bottom", fontsize=8)


def fig_going_rummy(res: S.SavedResults, rummy: pd.DataFrame) -> Figure:
    """Per strategy: rummy's share of its wins and of its points, and the points of a rummy win against
    an ordinary win."""
    fig, axes = _figure(10.5, 4.8, 2)
    x = np.arange(len(rummy))
    cols = lambda c, k=1.0: tuple(k * rummy[n].to_numpy(dtype=float) for n in (c, f"{c}_lo", f"{c}_hi"))  # noqa: E731
    _grouped_bars(axes[0], x, [("share of its winning hands", *cols("rummy_share_of_wins", 100)),
                               ("share of its points", *cols("rummy_share_of_points", 100))], "{:.2f}%")
    axes[0].set_ylabel("going rummy (%)")
    axes[0].set_title("Rummy's share of a strategy's wins and points", fontsize=10)
    _grouped_bars(axes[1], x, [("ordinary win", *cols("points_per_ordinary_win")),
                               ("rummy win (doubled)", *cols("points_per_rummy_win"))], "{:.1f}")
    axes[1].set_ylabel("mean points per winning hand")
    axes[1].set_title("Points of a rummy win vs an ordinary win", fontsize=10)
    for ax in axes:
        ax.set_xticks(x, [f"{s}\n{n:,} rummy wins" for s, n in zip(rummy["strategy"], rummy["rummy_wins"])],
                      fontsize=8.5)
        ax.set_xlabel("strategy")
        ax.set_ylim(0, ax.get_ylim()[1] * 1.3)
        ax.set_xlim(-0.75, len(x) - 0.25)
        ax.legend(fontsize=8, loc="upper center", ncols=2)
    _title(fig, "The value of going rummy", res, f"95% intervals ({_rate_interval(res)} for wins and the share of "
           "points; t over blocks for points per win)")
    return fig


def fig_position_split(res: S.SavedResults) -> Figure:
    """A comparison: each match's share of A in the hands (rounds) it played at each position after the
    dealer (compare.json ``position_split``), with 95% intervals, the 1/k line and " n=8" where an
    estimate rests on fewer than ``FEW_UNITS`` blocks: beside each point for one match; with several
    (their points too close to label) the values are in the table and the fewest blocks in the legend."""
    k, unit = res.players, res.unit
    pairs = res.meta["pairs"]
    fig, (ax,) = _figure(max(8.5, 2.8 * k), 4.6)
    width = 0.8 / len(pairs)
    for i, (match, p) in enumerate(zip(res.matches(), pairs)):
        split = p.get("position_split", [])
        x = np.array([q["position"] for q in split]) + (i - (len(pairs) - 1) / 2) * width
        est = np.array([100 * q["estimate"] for q in split])
        lo, hi = (np.array([100 * q["ci95"][j] for q in split]) for j in (0, 1))
        fewest = _units(min((q.get("n", p["blocks"]) for q in split), default=None)) if len(pairs) > 1 else ""
        _errorbar(ax, x, est, lo, hi, color=COLORS[i % len(COLORS)], label=f"{match}: share of {p['a']}{fewest}")
        if len(pairs) == 1:
            for xi, e, q in zip(x, est, split):
                ax.annotate(f"{e:.2f}%{_units(q.get('n', p['blocks']))}", (xi, e), textcoords="offset points",
                            xytext=(8, 0), va="center", fontsize=8)
    ax.axhline(100 / k, color="grey", linestyle="--", linewidth=1, label=_even_label(k))
    who = [S.position_words(q, k) for q in range(k)] if k > 2 else ["A starts", "B starts (A deals)"]
    ax.set_xticks(range(1, k + 1), [f"{q + 1}: {w}" for q, w in enumerate(who)], fontsize=8.5)
    ax.set_xlim(0.4, k + 0.8)
    ax.set_xlabel(f"A's position after the dealer in the {unit} (1 plays first)")
    ax.set_ylabel(f"{unit}s won by A (% of its {unit}s there)")
    fig.legend(fontsize=8, loc="outside lower center", ncols=2)   # below the axes: never over a bar
    blocks = "games" if res.mode == "games" else "deals"
    _title(fig, f"Who starts: A's share of the {unit}s it played at each position", res,
           f"win 1, no winner 1/{k}; 95% share intervals over duplicate {blocks} (each in all {k} rotations)"
           f"{_unadjusted(len(pairs))}")
    return fig


def fig_forest(res: S.SavedResults, head: pd.DataFrame) -> Figure:
    """Forest plot: each match's win share minus 1/k and points per hand difference, with 95% intervals."""
    fig, axes = _figure(10, 1.8 + 0.55 * len(head), 2)
    y = np.arange(len(head))
    fair = 1 / res.players
    v = res.variant
    points = v.headline_words.get("points_per_hand_diff", "points_per_hand_diff")
    won = "games" if res.mode == "games" else f"{v.unit}s"   # what the win share counts
    others = " A minus B" if res.players == 2 else "\nA minus the mean of B's seats"   # on a line of its own
    panels = [("win_share", 100, -100 * fair, f"share of {won} won by A minus 1/{res.players} (percentage points)"),
              (points, 1, 0.0, f"{'penalty ' if v.penalty else ''}points per {v.unit},{others}"
                               f"{' (left of 0: A is better)' if v.penalty else ' (points)'}")]
    for ax, (col, scale, shift, xlabel) in zip(axes, panels):
        est = scale * head[col] + shift
        lo, hi = scale * head[f"{col}_lo"] + shift, scale * head[f"{col}_hi"] + shift
        _errorbar(ax, y, est, lo, hi, horizontal=True, color=COLORS[0])
        reach = np.abs(np.r_[lo, hi, est])
        span = float(np.max(reach[np.isfinite(reach)], initial=0.0)) * 1.25 or 1.0
        if col == "win_share":   # a share minus 1/k lies in [-100/k, 100 - 100/k]: the axis goes no further
            ax.set_xlim(max(-span, -105 * fair), min(span, 105 * (1 - fair)))
        else:
            ax.set_xlim(-span, span)
        middle = sum(ax.get_xlim()) / 2
        for yi, e, l, h, n in zip(y, est, lo, hi, head[f"{col}_n"]):  # text above the point, towards the middle
            text = estimate_text({"estimate": e, "ci95": [l, h], "n": n}, lambda x: f"{x:+.2f}")
            ax.annotate(text, (e, yi), textcoords="offset points", xytext=(0, 9),
                        ha="right" if e > middle else "left", fontsize=8,
                        bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.8, "pad": 0.5})
        ax.axvline(0, color="grey", linestyle="--", linewidth=1)
        ax.set_yticks(y, [f"{a}\nvs {b}" for a, b in zip(head["a"], head["b"])])
        ax.set_ylim(len(head) - 0.4, -0.6)
        ax.set_xlabel(xlabel)
    blocks = "games" if res.mode == "games" else "deals"
    _title(fig, f"Each candidate A against B (paired duplicate {blocks}; win share per {won[:-1]})", res,
           f"95% intervals over duplicate {blocks} (win share: the share interval; points: t)"
           f"{_unadjusted(len(head))}; "
           + ("A is better right of 0 in win share, left of 0 in penalty" if v.penalty else "right of 0: A is better"))
    return fig


def _unadjusted(matches: int) -> str:
    """With several matches: that each interval is the match's own, not adjusted for the many comparisons."""
    return f", each match's own: not adjusted for the {matches} comparisons" if matches > 1 else ""


def fig_crosstable(res: S.SavedResults) -> Figure:
    """Heatmap of the crosstable: win share of the row strategy against the column strategy."""
    ct = res.meta["crosstable"]
    names = res.strategies
    m = len(names)
    grid = np.full((m, m), np.nan)
    for i, row in enumerate(ct["win_share"]):
        for j, cell in enumerate(row):
            if cell is not None:
                grid[i, j] = 100 * cell["estimate"]
    fig, (ax,) = _figure(1.6 + 1.5 * m, 2.0 + 1.2 * m)
    fair = 100 / res.players
    norm = TwoSlopeNorm(vcenter=fair, vmin=0, vmax=100)
    image = ax.imshow(grid, cmap="RdBu", norm=norm)
    for i, row in enumerate(ct["win_share"]):
        for j, cell in enumerate(row):
            text = "-" if cell is None else (f"{100 * cell['estimate']:.1f}%\n"
                                             f"[{100 * cell['ci95'][0]:.1f}, {100 * cell['ci95'][1]:.1f}]")
            dark = cell is not None and abs(norm(100 * cell["estimate"]) - 0.5) > 0.3
            ax.text(j, i, text, ha="center", va="center", fontsize=8, color="white" if dark else "black")
    ax.set_xticks(range(m), names, rotation=20, ha="right")
    ax.set_yticks(range(m), names)
    ax.set_xlabel("opponent (column)")
    ax.set_ylabel("strategy (row)")
    # the label on two short lines: one long line ran past the colour bar into the title
    fig.colorbar(image, ax=ax, label=f"win share of the row (%)\nfair share {fair:.1f}%", shrink=0.8)
    field = "" if res.players == 2 else f"\n(row in one seat, column in the other {res.players - 1}; - : not played)"
    won = "games" if res.mode == "games" else f"{res.unit}s"
    _title(fig, f"Crosstable: share of {won} won by row against column{field}", res,
           f"95% intervals{_unadjusted(len(res.meta['pairs']))} (the verdicts are Holm-adjusted)")
    return fig


# ---------------------------------------------------------------- Shanghai figures

#: panels of ``fig_per_round``: column, scale, what it shows (rates in % of rounds; per strategy: of its seat-rounds)
ROUND_PANELS = (
    ("contract_met_rate", 100, "contract met (% of seat-rounds)"),
    ("went_out_rate", 100, "went out (% of {of})"),
    ("one_turn_bonus_rate", 100, "went out with the one-turn bonus (% of {of})"),
    ("no_winner_rate", 100, "no winner (% of rounds)"),
    ("mean_penalty", 1, "penalty of a seat that did not go out (points)"),
    ("buys_per_seat", 1, "buys per seat"),
    ("reshuffles_per_round", 1, "reshuffles per round"),
    ("turns_per_round", 1, "turns per round"),
)


def fig_per_round(res: S.SavedResults, rounds: pd.DataFrame) -> Figure:
    """A panel per measure of ``variants.shanghai.stats.per_round`` against the round number, with 95% interval bars;
    one series per strategy if the table has a ``strategy`` column (the last panel then holds the legend)."""
    groups = list(dict.fromkeys(rounds["strategy"])) if "strategy" in rounds.columns else [None]
    panels = [p for p in ROUND_PANELS if p[0] in rounds.columns]
    used = len(panels) + (groups != [None])
    n_rows = math.ceil(used / 2)
    fig, axes = _figure(11, 1.2 + 2.6 * n_rows, 2, n_rows, sharex=True)
    width = 0.6 / len(groups)
    of = "rounds" if groups == [None] else "its seat-rounds"
    for ax, (col, scale, words) in zip(axes, panels):
        for i, g in enumerate(groups):
            rows = rounds if g is None else rounds[rounds["strategy"] == g]
            x = rows["round"].to_numpy() + (i - (len(groups) - 1) / 2) * width
            _errorbar(ax, x, scale * rows[col], scale * rows[f"{col}_lo"], scale * rows[f"{col}_hi"],
                      color=COLORS[i % len(COLORS)], label=g, markersize=4, linestyle="-", linewidth=0.8)
        if col == "went_out_rate" and groups != [None]:
            ax.axhline(100 / res.players, color="grey", linestyle="--", linewidth=1,
                       label=f"1/{res.players} = {100 / res.players:.1f}% (even share)")
        ax.set_title(words.format(of=of), fontsize=10)
        top = ax.get_ylim()[1] * 1.05
        ax.set_ylim(-0.03 * top, top)  # points at 0 in full view
        ax.grid(axis="y", alpha=0.3)
    for ax in axes[len(panels):]:
        ax.axis("off")
    if groups != [None]:
        axes[len(panels)].legend(*axes[1].get_legend_handles_labels(), loc="center", title="strategy", fontsize=9)
    rounds_no = range(1, H.ROUNDS + 1)
    axes[0].set_xticks(rounds_no, [f"{r}\n" + H.contract(r, short=True).replace("+", "\n") for r in rounds_no],
                       fontsize=8.5)
    axes[0].set_xlim(0.4, len(rounds_no) + 0.6)
    for i, ax in enumerate(axes[:len(panels)]):
        if i + 2 >= len(panels):  # the lowest panel of its column
            ax.xaxis.set_tick_params(labelbottom=True)
            ax.set_xlabel("round and contract (S: a set of 3+, R4: a run of 4+)")
    pooled = "seats and matches" if res.kind == "compare" else "seats"
    what = "Per round" + ("" if groups == [None] else f" by strategy (over all its {pooled})")
    _title(fig, what, res, "points: estimate; bars: 95% interval (exact for rates: rounds of one game are not "
           "fully independent, so a little narrow; t over games for means)")
    return fig


def fig_final_totals_by_seat(res: S.SavedResults, seats: pd.DataFrame) -> Figure:
    """Shanghai: win share and mean final total per seat, with their 95% intervals and the 1/k line."""
    fig, axes = _figure(10, 4.8, 2)
    xlabel = "seat (the deal rotates every round)"
    _seat_panel(axes[0], res, seats, "win_share", "share of the games won (%; a tie shares the win)", xlabel,
                f"1/{res.players} = {100 / res.players:.1f}% (even share)", dodge=False)
    # room for the legend; one game has no interval (nan), so the 1/k line sets the scale
    top = np.nanmax([100 * seats["win_share_hi"].max(), 100 / res.players]) * 1.3
    axes[0].set_ylim(-0.03 * top, top)
    _seat_panel(axes[1], res, seats, "mean_total", "mean final total (points; lower is better)", xlabel, None,
                scale=1, fmt="{:.1f}", dodge=False)
    for ax in axes:
        ax.set_xlim(-0.6, res.players - 0.1)  # room for the value beside the last seat's point
    _title(fig, "Win share and final total by seat (lowest total wins)", res,
           "points: estimate, bars: 95% interval over games (win share: the share interval; total: t)")
    return fig


def _bin_width(span: float, bars: int = 40) -> int:
    """The smallest of 1, 2, 5, 10, 20, 25, 50, 100, 200, 250, ... that makes at most ``bars`` bars of ``span``."""
    widths = [w * 10 ** e for e in range(9) for w in ((1, 2, 5) if e == 0 else (1, 2, 2.5, 5))]
    return int(next((w for w in widths if w >= span / bars), span))


def fig_final_totals(res: S.SavedResults, dist: pd.DataFrame) -> Figure:
    """Histograms of final totals, a panel per strategy on one scale, with mean and median."""
    groups = list(dict.fromkeys(dist["strategy"]))
    cols = min(len(groups), 2)
    n_rows = math.ceil(len(groups) / cols)
    fig, axes = _figure(5 * cols + 0.5, 1.4 + 2.8 * n_rows, cols, n_rows, sharex=True)
    width = _bin_width(float(dist["value"].max() - dist["value"].min()))
    cuts = []
    for ax, g in zip(axes, groups):
        d = dist[dist["strategy"] == g]
        cut = _histogram(ax, d, "final total (points; lower is better)", "share of games (%)", width)
        ax.set_title(f"{g} ({int(d['count'].sum()):,} seat-games)", fontsize=10)
        ax.xaxis.set_tick_params(labelbottom=True)
        if cut != "all values shown":
            cuts.append(f"{g}: {cut}")
    for ax in axes[len(groups):]:
        ax.axis("off")
    _title(fig, "Final totals after ten rounds", res,
           f"bars of {width} points; " + ("; ".join(cuts) if cuts else "all values shown"))
    return fig


# ---------------------------------------------------------------- the page

_STYLE = """
body { font-family: sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0 1em; }
th, td { border: 1px solid #ddd; padding: 3px 7px; text-align: right; } th { background: #f3f3f3; }
td:first-child, th:first-child { text-align: left; }
pre { background: #f6f6f6; padding: 0.6em; white-space: pre-wrap; word-break: break-all; font-size: 0.85em; }
img { max-width: 100%; } figure { margin: 1em 0; } figcaption { font-size: 0.85em; color: #555; }
.note { color: #8a4b00; }
"""


class _Page:
    """Collects sections, writes the PNG, CSV and Markdown files as it goes, then the HTML."""

    def __init__(self, out: Path):
        self.out = out
        self.parts: list[str] = []
        self.files: list[Path] = []

    def _write(self, name: str, data: bytes | str) -> None:
        path = self.out / name
        if isinstance(data, str):
            path.write_text(data)
        else:
            path.write_bytes(data)
        self.files.append(path)

    def heading(self, text: str, intro: str = "") -> None:
        """A section title and an optional sentence under it."""
        self.parts.append(f"<h2>{html.escape(text)}</h2>")
        if intro:
            self.parts.append(f"<p>{html.escape(intro)}</p>")

    def table(self, name: str, title: str, df: pd.DataFrame, collapsed: bool = False) -> None:
        """Write ``name``.csv and ``name``.md and show the table (folded away if ``collapsed``)."""
        self._write(f"{name}.csv", df.to_csv(index=False))
        self._write(f"{name}.md", f"### {title}\n\n{markdown(df)}")
        body = display(df).to_html(index=False, border=0, escape=True)
        caption = f"{html.escape(title)} <small>({name}.csv, {name}.md)</small>"
        if collapsed:
            self.parts.append(f"<details><summary>{caption}</summary>{body}</details>")
        else:
            self.parts.append(f"<p><b>{caption}</b></p>{body}")

    def figure(self, name: str, fig: Figure, caption: str) -> None:
        """Write ``name``.png and embed it as a data URI."""
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
        png = buf.getvalue()
        self._write(f"{name}.png", png)
        data = base64.b64encode(png).decode("ascii")
        self.parts.append(f'<figure><img alt="{html.escape(caption)}" src="data:image/png;base64,{data}">'
                          f"<figcaption>{html.escape(caption)} ({name}.png)</figcaption></figure>")

    def link(self, name: str, text: str, words: str) -> None:
        """Write the page ``name`` and list a link to it."""
        self._write(name, text)
        self.parts.append(f'<li><a href="{html.escape(name)}">{html.escape(words)}</a></li>')

    def finish(self, title: str, header: str) -> Path:
        """Write report.html: the title, the header block, then every section in order."""
        page = (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
                f"<style>{_STYLE}</style></head><body>\n<h1>{html.escape(title)}</h1>\n{header}\n"
                + "\n".join(self.parts) + "\n</body></html>\n")
        self._write("report.html", page)
        return self.out / "report.html"


def prepare_report_dir(out_dir: str | Path) -> Path:
    """Check that a report can be written to ``out_dir``, creating nothing; raise ``ReportError`` naming it if not.

    The report is staged in a directory beside ``out_dir`` (see ``write_report``): that is what is tried
    here, in ``out_dir``'s parent or, if that does not exist yet, its nearest existing ancestor.
    """
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise ReportError(f"report directory {out}: exists and is not a directory")
    base = out.absolute().parent
    while not base.exists() and base != base.parent:
        base = base.parent
    try:
        _staging_dir(base, out.name).rmdir()
    except OSError as e:
        raise ReportError(f"report directory {out}: cannot write there ({e.strerror or e})") from None
    return out


def _staging_dir(parent: Path, name: str) -> Path:
    """A new, empty, hidden directory in ``parent`` to write a report into before it is put in place."""
    path = parent / f".{name}.tmp-{os.getpid()}-{secrets.token_hex(4)}"
    path.mkdir()
    return path


def _put_in_place(staged: Path, out: Path) -> None:
    """Move the complete report in ``staged`` to ``out``: a rename if ``out`` is absent (or empty), else
    file by file (other files already in ``out`` are kept), then drop ``staged``."""
    try:
        staged.rename(out)
        return
    except OSError:
        if not out.is_dir():
            raise
    for f in staged.iterdir():
        os.replace(f, out / f.name)
    staged.rmdir()


def _header(res: S.SavedResults) -> str:
    m = res.meta
    rules = ", ".join(f"{k} = {str(v).lower() if isinstance(v, bool) else v}" for k, v in m["rules"].items())
    lines = [f"<p>{html.escape(_scope(res))}.</p>",
             f"<p>Results: <code>{html.escape(str(res.path))}</code> "
             f"({'run.json' if res.kind == 'run' else 'compare.json'}); report written "
             f"{time.strftime('%Y-%m-%d %H:%M')}. Rules: {html.escape(rules)}.</p>"]
    if res.note:
        lines.append(f"<p class=\"note\">{html.escape(res.note)}</p>")
    if m.get("status", "complete") != "complete":
        lines.append(f"<p class=\"note\">This run is {html.escape(m['status'])}: the tables cover the "
                     f"{m.get('done', 0):,} {m['mode']} finished.</p>")
    lines.append(f"<p>{res.variant.interval_note}</p>")
    lines.append(f"<p>To reproduce:</p><pre>{html.escape(reproduce_line(res))}</pre>")
    return "\n".join(lines)


def _compare_sections(page: _Page, res: S.SavedResults) -> None:
    """A comparison's headline per match, forest plot and crosstable (from compare.json)."""
    head = S.headline(res)
    page.heading("Headline", res.variant.compare_intro.format(players=res.players, mode=res.mode,
                                                                   unit=res.mode[:-1]))
    page.table("headline", "Headline per match", head)
    matches = len(head)
    several = (f" Each of the {matches} intervals is its match's own 95% interval, not adjusted for the {matches} "
               "comparisons; the verdicts' p-values are Holm-adjusted." if matches > 1 else "")
    page.figure("forest", fig_forest(res, head), "Forest plot of each candidate against its opponent: estimates "
                "with 95% intervals over duplicate blocks (the share interval for the win share, t for points)" + several)
    page.figure("position_split", fig_position_split(res), "Who starts: A's share by its position after the dealer")
    cross = S.crosstable(res)
    if len(cross):
        page.table("crosstable", "Crosstable with overall ranking (win share of strategy against opponent)", cross)
        page.figure("crosstable", fig_crosstable(res), "Crosstable heatmap: win share of the row strategy against the "
                    "column with its 95% share interval over duplicate blocks" + several)
    if "rating" in res.meta:
        page.table("rating", "Rating list (logistic Elo, 95% interval from the bootstrap; los over next: likelihood "
                   "of superiority over the next one)", RL.table(res.meta["rating"]))
        page.figure("rating", RL.figure(res.meta["rating"], _scope(res)), RL.note(res.meta["rating"]))


def _basic_sections(page: _Page, res: S.SavedResults) -> None:
    """Basic Rummy: win rates, how hands end, going rummy, distributions."""
    seats = S.by_seat(res)
    page.heading("Win rates", "Hands won, lost and stalemated per seat and per strategy; points are the "
                 "points a seat scored (only the winner of a hand scores).")
    page.table("by_seat", "Per seat", seats)
    page.table("by_strategy", "Per strategy, over all its seats (hands = seat-hands)", S.by_strategy(res))
    page.figure("win_rate_by_seat", fig_win_rate_by_seat(res, seats), "Win rate by seat")
    page.figure("convergence", fig_convergence(res, S.convergence(res)), "Convergence of the main win rate")
    starter = S.starter_advantage(res)
    page.table("starter_advantage", "Win rate by position relative to the dealer", starter)
    page.figure("starter_advantage", fig_starter(res, starter), "The starter's advantage")
    page.heading("How hands end")
    endings = S.hand_endings(res)
    page.table("hand_endings", "How hands end", endings)
    page.figure("hand_endings", fig_hand_endings(res, endings), "How hands end")
    page.heading("The value of going rummy")
    rummy = S.going_rummy(res)
    page.table("going_rummy", "Going rummy per strategy", rummy)
    page.figure("going_rummy", fig_going_rummy(res, rummy), "The value of going rummy")
    page.heading("Distributions", "Exact quantiles from the value -> count tables (expand each below).")
    page.table("distribution_summary", "Summary of the distributions", S.distribution_summary(res))
    dist = {q: S.distribution(res, q) for q in S.QUANTITIES}
    page.figure("turns_per_hand", fig_histogram(res, dist["turns_per_hand"], "Turns per hand", "hands",
                                                "turns in the hand (one turn = one player's draw to discard)"),
                "Turns per hand")
    page.figure("points_per_winning_hand",
                fig_histogram(res, dist["points_per_winning_hand"], "Points per winning hand", "won hands",
                              "points scored by the winner (rummy doubled)"),
                "Points per winning hand")
    page.figure("cards_left", fig_cards_left(res, dist["cards_left_per_losing_seat"],
                                             dist["value_left_per_losing_seat"]), "Cards and points left per losing seat")
    if res.mode == "games":
        page.figure("hands_per_game", fig_histogram(res, dist["hands_per_game"], "Hands per game", "games",
                                                    "hands played in the game"),
                    "Hands per game")
    for q, words in S.QUANTITIES.items():
        if len(dist[q]):
            page.table(f"distribution_{q}", f"Distribution: {words}", dist[q], collapsed=True)


def _shanghai_sections(page: _Page, res: S.SavedResults) -> None:
    """Shanghai: a run's final totals and win shares, and per round measures (a run's pooled over its seats;
    by strategy for a comparison, and for a run of several strategies)."""
    if res.kind == "run":
        seats = H.final_totals(res, "seat")
        page.heading("Final totals and win shares", "After ten rounds the lowest total wins; seats tied at the "
                     "lowest share the win. Means over games with 95% intervals (t; the share interval for win shares).")
        page.table("by_seat", "Per seat: games won alone and tied, win share and mean final total", seats)
        page.table("by_strategy", "Per strategy, over all its seats (games = seat-games)",
                   H.final_totals(res, "strategy"))
        page.figure("final_totals_by_seat", fig_final_totals_by_seat(res, seats), "Win share and final total by seat")
        dist = H.final_total_distribution(res)
        page.table("final_total_summary", "Final totals per strategy (exact quantiles)", H.final_total_summary(res))
        page.figure("final_totals", fig_final_totals(res, dist), "Final totals per strategy")
        page.table("distribution_final_total", "Distribution: final totals per strategy", dist[dist["count"] > 0],
                   collapsed=True)
        rounds = H.per_round(res)
        page.heading("Per round", "Each game plays rounds 1-10, one contract each. Rates: of the rounds, or of "
                     "the seat-rounds for the contract; exact intervals, a little narrow as the seats of one round "
                     "are not independent. Penalty: the points added to a seat that did not go out. Means: "
                     "t-intervals over games.")
        page.table("per_round", "Per round", rounds)
        page.figure("per_round", fig_per_round(res, rounds), "Per round measures")
    page.heading("How rounds end", "Went out, or no winner by cause: nothing left to draw (2.6), a blocked table "
                 "(ruling 3.7) or the turn cap (ruling 3.6); exact intervals over rounds.")
    page.table("round_endings", "How rounds end", H.round_endings(res))
    if res.kind == "compare" or len(res.strategies) > 1:
        by = H.per_round(res, "strategy")
        page.heading("Per round by strategy", "Each strategy over all its seat-rounds" + (
            ", pooled over all its matches (A fills one seat, B the others)" if res.kind == "compare" else "")
            + ": contract met, went out and one-turn bonus rates (exact, a little narrow: the rounds of one "
            "game are not independent), the penalty of its seats that did not go out and buys per seat-round "
            "(t-intervals over games).")
        page.table("per_round_by_strategy", "Per round and strategy", by)
        page.figure("per_round_by_strategy", fig_per_round(res, by), "Per round measures by strategy")


def _replay_sections(page: _Page, res: S.SavedResults) -> None:
    """Links to pages that replay a few hands (Shanghai: rounds) move by move: ``stats.sample_units``."""
    v = res.variant
    page.heading(f"Watch a {v.unit}", f"Each page replays one {v.unit} move by move, every hand and the table "
                 "after each move (arrow keys or buttons to step; self-contained, with a little script).")
    try:
        strategies = strategies_of_record(res.meta, "these results were saved")
    except (ResumeError, OSError, ValueError) as e:   # a strategy file gone or changed: its moves would differ
        page.parts.append(f'<p class="note">No {v.unit} can be replayed: {html.escape(str(e))}</p>')
        return
    seed, players = int(res.meta["seed"]), res.players
    rules_array = rules_of_record(res.meta).to_array(players)
    flags = rule_flags(res.variant, res.meta["rules"], players)
    page.parts.append("<ul>")
    for name, words, row in S.sample_units(res):
        seats = _seat_strategies(res, strategies, row)
        events = v.replay(seed, row["game"], row["number"], players, rules_array, params_matrix(seats))
        who = f"{seats[row['rotation']].name} in seat {row['rotation']}, " if res.kind == "compare" else ""
        page.link(f"replay_{name}.html", replay_page(v, events, seats, seed, row["game"], row["number"], flags),
                  f"{words}: game {row['game']}, {v.unit} {row['number']} ({who}{row['turns']} turns)")
    page.parts.append("</ul>")


def _nothing_finished(page: _Page, res: S.SavedResults) -> None:
    """The only section of results that hold no finished hand (Shanghai: round), such as a game of
    ``rummysim play`` quit in its first: there is nothing to count, plot or replay."""
    unit = res.unit
    page.heading(f"No {unit} finished", f"These results hold no finished {unit} (status "
                 f"{res.meta.get('status', 'complete')}): there is nothing to count, plot or replay.")


def _seat_strategies(res: S.SavedResults, strategies: list, row: dict) -> list:
    """The strategy of each seat in the hand of ``row``: a run's seats; in a comparison, A (the pair's first)
    in the seat of the row's rotation and B in every other seat."""
    if res.kind == "run":
        return strategies
    pair = res.meta["pairs"][row["pair"]]
    return rotation_seats(strategies[pair["a_index"]], strategies[pair["b_index"]], res.players, row["rotation"])


#: each variant's sections, by the name its ``Variant.report_sections`` gives
SECTIONS = {"basic_sections": _basic_sections, "shanghai_sections": _shanghai_sections}


def write_report(results: str | Path, out_dir: str | Path) -> Written:
    """Read the results at ``results`` (see ``stats.find_results``) and write the report into ``out_dir``.

    Raises ``stats.ResultsError`` for unreadable results and ``ReportError``
    if ``out_dir`` cannot be written. The report is written to a directory beside ``out_dir`` and
    moved into place only when complete: on any failure nothing is left and a report already in
    ``out_dir`` is untouched.
    """
    res = S.open_results(results)
    out = prepare_report_dir(out_dir)
    made = []  # parent directories created here, removed again on failure
    for parent in reversed(out.absolute().parents):
        if not parent.exists():
            made.append(parent)
    try:
        for parent in made:
            parent.mkdir()
        staged = _staging_dir(out.absolute().parent, out.name)
    except OSError as e:
        _remove_dirs(made)
        raise ReportError(f"report directory {out}: cannot write there ({e.strerror or e})") from None
    try:
        page = _Page(staged)
        if res.hands_played() == 0:
            _nothing_finished(page, res)
        else:
            if res.kind == "compare":
                _compare_sections(page, res)
            SECTIONS[res.variant.report_sections](page, res)
            _replay_sections(page, res)
        kind = "comparison" if res.kind == "compare" else "run"
        page.finish(f"rummysim report: {kind} {res.path.name}", _header(res))
        _put_in_place(staged, out)
    except BaseException as e:
        shutil.rmtree(staged, ignore_errors=True)
        _remove_dirs(made)
        if isinstance(e, OSError) and str(staged) in f"{e.filename} {e.filename2}":  # writing it failed
            raise ReportError(f"report directory {out}: cannot write the report ({e.strerror or e})") from None
        raise
    return Written(out / "report.html", [out / f.name for f in page.files], res.note)


def _remove_dirs(made: list[Path]) -> None:
    for parent in reversed(made):
        try:
            parent.rmdir()
        except OSError:
            pass
