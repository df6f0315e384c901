"""The build cache (:mod:`adjacency.hosting.build_cache`): its key changes with every
input (any file's path or bytes, the kind, the toolchain), an entry restores what was kept
byte for byte with its modes, a half-written or vanished entry is never used, and the
least recently used entries go past its bounds. Then a real JavaFX build
(:func:`~adjacency.hosting.fx_build.build_fx`): a hit gives the very files its compile
wrote, another choice in the league's manifest hits too, and another toolchain compiles
again."""

from __future__ import annotations

import os
import shutil
import zipfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adjacency.hosting import fx_build
from adjacency.hosting.build_cache import CACHE_ENV, build_key, cache_folder, evict, keep, restore
from adjacency.hosting.fx_build import BUILT, build_fx
from adjacency.hosting.intake import MANIFEST
from fx_course_projects import SHAPES, download_zip

names = st.text("abc/._", min_size=1, max_size=6)
trees = st.dictionaries(names, st.binary(max_size=8), max_size=4)


@given(trees, names, st.binary(max_size=8))
def test_the_key_changes_with_any_file_and_only_with_its_inputs(
    files: dict[str, bytes], name: str, data: bytes
) -> None:
    key = build_key("javafx", "javac 17", files)
    assert key == build_key("javafx", "javac 17", dict(reversed(files.items())))
    changed = {**files, name: data}
    assert (build_key("javafx", "javac 17", changed) == key) == (files.get(name) == data)
    assert build_key("javafx", "javac 17.0.16", files) != key
    assert build_key("fxdriver", "javac 17", files) != key


def test_no_two_inputs_run_together() -> None:
    assert build_key("k", "t", {"a": b"bc"}) != build_key("k", "t", {"ab": b"c"})
    assert build_key("k", "t", {"a": b""}) != build_key("k", "ta", {})


def test_the_environment_names_the_cache_over_the_caller(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(CACHE_ENV, raising=False)
    assert cache_folder(tmp_path / "league") == tmp_path / "league"
    assert cache_folder(None) is None
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "session"))
    assert cache_folder(tmp_path / "league") == tmp_path / "session"
    monkeypatch.setenv(CACHE_ENV, "")
    assert cache_folder(tmp_path / "league") is None


def _build(folder: Path, text: str) -> Path:
    (folder / "classes" / "pkg").mkdir(parents=True)
    (folder / "classes" / "pkg" / "A.class").write_text(text)
    (folder / "classes" / "pkg" / "A.class").chmod(0o640)
    (folder / "tree").mkdir()
    (folder / "tree" / "list").write_text("A.java\n")
    (folder / "fx.json").write_text("{}")
    return folder


def _files(folder: Path) -> dict[str, tuple[bytes | None, int]]:
    return {
        p.relative_to(folder).as_posix(): (
            None if p.is_dir() else p.read_bytes(),
            p.stat().st_mode,
        )
        for p in sorted(folder.rglob("*"))
    }


OUT = ("classes", "fx.json", "tree/list")


def test_an_entry_restores_what_was_kept_byte_for_byte(tmp_path: Path) -> None:
    built = _build(tmp_path / "built", "one")
    keep(tmp_path / "cache", "a" * 64, built, OUT)
    again = tmp_path / "again"
    (again / "tree").mkdir(parents=True)
    (again / "tree" / "list").parent.chmod(0o755)
    assert restore(tmp_path / "cache", "a" * 64, again, OUT)
    assert _files(again) == _files(built)
    assert not restore(tmp_path / "cache", "b" * 64, tmp_path / "none", OUT)
    assert not restore(None, "a" * 64, tmp_path / "none", OUT)


def test_a_half_written_or_vanishing_entry_is_a_miss(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / ".new-xyz" / "classes").mkdir(parents=True)  # a writer still at work
    folder = tmp_path / "folder"
    folder.mkdir()
    assert not restore(cache, ".new-xyz", folder, ["classes"])  # never a key's name
    keep(cache, "c" * 64, _build(tmp_path / "built", "one"), ["classes", "fx.json"])
    (cache / ("c" * 64) / "fx.json").unlink()  # evicted while it is copied
    assert not restore(cache, "c" * 64, folder, ["classes", "fx.json"])
    assert list(folder.iterdir()) == []  # what was copied is gone again


def test_a_kept_entry_stays_and_its_writer_leaves_nothing(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    keep(cache, "d" * 64, _build(tmp_path / "first", "first"), OUT)
    keep(cache, "d" * 64, _build(tmp_path / "second", "second"), OUT)
    assert (cache / ("d" * 64) / "classes" / "pkg" / "A.class").read_text() == "first"
    assert sorted(p.name for p in cache.iterdir()) == ["d" * 64]


def test_the_least_recently_used_go_past_the_bounds(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    built = _build(tmp_path / "built", "x" * 1000)
    for n, key in enumerate(("1", "2", "3")):
        keep(cache, key * 64, built, OUT)
        os.utime(cache / (key * 64), (n, n))
    (tmp_path / "into").mkdir()
    assert restore(cache, "1" * 64, tmp_path / "into", ["classes"])  # now the latest used
    evict(cache, entries=2)
    assert sorted(p.name[0] for p in cache.iterdir()) == ["1", "3"]
    evict(cache, entries=2, most=1500)
    assert sorted(p.name[0] for p in cache.iterdir()) == ["1"]
    stale = cache / ".new-dead"
    stale.mkdir()
    os.utime(stale, (0, 0))
    evict(cache)
    assert not stale.exists()


class Compiles(Exception):
    """A compile asked for where a test has stopped them."""


@pytest.mark.jvm
def test_a_hit_gives_the_very_build_and_another_toolchain_compiles(
    folder: Path, fx_tools: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(CACHE_ENV, raising=False)
    cache = folder / "cache"
    project = download_zip(SHAPES[0], folder / "project.zip")
    compiled = build_fx(project, folder / "compiled", cache)
    assert len(list(cache.iterdir())) == 1

    def no_compile(tree: Path, files: object, sources: object, main: str, out: Path) -> None:
        raise Compiles(out)

    monkeypatch.setattr(fx_build, "_compile", no_compile)
    hit = build_fx(project, folder / "hit", cache)
    assert (hit.main, hit.java) == (compiled.main, compiled.java)
    assert _files(hit.folder) == _files(compiled.folder)  # classes, resources, listing
    assert all((hit.folder / name).exists() for name in BUILT)
    chosen = folder / "chosen.zip"  # the same sources with another choice in its form
    shutil.copyfile(project, chosen)
    with zipfile.ZipFile(chosen, "a") as archive:
        top = archive.namelist()[0].split("/")[0]  # as GitHub's Download ZIP, one folder
        archive.writestr(f"{top}/{MANIFEST}", '{"language": "javafx", "choose": {"Bot": "B"}}')
    again = build_fx(chosen, folder / "chosen", cache)
    assert _files(again.classes) == _files(compiled.classes)
    monkeypatch.setattr(fx_build, "fx_toolchain", lambda: "javac 17.0.99 another vendor")
    with pytest.raises(Compiles):
        build_fx(project, folder / "other", cache)
