"""rummysim serve as an attacker would try it (issue 41), each attack refused with a 4xx and nothing
changed: no file opened for a caller outside the shipped strategies and ``--strategies DIR`` (an audit
hook records every file the process opens while a request is answered), no game for a page of another
origin or a foreign ``Host``, no move played twice or by a stale page, and bounded games."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from serve_client import client, decide, new_game, seq
from rummysim.serve import TOKEN_HEADER, Limits, create_app
from rummysim.serve.app import page, script_hash
from rummysim.strategy import builtin_dir
from rummysim.variants import variant_named

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

#: the paths the process opened while ``OPENED`` was on (sys.addaudithook cannot be removed: one hook, switched)
OPENED: list[str] = []
_RECORDING = threading.Event()


def _audit(event, args):
    if event == "open" and _RECORDING.is_set() and isinstance(args[0], (str, bytes, os.PathLike)):
        OPENED.append(os.fsdecode(args[0]))


sys.addaudithook(_audit)


def opened_by(call) -> tuple[object, list[str]]:
    """``call()``'s result and the files the process opened meanwhile."""
    OPENED.clear()
    _RECORDING.set()
    try:
        result = call()
    finally:
        _RECORDING.clear()
    return result, list(OPENED)


@pytest.fixture
def dirs(tmp_path):
    """A games directory, a strategies directory with one good file, and a secret beside them."""
    games, mine = tmp_path / "games", tmp_path / "mine"
    mine.mkdir()
    text = (builtin_dir(variant_named("basic")) / "greedy.toml").read_text().replace('name = "greedy"', 'name = "mine"')
    (mine / "mine.toml").write_text(text)
    (tmp_path / "secret.toml").write_text(text)
    return games, mine, tmp_path / "secret.toml"


def test_a_caller_names_no_file_outside_the_strategy_dirs(dirs, tmp_path):
    games, mine, secret = dirs
    c = client(games, strategy_dirs=(mine,))
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    os.mkfifo(mine / "pipe.toml")
    (mine / "link.toml").symlink_to(secret)
    (mine / "big.toml").write_text("# " + "x" * 70_000 + "\n")
    (mine / "search.toml").write_text('name = "s"\nvariant = "basic"\ndescription = "d"\nbot = "search"\n'
                                      '[search]\nrollout = "../secret.toml"\n')
    outside = ["/etc/shadow", "/etc/passwd", "/dev/zero", "/dev/stdin", str(fifo), str(secret), "../secret.toml",
               "../../../../etc/passwd", "/nonexistent/x.toml", "link.toml", "search.toml"]
    for name in outside:
        for body in ({"opponents": [name]}, {"hint": name}):
            r, opened = opened_by(lambda: c.post("/api/games", json={"variant": "basic", **body}))
            assert r.status_code == 422, (name, r.text)
            assert not [p for p in opened if Path(p).name in ("shadow", "passwd", "zero", "stdin", "pipe.toml",
                                                             "secret.toml")], (name, opened)
            error = r.json()["error"]
            if name not in ("search.toml",):
                # the same words whether or not the path exists: nothing about the machine's files
                assert error.startswith(f"unknown strategy {name!r}") and str(mine) in error, error
    # inside the directory: a pipe and an oversized file are refused without being read
    for name, why in (("pipe.toml", "not a regular file"), ("big.toml", "over 65,536 bytes")):
        r, opened = opened_by(lambda: c.post("/api/games", json={"opponents": [name]}))
        assert r.status_code == 422 and why in r.json()["error"], r.text
        assert str(mine / "pipe.toml") not in opened
    assert c.get("/api/options").status_code == 200          # still answering
    assert not games.exists() or not any(games.iterdir())     # no game made
    r = c.post("/api/games", json={"opponents": ["mine.toml"], "seed": 3})
    assert r.status_code == 201 and r.json()["view"]["names"][1] == "seat 1 (mine)"


def test_without_strategy_dirs_only_shipped_strategies(dirs):
    games, mine, secret = dirs
    c = client(games)
    for name in (str(mine / "mine.toml"), "mine.toml", str(secret)):
        r, opened = opened_by(lambda: c.post("/api/games", json={"opponents": [name]}))
        assert r.status_code == 422 and "no strategy files" in r.json()["error"], r.text
        assert not [p for p in opened if p.endswith("mine.toml") or p.endswith("secret.toml")]


def test_a_changed_strategy_file_does_not_resume_its_game(dirs):
    games, mine, secret = dirs
    c = client(games, strategy_dirs=(mine,))
    gid = new_game(c, opponents=["mine.toml"])["id"]
    (mine / "mine.toml").write_text((mine / "mine.toml").read_text().replace("avoid_feeding = 0", "avoid_feeding = 9")
                                    + "\n# changed\n")
    r = client(games, strategy_dirs=(mine,)).get(f"/api/games/{gid}")
    assert r.status_code == 409 and "changed" in r.json()["error"]


def test_other_origins_and_hosts_are_refused(tmp_path):
    app = create_app(tmp_path, port=8000)
    c = client(app)
    token = {TOKEN_HEADER: app.state.token}
    attacks = [
        # a page of another origin: a no-cors text/plain POST (it cannot send the token header)
        ({"Origin": "http://evil.test", "Content-Type": "text/plain"}, False),
        ({"Origin": "http://evil.test"}, True),
        ({"Origin": "null"}, True),
        ({"Origin": "http://127.0.0.1:9999"}, True),            # another port of this machine
        ({"Sec-Fetch-Site": "cross-site"}, True),
        ({"Host": "attacker.rebind.test"}, True),                # DNS rebinding: the attacker's name
        ({"Host": "attacker.rebind.test:8000"}, True),
        ({}, False),                                              # no token
        ({TOKEN_HEADER: "wrong"}, False),
    ]
    body = json.dumps({"variant": "basic", "seed": 1})
    for headers, with_token in attacks:
        sent = {**(token if with_token else {}), **headers}
        if not with_token:
            c.headers.pop(TOKEN_HEADER, None)
        r = c.post("/api/games", content=body, headers=sent)
        c.headers.update(token)
        assert r.status_code == 403, (headers, r.text)
        assert list(r.json()) == ["error"]
        assert c.get("/", params={"token": app.state.token}, headers=headers).status_code in (200, 403)
    assert not list(tmp_path.iterdir())
    # the page: only with the token, from this server's address, never framed, no referrer
    assert c.get("/").status_code == 403
    assert c.get("/", params={"token": "nope"}).status_code == 403
    assert c.get("/", params={"token": app.state.token}, headers={"Host": "attacker.rebind.test"}).status_code == 403
    ok = c.get("/", params={"token": app.state.token}, headers={"Origin": "http://localhost:8000"})
    assert ok.status_code == 200 and f'content="{app.state.token}"' in ok.text
    csp = ok.headers["content-security-policy"]
    assert script_hash(page()) in csp and "frame-ancestors 'none'" in csp and "default-src 'none'" in csp
    assert ok.headers["x-frame-options"] == "DENY" and ok.headers["referrer-policy"] == "no-referrer"
    assert c.get("/api/options").headers["x-content-type-options"] == "nosniff"
    assert c.post("/api/games", json={"seed": 1}, headers={"Host": "[::1]:8000"}).status_code == 201


def test_games_are_bounded(tmp_path):
    c = client(tmp_path, limits=Limits(games=2))
    for rules in (["target=1000000"], ["target=1001"]):
        r = c.post("/api/games", json={"rules": rules})
        assert r.status_code == 422 and "at most 1,000 points" in r.json()["error"], r.text
    r = c.post("/api/games", json={"variant": "gin", "rules": ["game_to=5000"]})
    assert r.status_code == 422 and "game_to=5000" in r.json()["error"]
    assert c.post("/api/games", json={"players": 9}).status_code == 422
    new_game(c)
    new_game(c, seed=2)
    r = c.post("/api/games", json={"seed": 3})
    assert r.status_code == 429 and "at most 2 games" in r.json()["error"]
    # a new server on the directory counts the games it already holds
    assert client(tmp_path, limits=Limits(games=2)).post("/api/games", json={"seed": 4}).status_code == 429
    assert len(list(tmp_path.iterdir())) == 2


def test_auto_to_the_end_answers_a_few_hands_at_a_time(tmp_path):
    c = client(tmp_path, limits=Limits(auto_units=2, steps=50, step_views=10))
    gid = new_game(c, seed=4, opponents=["greedy"])["id"]
    r = decide(c, gid, "auto", reach="game").json()
    assert r["view"]["state"] == "ended" and r["view"]["auto"] == "game"
    assert len(r["steps"]) == 50 and r["steps"][0]["kind"] == "skipped"
    assert [st["view"] is None for st in r["steps"]] == [True] * 40 + [False] * 10
    assert len(list((tmp_path / gid / "events").iterdir())) == 2


def test_a_move_sent_twice_is_played_once(tmp_path):
    """The same request again (a double click, a retry after a lost answer): the same answer, one move;
    five copies at once: one move; a stale page's request: 409, nothing played."""
    c = client(tmp_path)
    gid = new_game(c, seed=2)["id"]
    log = tmp_path / gid / "moves.jsonl"
    view = c.get(f"/api/games/{gid}").json()["view"]
    body = {"seq": view["seq"], "n": 1, "move": view["moves"][0]["words"]}
    first = c.post(f"/api/games/{gid}/move", json=body)
    again = c.post(f"/api/games/{gid}/move", json=body)
    assert first.status_code == again.status_code == 200 and first.json() == again.json()
    assert len(log.read_text().splitlines()) == 1
    # after a restart too: the retry gets the answer the lost one had
    restarted = client(tmp_path).post(f"/api/games/{gid}/move", json=body)
    assert restarted.status_code == 200 and restarted.json() == first.json()
    # a stale page: the move it shows was answered already
    now = first.json()["view"]
    stale = c.post(f"/api/games/{gid}/move", json={**body, "n": 2})
    assert stale.status_code == 409 and "nothing was played" in stale.json()["error"]
    assert c.get(f"/api/games/{gid}").json()["view"] == now and len(log.read_text().splitlines()) == 1
    # five copies of one request at once
    words = now["moves"][0]["words"]
    answers = []

    def send():
        with client(c.app) as own:
            answers.append(own.post(f"/api/games/{gid}/move", json={"seq": now["seq"], "n": 1, "move": words}))
    threads = [threading.Thread(target=send) for _ in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [a.status_code for a in answers] == [200] * 5 and len({json.dumps(a.json()) for a in answers}) == 1
    assert len(log.read_text().splitlines()) == 2 and seq(c, gid) == 2


def test_gin_checks_a_partial_selection(tmp_path):
    """Two cards at a Gin discard: a reason, not a 500 (the check used Basic's verb table)."""
    c = client(tmp_path)
    g = new_game(c, variant="gin", seed=3)
    gid, view = g["id"], g["view"]
    while not any(m["verb"] == "discard" for m in view["moves"]):
        last = view["moves"][-1]         # draw stock (or pass on the first upcard)
        view = decide(c, gid, "move", n=last["n"], move=last["words"]).json()["view"]
    r = c.post(f"/api/games/{gid}/check", json={"cards": view["hand"][:2]})
    assert r.status_code == 200 and r.json()["ok"] is False and "one card" in r.json()["reason"], r.text


def test_a_host_beyond_loopback_is_warned_about(tmp_path):
    p = subprocess.Popen([sys.executable, "-m", "rummysim", "serve", "--host", "0.0.0.0", "--port", "0",
                          "--dir", str(tmp_path / "g")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = p.stdout.readline()
        assert re.match(r"rummysim serve: warning: listening on 0\.0\.0\.0, not only this machine", line), line
    finally:
        p.terminate()
        p.wait(30)
