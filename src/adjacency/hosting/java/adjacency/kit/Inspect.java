package adjacency.kit;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@code Main --inspect}: which classes of the class path's folders are course bots, and how
 * {@link CourseBot} would call each. One line per class on standard output:
 * {@code bot CLASS ok DESCRIPTION} or {@code bot CLASS no REASON}; a class that implements
 * {@link Bot} (a bot of one's own) is listed too. With a class name (and
 * its arguments) it checks that class only. Classes are loaded without being initialised, so
 * no code of the project runs. The build reads these lines to choose the bot.
 */
final class Inspect {
    private Inspect() {
    }

    /** Writes the lines; the exit status: 0 if at least one bot can be played, else 1. */
    static int run(List<String> args, PrintStream out) {
        List<String> names = new ArrayList<>();
        List<String> botArgs = List.of();
        if (!args.isEmpty()) {
            names.add(args.get(0));
            botArgs = args.subList(1, args.size());
        } else {
            for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
                Path root = Paths.get(entry);
                if (Files.isDirectory(root)) {
                    names.addAll(classes(root));
                }
            }
        }
        int playable = 0;
        ClassLoader loader = Inspect.class.getClassLoader();
        for (String name : names) {
            Class<?> type;
            try {
                type = Class.forName(name, false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                out.println("bot " + name + " no cannot load it: " + e);
                continue;
            }
            try {
                if (Bot.class.isAssignableFrom(type) && !type.isInterface()
                        && !java.lang.reflect.Modifier.isAbstract(type.getModifiers())) {
                    out.println("bot " + name + " ok implements adjacency.kit.Bot");
                    playable++;
                    continue;
                }
                if (args.isEmpty() && !CourseBot.isCandidate(type)) {
                    continue;
                }
                out.println("bot " + name + " ok " + CourseBot.of(type, botArgs).describe());
                playable++;
            } catch (IllegalArgumentException | LinkageError e) {
                out.println("bot " + name + " no " + e.getMessage());
            }
        }
        out.flush();
        return playable > 0 ? 0 : 1;
    }

    /** The binary names of the top-level and nested classes under {@code root}, but the kit's and the stand-ins'. */
    private static List<String> classes(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            List<String> names = new ArrayList<>();
            files.filter(p -> p.toString().endsWith(".class")).sorted().forEach(p -> {
                String name = root.relativize(p).toString().replace(java.io.File.separatorChar, '.');
                name = name.substring(0, name.length() - ".class".length());
                if (!name.startsWith("adjacency.kit.") && !name.startsWith("javafx.") && !name.endsWith("module-info")
                        && !name.matches(".*\\$[0-9].*")) {
                    names.add(name);
                }
            });
            return names;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
