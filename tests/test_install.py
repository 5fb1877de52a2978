"""Compiled kernels are cached in the user cache dir, never inside the package.

A cache inside the installed package outlives ``pip uninstall`` and the left
``rummysim/core/__pycache__`` shadows a later editable install.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import rummysim

PACKAGE = Path(rummysim.__file__).parent
CACHE_FILES = ("*.nbi", "*.nbc", "rummysim-core.sha256")


def _cache_files_in_package() -> dict[Path, int]:
    return {p: p.stat().st_mtime_ns for pattern in CACHE_FILES for p in PACKAGE.rglob(pattern)}


def _child_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    return {**env, "HOME": str(tmp_path / "home"), "XDG_CACHE_HOME": str(tmp_path / "cache"), **extra}


def test_the_cache_dir_in_use_is_outside_the_package():
    import numba.core.config

    import rummysim.engine  # noqa: F401  sets the cache dir

    cache = Path(numba.core.config.CACHE_DIR)
    assert os.environ["NUMBA_CACHE_DIR"] == str(cache)
    assert not cache.resolve().is_relative_to(PACKAGE.resolve())


@pytest.mark.slow
def test_a_cold_run_writes_its_kernels_under_the_version_keyed_user_cache(tmp_path):
    # the one cold compile of the suite: a tiny run in a fresh user cache dir, of Gin Rummy, the
    # variant that compiles fastest (under a minute; Basic takes over two)
    before = _cache_files_in_package()
    probe = ("import json, numba.core.config, rummysim\n"
             "rummysim.simulate(hands=10, variant='gin')\n"
             "from rummysim.variants.gin import kernel as gin\n"
             "print(json.dumps([numba.core.config.CACHE_DIR, gin.play_games.stats.cache_path]))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=900,
                          env=_child_env(tmp_path), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    cache_dir, kernel_dir = json.loads(done.stdout.splitlines()[-1])
    expected = tmp_path / "cache" / "rummysim" / rummysim.__version__ / "numba"
    assert Path(cache_dir) == expected
    assert Path(kernel_dir).is_relative_to(expected)
    assert list(expected.rglob("*.nbi")) and list(expected.rglob("*.nbc"))
    assert list(expected.rglob("rummysim-core.sha256"))
    new = {p for p, t in _cache_files_in_package().items() if before.get(p) != t}
    assert not new, f"compiled cache written into the package: {sorted(new)[:5]}"


def test_an_unwritable_cache_dir_falls_back_quietly(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    probe = ("import numba.core.config, rummysim.engine\n"
             "from rummysim.engine import rng\n"
             "rng.stream_key(1, 2, 3, 4, 5)\n"
             "print(numba.core.config.CACHE_DIR)\n")
    before = _cache_files_in_package()
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300,
                          env=_child_env(tmp_path, NUMBA_CACHE_DIR=str(blocker / "numba")), cwd=tmp_path)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    used = Path(done.stdout.strip())
    assert not used.resolve().is_relative_to(PACKAGE.resolve()) and not used.exists()  # removed at exit
    assert _cache_files_in_package() == before
