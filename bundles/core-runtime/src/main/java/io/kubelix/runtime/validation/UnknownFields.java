package io.kubelix.runtime.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.schema.ResourceSchema;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The fields of an object that its resource's OpenAPI schema does not know, as kube-apiserver's
 * strict decoding of built-in types finds them. A field is unknown when the schema of the object
 * holding it names it in no {@code properties} and allows no others: no
 * {@code additionalProperties}, no {@code x-kubernetes-preserve-unknown-fields: true}. A schema
 * that says nothing about an object's fields ({@code {"type": "object"}}, such as FieldsV1 or
 * RawExtension) leaves it free-form. Only the outermost unknown field of a subtree is reported.
 *
 * <p>Paths read as kube words them: {@code spec.template.spec.containers[0].unknownNested}.
 */
final class UnknownFields {
    /** A schema position under which anything goes. */
    static final JsonNode ANY = null;

    private final ResourceSchema schema;

    UnknownFields(ResourceSchema schema) {
        this.schema = schema;
    }

    /** The schema of the object itself. */
    JsonNode root() {
        return schema.root();
    }

    /**
     * The schema of field {@code name} of an object whose schema is {@code objectSchema}:
     * {@link #ANY} when anything goes, or null-safe {@link Field#unknown()} when it is not allowed.
     */
    Field field(JsonNode objectSchema, String name) {
        JsonNode s = resolve(objectSchema);
        if (s == ANY) {
            return new Field(false, ANY);
        }
        JsonNode prop = s.path("properties").get(name);
        if (prop != null) {
            return new Field(false, resolve(prop));
        }
        JsonNode additional = s.get("additionalProperties");
        if (additional != null && additional.isObject()) {
            return new Field(false, resolve(additional));
        }
        if (additional != null && additional.asBoolean(false)
                || s.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)
                || !s.has("properties") && additional == null) {
            return new Field(false, ANY);
        }
        return new Field(true, ANY);
    }

    /** The schema of the items of a list whose schema is {@code listSchema}. */
    JsonNode items(JsonNode listSchema) {
        JsonNode s = resolve(listSchema);
        return s == ANY ? ANY : resolve(s.get("items"));
    }

    /** A schema with its reference followed, or {@link #ANY} for none. */
    JsonNode resolve(JsonNode s) {
        for (int hops = 0; s != null && hops < 64; hops++) {
            JsonNode target = schema.resolve(s);
            if (target == null) {
                return s.isObject() && !s.isEmpty() ? s : ANY;
            }
            s = target;
        }
        return ANY;
    }

    /** Where a field stands in the schema: not allowed, or allowed with this schema ({@link #ANY} for free-form). */
    record Field(boolean unknown, JsonNode schema) {
    }

    /**
     * The unknown fields of {@code obj}, depth first with each object's fields in name order (the
     * order kube reports them in for YAML bodies and patched objects), and removes them when
     * {@code prune}.
     */
    List<String> find(ObjectNode obj, boolean prune) {
        List<String> out = new ArrayList<>();
        walk(obj, root(), "", out, prune);
        return out;
    }

    private void walk(JsonNode node, JsonNode s, String path, List<String> out, boolean prune) {
        if (s == ANY) {
            return;
        }
        if (node instanceof ObjectNode o) {
            for (String name : new TreeSet<>(iterable(o))) {
                String p = path.isEmpty() ? name : path + "." + name;
                Field f = field(s, name);
                if (f.unknown()) {
                    out.add(p);
                    if (prune) {
                        o.remove(name);
                    }
                } else {
                    walk(o.get(name), f.schema(), p, out, prune);
                }
            }
        } else if (node instanceof ArrayNode a) {
            JsonNode items = items(s);
            for (int i = 0; i < a.size(); i++) {
                walk(a.get(i), items, path + "[" + i + "]", out, prune);
            }
        }
    }

    private static List<String> iterable(ObjectNode o) {
        List<String> names = new ArrayList<>();
        o.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
