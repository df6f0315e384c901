"""The similarity report's precision and recall on copies planted in real course projects.

``bench_similarity_planted.py`` plants copies in course-shaped projects written here;
this plants the same kinds in real ones: the folders under ``DIR`` (each a team's
project as downloaded, its ``.java`` files read as the league reads an upload's), drawn
into classes with ``--seed``:

- a **ring of 3 in 6 teams**: a bot file of a 7th project (outside the event) copied into
  three teams, two renamed at the class, one disguised (names changed, comments
  rewritten, methods reordered); the copy pairs are the three holders';
- a **ring of 4 in 9 teams**: a team's bot file copied so into three others;
- a **single function**: a method of 35 to 70 lines of one team's bot, its 6 commonest
  local names renamed, added to another team's largest file of its own;
- **whole classes**: two teams' bot files, renamed, each in another team;
- **corpus copies**: two projects kept as last year's corpus, a bot file of each copied
  into a team of the class (renamed, disguised).

Renaming and disguising are ``tests/similarity_planted.py``'s. No course template is
uploaded (this benchmark has no real course skeleton, and writes none): each class is
compared with the majority rule, as a teacher's report is without a base. The report
of each class is also made before planting: a pair it lists already is code the real
projects share (their common skeleton, or a copy of their own) and is reported apart,
neither right nor wrong unless it was planted too. A listed pair is right when it is a
planted copy.

    python benchmarks/bench_similarity_real.py /work/population --seed 1

State the machine's load beside the figures (printed first).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from adjacency.league.grading.fingerprints import project_prints
from adjacency.league.grading.similarity import Report, compare_prints

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))  # the planted copies' renaming and disguise
from similarity_planted import disguised, method_of, renamed, with_method  # noqa: E402

Files = dict[str, str]

BOT_NAME = re.compile(r"bot|minimax|minmax|alpha|genetic|local|search|climb|anneal", re.I)
"""A file name that says it holds a bot (the team's own work, not the course's window)."""

SIGNATURE = re.compile(
    r"^\s*(?:(?:public|private|protected|static|final|synchronized)\s+)*"
    r"[\w<>\[\], ]+\s+(\w+)\s*\([^;{)]*\)\s*(?:throws [\w., ]+)?\s*\{\s*$"
)
"""A method's first line (its name the group), as the course's Java writes it."""

JAVA_WORDS = frozenset(
    {
        "abstract",
        "boolean",
        "break",
        "byte",
        "case",
        "catch",
        "char",
        "class",
        "continue",
        "default",
        "do",
        "double",
        "else",
        "enum",
        "extends",
        "false",
        "final",
        "finally",
        "float",
        "for",
        "if",
        "implements",
        "import",
        "instanceof",
        "int",
        "interface",
        "long",
        "new",
        "null",
        "package",
        "private",
        "protected",
        "public",
        "return",
        "short",
        "static",
        "super",
        "switch",
        "this",
        "throw",
        "throws",
        "true",
        "try",
        "void",
        "while",
        "var",
        "length",
        "size",
        "get",
        "add",
        "put",
    }
)


def projects(folder: Path) -> dict[str, Files]:
    """Each project under ``folder`` (a folder each, named ``owner+repo...``): its Java
    sources by path below the project; the team named by its owner."""
    found: dict[str, Files] = {}
    for project in sorted(p for p in folder.iterdir() if p.is_dir()):
        files = {
            str(path.relative_to(project)): path.read_text(encoding="utf-8", errors="replace")
            for path in sorted(project.rglob("*.java"))
            if "test" not in str(path.relative_to(project)).lower()
        }
        if files:
            found[project.name.split("+")[0]] = files
    return found


def bot_file(files: Files) -> str:
    """The path of a project's largest bot file (:data:`BOT_NAME`) of 60 to 600 lines."""
    bots = [
        (len(text.splitlines()), path)
        for path, text in files.items()
        if BOT_NAME.search(Path(path).stem) and 60 <= len(text.splitlines()) <= 600
    ]
    if not bots:
        raise LookupError("no bot file")
    return max(bots)[1]


def a_method(text: str, least: int = 35, most: int = 70) -> str:
    """The longest method of ``text`` of ``least`` to ``most`` lines."""
    names = [m.group(1) for line in text.splitlines() if (m := SIGNATURE.match(line))]
    methods = [method_of(text, name) for name in names if name not in JAVA_WORDS]
    fitting = [m for m in methods if least <= len(m.splitlines()) <= most]
    if not fitting:
        raise LookupError("no method of that length")
    return max(fitting, key=lambda m: len(m.splitlines()))


def six_renamed(method: str) -> str:
    """``method`` with its 6 commonest lower-case names (not Java's words) renamed."""
    names = Counter(
        n for n in re.findall(r"\b[a-z][A-Za-z0-9]{2,}\b", method) if n not in JAVA_WORDS
    )
    for k, (name, _) in enumerate(names.most_common(6)):
        method = re.sub(rf"\b{name}\b", f"renamed{k}", method)
    return method


@dataclass
class Planted:
    """A class of real projects with its planted copies (pairs of names in order)."""

    name: str
    teams: dict[str, Files]
    copies: set[tuple[str, str]]
    corpus: dict[str, Files]


def _pairs(*names: str) -> set[tuple[str, str]]:
    return {(a, b) for a in names for b in names if a < b}


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def _copy_in(teams: dict[str, Files], team: str, text: str, tag: str) -> None:
    teams[team][f"src/copied/{tag}.java"] = text


def ring(all_: dict[str, Files], rng: random.Random, size: int, donor_inside: bool) -> Planted:
    """A ring: a donor's bot file in three teams of a class of ``size``."""
    donors = [n for n in all_ if _has_bot(all_[n])]
    donor = rng.choice(donors)
    others = rng.sample([n for n in all_ if n != donor], size - 1 if donor_inside else size)
    names = [donor, *others] if donor_inside else others
    teams = {n: dict(all_[n]) for n in names}
    text = all_[donor][bot_file(all_[donor])]
    holders = others[:3]
    _copy_in(teams, holders[0], renamed(text, "One"), "One")
    _copy_in(teams, holders[1], renamed(text, "Two"), "Two")
    _copy_in(teams, holders[2], disguised(text), "Three")
    ring_of = [donor, *holders] if donor_inside else holders
    where = "donor inside" if donor_inside else "donor outside"
    return Planted(f"ring of {len(ring_of)} in {size} ({where})", teams, _pairs(*ring_of), {})


def one_function(all_: dict[str, Files], rng: random.Random) -> Planted:
    """A method of one team's bot, 6 names renamed, in another team's largest own file."""
    while True:
        names = rng.sample(list(all_), 9)
        giver, taker = names[0], names[1]
        try:
            method = six_renamed(a_method(all_[giver][bot_file(all_[giver])]))
        except LookupError:
            continue
        teams = {n: dict(all_[n]) for n in names}
        host = max(teams[taker], key=lambda p: len(teams[taker][p]))
        teams[taker][host] = with_method(teams[taker][host], method)
        lines = len(method.splitlines())
        return Planted(f"a {lines}-line function in 9", teams, {_pair(giver, taker)}, {})


def whole_classes(all_: dict[str, Files], rng: random.Random) -> Planted:
    """Two teams' bot files, renamed, each in another team of 9."""
    donors = [n for n in all_ if _has_bot(all_[n])]
    a, b = rng.sample(donors, 2)
    names = [a, b, *rng.sample([n for n in all_ if n not in (a, b)], 7)]
    teams = {n: dict(all_[n]) for n in names}
    _copy_in(teams, names[2], renamed(all_[a][bot_file(all_[a])], "Mine"), "Mine")
    _copy_in(teams, names[3], renamed(all_[b][bot_file(all_[b])], "Ours"), "Ours")
    return Planted("whole classes in 9", teams, {_pair(a, names[2]), _pair(b, names[3])}, {})


def corpus_copies(all_: dict[str, Files], rng: random.Random) -> Planted:
    """Two projects as last year's corpus; a bot file of each in a team of 7."""
    donors = [n for n in all_ if _has_bot(all_[n])]
    old = rng.sample(donors, 2)
    names = rng.sample([n for n in all_ if n not in old], 7)
    teams = {n: dict(all_[n]) for n in names}
    corpus = {f"2025/{n}": all_[n] for n in old}
    _copy_in(teams, names[0], renamed(all_[old[0]][bot_file(all_[old[0]])], "Old"), "Old")
    _copy_in(teams, names[1], disguised(all_[old[1]][bot_file(all_[old[1]])]), "Older")
    copies = {_pair(names[0], f"2025/{old[0]}"), _pair(names[1], f"2025/{old[1]}")}
    return Planted("corpus copies in 7", teams, copies, corpus)


def _has_bot(files: Files) -> bool:
    try:
        bot_file(files)
    except LookupError:
        return False
    return True


def report(teams: dict[str, Files], corpus: dict[str, Files]) -> tuple[Report, float]:
    """The class's report with the majority rule (no base), and its CPU seconds."""
    prints = {name: project_prints(files) for name, files in teams.items()}
    earlier = {name: project_prints(files) for name, files in corpus.items()}
    texts = {**corpus, **teams}
    used = time.process_time()
    made = compare_prints(prints, texts.__getitem__, None, corpus=earlier)
    return made, time.process_time() - used


MAKERS: tuple[Callable[[dict[str, Files], random.Random], Planted], ...] = (
    lambda all_, rng: ring(all_, rng, 6, donor_inside=False),
    lambda all_, rng: ring(all_, rng, 9, donor_inside=True),
    one_function,
    whole_classes,
    corpus_copies,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="the real projects, a folder each")
    parser.add_argument("--seed", type=int, default=1, help="the classes' draw")
    parser.add_argument("--draws", type=int, default=3, help="classes of each kind")
    args = parser.parse_args()
    if not args.folder.is_dir():
        parser.error(f"{args.folder} is not a folder")
    all_ = projects(args.folder)
    if len(all_) < 11:
        parser.error(f"{args.folder} holds {len(all_)} projects with Java sources; 11 needed")
    print(f"load {os.getloadavg()[0]:.1f}; {len(all_)} projects")
    rng = random.Random(args.seed)
    right = listed_all = planted_all = 0
    shared_all: set[tuple[str, str]] = set()
    for make in MAKERS:
        for _ in range(args.draws):
            planted = make(all_, rng)
            before, _ = report({n: all_[n] for n in planted.teams}, planted.corpus)
            shared = {_pair(p.a, p.b) for p in before.listed}
            after, cpu = report(planted.teams, planted.corpus)
            listed = {_pair(p.a, p.b) for p in after.listed}
            hits = listed & planted.copies
            other = listed - planted.copies - shared
            right += len(hits)
            listed_all += len(hits) + len(other)
            planted_all += len(planted.copies)
            shared_all |= shared
            missed = sorted(planted.copies - hits)
            print(
                f"{planted.name:34} planted {len(planted.copies):2}, listed {len(hits):2} of "
                f"them, {len(other)} other; {len(shared)} listed before planting; "
                f"{cpu:.2f} s CPU" + (f"; missed {missed}" if missed else "")
            )
    precision = right / listed_all if listed_all else 1.0
    print(
        f"all: precision {precision:.2f} ({right}/{listed_all}), recall "
        f"{right / planted_all:.2f} ({right}/{planted_all}); listed before planting "
        f"(code the real projects share, reported apart): {sorted(shared_all) or 'none'}"
    )


if __name__ == "__main__":
    main()
