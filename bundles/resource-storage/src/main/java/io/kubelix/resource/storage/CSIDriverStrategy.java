package io.kubelix.resource.storage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.validation.GoSyntax;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The CSIDriver strategy: kube's v1 defaults ({@code attachRequired} true, {@code podInfoOnMount},
 * {@code storageCapacity}, {@code requiresRepublish} and {@code seLinuxMount} false,
 * {@code fsGroupPolicy} {@code ReadWriteOnceWithFSType}, {@code volumeLifecycleModes}
 * {@code [Persistent]}), its spec validation, and {@code attachRequired} and
 * {@code volumeLifecycleModes} immutable (kube names the first {@code spec.attachedRequired}).
 */
final class CSIDriverStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
    static final List<String> FS_GROUP_POLICIES = List.of("File", "None", "ReadWriteOnceWithFSType");
    static final List<String> LIFECYCLE_MODES = List.of("Persistent", "Ephemeral");
    static final long MIN_TOKEN_SECONDS = 600;
    static final long MAX_TOKEN_SECONDS = 1L << 32;

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        setDefaults(spec(obj));
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        setDefaults(spec(obj));
    }

    /** The spec, created when missing; the server's typed decoding has refused one of another JSON type. */
    private static ObjectNode spec(ObjectNode obj) {
        return obj.get("spec") instanceof ObjectNode s ? s : obj.putObject("spec");
    }

    static void setDefaults(ObjectNode spec) {
        defaultTo(spec, "attachRequired", true);
        defaultTo(spec, "podInfoOnMount", false);
        defaultTo(spec, "storageCapacity", false);
        if (StorageValidation.unset(spec, "fsGroupPolicy")) {
            spec.put("fsGroupPolicy", "ReadWriteOnceWithFSType");
        }
        if (spec.path("volumeLifecycleModes").isEmpty()) {
            spec.putArray("volumeLifecycleModes").add("Persistent");
        }
        defaultTo(spec, "requiresRepublish", false);
        defaultTo(spec, "seLinuxMount", false);
    }

    private static void defaultTo(ObjectNode spec, String field, boolean value) {
        if (StorageValidation.unset(spec, field)) {
            spec.put(field, value);
        }
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        return validateSpec(obj.path("spec"));
    }

    private static List<FieldError> validateSpec(JsonNode spec) {
        List<FieldError> errs = new ArrayList<>();
        for (String[] f : new String[][] {{"attachRequired", "attachedRequired"}, {"podInfoOnMount", "podInfoOnMount"},
                {"storageCapacity", "storageCapacity"}, {"seLinuxMount", "seLinuxMount"}}) {
            if (StorageValidation.unset(spec, f[0])) {
                errs.add(FieldError.required("spec." + f[1], ""));
            }
        }
        String policy = StorageValidation.text(spec, "fsGroupPolicy");
        if (policy != null && !FS_GROUP_POLICIES.contains(policy)) {
            errs.add(FieldError.notSupported("spec.fsGroupPolicy", policy, FS_GROUP_POLICIES));
        }
        Set<String> audiences = new HashSet<>();
        JsonNode requests = spec.path("tokenRequests");
        for (int i = 0; i < requests.size(); i++) {
            String path = "spec.tokenRequests[" + i + "]";
            String audience = requests.get(i).path("audience").asText("");
            if (!audiences.add(audience)) {
                errs.add(FieldError.duplicate(path + ".audience", audience));
                continue;
            }
            JsonNode seconds = requests.get(i).get("expirationSeconds");
            if (seconds != null && !seconds.isNull()) {
                if (seconds.asLong() < MIN_TOKEN_SECONDS) {
                    errs.add(FieldError.invalid(path + ".expirationSeconds", seconds.asLong(),
                            "may not specify a duration less than 10 minutes"));
                }
                if (seconds.asLong() > MAX_TOKEN_SECONDS) {
                    errs.add(FieldError.invalid(path + ".expirationSeconds", seconds.asLong(),
                            "may not specify a duration larger than 2^32 seconds"));
                }
            }
        }
        for (JsonNode mode : spec.path("volumeLifecycleModes")) {
            if (!LIFECYCLE_MODES.contains(mode.asText())) {
                errs.add(FieldError.notSupported("spec.volumeLifecycleModes", mode.asText(), LIFECYCLE_MODES));
            }
        }
        JsonNode period = spec.get("nodeAllocatableUpdatePeriodSeconds");
        if (period != null && !period.isNull() && period.asLong() < 10) {
            errs.add(FieldError.invalid("spec.nodeAllocatableUpdatePeriodSeconds", period.asLong(),
                    "must be greater than or equal to 10 seconds"));
        }
        return errs;
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        JsonNode spec = obj.path("spec");
        List<FieldError> errs = validateSpec(spec);
        JsonNode attach = spec.path("attachRequired");
        if (!attach.equals(old.path("spec").path("attachRequired"))) {
            errs.add(FieldError.invalid("spec.attachedRequired", attach.asBoolean(), StorageValidation.IMMUTABLE));
        }
        JsonNode modes = spec.path("volumeLifecycleModes");
        if (!modes.equals(old.path("spec").path("volumeLifecycleModes"))) {
            List<String> values = new ArrayList<>();
            modes.forEach(m -> values.add("\"" + m.asText() + "\""));
            errs.add(FieldError.invalid("spec.volumeLifecycleModes", new GoSyntax("[]storage.VolumeLifecycleMode{"
                    + String.join(", ", values) + "}"), StorageValidation.IMMUTABLE));
        }
        return errs;
    }
}
