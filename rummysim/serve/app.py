"""The Starlette app of ``rummysim serve``: the page and a JSON API over ``Session``s, one per game id.

    GET  /?token=T                  the page (static HTML and JS, no external fetch), the token put in
    GET  /api/options               variants, their players, shipped strategies, rule options
    POST /api/games                 {variant, players, opponents, rules, seed, hint} -> 201 {id, steps, view}
    GET  /api/games/{id}            {view, history}: what seat 0 sees now and this hand's moves (a reload resumes here)
    POST /api/games/{id}/move       {"seq": k, "move": "meld H3 H4 H5", "n": listed number (optional)} -> {steps, view}
    POST /api/games/{id}/auto       {"seq": k, "reach": "move" | "unit" | "game"} -> {steps, view}
    POST /api/games/{id}/next       {"seq": k}: the next hand (round) -> {steps, view}
    POST /api/games/{id}/hint       {view} with the hint strategy's move and why
    POST /api/games/{id}/check      {"cards": [...], "meld": k}: why no listed move uses exactly those cards

Who may call (``Guard``, around every request): a ``Host`` that is this server's own address
(127.0.0.1, localhost, [::1] or the address it listens on: a DNS-rebinding page is refused), an
``Origin`` (when sent) of that address and port, never a cross-site fetch, and the server's token:
in the page's address (``?token=``, printed by ``rummysim serve``) for the page, in the
``X-Rummysim-Token`` header for every ``/api`` call (a page of another origin cannot send it, nor
read it). Every answer carries a content security policy (the page's one script by its hash, nothing
fetched from elsewhere, no framing) and ``Referrer-Policy: no-referrer``.

``seq``: the number of the person's answers so far (the view's ``seq``): a decision request names the
decision it answers. A request whose ``seq`` is not the current one is refused with 409 and changes
nothing, except the last answered request sent again (the same body), which gets the same answer.

``steps``: what the seat saw happen since its last decision, a line each, with the table as it was then
(the page plays them out at the chosen speed). A refused request gets a 4xx and one line,
``{"error": "..."}``, and changes nothing: a caller the guard refuses 403, unknown game 404, a body
that is not a JSON object 400, a stale decision 409, a body over ``Limits.body`` 413, too many games 429,
an illegal or malformed move 422.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import secrets
import threading
import time
from collections import OrderedDict
from importlib import resources
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse
from starlette.routing import Route

from ..replay_html import with_cards
from ..strategy import builtin_names
from ..variants import DEFAULT_VARIANT, VARIANTS
from .session import ID_RE, LOG, SETUP, Limits, Refused, Session, setup_of

#: the header every ``/api`` call carries the server's token in
TOKEN_HEADER = "X-Rummysim-Token"
#: where the page's HTML gets the token
TOKEN_SLOT = "__RUMMYSIM_TOKEN__"
#: the addresses of this machine a browser may name in ``Host`` and ``Origin``
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def page() -> str:
    """The page, its cards drawn as the replay page draws them (``replay_html.with_cards``)."""
    return with_cards(resources.files(__package__).joinpath("page.html").read_text(encoding="utf-8"))


def script_hash(html: str) -> str:
    """The CSP source of the page's one inline script: ``'sha256-...'`` of its text."""
    scripts = re.findall(r"<script>(.*?)</script>", html, flags=re.S)
    if len(scripts) != 1:
        raise ValueError(f"the page must have exactly one inline script, it has {len(scripts)}")
    return "'sha256-" + base64.b64encode(hashlib.sha256(scripts[0].encode("utf-8")).digest()).decode() + "'"


def security_headers(script: str) -> dict[str, str]:
    """The headers of every answer: the page's script by its hash and nothing fetched from elsewhere,
    no framing, no referrer (the page's address carries the token), nothing kept in a cache."""
    csp = (f"default-src 'none'; script-src {script}; style-src 'unsafe-inline'; img-src 'self' data:; "
           "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
    return {"Content-Security-Policy": csp, "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer",
            "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store",
            "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Resource-Policy": "same-origin"}


def options() -> dict:
    """What the setup form offers: each variant's title, players, shipped strategies, hint strategy,
    rule options and unit."""
    return {"default": DEFAULT_VARIANT, "variants": [
        {"name": v.name, "title": v.title, "players": list(v.players), "unit": v.unit,
         "strategies": builtin_names(v), "hint": v.hint_strategy, "rules": list(v.rule_options)}
        for v in VARIANTS.values()]}


def error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": str(message).splitlines()[0] if message else "error"}, status_code=status)


def host_name(value: str) -> str:
    """The host of a ``Host`` header or an origin's ``host[:port]``, lower case, IPv6 without brackets."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


class Guard:
    """ASGI middleware: refuses (403, one line) a request from anyone but this server's own page or a
    script that has its token, and puts ``security_headers`` on every answer.

    ``hosts``: the host names this server answers to; ``port``: the port it listens on (None: any, for
    an app not run by ``serve``); ``token``: the server's secret."""

    def __init__(self, app, token: str, hosts: tuple[str, ...], port: int | None, headers: dict[str, str]):
        self.app, self.token, self.port = app, token, port
        self.hosts = {host_name(h) for h in hosts}
        self.headers = headers

    def refusal(self, scope) -> tuple[str, int] | None:
        """Why the request is refused, or None."""
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        if host_name(host) not in self.hosts:
            return f"Host {host[:60]!r} is not this server's address", 403
        origin = headers.get("origin")
        if origin is not None:
            parts = urlsplit(origin)
            if parts.scheme != "http" or host_name(parts.netloc) not in self.hosts or \
                    (self.port is not None and (parts.port or 80) != self.port):
                return f"a page of {origin[:60]!r} may not call this server", 403
        if headers.get("sec-fetch-site") == "cross-site":
            return "a page of another site may not call this server", 403
        path = scope.get("path", "")
        if path.startswith("/api/") or path == "/api":
            given = headers.get(TOKEN_HEADER.lower(), "")
            if not secrets.compare_digest(given.encode(), self.token.encode()):
                return (f"missing or wrong {TOKEN_HEADER} header: the page sends it; a script takes the token "
                        "from the address rummysim serve printed", 403)
        elif path == "/":
            given = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token", [""])[0]
            if not secrets.compare_digest(given.encode(), self.token.encode()):
                return "open the address rummysim serve printed: it carries the server's token (?token=...)", 403
        return None

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        start = time.perf_counter()

        async def send_secured(message):
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for k, v in self.headers.items():
                    headers[k] = v
                # the server's own time on the request, apart from the network and the client's
                headers["Server-Timing"] = f"app;dur={1000 * (time.perf_counter() - start):.1f}"
            await send(message)

        refused = self.refusal(scope)
        if refused is not None:
            answer = (PlainTextResponse(refused[0] + "\n", status_code=refused[1]) if scope.get("path") == "/"
                      else error(*refused))
            return await answer(scope, receive, send_secured)
        return await self.app(scope, receive, send_secured)


class Games:
    """The games of a server directory ``root`` (``None``: kept in memory only): each in
    ``root/<id>/``, loaded from there (its move log replayed) when asked for and not in memory; at
    most ``limits.games`` of them, and ``limits.live`` in memory at once."""

    def __init__(self, root: Path | None, limits: Limits, strategy_dirs: tuple[Path, ...]):
        self.root, self.limits, self.strategy_dirs = root, limits, strategy_dirs
        self.live: OrderedDict[str, Session] = OrderedDict()
        self.lock = threading.Lock()
        self.loading: dict[str, threading.Lock] = {}
        self.count = len(self.saved_ids()) if root is not None else 0

    def saved_ids(self) -> list[str]:
        """The ids of the games saved under ``root`` (a directory whose creation finished: its setup written)."""
        return [d.name for d in self.root.iterdir() if ID_RE.match(d.name) and (d / SETUP).is_file()]

    def new(self, setup: dict) -> Session:
        with self.lock:
            if self.count >= self.limits.games:
                raise Refused(f"this server keeps at most {self.limits.games:,} games (--max-games): "
                              "start it on another --dir for more", 429)
            self.count += 1
            while True:
                gid = secrets.token_hex(8)
                if gid not in self.live and (self.root is None or not (self.root / gid).exists()):
                    break
        try:
            s = Session.create(gid, setup, None if self.root is None else self.root / gid, self.limits,
                               self.strategy_dirs)
        except BaseException:
            with self.lock:
                self.count -= 1
            raise
        self._keep(gid, s)
        return s

    def _keep(self, gid: str, s: Session) -> None:
        """Hold ``s`` in memory, dropping the least recently used saved games not in use beyond ``limits.live``."""
        with self.lock:
            self.live[gid] = s
            if self.root is None:
                return
            for old in list(self.live)[:max(0, len(self.live) - self.limits.live)]:
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
            s = Session.load(gid, out, self.limits, self.strategy_dirs)
            self._keep(gid, s)
            return s


async def body_of(request: Request, limit: int) -> dict:
    """The request's JSON object (``Refused``: 413 over ``limit`` bytes, 400 not a JSON object)."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > limit):
        raise Refused(f"the body is over {limit} bytes", 413)
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > limit:
            raise Refused(f"the body is over {limit} bytes", 413)
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise Refused("the body is not JSON", 400) from None
    if not isinstance(data, dict):
        raise Refused("the body must be a JSON object", 400)
    return data


def create_app(root: Path | None, strategy_dirs: tuple[Path, ...] = (), limits: Limits = Limits(),
               token: str | None = None, hosts: tuple[str, ...] = LOOPBACK, port: int | None = None):
    """The app serving the games saved under ``root`` (created if missing; ``None``: nothing saved, every
    game kept in memory). Opponents and hints are shipped strategies by name, or ``.toml`` files under
    ``strategy_dirs`` (nothing else is read for a caller); ``token``: the server's secret (None: a new
    one, in ``app.state.token``); ``hosts``: the host names it answers to; ``port``: the one an
    ``Origin`` must name (None: any)."""
    if root is not None:
        root.mkdir(parents=True, exist_ok=True)
    strategy_dirs = tuple(Path(d).resolve() for d in strategy_dirs)
    token = token or secrets.token_urlsafe(24)
    games = Games(root, limits, strategy_dirs)
    html = page()
    headers = security_headers(script_hash(html))
    html = html.replace(TOKEN_SLOT, token)

    def handler(work):
        """An endpoint: the body read, ``work(games, gid, body)`` run in a worker thread under the game's
        lock, its dict answered as JSON; a ``Refused`` answered with its status and one line."""
        async def endpoint(request: Request):
            try:
                body = await body_of(request, limits.body) if request.method == "POST" else {}
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
        setup = setup_of(body, limits, strategy_dirs)
        s = games.new(setup)
        return JSONResponse({"id": s.id, "steps": s.first_steps, "view": s.view()}, status_code=201)

    def look(s, body):
        return {"steps": [], "view": s.view(), "history": s.history()}

    def decision(kind):
        return lambda s, body: s.answer_request(kind, body)

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

    async def server_error(request: Request, exc: Exception):
        return error(f"the server failed on this request ({type(exc).__name__}); the game is as it was", 500)

    routes = [Route("/", index), Route("/api/options", handler(options_)),
              Route("/api/games", handler(create), methods=["POST"]),
              Route("/api/games/{gid}", handler(look)),
              Route("/api/games/{gid}/move", handler(decision("move")), methods=["POST"]),
              Route("/api/games/{gid}/auto", handler(decision("auto")), methods=["POST"]),
              Route("/api/games/{gid}/next", handler(decision("next")), methods=["POST"]),
              Route("/api/games/{gid}/hint", handler(hint), methods=["POST"]),
              Route("/api/games/{gid}/check", handler(check), methods=["POST"])]
    inner = Starlette(routes=routes, exception_handlers={HTTPException: http_error, Exception: server_error})
    app = Guard(inner, token, hosts, port, headers)
    app.state = inner.state
    inner.state.games, inner.state.token = games, token
    return app
