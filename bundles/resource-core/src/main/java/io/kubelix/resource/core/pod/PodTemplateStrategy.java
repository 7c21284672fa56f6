package io.kubelix.resource.core.pod;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.core.v1.PodTemplateDefaults;
import io.kubelix.api.core.v1.PodTemplateValidation;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.request.RequestContext;

import java.util.List;

/**
 * The PodTemplate strategy (pkg/registry/core/podtemplate/strategy.go): the template gets the pod
 * spec defaults on every write and is validated as kube's ValidatePodTemplate, which validates
 * {@code template} as a PodTemplateSpec. Pod templates carry a generation, bumped when the template
 * changes.
 */
final class PodTemplateStrategy implements RESTCreateStrategy, RESTUpdateStrategy {

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        setDefaults(obj);
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        setDefaults(obj);
    }

    private static void setDefaults(ObjectNode obj) {
        if (obj.get("template") instanceof ObjectNode template) {
            PodTemplateDefaults.setPodTemplateSpecDefaults(template);
        }
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        // A missing template is Go's zero value, which fails for its missing containers, not as missing.
        JsonNode template = obj.hasNonNull("template") ? obj.get("template") : obj.objectNode();
        return PodTemplateValidation.validatePodTemplateSpec(template, "template");
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return validate(ctx, obj);
    }
}
