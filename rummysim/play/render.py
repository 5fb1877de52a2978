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
HELP = ("Answer with a move's number or its words (draw stock, take, meld H3 H4 H5, layoff SQ 2, discard D9, "
        "buy, pass, contract C7 D7 S7 / H3 H4 H5 H6, swap H7 2 JK 3, stop); hint: what the hint strategy would "
        "do and why; auto: play it; quit: end the game and save it.")


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


class View:
    """The terminal of one person in seat ``you``: the seats' strategy names, the hint strategy's name,
    the pause after another seat's move (seconds)."""

    def __init__(self, console: Console, you: int, names: list[str], hint: str, pause: float):
        self.console, self.you, self.names, self.hint, self.pause = console, you, names, hint, pause

    def who(self, seat: int) -> str:
        return "you" if seat == self.you else f"seat {seat} ({self.names[seat]})"

    def say(self, text: str, style: str | None = None) -> None:
        self.console.print(text, style=style, highlight=False, markup=False, soft_wrap=True)

    def table(self, game) -> None:
        """The seat's whole view at a decision (``game``: a ``Variant.game``); of the others' hands, the
        cards the game knows they took (``Game.taken``)."""
        taken = game.taken()
        self.console.rule(game.heading())
        self.say("Scores: " + ", ".join(f"{self.who(q)} {int(t)}" for q, t in enumerate(game.scores))
                 + f" ({game.goal()})")
        melds = game.table_lines()
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
        line = Text(f"Your hand ({game.count(self.you)}; * in a meld, + in a partial meld):")
        line.append_text(hand_line(game.hand(self.you), game.hints.marks(game.state, self.you)))
        self.console.print(line, soft_wrap=True)

    def choices(self, moves: list[tuple[int, str]], step: str) -> None:
        self.say(f"Your move ({step}):", style="bold")
        for i, (_, name) in enumerate(moves, 1):
            self.say(f"  {i:>3}. {name}")

    def event(self, e: dict) -> None:
        """One move on a line; another seat's stock draw and a buy's penalty card stay hidden."""
        line = event_line(e, self.who, self.you)
        if line:
            self.say(line, style=None if e.get("player") == self.you else "cyan")
            if e.get("player", self.you) != self.you and self.pause > 0:
                time.sleep(self.pause)


def event_line(e: dict, who, you: int) -> str | None:
    kind, p = e["event"], e.get("player")
    name = who(p) if p is not None else ""
    if kind == "draw":
        if e["source"] == "stock":
            return f"you draw {e['card']} from the stock" if p == you else f"{name} draws from the stock"
        return f"{name} take{'s' * (p != you)} {e['card']} from the pile"
    if kind == "meld":
        return f"{name} meld{'s' * (p != you)} {' '.join(e['cards'])}"
    if kind == "contract":
        return f"{name} lay{'s' * (p != you)} down: " + " / ".join(" ".join(m) for m in e["melds"])
    if kind == "layoff":
        card = f"{e['card']}={e['stands_for']}" if "stands_for" in e else e["card"]   # a joker (rules 3.13)
        return f"{name} lay{'s' * (p != you)} off {card} on meld {e['meld'] + 1}"
    if kind == "swap":
        return f"{name} swap{'s' * (p != you)} {e['card']} for the joker of meld {e['meld'] + 1}"
    if kind == "buy":
        penalty = f" (penalty card {e['penalty']})" if p == you else " and a penalty card"
        return f"{name} buy{'s' * (p != you)} {e['card']}{penalty}"
    if kind == "discard":
        return f"{name} discard{'s' * (p != you)} {e['card']}"
    if kind == "reshuffle":
        return "the stock ran out: the discard pile becomes the stock"
    return None


def end_lines(e: dict, who) -> list[str]:
    """The end of a hand or round: who went out and the points, every hand shown."""
    if e["outcome"] != "win":
        head = f"no winner: {e['outcome'].replace('_', ' ')}"
    elif "points" in e:
        head = f"{who(e['winner'])} went out{' with rummy' if e['going_rummy'] else ''}: {e['points']} points"
    else:
        head = f"{who(e['winner'])} went out; this round: " + ", ".join(
            f"{who(q)} {s:+d}" for q, s in enumerate(e["scores"]))
    return [head] + [f"  {who(q)} held: {' '.join(h) or '-'}" for q, h in enumerate(e["hands"])]

