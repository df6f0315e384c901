"""Planted copies in course-shaped classes, for the similarity report's precision and
recall (``benchmarks/bench_similarity_planted.py``) and its tests: the teams of
:mod:`similarity_class` written apart (their planted copies taken out) and two more
written here (:data:`THETA`, :data:`IOTA`; no real team's code), each class with its
copies and the pairs of teams that truly share code.

The kinds of copy a teacher finds in a small class:

- a **ring**: one file held by several teams, two of them renamed at the class, one
  disguised (names changed, methods reordered), in a 6-team and a 9-team event, and a
  ring of 5 of 9 (most of the class: what a majority rule would take for the skeleton);
- a **single function** of 48 lines copied into a team's own larger file with 6 names
  renamed;
- **whole classes** copied, their class renamed;
- a **corpus** copy: a class of an earlier year's project copied by a team.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from code_projects import CLIMBER, GREEDY, MINIMAX, SKELETON
from similarity_class import BEAM, EVALUATOR, GENETIC, MONTE_CARLO, STATE, _ui, template

THETA = """\
package strategy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/** Plays where its connected groups grow most and the opponent's shrink. */
public class RegionBot {
    private final char me;
    private final char you;

    public RegionBot(char me) {
        this.me = me;
        this.you = me == 'X' ? 'O' : 'X';
    }

    /** The size of every group of the side's stones, largest first, and its liberties. */
    int regionScore(char[][] grid, char side) {
        int rows = grid.length, cols = grid[0].length;
        boolean[][] seen = new boolean[rows][cols];
        List<Integer> sizes = new ArrayList<>();
        int liberties = 0;
        ArrayDeque<int[]> queue = new ArrayDeque<>();
        int[][] steps = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                if (seen[r][c] || grid[r][c] != side) {
                    continue;
                }
                int size = 0;
                seen[r][c] = true;
                queue.add(new int[] {r, c});
                while (!queue.isEmpty()) {
                    int[] at = queue.poll();
                    size++;
                    for (int[] step : steps) {
                        int nr = at[0] + step[0], nc = at[1] + step[1];
                        if (nr < 0 || nc < 0 || nr >= rows || nc >= cols) {
                            continue;
                        }
                        if (grid[nr][nc] == '.') {
                            liberties++;
                        } else if (grid[nr][nc] == side && !seen[nr][nc]) {
                            seen[nr][nc] = true;
                            queue.add(new int[] {nr, nc});
                        }
                    }
                }
                sizes.add(size);
            }
        }
        sizes.sort((x, y) -> y - x);
        int score = 0;
        int weight = 8;
        for (int size : sizes) {
            score += size * weight;
            weight = Math.max(1, weight / 2);
        }
        int largest = sizes.isEmpty() ? 0 : sizes.get(0);
        if (largest * 2 > rows * cols) {
            score += 16;
        }
        int groups = sizes.size();
        return score + liberties - groups;
    }

    private char[][] placed(char[][] grid, int r, int c) {
        char[][] next = new char[grid.length][];
        for (int i = 0; i < grid.length; i++) next[i] = grid[i].clone();
        next[r][c] = me;
        if (r > 0 && next[r - 1][c] == you) next[r - 1][c] = me;
        if (r + 1 < next.length && next[r + 1][c] == you) next[r + 1][c] = me;
        if (c > 0 && next[r][c - 1] == you) next[r][c - 1] = me;
        if (c + 1 < next[r].length && next[r][c + 1] == you) next[r][c + 1] = me;
        return next;
    }

    /** Corners and edges held count twice; a square beside an empty corner costs. */
    private int shape(char[][] grid) {
        int last = grid.length - 1;
        int[][] corners = {{0, 0}, {0, last}, {last, 0}, {last, last}};
        int value = 0;
        for (int[] corner : corners) {
            char held = grid[corner[0]][corner[1]];
            if (held == me) {
                value += 6;
            } else if (held == you) {
                value -= 6;
            } else {
                int dr = corner[0] == 0 ? 1 : -1;
                int dc = corner[1] == 0 ? 1 : -1;
                if (grid[corner[0] + dr][corner[1]] == me) value -= 2;
                if (grid[corner[0]][corner[1] + dc] == me) value -= 2;
            }
        }
        for (int i = 1; i < last; i++) {
            for (char edge : new char[] {grid[0][i], grid[last][i], grid[i][0], grid[i][last]}) {
                if (edge == me) value++;
                else if (edge == you) value--;
            }
        }
        return value;
    }

    public int[] choose(char[][] grid) {
        int[] best = null;
        int top = Integer.MIN_VALUE;
        for (int r = 0; r < grid.length; r++) {
            for (int c = 0; c < grid[r].length; c++) {
                if (grid[r][c] != '.') continue;
                char[][] next = placed(grid, r, c);
                int value = regionScore(next, me) - regionScore(next, you) + shape(next);
                if (value > top) {
                    top = value;
                    best = new int[] {r, c};
                }
            }
        }
        return best;
    }
}
"""
"""Theta's bot: its ``regionScore`` is the 48-line function the single-function copy
takes."""

IOTA = """\
package player;

import java.util.HashMap;
import java.util.Map;

// Looks a fixed number of plies ahead, remembering positions it has scored.
public class MemoBot {
    private final Map<String, Integer> memo = new HashMap<>();
    private final int plies;

    public MemoBot(int plies) {
        this.plies = plies;
    }

    private static String key(String board, boolean xTurn, int left) {
        return board + (xTurn ? 'x' : 'o') + left;
    }

    private static int material(String board) {
        int x = 0, o = 0;
        for (int i = 0; i < board.length(); i++) {
            char piece = board.charAt(i);
            if (piece == 'X') x++;
            else if (piece == 'O') o++;
        }
        return x - o;
    }

    private static String put(String board, int square, boolean xTurn) {
        StringBuilder out = new StringBuilder(board);
        char mine = xTurn ? 'X' : 'O';
        char theirs = xTurn ? 'O' : 'X';
        out.setCharAt(square, mine);
        int row = square / 8, col = square % 8;
        int[] near = {square - 8, square + 8, col > 0 ? square - 1 : -1, col < 7 ? square + 1 : -1};
        for (int n : near) {
            if (n >= 0 && n < 64 && out.charAt(n) == theirs) out.setCharAt(n, mine);
        }
        return row >= 0 ? out.toString() : board;
    }

    int look(String board, boolean xTurn, int left) {
        if (left == 0 || board.indexOf('-') < 0) return material(board);
        String k = key(board, xTurn, left);
        Integer known = memo.get(k);
        if (known != null) return known;
        int best = xTurn ? -1000 : 1000;
        for (int sq = 0; sq < 64; sq++) {
            if (board.charAt(sq) != '-') continue;
            int v = look(put(board, sq, xTurn), !xTurn, left - 1);
            best = xTurn ? Math.max(best, v) : Math.min(best, v);
        }
        memo.put(k, best);
        return best;
    }

    public int decide(String board, boolean xTurn) {
        memo.clear();
        int answer = -1;
        int best = xTurn ? -1000 : 1000;
        for (int sq = 0; sq < 64; sq++) {
            if (board.charAt(sq) != '-') continue;
            int v = look(put(board, sq, xTurn), !xTurn, plies - 1);
            if (answer < 0 || (xTurn ? v > best : v < best)) {
                best = v;
                answer = sq;
            }
        }
        return answer;
    }
}
"""
"""Iota's bot: a memoised look-ahead over a string board."""

Files = dict[str, str]
BOARD = {"src/adjacency/Board.java": SKELETON}


def written_apart() -> dict[str, Files]:
    """Nine teams written apart: each its window, the course's board and its own bots."""
    return {
        "alpha": {**_ui(0), **BOARD, "src/adjacency/MinimaxBot.java": MINIMAX},
        "beta": {**_ui(1), **BOARD, "src/bot/Greedy.java": GREEDY},
        "gamma": {**_ui(2), **BOARD, "src/local/Climber.java": CLIMBER},
        "delta": {**_ui(0), **BOARD, "src/ai/GeneticPlanner.java": GENETIC},
        "epsilon": {
            **_ui(0),
            **BOARD,
            "src/engine/GameState.java": STATE,
            "src/engine/Evaluator.java": EVALUATOR,
        },
        "zeta": {**_ui(0), **BOARD, "src/mc/RolloutBot.java": MONTE_CARLO},
        "eta": {**_ui(0), **BOARD, "src/search/BeamBot.java": BEAM},
        "theta": {**_ui(0), **BOARD, "src/strategy/RegionBot.java": THETA},
        "iota": {**_ui(0), **BOARD, "src/player/MemoBot.java": IOTA},
    }


def renamed(text: str, tag: str) -> str:
    """``text`` with its classes renamed (each capitalised class-like name ends in
    ``tag``) and its package changed: a copy renamed at the class."""
    text = re.sub(r"\b([A-Z][a-z]+[A-Z]\w*)\b", rf"\g<1>{tag}", text)
    return re.sub(r"^package \w+;", "package copied;", text, flags=re.MULTILINE)


def disguised(text: str) -> str:
    """``text`` disguised: its classes renamed, every comment rewritten, its methods
    (the blocks after the first blank line of the class) in the reverse order."""
    text = renamed(text, "Agent")
    text = re.sub(r"/\*.*?\*/|//[^\n]*", "// our own work", text, flags=re.DOTALL)
    head, brace, body = text.partition("{\n")
    parts = body.rstrip().removesuffix("}").split("\n\n")
    return head + brace + "\n\n".join([parts[0], *reversed(parts[1:])]) + "\n}\n"


def method_of(text: str, name: str) -> str:
    """The method of ``text`` whose signature names ``name``, to its closing brace."""
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if f" {name}(" in line and "{" in line)
    depth = 0
    for last in range(first, len(lines)):
        depth += lines[last].count("{") - lines[last].count("}")
        if depth == 0:
            break
    return "\n".join(lines[first : last + 1])


SIX_NAMES = {
    "regionScore": "groupValue",
    "sizes": "areas",
    "liberties": "freeCells",
    "queue": "todo",
    "steps": "dirs",
    "weight": "factor",
}


def single_function() -> tuple[str, str]:
    """Theta's 48-line ``regionScore``, and the same with :data:`SIX_NAMES` renamed."""
    function = method_of(THETA, "regionScore")
    copy = function
    for old, new in SIX_NAMES.items():
        copy = re.sub(rf"\b{old}\b", new, copy)
    return function, copy


def with_method(text: str, method: str) -> str:
    """``text`` (a class) with ``method`` added before its last closing brace."""
    return text.rstrip().removesuffix("}") + "\n" + method + "\n}\n"


@dataclass
class Planted:
    """A class with its planted copies: the teams' projects, the corpus, and the pairs
    of projects (names in order) that share copied code."""

    name: str
    teams: dict[str, Files]
    copies: set[tuple[str, str]]
    corpus: dict[str, Files] = field(default_factory=dict)


def _pairs(*names: str) -> set[tuple[str, str]]:
    return {(a, b) for a in names for b in names if a < b}


def ring6() -> Planted:
    """6 teams (alpha to zeta); eta's beam bot (from outside the event) held by three:
    beta and gamma renamed at the class, delta disguised."""
    six = ("alpha", "beta", "gamma", "delta", "epsilon", "zeta")
    teams = {k: v for k, v in written_apart().items() if k in six}
    teams["beta"]["src/bot/BeamBot.java"] = renamed(BEAM, "One")
    teams["gamma"]["src/local/Wide.java"] = renamed(BEAM, "Two")
    teams["delta"]["src/ai/Search.java"] = disguised(BEAM)
    return Planted("ring of 3 in 6 teams", teams, _pairs("beta", "gamma", "delta"))


def ring9() -> Planted:
    """9 teams; eta's beam bot in eta and three others (two renamed, one disguised)."""
    teams = written_apart()
    teams["beta"]["src/bot/BeamBot.java"] = renamed(BEAM, "One")
    teams["theta"]["src/strategy/Wide.java"] = renamed(BEAM, "Two")
    teams["iota"]["src/player/Search.java"] = disguised(BEAM)
    return Planted("ring of 4 in 9 teams", teams, _pairs("eta", "beta", "theta", "iota"))


def ring_most() -> Planted:
    """9 teams; zeta's rollout bot in zeta and four others: 5 of 9, most of the class."""
    teams = written_apart()
    for n, team in enumerate(("alpha", "gamma", "delta", "iota")):
        copy = disguised(MONTE_CARLO) if n == 3 else renamed(MONTE_CARLO, f"C{n}")
        teams[team][f"src/copied/Rollout{n}.java"] = copy
    return Planted("ring of 5 in 9 teams", teams, _pairs("zeta", "alpha", "gamma", "delta", "iota"))


def one_function() -> Planted:
    """9 teams; theta's 48-line function, 6 names renamed, inside epsilon's own game
    state (a 183-line file: the function is a fifth of it)."""
    teams = written_apart()
    _, copy = single_function()
    teams["epsilon"]["src/engine/GameState.java"] = with_method(STATE, copy)
    return Planted("a 48-line function in 9 teams", teams, {("epsilon", "theta")})


def whole_classes() -> Planted:
    """9 teams; gamma's climber renamed in eta, epsilon's evaluator renamed in beta."""
    teams = written_apart()
    teams["eta"]["src/search/Annealer.java"] = renamed(CLIMBER, "Mine")
    teams["beta"]["src/bot/Judge.java"] = renamed(EVALUATOR, "Mine")
    return Planted("whole classes in 9 teams", teams, {("eta", "gamma"), ("beta", "epsilon")})


def corpus_copy() -> Planted:
    """7 teams (all but eta and theta) and last year's eta and theta in the corpus;
    beta holds last year's beam bot renamed, gamma theta's bot disguised."""
    clean = written_apart()
    teams = {k: v for k, v in clean.items() if k not in ("eta", "theta")}
    teams["beta"]["src/bot/Wide.java"] = renamed(BEAM, "Old")
    teams["gamma"]["src/local/Regions.java"] = disguised(THETA)
    corpus = {"2025/eta": clean["eta"], "2025/theta": clean["theta"]}
    return Planted(
        "corpus copies in 7 teams",
        teams,
        {("beta", "2025/eta"), ("gamma", "2025/theta")},
        corpus,
    )


CLASSES: tuple[Callable[[], Planted], ...] = (
    ring6,
    ring9,
    ring_most,
    one_function,
    whole_classes,
    corpus_copy,
)
"""Every planted class."""

__all__ = [
    "CLASSES",
    "IOTA",
    "THETA",
    "Planted",
    "disguised",
    "method_of",
    "renamed",
    "single_function",
    "template",
    "with_method",
    "written_apart",
]
