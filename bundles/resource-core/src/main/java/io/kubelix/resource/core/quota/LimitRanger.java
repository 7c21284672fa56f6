package io.kubelix.resource.core.quota;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.MutatingAdmissionPlugin;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.admission.ValidatingAdmissionPlugin;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.schema.GroupVersionResource;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The LimitRanger admission plugin's defaults (plugin/pkg/admission/limitranger): a new pod's
 * containers and init containers get the {@code default} limits and {@code defaultRequest}
 * requests of the {@code Container} limits of their namespace's LimitRanges for the resources
 * they do not set, defaulted as kube defaults a LimitRangeItem (a missing default is the max, a
 * missing default request the default, else the min), and the pod is annotated
 * {@code kubernetes.io/limit-ranger} with what was set, in kube's words. Then, as kube's Validate,
 * a new pod's containers and the pod as a whole, and a new or updated claim, are checked against
 * the {@code min}, {@code max} and {@code maxLimitRequestRatio} of the {@code Container},
 * {@code Pod} and {@code PersistentVolumeClaim} limits ({@link LimitRangeConstraints}); what they
 * break is kube's 403. A pod resized in place ({@code pods/resize}) is defaulted and checked as a new
 * one is, as kube 1.33 does.
 */
// The name from before the package split: a plugin update swaps a component for the one of the same name.
@Component(name = "io.kubelix.resource.core.LimitRanger",
        service = {MutatingAdmissionPlugin.class, ValidatingAdmissionPlugin.class})
public final class LimitRanger implements MutatingAdmissionPlugin, ValidatingAdmissionPlugin {
    static final String PLUGIN_NAME = "LimitRanger";
    static final String ANNOTATION = "kubernetes.io/limit-ranger";
    static final GroupVersionResource LIMIT_RANGES = new GroupVersionResource("", "v1", "limitranges");

    /** The LimitRanges of a namespace, as the informer has them. */
    private final Function<String, List<ObjectNode>> limitRangesIn;

    @Activate
    public LimitRanger(@Reference SharedInformerFactory informers) {
        this(namespace -> informers.forResource(LIMIT_RANGES).lister().byNamespace(namespace).list());
    }

    LimitRanger(Function<String, List<ObjectNode>> limitRangesIn) {
        this.limitRangesIn = limitRangesIn;
    }

    @Override
    public String name() {
        return PLUGIN_NAME;
    }

    @Override
    public boolean handles(Operation operation) {
        return operation == Operation.CREATE || operation == Operation.UPDATE;
    }

    /**
     * kube's SupportsAttributes: pods when created and when resized in place through
     * {@code pods/resize} (kube 1.33+; a pod's resources change no other way), claims when written;
     * no other subresource.
     */
    private static boolean supports(AdmissionAttributes a) {
        if (!a.resource().group().isEmpty() || a.object() == null || a.namespace().isEmpty()) {
            return false;
        }
        boolean pod = "pods".equals(a.resource().resource());
        if (!a.subresource().isEmpty()) {
            return pod && "resize".equals(a.subresource()) && a.operation() == Operation.UPDATE;
        }
        return pod && a.operation() == Operation.CREATE || "persistentvolumeclaims".equals(a.resource().resource());
    }

    @Override
    public void validate(AdmissionAttributes a) {
        if (!supports(a)) {
            return;
        }
        boolean pod = "pods".equals(a.resource().resource());
        Set<String> errors = new LinkedHashSet<>();
        for (ObjectNode range : limitRangesIn.apply(a.namespace())) {
            JsonNode spec = a.object().path("spec");
            errors.addAll(pod ? LimitRangeConstraints.pod(range, spec) : LimitRangeConstraints.claim(range, spec));
        }
        if (!errors.isEmpty()) {
            throw StatusException.forbidden(a.resource().groupResource(), a.name(), LimitRangeConstraints.aggregate(errors));
        }
    }

    @Override
    public void admit(AdmissionAttributes a) {
        if (!supports(a) || !"pods".equals(a.resource().resource())) {
            return;
        }
        // As kube, each LimitRange in turn: the first to default a resource wins.
        for (ObjectNode range : limitRangesIn.apply(a.namespace())) {
            Map<String, JsonNode> limits = new TreeMap<>();
            Map<String, JsonNode> requests = new TreeMap<>();
            for (JsonNode item : range.path("spec").path("limits")) {
                if ("Container".equals(item.path("type").asText())) {
                    defaults(item, limits, requests);
                }
            }
            List<String> set = new ArrayList<>();
            merge(a.object().path("spec").path("containers"), "container", limits, requests, set);
            merge(a.object().path("spec").path("initContainers"), "init container", limits, requests, set);
            if (!set.isEmpty()) {
                a.object().with("metadata").with("annotations").put(ANNOTATION, "LimitRanger plugin set: "
                        + String.join("; ", set));
            }
        }
    }

    /** SetDefaults_LimitRangeItem for a Container item, added to what earlier items gave. */
    private static void defaults(JsonNode item, Map<String, JsonNode> limits, Map<String, JsonNode> requests) {
        Map<String, JsonNode> itemDefault = new TreeMap<>();
        item.path("default").fields().forEachRemaining(e -> itemDefault.put(e.getKey(), e.getValue()));
        item.path("max").fields().forEachRemaining(e -> itemDefault.putIfAbsent(e.getKey(), e.getValue()));
        Map<String, JsonNode> itemRequest = new TreeMap<>();
        item.path("defaultRequest").fields().forEachRemaining(e -> itemRequest.put(e.getKey(), e.getValue()));
        itemDefault.forEach(itemRequest::putIfAbsent);
        item.path("min").fields().forEachRemaining(e -> itemRequest.putIfAbsent(e.getKey(), e.getValue()));
        limits.putAll(itemDefault);
        requests.putAll(itemRequest);
    }

    /** mergeContainerResources: what a container does not set, and kube's note of it. */
    private static void merge(JsonNode containers, String what, Map<String, JsonNode> limits,
                              Map<String, JsonNode> requests, List<String> set) {
        for (JsonNode c : containers) {
            if (!(c instanceof ObjectNode container)) {
                continue;
            }
            if (limits.isEmpty() && requests.isEmpty()) {
                continue;
            }
            ObjectNode resources = container.with("resources");
            TreeSet<String> setRequests = fill(resources, "requests", requests);
            TreeSet<String> setLimits = fill(resources, "limits", limits);
            String name = container.path("name").asText();
            if (!setRequests.isEmpty()) {
                set.add(String.join(", ", setRequests) + " request for " + what + " " + name);
            }
            if (!setLimits.isEmpty()) {
                set.add(String.join(", ", setLimits) + " limit for " + what + " " + name);
            }
        }
    }

    private static TreeSet<String> fill(ObjectNode resources, String field, Map<String, JsonNode> defaults) {
        TreeSet<String> set = new TreeSet<>();
        if (defaults.isEmpty()) {
            return set;
        }
        ObjectNode list = resources.with(field);
        defaults.forEach((k, v) -> {
            if (!list.has(k)) {
                list.set(k, v.deepCopy());
                set.add(k);
            }
        });
        return set;
    }
}
