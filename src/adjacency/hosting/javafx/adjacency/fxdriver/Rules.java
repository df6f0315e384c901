package adjacency.fxdriver;

/**
 * The game's rules on an 8x8 board as the driver needs them: cells {@code [row * 8 + column]},
 * row 0 the top rank, 0 empty, 1 X, 2 O. A move places the mover's piece and turns the
 * orthogonally adjacent pieces of the other side. Pure functions of the JDK alone, checked
 * by {@link SelfTest} without JavaFX.
 */
final class Rules {
    /** The board's side: a course program's board is 8x8. */
    static final int N = 8;

    private Rules() {}

    /** {@code cells} after {@code side} places on {@code square}, whatever was there. */
    static int[] place(int[] cells, int square, int side) {
        int[] after = cells.clone();
        after[square] = side;
        int r = square / N, c = square % N;
        int[][] steps = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
        for (int[] step : steps) {
            int rr = r + step[0], cc = c + step[1];
            if (rr >= 0 && rr < N && cc >= 0 && cc < N && after[rr * N + cc] == 3 - side) after[rr * N + cc] = side;
        }
        return after;
    }

    /**
     * {@code cells} after {@code side} places on {@code square} as a window that flips all
     * eight neighbours would play it, diagonals included: not the game's rule, the rule
     * difference {@link #diagonalWords} tells.
     */
    static int[] placeEight(int[] cells, int square, int side) {
        int[] after = place(cells, square, side);
        int r = square / N, c = square % N;
        for (int[] step : DIAGONAL) {
            int rr = r + step[0], cc = c + step[1];
            if (rr >= 0 && rr < N && cc >= 0 && cc < N && after[rr * N + cc] == 3 - side) after[rr * N + cc] = side;
        }
        return after;
    }

    private static final int[][] DIAGONAL = {{-1, -1}, {-1, 1}, {1, -1}, {1, 1}};

    /**
     * The empty square {@code side} placed on to turn {@code before} into {@code after} by
     * flipping diagonal neighbours too ({@link #placeEight}), where it turned at least one
     * of them; else -1.
     */
    static int explainEight(int[] before, int[] after, int side) {
        for (int square = 0; square < N * N; square++) {
            if (after[square] != side || before[square] != 0) continue;
            if (!diagonallyTurned(before, square, side).isEmpty() && java.util.Arrays.equals(placeEight(before, square, side), after)) {
                return square;
            }
        }
        return -1;
    }

    /** The names of the other side's pieces that touch {@code square} only diagonally in {@code cells}. */
    static java.util.List<String> diagonallyTurned(int[] cells, int square, int side) {
        java.util.List<String> names = new java.util.ArrayList<>();
        int r = square / N, c = square % N;
        for (int[] step : DIAGONAL) {
            int rr = r + step[0], cc = c + step[1];
            if (rr >= 0 && rr < N && cc >= 0 && cc < N && cells[rr * N + cc] == 3 - side) names.add(name(rr * N + cc));
        }
        java.util.Collections.sort(names);
        return names;
    }

    /**
     * The account of a window that flipped diagonal neighbours when {@code who} placed on
     * {@code square} in {@code cells} (the board before that move), in the team's words and
     * in one line the protocol's client never cuts: the squares it turned and the course's rule.
     */
    static String diagonalWords(String who, int[] cells, int square, int side) {
        java.util.List<String> turned = diagonallyTurned(cells, square, side);
        String those = turned.size() == 1 ? turned.get(0) + ", which touches " : String.join(", ", turned) + ", which touch ";
        // under 200 characters with the driver's prefix: the protocol's client cuts a longer line
        return "your window flips diagonal neighbours: " + who + " " + name(square) + " turned " + those + name(square)
                + " only diagonally; the course's rules flip only the four orthogonal ones";
    }

    /** The square {@code side} placed on to turn {@code before} into {@code after}, or -1. */
    static int explain(int[] before, int[] after, int side, boolean onEmptyOnly) {
        for (int square = 0; square < N * N; square++) {
            if (after[square] != side || (onEmptyOnly && before[square] != 0)) continue;
            if (before[square] == side) continue;
            if (java.util.Arrays.equals(place(before, square, side), after)) return square;
        }
        return -1;
    }

    /** The square's name: file letter, then rank (a1 bottom-left). */
    static String name(int square) {
        return "" + (char) ('a' + square % N) + (N - square / N);
    }

    /** The square {@code name} names, or -1. */
    static int square(String name) {
        if (name.length() != 2) return -1;
        int c = Character.toLowerCase(name.charAt(0)) - 'a', rank = name.charAt(1) - '0';
        if (c < 0 || c >= N || rank < 1 || rank > N) return -1;
        return (N - rank) * N + c;
    }

    /** The start: X's 2x2 block bottom-left, O's top-right. */
    static int[] start() {
        int[] cells = new int[N * N];
        for (int square : new int[] {square("a1"), square("b1"), square("a2"), square("b2")}) cells[square] = 1;
        for (int square : new int[] {square("g7"), square("h7"), square("g8"), square("h8")}) cells[square] = 2;
        return cells;
    }

    /** A board as text, top rank first (for messages). */
    static String show(int[] cells) {
        StringBuilder out = new StringBuilder();
        for (int r = 0; r < N; r++) {
            for (int c = 0; c < N; c++) out.append(".xo".charAt(cells[r * N + c]));
            if (r < N - 1) out.append('/');
        }
        return out.toString();
    }
}
