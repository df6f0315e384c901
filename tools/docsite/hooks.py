"""MkDocs hooks of the documentation site (``hooks:`` in ``mkdocs.yml``).

The API reference is generated from the package itself: every public module under
``src/adjacency`` (found by walking the source tree, so a module or subpackage added
later gets its page without editing a list) gets a page ``reference/<dotted/path>.md``
whose body is mkdocstrings' ``::: module``. The pages are grouped in the navigation by
the architecture's layers, in the order that ``.importlinter`` writes (the one place that
writes it; the reference's index prints it); a top-level subpackage no layer names yet gets
a group of its own, right below the command line.

The guides' tables of modules are generated too: a line ``<!-- modules: engine
engine/kernels bots/engine_bot.py -->`` in a guide becomes a table of those modules (every
module of a named folder, or the named file), each with the first sentence of its own
docstring (:func:`module_table`), so a table can neither miss a module nor drift from what
the module says it does.

The errors page's hierarchy is generated the same way: its ``<!-- errors -->`` line becomes
the drawing of every public exception class of the two families, each with the room that
defines it and its docstring's first sentence (:func:`error_tree`).

The home page is the README, its links rewritten for the site (``docs/rules.md`` is
``rules.md`` there). Links of the guides to repository files outside ``docs/`` (the
examples) cannot be pages of the site: they are shown as the file's path in code.
"""

from __future__ import annotations

import ast
import configparser
import importlib
import re
import textwrap
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

IMPORT_CONTRACTS = REPO / ".importlinter"
"""Import-linter's contracts: its ``layers`` contract is the one place that writes the
order of the architecture's layers; the reference is grouped in that order."""

TITLES: dict[str, str] = {
    "": "The package",
    "system": "System: process lifetime and signals",
    "core": "Core: rules and positions",
    "engine": "Engine: the compiled search",
    "protocol": "Protocol: engines in any language",
    "workers": "Workers, plotting and storage",
    "plotting": "Workers, plotting and storage",
    "storage": "Workers, plotting and storage",
    "serving": "Serving: what both HTTP servers share",
    "ratings": "Ratings: match statistics, Bradley-Terry, Glicko-2",
    "round": "Round: a game in play",
    "bots": "Bots",
    "lab": "Lab: see the search",
    "puzzles": "Puzzles: proven by the solver",
    "protocol_server": "Protocol server: any bot served as an engine",
    "arena": "Arena: matches and tournaments",
    "solving": "Solving: the solved-game table",
    "training": "Training: the evaluations fitted offline",
    "web": "Web: the browser game",
    "rl": "RL: PettingZoo and Gymnasium",
    "jax": "JAX: the game as pure functions (pgx's API)",
    "openspiel": "OpenSpiel",
    "tuning": "Tuning: SPSA",
    "cli": "Command line",
}
"""The reference's group title of each top-level part of the package (``""`` is the
package module itself); parts with one title share a group. A part without a title is
named by itself, capitalised (``League``)."""


def layer_order(contracts: Path = IMPORT_CONTRACTS) -> list[tuple[str, ...]]:
    """The layers of the ``layers`` contract of ``contracts``, bottom first, each as the
    top-level parts of the package it lists (``("engine", "protocol", ...)``), in its order.

    Raises ``KeyError`` if the file has no such contract: the site is not built with a
    made-up order."""
    parser = configparser.ConfigParser()
    parser.read_string(contracts.read_text(encoding="utf-8"))
    lines = parser["importlinter:contract:layers"]["layers"].splitlines()
    layers = []
    for line in reversed([line for line in lines if line.strip()]):
        tops: list[str] = []
        for name in re.split(r"[:|]", line):
            parts = name.strip().split(".")
            if len(parts) > 1 and parts[0] == ROOT and parts[1] not in tops:
                tops.append(parts[1])
        layers.append(tuple(tops))
    return layers


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


MODULES_MARK = re.compile(r"^<!-- modules: (?P<spec>[^>]*?) -->$", re.MULTILINE)
"""A guide's request for a generated table of modules (:func:`module_table`)."""

ROLE = re.compile(r":(?:py:)?[a-z]+:`~?!?(?:[^`<]*<)?(?P<target>[^`>]+)>?`")
"""A Sphinx role in a docstring (``:class:`~a.b.C```): shown as the target's last name."""

SENTENCE_END = re.compile(r"(?<!e\.g\.)(?<!i\.e\.)(?<=[.!?])\s")
"""Where a docstring's first sentence ends: a stop followed by a space (not "e.g.")."""


def first_sentence(path: Path) -> str:
    """The first sentence of the module docstring of ``path``, roles written as code.

    Raises ``ValueError`` for a module with no docstring: a table row says what a module
    is for, and a module that does not say it is a defect the build reports."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    if not doc:
        raise ValueError(f"{path}: no module docstring to describe it in a table of modules")
    return sentence_of(doc).replace("|", "\\|")


def module_table(spec: str, package: Path = PACKAGE) -> str:
    """A Markdown table of the modules ``spec`` names, paths relative to the package.

    ``spec`` lists folders (every ``.py`` file directly in it, ``__init__`` left out; a
    subpackage shows as ``folder/`` with its own docstring) and files, separated by spaces.
    Raises ``ValueError`` for a name that is neither, so a renamed module fails the build
    rather than leaving a stale row."""
    rows = ["| module | its job |", "| --- | --- |"]
    for name in spec.split():
        target = package / name
        if target.is_file() and target.suffix == ".py":
            rows.append(f"| `{name}` | {first_sentence(target)} |")
        elif target.is_dir() and (target / "__init__.py").exists():
            for child in sorted(target.iterdir()):
                shown = child.relative_to(package).as_posix()
                if child.suffix == ".py" and not child.name.startswith("_"):
                    rows.append(f"| `{shown}` | {first_sentence(child)} |")
                elif (child / "__init__.py").exists() and not child.name.startswith("_"):
                    rows.append(f"| `{shown}/` | {first_sentence(child / '__init__.py')} |")
        else:
            raise ValueError(f"table of modules: {name!r} is no module or package of adjacency")
    return "\n".join(rows)


def module_tables(markdown: str, package: Path = PACKAGE) -> str:
    """Every ``<!-- modules: ... -->`` line of a guide replaced by its table."""
    return MODULES_MARK.sub(lambda match: module_table(match.group("spec"), package), markdown)


ERRORS_MARK = re.compile(r"^<!-- errors -->$", re.MULTILINE)
"""The errors page's request for the generated hierarchy (:func:`error_tree`)."""

FAMILIES = ("AdjacencyError", "AdjacencyRuntimeError")
"""The two roots of the error taxonomy, in ``adjacency.core.errors``."""

DESCRIPTION_COLUMN = 40
"""Where an error's room and description start in the drawing."""


def sentence_of(doc: str | None) -> str:
    """The first sentence of a docstring, roles written as code (as in the tables)."""
    paragraph = " ".join((doc or "").strip().split("\n\n")[0].split())
    sentence = SENTENCE_END.split(paragraph, maxsplit=1)[0]

    def code(match: re.Match[str]) -> str:
        return "`" + match.group("target").strip().split(".")[-1].removesuffix("()") + "`"

    return ROLE.sub(code, sentence).replace("``", "`")


def error_tree(pages: list[ModulePage] | None = None, width: int = 92) -> str:
    """The hierarchy of the package's public exception classes under the two families.

    Imports every public module (``pages``: :func:`public_modules`) so that each class is
    found wherever it is defined; a private class between two public ones (the core's
    ``_Refusal``) is left out of the drawing, its subclasses drawn under its parent. A
    class with two bases in the families is drawn under the first. Each line names the
    class, the room that defines it and its docstring's first sentence."""
    for page in public_modules() if pages is None else pages:
        importlib.import_module(page.name)
    errors = importlib.import_module(f"{ROOT}.core.errors")

    roots = tuple(getattr(errors, name) for name in FAMILIES)

    def parent(cls: type) -> type:
        """The nearest public class above ``cls`` within the families."""
        return next(
            base
            for base in cls.__mro__[1:]
            if not base.__name__.startswith("_") and issubclass(base, roots)
        )

    def below(cls: type) -> list[type]:
        """Every subclass of ``cls``, at any depth."""
        found: list[type] = []
        direct: type
        for direct in cls.__subclasses__():
            found += [direct, *below(direct)]
        return found

    def children(cls: type) -> list[type]:
        found = {
            sub for sub in below(cls) if not sub.__name__.startswith("_") and parent(sub) is cls
        }
        return sorted(found, key=lambda sub: (sub.__module__, sub.__name__))

    lines: list[str] = []

    def draw(cls: type, prefix: str, last: bool, top: bool) -> None:
        branch = "" if top else ("└── " if last else "├── ")
        head = f"{prefix}{branch}{cls.__name__}"
        room = cls.__module__.split(".")[1] if cls.__module__.count(".") else ROOT
        text = f"{room}: {sentence_of(cls.__doc__)}"
        inner = prefix + ("" if top else ("    " if last else "│   "))
        kids = children(cls)
        rest = inner + ("│   " if kids else "    ")
        column = max(DESCRIPTION_COLUMN, len(head) + 2)
        wrapped = textwrap.wrap(text, width - column) or [""]
        lines.append(head.ljust(column) + wrapped[0])
        lines.extend(rest.ljust(column) + more for more in wrapped[1:])
        for index, kid in enumerate(kids):
            draw(kid, inner, index == len(kids) - 1, False)

    for name, base in zip(FAMILIES, ("ValueError", "RuntimeError"), strict=True):
        lines.append(base)
        draw(getattr(errors, name), "", True, False)
        lines.append("")
    return "```\n" + "\n".join(lines).rstrip() + "\n```"


def groups(
    pages: list[ModulePage], layers: list[tuple[str, ...]] | None = None
) -> list[tuple[str, list[ModulePage]]]:
    """The pages grouped by :data:`TITLES`, the groups in the order of ``layers``
    (:func:`layer_order` when not given): the package module first, then each layer's
    parts from the bottom up; a part that no layer names yet comes right below the top
    layer (the command line), so it is still listed."""
    layers = layer_order() if layers is None else layers
    ordered = [top for layer in layers[:-1] for top in layer]
    present = {page.top for page in pages}
    extra = sorted(present - {"", *ordered, *(layers[-1] if layers else ())})
    ordered = ["", *ordered, *extra, *(layers[-1] if layers else ())]
    grouped: dict[str, list[ModulePage]] = {}
    for top in ordered:
        members = [page for page in pages if page.top == top]
        if members:
            grouped.setdefault(TITLES.get(top, top.capitalize()), []).extend(members)
    return list(grouped.items())


def layer_line(layers: list[tuple[str, ...]]) -> str:
    """The layers as one line of text, bottom first: ``system <- core <- (engine, ...) <- ...``."""
    return " <- ".join(layer[0] if len(layer) == 1 else f"({', '.join(layer)})" for layer in layers)


def reference_index(grouped: list[tuple[str, list[ModulePage]]]) -> str:
    """The reference's first page: every group and its modules, linked."""
    lines = [
        "# API reference",
        "",
        "Generated from the docstrings of every public module of `adjacency`, grouped by",
        "the layers of the architecture, from the bottom: a module may import the layers",
        "below its own, never one above. The order is that of import-linter's `layers`",
        "contract (`.importlinter`, checked by `make lint`):",
        "",
        f"`{layer_line(layer_order())}`",
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
    """The guides' tables of modules and the errors page's hierarchy generated
    (:func:`module_tables`, :func:`error_tree`); links to files outside ``docs/`` become
    paths in code."""
    if ERRORS_MARK.search(markdown):
        markdown = ERRORS_MARK.sub(lambda match: error_tree(), markdown)
    return outside_links(module_tables(markdown))


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
