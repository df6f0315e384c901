"""The documentation site: it builds with ``mkdocs build --strict``, documents every public
module, renders the docstrings' references as links, stays on its own files, and opens in
a real browser, where axe-core finds nothing on its home page and the pages it once
found something on.

The build (``mkdocs.yml``, the hooks and the Griffe extension of ``tools/docsite/``) runs
once for the module, into a temporary folder, exactly as ``make docs`` runs it; a broken
link, an unresolved cross-reference or a missing page is a warning there, which
``--strict`` turns into a failed build, and so into a failed test.
"""

from __future__ import annotations

import html
import importlib.util
import inspect
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from browser_helpers import SERIOUS, axe_violations
from docs_site import PREBUILT, built_site, prebuilt
from package_modules import load, module_names

pytestmark = [] if prebuilt() else [pytest.mark.xdist_group("docs-site")]
"""Built by ``make test`` beside the tests, the site is read by tests that run last,
each scheduled on its own (:mod:`docs_site`); built here, one worker builds it once for
every test of the module (``--dist loadgroup``)."""

REPO = Path(__file__).resolve().parents[2]
HOOKS = REPO / "tools" / "docsite" / "hooks.py"

ROLE_TEXT = re.compile(r":(?:py:)?(?:func|class|meth|mod|data|attr|exc|obj|const):`")
"""A Sphinx role left unconverted in a rendered page."""


def tool(name: str) -> ModuleType:
    """A module of ``tools/docsite/`` (the site's hooks and Griffe extension)."""
    spec = importlib.util.spec_from_file_location(f"docsite_{name}", HOOKS.with_name(f"{name}.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def hooks() -> ModuleType:
    """``tools/docsite/hooks.py``, the generator of the reference pages."""
    return tool("hooks")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The site, built from the working tree with ``--strict`` (as ``make docs`` does):
    by ``make test`` beside the tests (:func:`docs_site.built_site`), else here."""
    made = prebuilt()
    if made:
        folder = built_site(REPO / made)
        assert (folder / "index.html").is_file(), f"{PREBUILT}={made} holds no built site"
        yield folder
        return
    folder = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO / "src"), env.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(folder)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    log = done.stdout + done.stderr
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{log[-8000:]}"
    assert "WARNING" not in log, log
    yield folder


def page_of(site: Path, module: str) -> Path:
    """The built reference page of ``module`` (a package's is its folder's index)."""
    path = site / "reference" / Path(*module.split("."))
    package = path / "index.html"
    return package if package.exists() else path.with_suffix(".html")


def test_every_public_module_has_a_reference_page(site: Path) -> None:
    """Every module of the package (walked by :mod:`package_modules`, not listed) has its
    page, with the module's anchor, linked from the reference's index."""
    index = (site / "reference" / "index.html").read_text()
    missing = []
    for name in module_names():
        page = page_of(site, name)
        if not page.exists() or f'id="{name}"' not in page.read_text():
            missing.append(name)
            continue
        link = page.relative_to(site / "reference").as_posix()
        assert f'href="{link}"' in index, f"the reference index does not link {link}"
    assert missing == []


def test_the_generator_walks_the_package_like_the_tests() -> None:
    assert {page.name for page in hooks().public_modules()} == set(module_names())


def test_a_module_added_later_gets_a_page_in_a_group_of_its_own(tmp_path: Path) -> None:
    """A package that neither the layers nor the titles name yet (an almanac) is found and
    grouped, below the command line."""
    package = tmp_path / "adjacency"
    for path in [
        "__init__.py",
        "__main__.py",
        "core/__init__.py",
        "core/position.py",
        "almanac/__init__.py",
        "almanac/pairing.py",
        "cli/__init__.py",
        "notes/stray.py",
    ]:
        (package / path).parent.mkdir(parents=True, exist_ok=True)
        (package / path).write_text('"""A module."""\n')
    generator = hooks()
    pages = generator.public_modules(package)
    assert [page.name for page in pages] == [
        "adjacency",
        "adjacency.almanac",
        "adjacency.almanac.pairing",
        "adjacency.cli",
        "adjacency.core",
        "adjacency.core.position",
    ]
    assert pages[2].src_uri == "reference/adjacency/almanac/pairing.md"
    assert pages[1].src_uri == "reference/adjacency/almanac/index.md"
    titles = [title for title, _ in generator.groups(pages)]
    assert titles.index("Almanac") < titles.index("Command line")
    assert titles.index("Core: rules and positions") < titles.index("Almanac")


def test_tables_of_modules_are_written_from_the_modules_docstrings(tmp_path: Path) -> None:
    """A guide's ``<!-- modules: ... -->`` line becomes a table of every module of the
    folders it names (a module added later gets its row) and of the files it names, each
    described by its docstring's first sentence, roles shown as code; a module without a
    docstring, or a name that is no module, fails the build instead of leaving a stale row."""
    package = tmp_path / "adjacency"
    (package / "room" / "inner").mkdir(parents=True)
    (package / "room" / "__init__.py").write_text('"""The room."""\n')
    (package / "room" / "alpha.py").write_text(
        '"""Alpha: reads :class:`~adjacency.core.Position` | B. More words.\n\nLater."""\n'
    )
    (package / "room" / "_private.py").write_text('"""Hidden."""\n')
    (package / "room" / "inner" / "__init__.py").write_text('"""The inner part."""\n')
    (package / "lone.py").write_text('"""A lone module, e.g. for tests."""\n')
    generator = hooks()
    guide = "Intro.\n<!-- modules: room lone.py -->\nAfter."
    assert generator.module_tables(guide, package) == (
        "Intro.\n| module | its job |\n| --- | --- |\n"
        "| `room/alpha.py` | Alpha: reads `Position` \\| B. |\n"
        "| `room/inner/` | The inner part. |\n"
        "| `lone.py` | A lone module, e.g. for tests. |\n"
        "After."
    )
    (package / "room" / "beta.py").write_text('"""Beta."""\n')
    assert "| `room/beta.py` | Beta. |" in generator.module_table("room", package)
    (package / "room" / "gamma.py").write_text("x = 1\n")
    with pytest.raises(ValueError, match=r"gamma\.py: no module docstring"):
        generator.module_table("room", package)
    with pytest.raises(ValueError, match=r"'gone\.py' is no module"):
        generator.module_table("gone.py", package)


def test_the_guides_tables_of_modules_are_generated(site: Path) -> None:
    """The engine and web guides carry no hand-written module list: the built pages list
    every module of the rooms they name, with the module's own words."""
    engine = (site / "engine.html").read_text()
    for path in sorted((REPO / "src" / "adjacency" / "engine" / "kernels").glob("[!_]*.py")):
        assert f"engine/kernels/{path.name}" in engine
    web = (site / "web.html").read_text()
    for path in sorted((REPO / "src" / "adjacency" / "serving").glob("[!_]*.py")):
        assert f"serving/{path.name}" in web
    assert "One live game in the server" in web
    for guide in ("engine.md", "web.md"):
        assert "<!-- modules:" in (REPO / "docs" / guide).read_text()
        assert "<!-- modules:" not in (site / guide.replace(".md", ".html")).read_text()


def test_the_reference_is_grouped_in_the_order_importlinter_writes(tmp_path: Path) -> None:
    """The layers' order is written once, in ``.importlinter``: every top-level part of the
    package stands in its layers contract, and the reference's groups and its index follow
    that file (a file with the layers swapped swaps the groups)."""
    generator = hooks()
    layers = generator.layer_order()
    named = [top for layer in layers for top in layer]
    tops = {name.split(".")[1] for name in module_names() if "." in name}
    assert sorted(tops - set(named)) == [], "parts of the package outside the layers contract"
    assert (layers[0], layers[-1]) == (("system",), ("cli",))
    index = generator.reference_index(generator.groups(generator.public_modules()))
    assert f"`{generator.layer_line(layers)}`" in index

    contracts = tmp_path / ".importlinter"
    contracts.write_text(
        "[importlinter:contract:layers]\nname = layers\ntype = layers\nlayers =\n"
        "    adjacency.cli\n    adjacency.bots | adjacency.engine\n    adjacency.core\n"
    )
    swapped = generator.layer_order(contracts)
    assert swapped == [("core",), ("bots", "engine"), ("cli",)]
    pages = [generator.ModulePage(f"adjacency.{top}", True) for top in ("cli", "engine", "bots")]
    assert [title for title, _ in generator.groups(pages, swapped)] == [
        "Bots",
        "Engine: the compiled search",
        "Command line",
    ]


def test_the_home_page_is_the_readme_with_links_for_the_site() -> None:
    generator = hooks()
    readme = "[docs/rules.md](docs/rules.md) ![b](docs/images/start.svg) [e](examples/engines)"
    assert (
        generator.home_page(readme)
        == "[docs/rules.md](rules.md) ![b](images/start.svg) e (`examples/engines`)"
    )
    guide = "[`examples/x.py`](../examples/x.py), [r](rules.md), [w](https://ray.io)"
    assert generator.outside_links(guide) == "`examples/x.py`, [r](rules.md), [w](https://ray.io)"


def test_roles_become_links_to_documented_objects_and_code_otherwise(tmp_path: Path) -> None:
    """The Griffe extension on a small package: Sphinx's lookup rules (enclosing class,
    module, packages above, absolute), ``~`` and titles; links only to public objects of
    the package, everything else shown as code."""
    import griffe

    package = tmp_path / "adjacency"
    (package / "core").mkdir(parents=True)
    (package / "__init__.py").write_text('"""See :mod:`.core` and :func:`os.getcwd`."""\n')
    (package / "core" / "__init__.py").write_text('"""The core."""\nfrom .game import Game\n')
    (package / "core" / "game.py").write_text(
        '"""Games: :class:`Game`, :meth:`Game.play`, :func:`_hidden`."""\n'
        "class Game:\n"
        '    """A game. :meth:`play` plays; see :class:`~adjacency.core.Game` and\n'
        "    :func:`the helper <adjacency.core.game.helper>`; :exc:`ValueError`::\n\n"
        '        code\n    """\n'
        "    def play(self) -> None:\n"
        '        """Play; :meth:`Game.nothing` is not there."""\n'
        "def helper() -> None:\n"
        '    """Help."""\n'
        "def _hidden() -> None:\n"
        '    """Private."""\n'
    )
    extension = tool("roles").SphinxRoles()
    loaded = griffe.load(
        "adjacency", search_paths=[str(tmp_path)], extensions=griffe.load_extensions(extension)
    )

    def doc(path: str) -> str:
        found = loaded[path.removeprefix("adjacency.")] if path != "adjacency" else loaded
        assert found.docstring is not None
        return str(found.docstring.value)

    assert doc("adjacency") == "See [`core`][adjacency.core] and `os.getcwd()`."
    assert doc("adjacency.core.game") == (
        "Games: [`Game`][adjacency.core.game.Game], "
        "[`Game.play()`][adjacency.core.game.Game.play], `_hidden()`."
    )
    assert doc("adjacency.core.game.Game") == (
        "A game. [`play()`][adjacency.core.game.Game.play] plays; see "
        "[`Game`][adjacency.core.game.Game] and\n"
        "[`the helper`][adjacency.core.game.helper]; `ValueError`:\n\n    code"
    )
    assert doc("adjacency.core.game.Game.play") == "Play; `Game.nothing()` is not there."
    assert extension.linked == 6
    assert len(extension.shown_as_code) == 4


def test_the_reference_is_in_the_navigation_grouped_by_layer(site: Path) -> None:
    home = (site / "index.html").read_text()
    titles = [
        "API reference",
        "Core: rules and positions",
        "Engine: the compiled search",
        "Bots",
        "Protocol: engines in any language",
        "Workers, plotting and storage",
        "Arena: matches and tournaments",
        "Web: the browser game",
        "Command line",
    ]
    for title in titles:
        assert html.escape(title) in home, title


def test_sphinx_roles_are_rendered_as_links(site: Path) -> None:
    """No page shows a raw role; the roles of Position's docstrings are links to the
    objects' sections."""
    for page in (site / "reference").rglob("*.html"):
        text = page.read_text()
        assert not ROLE_TEXT.search(text), f"{page.relative_to(site)} shows a raw Sphinx role"
    bots = page_of(site, "adjacency.bots.base").read_text()
    assert 'href="#adjacency.bots.base.Bot.choose_move"' in bots  # :meth:`Bot.choose_move`
    assert "../core/game.html#adjacency.core.game.Termination" in bots  # :class:`~...Termination`


def test_every_tutorial_and_guide_is_in_the_navigation(site: Path) -> None:
    """The home page's navigation links every guide (``docs/*.md``) and tutorial."""
    home = (site / "index.html").read_text()
    docs = REPO / "docs"
    pages = [*docs.glob("*.md"), *(docs / "tutorials").glob("*.md")]
    assert len(pages) > 15
    for page in pages:
        link = page.relative_to(docs).with_suffix(".html").as_posix()
        assert f'href="{link}"' in home, f"{link} is not in the navigation"


LOCAL_ASSET = re.compile(r'<(?:img|script|link)\b[^>]*?(?:src|href)="([^"#]+)"')


def test_the_site_uses_only_its_own_files(site: Path) -> None:
    """No web fonts or scripts from elsewhere; every image, script and stylesheet a page
    loads (the SVG boards, the PNG plots and screenshots) is a file of the site."""
    checked = 0
    for page in site.rglob("*.html"):
        if page.name == "404.html":  # served for any missing path: its links are absolute
            continue
        for target in LOCAL_ASSET.findall(page.read_text()):
            if target.startswith(("http://", "https://", "//")):
                assert "<link" not in target, target
                pytest.fail(f"{page.relative_to(site)} loads {target}")
            assert (page.parent / html.unescape(target)).resolve().is_file(), (
                f"{page.relative_to(site)}: {target} is not in the site"
            )
            checked += 1
    assert checked > 100
    assert (site / "images" / "start.svg").is_file()
    assert (site / "solutions" / "values.png").is_file()
    assert 'src="images/start.svg"' in (site / "index.html").read_text()


# ----------------------------------------------------------------- docstrings


def public_names(module: ModuleType) -> list[tuple[str, Any, Any]]:
    """The public classes, functions, methods and properties defined in ``module``:
    ``(dotted name, object, owner class or None)``."""
    found: list[tuple[str, Any, Any]] = []
    for attr, value in vars(module).items():
        if attr.startswith("_") or getattr(value, "__module__", None) != module.__name__:
            continue
        if not (inspect.isclass(value) or callable(value)):
            continue
        found.append((f"{module.__name__}.{attr}", value, None))
        if inspect.isclass(value):
            for name, member in vars(value).items():
                if name.startswith("_"):
                    continue
                if isinstance(member, staticmethod | classmethod):
                    member = member.__func__
                if inspect.isfunction(member) or isinstance(member, property):
                    found.append((f"{module.__name__}.{attr}.{name}", member, value))
    return found


def has_docstring(value: Any, owner: Any) -> bool:
    """A docstring of its own, or, for a method, the one of the method it overrides
    (what a reader of ``help()`` sees)."""
    if (value.__doc__ or "").strip():
        return True
    function = getattr(value, "fget", value)  # a property's getter
    name = str(getattr(function, "__name__", ""))
    return owner is not None and any(
        (getattr(getattr(base, name, None), "__doc__", None) or "").strip()
        for base in owner.__mro__[1:-1]
    )


def undocumented() -> list[str]:
    """Every public module, class, function, method and property without a docstring."""
    missing = []
    for name in module_names():
        module = load(name)
        if not (module.__doc__ or "").strip():
            missing.append(name)
        for dotted, value, owner in public_names(module):
            if not has_docstring(value, owner):
                missing.append(dotted)
    return sorted(missing)


def test_the_docstring_check_sees_what_it_should() -> None:
    from adjacency.bots import base
    from adjacency.workers import executor as workers_base

    names = {name for name, _, _ in public_names(base)}
    assert {
        "adjacency.bots.base.Bot",
        "adjacency.bots.base.Bot.choose_move",
        "adjacency.bots.base.Search.deadline",
    } <= names
    assert "adjacency.bots.base.Bot._choose" not in names
    assert "adjacency.bots.base.Position" not in names  # imported, documented where defined
    serial = workers_base.SerialExecutor
    assert has_docstring(serial.map_unordered, serial)  # the Executor's docstring


def test_the_docstring_check_finds_what_lacks_one() -> None:
    """The package has nothing undocumented left, so a module made here shows that the
    check would report a bare class, function, method or property, and only those."""
    module = ModuleType("fake")
    source = (
        "class Bare:\n"
        "    def method(self) -> None:\n"
        "        pass\n"
        "    @property\n"
        "    def size(self) -> int:\n"
        "        return 1\n"
        "    def _private(self) -> None:\n"
        "        pass\n"
        "class Told(Bare):\n"
        '    """Documented."""\n'
        "    def method(self) -> None:\n"
        '        """Documented."""\n'
        "class Heir(Told):\n"
        '    """Documented."""\n'
        "    def method(self) -> None:\n"
        "        pass\n"
        "def bare() -> None:\n"
        "    pass\n"
    )
    exec(source, vars(module))
    missing = [
        name for name, value, owner in public_names(module) if not has_docstring(value, owner)
    ]
    assert missing == ["fake.Bare", "fake.Bare.method", "fake.Bare.size", "fake.bare"]


def test_every_public_name_has_a_docstring() -> None:
    """No public module, class, function, method or property lacks a docstring: the check
    walks the package, so a module or package added later (the league) is held to it too.
    The failure lists every undocumented name."""
    missing = undocumented()
    assert missing == [], "public names without a docstring:\n" + "\n".join(missing)


# ------------------------------------------------------------------- browser


@pytest.fixture
def served(site: Path) -> Iterator[str]:
    """The built site over HTTP on a free local port (search needs HTTP, not file://)."""

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.mark.browser
def test_a_reader_reaches_position_play_from_the_home_page(
    served: str, site: Path, browser: Any
) -> None:
    """Chromium opens the home page, follows the navigation to the reference of
    ``Position.play``; no console error, and no request leaves the site. The same pages
    opened from disk (file://) log no error and load nothing from elsewhere either."""
    errors: list[str] = []
    requests: list[str] = []
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    try:
        context.set_default_timeout(30_000)
        page = context.new_page()
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
        page.on("request", lambda request: requests.append(request.url))
        page.goto(f"{served}/index.html")
        page.wait_for_load_state("networkidle")
        page.locator("nav.md-nav--primary").get_by_role("link", name="API reference").click()
        page.wait_for_url("**/reference/index.html")
        page.locator("article").get_by_role("link", name="adjacency.core.position").click()
        page.wait_for_url("**/reference/adjacency/core/position.html")
        toc = page.locator("nav.md-nav--secondary")  # the table of contents on the right
        toc.locator('a[href="#adjacency.core.position.Position.play"] >> visible=true').click()
        page.wait_for_url("**/position.html#adjacency.core.position.Position.play")
        heading = page.locator('[id="adjacency.core.position.Position.play"]')
        assert heading.is_visible()
        assert "play" in heading.inner_text()
        section = heading.locator("xpath=..")
        assert "IllegalMoveError" in section.inner_text()  # the docstring, with its link
        page.wait_for_load_state("networkidle")
        online = list(requests)
        requests.clear()
        for path in ["index.html", "reference/adjacency/core/position.html"]:
            page.goto((site / path).as_uri())
            page.wait_for_load_state("networkidle")
    finally:
        context.close()
    assert errors == [], f"console errors: {errors}"
    outside = [url for url in online if not url.startswith(served + "/")]
    assert outside == [], f"requests outside the site: {outside}"
    assert len(online) > 5
    from_disk = [url for url in requests if not url.startswith(site.as_uri() + "/")]
    assert from_disk == [], f"requests outside the site's folder: {from_disk}"
    assert len(requests) > 5


@pytest.mark.browser
def test_axe_finds_nothing_on_the_home_page(served: str, browser: Any) -> None:
    """axe-core (vendored) on the home page: no violation of any impact (before: the
    search dialog had no name, links in text were told apart by colour alone, code
    comments were 4.47:1, and the code blocks' copy buttons each sat in a nameless
    ``<nav>``, alike landmarks: landmark-unique, moderate); the site's own stylesheet,
    hook and script fix them."""
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    try:
        page = context.new_page()
        page.goto(f"{served}/index.html")
        page.wait_for_load_state("networkidle")
        assert page.locator("pre button.md-code__button").count() > 1  # the copy buttons
        assert axe_violations(page, ("minor", "moderate", *SERIOUS)) == []
        link = page.locator("article p a").first
        assert "underline" in link.evaluate("a => getComputedStyle(a).textDecorationLine")
    finally:
        context.close()


SCROLLS = """() => [...document.querySelectorAll(".md-typeset__scrollwrap")]
  .some((wrap) => wrap.scrollWidth > wrap.clientWidth)"""
WIDE_TABLE_PAGE = "lab-notes/2026-11-22-sprt-v3-v4.html"
"""A lab note whose ten-column table is wider than the page (it must scroll sideways)."""
AXE_PAGES = ["engine.html", WIDE_TABLE_PAGE, "league.html", "tutorials/course-bot.html", "404.html"]
"""Pages beyond the home page where axe-core found something: engine.md (a section named
"Search"), a lab note and league.md (wide tables), a tutorial's code, the page of a wrong
link."""


@pytest.mark.browser
@pytest.mark.parametrize("path", AXE_PAGES)
def test_axe_finds_nothing_on_pages_with_tables_code_and_the_404_page(
    served: str, browser: Any, path: str
) -> None:
    """axe-core on each of :data:`AXE_PAGES`: no violation of any impact (before: tables
    wider than the page scrolled in regions the keyboard could not reach, code's variable
    names were 4.47:1, the search box's buttons were a landmark named "Search" like
    engine.md's section, the 404 page's search dialog had no name)."""
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    try:
        page = context.new_page()
        page.goto(f"{served}/{path}")
        page.wait_for_load_state("networkidle")
        if path == WIDE_TABLE_PAGE:  # a table wider than the page is there
            assert page.evaluate(SCROLLS), f"no table of {path} scrolls sideways"
        assert axe_violations(page, ("minor", "moderate", *SERIOUS)) == []
    finally:
        context.close()
