"""A hand (Shanghai: a round) you can watch: one self-contained HTML page from its replay events.

``frames(events, format_event)`` replays the event stream of ``Variant.replay`` (deal first, ``end``
last) card by card and returns the state after each event: every hand, the melds on the table
(jokers with what they stand for), the stock and discard pile sizes, buys, who is down, who knocked
(Gin). ``page``
embeds the frames as JSON in ``template.html`` (package data: HTML, CSS and a small vanilla JS
viewer that draws the cards as inline SVG; nothing is fetched), and ``write_page`` writes it
atomically after ``check_page_path`` has refused a path it cannot be written to.

The text replay (``rummysim replay``) and the page say the same: ``replay_header`` (the variant, seed,
game, hand, each seat's strategy, the rules, the command), each move by ``format_event`` and, after
the end, the game totals (``game_totals``).
"""

from __future__ import annotations

import html
import json
import os
import tempfile
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import NamedTuple

from ..base.errors import UsageError
from ..cards import RANKS

JOKER = "JK"
HIGH_ACE = 13  # a run position: the ace above the king (docs/rules.md 3.11)


class PageError(UsageError):
    """The page cannot be written where asked (one line naming the path)."""


# ---------------------------------------------------------------- the table

def _rank(card: str) -> int:
    return RANKS.index(card[1:])


def _card_at(suit: str, pos: int) -> str:
    """The card of run position ``pos`` (0 the low ace .. 13 the high ace) in ``suit``."""
    return suit + RANKS[pos % 13]


class _Meld:
    """A meld on the table: its owner and cells ``[card, stands_for]`` (``stands_for`` None for a natural)
    in the order shown: a run by position from ``lo``, a set by suit with its jokers last."""

    def __init__(self, owner: int, cells: list[list], in_order: bool):
        self.owner = owner
        naturals = [c for c, _ in cells if c != JOKER]
        self.run = len({_rank(c) for c in naturals}) > 1
        self.cells = cells
        self.lo = 0
        if self.run:
            self.suit = naturals[0][0]
            self._place_run(in_order)
        else:
            self._sort_set()

    def _place_run(self, in_order: bool) -> None:
        """Find a new run's lowest position, its cells ordered by position: given ``in_order`` (a
        Shanghai contract, jokers where they stand), or in card order (a Basic meld): then an ace is
        high when the run has a king and no two (docs/rules.md 3.11)."""
        if in_order:
            i, card = next((i, c) for i, (c, _) in enumerate(self.cells) if c != JOKER)
            pos = _rank(card) if _rank(card) or i == 0 else HIGH_ACE   # an ace after other cards is high
            self.lo = pos - i
            return
        ranks = {_rank(c) for c, _ in self.cells}
        high_ace = 12 in ranks and 1 not in ranks
        pos = {c: (HIGH_ACE if high_ace and _rank(c) == 0 else _rank(c)) for c, _ in self.cells}
        self.cells.sort(key=lambda cell: pos[cell[0]])
        self.lo = pos[self.cells[0][0]]

    def _sort_set(self) -> None:
        self.cells.sort(key=lambda cell: (cell[0] == JOKER, "CDHS".index(cell[0][0]) if cell[0] != JOKER else 0))

    @property
    def hi(self) -> int:
        return self.lo + len(self.cells) - 1

    def lay_off(self, card: str, stands_for: str | None, end: str | None = None) -> None:
        """Add a card where the rules layer puts it: at ``end`` ("low" or "high") when the event says
        (a joker on a run, docs/rules.md 3.13), else a natural low end first, a joker high end first
        (``table.fit``); on a set anywhere."""
        if not self.run:
            self.cells.append([card, stands_for])
            self._sort_set()
            return
        lo, hi = self.lo, self.hi
        below = lo > 0 and not (lo - 1 == 0 and hi == HIGH_ACE)
        above = hi < HIGH_ACE and not (lo == 0 and hi + 1 == HIGH_ACE)
        wanted = stands_for if card == JOKER else card
        fits_low = below and _card_at(self.suit, lo - 1) == wanted
        fits_high = above and _card_at(self.suit, hi + 1) == wanted
        high = fits_high if card == JOKER else fits_high and not fits_low
        if end is not None:
            high, fits_low = end == "high" and fits_high, end == "low" and fits_low
        if high:
            self.cells.append([card, stands_for])
        elif fits_low:
            self.cells.insert(0, [card, stands_for])
            self.lo -= 1
        else:
            raise ValueError(f"{wanted} does not fit at either end of {self.names()}")

    def swap(self, card: str) -> None:
        """Put natural ``card`` in the place of the joker standing for it (in a set: for its rank)."""
        wanted = card if self.run else card[1:]
        cell = next((cell for cell in self.cells if cell[0] == JOKER and cell[1] == wanted), None)
        if cell is None:
            raise ValueError(f"no joker standing for {wanted} in {self.names()}")
        cell[:] = [card, None]
        if not self.run:
            self._sort_set()

    def names(self) -> list[str]:
        """The cells as shown: a natural by name, a joker as ``JK=H9`` (a set's: ``JK=9``)."""
        return [c if s is None else f"{c}={s}" for c, s in self.cells]


# ---------------------------------------------------------------- the frames

def _take(cards: list[str], card: str, where: str) -> None:
    try:
        cards.remove(card)
    except ValueError:
        raise ValueError(f"replay events out of step: {card} is not in {where}") from None


class _Table:
    """The whole state of a hand as the events change it."""

    def __init__(self, deal: dict):
        self.players = len(deal["hands"])
        self.hands = [list(h) for h in deal["hands"]]
        self.stock = list(deal["stock"])            # top first
        self.pile = [deal["upcard"]] if deal.get("upcard") else []   # bottom first
        self.melds: list[_Meld] = []
        self.buys = [0] * self.players
        self.down = [False] * self.players
        self.knocked = [False] * self.players

    def apply(self, e: dict) -> dict:
        """Apply event ``e``; returns what it moved, to highlight: ``{"hand": [seat, card]}``,
        ``{"melds": [k, ...]}``, ``{"pile": True}`` or nothing."""
        kind, p = e["event"], e.get("player")
        if kind == "draw":
            source, i = (self.stock, 0) if e["source"] == "stock" else (self.pile, -1)
            top = source[i] if source else None
            if top != e["card"]:
                raise ValueError(f"replay events out of step: {e['card']} drawn, the {e['source']}'s top is {top}")
            source.pop(i)
            self.hands[p].append(e["card"])
            return {"hand": [p, e["card"]]}
        if kind == "buy":
            _take(self.pile, e["card"], "the discard pile")
            _take(self.stock, e["penalty"], "the stock")
            self.hands[p] += [e["card"], e["penalty"]]
            self.buys[p] += 1
            return {"hand": [p, e["card"]]}
        if kind in ("meld", "contract"):
            laid = [e["cards"]] if kind == "meld" else e["melds"]
            stands = [[None] * len(laid[0])] if kind == "meld" else e["stands_for"]
            for cards, meld_stands in zip(laid, stands):
                for c in cards:
                    _take(self.hands[p], c, f"seat {p}'s hand")
                self.melds.append(_Meld(p, [[c, s] for c, s in zip(cards, meld_stands)], kind == "contract"))
            self.down[p] = True
            return {"melds": list(range(len(self.melds) - len(laid), len(self.melds)))}
        if kind == "layoff":   # Gin: the card extends every meld of ``melds`` (ruling 3.16), shown in each
            _take(self.hands[p], e["card"], f"seat {p}'s hand")
            extended = e.get("melds", [e["meld"]])
            for k in extended:
                self.melds[k].lay_off(e["card"], e.get("stands_for"), e.get("end"))
            return {"melds": list(extended)}
        if kind == "swap":
            _take(self.hands[p], e["card"], f"seat {p}'s hand")
            self.melds[e["meld"]].swap(e["card"])
            self.hands[p].append(JOKER)
            return {"melds": [e["meld"]], "hand": [p, JOKER]}
        if kind == "discard":
            _take(self.hands[p], e["card"], f"seat {p}'s hand")
            self.pile.append(e["card"])
            return {"pile": True}
        if kind == "reshuffle":
            for c in e["stock"]:   # what stays behind (a kept top card) stays on the pile
                _take(self.pile, c, "the discard pile")
            self.stock = list(e["stock"])
            return {"stock": True}
        if kind == "knock":
            self.knocked[p] = True
            return {}
        if kind == "pass":   # Gin: the first upcard, at the wall, done laying: nothing moves
            return {}
        if kind == "end":
            got = [sorted(h) for h in self.hands]
            if got != [sorted(h) for h in e["hands"]]:
                raise ValueError(f"replay events out of step: the hands left are {e['hands']}, replayed {got}")
            return {}
        raise ValueError(f"replay event {kind!r}: not one the viewer knows")

    def frame(self) -> dict:
        return {
            "hands": [sorted(h, key=display_order) for h in self.hands],
            "table": [{"owner": m.owner, "cards": m.names()} for m in self.melds],
            "stock": len(self.stock),
            "pile": len(self.pile),
            "top": self.pile[-3:],
            "buys": list(self.buys),
            "down": list(self.down),
            "knocked": list(self.knocked),
        }


def display_order(card: str) -> tuple[int, int]:
    """Cards in hand as shown: by suit, alternating black and red (spades, hearts, clubs, diamonds),
    ace to king; jokers last."""
    if card == JOKER:
        return (4, 0)
    return ("SHCD".index(card[0]), _rank(card))


def frames(events: list[dict], format_event: Callable[[dict], str]) -> list[dict]:
    """The state after each of ``events`` (a replay: deal first, end last) as JSON-ready dicts:
    ``hands`` (per seat, cards in display order), ``table`` (melds: ``owner``, ``cards`` as shown, a
    joker ``JK=H9``), ``stock`` and ``pile`` (counts), ``top`` (the pile's top cards, top last),
    ``buys``, ``down`` and ``knocked`` per seat, ``seat`` (who acted, None), ``winner`` (at the end, the seat that went
    out; else -1), ``text`` (the move in words, one line), ``detail`` (the rest of ``format_event``'s text)
    and ``moved`` (what to highlight).
    ``ValueError`` if the events do not follow from one another."""
    if not events or events[0]["event"] != "deal" or events[-1]["event"] != "end":
        raise ValueError("a replay runs from its deal event to its end event")
    table = _Table(events[0])
    out = []
    for e in events:
        moved = {} if e["event"] == "deal" else table.apply(e)
        text, *detail = format_event(e).split("\n")
        out.append({**table.frame(), "seat": e.get("player"), "winner": e.get("winner", -1), "text": text,
                    "detail": "\n".join(line.strip() for line in detail), "moved": moved})
    return out


# ---------------------------------------------------------------- the page

def _package_text(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def with_cards(page: str) -> str:
    """``page`` with the shared card drawing put in: ``card_symbols.svg`` at ``<!--CARD-SYMBOLS-->``,
    ``cards.js`` (``cardSvg``, ``backSvg``, ``esc``) at ``/*CARD-DRAWING*/`` (the replay page and
    ``rummysim serve``'s page draw their cards with it)."""
    return (page.replace("<!--CARD-SYMBOLS-->", _package_text("card_symbols.svg"))
            .replace("/*CARD-DRAWING*/", _package_text("cards.js")))


def template() -> str:
    """The viewer page (package data, its cards drawn by ``with_cards``), with ``/*REPLAY*/null`` where
    the replay goes."""
    return with_cards(_package_text("template.html"))


def page(events: list[dict], format_event: Callable[[dict], str], header: list[str], seats: list[str],
         totals: Totals | None = None) -> str:
    """The viewer page of one replay: ``header`` lines on top (the first its title: what was played, the
    players, the rules, the command), one name per seat (``seats``); with ``totals``, the last frame
    also shows each seat's game total (``totals`` and its line under the move)."""
    title, *about = header
    shown = frames(events, format_event)
    if totals is not None:
        last = shown[-1]
        last["totals"] = totals.seats
        last["detail"] = "\n".join(filter(None, [last["detail"], totals.line]))
    data = {"title": title, "about": about, "seats": seats, "frames": shown}
    text = json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")   # no "</script>" inside the script
    return template().replace("{{TITLE}}", html.escape(title)).replace("/*REPLAY*/null", text)


def replay_command(variant, strategies: list, seed: int, game: int, number: int, flags: list[str]) -> str:
    """The ``rummysim replay`` command that plays the same hand (Shanghai: round) again."""
    names = [s.source for s in strategies]
    names = names[:1] if len(set(names)) == 1 else names
    return " ".join([f"rummysim replay --variant {variant.name} --players {len(strategies)} --seed {seed}",
                     f"--game {game} --{variant.unit} {number}", *(f"--strategy {n}" for n in names), *flags])


def replay_header(variant, deal: dict, names: list[str], seed: int, game: int, number: int, flags: list[str],
                  command: str) -> list[str]:
    """What a replay (the text and the page) says above its moves, a line each: the variant, seed, game and
    hand (round); the players with each seat's strategy (``names``) and the deal (``deal``: its event);
    the rules (the ``--rule`` ``flags`` of the options that differ from the defaults); how to reproduce it."""
    return [f"{variant.title}: seed {seed}, game {game}, {variant.unit} {number}",
            f"{len(names)} players: " + ", ".join(f"seat {p} {n}" for p, n in enumerate(names))
            + f"; {variant.describe_deal(deal)}.",
            "Rules: " + (" ".join(flags) + " (the others as by default)" if flags else "the defaults"),
            f"To reproduce: {command}"]


def replay_page(variant, events: list[dict], strategies: list, seed: int, game: int, number: int,
                flags: list[str], totals: Totals | None = None) -> str:
    """The viewer page of ``variant``'s replay ``events`` of ``variant.unit`` ``number`` of game ``game``,
    played by ``strategies`` (``rummysim.strategy.Strategy``, one per seat) under the rules whose
    ``--rule`` flags (those that differ from the defaults) are ``flags``; ``totals`` (``game_totals``) on
    its last frame."""
    header = replay_header(variant, events[0], [s.name for s in strategies], seed, game, number, flags,
                           replay_command(variant, strategies, seed, game, number, flags))
    seats = [f"seat {p} \u00b7 {s.name}" for p, s in enumerate(strategies)]
    return page(events, variant.format_event, header, seats, totals)


# ---------------------------------------------------------------- the game's totals

class Totals(NamedTuple):
    """Each seat's game total after a hand (round), and the line that says so."""

    seats: list[int]
    line: str


def unit_points(end: dict, players: int) -> list[int]:
    """Each seat's points in the hand (round) whose ``end`` event this is: the event's ``scores`` where every
    seat scores (Shanghai's penalties), else the winner's ``points`` (nobody's when nobody won)."""
    if "scores" in end:
        return [int(x) for x in end["scores"]]
    return [int(end["points"]) if q == end["winner"] else 0 for q in range(players)]


def totals_of(variant, ends: list[dict], number: int, over: bool) -> Totals:
    """The game totals after hand (round) ``number`` from the ``end`` events of the game's hands up to it;
    ``over``: the game ends with it."""
    players = len(ends[0]["hands"])
    seats = [sum(points) for points in zip(*(unit_points(e, players) for e in ends))]
    line = (f"game totals after {variant.unit} {number}{variant.points_note}: "
            + ", ".join(f"seat {q} {t}" for q, t in enumerate(seats)) + ("; the game ends here" if over else ""))
    return Totals(seats, line)


def game_totals(variant, seed: int, game: int, number: int, players: int, rules_array, params,
                events: list[dict], units: int | None = None) -> Totals:
    """``totals_of`` hand (round) ``number`` of game ``game`` (its ``events``), the hands before it replayed;
    ``units``: the game's hands (rounds) if known (else the game is played to count them)."""
    ends = [variant.replay(seed, game, n, players, rules_array, params)[-1] for n in range(variant.first_unit, number)]
    if units is None:
        units = variant.units_in_game(seed, game, players, rules_array, params)
    return totals_of(variant, [*ends, events[-1]], number, number == variant.first_unit + units - 1)


def check_page_path(path: str | Path) -> Path:
    """That a page can be written at ``path`` (a new or existing file in an existing directory where a
    file can be made: tried and removed again); ``PageError`` naming it if not."""
    p = Path(path)
    if p.is_dir():
        raise PageError(f"--html {p}: is a directory (give a file name, e.g. {p / 'replay.html'})")
    parent = p.absolute().parent
    if not parent.is_dir():
        raise PageError(f"--html {p}: no such directory {parent}")
    fd, tmp = _temporary_beside(p)
    os.close(fd)
    os.unlink(tmp)
    return p


def _temporary_beside(p: Path) -> tuple[int, str]:
    """A new hidden file beside ``p`` (``os.open`` descriptor, path); ``PageError`` if none can be made."""
    try:
        return tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.absolute().parent)
    except OSError as e:
        raise PageError(f"--html {p}: cannot write there ({e.strerror or e})") from None


def write_page(path: str | Path, text: str) -> Path:
    """Write the page to ``path`` through a temporary file beside it and a rename: never half a page."""
    p = check_page_path(path)
    fd, tmp = _temporary_beside(p)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, p)
    except BaseException as e:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(e, OSError):
            raise PageError(f"--html {p}: cannot write it ({e.strerror or e})") from None
        raise
    return p
