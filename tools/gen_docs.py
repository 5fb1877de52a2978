"""Write the reference tables of docs/ from the code: each variant's rule options and the action encodings.

A generated table sits in a page between ``<!-- gen_docs: KIND NAME -->`` and ``<!-- end gen_docs -->``;
this script rewrites what is between the two lines and leaves the rest of the page alone.

* ``rule-options <variant>`` (docs/variants.md): every option of the variant's rules class, its default
  at each number of players (``rules().as_dict(players)``) and what the engine accepts
  (``Variant.rule_options``, the words its errors print).
* ``actions basic`` / ``actions shanghai`` (docs/environments.md): the flat action encoding, every
  number taken from the constants of the variant's ``moves.py``; the rows must cover the actions
  0 .. ``NUM_ACTIONS`` - 1 exactly once, or this script stops.

    python tools/gen_docs.py            # rewrite the pages
    python tools/gen_docs.py --check    # exit 1 naming each table that is not current

``tests/test_docs.py`` runs the check. Plain imports only: no kernel is compiled.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rummysim.variants import VARIANTS  # noqa: E402
from rummysim.variants.basic import moves as basic_moves  # noqa: E402
from rummysim.variants.shanghai import moves as shanghai_moves  # noqa: E402
from rummysim.variants.gin import moves as gin_moves  # noqa: E402

BLOCK = re.compile(r"(<!-- gen_docs: (\S+) (\S+) -->\n)(.*?)(<!-- end gen_docs -->)", re.S)
PAGES = ("docs/variants.md", "docs/environments.md")


def _value(v) -> str:
    if isinstance(v, bool):
        return "`true`" if v else "`false`"
    if isinstance(v, (list, tuple)):
        return "`" + "/".join(str(x) for x in v) + "`"
    return f"`{v}`"


def _players(lo: int, hi: int, last: bool) -> str:
    span = str(lo) if lo == hi else f"{lo}-{hi}"
    return span + (" players" if last else "")


def _default(variant, option: str) -> str:
    """The option's default; where it depends on the number of players, each value with its players."""
    lo, hi, _ = variant.players
    runs = []                                   # [value, first players, last players]
    for p in range(lo, hi + 1):
        v = variant.rules().as_dict(p)[option]
        if runs and runs[-1][0] == v:
            runs[-1][2] = p
        else:
            runs.append([v, p, p])
    if len(runs) == 1:
        return _value(runs[0][0])
    return ", ".join(f"{_value(v)} at {_players(a, b, i == 0)}" for i, (v, a, b) in enumerate(runs))


def rule_options(name: str) -> str:
    v = VARIANTS[name]
    rows = ["| option | default | accepted |", "|---|---|---|"]
    for option in v.rules().as_dict(v.players[2]):
        accepted = re.sub(r"'([^']*)'", r"`\1`", v.rule_options[option])
        rows.append(f"| `{option}` | {_default(v, option)} | {accepted} |")
    return "\n".join(rows)


def _table(title: str, rows, total: int) -> str:
    """``rows``: (first action, count, action as written, when, meaning); they must tile 0 .. total - 1."""
    start = 0
    for first, count, *_ in rows:
        assert first == start and count > 0, f"{title}: actions {start}.. not covered as the rows say"
        start += count
    assert start == total, f"{title}: the rows cover {start} of {total} actions"
    lines = [title, "", "| action | when | meaning |", "|---|---|---|"]
    lines += [f"| {written} | {when} | {meaning} |" for _, _, written, when, meaning in rows]
    return "\n".join(lines)


def basic_actions() -> str:
    m = basic_moves
    t = m.MAX_TABLE
    rows = [(0, m.DRAW_STOCK, f"0 .. {m.DRAW_STOCK - 1}", "discard", "discard card index i"),
            (m.DRAW_STOCK, 1, f"{m.DRAW_STOCK}", "draw", "draw the top card of the stock"),
            (m.TAKE_DISCARD, 1, f"{m.TAKE_DISCARD}", "draw", "take the top card of the discard pile"),
            (m.STOP, 1, f"{m.STOP}", "play", "stop melding: go to the discard"),
            (m.MELD_BASE, m.N_MELDS, f"{m.MELD_BASE} .. {m.LAYOFF_BASE - 1}", "play",
             f"lay down meld j of the {m.N_MELDS}-meld table (`moves.MELD_TABLE[j]`, a card mask)"),
            (m.LAYOFF_BASE, 52 * t, f"{m.LAYOFF_BASE} + {t} i + k", "play", "lay off card index i on table meld k")]
    return _table(f"Basic actions ({m.NUM_ACTIONS:,}; `rummysim/variants/basic/moves.py`):", rows, m.NUM_ACTIONS)


def shanghai_actions() -> str:
    m = shanghai_moves
    t, joker = m.MAX_TABLE, m.JOKER
    cards = joker + 1
    rows = [(0, cards, f"0 .. {joker}", "discard", "throw card c"),
            (m.TAKE_UPCARD, 2, f"{m.TAKE_UPCARD} / {m.LEAVE_UPCARD}", "upcard",
             "take the upcard / leave it (buys are offered, then the stock draw)"),
            (m.BUY, 2, f"{m.BUY} / {m.PASS}", "buy", "buy the upcard (with the top stock card) / pass"),
            (m.STOP, 1, f"{m.STOP}", "play", "stop: go to the discard"),
            (m.CONTRACT, 1, f"{m.CONTRACT}", "play, not down",
             "lay the contract the action mask's listing found (or the one `parse_move` read)"),
            (m.LAYOFF_BASE, cards * t, f"{m.LAYOFF_BASE} + {t} c + k", "play, down", "lay off card c on table meld k"),
            (m.SWAP_BASE, cards * t * t, f"{m.SWAP_BASE} + {t} ({t} c + k) + k2", "play, down",
             "put natural c in place of a joker of meld k, the joker laid off on meld k2"),
            (m.SWAP_DOWN_BASE, cards * t, f"{m.SWAP_DOWN_BASE} + {t} c + k", "play, not down (`joker_swap = anyone`)",
             f"put natural c in place of a joker of meld k, the joker to the hand; then only {m.CONTRACT}, a laying "
             "holding a joker (docs/rules.md 3.8)"),
            (m.JOKER_LOW_BASE, t, f"{m.JOKER_LOW_BASE} + k", "play, down",
             f"lay off a joker below run k, which takes one at both ends ({m.LAYOFF_BASE} + {t} × {joker} + k puts it "
             "above; docs/rules.md 3.13)"),
            (m.SWAP_LOW_BASE, cards * t * t, f"{m.SWAP_LOW_BASE} + {t} ({t} c + k) + k2", "play, down",
             f"as {m.SWAP_BASE} + ..., the freed joker below run k2, which takes one at both ends after the swap "
             "(3.13)")]
    title = (f"Shanghai actions ({m.NUM_ACTIONS:,}; `rummysim/variants/shanghai/moves.py`; card id c = 16 * suit + "
             f"rank, {joker} the joker; {t} table melds at most):")
    return _table(title, rows, m.NUM_ACTIONS)


def gin_actions() -> str:
    m = gin_moves
    rows = [(0, 52, "0 .. 51", "discard, knock discard, layoff",
             "discard card index i; the knocker's discard; the defender lays card i off"),
            (m.DRAW_UPCARD, 1, f"{m.DRAW_UPCARD}", "first upcard, draw", "take the upcard"),
            (m.DRAW_STOCK, 1, f"{m.DRAW_STOCK}", "first upcard (after two passes), draw", "draw the top card of the stock"),
            (m.PASS, 1, f"{m.PASS}", "first upcard, knock meld, layoff, defender meld, wall",
             "pass (the first upcard; done laying melds or lay-offs; no knock at the wall)"),
            (m.KNOCK, 1, f"{m.KNOCK}", "discard, wall", "knock"),
            (m.MELD_BASE, m.N_MELDS, f"{m.MELD_BASE} .. {m.BIG_GIN - 1}", "knock meld, defender meld",
             f"lay meld j of the {m.N_MELDS}-meld table (`moves.MELD_TABLE[j]`, OpenSpiel's order)"),
            (m.BIG_GIN, 1, f"{m.BIG_GIN}", "discard", "big gin: eleven cards melded, no discard (option `big_gin_bonus`)")]
    return _table(f"Gin actions ({m.NUM_ACTIONS:,}; `rummysim/variants/gin/moves.py`; OpenSpiel's `gin_rummy` numbers "
                  "once a card is translated, docs/rules.md 4):", rows, m.NUM_ACTIONS)


def generated(kind: str, name: str) -> str:
    if kind == "rule-options":
        return rule_options(name)
    if kind == "actions":
        return {"basic": basic_actions, "shanghai": shanghai_actions, "gin": gin_actions}[name]()
    raise KeyError(f"no generated table {kind} {name}")


def render(text: str) -> str:
    """``text`` with every generated table written afresh."""
    return BLOCK.sub(lambda m: f"{m[1]}{generated(m[2], m[3])}\n{m[5]}", text)


def blocks(text: str) -> list[tuple[str, str]]:
    """(kind, name) of each generated table in ``text``."""
    return [(m[2], m[3]) for m in BLOCK.finditer(text)]


def main(argv: list[str]) -> int:
    stale = []
    for page in PAGES:
        path = ROOT / page
        text = path.read_text(encoding="utf-8")
        new = render(text)
        if new != text:
            stale.append(page)
            if "--check" not in argv:
                path.write_text(new, encoding="utf-8")
    if "--check" in argv and stale:
        print("not current (run python tools/gen_docs.py): " + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
