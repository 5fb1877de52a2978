"""Every command example of the README and of the pages of docs/ runs for a user who installed with pip.

The examples are the lines of the shell code blocks (```` ``` ```` fences with no language, or ``sh``,
``bash``, ``shell``, ``console``) that call ``rummysim`` (or ``python -m rummysim``): at the start of
the line, after a ``|``, ``;``, ``&&`` or a loop's ``do``. In a block with ``$ `` prompts only the
prompted lines are commands; a line ending in ``\\`` goes on on the next; a ``# comment`` is dropped; a
leading ``pip install ... &&`` is dropped (installing is the environment's business). Lines of a block
that run something else (``pip``, ``git``, ``dask``) are not run. Inline code (`` `rummysim run` ``)
is not run: it names commands in sentences, mostly with placeholders (``DIR``, ``N``).

Each page's commands run in the order of the page, in one directory outside the repository
(``tmp_path``), so that ``run --out results/run1`` then ``report results/run1``, or ``strategies show
expert > mine.toml`` then ``compare mine.toml expert``, work as they do for a reader. Each runs through
``bash -e -c`` (redirects, pipes and loops as written) with stdin from /dev/null (``play`` reads the end
of input as ``quit``), the installed ``rummysim`` first on the PATH and the environment's
``NUMBA_CACHE_DIR``. The one thing changed is the sample size (see ``as_run``). Each must exit 0,
print no traceback and never say ``cannot read it`` (a file of the checkout, such as
``strategies/greedy.toml``, that a pip install does not have). A command the README already runs, and
that names no file, is not run again on a later page (``plan``). The whole file: about two minutes
with a warm compiled cache, most of it the start-up of each command.

Two rules in the page text, both explicit:

* a block right after a line ``<!-- not run by tests/test_doc_commands.py: REASON -->`` is not run
  (it needs the git history or a Dask cluster, or is a template with placeholders);
* a command followed in its block by a line starting ``rummysim: error:`` shows bad input: it must
  exit 2 and its stderr must start with that line's text.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from rummysim.variants import VARIANTS

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))

SHELL_BLOCKS = {"", "sh", "bash", "shell", "console"}
FENCE = re.compile(r"^```([\w-]*)[^\n]*\n(.*?)^```", re.M | re.S)
NOT_RUN = "<!-- not run by tests/test_doc_commands.py:"
ERROR = "rummysim: error:"
# where a command starts: the line's start, after a pipe, ; or && and a loop's do
INVOKES = re.compile(r"(?:^|[|;&]\s*|\bdo\s+)(?:python -m )?rummysim(?=\s|$)")
PLAYS = re.compile(r"(?P<cmd>(?:python -m )?rummysim\s+(?P<sub>run|compare|sweep|tune))(?P<rest>[^|;&]*)")

# The sizes of the sample are the one thing changed: a documented command may play a million games,
# which the test suite cannot afford. Each size option is cut down to these (never raised; a Shanghai
# game is ten rounds, and `replay --from results/run1 --game 3` needs four Basic games), and a command
# that plays and gives none (so would play the default: 20,000 deals for compare) gets the variant's
# default kind at this size. Names, paths, seeds and every other option run as written.
GAMES = {"basic": 4, "gin": 4, "shanghai": 2}
HANDS = 40
TRIALS = 2
SIZE_OPTION = re.compile(r"(--games|--hands|--trials)(\s+|=)(\d+)")

# A command that names no file (no path, redirect or pipe, no file name) does the same in any
# directory: written identically on an earlier page (README.md first, then docs/ in order), it is run
# there only. The README repeats most of the pages' examples; each costs seconds of start-up.
NAMES_A_FILE = re.compile(r"[/<>|]|\.(?:toml|html|json|csv|png|parquet|md|txt)\b")

# pages whose commands take more than ~20 s with a warm compiled cache (measured on 2 busy cores)
SLOW_PAGES = {"README.md", "docs/findings.md"}


@dataclass
class Command:
    page: str
    line: int               # of the page, 1-based, where the command starts
    written: str            # as in the page (continuations joined, comment dropped)
    error: str | None = None    # the `rummysim: error: ...` line shown after it, if any

    def __str__(self):
        return f"{self.page}:{self.line}: {self.written}"


def _joined(lines):
    """(index of its first line, line) with ``\\`` continuations joined."""
    out, start, parts = [], None, []
    for i, line in enumerate(lines):
        if start is None:
            start = i
        piece = line.strip() if parts else line.rstrip()
        if piece.endswith("\\"):
            parts.append(piece[:-1].rstrip())
            continue
        parts.append(piece)
        out.append((start, " ".join(parts)))
        start, parts = None, []
    if parts:
        out.append((start, " ".join(parts)))
    return out


def commands_of(text: str, page: str = "page") -> list[Command]:
    """The ``rummysim`` commands of the shell blocks of a Markdown text, in order."""
    found = []
    for m in FENCE.finditer(text):
        if m.group(1) not in SHELL_BLOCKS:
            continue
        before = text[:m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        if before.startswith(NOT_RUN):
            continue
        first = text.count("\n", 0, m.start(2)) + 1
        lines = m.group(2).splitlines()
        prompted = any(line.startswith("$ ") for line in lines)
        last = None
        for i, line in _joined(lines):
            if prompted:
                if not line.startswith("$ "):
                    if last is not None and line.startswith(ERROR) and last.error is None:
                        last.error = line.strip()
                    continue
                line = line[2:]
            elif line.startswith(ERROR):
                if last is not None and last.error is None:
                    last.error = line.strip()
                continue
            code = re.sub(r"(?:^|\s)#.*$", "", line).strip()
            code = re.sub(r"^pip install\s.*?&&\s*", "", code)
            last = None
            if INVOKES.search(code):
                last = Command(page, first + i, code)
                found.append(last)
    return found


def page_name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def page_commands(path: Path) -> list[Command]:
    return commands_of(path.read_text(encoding="utf-8"), page_name(path))


def as_run(written: str) -> str:
    """The command with its sample sizes cut down (GAMES, HANDS, TRIALS), the one thing changed."""

    def one(m):
        v = re.search(r"--variant[\s=]+(\w+)", m["rest"])
        variant = v[1] if v else "basic"
        sizes = {"--games": GAMES[variant], "--hands": HANDS, "--trials": TRIALS}
        rest = SIZE_OPTION.sub(lambda s: f"{s[1]}{s[2]}{min(int(s[3]), sizes[s[1]])}", m["rest"])
        if re.search(r"--(games|hands|resume)\b", rest):
            return m["cmd"] + rest
        kind, _ = VARIANTS[variant].run_default if m["sub"] == "run" else VARIANTS[variant].compare_default
        return f"{m['cmd']} --{kind} {sizes['--' + kind]}{rest}"

    return PLAYS.sub(one, written)


def _env() -> dict[str, str]:
    """The test's environment (NUMBA_CACHE_DIR too), the installed rummysim first on the PATH."""
    bin_dir = str(Path(sys.executable).parent)
    return {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}


def run_page(commands: list[Command], cwd: Path) -> list[str]:
    """Run the commands in order in ``cwd``; the failures, each with what a reader needs."""
    failures, env = [], _env()
    for c in commands:
        code = as_run(c.written)
        t0 = time.perf_counter()
        p = subprocess.run(["bash", "-e", "-c", code], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=900)
        took = time.perf_counter() - t0
        expected = 2 if c.error else 0
        problems = []
        if p.returncode != expected:
            problems.append(f"exit {p.returncode}, expected {expected}")
        if c.error and not p.stderr.startswith(c.error.split("...")[0].rstrip()):
            problems.append(f"stderr does not start with {c.error!r}")
        if "Traceback (most recent call last)" in p.stdout + p.stderr:
            problems.append("a Python traceback")
        if "cannot read it" in p.stderr:
            problems.append("'cannot read it' (a file of the checkout?)")
        if os.environ.get("DOC_COMMANDS_TIMES"):     # a file to append each command's time to
            with open(os.environ["DOC_COMMANDS_TIMES"], "a") as f:
                print(f"{took:6.1f} s  {c}", file=f)
        if problems:
            tail = "\n".join("      " + s for s in p.stderr.strip().splitlines()[-12:])
            failures.append(f"{c.page}:{c.line}: {'; '.join(problems)}\n  as written: {c.written}\n"
                            f"  as run:     {code}\n  stderr (last lines):\n{tail}")
    return failures


def plan() -> dict[str, list[tuple[Command, str | None]]]:
    """Per page, its commands in order, each with the earlier page that runs it instead (or None)."""
    first, out = {}, {}
    for path in PAGES:
        rows = []
        for c in page_commands(path):
            earlier = first.get(c.written) if not NAMES_A_FILE.search(c.written) else None
            rows.append((c, earlier))
            first.setdefault(c.written, c.page)
        out[page_name(path)] = rows
    return out


def _page_params():
    return [pytest.param(path, id=page_name(path), marks=[pytest.mark.slow] if page_name(path) in SLOW_PAGES else [])
            for path in PAGES if any(earlier is None for _, earlier in plan()[page_name(path)])]


@pytest.mark.parametrize("path", _page_params())
def test_the_commands_of_the_page_run_outside_the_repository(path, tmp_path):
    assert ROOT not in tmp_path.resolve().parents
    commands = [c for c, earlier in plan()[page_name(path)] if earlier is None]
    if any(re.search(r"\brummysim\s+tune\b", c.written) for c in commands):
        pytest.importorskip("optuna", reason="rummysim tune needs optuna (the [tune] extra)")
    failures = run_page(commands, tmp_path)
    assert not failures, (f"{len(failures)} of the {len(commands)} commands of {page_name(path)} failed "
                          f"(run in {tmp_path}, outside the repository):\n\n" + "\n\n".join(failures))


# ---------------------------------------------------------------- the extraction itself (fast)

def test_the_extraction_finds_the_commands_of_every_page():
    by_page = {page_name(p): [c.written for c in page_commands(p)] for p in PAGES}
    pages = sorted((ROOT / "docs" / "commands").glob("*.md"))
    assert len(pages) >= 7
    for p in pages:
        found = by_page[page_name(p)]
        sub = p.stem
        assert any(re.match(rf"(.*\| )?rummysim {sub}\b", c) for c in found), \
            f"no `rummysim {sub}` command found on {page_name(p)}: {found}"
    readme = by_page["README.md"]
    assert "rummysim compare greedy rummy-seeker" in readme
    assert "rummysim strategies show expert > mine.toml" in readme
    assert readme.index("rummysim strategies show expert > mine.toml") < readme.index("rummysim compare mine.toml expert")
    # a continued line is one command; the Quickstart's pip install is dropped, its run kept
    assert any(c.startswith("rummysim tune expert ") and c.endswith("--out tuned.toml") for c in readme)
    assert "rummysim run --games 1000000" in readme
    assert "yes auto | rummysim play --seed 1 --opponent expert" in by_page["docs/commands/play.md"]
    assert sum(map(len, by_page.values())) >= 50


def test_a_repeated_command_runs_once_unless_it_names_a_file():
    rows = plan()
    readme = {c.written: earlier for c, earlier in rows["README.md"]}
    assert set(readme.values()) == {None}
    compare = {c.written: earlier for c, earlier in rows["docs/commands/compare.md"]}
    assert compare["rummysim compare greedy rummy-seeker"] == "README.md"
    strategies = {c.written: earlier for c, earlier in rows["docs/strategies.md"]}
    # the README's own two, but they write and read files: run again on their page
    assert strategies["rummysim strategies show expert > mine.toml"] is None
    assert strategies["rummysim compare mine.toml expert"] is None
    ran = [c for page in rows.values() for c, earlier in page if earlier is None]
    assert len(ran) >= 40


def test_no_command_names_a_file_of_the_checkout():
    """The issue's failure, found without running anything: a command reads or writes a file under the
    repository's strategies/ or examples/, which a pip install does not have."""
    bad = [str(c) for p in PAGES for c in page_commands(p)
           if re.search(r"(?:^|[\s=])(?:\./)?(?:strategies|examples)/", c.written)]
    assert not bad, "commands that need a checkout of the repository:\n" + "\n".join(bad)


SAMPLE = """\
Text `rummysim run --games 5` inline is not run.

```
pip install . && rummysim run --games 1000000          # comment
rummysim tune expert --param a=0:3 \\
    --against greedy --hands 20000 --trials 200 --out t.toml
git show x:y > z.toml
rummysim run --players 9
rummysim: error: --players 9: Basic Rummy takes 2 to 4
yes auto | rummysim play --seed 1
```

```console
$ rummysim compare greedy expert --sprt 0 10
win share ...
$ python -m rummysim replay --seed 0
```

```python
import rummysim  # rummysim run
```

<!-- not run by tests/test_doc_commands.py: a template -->
```
rummysim compare A B --players P
```

```bash
for p in 2 3; do rummysim compare expert greedy --players $p --games 20000; done
```
"""


def test_the_extraction_rules():
    found = commands_of(SAMPLE)
    assert [c.written for c in found] == [
        "rummysim run --games 1000000",
        "rummysim tune expert --param a=0:3 --against greedy --hands 20000 --trials 200 --out t.toml",
        "rummysim run --players 9",
        "yes auto | rummysim play --seed 1",
        "rummysim compare greedy expert --sprt 0 10",
        "python -m rummysim replay --seed 0",
        "for p in 2 3; do rummysim compare expert greedy --players $p --games 20000; done",
    ]
    assert [c.line for c in found] == [4, 5, 8, 10, 14, 16, 29]
    assert [c.error for c in found] == [None, None, "rummysim: error: --players 9: Basic Rummy takes 2 to 4",
                                        None, None, None, None]


def test_only_the_sizes_change():
    assert as_run("rummysim run --games 1000000 --out results/run1") == "rummysim run --games 4 --out results/run1"
    assert as_run("rummysim run --hands=3") == "rummysim run --hands=3"
    assert (as_run("rummysim compare a b --variant shanghai --games 400 --players 6 --out x")
            == "rummysim compare a b --variant shanghai --games 2 --players 6 --out x")
    assert (as_run("rummysim tune expert --param a=0:3 --hands 20000 --trials 200 --out t.toml")
            == "rummysim tune expert --param a=0:3 --hands 40 --trials 2 --out t.toml")
    # no size given: the variant's default kind, at the test's size
    assert as_run("rummysim compare greedy rummy-seeker") == "rummysim compare --hands 40 greedy rummy-seeker"
    assert (as_run("rummysim compare --variant shanghai a b > out.txt")
            == "rummysim compare --games 2 --variant shanghai a b > out.txt")
    assert as_run("rummysim run --resume results/big") == "rummysim run --resume results/big"
    assert as_run("rummysim compare mine.toml expert --seed 1") == "rummysim compare --hands 40 mine.toml expert --seed 1"
    for same in ("rummysim replay --seed 0 --game 3 --hand 1", "yes auto | rummysim play --seed 1 --opponent expert",
                 "rummysim strategies show expert > mine.toml", "rummysim report results/run1 -o reports/run1"):
        assert as_run(same) == same


def test_a_page_run_reports_a_command_that_needs_the_checkout(tmp_path):
    """What the issue saw: a strategy file of the checkout, named by path, cannot be read outside it.
    And the shown error: expected where the page shows it, a failure where it does not happen."""
    page = ("```\nrummysim strategies show expert > mine.toml\nrummysim compare strategies/greedy.toml mine.toml\n"
            "rummysim run --players 9\nrummysim: error: --players 9\n"
            "rummysim strategies list\nrummysim: error: no such thing\n```\n")
    failures = run_page(commands_of(page, "sample.md"), tmp_path)
    assert len(failures) == 2
    assert "sample.md:3: exit 2, expected 0; 'cannot read it'" in failures[0]
    assert "sample.md:6: exit 0, expected 2; stderr does not start with 'rummysim: error: no such thing'" in failures[1]
    assert "as written: rummysim compare strategies/greedy.toml mine.toml" in failures[0]
    assert "as run:     rummysim compare --hands 40 strategies/greedy.toml mine.toml" in failures[0]
    assert (tmp_path / "mine.toml").read_text().strip()
