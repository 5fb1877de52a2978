"""The keys of a Gin Rummy strategy file (``rummysim.base.params.Param``): where each lands in the bots'
parameter vector (``bots.P_*``), its default and what it may be."""

from ...base.params import Param, search_spec
from . import bots as B

#: Every key a Gin Rummy strategy file may set (besides name, variant, description).
SPEC = (
    Param("bot", B.P_BOT, "family", ("family", "random", "search", "simple"),
          doc="'random' plays uniformly at random (every other key is then ignored); 'search' searches "
              "(keys search.*, the rest from its search.rollout strategy); 'simple' plays as OpenSpiel's "
              "simple_gin_rummy_bot, the EAAI baseline (every other key is then ignored)"),
    Param("draw.mode", B.P_TAKE, "meld", ("never", "meld", "gain"),
          doc="take the upcard: never / when it goes into a meld / when it lowers deadwood by min_gain"),
    Param("draw.min_gain", B.P_TAKE_GAIN, 1, low=0, high=100,
          doc="points of deadwood (after the best discard) the upcard must save (mode 'gain')"),
    Param("knock.deadwood", B.P_KNOCK_DEADWOOD, 10, low=0, high=10,
          doc="knock with at most this much deadwood (0: wait for gin); gin always knocks"),
    Param("knock.late_turn", B.P_KNOCK_LATE_TURN, 0, low=0, high=100,
          doc="from this own turn on, knock.late_deadwood is the limit instead (0: never)"),
    Param("knock.late_deadwood", B.P_KNOCK_LATE_DEADWOOD, 10, low=0, high=10,
          doc="the knocking limit from knock.late_turn on"),
    Param("knock.per_known_card", B.P_KNOCK_PER_KNOWN, 0, low=0, high=10,
          doc="points off the limit for each card the opponent took from the pile and still holds "
              "(the risk of an undercut)"),
    Param("discard.avoid_feeding", B.P_AVOID_FEED, 0, low=0, high=100,
          doc="points of deadwood a discard is charged when it connects with a card the opponent took"),
) + search_spec(B.P_SEARCH, ("upcard", "draw", "discard"), "hand") + (
    Param("search.deals", B.P_SEARCH_INFER, "uniform", ("uniform", "inferred"),
          doc="the opponent's hidden cards dealt uniformly from the unseen ones, or weighted by what it threw, "
              "passed on and took from the pile (how much: measured in play, docs/strategies.md)"),
    Param("search.build_steps", B.P_SEARCH_BUILD, 0, low=0, high=10,
          doc="the opponent's dealt hand is then built this many times per turn it has played this hand: a random "
              "unseen card in, the card whose discard leaves the least deadwood out (0: as dealt)"),
)
