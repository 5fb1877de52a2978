"""Layout of the per-round state of the Shanghai Rummy engine (``State``) and its bots.

A round in play is one ``State`` (a namedtuple of arrays, built by
``moves.new_state``; Numba reads it by field name inside compiled code):

``hands``  int64[players, 64]
    how many copies of each card seat p holds: index ``16 * suit + rank`` for
    naturals (as in ``rummysim.cards``) and ``JOKER`` = 63 for jokers.
``ints``   int64[SI_SIZE]
    counters of the round (``SI_*`` scalars) and per-seat counters (``SI_*_SEAT + p``).
``stock``, ``pile``  int64[total cards], top last (card ids, jokers 63)
``table``  int64[MAX_TABLE, T_COLS]
    table melds in the order laid; a set keeps its naturals per suit
    (``T_SUIT_COUNT + s``), a run its block ``T_LO..T_HI`` of positions
    (0 ace low .. 12 king, 13 ace high) and the positions its jokers hold
    (``T_JOKER_POS`` bitmask): every other position holds its natural.
``melds``  int64[6, T_COLS]
    the proposal buffer: the laying of the contract that the move ``CONTRACT`` lays
    (``ints[I_PROPOSAL_N]`` melds; see ``moves``)
``listing`` int64[max(cards, 64)]  scratch (deck, event cards)
``counts`` int64[64]  scratch (card conservation, legality checks)
``row``    int64[T_COLS]  scratch (a meld after a joker swap)
``rng1``   uint64[1]  the reshuffle stream
``rules``  int64[SR_SIZE]  the rule vector the round is played under
``ev``     int16[n, EV_WIDTH], ``n_ev`` int64[1]  the event log (n = 0: not logging)
``cand``, ``chosen``, ``ranks``, ``left``, ``solver``  the contract solver's scratch (``moves.legal_moves``;
    ``solver`` int64[``contracts.SOLVER_WORK``])
``trial``  int64[6, T_COLS]  scratch: a laying tried by a legality check (a joker swap before the
    contract, ruling 3.8), so that the proposal buffer ``melds`` is kept
``held``   int64[players, 64]
    copies of each card seat p is known to hold (public knowledge, kept by ``moves.apply``): taken as
    the upcard or bought (not the penalty card), or a joker taken back by a swap (ruling 3.8), less
    the copies it threw or put on the table since (the first ones thrown count as the known ones)

The decision to take is ``ints[I_PHASE]`` (``PH_*``) by seat ``ints[I_SEAT]``;
``ints[I_TURN_SEAT]`` is the seat whose turn it is (differs from ``I_SEAT`` while
another seat is offered the upcard to buy). The seed and game key the reshuffle
stream (``I_SEED``, ``I_GAME``, with ``SI_ROUND``).

Rules are an int64 vector indexed by ``SR_*`` (built by ``rules.py``).
"""

from collections import namedtuple

from ...cards import JOKER  # noqa: F401  (state.JOKER for the kernels: the card id of every joker)

State = namedtuple("State", ["hands", "ints", "stock", "pile", "table", "melds", "listing", "counts", "row",
                             "rng1", "rules", "ev", "n_ev", "cand", "chosen", "ranks", "left", "trial", "held",
                             "solver"])

MAX_SEATS = 8
#: table meld slots: round 9's contract is four melds a seat (three sets and a run, 2.2), so eight
#: seats down lay 32 (a table of 24 let the eighth seat's melds be written past its end)
MAX_TABLE = 4 * MAX_SEATS

# round counters
SI_STOCK_N = 0
SI_PILE_N = 1
SI_N_TABLE = 2
SI_TURN = 3             # turns completed this round
SI_RESHUFFLES = 4
SI_DRAWN = 5            # card taken from the discard pile this turn, or -1
SI_DISCARDER = 6        # seat that discarded the pile's top card, -1 for the first upcard
SI_ROUND = 7            # 1..10
SI_BUYS = 8             # buys this round, all seats
SI_DOWN_TURN_SEAT = 16          # + p: own turn (1-based) on which seat p went down, 0 if not down
SI_BUYS_SEAT = SI_DOWN_TURN_SEAT + MAX_SEATS
SI_OWN_TURNS_SEAT = SI_BUYS_SEAT + MAX_SEATS
SI_LAID_OFF_SEAT = SI_OWN_TURNS_SEAT + MAX_SEATS
SI_SWAPS_SEAT = SI_LAID_OFF_SEAT + MAX_SEATS
SI_UPCARDS_SEAT = SI_SWAPS_SEAT + MAX_SEATS   # upcards taken on one's own turn
SI_DISTANCE_SEAT = SI_UPCARDS_SEAT + MAX_SEATS  # bots' cache: 1 + the distance of seat p's hand, 0 unknown
I_PHASE = SI_DISTANCE_SEAT + MAX_SEATS   # PH_*: the decision to take
I_SEAT = I_PHASE + 1            # the seat to act
I_TURN_SEAT = I_PHASE + 2       # the seat whose turn it is
I_FIRST = I_PHASE + 3           # the round's first seat
I_DOWN_NOW = I_PHASE + 4        # 1 when the seat on turn laid its contract this turn
I_JOKERS_DOWN = I_PHASE + 5     # jokers the seat on turn put on the table this turn
I_PROPOSAL_N = I_PHASE + 6      # melds in the proposal buffer ``melds`` (0: none)
I_OUTCOME = I_PHASE + 7         # engine.codes OUT_* once over
I_WINNER = I_PHASE + 8
I_BONUS = I_PHASE + 9           # BONUS_*
I_SEED = I_PHASE + 10
I_GAME = I_PHASE + 11
I_SWAPPED_DOWN = I_PHASE + 12   # 1 once a seat not down swapped a joker this turn (3.8): the contract must follow
I_TABLE_MOVED = I_PHASE + 13    # 1 when the table changed this turn (a contract, lay-off or swap: ruling 3.7's check)
SI_SIZE = I_PHASE + 14

# decision points (ints[I_PHASE])
PH_UPCARD = 0       # the seat on turn takes the upcard or leaves it (2.4.1)
PH_BUY = 1          # the seat offered the upcard buys it or passes (2.4.2-3)
PH_PLAY = 2         # lay down the contract / lay off / swap a joker, or stop (2.5)
PH_DISCARD = 3      # throw a card (2.6)
PH_OVER = 4         # the round has ended

BONUS_NONE = 0
BONUS_ONE_TURN = 1
BONUS_NO_JOKER = 2
#: names of the bonus codes, in code order (the ``bonus`` column of the results)
BONUSES = ("none", "one_turn", "one_turn_no_joker")

# table meld columns
T_KIND = 0              # MELD_SET or MELD_RUN
T_OWNER = 1
T_RANK = 2              # a set's rank (0 ace .. 12 king)
T_SUIT = 3              # a run's suit
T_LO = 4
T_HI = 5
T_JOKER_POS = 6         # a run's joker positions, bit p for position p
T_JOKERS = 7
T_NATURALS = 8
T_SUIT_COUNT = 9        # + s: a set's naturals of suit s
T_COLS = 13
MELD_SET = 0
MELD_RUN = 1

# rule vector (rules.md 2.8, resolved for the number of players)
SR_DECKS = 0
SR_JOKERS = 1
SR_MAX_BUYS = 2
SR_LAYOFF_ON_CONTRACT_TURN = 3
SR_JOKER_SWAP = 4       # JOKER_SWAP_*
SR_ACE_HIGH = 5
SR_MUST_DISCARD = 6
SR_BONUS = 7            # the one-turn bonus (-25)
SR_BONUS_NO_JOKER = 8   # ... without laying down a joker (-50)
SR_TURN_LIMIT = 9
SR_CHECK = 10           # not a rule: 1 = verify every card is in exactly one place after every move
SR_SIZE = 11

# values of rules[SR_JOKER_SWAP] (2.8): nobody, players who have gone down (2.5), anyone (ruling 3.8)
JOKER_SWAP_OFF = 0
JOKER_SWAP_DOWN = 1
JOKER_SWAP_ANYONE = 2

CARDS_DEALT = 11
ROUNDS = 10
