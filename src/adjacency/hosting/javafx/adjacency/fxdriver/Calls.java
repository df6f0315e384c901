package adjacency.fxdriver;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The times a program's bot was being called, as samples of its threads saw them, and the
 * rule that names a team's bot. The JDK alone ({@link SelfTest} checks it; {@link BotCalls}
 * takes the samples).
 *
 * <p>A sample at time {@code t} says whether some thread of the program was then inside a
 * call of the team's bot. A call is taken to run from the first sample that saw it to the
 * first that no longer did: each end is late by at most one sampling period, so the length is
 * right within a period. {@link #within} is the time of the union of the calls (two threads in
 * the bot at once count once) inside a span.
 */
final class Calls {
    private final List<long[]> closed = new ArrayList<>();
    /** Whether a call is in progress, and when it was first seen. */
    private boolean calling;
    private long openedAt;
    /**
     * Whether the samples can tell: the program has a class named for a bot ({@link
     * #botKnown}), or a sample of its life saw its bot called. A move in which no sample saw
     * a call then took less than a period of the bot's.
     */
    private boolean canTell;

    /** The sample at {@code at} ({@link System#nanoTime}, never decreasing): whether the bot was being called. */
    synchronized void sample(long at, boolean called) {
        if (called && !calling) {
            calling = true;
            openedAt = at;
            canTell = true;
        } else if (!called && calling) {
            closed.add(new long[] {openedAt, at});
            calling = false;
        }
    }

    /** The program has a class that is its team's bot (named for one): the samples can tell. */
    synchronized void botKnown() {
        canTell = true;
    }

    /** Forget the calls seen (a move begins); whether the bot was ever seen called is kept. */
    synchronized void clear() {
        closed.clear();
        if (calling) openedAt = Long.MIN_VALUE; // a call in progress goes on: it began before any span
    }

    /**
     * The nanoseconds inside {@code [from, to]} in which the bot was being called (a call still
     * in progress runs to {@code to}); -1 where the samples cannot tell: the program has no
     * class named for a bot ({@link #botNamed}) and no sample saw one called.
     */
    synchronized long within(long from, long to) {
        if (!canTell) return -1;
        long total = 0;
        long reached = from; // the calls are in time order and do not overlap
        List<long[]> all = new ArrayList<>(closed);
        if (calling) all.add(new long[] {openedAt, to});
        for (long[] call : all) {
            long start = Math.max(call[0], reached), end = Math.min(call[1], to);
            if (end > start) {
                total += end - start;
                reached = end;
            }
        }
        return total;
    }

    /** The endings of a class's simple name that say it is not the bot but what holds or makes one. */
    private static final String[] NOT_BOTS = {"controller", "factory", "provider", "button", "label", "view", "pane"};

    /**
     * Whether a class of the team's simple name {@code simpleName} names a bot: it has
     * {@code bot} in it, in any case ({@code Bot}, {@code MinimaxBot}, {@code BotBase}, {@code
     * botGA}; not {@code Robot}), and does not end with a word that names what holds or makes one ({@code
     * BotController}, {@code BotFactory}, {@code BotProvider}, {@code botButton}).
     */
    static boolean botNamed(String simpleName) {
        String name = simpleName.toLowerCase(Locale.ROOT);
        if (!name.contains("bot") || name.contains("robot")) return false;
        for (String not : NOT_BOTS) {
            if (name.endsWith(not)) return false;
        }
        return true;
    }
}
