"""Statistics tables over saved Shanghai results (``"variant": "shanghai"``; schema in ``variants.shanghai.schema``).

Per round number (1-10): how often a seat met its contract, how often the round
ended by someone going out, with the one-turn bonus, or with no winner, the
penalty of the seats that did not go out, buys, reshuffles and turns; pooled
over all seats, or per strategy. Per game: final totals and win shares (lowest
total wins, ties share) per seat or strategy, and the distribution of final
totals. As in ``stats``, every table streams the Parquet files batch by batch
and column by column, so memory does not grow with the number of games.

Intervals are 95%. Rates over rounds and seat-rounds: exact (Clopper-Pearson);
the rounds of one game, the seats of one round and, in a comparison, the
rotations of one game are not fully independent, so these intervals are
somewhat narrow. Means (penalty, buys, reshuffles, turns per round; final
totals): a t-interval over independent blocks (a game, in a comparison the game
in all its seat rotations) by linearisation, as ``stats`` does; win shares the
share interval over the same blocks (``intervals.share_ratio_ci``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ...analysis import stats as S
from ...engine.codes import OUTCOMES
from .contracts import CONTRACTS
from .summary import win_shares
from .state import ROUNDS

#: per round number (and strategy), summed over blocks. Per seat-round: seat-rounds, seats that laid their
#: contract, went out, went out with the one-turn bonus, did not go out, the penalty of those, buys.
SEAT_ROUND_VALUES = ("seat_rounds", "contract", "won", "bonus", "losing", "penalty", "buys")
#: per round: rounds, rounds with no winner (nothing left to draw, a blocked table, turn limit), reshuffles, turns
ROUND_VALUES = SEAT_ROUND_VALUES + ("rounds", "no_winner", "stalemate_stock", "stalemate_blocked", "turn_limit",
                                   "reshuffles", "turns")
#: per seat-game: games, final total, share of the game's win, won alone, shared the win (a tie)
GAME_VALUES = ("games", "total", "share", "wins", "tied_wins")
_STOCK, _BLOCKED, _TURN_LIMIT = (OUTCOMES.index(n) for n in ("stalemate_stock", "stalemate_blocked", "turn_limit"))


def contract(round_no: int, short: bool = False) -> str:
    """The contract of a round in words ("1 set + 1 run of 4") or ``short`` ("S+R4"); sets need 3 cards."""
    sets, runs, length = (int(x) for x in CONTRACTS[round_no])
    if short:
        return "+".join(f"{'' if n == 1 else n}{what}" for n, what in ((sets, "S"), (runs, f"R{length}")) if n)
    return " + ".join(f"{n} {what}{'s' if n > 1 else ''}" + (f" of {length}" if what == "run" else "")
                      for n, what in ((sets, "set"), (runs, "run")) if n)


def _round_moments(res: S.SavedResults, by: str) -> S._BlockMoments:
    """Block moments of ``ROUND_VALUES`` per round number (``by="round"``: one row per round) or per round
    number and strategy (``by="strategy"``: one row per seat-round, group round * strategies + strategy)."""
    if ("shanghai_rounds", by) in res.cache:
        return res.cache[("shanghai_rounds", by)]
    k, m = res.players, len(res.strategies) if by == "strategy" else 1
    acc = S._BlockMoments(ROUNDS * m, res.path / "rounds.parquet", ROUND_VALUES)
    columns = ("outcome", "winner", "bonus", "reshuffles", "turns") + (S.PAIR_COLUMNS if res.kind == "compare" else ())
    for h, s in S._aligned(res, columns, ("score", "down_turn", "buys")):
        n = len(h["game"])
        won = h["winner"][:, None] == np.arange(k)
        seat = np.stack([np.ones((n, k)), s["down_turn"] > 0, won, won & (h["bonus"] > 0)[:, None], ~won,
                         np.where(won, 0, s["score"]), s["buys"]], axis=-1)
        whole = np.stack([np.ones(n), h["winner"] < 0, h["outcome"] == _STOCK, h["outcome"] == _BLOCKED,
                          h["outcome"] == _TURN_LIMIT, h["reshuffles"], h["turns"]], axis=-1)
        block, last = S._block_key(res, h)
        r = h["round"].astype(np.int64) - 1
        if by == "strategy":
            values = np.concatenate([seat, np.broadcast_to(whole[:, None], (n, k, whole.shape[1]))], axis=-1)
            group = r[:, None] * m + S._strategy_of_seats(res, h)
            acc.add(np.repeat(block, k), group.ravel(), values.reshape(n * k, len(ROUND_VALUES)), np.repeat(last, k))
        else:
            acc.add(block, r, np.concatenate([seat.sum(axis=1), whole], axis=-1), last)
    res.cache[("shanghai_rounds", by)] = acc.finish()
    return res.cache[("shanghai_rounds", by)]


def per_round(results: S.SavedResults | str | Path, by: str = "round") -> pd.DataFrame:
    """Per round number (``by="round"``): rounds; rates (exact) of seat-rounds that met the contract and of
    rounds that ended by going out, with the one-turn bonus, or with no winner (with the counts of rounds
    that ended with nothing left to draw, on a blocked table and at the turn limit); means (t over blocks)
    of the penalty of a seat that did not go out, buys per seat, reshuffles and turns per round.

    ``by="strategy"``: per round number and strategy, over its seat-rounds: contract met, went out and
    one-turn bonus rates, penalty when not out and buys per seat-round.
    """
    res = S._as_results(results)
    acc = _round_moments(res, by)
    m = len(res.strategies) if by == "strategy" else 1
    rows = []
    for g in np.flatnonzero(acc.n):
        r, strategy = divmod(int(g), m)
        row = {"round": r + 1, "contract": contract(r + 1)}
        if by == "strategy":
            row["strategy"] = res.strategies[strategy]
        seat_rounds = acc.count(g, "seat_rounds")
        rounds = seat_rounds if by == "strategy" else acc.count(g, "rounds")
        row["seat_rounds" if by == "strategy" else "rounds"] = rounds
        S._estimate(row, "contract_met_rate", S._rate(acc.count(g, "contract"), seat_rounds))
        S._estimate(row, "went_out_rate", S._rate(acc.count(g, "won"), rounds))
        S._estimate(row, "one_turn_bonus_rate", S._rate(acc.count(g, "bonus"), rounds))
        if by == "round":
            S._estimate(row, "no_winner_rate", S._rate(acc.count(g, "no_winner"), rounds))
            for name in ("stalemate_stock", "stalemate_blocked", "turn_limit"):
                row[name] = acc.count(g, name)
        means = {"mean_penalty": ("penalty", "losing"), "buys_per_seat": ("buys", "seat_rounds")}
        if by == "round":
            means.update(reshuffles_per_round=("reshuffles", "rounds"), turns_per_round=("turns", "rounds"))
        for name, (num, den) in means.items():
            est, lo, hi, n = acc.ratio(g, {num: 1}, den)
            S._estimate(row, name, (est, max(lo, 0.0), hi, n))  # means of counts and points: never below 0
        rows.append(row)
    return pd.DataFrame(rows)


#: how a round ends (``engine.codes.OUTCOMES``, in code order), in words
ENDINGS = (
    ("win", "went out"),
    ("stalemate_stock", "no winner: nothing left to draw (2.6)"),
    ("stalemate_blocked", "no winner: a blocked table (ruling 3.7)"),
    ("turn_limit", "no winner: turn cap reached (ruling 3.6: a bug to investigate)"),
)


def round_endings(results: S.SavedResults | str | Path) -> pd.DataFrame:
    """How rounds end (``ENDINGS``): count and rate of the rounds with a exact interval; a comparison
    has one block of rows per match (column ``match``)."""
    res = S._as_results(results)
    matches = res.matches() if res.kind == "compare" else [None]
    counts = np.zeros((len(matches), len(OUTCOMES)), dtype=np.int64)
    columns = ("outcome",) + (("pair",) if res.kind == "compare" else ())
    for h in S._batches(res, "rounds", columns):
        pair = h["pair"].astype(np.int64) if res.kind == "compare" else np.zeros(len(h["outcome"]), dtype=np.int64)
        counts += np.bincount(pair * len(OUTCOMES) + h["outcome"], minlength=counts.size).reshape(counts.shape)
    rows = []
    for i, match in enumerate(matches):
        rounds = int(counts[i].sum())
        for name, words in ENDINGS:
            row = {} if match is None else {"match": match}
            k = int(counts[i, OUTCOMES.index(name)])
            row.update({"ending": name, "description": words, "rounds": rounds, "count": k})
            S._estimate(row, "rate", S._rate(k, rounds))
            rows.append(row)
    return pd.DataFrame(rows)


def _total_columns(res: S.SavedResults) -> tuple[str, ...]:
    return tuple(f"total_{q}" for q in range(res.players))


def _games(res: S.SavedResults, columns=()):
    """games.parquet batches with ``totals`` int64[n, players] and the strategy index of every seat."""
    extra = S.PAIR_COLUMNS if res.kind == "compare" else ()
    for g in S._batches(res, "games", tuple(dict.fromkeys(("game",) + tuple(columns) + _total_columns(res) + extra))):
        g["totals"] = np.stack([g[c] for c in _total_columns(res)], axis=1).astype(np.int64)
        g["strategy"] = S._strategy_of_seats(res, g)
        yield g


def _game_moments(res: S.SavedResults, by: str) -> S._BlockMoments:
    """Block moments of ``GAME_VALUES`` per seat and strategy (``by="seat"``) or per strategy."""
    if ("shanghai_games", by) in res.cache:
        return res.cache[("shanghai_games", by)]
    k, m = res.players, len(res.strategies)
    acc = S._BlockMoments(k * m if by == "seat" else m, res.path / "games.parquet", GAME_VALUES)
    for g in _games(res, ("tied", "winner")):
        n, totals = len(g["game"]), g["totals"]
        group = np.arange(k) * m + g["strategy"] if by == "seat" else g["strategy"]
        best = totals == totals.min(axis=1, keepdims=True)
        values = np.stack([np.ones((n, k)), totals, win_shares(totals), g["winner"][:, None] == np.arange(k),
                           best & (g["tied"][:, None] > 1)], axis=-1).reshape(n * k, len(GAME_VALUES))
        block, last = S._block_key(res, g)
        acc.add(np.repeat(block, k), np.ascontiguousarray(group).ravel(), values, np.repeat(last, k))
    res.cache[("shanghai_games", by)] = acc.finish()
    return res.cache[("shanghai_games", by)]


def final_totals(results: S.SavedResults | str | Path, by: str = "seat") -> pd.DataFrame:
    """Per seat (and strategy; ``by="strategy"``: per strategy over all its seats, games = seat-games):
    games, games won alone and with a tie, win share (each game's win shared among the seats with the
    lowest total) and mean final total, with t-intervals over blocks."""
    res = S._as_results(results)
    acc = _game_moments(res, by)
    m = len(res.strategies)
    rows = []
    for g in np.flatnonzero(acc.n):
        seat, strategy = (g // m, g % m) if by == "seat" else (None, g)
        row = {} if seat is None else {"seat": int(seat)}
        row.update({"strategy": res.strategies[strategy], "games": acc.count(g, "games"),
                    "wins": acc.count(g, "wins"), "tied_wins": acc.count(g, "tied_wins")})
        S._estimate(row, "win_share", acc.ratio(g, {"share": 1}, "games", share=True))
        S._estimate(row, "mean_total", acc.ratio(g, {"total": 1}, "games"))
        rows.append(row)
    return pd.DataFrame(rows)


def final_total_distribution(results: S.SavedResults | str | Path) -> pd.DataFrame:
    """Value -> count table of final totals per strategy (columns strategy, value, count, share), each
    strategy's values from its smallest to its largest, zero counts included."""
    res = S._as_results(results)
    if "shanghai_totals" in res.cache:
        return res.cache["shanghai_totals"]
    counts = None
    for g in _games(res):
        seen = pd.DataFrame({"strategy": g["strategy"].ravel(), "value": g["totals"].ravel()}).value_counts()
        counts = seen if counts is None else counts.add(seen, fill_value=0)
    parts = []
    for s, label in enumerate(res.strategies):
        if counts is None or s not in counts.index.get_level_values(0):
            continue
        c = counts.loc[s]
        values = np.arange(c.index.min(), c.index.max() + 1)
        n = c.reindex(values, fill_value=0).to_numpy(dtype=np.int64)
        parts.append(pd.DataFrame({"strategy": label, "value": values, "count": n, "share": n / n.sum()}))
    columns = ["strategy", "value", "count", "share"]
    table = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=columns)
    res.cache["shanghai_totals"] = table
    return table


def final_total_summary(results: S.SavedResults | str | Path) -> pd.DataFrame:
    """Per strategy: n (seat-games), mean, sd, min, exact 5%/25%/50%/75%/95% quantiles and max of final totals."""
    dist = final_total_distribution(results)
    return pd.DataFrame([{"strategy": s, **S.summarise(d)} for s, d in dist.groupby("strategy", sort=False)])
