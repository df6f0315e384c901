"""CITATION.cff: valid Citation File Format 1.2.0 whose version and licence are the package's."""

from __future__ import annotations

import tomllib
from pathlib import Path

import yaml  # type: ignore[import-untyped]  # PyYAML (with mkdocs, in the docs extra)

import adjacency

ROOT = Path(__file__).resolve().parents[2]
REQUIRED = ("cff-version", "message", "title", "authors")
"""The keys CFF 1.2.0 requires of every citation file."""


def test_the_citation_file_is_cff_and_names_this_version_and_licence() -> None:
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert all(citation.get(key) for key in REQUIRED)
    assert citation["cff-version"] == "1.2.0" and citation["type"] == "software"
    assert all(author.get("name") or author.get("family-names") for author in citation["authors"])
    assert str(citation["version"]) == project["version"] == adjacency.__version__
    assert citation["license"] == project["license"]
