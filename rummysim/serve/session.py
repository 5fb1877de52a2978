"""One game played in the browser: the person in seat 0 against the bots, on the driver ``play`` uses.

A ``Session`` drives its game with ``rummysim play``'s driver (``play.game.advance``), cut at the
person's decisions: ``Session.advance`` plays the bots (and a decision with one legal move, and the
person's moves while ``auto`` is on) up to the person's next decision, the end of a hand (round) or the
end of the game, and returns what the seat saw happen, a step per line. At each decision of the person the hint strategy is asked first
(``play.game.decide``), so a game played by ``auto`` alone is ``rummysim run --games 1``'s game 0.

Every answer of the person is appended to the game's move log (``moves.jsonl``: the words of a move,
``auto`` for the hint's move, ``next`` for the next hand), so the game is rebuilt by replaying the log
(``Session.load``) after a server restart; the finished hands (rounds) are saved like ``play``'s
(``play.save``: tables, ``run.json``, events).
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from pathlib import Path

from ..base.errors import MoveError
from ..base.rules import parse_rule_options
from ..cards import card_id
from ..play import YOU, new_game
from ..play.game import Decision, Person, advance, chosen, no_move
from ..play.render import seat_called
from ..play.save import human_strategy, save_events, save_game
from ..run import RunSpec
from ..strategy import load_strategy, params_matrix, seat_strategies
from ..variants import DEFAULT_VARIANT, variant_named
from .view import move_parts, view_of

#: the files of a game's directory besides what ``play.save`` writes
SETUP, LOG = "game.json", "moves.jsonl"
#: a game's id: what ``new_id`` makes (also a directory name: nothing else is accepted)
ID_RE = re.compile(r"^[0-9a-f]{16}$")
#: how far ``auto`` plays: one move, to the end of the hand (round), to the end of the game
REACHES = ("move", "unit", "game")


class Refused(ValueError):
    """A request that changes nothing: its one-line reason and the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 422):
        super().__init__(message)
        self.status = status


def setup_of(request: dict) -> dict:
    """The game a create request asks for, checked and in canonical form (what ``game.json`` keeps):
    variant, players, opponents (one strategy per opponent seat, by shipped name or file), rules
    (``KEY=VALUE`` strings), seed, hint strategy. ``Refused`` (one line) when it is not a game."""
    if not isinstance(request, dict):
        raise Refused("the body must be a JSON object", 400)
    known = {"variant", "players", "opponents", "rules", "seed", "hint"}
    extra = sorted(set(request) - known)
    if extra:
        raise Refused(f"unknown field {extra[0]!r}; allowed: {', '.join(sorted(known))}", 400)
    try:
        variant = variant_named(str(request.get("variant", DEFAULT_VARIANT)))
    except (KeyError, ValueError) as e:
        raise Refused(str(e).strip("'\"")) from None
    low, high, default = variant.players
    players = request.get("players", default)
    if not isinstance(players, int) or isinstance(players, bool) or not low <= players <= high:
        raise Refused(f"players: {variant.title} takes {low} to {high} players, got {players!r}")
    opponents = request.get("opponents") or ["greedy"]
    if isinstance(opponents, str):
        opponents = [opponents]
    if not isinstance(opponents, list) or not all(isinstance(o, str) and o.strip() for o in opponents):
        raise Refused("opponents: a list of strategy names or files")
    opponents = [o.strip() for o in opponents]
    if len(opponents) == 1:
        opponents = opponents * (players - 1)
    if len(opponents) != players - 1:
        raise Refused(f"opponents: {len(opponents)} given for {players - 1} opponent seats: give one for all, "
                      "or one per seat")
    rules = request.get("rules") or []
    if isinstance(rules, dict):
        rules = [f"{k}={v}" for k, v in rules.items()]
    if isinstance(rules, str):
        rules = rules.replace(",", " ").split()
    if not isinstance(rules, list) or not all(isinstance(r, str) for r in rules):
        raise Refused("rules: KEY=VALUE strings (e.g. target=50)")
    seed = request.get("seed", 0)
    if isinstance(seed, str) and seed.strip().isdigit():
        seed = int(seed)
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
        raise Refused(f"seed: a whole number from 0 to 2**63 - 1, got {seed!r}")
    hint = request.get("hint") or variant.hint_strategy
    if not isinstance(hint, str):
        raise Refused("hint: a strategy name or file")
    setup = {"variant": variant.name, "players": players, "opponents": opponents, "rules": rules, "seed": seed,
             "hint": hint}
    spec_of(setup)   # every strategy and rule read now: a bad one is refused before any game exists
    return setup


def spec_of(setup: dict) -> tuple[RunSpec, object]:
    """The ``RunSpec`` of a setup (seat 0 the person, ``human_strategy(hint)``) and the hint strategy."""
    variant = variant_named(setup["variant"])
    try:
        rules = parse_rule_options(variant, setup["rules"])
        rules.check_players(setup["players"])
        bots = seat_strategies(setup["opponents"], setup["players"] - 1, variant)
        hint = load_strategy(setup["hint"], variant)
        spec = RunSpec(variant, setup["players"], [human_strategy(hint)] + bots, setup["seed"], rules, games=1)
    except ValueError as e:        # the rule, strategy and usage errors are ValueErrors with one line
        raise Refused(str(e).splitlines()[0]) from None
    return spec, hint


def logged_moves(log: Path) -> list[str]:
    """The move log's whole lines. A last line without its newline is a write cut short (the server
    stopped mid-write): that answer was never acknowledged, so it is dropped, from the file too."""
    data = log.read_bytes()
    whole = data[:data.rfind(b"\n") + 1]
    if len(whole) < len(data):
        with open(log, "r+b") as f:
            f.truncate(len(whole))
    return [line for line in whole.decode("utf-8").splitlines() if line.strip()]


class Session:
    """One game: its setup (``setup_of``), the game driver, the person's pending decision, its
    directory ``out`` (``None``: nothing saved), and a lock (one request at a time changes it)."""

    def __init__(self, gid: str, setup: dict, out: Path | None):
        self.id, self.setup, self.out = gid, setup, out
        self.spec, self.hint = spec_of(setup)
        self.params = params_matrix([self.hint] + self.spec.strategies[1:])
        self.names = ["you"] + [s.name for s in self.spec.strategies[1:]]
        self.game = new_game(self.spec)
        self.lock = threading.Lock()
        self.dropped = False                    # no longer the server's copy (``app.Games``): ask again
        self.decision: Decision | None = None
        self.person = Person(YOU, interactive=False)   # its ``auto``: None, "unit" or "game", in force
        self.waiting = False                    # the hand (round) is over: ``next`` deals the next one
        self.ended: list[str] = []              # the lines of the last hand's end
        self.events: list[dict] = [self.game.deal_event()]
        self.heading = self.game.heading()      # of the hand (round) in play, kept when it ends
        self.started, self.clock = time.strftime("%Y-%m-%dT%H:%M:%S%z"), time.perf_counter()
        self.replaying = False
        self.moves = 0                          # answers in the log

    # ------------------------------------------------------------------ saving
    def _log(self, entry: dict) -> None:
        self.moves += 1
        if self.out is None or self.replaying:
            return
        with open(self.out / LOG, "a", encoding="utf-8") as f:   # on disk before the answer is sent
            f.write(json.dumps(entry) + "\n")
            f.flush()
            os.fsync(f.fileno())

    def _save(self) -> None:
        """The finished hands (rounds) as ``play`` saves a game (status ``quit`` until the game is over)."""
        if self.out is None:
            return
        save_game(self.out, self.spec, self.game, self.game.over, self.started, time.perf_counter() - self.clock,
                  YOU, self.hint)

    @classmethod
    def create(cls, gid: str, setup: dict, out: Path | None) -> Session:
        if out is not None:
            out.mkdir(parents=True)
            (out / SETUP).write_text(json.dumps(setup, indent=1) + "\n")
            (out / LOG).touch()
        s = cls(gid, setup, out)
        s.first_steps = s.advance()
        return s

    @classmethod
    def load(cls, gid: str, out: Path) -> Session:
        """The game saved in ``out``, rebuilt by replaying its move log."""
        setup = json.loads((out / SETUP).read_text())
        s = cls(gid, setup, out)
        if (out / "run.json").is_file():     # a hand (round) was saved: the game started then
            s.started = json.loads((out / "run.json").read_text()).get("started", s.started)
        s.replaying = True
        s.advance()
        for line in logged_moves(out / LOG):
            s.answer(json.loads(line))
        s.replaying = False
        return s

    # ------------------------------------------------------------------ the game
    def who(self, seat: int) -> str:
        return seat_called(seat, YOU, self.names)

    def history(self) -> list[str]:
        """This hand's (round's) moves so far, a line each as the seat saw them (a reloaded page shows them)."""
        lines = [f"{self.heading}: dealt"]
        lines += [line for e in self.events[1:] if (line := self.game.event_line(e, self.who, YOU))]
        return lines + (self.ended if self.waiting else [])

    def view(self, hint: bool = False) -> dict:
        return view_of(self, hint)

    def _step(self, line: str, seat: int | None, kind: str) -> dict:
        """A line the seat saw, with the table as it was then (for the page's animation)."""
        return {"line": line, "seat": seat, "kind": kind, "view": None if self.replaying else view_of(self, table_only=True)}

    def advance(self) -> list[dict]:
        """Play until the person's decision, the end of the hand (round) or of the game; the steps seen."""
        steps: list[dict] = []
        game = self.game
        while True:
            if self.waiting:
                if self.person.auto != "game" or game.over:
                    return steps
                self._next(steps)
                continue
            if game.unit_over:
                self._end_unit(steps)
                continue
            d = advance(game, self.params, self.person,
                        lambda seat, moved, words: self._played(seat, moved, words, steps))
            if d is not None:
                self.decision = d
                return steps

    def _played(self, seat: int, moved: list[dict], words: str | None, steps: list[dict]) -> None:
        """A move's events kept and, for the lines the seat saw, its steps (``play.game.advance``'s ``played``)."""
        shown = False
        for e in moved:
            self.events.append(e)
            line = self.game.event_line(e, self.who, YOU)
            if line:
                shown = True
                steps.append(self._step(line, e.get("player"), e["event"]))
        if words is not None and not shown:
            steps.append(self._step(f"{self.who(seat)} {words}", seat, "move"))

    def _end_unit(self, steps: list[dict]) -> None:
        game = self.game
        game.finish()
        end = game.end_event()
        self.events.append(end)
        self.ended = game.end_lines(end, self.who)
        if self.out is not None and not self.replaying:
            save_events(self.out, game.unit, game.number - 1, self.events)
            self._save()
        self.waiting = True
        for line in self.ended:
            steps.append(self._step(line, None, "end"))
        if self.person.auto == "unit":
            self.person.auto = None

    def _next(self, steps: list[dict]) -> None:
        self.game.next_unit()
        self.waiting, self.ended = False, []
        self.events = [self.game.deal_event()]
        self.heading = self.game.heading()
        steps.append(self._step(f"{self.game.heading()}: dealt", None, "deal"))

    # ------------------------------------------------------------------ the person's answers
    def answer(self, entry: dict) -> list[dict]:
        """Apply one logged answer (``{"text": words}``, ``{"auto": reach}``, ``{"next": true}``)."""
        if "next" in entry:
            return self.next_unit()
        if "auto" in entry:
            return self.auto_play(entry["auto"] if entry["auto"] in REACHES else "move")
        return self.move_words(entry["text"])

    def _pending(self) -> Decision:
        if self.game.over and self.waiting:
            raise Refused("the game is over")
        if self.waiting:
            raise Refused(f"the {self.game.unit} is over: ask for the next {self.game.unit}")
        return self.decision

    def move_words(self, text: str) -> list[dict]:
        """The person's move by its words (or a listed move's number as text); ``Refused`` (nothing
        changed) when it is not a legal move now."""
        d = self._pending()
        if not isinstance(text, str) or not text.strip() or len(text) > 200:
            raise Refused("a move: a listed move's number or its words (e.g. discard D9)")
        kept = self.game.keep()
        try:
            move = chosen(self.game, d, text.strip())
        except MoveError as e:
            self.game.restore(kept)        # a contract's words wrote the proposal: put it back
            raise Refused(str(e)) from None
        words = d.name(move) if not text.strip().isdigit() else d.moves[int(text.strip()) - 1][1]
        self._log({"text": text.strip()})
        self.decision = None
        steps: list[dict] = []
        self._played(YOU, self.game.play(move), words, steps)
        return steps + self.advance()

    def move_number(self, n: int) -> list[dict]:
        d = self._pending()
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= len(d.moves):
            raise Refused(no_move(n, len(d.moves)))
        return self.move_words(str(n))

    def auto_play(self, reach: str) -> list[dict]:
        """The hint strategy's move (``reach``: ``move``), or its moves to the end of the hand (round,
        ``unit``) or of the game (``game``)."""
        if reach not in REACHES:
            raise Refused(f"auto: reach is one of {', '.join(REACHES)}")
        if self.waiting:
            if reach != "game" or self.game.over:
                self._pending()
            self._log({"auto": reach})
            self.person.auto = "game"
            return self.advance()
        d = self._pending()
        self._log({"auto": reach})
        self.person.auto = None if reach == "move" else reach
        self.decision = None
        self.game.restore(d.kept)
        steps: list[dict] = []
        self._played(YOU, self.game.play(d.hint), d.hint_name, steps)
        return steps + self.advance()

    def next_unit(self) -> list[dict]:
        if not self.waiting:
            raise Refused(f"the {self.game.unit} is not over")
        if self.game.over:
            raise Refused("the game is over")
        self._log({"next": True})
        steps: list[dict] = []
        self._next(steps)
        return steps + self.advance()

    def check(self, cards: list[str], meld: int | None) -> dict:
        """Why no listed move uses exactly the selected ``cards`` (with table meld ``meld``, from 0): each
        verb of this step tried with them, the most telling refusal; or, when the words make a legal
        move that is not listed (another laying of a contract), that move's words."""
        d = self._pending()
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards) or len(cards) > 64:
            raise Refused("cards: a list of card names")
        for c in cards:
            try:
                card_id(c, allow_joker=True)
            except ValueError as e:
                raise Refused(str(e)) from None
        verbs = [v for v, p in self.game.notation.VERB_STEP.items() if p == int(self.game.state.ints[self.game.I_PHASE])]
        where = [] if meld is None else [str(int(meld) + 1)]
        if not cards:
            return {"ok": False, "reason": "select cards first, or choose a move that takes none"}
        if not any(move_parts(words)["cards"] for _, words in d.moves):
            return {"ok": False, "reason": f"no move of this step uses cards of your hand: {self.game.step(self.who)}"}
        tried = []
        for verb in verbs:
            text = " ".join([verb, *cards, *(where if "lay" in verb else [])])
            kept = self.game.keep()
            try:
                listed = move_parts(d.name(chosen(self.game, d, text)))["cards"]
                if not listed:        # a verb that takes no cards read past them (``stop C3``)
                    tried.append((verb, f"{verb} takes no cards"))
                    continue
                return {"ok": True, "words": text}
            except MoveError as e:
                tried.append((verb, str(e)))
            finally:
                self.game.restore(kept)

        def fit(item):
            verb, reason = item
            many = len(cards) >= 3 and verb in ("meld", "contract")
            one = len(cards) == 1 and (verb == "discard" or verb.startswith("lay"))
            return 0 if many or one else 2 if reason == f"{verb} takes no cards" else 1
        tried.sort(key=fit)
        reason = tried[0][1] if tried else f"now: {self.game.step(self.who)}"
        return {"ok": False, "reason": reason}
