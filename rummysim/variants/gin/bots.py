"""Gin Rummy's rule-based bots as policies: ``choose(state, params, seat, legal, rngs) -> move``.

Every seat has a float64 parameter vector (``P_*``, built from a strategy file by ``rummysim.strategy``)
and its own random stream keyed by (deal, seat). A policy reads only what its seat may see: its own
hand, the discard pile, the cards the opponent took from the pile and still holds (``M_HELD``), the
melds on the table after a knock, the counters; never the other hand nor the stock. Legality is the
rules layer's (``moves``): the driver checks every move with ``moves.is_legal``.

``P_BOT``: ``BOT_FAMILY`` (below), ``BOT_RANDOM`` (uniform over the legal moves, a yardstick) or
``BOT_SEARCH`` (``search``: ``policy.choose`` sends the decisions its keys name to ``search``, the
rest to its rollout strategy's vector) or ``BOT_SIMPLE`` (``simple``: the EAAI simple player as
OpenSpiel's ``simple_gin_rummy_bot`` plays it; every other key is then ignored).
The family, one helper per decision:

* the upcard (``take_upcard``; rules 4.3, 4.4): ``P_TAKE`` 0 never, 1 when it goes into a meld with
  the hand, 2 when the least deadwood after a discard falls by at least ``P_TAKE_GAIN``;
* knocking (``knocks``; 4.5): with deadwood at most ``P_KNOCK_DEADWOOD`` (``P_KNOCK_LATE_DEADWOOD``
  from its own turn ``P_KNOCK_LATE_TURN`` on, 0: never), less ``P_KNOCK_PER_KNOWN`` points for each card
  the opponent took from the pile and still holds (an undercut risk); gin and big gin always; at
  the wall whenever allowed;
* discarding (``discard``): the card leaving the least deadwood; ``P_AVOID_FEED`` points are added to
  a card that connects with a card the opponent took from the pile (its rank, or its suit within two
  ranks); ties go to the card in no partial meld, then the highest value, then the highest index;
* after a knock (``lay_meld``, ``lay_off``): the knocker's discard leaves the least deadwood; both
  seats lay the melds of their best arrangement, longest first; the defender lays off every card
  whose going lowers its deadwood, the largest saving first.

*greedy* is take 1, knock 10 (as soon as allowed), avoid_feeding 0.
"""

from numba import njit

from ...engine import melds as M
from ...engine.bits import U64, card_index
from ...engine.codes import BOT_FAMILY, BOT_RANDOM, BOT_SEARCH, BOT_SIMPLE  # noqa: F401  (bots.BOT_*: policy, spec, tests)
from ...engine.search import SEARCH_SLOTS
from ...engine.rng import below
from . import simple as SIMPLE
from .deadwood import deadwood, discard_deadwood
from .moves import (
    BIG_GIN, DRAW_STOCK, DRAW_UPCARD, KNOCK, MELD_BASE, PASS, card_of_index, legal_moves, meld_index,
)
from .state import (
    I_BEST_DEADWOOD, I_KNOCK_CARD, I_LEFT_AFTER, I_PHASE, I_PILE, I_PILE_N, M_HAND, M_HELD, M_LAYABLE, PH_DISCARD,
    PH_DRAW, PH_FIRST_UPCARD, PH_KNOCK_DISCARD, PH_LAYOFF, PH_WALL, I_DISCARDS_SEAT, MELD_SLOTS, W_BUF,
)

P_BOT = 0
P_TAKE = 1
P_TAKE_GAIN = 2
P_KNOCK_DEADWOOD = 3
P_KNOCK_LATE_TURN = 4
P_KNOCK_LATE_DEADWOOD = 5
P_KNOCK_PER_KNOWN = 6
P_AVOID_FEED = 7
P_SEARCH = 8              # a search bot's keys, slots P_SEARCH + engine.search.ROLLOUT_BOT ... CONFIDENCE
P_SEARCH_INFER = P_SEARCH + SEARCH_SLOTS   # INFER_*: how a search deals the opponent's hidden cards
P_SEARCH_BUILD = P_SEARCH_INFER + 1        # build steps per turn the opponent played (``search.determinize``)
N_PARAMS = P_SEARCH_BUILD + 1

INFER_UNIFORM = 0         # every unseen card alike
INFER_TABLE = 1           # weighted by what the opponent threw, passed on and took (``search.INFER_WEIGHT``)

TAKE_NEVER = 0
TAKE_MELD = 1
TAKE_GAIN = 2

@njit(cache=True, _nrt=False)
def choose(state, params, p, legal, rngs):
    """Seat p's move at the state's decision (the seat to act). ``params`` float64[2, N_PARAMS];
    ``legal`` int64[MAX_LEGAL] scratch; ``rngs`` uint64[2, 1], seat p's stream at ``rngs[p]``."""
    if params[p, P_BOT] == BOT_RANDOM:
        n = legal_moves(state, legal)
        return legal[below(rngs[p], n)]
    if params[p, P_BOT] == BOT_SIMPLE:
        return SIMPLE.choose(state, p, legal)
    phase = state.ints[I_PHASE]
    hand = state.masks[M_HAND + p]
    if phase == PH_FIRST_UPCARD:
        if legal_moves(state, legal) == 1:
            return legal[0]
        return DRAW_UPCARD if take_upcard(state, params, p, hand) else PASS
    if phase == PH_DRAW:
        return DRAW_UPCARD if take_upcard(state, params, p, hand) else DRAW_STOCK
    if phase == PH_DISCARD:
        n = legal_moves(state, legal)
        if legal[n - 1] == BIG_GIN:
            return BIG_GIN
        if state.ints[I_BEST_DEADWOOD] <= state.ints[I_KNOCK_CARD] and knocks(state, params, p):
            return KNOCK
        return discard(state, params, p, hand, legal, n, False)
    if phase == PH_WALL:
        n = legal_moves(state, legal)
        return legal[n - 1]   # knock when allowed, else pass
    if phase == PH_KNOCK_DISCARD:
        n = legal_moves(state, legal)
        return discard(state, params, p, hand, legal, n, True)
    if phase == PH_LAYOFF:
        return lay_off(state, hand)
    return lay_meld(state, hand)


@njit(cache=True, _nrt=False)
def take_upcard(state, params, p, hand):
    """True to take the upcard (rules 4.3, 4.4)."""
    mode = params[p, P_TAKE]
    if mode == TAKE_NEVER:
        return False
    up = M.bit(state.ints[I_PILE + state.ints[I_PILE_N] - 1])
    if mode == TAKE_MELD:
        return (M.melded_cards(hand | up, False) & up) != 0
    gain = deadwood(state, hand) - discard_deadwood(state, hand | up, up, False)
    return gain >= params[p, P_TAKE_GAIN]


@njit(cache=True, _nrt=False)
def knocks(state, params, p):
    """True to knock now (the knock is allowed): gin always, else within the seat's threshold."""
    best = state.ints[I_BEST_DEADWOOD]
    if best == 0:
        return True
    limit = params[p, P_KNOCK_DEADWOOD]
    late = params[p, P_KNOCK_LATE_TURN]
    if late > 0 and state.ints[I_DISCARDS_SEAT + p] + 1 >= late:
        limit = params[p, P_KNOCK_LATE_DEADWOOD]
    known = M.popcount(state.masks[M_HELD + 1 - p])
    return best <= limit - params[p, P_KNOCK_PER_KNOWN] * known and best <= state.ints[I_KNOCK_CARD]


@njit(cache=True, _nrt=False)
def near_cards(cards):
    """The cards that make a pair or a near run (same suit, within two ranks) with one of ``cards``
    (card masks): the other suits' cards of their ranks, and the cards one or two ranks away in their
    suit. Ranks 13-15 of each suit's 16 bits hold no card, so a shift past an ace or a king lands on
    no card."""
    same_rank = cards << U64(16) | cards >> U64(16) | cards << U64(32) | cards >> U64(32) | cards << U64(48) \
        | cards >> U64(48)
    near = cards << U64(1) | cards >> U64(1) | cards << U64(2) | cards >> U64(2)
    return (same_rank | near) & M.FULL_DECK


@njit(cache=True, inline="always", _nrt=False)
def discard_score(ints, card_value, params, p, move, knocking, near_own, near_held):
    """What discarding card action ``move`` costs seat p (lower is better; see the module docstring):
    the deadwood it leaves (the rules layer's ``I_LEFT_AFTER``, set on the draw), the feeding charge
    when the card is among ``near_held`` (``near_cards`` of the cards the opponent took from the pile
    and holds), a penalty for breaking a partial meld (the card among ``near_own``, ``near_cards`` of
    the hand), less the card's value and index (the tie-breaks)."""
    feed = params[p, P_AVOID_FEED]
    c = card_of_index(move)
    b = M.bit(c)
    score = ints[I_LEFT_AFTER + move] * 1000.0
    if feed > 0 and not knocking and near_held & b:
        score += feed * 1000.0
    if near_own & b:
        score += 500.0
    return score - (card_value[c] * 10.0 + move / 100.0)


@njit(cache=True, _nrt=False)
def discard(state, params, p, hand, legal, n, knocking):
    """The card action among ``legal[:n]`` with the lowest ``discard_score``."""
    ints, card_value = state.ints, state.card_value
    near_own, near_held = near_cards(hand), near_cards(state.masks[M_HELD + 1 - p])
    best = -1
    best_score = 1e18
    for k in range(n):
        move = legal[k]
        if move >= 52:
            continue
        score = discard_score(ints, card_value, params, p, move, knocking, near_own, near_held)
        if score < best_score:
            best_score = score
            best = move
    return best


@njit(cache=True, _nrt=False)
def lay_off(state, hand):
    """The defender's next lay-off: the card whose going lowers its deadwood most, the lowest card
    index among equals, else ``PASS``."""
    now = deadwood(state, hand)
    best = PASS
    best_gain = 0
    m = hand & state.masks[M_LAYABLE]
    while m:   # ascending card index
        c = M.lowest_card(m)
        m &= m - U64(1)
        gain = now - deadwood(state, hand & ~M.bit(c))
        if gain > best_gain:
            best_gain = gain
            best = card_index(c)
    return best


@njit(cache=True, _nrt=False)
def lay_meld(state, hand):
    """The next meld of the seat's best arrangement: the longest meld of 3-5 cards that keeps its least
    deadwood, the lowest action among equals, else ``PASS``. (Every meld it may choose is legal: for
    the knocker, keeping its least deadwood keeps it within the knock card.)"""
    melds = state.work[W_BUF:W_BUF + MELD_SLOTS]
    n = M.list_melds(hand, False, melds)
    now = deadwood(state, hand)
    best = PASS
    best_len = 0
    for k in range(n):
        meld = melds[k]
        length = M.popcount(meld)
        if length > 5 or length < best_len:
            continue
        move = MELD_BASE + meld_index(meld)
        if (length > best_len or move < best) and deadwood(state, hand & ~meld) == now:
            best_len = length
            best = move
    return best
