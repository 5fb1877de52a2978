"""The game loop of ``rummysim play``: the bots move, the person is asked, until the game ends or they quit.

At each decision of the person's seat the hint strategy's move is asked for once, before anything
else (``policy.choose``, as the kernel asks the seat's policy), so the seat's random stream moves as
in ``run``; ``auto`` plays that move, so a game played by ``auto`` alone is ``run``'s game. A decision
with one legal move is played without asking (unless ``Person.ask_single``), which is the same move.
"""

from __future__ import annotations

import dataclasses
import sys

from ..base.errors import MoveError
from .render import View, help_text

#: the answers that end the game
QUIT_WORDS = ("quit", "exit", "q")
#: how far ``auto`` plays for the person: the word after it, and how far that is
AUTO_WORDS = {"": "move", "hand": "unit", "round": "unit", "game": "game"}


class Quit(Exception):
    """The person ended the game (``quit``, end of input)."""


class Interrupted(Exception):
    """The person pressed Ctrl-C: the game ends as with ``quit``, and the command exits 130 as ``run`` does."""


@dataclasses.dataclass
class Decision:
    """One decision of the person's seat: the legal moves and the hint strategy's choice."""

    moves: list[tuple[int, str]]
    hint: int
    hint_name: str
    reason: str
    kept: object        # the game's state a ``CONTRACT`` hint needs put back (``Game.keep``)

    def name(self, move: int) -> str:
        """The words of legal move ``move``."""
        return next(name for action, name in self.moves if action == move)


@dataclasses.dataclass
class Person:
    """The person in ``seat``: where answers come from (``interactive``: a terminal's ``input``, else
    standard input's lines), whether a decision with one legal move is asked too (``ask_single``), and
    how far ``auto`` plays now (``auto``: None to ask, ``"unit"`` to the end of this hand or round,
    ``"game"`` to the end of the game)."""

    seat: int
    interactive: bool
    ask_single: bool = False
    auto: str | None = None


def read_line(prompt: str, interactive: bool) -> str:
    """One line of input; ``Quit`` at the end of input, ``Interrupted`` on Ctrl-C."""
    try:
        if interactive:
            return input(prompt)
        line = sys.stdin.readline()
    except EOFError:
        raise Quit from None
    except KeyboardInterrupt:
        raise Interrupted from None
    if not line:
        raise Quit
    return line.strip()


def decide(game, params, seat: int) -> Decision:
    """The hint strategy's move first (its stream moves as in ``run``), then the legal moves listed."""
    hint = game.choose(params, seat)
    kept = game.keep()
    moves = game.notation.legal_move_names(game.state)
    hint_name = next(name for action, name in moves if action == hint)
    return Decision(moves, hint, hint_name, game.hints.reason(game.state, seat, hint), kept)


def auto_reach(word: str) -> str | None:
    """How far ``auto ...`` plays (``"move"``, ``"unit"``, ``"game"``), or None if ``word`` is not an auto."""
    head, _, rest = word.partition(" ")
    if head not in ("auto", "a"):
        return None
    return AUTO_WORDS.get(rest.strip(), "")


def advance(game, params, person: Person, played) -> Decision | None:
    """Play the hand (round) in progress until ``person`` is to be asked (their ``Decision``) or it is
    over (None): the bots' moves are their strategies' (``params`` float64[players, N]); the person's
    are the hint's while ``person.auto`` is on, or when one move is legal (unless ``person.ask_single``).
    ``played(seat, events, words)`` after each move (``words``: the person's move in words, else None).
    The one driver of a person's game: ``play_unit`` in the terminal, ``serve``'s sessions in the browser."""
    while not game.unit_over:
        seat, move, words = game.seat, game.forced(), None
        if move < 0:
            if seat == person.seat:
                d = decide(game, params, seat)
                if not (person.auto or (len(d.moves) == 1 and not person.ask_single)):
                    return d
                game.restore(d.kept)
                move, words = d.hint, d.hint_name
            else:
                move = game.choose(params, seat)
        played(seat, game.play(move), words)
    return None


def ask(game, view: View, person: Person, d: Decision) -> tuple[int, str]:
    """The person's move at decision ``d`` and its words: a number, the move's words, ``hint``, ``auto``
    (``auto hand``, ``auto game``: ``person.auto`` set), ``quit``. A wrong answer gets one line saying
    why, and the question again."""
    view.table(game)
    view.choices(d.moves, game.step(view.who))
    while True:
        text = read_line("> ", person.interactive)
        word = " ".join(text.lower().split())
        if word in QUIT_WORDS:
            raise Quit
        if word in ("help", "?"):
            view.say(help_text(game))
            continue
        if word == "hint":
            view.say(f"hint ({view.hint}): {d.hint_name}: {d.reason}", style="green")
            continue
        reach = auto_reach(word)
        if reach == "":
            view.say(f"auto plays one move; auto {game.unit} plays to the end of the {game.unit}, "
                     "auto game to the end of the game", style="yellow")
            continue
        if reach is not None:
            person.auto = None if reach == "move" else reach
            game.restore(d.kept)
            return d.hint, d.hint_name
        try:
            move = chosen(game, d, text)
            return move, d.name(move)
        except MoveError as e:
            view.say(f"{e} (try again, or hint, help, quit)", style="yellow")


def no_move(i, n: int) -> str:
    """Why ``i`` names none of the ``n`` listed moves."""
    return f"no move {i!r}: " + ("the only move is 1" if n == 1 else f"choose a number from 1 to {n}")


def chosen(game, d: Decision, text: str) -> int:
    """The move a number or words name (``MoveError`` if none); a listed move goes through its words."""
    if text.isdigit():
        i = int(text)
        if not 1 <= i <= len(d.moves):
            raise MoveError(no_move(i, len(d.moves)))
        text = d.moves[i - 1][1]
    return game.notation.parse_move(game.state, text)


def play_unit(game, params, view: View, person: Person) -> list[dict]:
    """Play the hand (round) in progress to its end; returns its events, the deal first and the end
    event last. Every move of the person is on a line: its event's, or its words when it has no event
    shown (a ``stop``, a ``pass``)."""
    events = [game.deal_event()]
    view.say("")
    view.console.rule(f"{game.heading()}: dealt")

    def played(seat: int, moved: list[dict], words: str | None) -> None:
        shown = False
        for e in moved:
            shown |= view.event(game, e)
            events.append(e)
        if words is not None and not shown:
            view.say(f"{view.who(seat)} {words}")

    while (d := advance(game, params, person, played)) is not None:
        move, words = ask(game, view, person, d)
        played(person.seat, game.play(move), words)
    game.finish()
    end = game.end_event()
    events.append(end)
    for line in game.end_lines(end, view.who):
        view.say(line, style="bold")
    return events


def play(game, params, view: View, person: Person, on_unit=None) -> str:
    """Play ``game`` (a ``Variant.game``, reset and logging) with ``person`` in their seat and the
    strategies ``params`` float64[players, N] (the person's: the hint strategy); ``on_unit(events)``
    after each hand or round. Returns ``"complete"`` when the game ended, ``"quit"`` when the person
    quit, ``"interrupted"`` on Ctrl-C (the hand or round in play is then dropped)."""
    try:
        while True:
            events = play_unit(game, params, view, person)
            if on_unit is not None:
                on_unit(events)
            if game.over:
                return "complete"
            if person.auto == "unit":
                person.auto = None
            if person.auto is None and view.waits:
                text = read_line(f"press Enter for the next {game.unit} (or type quit) ", person.interactive)
                if text.strip().lower() in QUIT_WORDS:
                    raise Quit
            game.next_unit()
    except Quit:
        return "quit"
    except (Interrupted, KeyboardInterrupt):   # Ctrl-C at a question or while the bots move
        view.say("")
        return "interrupted"
