"""Helpers shared by the hand-built position tests (Basic Rummy, Shanghai, Gin Rummy)."""


def moves(result: dict) -> list[str]:
    """The moves of a played position as short lines: "0 draws H7 from stock", "1 melds ...";
    Shanghai adds "2 buys H7 (penalty S3)", "0 lays down H2 H3 H4 H5 | C9 D9 S9",
    "1 swaps H6 for the joker of 0" and jokers laid off as "1 lays off JK=H9 on 0"."""
    out = []
    for e in result["events"]:
        kind = e["event"]
        p = e.get("player")
        if kind == "draw":
            out.append(f"{p} draws {e['card']} from {e['source']}")
        elif kind == "meld":
            out.append(f"{p} melds {' '.join(e['cards'])}")
        elif kind == "buy":
            out.append(f"{p} buys {e['card']} (penalty {e['penalty']})")
        elif kind == "contract":
            out.append(f"{p} lays down " + " | ".join(" ".join(meld) for meld in e["melds"]))
        elif kind == "layoff":
            card = f"JK={e['stands_for']}" if "stands_for" in e else e["card"]
            out.append(f"{p} lays off {card} on {e['meld']}")
        elif kind == "swap":
            out.append(f"{p} swaps {e['card']} for the joker of {e['meld']}")
        elif kind == "discard":
            out.append(f"{p} discards {e['card']}")
        elif kind == "reshuffle":
            out.append(" ".join(["reshuffle", *e["stock"]]))
    return out


def search_strategy_file(tmp_path, variant: str, rollout: str = "expert", **keys) -> str:
    """A search strategy file of ``variant`` on a small budget (2 deals, 1 playout, 3 candidates);
    ``keys`` override or add ``search.*`` keys (``decisions`` as a TOML list)."""
    search = {"rollout": f'"{rollout}"', "samples": 2, "playouts": 1, "candidates": 3, **keys}
    text = f'name = "cheap-search"\nvariant = "{variant}"\ndescription = "test"\nbot = "search"\n[search]\n'
    text += "".join(f"{k} = {v}\n" for k, v in search.items())
    path = tmp_path / f"search-{abs(hash(text))}.toml"
    path.write_text(text)
    return str(path)
