"""The browser game's session is changed only through its named methods: no module of
the web package outside ``web/session.py`` writes one of its fields (an assignment, an
augmented assignment, a ``del``, or an item of a field's list or dict) nor touches one of
its private members. Checked over the sources' syntax trees (the session's fields are the
``self.NAME`` it assigns), and the checker itself on planted writes."""

from __future__ import annotations

import ast
from pathlib import Path

import adjacency.web
from adjacency.web.session import GameSession

WEB = Path(adjacency.web.__file__).parent
SESSION = WEB / "session.py"


def _session_class() -> ast.ClassDef:
    tree = ast.parse(SESSION.read_text(encoding="utf-8"))
    (cls,) = (n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "GameSession")
    return cls


def _assigned_on_self(cls: ast.ClassDef) -> set[str]:
    return {
        node.attr
        for node in ast.walk(cls)
        if isinstance(node, ast.Attribute)
        and isinstance(node.ctx, ast.Store)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    }


def session_members() -> set[str]:
    """The names the session's class assigns on ``self`` or defines (fields, properties,
    methods), underscored or not."""
    cls = _session_class()
    return _assigned_on_self(cls) | {n.name for n in cls.body if isinstance(n, ast.FunctionDef)}


def fields() -> set[str]:
    """The session's fields: what it assigns on ``self``, without the leading underscore
    too (a field behind a read-only property is written as ``_name``)."""
    return {n for name in _assigned_on_self(_session_class()) for n in (name, name.lstrip("_"))}


def _unpacked(targets: list[ast.expr]) -> list[ast.expr]:
    """The single targets of an assignment's: ``a, (b, *c)`` is ``a``, ``b`` and ``c``."""
    found: list[ast.expr] = []
    for target in targets:
        if isinstance(target, ast.Tuple | ast.List):
            found += _unpacked(list(target.elts))
        elif isinstance(target, ast.Starred):
            found += _unpacked([target.value])
        else:
            found.append(target)
    return found


def _written(target: ast.expr) -> ast.Attribute | None:
    """The attribute a store target writes into: ``x.f`` itself, or ``x.f`` of ``x.f[i]``."""
    while isinstance(target, ast.Subscript):
        target = target.value
    return target if isinstance(target, ast.Attribute) else None


def reaches(source: str, names: set[str], members: set[str]) -> list[str]:
    """Where ``source`` writes a field in ``names`` of an object other than its own
    ``self``, or touches one of the private ``members``: ``line: what``."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign | ast.Delete):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for target in _unpacked(targets):
            written = _written(target)
            if written is None or written.attr not in names:
                continue
            if isinstance(written.value, ast.Name) and written.value.id == "self":
                continue  # another class's own field of the same name
            found.append(f"{written.lineno}: writes .{written.attr}")
        if (
            isinstance(node, ast.Attribute)
            and node.attr.startswith("_")
            and node.attr in members
            and not (isinstance(node.value, ast.Name) and node.value.id == "self")
        ):
            found.append(f"{node.lineno}: touches .{node.attr}")
    return sorted(set(found))


def test_no_module_outside_the_session_writes_its_fields() -> None:
    names = fields()
    private = {m for m in session_members() if m.startswith("_") and not m.startswith("__")}
    assert {"offer", "paused", "delay", "version", "rematch", "game", "evals"} <= names
    found = {
        str(path.relative_to(WEB)): where
        for path in sorted(WEB.rglob("*.py"))
        if path != SESSION and (where := reaches(path.read_text(encoding="utf-8"), names, private))
    }
    assert found == {}, f"change the session through its named methods, not its fields: {found}"


def test_the_check_finds_each_kind_of_write_and_reach() -> None:
    planted = (
        "def command(session, old):\n"
        "    session.offer = None\n"
        "    session.paused, session.delay = True, 1.0\n"
        "    old.version += 1\n"
        "    session.evals[0] = (None, None)\n"
        "    del session.evals[1:]\n"
        "    session._changed()\n"
        "    self.offer = None\n"  # a class of its own: its field
        "    session.apply(step)\n"
    )
    names = fields()
    assert reaches(planted, names, {"_changed"}) == [
        "2: writes .offer",
        "3: writes .delay",
        "3: writes .paused",
        "4: writes .version",
        "5: writes .evals",
        "6: writes .evals",
        "7: touches ._changed",
    ]


def test_the_fields_read_from_outside_are_read_only_properties() -> None:
    for name in ("offer", "rematch", "paused", "delay", "version", "playback"):
        member = getattr(GameSession, name)
        assert isinstance(member, property) and member.fset is None, name
