package io.kubelix.runtime.controller.workqueue;

/** A monotonic clock in nanoseconds; the system's in the server, one a test moves by hand otherwise. */
@FunctionalInterface
public interface Ticker {
    Ticker SYSTEM = System::nanoTime;

    long nanoTime();
}
