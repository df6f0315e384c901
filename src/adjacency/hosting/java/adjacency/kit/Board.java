package adjacency.kit;

import java.util.ArrayList;
import java.util.List;

/**
 * A position of the Adjacency Strategy Game (docs/rules.md): the board, whose turn it is and
 * how many plies (single moves) are left.
 *
 * <p>{@code grid[r][c]} is {@code 'x'}, {@code 'o'} or {@code '.'}; row {@code r = 0} is rank 1
 * (the bottom) and column {@code c = 0} is file a, so {@code grid[0][0]} is a1 and
 * {@code grid[3][2]} is c4. Boards have 4 to 8 rows and 4 to 8 columns.
 *
 * <p>A move puts a piece of the side to move on any empty square; every orthogonally adjacent
 * opponent piece becomes the mover's. After the last ply the side with more squares wins.
 * {@link #play(String)} returns a new board and leaves this one unchanged.
 */
public final class Board {
    public static final String FILES = "abcdefgh";

    public final int rows;
    public final int cols;
    /** {@code grid[r][c]}: r = 0 is rank 1, c = 0 is file a; 'x', 'o' or '.'. */
    public final char[][] grid;
    /** The side to move, 'x' or 'o'. */
    public final char turn;
    /** Plies left in the game; 0 means the game is over. */
    public final int pliesLeft;

    private Board(char[][] grid, char turn, int pliesLeft) {
        this.rows = grid.length;
        this.cols = grid[0].length;
        this.grid = grid;
        this.turn = turn;
        this.pliesLeft = pliesLeft;
    }

    /** The start position: X's 2x2 block at a1, O's in the top-right corner. */
    public static Board start(int rows, int cols, int rounds, char first) {
        if (rows < 4 || rows > 8 || cols < 4 || cols > 8) {
            throw new IllegalArgumentException("the board must have 4 to 8 rows and columns, not " + rows + "x" + cols);
        }
        int most = (rows * cols - 8) / 2;
        if (rounds < 1 || rounds > most) {
            throw new IllegalArgumentException("rounds must be 1 to " + most + " on " + rows + "x" + cols + ", not " + rounds);
        }
        if (first != 'x' && first != 'o') {
            throw new IllegalArgumentException("first must be x or o, not " + first);
        }
        char[][] grid = new char[rows][cols];
        for (char[] row : grid) {
            java.util.Arrays.fill(row, '.');
        }
        for (int r = 0; r < 2; r++) {
            for (int c = 0; c < 2; c++) {
                grid[r][c] = 'x';
                grid[rows - 1 - r][cols - 1 - c] = 'o';
            }
        }
        return new Board(grid, first, 2 * rounds);
    }

    /** The most rounds a board of this size allows (28 on 8x8). */
    public static int mostRounds(int rows, int cols) {
        return (rows * cols - 8) / 2;
    }

    /** A position from position text, e.g. {@code fromFen("6oo/6oo/8/8/8/8/xx6/xx6", "x", "56")}. */
    public static Board fromFen(String board, String side, String plies) {
        String[] ranks = board.split("/", -1);
        if (ranks.length < 4 || ranks.length > 8) {
            throw new IllegalArgumentException("position text '" + board + "' must have 4 to 8 ranks");
        }
        char[][] grid = new char[ranks.length][];
        int empty = 0;
        int width = -1;
        for (int i = 0; i < ranks.length; i++) {
            StringBuilder row = new StringBuilder();
            for (char ch : ranks[i].toCharArray()) {
                if (ch >= '1' && ch <= '8') {
                    row.append(".".repeat(ch - '0'));
                    empty += ch - '0';
                } else if (ch == 'x' || ch == 'o') {
                    row.append(ch);
                } else {
                    throw new IllegalArgumentException("unexpected '" + ch + "' in rank '" + ranks[i] + "'");
                }
            }
            if (row.length() < 4 || row.length() > 8 || (width >= 0 && row.length() != width)) {
                throw new IllegalArgumentException("rank '" + ranks[i] + "' has " + row.length() + " squares");
            }
            width = row.length();
            grid[ranks.length - 1 - i] = row.toString().toCharArray();
        }
        if (!side.equals("x") && !side.equals("o")) {
            throw new IllegalArgumentException("the side to move must be x or o, not '" + side + "'");
        }
        int left = parseNumber(plies, "plies left");
        if (left > empty) {
            throw new IllegalArgumentException(left + " plies left but only " + empty + " empty squares");
        }
        return new Board(grid, side.charAt(0), left);
    }

    /** A whole number in ASCII digits (at most 18 of them, as the protocol says). */
    public static int parseNumber(String text, String what) {
        if (!text.matches("[0-9]{1,18}")) {
            throw new IllegalArgumentException(what + " must be a whole number, not '" + text + "'");
        }
        long value = Long.parseLong(text);
        return (int) Math.min(value, Integer.MAX_VALUE);
    }

    /** The name of the square in row r (0 = rank 1), column c (0 = file a): "d4". */
    public static String square(int r, int c) {
        return "" + FILES.charAt(c) + (r + 1);
    }

    /** {row, col} of a square name on this board ("C3" is "c3"); throws if it is not one. */
    public int[] parseSquare(String name) {
        String s = name.toLowerCase(java.util.Locale.ROOT);
        if (!s.matches("[a-h][1-9][0-9]?")) {
            throw new IllegalArgumentException("malformed square '" + name + "'");
        }
        int c = s.charAt(0) - 'a';
        int r = Integer.parseInt(s.substring(1)) - 1;
        if (r >= rows || c >= cols) {
            throw new IllegalArgumentException("square '" + name + "' is off the " + rows + "x" + cols + " board");
        }
        return new int[] {r, c};
    }

    public static char opponent(char side) {
        return side == 'x' ? 'o' : 'x';
    }

    public boolean isOver() {
        return pliesLeft == 0;
    }

    /** Every empty square in the order a1, b1, ..., a2, b2, ...; none when the game is over. */
    public List<String> legalMoves() {
        List<String> moves = new ArrayList<>();
        if (isOver()) {
            return moves;
        }
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                if (grid[r][c] == '.') {
                    moves.add(square(r, c));
                }
            }
        }
        return moves;
    }

    /** Squares the side to move would win by playing at (r, c): the piece plus its conversions. */
    public int gain(int r, int c) {
        int won = 1;
        char them = opponent(turn);
        if (r > 0 && grid[r - 1][c] == them) won++;
        if (r < rows - 1 && grid[r + 1][c] == them) won++;
        if (c > 0 && grid[r][c - 1] == them) won++;
        if (c < cols - 1 && grid[r][c + 1] == them) won++;
        return won;
    }

    /** The position after the side to move plays {@code square}; throws if it is illegal. */
    public Board play(String square) {
        if (isOver()) {
            throw new IllegalArgumentException("illegal move '" + square + "': the game is over");
        }
        int[] rc = parseSquare(square);
        if (grid[rc[0]][rc[1]] != '.') {
            throw new IllegalArgumentException("illegal move '" + square + "': the square is occupied");
        }
        return play(rc[0], rc[1]);
    }

    /** The position after the side to move plays on the empty square (r, c). */
    public Board play(int r, int c) {
        char[][] next = new char[rows][];
        for (int i = 0; i < rows; i++) {
            next[i] = grid[i].clone();
        }
        char them = opponent(turn);
        next[r][c] = turn;
        if (r > 0 && next[r - 1][c] == them) next[r - 1][c] = turn;
        if (r < rows - 1 && next[r + 1][c] == them) next[r + 1][c] = turn;
        if (c > 0 && next[r][c - 1] == them) next[r][c - 1] = turn;
        if (c < cols - 1 && next[r][c + 1] == them) next[r][c + 1] = turn;
        return new Board(next, them, pliesLeft - 1);
    }

    /** {X's squares, O's squares}. */
    public int[] score() {
        int x = 0;
        int o = 0;
        for (char[] row : grid) {
            for (char cell : row) {
                if (cell == 'x') x++;
                if (cell == 'o') o++;
            }
        }
        return new int[] {x, o};
    }

    /** The position text, e.g. "6oo/6oo/8/8/8/2x5/xx6/xx6 o 55". */
    public String fen() {
        StringBuilder text = new StringBuilder();
        for (int r = rows - 1; r >= 0; r--) {
            int run = 0;
            for (int c = 0; c < cols; c++) {
                if (grid[r][c] == '.') {
                    run++;
                    continue;
                }
                if (run > 0) text.append(run);
                run = 0;
                text.append(grid[r][c]);
            }
            if (run > 0) text.append(run);
            if (r > 0) text.append('/');
        }
        return text.append(' ').append(turn).append(' ').append(pliesLeft).toString();
    }

    /** The board as text, rank R at the top, for logs. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        for (int r = rows - 1; r >= 0; r--) {
            text.append(r + 1).append(' ');
            for (int c = 0; c < cols; c++) {
                text.append(grid[r][c]).append(c < cols - 1 ? " " : "\n");
            }
        }
        text.append("  ");
        for (int c = 0; c < cols; c++) {
            text.append(FILES.charAt(c)).append(c < cols - 1 ? " " : "\n");
        }
        return text.append(turn).append(" to move, ").append(pliesLeft).append(" plies left").toString();
    }
}
