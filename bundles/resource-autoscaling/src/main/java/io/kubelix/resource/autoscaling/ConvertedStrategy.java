package io.kubelix.resource.autoscaling;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StorageConversion;
import io.kubelix.api.request.RequestContext;

import java.util.List;

/**
 * A strategy of the stored version applied to an object of a served version, as kube applies its
 * strategies to the internal version whatever version the client sent: the object is converted,
 * defaulted or validated there, and converted back in place. Field paths are the stored version's.
 */
final class ConvertedStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
    private final StorageConversion conversion;
    /** Null for a status subresource, which only updates. */
    private final RESTCreateStrategy create;
    private final RESTUpdateStrategy update;

    ConvertedStrategy(StorageConversion conversion, RESTCreateStrategy create, RESTUpdateStrategy update) {
        this.conversion = conversion;
        this.create = create;
        this.update = update;
    }

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        ObjectNode stored = conversion.toStorage(obj);
        create.prepareForCreate(ctx, stored);
        replace(obj, conversion.fromStorage(stored));
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        return create.validate(ctx, conversion.toStorage(obj));
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        ObjectNode stored = conversion.toStorage(obj);
        update.prepareForUpdate(ctx, stored, conversion.toStorage(old));
        replace(obj, conversion.fromStorage(stored));
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return update.validateUpdate(ctx, conversion.toStorage(obj), conversion.toStorage(old));
    }

    /**
     * Makes {@code obj} the converted result, keeping its metadata node (the Store holds it across the
     * strategy call to fill system fields).
     */
    private static void replace(ObjectNode obj, ObjectNode with) {
        ObjectNode meta = obj.get("metadata") instanceof ObjectNode m ? m : null;
        obj.removeAll();
        obj.setAll(with);
        if (meta != null && with.get("metadata") instanceof ObjectNode converted) {
            meta.removeAll();
            meta.setAll(converted);
            obj.set("metadata", meta);
        }
    }
}
