package adjacency.kit;

import java.util.function.Consumer;

/**
 * The time budget of one move, and the way a bot reports its progress.
 *
 * <p>{@link #passed()} turns true when the budget is spent or the controller sent
 * {@code stop}: the bot then returns its best move at once. {@link #maxDepth()} is the depth
 * limit of {@code go depth N} ({@code Integer.MAX_VALUE} when none was given). The runner
 * answers with what the bot returns, never with a move of its own.
 */
public final class Deadline {
    private final long start = System.nanoTime();
    private final long budgetNanos;
    private final int maxDepth;
    private final Consumer<String> info;
    private volatile boolean stopped;

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

    /**
     * A progress line for the controller: the best move so far, the depth searched and its
     * score in pieces (side to move). It is information only: the runner plays what
     * {@code move} returns, and if that differs from the last line reported, it says so.
     */
    public void report(String move, int depth, int score) {
        info.accept("info depth " + depth + " score " + (score * 100) + " time " + elapsedMillis() + " pv " + move);
    }

    void stop() {
        stopped = true;
    }
}
