package io.kubelix.support.cel;

/** An expression that does not parse or type-check; the message is cel-java's, with positions. */
public final class CelCompileException extends Exception {
    private static final long serialVersionUID = 1L;

    CelCompileException(String message, Throwable cause) {
        super(message, cause);
    }
}
