"""What a terminal shows while Numba compiles: the first run of a command compiles the engine (a minute
or several on a laptop) and would otherwise look hung.

``CompileNotice`` listens to Numba's ``numba:compile`` events (they fire only for a real compile, never
for a kernel loaded from the cache). At the first compile it says what is compiled and about how long it
takes (``Variant.compile_seconds``, the variant of the compiled function's package), then shows a
spinner with the time so far and the functions compiled; when Numba has been idle for a moment it says
it is done and how long it took. A command whose engine is cached shows nothing.
"""

from __future__ import annotations

import contextlib
import threading
import time

from numba.core import event
from rich.console import Console
from rich.live import Live
from rich.spinner import Spinner
from rich.text import Text

from .base.summary import counted
from .variants import VARIANTS

#: the package holding each variant's compiled modules
VARIANT_PACKAGE = "rummysim.variants."
#: seconds without a compile after which a compile is taken as done
IDLE = 0.4
#: seconds an episode of compiling runs before it is shown (a shorter one shows nothing)
SHOW = 0.5


def minutes(seconds: float) -> str:
    """A duration in words, rounded for a person: ``"40 s"``, ``"2 min"``, ``"6 min 40 s"``."""
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds} s"
    m, s = divmod(seconds, 60)
    return f"{m} min" if s == 0 else f"{m} min {s} s"


def variant_compiled(dispatcher):
    """The ``Variant`` whose package holds ``dispatcher``'s function, or None (the shared engine)."""
    module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
    if not module.startswith(VARIANT_PACKAGE):
        return None
    return VARIANTS.get(module[len(VARIANT_PACKAGE):].split(".")[0])


def first_words(variant) -> str:
    """The line that starts the first compile of a process: what, first run only, about how long."""
    if variant is None:
        return "compiling the engine (first run only; it is cached afterwards)"
    return (f"compiling the {variant.title} engine: first run only, about {minutes(variant.compile_seconds)} "
            "on a 2-core laptop (longer on a busy machine); it is cached afterwards")


class CompileNotice(event.Listener):
    """A ``numba:compile`` listener drawing the notice on ``console`` (a terminal's).

    The compiling thread only counts (``on_start``, ``on_end``, under Numba's compiler lock); a watcher
    thread draws: after ``SHOW`` seconds of an episode it says what is compiled, then a spinner, and once
    Numba has been idle ``IDLE`` seconds the line saying it is done. An episode shorter than ``SHOW``
    seconds shows nothing."""

    def __init__(self, console: Console):
        self.console = console
        self.lock = threading.Lock()
        self.depth = 0              # compiles in progress (a kernel compiles its callees inside its own)
        self.functions = 0          # functions compiled in this episode
        self.variant = None         # the Variant of the episode's first function, if any
        self.started = None         # perf_counter at the episode's first compile, None between episodes
        self.last_end = 0.0
        self.shown = 0              # episodes shown so far
        self.watcher = None
        self.spinner = Spinner("dots")
        self.holds = 0              # warm-ups in progress (``warming_up``): no episode ends inside one

    def on_start(self, ev) -> None:
        with self.lock:
            self.depth += 1
            self.functions += 1
            if self.started is None:
                self.started = time.perf_counter()
                self.variant = variant_compiled(ev.data.get("dispatcher"))
                self.watcher = threading.Thread(target=self._watch, daemon=True)
                self.watcher.start()

    def on_end(self, ev) -> None:
        with self.lock:
            self.depth -= 1
            self.last_end = time.perf_counter()

    def __rich__(self) -> Spinner:
        self.spinner.update(text=Text(f"compiling: {minutes(time.perf_counter() - self.started)}, "
                                      f"{counted(self.functions, 'functions')} so far"))
        return self.spinner

    def _idle(self) -> bool:
        return self.depth == 0 and self.holds == 0 and time.perf_counter() - self.last_end >= IDLE

    def hold(self, k: int) -> None:
        """A warm-up starts (``k`` 1) or ends (-1)."""
        with self.lock:
            self.holds += k

    def _watch(self) -> None:
        """Draw one episode: its first line once it has run ``SHOW`` seconds, a spinner, its last line
        when Numba is idle; nothing if it ends sooner."""
        live = None
        while True:
            time.sleep(IDLE / 4)
            with self.lock:
                if live is None and not self._idle() and time.perf_counter() - self.started >= SHOW:
                    live = self._show()
                if self._idle():
                    if live is not None:
                        live.stop()
                        self.console.print(f"compiled {counted(self.functions, 'functions')} in "
                                           f"{minutes(self.last_end - self.started)}; later runs load them from the "
                                           "cache at once", highlight=False, soft_wrap=True)
                    self.started = None
                    self.functions = 0
                    return

    def _show(self) -> Live:
        """The episode's first line, and its spinner started (the lock held)."""
        self.shown += 1
        words = first_words(self.variant) if self.shown == 1 else "compiling more of the engine (first run only)"
        self.console.print(words, highlight=False, soft_wrap=True)
        live = Live(self, console=self.console, refresh_per_second=8, transient=True, redirect_stdout=False,
                    redirect_stderr=False)
        live.start()
        return live

    def close(self) -> None:
        """Let an episode still on screen finish (the command ended while it was being drawn)."""
        watcher = self.watcher
        if watcher is not None:
            watcher.join(timeout=SHOW + 2 * IDLE)


#: the notices listening now (``compile_notice``), told when a warm-up starts and ends
LISTENING: list[CompileNotice] = []


@contextlib.contextmanager
def warming_up():
    """Around a warm-up (``run.warm_up``, the rehearsal hand of ``play``): its compiles are one episode
    however long the gaps between them, and the episode's last line is drawn before it returns."""
    for notice in LISTENING:
        notice.hold(1)
    try:
        yield
    finally:
        for notice in LISTENING:
            notice.hold(-1)
            notice.close()


@contextlib.contextmanager
def compile_notice(console: Console | None = None):
    """While inside, a compile is announced on ``console`` (standard error's) if it is a terminal."""
    console = console or Console(stderr=True)
    if not console.is_terminal:
        yield None
        return
    notice = CompileNotice(console)
    event.register("numba:compile", notice)
    LISTENING.append(notice)
    try:
        yield notice
    finally:
        LISTENING.remove(notice)
        event.unregister("numba:compile", notice)
        notice.close()
