package io.kubelix.resource.storage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.validation.GoSyntax;
import io.kubelix.api.validation.NameValidators;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The CSINode strategy: each driver has a valid name (once per node), a node ID of at most 192
 * characters and qualified topology keys; a driver already registered cannot change, except its
 * allocatable count (kube's MutableCSINodeAllocatableCount).
 */
final class CSINodeStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
    static final int NODE_ID_MAX_LENGTH = 192;

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        List<FieldError> errs = new ArrayList<>();
        Set<String> names = new HashSet<>();
        JsonNode drivers = obj.path("spec").path("drivers");
        for (int i = 0; i < drivers.size(); i++) {
            String path = "spec.drivers[" + i + "]";
            JsonNode driver = drivers.get(i);
            String name = driver.path("name").asText("");
            errs.addAll(StorageValidation.subdomain(name, path + ".name"));
            String nodeID = driver.path("nodeID").asText("");
            if (nodeID.isEmpty()) {
                errs.add(FieldError.required(path + ".nodeID", ""));
            }
            if (nodeID.length() > NODE_ID_MAX_LENGTH) {
                errs.add(FieldError.invalid(path + ".nodeID", nodeID, "must be " + NODE_ID_MAX_LENGTH
                        + " characters or less"));
            }
            JsonNode count = driver.path("allocatable").get("count");
            if (count != null && !count.isNull() && count.asLong() < 0) {
                errs.add(FieldError.invalid(path + ".allocatable.count", count.asLong(),
                        "must be greater than or equal to 0"));
            }
            if (!names.add(name)) {
                errs.add(FieldError.duplicate(path + ".name", name));
            }
            Set<String> keys = new HashSet<>();
            for (JsonNode k : driver.path("topologyKeys")) {
                String key = k.asText("");
                if (key.isEmpty()) {
                    errs.add(FieldError.required(path, ""));
                }
                if (!keys.add(key)) {
                    errs.add(FieldError.duplicate(path, key));
                }
                NameValidators.isQualifiedName(key).forEach(m -> errs.add(FieldError.invalid(path, key, m)));
            }
        }
        return errs;
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        List<FieldError> errs = validate(ctx, obj);
        for (JsonNode was : old.path("spec").path("drivers")) {
            for (JsonNode now : obj.path("spec").path("drivers")) {
                if (was.path("name").equals(now.path("name")) && !withoutAllocatable(was).equals(withoutAllocatable(now))) {
                    errs.add(FieldError.invalid("spec.drivers", new GoSyntax(now.toString()),
                            StorageValidation.IMMUTABLE));
                }
            }
        }
        return errs;
    }

    private static JsonNode withoutAllocatable(JsonNode driver) {
        ObjectNode copy = driver.deepCopy();
        copy.remove("allocatable");
        return copy;
    }
}
