/**
 * A bot: implement {@link #move} and run it with {@code java -cp build Main YourClass}.
 *
 * <p>{@code board.grid[r][c]} holds 'x', 'o' or '.' (r = 0 is rank 1, c = 0 is file a),
 * {@code board.turn} is the side to move and {@code board.pliesLeft} the plies left.
 * Return the square to play, like "d4". Stop thinking when {@code deadline.passed()}; call
 * {@code deadline.offer(move, depth, score)} whenever you have a better move, so that the
 * runner has an answer even if you run late (it answers with the last offer when the
 * time is up or the controller sends {@code stop}). Print nothing on System.out: the runner
 * sends it to standard error, which is where logs belong.
 */
public interface Bot {
    String move(Board board, Deadline deadline);
}
