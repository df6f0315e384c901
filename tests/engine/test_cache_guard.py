"""The guard that clears numba's cache when a kernel source file changes, and only then."""

from __future__ import annotations

import shutil
from pathlib import Path

import adjacency.engine as engine
from adjacency.engine.stale_cache import (
    KERNELS,
    STAMP,
    drop_stale_cache,
    drop_stale_kernels,
    sources_digest,
)

ENGINE_DIR = Path(engine.__file__).parent


def make_tree(root: Path) -> tuple[Path, Path]:
    sources = root / "engine"
    sources.mkdir()
    (sources / "bits.py").write_text("WIDTH = 8\n")
    (sources / "search.py").write_text("from .bits import WIDTH\n")
    cache = sources / "__pycache__"
    cache.mkdir()
    return sources, cache


def copy_engine(root: Path) -> Path:
    """A copy of the installed engine package's sources (no caches, no data files)."""
    copy = root / "engine"
    shutil.copytree(
        ENGINE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__", "books", "weights")
    )
    return copy


def fake_kernel_cache(engine_dir: Path) -> list[Path]:
    """numba-like index and code files in the copy's kernel cache."""
    cache = engine_dir / KERNELS / "__pycache__"
    cache.mkdir(exist_ok=True)
    files = [cache / "search.search-199.py311.nbi", cache / "search.search-199.py311.1.nbc"]
    for path in files:
        path.write_text("compiled")
    return files


def touch(path: Path) -> None:
    path.write_text(path.read_text() + "\n# edited\n")


def test_first_run_clears_unstamped_cache_and_stamps(tmp_path: Path) -> None:
    sources, cache = make_tree(tmp_path)
    (cache / "search.kernel-1.py311.nbi").write_text("index")
    (cache / "search.kernel-1.py311.1.nbc").write_text("code")
    (cache / "search.cpython-311.pyc").write_text("bytecode")
    assert drop_stale_cache(sources, cache)
    assert sorted(p.name for p in cache.iterdir()) == [STAMP, "search.cpython-311.pyc"]
    assert (cache / STAMP).read_text() == sources_digest(sources)


def test_unchanged_sources_keep_the_cache(tmp_path: Path) -> None:
    sources, cache = make_tree(tmp_path)
    drop_stale_cache(sources, cache)
    (cache / "search.kernel-1.py311.nbi").write_text("index")
    assert not drop_stale_cache(sources, cache)
    assert (cache / "search.kernel-1.py311.nbi").exists()


def test_a_change_to_a_sibling_module_clears_every_kernel(tmp_path: Path) -> None:
    sources, cache = make_tree(tmp_path)
    drop_stale_cache(sources, cache)
    (cache / "search.kernel-1.py311.nbi").write_text("index")
    (sources / "bits.py").write_text("WIDTH = 9\n")  # search.py itself is unchanged
    assert drop_stale_cache(sources, cache)
    assert not (cache / "search.kernel-1.py311.nbi").exists()


def test_editing_an_engine_module_outside_the_kernels_keeps_the_cache(tmp_path: Path) -> None:
    copy = copy_engine(tmp_path)
    assert drop_stale_kernels(copy)  # the copy's first run: no stamp yet
    cached = fake_kernel_cache(copy)
    outside = sorted(copy.glob("*.py"))
    assert {"searcher.py", "weights_file.py", "bench.py", "config.py"} <= {p.name for p in outside}
    for path in outside:
        touch(path)
        assert not drop_stale_kernels(copy), path.name
    assert all(path.exists() for path in cached)


def test_editing_any_kernel_module_clears_the_cache(tmp_path: Path) -> None:
    copy = copy_engine(tmp_path)
    kernels = sorted((copy / KERNELS).glob("*.py"))
    assert {"bits.py", "layout.py", "search.py", "solver.py"} <= {p.name for p in kernels}
    drop_stale_kernels(copy)
    for path in kernels:
        cached = fake_kernel_cache(copy)
        touch(path)
        assert drop_stale_kernels(copy), path.name
        assert not any(p.exists() for p in cached), path.name
        assert not drop_stale_kernels(copy)  # stamped again: the next import keeps it


def test_every_numba_kernel_lives_in_the_kernels_folder() -> None:
    """Compiled code outside ``kernels/`` would escape the guard."""
    inside: list[tuple[str, bool]] = []
    outside: list[tuple[str, bool]] = []
    for path in ENGINE_DIR.rglob("*.py"):
        compiled = any(word in path.read_text() for word in ("@kernel", "import numba", "njit("))
        (inside if path.parent.name == KERNELS else outside).append((path.name, compiled))
    assert sum(compiled for _, compiled in inside) >= 9
    assert [name for name, compiled in outside if compiled] == []


def test_cache_files_of_the_old_flat_layout_are_removed(tmp_path: Path) -> None:
    copy = copy_engine(tmp_path)
    old = copy / "__pycache__"
    old.mkdir()
    leftovers = [old / "search.search-199.py311.nbi", old / "table.probe-111.py311.1.nbc"]
    for path in [*leftovers, old / STAMP, old / "searcher.cpython-311.pyc"]:
        path.write_text("old")
    drop_stale_kernels(copy)
    assert sorted(p.name for p in old.iterdir()) == ["searcher.cpython-311.pyc"]


def test_the_installed_engine_is_stamped_with_its_kernel_sources() -> None:
    kernels = ENGINE_DIR / KERNELS
    stamp = kernels / "__pycache__" / STAMP
    assert stamp.read_text() == sources_digest(kernels)
