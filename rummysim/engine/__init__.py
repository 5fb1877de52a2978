"""The compiled engine shared by every variant (rng, deck, codes), and where compiled kernels are cached.

Every Numba kernel (here and in ``rummysim.variants.<name>``) takes plain arrays: no files, pandas
or Python objects. ``rummysim.variants`` imports this package first, so the cache directory below is
set before any kernel is defined.

Where the compiled kernels (``cache=True``) are kept
----------------------------------------------------
Never inside the installed package. Numba's default would be the package's
own ``__pycache__``; ``pip uninstall`` does not know those files and leaves a
directory ``rummysim/core`` holding only ``__pycache__`` behind, which then
shadows a later (e.g. editable) install: ``cannot import name 'basic' from
'rummysim.core'``. So before any kernel module is imported, this module picks
the cache directory:

* ``NUMBA_CACHE_DIR`` if the user set it, as is;
* else ``platformdirs.user_cache_dir("rummysim") / <version> / "numba"``
  (``~/.cache/rummysim/0.1.0/numba`` on Linux), so two versions never share
  kernels.

It is set both in ``os.environ`` (child processes such as Dask workers read
it when they import Numba) and in ``numba.core.config.CACHE_DIR``, which is
what Numba's ``_UserProvidedCacheLocator`` reads for every cached function.
If the directory cannot be created or written, a throwaway temporary
directory (removed at exit) is used instead: the kernels are then compiled
afresh in each process, and never written into the package.

Numba's cache checks only the source file of the function it loads, so a
kernel in ``variants/basic/kernel.py`` could be loaded stale after a change in
``bots.py`` or ``melds.py`` that it calls. On import we therefore fingerprint
every module of each directory (``engine/``, ``variants/<name>/``), with the
engine's, and drop that directory's cached kernels when its fingerprint
changes; the stamp holding the fingerprint lives in the cache directory too.
A variant's kernels call only the engine and their own directory.
"""

import atexit
import hashlib
import os
import shutil
import tempfile
from pathlib import Path

from ..base.version import __version__

_STAMP = "rummysim-core.sha256"


def _writable(path: Path) -> bool:
    try:
        path.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=path).close()
        return True
    except OSError:
        return False


def _cache_dir() -> Path | None:
    """The directory for Numba's cache, created; ``None`` if nothing writable was found."""
    given = os.environ.get("NUMBA_CACHE_DIR")
    if given:
        path = Path(given)
    else:
        import platformdirs

        path = Path(platformdirs.user_cache_dir("rummysim")) / __version__ / "numba"
    if _writable(path):
        return path
    try:
        path = Path(tempfile.mkdtemp(prefix="rummysim-numba-"))
    except OSError:
        return None
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


def _use_cache_dir() -> None:
    from numba.core import config
    from numba.core.caching import _CacheLocator

    cache = _cache_dir()
    if cache is None:
        return  # nowhere to write: leave Numba to its own devices
    os.environ["NUMBA_CACHE_DIR"] = str(cache)
    config.CACHE_DIR = str(cache)

    # each directory of compiled modules (engine/, variants/<name>/) gets a fingerprint of its own
    # files and the engine's, kept in Numba's folder for that directory inside the cache dir: an
    # edit to one variant does not drop the other's kernels
    package = Path(__file__).parent.parent
    # every module of those directories, compiled or not: a kernel also reads the constants of the
    # plain modules it imports (the results schema's columns, say)
    compiled = [p for d in ("engine", "variants") for p in (package / d).rglob("*.py")]
    engine = sorted(p for p in compiled if p.parent.name == "engine")
    for directory in sorted({p.parent for p in compiled if p.parent.name != "variants"}):
        sources = sorted(set(engine) | {p for p in compiled if p.parent == directory})
        digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources)).hexdigest()
        folder = cache / _CacheLocator.get_suitable_cache_subpath(str(directory / "kernel.py"))
        stamp = folder / _STAMP
        try:
            if stamp.exists() and stamp.read_text() == digest:
                continue
            for f in list(folder.glob("*.nbi")) + list(folder.glob("*.nbc")):
                f.unlink(missing_ok=True)
            folder.mkdir(parents=True, exist_ok=True)
            stamp.write_text(digest)
        except OSError:
            pass  # kernels already dropped or not: at worst they are compiled again


_use_cache_dir()
