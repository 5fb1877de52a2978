"""The words of the events every variant logs alike (a replay's text lines): the deal, a draw, a meld
laid, a card laid off, a discard. Each variant's ``replay.format_event`` words its own kinds and the
end of its hand or round, and hands the rest here. Table melds are numbered from 1, as ``play`` and
the notation number them (an event's ``meld`` is the index, from 0).
"""

from __future__ import annotations


def common_line(e: dict) -> str | None:
    """The line(s) of event ``e`` if its kind is one every variant words alike, else None."""
    kind = e["event"]
    if kind == "deal":
        lines = [f"deal: dealer seat {e['dealer']}, upcard {e['upcard']}, {len(e['stock'])} cards in stock"]
        lines += [f"  seat {p}: {' '.join(h)}" for p, h in enumerate(e["hands"])]
        return "\n".join(lines)
    if kind == "draw":
        return f"seat {e['player']} draws {e['card']} from the {e['source']}" + (" pile" if e["source"] == "discard" else "")
    if kind == "meld":
        return f"seat {e['player']} melds {' '.join(e['cards'])}"
    if kind == "layoff":
        return f"seat {e['player']} lays off {e['card']} on meld {e['meld'] + 1}"
    if kind == "discard":
        return f"seat {e['player']} discards {e['card']}"
    return None
