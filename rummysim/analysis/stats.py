"""Statistics tables over saved results: what a user expects to see, with intervals.

A results directory is what ``rummysim run`` (run.json, hands.parquet,
seats.parquet, games.parquet) or ``rummysim compare`` (compare.json, and
hands/seats with the extra columns ``pair`` and ``rotation``) saved; Shanghai
results (``"variant": "shanghai"``, rounds.parquet in place of hands.parquet)
open here too, and ``variants.shanghai.report`` has their tables. Every
table streams the Parquet files batch by batch and column by column
(``ParquetFile.iter_batches``), folding counts and sums, so memory does not
grow with the number of hands.

Intervals are 95% (``rummysim.base.intervals``). Proportions of a run's
independent hands (and games): exact (Clopper-Pearson). Means and ratios of
unbounded quantities (points per hand, per game, per win): a t-interval over
independent blocks by linearisation (``intervals.ratio_ci``), a block being one
game in ``--games`` results, one hand in ``--hands`` results, and in a
comparison the deal (or game) played in all its seat rotations (the rotations
of one deal are not independent: pooling them as if they were would make the
intervals too narrow or too wide); its degrees of freedom are those of the
blocks the ratio rests on (a nonzero denominator: points per rummy win rests
on the blocks with a rummy win). Shares over blocks (every rate of a
comparison, rummy's share of points) get ``intervals.share_ratio_ci``'s
interval over the same blocks, which stays in [0, 1]. Every
estimate ``x`` comes with ``x_lo``, ``x_hi`` and ``x_n``, the units it rests on
(trials of a run's rate, blocks of a ratio or of a comparison's rate).
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

if TYPE_CHECKING:
    import pandas as pd   # imported where used: a run's start does not pay for it

from ..base.errors import UsageError
from ..base.variant import Variant
from ..engine.codes import OUTCOMES
from ..variants import variant_of
from .compare import position_words, sequential_note, sprt_words
from ..base.intervals import LEVEL, nonnegative_ratio_ci, proportion_ci, share_ratio_ci, win_share_ci

#: the records ``report`` reads (a sweep is summed up by ``sweep`` itself)
REPORTED_RECORDS = ("run.json", "compare.json")
BATCH_ROWS = 1 << 16
PAIR_COLUMNS = ("pair", "rotation")
#: per seat and hand, summed over blocks: hands played, games started, hands won, stalemates, points won,
#: rummy wins, points won going rummy, ordinary (not rummy) wins and their points
VALUES = ("hands", "games", "wins", "stalemates", "points", "rummy_wins", "rummy_points", "ordinary_wins",
          "ordinary_points")
ENDINGS = (
    ("went_out", "went out (every win, rummy included)"),
    ("went_rummy", "went rummy (all cards in one turn, scores double)"),
    ("stalemate_stock", "stalemate: the stock ran out once too often"),
    ("stalemate_blocked", "stalemate: blocked, nobody can ever finish"),
    ("turn_limit", "turn limit reached (a bot bug if any)"),
)
QUANTITIES = {
    "turns_per_hand": "turns per hand",
    "points_per_winning_hand": "points scored by the winner of a hand",
    "cards_left_per_losing_seat": "cards left in a losing hand",
    "value_left_per_losing_seat": "points of cards left in a losing hand",
    "hands_per_game": "hands per game",
    "reshuffles_per_hand": "stock reshuffles per hand",
}
_PAIR_SHIFT = 40  # block key of a comparison: pair << 40 | game


class ResultsError(UsageError):
    """Results that cannot be read: a bad path, a missing, foreign or corrupt file (one line naming the path)."""


def _line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


@dataclasses.dataclass
class SavedResults:
    """An opened results directory: its record (``run.json`` or ``compare.json``) and Parquet files.

    ``note`` says which results were chosen when the path held several;
    ``cache`` keeps accumulations shared by several tables.
    """

    path: Path
    kind: str
    meta: dict
    note: str | None = None
    cache: dict = dataclasses.field(default_factory=dict, repr=False)

    @property
    def players(self) -> int:
        """Players at the table."""
        return int(self.meta["players"])

    @property
    def variant(self) -> Variant:
        """The variant these results are of."""
        return variant_of(self.meta)

    @property
    def codes(self) -> dict[str, tuple[str, ...]]:
        """The code labels of each dictionary column the variant's schema declares (``outcome``...)."""
        tables = self.variant.schemas(self.players, self.mode == "games")
        return {c.name: c.labels for t in tables for c in t.columns if c.labels}

    @property
    def unit(self) -> str:
        """What a row of the hand table is, and its column: ``"hand"`` (``hands.parquet``), Shanghai ``"round"``."""
        return self.variant.unit

    @property
    def mode(self) -> str:
        """``"games"`` or ``"hands"``."""
        return self.meta["mode"]

    @property
    def strategies(self) -> list[str]:
        """Labels of the distinct strategies, in the order of the record (run: by seat; compare: as given)."""
        entries = self.meta["strategies"]
        if self.kind == "run":
            entries = list({(s["name"], s["sha256"]): s for s in entries}.values())
        names = [s["name"] for s in entries]
        labels = [f"{n} ({s['sha256'][:6]})" if names.count(n) > 1 else n for n, s in zip(names, entries)]
        return [f"{x} #{i + 1}" if labels.count(x) > 1 else x for i, x in enumerate(labels)]

    def seat_strategy(self) -> np.ndarray:
        """Run: int[players], the strategy index (into ``strategies``) of each seat."""
        distinct = list(dict.fromkeys((s["name"], s["sha256"]) for s in self.meta["strategies"]))
        return np.array([distinct.index((s["name"], s["sha256"])) for s in self.meta["strategies"]])

    def matches(self) -> list[str]:
        """Compare: one label per pair, ``"A vs B"``."""
        labels = self.strategies
        return [f"{labels[p['a_index']]} vs {labels[p['b_index']]}" for p in self.meta["pairs"]]

    def hands_played(self) -> int:
        """Rows of hands.parquet (Shanghai: rounds.parquet)."""
        return pq.ParquetFile(self.path / f"{self.unit}s.parquet").metadata.num_rows


def find_results(path: str | Path) -> tuple[Path, str | None]:
    """The results directory at or under ``path`` and a note if it was the newest of several.

    ``path`` itself if it holds run.json or compare.json, else the directory of
    the newest (by modification time) such file anywhere below it.
    """
    p = Path(path)
    if not p.exists():
        raise ResultsError(f"results {p}: no such directory")
    if not p.is_dir():
        raise ResultsError(f"results {p}: not a directory (give a run or compare results directory)")
    if any((p / r).is_file() for r in REPORTED_RECORDS):
        return p, None
    try:
        found = sorted((f for r in REPORTED_RECORDS for f in p.rglob(r)), key=lambda f: f.stat().st_mtime)
    except OSError as e:
        raise ResultsError(f"results {p}: cannot search it ({_line(e)})") from None
    if not found:
        raise ResultsError(f"results {p}: holds no run.json or compare.json (not rummysim results)")
    if len(found) == 1:
        return found[0].parent, None
    return found[-1].parent, f"{p} holds {len(found)} results; using the newest, {found[-1].parent}"


def open_results(path: str | Path) -> SavedResults:
    """Open and check a results directory (see ``find_results``); raise ``ResultsError`` if it is not readable."""
    where, note = find_results(path)
    record = next(where / r for r in REPORTED_RECORDS if (where / r).is_file())
    try:
        meta = json.loads(record.read_text())
    except (OSError, ValueError) as e:
        raise ResultsError(f"{record}: not a readable rummysim record ({_line(e)})") from None
    kind = "run" if record.name == "run.json" else "compare"
    required = ("players", "mode", "strategies") + (("pairs",) if kind == "compare" else ())
    if not isinstance(meta, dict) or any(key not in meta for key in required):
        raise ResultsError(f"{record}: not a rummysim record (needs {', '.join(required)})")
    res = SavedResults(where, kind, meta, note)
    if (kind == "run" and meta.get("status", "complete") != "complete"
            and not (where / f"{res.unit}s.parquet").is_file()):   # its finished chunks are not joined yet
        finished = len(list((where / "chunks").glob("c*.json")))
        of = f" of {meta['chunks']}" if isinstance(meta.get("chunks"), int) else ""
        raise ResultsError(f"{where}: the run is unfinished ({finished}{of} chunks); "
                           f"finish it with rummysim run --resume {where}")
    extra = PAIR_COLUMNS if kind == "compare" else ()
    try:
        schemas = res.variant.schemas(res.players, meta["mode"] == "games")
    except (ValueError, TypeError) as e:
        raise ResultsError(f"{record}: not a rummysim record ({_line(e)})") from None
    needed = {t.name: tuple(c.name for c in t.columns) + extra for t in schemas}
    for table, columns in needed.items():
        file = where / f"{table}.parquet"
        if not file.is_file():
            raise ResultsError(f"{file}: missing (the run saved no finished chunk?)")
        try:
            names = pq.ParquetFile(file).schema_arrow.names
        except (OSError, pa.ArrowException) as e:
            raise ResultsError(f"{file}: not a readable Parquet file ({_line(e)})") from None
        missing = [c for c in columns if c not in names]
        if missing:
            raise ResultsError(f"{file}: lacks column(s) {', '.join(missing)} (not rummysim results?)")
    return res


def _as_results(results: SavedResults | str | Path) -> SavedResults:
    return results if isinstance(results, SavedResults) else open_results(results)


def _column(col: pa.Array, codes: tuple = OUTCOMES) -> np.ndarray:
    if pa.types.is_dictionary(col.type):  # outcome (Shanghai: bonus too): codes in the order of ``codes``
        lookup = np.array([codes.index(v) for v in col.dictionary.to_pylist()], dtype=np.int8)
        return lookup[col.indices.to_numpy(zero_copy_only=False)]
    return col.to_numpy(zero_copy_only=False)


def _batches(res: SavedResults, table: str, columns, rows: int | None = None) -> Iterator[dict]:
    """Dicts of numpy columns, ``rows`` (default ``BATCH_ROWS``) rows at a time (fewer at row-group ends)."""
    file = res.path / f"{table}.parquet"
    codes = res.codes
    try:
        for batch in pq.ParquetFile(file).iter_batches(batch_size=rows or BATCH_ROWS, columns=list(columns)):
            yield {c: _column(batch.column(c), codes.get(c, OUTCOMES)) for c in columns}
    except (OSError, ValueError, pa.ArrowException) as e:
        raise ResultsError(f"{file}: cannot read it ({_line(e)})") from None


def _aligned(res: SavedResults, hand_columns, seat_columns) -> Iterator[tuple[dict, dict]]:
    """hands.parquet and seats.parquet side by side: each hand batch of n rows with its seat rows as [n, players]
    (Shanghai: rounds.parquet, by game and round)."""
    k = res.players
    key = ("game", res.unit)
    seat_columns = tuple(dict.fromkeys(key + tuple(seat_columns)))
    seats = _batches(res, "seats", seat_columns, BATCH_ROWS * k)
    bad = ResultsError(f"{res.path / 'seats.parquet'}: does not line up with {res.unit}s.parquet")
    pending: list[dict] = []
    have = 0
    for h in _batches(res, f"{res.unit}s", tuple(dict.fromkeys(key + tuple(hand_columns)))):
        need = len(h["game"]) * k
        while have < need and (s := next(seats, None)) is not None:
            pending.append(s)
            have += len(s["game"])
        if have < need:
            raise bad
        joined = {c: np.concatenate([p[c] for p in pending]) for c in seat_columns}
        seat = {c: v[:need].reshape(-1, k) for c, v in joined.items()}
        if not all(np.array_equal(seat[c][:, 0], h[c]) for c in key):
            raise bad
        pending = [{c: v[need:] for c, v in joined.items()}]
        have -= need
        yield h, seat
    if have or next(seats, None) is not None:
        raise bad


class _BlockMoments:
    """Sums over blocks of each group's per-block totals of ``values`` (default ``VALUES``): count, sum,
    cross products and, per value, the blocks where it is nonzero (the units a ratio over it rests on).

    Rows arrive in the order rummysim writes them: game by game, and in a
    comparison every rotation of a chunk of games before the next chunk.
    A block is complete once rows of the last rotation have passed it.
    """

    def __init__(self, groups: int, file: Path, values: tuple[str, ...] = VALUES):
        import pandas as pd
        self.groups = groups
        self.file = file
        self.values = values
        self.n = np.zeros(groups, dtype=np.int64)
        self.s1 = np.zeros((groups, len(values)))
        self.s2 = np.zeros((groups, len(values), len(values)))
        self.nonzero = np.zeros((groups, len(values)), dtype=np.int64)
        self.open = pd.DataFrame()
        self.mark = -1
        #: how many seats of one block each group holds (a strategy in several seats of a run: its
        #: seat-hands of one hand are one block's, ``_share``); None: one each
        self.seats = None

    def add(self, block: np.ndarray, group: np.ndarray, values: np.ndarray, last: np.ndarray) -> None:
        """Fold rows: block key, group index, values [rows, values], and whether each is of the last rotation."""
        import pandas as pd
        if block.size and block.min() < self.mark:
            raise ResultsError(f"{self.file}: rows are not in the order rummysim writes them")
        part = pd.DataFrame(values, index=block * self.groups + group).groupby(level=0, sort=False).sum()
        if len(self.open):
            part = pd.concat([self.open, part]).groupby(level=0, sort=False).sum()
        if last.any():
            self.mark = int(block[last].max())
        done = part.index.to_numpy() // self.groups < self.mark
        self._fold(part.index.to_numpy()[done] % self.groups, part.to_numpy(dtype=float)[done])
        self.open = part[~done]

    def _fold(self, group: np.ndarray, v: np.ndarray) -> None:
        self.n += np.bincount(group, minlength=self.groups)
        for g in np.unique(group):
            rows = v[group == g]
            self.s1[g] += rows.sum(axis=0)
            self.s2[g] += rows.T @ rows
            self.nonzero[g] += np.count_nonzero(rows, axis=0)

    def finish(self) -> "_BlockMoments":
        """Fold the blocks still open (the last ones)."""
        import pandas as pd
        self._fold(self.open.index.to_numpy() % self.groups, self.open.to_numpy(dtype=float))
        self.open = pd.DataFrame()
        return self

    def count(self, g: int, name: str) -> int:
        """Total of a count value for group ``g``."""
        return int(round(self.s1[g, self.values.index(name)]))

    def ratio(self, g: int, num: dict, den: str, share: bool = False) -> tuple[float, float, float, int]:
        """Ratio of a linear combination of the values (``{name: weight}``) to one value ``den``, with its
        interval over the blocks where ``den`` is nonzero, and their number: ``(ratio, lo, hi, n)``. The
        interval: ``intervals.share_ratio_ci`` for a ``share`` (a part of ``den`` in every block: a rate),
        else the delta-method t-interval on the log scale of ``intervals.nonnegative_ratio_ci`` (every
        ratio asked for is of what cannot be negative: points, totals, deadwood, reshuffles, buys; it
        never goes below 0)."""
        a = np.array([num.get(v, 0.0) for v in self.values])
        b = (np.array(self.values) == den).astype(float)
        s1, s2 = self.s1[g], self.s2[g]
        n = int(self.nonzero[g, self.values.index(den)])
        ci = share_ratio_ci if share else nonnegative_ratio_ci
        return (*ci(n, a @ s1, b @ s1, a @ s2 @ a, a @ s2 @ b, b @ s2 @ b, LEVEL), n)


def _block_key(res: SavedResults, h: dict) -> tuple[np.ndarray, np.ndarray]:
    """Block key per hand and whether the hand is of the last rotation."""
    game = h["game"].astype(np.int64)
    if res.kind == "compare":
        return (h["pair"].astype(np.int64) << _PAIR_SHIFT) | game, h["rotation"] == res.players - 1
    return game, np.ones(len(game), dtype=bool)


def _strategy_of_seats(res: SavedResults, h: dict) -> np.ndarray:
    """int[n, players]: the strategy index of every seat of every hand."""
    k = res.players
    if res.kind == "run":
        return np.broadcast_to(res.seat_strategy(), (len(h["game"]), k))
    a = np.array([p["a_index"] for p in res.meta["pairs"]])[h["pair"]]
    b = np.array([p["b_index"] for p in res.meta["pairs"]])[h["pair"]]
    return np.where(np.arange(k) == h["rotation"][:, None], a[:, None], b[:, None])


def _seats_per_group(res: SavedResults, by: str) -> np.ndarray | None:
    """A run's strategies (``by="strategy"``): how many seats each holds; else None (one each: a seat, or a
    comparison's strategy, whose blocks are its deals in every rotation already)."""
    if res.kind != "run" or by != "strategy":
        return None
    return np.bincount(res.seat_strategy(), minlength=len(res.strategies))


def _moments(res: SavedResults, by: str) -> _BlockMoments:
    """Block moments of ``VALUES`` per seat and strategy (``by="seat"``) or per strategy (``by="strategy"``)."""
    if ("moments", by) in res.cache:
        return res.cache[("moments", by)]
    k, m = res.players, len(res.strategies)
    acc = _BlockMoments(k * m if by == "seat" else m, res.path / "hands.parquet")
    acc.seats = _seats_per_group(res, by)
    columns = ("game", "hand", "winner", "points", "going_rummy") + (PAIR_COLUMNS if res.kind == "compare" else ())
    for h in _batches(res, "hands", columns):
        n = len(h["game"])
        strategy = _strategy_of_seats(res, h)
        group = np.arange(k) * m + strategy if by == "seat" else strategy
        won = h["winner"][:, None] == np.arange(k)
        rummy = won & h["going_rummy"][:, None]
        points = np.where(won, h["points"][:, None], 0)
        ordinary = won & ~rummy
        values = np.stack([np.ones((n, k)), np.broadcast_to((h["hand"] == 0)[:, None], (n, k)), won,
                           np.broadcast_to((h["winner"] < 0)[:, None], (n, k)), points, rummy,
                           np.where(rummy, points, 0), ordinary, np.where(ordinary, points, 0)],
                          axis=-1).reshape(n * k, len(VALUES))
        block, last = _block_key(res, h)
        acc.add(np.repeat(block, k), group.ravel(), values, np.repeat(last, k))
    res.cache[("moments", by)] = acc.finish()
    return res.cache[("moments", by)]


def _game_moments(res: SavedResults, by: str) -> _BlockMoments:
    """Games mode: block moments of seat-games played and won (values ``games``, ``game_wins``) per
    group of ``_player_rows`` (seat * m + strategy for ``by="seat"``, strategy for ``by="strategy"``),
    for runs and comparisons alike."""
    k, m = res.players, len(res.strategies)
    acc = _BlockMoments(k * m if by == "seat" else m, res.path / "games.parquet", ("games", "game_wins"))
    acc.seats = _seats_per_group(res, by)
    columns = ("game", "winner") + (() if res.kind == "run" else PAIR_COLUMNS)
    for g in _batches(res, "games", columns):
        n = len(g["game"])
        strategy = _strategy_of_seats(res, g)
        group = np.arange(k) * m + strategy if by == "seat" else strategy
        won = g["winner"][:, None] == np.arange(k)
        values = np.stack([np.ones((n, k)), won], axis=-1).reshape(n * k, 2)
        block, last = _block_key(res, g)
        acc.add(np.repeat(block, k), np.ascontiguousarray(group).ravel(), values, np.repeat(last, k))
    return acc.finish()


def _estimate(row: dict, name: str, est_lo_hi_n: tuple[float, float, float, int]) -> None:
    """``row[name]``, ``name_lo``, ``name_hi`` and ``name_n`` (the units it rests on) from ``(x, lo, hi, n)``;
    None (what a record's JSON holds for a nan or infinite value, e.g. the Elo of a clean sweep) is nan."""
    est, lo, hi, n = (float("nan") if x is None else x for x in est_lo_hi_n)
    row[name], row[f"{name}_lo"], row[f"{name}_hi"], row[f"{name}_n"] = float(est), float(lo), float(hi), int(n)


def _rate(k: int, n: int) -> tuple[float, float, float, int]:
    """``(k / n, lo, hi, n)``: a proportion of independent trials with its exact interval and its trials."""
    lo, hi = proportion_ci(k, n, LEVEL)
    return (k / n if n else float("nan")), lo, hi, n


def _share(res: SavedResults, acc: _BlockMoments, g: int, num: str, den: str) -> tuple[float, float, float, int]:
    """``(rate, lo, hi, n)``: the rate ``num`` / ``den`` (count values of ``acc``) of group ``g`` with its
    95% interval and the units it rests on. A run: the exact (Clopper-Pearson) interval over the ``den``
    trials, but for a strategy in several seats (``acc.seats``), whose seat-hands of one hand (seat-games
    of one game) are not independent trials: the share interval over the hands (games) (greedy in 2
    seats of 3, 2,000 hands: [0.4619, 0.4931] n=4000 over seat-hands, [0.4729, 0.4821] n=2000 over
    hands). A comparison, whose rotations of one deal are not independent: the share's interval over
    the blocks (a deal or game with all its rotations) with a nonzero ``den`` (``_BlockMoments.ratio``
    with ``share``: ``intervals.share_ratio_ci``)."""
    several = acc.seats is not None and acc.seats[g] > 1
    if res.kind != "compare" and not several:
        return _rate(acc.count(g, num), acc.count(g, den))
    return acc.ratio(g, {num: 1}, den, share=True)


def _player_rows(res: SavedResults, by: str) -> pd.DataFrame:
    import pandas as pd
    acc = _moments(res, by)
    m = len(res.strategies)
    games = _game_moments(res, by) if res.mode == "games" else None
    rows = []
    for g in np.flatnonzero(acc.n):
        seat, strategy = (g // m, g % m) if by == "seat" else (None, g)
        row = {} if seat is None else {"seat": int(seat)}
        hands, wins, stale = acc.count(g, "hands"), acc.count(g, "wins"), acc.count(g, "stalemates")
        row.update({"strategy": res.strategies[strategy], "hands": hands, "wins": wins,
                    "losses": hands - wins - stale, "stalemates": stale})
        _estimate(row, "win_rate", _share(res, acc, g, "wins", "hands"))
        _estimate(row, "points_per_hand", acc.ratio(g, {"points": 1}, "hands"))
        if res.mode == "games":
            row["games"] = acc.count(g, "games")
            _estimate(row, "points_per_game", acc.ratio(g, {"points": 1}, "games"))
        if games is not None:
            row["game_wins"] = games.count(g, "game_wins")
            _estimate(row, "game_win_rate", _share(res, games, g, "game_wins", "games"))
        rows.append(row)
    return pd.DataFrame(rows)


def by_seat(results: SavedResults | str | Path) -> pd.DataFrame:
    """Per seat (and strategy, when a seat held several, as in a comparison): hands, wins, losses,
    stalemates, hand win rate, points per hand and, with full games, points per game (t over
    blocks) and game win rate (over seat-games). Rates: exact for a run, a share over blocks for a
    comparison (``_share``). ``*_lo``/``*_hi`` are 95% bounds."""
    return _player_rows(_as_results(results), "seat")


def by_strategy(results: SavedResults | str | Path) -> pd.DataFrame:
    """As ``by_seat`` per strategy over all its seats: ``hands`` counts seat-hands, so a strategy
    playing every seat has a win rate of about 1/players."""
    return _player_rows(_as_results(results), "strategy")


def going_rummy(results: SavedResults | str | Path) -> pd.DataFrame:
    """Per strategy: how often it goes rummy (per seat-hand, a hand it played in one seat, and per hand
    won; ``_share``), mean points of a rummy win and of an ordinary win (t over blocks), and rummy's
    share of all its points (a share over blocks). A strategy in every seat of a 3-player run plays 3
    seat-hands a hand: its rate per seat-hand is a third of the hands that ended in rummy."""
    import pandas as pd
    res = _as_results(results)
    acc = _moments(res, "strategy")
    rows = []
    for g in np.flatnonzero(acc.n):
        hands, wins, rummy = acc.count(g, "hands"), acc.count(g, "wins"), acc.count(g, "rummy_wins")
        row = {"strategy": res.strategies[g], "hands": hands, "wins": wins, "rummy_wins": rummy}
        _estimate(row, "rummy_rate_per_seat_hand", _share(res, acc, g, "rummy_wins", "hands"))
        _estimate(row, "rummy_share_of_wins", _share(res, acc, g, "rummy_wins", "wins"))
        _estimate(row, "points_per_rummy_win", acc.ratio(g, {"rummy_points": 1}, "rummy_wins"))
        _estimate(row, "points_per_ordinary_win", acc.ratio(g, {"ordinary_points": 1}, "ordinary_wins"))
        _estimate(row, "rummy_share_of_points", acc.ratio(g, {"rummy_points": 1}, "points", share=True))
        rows.append(row)
    return pd.DataFrame(rows)


def hand_endings(results: SavedResults | str | Path) -> pd.DataFrame:
    """How hands end (``ENDINGS``): count and rate with its interval (``_share``: exact for a run, a share
    over duplicate blocks for a comparison); a comparison has one block of rows per match (column
    ``match``). Went out counts every win, going rummy included."""
    import pandas as pd
    res = _as_results(results)
    matches = res.matches() if res.kind == "compare" else [None]
    names = tuple(name for name, _ in ENDINGS)
    acc = _BlockMoments(len(matches), res.path / "hands.parquet", ("hands",) + names)
    columns = ("game", "outcome", "going_rummy") + (PAIR_COLUMNS if res.kind == "compare" else ())
    for h in _batches(res, "hands", columns):
        n = len(h["outcome"])
        pair = h["pair"].astype(np.int64) if res.kind == "compare" else np.zeros(n, dtype=np.int64)
        ended = {"went_out": h["outcome"] == 0, "went_rummy": h["going_rummy"].astype(bool),
                 **{o: h["outcome"] == i for i, o in enumerate(OUTCOMES) if o in names}}
        values = np.stack([np.ones(n)] + [ended[name] for name in names], axis=-1)
        block, last = _block_key(res, h)
        acc.add(block, pair, values, last)
    acc.finish()
    rows = []
    for i, match in enumerate(matches):
        for name, words in ENDINGS:
            row = {} if match is None else {"match": match}
            row.update({"ending": name, "description": words, "hands": acc.count(i, "hands"),
                        "count": acc.count(i, name)})
            _estimate(row, "rate", _share(res, acc, i, name, "hands"))
            rows.append(row)
    return pd.DataFrame(rows)


def starter_advantage(results: SavedResults | str | Path) -> pd.DataFrame:
    """Hand win rate by position relative to the dealer (1 = the starter, on the dealer's left, ...,
    ``players`` = the dealer), with its interval (``_share``: exact for a run, a share over duplicate
    blocks for a comparison) and the fair share 1/players."""
    import pandas as pd
    res = _as_results(results)
    k = res.players
    positions = tuple(f"wins_{p}" for p in range(k))
    acc = _BlockMoments(1, res.path / "hands.parquet", ("hands",) + positions)
    for h in _batches(res, "hands", ("game", "dealer", "winner") + (PAIR_COLUMNS if res.kind == "compare" else ())):
        position = (h["winner"].astype(np.int64) - h["dealer"] - 1) % k  # 0 = starter
        won = (h["winner"] >= 0)[:, None] & (position[:, None] == np.arange(k))
        block, last = _block_key(res, h)
        acc.add(block, np.zeros(len(block), dtype=np.int64), np.column_stack([np.ones(len(block)), won]), last)
    acc.finish()
    rows = []
    for p in range(k):
        label = "starter" if p == 0 else ("dealer" if p == k - 1 else f"{p + 1} from the dealer's left")
        row = {"position": p + 1, "who": label, "hands": acc.count(0, "hands"), "wins": acc.count(0, positions[p])}
        _estimate(row, "win_rate", _share(res, acc, 0, positions[p], "hands"))
        row["fair_share"] = 1 / k
        rows.append(row)
    return pd.DataFrame(rows)


def _bincount_add(total: np.ndarray, values: np.ndarray) -> np.ndarray:
    counts = np.bincount(values.astype(np.int64), minlength=len(total))
    if len(counts) > len(total):
        total = np.pad(total, (0, len(counts) - len(total)))
    total[:len(counts)] += counts
    return total


def distribution(results: SavedResults | str | Path, quantity: str) -> pd.DataFrame:
    """Value -> count table of one of ``QUANTITIES`` (columns value, count, share); values are
    non-negative integers, listed from the smallest seen to the largest, zero counts included.

    ``hands_per_game`` exists for ``--games`` results only (empty otherwise);
    the losing seats are every seat but the winner's in hands someone won.
    """
    import pandas as pd
    res = _as_results(results)
    if quantity not in QUANTITIES:
        raise ValueError(f"unknown quantity {quantity!r}; known: {', '.join(QUANTITIES)}")
    if ("distribution", quantity) in res.cache:
        return res.cache[("distribution", quantity)]
    total = np.zeros(1, dtype=np.int64)
    if quantity in ("cards_left_per_losing_seat", "value_left_per_losing_seat"):
        column = quantity.split("_per_")[0]
        for h, s in _aligned(res, ("winner",), (column,)):
            lost = (h["winner"][:, None] >= 0) & (h["winner"][:, None] != np.arange(res.players))
            total = _bincount_add(total, s[column][lost])
    elif quantity == "hands_per_game":
        if res.mode == "games":
            for h in _batches(res, "hands", ("hand",)):
                total = _bincount_add(total, h["hand"])
            # total[j] games have a hand j, i.e. more than j hands: exactly h hands = total[h-1] - total[h]
            total = np.concatenate([[0], total - np.append(total[1:], 0)])
        else:
            total = np.zeros(0, dtype=np.int64)
    else:
        column = {"turns_per_hand": "turns", "points_per_winning_hand": "points",
                  "reshuffles_per_hand": "reshuffles"}[quantity]
        for h in _batches(res, "hands", (column, "winner")):
            total = _bincount_add(total, h[column][h["winner"] >= 0] if column == "points" else h[column])
    start = int(np.argmax(total > 0)) if total.any() else 0
    counts = total[start:]
    n = counts.sum()
    table = pd.DataFrame({"value": np.arange(start, start + len(counts)), "count": counts,
                          "share": counts / n if n else np.zeros(len(counts))})
    res.cache[("distribution", quantity)] = table
    return table


def distribution_summary(results: SavedResults | str | Path) -> pd.DataFrame:
    """One row per quantity of ``QUANTITIES`` present: n, mean, sd, min, 5%/25%/50%/75%/95% quantiles, max.

    Quantiles are exact, from the value -> count tables: the smallest value
    whose cumulative share reaches the level.
    """
    import pandas as pd
    res = _as_results(results)
    rows = []
    for quantity, words in QUANTITIES.items():
        d = distribution(res, quantity)
        if d["count"].sum() > 0:
            rows.append({"quantity": quantity, "description": words, **summarise(d)})
    return pd.DataFrame(rows)


def summarise(dist: pd.DataFrame) -> dict:
    """n, mean, sd, min, 5%/25%/50%/75%/95% quantiles and max of a value -> count table (n > 0); the
    quantiles exact: the smallest value whose cumulative share reaches the level."""
    v, c = dist["value"].to_numpy(dtype=float), dist["count"].to_numpy(dtype=float)
    n = int(c.sum())
    mean = float(v @ c / n)
    cum = np.cumsum(c) / n
    row = {"n": n, "mean": mean, "sd": float(np.sqrt(max((v - mean) ** 2 @ c / max(n - 1, 1), 0.0))),
           "min": v[c > 0].min()}
    for q, name in ((0.05, "q05"), (0.25, "q25"), (0.5, "median"), (0.75, "q75"), (0.95, "q95")):
        row[name] = v[np.searchsorted(cum, q - 1e-12)]
    row["max"] = v[c > 0].max()
    return row


def convergence(results: SavedResults | str | Path, points: int = 300, first: int = 100) -> pd.DataFrame:
    """The main estimate after each number of hands (a comparison: deals) played, with its 95% band.

    Run: the hand win rate of seat 0 after each number of hands, in the order played (exact band);
    columns hands, estimate, lo, hi. Comparison: the first match's win share of its candidate A after
    each number of duplicate blocks (deals; games with ``--games``) in deal order, every block with
    all its rotations, and the win share's interval over blocks (``intervals.win_share_ci``): after the last block,
    exactly the headline's estimate and interval; columns deals, estimate, lo, hi. At about ``points``
    log-spaced counts from ``first`` to all of them, from fewer where there are fewer than ten times
    ``first`` (a tenth of them, 2 at least: 50 deals drew one point, an empty plot). Each point's
    interval is its own (a pointwise band, not one for the whole curve).
    """
    import pandas as pd
    res = _as_results(results)
    units = int(res.meta["pairs"][0]["blocks"]) if res.kind == "compare" else res.hands_played()
    first = min(first, max(2, units // 10))
    if res.kind == "compare":
        scores = block_scores(res)
        rows = [(int(n), *win_share_ci(scores[:n], 1 / res.players, LEVEL))
                for n in _marks(len(scores), points, first)]
        return pd.DataFrame(rows, columns=["deals", "estimate", "lo", "hi"])
    total = res.hands_played()
    marks = _marks(total, points, first)
    rows = []
    seen, wins = 0, 0
    for h in _batches(res, "hands", ("winner",)):
        c1 = wins + np.cumsum(h["winner"] == 0)
        for mark in marks[(marks > seen) & (marks <= seen + len(c1))]:
            won = int(c1[mark - seen - 1])
            rows.append((int(mark), won / mark, *proportion_ci(won, mark, LEVEL)))
        seen += len(c1)
        if len(c1):
            wins = int(c1[-1])
    return pd.DataFrame(rows, columns=["hands", "estimate", "lo", "hi"])


def _marks(total: int, points: int, first: int) -> np.ndarray:
    """About ``points`` log-spaced counts from ``first`` (or ``total`` if fewer) to ``total``."""
    return np.unique(np.geomspace(min(first, total), total, points).astype(np.int64)) if total else np.zeros(0, int)


def block_scores(res: SavedResults) -> np.ndarray:
    """Comparison: float64[blocks], the first match's block results in deal order, as its headline has
    them: candidate A's score (win 1, stalemate 1/players, loss 0; with ``--games``, the game won)
    summed over the rotations of the deal and divided by the number of rotations."""
    k = res.players
    blocks = int(res.meta["pairs"][0]["blocks"])
    games_mode = res.mode == "games"
    total = np.zeros(blocks)
    table = "games" if games_mode else "hands"
    for h in _batches(res, table, ("game", "winner") + PAIR_COLUMNS):
        first = (h["pair"] == 0) & (h["game"] < blocks)
        a_won = h["winner"] == h["rotation"]
        score = a_won.astype(float) if games_mode else np.where(a_won, 1.0, np.where(h["winner"] < 0, 1.0 / k, 0.0))
        np.add.at(total, h["game"][first], score[first])
    return total / k


def sample_units(results: SavedResults | str | Path) -> list[tuple[str, str, dict]]:
    """Hands (Shanghai: rounds) worth watching, as ``(name, words, row)``: the longest (most turns; the
    first of them) and the first of each of the variant's ``replay_samples`` the results hold. ``row``:
    ``game``, ``number`` (the hand or round of the game), ``turns`` and, in a comparison, ``pair`` and
    ``rotation``."""
    res = _as_results(results)
    v = res.variant
    keys = ("game", res.unit, "turns") + (PAIR_COLUMNS if res.kind == "compare" else ())
    columns = tuple(dict.fromkeys(keys + tuple(column for _, _, column, _ in v.replay_samples)))
    wanted = [("longest", "the longest " + res.unit + " (most turns)", None, ())] + list(v.replay_samples)
    found: dict[str, dict] = {}
    for rows in _batches(res, f"{res.unit}s", columns):
        if not len(rows["game"]):
            continue
        for name, _, column, codes in wanted:
            if column is None:
                i = int(np.argmax(rows["turns"]))   # the first of the longest
                take = "longest" not in found or rows["turns"][i] > found["longest"]["turns"]
            else:
                allowed = [res.codes[column].index(c) if column in res.codes else c for c in codes]
                hits = np.flatnonzero(np.isin(rows[column], allowed))
                take, i = name not in found and len(hits) > 0, (hits[0] if len(hits) else 0)
            if take:
                found[name] = {k: int(rows[k][i]) for k in keys} | {"number": int(rows[res.unit][i])}
    return [(name, words, found[name]) for name, words, _, _ in wanted if name in found]


def headline(results: SavedResults | str | Path) -> pd.DataFrame:
    """Comparison: the headline block per match from compare.json: win share of A,
    its excess over 1/players, Elo (2 players), points per hand (and game) of A minus B, stalemate rate,
    pairs [LL, LD, DD+WL, DW, WW], variance reduction from pairing, A's share of the hands (rounds) it
    played at each position after the dealer (``position_column``), SPRT, verdict.
    Shanghai: rounds, penalty points (lower is better) and rounds with no winner (its ``headline_words``)."""
    import pandas as pd
    res = _as_results(results)
    if res.kind != "compare":
        raise ValueError("headline: a comparison's results are needed (compare.json)")
    words = res.variant.headline_words
    rows = []
    for match, p in zip(res.matches(), res.meta["pairs"]):
        row = {"match": match, "a": p["a"], "b": p["b"], "blocks": p["blocks"], words.get("hands", "hands"): p["hands"]}
        for name in ("win_share", "win_share_minus_fair", "elo", "points_per_hand_diff", "points_per_game_diff",
                     "stalemate_rate"):
            if name in p:   # a record without "n" is older: every estimate of a pair rested on its blocks
                _estimate(row, words.get(name, name), (*_unbounded(p[name]), p[name].get("n", p["blocks"])))
        if "pentanomial" in p:
            row["pairs_LL/LD/DD+WL/DW/WW"] = " / ".join(f"{v:,}" for v in p["pentanomial"].values())
        row["variance_reduction"] = p["variance_reduction"]
        for q in p.get("position_split", []):
            _estimate(row, position_column(res.unit, q["position"], res.players), (q["estimate"], *q["ci95"], q.get("n", p["blocks"])))
        if "sprt" in p:
            row["sprt"] = sprt_words(p["sprt"], p["a"], p["b"], p["blocks"])
        if "verdict" in p:
            row["verdict"] = p["verdict"]
        if p.get("sequential") and not p.get("identical"):
            row["note"] = sequential_note(p["sprt"])
        rows.append(row)
    return pd.DataFrame(rows)


def _unbounded(d: dict) -> tuple:
    """``(estimate, lo, hi)`` of a record's estimate; an Elo marked ``"unbounded"`` (a clean sweep, whose
    infinities JSON holds as null) gets them back on that side."""
    est, lo, hi = d["estimate"], *d["ci95"]
    side = d.get("unbounded")
    if side == "above":
        est, hi = math.inf, math.inf
    elif side == "below":
        est, lo = -math.inf, -math.inf
    return est, lo, hi


def position_column(unit: str, position: int, players: int) -> str:
    """The headline's column of A's share of the hands (``unit``) it played at ``position`` after the
    dealer (1: it starts): ``hand_share_of_a_when_a_starts``, ``round_share_of_a_as_2nd_to_play``..."""
    if players == 2:
        return f"{unit}_share_of_a_when_{'a' if position == 1 else 'b'}_starts"
    who = position_words(position - 1, players).split(" (")[0].replace(" ", "_")
    return f"{unit}_share_of_a_as_{who}"


def crosstable(results: SavedResults | str | Path) -> pd.DataFrame:
    """Comparison of 3 or more strategies: win share of each strategy against each other one (95%
    interval), with the strategy's overall rank and mean edge (win share minus 1/players over its
    matches). Long form: strategy, rank, mean_edge, opponent, win_share, lo, hi, n (duplicate blocks).
    Empty otherwise."""
    import pandas as pd
    res = _as_results(results)
    ct = res.meta.get("crosstable")
    if ct is None:
        return pd.DataFrame()
    labels = res.strategies
    blocks = {frozenset((p["a_index"], p["b_index"])): p["blocks"] for p in res.meta["pairs"]}
    rank = {r["name"]: r for r in res.meta["ranking"]}
    rows = []
    for i, cells in enumerate(ct["win_share"]):
        for j, cell in enumerate(cells):
            if cell is None:
                continue
            r = rank[ct["names"][i]]
            row = {"strategy": labels[i], "rank": r["rank"], "mean_edge": r["mean_edge"], "opponent": labels[j]}
            n = cell["n"] if "n" in cell else blocks[frozenset((i, j))]   # an older record: the match's blocks
            _estimate(row, "win_share", (cell["estimate"], *cell["ci95"], n))
            rows.append(row)
    return pd.DataFrame(rows).sort_values(["rank", "opponent"], kind="stable").reset_index(drop=True)
