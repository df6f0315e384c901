"""A class of course-shaped projects for the similarity report, written here (no real
team's code): each team's window from the course's JavaFX skeleton
(:mod:`fx_course_projects`: the skeleton's own shape, or another that no other
team has), the board class the course gave
(:data:`code_projects.SKELETON`) and bots of its own, written apart; and two planted
copies, as a teacher finds them:

- (b) alpha's whole minimax bot inside delta's project, every name changed, its methods
  reordered, its comments rewritten and two constants changed (:func:`planted_minimax`);
- (c) epsilon's 190-line game state copied into zeta's project with two lines changed
  (:func:`planted_state`), while epsilon's own evaluator reuses a part of it.

:func:`course_class` is the seven teams; :func:`template` the skeleton the teacher
uploads once; :func:`big_class` thirty teams (for the report's time).
"""

from __future__ import annotations

import re

from code_projects import CLIMBER, GREEDY, MINIMAX, SKELETON, disguised
from fx_course_projects import SHAPES, files

GENETIC = """\
package ai;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/* Evolves a short plan of squares and plays the first square of the fittest plan. */
public class GeneticPlanner {
    private static final int POPULATION = 24;
    private static final int GENERATIONS = 30;
    private final Random rng = new Random(7);

    private static final class Plan implements Comparable<Plan> {
        final int[] genes;
        int fitness;
        Plan(int[] genes) { this.genes = genes; }
        public int compareTo(Plan other) { return Integer.compare(other.fitness, fitness); }
    }

    private int evaluate(char[][] cells, int[] genes, char side) {
        char[][] work = new char[8][];
        for (int r = 0; r < 8; r++) work[r] = cells[r].clone();
        char turn = side;
        for (int gene : genes) {
            int r = gene / 8, c = gene % 8;
            if (work[r][c] != '.') return -100;
            work[r][c] = turn;
            if (r > 0 && work[r - 1][c] != '.') work[r - 1][c] = turn;
            if (r < 7 && work[r + 1][c] != '.') work[r + 1][c] = turn;
            if (c > 0 && work[r][c - 1] != '.') work[r][c - 1] = turn;
            if (c < 7 && work[r][c + 1] != '.') work[r][c + 1] = turn;
            turn = turn == 'X' ? 'O' : 'X';
        }
        int balance = 0;
        for (char[] row : work)
            for (char cell : row) balance += cell == side ? 1 : cell == '.' ? 0 : -1;
        return balance;
    }

    private Plan crossover(Plan mum, Plan dad) {
        int cut = 1 + rng.nextInt(mum.genes.length - 1);
        int[] child = new int[mum.genes.length];
        System.arraycopy(mum.genes, 0, child, 0, cut);
        System.arraycopy(dad.genes, cut, child, cut, child.length - cut);
        if (rng.nextDouble() < 0.2) child[rng.nextInt(child.length)] = rng.nextInt(64);
        return new Plan(child);
    }

    public int choose(char[][] cells, char side) {
        List<Integer> free = new ArrayList<>();
        for (int i = 0; i < 64; i++) if (cells[i / 8][i % 8] == '.') free.add(i);
        List<Plan> people = new ArrayList<>();
        for (int n = 0; n < POPULATION; n++) {
            Collections.shuffle(free, rng);
            int[] genes = new int[Math.min(4, free.size())];
            for (int g = 0; g < genes.length; g++) genes[g] = free.get(g);
            people.add(new Plan(genes));
        }
        for (int generation = 0; generation < GENERATIONS; generation++) {
            for (Plan plan : people) plan.fitness = evaluate(cells, plan.genes, side);
            Collections.sort(people);
            List<Plan> next = new ArrayList<>(people.subList(0, POPULATION / 2));
            while (next.size() < POPULATION) {
                Plan mum = next.get(rng.nextInt(POPULATION / 2));
                next.add(crossover(mum, next.get(rng.nextInt(POPULATION / 2))));
            }
            people = next;
        }
        return people.get(0).genes[0];
    }
}
"""

STATE = """\
package engine;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The game as the engine sees it: a bitboard per side, whose turn it is, the rounds left,
 * and an undo stack so that a search can walk the tree without copying.
 */
public final class GameState {
    public static final int N = 8;
    private static final long FULL = -1L;
    private static final long NOT_LEFT = 0xfefefefefefefefeL;
    private static final long NOT_RIGHT = 0x7f7f7f7f7f7f7f7fL;

    private long xs;
    private long os;
    private boolean xToMove;
    private int roundsLeft;
    private final Deque<long[]> undo = new ArrayDeque<>();

    public GameState(int rounds) {
        xs = bit(7, 0) | bit(7, 1) | bit(6, 0) | bit(6, 1);
        os = bit(0, 6) | bit(0, 7) | bit(1, 6) | bit(1, 7);
        xToMove = true;
        roundsLeft = rounds;
    }

    public GameState(long xs, long os, boolean xToMove, int roundsLeft) {
        this.xs = xs;
        this.os = os;
        this.xToMove = xToMove;
        this.roundsLeft = roundsLeft;
    }

    static long bit(int row, int col) {
        return 1L << (row * N + col);
    }

    static long neighbours(long squares) {
        long up = squares >>> N;
        long down = squares << N;
        long left = (squares >>> 1) & NOT_RIGHT;
        long right = (squares << 1) & NOT_LEFT;
        return up | down | left | right;
    }

    public long empty() {
        return ~(xs | os) & FULL;
    }

    public boolean isOver() {
        return roundsLeft == 0 || empty() == 0;
    }

    public boolean xToMove() {
        return xToMove;
    }

    public int roundsLeft() {
        return roundsLeft;
    }

    public int count(boolean forX) {
        return Long.bitCount(forX ? xs : os);
    }

    public int margin(boolean forX) {
        int diff = Long.bitCount(xs) - Long.bitCount(os);
        return forX ? diff : -diff;
    }

    public int turned(int square) {
        long at = 1L << square;
        long theirs = xToMove ? os : xs;
        return Long.bitCount(neighbours(at) & theirs);
    }

    public int[] moves() {
        long free = empty();
        int[] out = new int[Long.bitCount(free)];
        int k = 0;
        while (free != 0) {
            int square = Long.numberOfTrailingZeros(free);
            out[k++] = square;
            free &= free - 1;
        }
        return out;
    }

    public void play(int square) {
        undo.push(new long[] {xs, os, xToMove ? 1 : 0, roundsLeft});
        long at = 1L << square;
        long around = neighbours(at);
        if (xToMove) {
            long taken = around & os;
            xs |= at | taken;
            os &= ~taken;
        } else {
            long taken = around & xs;
            os |= at | taken;
            xs &= ~taken;
            roundsLeft--;
        }
        xToMove = !xToMove;
    }

    public void takeBack() {
        long[] last = undo.pop();
        xs = last[0];
        os = last[1];
        xToMove = last[2] == 1;
        roundsLeft = (int) last[3];
    }

    public long frontier(boolean forX) {
        long mine = forX ? xs : os;
        return neighbours(mine) & empty();
    }

    public int mobility(boolean forX) {
        return Long.bitCount(frontier(forX));
    }

    public int safeSquares(boolean forX) {
        long mine = forX ? xs : os;
        long exposed = neighbours(empty());
        return Long.bitCount(mine & ~exposed);
    }

    public long hash() {
        long h = xs * 0x9E3779B97F4A7C15L;
        h ^= Long.rotateLeft(os * 0xC2B2AE3D27D4EB4FL, 31);
        h ^= xToMove ? 0x165667B19E3779F9L : 0;
        return h ^ roundsLeft;
    }

    public GameState copy() {
        return new GameState(xs, os, xToMove, roundsLeft);
    }

    public char at(int row, int col) {
        long b = bit(row, col);
        if ((xs & b) != 0) {
            return 'X';
        }
        if ((os & b) != 0) {
            return 'O';
        }
        return '.';
    }

    public static GameState fromCells(char[][] cells, boolean xToMove, int roundsLeft) {
        long x = 0;
        long o = 0;
        for (int row = 0; row < N; row++) {
            for (int col = 0; col < N; col++) {
                if (cells[row][col] == 'X') {
                    x |= bit(row, col);
                } else if (cells[row][col] == 'O') {
                    o |= bit(row, col);
                }
            }
        }
        return new GameState(x, o, xToMove, roundsLeft);
    }

    public static String name(int square) {
        return "" + (char) ('a' + square % N) + (N - square / N);
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        for (int row = 0; row < N; row++) {
            for (int col = 0; col < N; col++) {
                out.append(at(row, col));
            }
            out.append('\\n');
        }
        return out.toString();
    }
}
"""
"""Epsilon's game state: 190 lines or so."""

EVALUATOR = """\
package engine;

/** Scores a position for the side to move: pieces, safe pieces and mobility. */
public final class Evaluator {
    private static final long NOT_LEFT = 0xfefefefefefefefeL;
    private static final long NOT_RIGHT = 0x7f7f7f7f7f7f7f7fL;

    static long neighbours(long squares) {
        long up = squares >>> 8;
        long down = squares << 8;
        long left = (squares >>> 1) & NOT_RIGHT;
        long right = (squares << 1) & NOT_LEFT;
        return up | down | left | right;
    }

    public int score(GameState state) {
        boolean me = state.xToMove();
        int value = 10 * state.margin(me);
        value += 3 * (state.safeSquares(me) - state.safeSquares(!me));
        value += state.mobility(me) - state.mobility(!me);
        return value;
    }

    public int best(GameState state) {
        int chosen = -1;
        int top = Integer.MIN_VALUE;
        for (int square : state.moves()) {
            state.play(square);
            int value = -score(state);
            state.takeBack();
            if (value > top) {
                top = value;
                chosen = square;
            }
        }
        return chosen;
    }
}
"""
"""Epsilon's evaluator, reusing a part of its game state."""

MONTE_CARLO = """\
package mc;

import java.util.concurrent.ThreadLocalRandom;

public class RolloutBot {
    private final int rollouts;

    public RolloutBot(int rollouts) {
        this.rollouts = rollouts;
    }

    /** Plays each empty square, then random games to the end; the best average wins. */
    public int pick(String[] rows, boolean meX, int rounds) {
        double bestMean = Double.NEGATIVE_INFINITY;
        int bestSquare = -1;
        for (int sq = 0; sq < 64; sq++) {
            if (rows[sq / 8].charAt(sq % 8) != '-') {
                continue;
            }
            long total = 0;
            for (int t = 0; t < rollouts; t++) {
                total += playout(rows, sq, meX, rounds);
            }
            double mean = (double) total / rollouts;
            if (mean > bestMean) {
                bestMean = mean;
                bestSquare = sq;
            }
        }
        return bestSquare;
    }

    private int playout(String[] rows, int first, boolean meX, int rounds) {
        StringBuilder board = new StringBuilder(String.join("", rows));
        char mine = meX ? 'X' : 'O', theirs = meX ? 'O' : 'X';
        char who = mine;
        int sq = first;
        int plies = rounds * 2;
        while (plies-- > 0 && sq >= 0) {
            board.setCharAt(sq, who);
            int r = sq / 8, c = sq % 8;
            int[][] near = {{r - 1, c}, {r + 1, c}, {r, c - 1}, {r, c + 1}};
            for (int[] p : near) {
                if (p[0] < 0 || p[0] > 7 || p[1] < 0 || p[1] > 7) continue;
                int at = p[0] * 8 + p[1];
                if (board.charAt(at) != '-' && board.charAt(at) != who) board.setCharAt(at, who);
            }
            who = who == mine ? theirs : mine;
            int free = 0;
            for (int i = 0; i < 64; i++) if (board.charAt(i) == '-') free++;
            if (free == 0) break;
            int skip = ThreadLocalRandom.current().nextInt(free);
            sq = -1;
            for (int i = 0; i < 64 && sq < 0; i++) {
                if (board.charAt(i) == '-' && skip-- == 0) sq = i;
            }
        }
        int score = 0;
        for (int i = 0; i < 64; i++) {
            if (board.charAt(i) == mine) score++;
            else if (board.charAt(i) == theirs) score--;
        }
        return score;
    }
}
"""

BEAM = """\
package search;

import java.util.*;

// beam search: keep the WIDTH best boards at each depth, return the root move of the best leaf
public class BeamBot
{
    static final int WIDTH = 5, DEPTH = 3;

    record Node(int[][] grid, int rootMove, int value) {}

    static int[][] apply(int[][] grid, int square, int player)
    {
        int[][] g = Arrays.stream(grid).map(int[]::clone).toArray(int[][]::new);
        int row = square >> 3, col = square & 7;
        g[row][col] = player;
        int[] dr = {-1, 1, 0, 0}, dc = {0, 0, -1, 1};
        for (int d = 0; d < 4; ++d)
        {
            int rr = row + dr[d], cc = col + dc[d];
            if (rr >= 0 && rr < 8 && cc >= 0 && cc < 8 && g[rr][cc] == -player) g[rr][cc] = player;
        }
        return g;
    }

    static int value(int[][] grid, int player)
    {
        return Arrays.stream(grid).flatMapToInt(Arrays::stream).map(v -> v * player).sum();
    }

    public static int decide(int[][] grid, int player)
    {
        List<Node> beam = new ArrayList<>();
        beam.add(new Node(grid, -1, 0));
        int side = player;
        for (int depth = 0; depth < DEPTH; ++depth)
        {
            List<Node> next = new ArrayList<>();
            for (Node node : beam)
                for (int sq = 0; sq < 64; ++sq)
                    if (node.grid()[sq >> 3][sq & 7] == 0)
                    {
                        int[][] g = apply(node.grid(), sq, side);
                        int root = node.rootMove() < 0 ? sq : node.rootMove();
                        next.add(new Node(g, root, value(g, player)));
                    }
            if (next.isEmpty()) break;
            next.sort(Comparator.comparingInt(Node::value).reversed());
            beam = next.subList(0, Math.min(WIDTH, next.size()));
            side = -side;
        }
        return beam.get(0).rootMove();
    }
}
"""


def planted_minimax() -> str:
    """(b): alpha's minimax as delta hands it in: every name changed, methods reordered,
    comments rewritten, and two constants changed."""
    copy = disguised(MINIMAX).replace("package adjacency;", "package ai;")
    copy = copy.replace("ours += 1;", "ours += 2;").replace("enemy += 1;", "enemy += 3;")
    return copy


def planted_state() -> str:
    """(c): epsilon's game state as zeta hands it in: two lines changed."""
    copy = STATE.replace("package engine;", "package core;")
    return copy.replace("return forX ? diff : -diff;", "return forX ? diff + 1 : 1 - diff;")


def _ui(shape: int) -> dict[str, str]:
    """A team's window from the course's skeleton, in the shape ``shape`` of
    :data:`fx_course_projects.SHAPES` (each shape but the first at most one team's)."""
    return files(SHAPES[shape])


def template() -> dict[str, str]:
    """The course's skeleton, as the teacher uploads it once: the first shape's window
    and the board class."""
    return {**_ui(0), "src/adjacency/Board.java": SKELETON}


def course_class() -> dict[str, dict[str, str]]:
    """Seven teams written apart, with the two planted copies (see the module)."""
    board = {"src/adjacency/Board.java": SKELETON}
    return {
        "alpha": {**_ui(0), **board, "src/adjacency/MinimaxBot.java": MINIMAX},
        "beta": {**_ui(1), **board, "src/bot/Greedy.java": GREEDY},
        "gamma": {**_ui(2), **board, "src/local/Climber.java": CLIMBER},
        "delta": {
            **_ui(0),
            **board,
            "src/ai/GeneticPlanner.java": GENETIC,
            "src/ai/SmartAgent.java": planted_minimax(),
        },
        "epsilon": {
            **_ui(0),
            **board,
            "src/engine/GameState.java": STATE,
            "src/engine/Evaluator.java": EVALUATOR,
        },
        "zeta": {
            **_ui(0),
            **board,
            "src/mc/RolloutBot.java": MONTE_CARLO,
            "src/core/GameState.java": planted_state(),
        },
        "eta": {**_ui(0), **board, "src/search/BeamBot.java": BEAM},
    }


PLANTED = {("alpha", "delta"), ("epsilon", "zeta")}
"""The project pairs with a planted copy (names in order)."""


def _renamed(text: str, tag: str) -> str:
    """``text`` with every capitalised class-like name suffixed by ``tag`` (a copy that
    renames its classes only, for padding a large class)."""
    return re.sub(r"\b([A-Z][a-z]+[A-Z]\w*)\b", rf"\g<1>{tag}", text)


def big_class(teams: int = 30) -> dict[str, dict[str, str]]:
    """``teams`` course-shaped projects: the seven teams, then their projects again
    under other names with their classes renamed (copies among themselves: the report's
    worst case, every pair with passages to show)."""
    base = course_class()
    out = dict(base)
    names = sorted(base)
    n = 0
    while len(out) < teams:
        name = names[n % len(names)]
        tag = f"V{n}"
        out[f"{name}-{n}"] = {path: _renamed(text, tag) for path, text in base[name].items()}
        n += 1
    return out
