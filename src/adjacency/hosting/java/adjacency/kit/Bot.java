package adjacency.kit;

/**
 * A bot: implement {@link #move} and run it with {@code java -cp build adjacency.kit.Main YourClass}.
 *
 * <p>{@code board.grid[r][c]} holds 'x', 'o' or '.' (r = 0 is rank 1, c = 0 is file a),
 * {@code board.turn} is the side to move and {@code board.pliesLeft} the plies left.
 * Return the square to play, like "d4", before {@code deadline.passed()} turns true: the
 * runner sends your answer and nothing else, so a bot that returns late loses on time.
 * {@code deadline.report(move, depth, score)} sends a progress line ({@code info}) to the
 * controller. Print nothing on System.out: the runner sends it to standard error, which is
 * where logs belong.
 */
public interface Bot {
    String move(Board board, Deadline deadline);

    /** A new game starts (the controller sent {@code newgame}): forget the last one. */
    default void newGame() {
    }
}
