"""The state of a Gin Rummy hand: a named tuple of flat arrays (``State``).

A hand in play is one ``State`` (``collections.namedtuple``, built and read inside njit code),
self-contained: ``moves.apply`` needs nothing else to play a move and everything automatic after it
(the knock's scoring, the wall, the event log). Fields:

``masks``  uint64[MASKS_SIZE]
    ``M_HAND + p``: seat p's hand; ``M_TABLE``: every card laid on the table after a knock;
    ``M_PILE``: the cards of the discard pile; ``M_LAYABLE``: the cards that would extend one of the
    knocker's melds; ``M_PICKED + p``: the cards seat p took from the discard pile this hand;
    ``M_HELD + p``: those it still holds (both public knowledge); ``M_T_MASK + k`` and ``M_T_LAY + k``
    (k < 32): the melds laid after a knock, in the order laid (the knocker's first,
    ``I_N_KNOCKER_MELDS`` of them), as ``rummysim.engine.melds`` keeps table melds, and the cards that
    would extend each; ``M_THREW + p``: the cards seat p discarded face up this hand (not the knock's
    face-down discard), ``M_PASSED + p``: the upcards it passed on or drew the stock over (all public:
    what a search infers the opponent's hand from, ``search.determinize``).
``ints``   int64[INTS_SIZE]: the counters of the hand (``I_*``) and per seat (``I_*_SEAT + p``); the
    stock at ``I_STOCK`` (64 slots, the top at ``I_STOCK + ints[I_STOCK_N] - 1``), the discard pile at
    ``I_PILE`` (64 slots, the top, the upcard, at ``I_PILE + ints[I_PILE_N] - 1``; only the top may be
    taken), each table meld's kind at ``I_T_KIND + k``, the events logged at ``I_N_EV``.
``rules``  int64[RULES_SIZE], indexed by ``R_*`` (built by ``rules.py``).
``card_value`` int64[64]: the points of each card id (rules 4.1).
``ev``     int16[n, EV_WIDTH] event log, n = 0 when not logging.
``work``   uint64[WORK_SIZE], the rules layer's scratch: at ``W_BUF`` (64) the melds of a hand
           (``melds.list_melds``), at ``W_BUF2`` (64) the melds of the arrangement searched inside a
           loop over those, at ``W_STACK_R``/``W_STACK_M`` (1024 each) the arrangement searches' stack
           (``melds.best_partition``, ``deadwood.discard_deadwood``).
``iwork``  int64[IWORK_SIZE], its int64 twin: at ``X_STACK_D`` (1024) that stack's values, at
           ``X_MELD_VALUE`` (64) the value of each meld at ``W_BUF2``, at ``X_BEST_WITHOUT`` (64) per
           card id the best melded value leaving it out (``deadwood.discard_deadwood``).

A hand is these few flat arrays, not one array per field, because every compiled call passes the
tuple's arrays one by one: with 18 arrays a call pushed some 130 values (docs/development.md).

The decision point is ``ints[I_PHASE]`` (``PH_*``) and ``ints[I_SEAT]`` (the seat to act);
``I_OUTCOME``/``I_WINNER``/``I_POINTS``/``I_GIN``/``I_UNDERCUT`` hold the result once the phase is
``PH_OVER``.
"""

from collections import namedtuple

import numpy as np
from numba import njit

State = namedtuple("State", ("masks", "ints", "rules", "card_value", "ev", "work", "iwork"))

SEATS = 2

M_HAND = 0
M_TABLE = 2
M_PILE = 3
M_LAYABLE = 4
M_PICKED = 5
M_HELD = 7
MAX_TABLE = 32         # table melds a hand can hold
M_T_MASK = M_HELD + SEATS          # + k: table meld k
M_T_LAY = M_T_MASK + MAX_TABLE     # + k: the cards that would extend table meld k
M_THREW = M_T_LAY + MAX_TABLE      # + p: the cards seat p discarded face up this hand
M_PASSED = M_THREW + SEATS         # + p: the upcards seat p passed on this hand (or drew the stock over)
MASKS_SIZE = M_PASSED + SEATS

I_STOCK_N = 0
I_PILE_N = 1
I_N_TABLE = 2
I_N_KNOCKER_MELDS = 3
I_TURN = 4             # discards made this hand
I_TAKEN = 5            # the card taken from the discard pile this turn, or -1 (ruling 3.14)
I_UPCARD_DRAWS = 6     # takes of the upcard in the draw step (rules 4.6: the 50th ends the hand)
I_PASSES = 7           # passes of the first upcard (rules 4.3)
I_BEST_DEADWOOD = 8    # least deadwood after a discard allowed now (set on every draw and at the wall; 4.5)
I_KNOCK_CARD = 9       # the knock card of this hand (rules 4.5, option oklahoma)
I_KNOCKER = 10         # -1 until a knock
I_BIG_GIN = 11         # the knocker went big gin (option big_gin_bonus)
I_PLAYERS = 12
I_PHASE = 13
I_SEAT = 14
I_DEALER = 15
I_SEED = 16
I_GAME = 17
I_HAND = 18
I_OUTCOME = 19         # once over (engine.codes OUT_*)
I_WINNER = 20          # -1 unless someone won
I_POINTS = 21          # the winner's points (rules 4.7)
I_GIN = 22             # the knocker had no deadwood
I_UNDERCUT = 23        # the defender undercut the knocker
I_KNOCKER_DEADWOOD = 24
I_DEFENDER_DEADWOOD = 25
I_DISCARD_DRAWS_SEAT = 26   # + p
I_MELDS_LAID_SEAT = 28      # + p
I_LAID_OFF_SEAT = 30        # + p
I_DISCARDS_SEAT = 32        # + p: the seat's discards this hand (its turns)
I_LEFT_AFTER = 34           # + card index i: the deadwood the seat to act keeps by discarding card i
                            # (set with I_BEST_DEADWOOD on every draw and at the wall; rules 4.5)
CARD_SLOTS = 64             # slots of a card list (the stock, the pile) or of a per-card-id array
I_N_EV = I_LEFT_AFTER + 52  # events logged (``ev`` rows written)
I_STOCK = I_N_EV + 1        # + k: the stock, the top last
I_PILE = I_STOCK + CARD_SLOTS       # + k: the discard pile, the top last
I_T_KIND = I_PILE + CARD_SLOTS      # + k: table meld k's kind (engine.melds)
INTS_SIZE = I_T_KIND + MAX_TABLE

MELD_SLOTS = 64             # the melds of a hand (``melds.list_melds``)
STACK = 1024                # the arrangement searches' stack depth
W_BUF = 0
W_BUF2 = W_BUF + MELD_SLOTS
W_STACK_R = W_BUF2 + MELD_SLOTS
W_STACK_M = W_STACK_R + STACK
WORK_SIZE = W_STACK_M + STACK

X_STACK_D = 0
X_MELD_VALUE = X_STACK_D + STACK
X_BEST_WITHOUT = X_MELD_VALUE + MELD_SLOTS
IWORK_SIZE = X_BEST_WITHOUT + CARD_SLOTS

# decision points (rules 4.3-4.7)
PH_FIRST_UPCARD = 0    # 4.3: take the first upcard or pass; after two passes, draw from the stock
PH_DRAW = 1            # 4.4: the upcard or the stock
PH_DISCARD = 2         # 4.4: discard, or knock
PH_KNOCK_DISCARD = 3   # 4.5: the knocker's discard, face down
PH_KNOCK_MELD = 4      # 4.5: the knocker lays his melds, then passes
PH_LAYOFF = 5          # 4.6: the defender lays off on the knocker's melds, then passes
PH_DEFENDER_MELD = 6   # 4.6: the defender lays his melds, then passes
PH_WALL = 7            # 4.6: two cards left in the stock: pass (no score) or knock with the upcard
PH_OVER = 8

# rule vector (rules.md 4.9)
R_KNOCK_CARD = 0
R_GIN_BONUS = 1
R_UNDERCUT_BONUS = 2
R_OKLAHOMA = 3
R_HAND_SIZE = 4
R_BIG_GIN_BONUS = 5    # 0: no big gin
R_GAME_TO = 6
R_LINE_BONUS = 7
R_GAME_BONUS = 8
R_SHUTOUT = 9
R_CHECK = 10           # not a rule: 1 = verify every card is in exactly one place after every move
R_TIE_UNDERCUT = 11    # equal deadwood after a knock (no gin) is an undercut (ruling 3.17, Hoyle/EAAI)
RULES_SIZE = 12

#: the take of the upcard that ends the hand with no score (rules 4.6, as OpenSpiel's gin_rummy)
UPCARD_DRAW_LIMIT = 50
#: the stock at which the wall stops the drawing (rules 4.6)
WALL = 2


@njit(cache=True)
def new_state(rules, card_value, ev):
    """An empty ``State``, reused hand after hand (``start_hand`` deals it). ``rules``
    int64[RULES_SIZE], ``card_value`` int64[64], ``ev`` int16[n, EV_WIDTH] (n = 0: no log)."""
    ints = np.zeros(INTS_SIZE, dtype=np.int64)
    ints[I_PLAYERS] = 2
    return State(np.zeros(MASKS_SIZE, dtype=np.uint64), ints, rules, card_value, ev,
                 np.zeros(WORK_SIZE, dtype=np.uint64), np.zeros(IWORK_SIZE, dtype=np.int64))


def stock_view(state):
    """``state``'s stock slots, int64[64] (a view; the top at ``ints[I_STOCK_N] - 1``), for Python callers."""
    return state.ints[I_STOCK:I_STOCK + CARD_SLOTS]


def pile_view(state):
    """``state``'s discard pile slots, int64[64] (a view; the top at ``ints[I_PILE_N] - 1``), for Python
    callers."""
    return state.ints[I_PILE:I_PILE + CARD_SLOTS]
