package io.kubelix.runtime.fieldmanager;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.runtime.codec.Codecs;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The managers of an object and the fields each owns, decoded from {@code metadata.managedFields}
 * (k8s' fieldmanager Managed). A manager is identified as kube identifies it: the JSON of its
 * entry without fields and time, and without the apiVersion for an {@code Apply} entry, so that
 * an applier is one manager whatever version it applies.
 */
final class ManagedFields {
    static final String APPLY = "Apply";
    static final String UPDATE = "Update";
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /** A manager's fields at the version it used; {@code applied} for an {@code Apply} entry. */
    record VersionedSet(FieldSet set, String apiVersion, boolean applied) {
    }

    /** The manager identifier of an entry. */
    record Manager(String manager, String operation, String apiVersion, String subresource) {
        String id() {
            ObjectNode o = F.objectNode();
            o.put("manager", manager);
            o.put("operation", operation);
            if (!operation.equals(APPLY) && !apiVersion.isEmpty()) {
                o.put("apiVersion", apiVersion);
            }
            if (!subresource.isEmpty()) {
                o.put("subresource", subresource);
            }
            return o.toString();
        }

        static Manager parse(String id) {
            JsonNode o;
            try {
                o = Codecs.json().readTree(id);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                return new Manager(id, UPDATE, "", "");
            }
            return new Manager(o.path("manager").asText(""), o.path("operation").asText(""),
                    o.path("apiVersion").asText(""), o.path("subresource").asText(""));
        }

        /** The manager as kube names it in a conflict: {@code "name"}, with {@code using v1} for an updater. */
        String printed() {
            String s = "\"" + manager + "\"";
            if (!subresource.isEmpty()) {
                s += " with subresource \"" + subresource + "\"";
            }
            return operation.equals(UPDATE) ? s + " using " + apiVersion : s;
        }
    }

    final Map<String, VersionedSet> fields = new LinkedHashMap<>();
    final Map<String, String> times = new LinkedHashMap<>();

    ManagedFields copy() {
        ManagedFields m = new ManagedFields();
        m.fields.putAll(fields);
        m.times.putAll(times);
        return m;
    }

    /**
     * Decodes {@code metadata.managedFields}.
     *
     * @throws IllegalArgumentException when an entry is not a valid one, as kube refuses it
     */
    static ManagedFields decode(JsonNode entries) {
        ManagedFields m = new ManagedFields();
        if (entries == null || entries.isNull()) {
            return m;
        }
        if (!entries.isArray()) {
            throw new IllegalArgumentException("managedFields must be a list");
        }
        int i = 0;
        for (JsonNode e : entries) {
            if (!e.isObject()) {
                throw new IllegalArgumentException("managed fields entry " + i + " must be an object");
            }
            String operation = e.path("operation").asText("");
            if (!operation.equals(APPLY) && !operation.equals(UPDATE)) {
                throw new IllegalArgumentException("operation must be `Apply` or `Update`");
            }
            String apiVersion = e.path("apiVersion").asText("");
            if (apiVersion.isEmpty()) {
                throw new IllegalArgumentException("apiVersion must not be empty");
            }
            String fieldsType = e.path("fieldsType").asText("");
            if (fieldsType.isEmpty()) {
                throw new IllegalArgumentException("missing fieldsType in managed fields entry " + i);
            }
            if (!fieldsType.equals("FieldsV1")) {
                throw new IllegalArgumentException("invalid fieldsType \"" + fieldsType + "\" in managed fields entry " + i);
            }
            FieldSet set = e.hasNonNull("fieldsV1") ? FieldSet.fromFieldsV1(e.get("fieldsV1")) : new FieldSet();
            String id = new Manager(e.path("manager").asText(""), operation, apiVersion,
                    e.path("subresource").asText("")).id();
            m.fields.put(id, new VersionedSet(set, apiVersion, operation.equals(APPLY)));
            if (e.hasNonNull("time")) {
                m.times.put(id, e.get("time").asText());
            }
            i++;
        }
        return m;
    }

    /** Whether a request's managedFields is kube's request to clear them: one or more empty entries. */
    static boolean isReset(JsonNode entries) {
        if (entries == null || !entries.isArray() || entries.isEmpty()) {
            return false;
        }
        for (JsonNode e : entries) {
            if (!e.isObject() || !e.isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /** The entries in kube's order: Apply before Update, then by time, manager, apiVersion, subresource. */
    ArrayNode encode() {
        List<ObjectNode> out = new ArrayList<>();
        fields.forEach((id, vs) -> {
            if (vs.set().isEmpty()) {
                return;
            }
            Manager m = Manager.parse(id);
            ObjectNode e = F.objectNode();
            e.put("manager", m.manager());
            e.put("operation", m.operation());
            e.put("apiVersion", vs.apiVersion());
            if (times.get(id) != null) {
                e.put("time", times.get(id));
            }
            e.put("fieldsType", "FieldsV1");
            e.set("fieldsV1", vs.set().toFieldsV1());
            if (!m.subresource().isEmpty()) {
                e.put("subresource", m.subresource());
            }
            out.add(e);
        });
        out.sort(Comparator.<ObjectNode, String>comparing(e -> e.path("operation").asText())
                .thenComparing(e -> e.path("time").asText(""))
                .thenComparing(e -> e.path("manager").asText())
                .thenComparing(e -> e.path("apiVersion").asText())
                .thenComparing(e -> e.path("subresource").asText("")));
        ArrayNode a = F.arrayNode();
        out.forEach(a::add);
        return a;
    }
}
