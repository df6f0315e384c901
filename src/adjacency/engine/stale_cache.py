"""Keeping numba's on-disk cache consistent with the engine's sources.

numba decides whether a cached kernel is stale by looking only at the source
file of that kernel. The engine's kernels inline code and constants from their
sibling modules (``bits.py``, ``layout.py``, ``evaluate.py`` ...), so after an
edit or an upgrade that changes a sibling but not the kernel's own file, numba
would load machine code built from the old sibling: wrong results or a crash.
The kernels and everything they inline live in one folder,
:mod:`adjacency.engine.kernels`; this module fingerprints every source file of
that folder and clears its cache whenever the fingerprint changes. Python code
outside the folder (the searcher, the parallel solver, training, the bench) is
never compiled, so editing it keeps the cache. It runs once, when
:mod:`adjacency.engine` is imported, before any kernel is compiled or loaded.

It covers numba's default cache location (``__pycache__`` beside the kernel sources,
``engine/kernels/__pycache__``).
With ``NUMBA_CACHE_DIR`` set, numba keeps the cache elsewhere; clear that
directory by hand after changing the engine.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

STAMP = "engine-sources.sha256"
KERNELS = "kernels"
"""The engine's folder of kernel sources (:mod:`adjacency.engine.kernels`)."""


def sources_digest(source_dir: Path) -> str:
    """A SHA-256 over the names and contents of every ``*.py`` file in ``source_dir``."""
    digest = hashlib.sha256()
    for path in sorted(source_dir.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def drop_stale_cache(source_dir: Path, cache_dir: Path) -> bool:
    """Delete numba's cache files in ``cache_dir`` if the sources changed; True if it did.

    The fingerprint of the sources is kept in ``cache_dir/engine-sources.sha256``.
    Failures to write (a read-only install) are ignored: numba then cannot write
    its cache there either.
    """
    digest = sources_digest(source_dir)
    stamp = cache_dir / STAMP
    try:
        if stamp.read_text() == digest:
            return False
    except OSError:
        pass
    try:
        cache_dir.mkdir(exist_ok=True)
        for path in cache_dir.glob("*.nb[ic]"):
            path.unlink(missing_ok=True)
        stamp.write_text(digest)
    except OSError:
        return False
    return True


def drop_stale_kernels(engine_dir: Path) -> bool:
    """:func:`drop_stale_cache` for the engine package at ``engine_dir``: its kernel sources
    (``kernels/*.py``) against numba's default cache beside them (``kernels/__pycache__``).
    The engine's other modules are not fingerprinted: numba never compiles them."""
    kernels = engine_dir / KERNELS
    _drop_leftovers(engine_dir / "__pycache__")
    return drop_stale_cache(kernels, kernels / "__pycache__")


def _drop_leftovers(cache_dir: Path) -> None:
    """Delete numba cache files and the stamp in ``cache_dir`` (``engine/__pycache__``):
    nothing outside ``kernels/`` is compiled, so any there were left by the engine's
    earlier flat layout, whose kernels sat beside the other modules."""
    try:
        for path in (*cache_dir.glob("*.nb[ic]"), cache_dir / STAMP):
            path.unlink(missing_ok=True)
    except OSError:
        pass
