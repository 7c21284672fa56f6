package io.kubelix.runtime.endpoints;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The requests running on one installed provider's storages, so a provider that is replaced or
 * removed is released only when they are done. A request enters before it touches a storage and
 * exits when the storage call returns; once the provider is retired no request enters any more,
 * and the caller looks the route up again. While the provider's bundle is being updated it is
 * outgoing: new requests wait for its replacement instead of entering.
 */
final class InFlight {
    /** The bundle that registered the provider, whose stop waits for these requests (-1: none known). */
    private final long bundleId;
    private final AtomicInteger active = new AtomicInteger();
    private volatile boolean outgoing;
    private volatile boolean retired;

    InFlight(long bundleId) {
        this.bundleId = bundleId;
    }

    long bundleId() {
        return bundleId;
    }

    /** Enters a request; false when the provider is retired (the request must look up its route again). */
    boolean enter() {
        active.incrementAndGet();
        // Counted before the check: retire() then either sees this request or this request sees retire().
        if (retired) {
            exit();
            return false;
        }
        return true;
    }

    void exit() {
        active.decrementAndGet();
    }

    void retire() {
        retired = true;
    }

    boolean retired() {
        return retired;
    }

    void outgoing() {
        outgoing = true;
    }

    boolean isOutgoing() {
        return outgoing;
    }

    boolean idle() {
        return active.get() == 0;
    }

    int active() {
        return active.get();
    }
}
