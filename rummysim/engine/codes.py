"""Codes shared by every variant, defined once: how a hand or round ended.

The ``outcome`` column of every results table holds these names (a dictionary
column over ``OUTCOMES``, in code order); the kernels write the codes.
"""

OUT_WIN = 0
OUT_STALEMATE_STOCK = 1     # Basic: the stock ran out once too often (docs/rules.md 1.4); Shanghai: nothing left to draw (2.6)
OUT_STALEMATE_BLOCKED = 2   # nobody can ever go out (1.5)
OUT_TURN_LIMIT = 3          # the safety cap (1.5, 2.6): a bug to investigate
#: names of the outcome codes, in code order (the ``outcome`` column of the results)
OUTCOMES = ("win", "stalemate_stock", "stalemate_blocked", "turn_limit")
