"""``rummysim report``: the statistics tables and plots of saved results, as files and one HTML page.

``write_report`` writes to its directory ``report.html`` (self-contained:
figures embedded as base64 PNG data URIs, the only style inline, no script,
no external reference), every figure as a PNG and every table as CSV (full
precision) and Markdown (formatted, with 95% intervals), and a few hands
(Shanghai: rounds) as pages to step through (``replay_<name>.html``, see
``rummysim.replay_html``), linked from the report. Shanghai results get
the sections of its variant (``Variant.report``, the module ``rummysim.variants.<name>.report``:
its ``sections(page, res)``); a comparison adds the headline, forest plot and crosstable, and every
report links a few replays. Figures are drawn on
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
import time
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from ..analysis import rating as RL
from ..analysis import stats as S
from ..analysis.compare import elo_number, rotation_seats
from ..base.summary import estimate_text, pp_text, signed, units_note
from ..base.errors import UsageError
from ..base.rules import rule_flags
from ..replay_html import game_totals, replay_page
from ..run import ResumeError, rules_of_record, strategies_of_record
from ..strategy import BUILTIN_DIR, params_matrix
from .figures import COLORS, DPI, errorbar, even_label, new_figure, scope, set_title

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure



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
    if res.kind == "compare":   # the command; what it ran with below it (older results: one line of both)
        return "\n".join(m[k] for k in ("reproduce", "provenance") if k in m)
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
    import pandas as pd
    return units_note({"n": None if n is None or pd.isna(n) else int(n)})


#: the ending of a displayed column that holds estimates with their intervals (``display``)
CI_COLUMN = " (95% CI)"


def display(df: pd.DataFrame) -> pd.DataFrame:
    """The table as text: ``x``, ``x_lo``, ``x_hi`` (and ``x_n``, its units) become one column ``x (95% CI)``
    "est [lo, hi]", with " n=8" after it when it rests on fewer than ``FEW_UNITS`` units;
    rates and shares in %, counts with thousands separators."""
    import pandas as pd
    out = {}
    for c in df.columns:
        if c.endswith(("_lo", "_hi")) and c[:-3] in df.columns or c.endswith("_n") and f"{c[:-2]}_lo" in df.columns:
            continue
        if f"{c}_lo" in df.columns:
            units = df[f"{c}_n"] if f"{c}_n" in df.columns else [None] * len(df)
            out[f"{c}{CI_COLUMN}".replace("_", " ")] = [
                f"{_cell(c, e, False)} [{_cell(c, lo, False)}, {_cell(c, hi, False)}]{_units(n)}"
                for e, lo, hi, n in zip(df[c], df[f"{c}_lo"], df[f"{c}_hi"], units)]
        else:
            out[c.replace("_", " ")] = [_cell(c, x) for x in df[c]]
    return pd.DataFrame(out)


def _numeric_columns(d: pd.DataFrame) -> list[str]:
    """The columns of a displayed table whose every cell is a number (they align right, text left)."""
    return [c for c in d.columns if d[c].str.match(r"^[-+]?[\d,.]+(%|e)?").all()]


def markdown(df: pd.DataFrame) -> str:
    """A GitHub Markdown table of the displayed table (text left, numbers right)."""
    d = display(df)
    if d.empty:
        return "(no rows)\n"
    numeric = _numeric_columns(d)
    cell = lambda x: str(x).replace("|", "\\|")  # noqa: E731
    lines = ["| " + " | ".join(d.columns) + " |",
             "|" + "|".join("---:" if c in numeric else ":---" for c in d.columns) + "|"]
    lines += ["| " + " | ".join(cell(x) for x in row) + " |" for row in d.itertuples(index=False)]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- figures


def fig_position_split(res: S.SavedResults) -> Figure:
    """A comparison: each match's share of A in the hands (rounds) it played at each position after the
    dealer (compare.json ``position_split``), with 95% intervals, the 1/k line and " n=8" where an
    estimate rests on fewer than ``FEW_UNITS`` blocks: beside each point for one match; with several
    (their points too close to label) the values are in the table and the fewest blocks in the legend."""
    k, unit = res.players, res.unit
    pairs = res.meta["pairs"]
    fig, (ax,) = new_figure(max(8.5, 2.8 * k), 4.6)
    width = 0.8 / len(pairs)
    for i, (match, p) in enumerate(zip(res.matches(), pairs)):
        split = p.get("position_split", [])
        x = np.array([q["position"] for q in split]) + (i - (len(pairs) - 1) / 2) * width
        est = np.array([100 * q["estimate"] for q in split])
        # one block has no interval ([None, None]): the point alone, its " n=1" beside it
        lo, hi = (np.array([np.nan if q["ci95"][j] is None else 100 * q["ci95"][j] for q in split]) for j in (0, 1))
        fewest = _units(min((q.get("n", p["blocks"]) for q in split), default=None)) if len(pairs) > 1 else ""
        errorbar(ax, x, est, lo, hi, color=COLORS[i % len(COLORS)], label=f"{match}: share of {p['a']}{fewest}")
        if len(pairs) == 1:
            for xi, e, q in zip(x, est, split):
                ax.annotate(f"{e:.2f}%{_units(q.get('n', p['blocks']))}", (xi, e), textcoords="offset points",
                            xytext=(8, 0), va="center", fontsize=8)
    ax.axhline(100 / k, color="grey", linestyle="--", linewidth=1, label=even_label(k))
    who = [S.position_words(q, k) for q in range(k)] if k > 2 else ["A starts", "B starts (A deals)"]
    ax.set_xticks(range(1, k + 1), [f"{q + 1}: {w}" for q, w in enumerate(who)], fontsize=8.5)
    ax.set_xlim(0.4, k + 0.8)
    ax.set_xlabel(f"A's position after the dealer in the {unit} (1 plays first)")
    ax.set_ylabel(f"{unit}s won by A (% of its {unit}s there)")
    fig.legend(fontsize=8, loc="outside lower center", ncols=2)   # below the axes: never over a bar
    blocks = "games" if res.mode == "games" else "deals"
    set_title(fig, f"Who starts: A's share of the {unit}s it played at each position", res,
           f"win 1, no winner 1/{k}; 95% share intervals over duplicate {blocks} (each in all {k} rotations)"
           f"{_unadjusted(len(pairs))}")
    return fig


def fig_forest(res: S.SavedResults, head: pd.DataFrame) -> Figure:
    """Forest plot: each match's win share minus 1/k and points per hand difference, with 95% intervals."""
    fig, axes = new_figure(10, 1.8 + 0.55 * len(head), 2)
    y = np.arange(len(head))
    fair = 1 / res.players
    v = res.variant
    points = points_column(v)
    won = "games" if res.mode == "games" else f"{v.unit}s"   # what the win share counts
    others = " A minus B" if res.players == 2 else "\nA minus the mean of B's seats"   # on a line of its own
    panels = [("win_share", 100, -100 * fair, f"share of {won} won by A minus 1/{res.players} (percentage points)"),
              (points, 1, 0.0, f"{'penalty ' if v.penalty else ''}points per {v.unit},{others}"
                               f"{' (left of 0: A is better)' if v.penalty else ' (points)'}")]
    for ax, (col, scale, shift, xlabel) in zip(axes, panels):
        est = scale * head[col] + shift
        lo, hi = scale * head[f"{col}_lo"] + shift, scale * head[f"{col}_hi"] + shift
        errorbar(ax, y, est, lo, hi, horizontal=True, color=COLORS[0])
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
    set_title(fig, f"Each candidate A against B (paired duplicate {blocks}; win share per {won[:-1]})", res,
           f"95% intervals over duplicate {blocks} (win share: the share interval; points: t)"
           f"{_unadjusted(len(head))}; "
           + ("A is better right of 0 in win share, left of 0 in penalty" if v.penalty else "right of 0: A is better"))
    return fig


def points_column(variant) -> str:
    """The headline's column of A's points per hand (round) minus B's, under the variant's words."""
    return variant.headline_words.get("points_per_hand_diff", "points_per_hand_diff")


def _unadjusted(matches: int) -> str:
    """With several matches: that each interval is the match's own, not adjusted for the many comparisons."""
    return f", each match's own: not adjusted for the {matches} comparisons" if matches > 1 else ""


#: the least the crosstable's colour scale spans on each side of the fair share, in percentage points
CROSSTABLE_MIN_SPREAD = 2.0


def _crosstable_cell(cell: dict) -> str:
    """A played cell of the crosstable: the share and, under it, its interval (one block has none)."""
    lo, hi = cell["ci95"]
    interval = "no interval (1 block)" if lo is None else f"[{100 * lo:.1f}, {100 * hi:.1f}]"
    return f"{100 * cell['estimate']:.1f}%\n{interval}"


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
    fig, (ax,) = new_figure(1.6 + 1.5 * m, 2.0 + 1.2 * m)
    fair = 100 / res.players
    from matplotlib.colors import TwoSlopeNorm   # as report.figures: matplotlib loads when drawing
    # centred on the fair share and scaled to the cells (at least +-2 pp): on 0-100% shares of 46-54%
    # were all white
    played = grid[~np.isnan(grid)]
    spread = max(float(np.abs(played - fair).max()) if played.size else 0.0, CROSSTABLE_MIN_SPREAD)
    norm = TwoSlopeNorm(vcenter=fair, vmin=max(fair - spread, 0.0), vmax=min(fair + spread, 100.0))
    image = ax.imshow(grid, cmap="RdBu", norm=norm)
    for i, row in enumerate(ct["win_share"]):
        for j, cell in enumerate(row):
            text = ("" if i == j else "not played") if cell is None else _crosstable_cell(cell)
            dark = cell is not None and abs(norm(100 * cell["estimate"]) - 0.5) > 0.3
            ax.text(j, i, text, ha="center", va="center", fontsize=8, color="white" if dark else "black")
    ax.set_xticks(range(m), names, rotation=20, ha="right")
    ax.set_yticks(range(m), names)
    ax.set_xlabel("opponent (column)")
    ax.set_ylabel("strategy (row)")
    # the label on two short lines: one long line ran past the colour bar into the title
    fig.colorbar(image, ax=ax, label=f"win share of the row (%)\nfair share {fair:.1f}%", shrink=0.8)
    field = "" if res.players == 2 else f"\n(row in one seat, column in the other {res.players - 1})"
    won = "games" if res.mode == "games" else f"{res.unit}s"
    set_title(fig, f"Crosstable: share of {won} won by row against column{field}", res,
           f"95% intervals{_unadjusted(len(res.meta['pairs']))} (the verdicts are Holm-adjusted)")
    return fig


# ---------------------------------------------------------------- Shanghai figures


# ---------------------------------------------------------------- the page

_STYLE = """
body { font-family: sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0 1em; }
th, td { border: 1px solid #ddd; padding: 3px 7px; text-align: right; } th { background: #f3f3f3; }
td.text, th.text { text-align: left; }
table.wide { width: 100%; } .ci { white-space: nowrap; color: #555; font-size: 0.92em; }
details > table { margin-top: 0.5em; }
pre { background: #f6f6f6; padding: 0.6em; white-space: pre-wrap; word-break: break-all; font-size: 0.85em; }
img { max-width: 100%; } figure { margin: 1em 0; } figcaption { font-size: 0.85em; color: #555; }
.note { color: #8a4b00; }
"""


def _html_table(d: pd.DataFrame, stacked: bool = False) -> str:
    """The displayed table as HTML, numbers right-aligned and text left (as ``markdown``). ``stacked``: a
    table as wide as the page, each interval on a line of its own under its estimate, never broken."""
    numeric = set(_numeric_columns(d)) if len(d) else set()
    cls = {c: "" if c in numeric else ' class="text"' for c in d.columns}
    head = "".join(f"<th{cls[c]}>{_stack(c, stacked, header=True)}</th>" for c in d.columns)
    rows = "".join("<tr>" + "".join(f"<td{cls[c]}>{_stack(x, stacked and c.endswith(CI_COLUMN))}</td>"
                                    for c, x in zip(d.columns, row)) + "</tr>" for row in d.itertuples(index=False))
    wide = ' class="wide"' if stacked else ""
    return f"<table{wide}><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


def _stack(text, stacked: bool, header: bool = False) -> str:
    """A cell (a column's name if ``header``) as HTML: with ``stacked``, an estimate's interval ``[lo, hi]``
    (with its " n=8") or the name's "(95% CI)" goes on a line under it, in a span that does not break."""
    text = html.escape(str(text))
    cut = text.find(CI_COLUMN if header else " [")
    if not stacked or cut < 0:
        return text
    return f'{text[:cut]}<br><span class="ci">{text[cut + 1:]}</span>'


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
        self._table_files(name, title, df)
        self._show(f"{html.escape(title)} <small>({name}.csv, {name}.md)</small>", _html_table(display(df)), collapsed)

    def split_table(self, name: str, title: str, df: pd.DataFrame, parts: list[tuple[str, list[str], bool]]) -> None:
        """Write ``name``.csv and ``name``.md with every column, and show the table as a few tables laid out
        for the page: each part ``(title, columns, collapsed)`` the first column and those ``columns`` (raw
        names, their ``_lo``, ``_hi`` and ``_n`` with them) that the table has, each interval under its estimate."""
        self._table_files(name, title, df)
        first = df.columns[0]
        for i, (words, columns, collapsed) in enumerate(parts):
            chosen = [c for base in columns if base in df.columns and base != first for c in _with_interval(df, base)]
            if chosen:
                files = f" <small>({name}.csv, {name}.md)</small>" if i == 0 else ""
                self._show(html.escape(words) + files, _html_table(display(df[[first, *chosen]]), stacked=True),
                           collapsed)

    def _table_files(self, name: str, title: str, df: pd.DataFrame) -> None:
        self._write(f"{name}.csv", df.to_csv(index=False))
        self._write(f"{name}.md", f"### {title}\n\n{markdown(df)}")

    def _show(self, caption: str, body: str, collapsed: bool) -> None:
        """A table on the page under its caption (HTML), or folded away under it if ``collapsed``."""
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
    lines = [f"<p>{html.escape(scope(res))}.</p>",
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
    page.split_table("headline", "Headline per match", head, _headline_parts(res, head))
    matches = len(head)
    several = (f" Each of the {matches} intervals is its match's own 95% interval, not adjusted for the {matches} "
               "comparisons; the verdicts' p-values are Holm-adjusted." if matches > 1 else "")
    page.figure("forest", fig_forest(res, head), "Forest plot of each candidate against its opponent: estimates "
                "with 95% intervals over duplicate blocks (the share interval for the win share, t for points)." + several)
    page.figure("position_split", fig_position_split(res), "Who starts: A's share by its position after the dealer")
    cross = S.crosstable(res)
    if len(cross):
        page.table("crosstable", "Crosstable with overall ranking (win share of strategy against opponent)", cross)
        page.figure("crosstable", fig_crosstable(res), "Crosstable heatmap: win share of the row strategy against the "
                    "column with its 95% share interval over duplicate blocks" + several)
    if "rating" in res.meta:
        page.table("rating", "Rating list (logistic Elo, 95% interval from the bootstrap; los over next: likelihood "
                   "of superiority over the next one)", RL.table(res.meta["rating"]))
        page.figure("rating", RL.figure(res.meta["rating"], scope(res)), RL.note(res.meta["rating"]))


def _with_interval(df: pd.DataFrame, column: str) -> list[str]:
    """``column`` and the columns of its interval and units (``_lo``, ``_hi``, ``_n``) that ``df`` has."""
    return [c for c in (column, f"{column}_lo", f"{column}_hi", f"{column}_n") if c in df.columns]


def _headline_parts(res: S.SavedResults, head: pd.DataFrame) -> list[tuple[str, list[str], bool]]:
    """The headline as the page shows it (``_Page.split_table``): each match's win share, Elo, points and
    verdict; folded away under it, the rest, and A's share at each position (the figure below has it too)."""
    main = ["win_share", "elo", points_column(res.variant), "verdict", "note"]
    positions = [S.position_column(res.unit, q, res.players) for q in range(1, res.players + 1)]
    interval = {c for base in head.columns for c in _with_interval(head, base)[1:]}
    rest = [c for c in head.columns if c not in {"a", "b", *main, *positions, *interval}]
    return [("Headline per match", main, False),
            ("More of each match: blocks, shares, rates, pairs, variance reduction", rest, True),
            (f"A's share of the {res.unit}s it played at each position after the dealer", positions, True)]


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
        params = params_matrix(seats)
        events = v.replay(seed, row["game"], row["number"], players, rules_array, params)
        totals = (game_totals(v, seed, row["game"], row["number"], players, rules_array, params, events)
                  if res.mode == "games" else None)   # independent hands: one a game, no game to total
        who = f"{seats[row['rotation']].name} in seat {row['rotation']}, " if res.kind == "compare" else ""
        page.link(f"replay_{name}.html", replay_page(v, events, seats, seed, row["game"], row["number"], flags, totals),
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
            import_module(res.variant.report).sections(page, res)
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
