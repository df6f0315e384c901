"""The league's kind ``javafx``: a course project's own program, played through its window.

A team asks for it with its manifest, ``adjacency-bot.json``: ``{"language": "javafx"}``
optionally with its choice in its window's form, ``"choose": {"LABEL": "OPTION", ...}``
(:mod:`.fx_recipe`: what is not chosen takes the default, which the verdict states); a
program without a manifest is played so too, with its form's defaults, in a league whose
games are 8x8 from the start (:mod:`.kinds`). The
upload is then built whole by :func:`build_fx_submission`: its program's files taken in
(:func:`~.packing.program_files`: the one intake's kept files, nothing else read), compiled
against OpenJFX (:mod:`.fx_build`), started once for its form (:func:`~.fx_run.dry_run`),
and the recipe kept in the build folder (:data:`RECIPE`) with the fewest rounds its window
offers, which its check plays (:func:`~.fx_check.check_driven_program`).
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .fx_build import FxBuild, build_fx
from .fx_recipe import (
    Choosable,
    Recipe,
    bot_seen,
    choosable,
    plays_itself,
    readings,
    recipe_for,
    seen_words,
    unplayable,
)
from .fx_run import DryRun, dry_run, game_command
from .intake import MANIFEST
from .java_build import BuildFailed
from .manifest import ManifestError
from .packing import pack_files, program_manifest
from .sandbox_build import HostedBuild

LANGUAGE = "javafx"
"""The manifest's ``language`` that asks for the program to be played through its window."""

RECIPE = "recipe.json"
"""The file of a build folder keeping its recipe (the driver's arguments, the choice in
words, the fewest rounds its window offers)."""

DRY_RUN = "dry-run"
"""The folder of a build folder keeping what its dry run saw: ``form.json`` (the input
window's controls) and ``window.png`` (its picture)."""

MAX_MANIFEST = 64 << 10
"""Largest manifest read, in bytes."""


def fx_choices(upload: Path) -> dict[str, str] | None:
    """The team's choices when the upload's manifest asks for ``javafx`` (``{}`` for none
    chosen), ``None`` when it has no such manifest (the other kinds' route). Only the
    zip's directory and the manifest's entry are read; :class:`~.manifest.ManifestError`
    for a ``javafx`` manifest it cannot follow."""
    try:
        with zipfile.ZipFile(upload) as archive:
            found = [
                i
                for i in archive.infolist()
                if PurePosixPath(i.filename).name == MANIFEST and i.file_size <= MAX_MANIFEST
            ]
            if len(found) != 1:
                return None
            with archive.open(found[0]) as entry:
                data = entry.read(MAX_MANIFEST + 1)
            where = found[0].filename
    except (zipfile.BadZipFile, OSError, NotImplementedError, RuntimeError):
        return None  # the intake of the other kinds says what is wrong with the zip
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(value, dict) or value.get("language") != LANGUAGE:
        return None
    unknown = sorted(set(value) - {"language", "choose"})
    if unknown:
        raise ManifestError(f"{where}: unknown keys {unknown} (a javafx program: language, choose)")
    choose = value.get("choose", {})
    if not isinstance(choose, dict) or not all(
        isinstance(k, str) and isinstance(v, (str, bool)) for k, v in choose.items()
    ):
        raise ManifestError(
            f'{where}: \'choose\' must map labels to options, such as {{"Bot": "Minimax"}}'
        )
    return {k: str(v).lower() if isinstance(v, bool) else v for k, v in choose.items()}


def build_fx_submission(
    upload: Path, out: Path, choices: dict[str, str], cache: Path | None = None
) -> HostedBuild:
    """Build the program of ``upload`` into ``out`` (its compile kept in, or copied from,
    the build cache ``cache``: :func:`~.fx_build.build_fx`) and read its form, always by
    its own dry runs: its :class:`~.sandbox_build.HostedBuild` (kind ``javafx``; ``bot``
    the main class, ``args`` the driver's). Raises the intake's, the build's and the
    choice's refusals."""
    build = build_fx(upload, out, cache)
    recipe, _ = look(build, out / DRY_RUN, choices)
    kept = {
        "args": recipe.driver_args(),
        "choice": recipe.describe(),
        "choices": choices,
        **recipe.as_dict(),
    }
    (out / RECIPE).write_text(json.dumps(kept), encoding="utf-8")
    label = f"program {build.main}, {recipe.describe()}"
    args = [*build.run_args(), *recipe.driver_args()]  # on the Java it was built for
    return HostedBuild(LANGUAGE, out, build.main, args, label, [], [])


SETTLE_LOOKS = 4
"""The most dry runs a build takes to read its windows as its recipe fills them."""

MAX_LOOKS = 6
"""The most dry runs a build takes in all: those that read its windows
(:data:`SETTLE_LOOKS`), then those that show its bot's own move under each reading of
its windows in turn (:func:`look`)."""


def look(build: FxBuild, out: Path, choices: dict[str, str]) -> tuple[Recipe, DryRun]:
    """The recipe for the program of ``build`` with the team's ``choices`` and the dry
    run's form and picture that confirmed it, from dry runs into ``out`` (at most
    :data:`MAX_LOOKS`): the first sees the windows as they show; where the recipe sets a
    box to another value than its window showed (a mode box may show another pane) or
    presses another button, the next looks at the windows so filled, until the recipe
    holds (at most :data:`SETTLE_LOOKS`). Then each way the windows can be read
    (:func:`~.fx_recipe.readings`) is tried in turn, by the dry runs that show its bot's
    own move (:meth:`~.fx_recipe.Recipe.proofs`), and the first whose bot's move places
    its mark is kept (:meth:`~.fx_recipe.Recipe.fits`). A dry run in which no move of
    the bot showed in time (a slow bot, a loaded machine) neither confirms nor
    contradicts a way: where no way is confirmed, the first that no move contradicted is
    kept and its verdict names no side; only where every way was contradicted by a move
    its bot was seen to make is the version refused, naming each way tried and what its
    bot did.
    Raises the dry run's and the choice's refusals."""
    used: list[str] | None = None
    seen = dry_run(build, out, used)
    looked = 1
    while True:
        last = looked >= SETTLE_LOOKS
        try:
            recipe = recipe_for(seen.form, choices)
        except BuildFailed as failed:  # a choice of a control not shown yet, a form not filled yet
            if last:
                raise
            try:
                recipe = recipe_for(seen.form, choices, strict=False)
            except BuildFailed:
                if plays_itself(seen.form):  # no other reading: what the window did is why
                    raise failed from None
                raise
        wanted = recipe.look_args()
        if wanted == used or not recipe.changes(seen.form, used or []) or last:
            break
        used = wanted
        seen = dry_run(build, out, used)
        looked += 1
    return _confirmed(build, out, choices, seen, looked)


class _Looks:
    """The dry runs of a build by the options they were given, made as asked while
    :data:`MAX_LOOKS` allows (``looked`` taken so far)."""

    def __init__(self, build: FxBuild, out: Path, seen: DryRun, looked: int) -> None:
        self.build, self.out, self.looked = build, out, looked
        self.forms = {tuple(_look_of(seen.form)): seen}

    def of(self, args: list[str]) -> DryRun | None:
        """The dry run given ``args``, made now if it was not yet; ``None`` where the
        build's dry runs are spent."""
        got = self.forms.get(tuple(args))
        if got is None and self.looked < MAX_LOOKS:
            got = self.forms[tuple(args)] = dry_run(self.build, self.out, args)
            self.looked += 1
        return got

    def judge(self, way: Recipe) -> tuple[str, DryRun | None, bool]:
        """``way``'s dry runs (:meth:`~.fx_recipe.Recipe.proofs`): why it does not
        fit ("" where nothing contradicts it), its last dry run, and whether any of them
        showed its bot's move (a dry run in which none showed in time neither confirms
        nor contradicts it)."""
        got: DryRun | None = None
        shown = False
        for args in way.proofs():
            got = self.of(args)
            if got is None:
                return f"not tried: its {MAX_LOOKS} dry runs were spent", None, shown
            if bot_seen(got.form) is None:
                continue
            shown = True
            if not way.fits(got.form):
                return seen_words(got.form), got, shown
        return "", got, shown


def _confirmed(
    build: FxBuild, out: Path, choices: dict[str, str], seen: DryRun, looked: int
) -> tuple[Recipe, DryRun]:
    """The first way of reading ``seen``'s windows whose bot's own move the dry runs
    confirm (:func:`look`), ``looked`` dry runs taken so far."""
    looks = _Looks(build, out, seen, looked)
    tried: list[str] = []
    saw = bot_seen(seen.form) is not None
    unseen: DryRun | None = None  # the first way no dry run contradicted, none confirmed
    for way in readings(seen.form, choices):
        told, got, shown = looks.judge(way)
        saw = saw or shown
        if not told and got is not None:
            if shown:
                got.keep(out)
                return recipe_for(got.form, choices), got
            unseen = unseen or got
        tried.append(f"{way.reading or 'as its window shows'}: {told}")
    if unseen is not None:  # a way its bot's moves never contradicted: kept, naming no side
        unseen.keep(out)
        return recipe_for(unseen.form, choices), unseen
    if not saw:  # no move of its bot seen at all: the first way, naming no side
        seen.keep(out)
        return recipe_for(seen.form, choices), seen
    raise BuildFailed(
        "your bot's own move never showed on the side that a reading of your window gives "
        f"it; the readings tried: {'; '.join([*tried, *unplayable(seen.form, choices)])}"
    )


def _look_of(form: dict[str, object]) -> list[str]:
    """The options the dry run that read ``form`` was given (its ``look``)."""
    looked = form.get("look")
    return [str(a) for a in looked] if isinstance(looked, list) else []


def fx_command(bot: str, args: list[str]) -> list[str]:
    """The command of a built program's game inside its sandbox: its main class ``bot``,
    the driver's ``args`` (:func:`~.fx_run.game_command`: its board's pictures sent on
    the protocol)."""
    return game_command(bot, args)


def check_rounds(folder: Path) -> int | None:
    """The fewest rounds the program's window offers (its build folder's recipe)."""
    try:
        value = json.loads((folder / RECIPE).read_text(encoding="utf-8")).get("fewest_rounds")
    except (OSError, ValueError):
        return None
    return value if isinstance(value, int) else None


@dataclass(frozen=True)
class KeptForm:
    """What a built program's folder keeps of its window, for its team: the choice in
    words (``plays Bot Minimax as O``), the controls the team may choose, and the form
    as the dry run read it (:func:`~.fx_recipe.recipe_for` checks a new choice on it)."""

    choice: str
    controls: list[Choosable]
    form: dict[str, object]


NO_CHOICE_PLAYS = "no choice plays yet: choose and build again"
"""The choice in words of a refused version whose form no recipe could fill."""


def kept_form(folder: Path) -> KeptForm | None:
    """The form of the program built in ``folder`` with the choice its recipe made (the
    window's own values where its version was refused before a recipe was made, or its
    choice fills none: :data:`NO_CHOICE_PLAYS`), or ``None`` where ``folder`` holds no
    form of a program played through its window."""
    try:
        form = json.loads((folder / DRY_RUN / "form.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(form, dict):
        return None
    try:
        kept = json.loads((folder / RECIPE).read_text(encoding="utf-8"))
        recipe = recipe_for(form, kept.get("choices", kept.get("settings")) or {})
    except (OSError, ValueError, AttributeError, BuildFailed):
        try:
            return KeptForm(NO_CHOICE_PLAYS, choosable(form, None), form)
        except BuildFailed:
            return None
    return KeptForm(recipe.describe(), choosable(form, recipe), form)


KEPT_WHEN_REFUSED = (f"{DRY_RUN}/form.json", f"{DRY_RUN}/window.png", RECIPE)
"""What a refused version keeps of its program's build: its dry run's form and picture
and its recipe, where made (small files, never run), so that its team can choose again in
its window's form without uploading (:func:`keep_form`, :func:`discard_build`)."""

KEPT_FORM = "kept-form"
"""The folder of a version's folder where a refused program's form is kept (the layout
of a build's: :func:`kept_form` reads it)."""

BUILD = "build"
"""The folder of a version's folder that its build goes to (:func:`~.kinds.build_submission`)."""


def keep_form(build: Path, folder: Path) -> None:
    """Copy what :data:`KEPT_WHEN_REFUSED` names from the program's ``build`` into the
    version's ``folder``'s :data:`KEPT_FORM`, where its dry run read a form."""
    if not (build / DRY_RUN / "form.json").is_file():
        return
    for name in KEPT_WHEN_REFUSED:
        try:
            data = (build / name).read_bytes()
        except OSError:
            continue
        (folder / KEPT_FORM / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / KEPT_FORM / name).write_bytes(data)


def discard_build(folder: Path) -> None:
    """Remove all of a refused version's ``folder`` (its compiled classes, its copied
    files: nothing plays it any more) but its program's form (:func:`keep_form`); the
    folder itself goes too where no form is kept, so a refused version stores nothing."""
    keep_form(folder / BUILD, folder)
    for entry in folder.iterdir() if folder.is_dir() else ():
        if entry.name != KEPT_FORM:
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)
    with contextlib.suppress(OSError):
        folder.rmdir()  # refused where not empty: its kept form stays


def refused_form(folder: Path) -> Path | None:
    """Where a refused version's ``folder`` keeps its program's form (:func:`kept_form`
    reads it), or ``None`` where it keeps none."""
    kept = folder / KEPT_FORM
    return kept if (kept / DRY_RUN / "form.json").is_file() else None


def refused_window(folder: Path) -> bytes | None:
    """The picture of the input window of a version's ``folder`` refused at its build or
    dry run (:func:`kept_window`: its build's, else its kept form's), or ``None``."""
    return kept_window(folder / BUILD) or kept_window(folder / KEPT_FORM)


def kept_window(folder: Path) -> bytes | None:
    """The PNG picture of the input window of the program built in ``folder`` (its dry
    run's), or ``None``."""
    try:
        return (folder / DRY_RUN / "window.png").read_bytes()
    except OSError:
        return None


def with_choices(packed: bytes, choices: dict[str, str]) -> bytes:
    """The packed program ``packed`` (a zip of :func:`~.packing.pack_program`, or of
    :func:`~.packing.pack` without a manifest: a program played through its window
    unasked) with ``choices`` over those its
    manifest made (a control not named keeps its choice): the same program, another
    version. Raises :class:`~.manifest.ManifestError` for a zip that is no packed
    program."""
    try:
        with zipfile.ZipFile(io.BytesIO(packed)) as archive:
            files = {name: archive.read(name) for name in archive.namelist()}
        manifest = files.get(MANIFEST)
        asked = {"language": LANGUAGE} if manifest is None else json.loads(manifest.decode())
    except (zipfile.BadZipFile, OSError, ValueError):
        asked = None
    if not isinstance(asked, dict) or asked.get("language") != LANGUAGE:
        raise ManifestError("this version is not a program played through its window")
    before = asked.get("choose")
    kept = {str(k): str(v) for k, v in before.items()} if isinstance(before, dict) else {}
    files[MANIFEST] = program_manifest({**kept, **choices})
    return pack_files(files)
