"""rummysim serve (issue 28): the JSON API played by Starlette's TestClient (a game by auto equals run's
rows, no response shows a card the seat may not see, a bad request is refused in one line and changes
nothing, a new server on the same directory resumes a game) and the page in a real headless Chromium."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import threading
import time
import warnings

import httpx
import pandas as pd
import pytest

import rummysim
from rummysim.cli import main
from rummysim.cards import card_id, card_name, cards_of
from rummysim.variants import variant_named

from serve_client import auto_to_the_end, client, decide, new_game, seq
from rummysim.serve import Limits, create_app
from rummysim.replay_html import template
from rummysim.serve.view import meld_of, move_parts

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

CARD = re.compile(r"(?<![A-Za-z0-9])([CDHS](?:10|[2-9AJQK]))(?![A-Za-z0-9])")
MAX_BODY = Limits().body


# ------------------------------------------------------------------ what the seat may not see
def hidden_now(game) -> set[str]:
    """The cards seat 0 may not see now: the others' cards not known to be held, and the stock (Basic
    Rummy's card masks; Shanghai's copies per card)."""
    s, out = game.state, set()
    for q in range(1, game.players):
        if hasattr(game, "M_HAND"):
            out |= set(cards_of(int(s.masks[game.M_HAND + q]) & ~int(game.known[q])))
        else:
            out |= {c for c in range(64) if s.hands[q][c] > game.known[q][c]}
    out |= set(int(c) for c in game._stock()[:int(s.ints[game.I_STOCK_N])])
    return {card_name(c) for c in out}


def shown_this_unit(events: list[dict]) -> set[str]:
    """The cards seat 0 has seen this hand (round): its deal, its own draws and buys, and every card
    put down or taken from the pile."""
    seen = set(events[0]["hands"][0]) | {events[0]["upcard"]}
    for e in events[1:]:
        if e["event"] == "draw" and e["source"] == "stock" and e["player"] != 0:
            continue
        if e["event"] == "buy" and e["player"] == 0:
            seen.add(e["penalty"])
        seen.update([e["card"]] if isinstance(e.get("card"), str) else [])
        seen.update(e.get("cards", []))
        seen.update(c for m in e.get("melds", []) for c in m)
    return seen


def check_hidden(app, gid: str, answer: dict) -> None:
    """No card of ``answer`` (a response's JSON) is one the seat may not see: compared with the game's
    state on the server (the final view strictly; the steps since this hand's deal against the cards
    shown this hand)."""
    s = app.state.games.live[gid]
    if s.waiting:          # the hand is over: its end shows every hand, as play does
        return
    secret = hidden_now(s.game) - shown_this_unit(s.events)

    def shown(view):      # what a table meld takes is the rules' word on its ends, not a card anyone holds
        return json.dumps({**view, "ended": [], "melds": [m["cards"] for m in view["melds"]]})
    leaked = set(CARD.findall(shown(answer["view"]))) & secret
    assert not leaked, f"the view shows {leaked}"
    steps = answer["steps"]
    deals = [i for i, st in enumerate(steps) if st["kind"] == "deal"]
    for line in answer.get("history", []):      # a reload's account of this hand
        leaked = set(CARD.findall(line)) & secret
        assert not leaked, f"{line!r} shows {leaked}"
    for st in steps[deals[-1] if deals else 0:]:
        leaked = set(CARD.findall(st["line"] + shown(st["view"]))) & secret
        assert not leaked, f"{st['line']!r} shows {leaked}"


def test_move_parts_and_meld_lines():
    assert move_parts("meld H3 H4 H5") == {"verb": "meld", "cards": ["H3", "H4", "H5"], "melds": []}
    assert move_parts("layoff SQ 2") == {"verb": "layoff", "cards": ["SQ"], "melds": [1]}
    assert move_parts("take D9")["cards"] == []
    assert move_parts("swap H7 2 JK 3 low") == {"verb": "swap", "cards": ["H7"], "melds": [1, 2]}
    assert move_parts("contract S7 H7 D7 / C4 C5 JK C7")["cards"] == ["S7", "H7", "D7", "C4", "C5", "JK", "C7"]
    assert meld_of("2: H3 H4 H5 (takes H2 H6)") == {"n": 2, "cards": ["H3", "H4", "H5"], "fits": ["H2", "H6"],
                                                    "text": "2: H3 H4 H5 (takes H2 H6)", "note": "(takes H2 H6)"}
    assert meld_of("1: H5 JK H7 [you] takes H4 JK")["fits"] == ["H4", "JK"]


def test_the_page_draws_the_replay_pages_cards():
    """Both pages put in the one card drawing (replay_html/cards.js, card_symbols.svg)."""
    c = client(None)
    page = c.get("/", params={"token": c.app.state.token}).text
    for text in (page, template()):
        assert text.count("function cardSvg") == 1 and text.count('<path id="suit-H"') == 1
        assert "/*CARD-DRAWING*/" not in text and "<!--CARD-SYMBOLS-->" not in text
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page), "the page fetches nothing from elsewhere"
    opts = c.get("/api/options").json()
    assert {v["name"] for v in opts["variants"]} >= {"basic"} and "expert" in opts["variants"][0]["strategies"]


def test_a_game_by_auto_is_runs_game_row_for_row(tmp_path):
    """Move by move through the API (auto, the listed moves' numbers the hint names, next hand), every
    response checked for hidden cards; the server restarted halfway; the saved game equals game 0 of
    ``run --games 1`` with the same seed and strategies."""
    app = create_app(tmp_path)
    c = client(app)
    first = new_game(c)
    gid = first["id"]
    check_hidden(app, gid, first)
    answers = 0
    while True:
        look = c.get(f"/api/games/{gid}").json()
        check_hidden(app, gid, look)
        view = look["view"]
        if view["state"] == "over":
            break
        if answers == 40:      # a new server on the same directory: the game is rebuilt from its move log
            log = tmp_path / gid / "moves.jsonl"
            before = log.read_text()
            with open(log, "a") as f:   # the server stopped in the middle of writing an answer
                f.write('{"auto": "mo')
            app = create_app(tmp_path)
            c = client(app)
            assert c.get(f"/api/games/{gid}").json()["view"] == view   # that answer was never acknowledged
            assert log.read_text() == before
        if view["state"] == "ended":
            r = decide(c, gid, "next")
        elif answers % 3 == 0:   # the hint's move by its number and words: the same move as auto
            hint = c.post(f"/api/games/{gid}/hint").json()["view"]["hint"]
            r = decide(c, gid, "move", n=hint["n"], move=hint["words"])
        elif answers % 3 == 1:   # ... by its words alone
            words = c.post(f"/api/games/{gid}/hint").json()["view"]["hint"]["words"]
            r = decide(c, gid, "move", move=words)
        else:
            r = decide(c, gid, "auto", reach="move")
        assert r.status_code == 200, r.text
        check_hidden(app, gid, r.json())
        answers += 1
    assert answers > 40
    out = tmp_path / gid
    v = variant_named("basic")
    run = rummysim.simulate(games=1, players=2, strategies=["expert", "expert"], seed=1, variant="basic")
    played = {t: pd.read_parquet(out / f"{t}.parquet") for t in (v.table, "seats", "games")}
    assert played[v.table].equals(run.hands)
    assert played["games"].equals(run.games)
    assert played["seats"].drop(columns="strategy").equals(run.seats.drop(columns="strategy"))
    record = json.loads((out / "run.json").read_text())
    assert record["status"] == "complete" and record["play"]["totals"] == view["scores"]
    assert len(list((out / "events").iterdir())) == record["hands_played"]


def test_auto_to_the_end_saves_runs_rows(tmp_path, capsys):
    """Auto to the end of the game: run's rows, and replay --from and report read the saved game."""
    c = client(tmp_path)
    gid = new_game(c, seed=4, opponents=["greedy"], rules=["target=60"])["id"]
    assert auto_to_the_end(c, gid)["view"]["state"] == "over"
    run = rummysim.simulate(games=1, players=2, strategies=["expert", "greedy"], seed=4, variant="basic",
                            rules={"target": 60})
    assert pd.read_parquet(tmp_path / gid / "hands.parquet").equals(run.hands)
    assert decide(c, gid, "auto", reach="game").json() == {"error": "the game is over"}
    capsys.readouterr()
    main(["replay", "--from", str(tmp_path / gid), "--hand", "0"])
    shown = capsys.readouterr().out
    assert shown.startswith("Basic Rummy: seed 4, game 0, hand 0\n2 players: seat 0 human, seat 1 greedy")
    main(["report", str(tmp_path / gid), "-o", str(tmp_path / "report")])
    assert (tmp_path / "report" / "report.html").is_file()


@pytest.mark.parametrize("variant, opponents, seed", [("shanghai", ["buyer", "greedy"], 5), ("gin", ["expert"], 3)])
def test_shanghai_and_gin_through_the_api(tmp_path, variant, opponents, seed):
    """By auto, move by move, every response checked for hidden cards: run's rows; resumed."""
    app = create_app(tmp_path)
    c = client(app)
    first = new_game(c, variant=variant, players=len(opponents) + 1, opponents=opponents, seed=seed)
    gid = first["id"]
    check_hidden(app, gid, first)
    while (look := c.get(f"/api/games/{gid}").json())["view"]["state"] != "over":
        check_hidden(app, gid, look)
        r = decide(c, gid, "next" if look["view"]["state"] == "ended" else "auto")
        assert r.status_code == 200, r.text
        check_hidden(app, gid, r.json())
    v = variant_named(variant)
    run = rummysim.simulate(games=1, players=len(opponents) + 1, strategies=["expert", *opponents], seed=seed,
                            variant=variant)
    assert pd.read_parquet(tmp_path / gid / f"{v.table}.parquet").equals(run.hands)
    assert pd.read_parquet(tmp_path / gid / "games.parquet").equals(run.games)
    assert client(tmp_path).get(f"/api/games/{gid}").json() == look


def test_bad_requests_are_refused_in_one_line_and_change_nothing(tmp_path):
    c = client(tmp_path)
    gid = new_game(c)["id"]
    log = tmp_path / gid / "moves.jsonl"
    before, logged = c.get(f"/api/games/{gid}").json(), log.read_text()
    bad = [
        (c.get, "/api/games/0123456789abcdef", None, 404),
        (c.get, "/api/games/../etc", None, 404),
        (c.post, f"/api/games/{'f' * 16}/move", {"seq": 0, "move": "draw stock"}, 404),
        (c.post, f"/api/games/{gid}/move", b"{not json", 400),
        (c.post, f"/api/games/{gid}/move", b"[1, 2]", 400),
        (c.post, f"/api/games/{gid}/move", b"x" * (MAX_BODY + 1), 413),
        (c.post, f"/api/games/{gid}/move", {"seq": 0, "n": 99, "move": "draw stock"}, 422),
        (c.post, f"/api/games/{gid}/move", {"seq": 0, "n": "1", "move": "draw stock"}, 422),
        (c.post, f"/api/games/{gid}/move", {"seq": 0, "n": 1}, 400),         # a number without the move
        (c.post, f"/api/games/{gid}/move", {"seq": 0, "n": 1, "move": "stop"}, 409),   # not what it lists
        (c.post, f"/api/games/{gid}/move", {"move": "draw stock"}, 400),    # no seq
        (c.post, f"/api/games/{gid}/move", {"seq": "0", "move": "draw stock"}, 400),
        (c.post, f"/api/games/{gid}/move", {"seq": 1, "move": "draw stock"}, 409),     # not come yet
        (c.post, f"/api/games/{gid}/move", {"seq": 0, "card": "D9"}, 400),
        (c.post, f"/api/games/{gid}/move", {"seq": 0, "move": "discard D9"}, 422),     # a discard at the draw
        (c.post, f"/api/games/{gid}/move", {"seq": 0, "move": "meld H3"}, 422),
        (c.post, f"/api/games/{gid}/move", {"seq": 0, "move": "fly away"}, 422),
        (c.post, f"/api/games/{gid}/move", {"seq": 0, "move": ""}, 422),
        (c.post, f"/api/games/{gid}/auto", {"seq": 0, "reach": "forever"}, 422),
        (c.post, f"/api/games/{gid}/auto", {"seq": 0, "reach": 3}, 422),
        (c.post, f"/api/games/{gid}/next", {"seq": 0}, 422),                          # the hand is not over
        (c.post, f"/api/games/{gid}/check", {"cards": ["ZZ"]}, 422),
        (c.post, "/api/games", {"variant": "poker"}, 422),
        (c.post, "/api/games", {"opponents": ["nobody"]}, 422),
        (c.post, "/api/games", {"rules": ["target=-3"]}, 422),
        (c.post, "/api/games", {"players": 99}, 422),
        (c.post, "/api/games", {"colour": "red"}, 400),
    ]
    for call, path, body, status in bad:
        kw = {} if body is None else {"content": body} if isinstance(body, bytes) else {"json": body}
        r = call(path, **kw)
        assert r.status_code == status, (path, body, r.text)
        answer = r.json()
        assert list(answer) == ["error"] and "\n" not in answer["error"] and answer["error"], answer
    assert c.get(f"/api/games/{gid}").json() == before
    assert log.read_text() == logged
    assert sorted(p.name for p in tmp_path.iterdir()) == [gid]     # no game made by a refused create
    why = c.post(f"/api/games/{gid}/check", json={"cards": before["view"]["hand"][:2]}).json()
    assert why["ok"] is False and "draw" in why["reason"]


def test_several_games_at_once(tmp_path):
    app = create_app(tmp_path)
    c = client(app)
    ids = [new_game(c, seed=s)["id"] for s in (1, 2, 3)]
    errors = []

    def play(gid):
        try:
            with client(app) as own:
                assert auto_to_the_end(own, gid)["view"]["state"] == "over"
        except Exception as e:   # noqa: BLE001 - reported below
            errors.append(e)
    threads = [threading.Thread(target=play, args=(g,)) for g in ids]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for s, gid in zip((1, 2, 3), ids):
        run = rummysim.simulate(games=1, players=2, strategies=["expert", "expert"], seed=s, variant="basic")
        assert pd.read_parquet(tmp_path / gid / "hands.parquet").equals(run.hands)


def test_games_dropped_from_memory_come_back_from_their_directory(tmp_path):
    """At most max_live games in memory: the others are rebuilt from their move logs when asked for."""
    app = create_app(tmp_path, limits=Limits(live=1))
    c = client(app)
    ids = [new_game(c, seed=s)["id"] for s in (1, 2, 3)]
    assert list(app.state.games.live) == ids[-1:]
    for _ in range(4):
        for gid in ids:
            state = c.get(f"/api/games/{gid}").json()["view"]["state"]
            if state != "over":
                r = decide(c, gid, "next") if state == "ended" else decide(c, gid, "auto", reach="unit")
                assert r.status_code == 200, r.text
            assert len(app.state.games.live) == 1
    fresh = client(tmp_path)
    assert all(fresh.get(f"/api/games/{g}").json() == c.get(f"/api/games/{g}").json() for g in ids)


def test_the_serve_command_listens_on_localhost_and_says_where(tmp_path):
    port = free_port()
    p = subprocess.Popen([sys.executable, "-m", "rummysim", "serve", "--port", str(port), "--dir", str(tmp_path / "g")],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = p.stdout.readline()
        m = re.match(rf"rummysim serve: (http://127\.0\.0\.1:{port}/\?token=([\w-]+)) \(games saved in (.*);", line)
        assert m and m.group(3) == str(tmp_path / "g"), line
        assert "function cardSvg" in httpx.get(m.group(1)).text
        assert httpx.get(f"http://127.0.0.1:{port}/").status_code == 403        # the page needs the token
        api = httpx.get(f"http://127.0.0.1:{port}/nowhere", headers={"X-Rummysim-Token": m.group(2)})
        assert api.json() == {"error": "Not Found"}
    finally:
        p.terminate()
        p.wait(30)


# ------------------------------------------------------------------ the page, in a real browser
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """uvicorn serving the page in a thread, on a free port: its address and the app."""
    import uvicorn
    root = tmp_path_factory.mktemp("serve")
    app = create_app(root)
    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    t = threading.Thread(target=srv.run, daemon=True)
    t.start()
    for _ in range(200):
        if srv.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/?token={app.state.token}", app, root
    srv.should_exit = True
    t.join(10)


def spoken(card: str) -> str:
    """A card as a screen reader says it: ``queen of hearts``."""
    ranks = dict(zip(["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"],
                     "ace two three four five six seven eight nine ten jack queen king".split()))
    return "joker" if card == "JK" else f"{ranks[card[1:]]} of {dict(C='clubs', D='diamonds', H='hearts', S='spades')[card[0]]}"


class Table:
    """The page in the browser, played by clicking as a person would, checked against the server."""

    def __init__(self, browser, url, app, width=1000):
        # the test's own waits evaluate strings, which the page's CSP forbids (test_the_page_runs_under_its_csp)
        self.page = browser.new_page(viewport={"width": width, "height": 900}, bypass_csp=True)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        here = url.split("?")[0]
        self.page.on("request", lambda r: None if r.url.startswith(here) else self.errors.append("fetched " + r.url))
        self.url, self.app = url, app
        self.page.goto(url)
        self.page.wait_for_selector("#variant option", state="attached")

    def answers(self) -> int:
        return int(self.page.evaluate("+(document.body.dataset.answers || 0)"))

    def after(self, action) -> None:
        """Do ``action`` (a click) and wait for the page to have shown the server's answer."""
        n = self.answers()
        action()
        self.page.wait_for_function(f"+(document.body.dataset.answers || 0) > {n}", timeout=120_000)

    def start(self, variant, opponents, seed, rules="", players=None):
        p = self.page
        p.select_option("#variant", variant)
        if players:
            p.fill("#players", str(players))
        p.fill("#opponents", opponents)
        p.fill("#rules", rules)
        p.fill("#seed", str(seed))
        self.after(lambda: p.click("#start"))
        self.gid = re.search(r"game=([0-9a-f]{16})", p.url).group(1)

    @property
    def session(self):
        return self.app.state.games.live[self.gid]

    def hand(self) -> list[str]:
        return self.page.eval_on_selector_all("#hand .card-btn", "bs => bs.map(b => b.dataset.card)")

    def log(self) -> list[str]:
        return self.page.eval_on_selector_all("#log p", "ps => ps.map(p => p.textContent)")

    def select(self, cards: list[str]) -> None:
        for c in cards:
            self.page.locator(f'#hand .card-btn[data-card="{c}"][aria-pressed="false"]').first.click()

    def offered(self) -> list[str]:
        return self.page.eval_on_selector_all("#offered button", "bs => bs.map(b => b.textContent)")

    def play_hint(self, typed: bool = False, prefer: str | None = None) -> str:
        """The hint strategy's move (or the first listed move of verb ``prefer``), by clicking its cards (and
        its meld) and the offered move; returns its verb."""
        d = self.session.decision
        n = next(i for i, (a, _) in enumerate(d.moves, 1) if a == d.hint)
        n = next((i for i, (_, w) in enumerate(d.moves, 1) if w.split()[0] == prefer), n)
        words = d.moves[n - 1][1]
        parts = move_parts(words)
        p = self.page
        if typed:
            p.fill("#text", words)
            self.after(lambda: p.press("#text", "Enter"))
            return parts["verb"]
        self.select(parts["cards"])
        if parts["verb"].startswith("lay") and parts["melds"]:
            p.click(f'.meld[data-k="{parts["melds"][-1]}"]')
            assert all(m.endswith(f" {parts['melds'][-1] + 1}") or not m.startswith("lay") for m in self.offered())
        assert words in self.offered(), (words, self.offered())
        self.after(lambda: p.click(f'#offered button[data-n="{n}"]'))
        return parts["verb"]

    def refuse_a_wrong_selection(self) -> str:
        """Two cards at a discard: no move offered, the reason shown; the selection cleared after."""
        hand = self.hand()
        self.page.focus("#hand .card-btn >> nth=0")     # the keyboard: a card is a button
        self.page.keyboard.press("Space")
        assert self.page.get_attribute("#hand .card-btn >> nth=0", "aria-pressed") == "true"
        self.select(hand[1:2])
        assert self.offered() == []
        self.page.wait_for_function("document.getElementById('reason').textContent.length > 0")
        reason = self.page.text_content("#reason")
        self.page.keyboard.press("Escape")
        assert self.page.eval_on_selector_all('#hand [aria-pressed="true"]', "bs => bs.length") == 0
        return reason


@pytest.mark.slow   # a browser and a whole game: about a minute
def test_a_basic_game_played_by_clicking(server, browser):
    url, app, root = server
    t = Table(browser, url, app)
    t.start("basic", "expert", 1)
    t.page.fill("#speed", "0")
    verbs, shown, refused, reloaded, decisions = set(), [], None, False, 0
    while True:
        s = t.session
        state = t.page.evaluate("VIEW.state")
        if state == "over":
            break
        if state == "ended":
            t.after(lambda: t.page.click("#next"))
            continue
        assert sorted(t.hand()) == sorted(card_name(c) for c, k in s.game.hand(0).items() for _ in range(k))
        labels = t.page.eval_on_selector_all("#hand .card-btn", "bs => bs.map(b => b.getAttribute('aria-label'))")
        assert [label.split(",")[0] for label in labels] == [spoken(c) for c in t.hand()]
        if refused is None and s.game.step() .startswith("discard") and len(t.hand()) > 2:
            refused = t.refuse_a_wrong_selection()
        if decisions == 12 and not reloaded:      # a reload in the middle resumes the game
            shown += t.log()
            t.page.reload()
            t.page.wait_for_function("+(document.body.dataset.answers || 0) >= 1")
            assert t.page.is_visible("#game") and not t.page.is_visible("#setup")
            reloaded = True
            continue
        verbs.add(t.play_hint(typed=decisions == 5))
        decisions += 1
    shown += t.log()
    assert t.page.text_content("#step").startswith("The game is over: ")
    assert refused.startswith("No move uses exactly") and "one card" in refused
    assert {"draw", "take", "meld", "discard"} <= verbs, verbs
    assert t.errors == []
    # the hint's every move: the saved game is run's game 0; what the page showed is what was saved
    out = root / t.gid
    run = rummysim.simulate(games=1, players=2, strategies=["expert", "expert"], seed=1, variant="basic")
    assert pd.read_parquet(out / "hands.parquet").equals(run.hands)
    game = t.session.game
    saved = [game.event_line(e, t.session.who, 0) for f in sorted((out / "events").iterdir(), key=lambda f: int(f.stem.split("-")[1]))
             for e in map(json.loads, f.read_text().splitlines())]
    saved = [line for line in saved if line]
    it = iter(shown)
    assert all(line in it for line in saved), "the page showed every saved move, in order"
    t.page.close()


@pytest.mark.slow   # a browser: seconds
def test_a_layoff_by_clicking_a_meld(server, browser):
    """Every kind of Basic move: a game laying off whenever it can (the meld clicked, the offered moves
    then only those onto it)."""
    url, app, root = server
    t = Table(browser, url, app, width=380)      # a phone's width
    t.page.fill("#opponents", "nobody")
    t.after(lambda: t.page.click("#start"))
    assert t.page.text_content("#setup-error").startswith("unknown strategy 'nobody'")
    t.start("basic", "greedy", 3, rules="target=30")
    t.page.fill("#speed", "0")
    verbs = set()
    while (state := t.page.evaluate("VIEW.state")) != "over":
        if state == "ended":
            t.after(lambda: t.page.click("#next"))
            continue
        verbs.add(t.play_hint(prefer="layoff"))
    assert "layoff" in verbs, verbs
    assert t.page.evaluate("document.documentElement.scrollWidth") <= 380 + 1, "no sideways scrolling at phone width"
    assert t.errors == []
    t.page.close()


@pytest.mark.slow   # a browser: seconds
@pytest.mark.parametrize("seed, rules, kinds", [
    (4, "", {"take", "draw", "buy", "pass", "contract", "layoff", "discard"}),
    (33, "joker_swap=anyone", {"swap", "take", "buy", "layoff"}),
])
def test_a_shanghai_round_played_by_clicking(server, browser, seed, rules, kinds):
    """Round 1 of Shanghai by clicking the hint's moves (take, draw, buy, pass, the contract's cards, lay
    offs onto a clicked meld, a joker swap, discard): the saved round is run's."""
    url, app, root = server
    t = Table(browser, url, app)
    t.start("shanghai", "buyer, greedy", seed, rules=rules, players=3)
    t.page.fill("#speed", "0")
    verbs = set()
    while t.page.evaluate("VIEW.state") == "decide":
        s = t.session
        assert sorted(t.hand()) == sorted(card_name(c) for c, k in s.game.hand(0).items() for _ in range(k))
        verbs.add(t.play_hint())
    assert t.page.evaluate("VIEW.state") == "ended"
    assert kinds <= verbs, verbs
    assert t.errors == []
    rows = pd.read_parquet(root / t.gid / "rounds.parquet")
    run = rummysim.simulate(games=1, players=3, strategies=["expert", "buyer", "greedy"], seed=seed, variant="shanghai",
                            rules=dict(r.split("=") for r in rules.split()))
    assert rows.equals(run.hands.iloc[:1])
    t.page.close()


@pytest.mark.slow   # a browser: seconds
def test_the_bots_moves_play_out_at_the_chosen_speed(server, browser):
    url, app, root = server
    t = Table(browser, url, app)
    t.start("basic", "greedy, greedy", 2, players=3)
    t.page.fill("#speed", "250")
    before = len(t.log())
    start = time.perf_counter()
    t.after(lambda: t.page.click("#auto-unit"))
    took = time.perf_counter() - start
    bots = [line for line in t.log()[before:] if line.startswith("seat ")]
    assert len(bots) >= 2 and took >= 0.25 * len(bots) * 0.9, (bots, took)
    assert t.page.get_attribute("#speed", "aria-valuetext") == "250 ms"
    t.page.close()


MARKS_IN_SIGHT = """() => [...document.querySelectorAll('#hand .mark')].every(m => {
    const r = m.getBoundingClientRect(), hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit !== null && hit.closest('.card-btn') === m.closest('.card-btn'); })"""


@pytest.mark.slow   # a browser: seconds
def test_a_gin_hand_defended_by_clicking_at_a_phones_width(server, browser):
    """A Gin hand at 390 px: the step names only legal moves, the marks under a wrapped hand stay in
    sight, the bots' last moves are on the board; a partial selection in a meld step is answered with a
    reason (not an error); with nothing selected the defender is offered the melds of the best
    arrangement before "pass", and clicking them scores only the deadwood they leave."""
    from rummysim.variants.gin import moves as GM
    from rummysim.variants.gin.state import I_PHASE, PH_DEFENDER_MELD, PH_DISCARD
    url, app, root = server
    t = Table(browser, url, app, width=390)
    t.start("gin", "greedy", 1)
    t.page.fill("#speed", "0")
    least, partial_reason, melded = None, None, []
    while t.page.evaluate("VIEW.state") == "decide":
        game = t.session.game
        phase, legal = int(game.state.ints[I_PHASE]), set(int(a) for a in game.legal())
        step = t.page.text_content("#step")
        if phase == PH_DISCARD:
            assert ("knock" in step) == (GM.KNOCK in legal), step
        assert t.page.evaluate(MARKS_IN_SIGHT), "a card of the hand's second row covers a mark"
        if phase != PH_DEFENDER_MELD:
            t.play_hint()
            continue
        suggested = [w for a, w in t.session.decision.moves if a in game.suggested(0)]
        assert suggested and t.offered() == suggested + ["pass"], (suggested, t.offered())
        if least is None:
            least = game._deadwood(0)[0]
            t.select(move_parts(suggested[0])["cards"][:2])   # two cards of a meld: not a move
            assert t.offered() == []
            t.page.wait_for_function("document.getElementById('reason').textContent.length > 0")
            partial_reason = t.page.text_content("#reason")
            t.page.keyboard.press("Escape")
        melded.append(suggested[0])
        t.after(lambda: t.page.click("#offered button >> nth=0"))
    assert partial_reason.startswith("No move uses exactly"), partial_reason
    assert melded, "the hand reached the defender's melds"
    end = t.session.ended
    held = end[1].removeprefix("  you held: ").split()
    assert sum(int(game.state.card_value[card_id(c)]) for c in held) == least, (end, least)
    log = t.log()
    assert not any("first_upcard" in line or "(melds)" in line for line in log), log
    latest = t.page.eval_on_selector("#latest", "e => e.getBoundingClientRect().bottom")
    assert latest <= t.page.viewport_size["height"], "the latest moves are in sight"
    assert t.page.evaluate("document.documentElement.scrollWidth") <= 390 + 1
    assert t.errors == []
    t.page.close()


@pytest.mark.slow   # a browser: seconds
def test_the_bots_at_play_leave_nothing_stale_and_can_be_skipped(server, browser):
    """While the bots' moves play out: no prompt or move buttons of the decision just answered, and
    "Skip to the end" shows the rest at once."""
    url, app, root = server
    t = Table(browser, url, app)
    t.start("basic", "greedy, greedy", 2, players=3)
    t.page.fill("#speed", "1500")
    n = t.answers()
    t.page.click("#auto-unit")
    t.page.wait_for_selector("#skip:not(.hidden)")
    assert t.page.text_content("#step") == "The bots are playing..."
    assert t.offered() == [] and t.page.is_disabled("#auto-unit") and t.page.is_disabled("#hint")
    start = time.perf_counter()
    t.page.click("#skip")
    t.page.wait_for_function(f"+(document.body.dataset.answers || 0) > {n}", timeout=60_000)
    bots = [line for line in t.log() if line.startswith("seat ")]
    assert len(bots) >= 4 and time.perf_counter() - start < 1.5 * 2, "skipped: at most the pause under way"
    assert t.page.is_hidden("#skip") and t.page.text_content("#step") != "The bots are playing..."
    t.page.close()


@pytest.mark.slow   # a browser: seconds
def test_the_page_runs_under_its_csp(server, browser):
    """The page's one script runs under the policy the server sends (its hash), and nothing is refused:
    a game started and a move played by clicking, no CSP violation in the console."""
    url, app, root = server
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    refused = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda e: refused.append(str(e)))
    page.goto(url)
    page.wait_for_selector("#variant option", state="attached")
    page.fill("#seed", "1")
    page.click("#start")
    page.wait_for_selector("#game:not(.hidden) #offered button")
    page.click("#offered button >> nth=0")
    page.wait_for_selector("#log p.you")
    assert refused == []
    assert page.url.startswith(url.split("#")[0]) and "#game=" in page.url    # the token kept in the address
    page.close()
