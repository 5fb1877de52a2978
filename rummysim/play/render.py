"""What the person at the table sees, drawn with rich: their hand (melds ``*`` and partial melds ``+``
marked), the table melds numbered with what fits them, the upcard, the others' counts and the
cards they took from the pile, the scores; one line per move, hiding what the seat may not see.
"""

from __future__ import annotations

import time

from rich.console import Console
from rich.text import Text

from ..cards import JOKER, SUITS, card_name

SUIT_STYLE = {"C": "green", "D": "red", "H": "red", "S": "blue"}


def help_text(game) -> str:
    """What a person may answer at a decision of ``game`` (a ``Variant.game``)."""
    return (f"Answer with a move's number or its words ({game.move_words}); hint: what the hint strategy "
            f"would do and why; auto: play it (auto {game.unit}: to the end of the {game.unit}, auto game: to the "
            "end of the game); quit: end the game and save it.")


def card_text(card: int, mark: str = "") -> Text:
    """A card, coloured by suit, with its mark (``*`` in a meld, ``+`` in a partial meld)."""
    name = card_name(card)
    style = "bold magenta" if card == JOKER else SUIT_STYLE[name[0]]
    return Text(name + mark, style=style + (" bold" if mark == "*" else ""))


def hand_line(counts: dict[int, int], marks: tuple[set[int], set[int]]) -> Text:
    """The hand by suit and rank, each card marked."""
    melded, partial = marks
    out = Text()
    for s in range(len(SUITS)):
        cards = [16 * s + r for r in range(13) for _ in range(counts.get(16 * s + r, 0))]
        if not cards:
            continue
        out.append(" |" if out else " ")
        for c in cards:
            out.append(" ")
            out.append_text(card_text(c, "*" if c in melded else "+" if c in partial else ""))
    if counts.get(JOKER):
        out.append(" | ")
        out.append_text(card_text(JOKER))
        out.append(f" x{counts[JOKER]}" if counts[JOKER] > 1 else "")
    return out


def seat_called(seat: int, you: int, names: list[str]) -> str:
    """A seat as the person's screen names it: ``you``, or ``seat 2 (expert)`` (``names``: each seat's
    strategy)."""
    return "you" if seat == you else f"seat {seat} ({names[seat]})"


class View:
    """The terminal of one person in seat ``you``: the seats' strategy names, the hint strategy's name,
    the pause after another seat's move (seconds)."""

    def __init__(self, console: Console, you: int, names: list[str], hint: str, pause: float, waits: bool = False):
        self.console, self.you, self.names, self.hint, self.pause = console, you, names, hint, pause
        #: whether the end of a hand (round) waits for Enter (a person at a terminal)
        self.waits = waits
        #: lines wrap on words at a terminal's width; piped, each stays one line
        self.wrap = console.is_terminal

    def who(self, seat: int) -> str:
        return seat_called(seat, self.you, self.names)

    def say(self, text: str, style: str | None = None) -> None:
        self.console.print(text, style=style, highlight=False, markup=False, soft_wrap=not self.wrap)

    def table(self, game) -> None:
        """The seat's whole view at a decision (``game``: a ``Variant.game``); of the others' hands, the
        cards the game knows they took (``Game.taken``)."""
        taken = game.taken()
        self.console.rule(game.heading())
        self.say("Scores: " + ", ".join(f"{self.who(q)} {int(t)}" for q, t in enumerate(game.scores))
                 + f" ({game.goal()})")
        melds = game.table_lines(self.who)
        self.say("Table melds:" + ("" if melds else " none"))
        for line in melds:
            self.say("  " + line)
        up = game.upcard()
        self.say(f"Upcard: {card_name(up) if up >= 0 else 'none'}   {game.counters(self.you)}")
        for q in range(len(self.names)):
            if q != self.you:
                took = " ".join(card_name(x) for x in taken.get(q, []))
                self.say(f"{self.who(q)}: {game.count(q)} cards" + game.seat_note(q)
                         + (f", took {took} from the pile" if took else ""))
        full, part, legend = game.marks(self.you)
        line = Text(f"Your hand ({game.count(self.you)}; {legend}):")
        line.append_text(hand_line(game.hand(self.you), (full, part)))
        self.console.print(line, soft_wrap=not self.wrap)

    def choices(self, moves: list[tuple[int, str]], step: str) -> None:
        self.say(f"Your move ({step}):", style="bold")
        for i, (_, name) in enumerate(moves, 1):
            self.say(f"  {i:>3}. {name}")

    def event(self, game, e: dict) -> bool:
        """One move of ``game`` on a line (``Game.event_line``: what the seat may not see stays hidden);
        whether a line was shown."""
        line = game.event_line(e, self.who, self.you)
        if line:
            self.say(line, style=None if e.get("player") == self.you else "cyan")
            if e.get("player", self.you) != self.you and self.pause > 0:
                time.sleep(self.pause)
        return bool(line)
