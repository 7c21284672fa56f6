package io.kubelix.resource.core.namespace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.MutatingAdmissionPlugin;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.admission.ValidatingAdmissionPlugin;
import io.kubelix.api.errors.StatusCause;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.resource.core.common.Nodes;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The NamespaceLifecycle admission plugin (plugin/pkg/admission/namespace/lifecycle): no writes
 * into a namespace that does not exist (404), no new objects in a Terminating namespace (403),
 * and {@code default}, {@code kube-system} and {@code kube-public} cannot be deleted (403).
 *
 * <p>Namespaces are read through the bundle-private {@link NamespaceLister}, first from the watch
 * cache and, on a miss, from storage, as kube does. A namespace deleted in the last 30 seconds is
 * always read from storage, so a stale cache cannot let writes into it. The lister is a mandatory
 * reference: this plugin is registered only with a lister, so no write is ever let through
 * unchecked, and while the lister's storage is not built yet it answers 503.
 */
// The name from before the package split: a plugin update swaps a component for the one of the same name.
@Component(name = "io.kubelix.resource.core.NamespaceLifecycle",
        service = {MutatingAdmissionPlugin.class, ValidatingAdmissionPlugin.class})
public final class NamespaceLifecycle implements MutatingAdmissionPlugin, ValidatingAdmissionPlugin {
    static final String PLUGIN_NAME = "NamespaceLifecycle";
    static final Set<String> IMMORTAL_NAMESPACES = Set.of("default", "kube-system", "kube-public");
    static final long FORCE_LIVE_LOOKUP_NANOS = TimeUnit.SECONDS.toNanos(30);
    static final String NAMESPACE_TERMINATING_CAUSE = "NamespaceTerminating";

    private static final GroupResource NAMESPACES = NamespaceSpecs.NAMESPACES;

    private final NamespaceLister namespaces;
    /** Recently deleted namespaces and when their forced live lookup ends (System.nanoTime). */
    private final Map<String, Long> forceLiveLookup = new ConcurrentHashMap<>();
    private final LongSupplier nanoClock;

    @Activate
    public NamespaceLifecycle(@Reference NamespaceLister namespaces) {
        this(namespaces, System::nanoTime);
    }

    /** For tests: the clock for the forced live lookup window. */
    NamespaceLifecycle(NamespaceLister namespaces, LongSupplier nanoClock) {
        this.namespaces = namespaces;
        this.nanoClock = nanoClock;
    }

    @Override
    public String name() {
        return PLUGIN_NAME;
    }

    @Override
    public boolean handles(Operation operation) {
        return operation != Operation.CONNECT;
    }

    /**
     * kube runs this plugin first of all, in the mutating phase: a write into a missing or
     * terminating namespace is refused before any other plugin or webhook sees it. The store
     * admits deletes through validation only, so the same checks run there too.
     */
    @Override
    public void admit(AdmissionAttributes a) {
        validate(a);
    }

    @Override
    public void validate(AdmissionAttributes a) {
        boolean isNamespace = isNamespaceResource(a.resource());
        if (a.operation() == Operation.DELETE && isNamespace && IMMORTAL_NAMESPACES.contains(a.name())) {
            throw StatusException.forbidden(NAMESPACES, a.name(), "this namespace may not be deleted");
        }
        String namespace = a.namespace() == null ? "" : a.namespace();
        if (namespace.isEmpty() && !isNamespace) {
            return; // cluster-scoped
        }
        if (isNamespace) {
            if (a.operation() == Operation.DELETE) {
                forceLiveLookup.put(a.name(), nanoClock.getAsLong() + FORCE_LIVE_LOOKUP_NANOS);
            }
            return;
        }
        if (a.operation() == Operation.DELETE || isAccessReview(a.resource())) {
            // Deletes are always allowed; an access review must not reveal whether a namespace exists.
            return;
        }
        boolean live = mustLookUpLive(namespace);
        Optional<ObjectNode> ns = namespaces.get(namespace, live);
        if (ns.isEmpty() && !live) {
            ns = namespaces.get(namespace, true);
        }
        if (ns.isEmpty()) {
            throw StatusException.notFound(NAMESPACES, namespace);
        }
        if (a.operation() == Operation.CREATE
                && NamespaceStrategy.PHASE_TERMINATING.equals(ns.get().path("status").path("phase").asText())) {
            throw terminating(a, namespace);
        }
    }

    private boolean mustLookUpLive(String namespace) {
        Long until = forceLiveLookup.get(namespace);
        if (until == null) {
            return false;
        }
        if (nanoClock.getAsLong() - until < 0) {
            return true;
        }
        forceLiveLookup.remove(namespace, until);
        return false;
    }

    /** admission.NewForbidden's wording plus the NamespaceTerminating cause clients look for. */
    private static StatusException terminating(AdmissionAttributes a, String namespace) {
        GroupResource gr = a.resource().groupResource();
        String name = objectName(a);
        StatusCause cause = new StatusCause(NAMESPACE_TERMINATING_CAUSE,
                "namespace " + namespace + " is being terminated", "metadata.namespace");
        return new StatusException(StatusReason.FORBIDDEN, 403,
                gr + " \"" + name + "\" is forbidden: unable to create new content in namespace " + namespace
                        + " because it is being terminated",
                new StatusException.Details(name, gr.group(), gr.resource(), List.of(cause), 0), null);
    }

    /** The name admission errors use: the request's, else the object's name or generateName, else "Unknown". */
    private static String objectName(AdmissionAttributes a) {
        if (a.name() != null && !a.name().isEmpty()) {
            return a.name();
        }
        if (a.object() != null) {
            JsonNode metadata = a.object().path("metadata");
            String name = Nodes.text(metadata, "name");
            if (!name.isEmpty()) {
                return name;
            }
            String generateName = Nodes.text(metadata, "generateName");
            if (!generateName.isEmpty()) {
                return generateName;
            }
        }
        return "Unknown";
    }

    private static boolean isNamespaceResource(GroupVersionResource gvr) {
        return gvr.group().isEmpty() && NAMESPACES.resource().equals(gvr.resource());
    }

    private static boolean isAccessReview(GroupVersionResource gvr) {
        return "authorization.k8s.io".equals(gvr.group()) && "localsubjectaccessreviews".equals(gvr.resource());
    }
}
