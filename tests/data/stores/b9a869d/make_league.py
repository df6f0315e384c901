"""Write ``league.db`` of ``tests/league/test_establishment.py``'s upgrade test: a
league file of version 5, as the code of main at b9a869d wrote it (before only
established people vouched).

Run once, with that commit's code: ``PYTHONPATH=<checkout of b9a869d>/src python
tests/data/stores/b9a869d/make_league.py``. It is written through the store's public
API; running it again with newer code would write a file of a later version (keep the
committed one).
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from adjacency.league.league_file import LeagueStore
from adjacency.league.rules import LeagueRules
from adjacency.league.settings import LeagueSettings

HERE = Path(__file__).parent


def main() -> None:
    path = HERE / "league.db"
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    with LeagueStore(path) as store:
        store.meta.create(LeagueSettings(), "adjl_admin-token-of-the-fixture")
        store.meta.set_rules(LeagueRules(min_game=0.0))
        bots = [store.members.add_member(f"team{n}", "bot")[0].id for n in range(5)]
        farmed = store.members.add_member("farmed", "bot")[0].id
        puppet = store.members.add_member("puppet", "person")[0].id
        ada = store.members.add_member("ada", "person")[0].id
        store.members.approve("ada")

        def play(x: int, o: int, result: str, termination: str, plies: int) -> None:
            game = store.games.start_game(x, o, "opening")
            store.games.finish_game(game, result, termination, "", "record", (9, 3), plies, (1, 1))

        for bot in bots:  # the earlier rule: five resignations to bots established it
            play(bot, puppet, "x", "resignation", 0)
        play(farmed, puppet, "x", "resignation", 0)  # rated then: the farmed points
        play(ada, farmed, "x", "normal", 20)
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.execute("PRAGMA journal_mode=DELETE")


if __name__ == "__main__":
    main()
