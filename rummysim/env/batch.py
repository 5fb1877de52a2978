"""Many tables stepped together in the compiled core: ``Batch("basic", n_tables, players, seed)``.

Each table plays independent Basic hands (docs/rules.md section 1): table i's k-th hand is hand 0 of
game index ``i + k * n_tables`` of ``seed`` (so the same seed and actions give the same
trajectory whatever the threads). One ``step(actions)`` plays one move at every table: the tables
are split into one block per thread, each block one compiled call that releases the GIL (no Python
loop per table; a block has its own arrays, so threads never share an array's reference count, which
a ``prange`` over all tables did at every row view and which made two threads slower than one). A
table whose hand ends reports its reward and ``done`` and is dealt its next hand at once.

Arrays after ``reset()`` and each ``step`` (row i: table i):

============  ==========================  ==================================================
attribute     shape, dtype                contents
============  ==========================  ==================================================
``seat``      (n,) int64                  the seat to act
``mask``      (n, 1308) int8              1 on its legal moves (``moves`` action encoding)
``legal``     (n, MAX_LEGAL) int64        the same moves as a list, ``n_legal[i]`` of them
``n_legal``   (n,) int64
``reward``    (n, players) float32        the hand's points to its winner (``reward="win"``:
                                          1), 0 otherwise, on the step that ended it
``done``      (n,) bool                   the step ended the table's hand
============  ==========================  ==================================================

``observe()`` gives each table's observation for its seat to act, float32[n, obs_size] (layout in
``basic_core``; the scores block is 0, every episode being one hand).
"""

from __future__ import annotations

import itertools
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np

from ..run import UsageError
from .games import check_reward

VARIANTS = ("basic",)


class Batch:
    """``n_tables`` Basic tables of ``players`` seats under ``rules`` (see the module docstring)."""

    def __init__(self, variant: str = "basic", n_tables: int = 1024, players: int = 2, seed: int = 0,
                 rules=None, reward: str = "points", threads: int | None = None):
        from ..variants.basic import melds, moves
        from . import basic_core as C
        from .games import resolve_rules
        if variant not in VARIANTS:
            raise UsageError(f"variant = {variant!r}: Batch plays {', '.join(map(repr, VARIANTS))}")
        if not isinstance(n_tables, (int, np.integer)) or n_tables < 1:
            raise UsageError(f"n_tables = {n_tables!r}: allowed a whole number from 1")
        if not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**63:
            raise UsageError(f"seed = {seed!r}: allowed a whole number from 0 to 2**63 - 1")
        self.C = C
        self.players, self.n_tables, self.seed = players, int(n_tables), int(seed)
        self.rules = resolve_rules(variant, rules, players)
        self.win_reward = check_reward(reward) == "win"
        self._rules = self.rules.to_array(players)
        self._card_value = melds.CARD_VALUE
        self.num_actions = moves.NUM_ACTIONS
        self.obs_size = C.obs_size(players)
        n = self.n_tables
        self._scores = np.zeros((n, players), dtype=np.int64)
        self.episodes = np.zeros(n, dtype=np.int64)
        self.legal = np.zeros((n, moves.MAX_LEGAL), dtype=np.int64)
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
        """The arguments of tables ``a .. b-1``: their own state arrays (numba counts references per
        allocation) and views of the outputs."""
        rows = slice(a, b)
        t = self.C.new_tables(b - a, self.players)
        state = tuple(t[k] for k in ("masks", "ints", "stock", "pile", "t_mask", "t_kind", "t_lay", "n_ev", "rng",
                                     "buf"))
        return {"t": state, "rngs": t["rngs"], "known": t["known"], "first": a, "episodes": self.episodes[rows],
                "legal": self.legal[rows], "n_legal": self.n_legal[rows], "mask": self.mask[rows],
                "seat": self.seat[rows], "reward": self.reward[rows], "done": self.done[rows],
                "scores": self._scores[rows]}

    def _run(self, call) -> None:
        """``call(block)`` for every block, one thread each."""
        if self._pool is None:
            call(self._blocks[0])
        else:
            for f in [self._pool.submit(call, blk) for blk in self._blocks]:
                f.result()

    def reset(self) -> None:
        """Deal every table's first hand (game index i)."""
        self.episodes[:] = 0
        self.reward[:] = 0.0
        self.done[:] = False
        self._run(lambda b: self.C.batch_reset(b["t"], b["rngs"], b["known"], self._rules, self._card_value, self.seed,
                                               b["first"], self.n_tables, b["episodes"], b["legal"], b["n_legal"],
                                               b["mask"], b["seat"]))

    def step(self, actions: np.ndarray) -> None:
        """Play ``actions`` int64[n_tables], one legal move per table; raises ``UsageError`` (nothing played)
        when one is not legal."""
        actions = np.ascontiguousarray(actions, dtype=np.int64)
        if actions.shape != (self.n_tables,):
            raise UsageError(f"actions: expected shape ({self.n_tables},), got {actions.shape}")
        ok = (actions >= 0) & (actions < self.num_actions)
        ok[ok] = self.mask[np.flatnonzero(ok), actions[ok]] == 1
        if not ok.all():
            bad = int(np.flatnonzero(~ok)[0])
            raise UsageError(f"actions[{bad}] = {actions[bad]} is not legal at table {bad} (see mask)")
        self._run(lambda b: self.C.batch_step(
            b["t"], b["rngs"], b["known"], self._rules, self._card_value, self.seed, b["first"], self.n_tables,
            b["episodes"], actions[b["first"]:b["first"] + len(b["seat"])], self.win_reward, b["legal"],
            b["n_legal"], b["mask"], b["seat"], b["reward"], b["done"]))

    def random_actions(self, rng: np.random.Generator) -> np.ndarray:
        """A uniformly random legal move for every table (``rng``: a NumPy Generator)."""
        pick = (rng.random(self.n_tables) * self.n_legal).astype(np.int64)
        return self.legal[np.arange(self.n_tables), pick]

    def observe(self, out: np.ndarray | None = None) -> np.ndarray:
        """float32[n_tables, obs_size]: each table's observation for its seat to act."""
        if out is None:
            out = np.empty((self.n_tables, self.obs_size), dtype=np.float32)
        self._run(lambda b: self.C.batch_observe(b["t"], b["known"], b["scores"],
                                                 out[b["first"]:b["first"] + len(b["seat"])]))
        return out

    def state(self, i: int):
        """Table ``i``'s arrays (masks, ints, stock, pile, t_mask, t_kind, t_lay, n_ev, rng, buf): for tests
        and debugging, not for agents (they hold hidden cards)."""
        blk = next(b for b in self._blocks if b["first"] <= i < b["first"] + len(b["seat"]))
        return tuple(a[i - blk["first"]] for a in blk["t"])
