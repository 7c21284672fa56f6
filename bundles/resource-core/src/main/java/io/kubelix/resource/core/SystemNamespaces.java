package io.kubelix.resource.core;

import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.object.Unstructured;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.request.RequestContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * kube-apiserver's system namespaces controller: makes sure {@code default}, {@code kube-system},
 * {@code kube-public} and {@code kube-node-lease} exist. It runs on the provider's executor, not
 * inside {@code newRESTStorage}, because the Store's backend may not answer yet when core-runtime
 * installs the routes; it retries with backoff until every namespace exists, then checks again
 * every minute so a deleted {@code kube-node-lease} comes back, as in kube.
 */
final class SystemNamespaces {
    static final List<String> NAMES = List.of("default", "kube-system", "kube-public", "kube-node-lease");
    static final long RESYNC_MILLIS = TimeUnit.MINUTES.toMillis(1);
    static final long INITIAL_BACKOFF_MILLIS = 200;
    static final long MAX_BACKOFF_MILLIS = TimeUnit.SECONDS.toMillis(30);

    private static final Logger LOG = LoggerFactory.getLogger(SystemNamespaces.class);

    private final StandardStorage namespaces;
    private final ScheduledExecutorService executor;
    private long backoffMillis = INITIAL_BACKOFF_MILLIS;
    private ScheduledFuture<?> next;
    private boolean stopped;

    SystemNamespaces(StandardStorage namespaces, ScheduledExecutorService executor) {
        this.namespaces = namespaces;
        this.executor = executor;
    }

    /** Starts checking at once. */
    synchronized void start() {
        schedule(0);
    }

    /** Stops checking; a pass already running finishes its current namespace. */
    synchronized void stop() {
        stopped = true;
        if (next != null) {
            next.cancel(false);
        }
    }

    /**
     * One pass: creates each missing system namespace, treating AlreadyExists as success.
     *
     * @return true when every system namespace exists
     */
    boolean ensure() {
        boolean all = true;
        RequestContext ctx = RequestContext.system("");
        for (String name : NAMES) {
            try {
                if (exists(ctx, name)) {
                    continue;
                }
                Unstructured ns = Unstructured.of("v1", "Namespace");
                ns.metadata().name(name);
                namespaces.create(ctx, ns.object(), CreateOptions.DEFAULT);
                LOG.info("created system namespace {}", name);
            } catch (StatusException e) {
                if (e.reason() == StatusReason.SERVICE_UNAVAILABLE) {
                    // Storage plugins may start after this one; waiting for them is normal, not a warning.
                    LOG.info("system namespaces wait for storage: {}", e.getMessage());
                    return false;
                }
                if (e.reason() != StatusReason.ALREADY_EXISTS) {
                    LOG.warn("could not ensure system namespace {}: {} {}", name, e.code(), e.getMessage());
                    all = false;
                }
            } catch (RuntimeException e) {
                LOG.warn("could not ensure system namespace {}", name, e);
                all = false;
            }
        }
        return all;
    }

    private boolean exists(RequestContext ctx, String name) {
        try {
            namespaces.get(ctx, name, "0");
            return true;
        } catch (StatusException e) {
            if (e.reason() == StatusReason.NOT_FOUND) {
                return false;
            }
            throw e;
        }
    }

    private void run() {
        boolean done = ensure();
        synchronized (this) {
            if (done) {
                backoffMillis = INITIAL_BACKOFF_MILLIS;
                schedule(RESYNC_MILLIS);
            } else {
                schedule(backoffMillis);
                backoffMillis = Math.min(backoffMillis * 2, MAX_BACKOFF_MILLIS);
            }
        }
    }

    private void schedule(long delayMillis) {
        if (stopped) {
            return;
        }
        try {
            next = executor.schedule(this::run, delayMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            stopped = true; // the provider is going away
        }
    }
}
