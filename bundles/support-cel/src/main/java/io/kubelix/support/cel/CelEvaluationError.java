package io.kubelix.support.cel;

/**
 * An expression that failed while it ran: a runtime error ({@code no such key: foo}, division by
 * zero, a type mismatch of a dynamic value) or, when {@link #costLimitExceeded()}, a run stopped
 * at its cost limit, worded as cel-go words it ({@code operation cancelled: actual cost limit exceeded}).
 */
public final class CelEvaluationError extends Exception {
    private static final long serialVersionUID = 1L;
    private final boolean costLimitExceeded;

    CelEvaluationError(String message, boolean costLimitExceeded, Throwable cause) {
        super(message, cause);
        this.costLimitExceeded = costLimitExceeded;
    }

    public boolean costLimitExceeded() {
        return costLimitExceeded;
    }
}
