package io.kubelix.resource.storage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.request.RequestContext;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The StorageClass strategy: {@code reclaimPolicy} defaults to {@code Delete} and
 * {@code volumeBindingMode} to {@code Immediate}; the provisioner must be a qualified name; the
 * provisioner, parameters, reclaim policy and binding mode never change.
 */
final class StorageClassStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
    static final List<String> RECLAIM_POLICIES = List.of("Delete", "Retain");
    static final List<String> BINDING_MODES = List.of("Immediate", "WaitForFirstConsumer");
    static final int MAX_PARAMETERS = 512;
    static final int MAX_PARAMETERS_SIZE = 256 * 1024;

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        setDefaults(obj);
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        setDefaults(obj);
    }

    static void setDefaults(ObjectNode obj) {
        if (StorageValidation.unset(obj, "reclaimPolicy")) {
            obj.put("reclaimPolicy", "Delete");
        }
        if (StorageValidation.unset(obj, "volumeBindingMode")) {
            obj.put("volumeBindingMode", "Immediate");
        }
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        List<FieldError> errs = new ArrayList<>(StorageValidation.qualifiedName(StorageValidation.text(obj, "provisioner"),
                "provisioner"));
        errs.addAll(parameters(obj.path("parameters")));
        String reclaim = StorageValidation.text(obj, "reclaimPolicy");
        if (reclaim != null && !reclaim.isEmpty() && !RECLAIM_POLICIES.contains(reclaim)) {
            errs.add(FieldError.notSupported("reclaimPolicy", reclaim, RECLAIM_POLICIES));
        }
        String mode = StorageValidation.text(obj, "volumeBindingMode");
        if (mode == null) {
            errs.add(FieldError.required("volumeBindingMode", ""));
        } else if (!BINDING_MODES.contains(mode)) {
            errs.add(FieldError.notSupported("volumeBindingMode", mode, BINDING_MODES));
        }
        return errs;
    }

    private static List<FieldError> parameters(JsonNode params) {
        List<FieldError> errs = new ArrayList<>();
        if (!params.isObject()) {
            return errs;
        }
        if (params.size() > MAX_PARAMETERS) {
            errs.add(FieldError.tooLong("parameters", "", MAX_PARAMETERS));
            return errs;
        }
        long size = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = params.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getKey().isEmpty()) {
                errs.add(FieldError.invalid("parameters", "", "field can not be empty."));
            }
            size += e.getKey().length() + e.getValue().asText().length();
        }
        if (size > MAX_PARAMETERS_SIZE) {
            errs.add(FieldError.tooLong("parameters", "", MAX_PARAMETERS_SIZE));
        }
        return errs;
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        List<FieldError> errs = new ArrayList<>();
        if (!emptyAsMissing(obj.path("parameters")).equals(emptyAsMissing(old.path("parameters")))) {
            errs.add(FieldError.forbidden("parameters", "updates to parameters are forbidden."));
        }
        if (!Objects.equals(StorageValidation.text(obj, "provisioner"), StorageValidation.text(old, "provisioner"))) {
            errs.add(FieldError.forbidden("provisioner", "updates to provisioner are forbidden."));
        }
        if (!Objects.equals(StorageValidation.text(obj, "reclaimPolicy"), StorageValidation.text(old, "reclaimPolicy"))) {
            errs.add(FieldError.forbidden("reclaimPolicy", "updates to reclaimPolicy are forbidden."));
        }
        String mode = StorageValidation.text(obj, "volumeBindingMode");
        if (!Objects.equals(mode, StorageValidation.text(old, "volumeBindingMode"))) {
            errs.add(FieldError.invalid("volumeBindingMode", mode, StorageValidation.IMMUTABLE));
        }
        return errs;
    }

    /** A map with no entries as no map, as reflect.DeepEqual sees decoded nil maps. */
    private static JsonNode emptyAsMissing(JsonNode map) {
        return map.isObject() && map.isEmpty() || map.isNull() ? MissingNode.getInstance() : map;
    }
}
