"""What the person's seat may see, as JSON for the page: what ``play.render.View.table`` shows (own hand
sorted and marked, the table melds numbered, the upcard, the stock's and pile's sizes, the others'
counts and the cards they are known to hold, the scores, Shanghai's contract, buys and who is down), the
legal moves with their words, and for each move the cards of the hand it uses (the page offers the
moves that use exactly the selected cards, and with none selected the ``suggested`` ones too: Gin's
best melds). Built only from the seat's side of the game driver
(``GameInPlay``'s calls for a seat's view): another hand or the stock is never read here.
"""

from __future__ import annotations

from ..cards import card_id, card_name

#: verbs whose card names the upcard, not a card of the hand
UPCARD_VERBS = ("take", "buy")


def _card(word: str) -> str | None:
    """The card a word of a move or a table line names (``JK=H4``: the joker), else None."""
    word = word.split("=")[0].strip(",;()[]")
    try:
        return card_name(card_id(word, allow_joker=True))
    except ValueError:
        return None


def move_parts(words: str) -> dict:
    """A move's words split for the page: its verb, the cards of the hand it uses (``cards``, copies
    repeated) and the table melds it names (``melds``, from 0)."""
    tokens = words.replace("/", " / ").split()
    verb, cards, melds = tokens[0], [], []
    for t in tokens[1:]:
        if t.isdigit():
            melds.append(int(t) - 1)
        elif (c := _card(t)) is not None:
            cards.append(c)
    if verb in UPCARD_VERBS:
        cards = []
    elif verb == "swap":
        cards = cards[:1]          # the natural put in the joker's place; the joker comes from the table
    return {"verb": verb, "cards": cards, "melds": melds}


def meld_of(line: str) -> dict:
    """A table line (``2: H3 H4 H5 (takes H2 H6)``, ``1: H5 JK H7 [seat 0] takes H4``) as its number,
    cards, what fits it and the words after the cards."""
    number, _, rest = line.partition(":")
    tokens = rest.split()
    cards = []
    while tokens and (c := _card(tokens[0])) is not None:
        cards.append(c)
        tokens.pop(0)
    note = " ".join(tokens)
    fits = []
    words = [t.strip("()") for t in tokens]
    if "takes" in words:
        fits = [c for t in words[words.index("takes") + 1:] if (c := _card(t)) is not None]
    return {"n": int(number), "cards": cards, "fits": fits, "text": line, "note": note}


def hand_cards(counts: dict[int, int]) -> list[str]:
    """A hand (copies per card id) sorted by suit and rank, jokers last, each copy once."""
    return [card_name(c) for c in sorted(counts) for _ in range(counts[c])]


def view_of(session, hint: bool = False, table_only: bool = False) -> dict:
    """The seat's view of ``session``'s game now (``table_only``: without the legal moves, for a step
    of the bots' moves); ``hint``: with the hint strategy's move and why."""
    game, you, who = session.game, 0, session.who
    # the hand (round) over: its table as it ended, under its own heading (``finish`` counted the next)
    full, part, legend = (set(), set(), "") if session.waiting else game.marks(you)
    taken = game.taken()
    over, waiting = bool(game.over and session.waiting), session.waiting
    out = {
        "id": session.id, "variant": session.setup["variant"], "title": session.heading, "unit": game.unit,
        "players": game.players, "names": [who(q) for q in range(game.players)],
        "scores": [int(t) for t in game.scores], "goal": game.goal(),
        "melds": [meld_of(line) for line in game.table_lines(who)],
        "upcard": (card_name(up) if (up := game.upcard()) >= 0 else None),
        "counters": game.counters(you),
        "seats": [{"seat": q, "name": who(q), "count": game.count(q), "note": game.seat_note(q).lstrip(", "),
                   "took": [card_name(c) for c in taken.get(q, [])]} for q in range(game.players) if q != you],
        "hand": hand_cards(game.hand(you)),
        "marks": {"melded": [card_name(c) for c in sorted(full)], "partial": [card_name(c) for c in sorted(part)],
                  "legend": legend},
        "state": "over" if over else "ended" if waiting else "decide" if session.decision else "play",
        "to_act": None if waiting or game.unit_over else game.seat,
        "ended": session.ended if waiting else [],
        "seq": session.moves,          # the decision now: what a decision request names (``Session.answer_request``)
        "auto": session.person.auto,   # "game": an auto to the end of the game goes on with the next request
    }
    if table_only:
        return out
    d = session.decision
    out["step"] = game.step(who) if d is not None else ""
    offered = set(game.suggested(you)) if d is not None else set()
    out["moves"] = [{"n": i, "words": words, "suggested": a in offered, **move_parts(words)}
                    for i, (a, words) in enumerate(d.moves, 1)] if d is not None else []
    if hint and d is not None:
        out["hint"] = {"words": d.hint_name, "reason": d.reason, "strategy": session.hint.name,
                       "n": next(i for i, (a, _) in enumerate(d.moves, 1) if a == d.hint)}
    if over:
        out["final"] = {"winners": [int(w) for w in game.winners()], "scores": out["scores"]}
    return out
