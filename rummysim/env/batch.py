"""Many tables stepped together in the compiled core: ``Batch(variant, n_tables, players, seed)``.

An episode is one unit of the variant's game: a Basic hand (docs/rules.md section 1) or a Shanghai
round (docs/rules.md 2.1-2.7). Table i's k-th episode is

* Basic: hand 0 of game index ``i + k * n_tables`` of ``seed`` (independent hands);
* Shanghai: round ``k % 10 + 1`` of game index ``i + (k // 10) * n_tables``: each table plays the
  ten rounds of a game in order (the contracts of 2.2 in turn), then the next game,

so the same seed and actions give the same trajectory whatever the threads. One ``step(actions)``
plays one move at every table: the tables are split into one block per thread, each block one
compiled call that releases the GIL (no Python loop per table; a block has its own arrays, the
rule vector included, so threads never share an array's reference count, which a ``prange`` over
all tables did at every row view and which made two threads slower than one). A table whose
episode ends reports its reward and ``done`` and is dealt its next episode at once.

Arrays after ``reset()`` and each ``step`` (row i: table i; A = ``num_actions``, Basic 1,308,
Shanghai 135,270; L = ``moves.MAX_LEGAL`` of the variant):

============  ==========================  ==================================================
attribute     shape, dtype                contents
============  ==========================  ==================================================
``seat``      (n,) int64                  the seat to act (Shanghai: also a seat offered
                                          the upcard to buy)
``mask``      (n, A) int8                 1 on its legal moves (the variant's ``moves``
                                          action encoding)
``legal``     (n, L) int64                the same moves as a list, ``n_legal[i]`` of them
``n_legal``   (n,) int64
``reward``    (n, players) float32        on the step that ended the episode, else 0:
                                          ``reward="points"`` Basic the hand's points to its
                                          winner, Shanghai minus each seat's penalty points
                                          of the round (rules 2.7); ``reward="win"`` 1 to
                                          the hand's (round's) winner, none after a
                                          stalemate
``done``      (n,) bool                   the step ended the table's episode
============  ==========================  ==================================================

``observe()`` gives each table's observation for its seat to act, float32[n, obs_size] (layout in
the variant's ``env_core``): Basic's scores block is 0, every episode being one hand;
Shanghai's holds the game's totals before the round.
"""

from __future__ import annotations

import itertools
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np
from numba import njit

from ..base.errors import UsageError
from ..variants import variant_named
from .games import check_reward, resolve_rules


@njit(cache=True)
def first_illegal(mask, actions):
    """The first table whose action (``actions`` int64[n]) is not a 1 of its row of ``mask``
    int8[n, A], else -1."""
    for i in range(actions.shape[0]):
        a = actions[i]
        if a < 0 or a >= mask.shape[1] or mask[i, a] != 1:
            return i
    return -1


@njit(cache=True)
def pick_legal(u, legal, n_legal, out):
    """``out[i]`` = ``legal[i, int(u[i] * n_legal[i])]``: the legal move a uniform draw ``u`` float64[n]
    in [0, 1) picks at each table."""
    for i in range(out.shape[0]):
        out[i] = legal[i, np.int64(u[i] * n_legal[i])]


class Batch:
    """``n_tables`` tables of ``variant`` at ``players`` seats (None: the variant's default) under
    ``rules`` (see the module docstring)."""

    def __init__(self, variant: str, n_tables: int = 1024, players: int | None = None, seed: int = 0,
                 rules=None, reward: str = "points", threads: int | None = None):
        variant = variant_named(variant)
        if not isinstance(n_tables, (int, np.integer)) or n_tables < 1:
            raise UsageError(f"n_tables = {n_tables!r}: allowed a whole number from 1")
        if not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**63:
            raise UsageError(f"seed = {seed!r}: allowed a whole number from 0 to 2**63 - 1")
        if players is None:
            players = variant.players[2]
        self.variant = variant
        self.C = variant.env_core
        self.players, self.n_tables, self.seed = players, int(n_tables), int(seed)
        self.rules = resolve_rules(variant, rules, players)
        self.win_reward = check_reward(reward) == "win"
        self.num_actions = self.C.NUM_ACTIONS
        self.obs_size = self.C.obs_size(players)
        n = self.n_tables
        self.episodes = np.zeros(n, dtype=np.int64)
        self.legal = np.zeros((n, self.C.MAX_LEGAL), dtype=np.int64)
        self.n_legal = np.zeros(n, dtype=np.int64)
        self.mask = np.zeros((n, self.num_actions), dtype=np.int8)
        self.seat = np.zeros(n, dtype=np.int64)
        self.reward = np.zeros((n, players), dtype=np.float32)
        self.done = np.zeros(n, dtype=bool)
        threads = threads or numba.get_num_threads()
        edges = np.linspace(0, n, min(threads, n) + 1).astype(int)
        self._blocks = [self._block(int(a), int(b)) for a, b in itertools.pairwise(edges)]
        self._pool = ThreadPoolExecutor(len(self._blocks)) if len(self._blocks) > 1 else None
        self.reset()

    def _block(self, a: int, b: int) -> dict:
        """The arguments of tables ``a .. b-1``: their own state arrays and shared arrays (the rule
        vector, scratch: numba counts references per allocation) and views of the outputs."""
        rows = slice(a, b)
        tables, shared = self.C.new_tables(b - a, self.players, self.rules.to_array(self.players))
        return {"tables": tables, "shared": shared, "first": a, "n": b - a, "episodes": self.episodes[rows],
                "legal": self.legal[rows], "n_legal": self.n_legal[rows], "mask": self.mask[rows],
                "seat": self.seat[rows], "reward": self.reward[rows], "done": self.done[rows]}

    def _run(self, call) -> None:
        """``call(block)`` for every block, one thread each."""
        if self._pool is None:
            call(self._blocks[0])
        else:
            for f in [self._pool.submit(call, blk) for blk in self._blocks]:
                f.result()

    def reset(self) -> None:
        """Deal every table's first episode (game index i; Shanghai its round 1)."""
        self.episodes[:] = 0
        self.reward[:] = 0.0
        self.done[:] = False
        self._run(lambda b: self.C.batch_reset(b["tables"], b["shared"], self.seed, b["first"], self.n_tables,
                                               b["episodes"], b["legal"], b["n_legal"], b["mask"], b["seat"]))

    def step(self, actions: np.ndarray) -> None:
        """Play ``actions`` int64[n_tables], one legal move per table; raises ``UsageError`` (nothing played)
        when one is not legal."""
        actions = np.ascontiguousarray(actions, dtype=np.int64)
        if actions.shape != (self.n_tables,):
            raise UsageError(f"actions: expected shape ({self.n_tables},), got {actions.shape}")
        bad = first_illegal(self.mask, actions)
        if bad >= 0:
            raise UsageError(f"actions[{bad}] = {actions[bad]} is not legal at table {bad} (see mask)")
        self._run(lambda b: self.C.batch_step(
            b["tables"], b["shared"], self.seed, b["first"], self.n_tables, b["episodes"],
            actions[b["first"]:b["first"] + b["n"]], self.win_reward, b["legal"], b["n_legal"], b["mask"], b["seat"],
            b["reward"], b["done"]))

    def random_actions(self, rng: np.random.Generator) -> np.ndarray:
        """A uniformly random legal move for every table (``rng``: a NumPy Generator; one ``rng.random``
        draw per table)."""
        out = np.empty(self.n_tables, dtype=np.int64)
        pick_legal(rng.random(self.n_tables), self.legal, self.n_legal, out)
        return out

    def observe(self, out: np.ndarray | None = None) -> np.ndarray:
        """float32[n_tables, obs_size]: each table's observation for its seat to act."""
        if out is None:
            out = np.empty((self.n_tables, self.obs_size), dtype=np.float32)
        elif out.shape != (self.n_tables, self.obs_size) or out.dtype != np.float32 or not out.flags.c_contiguous:
            raise UsageError(f"out: expected a C-contiguous float32 array of shape ({self.n_tables}, {self.obs_size})")
        self._run(lambda b: self.C.batch_observe(b["tables"], out[b["first"]:b["first"] + b["n"]]))
        return out

    def state(self, i: int) -> tuple:
        """Table ``i``'s arrays (the variant's ``env_core.new_tables``: Basic masks, ints, stock, pile, ...;
        Shanghai hands, ints, stock, pile, ...): for tests and debugging, not for agents (they hold
        hidden cards)."""
        blk = next(b for b in self._blocks if b["first"] <= i < b["first"] + b["n"])
        return tuple(a[i - blk["first"]] for a in blk["tables"])
