"""Three course-like Java projects written apart (a minimax bot, a greedy bot, a local
search bot), a shared skeleton every team was given, and the disguises a copier uses:
names changed, methods reordered, comments and layout changed."""

from __future__ import annotations

import re

SKELETON = """\
package adjacency;

public class Board {
    public static final int SIZE = 8;
    private final char[][] cells = new char[SIZE][SIZE];

    public Board() {
        for (int row = 0; row < SIZE; row++) {
            for (int col = 0; col < SIZE; col++) {
                cells[row][col] = ' ';
            }
        }
        cells[SIZE - 1][0] = 'X'; cells[SIZE - 2][0] = 'X';
        cells[SIZE - 1][1] = 'X'; cells[SIZE - 2][1] = 'X';
        cells[0][SIZE - 1] = 'O'; cells[1][SIZE - 1] = 'O';
        cells[0][SIZE - 2] = 'O'; cells[1][SIZE - 2] = 'O';
    }

    public char at(int row, int col) { return cells[row][col]; }

    public void put(int row, int col, char who) {
        cells[row][col] = who;
        int[][] steps = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
        for (int[] step : steps) {
            int r = row + step[0], c = col + step[1];
            boolean inside = r >= 0 && r < SIZE && c >= 0 && c < SIZE;
            if (inside && cells[r][c] != ' ' && cells[r][c] != who) {
                cells[r][c] = who;
            }
        }
    }
}
"""

MINIMAX = """\
package adjacency;

import java.util.ArrayList;
import java.util.List;

/** Minimax with alpha-beta over the board's empty squares. */
public class MinimaxBot {
    private final int depth;
    private final char me;

    public MinimaxBot(int depth, char me) {
        this.depth = depth;
        this.me = me;
    }

    private char other(char side) {
        return side == 'X' ? 'O' : 'X';
    }

    private int score(Board board) {
        int mine = 0, theirs = 0;
        for (int row = 0; row < Board.SIZE; row++) {
            for (int col = 0; col < Board.SIZE; col++) {
                if (board.at(row, col) == me) {
                    mine += 1;
                } else if (board.at(row, col) == other(me)) {
                    theirs += 1;
                }
            }
        }
        return mine - theirs;
    }

    private List<int[]> moves(Board board) {
        List<int[]> found = new ArrayList<>();
        for (int row = 0; row < Board.SIZE; row++) {
            for (int col = 0; col < Board.SIZE; col++) {
                if (board.at(row, col) == ' ') {
                    found.add(new int[] {row, col});
                }
            }
        }
        return found;
    }

    private int search(Board board, int left, int alpha, int beta, boolean maximising) {
        List<int[]> options = moves(board);
        if (left == 0 || options.isEmpty()) {
            return score(board);
        }
        if (maximising) {
            int best = Integer.MIN_VALUE;
            for (int[] move : options) {
                Board next = copy(board);
                next.put(move[0], move[1], me);
                best = Math.max(best, search(next, left - 1, alpha, beta, false));
                alpha = Math.max(alpha, best);
                if (beta <= alpha) {
                    break;
                }
            }
            return best;
        }
        int best = Integer.MAX_VALUE;
        for (int[] move : options) {
            Board next = copy(board);
            next.put(move[0], move[1], other(me));
            best = Math.min(best, search(next, left - 1, alpha, beta, true));
            beta = Math.min(beta, best);
            if (beta <= alpha) {
                break;
            }
        }
        return best;
    }

    private Board copy(Board board) {
        Board out = new Board();
        for (int row = 0; row < Board.SIZE; row++) {
            for (int col = 0; col < Board.SIZE; col++) {
                out.put(row, col, board.at(row, col));
            }
        }
        return out;
    }

    public int[] move(Board board) {
        int[] chosen = null;
        int bestValue = Integer.MIN_VALUE;
        for (int[] move : moves(board)) {
            Board next = copy(board);
            next.put(move[0], move[1], me);
            int value = search(next, depth - 1, Integer.MIN_VALUE, Integer.MAX_VALUE, false);
            if (value > bestValue) {
                bestValue = value;
                chosen = move;
            }
        }
        return chosen;
    }
}
"""

GREEDY = """\
package bot;

import java.util.Random;

// Takes the square that turns the most pieces; ties broken at random.
public final class Greedy {
    private static final int[] DR = {1, -1, 0, 0};
    private static final int[] DC = {0, 0, 1, -1};
    private final Random random;

    public Greedy(long seed) { random = new Random(seed); }

    int gain(char[][] grid, int r, int c, char side) {
        int turned = 1;
        for (int k = 0; k < 4; k++) {
            int nr = r + DR[k];
            int nc = c + DC[k];
            boolean inside = nr >= 0 && nc >= 0 && nr < grid.length && nc < grid[0].length;
            if (inside && grid[nr][nc] != '.' && grid[nr][nc] != side) turned += 2;
        }
        return turned;
    }

    public String choose(char[][] grid, char side) {
        int top = -1;
        int count = 0;
        String pick = "";
        for (int r = 0; r < grid.length; r++)
            for (int c = 0; c < grid[r].length; c++) {
                if (grid[r][c] != '.') continue;
                int g = gain(grid, r, c, side);
                if (g > top) { top = g; count = 1; pick = r + "," + c; }
                else if (g == top && random.nextInt(++count) == 0) pick = r + "," + c;
            }
        return pick;
    }
}
"""

CLIMBER = """\
package local;

import java.util.HashMap;
import java.util.Map;

public class Climber {
    private final Map<String, Double> memo = new HashMap<>();
    private double temperature = 2.5;

    public double value(String position) {
        Double known = memo.get(position);
        if (known != null) return known;
        double total = 0;
        for (char piece : position.toCharArray()) {
            switch (piece) {
                case 'X' -> total += 1.0;
                case 'O' -> total -= 1.0;
                default -> total += 0.0;
            }
        }
        memo.put(position, total);
        return total;
    }

    public String step(String position, String[] neighbours, java.util.Random rng) {
        String current = position;
        while (temperature > 0.01) {
            String next = neighbours[rng.nextInt(neighbours.length)];
            double delta = value(next) - value(current);
            if (delta > 0 || Math.exp(delta / temperature) > rng.nextDouble()) {
                current = next;
            }
            temperature *= 0.93;
        }
        return current;
    }
}
"""

RENAMES = {
    "MinimaxBot": "SmartAgent",
    "depth": "maxPly",
    "me": "player",
    "other": "opponentOf",
    "score": "evaluateBoard",
    "moves": "legalMoves",
    "search": "alphaBeta",
    "copy": "cloneBoard",
    "chosen": "answer",
    "bestValue": "topScore",
    "mine": "ours",
    "theirs": "enemy",
    "found": "result",
    "options": "children",
    "maximising": "isMax",
}


def disguised(text: str) -> str:
    """``MINIMAX``-like ``text`` as a copier hands it in: every name in :data:`RENAMES`
    changed, its methods in the reverse order, comments rewritten, blank lines added."""
    for old, new in RENAMES.items():
        text = re.sub(rf"\b{old}\b", new, text)
    text = text.replace("/** Minimax with alpha-beta over the board's empty squares. */",
                        "// Our own agent (written by the team)")  # fmt: skip
    head, _, body = text.partition("    private char opponentOf")
    methods = ("    private char opponentOf" + body.rstrip().removesuffix("}")).split("\n\n")
    return head + "\n\n".join(reversed(methods)).replace("\n", "\n\n", 3) + "\n}\n"
