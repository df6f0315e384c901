package adjacency.fxdriver;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The words of a window as the driver matches them, and the rules that choose a button by
 * what a person reads: pure functions of the JDK alone, checked by {@link SelfTest} without
 * JavaFX.
 */
final class Words {
    /** A button whose text names the bot ("Move Bot", "AI move", "Komputer"). */
    static final Pattern BOT_BUTTON = Pattern.compile("(?i)(bot|\\bai\\b|\\bcpu\\b|computer|komputer)");

    /** A button whose text ends or restarts a game ("End Game", "Play New Game", "Ulang"). */
    static final Pattern ENDS_GAME = Pattern.compile("(?i)(new|end|exit|quit|reset|restart|close|again|baru|keluar|ulang|selesai|tutup)");

    private Words() {}

    /**
     * A name or an option as it is matched: no case, no surrounding spaces, no trailing
     * colon (the server's recipe matches names by the same rule).
     */
    static String plain(String text) {
        String out = text.strip();
        while (out.endsWith(":")) out = out.substring(0, out.length() - 1).strip();
        return out.toLowerCase(Locale.ROOT);
    }

    /**
     * Which of a board window's other buttons a person presses to have the bot move, given
     * their texts in the window's order (enabled buttons that are not squares; null for no
     * text): of those that neither end nor restart a game, the first whose text names the
     * bot, else the only one; -1 where there is none, or several that do not name it.
     */
    static int botButton(List<String> texts) {
        List<Integer> left = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            String text = texts.get(i) == null ? "" : texts.get(i);
            if (ENDS_GAME.matcher(text).find()) continue;
            if (BOT_BUTTON.matcher(text).find()) return i;
            left.add(i);
        }
        return left.size() == 1 ? left.get(0) : -1;
    }

    /**
     * The order a window's buttons are pressed on trial to find the one that leads on, as
     * indices of {@code isDefault} (whether each, in the window's order, is its default
     * button): the default button first, then from the last to the first.
     */
    static List<Integer> trialOrder(List<Boolean> isDefault) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < isDefault.size(); i++) order.add(i);
        Collections.reverse(order);
        order.sort((a, b) -> Boolean.compare(isDefault.get(b), isDefault.get(a)));
        return order;
    }
}
