"""``rummysim sweep``: one strategy key varied, each value in a duplicate match against a baseline.

Every value is a comparison against the same baseline, so the p-values of "win share = 1/players" are
Holm-adjusted over the values (family-wise error rate 5%); the intervals are each value's own 95%
intervals, not adjusted for the number of values, and the output says so.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

from ..base import intervals as I
from .compare import _p_text, play_pair, summarise_pair
from ..base.summary import estimate_text, signed
from ..base.terminal import fitted
from ..results import write_json_atomic
from ..base.variant import Variant
from ..run import warm_up
from ..strategy import Strategy
from ..variants import variant_of


def run_sweep(variant: Variant, strategies: list[Strategy], values: list[str], key: str, baseline: Strategy, players: int, seed: int,
              rules, games: int | None, hands: int | None, workers: int | None,
              chunk_size: int | None, out_dir: Path, client=None) -> dict:
    """Estimates with intervals per value; writes sweep.json, sweep.csv and sweep.png to ``out_dir``.
    The points of a Shanghai sweep are penalty points per round (lower is better). ``client``: a
    ``distributed.Client`` whose workers play the matches (``compare.play_pair``): the same figures."""
    if client is None:   # on a cluster the workers compile (or load) the engine
        warm_up(players, variant)
    rows = []
    for value, strategy in zip(values, strategies):
        blocks, _ = play_pair(variant, strategy, baseline, players, seed, rules, games, hands, workers, chunk_size,
                              client=client)
        s = summarise_pair(blocks, players)
        rows.append({"value": value, "win_share": s["win_share"], "points_per_hand_diff": s["points_per_hand_diff"],
                     "blocks": s["blocks"], "hands": s["hands"], "p_value": s["p_value"], "test": s["test"]})
    for row, adjusted in zip(rows, I.holm_adjust([r["p_value"] for r in rows])):
        row["p_holm"] = None if math.isnan(adjusted) else float(adjusted)   # None: no test (intervals.share_test)
    result = {"variant": variant.name, "key": key, "baseline": baseline.name, "strategy": strategies[0].source,
              "players": players,
              "seed": seed, "mode": "games" if games is not None else "hands",
              "count": games if games is not None else hands, "rule_hash": rules.digest(players), "rows": rows,
              "multiple_comparisons": multiple_comparisons_note(len(rows), players)}
    write_json_atomic(out_dir / "sweep.json", result)
    with open(out_dir / "sweep.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["value", "win_share", "win_share_lo", "win_share_hi", "points_per_hand_diff", "pph_lo", "pph_hi",
                    "blocks", "p_value", "p_holm"])
        for r in rows:
            w.writerow([r["value"], r["win_share"]["estimate"], *r["win_share"]["ci95"],
                        r["points_per_hand_diff"]["estimate"], *r["points_per_hand_diff"]["ci95"], r["blocks"],
                        r["p_value"], r["p_holm"]])
    sweep_figure(result).savefig(out_dir / "sweep.png", dpi=110)
    return result


def multiple_comparisons_note(values: int, players: int) -> str:
    """What a sweep of ``values`` values controls for its many comparisons, in words."""
    return (f"{values} values, each against the baseline: the p-values of win share = 1/{players} are "
            f"Holm-adjusted over the {values} (family-wise error 5%); the 95% intervals are each value's own, "
            f"not adjusted for the {values} comparisons")


def sweep_figure(result: dict):
    """Win share and points difference against the swept value, with 95% bands (a matplotlib ``Figure``
    on the Agg canvas, no pyplot state)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    v = variant_of(result)
    rows = result["rows"]
    labels = [r["value"] for r in rows]
    x = range(len(rows))
    fig = Figure(figsize=(10, 4), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, 2)
    for ax, field, ylabel, ref in (
        (axes[0], "win_share", "win share against baseline", 1 / result["players"]),
        (axes[1], "points_per_hand_diff", f"points per {v.unit}, minus baseline's\n{v.points_note.strip()}".strip(),
         0.0),
    ):
        est = [r[field]["estimate"] for r in rows]
        lo = [r[field]["ci95"][0] for r in rows]
        hi = [r[field]["ci95"][1] for r in rows]
        ax.fill_between(x, lo, hi, alpha=0.25, label="95% interval")
        ax.plot(x, est, marker="o", label="estimate")
        ax.axhline(ref, color="grey", linestyle="--", linewidth=1, label="no difference")
        ax.set_xticks(list(x), labels)
        ax.set_xlabel(result["key"])
        ax.set_ylabel(ylabel)
        ax.legend(fontsize=8)
    unit = "deals" if result["mode"] == "hands" else "games"
    fig.suptitle(f"{result['strategy']} vs {result['baseline']}: {result['count']:,} {unit} x {result['players']} "
                 f"seatings per value,\n{result['players']} players, seed {result['seed']}; 95% intervals over {unit} "
                 f"(win share: the share interval; points: t),\neach value's own (not adjusted for the {len(rows)} "
                 f"comparisons)")
    return fig


def render_sweep(result: dict, console) -> None:
    """The sweep as a table, a row per value, and how its p-values are adjusted, within the console's
    width (``terminal.fitted``)."""
    from rich.table import Table

    console = fitted(console)

    v = variant_of(result)
    t = Table(title=f"{result['key']} swept against {result['baseline']} ({v.title}, {result['players']} players, "
                    f"95% intervals)")
    for col in ("value", "win share", f"points per {v.unit} diff{v.points_note}", "blocks", "Holm-adjusted p"):
        t.add_column(col, justify="right")
    for r in result["rows"]:
        ws, pp = r["win_share"], r["points_per_hand_diff"]
        p = ("none: " + r.get("test", "no test").removeprefix("no test: ") if r["p_holm"] is None
             else _p_text(r["p_holm"]).removeprefix("p ").removeprefix("= "))
        t.add_row(r["value"], estimate_text(ws, lambda x: f"{x:.4f}"), estimate_text(pp, lambda x: signed(x, 2)),
                  f"{r['blocks']:,}", p)
    console.print(t)
    console.print(result["multiple_comparisons"])
