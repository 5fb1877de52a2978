"""The keys of a Basic Rummy strategy file (``rummysim.base.params.Param``): where each lands in the
bots' parameter vector (``bots.P_*``), its default and what it may be."""

from ...base.params import Param, search_spec
from . import bots as B

#: Every key a Basic Rummy strategy file may set (besides name, variant, description).
SPEC = (
    Param("bot", B.P_BOT, "family", ("family", "random", "search"),
          doc="'random' plays uniformly at random (every other key is then ignored); 'search' searches "
              "(keys search.*, the rest from its search.rollout strategy)"),
    Param("draw.mode", B.P_DRAW, "meld", ("never", "meld", "gain"),
          doc="take the discard: never / when it goes into a meld / when it lowers deadwood by min_gain"),
    Param("draw.min_gain", B.P_DRAW_GAIN, 1, low=0, high=100, doc="points of deadwood the discard must save (mode 'gain')"),
    Param("meld.mode", B.P_MELD, "at_once", ("at_once", "hold_for_rummy"),
          doc="lay melds down at once, or hold everything until the hand can go out in one turn"),
    Param("meld.abandon_opponent_cards", B.P_ABANDON_OPP_CARDS, -1, low=-1, high=10,
          doc="stop holding when an opponent has at most this many cards (-1: never)"),
    Param("meld.abandon_turn", B.P_ABANDON_TURN, 0, low=0, high=1000,
          doc="stop holding from this own turn on (0: never)"),
    Param("meld.abandon_deadwood", B.P_ABANDON_DEADWOOD, 0, low=0, high=200,
          doc="stop holding when deadwood is above this (0: never)"),
    Param("layoff.mode", B.P_LAYOFF, "at_once", ("at_once", "when_going_out"),
          doc="lay off at once, or only in the turn the hand goes out"),
    Param("discard.mode", B.P_DISCARD, "highest", ("highest", "least_useful"),
          doc="throw the highest card outside melds and partial melds, or the one with fewest live connectors"),
    Param("discard.avoid_feeding", B.P_AVOID_FEED, 0, low=0, high=1000,
          doc="points taken off a card's discard score when an opponent could use it"),
    Param("discard.tiebreak", B.P_TIEBREAK_RANDOM, "highest_card", ("highest_card", "random"),
          doc="break ties by highest card, or at random from the seat's seeded stream"),
) + search_spec(B.P_SEARCH, ("draw", "play", "discard"), "hand")
