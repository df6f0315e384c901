import javafx.scene.control.Button;

/**
 * A bot written for the course's game window, as a team writes it: it knows nothing of
 * this kit. It reads an 8x8 (or smaller) board of {@link Button}s, row 0 at the top, whose
 * texts are "X", "O" or "", and answers {row, column} of its move. Its search: minimax with
 * alpha-beta pruning to a fixed depth, objective = its squares minus the opponent's.
 */
public class Bot {
    private static final int DEPTH = 3;

    public int[] move(Button[][] buttons, int roundsLeft, boolean isX) {
        String[][] board = new String[buttons.length][buttons[0].length];
        int empty = 0;
        for (int i = 0; i < board.length; i++) {
            for (int j = 0; j < board[i].length; j++) {
                board[i][j] = buttons[i][j].getText();
                if (board[i][j].isEmpty()) {
                    empty++;
                }
            }
        }
        String me = isX ? "X" : "O";
        String you = isX ? "O" : "X";
        int depth = Math.min(DEPTH, Math.min(empty, 2 * roundsLeft));
        int[] best = null;
        int bestValue = Integer.MIN_VALUE;
        for (int i = 0; i < board.length; i++) {
            for (int j = 0; j < board[i].length; j++) {
                if (board[i][j].isEmpty()) {
                    String[][] next = place(board, i, j, me, you);
                    int value = minimax(next, depth - 1, Integer.MIN_VALUE, Integer.MAX_VALUE, false, me, you);
                    if (best == null || value > bestValue) {
                        bestValue = value;
                        best = new int[] {i, j};
                    }
                }
            }
        }
        return best;
    }

    private int minimax(String[][] board, int depth, int alpha, int beta, boolean myTurn, String me, String you) {
        boolean full = true;
        for (String[] row : board) {
            for (String cell : row) {
                full &= !cell.isEmpty();
            }
        }
        if (depth == 0 || full) {
            int value = 0;
            for (String[] row : board) {
                for (String cell : row) {
                    value += cell.equals(me) ? 1 : cell.equals(you) ? -1 : 0;
                }
            }
            return value;
        }
        int best = myTurn ? Integer.MIN_VALUE : Integer.MAX_VALUE;
        for (int i = 0; i < board.length; i++) {
            for (int j = 0; j < board[i].length; j++) {
                if (!board[i][j].isEmpty()) {
                    continue;
                }
                String[][] next = myTurn ? place(board, i, j, me, you) : place(board, i, j, you, me);
                int value = minimax(next, depth - 1, alpha, beta, !myTurn, me, you);
                if (myTurn) {
                    best = Math.max(best, value);
                    alpha = Math.max(alpha, value);
                } else {
                    best = Math.min(best, value);
                    beta = Math.min(beta, value);
                }
                if (beta <= alpha) {
                    return best;
                }
            }
        }
        return best;
    }

    private static String[][] place(String[][] board, int i, int j, String mover, String other) {
        String[][] next = new String[board.length][];
        for (int k = 0; k < board.length; k++) {
            next[k] = board[k].clone();
        }
        next[i][j] = mover;
        int[][] around = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
        for (int[] d : around) {
            int a = i + d[0];
            int b = j + d[1];
            if (a >= 0 && a < next.length && b >= 0 && b < next[a].length && next[a][b].equals(other)) {
                next[a][b] = mover;
            }
        }
        return next;
    }
}
