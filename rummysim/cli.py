"""The ``rummysim`` command: thin click commands that parse, call and print.

Every user mistake (bad option, strategy file, rule, path) ends as one line
``rummysim: error: ...`` on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import shutil
import sys
import time
from pathlib import Path

import click
import pyarrow as pa
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from .analysis import tune as T
from .analysis.compare import compare as run_compare
from .analysis.compare import render, resume_compare
from .analysis.stats import find_results
from .analysis.sweep import render_sweep, run_sweep
from .base.errors import StrategyError, UsageError
from .compiling import compile_notice
from .base.rules import parse_rule_options, rule_flags, rules_from_mapping
from .base.terminal import fitted
from .play import YOU, human_strategy, play_game
from .play.render import seat_called
from .play.save import saved_events
from .replay_html import (check_page_path, game_totals, replay_command, replay_header, replay_page,
                          totals_of, write_page)
from .report import prepare_report_dir, write_report
from .results import ChunkError, json_safe, results_dir
from .run import MAX_COUNT, RunSpec, max_chunk_size, resume_run, run_to_dir
from .strategy import builtin_dir, builtin_names, is_search, load_strategy, params_matrix, seat_strategies, with_override
from .variants import DEFAULT_VARIANT, NAMES, VARIANTS, variant_named, variant_of

try:   # rummysim serve needs the [serve] extra (starlette, uvicorn)
    from .serve import Limits as ServeLimits, serve as serve_games
except ImportError as _serve_missing:   # pragma: no cover - without the extra
    serve_games, ServeLimits, SERVE_MISSING = None, None, str(_serve_missing)

EXIT_USAGE = 2


class UserError(click.ClickException):
    """A mistake in what the user asked for: one line, exit code 2."""

    exit_code = EXIT_USAGE


def _positive(ctx, param, value):
    """A positive count: at most MAX_COUNT games or hands, a chunk within max_chunk_size() (its arrays in memory)."""
    if value is not None and value <= 0:
        raise click.BadParameter(f"must be a positive integer, got {value}")
    high = max_chunk_size() if param.name == "chunk_size" else MAX_COUNT
    if value is not None and value > high:
        what = " (a chunk's arrays must fit in memory)" if param.name == "chunk_size" else ""
        raise click.BadParameter(f"at most {high:,}{what}, got {value}")
    return value


def _rules(variant, rule_pairs, rules_file, players=None):
    """``variant``'s rules from ``--rule`` pairs and a ``--rules-file``, checked for ``players``."""
    rules = parse_rule_options(variant, rule_pairs, rules_file)
    if players is not None:
        rules.check_players(players)
    return rules


def _players(players, variant):
    """The number of players, checked against the variant's range (its default if not given)."""
    low, high, default = variant.players
    if players is None:
        return default
    if not low <= players <= high:
        raise UserError(f"--players {players}: {variant.title} takes {low} to {high} players")
    return players


class VariantChoice(click.Choice):
    """``--variant NAME``: one of the registered variants, given to the command as its ``Variant``."""

    def __init__(self):
        super().__init__(NAMES)

    def convert(self, value, param, ctx):
        return value if value in VARIANTS.values() else variant_named(super().convert(value, param, ctx))


VARIANT_WORDS = "; ".join(f"{v.name}: {v.title} (docs/rules.md {v.rules_section})" for v in VARIANTS.values())
PLAYERS_WORDS = ", ".join(f"{v.title} {v.players[0]}-{v.players[1]} (default {v.players[2]})" for v in VARIANTS.values())
variant_option = click.option("--variant", type=VariantChoice(), default=DEFAULT_VARIANT, show_default=True,
                              help=VARIANT_WORDS + ".")
players_option = click.option("--players", type=int, default=None, help=f"Players at the table: {PLAYERS_WORDS}.")

rule_options = [
    click.option("--rule", "rule_pairs", multiple=True, metavar="KEY=VALUE",
                 help="A rule option of docs/rules.md ("
                      + ", ".join(f"{v.title} {v.rules_section}.{v.options_section}" for v in VARIANTS.values())
                      + "), e.g. --rule reshuffles=0 (repeatable)."),
    click.option("--rules-file", type=click.Path(dir_okay=False), default=None,
                 help="A TOML file of rule options (keys as for --rule)."),
]


def with_rule_options(f):
    for opt in reversed(rule_options):
        f = opt(f)
    return f


@click.group(context_settings={"help_option_names": ["-h", "--help"]}, invoke_without_command=True)
@click.version_option(package_name="rummysim")
@click.pass_context
def cli(ctx):
    """Simulate Rummy bot against bot and measure what wins, or play against the bots
    yourself (rummysim play).

    The rules of both variants, every rule option and every ruling the engine
    follows are in docs/rules.md in the rummysim source.
    """
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


dask_options = [
    click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
                 help="Play the chunks on the workers of this dask.distributed scheduler."),
    click.option("--dask-local", type=int, callback=_positive, default=None, metavar="N",
                 help="Start a local Dask cluster of N worker processes and play the chunks there."),
]


def with_dask_options(f):
    for opt in reversed(dask_options):
        f = opt(f)
    return f


def _one_cluster(scheduler, dask_local) -> None:
    """--scheduler and --dask-local exclude each other."""
    if scheduler is not None and dask_local is not None:
        raise UserError("give --scheduler or --dask-local, not both")


#: run options that --resume takes from the run itself (its run.json), so they cannot be given with it
RESUME_OWN_OPTIONS = ("variant", "games", "hands", "players", "strategy_names", "seed", "out_dir", "overwrite",
                      "chunk_size", "rule_pairs", "rules_file")


def _resume_conflicts(ctx) -> None:
    """With --resume, the run's own options are used: one line naming any given on the command line."""
    given = [p for p in ctx.command.params if p.name in RESUME_OWN_OPTIONS
             and ctx.get_parameter_source(p.name) not in (None, click.core.ParameterSource.DEFAULT)]
    if given:
        names = ", ".join(max(p.opts, key=len) for p in given)
        raise UserError(f"--resume uses the run's own options: drop {names}")


@cli.command()
@variant_option
@click.option("--games", type=int, callback=_positive, help="Full games to the target score (Shanghai: ten rounds).")
@click.option("--hands", type=int, callback=_positive, help="Independent hands (the starting seat rotates; Basic Rummy).")
@players_option
@click.option("--strategy", "strategy_names", multiple=True, metavar="NAME|FILE",
              help="Strategy for every seat, or repeated once per seat. Default: greedy.")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True, help="Master seed.")
@click.option("--workers", type=int, callback=_positive, help="Threads to use. Default: all cores.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Results directory. Default: results/run-<time>-seed<seed>.")
@click.option("--overwrite", is_flag=True, help="Replace a run already in --out.")
@click.option("--chunk-size", type=int, callback=_positive, help="Games (or hands) per chunk written.")
@click.option("--json", "as_json", is_flag=True, help="Print the run record as JSON instead of tables.")
@click.option("--report", "report_dir", type=click.Path(file_okay=False), default=None,
              help="Also write the report (as rummysim report) into this directory.")
@click.option("--resume", "resume_dir", type=click.Path(file_okay=False), default=None,
              help="Finish an interrupted or killed run in this directory (its own options are used).")
@with_dask_options
@with_rule_options
@click.pass_context
def run(ctx, variant, games, hands, players, strategy_names, seed, workers, out_dir, overwrite, chunk_size, as_json,
        report_dir, resume_dir, scheduler, dask_local, rule_pairs, rules_file):
    """Simulate, summarise and save: rummysim run --games 1000000 (Shanghai: --variant shanghai)"""
    _one_cluster(scheduler, dask_local)
    if resume_dir is not None:
        _resume_conflicts(ctx)
        return _resume(resume_dir, workers, scheduler, dask_local, as_json, report_dir)
    players = _players(players, variant)
    games, hands = _count(games, hands, variant, "run_default")
    rules = _rules(variant, rule_pairs, rules_file, players)
    spec = RunSpec(variant, players, seat_strategies(strategy_names, players, variant), seed, rules, games, hands)
    _report_dir(report_dir)
    console = Console(stderr=as_json)
    # connect first: a scheduler that cannot be reached leaves nothing behind
    with _dask_client(scheduler, dask_local) as client, _out(out_dir, overwrite, "run", seed) as out:
        try:
            record = _run_with_progress(spec, out, workers, chunk_size, console, client)
        except KeyboardInterrupt:
            console.print(f"[yellow]interrupted: the finished chunks are in {out}; "
                          f"rummysim run --resume {out} finishes the run[/]")
            sys.exit(130)
        except ChunkError as e:
            raise UserError(f"{out}: {e}; rummysim run --resume {out} plays it again") from None
    _show(record, out, as_json, report_dir, console)


def _show(record, out, as_json, report_dir, console):
    if as_json:
        click.echo(json.dumps(json_safe(record), default=str))
    else:
        variant_of(record).render(record["summary"], fitted(console))
        console.print(f"results: {out}", soft_wrap=True)   # a path to paste: one line
    if report_dir is not None:
        _write_report(out, report_dir, console)


def _resume(resume_dir, workers, scheduler, dask_local, as_json, report_dir):
    console = Console(stderr=as_json)
    _report_dir(report_dir)
    with _dask_client(scheduler, dask_local) as client:
        try:
            record = _run_with_progress(None, Path(resume_dir), workers, None, console, client)
        except ChunkError as e:
            raise UserError(f"{resume_dir}: {e}; rummysim run --resume {resume_dir} plays it again") from None
        except KeyboardInterrupt:
            console.print(f"[yellow]interrupted again: rummysim run --resume {resume_dir} goes on[/]")
            sys.exit(130)
    _show(record, resume_dir, as_json, report_dir, console)


class _dask_client:
    """A ``distributed.Client`` for --scheduler ADDRESS or --dask-local N (else None), closed on exit."""

    def __init__(self, scheduler, dask_local):
        self.scheduler, self.dask_local = scheduler, dask_local
        self.client = self.cluster = None

    def __enter__(self):
        if self.scheduler is None and self.dask_local is None:
            return None
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise UserError("--scheduler/--dask-local need dask.distributed: pip install distributed") from None
        try:
            if self.dask_local is not None:
                self.cluster = LocalCluster(n_workers=self.dask_local, threads_per_worker=1, processes=True,
                                            dashboard_address=None)
                self.client = Client(self.cluster)
            else:
                self.client = Client(self.scheduler, timeout="20s")
        except (OSError, TimeoutError, ValueError) as e:
            raise UserError(f"--scheduler {self.scheduler}: cannot connect ({e})") from None
        return self.client

    def __exit__(self, *exc):
        if self.client is not None:
            self.client.close()
        if self.cluster is not None:
            self.cluster.close()
        return False


def _report_dir(report_dir):
    """Check a --report directory before playing, so a bad one fails at once."""
    if report_dir is not None:
        prepare_report_dir(report_dir)


def _write_report(results, report_dir, console):
    """Write the report of ``results``; say which results were used if chosen among several, and where."""
    written = write_report(results, report_dir)
    if written.note:
        console.print(written.note)
    console.print(f"report: {written.html} ({len(written.files)} files)", soft_wrap=True)


def _run_with_progress(spec, out, workers, chunk_size, console, client):
    """Run ``spec`` into ``out`` (or, with ``spec`` None, resume the run in ``out``) with a progress bar."""
    if spec is None:
        try:   # for the progress bar only: resume_run checks the record and says what is wrong with it
            saved = json.loads((out / "run.json").read_text())
            total, unit, what = saved["count"], saved["mode"], variant_of(saved).table
        except (OSError, ValueError, TypeError, KeyError):
            total, unit, what = 0, "games", "hands"
    else:
        total, unit, what = spec.count, "games" if spec.games is not None else "hands", spec.variant.table
    columns = [TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed:,}/{task.total:,} " + unit),
               TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn()]
    # shown from the first chunk on: before it, the engine may be compiling, and says so itself (compiling.py)
    progress = Progress(*columns, console=console, disable=not console.is_terminal)
    task = progress.add_task("playing", total=total, rate="")
    if client is not None:
        progress.update(task, description="sending to the cluster")
        progress.start()

    def on_chunk(done, hands_done, seconds):
        rate = hands_done / max(seconds, 1e-9)
        progress.update(task, completed=done, rate=f"{rate:,.0f} {what}/s", description="playing")
        progress.start()

    try:
        if spec is None:
            return resume_run(out, workers, on_chunk, client)
        return run_to_dir(spec, out, workers, chunk_size, on_chunk, client)
    finally:
        progress.stop()


UNITS = {}   # each unit a variant's games are made of ("hand", "round"), with the variants made of it
for _v in VARIANTS.values():
    UNITS.setdefault(_v.unit, []).append(_v)


def unit_options(f):
    """``--hand N``, ``--round N``...: one option per unit a registered variant is made of."""
    for unit, kinds in reversed(UNITS.items()):
        titles = ", ".join(v.title for v in kinds)
        low, high = min(v.first_unit for v in kinds), max(v.last_unit for v in kinds)
        f = click.option(f"--{unit}", f"unit_{unit}", type=click.IntRange(low, high), default=None,
                         help=f"The {unit} of the game ({titles}; default {kinds[0].first_unit}).")(f)
    return f


@cli.command()
@click.option("--variant", type=VariantChoice(), default=None,
              help=f"{VARIANT_WORDS}. Default {DEFAULT_VARIANT}; with --from, the run's.")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=None, help="Master seed (default 0, or the run's).")
@click.option("--game", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
              help="Game index (0 to 2**63 - 1, the kernels' int64).")
@unit_options
@players_option
@click.option("--strategy", "strategy_names", multiple=True, metavar="NAME|FILE",
              help="Strategy for every seat, or repeated once per seat. Default: greedy, or the run's with --from.")
@click.option("--from", "from_dir", type=click.Path(file_okay=False), default=None,
              help="Take variant, players, seed, strategies and rules from a saved run.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per line.")
@click.option("--html", "html_file", type=click.Path(), default=None,
              help="Write it instead as one self-contained page to step through, move by move (FILE.html).")
@with_rule_options
def replay(variant, seed, game, players, strategy_names, from_dir, as_json, html_file, rule_pairs, rules_file,
           **units):
    """Print one hand (Shanghai: one round) move by move: rummysim replay --seed 0 --game 3 --hand 1"""
    if html_file is not None:
        if as_json:
            raise UserError("give --json or --html, not both")
        check_page_path(html_file)
    recorded = []  # the strategies a saved run used, to check they are unchanged
    if from_dir is not None:
        path = Path(from_dir) / "run.json"
        try:
            saved = json.loads(path.read_text())
            variant = variant or variant_of(saved)
            players = players or saved["players"]
            recorded = saved["strategies"] if not strategy_names else []
            strategy_names = strategy_names or [s.get("path", s["source"]) for s in saved["strategies"]]
            rules = rules_from_mapping(variant, saved["rules"])   # every value, "unlimited" too
            seed = saved["seed"] if seed is None else seed
        except (OSError, ValueError, KeyError) as e:
            raise UserError(f"--from {from_dir}: not a readable rummysim run ({e})") from None
    else:
        variant = variant or variant_named(DEFAULT_VARIANT)
        rules = _rules(variant, rule_pairs, rules_file)
    v = variant
    players = _players(players, variant)
    seed = seed or 0
    given = {name.removeprefix("unit_"): value for name, value in units.items()}
    for unit, value in given.items():
        if value is not None and unit != v.unit:
            owners = " or ".join(k.title for k in UNITS[unit])
            raise UserError(f"--{unit} is for {owners}; {v.title} replays --{v.unit}")
    number = given[v.unit] if given[v.unit] is not None else v.first_unit
    if number < v.first_unit:
        raise UserError(f"--{v.unit} {number}: {v.title} numbers its {v.unit}s from {v.first_unit}")
    if from_dir is not None and "play" in saved:   # a person's game: its moves were saved, not a strategy's
        return _replay_played(Path(from_dir), saved, v, game, number, as_json)
    if from_dir is not None:
        _check_played(from_dir, saved, game)
    strategies = seat_strategies(strategy_names, players, variant)
    for s, r in zip(strategies, recorded):
        if s.sha256 != r["sha256"]:
            raise UserError(f"--from {from_dir}: strategy {r['source']} has changed since the run "
                            f"(sha256 {s.sha256}, recorded {r['sha256']}): the {v.unit} would not be the same")
    rules.check_players(players)
    rules_array, params = rules.to_array(players), params_matrix(strategies)
    units = None   # the hands (rounds) of the game; None: a run of independent hands, one a game index
    if from_dir is not None and saved.get("mode") == "hands":
        if number != v.first_unit:
            raise UserError(f"--{v.unit} {number}: the run in {from_dir} played independent {v.unit}s, "
                            f"one a game index: give --{v.unit} {v.first_unit}")
    else:
        units = v.units_in_game(seed, game, players, rules_array, params)   # only playing the game tells
        if number >= v.first_unit + units:
            of = f" of the run in {from_dir}" if from_dir is not None else ""
            raise UserError(f"--{v.unit} {number}: game {game}{of} ended after {units} {v.unit}s "
                            f"({v.first_unit}..{v.first_unit + units - 1})")
    events = v.replay(seed, game, number, players, rules_array, params)
    if as_json:
        _echo_events(v, events, True)
        return
    totals = None if units is None else game_totals(v, seed, game, number, players, rules_array, params, events,
                                                    units)
    flags = rule_flags(v, rules.as_dict(players), players)
    if html_file is not None:
        path = write_page(html_file, replay_page(v, events, strategies, seed, game, number, flags, totals))
        click.echo(f"replay: {path} (the deal and {len(events) - 1} moves)")
        return
    header = replay_header(v, events[0], [s.name for s in strategies], seed, game, number, flags,
                           replay_command(v, strategies, seed, game, number, flags))
    _echo_events(v, events, False, header, totals)


def _echo_events(v, events, as_json, header=(), totals=None):
    """Print a replay: one JSON object a line, or the ``header`` lines, a blank line, each event as text
    (``Variant.format_event``) and the game ``totals`` line if any."""
    if as_json:
        for e in events:
            click.echo(json.dumps(e))
        return
    for line in [*header, ""]:
        click.echo(line)
    for e in events:
        click.echo(v.format_event(e))
    if totals is not None:
        click.echo(totals.line)


def _replay_played(from_dir, saved, v, game, number, as_json):
    """Print hand (round) ``number`` of a game played with ``rummysim play``, from its saved events."""
    _check_played(from_dir, saved, game)
    try:
        ends = [saved_events(from_dir, saved, v.unit, v.first_unit, n)[-1] for n in range(v.first_unit, number)]
        events = saved_events(from_dir, saved, v.unit, v.first_unit, number)
    except (OSError, ValueError) as e:
        raise UserError(str(e).splitlines()[0]) from None
    players = saved["players"]
    over = saved.get("status") == "complete" and number == v.first_unit + saved[f"{v.table}_played"] - 1
    header = replay_header(v, events[0], [s["name"] for s in saved["strategies"]], saved["seed"], game, number,
                           rule_flags(v, saved["rules"], players), f"rummysim replay --from {from_dir} "
                           f"--game {game} --{v.unit} {number}")
    _echo_events(v, events, as_json, header, totals_of(v, [*ends, events[-1]], number, over))


def _check_played(from_dir, saved, game):
    """That the run in ``from_dir`` (its run.json ``saved``) played game ``game``."""
    try:
        first, count, mode = int(saved.get("first", 0)), int(saved["count"]), saved["mode"]
    except (KeyError, TypeError, ValueError) as e:
        raise UserError(f"--from {from_dir}: not a readable rummysim run ({e})") from None
    if not first <= game < first + count:
        what = "games" if mode == "games" else "game indices (one hand each)"
        raise UserError(f"--game {game}: the run in {from_dir} played {what} {first}..{first + count - 1}")


@cli.command()
@variant_option
@players_option
@click.option("--opponent", "opponents", multiple=True, metavar="NAME|FILE",
              help="The bots' strategy: once for every opponent, or once per opponent seat in order (default greedy).")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True, help="Master seed.")
@click.option("--hint-strategy", "hint_name", default=None, metavar="NAME|FILE",
              help="The strategy whose move 'hint' shows and 'auto' plays. Default: "
                   + "; ".join(f"{v.title} {v.hint_strategy}" for v in VARIANTS.values()) + ".")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Where to save the game. Default: results/play-<time>-seed<seed>.")
@click.option("--overwrite", is_flag=True, help="Replace results already in --out.")
@click.option("--pause", type=click.FloatRange(0, 10), default=0.6, show_default=True,
              help="Seconds after each opponent's move on a terminal (none when piped).")
@click.option("--ask-every-move", "ask_single", is_flag=True,
              help="Ask at a decision with one legal move too (by default it is played, and shown).")
@with_rule_options
def play(variant, players, opponents, seed, hint_name, out_dir, overwrite, pause, ask_single, rule_pairs, rules_file):
    """Play a game against the bots in this terminal: rummysim play --opponent expert

    You sit in seat 0. At each decision answer with a listed move's number or its words (draw stock,
    take, meld H3 H4 H5, layoff SQ 2, discard D9; Shanghai: buy, pass, contract ..., swap ...);
    hint shows what --hint-strategy would do and why, auto plays it (auto hand, auto round: to the end of the
    hand or round; auto game: to the end), quit ends and saves the game. A decision with one legal move is played
    without asking (--ask-every-move asks).
    When stdin is not a terminal, moves are read one a line: yes auto | rummysim play --seed 1
    plays game 0 of rummysim run --games 1 --seed 1 --strategy expert --strategy greedy, move for move.
    """
    if players is None and len(opponents) > 1:
        players = len(opponents) + 1
    players = _players(players, variant)
    if len(opponents) not in (0, 1, players - 1):
        raise UserError(f"--opponent given {len(opponents)} times for {players - 1} opponents: "
                        "give it once for all, or once per opponent")
    rules = _rules(variant, rule_pairs, rules_file, players)
    bots = seat_strategies(opponents, players - 1, variant)
    try:
        hint = load_strategy(hint_name or variant.hint_strategy, variant)
    except StrategyError as e:
        raise StrategyError(f"--hint-strategy: {e}") from None
    spec = RunSpec(variant, players, [human_strategy(hint)] + bots, seed, rules, games=1)
    # the terminal's own width, a dumb one's too (rich takes 80 columns for those): lines wrap on words there
    size = shutil.get_terminal_size() if sys.stdout.isatty() else None
    console = Console(highlight=False, width=size and size.columns, height=size and size.lines)
    with _out(out_dir, overwrite, "play", seed) as out:
        record, ended = play_game(spec, hint, out, pause, console, ask_single)
    _show_played(record, out, console, ended)
    if ended == "interrupted":
        sys.exit(130)


def _show_played(record, out, console, ended):
    """The final scores, and where the game is and how to replay any of its hands (rounds); ``ended``:
    how the game ended (``play_game``'s)."""
    v = variant_of(record)
    seats = [s["name"] for s in record["strategies"]]
    names = [seat_called(q, YOU, seats) for q in range(len(seats))]
    scores = record["play"]["totals"]
    state = {"complete": "game over", "quit": "game stopped (quit): saved what was finished",
             "interrupted": "game stopped (Ctrl-C): saved what was finished"}[ended]
    console.print(f"{state}. Final scores: " + ", ".join(f"{n} {t}" for n, t in zip(names, scores)), highlight=False,
                  soft_wrap=True)
    played = record[f"{v.table}_played"]
    console.print(f"saved: {out} (rummysim report {out})", highlight=False, soft_wrap=True)
    if played:
        first = v.first_unit
        console.print(f"replay a {v.unit}: rummysim replay --from {out} --{v.unit} N "
                      f"(N from {first} to {first + played - 1})", highlight=False, soft_wrap=True)


def _count(games, hands, variant, which):
    """``(games, hands)``: exactly one of them, the variant's default (``which``: ``run_default`` or
    ``compare_default``) if neither was given; ``--hands`` only where the variant plays single hands."""
    if games is not None and hands is not None:
        raise UserError("give --games or --hands, not both")
    if hands is not None and not variant.hands_mode:
        raise UserError(f"--hands: {variant.title} is played in whole games; give --games")
    if games is None and hands is None:
        kind, count = getattr(variant, which)
        return (count, None) if kind == "games" else (None, count)
    return games, hands


@contextlib.contextmanager
def _out(out_dir, overwrite, command, seed):
    """The results directory of ``command``, held (one writer) for the block: ``--out`` or a new
    ``results/<command>-<time>-seed<seed>`` (``-2``, ``-3``... if another run took that name)."""
    default = f"results/{command}-{time.strftime('%Y%m%d-%H%M%S')}-seed{seed}"
    stack = contextlib.ExitStack()
    try:
        out = stack.enter_context(results_dir(out_dir, overwrite, default))
    except ValueError as e:
        raise UserError(str(e)) from None
    with stack:
        yield out


match_options = [
    click.option("--games", type=int, callback=_positive, help="Full games per seating."),
    click.option("--hands", type=int, callback=_positive, help="Deals, each played once per seat rotation."),
    click.option("--players", type=int, default=None, help=f"Players at the table: {PLAYERS_WORDS}."),
    click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
                 help="Master seed: the same seed and options play the same deals, whatever the threads."),
    click.option("--workers", type=int, callback=_positive, help="Threads. Default: all cores."),
    click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
                 help="Where to save results. Default: results/<command>-<time>-seed<seed>."),
    click.option("--overwrite", is_flag=True, help="Replace results already in --out."),
    click.option("--chunk-size", type=int, callback=_positive, help="Games (or hands) per chunk."),
]


def with_match_options(f):
    for opt in reversed(match_options):
        f = opt(f)
    return with_rule_options(f)


@cli.command()
@click.argument("strategy_files", nargs=-1, metavar="A B [C ...]")
@variant_option
@with_match_options
@click.option("--sprt", nargs=2, type=float, default=None, metavar="ELO0 ELO1",
              help="Sequential probability ratio test of Elo = ELO1 against Elo = ELO0 (2 players), looked at "
                   "every 100 duplicate deals: stops when the data favour one over the other at the error rates "
                   "--alpha and --beta. It decides between the two values; it does not estimate the difference.")
@click.option("--elo-model", type=click.Choice(["logistic", "normalized"]), default="logistic", show_default=True,
              help="The Elo scale of --sprt: logistic, or normalized Elo (score - 0.5 over the per-game standard "
                   "deviation, times 800 / ln 10, as fishtest defines it).")
@click.option("--alpha", type=click.FloatRange(0, 0.5, min_open=True), default=0.05, show_default=True,
              help="With --sprt: the chance of accepting ELO1 when ELO0 is true.")
@click.option("--beta", type=click.FloatRange(0, 0.5, min_open=True), default=0.05, show_default=True,
              help="With --sprt: the chance of accepting ELO0 when ELO1 is true.")
@click.option("--json", "as_json", is_flag=True, help="Print the whole result as one JSON object.")
@click.option("--report", "report_dir", type=click.Path(file_okay=False), default=None,
              help="Also write the report (as rummysim report) into this directory.")
@click.option("--resume", "resume_dir", type=click.Path(file_okay=False), default=None,
              help="Finish an interrupted comparison in this directory (its own options are used).")
@with_dask_options
@click.pass_context
def compare(ctx, strategy_files, variant, games, hands, players, seed, workers, out_dir, overwrite, chunk_size,
            rule_pairs, rules_file, sprt, elo_model, alpha, beta, as_json, report_dir, resume_dir, scheduler,
            dask_local):
    """Is A really better than B? Duplicate deals, paired intervals, optional SPRT."""
    _one_cluster(scheduler, dask_local)
    if resume_dir is not None:
        given = [p for p in ctx.params if p not in ("resume_dir", "workers", "as_json", "report_dir", "scheduler",
                                                    "dask_local")
                 and ctx.get_parameter_source(p) == click.core.ParameterSource.COMMANDLINE]
        if given or strategy_files:
            what = "the strategies" if strategy_files else "--" + given[0].replace("_", "-")
            raise UserError(f"--resume uses the comparison's own options: drop {what}")
        return _resume_compare(resume_dir, workers, as_json, report_dir, scheduler, dask_local)
    if len(strategy_files) < 2:
        raise UserError("compare needs at least two strategies")
    players = _players(players, variant)
    if sprt is not None and players != 2:
        raise UserError("--sprt works on 2-player pentanomial results: use --players 2")
    if sprt is not None and sprt[0] >= sprt[1]:
        raise UserError(f"--sprt {sprt[0]:g} {sprt[1]:g}: ELO0 must be below ELO1")
    games, hands = _count(games, hands, variant, "compare_default")
    rules = _rules(variant, rule_pairs, rules_file, players)
    strategies = [load_strategy(f, variant) for f in strategy_files]
    _report_dir(report_dir)
    if sprt is not None and chunk_size is None:
        chunk_size = 1000 if games is not None else 4000
    console = Console(stderr=as_json)
    pairs = len(strategies) * (len(strategies) - 1) // 2
    # connect first: a scheduler that cannot be reached leaves nothing behind
    with _dask_client(scheduler, dask_local) as client, _out(out_dir, overwrite, "compare", seed) as out, \
            _match_progress(console, pairs * (games or hands), "games" if games else "deals") as on_chunk:
        try:
            result = run_compare(variant, strategies, players, seed, rules, games, hands, workers, chunk_size, sprt,
                                 alpha, beta, out, on_chunk=on_chunk, elo_model=elo_model, client=client)
        except KeyboardInterrupt:
            _compare_interrupted(out, console)
        except ChunkError as e:
            raise UserError(f"{out}: {e}; rummysim compare --resume {out} plays it again") from None
    _show_compare(result, out, as_json, report_dir, console)


@contextlib.contextmanager
def _match_progress(console, total, unit):
    """A progress bar of a comparison's matches (on a terminal only), moved on by the ``on_chunk(done,
    hands)`` it gives as each chunk of a match is taken in (``done``: the match's deals so far)."""
    progress = Progress(TextColumn("playing"), BarColumn(), TextColumn("{task.completed:,}/{task.total:,} " + unit),
                        TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(), console=console,
                        disable=not console.is_terminal)
    task = progress.add_task("playing", total=total)
    last = [0]

    def on_chunk(done, hands):
        progress.advance(task, done - last[0] if done >= last[0] else done)   # a new match starts from 0
        last[0] = done
        progress.start()

    try:
        yield on_chunk
    finally:
        progress.stop()


def _compare_interrupted(out, console):
    try:
        done = json.loads((Path(out) / "compare.json").read_text()).get("finished_chunks", 0)
    except (OSError, ValueError):
        done = 0
    console.print(f"[yellow]interrupted: {done} finished chunks are kept in {out}; "
                  f"rummysim compare --resume {out} finishes the comparison[/]")
    sys.exit(130)


def _resume_compare(resume_dir, workers, as_json, report_dir, scheduler, dask_local):
    console = Console(stderr=as_json)
    _report_dir(report_dir)
    with _dask_client(scheduler, dask_local) as client:
        try:
            result = resume_compare(Path(resume_dir), workers, client=client)
        except ChunkError as e:
            raise UserError(f"{resume_dir}: {e}; rummysim compare --resume {resume_dir} plays it again") from None
        except KeyboardInterrupt:
            _compare_interrupted(resume_dir, console)
    _show_compare(result, resume_dir, as_json, report_dir, console)


def _show_compare(result, out, as_json, report_dir, console):
    if as_json:
        click.echo(json.dumps(json_safe(result)))
    else:
        render(result, console)
        console.print(f"results: {out}", soft_wrap=True)   # a path to paste: one line
    if report_dir is not None:
        _write_report(out, report_dir, console)


@cli.command()
@click.argument("results", type=click.Path())
@click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Report directory. Default: report/ inside the results directory.")
def report(results, out_dir):
    """Tables and plots of saved results in one self-contained report.html: rummysim report RESULTS -o DIR

    RESULTS is a run or compare directory, or a directory holding several:
    then the newest is used, and named.
    """
    if out_dir is None:
        out_dir = find_results(results)[0] / "report"
    _write_report(results, out_dir, Console())


@cli.command()
@click.argument("strategy_file")
@click.option("--param", "key", required=True, help="Strategy key to vary, e.g. meld.abandon_turn.")
@click.option("--values", required=True, help="Comma-separated values, e.g. 4,8,12,16.")
@click.option("--baseline", default="greedy", show_default=True, help="Strategy every value plays against.")
@variant_option
@with_match_options
@click.option("--json", "as_json", is_flag=True, help="Print the sweep's result as one JSON object instead of tables.")
@with_dask_options
def sweep(strategy_file, key, values, baseline, variant, games, hands, players, seed, workers, out_dir, overwrite,
          chunk_size, rule_pairs, rules_file, as_json, scheduler, dask_local):
    """Play each value of one strategy key against a baseline: where does it stop paying?"""
    _one_cluster(scheduler, dask_local)
    players = _players(players, variant)
    games, hands = _count(games, hands, variant, "compare_default")
    rules = _rules(variant, rule_pairs, rules_file, players)
    items = [v.strip() for v in values.split(",") if v.strip()]
    if not items:
        raise UserError("--values: give at least one value")
    base = load_strategy(strategy_file, variant)
    strategies = [with_override(base, key, v, variant) for v in items]
    against = load_strategy(baseline, variant)
    # connect first: a scheduler that cannot be reached leaves nothing behind
    with _dask_client(scheduler, dask_local) as client, _out(out_dir, overwrite, "sweep", seed) as out:
        result = run_sweep(variant, strategies, items, key, against, players, seed, rules, games, hands, workers,
                           chunk_size, out, client)
    if as_json:
        click.echo(json.dumps(json_safe(result)))
    else:
        render_sweep(result, Console())
        click.echo(f"results: {out} (sweep.png, sweep.csv)")


@cli.command()
@click.argument("strategy_file")
@click.option("--param", "knobs", multiple=True, required=True, metavar="KEY=LOW:HIGH | KEY=A,B | KEY",
              help="A key to tune: an integer range, or choices (the key alone: all its choices). Repeat for more.")
@click.option("--against", multiple=True, required=True, help="A strategy of the field. Repeat for more.")
@click.option("--trials", type=click.IntRange(1, 100_000), default=100, show_default=True, help="Candidates to try.")
@click.option("--out", "out_file", required=True, type=click.Path(dir_okay=False),
              help="The tuned strategy file to write.")
@click.option("--name", default=None, help="The tuned strategy's name. Default: the --out file's stem.")
@click.option("--overwrite", is_flag=True, help="Replace --out and --report if they exist.")
@click.option("--report", "report_dir", type=click.Path(file_okay=False), default=None,
              help="Where tune.json, trials.csv, history.png and effects.png go. Default: results/tune-<time>-seed<seed>.")
@variant_option
@click.option("--games", type=int, callback=_positive, help="Full games per seating, per match.")
@click.option("--hands", type=int, callback=_positive, help="Deals per match, each played once per seat rotation.")
@players_option
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
              help="Seed of the deals every candidate plays (the confirmation uses a fresh one derived from it).")
@click.option("--workers", type=int, callback=_positive, help="Threads. Default: all cores.")
@with_dask_options
@with_rule_options
def tune(strategy_file, knobs, against, trials, out_file, name, overwrite, report_dir, variant, games, hands, players,
         seed, workers, scheduler, dask_local, rule_pairs, rules_file):
    """Search strategy keys for a stronger setting (optuna TPE), every candidate on the same duplicate deals."""
    _one_cluster(scheduler, dask_local)
    try:
        import optuna  # noqa: F401  (an optional library: the message says how to install it)
    except ImportError:
        raise UserError(T.INSTALL) from None
    players = _players(players, variant)
    games, hands = _count(games, hands, variant, "compare_default")
    rules = _rules(variant, rule_pairs, rules_file, players)
    parsed = [T.parse_knob(k, variant) for k in knobs]
    if len({k.key for k in parsed}) < len(parsed):
        raise UserError("--param: each key once")
    base = load_strategy(strategy_file, variant)
    field = [load_strategy(a, variant) for a in against]
    if is_search(base, variant):
        raise UserError(f"{strategy_file}: a search bot; tune the rule-based strategy it plays out (its search.rollout)")
    out = Path(out_file)
    if out.suffix != ".toml":
        raise UserError(f"--out {out_file}: a strategy file ends in .toml")
    if out.exists() and not overwrite:
        raise UserError(f"--out {out_file}: exists; give --overwrite to replace it")
    if not out.parent.is_dir():
        raise UserError(f"--out {out_file}: no directory {out.parent}")
    console = fitted(Console())
    # connect first: a scheduler that cannot be reached leaves nothing behind
    with _dask_client(scheduler, dask_local) as client, _out(report_dir, overwrite, "tune", seed) as where:
        result = T.tune(variant, base, parsed, field, players, seed, rules, games, hands, trials, workers,
                        on_trial=lambda r: console.print(f"trial {r['trial']}: {r['settings']} {T.score_text(r['score'])}"),
                        client=client)
        T.write_outputs(result, Path(where))
    digest = T.write_strategy(result, base, out, name or out.stem)
    console.print(T.description(result))
    console.print(f"wrote {out} ({digest}); history, effects and trials in {where}", soft_wrap=True)


@cli.group()
def strategies():
    """The shipped strategies: list them, or print one as a file to edit.

    rummysim strategies show expert > mine.toml  (then: rummysim compare mine.toml expert)
    """


@strategies.command("list")
@click.option("--variant", type=VariantChoice(), default=None, help="Only this variant's. Default: every variant's.")
def strategies_list(variant):
    """One line each: the variant, the name (what --strategy and compare take), the first sentence of its
    description."""
    width = shutil.get_terminal_size().columns
    for v in VARIANTS.values() if variant is None else (variant,):
        for name in builtin_names(v):
            words = " ".join(load_strategy(name, v).description.split()).split(". ")[0].rstrip(".") + "."
            line = f"{v.name:<9} {name:<13} {words}"
            click.echo(line if len(line) <= width else line[:width - 3] + "...")


@strategies.command("show")
@click.argument("name")
@variant_option
def strategies_show(name, variant):
    """Print the file of shipped strategy NAME as it is, to save and edit: rummysim strategies show expert >
    mine.toml"""
    if name not in builtin_names(variant):
        if Path(name).suffix or Path(name).parent != Path("."):
            raise StrategyError(f"strategies show {name}: it shows a shipped strategy by name "
                                f"({', '.join(builtin_names(variant))}); a file of yours is yours to edit")
        load_strategy(name, variant)   # an unknown name: one line naming what is shipped
    click.echo((builtin_dir(variant) / f"{name}.toml").read_text(encoding="utf-8"), nl=False)


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Anything but loopback (127.0.0.1, localhost, ::1) is warned about: "
                   "others on the network can reach the server.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port to listen on.")
@click.option("--dir", "root", type=click.Path(file_okay=False), default=None,
              help="Where the games are saved (and resumed from). Default: results/serve-<time>.")
@click.option("--strategies", "strategy_dirs", multiple=True,
              type=click.Path(exists=True, file_okay=False, resolve_path=True),
              help="A directory of strategy files the page may name as opponents or hints (.toml files under "
                   "it, by their path from it); repeatable. Without it only shipped strategies are offered.")
@click.option("--max-games", type=click.IntRange(1, 1_000_000), default=1_000, show_default=True,
              help="Games the directory keeps: more are refused.")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the default browser.")
def serve(host, port, root, strategy_dirs, max_games, open_browser):
    """Play against the bots in the browser: rummysim serve, then open the address it prints.

    Each game is saved under --dir like play's (rummysim replay --from DIR/ID, rummysim report DIR/ID);
    serving the same --dir again resumes its games. The address carries the server's token: only the
    page opened from it (and scripts that send the token) can play.
    """
    if serve_games is None:
        raise UserError(f"serve needs its extra: pip install 'rummysim[serve]' ({SERVE_MISSING})")
    limits = ServeLimits(games=max_games)
    serve_games(Path(root or f"results/serve-{time.strftime('%Y%m%d-%H%M%S')}"), host, port, open_browser, click.echo,
                tuple(Path(d) for d in strategy_dirs), limits)


def main(argv=None):
    """Console entry point: click errors (and the API's ``UsageError``) become one line and exit code 2."""
    try:
        with compile_notice():
            cli.main(args=argv, prog_name="rummysim", standalone_mode=False)
    except UsageError as e:
        click.echo(f"rummysim: error: {str(e).splitlines()[0] if str(e) else type(e).__name__}", err=True)
        sys.exit(EXIT_USAGE)
    except click.exceptions.Abort:
        click.echo("rummysim: aborted", err=True)
        sys.exit(130)
    except click.ClickException as e:
        message = e.format_message().splitlines()[0] if e.format_message() else str(e)
        if isinstance(e, click.UsageError) and e.ctx is not None and e.ctx.command is not cli:
            message = f"{e.ctx.command.name}: {message}"
        click.echo(f"rummysim: error: {message}", err=True)
        sys.exit(EXIT_USAGE)


#: glibc's mallopt parameters (malloc.h)
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3


def keep_freed_memory() -> None:
    """Let the process reuse the memory it frees instead of giving it back to the system and faulting
    it in again, zeroed, for the next chunk (the kernel's rows, their Arrow copies, the files'
    buffers: tens of MB a chunk). glibc's allocator keeps blocks up to 32 MB in its heap and returns
    free memory only past 512 MB; Arrow allocates through it too. On a million 2-player games on 2 cores
    this took the system time from 3.3-3.8 s to 1.4-1.6 s and the wall time about 3% down
    (docs/speed.md). Elsewhere than glibc nothing changes."""
    import ctypes
    import ctypes.util

    try:
        mallopt = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").mallopt
    except (OSError, AttributeError):
        return
    mallopt(M_MMAP_THRESHOLD, 32 << 20)
    mallopt(M_TRIM_THRESHOLD, 512 << 20)
    pa.set_memory_pool(pa.system_memory_pool())


def entry() -> None:
    """The ``rummysim`` command (and ``python -m rummysim``): ``main``, then the process ends at once.

    Tearing down an interpreter that loaded the compiled engine takes 0.15-0.3 s (Numba's and LLVM's
    objects, freed one by one; ``benchmarks/breakdown.py``), after the command's work is done: every
    file it writes is closed by then. So the exit handlers run, the output is flushed, and the
    process exits without that teardown, with ``main``'s exit status. An error that is a bug (a
    traceback) still ends the ordinary way."""
    keep_freed_memory()
    try:
        main()
        code = 0
    except SystemExit as e:
        code = e.code
    if code is None:
        code = 0
    elif not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):   # a closed pipe (``rummysim ... | head``): nothing more to say
            pass
    os._exit(code)
