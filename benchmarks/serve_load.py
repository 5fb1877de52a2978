"""Load test of ``rummysim serve`` (issue 28): GAMES games played at once through the HTTP API on
localhost, each by its own client, to the end of the game; every request must be answered (2xx),
nothing lost (each game's count of answers on the server, and its saved move log, equal what the client
sent; each game saved complete). Prints the median, 95th percentile and worst response time as the
clients saw it (``*_ms``: queueing in the clients' own process included, which on 2 cores shares the
machine with the server) and as the server spent it (``server_*_ms``, its ``Server-Timing`` header:
from the request's arrival to its answer, waiting for the game's lock and the interpreter included).

    python benchmarks/serve_load.py [--games 50] [--seed 0] [--variant basic]

The server is ``rummysim serve`` in a child process on a free port, its games in a temporary directory.
Moves: the listed move a seeded random choice names (by number and words) or ``auto``, alternately,
each naming the decision it answers (``seq``); the token is read from the address the server prints.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def play(client: httpx.AsyncClient, k: int, args, times: list[float], server_times: list[float]) -> dict:
    """One game to its end; returns its id and the answers sent."""
    rng = random.Random(args.seed * 1000 + k)

    async def call(method, path, body=None):
        t = time.perf_counter()
        r = await client.request(method, path, json=body)
        times.append(time.perf_counter() - t)
        server_times.append(float(r.headers["server-timing"].split("dur=")[1]) / 1000)
        if r.status_code >= 300:
            raise RuntimeError(f"game {k}: {method} {path} {body}: {r.status_code} {r.text}")
        return r.json()

    r = await call("POST", "/api/games", {"variant": args.variant, "opponents": ["expert"], "seed": args.seed + k})
    gid, view, sent = r["id"], r["view"], 0
    while view["state"] != "over":
        if view["state"] == "ended":
            view = (await call("POST", f"/api/games/{gid}/next", {"seq": view["seq"]}))["view"]
        elif sent % 2:
            m = rng.choice(view["moves"])
            view = (await call("POST", f"/api/games/{gid}/move", {"seq": view["seq"], "n": m["n"],
                                                                  "move": m["words"]}))["view"]
        else:
            view = (await call("POST", f"/api/games/{gid}/auto", {"seq": view["seq"], "reach": "move"}))["view"]
        sent += 1
        if sent % 10 == 0:     # a page reload now and then
            view = (await call("GET", f"/api/games/{gid}"))["view"]
    if view["seq"] != sent:
        raise RuntimeError(f"game {k}: the server counted {view['seq']} answers, the client sent {sent}")
    return {"id": gid, "sent": sent}


async def main_async(args, url: str, token: str, root: Path) -> dict:
    times: list[float] = []
    server_times: list[float] = []
    limits = httpx.Limits(max_connections=args.games + 10)
    async with httpx.AsyncClient(base_url=url, timeout=600, limits=limits,
                                 headers={"X-Rummysim-Token": token}) as client:
        start = time.perf_counter()
        done = await asyncio.gather(*(play(client, k, args, times, server_times) for k in range(args.games)))
        wall = time.perf_counter() - start
    for g in done:      # nothing lost: the saved move log and the saved game
        logged = len((root / g["id"] / "moves.jsonl").read_text().splitlines())
        record = json.loads((root / g["id"] / "run.json").read_text())
        if logged != g["sent"] or record["status"] != "complete":
            raise RuntimeError(f"game {g['id']}: {logged} answers logged of {g['sent']}, status {record['status']}")
    times.sort()
    server_times.sort()
    return {"games": args.games, "requests": len(times), "answers": sum(g["sent"] for g in done),
            "wall_s": round(wall, 1), "median_ms": round(1000 * statistics.median(times), 1),
            "p95_ms": round(1000 * times[int(0.95 * (len(times) - 1))], 1), "worst_ms": round(1000 * times[-1], 1),
            "server_median_ms": round(1000 * statistics.median(server_times), 1),
            "server_p95_ms": round(1000 * server_times[int(0.95 * (len(times) - 1))], 1),
            "server_worst_ms": round(1000 * server_times[-1], 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--variant", default="basic")
    args = ap.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "games"
        server = subprocess.Popen([sys.executable, "-m", "rummysim", "serve", "--port", str(port), "--dir", str(root)],
                                  stdout=subprocess.PIPE, text=True)
        try:
            line = server.stdout.readline()      # the address, once it listens
            found = re.search(r"\?token=([\w-]+)", line)
            if not found:
                raise RuntimeError(f"the server did not start: {line!r}")
            url, token = f"http://127.0.0.1:{port}", found.group(1)
            httpx.post(f"{url}/api/games", json={"variant": args.variant, "seed": 0}, timeout=1800,
                       headers={"X-Rummysim-Token": token})   # compiled or loaded
            print(json.dumps(asyncio.run(main_async(args, url, token, root))))
        finally:
            server.terminate()
            server.wait(30)


if __name__ == "__main__":
    main()
