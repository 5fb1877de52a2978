"""Write the golden playthroughs: one hand (round) of every registered variant, move by move, as text
a person can read (as OpenSpiel's playthroughs), in ``tests/playthroughs/<variant>-<players>p.txt``.

Each variant's cases come from its ``Variant`` alone, so a newly registered variant gets its own with no
edit here: its fewest and its default number of players, the shipped strategies but the search bots
(``tests/test_conformance.py``'s ``strategies_to_check``) seated in turn, seed ``SEED``, game 0, its
first hand (round), under its default rules. A file holds:

* a header: the variant, players, seed, game, hand (round), the rules version and rule hash, every
  rule option as the rules class gives it (``as_dict``, written as a rules file would), each seat's
  strategy;
* the deal: every hand, the upcard, the stock from the top down;
* every decision: the seat to act and its hand, the legal moves as a player types them (all of them,
  in the order of their action numbers), the move its strategy chose, and the events that move
  logged, worded as ``replay`` words them; after a move that adds a meld, the table (``table_lines``),
  which numbers the melds a lay-off names;
* the end: how the hand (round) ended, the table, each seat's points, and the hand's (round's) rows
  of the results tables (those ``run`` writes).

A decision is taken as ``play`` takes it (``rummysim/play/game.py``): the strategy's move first, so its
random stream moves as in ``run``, then the legal moves named (``keep``/``restore`` around the naming:
a move that stands for several layings, a contract, is named by the laying it would lay, the
strategy's when it chose that move).

Everything is the engine's, through the interfaces ``play`` and the environments drive
(``Variant.game``, ``Variant.notation``, ``Variant.format_event``, ``Variant.tables``); nothing is
written by hand. A change to the rules, the deal, a shipped strategy or the words of a move changes
these files: regenerate them, read the diff, and commit it with the change.

    python tools/gen_playthroughs.py            # rewrite the files (and delete any no case makes)
    python tools/gen_playthroughs.py --check    # exit 1 naming each file that is not current

``tests/test_playthroughs.py`` compares each file with what this script writes now, showing the diff.
The first run compiles the engine (minutes); later runs load it from the cache.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from rummysim.base.rules import RULES_VERSION  # noqa: E402
from rummysim.cards import card_name  # noqa: E402
from rummysim.run import RunSpec  # noqa: E402
from rummysim.strategy import params_matrix, seat_strategies  # noqa: E402
from rummysim.variants import VARIANTS  # noqa: E402
from test_conformance import seated  # noqa: E402

OUT = ROOT / "tests" / "playthroughs"
SEED = 11
GAME = 0
WIDTH = 100    # longer lists (legal moves, the stock) wrap, continued under their first item


def cases() -> list[tuple[object, int]]:
    """(variant, players) of every playthrough: each registered variant at its fewest and its default
    number of players."""
    return [(v, p) for v in VARIANTS.values() for p in sorted({v.players[0], v.players[2]})]


def file_name(variant, players: int) -> str:
    return f"{variant.name}-{players}p.txt"


def wrapped(head: str, items: list[str], sep: str, indent: int) -> list[str]:
    """``head`` then ``items`` joined by ``sep``, in lines of at most ``WIDTH`` (an item never split),
    each continuation indented by ``indent``."""
    lines, line = [], head
    for i, item in enumerate(items):
        piece = item if i == 0 else sep + item
        if i and len(line) + len(piece) + len(sep.rstrip()) > WIDTH:
            lines.append(line + sep.rstrip())
            line, piece = " " * indent + item, ""
        line += piece
    return lines + [line]


def hand_words(game, seat: int) -> str:
    """The seat's hand, card by card (``Game.hand``: card -> copies), in card order."""
    held = game.hand(seat)
    return " ".join(card_name(c) for c in sorted(held) for _ in range(held[c])) or "-"


def rule_value(value) -> str:
    """An option's value as a rules file writes it (``true``, ``"low"``, ``[-25, -50]``)."""
    return json.dumps(value)


def row_words(row: dict) -> list[str]:
    """A results row as ``column=value`` words (``going_rummy=false``)."""
    return [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in row.items()]


def playthrough(variant, players: int) -> str:
    """The playthrough of ``variant`` at ``players`` seats, as its file holds it."""
    names = seated(variant, players)
    spec = RunSpec(variant, players, seat_strategies(names, players, variant), seed=SEED, games=1)
    rules, params = spec.rules.to_array(players), params_matrix(spec.strategies)
    game = variant.game(players, rules, log=True)
    game.reset(SEED, GAME)
    unit = variant.unit

    out = [f"# {variant.title}, one {unit} played by the shipped strategies, as the engine plays it now: written",
           "# by tools/gen_playthroughs.py (run it again after a deliberate change; never edit this file),",
           "# compared with what the engine plays by tests/test_playthroughs.py",
           f"variant: {variant.name} ({variant.title})",
           f"players: {players}",
           f"seed: {SEED}",
           f"game: {GAME}",
           f"{unit}: {game.number}, the game's first ({game.heading()})",
           f"rules version: {RULES_VERSION} (rule hash {spec.rules.digest(players)})",
           "rules:"]
    out += [f"  {k} = {rule_value(v)}" for k, v in spec.rules.as_dict(players).items()]
    out += ["strategies:"] + [f"  seat {q}: {n}" for q, n in enumerate(names)]

    deal = game.deal_event()
    out += ["", f"== the deal: {variant.describe_deal(deal)}", *variant.format_event(deal).splitlines()]
    out += wrapped(f"  stock, top first ({len(deal['stock'])}): ", deal["stock"], " ", 4)

    decisions: list[str] = []
    n = 0
    while not game.unit_over:
        seat = game.seat
        move = game.bot_move(params)
        kept = game.keep()              # naming a contract must not replace the one the strategy chose
        legal = variant.notation.legal_move_names(game.state)
        game.restore(kept)
        assert sorted(a for a, _ in legal) == sorted(game.legal().tolist()), "the named moves are not the legal moves"
        assert move in dict(legal), f"the strategy's move {move} is not legal"
        n += 1
        decisions.append(f"[{n}] seat {seat} ({names[seat]}), hand {hand_words(game, seat)}")
        if len(legal) > 1:
            decisions += wrapped("    legal: ", [name for _, name in sorted(legal)], " | ", 11)
        played = f"    plays: {dict(legal)[move]}" + ("" if len(legal) > 1 else " (its only legal move)")
        table = game.table_lines()
        events = [line for e in game.play(move) for line in variant.format_event(e).splitlines()]
        if events and len(played) + sum(len(x) + 4 for x in events) <= WIDTH:
            decisions.append(played + " -> " + "; ".join(events))
        else:
            decisions += [played] + ["      -> " + x for x in events]
        if len(game.table_lines()) > len(table):     # a new meld: the table again, for the melds' numbers
            decisions += wrapped("      table now: ", game.table_lines(), "; ", 17)
    out += ["", f"== play: {n} decisions",
            "each: [number] the seat to act (its strategy) and its hand; its legal moves, in the order of their",
            "action numbers (none listed when there is one); the move it plays -> the events that move logged;",
            "after a new meld, the table", *decisions]

    heading = game.heading()
    table = game.table_lines()
    points = game.finish()
    end = game.end_event()
    out += ["", f"== the end of {heading}", *variant.format_event(end).splitlines(),
            *wrapped("  table: ", table or ["-"], "; ", 9),
            f"  points this {unit}{variant.points_note}: "
            + ", ".join(f"seat {q} {int(p):+d}" for q, p in enumerate(points))]
    tables = variant.tables(game.chunk(), SEED, players, names)
    for name, t in tables.items():
        if unit in t.column_names:              # the tables with a row per hand (round), not per game
            rows = t.to_pylist()
            out.append(f"  {name} row{'s' * (len(rows) > 1)}:")
            for r in rows:
                out += wrapped("    ", row_words(r), " ", 6)
    return "\n".join(out) + "\n"


def stale_files() -> list[Path]:
    """Files in the folder that no case writes."""
    wanted = {file_name(v, p) for v, p in cases()}
    return sorted(p for p in OUT.glob("*.txt") if p.name not in wanted)


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    OUT.mkdir(parents=True, exist_ok=True)
    for variant, players in cases():
        path = OUT / file_name(variant, players)
        text = playthrough(variant, players)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            stale.append(str(path.relative_to(ROOT)))
            if not check:
                path.write_text(text, encoding="utf-8")
    for path in stale_files():
        stale.append(f"{path.relative_to(ROOT)} (no case writes it)")
        if not check:
            path.unlink()
    if check and stale:
        print("not current (run python tools/gen_playthroughs.py): " + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
