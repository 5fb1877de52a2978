"""The compiled core: Numba kernels on plain arrays (no files, pandas or Python objects).

Numba's on-disk cache (``cache=True``) checks only the source file of the
function it loads, so a kernel in ``basic.py`` could be loaded stale after a
change in ``bots.py`` or ``melds.py`` that it calls. On import we therefore
fingerprint every source file of this package and drop the cached kernels
when the fingerprint changes.
"""

import hashlib
from pathlib import Path


def _drop_stale_cache() -> None:
    from numba.core.caching import _CacheLocator
    from numba.core.config import CACHE_DIR

    here = Path(__file__).parent
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sorted(here.glob("*.py")))).hexdigest()
    cache_dirs = [here / "__pycache__"]
    if CACHE_DIR:  # Numba's own name for this folder's cache under NUMBA_CACHE_DIR, and nothing else
        cache_dirs = [Path(CACHE_DIR) / _CacheLocator.get_suitable_cache_subpath(str(here / "basic.py"))]
    for cache in cache_dirs:
        stamp = cache / "rummysim-core.sha256"
        try:
            if stamp.exists() and stamp.read_text() == digest:
                continue
            for f in list(cache.glob("*.nbi")) + list(cache.glob("*.nbc")):
                f.unlink(missing_ok=True)
            cache.mkdir(parents=True, exist_ok=True)
            stamp.write_text(digest)
        except OSError:
            pass  # a read-only install: Numba then compiles in memory or uses its own cache dir


_drop_stale_cache()
