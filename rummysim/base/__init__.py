"""Floor 0: what every variant and every command shares, and nothing that knows a variant.

``version`` (the package's version), ``errors`` (the one-line mistakes a user can make),
``rules`` (rules versions, options given as text or TOML, the checks every variant's options use),
``params`` (a strategy file's keys: ``Param``, the search bot's keys), ``variant`` (``Variant``: what
a variant gives the rest of rummysim), ``game`` (``GameInPlay``: one game played move by move),
``intervals`` (every interval and test rummysim prints), ``summary`` (estimates as text), ``terminal``
(tables and lines within the terminal's width, never breaking an interval).
Nothing here imports ``rummysim.variants`` or anything above it; every variant package imports
only this package, ``rummysim.engine``, ``rummysim.cards`` and ``rummysim.results``.
"""
