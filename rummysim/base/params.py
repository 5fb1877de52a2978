"""The keys of a strategy file, declared once per variant (``Variant.spec``: a tuple of ``Param``):
where each lands in the bots' parameter vector, its default and what it may be. The search bot's keys
(``search_spec``) are the same in every variant that has one."""

from __future__ import annotations

import dataclasses

from ..engine.search import CANDIDATES, CONFIDENCE, DECISIONS, HORIZON, PLAYOUTS, SAMPLES, VALUE
from .errors import StrategyError


@dataclasses.dataclass(frozen=True)
class Param:
    """One key of a strategy file: where it lands in the vector and what it may be."""

    key: str
    index: int
    default: object
    choices: tuple = ()          # allowed strings, mapped to 0, 1, 2... in order
    low: float | None = None     # numeric range, inclusive
    high: float | None = None
    doc: str = ""
    many: bool = False           # a list of the choices, stored as a bit mask (choice i: bit i)

    def allowed(self) -> str:
        if self.many:
            return "a list of one or more of " + ", ".join(repr(c) for c in self.choices)
        if self.choices:
            return " or ".join(repr(c) for c in self.choices)
        return f"an integer from {self.low:g} to {self.high:g}"

    def convert(self, value, where: str) -> float:
        if self.many:
            if (not isinstance(value, (list, tuple)) or not value or len(set(value)) != len(value)
                    or any(not isinstance(v, str) or v not in self.choices for v in value)):
                raise StrategyError(f"{where}: key '{self.key}' = {value!r}: allowed {self.allowed()}")
            return float(sum(1 << self.choices.index(v) for v in value))
        if self.choices:
            if not isinstance(value, str) or value not in self.choices:
                raise StrategyError(f"{where}: key '{self.key}' = {value!r}: allowed {self.allowed()}")
            return float(self.choices.index(value))
        if isinstance(value, bool) or not isinstance(value, int) or not (self.low <= value <= self.high):
            raise StrategyError(f"{where}: key '{self.key}' = {value!r}: allowed {self.allowed()}")
        return float(value)


#: a search bot's rollout strategy (a name or a file, relative to the search file): not a number of the vector
ROLLOUT_KEY = "search.rollout"
SEARCH = "search"


def search_spec(base: int, decisions: tuple[str, ...], unit: str) -> tuple[Param, ...]:
    """The keys of a search bot (``bot = "search"``), the same in every variant: slots ``base +``
    ``engine.search``'s ``SAMPLES`` ... ``CONFIDENCE`` of the vector (``base + ROLLOUT_BOT`` is filled
    from ``search.rollout``); ``decisions`` names the variant's decision points, ``unit`` its hand or round."""
    index = {key: base + slot for key, slot in (("samples", SAMPLES), ("playouts", PLAYOUTS), ("horizon", HORIZON),
             ("decisions", DECISIONS), ("candidates", CANDIDATES), ("value", VALUE), ("confidence", CONFIDENCE))}
    return (
        Param("search.samples", index["samples"], 8, low=1, high=10_000,
              doc="deals of the unseen cards per searched decision, each consistent with what the seat has seen"),
        Param("search.playouts", index["playouts"], 4, low=1, high=10_000,
              doc="playouts per candidate move and deal (every candidate plays the same deals and streams)"),
        Param("search.horizon", index["horizon"], 0, low=0, high=10_000,
              doc=f"turns played before a static evaluation (0: to the end of the {unit})"),
        Param("search.decisions", index["decisions"], decisions, decisions, many=True,
              doc="the decisions searched; the others are played by the rollout strategy"),
        Param("search.candidates", index["candidates"], 4, low=1, high=1000,
              doc="candidate moves searched at most, the rollout strategy's favourites first"),
        Param("search.value", index["value"], "win", ("win", "points"),
              doc=f"what a playout is worth to the seat: the {unit} won (1) or not (0), or its points"),
        Param("search.confidence", index["confidence"], 10, low=0, high=100,
              doc="tenths of a standard error (over the deals) by which a candidate's mean paired gain over "
                  "the rollout strategy's favourite must be positive to be played instead (0: the best mean)"),
    )
