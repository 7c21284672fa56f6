package io.kubelix.resource.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.admission.ValidatingAdmissionPlugin;
import io.kubelix.api.errors.StatusCause;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.schema.GroupVersionResource;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * The NamespaceLifecycle admission plugin (plugin/pkg/admission/namespace/lifecycle): no writes
 * into a namespace that does not exist (404), no new objects in a Terminating namespace (403),
 * and {@code default}, {@code kube-system} and {@code kube-public} cannot be deleted (403).
 *
 * <p>Namespaces are read through the bundle-private {@link NamespaceLister}, first from the watch
 * cache and, on a miss, from storage, as kube does. A namespace deleted in the last 30 seconds is
 * always read from storage, so a stale cache cannot let writes into it. The lister reference is
 * optional and dynamic so this plugin stays registered while the provider comes and goes; without
 * a lister it refuses namespaced writes with 503 rather than letting them through unchecked. An
 * instance that was deactivated keeps its lister: while resource-core is being updated it still
 * admits writes until the new revision's plugin takes its place.
 */
@Component(service = ValidatingAdmissionPlugin.class)
public final class NamespaceLifecycle implements ValidatingAdmissionPlugin {
    static final String PLUGIN_NAME = "NamespaceLifecycle";
    static final Set<String> IMMORTAL_NAMESPACES = Set.of("default", "kube-system", "kube-public");
    static final long FORCE_LIVE_LOOKUP_NANOS = TimeUnit.SECONDS.toNanos(30);
    static final String NAMESPACE_TERMINATING_CAUSE = "NamespaceTerminating";

    private static final GroupResource NAMESPACES = CoreRESTStorageProvider.NAMESPACES;

    private final AtomicReference<NamespaceLister> lister = new AtomicReference<>();
    /** Recently deleted namespaces and when their forced live lookup ends (System.nanoTime). */
    private final Map<String, Long> forceLiveLookup = new ConcurrentHashMap<>();
    private final LongSupplier nanoClock;
    private volatile boolean deactivated;

    @Activate
    public NamespaceLifecycle() {
        this(System::nanoTime);
    }

    /** For tests: the clock for the forced live lookup window. */
    NamespaceLifecycle(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void bindNamespaceLister(NamespaceLister namespaceLister) {
        lister.set(namespaceLister);
    }

    void unbindNamespaceLister(NamespaceLister namespaceLister) {
        if (!deactivated) {
            lister.compareAndSet(namespaceLister, null);
        }
    }

    /** Declarative Services unbinds the lister after this; the instance keeps it (see the class comment). */
    @Deactivate
    void deactivate() {
        deactivated = true;
    }

    @Override
    public String name() {
        return PLUGIN_NAME;
    }

    @Override
    public boolean handles(Operation operation) {
        return operation != Operation.CONNECT;
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
        NamespaceLister namespaces = lister.get();
        if (namespaces == null) {
            throw StatusException.serviceUnavailable(
                    "admission plugin " + PLUGIN_NAME + " is not ready: the namespace storage is not available");
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
