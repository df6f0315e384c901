package adjacency.fxdriver;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The driver's command line, {@code [options] -- MAIN [ARGS]} ({@link Driver} says what each
 * option does): pure, the JDK alone, checked by {@link SelfTest}. A line it cannot read is a
 * {@link Failure} naming the option.
 */
final class Options {
    /** The controls to set, by name or fx:id, and their values, in the order given. */
    final Map<String, String> settings = new LinkedHashMap<>();
    /** The control that takes the game's rounds, or null. */
    String roundsKey;
    /** The control that says who moves first, and its values for the bot first and the person first; or null. */
    String[] first;
    /** X's box, O's box, and their values for the bot and the person; or null. */
    String[] sides;
    /** The button to press in each window in turn (the rest are found on trial). */
    final List<String> presses = new ArrayList<>();
    /** The mark the bot's pieces show. */
    String botMark = "O";
    /** Write the form and a picture of the input window, then exit. */
    boolean dryRun;
    /** Send pictures of the game window on the protocol. */
    boolean pictures;
    /** The protocol is on descriptors 3 (out) and 4 (in), not the JVM's standard ones. */
    boolean fds;
    /** The team's main class. */
    String mainClass;
    /** The arguments the team's main class is given. */
    String[] programArgs = new String[0];

    private Options() {}

    /** The options of {@code args}. */
    static Options parse(String[] args) {
        Options options = new Options();
        int i = 0;
        for (; i < args.length && !args[i].equals("--"); i++) {
            String option = args[i];
            int need = switch (option) {
                case "--set" -> 2;
                case "--first" -> 3;
                case "--sides" -> 4;
                case "--dry-run", "--pictures", "--fds" -> 0;
                case "--rounds", "--press", "--bot-mark" -> 1;
                default -> throw new Failure("unknown option " + option);
            };
            if (i + need >= args.length) throw new Failure(option + " needs " + need + " values");
            switch (option) {
                case "--set" -> options.settings.put(args[i + 1], args[i + 2]);
                case "--first" -> options.first = Arrays.copyOfRange(args, i + 1, i + 4);
                case "--sides" -> options.sides = Arrays.copyOfRange(args, i + 1, i + 5);
                case "--rounds" -> options.roundsKey = args[i + 1];
                case "--press" -> options.presses.add(args[i + 1]);
                case "--bot-mark" -> options.botMark = args[i + 1].trim().toUpperCase(Locale.ROOT);
                case "--pictures" -> options.pictures = true;
                case "--fds" -> options.fds = true;
                default -> options.dryRun = true;
            }
            i += need;
        }
        if (i + 1 >= args.length) throw new Failure("usage: Driver [options] -- MAIN [ARGS]");
        options.mainClass = args[i + 1];
        options.programArgs = Arrays.copyOfRange(args, i + 2, args.length);
        return options;
    }
}
