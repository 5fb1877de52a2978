"""What every variant's run summary is made of: rates and means with their 95% intervals, the words an
estimate is printed with wherever it is printed (terminal and report), and the plain-data state of a
summary accumulator (what a finished chunk keeps so a resumed run adds it back)."""

from __future__ import annotations

import math

import numpy as np

from . import intervals as I

#: an estimate resting on fewer units than this (blocks, games, hands, trials) is printed with its count, "n=8"
FEW_UNITS = 100


def counted(n: int, noun: str) -> str:
    """A count and its plural noun, singular for one: ``"1 game"``, ``"1,000 games"``."""
    return f"{n:,} {noun[:-1] if n == 1 and noun.endswith('s') else noun}"


def units_note(d: dict) -> str:
    """``" n=8"`` for an estimate (a dict with ``"n"``, the units it rests on) resting on fewer than
    ``FEW_UNITS`` units, else ``""``: printed beside the estimate so a wide interval is read as few units."""
    n = d.get("n")
    return f" n={n:,}" if n is not None and n < FEW_UNITS else ""


def _missing(x) -> bool:
    return x is None or (isinstance(x, (float, np.floating)) and math.isnan(x))


def interval_text(d: dict, show) -> str:
    """An estimate's interval as text, each bound written by ``show``: ``"[lo, hi]"``, or where it has
    none why in words: ``"(no interval: 1 unit)"``, ``"(no interval: all 12 the same)"`` (nan
    bounds on 2 or more units: a mean without spread), ``"(no data)"``, or the estimate's own reason,
    ``d["no_interval"]`` (``"(no interval: every deal played identically)"``)."""
    lo, hi = d["ci95"]
    if _missing(lo) or _missing(hi):
        if d.get("no_interval"):
            return f"(no interval: {d['no_interval']})"
        n = d.get("n")
        if not n:
            return "(no data)"
        return "(no interval: 1 unit)" if n == 1 else f"(no interval: all {n:,} the same)"
    return f"[{show(lo)}, {show(hi)}]"


def estimate_text(d: dict, show) -> str:
    """``"est [lo, hi] n=8"`` (``interval_text``, ``units_note``), every number written by ``show``."""
    est = "n/a" if _missing(d["estimate"]) else show(d["estimate"])
    return f"{est} {interval_text(d, show)}{units_note(d)}"


def signed(x: float, digits: int) -> str:
    """``x`` with a sign and ``digits`` decimals, never "-0.0..." (a value that rounds to zero prints +0.0)."""
    text = f"{x:+.{digits}f}"
    return "+" + text[1:] if text.startswith("-") and float(text) == 0 else text


def pp_text(x: float) -> str:
    """A difference of shares in percentage points, ``"+3.50 pp"``, never ``"-0.00 pp"``."""
    return "n/a" if _missing(x) else signed(100 * x, 2) + " pp"


def _est(x: float, lo: float, hi: float, n: int) -> dict:
    return {"estimate": x, "ci95": [lo, hi], "n": n}


def mean_from_sums(total: float, total_sq: float, n: int) -> dict:
    """Mean of ``n`` independent values that cannot be negative (points, turns, hands per game,
    reshuffles, buys, totals: every caller's) from their sum and sum of squares, with its 95%
    interval, Student's t on the log scale (``intervals.nonnegative_ratio_ci``: never below 0; none
    for one value or no spread), and ``"n"``, the values it rests on."""
    return _est(*I.nonnegative_ratio_ci(n, total, n, total_sq, total, n), n)


def share_from_sums(total: float, total_sq: float, n: int) -> dict:
    """Mean of ``n`` independent values in [0, 1] (a seat's share of each game's win) from their sum
    and sum of squares, with the interval of ``intervals.share_ratio_ci``."""
    return _est(*I.share_ratio_ci(n, total, n, total_sq, total, n), n)


def rate(k: int, n: int) -> dict:
    """Proportion ``k / n`` of independent trials with its 95% exact interval (``intervals.proportion_ci``)
    and ``"n"``, the trials it rests on."""
    lo, hi = I.proportion_ci(k, n) if n else (math.nan, math.nan)
    return _est(k / n if n else math.nan, lo, hi, n)


def summary_state(summary) -> dict:
    """The counters of a summary accumulator (``RunSummary``, ``ShanghaiSummary``) as plain JSON
    data: what a finished chunk leaves so that a resumed run can add it back."""
    def plain(v):
        if isinstance(v, np.ndarray):
            return v.tolist()
        if hasattr(v, "__dict__"):
            return {k: plain(x) for k, x in vars(v).items()}
        return v
    return {k: plain(v) for k, v in vars(summary).items() if k not in ("players", "strategy_names")}


def add_state(summary, state: dict) -> None:
    """Add the counters of ``state`` (from ``summary_state``) into ``summary``, in place."""
    def add(obj, data):
        for k, v in data.items():
            cur = getattr(obj, k)
            if isinstance(cur, np.ndarray):
                cur += np.asarray(v, dtype=cur.dtype)
            elif hasattr(cur, "__dict__"):
                add(cur, v)
            else:
                setattr(obj, k, cur + v)
    add(summary, state)


def add_hands(summary, hand_rows: np.ndarray, game_rows, *, winner: int, starter: int, outcome: int,
              points: int, turns: int, n_outcomes: int) -> None:
    """Fold the counters every one-winner-a-hand summary keeps (Basic Rummy's, Gin Rummy's
    ``RunSummary``) into ``summary``, in place: hands, seat wins, starter wins, outcomes (of
    ``n_outcomes`` codes), points of the winning hands, turns, and from ``game_rows`` (int32[g, 2 +
    players] or None) games, hands per game and game wins. ``winner`` ... ``turns`` are the hands
    table's column indices; the summary's attributes bear the same names in both variants."""
    summary.hands += len(hand_rows)
    won_by = hand_rows[:, winner]
    won = won_by >= 0
    summary.seat_wins += np.bincount(won_by[won], minlength=summary.players)
    summary.starter_wins += int(np.sum(won_by == hand_rows[:, starter]))
    summary.outcomes += np.bincount(hand_rows[:, outcome], minlength=n_outcomes)
    pts = hand_rows[won, points].astype(np.float64)
    summary.points += pts.sum()
    summary.points_sq += (pts ** 2).sum()
    t = hand_rows[:, turns].astype(np.float64)
    summary.turns += t.sum()
    summary.turns_sq += (t ** 2).sum()
    if game_rows is not None and len(game_rows):
        summary.games += len(game_rows)
        summary.game_hands += int(game_rows[:, 1].sum())
        summary.game_hands_sq += int((game_rows[:, 1].astype(np.int64) ** 2).sum())
        gw = game_rows[:, 0]
        summary.game_wins += np.bincount(gw[gw >= 0], minlength=summary.players)


def hand_figures(summary, wall_seconds: float, outcome_names, *, by_seat: dict, by_hand: dict) -> dict:
    """The figures of a summary fed by ``add_hands``, in the order they are printed and written:
    hands, games, win rate per seat, then ``by_seat`` (the variant's other per-seat figures), starter
    win rate, outcomes (named ``outcome_names``), then ``by_hand`` (the variant's own), points per
    winning hand, turns per hand, wall time and speed, and with games, hands per game and game wins."""
    wins = int(summary.seat_wins.sum())
    out = {
        "hands": summary.hands,
        "games": summary.games,
        "win_rate_by_seat": [
            {"seat": q, "strategy": summary.strategy_names[q], "wins": int(summary.seat_wins[q]),
             **rate(int(summary.seat_wins[q]), summary.hands)}
            for q in range(summary.players)
        ],
        **by_seat,
        "starter_win_rate": rate(summary.starter_wins, summary.hands),
        "outcomes": {name: {"count": int(summary.outcomes[i]), **rate(int(summary.outcomes[i]), summary.hands)}
                     for i, name in enumerate(outcome_names)},
        **by_hand,
        "points_per_winning_hand": mean_from_sums(summary.points, summary.points_sq, wins),
        "turns_per_hand": mean_from_sums(summary.turns, summary.turns_sq, summary.hands),
        "wall_seconds": wall_seconds,
        "hands_per_second": summary.hands / wall_seconds if wall_seconds > 0 else math.nan,
    }
    if summary.games:
        out["hands_per_game"] = mean_from_sums(summary.game_hands, summary.game_hands_sq, summary.games)
        out["game_win_rate_by_seat"] = [
            {"seat": q, **rate(int(summary.game_wins[q]), summary.games)} for q in range(summary.players)
        ]
    return out


def winner_rotation_rows(ch, r: int, k: int, games_mode: bool, *, game: int, winner: int, points: int,
                         starter: int):
    """A comparison's rotation (candidate A in seat r, ``k`` players) of one chunk ``ch`` of a variant
    whose hand has one winner or none (Basic Rummy, Gin Rummy; ``game`` ... ``starter`` are its hands
    table's column indices): per hand ``(block index, A's points minus the mean of B's seats, no
    winner)``, per block A's score (won 1, no winner 1/k, lost 0; with ``games_mode`` the game's
    winner), per game A's final score minus B's mean (None for independent hands), and per hand A's
    score (won 1, no winner 1/k, lost 0) and A's position after the dealer (0: A starts, ..., k - 1:
    A deals)."""
    rows = ch.hand_rows
    idx = np.searchsorted(ch.games, rows[:, game])
    won_by = rows[:, winner]
    stale = won_by < 0
    a_won = won_by == r
    pts = rows[:, points].astype(np.float64)
    diff = np.where(a_won, pts, 0.0) - np.where(~a_won & ~stale, pts, 0.0) / (k - 1)
    hand_score = np.where(a_won, 1.0, np.where(stale, 1.0 / k, 0.0))
    position = (r - rows[:, starter]) % k
    if not games_mode:
        return idx, diff, stale, hand_score, None, hand_score, position
    final = ch.game_rows[:, 2:2 + k].astype(np.float64)
    score = (ch.game_rows[:, 0] == r).astype(np.float64)
    return (idx, diff, stale, score, final[:, r] - (final.sum(axis=1) - final[:, r]) / (k - 1), hand_score,
            position)
