package adjacency.fxdriver;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javafx.application.Platform;

/**
 * Work done on the JavaFX thread, asked for from the driver's own thread.
 *
 * <p>Two rules keep a team's program from stalling the driver: a call is never made from the
 * JavaFX thread itself (a read posted there from there waits on itself for ever), and at most
 * one call is queued at a time, so a program that keeps the JavaFX thread busy (a bot that
 * thinks on it) finds one read waiting when it is done, not a pile of them. A click is posted
 * without waiting for it ({@link #post}): its handler may run the team's bot.
 */
final class Fx {
    private static FutureTask<?> inFlight;
    /** The most times its seconds a {@link #patiently} wait is stretched to. */
    static final long STRETCH = 3;

    private Fx() {}

    /** Whether the toolkit has started (a call before that fails). */
    static boolean started() {
        try {
            Platform.runLater(() -> {});
            return true;
        } catch (IllegalStateException notYet) {
            return false;
        }
    }

    /**
     * The value of {@code work} run on the JavaFX thread, waiting at most {@code millis}: a
     * {@link TimeoutException} when the thread is busy for longer (the call stays queued and
     * the next call waits for it first).
     */
    static <T> T call(Callable<T> work, long millis) throws TimeoutException {
        return call(work, millis, null);
    }

    /**
     * As {@link #call}, the wait stretched by the longest time a thread of the sandbox waited
     * for a CPU meanwhile ({@link Waits}), to at most {@link #STRETCH} times {@code millis}:
     * for the waits that judge the program (a window that must answer), so that the
     * machine's load never decides them.
     */
    static <T> T patiently(Callable<T> work, long millis) throws TimeoutException {
        return call(work, millis, new Waits());
    }

    private static synchronized <T> T call(Callable<T> work, long millis, Waits waits) throws TimeoutException {
        if (Platform.isFxApplicationThread()) {
            throw new IllegalStateException("a JavaFX call from the JavaFX thread itself");
        }
        long began = System.nanoTime();
        long budget = TimeUnit.MILLISECONDS.toNanos(millis);
        if (inFlight != null && !inFlight.isDone()) {
            wait(inFlight, began, budget, waits);
        }
        FutureTask<T> task = new FutureTask<>(work);
        inFlight = task;
        Platform.runLater(task);
        return wait(task, began, budget, waits);
    }

    /** The end of a wait that began at {@code began} with {@code budget} nanoseconds, stretched by {@code waits}. */
    private static long deadline(long began, long budget, Waits waits) {
        long stretch = waits == null ? 0 : Math.min((STRETCH - 1) * budget, waits.longestNanos());
        return began + budget + stretch;
    }

    private static <T> T wait(FutureTask<T> task, long began, long budget, Waits waits) throws TimeoutException {
        while (true) {
            try {
                return task.get(Math.max(0, deadline(began, budget, waits) - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException late) {
                if (waits == null || deadline(began, budget, waits) <= System.nanoTime()) throw late;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TimeoutException("interrupted");
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof RuntimeException r) throw r;
                if (cause instanceof Error err) throw err;
                throw new IllegalStateException(cause);
            }
        }
    }

    /**
     * The value of {@code work} on the JavaFX thread: at once when called from that thread
     * (a crash in the program's own handler), else as {@link #call}.
     */
    static <T> T now(Callable<T> work, long millis) throws TimeoutException {
        if (!Platform.isFxApplicationThread()) return call(work, millis);
        try {
            return work.call();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Run {@code work} on the JavaFX thread later, without waiting for it. */
    static void post(Runnable work) {
        Platform.runLater(work);
    }
}
