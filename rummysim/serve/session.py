"""One game played in the browser: the person in seat 0 against the bots, on the driver ``play`` uses.

A ``Session`` drives its game with ``rummysim play``'s driver (``play.game.advance``), cut at the
person's decisions: ``Session.advance`` plays the bots (and a decision with one legal move, and the
person's moves while ``auto`` is on) up to the person's next decision, the end of a hand (round) or the
end of the game, and returns what the seat saw happen, a step per line. At each decision of the person the hint strategy is asked first
(``play.game.decide``), so a game played by ``auto`` alone is ``rummysim run --games 1``'s game 0.

Every answer of the person is appended to the game's move log (``moves.jsonl``: the words of a move,
``auto`` for the hint's move, ``next`` for the next hand, and the request it answered), on disk before
the answer is sent, so the game is rebuilt by replaying the log (``Session.load``) after a server
restart or a crash; the finished hands (rounds) are saved like ``play``'s (``play.save``: events, then
tables and ``run.json``, each through a rename), and a rebuilt game saves again what a crash left
unwritten.

A decision request names the decision it answers (``seq``, the answers so far): a stale one is refused
(409) and the last one sent again gets the same answer (``Session.answer_request``).
"""

from __future__ import annotations

import dataclasses
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
from ..play.save import EVENTS, events_file, human_strategy, save_events, save_game
from ..results import write_json_atomic
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
#: the rule options that set how many points a game is played to (bounded by ``Limits.goal``)
GOAL_KEYS = ("target", "game_to")
#: what each decision request may hold besides its ``seq``
REQUEST_FIELDS = {"move": {"move", "n"}, "auto": {"reach"}, "next": set()}


@dataclasses.dataclass(frozen=True)
class Limits:
    """What one server lets its callers ask for."""

    body: int = 16_384          #: the largest request body read (bytes)
    live: int = 256             #: games kept in memory when they are saved (the least recently used
    #:                             beyond it are dropped: their directory rebuilds them when asked for)
    games: int = 1_000          #: games a server directory keeps (more are refused, 429)
    goal: int = 1_000           #: the most points a game may be played to (``GOAL_KEYS``)
    steps: int = 1_000          #: steps in one answer (the oldest beyond it are summed up in one line)
    step_views: int = 200       #: the newest steps of an answer that carry the table as it was
    auto_units: int = 5         #: hands (rounds) one ``auto`` to the end of the game plays before it answers


class Refused(ValueError):
    """A request that changes nothing: its one-line reason and the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 422):
        super().__init__(message)
        self.status = status


def setup_of(request: dict, limits: Limits = Limits(), strategy_dirs: tuple[Path, ...] = ()) -> dict:
    """The game a create request asks for, checked and in canonical form (what ``game.json`` keeps):
    variant, players, opponents (one strategy per opponent seat, by shipped name or a file under
    ``strategy_dirs``), rules (``KEY=VALUE`` strings), seed, hint strategy, and the strategies' file
    digests. ``Refused`` (one line) when it is not a game."""
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
        raise Refused(f"players: {variant.title} takes {low} to {high} players, got {players!r}"[:200])
    opponents = request.get("opponents") or ["greedy"]
    if isinstance(opponents, str):
        opponents = [opponents]
    if not isinstance(opponents, list) or not all(isinstance(o, str) and 0 < len(o.strip()) <= 200 for o in opponents):
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
    if not isinstance(rules, list) or not all(isinstance(r, str) and len(r) <= 200 for r in rules) or len(rules) > 64:
        raise Refused("rules: KEY=VALUE strings (e.g. target=50)")
    seed = request.get("seed", 0)
    if isinstance(seed, str) and seed.strip().isdigit():
        seed = int(seed)
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
        raise Refused(f"seed: a whole number from 0 to 2**63 - 1, got {seed!r}"[:200])
    hint = request.get("hint") or variant.hint_strategy
    if not isinstance(hint, str) or len(hint) > 200:
        raise Refused("hint: a strategy name or file")
    setup = {"variant": variant.name, "players": players, "opponents": opponents, "rules": rules, "seed": seed,
             "hint": hint}
    spec, hint_strategy = spec_of(setup, strategy_dirs)   # every strategy and rule read now: a bad one is refused
    goal = {k: v for k, v in spec.rules.as_dict(players).items() if k in GOAL_KEYS}
    for key, points in goal.items():
        if isinstance(points, int) and points > limits.goal:
            raise Refused(f"rule option {key}={points}: this server plays games to at most {limits.goal:,} points")
    setup["sha256"] = digests(spec, hint_strategy)
    return setup


def digests(spec: RunSpec, hint) -> dict[str, str]:
    """Each strategy's file digest by the name the setup gives it (a file changed since cannot resume the game)."""
    return {"hint": hint.sha256, **{f"seat {q}": s.sha256 for q, s in enumerate(spec.strategies) if q}}


def spec_of(setup: dict, strategy_dirs: tuple[Path, ...] = ()) -> tuple[RunSpec, object]:
    """The ``RunSpec`` of a setup (seat 0 the person, ``human_strategy(hint)``) and the hint strategy;
    strategy files only from ``strategy_dirs``."""
    variant = variant_named(setup["variant"])
    try:
        rules = parse_rule_options(variant, setup["rules"])
        rules.check_players(setup["players"])
        bots = seat_strategies(setup["opponents"], setup["players"] - 1, variant, strategy_dirs)
        hint = load_strategy(setup["hint"], variant, strategy_dirs)
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

    def __init__(self, gid: str, setup: dict, out: Path | None, limits: Limits = Limits(),
                 strategy_dirs: tuple[Path, ...] = ()):
        self.id, self.setup, self.out, self.limits = gid, setup, out, limits
        self.spec, self.hint = spec_of(setup, strategy_dirs)
        if "sha256" in setup and setup["sha256"] != digests(self.spec, self.hint):
            raise Refused(f"game {gid}: a strategy file it was started with has changed since: it cannot be "
                          "rebuilt as it was played", 409)
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
        self.replaying = False                  # rebuilding from the log: nothing logged, saved only if missing
        self.quiet = False                      # steps without their tables (a replay's answers nobody sees)
        self.moves = 0                          # answers in the log: the ``seq`` of the decision now
        self.units_done = 0                     # hands (rounds) finished
        self.units_this_answer = 0              # finished while answering the request in hand
        self.last: tuple[str, dict] | None = None   # the last answered request and its answer
        self.request: str | None = None         # the request being answered (logged with its answer)

    # ------------------------------------------------------------------ saving
    def _log(self, entry: dict) -> None:
        self.moves += 1
        if self.out is None or self.replaying:
            return
        if self.request is not None:          # the request it answers: the same one sent again gets its answer
            entry = {**entry, "request": self.request}
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

    def _saved_in_full(self) -> bool:
        """Whether ``run.json`` and the tables count every finished hand (round): a crash between a hand's
        end and its save leaves them one short."""
        try:
            record = json.loads((self.out / "run.json").read_text())
        except (OSError, ValueError):
            return self.units_done == 0
        table = self.spec.variant.table
        return record.get(f"{table}_played") == self.units_done and (self.out / f"{table}.parquet").is_file()

    @classmethod
    def create(cls, gid: str, setup: dict, out: Path | None, limits: Limits = Limits(),
               strategy_dirs: tuple[Path, ...] = ()) -> Session:
        """A new game; its directory's setup written last (through a rename), so a directory without it
        is a creation cut short, never answered."""
        s = cls(gid, setup, out, limits, strategy_dirs)
        if out is not None:
            out.mkdir(parents=True)
            (out / LOG).touch()
            write_json_atomic(out / SETUP, setup)
        s.first_steps = s._capped(s.advance())
        return s

    @classmethod
    def load(cls, gid: str, out: Path, limits: Limits = Limits(), strategy_dirs: tuple[Path, ...] = ()) -> Session:
        """The game saved in ``out``, rebuilt by replaying its move log; what a crash left unsaved (a
        finished hand's events, the tables) is saved again, and the last answer is made again so that
        the same request sent again gets it."""
        try:
            setup = json.loads((out / SETUP).read_text())
            entries = [json.loads(line) for line in logged_moves(out / LOG)]
        except (OSError, ValueError) as e:
            raise Refused(f"game {gid}: its saved files cannot be read ({e})"[:300], 409) from None
        for tmp in [*out.glob("*.tmp"), *out.glob(f"{EVENTS}/*.tmp")]:
            tmp.unlink()                      # a write cut short: what it held is saved again below
        s = cls(gid, setup, out, limits, strategy_dirs)
        if (out / "run.json").is_file():     # a hand (round) was saved: the game started then
            try:
                s.started = json.loads((out / "run.json").read_text()).get("started", s.started)
            except ValueError:
                pass
        s.replaying = s.quiet = True
        s.advance()
        for k, entry in enumerate(entries):
            s.quiet = k < len(entries) - 1
            steps = s.answer(entry)
            if k == len(entries) - 1 and "request" in entry:
                s.last = (entry["request"], {"steps": s._capped(steps), "view": s.view()})
        s.replaying = s.quiet = False
        if not s._saved_in_full():
            s._save()
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
        return {"line": line, "seat": seat, "kind": kind, "view": None if self.quiet else view_of(self, table_only=True)}

    def _capped(self, steps: list[dict]) -> list[dict]:
        """An answer's steps within ``Limits``: the newest ``steps`` (the older ones in one line), the
        table with the newest ``step_views`` only."""
        n, keep = len(steps), self.limits.steps
        if n > keep:
            skipped = {"line": f"({n - keep + 1:,} earlier moves not shown: rummysim replay shows the whole "
                               f"{self.game.unit})", "seat": None, "kind": "skipped", "view": None}
            steps = [skipped] + steps[n - keep + 1:]
        for st in steps[:max(0, len(steps) - self.limits.step_views)]:
            st["view"] = None
        return steps

    def advance(self) -> list[dict]:
        """Play until the person's decision, the end of the hand (round) or of the game; the steps seen."""
        steps: list[dict] = []
        game = self.game
        self.units_this_answer = 0
        while True:
            if self.waiting:
                if self.person.auto != "game" or game.over or self.units_this_answer >= self.limits.auto_units:
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
        self.units_done += 1
        self.units_this_answer += 1
        if self.out is not None:
            number = game.number - 1
            if not self.replaying or not events_file(self.out, game.unit, number).is_file():
                save_events(self.out, game.unit, number, self.events)   # a rebuilt game: what a crash left unwritten
            if not self.replaying:
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
    def answer_request(self, kind: str, body: dict) -> dict:
        """A decision request (``kind``: ``move``, ``auto`` or ``next``) answered as ``{steps, view}``.
        Its ``seq`` must be the decision now (``self.moves``); the last answered request sent again (the
        same body) gets the same answer; any other is refused with 409 and changes nothing."""
        extra = sorted(set(body) - REQUEST_FIELDS[kind] - {"seq"})
        if extra:
            raise Refused(f"unknown field {extra[0]!r}; allowed: {', '.join(sorted(REQUEST_FIELDS[kind] | {'seq'}))}", 400)
        seq = body.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool):
            raise Refused("seq: the decision this answers (the view's seq)", 400)
        key = json.dumps({"kind": kind, **body}, sort_keys=True)
        if self.last is not None and seq == self.moves - 1 and self.last[0] == key:
            return self.last[1]
        if seq != self.moves:
            raise Refused(f"seq {seq}: this request answers a decision already answered or not yet come (the game "
                          f"is at decision {self.moves}): nothing was played, reload the game", 409)
        self.request = key
        try:
            if kind == "move":
                steps = self._move_request(body)
            elif kind == "auto":
                steps = self.auto_play(body.get("reach", "move"))
            else:
                steps = self.next_unit()
        finally:
            self.request = None
        answer = {"steps": self._capped(steps), "view": self.view()}
        self.last = (key, answer)
        return answer

    def _move_request(self, body: dict) -> list[dict]:
        """``{"move": words, "n": listed number}``: the move by its words; ``n``, when given, must list them."""
        d = self._pending()
        words, n = body.get("move"), body.get("n")
        if not isinstance(words, str):
            raise Refused('a move: {"seq": k, "move": "its words"} (and "n": its listed number)', 400)
        if n is not None:
            if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= len(d.moves):
                raise Refused(no_move(n, len(d.moves)))
            if d.moves[n - 1][1] != words.strip():
                raise Refused(f"move {n} is {d.moves[n - 1][1]!r} now, not {words.strip()!r}: nothing was played", 409)
        return self.move_words(words)

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

    def auto_play(self, reach: str) -> list[dict]:
        """The hint strategy's move (``reach``: ``move``), or its moves to the end of the hand (round,
        ``unit``) or of the game (``game``: ``Limits.auto_units`` hands at most per answer; the view's
        ``auto`` says ``game`` while more are to come)."""
        if not isinstance(reach, str) or reach not in REACHES:
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
        verbs = self.game.notation.step_verbs(self.game.state)
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
