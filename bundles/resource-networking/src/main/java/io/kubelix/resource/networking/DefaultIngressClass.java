package io.kubelix.resource.networking;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.MutatingAdmissionPlugin;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.support.admission.guard.ObjectWrites;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;

/**
 * The DefaultIngressClass admission plugin (plugin/pkg/admission/network/defaultingressclass): a
 * new Ingress that names no class (no {@code spec.ingressClassName} and no
 * {@code kubernetes.io/ingress.class} annotation) gets the default IngressClass, the one annotated
 * {@code ingressclass.kubernetes.io/is-default-class: "true"}; when several are, the newest, then
 * the first by name, as kube picks.
 */
@Component(service = MutatingAdmissionPlugin.class)
public final class DefaultIngressClass implements MutatingAdmissionPlugin {
    static final String PLUGIN_NAME = "DefaultIngressClass";
    static final GroupVersionResource INGRESS_CLASSES = new GroupVersionResource("networking.k8s.io", "v1", "ingressclasses");
    static final String IS_DEFAULT = "ingressclass.kubernetes.io/is-default-class";
    static final String CLASS_ANNOTATION = "kubernetes.io/ingress.class";
    /** Newest first, then by name. */
    static final Comparator<JsonNode> NEWEST = Comparator.<JsonNode, String>comparing(
            c -> c.path("metadata").path("creationTimestamp").asText("")).reversed()
            .thenComparing(c -> c.path("metadata").path("name").asText(""));

    private final Supplier<List<ObjectNode>> ingressClasses;

    @Activate
    public DefaultIngressClass(@Reference SharedInformerFactory informers) {
        this(() -> informers.forResource(INGRESS_CLASSES).lister().list());
    }

    DefaultIngressClass(Supplier<List<ObjectNode>> ingressClasses) {
        this.ingressClasses = ingressClasses;
    }

    @Override
    public String name() {
        return PLUGIN_NAME;
    }

    @Override
    public boolean handles(Operation operation) {
        return operation == Operation.CREATE;
    }

    @Override
    public void admit(AdmissionAttributes a) {
        if (!ObjectWrites.of(a, "networking.k8s.io", "ingresses")) {
            return;
        }
        JsonNode spec = a.object().path("spec");
        if (spec.has("ingressClassName") && !spec.get("ingressClassName").isNull()
                || a.object().path("metadata").path("annotations").has(CLASS_ANNOTATION)) {
            return;
        }
        ingressClasses.get().stream()
                .filter(c -> "true".equals(c.path("metadata").path("annotations").path(IS_DEFAULT).asText()))
                .min(NEWEST)
                .ifPresent(c -> a.object().with("spec").put("ingressClassName", c.path("metadata").path("name").asText()));
    }
}
