/**
 * Plays {@link CourseBot}, a bot written for the course's game, through this kit:
 * {@code java -cp build Main CourseBotAdapter}. It offers the greedy move as a safe answer
 * (the runner plays it if the course bot runs past the budget), turns the kit's board into
 * the course bot's (row 0 at the top, "X"/"O"/"" texts), and its {row, column} answer back
 * into a square name.
 */
public final class CourseBotAdapter implements Bot {
    private final CourseBot course = new CourseBot();

    @Override
    public String move(Board board, Deadline deadline) {
        deadline.offer(new GreedyBot().move(board, deadline));
        Button[][] buttons = new Button[board.rows][board.cols];
        for (int i = 0; i < board.rows; i++) {
            for (int j = 0; j < board.cols; j++) {
                char cell = board.grid[board.rows - 1 - i][j];
                buttons[i][j] = new Button(cell == 'x' ? "X" : cell == 'o' ? "O" : "");
            }
        }
        int[] ij = course.move(buttons, (board.pliesLeft + 1) / 2, board.turn == 'x');
        return Board.square(board.rows - 1 - ij[0], ij[1]);
    }
}
