package io.kubelix.runtime.endpoints;

import java.util.concurrent.Executor;

/**
 * What every watch stream of the core API shares: the threads writing events, the WebSocket
 * upgrade, kube's {@code --min-request-timeout} (a watch without {@code timeoutSeconds} ends after a
 * random time between it and twice it), and where sent events are counted.
 */
record WatchServing(Executor writers, WebSocketWatches webSockets, long minRequestTimeoutSeconds, EventsSent sent) {
    /** kube-apiserver's default --min-request-timeout. */
    static final long DEFAULT_MIN_REQUEST_TIMEOUT_SECONDS = 1800;

    /** Told of each event written to a watcher (apiserver_watch_events_total and _sizes). */
    @FunctionalInterface
    interface EventsSent {
        EventsSent NONE = (group, version, kind, bytes) -> { };

        void sent(String group, String version, String kind, int bytes);
    }
}
