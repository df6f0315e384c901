"""What keeps a resumed AlphaZero run the run it continues (both routes of the example).

- **Settings, checked**: every setting that changes a run's results is an option whose
  default is "not given"; a new run takes the given ones over the defaults, and all of
  them are stored in the checkpoint. A resumed run takes the checkpoint's; an option
  given on resume that differs from the checkpoint's value, or a setting the checkpoint
  does not record (written before that setting was recorded), refuses the resume with
  every difference named, so a run never continues with other settings unnoticed.
- **Provenance, appended**: each segment of a run (one command that trains at least one
  iteration) appends one record: the provenance record of
  :mod:`adjacency.system.provenance` (commit, source hash, Python and libraries, machine,
  settings, seeds, date), the command's arguments and the iterations it trained. Earlier
  segments' records are never rewritten.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import Any

from adjacency.system.provenance import provenance


class RunMismatch(Exception):
    """A resume refused: the message names each setting and both values."""


def add_setting_options(parser: argparse.ArgumentParser, defaults: Mapping[str, Any]) -> None:
    """``--name`` for each setting (``--name/--no-name`` for a flag), default "not given"
    (None), its real default in the help."""
    for name, value in defaults.items():
        shown = f"default: {value} (a resumed run: the checkpoint's)"
        if isinstance(value, bool):
            parser.add_argument(flag(name), action=argparse.BooleanOptionalAction, help=shown)
        else:
            parser.add_argument(flag(name), type=type(value), default=None, help=shown)


def flag(name: str) -> str:
    """A setting's option: ``--quick-compile`` for ``quick_compile``."""
    return "--" + name.replace("_", "-")


def option(name: str, value: Any) -> str:
    """A setting and its value as the command line gives them."""
    if isinstance(value, bool):
        return flag(name) if value else "--no-" + flag(name)[2:]
    return f"{flag(name)} {value}"


def settings_of(
    args: argparse.Namespace, defaults: Mapping[str, Any], recorded: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The run's settings: a new run's (``recorded`` None: the defaults, the given options
    over them) or a resumed run's (the checkpoint's ``recorded`` ones). Raises
    :class:`RunMismatch` naming every given option that differs from ``recorded`` and
    every setting ``recorded`` lacks."""
    given = {name: getattr(args, name) for name in defaults if getattr(args, name) is not None}
    if recorded is None:
        return {**defaults, **given}
    missing = [name for name in defaults if name not in recorded]
    if missing:
        names = ", ".join(flag(name) for name in missing)
        raise RunMismatch(
            f"the checkpoint does not record {names} (written before these settings were "
            "recorded): its run cannot be continued exactly; start a new run"
        )
    differ = [
        f"{option(name, value)} (the checkpoint's run: {option(name, recorded[name])})"
        for name, value in given.items()
        if value != recorded[name]
    ]
    if differ:
        raise RunMismatch(
            "cannot resume with other settings than the checkpoint's run: "
            + "; ".join(differ)
            + ". Resume without them to continue that run, or start a new run in another file"
        )
    return {name: recorded[name] for name in defaults}


def new_segment(
    settings: Mapping[str, Any],
    seeds: Any,
    command: Sequence[str],
    first_iteration: int,
    **extra: Any,
) -> dict[str, Any]:
    """One segment's record: the provenance record, ``command`` (the script and its
    arguments), ``iterations`` ``[first, last]`` (the caller moves ``last`` on as the
    segment trains) and ``extra`` (what the route adds: its libraries, its device)."""
    record = provenance(settings, seeds=seeds)
    record["command"] = list(command)
    record["iterations"] = [first_iteration, first_iteration]
    record.update(extra)
    return record


def segments_of(meta: dict[str, Any]) -> list[dict[str, Any]]:
    """The checkpoint's list of segment records (created empty in a new run's ``meta``;
    a checkpoint written when only the last segment's record was kept, under
    ``provenance``, starts the list with that record)."""
    if "segments" not in meta:
        meta["segments"] = [meta.pop("provenance")] if "provenance" in meta else []
    segments: list[dict[str, Any]] = meta["segments"]
    return segments
