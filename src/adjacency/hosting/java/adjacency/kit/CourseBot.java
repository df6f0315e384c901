package adjacency.kit;

import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javafx.scene.control.Button;

/**
 * Plays a bot written for the course's game window, unchanged: a class with a method
 * {@code move} that returns {@code int[] {row, column}} (row 0 at the top), whatever its
 * constructor and {@code move} take.
 *
 * <p>Each parameter gets a value by its type and name (the build compiles with
 * {@code -parameters}, so the names are the student's): {@code Button[][]} is the board
 * (texts "X", "O", ""), {@code OutputFrameController} the stand-in controller, a
 * {@code String} or {@code char} named like the player (player, symbol, self, me, ...) the
 * bot's mark and one named like the enemy (enemy, opponent, lawan, ...) the other mark, an
 * {@code int} named like rounds the rounds left, like a score one side's score, a
 * {@code boolean} named like first whether the bot moved first. Every other parameter
 * (an algorithm's number, a depth) takes the command line's arguments in order, the
 * constructor's first. Among several constructors and {@code move} overloads the pair that
 * uses every argument and supplies most of the game's facts wins. The bot is constructed at
 * its first move of each game (when its side is known) and kept for the game.
 */
public final class CourseBot implements Bot {
    /** What a parameter receives. */
    enum Role { BUTTONS, CONTROLLER, SELF, ENEMY, ROUNDS, SELF_SCORE, ENEMY_SCORE, X_SCORE, O_SCORE, BOT_FIRST, ENEMY_FIRST, IS_X, IS_O, ARG }

    private static final List<String> ENEMY_WORDS = List.of("enemy", "opp", "lawan", "rival", "other", "musuh", "adversar");
    private static final List<String> SELF_WORDS = List.of("player", "symbol", "self", "mark", "side", "piece", "sign",
            "bot", "label", "turn", "team", "pemain", "simbol", "letter", "color", "colour", "mine");
    /** Short names that mean the bot's own mark only as whole names ("me" is in "game"). */
    private static final List<String> SELF_NAMES = List.of("me", "my", "p", "c", "s", "ch", "who", "own", "current");

    /** A constructor and a {@code move}, each parameter with its role and, for ARG, its value. */
    static final class Binding {
        final Constructor<?> constructor;
        final Method move;
        final Role[] constructorRoles;
        final Role[] moveRoles;
        final Object[] constructorArgs;
        final Object[] moveArgs;
        final int facts;

        Binding(Constructor<?> constructor, Method move, Role[] cr, Role[] mr, Object[] ca, Object[] ma) {
            this.constructor = constructor;
            this.move = move;
            this.constructorRoles = cr;
            this.moveRoles = mr;
            this.constructorArgs = ca;
            this.moveArgs = ma;
            int n = 0;
            for (Role role : cr) n += role == Role.ARG ? 0 : 1;
            for (Role role : mr) n += role == Role.ARG ? 0 : 1;
            this.facts = n;
        }

        /** Like {@code MyBot(int algorithm=2, char self) / move(Button[][] board, int roundsLeft)}. */
        String describe() {
            return signature(constructor, constructorRoles, constructorArgs) + " / " + signature(move, moveRoles, moveArgs);
        }
    }

    private final Binding binding;
    private Object instance;
    private char side;
    private Button[][] buttons;
    private CourseController controller;

    private CourseBot(Binding binding) {
        this.binding = binding;
    }

    /** The course bot {@code type}; {@code args} are the command line's words after the class. */
    public static CourseBot of(Class<?> type, List<String> args) {
        return new CourseBot(bind(type, args));
    }

    /** Whether {@code type} looks like a course bot: a concrete class with {@code int[] move(...)}. */
    static boolean isCandidate(Class<?> type) {
        int modifiers = type.getModifiers();
        boolean inner = type.isMemberClass() && !Modifier.isStatic(modifiers); // needs an outer object
        return !type.isInterface() && !Modifier.isAbstract(modifiers) && !type.isAnonymousClass()
                && !type.isLocalClass() && !inner && !CourseController.class.isAssignableFrom(type)
                && !moves(type).isEmpty();
    }

    /** The {@code int[] move(...)} methods of {@code type} and its superclasses, most derived first. */
    static List<Method> moves(Class<?> type) {
        Map<String, Method> found = new LinkedHashMap<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Method m : c.getDeclaredMethods()) {
                if (m.getName().equals("move") && m.getReturnType() == int[].class && !Modifier.isStatic(m.getModifiers())
                        && !Modifier.isAbstract(m.getModifiers()) && !m.isBridge()) {
                    found.putIfAbsent(java.util.Arrays.toString(m.getParameterTypes()), m);
                }
            }
        }
        return new ArrayList<>(found.values());
    }

    /**
     * The best constructor and {@code move} of {@code type} for {@code args}, or an
     * IllegalArgumentException that lists every signature and what it lacks.
     */
    static Binding bind(Class<?> type, List<String> args) {
        List<Binding> fits = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Constructor<?>[] constructors = type.getDeclaredConstructors();
        for (Constructor<?> constructor : constructors) {
            for (Method move : moves(type)) {
                Role[] cr = roles(constructor);
                Role[] mr = roles(move);
                String problem = unsupported(constructor, cr);
                if (problem == null) problem = unsupported(move, mr);
                int wanted = count(cr, Role.ARG) + count(mr, Role.ARG);
                if (problem == null && wanted != args.size()) {
                    problem = wanted > args.size()
                            ? "needs " + wanted + " argument(s) after the class name (" + argNames(constructor, cr, move, mr) + "), got " + args.size()
                            : "takes " + wanted + " argument(s) after the class name, got " + args.size();
                }
                if (problem == null) {
                    try {
                        Object[] ca = new Object[cr.length];
                        Object[] ma = new Object[mr.length];
                        int at = fill(constructor, cr, ca, args, 0);
                        fill(move, mr, ma, args, at);
                        fits.add(new Binding(constructor, move, cr, mr, ca, ma));
                        continue;
                    } catch (IllegalArgumentException e) {
                        problem = e.getMessage();
                    }
                }
                problems.add(signature(constructor, cr, null) + " / " + signature(move, mr, null) + ": " + problem);
            }
        }
        if (fits.isEmpty()) {
            String name = type.getName();
            if (moves(type).isEmpty()) {
                throw new IllegalArgumentException(name + " has no method 'int[] move(...)'");
            }
            throw new IllegalArgumentException("cannot play " + name + " with arguments " + args + ": " + String.join("; ", problems));
        }
        fits.sort(Comparator.comparingInt((Binding b) -> -b.facts)
                .thenComparingInt(b -> -b.move.getParameterCount())
                .thenComparingInt(b -> depth(b.move.getDeclaringClass())));
        return fits.get(0);
    }

    /** The description of the binding {@link #of} would use (for the build's report). */
    public String describe() {
        return binding.describe();
    }

    private static int depth(Class<?> c) {
        int d = 0;
        for (Class<?> k = c; k != null; k = k.getSuperclass()) d--;
        return d;
    }

    private static int count(Role[] roles, Role role) {
        int n = 0;
        for (Role r : roles) n += r == role ? 1 : 0;
        return n;
    }

    private static String argNames(Executable a, Role[] ar, Executable b, Role[] br) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < ar.length; i++) if (ar[i] == Role.ARG) names.add(param(a.getParameters()[i]));
        for (int i = 0; i < br.length; i++) if (br[i] == Role.ARG) names.add(param(b.getParameters()[i]));
        return String.join(", ", names);
    }

    private static String param(Parameter p) {
        return p.getType().getSimpleName() + " " + p.getName();
    }

    private static String signature(Executable e, Role[] roles, Object[] values) {
        List<String> parts = new ArrayList<>();
        Parameter[] ps = e.getParameters();
        for (int i = 0; i < ps.length; i++) {
            String text = param(ps[i]);
            if (roles[i] == Role.ARG && values != null) {
                text += "=" + values[i];
            } else if (roles[i] != Role.ARG) {
                text += " <- " + roles[i].name().toLowerCase(Locale.ROOT).replace('_', ' ');
            }
            parts.add(text);
        }
        String name = e instanceof Constructor ? e.getDeclaringClass().getName() : "move";
        return name + "(" + String.join(", ", parts) + ")";
    }

    /** What each parameter receives, by its type and name. */
    static Role[] roles(Executable e) {
        Parameter[] ps = e.getParameters();
        Role[] roles = new Role[ps.length];
        int symbols = 0;
        for (int i = 0; i < ps.length; i++) {
            Class<?> t = ps[i].getType();
            String name = ps[i].isNamePresent() ? ps[i].getName().toLowerCase(Locale.ROOT) : "";
            if (t == Button[][].class) {
                roles[i] = Role.BUTTONS;
            } else if (CourseController.class.isAssignableFrom(t)) {
                roles[i] = Role.CONTROLLER;
            } else if (t == String.class || t == char.class || t == Character.class) {
                if (name.isEmpty()) {
                    roles[i] = symbols++ == 0 ? Role.SELF : Role.ENEMY;
                } else if (has(name, ENEMY_WORDS)) {
                    roles[i] = Role.ENEMY;
                } else if (has(name, SELF_WORDS) || SELF_NAMES.contains(name)) {
                    roles[i] = Role.SELF;
                } else {
                    roles[i] = Role.ARG;
                }
            } else if (t == int.class || t == Integer.class || t == long.class || t == Long.class) {
                roles[i] = numberRole(name);
            } else if (t == boolean.class || t == Boolean.class) {
                roles[i] = flagRole(name);
            } else {
                roles[i] = Role.ARG; // converted from an argument if it can be, refused below if not
            }
        }
        return roles;
    }

    private static boolean has(String name, List<String> words) {
        for (String w : words) if (name.contains(w)) return true;
        return false;
    }

    private static Role numberRole(String name) {
        if (name.contains("score") || name.contains("skor") || name.contains("point")) {
            String who = name.replace("score", "").replace("skor", "").replace("points", "").replace("point", "");
            if (has(who, ENEMY_WORDS)) return Role.ENEMY_SCORE;
            if (who.endsWith("x") || who.startsWith("x")) return Role.X_SCORE;
            if (who.endsWith("o") || who.startsWith("o")) return Role.O_SCORE;
            if (has(who, SELF_WORDS) || SELF_NAMES.contains(who)) return Role.SELF_SCORE;
            return Role.ARG;
        }
        if (name.contains("round") || name.contains("ronde") || name.contains("remaining")) return Role.ROUNDS;
        return Role.ARG;
    }

    private static Role flagRole(String name) {
        if (name.contains("first")) {
            return has(name.replace("first", ""), ENEMY_WORDS) || name.contains("human") || name.contains("player1")
                    ? Role.ENEMY_FIRST : Role.BOT_FIRST;
        }
        if (name.contains("xturn") || name.equals("isx") || name.contains("playerx")) return Role.IS_X;
        if (name.contains("oturn") || name.equals("iso") || name.contains("playero")) return Role.IS_O;
        return Role.ARG;
    }

    /** Why the executable cannot be called (a parameter of a type no argument converts to), or null. */
    private static String unsupported(Executable e, Role[] roles) {
        Parameter[] ps = e.getParameters();
        for (int i = 0; i < ps.length; i++) {
            if (roles[i] == Role.ARG && !convertible(ps[i].getType())) {
                return "parameter " + param(ps[i]) + " is neither a fact of the game nor a value an argument gives";
            }
        }
        return null;
    }

    private static boolean convertible(Class<?> t) {
        return t == String.class || t == char.class || t == Character.class || t == int.class || t == Integer.class
                || t == long.class || t == Long.class || t == double.class || t == Double.class || t == boolean.class
                || t == Boolean.class;
    }

    /** Converts the arguments of ARG parameters, from {@code args[at]} on; the next index. */
    private static int fill(Executable e, Role[] roles, Object[] values, List<String> args, int at) {
        Parameter[] ps = e.getParameters();
        for (int i = 0; i < ps.length; i++) {
            if (roles[i] != Role.ARG) continue;
            String text = args.get(at++);
            Class<?> t = ps[i].getType();
            try {
                if (t == String.class) values[i] = text;
                else if (t == int.class || t == Integer.class) values[i] = Integer.parseInt(text);
                else if (t == long.class || t == Long.class) values[i] = Long.parseLong(text);
                else if (t == double.class || t == Double.class) values[i] = Double.parseDouble(text);
                else if (t == boolean.class || t == Boolean.class) {
                    if (!text.equals("true") && !text.equals("false")) throw new NumberFormatException();
                    values[i] = Boolean.parseBoolean(text);
                } else {
                    if (text.length() != 1) throw new NumberFormatException();
                    values[i] = text.charAt(0);
                }
            } catch (NumberFormatException ex) {
                throw new IllegalArgumentException("'" + text + "' is not a value for " + param(ps[i]));
            }
        }
        return at;
    }

    @Override
    public void newGame() {
        instance = null;
    }

    @Override
    public String move(Board board, Deadline deadline) {
        if (buttons == null || buttons.length != board.rows || buttons[0].length != board.cols) {
            buttons = new Button[board.rows][board.cols];
            for (Button[] row : buttons) {
                for (int j = 0; j < row.length; j++) row[j] = new Button();
            }
            instance = null;
        }
        for (int i = 0; i < board.rows; i++) {
            for (int j = 0; j < board.cols; j++) {
                char cell = board.grid[board.rows - 1 - i][j];
                buttons[i][j].setText(cell == 'x' ? "X" : cell == 'o' ? "O" : "");
                buttons[i][j].setDisable(cell != '.');
            }
        }
        boolean botFirst = board.pliesLeft % 2 == 0; // a round's first mover moves with an even count left
        if (controller == null) {
            controller = newController();
        }
        // whether or not the bot takes the controller: it may read the state statically
        CourseController.adjacencyUpdate(buttons, (board.pliesLeft + 1) / 2, board.score(), botFirst, board.turn == 'x');
        if (instance == null || side != board.turn) {
            side = board.turn;
            instance = call(binding.constructor, null, values(binding.constructorRoles, binding.constructorArgs, board, botFirst));
        }
        Object answer = call(binding.move, instance, values(binding.moveRoles, binding.moveArgs, board, botFirst));
        int[] ij = (int[]) answer;
        if (ij == null || ij.length < 2 || ij[0] < 0 || ij[0] >= board.rows || ij[1] < 0 || ij[1] >= board.cols) {
            String shown = ij == null ? "null" : java.util.Arrays.toString(ij);
            System.err.println("the course bot answered " + shown + ", not {row, column} on the " + board.rows + "x" + board.cols + " board");
            return "(none)";
        }
        return Board.square(board.rows - 1 - ij[0], ij[1]);
    }

    private CourseController newController() {
        for (Role[] roles : List.of(binding.constructorRoles, binding.moveRoles)) {
            Executable e = roles == binding.constructorRoles ? binding.constructor : binding.move;
            for (int i = 0; i < roles.length; i++) {
                if (roles[i] == Role.CONTROLLER) {
                    try {
                        Constructor<?> make = e.getParameterTypes()[i].getDeclaredConstructor();
                        make.setAccessible(true);
                        return (CourseController) make.newInstance();
                    } catch (ReflectiveOperationException ex) {
                        throw new IllegalStateException("cannot make the stand-in " + e.getParameterTypes()[i].getName() + ": " + ex, ex);
                    }
                }
            }
        }
        return null;
    }

    private Object[] values(Role[] roles, Object[] args, Board board, boolean botFirst) {
        Object[] out = new Object[roles.length];
        Executable e = roles == binding.constructorRoles ? binding.constructor : binding.move;
        Class<?>[] types = e.getParameterTypes();
        int[] score = board.score();
        int mine = board.turn == 'x' ? score[0] : score[1];
        int theirs = board.turn == 'x' ? score[1] : score[0];
        String self = board.turn == 'x' ? "X" : "O";
        String enemy = board.turn == 'x' ? "O" : "X";
        for (int i = 0; i < roles.length; i++) {
            switch (roles[i]) {
                case BUTTONS: out[i] = buttons; break;
                case CONTROLLER: out[i] = controller; break;
                case SELF: out[i] = types[i] == String.class ? self : (Object) self.charAt(0); break;
                case ENEMY: out[i] = types[i] == String.class ? enemy : (Object) enemy.charAt(0); break;
                case ROUNDS: out[i] = number(types[i], (board.pliesLeft + 1) / 2); break;
                case SELF_SCORE: out[i] = number(types[i], mine); break;
                case ENEMY_SCORE: out[i] = number(types[i], theirs); break;
                case X_SCORE: out[i] = number(types[i], score[0]); break;
                case O_SCORE: out[i] = number(types[i], score[1]); break;
                case BOT_FIRST: out[i] = botFirst; break;
                case ENEMY_FIRST: out[i] = !botFirst; break;
                case IS_X: out[i] = board.turn == 'x'; break;
                case IS_O: out[i] = board.turn == 'o'; break;
                default: out[i] = args[i]; break;
            }
        }
        return out;
    }

    private static Object number(Class<?> type, int value) {
        return type == long.class || type == Long.class ? (Object) (long) value : (Object) value;
    }

    /** Calls the bot; what it throws is rethrown as it is (the runner reports a crash). */
    private static Object call(Executable e, Object target, Object[] args) {
        try {
            e.setAccessible(true);
            return e instanceof Constructor ? ((Constructor<?>) e).newInstance(args) : ((Method) e).invoke(target, args);
        } catch (InvocationTargetException ex) {
            Throwable cause = ex.getCause();
            if (cause instanceof RuntimeException) throw (RuntimeException) cause;
            if (cause instanceof Error) throw (Error) cause;
            throw new IllegalStateException(cause);
        } catch (ReflectiveOperationException ex) {
            throw new IllegalStateException("cannot call " + e + ": " + ex, ex);
        }
    }
}
