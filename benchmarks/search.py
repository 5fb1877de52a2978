"""The search bot's strength against its cost (section ``search`` of run.py; not part of the default run).

    python benchmarks/run.py --only search            # 1,000 duplicate deals per setting, all cores
    python benchmarks/run.py --only search --quick    # 200 deals per setting

For each budget (deals of the unseen cards x playouts per candidate) the shipped Basic
``strategies/search.toml`` with those two keys changed plays ``rummysim compare FILE expert`` at 2
players on the same deals (seed 1): its win share with the 95% t-interval over duplicate blocks and
the hands per second of the comparison. The cost per searched decision is timed apart, on one
thread, through the game driver (``Variant.game``): only the search seat's searched decisions are
inside the timing; the same for the shipped Shanghai ``search`` (``shanghai_cost``, 4 players), and how
near their contracts its deals put the other hands against the real ones (``deal_calibration``).
Writes ``reports/search-strength/strength.csv`` and ``strength.png``.
"""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from rummysim.variants import VARIANTS

BASIC, SHANGHAI = VARIANTS["basic"], VARIANTS["shanghai"]

HERE = Path(__file__).parent
OUT = HERE.parent / "reports" / "search-strength"
SETTINGS = ((8, 1), (16, 2), (32, 2), (32, 4), (64, 4))   # (samples, playouts); the shipped file: 64 x 4
SEED = 1


def budget_file(directory: Path, samples: int, playouts: int) -> Path:
    """The shipped search strategy with ``samples`` and ``playouts`` set, as a file in ``directory``."""
    from rummysim.strategy import builtin_dir

    text = (builtin_dir(BASIC) / "search.toml").read_text()
    text = re.sub(r"^name = .*$", f'name = "search-{samples}x{playouts}"', text, flags=re.M)
    text = re.sub(r"^samples = .*$", f"samples = {samples}", text, flags=re.M)
    text = re.sub(r"^playouts = .*$", f"playouts = {playouts}", text, flags=re.M)
    path = directory / f"search-{samples}x{playouts}.toml"
    path.write_text(text)
    return path


def strength(strategy: Path, deals: int, out: Path) -> dict:
    """``rummysim compare STRATEGY expert --hands DEALS`` (2 players, seed 1): its pair of compare.json."""
    subprocess.run([sys.executable, "-m", "rummysim", "compare", str(strategy), "expert", "--hands", str(deals),
                    "--seed", str(SEED), "--out", str(out)], check=True, stdout=subprocess.DEVNULL)
    data = json.loads((out / "compare.json").read_text())
    pair = data["pairs"][0]
    return {"win_share": pair["win_share"], "hands": pair["hands"], "wall_seconds": data["wall_seconds"]}


def decision_seconds(strategy: Path | str, games: int, variant: str = "basic", players: int = 2,
                     rounds: int = 1) -> tuple[int, float]:
    """(searched decisions, seconds spent in them) of seat 0 playing ``strategy`` against expert in
    every other seat, over the first ``rounds`` hands (rounds) of ``games`` games on one thread, through
    the game driver (``Variant.game``)."""
    from rummysim.strategy import load_strategy, params_matrix
    from rummysim.variants import variant_named

    v = variant_named(variant)
    seats = [load_strategy(str(strategy), VARIANTS[variant])] + [load_strategy("expert", VARIANTS[variant])] * (players - 1)
    params = params_matrix(seats)
    searched = int(params[0, next(k.index for k in v.spec if k.key == "search.decisions")])
    game = v.game(players, v.rules().to_array(players))
    count, seconds = 0, 0.0
    for g in range(games):
        game.reset(SEED, g)
        for r in range(rounds):
            if r:
                game.next_unit()
            while not game.unit_over:
                move = game.forced()
                if move < 0:
                    timed = game.seat == 0 and (searched >> int(game.state.ints[game.I_PHASE])) & 1
                    start = time.perf_counter()
                    move = game.choose(params, game.seat)
                    if timed:
                        seconds += time.perf_counter() - start
                        count += 1
                game.play(move)
            game.finish()
    return count, seconds


def shanghai_cost(games: int) -> str:
    """The shipped Shanghai ``search`` against three ``expert``: its searched decisions' cost on one
    thread over ``games`` whole games (ten rounds), as a line of text."""
    decision_seconds("search", 1, "shanghai", 4)   # compile or load outside the timing
    n, secs = decision_seconds("search", games, "shanghai", 4, rounds=10)
    return (f"Shanghai: the shipped `strategies/shanghai/search.toml` (4 players, against 3 expert, {games} games "
            f"on one thread): {n:,} searched decisions, {1000 * secs / n:.1f} ms each ({n / secs:,.0f} decisions/s).")


def deal_calibration(games: int, steps: tuple[int, ...] = (0, 1, 2, 3)) -> list[str]:
    """How near their contracts the Shanghai search's deals put the other hands: 4 ``expert`` seats
    play ``games`` games (seed 3); at each of seat 0's upcard decisions, for every other seat not yet
    down, the ``distance`` of its real hand against the mean over 16 deals (``search.determinize``)
    with each ``search.build_steps`` in ``steps``. Returns a Markdown table by turns played."""
    import numpy as np

    from rummysim.base.rules import parse_rule_options
    from rummysim.strategy import params_matrix, seat_strategies
    from rummysim.variants.shanghai import bots as B, kernel as K, moves as M, policy as P, search as S, state as ST

    players, deals = 4, 16
    params = params_matrix(seat_strategies(["expert"], players, SHANGHAI))
    scratch = P.new_scratch(players)
    state = M.new_state(players, parse_rule_options(SHANGHAI, []).to_array(players),
                        np.zeros((0, M.EV_WIDTH), dtype=np.int16))
    pool, unseen = np.zeros_like(state.stock), np.zeros(64, np.int64)
    work, rng = np.empty(B.WORK_SIZE, np.int64), np.array([7], dtype=np.uint64)
    rows = []   # turns played, the real distance, then the mean dealt distance per steps
    for game in range(games):
        for round_no in range(1, 11):
            K.start_round(3, game, round_no, state, scratch)
            while not M.is_over(state):
                ints = state.ints
                if ints[ST.I_SEAT] == 0 and ints[ST.I_PHASE] == ST.PH_UPCARD:
                    hands, root_ints, stock = state.hands.copy(), ints.copy(), state.stock.copy()
                    seats = [q for q in range(1, players) if ints[ST.SI_DOWN_TURN_SEAT + q] == 0]
                    dealt = np.zeros((len(steps), len(seats)))
                    for i, n in enumerate(steps):
                        for _ in range(deals):
                            S.determinize(state, 0, hands, root_ints, stock, pool, unseen, n, params, work, rng)
                            dealt[i] += [B.distance_in(hands[q], round_no, False, work) for q in seats]
                    for j, q in enumerate(seats):
                        rows.append([ints[ST.SI_OWN_TURNS_SEAT + q],
                                     B.distance_in(state.hands[q], round_no, False, work), *(dealt[:, j] / deals)])
                M.apply(state, P.choose(state, params, ints[ST.I_SEAT], scratch))
    a = np.array(rows, dtype=float)
    lines = [f"Shanghai deals against real hands (4 `expert` seats, {games} games, seed 3, {len(a):,} hands of seats not "
             f"down at seat 0's upcard decisions, {deals} deals each): mean distance to the contract.", "",
             "| turns the seat has played | hands | real | " + " | ".join(f"build_steps = {n}" for n in steps) + " |",
             "|---" * (3 + len(steps)) + "|"]
    for low, high in ((0, 2), (2, 4), (4, 7), (7, 11), (11, 10_000), (0, 10_000)):
        m = (a[:, 0] >= low) & (a[:, 0] < high)
        label = "all" if high == 10_000 and low == 0 else (f"{low}+" if high == 10_000 else f"{low}-{high - 1}")
        lines.append(f"| {label} | {m.sum():,} | {a[m, 1].mean():.2f} | "
                     + " | ".join(f"{a[m, 2 + i].mean():.2f}" for i in range(len(steps))) + " |")
    return lines


def section_search(quick: bool) -> list[str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    deals = 200 if quick else 1000
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        decision_seconds(budget_file(tmp, 2, 1), 2)   # compile or load outside the timing
        for samples, playouts in SETTINGS:
            f = budget_file(tmp, samples, playouts)
            n, secs = decision_seconds(f, 20 if quick else 60)
            s = strength(f, deals, tmp / f.stem)
            ws = s["win_share"]
            rows.append({"samples": samples, "playouts": playouts, "per_candidate": samples * playouts,
                         "win_share": ws["estimate"], "low": ws["ci95"][0], "high": ws["ci95"][1],
                         "deals": deals, "hands_per_s": s["hands"] / s["wall_seconds"],
                         "decisions_per_s": n / secs, "ms_per_decision": 1000 * secs / n})
            print(f"search {samples}x{playouts}: {rows[-1]}", flush=True)
    OUT.mkdir(parents=True, exist_ok=True)
    with open(OUT / "strength.csv", "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    fig, ax = plt.subplots(figsize=(7, 4.2))
    x = [r["ms_per_decision"] for r in rows]
    y = [r["win_share"] for r in rows]
    err = [[r["win_share"] - r["low"] for r in rows], [r["high"] - r["win_share"] for r in rows]]
    ax.errorbar(x, y, yerr=err, fmt="o-", capsize=4, color="tab:blue")
    for r in rows:
        ax.annotate(f"{r['samples']}x{r['playouts']}", (r["ms_per_decision"], r["high"]), textcoords="offset points",
                    xytext=(0, 5), ha="center", fontsize=8)
    ax.axhline(0.5, color="grey", lw=1, ls="--")
    ax.set_xscale("log")
    ax.set_xlabel("milliseconds per searched decision (one thread, log scale)")
    ax.set_ylabel("win share against expert (hands)")
    ax.set_title(f"Basic Rummy search vs expert, 2 players, {deals:,} duplicate deals per budget\n"
                 "deals of the unseen cards x playouts per candidate; 95% t-intervals over duplicate blocks",
                 fontsize=9)
    fig.tight_layout()
    fig.savefig(OUT / "strength.png", dpi=120)
    lines = [f"`search` (Basic, draws searched, rollout `expert`) against `expert`, 2 players, {deals:,} duplicate "
             f"deals per budget (seed {SEED}, all cores); cost per searched decision on one thread over "
             f"{20 if quick else 60} hands; `reports/search-strength/strength.png`.", "",
             "| deals x playouts | win share vs expert [95%] | hands/s (compare, all cores) | searched decisions/s "
             "(1 thread) | ms per decision |", "|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['samples']} x {r['playouts']} | {r['win_share']:.4f} [{r['low']:.4f}, {r['high']:.4f}] | "
                     f"{r['hands_per_s']:,.1f} | {r['decisions_per_s']:,.0f} | {r['ms_per_decision']:.2f} |")
    lines += ["", shanghai_cost(2 if quick else 10), ""] + deal_calibration(4 if quick else 20)
    return lines


if __name__ == "__main__":
    os.environ.setdefault("NUMBA_NUM_THREADS", str(os.cpu_count()))
    print("\n".join(section_search("--quick" in sys.argv)))
