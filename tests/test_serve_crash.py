"""rummysim serve killed at random moments (issue 41): every acknowledged answer is in the game's move
log, and every finished hand is saved and replayable once the game is rebuilt from its directory.

A cycle: the game is rebuilt from its directory (``Session.load``, as a restarted server does), a
forked child plays it on (the decision requests a page sends), acknowledging each answered request on a
pipe, and is killed with SIGKILL after a random pause; then the directory is checked. Games are short
(target 30) so that many cycles fall at a hand's end, where the events, the tables and ``run.json``
are written."""

from __future__ import annotations

import json
import os
import random
import signal
import time

import pandas as pd
import pytest

from rummysim.cli import main
from rummysim.play.save import events_file
from rummysim.serve import Limits, Refused, Session
from rummysim.serve.session import setup_of

SETUP = {"variant": "basic", "opponents": ["greedy"], "rules": ["target=30"]}


def play_on(s: Session, rng: random.Random, acks: int) -> None:
    """The child: decision requests to the end of the game, each answer acknowledged on fd ``acks``."""
    while True:
        view = s.view()
        if view["state"] == "over":
            os._exit(0)
        if view["state"] == "ended":
            kind, body = "next", {}
        else:
            r = rng.random()
            m = rng.choice(view["moves"])
            kind, body = (("move", {"n": m["n"], "move": m["words"]}) if r < 0.5 else
                          ("auto", {"reach": "unit" if r > 0.9 else "move"}))
        answer = s.answer_request(kind, {"seq": view["seq"], **body})
        line = json.dumps({"seq": answer["view"]["seq"], "request": json.dumps({"kind": kind, "seq": view["seq"],
                                                                                 **body}, sort_keys=True)})
        os.write(acks, (line + "\n").encode())


def killed_after(s: Session, pause: float, seed: int) -> list[dict]:
    """Fork a child playing ``s`` on, SIGKILL it after ``pause`` seconds; its acknowledgements."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:      # the child: never returns
        os.close(read)
        try:
            play_on(s, random.Random(seed), write)
        finally:
            os._exit(1)
    os.close(write)
    time.sleep(pause)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    data = b""
    while chunk := os.read(read, 1 << 16):
        data += chunk
    os.close(read)
    return [json.loads(line) for line in data.decode().splitlines()]


def check_saved(s: Session, acked: list[dict]) -> None:
    """Every acknowledged answer in the log, in order; every finished hand's events and rows saved."""
    logged = [json.loads(line) for line in (s.out / "moves.jsonl").read_text().splitlines()]
    assert len(logged) >= (acked[-1]["seq"] if acked else 0)
    for a in acked:
        assert logged[a["seq"] - 1]["request"] == a["request"]
    record = json.loads((s.out / "run.json").read_text()) if s.units_done else None
    if record is not None:
        assert record["hands_played"] == s.units_done
        assert len(pd.read_parquet(s.out / "hands.parquet")) == s.units_done
    for number in range(s.units_done):
        events = [json.loads(line) for line in events_file(s.out, "hand", number).read_text().splitlines()]
        assert events[0]["event"] == "deal" and events[-1]["event"] == "end"
    assert not list(s.out.glob("**/*.tmp"))


@pytest.mark.slow   # 1,000 cycles: about 2 minutes
def test_a_thousand_kills_lose_no_acknowledged_move(tmp_path):
    rng = random.Random(41)
    games, cycles, acknowledged = 0, 0, 0
    s = None
    while cycles < 1000:
        if s is None or s.game.over and s.waiting:
            gid = f"{games:016x}"
            s = Session.create(gid, setup_of({**SETUP, "seed": games}), tmp_path / gid, Limits())
            games += 1
        acked = killed_after(s, rng.uniform(0, 0.03), rng.randrange(1 << 30))
        cycles += 1
        acknowledged += len(acked)
        s = Session.load(s.id, s.out, Limits())
        check_saved(s, acked)
        if acked and acked[-1]["seq"] == s.moves:   # the last answer sent again: the same answer, nothing played
            last = json.loads(acked[-1]["request"])
            kind = last.pop("kind")
            seq_now = s.moves
            assert s.answer_request(kind, last)["view"]["seq"] == seq_now
    assert games >= 3 and acknowledged >= 200, (games, acknowledged)   # the kills fell all through the games
    # every finished hand of every game replays from its directory
    for k in range(games):
        out = tmp_path / f"{k:016x}"
        record = json.loads((out / "run.json").read_text())
        for number in range(record["hands_played"]):
            assert main(["replay", "--from", str(out), "--hand", str(number), "--json"]) in (None, 0)


def test_a_kill_as_a_hand_is_saved_is_mended_by_the_rebuild(tmp_path):
    """The crash of the issue: the hand's events written half (a .tmp left), its rows not at all."""
    gid = "00000000000000aa"
    s = Session.create(gid, setup_of({**SETUP, "seed": 5}), tmp_path / gid, Limits())
    while s.units_done < 2:
        view = s.view()
        kind = "next" if view["state"] == "ended" else "auto"
        s.answer_request(kind, {"seq": view["seq"], **({"reach": "unit"} if kind == "auto" else {})})
    # as if killed while the second hand's end was written: its events half there, its rows missing
    (s.out / "events" / "hand-1.jsonl").rename(s.out / "events" / "hand-1.jsonl.tmp")
    first = json.loads((s.out / "run.json").read_text())
    first["hands_played"] = 1
    (s.out / "run.json").write_text(json.dumps(first))
    rebuilt = Session.load(gid, s.out, Limits())
    check_saved(rebuilt, [])
    assert rebuilt.units_done == 2 and not list(s.out.glob("events/*.tmp"))
    with pytest.raises(Refused):
        rebuilt.answer_request("next", {"seq": rebuilt.moves - 5})
