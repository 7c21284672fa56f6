package io.kubelix.apiextensions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.schema.VersionPriority;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads and writes the parts of a CustomResourceDefinition (an {@code apiextensions.k8s.io/v1}
 * object as JSON) that the strategy and the controllers share: kube's apihelpers.
 */
public final class Crds {
    public static final String GROUP = "apiextensions.k8s.io";
    public static final String VERSION = "v1";
    public static final String NAMES_ACCEPTED = "NamesAccepted";
    public static final String ESTABLISHED = "Established";
    public static final String TERMINATING = "Terminating";
    public static final String NON_STRUCTURAL_SCHEMA = "NonStructuralSchema";
    /** The finalizer that holds a deleted CRD until every custom resource of it is gone. */
    public static final String CLEANUP_FINALIZER = "customresourcecleanup.apiextensions.k8s.io";

    private Crds() {
    }

    public static String name(JsonNode crd) {
        return crd.path("metadata").path("name").asText("");
    }

    public static String group(JsonNode crd) {
        return crd.path("spec").path("group").asText("");
    }

    public static boolean namespaced(JsonNode crd) {
        return "Namespaced".equals(crd.path("spec").path("scope").asText());
    }

    /** The version marked {@code storage: true}, or null. */
    public static String storageVersion(JsonNode crd) {
        for (JsonNode v : crd.path("spec").path("versions")) {
            if (v.path("storage").asBoolean(false)) {
                return v.path("name").asText();
            }
        }
        return null;
    }

    /** The version named {@code name} of {@code spec.versions}, or a missing node. */
    public static JsonNode version(JsonNode crd, String name) {
        for (JsonNode v : crd.path("spec").path("versions")) {
            if (name.equals(v.path("name").asText())) {
                return v;
            }
        }
        return crd.path("spec").path("versions").path(-1);
    }

    /** The served versions, in kube's version priority order (GA before beta before alpha, newer first). */
    public static List<String> servedVersions(JsonNode crd) {
        List<String> served = new ArrayList<>();
        for (JsonNode v : crd.path("spec").path("versions")) {
            if (v.path("served").asBoolean(false)) {
                served.add(v.path("name").asText());
            }
        }
        served.sort(VersionPriority::compare);
        return served;
    }

    /** kube's version priority: negative when version {@code a} is preferred over {@code b}. */
    public static int compareVersions(String a, String b) {
        return VersionPriority.compare(a, b);
    }

    /** The condition of {@code type} in {@code status.conditions}, or null. */
    public static JsonNode condition(JsonNode crd, String type) {
        for (JsonNode c : crd.path("status").path("conditions")) {
            if (type.equals(c.path("type").asText())) {
                return c;
            }
        }
        return null;
    }

    public static boolean conditionTrue(JsonNode crd, String type) {
        JsonNode c = condition(crd, type);
        return c != null && "True".equals(c.path("status").asText());
    }

    /**
     * Sets a condition in {@code status.conditions} as kube's SetCRDCondition does: the
     * lastTransitionTime changes only when the status does; reason and message are replaced.
     *
     * @return whether anything changed
     */
    public static boolean setCondition(ObjectNode crd, String type, String status, String reason, String message) {
        ObjectNode st = crd.has("status") && crd.get("status").isObject() ? (ObjectNode) crd.get("status")
                : crd.putObject("status");
        ArrayNode conditions = st.has("conditions") && st.get("conditions").isArray() ? (ArrayNode) st.get("conditions")
                : st.putArray("conditions");
        for (JsonNode c : conditions) {
            if (type.equals(c.path("type").asText())) {
                ObjectNode o = (ObjectNode) c;
                boolean changed = false;
                if (!status.equals(o.path("status").asText())) {
                    o.put("status", status);
                    o.put("lastTransitionTime", now());
                    changed = true;
                }
                if (!reason.equals(o.path("reason").asText())) {
                    o.put("reason", reason);
                    changed = true;
                }
                if (!message.equals(o.path("message").asText())) {
                    o.put("message", message);
                    changed = true;
                }
                return changed;
            }
        }
        ObjectNode c = conditions.addObject();
        c.put("type", type);
        c.put("status", status);
        c.put("lastTransitionTime", now());
        c.put("reason", reason);
        c.put("message", message);
        return true;
    }

    /** Removes the condition of {@code type}; whether there was one. */
    public static boolean removeCondition(ObjectNode crd, String type) {
        JsonNode conditions = crd.path("status").path("conditions");
        if (!conditions.isArray()) {
            return false;
        }
        for (int i = 0; i < conditions.size(); i++) {
            if (type.equals(conditions.get(i).path("type").asText())) {
                ((ArrayNode) conditions).remove(i);
                return true;
            }
        }
        return false;
    }

    static String now() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    }

    /** A JSON array of the strings. */
    public static ArrayNode strings(List<String> values) {
        ArrayNode a = JsonNodeFactory.instance.arrayNode();
        values.forEach(a::add);
        return a;
    }
}
