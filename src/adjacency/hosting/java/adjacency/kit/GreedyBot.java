package adjacency.kit;

/** The square that wins the most squares now; ties go to the first in a1, b1, ..., a2 order. */
public final class GreedyBot implements Bot {
    @Override
    public String move(Board board, Deadline deadline) {
        String best = null;
        int bestGain = -1;
        for (int r = 0; r < board.rows; r++) {
            for (int c = 0; c < board.cols; c++) {
                if (board.grid[r][c] == '.' && board.gain(r, c) > bestGain) {
                    bestGain = board.gain(r, c);
                    best = Board.square(r, c);
                }
            }
        }
        deadline.report(best, 1, bestGain);
        return best;
    }
}
