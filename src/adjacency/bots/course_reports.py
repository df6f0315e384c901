"""The course reports' bots, one per algorithm per report: ``report-a:minimax`` and so on.

The two course reports this project started from each built a minimax, a
local-search and a genetic bot. They are shared seed documents, not files of this
repository, cited by file name and section: course report A (ITB IF3170, 2023) is
``000_1017c440989dc4b0.txt`` (:data:`REPORT_A`), course report B
``001_93a3ca6f84fd1e25.txt`` (:data:`REPORT_B`), and each bot's ``source`` names
the sections that define it. :data:`REPORT_BOTS` maps each onto our bots with
the report's parameters: most are settings of a general bot (its ``spec``);
report A's genetic algorithm has operators of its own and lives in
:mod:`adjacency.bots.sequence_genetic`. docs/bots.md sets each report's
definition beside the preset and lists every remaining difference.

Every preset obeys the caller's time limit; the reports played with 5 s per
move (the assignment's limit and our default, :data:`~adjacency.bots.base.DEFAULT_MOVE_TIME`).
The minimax presets deepen iteratively up to the report's depth, so with less
time they play the deepest search that finished.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import partial

from . import gametree, local, minimax  # noqa: F401  (register the bots the presets name)
from .base import Bot
from .registry import Option, register, registered
from .sequence_genetic import ReportGeneticSettings, SequenceGeneticBot

ALGORITHMS = ("minimax", "localsearch", "genetic")

REPORT_A = "000_1017c440989dc4b0.txt"
"""Course report A's file name among the shared seed documents."""
REPORT_B = "001_93a3ca6f84fd1e25.txt"
"""Course report B's file name among the shared seed documents."""


@dataclass(frozen=True)
class ReportBot:
    """One report's bot: where it is defined and what plays it here."""

    report: str
    """``report-a`` or ``report-b``."""
    algorithm: str
    source: str
    """The report file and section that define it."""
    spec: str | None
    """The general bot and options that play it, or ``None`` (its own implementation)."""
    definition: str
    """The report's definition in one line (our words)."""

    @property
    def name(self) -> str:
        """The spec name that plays it: the report, then the algorithm (``report-a:minimax``)."""
        return f"{self.report}:{self.algorithm}"


REPORT_A_GENETIC = ReportGeneticSettings(population=20, horizon=3, mutation=0.1, generations=100)
"""Report A, section 4, gives the operators but no numbers: ours (docs/bots.md)."""

REPORT_BOTS: tuple[ReportBot, ...] = (
    ReportBot(
        "report-a",
        "minimax",
        f"{REPORT_A}, sections 1a and 2",
        "alphabeta:depth=5,ties=scan",
        "alpha-beta on own-minus-opponent pieces, 6 tree levels counting the root "
        "(5 plies: the bot's third move), first best move in board order",
    ),
    ReportBot(
        "report-a",
        "localsearch",
        f"{REPORT_A}, sections 1b and 3",
        "hill:neighbourhood=all,variant=sideways,score=own",
        "hill climbing with sideways moves over every legal move, valued by the bot's "
        "pieces after it; the best of those not below the current value, random on ties",
    ),
    ReportBot(
        "report-a",
        "genetic",
        f"{REPORT_A}, sections 1c and 4",
        None,
        "chromosomes of the bot's own next moves, each answered by the local search; "
        "fitness the final margin (0 if illegal), roulette, mid-point crossover, "
        "one-gene mutation",
    ),
    ReportBot(
        "report-b",
        "minimax",
        f"{REPORT_B}, sections 1, 2 and 5",
        "alphabeta:depth=7,ties=scan",
        "alpha-beta on own-minus-opponent pieces at depth 7, first best move in board order",
    ),
    ReportBot(
        "report-b",
        "localsearch",
        f"{REPORT_B}, section 3",
        "hill:neighbourhood=all,variant=steepest,score=gain",
        "steepest-ascent hill climbing: the successor of maximal own-minus-opponent "
        "pieces, random among equals",
    ),
    ReportBot(
        "report-b",
        "genetic",
        f"{REPORT_B}, section 4 (numbers from the repository of its appendix)",
        "gatree:population=100,generations=5,depth=0,mutation=0.1",
        "chromosomes are lines of play for both sides merged into a 'reservation tree' "
        "valued by minimax; fitness is how far up a line's value survives; best N kept",
    ),
)
"""Every report bot, report A first."""


def report_bot(name: str) -> ReportBot:
    """The report bot called ``name`` (``report-a:minimax``)."""
    for item in REPORT_BOTS:
        if item.name == name:
            return item
    raise KeyError(name)


def build_spec(spec: str, rng: random.Random) -> Bot:
    """A bot from a spec of a general bot, drawing its randomness from ``rng``.

    The bot is read from the table as registered so far (the modules imported above
    register every bot the presets name), not through :mod:`adjacency.bots.lookup`: this
    module is one the catalog imports, so it must not import the catalog itself.
    """
    name, _, rest = spec.partition(":")
    found = registered(name)
    values = found.option_values(found.parse(rest, spec))
    values.pop("seed")
    bot = found.factory(rng=rng, **values)
    assert isinstance(bot, Bot)
    return bot


def build(report: str, algorithm: str, rng: random.Random) -> Bot:
    """The bot that plays ``report``'s ``algorithm``."""
    item = report_bot(f"{report}:{algorithm}")
    if item.spec is None:
        return SequenceGeneticBot(rng, REPORT_A_GENETIC)
    return build_spec(item.spec, rng)


def _summary(report: str, source: str) -> str:
    own = "the report's own genetic algorithm (sequence_genetic)"
    parts = [f"{b.algorithm} = {b.spec or own}" for b in REPORT_BOTS if b.report == report]
    return f"course {report} ({source}) bots with its parameters: " + "; ".join(parts)


def _algorithm(report: str) -> Option:
    return Option(
        "algorithm",
        "minimax",
        f"which of {report}'s bots (give it bare: {report}:genetic)",
        choices=ALGORITHMS,
    )


for _report, _source in (("report-a", REPORT_A), ("report-b", REPORT_B)):
    # The bot that plays ``algorithm`` with the report's parameters (:func:`build`).
    register(
        _report,
        _summary(_report, _source),
        "course report",
        options=(_algorithm(_report),),
        positional="algorithm",
    )(partial(build, _report))
