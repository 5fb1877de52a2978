"""The Starlette app of ``rummysim serve``: the page and a JSON API over ``Session``s, one per game id.

    GET  /                          the page (static HTML and JS, no external fetch)
    GET  /api/options               variants, their players, shipped strategies, rule options
    POST /api/games                 {variant, players, opponents, rules, seed, hint} -> 201 {id, steps, view}
    GET  /api/games/{id}            {view, history}: what seat 0 sees now and this hand's moves (a reload resumes here)
    POST /api/games/{id}/move       {"n": listed move number} or {"text": "meld H3 H4 H5"} -> {steps, view}
    POST /api/games/{id}/auto       {"reach": "move" | "unit" | "game"} -> {steps, view}
    POST /api/games/{id}/next       the next hand (round) -> {steps, view}
    POST /api/games/{id}/hint       {view} with the hint strategy's move and why
    POST /api/games/{id}/check      {"cards": [...], "meld": k}: why no listed move uses exactly those cards

``steps``: what the seat saw happen since its last decision, a line each, with the table as it was then
(the page plays them out at the chosen speed). A refused request gets a 4xx and one line,
``{"error": "..."}``, and changes nothing: unknown game 404, a body that is not a JSON object 400, a body
over ``MAX_BODY`` 413, an illegal or malformed move 422.
"""

from __future__ import annotations

import json
import secrets
import threading
from collections import OrderedDict
from importlib import resources
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Route

from ..replay_html import with_cards
from ..strategy import builtin_names
from ..variants import DEFAULT_VARIANT, VARIANTS
from .session import ID_RE, LOG, SETUP, Refused, Session, setup_of

#: the largest request body read (bytes)
MAX_BODY = 16_384
#: games kept in memory when they are saved (the least recently used beyond it are dropped: their
#: directory rebuilds them when asked for again)
MAX_LIVE = 256


def page() -> str:
    """The page, its cards drawn as the replay page draws them (``replay_html.with_cards``)."""
    return with_cards(resources.files(__package__).joinpath("page.html").read_text(encoding="utf-8"))


def options() -> dict:
    """What the setup form offers: each variant's title, players, shipped strategies, hint strategy,
    rule options and unit."""
    return {"default": DEFAULT_VARIANT, "variants": [
        {"name": v.name, "title": v.title, "players": list(v.players), "unit": v.unit,
         "strategies": builtin_names(v), "hint": v.hint_strategy, "rules": list(v.rule_options)}
        for v in VARIANTS.values()]}


def error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": str(message).splitlines()[0] if message else "error"}, status_code=status)


class Games:
    """The games of a server directory ``root`` (``None``: kept in memory only): each in
    ``root/<id>/``, loaded from there (its move log replayed) when asked for and not in memory."""

    def __init__(self, root: Path | None, max_live: int = MAX_LIVE):
        self.root, self.max_live = root, max_live
        self.live: OrderedDict[str, Session] = OrderedDict()
        self.lock = threading.Lock()
        self.loading: dict[str, threading.Lock] = {}

    def new(self, setup: dict) -> Session:
        while True:
            gid = secrets.token_hex(8)
            if gid not in self.live and (self.root is None or not (self.root / gid).exists()):
                break
        s = Session.create(gid, setup, None if self.root is None else self.root / gid)
        self._keep(gid, s)
        return s

    def _keep(self, gid: str, s: Session) -> None:
        """Hold ``s`` in memory, dropping the least recently used saved games not in use beyond ``max_live``."""
        with self.lock:
            self.live[gid] = s
            if self.root is None:
                return
            for old in list(self.live)[:max(0, len(self.live) - self.max_live)]:
                dropped = self.live[old]
                if dropped.lock.acquire(blocking=False):   # not in use now
                    dropped.dropped = True                  # a request holding it asks again (``use``)
                    del self.live[old]
                    dropped.lock.release()

    def use(self, gid: str, work):
        """``work(session)`` under the game's lock (one request at a time changes a game)."""
        while True:
            s = self.get(gid)
            with s.lock:
                if not s.dropped:
                    return work(s)

    def get(self, gid: str) -> Session:
        if not ID_RE.match(gid):
            raise Refused(f"no game {gid[:40]!r}", 404)
        with self.lock:
            s = self.live.get(gid)
            if s is not None:
                self.live.move_to_end(gid)
                return s
            loading = self.loading.setdefault(gid, threading.Lock())
        with loading:
            with self.lock:
                if gid in self.live:
                    return self.live[gid]
            out = None if self.root is None else self.root / gid
            if out is None or not (out / SETUP).is_file() or not (out / LOG).is_file():
                raise Refused(f"no game {gid!r}", 404)
            s = Session.load(gid, out)
            self._keep(gid, s)
            return s


async def body_of(request: Request) -> dict:
    """The request's JSON object (``Refused``: 413 over ``MAX_BODY``, 400 not a JSON object)."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise Refused(f"the body is over {MAX_BODY} bytes", 413)
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise Refused(f"the body is over {MAX_BODY} bytes", 413)
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise Refused("the body is not JSON", 400) from None
    if not isinstance(data, dict):
        raise Refused("the body must be a JSON object", 400)
    return data


def create_app(root: Path | None, max_live: int = MAX_LIVE) -> Starlette:
    """The app serving the games saved under ``root`` (created if missing; ``None``: nothing saved, every
    game kept in memory; else at most ``max_live`` in memory at once)."""
    if root is not None:
        root.mkdir(parents=True, exist_ok=True)
    games = Games(root, max_live)
    html = page()

    def handler(work):
        """An endpoint: the body read, ``work(games, gid, body)`` run in a worker thread under the game's
        lock, its dict answered as JSON; a ``Refused`` answered with its status and one line."""
        async def endpoint(request: Request):
            try:
                body = await body_of(request) if request.method == "POST" else {}
                gid = request.path_params.get("gid")
                return await run_in_threadpool(run, gid, body)
            except Refused as e:
                return error(str(e), e.status)

        def run(gid, body):
            if gid is None:
                return work(None, body)
            return JSONResponse(games.use(gid, lambda s: work(s, body)))
        return endpoint

    def create(_, body):
        setup = setup_of(body)
        s = games.new(setup)
        return JSONResponse({"id": s.id, "steps": s.first_steps, "view": s.view()}, status_code=201)

    def look(s, body):
        return {"steps": [], "view": s.view(), "history": s.history()}

    def move(s, body):
        extra = set(body) - {"n", "text"}
        if extra or len(body) != 1:
            raise Refused('a move: {"n": a listed move\'s number} or {"text": "its words"}', 400 if extra else 422)
        steps = s.move_number(body["n"]) if "n" in body else s.move_words(body["text"])
        return {"steps": steps, "view": s.view()}

    def auto(s, body):
        reach = body.get("reach", "move")
        if set(body) - {"reach"} or not isinstance(reach, str):
            raise Refused('auto: {"reach": "move" | "unit" | "game"}', 400)
        return {"steps": s.auto_play(reach), "view": s.view()}

    def next_unit(s, body):
        return {"steps": s.next_unit(), "view": s.view()}

    def hint(s, body):
        if s.decision is None:
            raise Refused("no decision of yours now")
        return {"steps": [], "view": s.view(hint=True)}

    def check(s, body):
        meld = body.get("meld")
        if meld is not None and (not isinstance(meld, int) or isinstance(meld, bool) or not 0 <= meld < 64):
            raise Refused("meld: a table meld's index (from 0)", 400)
        return s.check(body.get("cards", []), meld)

    def options_(_, body):
        return JSONResponse(options())

    async def index(request: Request):
        return HTMLResponse(html)

    async def http_error(request: Request, exc: HTTPException):
        return error(exc.detail, exc.status_code)

    routes = [Route("/", index), Route("/api/options", handler(options_)),
              Route("/api/games", handler(create), methods=["POST"]),
              Route("/api/games/{gid}", handler(look)),
              Route("/api/games/{gid}/move", handler(move), methods=["POST"]),
              Route("/api/games/{gid}/auto", handler(auto), methods=["POST"]),
              Route("/api/games/{gid}/next", handler(next_unit), methods=["POST"]),
              Route("/api/games/{gid}/hint", handler(hint), methods=["POST"]),
              Route("/api/games/{gid}/check", handler(check), methods=["POST"])]
    app = Starlette(routes=routes, exception_handlers={HTTPException: http_error})
    app.state.games = games
    return app
