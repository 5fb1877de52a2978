"""The game loop of ``rummysim play``: the bots move, the person is asked, until the game ends or they quit.

At each decision of the person's seat the hint strategy's move is asked for once, before anything
else (``bots.choose``, as the kernel asks the seat's policy), so the seat's random stream moves as
in ``run``; ``auto`` plays that move, so a game played by ``auto`` alone is ``run``'s game.
"""

from __future__ import annotations

import dataclasses
import sys

from ..notation import MoveError, legal_move_names, parse_move
from .render import HELP, View, end_lines


class Quit(Exception):
    """The person ended the game (``quit``, end of input, Ctrl-C)."""


@dataclasses.dataclass
class Decision:
    """One decision of the person's seat: the legal moves and the hint strategy's choice."""

    moves: list[tuple[int, str]]
    hint: int
    hint_name: str
    reason: str
    kept: object        # the table's state a ``CONTRACT`` hint needs put back (``table.keep``)


def read_line(prompt: str, interactive: bool) -> str:
    """One line of input; ``Quit`` at the end of input."""
    try:
        if interactive:
            return input(prompt)
        line = sys.stdin.readline()
    except (EOFError, KeyboardInterrupt):
        raise Quit from None
    if not line:
        raise Quit
    return line.strip()


def decide(table, seat: int) -> Decision:
    """The hint strategy's move first (its stream moves as in ``run``), then the legal moves listed."""
    hint = table.choose(seat)
    kept = table.keep()
    moves = legal_move_names(table.state)
    hint_name = next(name for action, name in moves if action == hint)
    return Decision(moves, hint, hint_name, table.reason(seat, hint), kept)


def ask(table, view: View, seat: int, interactive: bool) -> int:
    """The person's move at this decision: a number, the move's words, ``hint``, ``auto``, ``quit``.
    A wrong answer gets one line saying why, and the question again."""
    d = decide(table, seat)
    view.table(table, table.taken())
    view.choices(d.moves, table.step())
    while True:
        text = read_line("> ", interactive)
        word = text.lower()
        if word in ("quit", "exit", "q"):
            raise Quit
        if word in ("help", "?"):
            view.say(HELP)
            continue
        if word == "hint":
            view.say(f"hint ({view.hint}): {d.hint_name}: {d.reason}", style="green")
            continue
        if word in ("auto", "a"):
            table.restore(d.kept)
            return d.hint
        try:
            return chosen(table, d, text)
        except MoveError as e:
            view.say(f"{e} (try again, or hint, help, quit)", style="yellow")


def chosen(table, d: Decision, text: str) -> int:
    """The move a number or words name (``MoveError`` if none); a listed move goes through its words."""
    if text.isdigit():
        i = int(text)
        if not 1 <= i <= len(d.moves):
            raise MoveError(f"no move {i}: choose 1 to {len(d.moves)}")
        text = d.moves[i - 1][1]
    return parse_move(table.state, text)


def play(table, view: View, you: int, interactive: bool, on_unit=None) -> bool:
    """Play the game at ``table`` (a ``tables.BasicTable`` or ``ShanghaiTable``) with the person in
    seat ``you``; ``on_unit(events)`` after each hand or round. Returns True when the game ended,
    False when the person quit (the hand or round in play is then dropped)."""
    try:
        while not table.game_over():
            events = [table.start()]
            view.say("")
            view.console.rule(f"{table.heading()}: dealt")
            while not table.over():
                seat = table.seat()
                move = table.forced()
                if move < 0:
                    move = ask(table, view, seat, interactive) if seat == you else table.choose(seat)
                for e in table.apply(move):
                    view.event(e)
                    events.append(e)
            end = table.finish()
            events.append(end)
            for line in end_lines(end, view.who):
                view.say(line, style="bold")
            if on_unit is not None:
                on_unit(events)
    except (Quit, KeyboardInterrupt):   # Ctrl-C while the bots move ends the game like quit
        return False
    return True
