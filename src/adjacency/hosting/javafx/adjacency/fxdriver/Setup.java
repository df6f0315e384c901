package adjacency.fxdriver;

/**
 * A game as the protocol's {@code position} command gives it: the cells after its moves
 * ({@link Rules}' layout), the side to move (1 X, 2 O) and the plies left. Pure: the JDK
 * alone, checked by {@link SelfTest} against the server's own rules.
 *
 * @param cells the board after the moves
 * @param side the side to move
 * @param left the plies left in the game
 */
record Setup(int[] cells, int side, int left) {
    /**
     * The game of a {@code position} command's words ({@code position startpos [rows R]
     * [cols C] [rounds N] [first x|o] [moves M...]} or {@code position fen BOARD SIDE LEFT
     * [moves M...]}); a {@link Failure} saying why where the program cannot play it: a board
     * other than 8x8, a number or a move it cannot read, a move on a square that is taken.
     */
    static Setup parse(String[] words) {
        int[] cells;
        int side;
        int left;
        int at;
        if (words.length > 1 && words[1].equals("fen") && words.length >= 5) {
            cells = new int[Rules.N * Rules.N];
            String[] ranks = words[2].split("/");
            if (ranks.length != Rules.N) throw notEight(words[2]);
            for (int r = 0; r < Rules.N; r++) {
                int c = 0;
                for (char ch : ranks[r].toCharArray()) {
                    if (ch >= '1' && ch <= '9') {
                        c += ch - '0';
                    } else if (ch == 'x' || ch == 'o') {
                        if (c >= Rules.N) throw notEight(words[2]);
                        cells[r * Rules.N + c++] = ch == 'x' ? 1 : 2;
                    } else {
                        throw new Failure("a position the driver cannot read: '" + ch + "' in " + words[2]);
                    }
                }
                if (c != Rules.N) throw notEight(words[2]);
            }
            side = side(words[3]);
            left = number(words[4]);
            at = 5;
        } else {
            cells = Rules.start();
            side = 1;
            int rows = Rules.N, cols = Rules.N, rounds = 28;
            at = 2;
            for (; at + 1 < words.length && !words[at].equals("moves"); at += 2) {
                switch (words[at]) {
                    case "rows" -> rows = number(words[at + 1]);
                    case "cols" -> cols = number(words[at + 1]);
                    case "rounds" -> rounds = number(words[at + 1]);
                    case "first" -> side = side(words[at + 1]);
                    default -> { }
                }
            }
            if (rows != Rules.N || cols != Rules.N) {
                throw new Failure("the program's board is 8x8; the game's is " + rows + "x" + cols);
            }
            left = 2 * rounds;
        }
        if (at < words.length && words[at].equals("moves")) {
            for (int i = at + 1; i < words.length; i++) {
                int square = Rules.square(words[i]);
                if (square < 0 || cells[square] != 0) throw new Failure("a move the driver cannot play: " + words[i]);
                cells = Rules.place(cells, square, side);
                side = 3 - side;
                left--;
            }
        }
        return new Setup(cells, side, left);
    }

    private static Failure notEight(String board) {
        return new Failure("the program's board is 8x8; the game's is not (" + board + ")");
    }

    private static int side(String word) {
        return switch (word) {
            case "x" -> 1;
            case "o" -> 2;
            default -> throw new Failure("a side the driver cannot read: '" + word + "' (x or o)");
        };
    }

    private static int number(String word) {
        try {
            return Integer.parseInt(word);
        } catch (NumberFormatException notOne) {
            throw new Failure("a number the driver cannot read: '" + word + "'");
        }
    }
}
