"""Basic Rummy (docs/rules.md section 1): 2-4 players, one deck, hands to a target score.

Compiled: ``state`` (the arrays of a hand in play), ``melds`` (bitmask melds), ``moves`` (the rules
layer: legal moves, applying one), ``bots`` (the rule-based policies), ``search`` (the search bot), ``policy`` (a seat's move: search
or rules), ``kernel`` (the driver loop and the
parallel game kernel). Python: ``rules`` (options), ``spec`` (strategy keys), ``schema`` (results
tables), ``play`` (a chunk through the kernel), ``summary``, ``replay``, ``game`` (one game in play, move by move).

Its ``Variant`` (``variant.VARIANT``, what the rest of rummysim asks of it) is built in ``variant.py``;
this ``__init__`` imports nothing, so the package's modules import one another without a loop.
"""
