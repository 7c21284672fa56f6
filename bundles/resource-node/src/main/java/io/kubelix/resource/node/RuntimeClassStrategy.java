package io.kubelix.resource.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.core.v1.TolerationValidation;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.validation.GoSyntax;
import io.kubelix.api.validation.MetadataValidators;
import io.kubelix.api.validation.NameValidators;
import io.kubelix.support.quantity.InvalidQuantityException;
import io.kubelix.support.quantity.Quantity;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The RuntimeClass strategy (pkg/registry/node/runtimeclass and pkg/apis/node/validation): the
 * handler is a DNS-1123 label and never changes; {@code overhead.podFixed} holds container
 * resources with non-negative quantities (reported, as kube does, under {@code overhead.limits});
 * {@code scheduling} has a valid node selector and tolerations, none repeated.
 */
final class RuntimeClassStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
    /** The resources a container may name without a domain (kube's IsStandardContainerResourceName). */
    static final Set<String> STANDARD_CONTAINER_RESOURCES = Set.of("cpu", "memory", "ephemeral-storage");

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        List<FieldError> errs = new ArrayList<>();
        String handler = obj.path("handler").asText("");
        NameValidators.isDNS1123Label(handler).forEach(m -> errs.add(FieldError.invalid("handler", handler, m)));
        JsonNode overhead = obj.get("overhead");
        if (overhead != null && !overhead.isNull()) {
            validatePodFixed(overhead.path("podFixed"), "overhead.limits", errs);
        }
        JsonNode scheduling = obj.get("scheduling");
        if (scheduling != null && !scheduling.isNull()) {
            errs.addAll(MetadataValidators.validateLabels(scheduling.get("nodeSelector"), "scheduling.nodeSelector"));
            JsonNode tolerations = scheduling.path("tolerations");
            errs.addAll(TolerationValidation.validateTolerations(tolerations, "scheduling.tolerations"));
            Set<List<String>> seen = new HashSet<>();
            for (int i = 0; i < tolerations.size(); i++) {
                JsonNode t = tolerations.get(i);
                List<String> key = List.of(t.path("key").asText(""), t.path("operator").asText(""), t.path("value").asText(""),
                        t.path("effect").asText(""));
                if (!seen.add(key)) {
                    errs.add(FieldError.duplicate("scheduling.tolerations[" + i + "]", goSyntax(t)));
                }
            }
        }
        return errs;
    }

    /** A toleration as kube's Duplicate message prints it (Go's {@code %#v}); the seconds stand for the pointer. */
    static GoSyntax goSyntax(JsonNode t) {
        JsonNode seconds = t.get("tolerationSeconds");
        return new GoSyntax("core.Toleration{Key:\"" + t.path("key").asText("") + "\", Operator:\"" + t.path("operator").asText("")
                + "\", Value:\"" + t.path("value").asText("") + "\", Effect:\"" + t.path("effect").asText("")
                + "\", TolerationSeconds:(*int64)(" + (seconds == null || seconds.isNull() ? "nil" : seconds.asText()) + ")}");
    }

    /** kube's ValidateContainerResourceRequirements of the limits it makes of {@code podFixed}. */
    private static void validatePodFixed(JsonNode podFixed, String path, List<FieldError> errs) {
        for (Iterator<Map.Entry<String, JsonNode>> it = podFixed.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String name = e.getKey();
            String p = path + "[" + name + "]";
            NameValidators.isQualifiedName(name).forEach(m -> errs.add(FieldError.invalid(p, name, m)));
            if (!name.contains("/") && !STANDARD_CONTAINER_RESOURCES.contains(name) && !name.startsWith("hugepages-")) {
                errs.add(FieldError.invalid(p, name, "must be a standard resource for containers"));
            }
            String text = e.getValue().asText("");
            try {
                if (Quantity.parseJson(text).signum() < 0) {
                    errs.add(FieldError.invalid(p, text, "must be greater than or equal to 0"));
                }
            } catch (InvalidQuantityException ex) {
                errs.add(FieldError.invalid(p, text, ex.getMessage()));
            }
        }
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        List<FieldError> errs = new ArrayList<>(validate(ctx, obj));
        String handler = obj.path("handler").asText("");
        if (!Objects.equals(handler, old.path("handler").asText(""))) {
            errs.add(FieldError.invalid("handler", handler, "field is immutable"));
        }
        return errs;
    }
}
