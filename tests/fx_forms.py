"""Recorded windows: what the JavaFX driver's dry run read of each course-shaped form
(:mod:`fx_course_projects`), kept as data so that the form's rules
(:mod:`adjacency.hosting.fx_recipe`, :func:`~adjacency.hosting.fx_kind.look`) are tested
in milliseconds, with no JVM, on the very forms a real dry run reads.

A shape's recording maps each dry run's options (the driver's ``--set``/``--press``
arguments of :meth:`~adjacency.hosting.fx_recipe.Recipe.look_args`, as JSON; ``[]`` for a
first look, the windows as they show) to the form that dry run read. :func:`replayed`
runs the product's own ``look`` (and the league's build of a program,
:func:`~adjacency.hosting.fx_kind.build_fx_submission`) with each dry run answered from
the recording, so a change in which looks the product takes fails there, naming the
look the recording lacks, rather than testing a window no program shows.

The recordings are made by the real build and dry run (``javac`` against OpenJFX, the
driver under Xvfb in the sandbox) of every shape here::

    .venv/bin/python tests/fx_forms.py [SHAPE...]

(naming shapes re-records only those, keeping the others' recordings) and cannot rot:
every real dry run of the JavaFX tests compares what it read with them
(:func:`assert_recorded`), and ``test_fx_programs.py`` re-records one shape whole.
"""

from __future__ import annotations

import contextlib
import json
import sys
import tempfile
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

from adjacency.hosting import fx_build, fx_kind, fx_run
from adjacency.hosting.fx_build import FxBuild
from adjacency.hosting.fx_recipe import MOVES_FIRST, Recipe, parse_choices
from adjacency.hosting.fx_run import DryRun
from adjacency.hosting.sandbox_build import HostedBuild
from fx_course_projects import FORMS, SHAPES, Shape

RECORDINGS = Path(__file__).parent / "data" / "fx_forms.json"
"""The recorded forms: shape name -> dry run's options (JSON) -> form (:func:`reading`)."""

READ = ("title", "controls", "path", "stuck", "plays_itself")
"""What a recording keeps of a dry run's form: the windows as the driver reads them (each
control's kind, ``fx:id``, label, options, value and window; the buttons that led to the
board, or what stopped the way there; whether the board played itself). Not what the dry
run saw the program's bot do in its time (its move's mark), an observation of one run
under its clock rather than of the window: a replayed form says no move was seen."""

RECORDED: tuple[Shape, ...] = (*SHAPES, *FORMS)
"""The shapes whose windows are recorded: each course shape and each form."""

CHOICES: dict[str, tuple[tuple[str, ...], ...]] = {
    # a shape -> the teams' choices (``--choose`` texts) whose looks are recorded, beside none
    SHAPES[1].name: (("Bot=Local Search",),),
    FORMS[2].name: ((" bot algorithm =local search",),),
    FORMS[6].name: ((f"{MOVES_FIRST}=AI starts",),),
    FORMS[7].name: (("Bot algorithm=Local Search",),),
}

PICTURE = b"\x89PNG\r\n\x1a\n recorded: no picture"
"""The picture a replayed dry run answers with (the recordings keep forms only)."""

Looks = dict[str, dict[str, Any]]


def look_key(options: Sequence[str] | None) -> str:
    """A dry run's options as a recording's key."""
    return json.dumps(list(options or []))


def reading(form: Mapping[str, object]) -> dict[str, Any]:
    """What a recording keeps of a dry run's ``form`` (:data:`READ`)."""
    return {key: form[key] for key in READ if key in form}


def recorded(shape: Shape) -> Looks:
    """``shape``'s recorded looks (a missing shape: record it, see the module)."""
    looks: dict[str, Looks] = json.loads(RECORDINGS.read_text(encoding="utf-8"))
    assert shape.name in looks, f"{shape.name} is not recorded: run tests/fx_forms.py"
    return looks[shape.name]


def assert_recorded(shape: Shape, form: Mapping[str, object]) -> None:
    """``form``, read by a real dry run of ``shape``, is one of its recorded forms: the
    recordings the unit tests read are what the driver reads today."""
    forms = list(recorded(shape).values())
    assert reading(form) in forms, (
        f"the dry run of {shape.name} read a form its recording lacks (re-record: "
        f".venv/bin/python tests/fx_forms.py): {json.dumps(form)}"
    )


_recordings = threading.local()
"""Each thread's open recordings (its ``into``), innermost last (:func:`recording`)."""


def _recorded_dry_run(build: FxBuild, out: Path, look: list[str] | None = None) -> DryRun:
    """The product's real dry run, its options and form added to the innermost recording
    of the calling thread (where it has one)."""
    seen = fx_run.dry_run(build, out, look)
    opened: list[Looks] = getattr(_recordings, "open", [])
    if opened:
        opened[-1][look_key(look)] = reading(seen.form)
    return seen


class _Patch:
    """The one patch of the product's dry run by :func:`_recorded_dry_run` while any
    thread records: started by the first recording opened, stopped by the last closed."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.count = 0
        self.patcher: Any = None

    def __enter__(self) -> None:
        with self.lock:
            if not self.count:
                self.patcher = mock.patch.object(fx_kind, "dry_run", _recorded_dry_run)
                self.patcher.start()
            self.count += 1

    def __exit__(self, *exc: object) -> None:
        with self.lock:
            self.count -= 1
            if not self.count:
                self.patcher.stop()
                self.patcher = None


_PATCH = _Patch()


@contextlib.contextmanager
def recording(into: Looks) -> Iterator[None]:
    """Every real dry run of the product meanwhile, in this thread, adds its options and
    form to ``into`` (a recording opened inside it takes them instead); recordings open
    in other threads at the same time take their own threads' dry runs."""
    opened: list[Looks] = _recordings.__dict__.setdefault("open", [])
    with _PATCH:
        opened.append(into)
        try:
            yield
        finally:
            opened.pop()


@contextlib.contextmanager
def replayed(shape: Shape) -> Iterator[list[str]]:
    """Every dry run of the product meanwhile is answered from ``shape``'s recording (and
    kept in its ``out`` as a real one is), and every build of a program is the recorded
    shape's, its main class ``Main``: yields the options of each look taken, in order."""
    looks = recorded(shape)
    taken: list[str] = []

    def dry_run(build: FxBuild, out: Path, look: list[str] | None = None) -> DryRun:
        key = look_key(look)
        taken.append(key)
        assert key in looks, f"{shape.name} has no recorded look {key}: run tests/fx_forms.py"
        out.mkdir(parents=True, exist_ok=True)
        (out / "form.json").write_text(json.dumps(looks[key]), encoding="utf-8")
        (out / "window.png").write_bytes(PICTURE)
        return DryRun(looks[key], PICTURE)

    def build_fx(project: Path, folder: Path, cache: Path | None = None) -> FxBuild:
        folder.mkdir(parents=True, exist_ok=True)
        return FxBuild(folder, "Main")

    with (
        mock.patch.object(fx_kind, "dry_run", dry_run),
        mock.patch.object(fx_kind, "build_fx", build_fx),
    ):
        yield taken


@dataclass(frozen=True)
class Read:
    """What the product's :func:`~adjacency.hosting.fx_kind.look` made of a recorded
    shape's windows: its ``recipe``, the ``form`` of the dry run that confirmed it, and
    the options of each look it took (:func:`look_key`), in order."""

    recipe: Recipe
    form: dict[str, object]
    looks: list[str]


def read(shape: Shape, *choose: str) -> Read:
    """The product's :func:`~adjacency.hosting.fx_kind.look` of ``shape``'s recorded
    windows with the team's ``choose`` texts (as ``league submit --choose`` takes them)."""
    with tempfile.TemporaryDirectory() as out, replayed(shape) as taken:
        build = FxBuild(Path(out) / "build", "Main")
        recipe, seen = fx_kind.look(build, Path(out) / "dry-run", parse_choices(choose))
    return Read(recipe, seen.form, taken)


def submitted(shape: Shape, out: Path, *choose: str) -> HostedBuild:
    """The league's build of ``shape`` (:func:`~adjacency.hosting.fx_kind.build_fx_submission`)
    into ``out``, its windows the recorded ones: its label is the verdict's start."""
    with replayed(shape):
        return fx_kind.build_fx_submission(out / "upload", out / "build", parse_choices(choose))


def record(folder: Path, shapes: Sequence[Shape] = RECORDED) -> dict[str, Looks]:
    """Build each of ``shapes`` under ``folder`` and take its looks, for no choice and
    for each of :data:`CHOICES` (a look that ends refused is recorded as far as it went)."""
    from adjacency.hosting.java_build import BuildFailed
    from fx_course_projects import write

    out: dict[str, Looks] = {}
    for shape in shapes:
        build = fx_build.build_fx(write(shape, folder / "projects"), folder / "builds" / shape.name)
        looks: Looks = {}
        for k, choose in enumerate(((), *CHOICES.get(shape.name, ()))):
            with recording(looks), contextlib.suppress(BuildFailed):
                fx_kind.look(build, folder / "dry" / f"{shape.name}-{k}", parse_choices(choose))
        out[shape.name] = looks
        print(f"{shape.name}: {len(looks)} looks", file=sys.stderr)
    return out


def main(names: Sequence[str] = ()) -> int:
    """Record the windows of the shapes ``names`` (every shape where none) into
    :data:`RECORDINGS`, keeping the other shapes' recordings."""
    from adjacency.sandbox import check
    from sandbox_helpers import reachable_folder

    known = {shape.name: shape for shape in RECORDED}
    unknown = [name for name in names if name not in known]
    if unknown:
        print(f"no such shape: {', '.join(unknown)} (shapes: {', '.join(known)})", file=sys.stderr)
        return 2
    check()
    with reachable_folder("adjacency-fx-record-") as folder:
        looks = record(folder, [known[name] for name in names] or RECORDED)
    if names:
        looks = {**json.loads(RECORDINGS.read_text(encoding="utf-8")), **looks}
    RECORDINGS.write_text(json.dumps(looks, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"recorded {len(looks)} shapes into {RECORDINGS}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
