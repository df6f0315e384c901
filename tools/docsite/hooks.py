"""MkDocs hooks of the documentation site (``hooks:`` in ``mkdocs.yml``).

The API reference is generated from the package itself: every public module under
``src/adjacency`` (found by walking the source tree, so a module or subpackage added
later gets its page without editing a list) gets a page ``reference/<dotted/path>.md``
whose body is mkdocstrings' ``::: module``. The pages are grouped in the navigation by
the architecture's layers (README, "Layout"); a top-level subpackage this file does not
know yet gets a group of its own, placed with the front ends.

The home page is the README, its links rewritten for the site (``docs/rules.md`` is
``rules.md`` there). Links of the guides to repository files outside ``docs/`` (the
examples) cannot be pages of the site: they are shown as the file's path in code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "src" / "adjacency"
ROOT = "adjacency"
REFERENCE = "reference"
"""The folder of the generated reference pages in the site."""

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("The package", ("",)),
    ("Core: rules and positions", ("core",)),
    ("Engine: the compiled search", ("engine",)),
    ("Bots", ("bots",)),
    ("Lab: see the search", ("lab",)),
    ("Protocol: engines in any language", ("protocol", "protocol_server")),
    ("Workers, plotting and storage", ("workers", "plotting", "storage")),
    ("Serving: what both HTTP servers share", ("serving",)),
    ("Ratings: match statistics, Bradley-Terry, Glicko-2", ("ratings",)),
    ("Arena: matches and tournaments", ("arena",)),
    ("Solving: the solved-game table", ("solving",)),
    ("Training: the evaluations fitted offline", ("training",)),
    ("Web: the browser game", ("web",)),
    ("RL: PettingZoo and Gymnasium", ("rl",)),
    ("OpenSpiel", ("openspiel",)),
    ("Tuning: SPSA", ("tuning",)),
    ("System: process lifetime and signals", ("system",)),
    ("Command line", ("cli",)),
)
"""Navigation groups of the reference, by top-level part of the package (``""`` is the
package module itself), in the order of the architecture: core upwards to the command
line, system (below every layer) last with the entry point."""

FRONT_ENDS_END = "OpenSpiel"
"""Groups of top-level parts not in :data:`LAYERS` come after this one."""


@dataclass(frozen=True)
class ModulePage:
    """One module of the package and its reference page."""

    name: str
    """The dotted module name, ``adjacency.core.position``."""
    is_package: bool

    @property
    def top(self) -> str:
        """The top-level part of the package it belongs to (``core``), ``""`` for the root."""
        parts = self.name.split(".")
        return parts[1] if len(parts) > 1 else ""

    @property
    def src_uri(self) -> str:
        """The page's path in the site's sources: ``reference/adjacency/core/position.md``."""
        path = self.name.replace(".", "/")
        return f"{REFERENCE}/{path}/index.md" if self.is_package else f"{REFERENCE}/{path}.md"

    def markdown(self) -> str:
        """The page: mkdocstrings renders the module, its docstring and its members."""
        return f"::: {self.name}\n"


def public_modules(package: Path = PACKAGE) -> list[ModulePage]:
    """Every public module and subpackage of the package, sorted by name.

    Walks the source tree: a directory with ``__init__.py`` is a package, every other
    ``.py`` file a module; names with a part starting with ``_`` (``__main__``) are
    private and have no page."""
    found = []
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        if any(part.startswith("_") for part in parts):
            continue
        if not all(
            (package.parent / Path(*parts[:cut]) / "__init__.py").exists()
            for cut in range(1, len(parts))
        ):
            continue  # a stray file in a folder that is not a package
        found.append(ModulePage(".".join(parts), is_package))
    return sorted(found, key=lambda page: page.name)


def groups(pages: list[ModulePage]) -> list[tuple[str, list[ModulePage]]]:
    """The pages grouped as :data:`LAYERS` says, unknown top-level parts after the front ends."""
    known = {top for _, tops in LAYERS for top in tops}
    extra = sorted({page.top for page in pages} - known)
    layout: list[tuple[str, tuple[str, ...]]] = []
    for title, tops in LAYERS:
        layout.append((title, tops))
        if title == FRONT_ENDS_END:
            layout.extend((top.capitalize(), (top,)) for top in extra)
    grouped = []
    for title, tops in layout:
        members = [page for page in pages if page.top in tops]
        if members:
            grouped.append((title, members))
    return grouped


def reference_index(grouped: list[tuple[str, list[ModulePage]]]) -> str:
    """The reference's first page: every group and its modules, linked."""
    lines = [
        "# API reference",
        "",
        "Generated from the docstrings of every public module of `adjacency`, grouped by",
        "the layers of the architecture (core at the bottom, the command line on top).",
        "",
    ]
    for title, members in grouped:
        lines += [f"## {title}", ""]
        for page in members:
            target = Path(page.src_uri).relative_to(REFERENCE).as_posix()
            lines.append(f"- [`{page.name}`]({target})")
        lines.append("")
    return "\n".join(lines)


README_LINK = re.compile(r"\]\((?!https?:|#)([^)\s]+)\)")
"""A relative Markdown link (or image) target."""


def home_page(readme: str) -> str:
    """The README as the site's home page: ``docs/x`` links become ``x``; links to other
    repository paths (``examples/engines``) become the path in code."""

    def relink(match: re.Match[str]) -> str:
        target = match.group(1)
        if target.startswith("docs/"):
            return f"]({target.removeprefix('docs/')})"
        return match.group(0)

    text = README_LINK.sub(relink, readme)
    return outside_links(text)


OUTSIDE_LINK = re.compile(
    r"(?<!!)\[([^\]]+)\]\(((?:\.\./)+|)((?:examples|src|tests|benchmarks|tools)/[^)\s]*)\)"
)
"""A link to a repository file outside ``docs/`` (from a guide, ``../examples/...``; from
the README, ``examples/...``)."""


def outside_links(markdown: str) -> str:
    """Links to repository files outside ``docs/`` become the text and the path in code
    (the path alone when it is the text)."""

    def plain(match: re.Match[str]) -> str:
        text, path = match.group(1), match.group(3)
        return f"`{path}`" if text.strip("`") == path else f"{text} (`{path}`)"

    return OUTSIDE_LINK.sub(plain, markdown)


def on_config(config: MkDocsConfig, **kwargs: Any) -> MkDocsConfig:
    """Add the reference, grouped by layer, after the guides (before the lab notes); the tutorials'
    included files (``--8<--``) are read from the repository, wherever mkdocs runs."""
    snippets = config.mdx_configs.get("pymdownx.snippets")
    if snippets is not None:
        snippets["base_path"] = [str(REPO)]
    grouped = groups(public_modules())
    section: list[Any] = [f"{REFERENCE}/index.md"]
    for title, members in grouped:
        section.append({title: [{page.name: page.src_uri} for page in members]})
    nav = list(config.nav or [])
    # the lab notes (dated measurements, out of the main reading path) stay last
    notes = [item for item in nav if isinstance(item, dict) and "Lab notes" in item]
    main = [item for item in nav if item not in notes]
    config.nav = [*main, {"API reference": section}, *notes]
    return config


def on_files(files: Files, config: MkDocsConfig, **kwargs: Any) -> Files:
    """Generate the home page and the reference pages (nothing is written in ``docs/``)."""
    pages = public_modules()
    home = home_page((REPO / "README.md").read_text())
    files.append(File.generated(config, "index.md", content=home))
    index = reference_index(groups(pages))
    files.append(File.generated(config, f"{REFERENCE}/index.md", content=index))
    for page in pages:
        files.append(File.generated(config, page.src_uri, content=page.markdown()))
    return files


def on_page_markdown(
    markdown: str, page: Page, config: MkDocsConfig, files: Files, **kwargs: Any
) -> str:
    """Links of the guides to files outside ``docs/`` become paths in code."""
    return outside_links(markdown)


SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'
"""Material's search dialog as its template writes it: a dialog without a name."""
SEARCH_OPTIONS = '<nav class="md-search__options" aria-label="Search">'
"""The search box's buttons, a landmark named "Search" as the table of contents names a
page's section "Search" (engine.md): two landmarks alike (axe-core's landmark-unique)."""


def named_landmarks(output: str) -> str:
    """Name the search dialog (axe-core's aria-dialog-name: a dialog needs a name) and its
    buttons' landmark apart from the pages' sections."""
    output = output.replace(
        SEARCH_DIALOG, SEARCH_DIALOG.replace('role="dialog"', 'role="dialog" aria-label="Search"')
    )
    return output.replace(SEARCH_OPTIONS, SEARCH_OPTIONS.replace('"Search"', '"Search options"'))


def on_post_page(output: str, page: Page, config: MkDocsConfig, **kwargs: Any) -> str:
    """The pages' landmarks named (:func:`named_landmarks`)."""
    return named_landmarks(output)


def on_post_template(
    output_content: str, template_name: str, config: MkDocsConfig, **kwargs: Any
) -> str:
    """The landmarks of the pages made from templates alone (404.html) named too."""
    return named_landmarks(output_content)
