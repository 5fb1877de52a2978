"""Where a command's compiled code spends its time, function by function (``perf`` and ``gdb``).

``perf`` samples a running process but cannot name Numba's compiled functions: they live in memory
that no file describes. LLVM registers every object it loads (compiled or read from the cache) with
gdb's JIT interface, so ``gdb`` can list their symbols with their addresses. This script starts a
command, lets it reach its kernel, asks gdb for those symbols (``maint print msymbols``), writes them
as ``/tmp/perf-PID.map`` (the map ``perf report`` reads for code without a file), samples the
process with ``perf record`` and prints the functions that took the most samples.

    python benchmarks/profile.py -- rummysim run --variant shanghai --players 4 --games 20000 --workers 1
    python benchmarks/profile.py --wait 8 --seconds 10 -- rummysim run --hands 5000000 --workers 1

Needs Debian's ``gdb`` and ``linux-perf``, and a warm compile cache (else it samples the compiler).
A function inlined into another is counted in the one it was inlined into; ``NRT_incref`` and
``NRT_decref`` are Numba's reference counts, whoever called them.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_SYMBOL = re.compile(r"\[\s*\d+\]\s+([TtWw])\s+0x([0-9a-f]+)\s+(\S+)")


def short_name(symbol: str) -> str:
    """A Numba symbol as a dotted name: ``_ZN8rummysim6engine3rng9deal_keysB4v187B38...`` ->
    ``rummysim.engine.rng.deal_keys``; the CPython wrapper gets a ``[wrapper]`` suffix."""
    wrapper = ""
    if symbol.startswith("cfunc."):
        symbol, wrapper = symbol[len("cfunc."):], " [cfunc]"
    if not symbol.startswith("_ZN"):
        return symbol
    parts, i = [], 3
    while i < len(symbol) and symbol[i].isdigit():
        j = i
        while symbol[j].isdigit():
            j += 1
        n = int(symbol[i:j])
        parts.append(symbol[j:j + n])
        i = j + n
    if parts and parts[0] == "cpython":
        parts, wrapper = parts[1:], " [wrapper]"
    name = ".".join(p.replace("_3c", "<").replace("_3e", ">") for p in parts)
    return (name or symbol) + wrapper


def parse_symbols(dump: str) -> list[tuple[int, str]]:
    """(address, symbol) of every function of the in-memory objects (the JIT's) in gdb's
    ``maint print msymbols`` text, by address."""
    symbols, in_memory = [], False
    for line in dump.splitlines():
        if line.startswith("Object file"):
            in_memory = "<in-memory@" in line
        elif in_memory and (m := _SYMBOL.match(line)):
            symbols.append((int(m.group(2), 16), m.group(3)))
    return sorted(symbols)


def jit_symbols(pid: int) -> list[tuple[int, str]]:
    """``parse_symbols`` of what gdb, attached to process ``pid``, knows."""
    with tempfile.TemporaryDirectory() as tmp:
        dump = Path(tmp) / "msymbols.txt"
        subprocess.run(["gdb", "-p", str(pid), "-batch", "-ex", f"maint print msymbols {dump}"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, timeout=300)
        return parse_symbols(dump.read_text())


def write_perf_map(pid: int, symbols: list[tuple[int, str]]) -> Path:
    """``/tmp/perf-PID.map``: each symbol runs to the next one (gdb gives no sizes)."""
    path = Path(f"/tmp/perf-{pid}.map")
    lines = []
    for k, (address, symbol) in enumerate(symbols):
        size = min(symbols[k + 1][0] - address, 1 << 20) if k + 1 < len(symbols) else 4096
        lines.append(f"{address:x} {size:x} {short_name(symbol)}\n")
    path.write_text("".join(lines))
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wait", type=float, default=6.0, help="seconds before sampling (start-up, cache load)")
    parser.add_argument("--seconds", type=float, default=8.0, help="seconds to sample")
    parser.add_argument("--top", type=int, default=30, help="functions to print")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the command to profile, after --")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    missing = [tool for tool in ("gdb", "perf") if shutil.which(tool) is None]
    if missing or not command:
        parser.error(f"needs {' and '.join(missing)} (Debian: gdb, linux-perf)" if missing else "no command given")
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp)
        perf_map = None
        try:
            time.sleep(args.wait)
            if proc.poll() is not None:
                parser.error(f"the command ended within --wait {args.wait:g} s: give it more work")
            perf_map = write_perf_map(proc.pid, jit_symbols(proc.pid))
            data = Path(tmp) / "perf.data"
            subprocess.run(["perf", "record", "-q", "-F", "999", "-p", str(proc.pid), "-o", str(data), "--",
                            "sleep", str(args.seconds)], check=True, stderr=subprocess.DEVNULL)
            report = subprocess.run(["perf", "report", "-i", str(data), "--no-children", "--sort", "sym",
                                     "--stdio", "-q"], check=True, capture_output=True, text=True).stdout
        finally:
            proc.kill()
            proc.wait()
            if perf_map is not None:
                perf_map.unlink(missing_ok=True)
    rows = [line.strip() for line in report.splitlines() if "%" in line]
    print(f"{' '.join(command)}: {args.seconds:g} s sampled after {args.wait:g} s")
    for line in rows[:args.top]:
        print("  " + line)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
