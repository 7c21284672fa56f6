package io.kubelix.apiextensions.customresource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.apiextensions.schema.Defaulting;
import io.kubelix.apiextensions.schema.Pruning;
import io.kubelix.apiextensions.schema.SchemaValidator;
import io.kubelix.apiextensions.schema.ValidationRules;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupResource;

import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * kube's customresource strategy for one served version of a CRD: unknown fields are pruned and
 * defaults applied by the version's structural schema, the object is validated against it (an
 * update only where it changes a value, as kube 1.33 ratchets), then by its CEL rules, the
 * status is the {@code status} subresource's when the version has one (ignored on create, kept on
 * update), and a CRD being deleted takes no new objects.
 */
final class CustomResourceStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
    private final GroupResource resource;
    private final ObjectNode schema;
    private final SchemaValidator validator;
    private final ValidationRules rules;
    private final boolean statusSubresource;
    private final BooleanSupplier terminating;

    CustomResourceStrategy(GroupResource resource, ObjectNode schema, boolean statusSubresource, BooleanSupplier terminating) {
        this.resource = resource;
        this.schema = schema;
        this.validator = new SchemaValidator(schema);
        this.rules = ValidationRules.of(schema);
        this.statusSubresource = statusSubresource;
        this.terminating = terminating;
    }

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        if (terminating.getAsBoolean()) {
            throw new StatusException(StatusReason.METHOD_NOT_ALLOWED, 405,
                    "create not allowed while custom resource definition is terminating",
                    new StatusException.Details(null, resource.group(), resource.resource(), List.of(), 0), null);
        }
        if (statusSubresource) {
            obj.remove("status");
        }
        normalize(obj);
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        if (statusSubresource) {
            StatusStrategies.resetStatus(obj, old);
        }
        normalize(obj);
    }

    /** Pruning, then defaulting, as kube's decoder does for every object it reads. */
    void normalize(ObjectNode obj) {
        Pruning.prune(obj, schema);
        Defaulting.apply(obj, schema);
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        return validate(ctx, obj, null);
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return validate(ctx, obj, old);
    }

    /** The schema's errors, then, when there are none, the CEL rules' (kube runs rules on schema-valid objects only). */
    private List<FieldError> validate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        List<FieldError> errs = old == null ? validator.validate(obj) : validator.validateUpdate(obj, old);
        if (!errs.isEmpty()) {
            return errs;
        }
        ValidationRules.Result result = rules.validate(obj, old);
        result.warnings().forEach(ctx::addWarning);
        return result.errors();
    }

    /** kube's customresource statusStrategy: only the status changes; it is pruned, defaulted and validated. */
    RESTUpdateStrategy statusStrategy() {
        return new RESTUpdateStrategy() {
            @Override
            public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
                StatusStrategies.keepOnlyStatus(obj, old);
                normalize(obj);
            }

            @Override
            public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
                return validate(ctx, obj, old);
            }
        };
    }

    static boolean hasStatus(JsonNode version) {
        return version.path("subresources").path("status").isObject();
    }
}
