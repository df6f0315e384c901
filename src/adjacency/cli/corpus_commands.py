"""``adjacency league corpus``: keep earlier years' projects in the similarity report's
corpus (docs/league.md, "Similarity across teams")."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .league_options import DB


def register(sub: Any) -> None:
    """``league corpus`` under the ``league`` command's subparsers ``sub``."""
    corpus = sub.add_parser(
        "corpus",
        help="keep earlier years' projects for the similarity report to compare against",
        description="Keep each project of a folder of zips (--zips), or each team's last "
        "accepted version of an earlier league file (--league), in this league's "
        "similarity corpus as LABEL/NAME: every similarity report compares the class with "
        "them. Nothing is kept when one name is kept already or one project is refused.",
    )
    DB.add(corpus)
    corpus.add_argument("--label", required=True, help="the names' prefix, e.g. 2025")
    source = corpus.add_mutually_exclusive_group(required=True)
    source.add_argument("--zips", type=Path, help="a folder of the projects' zips")
    source.add_argument("--league", type=Path, help="an earlier league file")
    corpus.set_defaults(handler=run_corpus)


def run_corpus(args: argparse.Namespace) -> int:
    """Import the projects; print each name kept. A refusal is bad input (status 2)."""
    from ..league.grading.corpus_import import from_league, from_zips
    from ..league.league_file import LeagueStore

    with LeagueStore(args.db, create=False) as store:
        if args.zips is not None:
            kept = from_zips(store, args.zips, args.label)
        else:
            kept = from_league(store, args.league, args.label)
    for name in kept:
        print(f"kept {name}")
    print(f"{len(kept)} earlier projects in the corpus")
    return 0
