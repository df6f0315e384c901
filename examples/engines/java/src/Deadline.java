import java.util.function.Consumer;

/**
 * The time budget of one move, and the way a bot reports its best move so far.
 *
 * <p>{@link #passed()} turns true when the budget is spent or the controller sent
 * {@code stop}. {@link #maxDepth()} is the depth limit of {@code go depth N}
 * ({@code Integer.MAX_VALUE} when none was given).
 */
public final class Deadline {
    private final long start = System.nanoTime();
    private final long budgetNanos;
    private final int maxDepth;
    private final Consumer<String> info;
    private volatile boolean stopped;
    private volatile String best;

    /** {@code budgetMillis < 0}: no time limit (only {@code stop} ends the search). */
    public Deadline(long budgetMillis, int maxDepth, Consumer<String> info) {
        this.budgetNanos = budgetMillis < 0 ? Long.MAX_VALUE : budgetMillis * 1_000_000L;
        this.maxDepth = maxDepth;
        this.info = info;
    }

    /** True once the budget is spent or the search was stopped. */
    public boolean passed() {
        return stopped || System.nanoTime() - start >= budgetNanos;
    }

    /** Milliseconds this move may take ({@code Long.MAX_VALUE} without a limit). */
    public long budgetMillis() {
        return budgetNanos == Long.MAX_VALUE ? Long.MAX_VALUE : budgetNanos / 1_000_000L;
    }

    public long elapsedMillis() {
        return (System.nanoTime() - start) / 1_000_000L;
    }

    public int maxDepth() {
        return maxDepth;
    }

    /** The best move so far; the runner plays it if the bot does not answer in time. */
    public void offer(String move) {
        best = move;
    }

    /** The best move so far, with the depth searched and its score in pieces (side to move). */
    public void offer(String move, int depth, int score) {
        best = move;
        info.accept("info depth " + depth + " score " + (score * 100) + " time " + elapsedMillis() + " pv " + move);
    }

    public String best() {
        return best;
    }

    void stop() {
        stopped = true;
    }
}
