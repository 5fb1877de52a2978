"""``rummysim play``: a person against the bots in the terminal, through the legal-move layer.

The variant's game (``Variant.game``: the kernels' game loops, move by move) is played by ``game``, the
loop and the questions; ``render`` what the person sees (the variant's ``hints`` mark its hand and say why a strategy moves), ``save`` the
game written like a run. The person sits in seat 0 of game 0: a game played by ``auto`` alone is
game 0 of ``rummysim run --games 1 --seed S --strategy HINT --strategy OPPONENT...`` (seat 0 the hint
strategy, the opponents in seats 1, 2... in the order given), row for row.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from rich.console import Console

from ..run import RunSpec
from ..strategy import Strategy, params_matrix
from .game import play
from .render import View
from .save import human_strategy, save_events, save_game

#: the person's seat
YOU = 0
#: the game index a played game has: ``rummysim run --games 1`` plays game 0 too
GAME = 0


def play_game(spec: RunSpec, hint: Strategy, out: Path, pause: float, console: Console | None = None) -> dict:
    """Play ``spec``'s game 0 (``spec.strategies[0]``: the person, ``human_strategy(hint)``) in this
    terminal (or from piped lines), saving it into ``out`` (held by the caller); returns run.json."""
    interactive = sys.stdin.isatty()
    console = console or Console(highlight=False)
    strategies = [hint] + spec.strategies[1:]
    game = spec.variant.game(spec.players, spec.rules.to_array(spec.players), log=True)
    game.reset(spec.seed, GAME)
    names = [s.name for s in spec.strategies]
    view = View(console, YOU, names, hint.name, pause if interactive and console.is_terminal else 0.0)
    started, start = time.strftime("%Y-%m-%dT%H:%M:%S%z"), time.perf_counter()

    def on_unit(events):
        save_events(out, game.unit, game.number - 1, events)

    complete = play(game, params_matrix(strategies), view, YOU, interactive, on_unit)
    return save_game(out, spec, game, complete, started, time.perf_counter() - start, YOU, hint)


__all__ = ["YOU", "human_strategy", "play_game"]
