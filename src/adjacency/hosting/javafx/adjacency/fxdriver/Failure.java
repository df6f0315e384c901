package adjacency.fxdriver;

/** Why the program cannot go on being driven, in the team's terms (printed, then exit 1). */
final class Failure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Failure(String message) {
        super(message);
    }
}
