"""Benchmarks of rummysim; writes benchmarks/README.md, one section per measurement.

    python benchmarks/run.py                      # everything (about 25 minutes on 2 cores)
    python benchmarks/run.py --quick              # fewer hands, no 1M-game run, 1M and 10M memory only
    python benchmarks/run.py --only peers,memory  # just these sections; the others are kept

Sections (each with warm-up outside the timing and the median of repeats):
``engine`` hands/s on one core for 2, 3, 4 players, greedy and random;
``compare`` compare vs run hands/s; ``compile`` cold and cached compile time;
``endings`` how Shanghai rounds end per strategy and player count (``endings.py``; not part of the
default run); ``search`` the search bot's strength against its cost (``search.py``; not part of the
default run);
``million`` wall time of ``rummysim run --games 1000000``; ``shanghai`` rounds/s
on one core at 3, 4, 6, 8 players; ``peers`` rummysim against a plain
pure-Python version of the same greedy bot (``pure_python.py``, checked to play
the same hands) and OpenSpiel's C++ ``gin_rummy`` with random play through its
Python bindings, where installed (``pip install open_spiel``); ``envs`` random-play steps/s of
the environments (``rummysim.env``: AEC, Gymnasium, ``Batch``) against RLCard's and OpenSpiel's gin
rummy (``envs.py``; ``pip install -e ".[env,bench]"``); ``startup`` time
from ``rummysim run --hands 1000`` to its last line with a cold and a warm
compile cache; ``memory`` peak RSS of ``rummysim run --hands N`` for 1M, 10M and
100M hands. The machine and versions head the file.

How to compare versions (``versions`` section; not part of the default run)::

    python benchmarks/run.py --versions e5f89bb .     # A = a git ref, B = this source tree
    python benchmarks/run.py --versions main .        # the default: A = main, B = the working tree
    python benchmarks/run.py --versions 99c9acc main . --whole --million   # whole processes, three versions

    python benchmarks/run.py --versions main . --shanghai   # Shanghai: 4, 6, 8 players, jokers=4, expert, buyer
    python benchmarks/run.py --versions c19b8e1 . --cases basic   # kernel only, Basic only

Each version is a git ref (its ``rummysim/`` extracted with ``git archive``) or the path of a source
tree (its ``rummysim/`` copied when the run starts, so edits made during the run are not measured),
kept under ``~/.cache/rummysim-bench`` (``$XDG_CACHE_HOME``) by content, with its own
``NUMBA_CACHE_DIR`` beside it: a version compiles once, ever, outside the timing, and a directory of
kernels whose sources another kept version has byte for byte starts from that version's cache
(``seed_cache``). Then the versions are timed in turn, A B C A B C ..., ``--rounds`` rounds, each in
a fresh process with ``PYTHONPATH`` at that version's tree, on the same deals:

* kernel only (the default): one Numba thread, ``play_chunk`` inside the process, Basic 2-player
  greedy hands/s (independent hands) and Shanghai 4-player greedy rounds/s (``--cases`` picks some;
  with ``--shanghai`` instead: Shanghai greedy at 4, 6 and 8 players, greedy with 4 jokers, expert
  and buyer), each the median of ``--repeats`` timings after a warm-up; the timed code uses only
  names every version since the layering has (``rummysim.run.RunSpec``, ``rummysim.run.play_chunk``,
  ``rummysim.strategy.seat_strategies`` and ``params_matrix``, ``spec.rules.to_array``);
* ``--whole``: the whole command as a user runs it, ``python -m rummysim run ... --out DIR`` from
  process start to exit, results saved, warm compile cache: Basic 2-player greedy ``--hands``
  (3,000,000) and Shanghai 4-player greedy ``--games`` (6,000) with ``--workers 1``, and with
  ``--million`` ``run --games 1000000`` on all cores (seconds); any version that has the ``run``
  command can be timed so, the builds before the layering too.

The table gives per version the median and range over rounds and each version's ratio to A.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
from endings import section_endings  # noqa: E402  (benchmarks/endings.py: outcome counts of Shanghai rounds)
from search import section_search  # noqa: E402  (benchmarks/search.py: the search bot's strength and cost)
from rummysim.variants import VARIANTS

BASIC = VARIANTS["basic"]


def hands_per_second(players: int, strategy: str, hands: int, repeats: int, variant: str = "basic") -> float:
    """Median hands/s on one thread for independent hands; Shanghai (``hands`` = games of ten rounds):
    rounds/s of whole games, default rules."""
    import numba
    import numpy as np

    from rummysim.run import RunSpec, play_chunk
    from rummysim.strategy import params_matrix, seat_strategies

    numba.set_num_threads(1)
    count = {"games": hands} if variant == "shanghai" else {"hands": hands}
    spec = RunSpec(VARIANTS[variant], players, seat_strategies([strategy], players, VARIANTS[variant]), seed=1, **count)
    rules, params = spec.rules.to_array(players), params_matrix(spec.strategies)
    play_chunk(spec, np.arange(10, dtype=np.int64), rules, params)  # warm-up
    times = []
    for r in range(repeats):
        games = np.arange(r * hands, (r + 1) * hands, dtype=np.int64)
        start = time.perf_counter()
        play_chunk(spec, games, rules, params)
        times.append(time.perf_counter() - start)
    return hands * (10 if variant == "shanghai" else 1) / statistics.median(times)


def shanghai_lines(games: int, repeats: int) -> list[str]:
    lines = ["| what | players | greedy |", "|---|---|---|"]
    for players in (3, 4, 6, 8):
        g = hands_per_second(players, "greedy", games, repeats, "shanghai")
        lines.append(f"| kernel only: Shanghai rounds/s on one core (median of {repeats} x {10 * games:,} rounds) "
                     f"| {players} | {g:,.0f} |")
        print(lines[-1], flush=True)
    return lines


def compare_vs_run(hands: int, repeats: int) -> tuple[float, float]:
    """Hands/s (all cores) of ``compare greedy rummy-seeker`` and of ``run`` with the same two strategies."""
    import statistics as st

    from rummysim.analysis.compare import play_pair
    from rummysim.variants.basic.rules import BasicRules
    from rummysim.run import RunSpec, iter_chunks, warm_up
    from rummysim.strategy import load_strategy

    a, b = load_strategy("greedy", BASIC), load_strategy("rummy-seeker", BASIC)
    warm_up(2, BASIC)
    run_t, cmp_t = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        for _chunk in iter_chunks(RunSpec(BASIC, 2, [a, b], seed=3, hands=2 * hands)):
            pass
        run_t.append(time.perf_counter() - start)
        start = time.perf_counter()
        play_pair(BASIC, a, b, 2, 3, BasicRules(), None, hands)
        cmp_t.append(time.perf_counter() - start)
    return 2 * hands / st.median(run_t), 2 * hands / st.median(cmp_t)


def compile_seconds(cache_dir: str) -> float:
    """Seconds to compile (or load) the kernels in a fresh process using ``cache_dir``."""
    code = "from rummysim.run import warm_up; print(warm_up(2, BASIC))"
    env = {**os.environ, "NUMBA_CACHE_DIR": cache_dir}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def million_games() -> dict:
    wall, done = timed_run(["--games", "1000000", "--json"])
    record = json.loads(done.stdout)
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


def _rummysim(*args: str) -> list[str]:
    return [sys.executable, "-m", "rummysim", *args]


def timed_run(args: list[str], env: dict | None = None) -> tuple[float, subprocess.CompletedProcess]:
    """``(seconds, the finished process)`` of one whole ``python -m rummysim run ARGS --out DIR``, from
    process start to exit, its results saved to a temporary directory (also its working directory);
    ``RuntimeError`` with the end of its stderr if it fails."""
    with tempfile.TemporaryDirectory(prefix="rummysim-whole-") as out:
        start = time.perf_counter()
        done = subprocess.run(_rummysim("run", *args, "--out", out), env=env, cwd=out, capture_output=True,
                              text=True)
        wall = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"rummysim run {' '.join(args)} failed:\n{done.stderr[-3000:]}")
    return wall, done


def startup_seconds(cache_dir: str) -> float:
    """Seconds from starting ``rummysim run --hands 1000`` to its exit (its last line), with ``cache_dir``."""
    return timed_run(["--hands", "1000"], {**os.environ, "NUMBA_CACHE_DIR": cache_dir})[0]


def peak_rss(hands: int) -> tuple[float, float]:
    """``(peak RSS in MiB, wall seconds)`` of ``rummysim run --hands N`` (all cores, results saved)."""
    probe = ("import resource, subprocess, sys, time\n"
             "t = time.perf_counter()\n"
             "subprocess.run(sys.argv[1:], check=True, capture_output=True)\n"
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, time.perf_counter() - t)\n")
    with tempfile.TemporaryDirectory() as out:
        done = subprocess.run([sys.executable, "-c", probe, *_rummysim("run", "--hands", str(hands), "--out", out)],
                              capture_output=True, text=True, check=True)
    kib, wall = done.stdout.split()
    return int(kib) / 1024, float(wall)


def openspiel_games_per_second(seconds: float) -> float | None:
    """Games/s of OpenSpiel's ``gin_rummy`` (C++), uniformly random play driven from Python, one core;
    None when ``pyspiel`` is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    import random

    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(1)
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
        games += 1
    return games / (time.perf_counter() - start)


def section_engine(quick: bool) -> list[str]:
    hands, repeats = (20_000, 3) if quick else (100_000, 5)
    lines = ["| what | players | greedy | random |", "|---|---|---|---|"]
    for players in (2, 3, 4):
        g = hands_per_second(players, "greedy", hands, repeats)
        r = hands_per_second(players, "random", hands, repeats)
        lines.append(f"| kernel only: hands/s on one core (median of {repeats} x {hands:,}) | {players} | {g:,.0f} "
                     f"| {r:,.0f} |")
        print(lines[-1], flush=True)
    return lines


def section_compare(quick: bool) -> list[str]:
    hands, repeats = (20_000, 3) if quick else (100_000, 5)
    run_rate, cmp_rate = compare_vs_run(hands, repeats)
    return ["| greedy vs rummy-seeker, 2 players, all cores, in one process (kernel and summary, no files) "
            "| hands/s |", "|---|---|",
            f"| `run`'s chunks (median of {repeats} x {2 * hands:,} hands) | {run_rate:,.0f} |",
            f"| `compare`'s pairs, duplicate deals (same hands) | {cmp_rate:,.0f} |",
            f"| compare / run | {cmp_rate / run_rate:.2f} |"]


def section_compile(quick: bool) -> list[str]:
    with tempfile.TemporaryDirectory() as cache:
        cold = compile_seconds(cache)
        warm = statistics.median(compile_seconds(cache) for _ in range(3))
    return ["| compile (whole process: `warm_up` of Basic at 2 players) | seconds |", "|---|---|",
            f"| cold (empty cache) | {cold:.1f} |",
            f"| cached (median of 3) | {warm:.2f} |"]


def section_million(quick: bool) -> list[str]:
    if quick:
        return []
    runs = [million_games() for _ in range(3)]  # the machine is noisy: median and range of three runs
    run_walls = sorted(m["run_wall"] for m in runs)
    process_walls = sorted(m["process_wall"] for m in runs)
    return ["| `rummysim run --games 1000000` (whole process: 2 players, defaults, all cores, warm cache, results "
            "saved; 3 runs) | |",
            "|---|---|", f"| hands played | {runs[0]['hands']:,} |",
            f"| run wall seconds (play + write), median [min, max] | {run_walls[1]:.1f} "
            f"[{run_walls[0]:.1f}, {run_walls[2]:.1f}] |",
            f"| whole command, process start to exit, median [min, max] | {process_walls[1]:.1f} "
            f"[{process_walls[0]:.1f}, {process_walls[2]:.1f}] |",
            f"| hands/s, all cores (median run) | {runs[0]['hands'] / run_walls[1]:,.0f} |"]


def section_shanghai(quick: bool) -> list[str]:
    return shanghai_lines(100 if quick else 300, 3 if quick else 5)


def whole_run_hands_per_second(variant: str, strategy: str, hands: int) -> float:
    """Hands/s of the whole command ``rummysim run --variant ... --hands N --workers 1`` with one Numba
    thread, process start to exit, results saved (warm compile cache)."""
    args = ["--variant", variant, "--strategy", strategy, "--hands", str(hands), "--workers", "1"]
    return hands / timed_run(args, {**os.environ, "NUMBA_NUM_THREADS": "1"})[0]


def section_gin(quick: bool) -> list[str]:
    """Gin Rummy greedy against greedy on one core: the kernel alone and the whole command (issue 26's
    goal: at least 100,000 hands/s, whole process)."""
    hands, repeats = (50_000, 3) if quick else (200_000, 5)
    kernel = hands_per_second(2, "greedy", hands, repeats, "gin")
    whole_hands = 200_000 if quick else 1_000_000
    runs = sorted(whole_run_hands_per_second("gin", "greedy", whole_hands) for _ in range(3))
    return ["| Gin Rummy, greedy vs greedy, one core | hands/s |", "|---|---|",
            f"| kernel only (median of {repeats} x {hands:,} hands) | {kernel:,.0f} |",
            f"| whole process, `rummysim run --variant gin --hands {whole_hands:,} --workers 1`, one Numba "
            f"thread, results saved; median [min, max] of 3 | {runs[1]:,.0f} [{runs[0]:,.0f}, {runs[2]:,.0f}] |"]


def section_peers(quick: bool) -> list[str]:
    sys.path.insert(0, str(HERE))
    from pure_python import agreement, measure

    hands = 1_000 if quick else 3_000
    plain = statistics.median(measure(hands, 1)["hands_per_second"] for _ in range(3))
    same = agreement(2_000, 1)
    numba_greedy = hands_per_second(2, "greedy", 100_000, 3)
    numba_random = hands_per_second(2, "random", 100_000, 3)
    lines = ["| 2 players, one core, in one process (rummysim: kernel only) | hands/s | rummysim is |", "|---|---|---|",
             f"| rummysim, greedy vs greedy (Numba) | {numba_greedy:,.0f} | |",
             f"| the same greedy bot in plain Python (`pure_python.py`; plays the same hands: "
             f"{100 * same:.1f}% of 2,000 agree move for move in outcome, winner, points, turns) "
             f"| {plain:,.0f} | {numba_greedy / plain:,.0f}x faster |"]
    spiel = openspiel_games_per_second(10 if quick else 30)
    if spiel is None:
        lines.append("| OpenSpiel `gin_rummy` (C++), random play | not installed (`pip install open_spiel`) | |")
    else:
        import pyspiel

        lines += [f"| rummysim, random vs random (Numba) | {numba_random:,.0f} | |",
                  f"| OpenSpiel {pyspiel.__version__ if hasattr(pyspiel, '__version__') else ''} `gin_rummy` "
                  f"(C++ engine, actions chosen in Python), random play, games/s "
                  f"| {spiel:,.0f} | {numba_random / spiel:,.0f}x the games/s |"]
    return lines


def _env_versions() -> str:
    """The installed versions of the environments' libraries and the peers, in words."""
    from importlib.metadata import PackageNotFoundError, version

    found = []
    for name in ("pettingzoo", "gymnasium", "rlcard", "open_spiel"):
        try:
            found.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            found.append(f"{name} not installed")
    return ", ".join(found)


def section_envs(quick: bool) -> list[str]:
    """Random-play steps/s of the environments against OpenSpiel's, RLCard's and PettingZoo's gin rummy, side by side
    (``envs.py``), with the machine's load average before and after."""
    sys.path.insert(0, str(HERE))
    import envs

    seconds, rounds = (1.0, 3) if quick else (4.0, 5)
    load_before = os.getloadavg()[0]
    rates = envs.measure(seconds, rounds)
    load_after = os.getloadavg()[0]
    intro = ("Uniformly random play, a step being one decision played (what each contender's step includes: "
             f"`benchmarks/envs.py`); median and range of {rounds} rounds of {seconds:.0f} s, "
             "the contenders in turn within a round; CPU-seconds count every thread of the process, so on a "
             f"loaded machine steps per CPU-second say what a free core would give. Load average (1 min) {load_before:.1f} "
             "before, "
             f"{load_after:.1f} after, on {os.cpu_count()} cores. Goals (issue 15): AEC at least 20,000 steps/s, "
             f"`Batch` at least 1,000,000 steps/s on 2 cores. {_env_versions()}.")
    lines = [intro, "",
             "| environment (in one process: its steps, from Python) | steps/s, wall (median) | range "
             "| steps per CPU-second (median) | wall vs OpenSpiel |",
             "|---|---|---|---|---|"]
    spiel = rates.get("OpenSpiel `gin_rummy` (C++ engine)") or []
    ref = statistics.median(w for w, _ in spiel) if spiel else None
    for name, r in rates.items():
        if not r:
            lines.append(f"| {name} | not installed (`pip install -e \".[bench]\"`) | | | |")
            continue
        wall = [w for w, _ in r]
        med = statistics.median(wall)
        cpu = statistics.median(c for _, c in r)
        ratio = f"{med / ref:,.1f}x" if ref else ""
        lines.append(f"| {name} | {med:,.0f} | {min(wall):,.0f} - {max(wall):,.0f} | {cpu:,.0f} | {ratio} |")
    return lines


def section_startup(quick: bool) -> list[str]:
    with tempfile.TemporaryDirectory() as cache:
        cold = startup_seconds(cache)
        warm = sorted(startup_seconds(cache) for _ in range(3))
    return ["| `rummysim run --hands 1000`, whole process: process start to its last line | seconds |", "|---|---|",
            f"| cold compile cache (compiles the engine) | {cold:.1f} |",
            f"| warm cache, median [min, max] of 3 (target: under 3 s) | {warm[1]:.2f} [{warm[0]:.2f}, {warm[2]:.2f}] |"]


def section_memory(quick: bool) -> list[str]:
    lines = ["| `rummysim run --hands N` (whole process: 2 players, greedy, all cores, results saved) | peak RSS MiB "
             "| wall s |",
             "|---|---|---|"]
    for hands in (1_000_000, 10_000_000) + (() if quick else (100_000_000,)):
        rss, wall = peak_rss(hands)
        lines.append(f"| {hands:,} hands | {rss:,.0f} | {wall:,.0f} |")
        print(lines[-1], flush=True)
    return lines


#: Run in a fresh process per version and round (``python -c VERSION_PROBE JSON``): prints one JSON
#: line. Only names that every version has: RunSpec, play_chunk, seat_strategies, params_matrix,
#: variant_named, rules.to_array (the variant passed as a name or a Variant, as the version takes
#: it). ``warm`` only compiles (or loads) the kernels; otherwise it warms up, then times each case
#: (``VersionCase``).
VERSION_PROBE = r"""
import dataclasses, json, statistics, sys, time
import numba
import numpy as np
import rummysim
from rummysim.run import RunSpec, play_chunk
from rummysim.strategy import params_matrix, seat_strategies
from rummysim.variants import variant_named

a = json.loads(sys.argv[1])
numba.set_num_threads(1)
out = {"file": rummysim.__file__, "threads": numba.get_num_threads()}
for key, variant, players, strategy, options, count in a["cases"]:
    per = 1 if variant == "basic" else 10  # rows per index: a Shanghai game is ten rounds
    kw = {"games": count} if variant == "shanghai" else {"hands": count}
    v = variant_named(variant)
    # before the layering (b615366 and older) the run API took the variant's name, since then its Variant
    key_of = v if dataclasses.fields(RunSpec)[0].name == "variant" else variant
    spec = RunSpec(players=players, strategies=seat_strategies([strategy], players, key_of), seed=1,
                   rules=v.rules(**options), variant=key_of, **kw)
    rules, params = spec.rules.to_array(players), params_matrix(spec.strategies)
    start = time.perf_counter()
    play_chunk(spec, np.arange(10, dtype=np.int64), rules, params)  # compile or load, outside the timing
    out[key + "_warm_s"] = time.perf_counter() - start
    if a["warm"]:
        continue
    times = []
    for r in range(a["repeats"]):
        first = (a["round"] * a["repeats"] + r) * count   # the same deals for every version
        games = np.arange(first, first + count, dtype=np.int64)
        start = time.perf_counter()
        play_chunk(spec, games, rules, params)
        times.append(time.perf_counter() - start)
    out[key] = count * per / statistics.median(times)
    out[key + "_times"] = times
print(json.dumps(out))
"""

#: a case timed by ``--versions``: (key, variant, players, strategy, rule options, hands or games per timing)
VersionCase = tuple[str, str, int, str, dict, int]

#: a whole-process case of ``--versions --whole``: (key, label, ``rummysim run`` arguments, units the
#: run plays, what a unit is); timed from process start to exit, results saved, warm compile cache
WholeCase = tuple[str, str, list[str], int, str]


def version_cases(hands: int, games: int, shanghai: bool) -> list[VersionCase]:
    """The default cases (Basic 2-player and Shanghai 4-player greedy) or, with ``shanghai``, the
    Shanghai set: 4, 6 and 8 players greedy, 4 jokers, expert and buyer (fewer games for the slower)."""
    if not shanghai:
        return [("basic", "basic", 2, "greedy", {}, hands), ("shanghai", "shanghai", 4, "greedy", {}, games)]
    few = max(1, games // 4)
    return [("shanghai", "shanghai", 4, "greedy", {}, games),
            ("shanghai-6", "shanghai", 6, "greedy", {}, few),
            ("shanghai-8", "shanghai", 8, "greedy", {}, few),
            ("shanghai-jokers-4", "shanghai", 4, "greedy", {"jokers": 4}, few),
            ("shanghai-expert", "shanghai", 4, "expert", {}, games // 2),
            ("shanghai-buyer", "shanghai", 4, "buyer", {}, games // 2)]


def whole_cases(hands: int, games: int, million: bool) -> list[WholeCase]:
    """Issue 29's whole-process figures: Basic 2-player greedy ``--hands`` and Shanghai 4-player greedy
    ``--games`` with ``--workers 1``, and (``million``) ``run --games 1000000`` on all cores."""
    cases = [("basic-whole", f"Basic, 2 players, greedy, `run --hands {hands:,} --workers 1`, hands/s",
              ["--hands", str(hands), "--workers", "1"], hands, "hands"),
             ("shanghai-whole", f"Shanghai, 4 players, greedy, `run --variant shanghai --players 4 --games {games:,} "
              f"--workers 1`, rounds/s", ["--variant", "shanghai", "--players", "4", "--games", str(games),
                                          "--workers", "1"], 10 * games, "rounds")]
    if million:
        cases.append(("million", "Basic, `run --games 1000000`, all cores, seconds",
                      ["--games", "1000000"], 0, "seconds"))
    return cases


def case_label(case: VersionCase) -> str:
    _, variant, players, strategy, options, count = case
    if variant == "basic":
        return f"Basic, {players} players, {strategy}, hands/s ({count:,} independent hands)"
    rules = "".join(f", {k}={v}" for k, v in options.items())
    return f"Shanghai, {players} players, {strategy}{rules}, rounds/s ({count:,} games = {10 * count:,} rounds)"


def _git(*args: str, cwd: Path = HERE.parent) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout.strip()


def bench_home() -> Path:
    """Where ``--versions`` keeps each version's tree and compile cache between runs, by content:
    ``$XDG_CACHE_HOME/rummysim-bench`` (``~/.cache/rummysim-bench``). A version compiles once, ever."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rummysim-bench"


def prepare_version(ref: str, home: Path) -> tuple[Path, str]:
    """``(source tree, description)`` of a git ref or a source-tree path, kept under ``home`` by
    content (the commit, or the sha256 of the tree's ``rummysim/``) with its compile cache beside it."""
    path = Path(ref).expanduser()
    if (path / "rummysim" / "__init__.py").is_file():
        import hashlib

        digest = hashlib.sha256()
        for f in sorted((path / "rummysim").rglob("*")):
            if f.is_file() and "__pycache__" not in f.parts:
                digest.update(str(f.relative_to(path)).encode() + b"\0" + f.read_bytes())
        key = digest.hexdigest()[:12]
        tree = home / f"tree-{key}"
        if not (tree / "rummysim").is_dir():
            shutil.copytree(path / "rummysim", tree / "rummysim.tmp",
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            os.replace(tree / "rummysim.tmp", tree / "rummysim")
            seed_cache(tree, home)
        try:
            head = _git("rev-parse", "--short", "HEAD", cwd=path)
            dirty = _git("status", "--porcelain", "--", "rummysim", cwd=path)
            what = f"source tree {path.resolve()} at {head}" + (" + uncommitted changes" if dirty else "")
        except (subprocess.CalledProcessError, OSError):
            what = f"source tree {path.resolve()}"
        return tree, f"{what} (copied at start; sources sha256 {key})"
    commit = _git("rev-parse", "--verify", f"{ref}^{{commit}}")
    tree = home / f"git-{commit[:12]}"
    if not (tree / "rummysim").is_dir():
        shutil.rmtree(tree, ignore_errors=True)
        tree.mkdir(parents=True)
        archive = subprocess.run(["git", "archive", commit, "rummysim"], cwd=HERE.parent, capture_output=True,
                                 check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
        seed_cache(tree, home)
    subject = _git("log", "-1", "--format=%s", commit)
    return tree, f"git {ref} = {commit[:10]} ({subject[:70]})"


def _compiled_dirs(tree: Path) -> dict[str, list[Path]]:
    """The directories of a tree's compiled modules (``engine``, ``variants/<name>``) and the sources
    each one's kernels depend on (its own modules and the engine's), as ``rummysim.engine`` fingerprints them."""
    package = tree / "rummysim"
    engine = sorted((package / "engine").glob("*.py"))
    dirs = {"engine": engine}
    for d in sorted(p for p in (package / "variants").glob("*") if p.is_dir() and (p / "__init__.py").exists()):
        dirs[str(d.relative_to(package))] = engine + sorted(d.glob("*.py"))
    return dirs


def seed_cache(tree: Path, home: Path) -> list[str]:
    """Give a new version's compile cache the kernels another version under ``home`` compiled from the
    same sources (a directory's files and the engine's byte for byte): its Numba cache folder copied
    under this tree's name, and the file times Numba's index checks set to that version's. Returns
    the directories seeded; the others compile as usual."""
    from numba.core.caching import _CacheLocator

    cache = tree.parent / f"{tree.name}-numba"
    mine = _compiled_dirs(tree)
    seeded = []
    for donor in sorted(home.glob("*-numba")):
        donor_tree = home / donor.name[:-len("-numba")]
        if donor_tree == tree or not (donor_tree / "rummysim").is_dir():
            continue
        theirs = _compiled_dirs(donor_tree)
        for d, sources in mine.items():
            if d in seeded or d not in theirs or len(theirs[d]) != len(sources):
                continue
            if any(a.name != b.name or a.read_bytes() != b.read_bytes() for a, b in zip(sources, theirs[d])):
                continue
            src = donor / _CacheLocator.get_suitable_cache_subpath(str(donor_tree / "rummysim" / d / "kernel.py"))
            if not src.is_dir():
                continue
            shutil.copytree(src, cache / _CacheLocator.get_suitable_cache_subpath(str(tree / "rummysim" / d / "kernel.py")),
                            dirs_exist_ok=True)
            for a, b in zip(sources, theirs[d]):   # each kernel's index holds the time of its own file
                if (a.parent.name == "engine") == (d == "engine"):
                    st = b.stat()
                    os.utime(a, (st.st_atime, st.st_mtime))
            seeded.append(d)
    return seeded


def _version_env(tree: Path, **extra: str) -> dict:
    return {**os.environ, "PYTHONPATH": str(tree), "NUMBA_CACHE_DIR": str(tree.parent / f"{tree.name}-numba"),
            **extra}


def run_probe(tree: Path, **args) -> dict:
    env = _version_env(tree, NUMBA_NUM_THREADS="1")
    done = subprocess.run([sys.executable, "-c", VERSION_PROBE, json.dumps(args)], env=env, cwd=tree,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"version at {tree} failed:\n{done.stderr[-3000:]}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    if not Path(out["file"]).resolve().is_relative_to(tree.resolve()):
        raise RuntimeError(f"imported {out['file']}, not the version at {tree}")
    return out


def run_whole(tree: Path, case: WholeCase) -> float:
    """Units/s (seconds for ``million``) of one ``python -m rummysim run`` of version ``tree``, process
    start to exit, its results saved to a temporary directory."""
    key, _, args, units, _ = case
    wall = timed_run(args, _version_env(tree))[0]
    return wall if key == "million" else units / wall


def compare_versions(refs: tuple[str, ...], rounds: int, repeats: int, cases: list[VersionCase],
                     whole: list[WholeCase]) -> list[str]:
    """Time the versions in turn (A B C A B C ..., ``rounds`` times): the kernel ``cases`` in one
    probe process, or the ``whole`` commands, and return the README table."""
    names = [chr(ord("A") + i) for i in range(len(refs))]
    keys = [c[0] for c in whole] if whole else [c[0] for c in cases]
    results: dict[str, dict[str, list[float]]] = {n: {k: [] for k in keys} for n in names}
    trees: dict[str, Path] = {}
    described: dict[str, str] = {}
    home = bench_home()
    home.mkdir(parents=True, exist_ok=True)
    for n, ref in zip(names, refs):
        trees[n], described[n] = prepare_version(ref, home)
        print(f"{n}: {described[n]} at {trees[n]}", flush=True)
    for n in names:  # compile each version once, into its own cache kept beside its tree, outside the timing
        start = time.perf_counter()
        if whole:   # a short run of each case (the versions before the layering have no probe's names)
            for c in whole_cases(1000, 2, False):
                run_whole(trees[n], c)
        else:
            run_probe(trees[n], warm=True, cases=cases, repeats=0, round=0)
        print(f"{n}: compiled or loaded in {time.perf_counter() - start:.0f} s", flush=True)
    for r in range(rounds):
        for n in names:
            if whole:
                out = {c[0]: statistics.median(run_whole(trees[n], c) for _ in range(repeats)) for c in whole}
            else:
                out = run_probe(trees[n], warm=False, cases=cases, repeats=repeats, round=r)
            for k in keys:
                results[n][k].append(out[k])
            print(f"round {r + 1}/{rounds} {n}: " + ", ".join(f"{k} {out[k]:,.1f}" for k in keys), flush=True)
    med = {n: {k: statistics.median(v) for k, v in results[n].items()} for n in names}
    labels = [(c[0], c[1]) for c in whole] if whole else [(c[0], case_label(c)) for c in cases]
    how = ("Whole process: `python -m rummysim run ... --out DIR` from process start to exit, results saved, "
           "warm compile cache, default output; `--workers 1` unless the row says all cores"
           if whole else "Kernel only: `play_chunk` timed inside one process with one Numba thread, after a warm-up; "
                         "no result files")
    lines = [f"{n} = {described[n]}." for n in names]
    lines = [x for line in lines for x in (line, "")]
    lines += [f"{how}. A fresh process per version and round, {' '.join(names)} ... in turn, {rounds} rounds; "
              f"each round's figure is the median of {repeats} timings; the same deals for every version.", "",
              "| " + " | ".join(["what"] + [f"{n} median [min, max]" for n in names]
                                + [f"{n} / A (medians)" for n in names[1:]]) + " |",
              "|" + "---|" * (1 + 2 * len(names) - 1)]
    for k, label in labels:
        cells = []
        for n in names:
            v = sorted(results[n][k])
            cells.append(f"{med[n][k]:,.0f} [{v[0]:,.0f}, {v[-1]:,.0f}]" if k != "million"
                         else f"{med[n][k]:.1f} [{v[0]:.1f}, {v[-1]:.1f}]")
        cells += [f"{med[n][k] / med['A'][k]:.3f}" for n in names[1:]]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return lines


def section_versions(quick: bool, args: argparse.Namespace | None = None) -> list[str]:
    refs = tuple(args.versions) if args is not None and args.versions else ("main", str(HERE.parent))
    whole = args is not None and args.whole
    rounds = args.rounds if args is not None and args.rounds else (3 if quick or whole else 7)
    repeats = args.repeats if args is not None and args.repeats else (1 if quick or whole else 3)
    hands = args.hands if args is not None and args.hands else (
        50_000 if quick else 3_000_000 if whole else 250_000)
    games = args.games if args is not None and args.games else (100 if quick else 6_000 if whole else 400)
    shanghai = args is not None and args.shanghai
    command = "python benchmarks/run.py --versions " + " ".join(refs)
    if args is not None and getattr(args, "_extra", ""):
        command += args._extra
    wholes = whole_cases(hands, games, args is not None and args.million) if whole else []
    cases = version_cases(hands, games, shanghai)
    if args is not None and args.cases:
        wanted = args.cases.split(",")
        known = [k[0] for k in (wholes or cases)]
        unknown = [c for c in wanted if c not in known]
        if unknown:
            raise SystemExit(f"--cases: unknown {unknown[0]!r}; the cases: {', '.join(known)}")
        cases = [k for k in cases if k[0] in wanted]
        wholes = [k for k in wholes if k[0] in wanted]
    lines = compare_versions(refs, rounds, repeats, cases, wholes)
    return [f"Command: `{command}`.", "", *lines]


def section_breakdown(quick: bool) -> list[str]:
    """Where a whole ``rummysim run`` spends its time, phase by phase (``breakdown.py``)."""
    import breakdown

    return breakdown.section(runs=1 if quick else 3)


#: section name -> (title, function); the README keeps this order
SECTIONS = {
    "engine": ("Engine speed", section_engine),
    "compare": ("Comparisons", section_compare),
    "compile": ("Compile time", section_compile),
    "million": ("A million games", section_million),
    "breakdown": ("Where a run's time goes", section_breakdown),
    "shanghai": ("Shanghai Rummy", section_shanghai),
    "peers": ("Against peers", section_peers),
    "gin": ("Gin Rummy", section_gin),
    "envs": ("Environments", section_envs),
    "startup": ("Start-up", section_startup),
    "memory": ("Memory of long runs", section_memory),
    "versions": ("Versions side by side, kernel only", section_versions),
    "versions_whole": ("Versions side by side, whole process", section_versions),
    "endings": ("How Shanghai rounds end", section_endings),
    "search": ("The search bot: strength against cost", section_search),
}

#: what ``python benchmarks/run.py`` measures without --only or --versions (``endings`` counts outcomes,
#: not speed, and takes long)
DEFAULT_SECTIONS = [s for s in SECTIONS if s not in ("versions", "versions_whole", "endings", "search")]

INTRO = [
    "# Benchmarks", "",
    "Re-measure with `python benchmarks/run.py` (about 25 minutes on 2 cores; `--quick` skips the",
    "million games and the 100M-hand run; `--only SECTION,...` re-measures some sections and keeps the",
    "others). Every figure is a median over repeats with warm-up outside the timing. The machine is",
    "shared and noisy: compare ratios and medians, not single timings.", "",
    "Targets. Issue 2: at least 50,000 hands/s on one core for 2-player greedy; `rummysim run",
    "--games 1000000` within 60 s wall with a warm compile cache, results saved. Issue 3: a",
    "comparison costs no more than twice the hands/s of `run` with the same strategies. Issue 5:",
    "Shanghai, at least 1,000 rounds/s on one core for 4-player greedy (aim 5,000). Issue 6: 100M",
    "hands with peak RSS under 1 GiB; a warm 1,000-hand run under 3 s from start to last line.",
    "Redesign: no slower, Basic 2-player greedy hands/s and Shanghai 4-player greedy rounds/s on one",
    "core at least 0.95x the last commit before the change, measured side by side in one run. Issue 15:",
    "the AEC environment at least 20,000 random-play steps/s, `Batch` at least 1,000,000 on 2 cores.",
    "Issue 26 (Gin Rummy): `gin_v0` at least as fast as OpenSpiel's `gin_rummy` driven from Python,",
    "`Batch(\"gin\")` at least 100x; greedy against greedy at least 100,000 hands/s on one core, whole process.",
    "PettingZoo's `gin_rummy_v4` left PettingZoo after 1.24.3: `envs` times it when `PETTINGZOO_GIN_PYTHON` names",
    "an interpreter that has it (`python3 -m venv pz && pz/bin/pip install \"pettingzoo[classic]==1.24.3\"`).",
    "The bots' strength against OpenSpiel's own Gin bot is `benchmarks/gin_openspiel_bot.py` (docs/findings.md).", "",
    "Whole process or kernel only: every table says which. *Whole process* is the command a user runs,",
    "from process start to exit, results saved (`rummysim run ... --workers 1` for one core); *kernel only*",
    "times the compiled play inside one process, without start-up, result files or the summary. Where a",
    "whole run's time goes, phase by phase: `python benchmarks/breakdown.py` (section Breakdown); where",
    "its compiled code spends it, function by function: `python benchmarks/profile.py -- rummysim run ...`",
    "(`perf` and `gdb`, Debian's linux-perf and gdb).",
    "Issue 29: whole process, Basic 2-player greedy at least 250,000 hands/s on one core, Shanghai",
    "4-player greedy at least 5,000 rounds/s on one core, `rummysim run --games 1000000` within 30 s on",
    "2 cores, side by side with 99c9acc and the commit before (`--versions 99c9acc main . --whole",
    "--million`).", "",
    "How to compare versions: `python benchmarks/run.py --versions A B [C ...]` (default with `--only",
    "versions`: `main` and this tree). Each is a git ref or the path of a source tree, kept under",
    "`~/.cache/rummysim-bench` by content with its own compile cache, so a version compiles once, ever",
    "(a directory of kernels another kept version has byte for byte starts from its cache). The",
    "versions are timed in turn, A B C A B C ... (`--rounds`), each round in a fresh process on the same",
    "deals. Kernel only (default; 7 rounds): one Numba thread, Basic 2-player greedy hands/s and Shanghai",
    "4-player greedy rounds/s, each the median of `--repeats` (3) timings of `--hands` (250,000) hands",
    "or `--games` (400) games; `--cases basic` times some; `--shanghai` times instead Shanghai greedy at",
    "4, 6 and 8 players, `--rule jokers=4`, expert and buyer. `--whole` (3 rounds): `rummysim run",
    "--hands 3000000 --workers 1` and `rummysim run --variant shanghai --players 4 --games 6000",
    "--workers 1`, and with `--million` `rummysim run --games 1000000` on all cores. The table gives each",
    "version's median and range over the rounds and its ratio to A. Not part of the default run.", "",
]


def _old_sections(readme: Path) -> dict[str, list[str]]:
    """The sections of an existing README, by name (``<!-- section: NAME -->`` marks each)."""
    out: dict[str, list[str]] = {}
    name = None
    for line in readme.read_text().splitlines() if readme.exists() else []:
        if line.startswith("<!-- section: "):
            name = line[len("<!-- section: "):-len(" -->")]
            out[name] = []
        elif name is not None:
            out[name].append(line)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer hands, skip the 1M-game and 100M-hand runs")
    parser.add_argument("--only", default=None, help=f"comma-separated sections among {', '.join(SECTIONS)}")
    parser.add_argument("--versions", nargs="+", metavar="REF", default=None,
                        help="time two or more versions in turn (git refs or source-tree paths; section "
                             "'versions'; with --only versions alone: main and this tree)")
    parser.add_argument("--whole", action="store_true",
                        help="versions: whole processes (`rummysim run ... --workers 1`, start to exit, results "
                             "saved): Basic 2-player greedy --hands (default 3,000,000), Shanghai 4-player greedy "
                             "--games (default 6,000), 3 rounds of 1")
    parser.add_argument("--cases", default=None,
                        help="versions: these cases only, comma-separated (kernel only: basic, shanghai; with "
                             "--shanghai shanghai-6, shanghai-8, ...; with --whole: basic-whole, shanghai-whole, "
                             "million)")
    parser.add_argument("--million", action="store_true",
                        help="versions --whole: also `rummysim run --games 1000000` on all cores")
    parser.add_argument("--rounds", type=int, default=None, help="versions: alternating rounds (default 7)")
    parser.add_argument("--repeats", type=int, default=None, help="versions: timings per round (default 3)")
    parser.add_argument("--hands", type=int, default=None, help="versions: Basic hands per timing (default 250,000)")
    parser.add_argument("--games", type=int, default=None, help="versions: Shanghai games per timing (default 400)")
    parser.add_argument("--shanghai", action="store_true",
                        help="versions: the Shanghai set instead of the default two cases: 4, 6, 8 players greedy, "
                             "jokers=4, expert and buyer (a quarter of --games at 6, 8 players and 4 jokers, half "
                             "for expert and buyer)")
    args = parser.parse_args()
    if args.versions is not None and len(args.versions) < 2:
        parser.error("--versions needs at least two versions")
    args._extra = "".join(f" --{k} {getattr(args, k)}" for k in ("rounds", "repeats", "hands", "games", "cases")
                          if getattr(args, k) is not None) + "".join(
                              f" --{k}" for k in ("quick", "shanghai", "whole", "million") if getattr(args, k))
    if args.only is not None:
        chosen = [s.strip() for s in args.only.split(",")]
    else:
        chosen = ["versions"] if args.versions else DEFAULT_SECTIONS
    unknown = [s for s in chosen if s not in SECTIONS]
    if unknown:
        parser.error(f"unknown section {unknown[0]!r}; sections: {', '.join(SECTIONS)}")
    readme = HERE / "README.md"
    sections = _old_sections(readme)
    for name in chosen:
        if name == "versions" and args.whole:
            name = "versions_whole"
        args.whole = args.whole or name == "versions_whole"
        title, measure_section = SECTIONS[name]
        print(f"== {title}", flush=True)
        body = section_versions(args.quick, args) if name.startswith("versions") else measure_section(args.quick)
        if body:
            sections[name] = ["", f"## {title}", "", f"Measured {time.strftime('%Y-%m-%d')} on {machine()}.", "",
                              *body, ""]
            print("\n".join(body), flush=True)
    out = list(INTRO)
    for name in SECTIONS:
        if name in sections:
            if out[-1].strip():
                out.append("")
            out += [f"<!-- section: {name} -->", *sections[name]]
    readme.write_text("\n".join(out).rstrip() + "\n")


if __name__ == "__main__":
    main()
