"""Layout of the per-hand state arrays shared by the Basic Rummy engine and its bots.

A hand in play is held in a few flat arrays so that kernels pass them around
cheaply and bots can read everything a player may see:

``masks``  uint64[MASKS_SIZE]
    ``M_HAND + p``: seat p's hand; ``M_TABLE``: every card on the table;
    ``M_PILE``: the cards in the discard pile; ``M_LAYABLE``: the cards that
    would extend some table meld; ``M_PICKED + p``: cards seat p took from the
    discard pile this hand (public knowledge).
``ints``   int64[INTS_SIZE]
    counters of the hand (``I_*`` scalars) and per-seat counters (``I_*_SEAT + p``).
``stock``  int64[64], top at ``stock[ints[I_STOCK_N] - 1]``
``pile``   int64[64], top at ``pile[ints[I_PILE_N] - 1]``
``t_mask`` uint64[32], ``t_kind`` int64[32], ``t_lay`` uint64[32]
    table melds in the order laid (see ``core.melds``) and each one's lay-off cards.

Rules are an int64 vector indexed by ``R_*`` (built by ``rummysim.rules``).
"""

MAX_SEATS = 4

M_HAND = 0
M_TABLE = 4
M_PILE = 5
M_LAYABLE = 6
M_PICKED = 7
MASKS_SIZE = 11

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
INTS_SIZE = 32

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


# actions a bot returns from its meld/lay-off step
ACT_STOP = 0
ACT_MELD = 1
ACT_LAYOFF = 2
