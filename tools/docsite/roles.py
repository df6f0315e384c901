"""A Griffe extension: the docstrings' Sphinx roles become mkdocstrings cross-references.

The package's docstrings are written for Sphinx (``:func:`play```, ``:class:`~a.b.C```),
which mkdocstrings' Python handler does not understand: left alone, the roles would show
as raw text. Once Griffe has loaded the whole package (so every name can be looked up),
this extension rewrites each role in every docstring into a Markdown autorefs link,
``[`C`][adjacency.a.b.C]``, that ``mkdocs build --strict`` checks like any other link.

A target is resolved as Sphinx resolves it (``tests/integrations/test_docstring_references.py``
checks the same rules against the imported package): ``~`` and ``!`` only change the
text shown, ``title <target>`` names ``target``, a trailing ``()`` is dropped; the
enclosing classes, the module and each package above it are tried in turn, then the
name as an absolute dotted path. Imported names are followed to the object's own
(canonical) path, where the reference page documents it.

Only targets the site documents become links: public objects of ``adjacency``. Any other
target (the standard library, a private helper, an instance attribute Griffe cannot see)
is shown as code, so the build never points at a page that does not exist.

The extension also turns reStructuredText's ``text::`` (a colon before a literal block)
into ``text:``; the indented block after it is a Markdown code block already.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(func|class|meth|mod|data|attr|exc|obj|const):`([^`]+)`")
"""A Sphinx Python-domain role and its target text (the pattern the references test uses)."""

LITERAL_INTRO = re.compile(r"(?<=\S)::[ \t]*$", re.M)
"""A paragraph ending in ``::``: reStructuredText's introduction of a literal block."""

ROOT = "adjacency"
"""The package the site documents."""

CALLABLE_ROLES = frozenset({"func", "meth"})
"""Roles shown with ``()`` after the name, as Sphinx shows them."""


class SphinxRoles(griffe.Extension):
    """Rewrites every docstring of the package once it is loaded (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self.linked = 0
        self.shown_as_code: list[str] = []

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        """Rewrite the docstrings of ``pkg`` and everything in it, when ``pkg`` is ours."""
        if pkg.path != ROOT:
            return
        for obj in walk(pkg):
            if obj.docstring is not None:
                obj.docstring.value = self.rewrite(obj, obj.docstring.value, loader)

    def rewrite(self, obj: griffe.Object, text: str, loader: griffe.GriffeLoader) -> str:
        """``text`` (the docstring of ``obj``) with its roles as links or code."""

        def replace(match: re.Match[str]) -> str:
            role, raw = match.group(1), match.group(2)
            shown, target = split_target(raw)
            titled = raw.endswith(">") and "<" in raw
            if role in CALLABLE_ROLES and not titled and not shown.endswith("()"):
                shown += "()"  # as Sphinx shows a function, unless given a title
            found = resolve(obj, target, role, loader)
            if found is not None and documented(found):
                self.linked += 1
                return f"[`{shown}`][{found.path}]"
            self.shown_as_code.append(f"{obj.path}: :{role}:`{raw}`")
            return f"`{shown}`"

        return LITERAL_INTRO.sub(":", ROLE.sub(replace, text))


def split_target(raw: str) -> tuple[str, str]:
    """The text shown for a role and the dotted name it targets."""
    if raw.endswith(">") and "<" in raw:
        title, target = raw[: raw.rindex("<")].strip(), raw[raw.rindex("<") + 1 : -1]
        return title, target.lstrip("~!").removesuffix("()")
    target = raw.lstrip("!")
    shortened = target.startswith("~")
    target = target.lstrip("~")
    shown = target.lstrip(".").rsplit(".", 1)[-1] if shortened else target.lstrip(".")
    return shown, target.removesuffix("()")


def walk(obj: griffe.Object) -> list[griffe.Object]:
    """``obj`` and every object defined in it (aliases, i.e. imported names, left out)."""
    found = [obj]
    for member in obj.members.values():
        if not member.is_alias and isinstance(member, griffe.Object):
            found.extend(walk(member))
    return found


def target_of(obj: griffe.Object | griffe.Alias, loader: griffe.GriffeLoader) -> Any:
    """The object an alias (an imported name) stands for, followed to the end, or None."""
    seen = 0
    current: Any = obj
    while isinstance(current, griffe.Alias) and seen < 20:
        path = current.target_path
        try:
            current = loader.modules_collection.get_member(path)
        except (KeyError, ValueError, griffe.AliasResolutionError):
            return None
        seen += 1
    return current


def lookup(start: Any, dotted: str, loader: griffe.GriffeLoader) -> Any:
    """Follow ``dotted`` through the members of ``start``; None where a part is missing."""
    current = target_of(start, loader)
    for part in dotted.split("."):
        if current is None or part not in current.members:
            return None
        current = target_of(current.members[part], loader)
    return current


def resolve(obj: griffe.Object, target: str, role: str, loader: griffe.GriffeLoader) -> Any:
    """What ``target`` names in the docstring of ``obj``, as Sphinx resolves it, or None."""
    relative = target.startswith(".")
    name = target.lstrip(".")
    module = obj.module
    scopes: list[Any] = []
    if role != "mod":  # a :mod: names a module: no class scope
        current: Any = obj
        while current is not None and not current.is_module:
            if current.is_class:
                scopes.append(current)
            current = current.parent
    scopes.append(module)
    parent = module.parent
    while parent is not None:
        scopes.append(parent)
        parent = parent.parent
    for scope in scopes:
        found = lookup(scope, name, loader)
        if found is not None and (role != "mod" or found.is_module):
            return found
    if relative:
        return None
    head, _, rest = name.partition(".")
    if head != ROOT:
        return None
    found = lookup(loader.modules_collection[ROOT], rest, loader) if rest else None
    return found if rest else loader.modules_collection[ROOT]


def documented(obj: Any) -> bool:
    """Whether the site has a section for ``obj``: a public object of the package."""
    parts = obj.path.split(".")
    return parts[0] == ROOT and not any(part.startswith("_") for part in parts)
