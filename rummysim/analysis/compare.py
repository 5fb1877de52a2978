"""Duplicate-deal matches between strategies, with paired intervals and SPRT
(duplicate deals cancel the luck of the cards; intervals and decisions as in ``rummysim.intervals``).

A match of candidate A against B at k players plays every deal (``--hands``)
or every game (``--games``) k times: in rotation r, A sits in seat r and B in
every other seat. The deal of (seed, game, hand) is the same in every
rotation, and the starting seat is fixed by the deal, so A starts exactly once
per block of k. A block's result is the mean over its k rotations:

* score: A's share of the block's hands (win 1, stalemate 1/k, loss 0), or of
  its games; 2 players: the pair's sum is one of 0, 1/2, 1, 3/2, 2 and the
  pentanomial counts [LL, LD, DD+WL, DW, WW] give the score's interval;
* points: A's points minus the mean of B's seats, per hand and per game;
* position split: A's score of each hand (round) it played at each position after the dealer (1:
  A starts, ..., k: A deals), a ratio of block totals. With 2 players the starter alternates
  with the deal, so A's seat says nothing about who started: the position does.

Blocks are independent, so means get t-intervals over blocks; the gain from
pairing is the variance of single results over the variance of block means.

Shanghai (``variant="shanghai"``) is played in games of ten rounds at 3-8
players, with the same rotations: the score is A's share of each game's win
(lowest total; ties share), points are penalty points (lower is better) per
round and per game, and a "stalemate" is a round that ended with no winner.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import itertools
import math
import shlex
import time
from pathlib import Path
from typing import Callable, Iterator

import numba
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from rich.table import Table
from rich.text import Text

from ..base.rules import RULES_VERSION, rule_flags
from ..base.variant import Variant
from ..base.version import __version__
from ..results import SCHEMA_VERSION, ChunkStore, hold_results_dir, write_json_atomic
from ..run import (ResumeError, RunSpec, _dask_chunks, _line, _restore_sigterm, _sigterm_as_interrupt, chunk_games,
                  chunk_size_for, chunk_tables, options_digest, play_chunk, refuse_before_holding, resumable_record,
                  rules_of_record, strategies_of_record, warm_up)
from ..strategy import Strategy, params_matrix
from ..variants import variant_of
from ..base import intervals as I
from . import rating
from ..base.summary import estimate_text, pp_text, signed, units_note
from ..base.terminal import fitted

OUT_STALEMATE = (1, 2, 3)  # outcomes with no winner


@dataclasses.dataclass
class Blocks:
    """Per-block results of one pair, accumulated chunk by chunk (float64[n] each)."""

    score: list = dataclasses.field(default_factory=list)          # A's mean score over the rotations
    points_diff: list = dataclasses.field(default_factory=list)    # A minus B points, summed over the block
    block_hands: list = dataclasses.field(default_factory=list)    # hands in the block (all rotations)
    block_stalemates: list = dataclasses.field(default_factory=list)  # stalemated hands in the block
    points_game: list = dataclasses.field(default_factory=list)    # games mode: A minus B final score
    single: list = dataclasses.field(default_factory=list)         # A's score in each rotation (unpaired view)
    position_score: list = dataclasses.field(default_factory=list)  # [n, k] A's hand scores summed by A's position
    position_units: list = dataclasses.field(default_factory=list)  # [n, k] hands A played at each position
    same: list = dataclasses.field(default_factory=list)           # 1 where every rotation's rows are alike
    hands: int = 0
    stopped_at: int | None = None   # blocks kept when an SPRT stopped the match early
    stop_game: int | None = None    # the first game (deal) index not played because it stopped

    def add(self, part: dict[str, np.ndarray], hands: int) -> None:
        """Add one chunk's blocks (``_chunk_blocks``: float64[n] each; ``by_seat``, ``position_*`` [n, k])."""
        self.score.append(part["score"])
        self.points_diff.append(part["points_diff"])
        self.block_hands.append(part["block_hands"])
        self.block_stalemates.append(part["block_stalemates"])
        if "points_game" in part:
            self.points_game.append(part["points_game"])
        self.single.append(part["by_seat"].ravel())
        self.position_score.append(part["position_score"])
        self.position_units.append(part["position_units"])
        # a chunk kept before the flag existed says nothing of it: never "identical"
        self.same.append(part.get("same", np.zeros(len(part["score"]))))
        self.hands += hands

    def all_same(self) -> bool:
        """Whether the match has blocks and every one was played identically in all its rotations."""
        same = np.concatenate(self.same) if self.same else np.zeros(0)
        return len(same) > 0 and bool(np.all(same == 1.0))

    def arrays(self):
        def cat(xs, empty=(0,)):
            return np.concatenate(xs) if xs else np.zeros(empty)

        return (cat(self.score), cat(self.points_diff), cat(self.block_hands), cat(self.block_stalemates),
                cat(self.points_game), cat(self.single), cat(self.position_score, (0, 0)),
                cat(self.position_units, (0, 0)))


def rotation_seats(a: Strategy, b: Strategy, players: int, r: int) -> list[Strategy]:
    """The seats of rotation ``r``: A in seat r, B in every other seat."""
    seats = [b] * players
    seats[r] = a
    return seats


def _rotation_specs(variant: Variant, a: Strategy, b: Strategy, players: int, seed: int, rules,
                    games: int | None, hands: int | None) -> list[RunSpec]:
    return [RunSpec(variant, players, rotation_seats(a, b, players, r), seed, rules, games, hands)
            for r in range(players)]


def _chunk_blocks(variant: Variant, chunks: list, players: int, games_mode: bool) -> tuple[dict, int]:
    """One chunk of each rotation (same game indices) as its blocks: ``({name: float64[n] (``by_seat``:
    A's score by its seat, ``position_score``/``position_units``: A's hand scores and hands by its
    position after the dealer, [n, k])}, hands played)``, what ``Blocks.add`` takes and a
    comparison's chunk keeps."""
    k = players
    rotation_rows = variant.rotation_rows
    n = len(chunks[0].games)
    score = np.zeros((n, k))
    pts = np.zeros((n, k))
    hands_in_block = np.zeros(n)
    stale_in_block = np.zeros(n)
    pgame = np.zeros((n, k))
    position_score = np.zeros((n, k))
    position_units = np.zeros((n, k))
    hands = 0
    block_of = []
    for r, ch in enumerate(chunks):
        idx, diff, stale, score[:, r], game_diff, unit_score, position = rotation_rows(ch, r, k, games_mode)
        block_of.append(idx)
        hands += len(idx)
        np.add.at(position_score, (idx, position), unit_score)
        np.add.at(position_units, (idx, position), 1.0)
        np.add.at(pts[:, r], idx, diff)
        np.add.at(hands_in_block, idx, 1.0)
        np.add.at(stale_in_block, idx, stale.astype(np.float64))
        if games_mode:
            pgame[:, r] = game_diff
    part = {"score": score.mean(axis=1), "points_diff": pts.sum(axis=1), "block_hands": hands_in_block,
            "block_stalemates": stale_in_block, "by_seat": score, "position_score": position_score,
            "position_units": position_units, "same": _same_in_every_rotation(chunks, block_of, n)}
    if games_mode:
        part["points_game"] = pgame.mean(axis=1)
    return part, hands


def _same_in_every_rotation(chunks: list, block_of: list, n: int) -> np.ndarray:
    """float64[n]: 1 for a block whose every rotation has the same rows as the first (every hand's
    and every seat's, and the game's), seat by seat: the deal was played identically whoever sat
    where (two copies of one strategy), else 0. ``block_of``: each rotation's block index per hand row."""
    first = chunks[0]
    counts = np.bincount(block_of[0], minlength=n)
    same = np.ones(n, dtype=bool)

    def units(ch):   # a hand row with its seats' rows, as one row
        return np.concatenate([ch.hand_rows.reshape(len(ch.hand_rows), -1),
                               ch.seat_rows.reshape(len(ch.seat_rows), -1)], axis=1)

    base = units(first)
    for ch, idx in zip(chunks[1:], block_of[1:]):
        same &= np.bincount(idx, minlength=n) == counts
        rows = units(ch)
        if rows.shape == base.shape and np.array_equal(idx, block_of[0]):
            differs = np.any(rows != base, axis=1)
            same &= np.bincount(idx, weights=differs, minlength=n) == 0
        else:   # the rotations played other numbers of hands: block by block where the counts agree
            start0, start = np.searchsorted(block_of[0], np.arange(n)), np.searchsorted(idx, np.arange(n))
            for b in np.flatnonzero(same):
                same[b] = np.array_equal(rows[start[b]:start[b] + counts[b]], base[start0[b]:start0[b] + counts[b]])
        if first.game_rows is not None and ch.game_rows is not None:
            same &= np.all(ch.game_rows == first.game_rows, axis=1)
    return same.astype(np.float64)


#: the blocks' [n, k] arrays, kept as columns ``<name>:0``, ``<name>:1``...
_BLOCK_MATRICES = ("by_seat", "position_score", "position_units")


def _blocks_table(part: dict):
    """A chunk's blocks as an Arrow table (an [n, k] array as a column per seat or position), kept
    with the chunk."""
    cols = {name: pa.array(v) for name, v in part.items() if name not in _BLOCK_MATRICES}
    for name in _BLOCK_MATRICES:
        cols.update({f"{name}:{s}": pa.array(part[name][:, s]) for s in range(part[name].shape[1])})
    return pa.table(cols)


def _blocks_of_table(table) -> dict:
    """``_blocks_table``'s inverse."""
    cols = {name: table.column(name).to_numpy() for name in table.column_names}
    part = {n: v for n, v in cols.items() if ":" not in n}
    for name in _BLOCK_MATRICES:
        columns = sorted((n for n in cols if n.split(":")[0] == name), key=lambda n: int(n.split(":")[1]))
        part[name] = np.stack([cols[n] for n in columns], axis=1)
    return part


def _ratio(y: np.ndarray, m: np.ndarray, share: bool = False) -> tuple[float, float, float, int]:
    """sum(y) / sum(m) over blocks with its interval over the blocks with a nonzero ``m``, and their
    number: ``intervals.share_ratio_ci`` for a ``share`` (0 <= y <= m: a rate), else the delta-method
    t-interval of ``intervals.ratio_ci``."""
    n = I.contributing_units(m)
    ci = I.share_ratio_ci if share else I.ratio_ci
    return (*ci(n, float(y.sum()), float(m.sum()), float((y * y).sum()), float((y * m).sum()),
                float((m * m).sum())), n)


def _estimate(x: float, lo: float, hi: float, n: int) -> dict:
    """An estimate as JSON: value, 95% interval and ``n``, the units (blocks, pairs) it rests on."""
    return {"estimate": float(x) + 0.0, "ci95": [float(lo) + 0.0, float(hi) + 0.0], "n": int(n)}   # + 0.0: never -0.0


#: what a comparison whose every deal was played identically in all its seatings says instead of a verdict
IDENTICAL = "no difference: every deal played identically"
#: why such a match has no interval nor p-value
IDENTICAL_WHY = "every deal played identically"


def summarise_pair(blocks: Blocks, players: int, sprt: tuple[float, float] | None = None,
                   alpha: float = 0.05, beta: float = 0.05, elo_model: str = "logistic") -> dict:
    """Headline statistics of one pair from its blocks. When an SPRT decided (stopped the match, early
    or on its last look), ``"sequential": True`` marks the fixed-sample estimates as biased (toward the
    accepted hypothesis' side: ``sequential_note``) and their intervals and p-values as not valid as
    printed (they assume the number of deals was fixed in advance). ``"identical": True`` where every block was played identically in all its rotations
    (``Blocks.all_same``: every hand's and seat's rows alike whoever sat where, what two copies of one
    strategy do): then the win share, its Elo and the points have no interval and there is no
    p-value (the match is out of the Holm family); ``"test"`` names the test of ``"p_value"``
    (``intervals.share_test``: None where there is none)."""
    score, pdiff, bhands, bstale, pg, single, pos_score, pos_units = blocks.arrays()
    k = players
    n = len(score)
    out: dict = {"blocks": n, "hands": blocks.hands,
                 # the rotations of one deal are not independent: an interval over blocks
                 "stalemate_rate": _estimate(*_ratio(bstale, bhands, share=True))}
    # the interval and the p-value of one test (``intervals.win_share_interval``): they never disagree
    m, lo, hi = I.win_share_ci(score, 1 / k)
    out["win_share"] = _estimate(m, lo, hi, n)
    out["win_share_minus_fair"] = _estimate(m - 1 / k, lo - 1 / k, hi - 1 / k, n)
    out["p_value"], out["test"] = I.share_test(score, 1 / k)
    identical = blocks.all_same()
    if identical:   # nothing varied with the seating: nothing to test, no interval to give
        out["identical"] = True
        out["p_value"], out["test"] = None, f"no test: {IDENTICAL_WHY}"
        for name in ("win_share", "win_share_minus_fair"):
            out[name]["ci95"] = [math.nan, math.nan]
            out[name]["no_interval"] = IDENTICAL_WHY
    # A's points minus the mean of B's seats (B's own at 2 players) over all hands played: a ratio
    # of block totals (blocks of games differ in length), with its interval by the delta method
    out["points_per_hand_diff"] = _estimate(*_ratio(pdiff, bhands))
    if len(pg):
        out["points_per_game_diff"] = _estimate(*I.mean_ci(pg), len(pg))
    if identical:
        for name in ("points_per_hand_diff", "points_per_game_diff"):
            if name in out:
                out[name].update(ci95=[math.nan, math.nan], no_interval=IDENTICAL_WHY)
    out["variance_reduction"] = float(I.variance_reduction(score, single))
    out["position_split"] = [{"position": q + 1, "who": position_words(q, k),
                              **_estimate(*_ratio(pos_score[:, q], pos_units[:, q], share=True))} for q in range(k)]
    if k == 2:
        counts = I.pentanomial(score * 2)
        out["pentanomial"] = dict(zip(I.PAIR_BINS, (int(c) for c in counts)))
        out["elo"] = _elo_estimate(I.elo_ci((m, *out["win_share"]["ci95"])), n)
        if identical:
            out["elo"]["no_interval"] = IDENTICAL_WHY
        if elo_model == "normalized":
            out["nelo"] = float(I.nelo(counts))
        if sprt is not None:
            llr = I.sprt_llr(counts, *sprt, model=elo_model)
            lower, upper = I.sprt_bounds(alpha, beta)
            out["sprt"] = {"elo0": sprt[0], "elo1": sprt[1], "alpha": alpha, "beta": beta, "elo_model": elo_model,
                           "llr": float(llr), "llr_method": LLR_METHOD, "bounds": [lower, upper],
                           "decision": I.sprt_decision(llr, alpha, beta), "every": I.SPRT_EVERY}
            if blocks.stopped_at is not None:
                out["sprt"]["stopped_after_blocks"] = blocks.stopped_at
                out["sprt"]["stop_game"] = blocks.stop_game
            if out["sprt"]["decision"] != "continue":   # on its last look too (a cap of 600 decided at 600)
                out["sequential"] = True
    return out


#: how the SPRT's log-likelihood ratio is computed, in the JSON and docs/commands/compare.md
LLR_METHOD = ("normal approximation of the GSPRT (fishtest LLR_alt2), not the exact LLR_logistic, except where "
              "every pair fell in one bin (there the exact LLR_logistic)")


def _elo_estimate(elo_lo_hi: tuple[float, float, float], n: int) -> dict:
    """The Elo as JSON (``_estimate``), with ``"unbounded": "above"`` (``"below"``) where the win share
    is 1 (0), so its Elo and its interval's upper (lower) bound are infinite: JSON has no infinity, and
    the report must say what the terminal says (``elo_text``)."""
    est, lo, hi = elo_lo_hi
    out = _estimate(est, lo, hi, n)
    if est == math.inf or hi == math.inf:
        out["unbounded"] = "above"
    elif est == -math.inf or lo == -math.inf:
        out["unbounded"] = "below"
    return out


def elo_text(d: dict) -> str:
    """The Elo of ``_elo_estimate`` in words: ``"+52.5 [-77.0, +199.3]"``; where A won (lost) every pair
    the estimate and the upper (lower) bound are infinite, and print as such: ``"unbounded [+177.5,
    unbounded]"``."""
    return estimate_text(d, elo_number)


def elo_number(x: float) -> str:
    """One Elo figure: ``"+52.5"``, never ``"-0.0"``; an infinite one (a clean sweep) ``"unbounded"``."""
    return "unbounded" if math.isinf(x) else signed(x, 1)


def position_words(q: int, k: int) -> str:
    """Candidate A's position ``q`` after the dealer (0: it plays first) at ``k`` players, in words."""
    if k == 2:
        return "A starts" if q == 0 else "B starts"
    if q == 0:
        return "starter"
    return "dealer (plays last)" if q == k - 1 else f"{q + 1}{'nd' if q == 1 else 'rd' if q == 2 else 'th'} to play"


def _position_text(s: dict, p: dict, k: int) -> str:
    """A row of the position split in words: "when expert starts", "as 2nd to play", "as dealer"."""
    if k == 2:
        return f"when {p['a'] if s['position'] == 1 else p['b']} starts"
    return "as " + s["who"].split(" (")[0]


def _elo_text(x: float) -> str:
    """An Elo (difference) as ``+10``/``-2.5``/``0``: never ``-0``."""
    return f"{_no_negative_zero(x):+g}" if x != 0 else "0"


def sprt_words(s: dict, a: str, b: str, blocks: int | None = None) -> str:
    """The SPRT verdict in words: which hypothesis the data favour at which error rates, not an
    estimate of the difference (an SPRT tests Elo1 against Elo0; it does not bound the Elo). A match
    whose SPRT decided nothing by its last deal (``blocks``) says it reached its cap undecided."""
    model = s.get("elo_model", "logistic")
    what = (f"Elo1 = {_elo_text(s['elo1'])} vs Elo0 = {_elo_text(s['elo0'])}, {model} Elo of {a} over {b}, "
            f"alpha = {s['alpha']:g}, beta = {s['beta']:g}")
    if s["decision"] == "H1":
        return (f"H1 accepted ({what}): the data favour {_elo_text(s['elo1'])} over {_elo_text(s['elo0'])}; "
                f"this is not an estimate of the difference (LLR {s['llr']:.2f} >= {s['bounds'][1]:.2f})")
    if s["decision"] == "H0":
        return (f"H0 accepted ({what}): the data favour {_elo_text(s['elo0'])} over {_elo_text(s['elo1'])}; "
                f"this is not an estimate of the difference (LLR {s['llr']:.2f} <= {s['bounds'][0]:.2f})")
    cap = f" at the cap of {blocks:,} deals" if blocks is not None else ""
    return (f"undecided{cap} ({what}): LLR {s['llr']:.2f} within "
            f"[{s['bounds'][0]:.2f}, {s['bounds'][1]:.2f}]; neither hypothesis accepted")


def _truncate(part: dict, keep: int) -> dict:
    """A chunk's blocks cut to its first ``keep`` blocks."""
    return {name: v[:keep] for name, v in part.items()}


def _sprt_look(part: dict, before: int, running: np.ndarray, sprt, alpha: float, beta: float,
               model: str) -> int | None:
    """Look at the SPRT after every ``intervals.SPRT_EVERY`` blocks of the match inside one chunk's
    blocks (``part``, the match's blocks ``before`` .. ``before + n - 1``): ``running`` (the pentanomial
    counts of every block so far, before this chunk) is brought up to the chunk's end, or to the
    first look that decides. Returns the number of the chunk's blocks to keep if the SPRT stopped
    in it, else None. The stepping and stopping rule is ``intervals.sprt_walk``'s."""
    bins = np.rint(np.asarray(part["score"]) * 4).astype(np.int64)   # pair score / 2 in quarters: 0..4
    n = len(bins)
    every = I.SPRT_EVERY
    seg = (before + np.arange(n)) // every - before // every          # which step each block falls in
    n_seg = int(seg[-1]) + 1 if n else 0
    steps = np.bincount(seg * 5 + bins, minlength=n_seg * 5).reshape(n_seg, 5)
    ends = (before // every + np.arange(1, n_seg + 1)) * every - before   # blocks of the chunk at each step's end
    looks = int(np.sum(ends <= n))                                     # steps ending on a look
    if looks:
        first, _ = I.sprt_walk(steps[:looks], running, *sprt, alpha, beta, model)
        if first >= 0:
            running += steps[:first + 1].sum(axis=0)
            return int(ends[first])
    running += steps.sum(axis=0)
    return None


def play_pair(variant: Variant, a: Strategy, b: Strategy, players: int, seed: int, rules,
              games: int | None, hands: int | None, workers: int | None = None, chunk_size: int | None = None,
              sprt: tuple[float, float] | None = None, alpha: float = 0.05, beta: float = 0.05,
              store: ChunkStore | None = None, pair_index: int = 0,
              on_chunk: Callable[[int, int], None] | None = None,
              elo_model: str = "logistic", client=None) -> tuple[Blocks, list]:
    """Play the duplicate match of A against B; stop early when an SPRT decides. The SPRT looks
    after every ``intervals.SPRT_EVERY`` blocks of the match (whatever the chunk size); when it
    decides inside a chunk, the chunk is cut there: its blocks and its rows (those of the games
    before the stopping one) are all that is kept, saved and summarised. With a ``store``,
    each chunk (every rotation's rows and the chunk's blocks) is kept as chunk ``(pair_index, k)``,
    and chunks already finished there (a resumed comparison) are read back instead of played.
    ``client``: a ``distributed.Client`` whose workers play the chunks (``pair_chunks``; else this
    process, with ``workers`` threads); the chunks are taken in chunk order either way, so the
    result is the same. Returns the blocks and the keys of the chunks, in order."""
    specs = _rotation_specs(variant, a, b, players, seed, rules, games, hands)
    if chunk_size is None and client is not None:
        chunk_size = cluster_chunk_size(specs[0], client)
    size = chunk_size_for(specs[0], chunk_size)
    n_chunks = -(-specs[0].count // size)
    blocks = Blocks()
    keys = []
    done = 0
    running = np.zeros(5, dtype=np.int64)   # the SPRT's pentanomial counts so far
    sequential = sprt is not None and players == 2
    stream = pair_chunks(specs, size, store, pair_index, workers, client)
    with contextlib.closing(stream):   # an SPRT stop cancels the chunks still on the cluster
        for k, part, played, chunks in stream:
            key = (pair_index, k)
            games_k = chunk_games(specs[0], k, size)[:len(part["score"])]
            stop = _sprt_look(part, done, running, sprt, alpha, beta, elo_model) if sequential else None
            if stop is not None and stop < len(part["score"]):   # (a chunk read back was cut when saved)
                part = _truncate(part, stop)
                games_k = games_k[:stop]
                played = int(round(part["block_hands"].sum()))
            if store is not None and chunks is not None:   # played now, not read back
                _keep_chunk(store, key, specs, chunks, part, games_k, played, stop is not None)
            blocks.add(part, played)
            keys.append(key)
            done += len(part["score"])
            if on_chunk:
                on_chunk(done, blocks.hands)
            if stop is not None:
                if k < n_chunks - 1 or stop < len(chunk_games(specs[0], k, size)):
                    blocks.stopped_at, blocks.stop_game = done, int(games_k[-1]) + 1
                break
    return blocks, keys


def _keep_chunk(store: ChunkStore, key, specs: list[RunSpec], chunks: list, part: dict, games_k: np.ndarray,
                played: int, cut: bool) -> None:
    """Write a match's chunk ``key`` to ``store``: every rotation's rows (``cut``: only those of the
    games ``games_k``, where the SPRT stopped) and its blocks."""
    tables = _pair_tables(specs, chunks, key[0])
    if cut:
        tables = {name: t.filter(pc.less(t.column("game"), int(games_k[-1]) + 1)) for name, t in tables.items()}
    tables["blocks"] = _blocks_table(part)
    store.write(key, tables, {"first": int(games_k[0]), "stop": int(games_k[-1]) + 1, "hands": played})


def pair_chunks(specs: list[RunSpec], size: int, store: ChunkStore | None, pair_index: int,
                workers: int | None, client=None) -> Iterator[tuple[int, dict, int, list | None]]:
    """Every chunk of a match (``specs``: its rotations), in chunk order: ``(k, blocks, hands played,
    each rotation's chunk)``. A chunk finished in ``store`` is read back (its rows are not: None);
    the others are played by ``client``'s workers (``_dask_chunks``, in order, a window at a time:
    ``pair_chunk_task``) or here with ``workers`` threads. Rows come back only with a ``store``."""
    n_chunks = -(-specs[0].count // size)
    kept = {k for k in range(n_chunks) if store is not None and store.record((pair_index, k)) is not None}
    todo = (k for k in range(n_chunks) if k not in kept)
    rows = store is not None
    if client is not None:
        played = _dask_chunks(specs, todo, size, client, task=functools.partial(pair_chunk_task, rows=rows),
                              ordered=True)
    else:
        played = _local_pair_chunks(specs, todo, size, workers, rows)
    with contextlib.closing(played):
        for k in range(n_chunks):
            if k in kept:
                part = _blocks_of_table(store.read((pair_index, k))["blocks"])
                yield k, part, store.record((pair_index, k))["hands"], None
            else:
                j, (part, hands, chunks) = next(played)
                assert j == k, f"chunk {j} came in the place of chunk {k}"
                yield k, part, hands, chunks


def _local_pair_chunks(specs: list[RunSpec], todo, size: int, workers: int | None,
                       rows: bool) -> Iterator[tuple[int, tuple]]:
    """Chunks ``todo`` of a match played in this process with ``workers`` threads: ``(k, _pair_chunk)``."""
    rules_array = specs[0].rules.to_array(specs[0].players)
    params = [params_matrix(s.strategies) for s in specs]
    numba.set_num_threads(min(workers or numba.config.NUMBA_NUM_THREADS, numba.config.NUMBA_NUM_THREADS))
    for k in todo:
        yield k, _pair_chunk(specs, k, size, rules_array, params, rows)


def pair_chunk_task(specs: list[RunSpec], k: int, size: int, rows: bool = True,
                    threads: int = 1) -> tuple[int, tuple]:
    """Chunk ``k`` of every rotation of a match, played where this runs (a Dask worker, which needs
    rummysim, not the strategy files: the strategies travel in ``specs``): ``(k, _pair_chunk)``."""
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    rules_array = specs[0].rules.to_array(specs[0].players)
    return k, _pair_chunk(specs, k, size, rules_array, [params_matrix(s.strategies) for s in specs], rows)


def _pair_chunk(specs: list[RunSpec], k: int, size: int, rules_array: np.ndarray, params: list,
                rows: bool) -> tuple[dict, int, list | None]:
    """Chunk ``k`` of every rotation of a match: ``(its blocks, hands played, each rotation's
    chunk)``; the chunks (the rows) only if asked for (``rows``), else None."""
    games_k = chunk_games(specs[0], k, size)
    chunks = [play_chunk(spec, games_k, rules_array, params[r]) for r, spec in enumerate(specs)]
    part, played = _chunk_blocks(specs[0].variant, chunks, len(specs), specs[0].games is not None)
    return part, played, chunks if rows else None


#: a match on a cluster, with no chunk size given, is cut into about this many chunks per worker thread
CHUNKS_PER_THREAD = 4
#: ... of at least this many games or hands each
MIN_CLUSTER_CHUNK = 1000


def cluster_chunk_size(spec: RunSpec, client) -> int:
    """A chunk size that gives every thread of ``client``'s cluster chunks of a match to play (the
    default size may be a whole match, one chunk): no larger than the default, no smaller than
    ``MIN_CLUSTER_CHUNK``. The blocks do not depend on the chunk size (an SPRT's looks neither)."""
    threads = max(sum(client.nthreads().values()), 1)
    share = -(-spec.count // (threads * CHUNKS_PER_THREAD))
    return min(chunk_size_for(spec), max(share, MIN_CLUSTER_CHUNK))


def _pair_tables(specs: list[RunSpec], chunks: list, pair_index: int) -> dict:
    """The rows of one chunk of every rotation, by table, each row marked with its pair and rotation."""
    parts: dict[str, list] = {}
    for r, ch in enumerate(chunks):
        for name, table in chunk_tables(specs[r], ch).items():
            n = table.num_rows
            parts.setdefault(name, []).append(table.append_column("pair", _const(pair_index, n))
                                              .append_column("rotation", _const(r, n)))
    return {name: pa.concat_tables(ts) for name, ts in parts.items()}


def _const(value: int, n: int):
    return pa.array(np.full(n, value, dtype=np.int16))


#: the fields of compare.json that determine a comparison's rows (hashed into ``options_sha256``)
COMPARE_FIELDS = ("variant", "mode", "count", "players", "seed", "rules", "rules_version", "strategies",
                  "chunk_size", "sprt", "schema_version")


def compare(variant: Variant, strategies: list[Strategy], players: int, seed: int, rules,
            games: int | None, hands: int | None, workers: int | None = None, chunk_size: int | None = None,
            sprt: tuple[float, float] | None = None, alpha: float = 0.05, beta: float = 0.05,
            out_dir: Path | None = None, on_chunk: Callable[[int, int], None] | None = None,
            resume: bool = False, elo_model: str = "logistic", client=None) -> dict:
    """Every pair of ``strategies`` in a duplicate match; the whole result as one JSON-ready dict.

    With ``out_dir`` the rows are saved like a run's (``results.ChunkStore``: chunk by chunk, each
    checked, joined into Parquet at the end) and ``compare.json`` records the options (with their
    hash) from the start, so an interrupted comparison is finished by ``resume=True`` (``rummysim
    compare --resume DIR``), which reads its finished chunks back and plays the rest.
    ``client``: a ``distributed.Client`` whose workers play the chunks (``play_pair``); the result
    is the same as this process's, and the rows are gathered here, to ``out_dir``."""
    size = chunk_size_for(RunSpec(variant, players, [strategies[0]] * players, seed, rules, games, hands), chunk_size)
    result = {
        "rummysim_version": __version__, "schema_version": SCHEMA_VERSION, "rules_version": RULES_VERSION,
        "status": "running", "variant": variant.name, "players": players, "seed": seed,
        "mode": "games" if games is not None else "hands", "count": games if games is not None else hands,
        "chunk_size": size,  # where an SPRT may stop: part of what reproduces it
        "sprt": None if sprt is None else {"elo0": sprt[0], "elo1": sprt[1], "alpha": alpha, "beta": beta,
                                           "elo_model": elo_model},
        "elo_model": elo_model,   # of the SPRT (the printed Elo is logistic; nelo is normalized)
        "rules": rules.as_dict(players), "rule_hash": rules.digest(players),
        "strategies": [{"name": s.name, "source": s.source, "sha256": s.sha256,
                        **({"path": str(Path(s.source).resolve())} if s.source.endswith(".toml") else {})}
                       for s in strategies],
        "pairs": [],
    }
    result["options_sha256"] = options_digest(result, COMPARE_FIELDS)
    if out_dir is None:
        return _compare(variant, result, strategies, rules, workers, on_chunk, None, client=client)
    with hold_results_dir(out_dir):
        store = ChunkStore(out_dir, result["options_sha256"]["all"], keep=resume)
        if resume:
            store.verified()   # damaged chunks are dropped, and played again
        write_json_atomic(out_dir / "compare.json", result)
        return _compare(variant, result, strategies, rules, workers, on_chunk, store, out_dir, client)


def distinct_names(strategies: list[Strategy]) -> list[str]:
    """The strategies' names as a comparison labels them, one label each: a name met again (``greedy``
    and a copy of its file, also named ``greedy``) gets its file's name, ``greedy (g2.toml)``, or its
    place in the list where that is not enough, ``greedy (#2)``: two copies had two identical labels."""
    labels: list[str] = []
    for i, s in enumerate(strategies):
        label = s.name
        if label in labels:
            label = f"{s.name} ({Path(s.source).name})"
        if label in labels:
            label = f"{s.name} (#{i + 1})"
        labels.append(label)
    return labels


def _compare(variant: Variant, result: dict, strategies: list[Strategy], rules, workers, on_chunk, store,
             out_dir=None, client=None) -> dict:
    if client is None:   # on a cluster the workers compile (or load) the engine
        warm_up(result["players"], variant)
    players, sprt = result["players"], result["sprt"]
    model = (sprt or {}).get("elo_model", result.get("elo_model", "logistic"))
    games, hands = (result["count"], None) if result["mode"] == "games" else (None, result["count"])
    start = time.perf_counter()
    order = []
    labels = distinct_names(strategies)
    matches = []   # (a, b, A's block scores) of every match: the rating list's data
    previous_sigterm = _sigterm_as_interrupt()   # ``kill`` stops it like Ctrl-C: what finished is kept
    try:
        for i, (x, y) in enumerate(itertools.combinations(range(len(strategies)), 2)):
            a, b = strategies[x], strategies[y]
            blocks, keys = play_pair(variant, a, b, players, result["seed"], rules, games, hands, workers,
                                     result["chunk_size"], None if sprt is None else (sprt["elo0"], sprt["elo1"]),
                                     *((sprt["alpha"], sprt["beta"]) if sprt else (0.05, 0.05)),
                                     store, i, on_chunk, model, client)
            order += keys
            matches.append((x, y, blocks.arrays()[0]))
            result["pairs"].append({"a": labels[x], "b": labels[y], "a_index": x, "b_index": y,
                                    **summarise_pair(blocks, players, None if sprt is None else
                                                     (sprt["elo0"], sprt["elo1"]),
                                                     *((sprt["alpha"], sprt["beta"]) if sprt else (0.05, 0.05)),
                                                     model)})
        if store is not None:
            store.finish(order)
        result["status"] = "complete"
    except KeyboardInterrupt:
        result["status"] = "interrupted"
        raise
    finally:
        _restore_sigterm(previous_sigterm)
        result["wall_seconds"] = round(time.perf_counter() - start, 3)
        if store is not None:
            if result["status"] != "complete":
                store.abandon()
                result["finished_chunks"] = len(store.records())
            write_json_atomic(out_dir / "compare.json", result)
    result.update(_crosstable(strategies, result["pairs"], players))
    if len(strategies) == 2:  # the headline estimates at the top level too
        p = result["pairs"][0]
        result.update({k: p[k] for k in ("win_share", "points_per_hand_diff", "elo") if k in p})
    if len(strategies) >= 3 and "no_difference" not in result:   # identical play rates nothing
        result["rating"] = rating.rating_list(labels, matches, players, result["seed"])
        stopped = [f"{p['a']} vs {p['b']}" for p in result["pairs"] if p.get("sequential")]
        if stopped:   # its blocks are those of a stop: the ratings lean as the match's estimates do
            result["rating"]["sequential"] = stopped
    result["reproduce"] = reproduce_line(result)
    result["provenance"] = provenance_line(result)
    if out_dir is not None:
        write_json_atomic(out_dir / "compare.json", result)
        if "rating" in result:
            rating.write_files(out_dir, result["rating"], rating.scope(result))
    return result


def resume_compare(out_dir: Path, workers: int | None = None, on_chunk=None, client=None) -> dict:
    """Finish an interrupted comparison in ``out_dir`` with its own options (``ResumeError`` if it cannot);
    ``client``: a ``distributed.Client`` whose workers play the missing chunks."""
    out_dir = Path(out_dir)
    refuse_before_holding(out_dir, lambda d: _resumable_compare(d, workers))
    with hold_results_dir(out_dir):
        args, sprt = _resumable_compare(out_dir, workers)
        return compare(*args, out_dir=out_dir, on_chunk=on_chunk, resume=True,
                       elo_model=(sprt or {}).get("elo_model", "logistic"), client=client)


def _resumable_compare(out_dir: Path, workers: int | None) -> tuple[tuple, dict | None]:
    """``compare``'s arguments and SPRT settings of the unfinished comparison in ``out_dir``;
    ``ResumeError`` (one line) if there is none."""
    try:
        record = resumable_record(out_dir, "compare.json", COMPARE_FIELDS, "the comparison")
        strategies = strategies_of_record(record, "the comparison started")
        games, hands = (record["count"], None) if record["mode"] == "games" else (None, record["count"])
        sprt = record["sprt"]
        args = (variant_of(record), strategies, record["players"], record["seed"], rules_of_record(record), games, hands, workers,
                record["chunk_size"], None if sprt is None else (sprt["elo0"], sprt["elo1"]),
                *((sprt["alpha"], sprt["beta"]) if sprt else (0.05, 0.05)))
        return args, sprt
    except ResumeError:
        raise
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ResumeError(f"--resume {out_dir}: not a resumable rummysim comparison ({_line(e)})") from None


def verdict(p: dict, p_holm: float, players: int) -> str:
    """One match's verdict in words, from its summary (``summarise_pair``) and Holm-adjusted p-value:
    the SPRT's decision where one ran (or that it reached the cap undecided), "no difference" where
    the match was played identically, no verdict where there is no test, else the test's."""
    if p.get("identical"):
        return IDENTICAL + (f" (the SPRT: {p['sprt']['decision']} accepted)" if p.get("sequential") else "")
    if "sprt" in p and p.get("sequential"):   # the SPRT's verdict is the verdict: the fixed-sample p claims nothing
        return f"decided by SPRT: {p['sprt']['decision']} accepted"
    if "sprt" in p:
        return (f"undecided: the SPRT reached the cap of {p['blocks']:,} deals without accepting either "
                f"hypothesis")
    if p.get("p_value") is None or math.isnan(p_holm):
        return f"none ({p.get('test', 'no test')})"
    test = f"the share interval's test over {p['blocks']:,} blocks"
    if p_holm < 0.05:
        better = p["a"] if p["win_share"]["estimate"] > 1 / players else p["b"]
        return f"{better} is better (Holm-adjusted {_p_text(p_holm)}, {test})"
    return f"no significant difference (Holm-adjusted {_p_text(p_holm)}, {test})"


def _crosstable(strategies: list[Strategy], pairs: list[dict], players: int) -> dict:
    """Crosstable of win shares, Holm-corrected verdicts (``verdict``; a match stopped by its SPRT is
    left out of the family: its p-value claims nothing) and an overall ranking; ``"no_difference"``
    when every match was played identically."""
    m = len(strategies)
    adjusted = I.holm_adjust([None if "sprt" in p else p.get("p_value") for p in pairs])
    table = [[None] * m for _ in range(m)]
    for p, adj in zip(pairs, adjusted):
        p["p_holm"] = None if math.isnan(adj) else float(adj)
        p["verdict"] = verdict(p, adj, players)
        ws = p["win_share"]
        table[p["a_index"]][p["b_index"]] = ws
        if players == 2:  # B's share against A is the rest (with 3+ players A faces a field of B: no mirror)
            table[p["b_index"]][p["a_index"]] = _estimate(1 - ws["estimate"], 1 - ws["ci95"][1], 1 - ws["ci95"][0],
                                                          ws["n"]) | ({"no_interval": ws["no_interval"]}
                                                                      if "no_interval" in ws else {})
    # ranking: mean win share minus the fair share over all of a strategy's matches
    scores = []
    for s in range(m):
        edges = []
        for p in pairs:
            d = p["win_share"]["estimate"] - 1 / players
            if p["a_index"] == s:
                edges.append(d)
            elif p["b_index"] == s:  # B fills k-1 seats: each of them gives up its share of A's edge
                edges.append(-d / (players - 1))
        scores.append(float(np.mean(edges)) + 0.0)
    # edges equal up to rounding share a rank (two copies of one strategy are not ranked one above the
    # other), and are listed in the order given
    rank = [1 + sum(x > scores[s] + I.TIE for x in scores) for s in range(m)]
    labels = distinct_names(strategies)
    ranking = [{"rank": rank[s], "name": labels[s], "mean_edge": scores[s]}
               for s in sorted(range(m), key=lambda s: (rank[s], s))]
    out = {"crosstable": {"names": labels, "win_share": table}, "ranking": ranking}
    if pairs and all(p.get("identical") for p in pairs):
        out["no_difference"] = IDENTICAL
    return out


def reproduce_line(result: dict) -> str:
    """The command that reproduces a comparison (non-default rules included), one line a shell accepts
    (paths quoted as needed); what it ran with is ``provenance_line``."""
    files = " ".join(shlex.quote(s["source"]) for s in result["strategies"])
    variant = variant_of(result)
    rules = f" --variant {variant.name}" + "".join(f" {shlex.quote(flag)}"
                                                   for flag in rule_flags(variant, result["rules"], result["players"]))
    sprt = next((p["sprt"] for p in result["pairs"] if "sprt" in p), None)
    if sprt:
        rules += f" --sprt {sprt['elo0']:g} {sprt['elo1']:g} --alpha {sprt['alpha']:g} --beta {sprt['beta']:g}"
        if sprt.get("elo_model", "logistic") != "logistic":
            rules += f" --elo-model {sprt['elo_model']}"
        if result.get("chunk_size"):
            rules += f" --chunk-size {result['chunk_size']}"
    return (f"rummysim compare {files} --players {result['players']} "
            f"--{result['mode']} {result['count']} --seed {result['seed']}{rules}")


def provenance_line(result: dict) -> str:
    """What a comparison ran with: the rummysim version, rule and strategy hashes, hands played and wall
    time (a rerun of ``reproduce_line`` with other hashes plays other rules or strategies)."""
    hashes = ", ".join(f"{s['name']} {s['sha256']}" for s in result["strategies"])
    return (f"rummysim {result['rummysim_version']} | rules {result['rule_hash']} | strategies {hashes} | "
            f"{sum(p['hands'] for p in result['pairs']):,} {variant_of(result).table} | "
            f"{result['wall_seconds']:.1f} s")


def _no_negative_zero(x: float) -> float:
    """``x`` with -0.0 made 0.0 (so that nothing prints as "-0.0")."""
    return x + 0.0




def _p_text(p: float) -> str:
    """A p-value as "p = 0.0123" or "p = 2.7e-19"; "p < 1e-300" where it is smaller still (0 once it
    underflows a double)."""
    return "p < 1e-300" if p < 1e-300 else f"p = {p:.3g}"


def _fmt(d: dict, scale: float = 1.0, digits: int = 2, unit: str = "") -> str:
    """A signed estimate with its interval (``summary.estimate_text``: where there is none, why), and
    ``n=...`` if it rests on few units."""
    return estimate_text(d, lambda x: signed(x * scale, digits) + unit)


def _share_text(d: dict, digits: int = 4) -> str:
    """A share (a fraction of 1) with its interval: ``"0.8958 [0.5603, 0.9966] n=12"``."""
    return estimate_text(d, lambda x: f"{x:.{digits}f}")


def _points_who(p: dict, players: int) -> str:
    """Whose points the points rows subtract: B's at 2 players, else the mean of B's seats."""
    return f"{p['a']} minus {p['b']}" if players == 2 else f"{p['a']} minus the mean of {p['b']}'s {players - 1} seats"


def sequential_note(sprt: dict) -> str:
    """What the figures of a match its SPRT decided are worth, for the decision it took: a match stops
    when its data happen to look decisive, so after an H1 stop its estimates lean past Elo1 (of 2,000
    simulated draw-free SPRTs (0, 10) at a true Elo of 0, those that accepted H1 printed +12.9 on
    average), after an H0 stop past Elo0 (at a true +10, those that accepted H0 printed -2.5): not
    away from zero."""
    h1 = sprt["decision"] == "H1"
    toward = sprt["elo1"] if h1 else sprt["elo0"]
    up = (sprt["elo1"] > sprt["elo0"]) == h1
    return (f"decided by the SPRT ({sprt['decision']} accepted): the estimates above are biased "
            f"{'upward' if up else 'downward'}, toward and past Elo{'1' if h1 else '0'} = {_elo_text(toward)} (the "
            f"match stopped because its data looked {'strong' if up else 'weak'}), and their intervals and p-values "
            f"assume a fixed number of deals (too narrow); the SPRT decision is the result")


#: ``sequential_note`` of an SPRT (0, 10) that accepted H1, the most common case (kept for older callers)
SEQUENTIAL_WARNING = sequential_note({"decision": "H1", "elo0": 0, "elo1": 10})


def variance_reduction_text(x: float, blocks: int) -> str:
    """The variance reduction pairing gave, ``"1.32x"``, with ``n=12`` beside it on fewer than 100 blocks (a
    ratio of two variances on 12 deals ranged 0.96-4.62 over real 12-deal groups); where it says
    nothing, why."""
    if x is not None and math.isfinite(x):
        return f"{x:.2f}x" + units_note({"n": blocks})
    return "n/a: fewer than 2 blocks" if blocks < 2 else "n/a: every block scored the same"


def render(result: dict, console) -> None:
    """Headline block per pair (what a user expects to see first), then crosstable and ranking, every
    table and line within the console's width (``terminal.fitted``); the reproduce line is one line."""
    console = fitted(console)
    k = result["players"]
    v = variant_of(result)
    unit, lower = v.unit, v.points_note
    for p in result["pairs"]:
        t = Table(title=f"{p['a']} vs {p['b']}: {p['blocks']:,} duplicate blocks, {p['hands']:,} {unit}s, {k} players",
                  show_header=False)
        t.add_column("what")
        t.add_column("value (95% interval)", justify="right")
        share_what = "games" if result["mode"] == "games" else "hands"
        t.add_row(f"win share of {p['a']} ({share_what}; fair = {1 / k:.3f})", _share_text(p["win_share"]))
        if "elo" in p:
            t.add_row(f"Elo difference (logistic, per {share_what[:-1]})", elo_text(p["elo"]))
        if "nelo" in p:
            t.add_row(f"normalized Elo difference (per {share_what[:-1]})", signed(p["nelo"], 1))
        t.add_row(f"points per {unit}, {_points_who(p, k)}{lower}", _fmt(p["points_per_hand_diff"]))
        if "points_per_game_diff" in p:
            t.add_row(f"points per game, {_points_who(p, k)}{lower}", _fmt(p["points_per_game_diff"], digits=1))
        t.add_row(v.no_winner, estimate_text(p["stalemate_rate"], lambda x: f"{100 * x:.2f}%"))
        if "pentanomial" in p:
            t.add_row("pairs " + " / ".join(p["pentanomial"]), " / ".join(f"{v:,}" for v in p["pentanomial"].values()))
        t.add_row("variance reduction from pairing", variance_reduction_text(p["variance_reduction"], p["blocks"]))
        for s in p["position_split"]:
            t.add_row(f"{p['a']}'s {unit} win share {_position_text(s, p, k)}", _share_text(s))
        if "sprt" in p:   # sentences: read from the left, wrapped on words
            t.add_row("SPRT", Text(sprt_words(p["sprt"], p["a"], p["b"], p["blocks"]), justify="left"))
        if "verdict" in p:
            t.add_row("verdict", Text(p["verdict"], justify="left"))
        console.print(t)
        if p.get("identical"):
            console.print(IDENTICAL)
        elif p.get("sequential"):   # identical play has no estimate to bias
            console.print(sequential_note(p["sprt"]))
    if "crosstable" in result:
        _render_crosstable(result, console)
    if "rating" in result:
        rating.render(result["rating"], console)
    console.print(f"reproduce: {result['reproduce']}", soft_wrap=True, markup=False, highlight=False)
    if "provenance" in result:
        console.print(f"ran with: {result['provenance']}", soft_wrap=True, markup=False, highlight=False)


def _render_crosstable(result: dict, console) -> None:
    """The crosstable, a cell of a match its SPRT stopped marked ``*`` (its estimate is biased), and the
    ranking by mean edge in percentage points, or that every match was played identically."""
    names = result["crosstable"]["names"]
    stopped = {(p["a_index"], p["b_index"]) for p in result["pairs"] if p.get("sequential") and not p.get("identical")}
    stopped |= {(j, i) for i, j in stopped}
    ct = Table(title="Crosstable: win share of the row strategy against the column (95% interval, "
                     "each match's own: not adjusted for the number of matches; the verdicts are Holm-adjusted)")
    ct.add_column("")
    for n in names:
        ct.add_column(n, justify="right")
    for i, row in enumerate(result["crosstable"]["win_share"]):
        ct.add_row(names[i], *("-" if c is None else _share_text(c, 3) + ("*" if (i, j) in stopped else "")
                               for j, c in enumerate(row)))
    console.print(ct)
    if stopped:
        console.print("* decided by its SPRT: the share is biased toward the side of the hypothesis it accepted and "
                      "its interval too narrow; the SPRT decision is the result")
    if "no_difference" in result:   # said under each match; once more for several, in place of a ranking
        if len(result["pairs"]) > 1:
            console.print(result["no_difference"])
        return
    console.print("ranking by mean edge (win share minus the fair share, over its matches): " + ", ".join(
        f"{r['rank']}. {r['name']} ({pp_text(r['mean_edge'])})" for r in result["ranking"]))
