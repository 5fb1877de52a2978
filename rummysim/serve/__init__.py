"""``rummysim serve``: play against the bots in the browser.

A Starlette app (``app.create_app``) run by uvicorn on 127.0.0.1 by default: one page (``page.html``,
its cards drawn by the replay page's SVG code) and a JSON API over games played on the same driver and
legal-move layer as ``rummysim play`` (``session.Session``: the person in seat 0, the hint strategy
asked first at each of their decisions). The server keeps every game's state; the page is only told
what the seat may see (``view``). Each game is saved under the server's directory like ``play``'s, with
its move log, so a reloaded page or a restarted server resumes it. It reads only what it was started
with (shipped strategies, files under ``--strategies DIR``) and answers only its own page and scripts
that have its token (``app.Guard``).
"""

from __future__ import annotations

import ipaddress
import socket
import threading
import webbrowser
from pathlib import Path

from .app import LOOPBACK, TOKEN_HEADER, create_app
from .session import Limits, Refused, Session

__all__ = ["LOOPBACK", "Limits", "Refused", "Session", "TOKEN_HEADER", "create_app", "is_loopback", "serve"]


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or ``localhost``) is this machine alone."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def own_names(host: str) -> tuple[str, ...]:
    """The host names a browser may use for a server listening on ``host``: loopback's, ``host``, and
    for every address (``0.0.0.0``, ``::``) this machine's name and addresses."""
    names = [*LOOPBACK, host]
    if host in ("0.0.0.0", "::", ""):
        name = socket.gethostname()
        names.append(name)
        try:
            names += [info[4][0] for info in socket.getaddrinfo(name, None)]
        except OSError:
            pass
    return tuple(dict.fromkeys(names))


def serve(root: Path, host: str = "127.0.0.1", port: int = 8000, open_browser: bool = False, echo=print,
          strategy_dirs: tuple[Path, ...] = (), limits: Limits = Limits()) -> None:
    """Serve the games of ``root`` at ``host:port`` until Ctrl-C; ``echo`` says the address (with the
    server's token) and warns when ``host`` is not loopback; the default browser opens the page only
    when ``open_browser``. Opponents and hints: shipped strategies, or files under ``strategy_dirs``."""
    import uvicorn   # here, not on top: every rummysim command imports this package (cli.py)

    app = create_app(root, strategy_dirs, limits, hosts=own_names(host), port=port)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::', '') else shown}:{port}/?token={app.state.token}"
    if not is_loopback(host):
        echo(f"rummysim serve: warning: listening on {host}, not only this machine: anyone who can reach port "
             f"{port} and learns the address below can play here; it is plain HTTP, not encrypted")
    # an idle connection kept 30 s (uvicorn's 5 s equals httpx's and many clients' own expiry: a request
    # sent as the server closed it was lost, a ReadError for the client)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", timeout_keep_alive=30)
    server = uvicorn.Server(config)

    def started():
        while not server.started and not server.should_exit:
            threading.Event().wait(0.05)
        if server.started:
            echo(f"rummysim serve: {url} (games saved in {root}; Ctrl-C stops)")
            if open_browser:
                webbrowser.open(url)
    threading.Thread(target=started, daemon=True).start()
    server.run()
