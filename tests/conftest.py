"""Fixtures shared by test modules. ``browser``: the headless Chromium the page tests drive (the replay
viewer's, ``rummysim serve``'s), Debian's chromium through Playwright, one per test module; the tests
that use it are skipped only when no chromium is installed. ``cluster``: a real Dask ``LocalCluster``
(``test_scale``, ``test_dask_analysis``, ``test_paths``), and ``kill_a_busy_worker`` to kill one of its workers mid-run.
Under pytest-xdist each worker first compiles (or loads) the variants' kernels (``pytest_configure``)."""

import os
import shutil
import signal
import tempfile
from pathlib import Path

import pytest
from filelock import FileLock
from numba.core import config as numba_config

from rummysim.run import warm_up
from rummysim.variants import VARIANTS

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def pytest_configure(config):
    """In each pytest-xdist worker, before any test: every variant's run kernel compiled or loaded
    (``warm_up``), one variant at a time across the workers (a file lock per variant beside Numba's
    cache), each worker starting at a different one, the longest compile first. On an empty cache the
    workers compile different variants side by side instead of the same one twice, and the second to
    reach a variant loads it from the cache (an unlocked start compiled Shanghai's kernel in both
    workers at once). Without xdist nothing is done here."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None:
        return
    names = sorted(VARIANTS, key=lambda name: -VARIANTS[name].compile_seconds)
    k = int(worker.removeprefix("gw")) % len(names)
    locks = Path(numba_config.CACHE_DIR or tempfile.gettempdir())
    locks.mkdir(parents=True, exist_ok=True)
    for name in names[k:] + names[:k]:
        with FileLock(locks / f"rummysim-tests-warm-{name}.lock"):
            warm_up(VARIANTS[name].players[2], VARIANTS[name])


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        pytest.skip("no chromium on PATH: install Debian's chromium (apt-get install chromium) to run the page tests")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"] if os.geteuid() == 0 else [])
        yield b
        b.close()


@pytest.fixture(scope="module")
def cluster():
    """A real ``LocalCluster`` of two worker processes (one thread each) and a client of it; the
    kernels of Basic (2 players) and Shanghai (4) are compiled first, so the workers load them
    from the cache."""
    distributed = pytest.importorskip("distributed")
    warm_up(2, VARIANTS["basic"])
    warm_up(4, VARIANTS["shanghai"])
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as c, distributed.Client(c) as client:
        yield c, client


def kill_a_busy_worker(client, killed: list) -> None:
    """SIGKILL one worker of ``client`` that is playing a chunk, once (its address is put in
    ``killed``); call it from a progress callback, so that it strikes mid-run."""
    if killed:
        return
    busy = [w for w, keys in client.processing().items() if keys]
    if busy:
        pid = client.run(os.getpid, workers=busy[:1])[busy[0]]
        os.kill(pid, signal.SIGKILL)
        killed.append(busy[0])
