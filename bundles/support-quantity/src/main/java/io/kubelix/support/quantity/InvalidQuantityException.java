package io.kubelix.support.quantity;

/** A text that is no resource.Quantity; the message is kube's (ErrFormatWrong, ErrNumeric or ErrSuffix). */
public final class InvalidQuantityException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    InvalidQuantityException(String message) {
        super(message);
    }
}
