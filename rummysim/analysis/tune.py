"""``rummysim tune``: search a strategy's keys for a stronger setting with optuna's TPE sampler.

Every candidate plays a duplicate match against every strategy of the field
(``--against``) on the same deals (the same seed for every candidate: common
random numbers, so candidates differ by their play, not by their cards). Its
figure is the field score: per duplicate block, the mean over the field of the
candidate's win share minus the fair share ``1/k``, with a t-interval over
blocks (the matches share their deals, so the blocks are the unit). The best
of many candidates on one seed is lucky on those deals, so it is re-measured
on a fresh seed, next to the strategy it started from (and their difference,
paired by deal), and the file is written with those confirmed figures and
intervals in its ``description``. optuna is an optional extra: ``pip install 'rummysim[tune]'``.
"""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path

import numpy as np

from ..results import write_json_atomic
from ..base.errors import UsageError
from ..base.params import Param
from ..base.variant import Variant
from ..run import warm_up
from ..strategy import Strategy, parse_strategy, with_override
from ..variants import variant_of
from ..base import intervals as I
from .compare import play_pair
from ..base.summary import estimate_text, signed

INSTALL = "rummysim tune needs optuna: pip install 'rummysim[tune]'"
#: mixed into the tuning seed to get the confirmation seed: deals no candidate was chosen on
CONFIRM_KEY = 0x7E57_C0DE


@dataclasses.dataclass(frozen=True)
class Knob:
    """One key to tune: an integer range ``low..high`` or a set of choices."""

    key: str
    low: int | None = None
    high: int | None = None
    choices: tuple = ()

    def suggest(self, trial):
        if self.choices:
            return trial.suggest_categorical(self.key, list(self.choices))
        return trial.suggest_int(self.key, self.low, self.high)


def parse_knob(text: str, variant: Variant) -> Knob:
    """``key=low:high`` (an integer key, within its allowed range) or ``key=a,b`` / ``key`` (a choice key:
    those choices, or all of them), typed from the variant's strategy spec; ``UsageError`` if not."""
    key, _, values = text.partition("=")
    spec: dict[str, Param] = {p.key: p for p in variant.spec if not p.key.startswith("search.")}
    if key not in spec:
        raise UsageError(f"--param {text}: unknown key {key!r}; allowed: {', '.join(spec)}")
    p = spec[key]
    if p.choices:
        picked = tuple(v.strip() for v in values.split(",") if v.strip()) if values else p.choices
        bad = [v for v in picked if v not in p.choices]
        if bad or len(picked) < 2:
            raise UsageError(f"--param {text}: give two or more of {p.allowed()} (or the key alone for all)")
        return Knob(key, choices=picked)
    low, sep, high = values.partition(":")
    try:
        lo, hi = int(low), int(high)
    except ValueError:
        lo = hi = None
    if not sep or lo is None or not (p.low <= lo < hi <= p.high):
        raise UsageError(f"--param {text}: give {key}=LOW:HIGH, LOW < HIGH, within {p.allowed()}")
    return Knob(key, lo, hi)


def candidate(base: Strategy, settings: dict, variant: Variant) -> Strategy:
    """``base`` with ``settings`` (key -> value) applied."""
    s = base
    for key, value in settings.items():
        s = with_override(s, key, str(value), variant)
    return s


def field_blocks(strategy: Strategy, field: list[Strategy], players: int, seed: int, rules, games, hands,
                 workers, variant: Variant, client=None) -> tuple[np.ndarray, dict]:
    """The candidate's win share minus ``1/players`` averaged over the field, per duplicate block
    (float64[blocks]: every match plays the same deals), and its mean against each opponent; ``client``:
    a ``distributed.Client`` whose workers play the matches (``compare.play_pair``: the same blocks)."""
    per_opponent = []
    for opponent in field:
        blocks, _ = play_pair(variant, strategy, opponent, players, seed, rules, games, hands, workers, client=client)
        per_opponent.append(blocks.arrays()[0] - 1 / players)
    return np.mean(per_opponent, axis=0), {o.name: float(x.mean()) for o, x in zip(field, per_opponent)}


def _estimate(values: np.ndarray) -> dict:
    """The mean of per-block values with its 95% t-interval over blocks, and the number of blocks."""
    m, lo, hi = I.mean_ci(values)
    return {"estimate": float(m), "ci95": [float(lo), float(hi)], "n": len(values)}


def field_score(strategy: Strategy, field: list[Strategy], players: int, seed: int, rules, games, hands,
                workers, variant: Variant, client=None) -> dict:
    """``field_blocks`` summarised: the field score with its interval, and the mean against each opponent."""
    score, by_opponent = field_blocks(strategy, field, players, seed, rules, games, hands, workers, variant, client)
    return {**_estimate(score), "by_opponent": by_opponent}


def confirm(best: Strategy, base: Strategy, field: list[Strategy], players: int, seed: int, rules, games, hands,
            workers, variant: Variant, client=None) -> dict:
    """The best and the base on the fresh ``seed``'s deals: each one's field score, and the best's
    minus the base's, paired by block (the same deals)."""
    (b, b_opp), (a, a_opp) = (field_blocks(s, field, players, seed, rules, games, hands, workers, variant, client)
                              for s in (best, base))
    return {"seed": seed, "best": {**_estimate(b), "by_opponent": b_opp}, "base": {**_estimate(a), "by_opponent": a_opp},
            "difference": _estimate(b - a)}


def tune(variant: Variant, base: Strategy, knobs: list[Knob], field: list[Strategy], players: int, seed: int, rules,
         games: int | None, hands: int | None, trials: int, workers: int | None = None, on_trial=None,
         client=None) -> dict:
    """Run the search and the confirmation; the whole result as a JSON-ready dict (``trials``: every
    candidate's settings and field score on ``seed``; ``best``; ``confirmed``: the best and the base
    re-measured on the confirmation seed). ``client``: a ``distributed.Client`` whose workers play
    the matches (the same scores, so the same search)."""
    try:
        import optuna
    except ImportError:
        raise UsageError(INSTALL) from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    if client is None:   # on a cluster the workers compile (or load) the engine
        warm_up(players, variant)
    rows = []

    def objective(trial):
        settings = {k.key: k.suggest(trial) for k in knobs}
        score = field_score(candidate(base, settings, variant), field, players, seed, rules, games, hands, workers,
                            variant, client)
        rows.append({"trial": trial.number, "settings": settings, "score": score})
        if on_trial:
            on_trial(rows[-1])
        return score["estimate"]

    study = optuna.create_study(direction="maximize", sampler=optuna.samplers.TPESampler(seed=seed % 2**32))
    study.optimize(objective, n_trials=trials)
    best = max(rows, key=lambda r: r["score"]["estimate"])
    confirm_seed = int(np.random.SeedSequence([seed, CONFIRM_KEY]).generate_state(1, np.uint64)[0] >> 1)
    return {"variant": variant.name, "base": base.name, "base_source": base.source, "players": players, "seed": seed,
            "mode": "games" if games is not None else "hands", "count": games if games is not None else hands,
            "rule_hash": rules.digest(players), "field": [s.name for s in field],
            "knobs": [dataclasses.asdict(k) for k in knobs], "sampler": f"optuna {optuna.__version__} TPESampler",
            "trials": rows, "best": best,
            "confirmed": confirm(candidate(base, best["settings"], variant), base, field, players, confirm_seed,
                                 rules, games, hands, workers, variant, client)}


def score_text(s: dict) -> str:
    """A field score or difference with its interval, ``"+0.0396 [-0.0031, +0.0822]"``; where it has none
    (one block, or the blocks all alike: a candidate identical to the base), why (``summary.estimate_text``)."""
    return estimate_text(s, lambda x: signed(x, 4))


def description(result: dict) -> str:
    """The tuned file's description: what it is, and its confirmed figure with its interval."""
    c, k = result["confirmed"], result["players"]
    settings = ", ".join(f"{key} = {v}" for key, v in result["best"]["settings"].items())
    return (f"{result['base']} tuned by rummysim tune ({result['sampler']}, {len(result['trials'])} trials, "
            f"{result['count']:,} duplicate {result['mode']} per match on seed {result['seed']}): {settings}.\n"
            f"Confirmed on fresh seed {c['seed']} against {', '.join(result['field'])} at {k} players: "
            f"win share minus 1/{k}, averaged over the field, {score_text(c['best'])} "
            f"(95% t-interval over duplicate blocks); {result['base']} on the same deals: "
            f"{score_text(c['base'])}; tuned minus {result['base']}, paired by duplicate block: "
            f"{score_text(c['difference'])}.")


def strategy_toml(name: str, variant: Variant, text: str, params: tuple) -> str:
    """A strategy file (TOML) setting every key of the variant's spec to ``params``' value (a rule-based
    bot's: the search keys are left out)."""
    top, sections = [], {}
    for p in variant.spec:
        if p.key.startswith("search."):
            continue
        v = params[p.index]
        value = f'"{p.choices[int(v)]}"' if p.choices else str(int(v))
        section, _, leaf = p.key.rpartition(".")
        (sections.setdefault(section, []) if section else top).append(f"{leaf} = {value}")
    lines = [f'name = "{name}"', f'variant = "{variant.name}"', f'description = """\n{text}\n"""', *top]
    for section, keys in sections.items():
        lines += ["", f"[{section}]", *keys]
    return "\n".join(lines) + "\n"


def write_strategy(result: dict, base: Strategy, out: Path, name: str) -> str:
    """Write the tuned strategy to ``out`` (checked by parsing it back first); returns its text."""
    variant = variant_of(result)
    tuned = candidate(base, result["best"]["settings"], variant)
    text = strategy_toml(name, variant, description(result), tuned.params)
    parsed = parse_strategy(text, str(out), variant)
    assert parsed[2] == tuned.params, "the written file does not say what was tuned"
    out.write_text(text)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def trials_csv(result: dict, path: Path) -> None:
    import csv

    keys = [k["key"] for k in result["knobs"]]
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["trial", *keys, "score", "score_lo", "score_hi", "blocks"])
        for r in result["trials"]:
            w.writerow([r["trial"], *(r["settings"][k] for k in keys), r["score"]["estimate"], *r["score"]["ci95"],
                        r["score"]["n"]])


def _figure(width, height, cols=1):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig, list(np.atleast_1d(fig.subplots(1, cols)).ravel())


def _what(result: dict) -> str:
    k = result["players"]
    return f"win share minus 1/{k}, mean over {', '.join(result['field'])}"


def _title(fig, what: str, result: dict, how: str) -> None:
    import textwrap

    scope = (f"{result['base']}, {len(result['trials'])} trials, {result['count']:,} duplicate {result['mode']} per "
             f"match, {result['players']} players, seed {result['seed']}; {how}")
    fig.suptitle("\n".join([what, *textwrap.wrap(scope, int(fig.get_figwidth() * 12))]), fontsize=10.5)


def history_figure(result: dict):
    """Each trial's field score with its interval, the best so far, and the confirmed best."""
    fig, (ax,) = _figure(9.0, 4.8)
    rows = result["trials"]
    x = np.array([r["trial"] for r in rows])
    est = np.array([r["score"]["estimate"] for r in rows])
    lo = np.array([r["score"]["ci95"][0] for r in rows])
    hi = np.array([r["score"]["ci95"][1] for r in rows])
    ax.errorbar(x, est, yerr=np.clip(np.vstack([est - lo, hi - est]), 0, None), fmt="o", ms=3, capsize=2,
                alpha=0.6, label="trial (tuning seed)")
    ax.step(x, np.maximum.accumulate(est), where="post", color="black", lw=1, label="best so far")
    c = result["confirmed"]["best"]
    ax.axhspan(*c["ci95"], color="tab:green", alpha=0.2,
               label=f"best, confirmed on a fresh seed: {c['estimate']:+.4f} (95% interval)")
    ax.axhline(0, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("trial")
    ax.set_ylabel(_what(result), fontsize=9)
    ax.legend(fontsize=8, loc="lower right")
    _title(fig, "Tuning history", result, "95% t-intervals over duplicate blocks, each candidate's own "
           f"(not adjusted for the {len(rows)} trials)")
    return fig


def effects_figure(result: dict):
    """The field score of every trial against each tuned key's value (one panel per key)."""
    knobs = result["knobs"]
    fig, axes = _figure(max(4.5, 3.6 * len(knobs)), 4.6, len(knobs))
    est = np.array([r["score"]["estimate"] for r in result["trials"]])
    for ax, k in zip(axes, knobs):
        values = [r["settings"][k["key"]] for r in result["trials"]]
        if k["choices"]:
            x = np.array([list(k["choices"]).index(v) for v in values])
            ax.set_xticks(range(len(k["choices"])), k["choices"])
            ax.set_xlim(-0.5, len(k["choices"]) - 0.5)
        else:
            x = np.array(values, dtype=float)
        ax.scatter(x, est, s=12, alpha=0.7)
        ax.axhline(0, color="grey", lw=0.8, ls="--")
        ax.set_xlabel(k["key"])
    axes[0].set_ylabel(_what(result), fontsize=9)
    _title(fig, "Effect of each tuned key", result, "each point a trial's estimate on the tuning seed")
    return fig


def write_outputs(result: dict, out_dir: Path) -> list[Path]:
    """tune.json, trials.csv, history.png and effects.png in ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    write_json_atomic(out_dir / "tune.json", result)
    trials_csv(result, out_dir / "trials.csv")
    history_figure(result).savefig(out_dir / "history.png", dpi=110, metadata={"Software": None})
    effects_figure(result).savefig(out_dir / "effects.png", dpi=110, metadata={"Software": None})
    return [out_dir / n for n in ("tune.json", "trials.csv", "history.png", "effects.png")]
