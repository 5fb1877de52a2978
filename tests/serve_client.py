"""The API of ``rummysim serve`` as a test calls it: Starlette's TestClient on the app, addressed as the
server's own (``Host: 127.0.0.1``) with its token, and the decision requests with the ``seq`` they answer."""

from __future__ import annotations

import warnings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")          # starlette's note on the httpx it drives
    from starlette.testclient import TestClient

from rummysim.serve import TOKEN_HEADER, create_app

BASIC = {"variant": "basic", "opponents": ["expert"], "seed": 1}


def client(app_or_root, **kw) -> TestClient:
    """A client of ``app_or_root`` (an app, or a games directory to serve; ``kw``: ``create_app``'s)."""
    app = app_or_root if hasattr(app_or_root, "state") else create_app(app_or_root, **kw)
    return TestClient(app, base_url="http://127.0.0.1:8000", headers={TOKEN_HEADER: app.state.token})


def new_game(c: TestClient, **setup) -> dict:
    r = c.post("/api/games", json={**BASIC, **setup})
    assert r.status_code == 201, r.text
    return r.json()


def seq(c: TestClient, gid: str) -> int:
    """The decision the game is at now (what the next decision request names)."""
    return c.get(f"/api/games/{gid}").json()["view"]["seq"]


def decide(c: TestClient, gid: str, kind: str, **body):
    """A decision request (``move``, ``auto``, ``next``) naming the decision now; the response."""
    return c.post(f"/api/games/{gid}/{kind}", json={"seq": seq(c, gid), **body})


def auto_to_the_end(c: TestClient, gid: str) -> dict:
    """``auto`` to the end of the game, request after request (each plays a few hands); the last answer."""
    while True:
        r = decide(c, gid, "auto", reach="game")
        assert r.status_code == 200, r.text
        answer = r.json()
        if answer["view"]["state"] == "over":
            return answer
        assert answer["view"]["auto"] == "game" and answer["view"]["state"] == "ended", answer["view"]
