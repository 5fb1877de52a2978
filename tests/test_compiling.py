"""The notice a terminal shows while the engine compiles (``rummysim.compiling``): said at once with what
is compiled and about how long, a spinner counting, and a last line when it is done; nothing for a
cached engine or off a terminal."""

import io
import os
import subprocess
import sys
import time

import pytest
from numba import njit
from rich.console import Console

from rummysim import compiling
from rummysim.compiling import compile_notice, first_words, minutes, variant_compiled, warming_up
from rummysim.variants import VARIANTS
from rummysim.variants.shanghai import kernel as shanghai_kernel


def terminal() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, force_terminal=True, width=120), out


def fresh_function():
    """A function Numba has not compiled (no cache): calling it compiles two."""
    @njit
    def inner(n):
        s = 0
        for i in range(n):
            s += i * i
        return s

    @njit
    def outer(n):
        return inner(n) + 1

    return outer


def test_a_compile_is_announced_counted_and_said_done(monkeypatch):
    monkeypatch.setattr(compiling, "SHOW", 0.0)
    console, out = terminal()
    with compile_notice(console):
        assert fresh_function()(10) == 286
    text = out.getvalue()
    assert "compiling the engine (first run only; it is cached afterwards)" in text
    assert "compiled 2 functions in" in text
    assert text.index("compiling the engine") < text.index("compiled 2 functions")


def test_a_second_compile_of_the_process_is_more_of_the_engine(monkeypatch):
    monkeypatch.setattr(compiling, "SHOW", 0.0)
    console, out = terminal()
    with compile_notice(console) as notice:
        fresh_function()(3)
        notice.close()
        fresh_function()(4)
    text = out.getvalue()
    assert text.count("compiling the engine (first run only") == 1
    assert "compiling more of the engine (first run only)" in text
    assert text.count("compiled 2 functions in") == 2


def test_a_warm_up_is_one_episode_said_done_before_it_returns(monkeypatch):
    """Compiles with a pause between them (a rehearsal hand's Python between two kernels) inside
    ``warming_up`` are one episode, and its last line is out before the warm-up returns (before the
    command's own output)."""
    monkeypatch.setattr(compiling, "SHOW", 0.0)
    console, out = terminal()
    with compile_notice(console):
        with warming_up():
            fresh_function()(3)
            time.sleep(3 * compiling.IDLE)
            fresh_function()(4)
        done = out.getvalue()
    assert done.count("compiling the engine") == 1 and "compiling more" not in done, done
    assert done.count("compiled ") == 1 and "compiled 4 functions in" in done, done


def test_a_short_compile_shows_nothing(monkeypatch):
    """Under ``SHOW`` seconds (a small function compiled late) nothing flashes on the screen."""
    monkeypatch.setattr(compiling, "SHOW", 60.0)
    console, out = terminal()
    f = fresh_function()
    with compile_notice(console):
        f(5)
    assert out.getvalue() == ""


def test_a_compiled_function_shows_nothing(monkeypatch):
    monkeypatch.setattr(compiling, "SHOW", 0.0)
    f = fresh_function()
    f(5)
    console, out = terminal()
    with compile_notice(console):
        f(6)
    assert out.getvalue() == ""


def test_off_a_terminal_nothing_is_listened_to(monkeypatch):
    monkeypatch.setattr(compiling, "SHOW", 0.0)
    out = io.StringIO()
    with compile_notice(Console(file=out)) as notice:
        fresh_function()(7)
    assert notice is None and out.getvalue() == ""


def test_the_first_line_names_the_variant_and_its_time():
    v = VARIANTS["shanghai"]
    assert variant_compiled(shanghai_kernel.play_games) is v
    assert variant_compiled(fresh_function()) is None
    words = first_words(v)
    assert words.startswith(f"compiling the Shanghai Rummy engine: first run only, about {minutes(v.compile_seconds)}")
    for variant in VARIANTS.values():
        assert 10 <= variant.compile_seconds <= 1800


@pytest.mark.parametrize("seconds, words", [(0.4, "0 s"), (40, "40 s"), (60, "1 min"), (400, "6 min 40 s")])
def test_minutes(seconds, words):
    assert minutes(seconds) == words


def test_a_cached_engine_says_nothing_on_a_terminal(tmp_path):
    """``rummysim run`` with the engine in the cache (the test session compiled it): no notice."""
    pexpect = pytest.importorskip("pexpect")
    compiled = subprocess.run([sys.executable, "-m", "rummysim", "run", "--hands", "10", "--out", str(tmp_path / "a")],
                              capture_output=True, text=True, timeout=1800, check=False)
    assert compiled.returncode == 0, compiled.stderr
    child = pexpect.spawn(sys.executable, ["-m", "rummysim", "run", "--hands", "10", "--out", str(tmp_path / "b")],
                          env=dict(os.environ, TERM="dumb"), encoding="utf-8", timeout=600, dimensions=(40, 120))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    assert "saved" in child.before or "results" in child.before, child.before
    assert "compil" not in child.before.lower(), child.before
