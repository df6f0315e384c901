package adjacency.fxdriver;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The program's threads as the team reads them: the team's own frames among Java's, JavaFX's
 * and the driver's, where the program is thinking, what its threads used of the CPU, and a
 * crash told in its own frames. The JDK alone ({@link #ownFrame} and {@link #crashLines} are
 * checked by {@link SelfTest}).
 */
final class Threads {
    /** The name of JavaFX's thread. */
    static final String JAVAFX = "JavaFX Application Thread";

    private Threads() {}

    /** Whether a frame of {@code className} is the platform's or the driver's, not the team's. */
    static boolean platform(String className) {
        return className.startsWith("java.") || className.startsWith("javafx.") || className.startsWith("com.sun.")
                || className.startsWith("jdk.") || className.startsWith("sun.") || className.startsWith("adjacency.fxdriver.");
    }

    /** The first frame of the team's own code (not Java's, JavaFX's or the driver's), or null. */
    static StackTraceElement ownFrame(StackTraceElement[] frames) {
        for (StackTraceElement frame : frames) {
            if (!platform(frame.getClassName())) return frame;
        }
        return null;
    }

    /** " at File.java:LINE" for {@code frame}, or "" for none. */
    static String at(StackTraceElement frame) {
        return frame == null ? "" : " at " + frame.getFileName() + ":" + frame.getLineNumber();
    }

    /**
     * A crash of {@code thread} as the team reads it, one line each: the exception with its
     * own frames (Java's, JavaFX's and the driver's left out, so that the team's file and line
     * are among the last lines a controller keeps), its causes with their first own frame
     * ("Exception in Application start method" says nothing: its causes say what failed),
     * then one line saying where it crashed. Each line starts with the driver's prefix or a
     * tab.
     */
    static List<String> crashLines(String thread, Throwable error) {
        List<String> lines = new ArrayList<>();
        lines.add("fxdriver: an exception in thread \"" + thread + "\": " + error);
        StackTraceElement where = null;
        int hidden = 0;
        for (StackTraceElement frame : error.getStackTrace()) {
            if (platform(frame.getClassName())) {
                hidden++;
                continue;
            }
            if (where == null) where = frame;
            lines.add("\tat " + frame);
        }
        if (hidden > 0) lines.add("\t(" + hidden + " frames of Java and JavaFX left out)");
        Throwable cause = error.getCause();
        for (int depth = 0; cause != null && cause != error && depth < 8; depth++) {
            StackTraceElement own = ownFrame(cause.getStackTrace());
            lines.add("fxdriver: caused by " + cause + at(own));
            if (where == null) where = own;
            error = cause;
            cause = cause.getCause();
        }
        lines.add("fxdriver: the program crashed: " + error + at(where));
        return lines;
    }

    /** The innermost cause of {@code error}. */
    static Throwable root(Throwable error) {
        Throwable cause = error;
        while (cause.getCause() != null && cause.getCause() != cause) cause = cause.getCause();
        return cause;
    }

    /** Whether {@code thread} is the driver's own (its threads, or the one asking), not the program's. */
    static boolean driverThread(Thread thread) {
        return thread.getName().startsWith("fxdriver") || thread == Thread.currentThread();
    }

    /**
     * Where the program is thinking now, in words as a lost move tells it: the JavaFX
     * thread where it runs the program's code ("its JavaFX thread was RUNNABLE in the
     * program at MiniMax.java:130"), else the first other thread of the program's that
     * does, a running one first ("its thread 'pool-2-thread-1' was RUNNABLE in the program
     * at Bot.java:88"); null where no thread runs the program's code.
     */
    static String programThread() {
        String found = null;
        for (Map.Entry<Thread, StackTraceElement[]> entry : Thread.getAllStackTraces().entrySet()) {
            Thread thread = entry.getKey();
            if (driverThread(thread)) continue;
            StackTraceElement own = ownFrame(entry.getValue());
            if (own == null) continue;
            boolean javafx = thread.getName().equals(JAVAFX);
            String at = (javafx ? "its JavaFX thread" : "its thread '" + thread.getName() + "'") + " was " + thread.getState()
                    + " in the program" + at(own);
            if (javafx) return at;
            if (found == null || thread.getState() == Thread.State.RUNNABLE && !found.contains(" was RUNNABLE ")) found = at;
        }
        return found;
    }

    /**
     * Where the JavaFX thread is now, in words: its state and the program's innermost frame
     * ("the JavaFX thread is RUNNABLE in the program at MiniMax.java:130"), with its top
     * frames; null where there is no such thread.
     */
    static String javafxThread() {
        for (Map.Entry<Thread, StackTraceElement[]> entry : Thread.getAllStackTraces().entrySet()) {
            Thread thread = entry.getKey();
            if (!thread.getName().equals(JAVAFX)) continue;
            StackTraceElement[] frames = entry.getValue();
            StackTraceElement own = ownFrame(frames);
            StringBuilder out = new StringBuilder("the JavaFX thread is ").append(thread.getState());
            if (own != null) out.append(" in the program").append(at(own));
            out.append(", at ");
            for (int i = 0; i < Math.min(4, frames.length); i++) out.append(i == 0 ? "" : " < ").append(frames[i]);
            return out.toString();
        }
        return null;
    }

    /** The CPU time of the program's threads (every thread but the driver's own), in ns. */
    static long programCpu() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long total = 0;
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (driverThread(thread)) continue;
            long cpu = threads.getThreadCpuTime(thread.getId());
            if (cpu > 0) total += cpu;
        }
        return total;
    }

    /** The CPU time of the calling thread, in ns. */
    static long ownCpu() {
        return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }
}
