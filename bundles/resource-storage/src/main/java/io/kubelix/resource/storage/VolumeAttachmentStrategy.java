package io.kubelix.resource.storage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.validation.GoSyntax;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The VolumeAttachment strategy (pkg/registry/storage/volumeattachment): a new attachment starts
 * with a zero status and the main resource keeps the stored one; the spec names an attacher (a CSI
 * driver name), exactly one source and a node, and never changes.
 */
final class VolumeAttachmentStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
    static final String EXACTLY_ONE_SOURCE = "must specify exactly one of inlineVolumeSpec and persistentVolumeName";
    static final int MAX_METADATA_SIZE = 256 * 1024;
    static final int MAX_ERROR_MESSAGE_SIZE = 1024;

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        obj.putObject("status").put("attached", false);
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        StatusStrategies.resetStatus(obj, old);
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        List<FieldError> errs = validateSpec(obj.path("spec"));
        errs.addAll(validateStatus(obj.path("status")));
        return errs;
    }

    /** ValidateVolumeAttachment and its v1 additions. */
    static List<FieldError> validateSpec(JsonNode spec) {
        List<FieldError> errs = new ArrayList<>();
        String attacher = spec.path("attacher").asText("");
        if (attacher.isEmpty()) {
            errs.add(FieldError.required("spec.attacher", ""));
        }
        JsonNode source = spec.path("source");
        boolean pv = !StorageValidation.unset(source, "persistentVolumeName");
        boolean inline = !StorageValidation.unset(source, "inlineVolumeSpec");
        if (!pv && !inline) {
            errs.add(FieldError.required("spec.source", EXACTLY_ONE_SOURCE));
        } else if (pv && inline) {
            errs.add(FieldError.forbidden("spec.source", EXACTLY_ONE_SOURCE));
        } else if (pv && source.path("persistentVolumeName").asText().isEmpty()) {
            errs.add(FieldError.required("spec.source.persistentVolumeName", "must specify non empty persistentVolumeName"));
        }
        errs.addAll(StorageValidation.subdomain(spec.path("nodeName").asText(""), "spec.nodeName"));
        errs.addAll(StorageValidation.subdomain(attacher, "spec.attacher"));
        if (pv && !source.path("persistentVolumeName").asText().isEmpty()) {
            String name = source.path("persistentVolumeName").asText();
            errs.addAll(StorageValidation.subdomain(name, "spec.source.persistentVolumeName"));
        }
        return errs;
    }

    static List<FieldError> validateStatus(JsonNode status) {
        List<FieldError> errs = new ArrayList<>();
        long size = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = status.path("attachmentMetadata").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            size += e.getKey().length() + e.getValue().asText().length();
        }
        if (size > MAX_METADATA_SIZE) {
            errs.add(FieldError.tooLong("status.attachmentMetadata", "", MAX_METADATA_SIZE));
        }
        for (String field : new String[] {"attachError", "detachError"}) {
            JsonNode e = status.path(field);
            if (e.path("message").asText("").length() > MAX_ERROR_MESSAGE_SIZE) {
                errs.add(FieldError.tooLong("status." + field + ".message", "", MAX_METADATA_SIZE));
            }
            JsonNode code = e.get("errorCode");
            if (code != null && !code.isNull() && code.asLong() < 0) {
                errs.add(FieldError.invalid("status." + field + ".errorCode", code.asLong(),
                        "must be between 0 and 2147483647, inclusive"));
            }
        }
        return errs;
    }

    /** ValidateVolumeAttachmentUpdate: the object as on create, and the spec unchanged. */
    static List<FieldError> validateUpdate(ObjectNode obj, ObjectNode old) {
        List<FieldError> errs = validateSpec(obj.path("spec"));
        errs.addAll(validateStatus(obj.path("status")));
        if (!obj.path("spec").equals(old.path("spec"))) {
            errs.add(FieldError.invalid("spec", new GoSyntax(goSpec(obj.path("spec"))), StorageValidation.IMMUTABLE));
        }
        return errs;
    }

    /** The spec as Go's %#v prints storage.VolumeAttachmentSpec, with pointers shown by their values. */
    private static String goSpec(JsonNode spec) {
        JsonNode source = spec.path("source");
        String pv = StorageValidation.unset(source, "persistentVolumeName") ? "(*string)(nil)"
                : "\"" + source.path("persistentVolumeName").asText() + "\"";
        String inline = StorageValidation.unset(source, "inlineVolumeSpec") ? "(*core.PersistentVolumeSpec)(nil)"
                : source.path("inlineVolumeSpec").toString();
        return "storage.VolumeAttachmentSpec{Attacher:\"" + spec.path("attacher").asText("") + "\", Source:"
                + "storage.VolumeAttachmentSource{PersistentVolumeName:" + pv + ", InlineVolumeSpec:" + inline + "}, "
                + "NodeName:\"" + spec.path("nodeName").asText("") + "\"}";
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return validateUpdate(obj, old);
    }
}
