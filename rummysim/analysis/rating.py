"""A rating list: one logistic Elo per strategy, fitted to every duplicate match of a comparison.

The model is Bradley-Terry (Luce's choice model at more than two players), as
Ordo and BayesElo fit chess engines: strategy ``s`` has strength
``g_s = 10 ** (r_s / 400)``, and in a match of A (one seat) against B (the
other ``k - 1`` seats) A's expected share of the wins is

    E[score] = g_A / (g_A + (k - 1) g_B)

(at 2 players ``1 / (1 + 10 ** (-(r_A - r_B) / 400))``, the logistic Elo the
headline prints; equal ratings give the fair share ``1/k``). A match's data
are its duplicate blocks' scores (A's share of the block's hands or games,
stalemates ``1/k``: ``compare.Blocks.score``): a match with ``n`` blocks
scoring ``w`` in all adds ``w log E + (n - w) log(1 - E)`` to the
log-likelihood, which Newton's method maximises (``fit``). ``PRIOR_BLOCKS`` virtual
blocks per match, each scoring the fair share (BayesElo's virtual draws), keep
the ratings finite when a strategy won or lost every block.

The ratings are anchored so that their mean is 0. Intervals: bootstrap over
duplicate blocks (deals, or games with ``--games``): every replicate resamples
each match's blocks with replacement, the same deal indices in every match
where the matches played the same deals (they share the seed, so block ``i``
of every match is the same deal), and refits; the interval is the rating plus
or minus Student's t (n - 1 degrees of freedom, n the blocks of the smallest
match) times the replicates' standard deviation, made unbiased by
``sqrt(n / (n - 1))``. The replicates' percentiles held 82% at 5 blocks a
match and 93% at 30; this holds 93% at 5 and 95% from 20 on
(tests/test_coverage.py). The
likelihood of superiority (LOS) of a strategy over the next one in the list is
the share of replicates that rate it higher (ties count half). The replicates
are drawn from a generator seeded with the comparison's seed: the same
comparison always gives the same intervals.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from ..base import intervals as I
from ..base.intervals import LEVEL, t_quantile
from ..base.summary import counted, interval_text, signed
from ..base.terminal import fitted

#: bootstrap replicates of the rating list
REPLICATES = 1000
#: virtual blocks per match scoring the fair share (BayesElo's prior of virtual draws)
PRIOR_BLOCKS = 1.0
#: fewer blocks in a match than this: the ratings get no interval and no LOS (measured: the bootstrap's
#: intervals held 90% at 5 blocks a match, 93% from 20 on, when neighbours' shares were 0.25)
MIN_BLOCKS = I.MIN_T_BLOCKS
#: mixed with the comparison's seed into the bootstrap generator's seed (its own stream)
BOOTSTRAP_KEY = 0x5EA7_1126
ANCHOR = "the mean of the ratings is 0"
_Q = math.log(10) / 400   # natural-log strength per Elo point
MAX_STEP = 200.0          # Elo: the largest Newton step of ``fit``
MAX_ITERATIONS = 200


def expected_score(r_a, r_b, players: int):
    """A's expected share against ``players - 1`` seats of B at ratings ``r_a``, ``r_b`` (arrays broadcast)."""
    return 1.0 / (1.0 + (players - 1) * np.exp(-_Q * (np.asarray(r_a) - np.asarray(r_b))))


def fit(a: np.ndarray, b: np.ndarray, won: np.ndarray, n: np.ndarray, strategies: int, players: int,
        prior_blocks: float = PRIOR_BLOCKS) -> np.ndarray:
    """Maximum-likelihood ratings (float64[..., strategies], mean 0) from matches ``a[i]`` against
    ``b[i]`` (int[p] strategy indices) in which A scored ``won[..., i]`` over ``n[i]`` blocks
    (float64[..., p]: leading axes are separate data sets, e.g. bootstrap replicates, fitted at once),
    each match with ``prior_blocks`` virtual blocks at the fair share added.

    Newton's method on the concave log-likelihood, steps capped at ``MAX_STEP`` Elo so that it
    cannot overshoot far from the optimum; the Hessian is made invertible by adding ``1 1^T`` (the
    likelihood does not move along "all ratings + c", where the gradient is 0)."""
    w = np.asarray(won, dtype=float) + prior_blocks / players
    m = np.asarray(n, dtype=float) + prior_blocks
    incidence = np.zeros((len(a), strategies))     # +1 at A, -1 at B: (r @ incidence.T)[i] = r_a - r_b
    incidence[np.arange(len(a)), a] = 1.0
    incidence[np.arange(len(a)), b] = -1.0
    r = np.zeros(w.shape[:-1] + (strategies,))
    for _ in range(MAX_ITERATIONS):
        e = expected_score(r @ incidence.T, 0.0, players)
        grad = (_Q * (w - m * e)) @ incidence                       # d log L / d r
        curvature = _Q * _Q * m * e * (1 - e)                       # -d2 log L / d(r_a - r_b)^2
        hessian = np.einsum("ia,...i,ib->...ab", incidence, curvature, incidence) + 1.0
        step = np.clip(np.linalg.solve(hessian, grad[..., None])[..., 0], -MAX_STEP, MAX_STEP)
        r = r + step
        r -= r.mean(axis=-1, keepdims=True)
        if np.max(np.abs(step)) < 1e-9:
            return r
    raise RuntimeError("rating fit did not converge")   # not reached on a concave likelihood


def bootstrap_indices(rng: np.random.Generator, sizes: list[int]) -> list[np.ndarray]:
    """One replicate's resampled block indices per match (int64[n_i] each): one uniform draw per
    position, shared by every match, so that matches of equally many blocks (the same deals)
    resample the same deals."""
    u = rng.random(max(sizes))
    return [np.minimum((u[:n] * n).astype(np.int64), n - 1) for n in sizes]


def rating_list(names: list[str], matches: list[tuple[int, int, np.ndarray]], players: int, seed: int,
                replicates: int = REPLICATES, prior_blocks: float = PRIOR_BLOCKS) -> dict:
    """The rating list of a comparison, JSON-ready: ``matches`` are ``(a, b, scores)`` with A's
    block scores (float64[n], each in [0, 1]); the list is sorted best first, each entry with its
    rating, its 95% bootstrap interval and its LOS over the next one."""
    a = np.array([x for x, _, _ in matches], dtype=np.int64)
    b = np.array([y for _, y, _ in matches], dtype=np.int64)
    scores = [np.asarray(s, dtype=float) for _, _, s in matches]
    sizes = [len(s) for s in scores]
    m = len(names)
    ratings = fit(a, b, np.array([s.sum() for s in scores]), np.array(sizes, float), m, players, prior_blocks)
    rng = np.random.default_rng([seed, BOOTSTRAP_KEY])
    resampled = np.array([[s[p].sum() for s, p in zip(scores, bootstrap_indices(rng, sizes))]
                          for _ in range(replicates)])                 # [replicates, matches]
    boot = fit(a, b, resampled, np.array(sizes, float), m, players, prior_blocks)
    enough = min(sizes) >= MIN_BLOCKS
    lo, hi = bootstrap_t_interval(ratings, boot, min(sizes)) if enough else (np.full(m, np.nan),) * 2
    # ratings equal up to rounding share a rank, and are listed in the order given
    rank = [1 + int(np.sum(ratings > ratings[s] + TIED)) for s in range(m)]
    order = sorted(range(m), key=lambda s: (rank[s], s))
    blocks_played = np.bincount(a, sizes, m) + np.bincount(b, sizes, m)   # in all of a strategy's matches
    entries = []
    for i, s in enumerate(order):
        entry = {"rank": rank[s], "name": names[s], "rating": float(ratings[s]) + 0.0,   # + 0.0: never -0.0
                 "ci95": [float(lo[s]) + 0.0, float(hi[s]) + 0.0], "blocks": int(blocks_played[s])}
        if not enough:
            entry["ci95"], entry["no_interval"] = [math.nan, math.nan], f"a match of fewer than {MIN_BLOCKS} blocks"
        elif not hi[s] - lo[s] > TIED:   # replicates that never move it (its blocks all alike): none, not width 0
            entry["ci95"], entry["no_interval"] = [math.nan, math.nan], "the bootstrap never moves it"
        if i + 1 < m and enough:
            entry["los_next"] = los(boot[:, s], boot[:, order[i + 1]])
        entries.append(entry)
    return {"model": "Bradley-Terry on the logistic Elo scale; Luce's choice model at more than 2 players",
            "anchor": ANCHOR, "prior_blocks": prior_blocks,
            "bootstrap": {"replicates": replicates, "seed": seed, "level": LEVEL,
                          "unit": "duplicate block, the same deals in every match", "min_blocks": MIN_BLOCKS},
            "list": entries}


#: Elo: two ratings closer than this are tied (what separates two copies of one strategy is rounding)
TIED = 1e-6


def bootstrap_t_interval(estimates: np.ndarray, replicates: np.ndarray, blocks: int,
                         level: float = LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """``(lo, hi)`` (float64[strategies] each): ``estimates`` plus or minus ``t(level, blocks - 1)`` times
    the standard deviation of the bootstrap ``replicates`` ([replicates, strategies]) times
    ``sqrt(blocks / (blocks - 1))`` (the bootstrap's variance divides by n); nan with fewer than 2 blocks."""
    if blocks < 2:
        return np.full_like(estimates, np.nan), np.full_like(estimates, np.nan)
    half = t_quantile(level, blocks - 1) * replicates.std(axis=0, ddof=1) * math.sqrt(blocks / (blocks - 1))
    return estimates - half, estimates + half


def los(x: np.ndarray, y: np.ndarray) -> float:
    """Likelihood of superiority of X over Y: the share of bootstrap replicates with X rated above
    Y, ties (closer than ``TIED``) counting half."""
    d = np.asarray(x) - np.asarray(y)
    return float(np.mean(d > TIED) + 0.5 * np.mean(np.abs(d) <= TIED))


def los_text(x: float) -> str:
    """A LOS in percent: ">99.9%" / "<0.1%" where (nearly) every replicate agreed, never "100.0%"."""
    return ">99.9%" if x > 0.999 else "<0.1%" if x < 0.001 else f"{100 * x:.1f}%"


def table(rating: dict):
    """The rating list as a DataFrame: rank, strategy, elo, elo_lo, elo_hi (95%), los_over_next (the
    likelihood of superiority over the next one, nan for the last), blocks (in all its matches)."""
    import pandas as pd

    return pd.DataFrame([{"rank": e["rank"], "strategy": e["name"], "elo": e["rating"], "elo_lo": e["ci95"][0],
                          "elo_hi": e["ci95"][1], "los_over_next": e.get("los_next", math.nan),
                          "blocks": e["blocks"]} for e in rating["list"]])


def note(rating: dict) -> str:
    """What the ratings are, in one sentence."""
    b = rating["bootstrap"]
    return (f"Elo ratings fitted to every match by maximum likelihood ({rating['model']}); {rating['anchor']}; "
            f"{100 * b['level']:g}% intervals: t times the bootstrap standard error over duplicate blocks, "
            f"{b['replicates']:,} replicates, seed {b['seed']}; LOS: share of replicates rating a strategy above the "
            f"next; neither for a match of fewer than {b.get('min_blocks', MIN_BLOCKS)} blocks"
            + (f"; biased, and the intervals too narrow: they rest on {', '.join(rating['sequential'])}, "
               f"decided by {'its' if len(rating['sequential']) == 1 else 'their'} SPRT"
               if rating.get("sequential") else ""))


def _interval(entry: dict, digits: int) -> str:
    """A rating's interval as text, ``"[-12.0, +8.5]"``, or why it has none (``summary.interval_text``)."""
    if "no_interval" in entry:
        return f"(no interval: {entry['no_interval']})"
    return interval_text({"ci95": entry["ci95"], "n": entry["blocks"]}, lambda x: signed(x, digits))


def render(rating: dict, console) -> None:
    """The rating list as a rich table, and what it is, within the console's width (``terminal.fitted``)."""
    from rich.table import Table

    console = fitted(console)

    t = Table(title="Rating list (logistic Elo, mean 0, 95% intervals from the bootstrap over duplicate blocks)")
    for col, justify in (("rank", "right"), ("strategy", "left"), ("Elo", "right"), ("95% interval", "right"),
                         ("LOS over next", "right")):
        t.add_column(col, justify=justify)
    for e in rating["list"]:
        t.add_row(str(e["rank"]), e["name"], signed(e["rating"], 1), _interval(e, 1),
                  los_text(e["los_next"]) if "los_next" in e else "")
    console.print(t)
    console.print(note(rating))


def figure(rating: dict, scope: str):
    """Ratings with their intervals, best at the top, and the LOS over the next one beside each."""
    import textwrap

    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    entries = rating["list"]
    m = len(entries)
    fig = Figure(figsize=(9.0, 2.6 + 0.55 * m), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    y = np.arange(m)[::-1]
    est = np.array([e["rating"] for e in entries])
    lo, hi = (np.array([e["ci95"][i] for e in entries], dtype=float) for i in (0, 1))   # JSON null: nan
    ax.errorbar(est, y, xerr=np.clip(np.nan_to_num(np.vstack([est - lo, hi - est])), 0, None), fmt="o", capsize=4)
    ax.axvline(0, color="grey", lw=0.8, ls="--")
    labels = [f"{e['rank']}. {e['name']}: {signed(e['rating'], 0)} {_interval(e, 0)}"
              + (f"\nLOS over next {los_text(e['los_next'])}" if "los_next" in e else "") for e in entries]
    ax.set_yticks(y, labels, fontsize=9)
    ax.set_ylim(-0.6, m - 0.4)
    ax.set_xlabel("Elo rating (logistic; mean of the ratings 0)")
    ax.grid(axis="x", alpha=0.3)
    width = int(fig.get_figwidth() * 12)
    fig.suptitle("\n".join(["Rating list", *textwrap.wrap(f"{scope}; {note(rating)}", width)]), fontsize=10.5)
    return fig


def scope(result: dict) -> str:
    """What a comparison played, in a few words (for the figure's title; ``report`` says it its own way)."""
    names = ", ".join(x["name"] for x in result["strategies"])
    return (f"{len(result['pairs'])} duplicate matches of {names}, {result['players']} players, "
            f"{counted(result['count'], result['mode'])} per rotation, seed {result['seed']}")


def write_files(out_dir: Path, rating: dict, scope: str) -> list[Path]:
    """``rating.csv`` (full precision) and ``rating.png`` in ``out_dir``."""
    csv, png = Path(out_dir) / "rating.csv", Path(out_dir) / "rating.png"
    table(rating).to_csv(csv, index=False)
    figure(rating, scope).savefig(png, dpi=110, metadata={"Software": None})
    return [csv, png]
