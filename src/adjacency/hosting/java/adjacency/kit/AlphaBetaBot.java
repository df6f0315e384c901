package adjacency.kit;

import java.util.ArrayList;
import java.util.List;

/**
 * Minimax with alpha-beta pruning (in its negamax form) and iterative deepening: depth 1,
 * 2, 3, ... until the time is up, each depth searching the previous best move first. The
 * objective is the piece difference (own squares minus the opponent's) for the side to move.
 */
public final class AlphaBetaBot implements Bot {
    /** Thrown inside the search when the time is up; the last finished depth's move stands. */
    private static final class TimeUp extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TimeUp() {
            super(null, null, false, false);
        }
    }

    private Deadline deadline;
    private long nodes;

    @Override
    public String move(Board board, Deadline deadline) {
        this.deadline = deadline;
        this.nodes = 0;
        List<int[]> moves = ordered(board);
        String best = Board.square(moves.get(0)[0], moves.get(0)[1]);
        int most = Math.min(board.pliesLeft, deadline.maxDepth());
        for (int depth = 1; depth <= most; depth++) {
            try {
                int alpha = -Integer.MAX_VALUE;
                int[] bestMove = moves.get(0);
                for (int[] m : moves) {
                    int value = -negamax(board.play(m[0], m[1]), depth - 1, -Integer.MAX_VALUE, -alpha);
                    if (value > alpha) {
                        alpha = value;
                        bestMove = m;
                    }
                }
                moves.remove(bestMove);
                moves.add(0, bestMove); // the next depth searches it first
                best = Board.square(bestMove[0], bestMove[1]);
                deadline.report(best, depth, alpha);
            } catch (TimeUp up) {
                break;
            }
        }
        return best;
    }

    /** The value of {@code board} for its side to move, searched {@code depth} plies deep. */
    private int negamax(Board board, int depth, int alpha, int beta) {
        if (++nodes % 1024 == 0 && deadline.passed()) {
            throw new TimeUp();
        }
        if (depth == 0 || board.isOver()) {
            int[] score = board.score();
            return board.turn == 'x' ? score[0] - score[1] : score[1] - score[0];
        }
        for (int[] m : ordered(board)) {
            int value = -negamax(board.play(m[0], m[1]), depth - 1, -beta, -alpha);
            if (value >= beta) {
                return value;
            }
            alpha = Math.max(alpha, value);
        }
        return alpha;
    }

    /** The empty squares, those that win most now first (ties in a1, b1, ... order). */
    private static List<int[]> ordered(Board board) {
        List<int[]> moves = new ArrayList<>();
        for (int r = 0; r < board.rows; r++) {
            for (int c = 0; c < board.cols; c++) {
                if (board.grid[r][c] == '.') {
                    moves.add(new int[] {r, c, board.gain(r, c)});
                }
            }
        }
        moves.sort((a, b) -> b[2] - a[2]);
        return moves;
    }
}
