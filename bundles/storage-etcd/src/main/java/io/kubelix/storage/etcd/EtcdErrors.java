package io.kubelix.storage.etcd;

import io.kubelix.api.storage.StorageErrors;
import io.etcd.jetcd.common.exception.CompactedException;
import io.etcd.jetcd.common.exception.EtcdException;
import io.grpc.Status;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.storage.StorageException;

import java.util.Locale;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Turns what the etcd client throws into the storage contract's errors: an unreachable etcd is
 * {@code UNREACHABLE} (core-runtime answers 503), a call that outlives its deadline a 504
 * {@code Timeout}, a compacted revision 410 {@code Expired}, a future revision 504 too large.
 */
final class EtcdErrors {

    private EtcdErrors() {
    }

    static boolean isCompacted(Throwable t) {
        return t instanceof CompactedException || message(t).contains("required revision has been compacted");
    }

    static boolean isFutureRevision(Throwable t) {
        return message(t).contains("required revision is a future revision");
    }

    /**
     * The contract's error for a failed call on {@code key}.
     *
     * @param revision the revision the call read at, for compaction errors, or 0
     */
    static RuntimeException map(Throwable thrown, String key, long revision) {
        Throwable t = unwrap(thrown);
        if (t instanceof StatusException || t instanceof StorageException) {
            return (RuntimeException) t;
        }
        if (isCompacted(t)) {
            return StorageErrors.tooOldResourceVersion(revision);
        }
        if (isFutureRevision(t)) {
            return new FutureRevision(revision);
        }
        Status.Code code = code(t);
        String detail = describe(t);
        return switch (code) {
            case UNAVAILABLE, CANCELLED, UNKNOWN -> unreachable(key, detail, t);
            case DEADLINE_EXCEEDED -> timeout(key, detail);
            default -> new StorageException(StorageException.Code.INTERNAL, key, "etcd error on " + key + ": " + detail, t);
        };
    }

    /** A read at a revision etcd has not reached; the client turns it into a 504 naming the current revision. */
    static final class FutureRevision extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final long requested;

        FutureRevision(long requested) {
            super("required revision " + requested + " is a future revision", null, false, false);
            this.requested = requested;
        }
    }

    static StorageException unreachable(String key, String detail, Throwable cause) {
        return new StorageException(StorageException.Code.UNREACHABLE, key, "etcd is unreachable: " + detail, cause);
    }

    static StatusException timeout(String key, String detail) {
        return StatusException.timeout("etcd did not answer in time for " + key + ": " + detail);
    }

    static Throwable unwrap(Throwable t) {
        Throwable cur = t;
        while ((cur instanceof ExecutionException || cur instanceof CompletionException) && cur.getCause() != null) {
            cur = cur.getCause();
        }
        return cur;
    }

    static Status.Code code(Throwable t) {
        if (t instanceof EtcdException e) {
            try {
                return Status.Code.valueOf(e.getErrorCode().name());
            } catch (IllegalArgumentException ignored) {
                return Status.Code.UNKNOWN;
            }
        }
        if (t instanceof CancellationException) {
            return Status.Code.CANCELLED;
        }
        Status s = Status.fromThrowable(t);
        return s.getCode();
    }

    static String describe(Throwable t) {
        String m = t.getMessage();
        Throwable c = t.getCause();
        if (c != null && c.getMessage() != null && (m == null || !m.contains(c.getMessage()))) {
            m = (m == null ? "" : m + ": ") + c.getMessage();
        }
        return m == null ? t.getClass().getSimpleName() : m;
    }

    private static String message(Throwable t) {
        String m = t == null ? null : t.getMessage();
        return m == null ? "" : m.toLowerCase(Locale.ROOT);
    }
}
