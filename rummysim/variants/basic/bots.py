"""Basic Rummy's rule-based bots as policies: ``choose_in(state arrays, params, seat, scratch) -> move``.

Every seat has a float64 parameter vector (``P_*`` indices, built from a
strategy file by ``rummysim.strategy``) and its own random stream keyed by
(deal, seat). ``choose_in`` returns an action of ``moves`` (its encoding table)
for the decision the state is at, one helper per decision point (the seat's policy, search or
these, is ``policy.choose``):

* ``choose_draw``: stock or discard pile (rules 1.3.1);
* ``next_action``: repeatedly, a meld, a lay-off or stop (1.3.2-3);
* ``choose_discard``: the card to throw (1.3.4).

A policy reads only what its seat may see: its own hand, the table, the
discard pile, the other seats' card counts and the cards they took from the
pile, the counters; never another hand's cards nor the stock order. It
writes one thing, its own ``I_ABANDONED_SEAT`` slot (it gave up holding for
rummy). Legality is the rules layer's (``moves``): the driver checks every
move with ``moves.is_legal`` before applying it.

``P_BOT`` picks the bot: ``BOT_FAMILY`` (the parametrised family below),
``BOT_RANDOM`` (uniform over the legal choices at every decision point, a
yardstick) or ``BOT_SEARCH`` (``search``: it searches the decisions its
search keys (from ``P_SEARCH``) name and plays the rest with its vector's family or random
keys, those of its rollout strategy; ``policy.choose`` dispatches). The family:

Drawing (``P_DRAW``): 0 never takes the discard; 1 takes it when it goes into a
meld with the hand; 2 takes it when it lowers the deadwood (after the best
discard) by at least ``P_DRAW_GAIN`` points.

Melding (``P_MELD``): 0 lays down the least-deadwood melds at once; 1 holds
everything to go rummy (rules 1.6) and melds only in a turn in which it can
empty its hand, until a trigger makes it give up for the hand: an opponent
with at most ``P_ABANDON_OPP_CARDS`` cards (-1 off), its own turn number
reaching ``P_ABANDON_TURN`` (0 off), or deadwood above ``P_ABANDON_DEADWOOD``
(0 off).

Laying off (``P_LAYOFF``): 0 at once; 1 only in a turn in which it goes out.
A bot still holding for rummy never lays off before that turn.

Discarding (``P_DISCARD``): 0 the highest-value card in no meld and no partial
meld (a pair, or two cards of a suit at most two ranks apart); 1 the least
useful card: the fewest live cards (not in its hand, on the table, in the
discard pile or known to be held by an opponent) that would connect it.
``P_AVOID_FEED`` (points) is taken off a card's discard score when an
opponent could use it: it extends a table meld, or it connects with a card an
opponent took from the discard pile. Ties go to the highest card id, or with
``P_TIEBREAK_RANDOM`` = 1 to a uniform draw from the seat's stream.

*greedy* (the default strategy) is draw 1, meld 0, layoff 0, discard 0.
"""

from numba import njit

from ...engine.codes import BOT_FAMILY, BOT_RANDOM, BOT_SEARCH  # noqa: F401  (bots.BOT_*: policy, spec and tests)
from ...engine.bits import U64
from ...engine import melds as M
from ...engine.rng import below
from ...engine.search import SEARCH_SLOTS
from .moves import (
    DRAW_STOCK, STOP, TAKE_DISCARD, discard_move, drawn_bit, layoff_move, legal_after,
    legal_moves_in, meld_move,
)
from .state import (
    I_ABANDONED_SEAT, I_HAS_PLAYED_SEAT, I_MELDS_THIS_TURN, I_N_TABLE, I_OWN_TURNS_SEAT, I_PHASE,
    I_PILE_N, I_PLAYED_THIS_TURN, I_PLAYERS, M_HAND, M_LAYABLE, M_PICKED, M_PILE, M_TABLE, PH_DRAW, PH_PLAY,
    R_ACE_HIGH, R_MAX_MELDS, R_MUST_DISCARD,
)


P_BOT = 0
P_DRAW = 1
P_DRAW_GAIN = 2
P_MELD = 3
P_ABANDON_OPP_CARDS = 4
P_ABANDON_TURN = 5
P_ABANDON_DEADWOOD = 6
P_LAYOFF = 7
P_DISCARD = 8
P_AVOID_FEED = 9
P_TIEBREAK_RANDOM = 10
P_SEARCH = 11             # a search bot's keys, slots P_SEARCH + engine.search.ROLLOUT_BOT ... CONFIDENCE
N_PARAMS = P_SEARCH + SEARCH_SLOTS


@njit(cache=True, inline="always")
def choose_in(masks, ints, pile, t_lay, rules, card_value, buf, params, p, melds, sr, sd, sm, legal, rngs):
    """Seat p's move (an action of ``moves``) at the state's decision, by its rule-based or random bot
    (``policy.choose`` is the seat's policy: it sends a search bot's searched decisions to ``search``).

    ``params`` float64[players, N_PARAMS]; the state's arrays (``state.State``) and the policy
    scratch's (``policy.new_scratch``: melds uint64[64], stack_r uint64[1024], stack_d int64[1024],
    stack_m uint64[1024], legal int64[MAX_LEGAL], rngs uint64[players, 1]). ``BOT_RANDOM``: uniform
    over ``moves.legal_moves`` with one draw ``below(n)`` from the seat's stream; a search seat's
    vector plays as the family."""
    if params[p, P_BOT] == BOT_RANDOM:
        return legal[below(rngs[p], legal_moves_in(masks, ints, t_lay, rules, buf, legal))]
    phase = ints[I_PHASE]
    if phase == PH_DRAW:
        if choose_draw(p, params, masks, rules, card_value, (melds, sr, sd, sm), pile[ints[I_PILE_N] - 1]):
            return TAKE_DISCARD
        return DRAW_STOCK
    if phase == PH_PLAY:
        return next_action(p, params, masks, ints, rules, ints[I_PLAYERS], card_value, t_lay, (melds, sr, sd, sm))
    return discard_move(choose_discard(p, params, masks, ints, rules, ints[I_PLAYERS], card_value, rngs))


@njit(cache=True)
def meld_of_table(t_lay, n_table, card):
    """Index of the first table meld ``card`` extends, or -1."""
    b = M.bit(card)
    for k in range(n_table):
        if t_lay[k] & b:
            return k
    return -1


@njit(cache=True)
def _connectors(card, ace_high):
    """Cards that would make a meld or partial meld with ``card``: its rank in other
    suits and its suit within two ranks (card space)."""
    rank = card & 15
    same_rank = (M.ACES << U64(rank)) & ~M.bit(card)
    e = M.extend(M.bit(card), ace_high)
    near = (e << U64(1)) | (e << U64(2)) | (e >> U64(1)) | (e >> U64(2))
    lane = M.LANE << U64(card - rank)
    near &= lane & (M.EXT_HIGH if ace_high else M.EXT_LOW)
    return same_rank | (M.to_cards(near) & ~M.bit(card))


@njit(cache=True)
def partial_cards(hand, ace_high):
    """Cards of ``hand`` in a partial meld: a pair, or two of a suit at most two ranks apart."""
    r2 = M.rank_counts_at_least(hand, 2)
    out = hand & (r2 | (r2 << U64(16)) | (r2 << U64(32)) | (r2 << U64(48)))
    e = M.extend(hand, ace_high)
    near = e & ((e >> U64(1)) | (e << U64(1)) | (e >> U64(2)) | (e << U64(2)))
    return out | M.to_cards(near)


# --------------------------------------------------------------------- draw
@njit(cache=True, inline="always")
def _deadwood_after_discard(hand, ace_high, card_value, keep, scratch):
    """Least deadwood of ``hand`` after throwing its highest deadwood card other than ``keep``."""
    melds, sr, sd, sm = scratch
    dw, chosen = M.best_partition(hand, ace_high, card_value, melds, sr, sd, sm)
    rest = hand & ~M.chosen_cards(melds, chosen) & ~keep
    top = 0
    while rest:
        c = M.lowest_card(rest)
        rest &= rest - U64(1)
        if card_value[c] > top:
            top = card_value[c]
    return dw - top


@njit(cache=True, inline="always")
def choose_draw(p, params, masks, rules, card_value, scratch, upcard):
    """True to take ``upcard`` from the discard pile, False to draw from the stock (not the random bot)."""
    mode = params[p, P_DRAW]
    if mode == 0:
        return False
    hand = masks[M_HAND + p]
    ace_high = rules[R_ACE_HIGH] != 0
    with_up = hand | M.bit(upcard)
    if mode == 1:
        return (M.melded_cards(with_up, ace_high) >> U64(upcard)) & U64(1) != 0
    gain = (_deadwood_after_discard(hand, ace_high, card_value, U64(0), scratch)
            - _deadwood_after_discard(with_up, ace_high, card_value, M.bit(upcard), scratch))
    return gain >= params[p, P_DRAW_GAIN]


# --------------------------------------------------------------- meld/lay-off
@njit(cache=True, inline="always")
def _holding(p, params, masks, ints, players, card_value, dw, hand):
    """Rummy-holding state of seat p this turn; gives up for the hand when a trigger fires.
    ``dw`` is the hand's least deadwood, or -1 when the hand holds no meld."""
    if params[p, P_MELD] != 1 or ints[I_ABANDONED_SEAT + p] or ints[I_HAS_PLAYED_SEAT + p]:
        return False
    if dw < 0:
        dw = M.mask_value(hand, card_value)
    fewest = 99
    for q in range(players):
        if q != p:
            fewest = min(fewest, M.popcount(masks[M_HAND + q]))
    if ((params[p, P_ABANDON_OPP_CARDS] >= 0 and fewest <= params[p, P_ABANDON_OPP_CARDS])
            or (params[p, P_ABANDON_TURN] > 0 and ints[I_OWN_TURNS_SEAT + p] + 1 >= params[p, P_ABANDON_TURN])
            or (params[p, P_ABANDON_DEADWOOD] > 0 and dw > params[p, P_ABANDON_DEADWOOD])):
        ints[I_ABANDONED_SEAT + p] = 1
        return False
    return True


@njit(cache=True, inline="always")
def next_action(p, params, masks, ints, rules, players, card_value, t_lay, scratch):
    """The seat's next meld or lay-off this turn, or ``STOP`` (not the random bot): a move of ``moves``.

    ``scratch`` = (melds uint64[64], stack_r uint64[1024], stack_d int64[1024], stack_m uint64[1024]).
    """
    melds, sr, sd, sm = scratch
    hand = masks[M_HAND + p]
    ace_high = rules[R_ACE_HIGH] != 0
    must = rules[R_MUST_DISCARD] != 0
    drawn = drawn_bit(ints)
    may_meld = rules[R_MAX_MELDS] == 0 or ints[I_MELDS_THIS_TURN] < rules[R_MAX_MELDS]
    chosen = U64(0)
    melded = U64(0)
    if M.has_meld(hand, ace_high):
        dw, chosen = M.best_partition(hand, ace_high, card_value, melds, sr, sd, sm)
        melded = M.chosen_cards(melds, chosen)
    else:
        dw = -1  # not needed unless a rummy-holding bot asks (then computed there)
    holding = _holding(p, params, masks, ints, players, card_value, dw, hand)
    # a holding bot plays only in the turn it goes out, so a play this turn means it is going
    # out; a bot that melds at once but lays off only when going out must check every time
    going_out = ints[I_PLAYED_THIS_TURN] > 0 and holding
    if (holding or params[p, P_LAYOFF] == 1) and not going_out:
        # can the whole hand go this turn? melds, then lay-offs on the table or on those melds
        layable = masks[M_LAYABLE]
        c = chosen
        while c:
            kind, tm = M.table_meld_of(melds[M.lowest_card(c)], ace_high)
            layable |= M.layoff_cards(tm, kind, ace_high)
            c &= c - U64(1)
        rest = hand & ~melded & ~layable
        n_rest = M.popcount(rest)
        going_out = ((n_rest == 1 and rest != drawn)
                     or (n_rest == 0 and (not must or (hand & ~melded & ~drawn) != 0)))
        if rules[R_MAX_MELDS] > 0 and M.popcount(chosen) > rules[R_MAX_MELDS] - ints[I_MELDS_THIS_TURN]:
            going_out = False  # the split needs more melds than max_melds_per_turn still allows
        if holding and not going_out:
            return STOP
    if may_meld and melded:
        c = chosen
        while c:
            i = M.lowest_card(c)
            c &= c - U64(1)
            if legal_after(hand & ~melds[i], drawn, must):
                return meld_move(melds[i])
        # no meld of the best split may be laid (it would empty the hand under
        # must_discard_to_go_out, or strand the discard-pile card): the most valuable legal meld
        best_meld = U64(0)
        best_value = 0
        for i in range(M.list_melds(hand, ace_high, melds)):
            v = M.mask_value(melds[i], card_value)
            if v > best_value and legal_after(hand & ~melds[i], drawn, must):
                best_meld = melds[i]
                best_value = v
        if best_meld:
            return meld_move(best_meld)
    if params[p, P_LAYOFF] == 0 or going_out:
        lay = hand & masks[M_LAYABLE] & ~melded
        while lay:
            c = M.lowest_card(lay)
            lay &= lay - U64(1)
            if legal_after(hand & ~M.bit(c), drawn, must):
                return layoff_move(c, meld_of_table(t_lay, ints[I_N_TABLE], c))
    return STOP


# ------------------------------------------------------------------ discard
@njit(cache=True, inline="always")
def discard_context(p, params, masks, ints, rules, players):
    """What seat p's discard scores need, computed once per decision: ``(candidates, ace_high,
    in_meld, partial, least_useful, feed_weight, unseen, interest)`` (masks, flags and a weight)."""
    hand = masks[M_HAND + p]
    ace_high = rules[R_ACE_HIGH] != 0
    least_useful = params[p, P_DISCARD] == 1
    feed_weight = params[p, P_AVOID_FEED]
    unseen = U64(0)
    interest = U64(0)
    if least_useful or feed_weight > 0:
        known = hand | masks[M_TABLE] | masks[M_PILE]
        for q in range(players):
            if q != p:
                known |= masks[M_PICKED + q]
                interest |= masks[M_PICKED + q] & ~masks[M_TABLE]
        unseen = M.FULL_DECK & ~known
    return (hand & ~drawn_bit(ints), ace_high, M.melded_cards(hand, ace_high), partial_cards(hand, ace_high),
            least_useful, feed_weight, unseen, interest)


@njit(cache=True, inline="always")
def discard_score(c, ctx, masks, card_value):
    """How much the family would like to throw card ``c`` (higher first); ``ctx`` from ``discard_context``."""
    _, ace_high, in_meld, partial, least_useful, feed_weight, unseen, interest = ctx
    b = M.bit(c)
    if in_meld & b:
        score = 0.0
    elif least_useful:
        score = 1000.0 - 20.0 * min(M.popcount(_connectors(c, ace_high) & unseen), 10)
    elif partial & b:
        score = 1000.0
    else:
        score = 2000.0
    score += card_value[c]
    if feed_weight > 0 and ((masks[M_LAYABLE] & b) or (_connectors(c, ace_high) & interest)):
        score -= feed_weight
    return score


@njit(cache=True, inline="always")
def choose_discard(p, params, masks, ints, rules, players, card_value, rngs):
    """The card id seat p discards: never the card taken from the discard pile this turn
    (not the random bot; ``rngs`` for ``P_TIEBREAK_RANDOM``)."""
    ctx = discard_context(p, params, masks, ints, rules, players)
    best = -1e18
    n_best = 0
    best_card = -1
    m = ctx[0]
    while m:
        c = M.lowest_card(m)
        m &= m - U64(1)
        score = discard_score(c, ctx, masks, card_value)
        if score > best:
            best = score
            best_card = c
            n_best = 1
        elif score == best:
            n_best += 1
            if params[p, P_TIEBREAK_RANDOM] > 0:
                if below(rngs[p], n_best) == 0:  # reservoir draw: uniform over the ties
                    best_card = c
            else:
                best_card = c  # the highest card id among the ties
    return best_card
