"""The keys of a Shanghai Rummy strategy file (``rummysim.base.params.Param``): where each lands in the
bots' parameter vector (``bots.SP_*``), its default and what it may be."""

from ...base.params import Param, search_spec
from . import bots as SB

#: Every key a Shanghai strategy file may set (besides name, variant, description).
SPEC = (
    Param("bot", SB.SP_BOT, "family", ("family", "random", "search"),
          doc="'random' decides every choice at random (every other key is then ignored); 'search' searches "
              "(keys search.*, the rest from its search.rollout strategy)"),
    Param("draw.mode", SB.SP_DRAW, "helps", ("never", "helps"),
          doc="take the upcard: never / when it brings the contract closer by min_gain cards (once down: when it can be laid off)"),
    Param("draw.min_gain", SB.SP_DRAW_GAIN, 1, low=1, high=5, doc="cards closer to the contract the upcard must bring"),
    Param("buy.mode", SB.SP_BUY, "helps", ("never", "helps"), doc="buy the upcard: never / when it brings the contract closer"),
    Param("buy.min_gain", SB.SP_BUY_GAIN, 1, low=1, high=5, doc="cards closer to the contract a buy must bring"),
    Param("buy.keep", SB.SP_BUY_KEEP, 0, low=0, high=100, doc="buys held in reserve in rounds 1-7 (from round 8 the contract needs buys)"),
    Param("buy.from_round", SB.SP_BUY_MIN_ROUND, 1, low=1, high=10, doc="buy only from this round on"),
    Param("buy.max_cards", SB.SP_BUY_MAX_CARDS, 0, low=0, high=60, doc="never buy holding this many cards or more (0: no limit)"),
    Param("down.mode", SB.SP_DOWN, "at_once", ("at_once", "one_turn"),
          doc="lay down the contract at once, or wait to go out in one turn for the bonus"),
    Param("down.abandon_turn", SB.SP_ABANDON_TURN, 0, low=0, high=2000, doc="stop waiting from this own turn on (0: never)"),
    Param("down.abandon_opponent_down", SB.SP_ABANDON_OPP_DOWN, "no", ("no", "yes"),
          doc="stop waiting once an opponent has gone down"),
    Param("down.abandon_opponent_cards", SB.SP_ABANDON_OPP_CARDS, -1, low=-1, high=60,
          doc="stop waiting when an opponent has at most this many cards (-1: never)"),
    Param("jokers.contract", SB.SP_JOKERS, "most", ("most", "fewest"),
          doc="lay the contract leaving the least value in hand (spare jokers go in), or with the fewest jokers"),
    Param("jokers.swap", SB.SP_SWAP, "yes", ("no", "yes"), doc="swap a natural for a table joker when the joker can be laid off"),
    Param("jokers.swap_to_go_down", SB.SP_SWAP_DOWN, "no", ("no", "yes"),
          doc="with joker_swap=anyone, not yet down: swap for a table joker when the contract can then be laid with it"),
    Param("jokers.end", SB.SP_JOKER_END, "high", ("high", "low", "held"),
          doc="a joker laid off on a run open at both ends stands for the card above it, below it, or at the "
              "end after which a card in hand can be laid off next (else above; docs/rules.md 3.13)"),
    Param("layoff.mode", SB.SP_LAYOFF, "at_once", ("at_once", "when_going_out"),
          doc="lay off at once, or only in a turn the hand can be emptied"),
    Param("discard.mode", SB.SP_DISCARD, "highest", ("highest", "least_useful"),
          doc="throw the card the contract needs least, highest first; or keep cards with more connectors"),
    Param("discard.avoid_feeding", SB.SP_AVOID_FEED, 0, low=0, high=1000,
          doc="points added to the keep-score of a card that fits a table meld"),
    Param("discard.tiebreak", SB.SP_TIEBREAK_RANDOM, "highest_card", ("highest_card", "random"),
          doc="break ties by highest card, or at random from the seat's seeded stream"),
) + search_spec(SB.SP_SEARCH, ("draw", "buy", "play", "discard"), "round") + (
    Param("search.build_steps", SB.SP_SEARCH_BUILD_STEPS, 0, low=0, high=100,
          doc="a hand not yet down is dealt, then per turn its seat has played this round built this many "
              "times: a random unseen card in, the card the rollout strategy keeps least out (0: uniform deals)"),
)
