package io.kubelix.resource.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.object.Unstructured;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.ResourceVersionMatch;
import io.kubelix.api.storage.SelectionPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * kube-controller-manager's service account controller, run by this plugin: every namespace that
 * is not being deleted has a service account named {@code default}, created soon after the
 * namespace and again if it is deleted. Pods name it when they name none, and
 * {@code kubectl create token default} needs it.
 */
final class DefaultServiceAccounts {
    static final String NAME = "default";
    static final long INTERVAL_MILLIS = 1000;

    private static final Logger LOG = LoggerFactory.getLogger(DefaultServiceAccounts.class);
    private static final ListOptions FROM_CACHE = new ListOptions("0", ResourceVersionMatch.UNSET,
            SelectionPredicate.EVERYTHING, true, 0, null, false);
    /** {@code fieldSelector=metadata.name=default}: the cache hands out only those, not every service account. */
    private static final SelectionPredicate NAMED_DEFAULT = new SelectionPredicate() {
        @Override
        public boolean matches(ObjectNode obj) {
            return NAME.equals(obj.path("metadata").path("name").asText());
        }

        @Override
        public boolean matchesEverything() {
            return false;
        }

        @Override
        public String requiredFieldValue(String field) {
            return "metadata.name".equals(field) ? NAME : null;
        }
    };

    private final StandardStorage namespaces;
    private final StandardStorage serviceAccounts;
    private final ScheduledExecutorService executor;
    private ScheduledFuture<?> task;

    DefaultServiceAccounts(StandardStorage namespaces, StandardStorage serviceAccounts, ScheduledExecutorService executor) {
        this.namespaces = namespaces;
        this.serviceAccounts = serviceAccounts;
        this.executor = executor;
    }

    synchronized void start() {
        try {
            task = executor.scheduleWithFixedDelay(this::runQuietly, 0, INTERVAL_MILLIS, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // the provider is going away
        }
    }

    synchronized void stop() {
        if (task != null) {
            task.cancel(false);
        }
    }

    private void runQuietly() {
        try {
            ensure();
        } catch (StatusException e) {
            // Storage not there yet, or unreachable: the next pass tries again.
            LOG.debug("default service accounts: {}", e.getMessage());
        } catch (RuntimeException e) {
            LOG.warn("default service accounts: {}", e.toString(), e);
        }
    }

    /**
     * One pass: creates {@code default} in each namespace that lacks it and is not terminating.
     *
     * @return the namespaces it was created in
     */
    Set<String> ensure() {
        Set<String> have = new HashSet<>();
        ListOptions defaults = new ListOptions("0", ResourceVersionMatch.UNSET, NAMED_DEFAULT, true, 0, null, false);
        for (ObjectNode sa : serviceAccounts.list(RequestContext.system(""), defaults).items()) {
            have.add(sa.path("metadata").path("namespace").asText());
        }
        Set<String> created = new HashSet<>();
        for (ObjectNode ns : namespaces.list(RequestContext.system(""), FROM_CACHE).items()) {
            String namespace = ns.path("metadata").path("name").asText();
            if (have.contains(namespace) || terminating(ns)) {
                continue;
            }
            Unstructured sa = Unstructured.of("v1", "ServiceAccount");
            sa.metadata().name(NAME);
            try {
                serviceAccounts.create(RequestContext.system(namespace), sa.object(), CreateOptions.DEFAULT);
                created.add(namespace);
                LOG.info("created service account {}/{}", namespace, NAME);
            } catch (StatusException e) {
                // There already (the cache was behind), or the namespace went or began terminating meanwhile.
                if (e.reason() != StatusReason.ALREADY_EXISTS && e.reason() != StatusReason.FORBIDDEN
                        && e.reason() != StatusReason.NOT_FOUND) {
                    throw e;
                }
            }
        }
        return created;
    }

    private static boolean terminating(ObjectNode ns) {
        JsonNode ts = ns.path("metadata").get("deletionTimestamp");
        return ts != null && !ts.isNull() || "Terminating".equals(ns.path("status").path("phase").asText());
    }
}
