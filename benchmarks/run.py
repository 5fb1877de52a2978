"""Throughput benchmarks of the Basic and Shanghai Rummy engines; writes benchmarks/README.md.

    python benchmarks/run.py                  # everything (about 9 minutes on 2 cores)
    python benchmarks/run.py --quick          # fewer hands and rounds, no 1M-game run
    python benchmarks/run.py --only shanghai  # just the Shanghai rows (under a minute)

Measured, each with warm-up outside the timing and the median of repeats:
hands/s on one core for 2, 3, 4 players with greedy and random; compile time
cold (empty Numba cache, in a fresh process) and cached; the wall time of
``rummysim run --games 1000000`` (2 players, defaults, all cores, warm cache,
results saved); Shanghai rounds/s on one core for 3, 4, 6, 8 players with
greedy (default rules). The tables go to stdout and to benchmarks/README.md
with the machine and versions; ``--only shanghai`` replaces the Shanghai rows
there and keeps the rest as last measured.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).parent


def hands_per_second(players: int, strategy: str, hands: int, repeats: int) -> float:
    """Median hands/s on one thread for independent hands."""
    import numba
    import numpy as np

    from rummysim.run import RunSpec, play_chunk
    from rummysim.strategy import params_matrix, seat_strategies

    numba.set_num_threads(1)
    spec = RunSpec(players, seat_strategies([strategy], players), seed=1, hands=hands)
    rules, params = spec.rules.to_array(players), params_matrix(spec.strategies)
    play_chunk(spec, np.arange(100, dtype=np.int64), rules, params)  # warm-up
    times = []
    for r in range(repeats):
        games = np.arange(r * hands, (r + 1) * hands, dtype=np.int64)
        start = time.perf_counter()
        play_chunk(spec, games, rules, params)
        times.append(time.perf_counter() - start)
    return hands / statistics.median(times)


def rounds_per_second(players: int, strategy: str, games: int, repeats: int) -> float:
    """Median Shanghai rounds/s on one thread, whole games of ten rounds, default rules."""
    import numba
    import numpy as np

    from rummysim.run import RunSpec, play_chunk
    from rummysim.strategy import params_matrix, seat_strategies

    numba.set_num_threads(1)
    spec = RunSpec(players, seat_strategies([strategy], players, "shanghai"), seed=1, games=games,
                   variant="shanghai")
    rules, params = spec.rules.to_array(players), params_matrix(spec.strategies)
    play_chunk(spec, np.arange(10, dtype=np.int64), rules, params)  # warm-up
    times = []
    for r in range(repeats):
        game_ids = np.arange(r * games, (r + 1) * games, dtype=np.int64)
        start = time.perf_counter()
        play_chunk(spec, game_ids, rules, params)
        times.append(time.perf_counter() - start)
    return 10 * games / statistics.median(times)


#: first line of the Shanghai section of README.md (always the last section)
SHANGHAI_HEAD = "Shanghai Rummy, measured"


def shanghai_lines(games: int, repeats: int) -> list[str]:
    lines = ["", f"{SHANGHAI_HEAD} {time.strftime('%Y-%m-%d')} on {machine()}.", "",
             "| what | players | greedy |", "|---|---|---|"]
    for players in (3, 4, 6, 8):
        g = rounds_per_second(players, "greedy", games, repeats)
        lines.append(f"| Shanghai rounds/s on one core (median of {repeats} x {10 * games:,} rounds) "
                     f"| {players} | {g:,.0f} |")
        print(lines[-1], flush=True)
    return lines


def compare_vs_run(hands: int, repeats: int) -> tuple[float, float]:
    """Hands/s (all cores) of ``compare greedy rummy-seeker`` and of ``run`` with the same two strategies."""
    import statistics as st

    from rummysim.compare import play_pair
    from rummysim.rules import BasicRules
    from rummysim.run import RunSpec, iter_chunks, warm_up
    from rummysim.strategy import load_strategy

    a, b = load_strategy("greedy"), load_strategy("rummy-seeker")
    warm_up(2)
    run_t, cmp_t = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        for _chunk in iter_chunks(RunSpec(2, [a, b], seed=3, hands=2 * hands)):
            pass
        run_t.append(time.perf_counter() - start)
        start = time.perf_counter()
        play_pair(a, b, 2, 3, BasicRules(), None, hands)
        cmp_t.append(time.perf_counter() - start)
    return 2 * hands / st.median(run_t), 2 * hands / st.median(cmp_t)


def compile_seconds(cache_dir: str) -> float:
    """Seconds to compile (or load) the kernels in a fresh process using ``cache_dir``."""
    code = "from rummysim.run import warm_up; print(warm_up(2))"
    env = {**os.environ, "NUMBA_CACHE_DIR": cache_dir}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def million_games(out_dir: str) -> dict:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "rummysim", "run", "--games", "1000000", "--out", out_dir,
                          "--overwrite", "--json"], capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    record = json.loads(out.stdout)
    return {"process_wall": wall, "run_wall": record["wall_seconds"], "hands": record["hands_played"],
            "compile": record["compile_seconds"]}


def machine() -> str:
    import numba
    import numpy
    import pandas
    import pyarrow

    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"{cpu}, {os.cpu_count()} cores; {platform.system()} {platform.release()}; Python {platform.python_version()}, "
            f"numba {numba.__version__}, numpy {numpy.__version__}, pandas {pandas.__version__}, pyarrow {pyarrow.__version__}")


INTRO = [
    "# Benchmarks", "",
    "Re-measure with `python benchmarks/run.py` (about 9 minutes on 2 cores; `--quick` skips the",
    "million games; `--only shanghai` re-measures the Shanghai rows alone). Every figure is a median",
    "over repeats with warm-up outside the timing. The machine is shared and noisy: compare ratios",
    "and medians, not single timings.", "",
    "Targets (issue 2): at least 50,000 hands/s on one core for 2-player greedy; `rummysim run",
    "--games 1000000` within 60 s wall with a warm compile cache, results saved. Issue 3: a",
    "comparison costs no more than twice the hands/s of `run` with the same strategies.",
    "Shanghai: at least 1,000 rounds/s on one core for 4-player greedy (aim 5,000).", "",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer hands, skip the 1M-game run")
    parser.add_argument("--only", choices=("shanghai",),
                        help="measure only this section; the other rows of README.md are kept")
    args = parser.parse_args()
    hands, repeats = (20_000, 3) if args.quick else (100_000, 5)
    shanghai_games = 100 if args.quick else 300
    readme = HERE / "README.md"
    if args.only == "shanghai":
        old = readme.read_text().splitlines() if readme.exists() else []
        body = old[next((i for i, line in enumerate(old) if line.startswith("Measured ")), len(old)):]
        cut = next((i for i, line in enumerate(body) if line.startswith(SHANGHAI_HEAD)), len(body))
        while cut > 0 and not body[cut - 1].strip():
            cut -= 1
        readme.write_text("\n".join(INTRO + body[:cut] + shanghai_lines(shanghai_games, repeats)) + "\n")
        return
    lines = [f"Measured {time.strftime('%Y-%m-%d')} on {machine()}.", "",
             "| what | players | greedy | random |", "|---|---|---|---|"]
    for players in (2, 3, 4):
        g = hands_per_second(players, "greedy", hands, repeats)
        r = hands_per_second(players, "random", hands, repeats)
        lines.append(f"| hands/s on one core (median of {repeats} x {hands:,}) | {players} | {g:,.0f} | {r:,.0f} |")
        print(lines[-1], flush=True)
    run_rate, cmp_rate = compare_vs_run(hands, repeats)
    lines += ["", "| greedy vs rummy-seeker, 2 players, all cores | hands/s |", "|---|---|",
              f"| `run` (median of {repeats} x {2 * hands:,} hands) | {run_rate:,.0f} |",
              f"| `compare`, duplicate deals (same hands) | {cmp_rate:,.0f} |",
              f"| compare / run | {cmp_rate / run_rate:.2f} |"]
    print("\n".join(lines[-5:]), flush=True)
    with tempfile.TemporaryDirectory() as cache:
        cold = compile_seconds(cache)
        warm = statistics.median(compile_seconds(cache) for _ in range(3))
    lines += ["", "| compile | seconds |", "|---|---|", f"| cold (empty cache) | {cold:.1f} |",
              f"| cached (median of 3) | {warm:.2f} |"]
    print("\n".join(lines[-4:]), flush=True)
    if not args.quick:
        runs = []
        for _ in range(3):  # the machine is noisy: median and range of three runs
            with tempfile.TemporaryDirectory() as out:
                runs.append(million_games(out))
        run_walls = sorted(m["run_wall"] for m in runs)
        process_walls = sorted(m["process_wall"] for m in runs)
        lines += ["", "| `rummysim run --games 1000000` (2 players, defaults, all cores, warm cache; 3 runs) | |",
                  "|---|---|", f"| hands played | {runs[0]['hands']:,} |",
                  f"| run wall seconds (play + write), median [min, max] | {run_walls[1]:.1f} "
                  f"[{run_walls[0]:.1f}, {run_walls[2]:.1f}] |",
                  f"| whole command, process start to exit, median [min, max] | {process_walls[1]:.1f} "
                  f"[{process_walls[0]:.1f}, {process_walls[2]:.1f}] |",
                  f"| hands/s, all cores (median run) | {runs[0]['hands'] / run_walls[1]:,.0f} |"]
        print("\n".join(lines[-6:]), flush=True)
    lines += shanghai_lines(shanghai_games, repeats)
    readme.write_text("\n".join(INTRO + lines) + "\n")


if __name__ == "__main__":
    main()
