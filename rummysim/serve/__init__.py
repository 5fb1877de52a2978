"""``rummysim serve``: play against the bots in the browser.

A Starlette app (``app.create_app``) run by uvicorn on 127.0.0.1 by default: one page (``page.html``,
its cards drawn by the replay page's SVG code) and a JSON API over games played on the same driver and
legal-move layer as ``rummysim play`` (``session.Session``: the person in seat 0, the hint strategy
asked first at each of their decisions). The server keeps every game's state; the page is only told
what the seat may see (``view``). Each game is saved under the server's directory like ``play``'s, with
its move log, so a reloaded page or a restarted server resumes it.
"""

from __future__ import annotations

import threading
import webbrowser
from pathlib import Path

from .app import MAX_BODY, create_app
from .session import Refused, Session

__all__ = ["MAX_BODY", "Refused", "Session", "create_app", "serve"]


def serve(root: Path, host: str = "127.0.0.1", port: int = 8000, open_browser: bool = False, echo=print) -> None:
    """Serve the games of ``root`` at ``host:port`` until Ctrl-C; ``echo`` says the address; the
    default browser opens the page only when ``open_browser``."""
    import uvicorn   # here, not on top: every rummysim command imports this package (cli.py)

    app = create_app(root)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '') else shown}:{port}/"
    config = uvicorn.Config(app, host=host, port=port, log_level="warning")
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
