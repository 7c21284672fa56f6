package io.kubelix.resource.core.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.core.v1.TolerationValidation;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.validation.NameValidators;
import io.kubelix.resource.core.common.Nodes;
import io.kubelix.support.net.CIDR;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube's ValidateNode and ValidateNodeUpdate (pkg/apis/core/validation) for the spec: pod CIDRs
 * (valid, at most one per IP family, no duplicates, fixed once set), taints (key, value, effect,
 * unique by key and effect), and a providerID fixed once set.
 */
public final class NodeValidation {
    public static final List<String> TAINT_EFFECTS = TolerationValidation.TAINT_EFFECTS;
    static final String CIDR_MESSAGE = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";
    static final String CIDR_CHANGE = "node updates may not change podCIDR except from \"\" to valid";

    private NodeValidation() {
    }

    /** The v1 conversion of a node spec: {@code podCIDRs} from {@code podCIDR} when only that is set, and back. */
    static void syncPodCIDR(ObjectNode spec) {
        String single = Nodes.text(spec, "podCIDR");
        JsonNode list = spec.get("podCIDRs");
        if ((list == null || list.isNull() || list.isArray() && list.isEmpty()) && !single.isEmpty()) {
            spec.putArray("podCIDRs").add(single);
        } else if (list instanceof ArrayNode a && !a.isEmpty() && a.get(0).isTextual()) {
            spec.put("podCIDR", a.get(0).asText());
        }
    }

    static List<FieldError> validate(ObjectNode node) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode spec = node.path("spec");
        JsonNode cidrs = spec.path("podCIDRs");
        int i = 0;
        Set<Boolean> families = new HashSet<>();
        for (JsonNode c : cidrs) {
            String value = c.asText("");
            if (CIDR.parseCIDRSloppy(value) == null) {
                errs.add(FieldError.invalid("spec.podCIDRs[" + i + "]", value, CIDR_MESSAGE));
            } else {
                families.add(value.contains(":"));
            }
            i++;
        }
        if (cidrs.size() > 1) {
            if (cidrs.size() > 2 || families.size() != 2) {
                List<String> values = new ArrayList<>();
                cidrs.forEach(c -> values.add(c.asText("")));
                errs.add(FieldError.invalid("spec.podCIDRs", io.kubelix.api.validation.GoSyntax.strings(values),
                        "may specify no more than one CIDR for each IP family"));
            }
            Set<String> seen = new HashSet<>();
            i = 0;
            for (JsonNode c : cidrs) {
                if (!seen.add(c.asText(""))) {
                    errs.add(FieldError.duplicate("spec.podCIDRs[" + i + "]", c.asText("")));
                }
                i++;
            }
        }
        errs.addAll(validateTaints(spec.path("taints")));
        Set<String> addresses = new HashSet<>();
        i = 0;
        for (JsonNode a : node.path("status").path("addresses")) {
            String address = "core.NodeAddress{Type:\"" + Nodes.text(a, "type") + "\", Address:\"" + Nodes.text(a, "address")
                    + "\"}";
            if (!addresses.add(address)) {
                errs.add(FieldError.duplicate("status.addresses[" + i + "]", new io.kubelix.api.validation.GoSyntax(address)));
            }
            i++;
        }
        return errs;
    }

    static List<FieldError> validateUpdate(ObjectNode node, ObjectNode old) {
        List<FieldError> errs = validate(node);
        JsonNode oldCIDRs = old.path("spec").path("podCIDRs");
        if (!oldCIDRs.isEmpty() && !oldCIDRs.equals(node.path("spec").path("podCIDRs"))) {
            errs.add(FieldError.forbidden("spec.podCIDRs", CIDR_CHANGE));
        }
        String oldProvider = Nodes.text(old.path("spec"), "providerID");
        if (!oldProvider.isEmpty() && !oldProvider.equals(Nodes.text(node.path("spec"), "providerID"))) {
            errs.add(FieldError.forbidden("spec.providerID", "node updates may not change providerID except from \"\" to valid"));
        }
        return errs;
    }

    /** validateNodeTaints. */
    static List<FieldError> validateTaints(JsonNode taints) {
        List<FieldError> errs = new ArrayList<>();
        Map<String, Set<String>> unique = new HashMap<>();
        int i = 0;
        for (JsonNode t : taints) {
            String p = "spec.taints[" + i++ + "]";
            String key = Nodes.text(t, "key");
            NameValidators.isQualifiedName(key).forEach(m -> errs.add(FieldError.invalid(p + ".key", key, m)));
            String value = Nodes.text(t, "value");
            List<String> valueErrs = NameValidators.isValidLabelValue(value);
            if (!valueErrs.isEmpty()) {
                errs.add(FieldError.invalid(p + ".value", value, String.join(";", valueErrs)));
            }
            String effect = Nodes.text(t, "effect");
            if (effect.isEmpty()) {
                errs.add(FieldError.required(p + ".effect", ""));
            } else if (!TAINT_EFFECTS.contains(effect)) {
                errs.add(FieldError.notSupported(p + ".effect", effect, TAINT_EFFECTS));
            }
            if (!unique.computeIfAbsent(effect, e -> new HashSet<>()).add(key)) {
                errs.add(new FieldError(FieldError.Type.DUPLICATE, p, t.toString(), "taints must be unique by key and effect pair"));
            }
        }
        return errs;
    }
}
