package adjacency.fxdriver;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * How long the sandbox's threads waited for a CPU since this was made, as the kernel counts
 * it: the second figure of each thread's {@code /proc/PID/task/TID/schedstat} (its run delay,
 * in nanoseconds), over every process the sandbox shows (the JVM and its display).
 *
 * <p>A wait of the driver's (a window that must answer within its seconds) is stretched by
 * the longest of these waits ({@link #longestNanos}): the time a thread of the program was
 * ready to run while the machine ran other work is the server's, never the program's, the
 * rule the server's clock keeps for moves (docs/sandbox.md). The longest thread's wait, not
 * the sum: threads that wait side by side hold the window up once. Where the kernel keeps no
 * such figures, nothing is stretched.
 */
final class Waits {
    private final Map<String, Long> since;

    Waits() {
        this.since = read(Path.of("/proc"));
    }

    /** The longest wait for a CPU of a thread since this was made, in nanoseconds. */
    long longestNanos() {
        return longest(since, read(Path.of("/proc")));
    }

    /**
     * The longest growth from {@code before} to {@code after} of one thread's run delay
     * (a thread that began since counts from nothing).
     */
    static long longest(Map<String, Long> before, Map<String, Long> after) {
        long most = 0;
        for (Map.Entry<String, Long> thread : after.entrySet()) {
            long grew = thread.getValue() - before.getOrDefault(thread.getKey(), 0L);
            if (grew > most) most = grew;
        }
        return most;
    }

    /** Each thread's run delay under {@code proc}, keyed {@code PID/TID}; empty where none can be read. */
    static Map<String, Long> read(Path proc) {
        Map<String, Long> delays = new HashMap<>();
        try (DirectoryStream<Path> processes = Files.newDirectoryStream(proc, "[0-9]*")) {
            for (Path process : processes) {
                try (DirectoryStream<Path> tasks = Files.newDirectoryStream(process.resolve("task"), "[0-9]*")) {
                    for (Path task : tasks) {
                        long delay = runDelay(Files.readString(task.resolve("schedstat")));
                        if (delay >= 0) delays.put(process.getFileName() + "/" + task.getFileName(), delay);
                    }
                } catch (IOException | RuntimeException gone) {
                    // the process ended meanwhile, or is not ours to read
                }
            }
        } catch (IOException | RuntimeException none) {
            // no /proc: nothing is stretched
        }
        return delays;
    }

    /** The run delay (the second of a schedstat line's three figures), or -1 where the line is not one. */
    static long runDelay(String schedstat) {
        String[] figures = schedstat.trim().split("\\s+");
        if (figures.length < 2) return -1;
        try {
            return Long.parseLong(figures[1]);
        } catch (NumberFormatException notOne) {
            return -1;
        }
    }
}
