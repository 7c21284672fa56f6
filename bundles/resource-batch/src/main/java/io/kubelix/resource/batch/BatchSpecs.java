package io.kubelix.resource.batch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;

import java.util.Locale;
import java.util.Optional;

/** Reading a batch object's spec as kube's decoder does: missing is Go's zero value, another JSON type a 400. */
final class BatchSpecs {
    /** The int32 fields of a job spec, which kube refuses to decode from anything else. */
    private static final String[] JOB_INT_FIELDS = {"parallelism", "completions", "backoffLimit", "backoffLimitPerIndex",
            "maxFailedIndexes", "ttlSecondsAfterFinished"};

    private BatchSpecs() {
    }

    /**
     * The object's spec, created when missing. A spec, or an integer field of a job spec, of
     * another JSON type is a 400, as kube's decoder answers; an object that is not a job or
     * cronjob spec at all is left to validation.
     */
    static Optional<ObjectNode> spec(ObjectNode obj, String kind) {
        JsonNode spec = obj.get("spec");
        if (spec == null || spec.isNull()) {
            return Optional.of(obj.putObject("spec"));
        }
        if (!(spec instanceof ObjectNode s)) {
            throw undecodable(kind, spec, kind + ".spec", "v1." + kind + "Spec");
        }
        if (kind.equals("Job")) {
            for (String f : JOB_INT_FIELDS) {
                JsonNode v = s.get(f);
                if (v != null && !v.isNull() && !(v.isIntegralNumber() && v.canConvertToInt())) {
                    throw undecodable(kind, v, "JobSpec.spec." + f, "int32");
                }
            }
        }
        return Optional.of(s);
    }

    /** The object at {@code field}, created when missing or null; null when it is something else. */
    static ObjectNode object(ObjectNode parent, String field) {
        JsonNode v = parent.get(field);
        if (v == null || v.isNull()) {
            return parent.putObject(field);
        }
        return v instanceof ObjectNode o ? o : null;
    }

    private static StatusException undecodable(String kind, JsonNode value, String goField, String goType) {
        String jsonType = value.isNumber() ? "number" : value.getNodeType().name().toLowerCase(Locale.ROOT);
        return StatusException.badRequest(kind + " in version \"v1\" cannot be handled as a " + kind + ": json: cannot "
                + "unmarshal " + jsonType + " into Go struct field " + goField + " of type " + goType);
    }
}
