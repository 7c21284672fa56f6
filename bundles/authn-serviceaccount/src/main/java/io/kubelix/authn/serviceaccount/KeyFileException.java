package io.kubelix.authn.serviceaccount;

/**
 * A key file that is missing, unreadable or malformed. Its message says which file and why; it
 * carries no stack trace, since the cause is the file and not the code.
 */
final class KeyFileException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    KeyFileException(String message) {
        super(message, null, false, false);
    }
}
