package io.kubelix.support.cel;

/**
 * An error a function of kube's libraries returns (cel-go's {@code types.NewErr}), such as
 * {@code cannot convert value to integer}: the evaluation fails with this message as it is, where
 * cel-java would otherwise name the function and its arguments.
 */
final class LibraryError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    LibraryError(String message) {
        super(message, null, false, false);
    }
}
