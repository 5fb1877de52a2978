"""Gin Rummy (docs/rules.md section 4): two players, ten cards, knocking, gin and undercuts; by default
OpenSpiel's ``gin_rummy`` hand (tests/test_gin_openspiel.py plays the two side by side), with Hoyle's game
to 100 as options.

Compiled: ``state`` (the arrays of a hand in play), ``moves`` (the rules layer: legal moves, applying
one), ``bots`` (the rule-based policies), ``policy`` (a seat's move), ``kernel`` (the driver loop and
the parallel game kernel), ``env_core`` (the environments). Python: ``rules`` (options), ``spec``
(strategy keys), ``schema`` (results tables), ``play`` (a chunk through the kernel), ``summary``,
``replay``, ``notation``, ``hints``, ``game`` (one game in play, move by move), ``report``.

Its ``Variant`` (``variant.VARIANT``) is built in ``variant.py``; this ``__init__`` imports nothing.
"""
