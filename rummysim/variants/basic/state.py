"""The state of a Basic Rummy hand: a named tuple of flat arrays (``State``).

A hand in play is one ``State`` (``collections.namedtuple``, built and read
inside njit code), self-contained: ``moves.apply`` needs nothing else to play
a move and everything automatic after it (scoring, reshuffles, the log).
Fields:

``masks``  uint64[MASKS_SIZE]
    ``M_HAND + p``: seat p's hand; ``M_TABLE``: every card on the table;
    ``M_PILE``: the cards in the discard pile; ``M_LAYABLE``: the cards that
    would extend some table meld; ``M_PICKED + p``: cards seat p took from the
    discard pile this hand (public knowledge); ``M_HELD + p``: those of them seat p still holds
    (taken from the pile, not yet melded, laid off or discarded: public knowledge too).
``ints``   int64[INTS_SIZE]
    counters of the hand (``I_*`` scalars) and per-seat counters (``I_*_SEAT + p``).
``stock``  int64[64], top at ``stock[ints[I_STOCK_N] - 1]``
``pile``   int64[64], top at ``pile[ints[I_PILE_N] - 1]``
``t_mask`` uint64[32], ``t_kind`` int64[32], ``t_lay`` uint64[32]
    table melds in the order laid (see ``melds``) and each one's lay-off cards.
``rules``  int64[RULES_SIZE], indexed by ``R_*`` (built by ``rules.py``).
``card_value`` int64[64]: points of each card id (rules 1.6).
``ev``     int16[n, EV_WIDTH] event log (``kernel.EV_*``), n = 0 when not logging;
``n_ev``   int64[1] events written.
``rng``    uint64[1]: scratch stream of the reshuffles (keyed by seed, game, hand, k).
``buf``    uint64[64]: scratch of the rules layer (the melds of a hand).

The decision point is in ``ints``: ``I_PHASE`` (``PH_*``) and ``I_SEAT`` (the
seat to act); ``I_SEED``/``I_GAME``/``I_HAND`` key the reshuffles;
``I_OUTCOME``/``I_WINNER``/``I_POINTS``/``I_RUMMY`` hold the result once the
phase is ``PH_OVER``. ``I_ABANDONED_SEAT + p`` is the one slot a policy writes:
seat p's own memory that it gave up holding for rummy (no rule reads it).
"""

from collections import namedtuple

State = namedtuple("State", ("masks", "ints", "stock", "pile", "t_mask", "t_kind", "t_lay",
                             "rules", "card_value", "ev", "n_ev", "rng", "buf"))

MAX_SEATS = 4

M_HAND = 0
M_TABLE = 4
M_PILE = 5
M_LAYABLE = 6
M_PICKED = 7
M_HELD = 11
MASKS_SIZE = 15

I_STOCK_N = 0
I_PILE_N = 1
I_N_TABLE = 2
I_TURN = 3            # turns completed this hand
I_RESHUFFLES = 4
I_DRAWN = 5           # card taken from the discard pile this turn, or -1
I_MELDS_THIS_TURN = 6
I_PLAYED_THIS_TURN = 7  # melds + lay-offs this turn
I_HAS_PLAYED_SEAT = 8   # + p: melded or laid off in an earlier turn (rules 1.6 going rummy)
I_ABANDONED_SEAT = 12   # + p: a rummy-holding bot gave up holding
I_MELDS_LAID_SEAT = 16
I_LAID_OFF_SEAT = 20
I_DISCARD_DRAWS_SEAT = 24
I_OWN_TURNS_SEAT = 28
I_PLAYERS = 32
I_PHASE = 33          # PH_*: the decision the seat to act faces
I_SEAT = 34           # the seat to act
I_DEALER = 35
I_SEED = 36           # seed, game, hand: the keys of the reshuffle streams
I_GAME = 37
I_HAND = 38
I_OUTCOME = 39        # result, once I_PHASE is PH_OVER (engine.codes OUT_*)
I_WINNER = 40         # -1 unless won
I_POINTS = 41
I_RUMMY = 42
INTS_SIZE = 48

# decision points (rules 1.3)
PH_DRAW = 0           # 1.3.1: the stock or the discard pile
PH_PLAY = 1           # 1.3.2-3: melds and lay-offs in any order, or stop
PH_DISCARD = 2        # 1.3.4
PH_OVER = 3           # the hand has ended

# rule vector (rules.md 1.7)
R_MAX_MELDS = 0        # 0 = unlimited
R_ACE_HIGH = 1
R_RESHUFFLES = 2       # -1 = unlimited
R_RESHUFFLE_MODE = 3   # 0 shuffle_all, 1 keep_top, 2 turn_over
R_MUST_DISCARD = 4
R_RUMMY_MULT = 5
R_TARGET = 6
R_TURN_LIMIT = 7
R_CHECK = 8            # not a rule: 1 = verify every card is in exactly one place after every move
RULES_SIZE = 9

RESHUFFLE_SHUFFLE_ALL = 0
RESHUFFLE_KEEP_TOP = 1
RESHUFFLE_TURN_OVER = 2
