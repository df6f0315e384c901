"""The guard that clears numba's cache when any engine source file changes."""

from __future__ import annotations

from pathlib import Path

from adjacency.engine.stale_cache import STAMP, drop_stale_cache, sources_digest


def make_tree(root: Path) -> tuple[Path, Path]:
    sources = root / "engine"
    sources.mkdir()
    (sources / "bits.py").write_text("WIDTH = 8\n")
    (sources / "search.py").write_text("from .bits import WIDTH\n")
    cache = sources / "__pycache__"
    cache.mkdir()
    return sources, cache


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


def test_the_installed_engine_is_stamped_with_its_own_sources() -> None:
    import adjacency.engine as engine

    here = Path(engine.__file__).parent
    stamp = here / "__pycache__" / STAMP
    assert stamp.read_text() == sources_digest(here)
