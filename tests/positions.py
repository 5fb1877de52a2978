"""Helpers shared by the hand-built position tests."""


def moves(result: dict) -> list[str]:
    """The moves of a played position as short lines: "0 draws H7 from stock", "1 melds ..."."""
    out = []
    for e in result["events"]:
        kind = e["event"]
        if kind == "draw":
            out.append(f"{e['player']} draws {e['card']} from {e['source']}")
        elif kind == "meld":
            out.append(f"{e['player']} melds {' '.join(e['cards'])}")
        elif kind == "layoff":
            out.append(f"{e['player']} lays off {e['card']} on {e['meld']}")
        elif kind == "discard":
            out.append(f"{e['player']} discards {e['card']}")
        elif kind == "reshuffle":
            out.append("reshuffle " + " ".join(e["stock"]))
    return out
