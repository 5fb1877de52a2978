"""``rummysim play``: a person against the bots in the terminal, through the legal-move layer.

The variant's game (``Variant.game``: the kernels' game loops, move by move) is played by ``game``, the
loop and the questions; ``render`` what the person sees (the variant's ``hints`` mark its hand and say why a strategy moves), ``save`` the
game written like a run. The person sits in seat 0 of game 0: a game played by ``auto`` alone is
game 0 of ``rummysim run --games 1 --seed S --strategy HINT --strategy OPPONENT...`` (seat 0 the hint
strategy, the opponents in seats 1, 2... in the order given), row for row.
"""

from __future__ import annotations

import io
import sys
import time
from pathlib import Path

from rich.console import Console

from ..compiling import warming_up
from ..run import RunSpec
from ..strategy import Strategy, params_matrix
from .game import Person, play, play_unit
from .render import View
from .save import human_strategy, save_events, save_game

#: the person's seat
YOU = 0
#: the game index a played game has: ``rummysim run --games 1`` plays game 0 too
GAME = 0


def play_game(spec: RunSpec, hint: Strategy, out: Path, pause: float, console: Console | None = None,
              ask_single: bool = False) -> tuple[dict, str]:
    """Play ``spec``'s game 0 (``spec.strategies[0]``: the person, ``human_strategy(hint)``) in this
    terminal (or from piped lines), saving it into ``out`` (held by the caller); returns run.json and
    how the game ended (``play.game.play``'s ``"complete"``, ``"quit"``, ``"interrupted"``).
    ``ask_single``: ask at a decision with one legal move too."""
    interactive = sys.stdin.isatty()
    console = console or Console(highlight=False)
    strategies = [hint] + spec.strategies[1:]
    params = params_matrix(strategies)
    at_terminal = interactive and console.is_terminal
    compile_game(spec, params)
    game = new_game(spec)
    names = [s.name for s in spec.strategies]
    view = View(console, YOU, names, hint.name, pause if at_terminal else 0.0, waits=at_terminal)
    started, start = time.strftime("%Y-%m-%dT%H:%M:%S%z"), time.perf_counter()

    def on_unit(events):
        save_events(out, game.unit, game.number - 1, events)

    ended = play(game, params, view, Person(YOU, interactive, ask_single), on_unit)
    record = save_game(out, spec, game, ended == "complete", started, time.perf_counter() - start, YOU, hint)
    return record, ended


def new_game(spec: RunSpec):
    """``spec``'s game 0, reset and logging its events (a ``Variant.game``)."""
    game = spec.variant.game(spec.players, spec.rules.to_array(spec.players), log=True)
    game.reset(spec.seed, GAME)
    return game


def compile_game(spec: RunSpec, params) -> None:
    """Play the first hand (round) of ``spec``'s game as ``play`` would, the person's seat on ``auto``
    and nothing shown: every compiled function a game calls is compiled (the first run) or loaded from
    the cache before the first deal is shown, so the game never stops mid-hand to compile."""
    game = new_game(spec)
    quiet = Rehearsal(Console(file=io.StringIO(), width=100), YOU, [s.name for s in spec.strategies], "", 0.0)
    with warming_up():
        play_unit(game, params, quiet, Person(YOU, interactive=False, auto="game"))


class Rehearsal(View):
    """A view drawing into nothing that also draws the person's whole view after each of their moves, as
    the questions of a real game would: ``compile_game`` thereby calls what a real game shows."""

    def event(self, game, e: dict) -> bool:
        if e.get("player") == self.you and not game.unit_over:
            self.table(game)
        return super().event(game, e)


__all__ = ["YOU", "human_strategy", "play_game"]
