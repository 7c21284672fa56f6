package io.kubelix.resource.core.common;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;

import java.util.Locale;

/** The {@code spec} of a core/v1 object with one, as the strategies that default it need it. */
public final class Specs {

    private Specs() {
    }

    /**
     * The object's spec, created when missing (Go's zero value); a spec of another JSON type is a 400,
     * worded as kube's decoder words it.
     */
    public static ObjectNode spec(ObjectNode obj, String kind) {
        JsonNode spec = obj.get("spec");
        if (spec == null || spec.isNull()) {
            return obj.putObject("spec");
        }
        if (!(spec instanceof ObjectNode s)) {
            String jsonType = spec.isNumber() ? "number" : spec.getNodeType().name().toLowerCase(Locale.ROOT);
            throw StatusException.badRequest(kind + " in version \"v1\" cannot be handled as a " + kind + ": json: "
                    + "cannot unmarshal " + jsonType + " into Go struct field " + kind + ".spec of type v1." + kind + "Spec");
        }
        return s;
    }
}
