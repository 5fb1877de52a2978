"""Where a whole ``rummysim run`` spends its time, phase by phase (issue 29).

    python benchmarks/breakdown.py                        # Basic --hands 3,000,000 and Shanghai --games 6,000
    python benchmarks/breakdown.py --only basic --runs 1 -- --hands 1000000   # other arguments to run

Each run is a fresh process (``python benchmarks/breakdown.py --child ...``) that imports the CLI,
wraps the functions of each phase with a timer, and runs ``rummysim run ... --workers 1 --out DIR``
as a user would, warm compile cache, results saved. The parent times the process from start to
exit. The phases:

* one after the other: start-up (the imports), loading the compiled engine (``run.warm_up``), the
  kernel (the variant's ``kernel.play_games``; on a thread of its own when a core is free, one chunk
  ahead: ``run._local_chunks``), the result rows around it (``play_chunk`` less the kernel:
  allocating, keeping each game's rows), the end (after the last chunk: the last write, renaming the
  files, the printed tables) and exit;
* meanwhile, on the other core: the summary (``new_summary``, its ``add``, ``summary_state``, on the
  main thread while the next chunk plays) and the writer thread (``run._run_held``: chunk k is
  written while k+1 plays): the Arrow tables (``chunk_tables``), the chunk files with their hashes
  (``ChunkStore.write``) and the Parquet files (``ChunkStore.join``: encoding and writing).

A wrapped call costs about a microsecond, a few hundred of them a run: nothing against seconds.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).parent

CASES = {
    "basic": ["--hands", "3000000"],
    "shanghai": ["--variant", "shanghai", "--players", "4", "--games", "6000"],
}


def child(args: list[str]) -> None:
    """In the timed process: wrap the phases, run the CLI, print the timings as one JSON line on stderr."""
    from collections import defaultdict

    started = time.perf_counter()
    import rummysim.cli as cli
    import rummysim.results as results
    import rummysim.run as run
    imported = time.perf_counter()

    spent: dict[str, float] = defaultdict(float)
    marks: dict[str, float] = {}

    def timed(owner, name: str, phase: str, nested: str | None = None):
        original = getattr(owner, name)

        def wrapper(*a, **k):
            t = time.perf_counter()
            try:
                return original(*a, **k)
            finally:
                dt = time.perf_counter() - t
                spent[phase] += dt
                if nested:
                    spent[nested] -= dt   # this phase runs inside ``nested``: count it once
                marks["last_" + phase] = time.perf_counter()
        setattr(owner, name, wrapper)

    timed(run, "warm_up", "load the compiled engine")
    timed(run, "play_chunk", "result rows around the kernel")
    timed(run, "new_summary", "summary")
    timed(run, "summary_state", "summary")
    timed(run, "chunk_tables", "writer: Arrow tables")
    timed(results.ChunkStore, "write", "writer: chunk files and hashes")
    timed(results.ChunkStore, "join", "writer: Parquet files")
    from rummysim.variants import VARIANTS
    for v in VARIANTS.values():
        kernel = sys.modules[v.play_chunk.__module__].K
        timed(kernel, "play_games", "kernel", nested="result rows around the kernel")
    summary_class = {v.summary for v in VARIANTS.values()}
    for cls in summary_class:
        timed(cls, "add", "summary")

    original_warm = run.warm_up

    def warm(*a, **k):   # the warm-up's own kernel call is loading, not playing
        before = spent["kernel"], spent["result rows around the kernel"]
        out = original_warm(*a, **k)
        spent["kernel"], spent["result rows around the kernel"] = before
        return out
    run.warm_up = warm

    def report() -> None:   # an exit handler: the command (``cli.entry``) runs them, then ends at once
        done = time.perf_counter()
        out = dict(spent)
        out["start-up (imports)"] = imported - started
        out["after the last chunk played"] = done - marks.get("last_result rows around the kernel", done)
        print("BREAKDOWN " + json.dumps(out), file=sys.stderr, flush=True)

    atexit.register(report)
    sys.argv = ["rummysim", "run", *args]
    cli.entry()


def measure(args: list[str]) -> dict:
    """Run one child process and return its phases, plus the whole process's wall seconds."""
    with tempfile.TemporaryDirectory(prefix="rummysim-breakdown-") as out:
        start = time.perf_counter()
        done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", "--", *args,
                               "--workers", "1", "--out", out], capture_output=True, text=True, cwd=out)
        wall = time.perf_counter() - start
    line = [x for x in done.stderr.splitlines() if x.startswith("BREAKDOWN ")]
    if done.returncode != 0 or not line:
        raise RuntimeError(f"rummysim run {' '.join(args)} failed:\n{done.stderr[-3000:]}")
    phases = json.loads(line[-1][len("BREAKDOWN "):])
    phases["whole process"] = wall
    return phases


#: the phases one after the other (the kernel's thread, the main thread before and after it)
MAIN = ["start-up (imports)", "load the compiled engine", "kernel", "result rows around the kernel",
        "after the last chunk played"]
#: the phases that run meanwhile, on another core: the summary (the main thread, while the kernel's
#: thread plays the next chunk) and the writer's
MEANWHILE = ["summary", "writer: Arrow tables", "writer: chunk files and hashes", "writer: Parquet files"]


def table(name: str, args: list[str], runs: list[dict], units: int, unit: str) -> list[str]:
    """The README table of one case: each phase's median seconds and share of the whole process."""
    import statistics

    med = {k: statistics.median(r.get(k, 0.0) for r in runs) for k in runs[0]}
    whole = med["whole process"]
    accounted = sum(med[k] for k in MAIN)
    lines = [f"`rummysim run {' '.join(args)} --workers 1` ({name}; median of {len(runs)} runs, whole process "
             f"{whole:.2f} s = {units / whole:,.0f} {unit}/s; the kernel alone {units / med['kernel']:,.0f} {unit}/s)",
             "", "| phase | seconds | share of the whole process |", "|---|---|---|"]
    for k in MAIN:
        lines.append(f"| {k} | {med[k]:.2f} | {med[k] / whole:.1%} |")
    other = whole - accounted
    lines.append(f"| the rest (the interpreter's start, waiting for the writer, exit) | {other:.2f} | {other / whole:.1%} |")
    for k in MEANWHILE:
        lines.append(f"| {k} (meanwhile, on the second core) | {med[k]:.2f} | {med[k] / whole:.1%} |")
    return lines


def case_lines(name: str, args: list[str], runs: int) -> list[str]:
    """The table of one case, measured ``runs`` times."""
    measured = [measure(args) for _ in range(runs)]
    count = int(args[args.index("--hands") + 1]) if "--hands" in args else int(args[args.index("--games") + 1])
    units, unit = (count * 10, "rounds") if "shanghai" in args else (count, "hands")
    return table(name, args, measured, units, unit)


def section(runs: int = 3) -> list[str]:
    """Both cases' tables, for benchmarks/README.md."""
    lines = ["Every figure whole process, `--workers 1`, warm compile cache, results saved; phases timed inside "
             "the process by `benchmarks/breakdown.py` (what each phase holds: its docstring). The summary and the writer work "
             "on the second core while the kernel plays, so their rows are not part of the sum.", ""]
    for name, args in CASES.items():
        lines += case_lines(name, args, runs) + [""]
    return lines[:-1]


def main() -> None:
    if "--child" in sys.argv:
        child(sys.argv[sys.argv.index("--") + 1:])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per case (default 3; the table has medians)")
    parser.add_argument("--only", choices=sorted(CASES), default=None, help="one case")
    parser.add_argument("extra", nargs="*", help="after --: the run's own arguments instead of the case's")
    a = parser.parse_args()
    for name in [a.only] if a.only else list(CASES):
        print("\n".join(case_lines(name, a.extra or CASES[name], a.runs)) + "\n", flush=True)


if __name__ == "__main__":
    os.environ.setdefault("COLUMNS", "100")
    main()
