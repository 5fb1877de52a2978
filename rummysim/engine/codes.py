"""Codes shared by every variant, defined once: how a hand or round ended, the event kinds of a replay,
and the kinds of bot a parameter vector names.

The ``outcome`` column of every results table holds these names (a dictionary
column over ``OUTCOMES``, in code order); the kernels write the codes.
"""

OUT_WIN = 0
OUT_STALEMATE_STOCK = 1     # Basic: the stock ran out once too often (docs/rules.md 1.4); Shanghai: nothing left to draw (2.6)
OUT_STALEMATE_BLOCKED = 2   # nobody can ever go out (1.5)
OUT_TURN_LIMIT = 3          # the safety cap (1.5, 2.6): a bug to investigate
#: names of the outcome codes, in code order (the ``outcome`` column of the results)
OUTCOMES = ("win", "stalemate_stock", "stalemate_blocked", "turn_limit")

# event kinds of the replay log (``ev`` rows: kind, player, card, meld, n cards, cards...), shared by
# every variant; each variant writes the kinds its moves have
EV_DRAW_STOCK = 1
EV_DRAW_DISCARD = 2
EV_MELD = 3
EV_LAYOFF = 4
EV_DISCARD = 5
EV_RESHUFFLE = 6
EV_BUY = 7
EV_CONTRACT = 8
EV_SWAP = 9
EV_KNOCK = 10     # Gin: a knock (docs/rules.md 4.5)
EV_PASS = 11      # Gin: a pass (of the first upcard, at the wall, done laying)

# the kind of bot, the first slot of every variant's parameter vector (a strategy file's ``bot`` key)
BOT_FAMILY = 0   # the variant's parametrised rule-based family
BOT_RANDOM = 1   # a uniform draw among the legal moves
BOT_SEARCH = 2   # searches the decisions its keys name, playing the rest as its rollout strategy
BOT_SIMPLE = 3   # Gin only: the EAAI SimpleGinRummyPlayer as OpenSpiel's simple_gin_rummy_bot plays it
