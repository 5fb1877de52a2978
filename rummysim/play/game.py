"""The game loop of ``rummysim play``: the bots move, the person is asked, until the game ends or they quit.

At each decision of the person's seat the hint strategy's move is asked for once, before anything
else (``policy.choose``, as the kernel asks the seat's policy), so the seat's random stream moves as
in ``run``; ``auto`` plays that move, so a game played by ``auto`` alone is ``run``'s game.
"""

from __future__ import annotations

import dataclasses
import sys

from ..base.errors import MoveError
from .render import View, help_text


class Quit(Exception):
    """The person ended the game (``quit``, end of input, Ctrl-C)."""


@dataclasses.dataclass
class Decision:
    """One decision of the person's seat: the legal moves and the hint strategy's choice."""

    moves: list[tuple[int, str]]
    hint: int
    hint_name: str
    reason: str
    kept: object        # the game's state a ``CONTRACT`` hint needs put back (``Game.keep``)


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


def decide(game, params, seat: int) -> Decision:
    """The hint strategy's move first (its stream moves as in ``run``), then the legal moves listed."""
    hint = game.choose(params, seat)
    kept = game.keep()
    moves = game.notation.legal_move_names(game.state)
    hint_name = next(name for action, name in moves if action == hint)
    return Decision(moves, hint, hint_name, game.hints.reason(game.state, seat, hint), kept)


def ask(game, params, view: View, seat: int, interactive: bool) -> int:
    """The person's move at this decision: a number, the move's words, ``hint``, ``auto``, ``quit``.
    A wrong answer gets one line saying why, and the question again."""
    d = decide(game, params, seat)
    view.table(game)
    view.choices(d.moves, game.step())
    while True:
        text = read_line("> ", interactive)
        word = text.lower()
        if word in ("quit", "exit", "q"):
            raise Quit
        if word in ("help", "?"):
            view.say(help_text(game))
            continue
        if word == "hint":
            view.say(f"hint ({view.hint}): {d.hint_name}: {d.reason}", style="green")
            continue
        if word in ("auto", "a"):
            game.restore(d.kept)
            return d.hint
        try:
            return chosen(game, d, text)
        except MoveError as e:
            view.say(f"{e} (try again, or hint, help, quit)", style="yellow")


def chosen(game, d: Decision, text: str) -> int:
    """The move a number or words name (``MoveError`` if none); a listed move goes through its words."""
    if text.isdigit():
        i = int(text)
        if not 1 <= i <= len(d.moves):
            n = len(d.moves)
            raise MoveError(f"no move {i}: " + ("the only move is 1" if n == 1 else f"choose a number from 1 to {n}"))
        text = d.moves[i - 1][1]
    return game.notation.parse_move(game.state, text)


def play(game, params, view: View, you: int, interactive: bool, on_unit=None) -> bool:
    """Play ``game`` (a ``Variant.game``, reset and logging) with the person in seat ``you`` and the
    strategies ``params`` float64[players, N] (the person's: the hint strategy); ``on_unit(events)``
    after each hand or round. Returns True when the game ended, False when the person quit (the hand
    or round in play is then dropped)."""
    try:
        while True:
            events = [game.deal_event()]
            view.say("")
            view.console.rule(f"{game.heading()}: dealt")
            while not game.unit_over:
                seat = game.seat
                move = game.forced()
                if move < 0:
                    move = ask(game, params, view, seat, interactive) if seat == you else game.choose(params, seat)
                for e in game.play(move):
                    view.event(game, e)
                    events.append(e)
            game.finish()
            end = game.end_event()
            events.append(end)
            for line in game.end_lines(end, view.who):
                view.say(line, style="bold")
            if on_unit is not None:
                on_unit(events)
            if game.over:
                return True
            game.next_unit()
    except (Quit, KeyboardInterrupt):   # Ctrl-C while the bots move ends the game like quit
        return False
