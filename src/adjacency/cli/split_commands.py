"""``adjacency solve --executor local|ray --jobs N``: the root's moves solved as parallel tasks
(:mod:`adjacency.solving.split`); without these options ``solve`` stays serial."""

from __future__ import annotations

import argparse
from typing import Any

from ..core import Position
from .arguments import add_executor_options, executor_from_args


def add_split_options(parser: argparse.ArgumentParser) -> None:
    """The executor options of ``solve`` (no default executor: serial unless given)."""
    add_executor_options(parser, what="root moves", default=None)


def wants_split(args: argparse.Namespace) -> bool:
    """Whether ``args`` ask for a split solve: an executor or a concurrency is given."""
    return args.executor is not None or args.concurrency is not None


def split_from_args(args: argparse.Namespace, position: Position) -> Any:
    """Solve ``position`` with one task per root move on the chosen executor."""
    from ..solving.split import split_solve

    with executor_from_args(args) as executor:
        return split_solve(position, executor, tt_mb=args.tt, wld=args.wld, seconds=args.time)
