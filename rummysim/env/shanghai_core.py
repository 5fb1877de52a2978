"""Shanghai Rummy for the environments (compiled): one seat's observation and a move with what the
seats learn from it. Built on the rules layer (``variants.shanghai.moves``: ``legal_moves``,
``is_legal``, ``apply``); nothing here decides legality or plays a rule.

Observation of seat ``p`` (float32[obs_size(players)]), seats counted from ``p`` (relative seat r is
``(p + r) % players``), cards in 53 slots (``13 * suit + rank``, 52 the joker), counts of copies:

=============  ==================  =========================================================
block          size                contents
=============  ==================  =========================================================
hand           53                  copies of each card in the observer's hand
table          24 x 14             table meld k (the k of lay-off and swap actions): present,
                                   kind (0 set, 1 run), owner (relative seat), set rank, run
                                   suit, run low and high positions (0 ace low .. 13 ace
                                   high), joker positions (bit mask), jokers, naturals,
                                   a set's naturals of each suit (4)
pile           53                  copies of each card in the discard pile
upcard         53                  1 for the top card of the discard pile
known          (players - 1) x 53  copies each opponent (relative seat 1, 2, ...) took as the
                                   upcard or bought and still holds (a lower bound)
counts         players             cards in each relative seat's hand
stock          1                   cards in the stock
phase          5                   one-hot: upcard, buy, play, discard, over
round          1                   the round, 1..10
down           players             1 for each relative seat that has laid its contract
buys           players + 1         buys of each relative seat this round, then of all seats
scores         players             each relative seat's game total so far (penalty points)
=============  ==================  =========================================================
"""

from numba import njit

from ..variants.shanghai.state import (
    I_PHASE,
    JOKER,
    MAX_TABLE,
    SI_BUYS,
    SI_BUYS_SEAT,
    SI_DOWN_TURN_SEAT,
    SI_N_TABLE,
    SI_PILE_N,
    SI_ROUND,
    SI_STOCK_N,
    T_COLS,
    T_OWNER,
)
from ..variants.shanghai.table import hand_size

SLOTS = 53


def layout(players):
    """The observation's blocks ``(name, rows, columns)`` for ``players`` seats, in order."""
    return (("hand", 1, SLOTS), ("table", MAX_TABLE, 1 + T_COLS), ("pile", 1, SLOTS), ("upcard", 1, SLOTS),
            ("known", players - 1, SLOTS), ("counts", 1, players), ("stock", 1, 1), ("phase", 1, 5),
            ("round", 1, 1), ("down", 1, players), ("buys", 1, players + 1), ("scores", 1, players))


def obs_size(players):
    return sum(r * c for _, r, c in layout(players))


@njit(cache=True, inline="always")
def slot(c):
    """Card id (16 * suit + rank, 63 the joker) -> observation slot (13 * suit + rank, 52 the joker)."""
    return SLOTS - 1 if c == JOKER else 13 * (c >> 4) + (c & 15)


@njit(cache=True, inline="always")
def _counts(counts, out, base):
    for c in range(64):
        if counts[c] > 0:
            out[base + slot(c)] += counts[c]


@njit(cache=True)
def observe(state, known, totals, p, out):
    """Seat ``p``'s observation into ``out`` float32[obs_size] (layout: module docstring). Reads only
    what seat p may see: its hand, the table, the pile, counts, ``known`` int64[players, 64] (kept by
    ``step``) and ``totals`` int64[players] (game totals)."""
    hands, ints, pile, table = state.hands, state.ints, state.pile, state.table
    players = hands.shape[0]
    out[:] = 0.0
    _counts(hands[p], out, 0)
    o = SLOTS
    for k in range(ints[SI_N_TABLE]):
        out[o] = 1.0
        for j in range(T_COLS):
            out[o + 1 + j] = table[k, j]
        out[o + 1 + T_OWNER] = (table[k, T_OWNER] - p + players) % players
        o += 1 + T_COLS
    o = SLOTS + MAX_TABLE * (1 + T_COLS)
    for k in range(ints[SI_PILE_N]):
        out[o + slot(pile[k])] += 1.0
    o += SLOTS
    if ints[SI_PILE_N] > 0:
        out[o + slot(pile[ints[SI_PILE_N] - 1])] = 1.0
    o += SLOTS
    for r in range(1, players):
        _counts(known[(p + r) % players], out, o)
        o += SLOTS
    for r in range(players):
        out[o + r] = hand_size(hands[(p + r) % players])
    o += players
    out[o] = ints[SI_STOCK_N]
    o += 1
    out[o + ints[I_PHASE]] = 1.0
    o += 5
    out[o] = ints[SI_ROUND]
    o += 1
    for r in range(players):
        out[o + r] = ints[SI_DOWN_TURN_SEAT + (p + r) % players] > 0
    o += players
    for r in range(players):
        out[o + r] = ints[SI_BUYS_SEAT + (p + r) % players]
    out[o + players] = ints[SI_BUYS]
    o += players + 1
    for r in range(players):
        out[o + r] = totals[(p + r) % players]


def observe_game(game, seat, out):
    """Seat ``seat``'s observation of ``game`` (a ``variants.shanghai.game.Game``) into ``out``."""
    observe(game.state, game.known, game.scores, seat, out)
