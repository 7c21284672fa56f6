package io.kubelix.itest.osgi;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waits for asynchronous effects (DS (un)registration, route table swaps) by polling, never by sleeping blindly. */
final class Poll {
    private static final long INTERVAL_MILLIS = 100;

    private Poll() {
    }

    /** Polls until the condition holds; fails with {@code what} when the timeout passes first. */
    static void until(Duration timeout, String what, BooleanSupplier condition) {
        until(timeout, what, () -> condition.getAsBoolean() ? Boolean.TRUE : null, () -> "");
    }

    /**
     * Polls until {@code value} returns non-null and returns it; on timeout the failure names
     * {@code what} and the last state {@code describe} gives.
     */
    static <T> T until(Duration timeout, String what, Supplier<T> value, Supplier<String> describe) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            T v = value.get();
            if (v != null) {
                return v;
            }
            if (System.nanoTime() > deadline) {
                String last = describe.get();
                throw new AssertionError("timed out after " + timeout.toSeconds() + "s waiting for " + what
                        + (last.isEmpty() ? "" : "; last: " + last));
            }
            try {
                Thread.sleep(INTERVAL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what, e);
            }
        }
    }
}
